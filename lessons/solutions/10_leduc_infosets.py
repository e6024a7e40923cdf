# Round one: 4 private ranks x 6 decision histories.
# Round two: 4 private ranks x 4 public ranks x 5 ways round one ended in a call x 6 histories.
# (With 3 ranks the same count gives 3 x 6 + 3 x 3 x 5 x 6 = 288, the table's number.)
round_one = 4 * 6
round_two = 4 * 4 * 5 * 6
my_count = round_one + round_two  # 24 + 480 = 504
