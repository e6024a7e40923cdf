# Player 1 has bet, so player 2 acts. Player 2 sees its own card (Q) and the bet, not player 1's J.
my_key = "Qb"
# The node where player 1 holds K instead looks exactly the same to player 2.
my_other_node = "KQ:b"
