# On the segment, alpha = P(bet | J) = P(bet | K) / 3 = P(call | Q, check-bet) - 1/3.
average = mystery.average_policy()
print(average["J"]["b"], average["K"]["b"] / 3, average["Qpb"]["b"] - 1 / 3)  # three readings agree
my_alpha = average["J"]["b"]
