# Round one: 3 private ranks x 6 decision histories.
# Round two: 3 private ranks x 3 public ranks x 5 ways round one ended in a call x 6 histories.
round_one = 3 * 6
round_two = 3 * 3 * 5 * 6
my_count = round_one + round_two  # 18 + 270 = 288
