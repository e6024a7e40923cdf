"""OpenSpiel's solvers behind one small interface, for side-by-side benchmarks.

OpenSpiel (``pip install -e '.[bench]'``) is optional: :func:`version` returns
``None`` when ``pyspiel`` cannot be imported, and nothing else here is called
then.  Each adapter runs ``n`` iterations of one OpenSpiel solver in place and
reports the exploitability of its average policy with OpenSpiel's own
``exploitability.exploitability`` (NashConv / 2, the convention cfrviz uses).
"""

from __future__ import annotations


def version() -> str | None:
    """OpenSpiel's version when ``pyspiel`` imports, else ``None``."""
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        return None
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as package_version

    try:
        return package_version("open_spiel")
    except PackageNotFoundError:
        return "unknown version"


class Solver:
    """One OpenSpiel solver on one game, advanced ``n`` iterations at a time."""

    def __init__(self, label: str, game, solver, iterate):
        self.label = label
        self.game = game
        self.solver = solver
        self._iterate = iterate

    def run(self, n: int) -> None:
        iterate = self._iterate
        for _ in range(n):
            iterate()

    def exploitability(self) -> float:
        from open_spiel.python.algorithms import exploitability

        return float(exploitability.exploitability(self.game, self.solver.average_policy()))


def cpp_cfr(game_name: str) -> Solver:
    """C++ vanilla CFR (``pyspiel.CFRSolver``: alternating updates, reach-weighted average)."""
    import pyspiel

    game = pyspiel.load_game(game_name)
    solver = pyspiel.CFRSolver(game)
    return Solver("OpenSpiel C++ CFRSolver", game, solver, solver.evaluate_and_update_policy)


def cpp_cfr_plus(game_name: str) -> Solver:
    """C++ CFR+ (``pyspiel.CFRPlusSolver``: regret matching+, alternating, linear average)."""
    import pyspiel

    game = pyspiel.load_game(game_name)
    solver = pyspiel.CFRPlusSolver(game)
    return Solver("OpenSpiel C++ CFRPlusSolver", game, solver, solver.evaluate_and_update_policy)


def python_cfr(game_name: str) -> Solver:
    """Python vanilla CFR (``open_spiel.python.algorithms.cfr.CFRSolver``)."""
    import pyspiel
    from open_spiel.python.algorithms import cfr

    game = pyspiel.load_game(game_name)
    solver = cfr.CFRSolver(game)
    return Solver("OpenSpiel Python CFRSolver", game, solver, solver.evaluate_and_update_policy)


def python_external_sampling(game_name: str, seed: int = 0) -> Solver:
    """Python external-sampling MCCFR (``ExternalSamplingSolver``, its default simple average).

    It samples with numpy's global generator, which is seeded here so runs repeat.
    """
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import external_sampling_mccfr

    np.random.seed(seed)
    game = pyspiel.load_game(game_name)
    solver = external_sampling_mccfr.ExternalSamplingSolver(game)
    return Solver("OpenSpiel Python ExternalSamplingSolver", game, solver, solver.iteration)


def cpp_external_sampling(game_name: str, seed: int = 0) -> Solver:
    """C++ external-sampling MCCFR (``pyspiel.ExternalSamplingMCCFRSolver``), for context."""
    import pyspiel

    game = pyspiel.load_game(game_name)
    solver = pyspiel.ExternalSamplingMCCFRSolver(game, seed)
    return Solver("OpenSpiel C++ ExternalSamplingMCCFRSolver", game, solver,
                  solver.run_iteration)
