# Rock earned -1 against paper. Paper would have earned 0, scissors +1.
# Regret = what the action would have earned - what rock earned.
my_regrets = [-1 - (-1), 0 - (-1), 1 - (-1)]  # [0, 1, 2]
