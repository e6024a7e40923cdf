"""Play against the bot: a card table over :mod:`cfrviz.play.hand`."""

from __future__ import annotations

import ipywidgets as W
import numpy as np

from ..core.markup import escape
from ..core.policy import Policy
from ..core.trace import Trace
from ..play.hand import Table, has_public_cards
from ..views.matrix import display_frames
from ..views.style import NORMAL, get_style
from .panel import Panel

#: At most this many iterations on the bot's slider (any recorded one can be set in code).
MAX_CHOICES = 80
CARD = ("display:inline-block;min-width:1.3em;padding:0.2em 0.4em;margin:0 0.15em;"
        "border:2px solid #333;border-radius:7px;background:#fff;font-weight:bold;"
        "text-align:center")
HIDDEN = CARD.replace("background:#fff", "background:#cfd8e3").replace("#333", "#667")


class PlayTable(Panel):
    """A card table: you against a bot that plays a trained strategy.

    **Deal** starts a hand; the bot's moves happen at once and the buttons
    offer your legal actions with readable names (check, bet, fold, call,
    raise).  At the end the bot's cards are shown, the running score gets a
    95% confidence interval, and one sentence per bot decision says what its
    strategy was there.  With a trace the bot plays the average strategy
    after the iteration chosen on the slider (a new choice starts a new
    score from the next hand).

    Parameters
    ----------
    game : GameTree or MatrixGame
        E.g. ``cfrviz.load_game("kuhn_poker")`` or ``"leduc_poker"``.
    policy_or_trace : Policy or Trace
        The bot.  A trace gives the average strategy at ``iteration``.
    iteration : int, optional
        A recorded iteration of the trace (default: the last).
    human : int
        Your seat in the first hand: 0 (player 1) or 1 (player 2).
    seed : int
        Seeds every card and every bot choice of the session.
    switch_seats : bool
        Change seats after every hand.
    presenter : bool, optional
        Larger text for a projector; ``None`` follows
        :func:`cfrviz.views.set_presenter`.

    Raises
    ------
    ValueError
        For a bot made for another game, an iteration the trace did not
        record, a bad seat or seed.  Later errors (an action when no hand is
        running, an iteration not in the trace) appear in the widget's
        output area.
    """

    def __init__(self, game, policy_or_trace, iteration: int | None = None, human: int = 0,
                 seed: int = 0, switch_seats: bool = True, presenter: bool | None = None):
        super().__init__()
        self._scale = get_style(presenter).font_size / NORMAL.font_size
        self.trace: Trace | None = (None if isinstance(policy_or_trace, Policy)
                                    else policy_or_trace)
        if self.trace is not None and not hasattr(self.trace, "average_policy"):
            raise ValueError(f"the bot must be a Policy or a Trace; got "
                             f"{type(policy_or_trace).__name__}")
        bot = policy_or_trace if self.trace is None else self.trace.average_policy(iteration)
        self.table = Table(game, bot, human=human, seed=seed, switch_seats=switch_seats)
        self.game = self.table.game

        style = {"description_width": "initial"}
        self.iteration = W.SelectionSlider(options=[("-", -1)], description="bot trained for",
                                           continuous_update=False, style=style,
                                           layout=W.Layout(width="430px"))
        if self.trace is not None:
            chosen = int(self.trace.iterations[self.trace.index(iteration)])
            self._set_options(self.trace, chosen)
        else:
            self.iteration.layout.display = "none"
        self.iteration.observe(self._on_iteration, names="value")
        self.switch = W.Checkbox(value=bool(switch_seats), description="switch seats every hand",
                                 indent=False, layout=W.Layout(width="210px"))
        self.switch.observe(self._on_switch, names="value")
        self.deal_button = W.Button(description="Deal", button_style="primary", icon="refresh",
                                    tooltip="deal a new hand")
        self.deal_button.on_click(lambda _: self.deal())
        self.bot_label = W.HTML()
        self.cards = W.HTML()
        self.betting = W.HTML()
        self.action_box = W.HBox(layout=W.Layout(min_height="40px"))
        self.action_buttons: list[W.Button] = []
        self.status = W.HTML()
        self.score_label = W.HTML()
        self.explanation = W.HTML()
        self.children = [W.HBox([self.deal_button, self.switch, self.iteration]), self.bot_label,
                         self.cards, self.betting, self.action_box, self.status, self.output,
                         self.score_label, self.explanation]
        self._render()

    # -- public actions, also used by tests ----------------------------------------------------
    def deal(self) -> None:
        """Deal a new hand (a hand still running is abandoned, unscored)."""
        self._safely(self.table.deal, "Could not deal")

    def act(self, action: str) -> None:
        """Play an action of yours, by label (``"b"``) or readable name (``"bet"``)."""
        self._safely(lambda: self.table.act(action), f"Could not play {action!r}")

    def set_iteration(self, iteration: int) -> None:
        """Let the bot play the average strategy after ``iteration`` (a recorded one)."""
        def choose():
            if self.trace is None:
                raise ValueError("this bot is a fixed policy, not a trace: there is no "
                                 "iteration to choose")
            chosen = int(self.trace.iterations[self.trace.index(iteration)])
            if chosen not in [value for _, value in self.iteration.options]:
                self._set_options(self.trace, chosen)
                self._use_iteration(self.trace, chosen)
            else:
                self.iteration.value = chosen  # the observer switches the bot
        self._safely(choose, "Could not switch the bot")

    def button(self, name: str) -> W.Button:
        """The action button showing ``name`` (e.g. ``"call"``)."""
        for b in self.action_buttons:
            if b.description == name:
                return b
        raise ValueError(f"no button {name!r}; buttons: "
                         f"{[b.description for b in self.action_buttons]}")

    # -- internals ----------------------------------------------------------------------------
    def _safely(self, step, what: str) -> None:
        """Run a user's step; show any error in the output area and keep the table alive."""
        self.clear_report()
        with self.reporting(what):
            step()
        with self.reporting("Could not draw the table"):
            self._render()

    def _px(self, size: int) -> str:
        return f"{round(size * self._scale)}px"

    def _div(self, size: int, content: str, css: str = "") -> str:
        return f"<div style='font-size:{self._px(size)};{css}'>{content}</div>"

    def _set_options(self, trace: Trace, chosen: int) -> None:
        its = trace.iterations[display_frames(trace, MAX_CHOICES)]
        values = sorted({int(i) for i in its} | {chosen})
        self._quiet = True
        try:
            self.iteration.options = [(f"{v:,}", v) for v in values]
            self.iteration.value = chosen
        finally:
            self._quiet = False

    def _on_iteration(self, change) -> None:
        trace = self.trace
        if getattr(self, "_quiet", False) or change["new"] is None or trace is None:
            return
        self._safely(lambda: self._use_iteration(trace, int(change["new"])),
                     "Could not switch the bot")

    def _use_iteration(self, trace: Trace, iteration: int) -> None:
        self.table.set_bot(trace.average_policy(iteration))

    def _on_switch(self, change) -> None:
        self.table.switch_seats = bool(change["new"])

    def _bot_text(self) -> str:
        if self.trace is None:
            return "The bot plays a fixed policy."
        iteration = self.iteration.value
        hand = self.table.hand
        switched = hand is not None and not hand.over and hand.bot is not self.table.bot
        later = " from the next hand" if switched else ""
        return (f"The bot plays the <b>average strategy</b> of {escape(self.trace.algorithm)} "
                f"after <b>{iteration:,}</b> iterations{later} (exploitability "
                f"{self.trace.exploitability[self.trace.index(iteration)]:.4f}).")

    def _render(self) -> None:
        table, hand = self.table, self.table.hand
        self.bot_label.value = self._div(14, self._bot_text())
        self.score_label.value = self._score_text()
        if hand is None:
            self.cards.value = ""
            self.betting.value = ""
            self.status.value = self._div(16, "Press <b>Deal</b> to play " + escape(
                self.game.name.replace("_", " ")) + ".")
            self.explanation.value = ""
            self._set_buttons((), ())
            return
        self.cards.value = self._cards_html(hand)
        self.betting.value = self._betting_html(hand)
        if hand.over:
            self._set_buttons((), (), keep=True)
            self.status.value = self._result_html(hand)
            lines = table.explain()
            self.explanation.value = self._div(14, (
                "<b>What the bot's strategy said</b><ul>"
                + "".join(f"<li>{escape(line)}</li>" for line in lines) + "</ul>")
                if lines else "The bot made no decision this hand.")
        else:
            self._set_buttons(hand.legal_actions(), hand.legal_names())
            self.status.value = self._div(16, f"Your turn (you are player {hand.human + 1}).")
            self.explanation.value = ""

    def _set_buttons(self, actions, names, keep: bool = False) -> None:
        if keep:  # the hand is over: leave the last buttons in view, disabled
            for b in self.action_buttons:
                b.disabled = True
            return
        buttons = []
        for action, name in zip(actions, names):
            b = W.Button(description=name, tooltip=f"action {action!r}",
                         layout=W.Layout(width=self._px(110), height=self._px(36)))
            b.style.font_size = self._px(16)
            b.on_click(lambda _, a=action: self.act(a))
            buttons.append(b)
        self.action_buttons = buttons
        self.action_box.children = buttons

    def _cards_html(self, hand) -> str:
        you, bot = hand.human, 1 - hand.human
        cards = hand.cards()
        if cards is None:  # a game whose deal cannot be split into cards: show what you know
            known = escape(hand.known_to(you)) or "nothing yet"
            return self._div(16, f"You are player {you + 1}. What you know: <code style="
                                 f"'font-size:{self._px(20)}'>{known}</code>", "margin:6px 0")

        size = f"font-size:{self._px(26)}"

        def show(items, hidden=False):
            if not items:
                return f"<span style='{HIDDEN};{size}'>&nbsp;</span>"
            return "".join(f"<span style='{HIDDEN if hidden else CARD};{size}'>"
                           f"{'?' if hidden else escape(c)}</span>" for c in items)

        parts = [f"<td style='padding-right:28px'>You (player {you + 1})<br>"
                 f"{show(cards.private[you])}</td>"]
        if has_public_cards(self.game):
            parts.append(f"<td style='padding-right:28px'>Public card<br>"
                         f"{show(cards.public)}</td>")
        parts.append(f"<td>Bot (player {bot + 1})<br>"
                     f"{show(cards.private[bot], hidden=not hand.over)}</td>")
        return (f"<table style='font-size:{self._px(14)};margin:6px 0'><tr>{''.join(parts)}</tr>"
                f"</table>")

    def _betting_html(self, hand) -> str:
        """The hand's actions in order, rounds split where chance dealt a card."""
        game = self.game
        path = []
        node = hand.node
        while game.parent[node] >= 0:
            path.append(node)
            node = int(game.parent[node])
        steps: list[str] = []
        moves = iter(hand.moves)
        for node in reversed(path):
            parent = int(game.parent[node])
            if game.player[parent] < 0:  # a chance step
                if steps and steps[-1] != "|":
                    steps.append("|")
                continue
            move = next(moves)
            who = "Bot" if move.by_bot else "You"
            steps.append(f"{who}: <b>{escape(move.name)}</b>")
        while steps and steps[-1] == "|":
            steps.pop()
        text = " · ".join(steps).replace(" · | · ", " &nbsp;│ new card │&nbsp; ")
        return self._div(16, text or "&nbsp;", "margin:4px 0")

    def _result_html(self, hand) -> str:
        payoff = hand.payoff
        if payoff > 0:
            outcome = f"You win <b>{payoff:g}</b>."
        elif payoff < 0:
            outcome = f"You lose <b>{-payoff:g}</b>."
        else:
            outcome = "A tie: nobody wins anything."
        if hand.folded is not None:
            who = "The bot" if hand.folded != hand.human else "You"
            how = f"{who} folded (the bot's cards are shown so you can learn from them)."
        elif hand.cards() is not None:
            how = "Showdown."
        else:
            how = f"The hand is over: {escape(self.game.history[hand.node])}."
        if not hand.moves or all(m.by_bot for m in hand.moves):
            how += " The hand ended before you had to act."
        return self._div(18, f"{how} {outcome}", "margin:4px 0")

    def _score_text(self) -> str:
        s = self.table.score()
        if s.hands == 0:
            return self._div(15, "Score: no hands played yet against this bot.")
        seats = np.bincount([seat for seat, _ in self.table.results], minlength=2)
        head = (f"Score after <b>{s.hands}</b> hand{'s' * (s.hands != 1)} "
                f"({seats[0]} as player 1, {seats[1]} as player 2): total <b>{s.total:+g}</b>, "
                f"<b>{_num(s.mean)}</b> per hand")
        if s.hands < 2:
            tail = " (a confidence interval needs at least two hands)."
        else:
            low, high = s.ci
            tail = (f", 95% confidence interval {_num(low)} to {_num(high)} "
                    f"(mean ± 1.96·s/√n; many hands make it narrow).")
        return self._div(15, head + tail)


def _num(x: float) -> str:
    return f"{round(x, 2) + 0.0:+.2f}"


def play_against(game, trace, iteration: int | None = None, **options) -> PlayTable:
    """A :class:`PlayTable` against the average strategy of ``trace`` at ``iteration``.

    ``options`` are passed on (``human``, ``seed``, ``switch_seats``).
    """
    return PlayTable(game, trace, iteration=iteration, **options)


def play_tabs(game, trace, iterations, **options) -> W.Tab:
    """One :class:`PlayTable` per iteration of ``trace``, each in a tab titled after its bot.

    A table's slider can switch its bot to another iteration; the tab's title follows it
    ("100 iterations"), so a title never names a bot the table no longer plays.

    Parameters
    ----------
    game, trace
        As for :func:`play_against`.
    iterations : sequence of int
        Recorded iterations of ``trace``: one table (and tab) each.
    **options
        Passed on to every table (``human``, ``switch_seats``, ``presenter``); ``seed``
        defaults to each table's iteration, so that the tables deal different hands.
    """
    tables = [PlayTable(game, trace, iteration=t, **{"seed": t, **options}) for t in iterations]
    tabs = W.Tab(children=tables)

    def title(table: PlayTable) -> str:
        return f"{table.iteration.value:,} iterations"

    tabs.titles = tuple(title(table) for table in tables)
    for k, table in enumerate(tables):
        table.iteration.observe(lambda _change, k=k, table=table: tabs.set_title(k, title(table)),
                                names="value")
    return tabs
