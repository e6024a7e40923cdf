"""The leaderboard widget: ranks, mean ± CI, every pair, the problems, and one bot singled out."""

from __future__ import annotations

import html
import re

import pytest

import cfrviz
from cfrviz.play.tournament import run_tournament
from cfrviz.views.style import MIN_FONT_PX, NORMAL, PRESENTER
from cfrviz.views.tournament import standings_figure
from cfrviz.widgets import Leaderboard, leaderboard
from cfrviz.widgets.panel import Panel

KUHN = cfrviz.load_game("kuhn_poker")


def caller(s):
    return "call" if s.facing_bet else "check"


def bettor(s):
    return "raise" if {"bet", "raise"} & set(s.names) else "call"


@pytest.fixture(scope="module")
def result():
    return run_tournament(KUHN, {"caller": caller, "<b>bettor</b>": bettor,
                                 "crasher": lambda _s: 1 / 0, "nan": lambda s: [float("nan")]
                                 * len(s.actions)}, hands=2000)


def cells(markup: str) -> list[str]:
    return [html.unescape(re.sub("<[^>]+>", "", c))
            for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", markup)]


def test_a_leaderboard_is_a_panel_with_every_part(result):
    board = leaderboard(result)
    assert isinstance(board, Leaderboard) and isinstance(board, Panel)
    assert board.children == (board.header, board.menu, board.output, board.figure,
                               board.ranking, board.pairs, board.problems)
    assert "kuhn_poker tournament: 6 bots played, 2 could not" in board.header.value
    assert "1.96 standard errors" in board.header.value


def test_the_ranking_lists_every_bot_with_its_interval(result):
    board = Leaderboard(result)
    shown = cells(board.ranking.value)
    header, rows = shown[:6], [shown[k:k + 6] for k in range(6, len(shown), 6)]
    assert header == ["rank", "bot", "won per hand", "95% CI ±", "exact", "worst against"]
    assert len(rows) == len(result.standings) == 6
    for row, s in zip(rows, result.standings):
        archetype = " (archetype)" if s.name in result.archetypes else ""
        assert row == [str(s.rank), s.name + archetype, f"{round(s.score, 3) + 0.0:+.3f}",
                       f"{s.half_width:.3f}", f"{round(s.exact, 3) + 0.0:+.3f}", s.worst]
    # A name from a cell or a file is text, never markup.
    assert "<b>bettor</b>" not in board.ranking.value
    assert "&lt;b&gt;bettor&lt;/b&gt;" in board.ranking.value


def test_the_pair_table_is_row_against_column(result):
    board = Leaderboard(result)
    shown = cells(board.pairs.value)
    n = len(result.names)
    assert shown[0] == "row vs column" and shown[1:n + 1] == list(result.names)
    for i, a in enumerate(result.names):
        row = shown[(i + 1) * (n + 1):(i + 2) * (n + 1)]
        assert row[0] == a
        for j, b in enumerate(result.names):
            r = result.pairs[a][b] if a != b else None
            assert row[j + 1] == ("—" if r is None else
                                  f"{round(r.mean, 3) + 0.0:+.3f} ± {r.half_width:.3f}")


def test_problems_are_listed_by_name_with_what_went_wrong(result):
    board = Leaderboard(result)
    text = html.unescape(re.sub("<[^>]+>", "", board.problems.value))
    assert "Could not play (2): left out of the round robin" in text
    assert "crasher [crash] raised ZeroDivisionError: division by zero" in text
    assert "nan [bad probabilities] returned probabilities [nan, nan]" in text
    clean = Leaderboard(run_tournament(KUHN, hands=500))
    assert "no problems" in clean.problems.value


def test_singling_out_a_bot_marks_it_everywhere(result):
    board = Leaderboard(result, highlight="caller")
    assert board.highlight == "caller"
    assert [t.name for t in board.figure.data][-1] == "caller"
    marked = re.findall(r"<tr style='([^']*)'>.*?<th[^>]*>([^<]*)</th>", board.ranking.value)
    assert [name for css, name in marked if "background" in css] == ["caller"]
    board.menu.value = "always_raise"
    assert board.highlight == "always_raise" and board.last_error is None
    assert board.figure.data[-1].name == "always_raise"
    assert board.figure.layout.yaxis.categoryarray[-1] == f"1. {result.names[0]}" \
        or "<b>" in board.figure.layout.yaxis.categoryarray[-1]
    board.single_out(None)
    assert board.highlight is None and {t.name for t in board.figure.data} <= {"archetypes",
                                                                               "entries"}
    board.single_out("crasher")
    assert "No bot called 'crasher' played" in board.last_error and board.highlight is None
    with pytest.raises(ValueError, match="highlight must be a bot that was entered"):
        Leaderboard(result, highlight="nobody")
    # A bot that could not play is marked where it is listed: among the problems.
    flagged = Leaderboard(result, highlight="crasher")
    assert flagged.highlight is None and flagged.flagged == "crasher"
    marked = re.findall(r"<li style='margin:4px 0;([^']*)'><b>([^<]*)</b>", flagged.problems.value)
    assert [name for css, name in marked if "background" in css] == ["crasher"]
    with pytest.raises(ValueError, match="shows the result of run_tournament"):
        Leaderboard({"caller": 1})


def test_nobody_played_shows_the_problems_only():
    empty = run_tournament(KUHN, {"x": lambda _s: None}, archetypes=False, hands=100)
    board = Leaderboard(empty)
    assert board.children == (board.header, board.output, board.problems)
    text = html.unescape(re.sub("<[^>]+>", "", board.problems.value))
    assert "x [bad answer] returned None" in text


@pytest.mark.parametrize("presenter, smallest", [(False, NORMAL.font_size),
                                                  (True, PRESENTER.font_size)])
def test_text_reads_from_the_back_of_the_room(result, presenter, smallest):
    board = Leaderboard(result, presenter=presenter)
    sizes = [int(px) for part in (board.header, board.ranking, board.pairs, board.problems)
             for px in re.findall(r"font-size:(\d+)px", part.value)]
    assert sizes and min(sizes) >= smallest >= MIN_FONT_PX
    fig = standings_figure(result, presenter=presenter)
    assert fig.layout.font.size >= smallest and fig.layout.height >= 6 * 34
    assert fig.layout.width is None   # follows its output area


def test_the_figure_puts_the_best_on_top(result):
    fig = standings_figure(result, highlight="caller")
    order = list(fig.layout.yaxis.categoryarray)
    assert order[-1].endswith(result.names[0]) and order[0].endswith(html.escape(result.names[-1]))
    points = {y: x for trace in fig.data for x, y in zip(trace.x, trace.y)}
    for s in result.standings:
        label = f"{s.rank}. {html.escape(s.name)}"
        assert points.get(label, points.get(f"<b>{label}</b>")) == s.score
    with pytest.raises(ValueError, match="highlight must be one of the ranked bots"):
        standings_figure(result, highlight="nobody")


def test_files_that_are_not_bots_are_listed_apart(tmp_path):
    (tmp_path / "alice.ipynb").write_text("{}")
    board = Leaderboard(run_tournament(KUHN, tmp_path, hands=200))
    assert "4 bots played, 0 could not, 1 file skipped" in board.header.value
    text = html.unescape(re.sub("<[^>]+>", "", board.problems.value))
    assert "Skipped (1): files of the folder that are not bots" in text
    assert "alice.ipynb [skipped] a notebook" in text and "Could not play" not in text
