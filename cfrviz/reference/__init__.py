"""Plain, readable versions of the algorithms: what the lessons show and the tests trust.

Nothing in the package's production path calls these; the tests check that
the compiled engine agrees with them.
"""

from .cfr import cfr_variant, counterfactual_regret, self_play_regret_matching, vanilla_cfr, walk
from .mccfr import chance_sampling, external_sampling, outcome_sampling

__all__ = ["cfr_variant", "chance_sampling", "counterfactual_regret", "external_sampling",
           "outcome_sampling", "self_play_regret_matching", "vanilla_cfr", "walk"]
