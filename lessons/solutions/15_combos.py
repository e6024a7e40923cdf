my_combos = 12  # 4 aces x 4 tens = 16; the board's Td is in 4 of them
