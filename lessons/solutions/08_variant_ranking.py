# Discounting helps: DCFR (which halves negative regrets every iteration and weights the average by
# t^2) edges out CFR+ (which floors regrets at 0); linear CFR helps less, vanilla CFR is last.
my_ranking = ["dcfr", "cfr+", "linear_cfr", "cfr"]
