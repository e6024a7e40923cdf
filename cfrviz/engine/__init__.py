"""The compiled core: flat-array passes over a game tree, compiled once with numba.

Everything here works on a :class:`Plan` (:mod:`.plan`), the tree's arrays laid
out for tight loops: nodes in depth-first preorder (so a parent always
precedes its children and every subtree is a contiguous id range), the edge
into each node labelled with who chose it, and each decision edge's slot
``infoset * width + action`` in the flat (information sets x actions) tables.
The kernels receive those arrays as one typed tuple, ``plan(tree).arrays``
(a :class:`PlanArrays`), the solver's tables as a :class:`Tables`, and
full-tree CFR's variant as an :class:`UpdateRule`.

- :mod:`.cfr`: a full CFR pass is three straight loops over the nodes: reach
  probabilities top-down, values bottom-up, regrets over the edges; CFR+,
  linear CFR and DCFR differ only in how :func:`run_full_tree` folds them in.
- :mod:`.mccfr`: chance, external and outcome sampling walk only the sampled
  part of the tree, with an explicit stack or along one path.
- :mod:`.evaluation`: expected values, best response, exploitability,
  reach probabilities and counterfactual values of a profile.
- :mod:`.multi`: the full-tree CFR family for three or more players (one reach row
  per player and chance), each player's gain from deviating, and the coarse-correlated
  gap of the joint play; imported as ``cfrviz.engine.multi``.

No Python runs per node, and no numpy call per tree level: that overhead is
what kept the first, level-vectorized engine 10x slower than OpenSpiel's C++
on Kuhn poker.  The readable versions the tests hold these kernels to are in
:mod:`cfrviz.reference`.

Random choices (:mod:`.rng`) use SplitMix64 (Steele, Lea and Flood, 2014) on a
one-word state seeded from the caller's ``numpy.random.Generator``.  Its state
is a plain integer, so a run can be saved and resumed bit for bit, and results
do not depend on how the run is split between checkpoints.

Every kernel wears :func:`.jit.kernel` (``njit(cache=True)``): numba stores the
compiled code next to these files (or, read-only, in ``NUMBA_CACHE_DIR`` or the
user's cache folder), so only the first use on a machine pays the compilation
(tens of seconds for all kernels); ``python -m cfrviz.warm`` (run by ``make lab``)
pays it ahead of time.  Compiled code is specific to the argument types, so the
kernels always receive the same ones: :class:`Plan` arrays are read-only and
C-ordered, profiles writeable float64.

Solvers call the kernels as attributes of this package (``engine.run_full_tree``),
which lets tests wrap them.
"""

from .cfr import Tables, UpdateRule, regret_matching_table, run_full_tree
from .evaluation import (
    counterfactual_table,
    tree_best_response,
    tree_expected_values,
    tree_exploitabilities,
    tree_exploitability,
    tree_reach_probabilities,
)
from .jit import cache_folder
from .mccfr import run_chance_sampling, run_external_sampling, run_outcome_sampling
from .plan import CHANCE_EDGE, ROOT_EDGE, Plan, PlanArrays, plan
from .rng import seed_state, uniforms

__all__ = ["CHANCE_EDGE", "ROOT_EDGE", "Plan", "PlanArrays", "Tables", "UpdateRule",
           "counterfactual_table", "plan", "regret_matching_table", "run_chance_sampling",
           "run_external_sampling", "run_full_tree", "run_outcome_sampling", "seed_state",
           "tree_best_response", "tree_exploitabilities", "tree_exploitability",
           "tree_expected_values",
           "tree_reach_probabilities", "uniforms", "cache_folders"]


def cache_folders() -> tuple[str, ...]:
    """The folders numba caches the engine's compiled code in (one per source folder)."""
    folders = {cache_folder(kernel) for kernel in (run_full_tree, run_chance_sampling, uniforms)}
    return tuple(sorted(folder for folder in folders if folder))
