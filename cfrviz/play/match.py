"""Head-to-head play: two policies play many seeded hands, duplicate style.

Exact evaluation (:func:`cfrviz.expected_values`) says what a policy earns on
average; play shows the same number the way a poker player meets it, as a
running score with luck in it, and a confidence interval says how much luck.

Hands are simulated for all deals at once, walking the flat game tree one
level per step (no per-hand Python loop).  Every random number comes from
``numpy.random.default_rng(seed)``.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from numbers import Integral

import numpy as np

from ..core.checks import whole_number
from ..core.policy import Policy, check_policy
from ..core.tree import CHANCE, TERMINAL, GameTree, check_two_players
from ..engine import tree_expected_values
from ..games.matrix import MatrixGame

#: The 0.975 quantile of the standard normal: a 95% two-sided interval is mean ± Z95 · SE.
Z95 = 1.959963984540054
#: Deals simulated per batch; fixed, so a seed gives the same hands whatever ``hands`` is.
BATCH = 1 << 16


@dataclass(frozen=True)
class MatchResult:
    """The outcome of :func:`head_to_head`, from player A's point of view.

    Attributes
    ----------
    game : str
    names : (str, str)
        Names of A and B.
    deals : int
        Deals sampled; each was played twice, once with A in each seat.
    hands : int
        Hands played, ``2 * deals``.
    mean : float
        A's mean payoff per hand.
    std_error : float
        Standard error of ``mean``, from the spread of the per-deal means
        (the two seatings of one deal share cards, so the deal is the
        independent unit).
    ci : (float, float)
        95% confidence interval for A's expected payoff per hand, by the
        normal approximation ``mean ± 1.96 · std_error`` (the central limit
        theorem; sound for thousands of deals of bounded payoffs).
    seat_means : (float, float)
        A's mean payoff per hand as player 1 and as player 2.
    exact : float
        A's exact expected payoff per hand, the average of the two seats.
    exact_seats : (float, float)
        A's exact expected payoff as player 1 and as player 2.
    seed : int or None
        The seed (None when a Generator was passed).
    """

    game: str
    names: tuple[str, str]
    deals: int
    hands: int
    mean: float
    std_error: float
    ci: tuple[float, float]
    seat_means: tuple[float, float]
    exact: float
    exact_seats: tuple[float, float]
    seed: int | None

    @property
    def half_width(self) -> float:
        """Half the width of the 95% confidence interval."""
        return Z95 * self.std_error

    def __str__(self) -> str:
        a, b = self.names
        return (f"{a} wins {_num(self.mean)} ± {_num(self.half_width)} per hand against {b} "
                f"(95% CI, {self.hands:,} hands); exact {_num(self.exact)}")

    def _repr_html_(self) -> str:
        a, b = (html.escape(n) for n in self.names)
        rows = [("both seats", self.mean, self.exact),
                (f"{a} as player 1", self.seat_means[0], self.exact_seats[0]),
                (f"{a} as player 2", self.seat_means[1], self.exact_seats[1])]
        body = "".join(f"<tr><td>{label}</td><td>{_num(played)}</td><td>{_num(exact)}</td></tr>"
                       for label, played, exact in rows)
        return (f"<p><b>{a}</b> wins {_num(self.mean)} ± {_num(self.half_width)} per hand "
                f"against <b>{b}</b> (95% CI, {self.hands:,} hands of "
                f"{html.escape(self.game)}); exact {_num(self.exact)}</p>"
                f"<table><tr><th>{a}'s payoff per hand</th><th>played</th><th>exact</th></tr>"
                f"{body}</table>")


def _num(x: float) -> str:
    return f"{round(x, 3) + 0.0:.3f}"  # + 0.0 turns a rounded -0.000 into 0.000


class _Sampler:
    """The tree's edges laid out so one ``searchsorted`` picks a child for many hands.

    Children are listed by parent, in action order.  For profile ``k`` the
    entry of child ``c`` of node ``n`` holds ``k * nodes + n + F(c)``, where
    ``F`` is the cumulative probability of ``n``'s children up to ``c``:
    a hand at ``n`` with a uniform ``u`` moves to the first child whose entry
    exceeds ``k * nodes + n + u`` (inverse-CDF sampling).
    """

    def __init__(self, game: GameTree, profiles: list[np.ndarray]):
        nodes = game.num_nodes
        child = np.flatnonzero(game.parent >= 0)
        child = child[np.lexsort((game.action[child], game.parent[child]))]
        par = game.parent[child]
        chance = game.player[par] == CHANCE
        entries, keys, first, last = [], [], [], []
        for k, probs in enumerate(profiles):
            weight = np.array(game.chance_prob[child])
            weight[~chance] = probs[game.infoset[par[~chance]], game.action[child[~chance]]]
            total = np.bincount(par, weights=weight, minlength=nodes)
            cum = np.cumsum(weight)
            start = np.searchsorted(par, par)  # index of each parent's first child
            within = cum - np.concatenate([[0.0], cum])[start]
            keys.append(k * nodes + par + within / total[par])
            # Clip choices to the children with positive probability (guards rounding).
            positive = np.flatnonzero(weight > 0)
            lo = np.full(nodes, np.iinfo(np.int64).max)
            hi = np.full(nodes, -1)
            np.minimum.at(lo, par[positive], positive + k * len(child))
            np.maximum.at(hi, par[positive], positive + k * len(child))
            first.append(lo)
            last.append(hi)
            entries.append(child)
        self.child = np.concatenate(entries)
        self.keys = np.concatenate(keys)
        self.first = np.stack(first)
        self.last = np.stack(last)
        self.nodes = nodes

    def step(self, nodes: np.ndarray, profile: np.ndarray, u: np.ndarray) -> np.ndarray:
        j = np.searchsorted(self.keys, profile * self.nodes + nodes + u, side="right")
        j = np.clip(j, self.first[profile, nodes], self.last[profile, nodes])
        return self.child[j]


def _chance_ordinals(game: GameTree) -> np.ndarray:
    """For each node, how many chance nodes lie above it (which chance event comes next)."""
    ordinal = np.zeros(game.num_nodes, dtype=np.int64)
    for nodes in game.levels()[1:]:
        par = game.parent[nodes]
        ordinal[nodes] = ordinal[par] + (game.player[par] == CHANCE)
    return ordinal


def _play_batch(game, sampler, ordinal, rng, deals: int) -> np.ndarray:
    """Terminal node of each hand: ``deals`` hands with profile 0, then the same deals with 1."""
    depth = int(game.depth.max())
    # Common random numbers: both seatings of a deal use the same uniforms, one per chance
    # event (so the same cards fall whatever the betting) and one per decision step.
    u_chance = rng.random((deals, int(ordinal.max()) + 1))
    u_decision = rng.random((deals, depth))
    deal = np.tile(np.arange(deals), 2)
    profile = np.repeat([0, 1], deals)  # 0: A is player 1; 1: A is player 2
    node = np.zeros(2 * deals, dtype=np.int64)
    alive = np.arange(2 * deals)
    for step in range(depth):
        here = node[alive]
        chance = game.player[here] == CHANCE
        u = u_decision[deal[alive], step]
        u[chance] = u_chance[deal[alive[chance]], ordinal[here[chance]]]
        node[alive] = sampler.step(here, profile[alive], u)
        alive = alive[game.player[node[alive]] != TERMINAL]
        if not len(alive):
            break
    return node


def _validate(game, policy_a, policy_b, hands, names) -> GameTree:
    if isinstance(game, MatrixGame):
        game = game.tree  # same keys and actions, so the policies carry over
    if not isinstance(game, GameTree):
        raise ValueError(f"head-to-head play needs a game such as cfrviz.load_game('kuhn_poker');"
                         f" got {type(game).__name__}")
    check_two_players(game, "head-to-head play", "A and B swap the two seats of every deal",
                      instead="cfrviz.deviation_gains(game, policy) to see who gains by "
                              "deviating")
    check_policy(game, policy_a, "policy_a")
    check_policy(game, policy_b, "policy_b")
    try:
        whole_number(hands, "hands", 2)
    except ValueError:
        raise ValueError(f"hands must be a whole number of deals, at least 2 (each deal is "
                         f"played twice, once in each seat); got {hands!r:.60}") from None
    if not (isinstance(names, (tuple, list)) and len(names) == 2
            and all(isinstance(n, str) for n in names)):
        raise ValueError(f"names must be two strings, what A and B are called (e.g. "
                         f"('cfr', 'always_raise')); got {names!r}")
    return game


def _generator(seed):
    if isinstance(seed, np.random.Generator):
        return seed, None
    if isinstance(seed, bool) or not isinstance(seed, Integral) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer or a numpy Generator; "
                         f"got {seed!r}")
    return np.random.default_rng(int(seed)), int(seed)


def head_to_head(game, policy_a: Policy, policy_b: Policy, hands: int = 10_000,
                 seed: int | np.random.Generator = 0,
                 names: tuple[str, str] = ("A", "B")) -> MatchResult:
    """Play A against B over many seeded deals, each dealt twice with the seats swapped.

    Duplicate play (as in duplicate bridge and the Annual Computer Poker
    Competition): each deal is played once with A as player 1 and once with
    A as player 2, with the same chance outcomes and the same random numbers
    for the players' choices.  Luck in the cards largely cancels, and a
    policy playing itself scores exactly 0 on every deal of a zero-sum game.

    Parameters
    ----------
    game : GameTree or MatrixGame
        A matrix game is played as its two-move tree (``game.tree``).
    policy_a, policy_b : Policy
        Complete strategy profiles for ``game``; A uses its player-1 rows
        when seated as player 1 and its player-2 rows as player 2, and so
        does B.
    hands : int
        Number of deals (at least 2); ``2 * hands`` hands are played.
    seed : int or numpy.random.Generator
        Seeds every random choice, chance and players alike.
    names : (str, str)
        How A and B are called in the printed result (a tuple or list of two strings).

    Returns
    -------
    MatchResult
        A's mean payoff per hand with a 95% confidence interval, per-seat
        means, and the exact expected payoff for comparison.

    Raises
    ------
    ValueError
        For a game that is not a game tree, a policy made for another game,
        a bad number of hands, a bad seed or bad names.
    """
    game = _validate(game, policy_a, policy_b, hands, names)
    rng, seed_used = _generator(seed)
    mine = game.infoset_player[:, None] == 0
    a_first = np.where(mine, policy_a.probabilities, policy_b.probabilities)
    b_first = np.where(mine, policy_b.probabilities, policy_a.probabilities)
    # Rows of two valid policies make a valid profile: skip Policy's per-row validation.
    exact_seats = (tree_expected_values(game, a_first)[0],
                   tree_expected_values(game, b_first)[1])

    count, mean, std_error, seat_sums = _play_deals(game, [a_first, b_first], rng, int(hands))
    return MatchResult(
        game=game.name, names=(names[0], names[1]), deals=count, hands=2 * count,
        mean=mean, std_error=std_error,
        ci=(mean - Z95 * std_error, mean + Z95 * std_error),
        seat_means=(float(seat_sums[0] / count), float(seat_sums[1] / count)),
        exact=(exact_seats[0] + exact_seats[1]) / 2, exact_seats=exact_seats, seed=seed_used)


def _play_deals(game: GameTree, profiles: list[np.ndarray], rng: np.random.Generator,
                hands: int) -> tuple[int, float, float, np.ndarray]:
    """Play ``hands`` deals in both seats, in batches: (deals, A's mean payoff per hand, its
    standard error, A's payoff summed in each seat)."""
    sampler = _Sampler(game, profiles)
    ordinal = _chance_ordinals(game)
    count, mean, m2 = 0, 0.0, 0.0  # running mean and squared deviations of per-deal means
    seat_sums = np.zeros(2)
    for start in range(0, hands, BATCH):
        size = min(BATCH, hands - start)
        end = _play_batch(game, sampler, ordinal, rng, size)
        first, second = game.utility[end[:size], 0], game.utility[end[size:], 1]
        seat_sums += first.sum(), second.sum()
        pair = (first + second) / 2
        # Chan et al.'s pairwise update of mean and squared deviations.
        batch_mean = pair.mean()
        delta = batch_mean - mean
        total = count + size
        m2 += ((pair - batch_mean) ** 2).sum() + delta ** 2 * count * size / total
        mean += delta * size / total
        count = total
    return count, float(mean), float(np.sqrt(m2 / (count - 1) / count)), seat_sums


@dataclass(frozen=True)
class RoundRobin:
    """Every policy against every other: ``results[a][b]`` is a's :class:`MatchResult` against b.

    Index it like a dict of dicts: ``table["cfr"]["always_raise"].mean``.
    """

    names: tuple[str, ...]
    results: dict

    def __getitem__(self, name: str) -> dict:
        return self.results[name]

    def means(self) -> dict[str, dict[str, float]]:
        """``{a: {b: a's mean payoff per hand against b}}``."""
        return {a: {b: r.mean for b, r in row.items()} for a, row in self.results.items()}

    def exact(self) -> dict[str, dict[str, float]]:
        """``{a: {b: a's exact expected payoff per hand against b}}``."""
        return {a: {b: r.exact for b, r in row.items()} for a, row in self.results.items()}

    def _cells(self):
        for a in self.names:
            yield a, [("—" if a == b else
                       f"{_num(self.results[a][b].mean)} ± {_num(self.results[a][b].half_width)}")
                      for b in self.names]

    def __str__(self) -> str:
        rows = [["row wins vs column", *self.names]] + [[a, *cells] for a, cells in self._cells()]
        widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
        return "\n".join("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows)

    def _repr_html_(self) -> str:
        head = "".join(f"<th>{html.escape(b)}</th>" for b in self.names)
        body = "".join(f"<tr><th>{html.escape(a)}</th>"
                       + "".join(f"<td>{c}</td>" for c in cells) + "</tr>"
                       for a, cells in self._cells())
        return (f"<table><caption>Row's payoff per hand against column (95% CI)</caption>"
                f"<tr><th></th>{head}</tr>{body}</table>")


def round_robin(game, policies: dict[str, Policy], hands: int = 10_000,
                seed: int = 0) -> RoundRobin:
    """Play every ordered pair of ``policies`` with :func:`head_to_head`.

    Every match uses the same seed, so the same deals: ``results[b][a]`` is
    exactly ``results[a][b]`` seen from the other side (its mean negated in a
    zero-sum game), and differences between opponents are not card luck.

    Parameters
    ----------
    game : GameTree
    policies : dict of str to Policy
        At least two named policies, e.g. a trained policy and the
        archetypes of :mod:`cfrviz.play.bots`.
    hands : int
        As for :func:`head_to_head`.
    seed : int
        One seed for every match.

    Returns
    -------
    RoundRobin
    """
    _check_named(policies)
    if isinstance(seed, bool) or not isinstance(seed, Integral) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer (every match replays the same "
                         f"deals); got {seed!r}")
    results = {str(a): {} for a in policies}
    for a, pa in policies.items():
        for b, pb in policies.items():
            if a == b:
                continue
            try:
                results[str(a)][str(b)] = head_to_head(game, pa, pb, hands, seed, (str(a), str(b)))
            except ValueError as err:
                raise ValueError(f"{a} against {b}: {err}") from None
    return RoundRobin(tuple(map(str, policies)), results)


def _check_named(policies: dict[str, Policy]) -> None:
    """At least two policies, each under a name of its own."""
    if not isinstance(policies, dict):
        raise ValueError(f"policies must be a dict {{name: Policy}}; got {type(policies).__name__}")
    if len(policies) < 2:
        raise ValueError(f"a round robin needs at least two policies; got {list(policies)}")
    named = [a for a in policies if not isinstance(a, str) or not a.strip()]
    if named:
        # Results are kept by name: 1 and "1" (or "a" and "a ") would share a row.
        raise ValueError(f"policies are keyed by name: each key must be a non-empty string, "
                         f"e.g. {{'cfr': policy}}; got the key {named[0]!r}")
    shown: dict[str, str] = {}
    for a in policies:
        twin = shown.setdefault(a.strip(), a)
        if twin != a:
            raise ValueError(f"two policies are both shown as {a.strip()!r} ({twin!r} and "
                             f"{a!r}); give each its own name, so no result is lost")
