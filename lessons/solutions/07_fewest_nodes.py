# Outcome sampling follows one path per player update; external sampling branches only on the
# updated player's own actions; chance sampling fixes the deal but tries every action of both
# players; vanilla CFR walks the whole tree, once per player.
my_order = ["outcome_sampling", "external_sampling", "chance_sampling", "cfr"]
