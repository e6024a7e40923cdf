# After iteration t = 4 with alpha = 1.5, beta = 0, gamma = 2:
t, alpha, beta, gamma = 4, 1.5, 0.0, 2.0
positive = t**alpha / (t**alpha + 1)  # 8 / 9
negative = t**beta / (t**beta + 1)    # 1 / 2
average = (t / (t + 1)) ** gamma      # 16 / 25
my_factors = [positive, negative, average]
