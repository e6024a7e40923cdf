# Player 1 holds J: chance 1/6 x bets 1/3 = 1/18.  Player 1 holds K: chance 1/6 x bets 1 = 1/6.
# Fold: -1 at both nodes.  Call: +2 against J, -2 against K.
my_values = [1/18 * -1 + 1/6 * -1,   # fold: -2/9
             1/18 * 2 + 1/6 * -2]    # call: -2/9
