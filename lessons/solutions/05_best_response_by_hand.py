# Player 2 holds Q, so player 1 holds J or K, each with probability 1/2 before the betting.
# P(bet | J) = 1/5 and P(bet | K) = 1, so given the bet (Bayes):
#   P(J | bet) = (1/2 * 1/5) / (1/2 * 1/5 + 1/2 * 1) = 1/6,   P(K | bet) = 5/6.
# Call: 2 * 1/6 - 2 * 5/6 = -4/3.   Fold: -1 (the ante).  Fold loses less.
my_action = "fold"
my_value = -1
