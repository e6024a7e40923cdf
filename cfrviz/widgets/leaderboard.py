"""The leaderboard of a class tournament: ranks, winnings with 95% CIs, every pair, and problems.

A view over a :class:`~cfrviz.play.tournament.Tournament` (nothing is played
here): the standings figure (:func:`cfrviz.views.tournament.standings_figure`),
the ranking as a table, the per-pair table (row's winnings per hand against
column), and the bots that could not play, each with what went wrong.  A menu
singles out one bot everywhere (the student's own, or the one the class is
talking about).  Text is sized from :mod:`cfrviz.views.style` (14 px and up,
20 px and up in presenter mode), so the tables read from the back of a room.
"""

from __future__ import annotations

import html

import ipywidgets as W

from ..play.entrants import SKIPPED
from ..play.tournament import METHOD, Tournament
from ..views.style import NORMAL, OKABE_ITO, batch, fit_to_output, get_style
from ..views.tournament import standings_figure
from .figure_widget import FigureWidget
from .panel import Panel

#: Background of the singled-out bot's row and column (a bold name says it too).
HIGHLIGHT_BACKGROUND = "#f3e3ee"
#: Cell text colours by sign: wins and losses also differ by their sign, not colour alone.
WIN_COLOUR, LOSS_COLOUR = "#1b5e20", "#a50e0e"
NONE = "(none)"


def _signed(x: float) -> str:
    return f"{round(x, 3) + 0.0:+.3f}"


class Leaderboard(Panel):
    """Ranks, mean ± 95% CI, the per-pair table and the problems of one tournament.

    Parameters
    ----------
    tournament : Tournament
        From :func:`cfrviz.play.tournament.run_tournament`.
    highlight : str, optional
        A bot to single out at first (it can be changed in the menu); one that could not
        play is marked in the list of problems.
    presenter : bool, optional
        Larger text for a projector; ``None`` follows :func:`cfrviz.views.set_presenter`.

    Raises
    ------
    ValueError
        For something that is not a Tournament, or a ``highlight`` that was not entered.
    """

    def __init__(self, tournament: Tournament, highlight: str | None = None,
                 presenter: bool | None = None):
        super().__init__()
        if not isinstance(tournament, Tournament):
            raise ValueError(f"Leaderboard shows the result of run_tournament(...); got "
                             f"{type(tournament).__name__}")
        entered = [*tournament.names, *(p.name for p in tournament.problems)]
        if highlight is not None and highlight not in entered:
            raise ValueError(f"highlight must be a bot that was entered: one of {entered}; "
                             f"got {highlight!r}")
        #: A singled-out bot that could not play is marked in the problems instead.
        self.flagged = highlight if highlight not in tournament.names else None
        if self.flagged is not None:
            highlight = None
        self.tournament = tournament
        self.presenter = presenter
        self._style = get_style(presenter)
        self._scale = self._style.font_size / NORMAL.font_size
        self.menu = W.Dropdown(options=[NONE, *tournament.names], value=highlight or NONE,
                               description="single out", style={"description_width": "initial"},
                               layout=W.Layout(width="340px"))
        self.menu.observe(self._on_highlight, names="value")
        self.header = W.HTML()
        self.figure = fit_to_output(FigureWidget(standings_figure(tournament, highlight,
                                                                  presenter)))
        self.ranking = W.HTML()
        self.pairs = W.HTML(layout=W.Layout(overflow="auto"))
        self.problems = W.HTML()
        if tournament.standings:
            self.children = [self.header, self.menu, self.output, self.figure, self.ranking,
                             self.pairs, self.problems]
        else:  # nobody could play: the problems are the whole story
            self.children = [self.header, self.output, self.problems]
        self._render()

    @property
    def highlight(self) -> str | None:
        """The bot singled out, or None."""
        return None if self.menu.value == NONE else self.menu.value

    def single_out(self, name: str | None) -> None:
        """Single out the bot ``name`` (None for no one) in the figure and both tables."""
        if name is not None and name not in self.tournament.names:
            self.report(f"No bot called {name!r} played; players: {list(self.tournament.names)}")
            return
        self.menu.value = NONE if name is None else name

    # -- drawing ------------------------------------------------------------------------------
    def _px(self, size: int) -> str:
        return f"{round(size * self._scale)}px"

    def _on_highlight(self, _change=None) -> None:
        self.clear_report()
        with self.reporting("Could not single out that bot"):
            fresh = standings_figure(self.tournament, self.highlight, self.presenter)
            with batch(self.figure):
                self.figure.data = ()
                self.figure.add_traces(list(fresh.data))
                self.figure.layout.yaxis.categoryarray = fresh.layout.yaxis.categoryarray
            self._render()

    def _render(self) -> None:
        t = self.tournament
        skipped = sum(p.kind == SKIPPED for p in t.problems)
        files = f", {skipped} {'file' if skipped == 1 else 'files'} skipped" if skipped else ""
        self.header.value = (
            f"<div style='font-size:{self._px(18)};font-weight:bold'>"
            f"{html.escape(t.game)} tournament: {len(t.standings)} bots played, "
            f"{len(t.problems) - skipped} could not{files}</div>"
            f"<div style='font-size:{self._px(14)}'>{t.hands:,} deals per pair, each played in "
            f"both seats ({2 * t.hands:,} hands); seed {t.seed}; {t.seconds:.1f} s. "
            f"Method: {html.escape(METHOD)}.</div>")
        self.ranking.value = self._ranking_html()
        self.pairs.value = self._pairs_html()
        self.problems.value = self._problems_html()

    def _cell(self, text: str, *, head: bool = False, css: str = "") -> str:
        tag = "th" if head else "td"
        return (f"<{tag} style='padding:4px 10px;border-bottom:1px solid #ccc;white-space:nowrap;"
                f"text-align:{'left' if head else 'right'};{css}'>{text}</{tag}>")

    def _table(self, caption: str, rows: list[str]) -> str:
        return (f"<table style='font-size:{self._px(14)};border-collapse:collapse;"
                f"margin:8px 0'><caption style='text-align:left;font-size:{self._px(16)};"
                f"font-weight:bold;padding:4px 0'>{caption}</caption>{''.join(rows)}</table>")

    def _mark(self, name: str, marked: str | None = None) -> str:
        chosen = self.highlight if marked is None else marked
        return f"background:{HIGHLIGHT_BACKGROUND};font-weight:bold" if name == chosen else ""

    def _ranking_html(self) -> str:
        t = self.tournament
        if not t.standings:
            return ""
        head = "".join(self._cell(h, head=True) for h in
                       ("rank", "bot", "won per hand", "95% CI ±", "exact", "worst against"))
        rows = [f"<tr>{head}</tr>"]
        for s in t.standings:
            kind = " (archetype)" if s.name in t.archetypes else ""
            colour = WIN_COLOUR if s.score > 0 else LOSS_COLOUR if s.score < 0 else "inherit"
            rows.append(
                f"<tr style='{self._mark(s.name)}'>" + self._cell(str(s.rank))
                + self._cell(html.escape(s.name) + kind, head=True, css="font-weight:inherit")
                + self._cell(_signed(s.score), css=f"color:{colour}")
                + self._cell(f"{s.half_width:.3f}") + self._cell(_signed(s.exact))
                + self._cell(html.escape(s.worst or "—"), css="text-align:left") + "</tr>")
        return self._table("Ranking: chips won per hand, averaged over opponents", rows)

    def _pairs_html(self) -> str:
        t = self.tournament
        names = t.names
        if len(names) < 2:
            return ""
        head = self._cell("row vs column", head=True) + "".join(
            self._cell(html.escape(b), head=True, css=self._mark(b)) for b in names)
        rows = [f"<tr>{head}</tr>"]
        for a in names:
            cells = [self._cell(html.escape(a), head=True, css=self._mark(a))]
            for b in names:
                if a == b:
                    cells.append(self._cell("—", css=self._mark(a)))
                    continue
                r = t.pairs[a][b]
                colour = WIN_COLOUR if r.ci[0] > 0 else LOSS_COLOUR if r.ci[1] < 0 else "inherit"
                mark = self._mark(a) or self._mark(b)
                cells.append(self._cell(f"{_signed(r.mean)} ± {r.half_width:.3f}",
                                        css=f"color:{colour};{mark}"))
            rows.append(f"<tr>{''.join(cells)}</tr>")
        return self._table("Every pair: row's chips won per hand against column (± 95% CI)",
                           rows)

    def _problems_html(self) -> str:
        problems = [p for p in self.tournament.problems if p.kind != SKIPPED]
        skipped = [p for p in self.tournament.problems if p.kind == SKIPPED]
        if not problems and not skipped:
            return (f"<div style='font-size:{self._px(14)};margin:8px 0'>Every bot entered "
                    "played: no problems.</div>")
        parts = []
        for title, listed in ((f"Could not play ({len(problems)}): left out of the round robin",
                               problems),
                              (f"Skipped ({len(skipped)}): files of the folder that are not bots",
                               skipped)):
            if not listed:
                continue
            items = "".join(
                f"<li style='margin:4px 0;{self._mark(p.name, self.flagged)}'>"
                f"<b>{html.escape(p.name)}</b> "
                f"<span style='color:{OKABE_ITO['vermillion']};font-weight:bold'>"
                f"[{html.escape(p.kind)}]</span> {html.escape(p.message)}</li>" for p in listed)
            parts.append(f"<div style='font-size:{self._px(16)};font-weight:bold'>{title}</div>"
                         f"<ul style='margin:4px 0'>{items}</ul>")
        return f"<div style='font-size:{self._px(14)};margin:8px 0'>{''.join(parts)}</div>"


def leaderboard(tournament: Tournament, highlight: str | None = None,
                presenter: bool | None = None) -> Leaderboard:
    """A :class:`Leaderboard` for ``tournament`` (the function form, as the lessons call it)."""
    return Leaderboard(tournament, highlight, presenter)

