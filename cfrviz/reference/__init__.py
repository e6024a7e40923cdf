"""Plain, readable versions of the algorithms: what the lessons show and the tests trust.

Nothing in the package's production path calls these; the tests check that
the compiled engine agrees with them.
"""

from .cfr import cfr_variant, self_play_regret_matching, vanilla_cfr, walk

__all__ = ["cfr_variant", "self_play_regret_matching", "vanilla_cfr", "walk"]
