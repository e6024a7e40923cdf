# chance deals QJ (1/6), player 1 checks with Q (3/4), player 2 bets with J after a check (1/3).
my_reach = 1/6 * 3/4 * 1/3  # = 1/24
