# Against (r, p, s): rock earns -p + 2s, paper r - 2s, scissors 2p - 2r.
# All equal to 0 gives r = p = 2s, and r + p + s = 1 gives s = 0.2.
my_prediction = [0.4, 0.4, 0.2]
