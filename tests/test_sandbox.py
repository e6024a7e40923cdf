"""Each bot file in a process of its own (cfrviz.play.sandbox, cfrviz.play.runner): whatever a
bot does, the tournament ends, on time, with every other bot's result exactly as without it,
and the bot named with what it did."""

from __future__ import annotations

import io
import itertools
import json
import os
import re
import sys
import textwrap
import time
from dataclasses import astuple
from pathlib import Path

import pytest
from _tolerance import STOPPED
from hypothesis import given, settings
from hypothesis import strategies as st

import cfrviz
from cfrviz.play.entrants import (
    Entrant,
    Problem,
    as_probabilities,
    decode,
    folder_contents,
    situations,
    tabulate,
)
from cfrviz.play.runner import plain
from cfrviz.play.sandbox import play_files
from cfrviz.play.tournament import main, printable, run_tournament

KUHN = cfrviz.load_game("kuhn_poker")
#: Two honest bots, and the honest twin of every hostile bot below (it answers the same).
GOOD = {"good1.py": "def bot(s):\n    return 'b' if s.strength > 0 else 'p'\n",
        "good2.py": "import numpy as np\n\ndef bot(s):\n    return np.full(2, 0.5)\n"}
TWIN = "def bot(s):\n    return s.actions[0]\n"
#: Generous for a loaded machine; a bot that hangs costs at most these.
LIMITS = {"decision_limit": 0.5, "budget": 3.0}
HANDS = 300


def write(folder: Path, files: dict[str, str]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def play(folder: Path, **limits):
    return run_tournament(KUHN, folder, archetypes=False, hands=HANDS, **{**LIMITS, **limits})


def same_results(result, expected) -> None:
    """Every bot's line and every pair's result exactly as in ``expected`` (time aside)."""
    assert result.standings == expected.standings
    assert result.pairs == expected.pairs


@pytest.fixture(scope="module")
def without(tmp_path_factory):
    """The two good bots alone."""
    return play(write(tmp_path_factory.mktemp("good"), GOOD))


@pytest.fixture(scope="module")
def with_twin(tmp_path_factory):
    """The two good bots and an honest bot called bad."""
    return play(write(tmp_path_factory.mktemp("twin"), {**GOOD, "bad.py": TWIN}))


# -- misbehaviours x where they happen ----------------------------------------------------------

#: Each act: its code per place ("import", "decision" or "thread", a thread started at import
#: that acts 0.05 s later while the bot decides), and what becomes of the bot there: a regex
#: of its problem, or None when it plays (like its honest twin).
ACTS = {
    "os._exit(0)": ({"*": "os._exit(0)"}, {"*": r"exited with code 0"}),
    "SIGKILL itself": ({"*": "os.kill(os.getpid(), signal.SIGKILL)"},
                       {"*": r"was ended by signal SIGKILL"}),
    "KeyboardInterrupt": ({"*": "raise KeyboardInterrupt",
                           "thread": "os.kill(os.getpid(), signal.SIGINT)"},
                          {"*": r"raised KeyboardInterrupt",
                           "thread": r"KeyboardInterrupt|signal SIGINT"}),
    "SystemExit": ({"*": "raise SystemExit(0)"}, {"*": r"raised SystemExit"}),
    "error whose __str__ raises": (
        {"*": "raise StrRaises()"},
        {"*": r"raised StrRaises: \(its message could not be shown: str\(\) raised "
              r"ZeroDivisionError\)"}),
    "error whose __str__ loops": (
        {"*": "raise StrLoops()"},
        {"import": r"took more than 3 s to load",
         "decision": r"raised StrLoops: \(its message could not be shown: str\(\) did not "
                     r"finish\)"}),
    "closes every file descriptor": ({"*": "os.closerange(0, 4096)"},
                                     {"*": r"exited with code 1"}),
    "sleeps forever": ({"*": "time.sleep(10 ** 6)"},
                       {"import": r"took more than 3 s to load",
                        "decision": r"took more than 0.5 s to decide at 'J'"}),
    "loops forever": ({"*": "while True:\n    pass"},
                      {"import": r"took more than 3 s to load",
                       "decision": r"took more than 0.5 s to decide at 'J'"}),
    "ignores SIGALRM, clears ITIMER_REAL, sleeps": (
        {"*": "signal.signal(signal.SIGALRM, signal.SIG_IGN)\n"
              "signal.setitimer(signal.ITIMER_REAL, 0)\ntime.sleep(10 ** 6)"},
        {"import": r"took more than 3 s to load",
         "decision": r"took more than 0.5 s to decide at 'J'"}),
    "rewrites every Situation via gc": (
        {"*": "for o in gc.get_objects():\n"
              "    if type(o).__name__ == 'Situation':\n"
              "        object.__setattr__(o, 'actions', ('x',))"},
        {"*": r"returned 'x', which is not a legal action here at 'J'"}),
    "closes stdout and stderr": ({"*": "os.closerange(1, 3)"}, {"*": None}),
    "forks": ({"*": "os.fork()"}, {"*": None}),
    "patches numpy.mean and numpy.sqrt": (
        {"*": "numpy.mean = lambda *a, **k: 0.0\nnumpy.sqrt = lambda *a, **k: 0.0"},
        {"*": None}),
    "clears ITIMER_REAL from a thread": ({"thread": "signal.setitimer(signal.ITIMER_REAL, 0)"},
                                         {"thread": None}),
}
HEADER = textwrap.dedent("""\
    import gc, os, signal, threading, time
    import numpy

    class StrRaises(Exception):
        def __str__(self):
            return str(1 / 0)

    class StrLoops(Exception):
        def __str__(self):
            while True:
                pass
    """)


def source(act: str, place: str) -> str:
    """A bot file doing ``act`` at ``place``; otherwise it plays as TWIN."""
    codes = ACTS[act][0]
    code = codes.get(place, codes.get("*"))
    if place == "import":
        return f"{HEADER}\n{code}\n\n{TWIN}"
    if place == "decision":
        return f"{HEADER}\ndef bot(s):\n{textwrap.indent(code, '    ')}\n    return s.actions[0]\n"
    # The bot waits for the thread to have acted, so that the act always comes first.
    return (f"{HEADER}\nACTED = threading.Event()\n\n\ndef later():\n    time.sleep(0.05)\n"
            f"    try:\n{textwrap.indent(code, '        ')}\n"
            "    finally:\n        ACTED.set()\n\n\n"
            "threading.Thread(target=later, daemon=True).start()\n\n\n"
            "def bot(s):\n    ACTED.wait(0.4)\n    return s.actions[0]\n")


CASES = [(act, place) for act, (codes, _) in ACTS.items()
         for place in ("import", "decision", "thread")
         if place in codes or ("*" in codes and not (place == "thread" and act in {
             "SystemExit", "error whose __str__ raises", "error whose __str__ loops",
             "sleeps forever", "loops forever", "ignores SIGALRM, clears ITIMER_REAL, sleeps"}))]
#: One case of each kind runs in the quick tests; all of them with -m slow.
QUICK = {("os._exit(0)", "import"), ("os._exit(0)", "thread"), ("KeyboardInterrupt", "decision"),
         ("error whose __str__ loops", "decision"), ("forks", "decision")}


@pytest.mark.parametrize("act, place", [
    pytest.param(*case, marks=() if case in QUICK else pytest.mark.slow, id=f"{case[0]}@{case[1]}")
    for case in CASES])
def test_a_bot_can_harm_only_itself(tmp_path, without, with_twin, act, place):
    """Beside two good bots: a bot that ends, hangs or breaks its process is named with what it
    did and the others' results are exactly those without it; one whose mischief stays in its
    process plays as its honest twin does."""
    expected = ACTS[act][1].get(place, ACTS[act][1].get("*"))
    start = time.perf_counter()
    result = play(write(tmp_path, {**GOOD, "bad.py": source(act, place)}))
    assert time.perf_counter() - start < STOPPED
    if expected is None:
        assert not result.problems, result.problems
        same_results(result, with_twin)
        return
    problems = {p.name: p for p in result.problems}
    assert set(problems) == {"bad"}, result.problems
    assert problems["bad"].source == "bad.py"
    assert re.search(expected, problems["bad"].message), problems["bad"]
    same_results(result, without)


def test_the_generator_covers_every_act_and_place():
    assert len(CASES) >= 35 and {place for _, place in CASES} == {"import", "decision", "thread"}
    assert set(CASES) >= QUICK


# -- named cases from the issue -----------------------------------------------------------------

def test_a_bot_sees_only_its_own_file_and_cannot_overwrite_another(tmp_path, without):
    folder = write(tmp_path / "bots", {
        **GOOD,
        "nosy.py": "import os\nraise RuntimeError(sorted(os.listdir('.')))\n",
        "reader.py": "open('good1.py').read()\n\ndef bot(s):\n    return 'p'\n",
        "vandal.py": "open('good1.py', 'w').write('def bot(s):\\n    return 1 / 0\\n')\n\n"
                     "def bot(s):\n    return 'p'\n"})
    result = play(folder, budget=5.0)
    problems = {p.name: p for p in result.problems}
    assert "raised RuntimeError: ['nosy.py'] while loading" in problems["nosy"].message
    assert "raised FileNotFoundError" in problems["reader"].message
    assert set(problems) == {"nosy", "reader"}
    assert (folder / "good1.py").read_text() == GOOD["good1.py"]
    for a, b in itertools.permutations(("good1", "good2")):
        assert result.pairs[a][b] == without.pairs[a][b]


def test_a_forking_bot_leaves_one_report_and_no_process(tmp_path, capsys):
    record = tmp_path / "pids.txt"
    write(tmp_path / "bots", {**GOOD, "forker.py": textwrap.dedent(f"""\
        import os, subprocess
        child = subprocess.Popen(["sleep", "600"])
        with open({str(record)!r}, "w") as f:
            f.write(str(child.pid))
        os.fork()

        def bot(s):
            os.fork()
            return s.actions[0]
        """)})
    assert main([str(tmp_path / "bots"), "--game", "kuhn_poker", "--hands", "200",
                 "--no-archetypes", "--decision-limit", "0.5"]) == 0
    out = capsys.readouterr().out
    assert out.count("kuhn_poker: 3 bots") == 1 and "Problems: none" in out
    pid = int(record.read_text())
    status = Path(f"/proc/{pid}/status")
    time.sleep(0.2)
    # Ended with its process group (a zombie at most, where nobody reaps orphans).
    assert not status.exists() or "zombie" in status.read_text()


def test_a_bots_process_has_a_processor_and_a_memory_limit(tmp_path):
    write(tmp_path, {"limits.py": "import resource\nraise RuntimeError(resource.getrlimit("
                                  "resource.RLIMIT_CPU), resource.getrlimit(resource.RLIMIT_AS))\n",
                     "hog.py": "buffer = bytearray(3 << 30)\n\ndef bot(s):\n    return 'p'\n"})
    problems = {p.name: p.message for p in play(tmp_path).problems}
    # Twice the budget of 3 s, plus 2 s (SIGXCPU), and a second more (SIGKILL); 1 GiB.
    assert "raised RuntimeError: ((8, 9), (1073741824, 1073741824))" in problems["limits"]
    assert "hog.py raised MemoryError" in problems["hog"]


def test_rebinding_the_tournament_rigs_nothing(tmp_path, without):
    """The bot imports cfrviz in its own process and rebinds head_to_head, as_probabilities
    and numpy.mean there: the tournament's own are untouched, and its illegal answer is
    refused."""
    folder = write(tmp_path, {**GOOD, "rigger.py": textwrap.dedent("""\
        import numpy
        import cfrviz.play.entrants as entrants
        import cfrviz.play.tournament as tournament
        numpy.mean = lambda *a, **k: 0.0
        tournament.head_to_head = lambda *a, **k: None
        entrants.as_probabilities = lambda answer, s: numpy.ones(len(s.actions)) / 2

        def bot(s):
            return 'everything'
        """)})
    result = play(folder, budget=30.0)
    assert [(p.name, p.kind) for p in result.problems] == [("rigger", "illegal action")]
    same_results(result, without)


def test_answers_that_loop_or_lie_are_stopped_in_the_bots_process(tmp_path, without):
    folder = write(tmp_path, {**GOOD, "answers.py": "", **{
        f"{name}.py": HEADER + textwrap.dedent(code) for name, code in {
            "floats": """\
                class F:
                    def __float__(self):
                        while True:
                            pass

                def bot(s):
                    return [F(), 0.5]
                """,
            "iterates": """\
                class L(list):
                    def __iter__(self):
                        while True:
                            yield 0.5

                    def __len__(self):
                        return 2

                def bot(s):
                    return L()
                """,
            "floatsub": """\
                class G(float):
                    def __float__(self):
                        while True:
                            pass

                def bot(s):
                    return [G(0.5), G(0.5)]
                """,
            "nan": "def bot(s):\n    return [float('nan'), 1]\n",
            "strips": """\
                class S(str):
                    def strip(self, *a):
                        while True:
                            pass

                def bot(s):
                    return S(s.actions[0])
                """}.items()}})
    (folder / "answers.py").unlink()
    result = play(folder)
    problems = {p.name: p for p in result.problems}
    assert problems["floats"].kind == "bad probabilities"  # a float is asked for only in here
    assert "not a number" in problems["floats"].message
    assert problems["floatsub"].kind == problems["iterates"].kind == "slow"
    assert "returned probabilities [nan, 1.0], which are not all finite" in problems["nan"].message
    assert "strips" in result.names  # read as the plain str it holds; its strip() never runs
    for a, b in itertools.permutations(("good1", "good2")):
        assert result.pairs[a][b] == without.pairs[a][b]


def test_every_file_of_the_folder_is_entered_or_named(tmp_path):
    write(tmp_path, {"alice.ipynb": "{}", "BOB.PY": TWIN, "carol.py.txt": TWIN, "dave": TWIN,
                     "_helpers.py": "", ".hidden.py": "", "notes.txt": ""})
    (tmp_path / "sub").mkdir()
    files, skipped = folder_contents(tmp_path)
    assert [p.name for p in files] == ["BOB.PY"]
    reasons = {p.name: p.message for p in skipped}
    assert set(reasons) == {"alice.ipynb", "carol.py.txt", "dave", "_helpers.py", ".hidden.py",
                            "notes.txt", "sub"}
    assert "a notebook" in reasons["alice.ipynb"] and "alice.py" in reasons["alice.ipynb"]
    assert "rename it carol.py" in reasons["carol.py.txt"]
    assert "rename it dave.py" in reasons["dave"]
    assert "helper" in reasons["_helpers.py"] and "hidden" in reasons[".hidden.py"]
    assert "a folder" in reasons["sub"]
    assert {p.kind for p in skipped} == {"skipped"}
    result = play(tmp_path)
    assert result.names == ("BOB",)
    assert {p.name for p in result.problems} == set(reasons)
    assert "alice.ipynb (skipped): a notebook" in str(result)


def test_the_report_prints_on_an_ascii_stream(tmp_path, monkeypatch):
    write(tmp_path, {"café.txt": ""})
    stream = io.TextIOWrapper(io.BytesIO(), encoding="ascii")
    monkeypatch.setattr(sys, "stdout", stream)
    assert main([str(tmp_path), "--game", "kuhn_poker", "--hands", "100"]) == 0
    stream.flush()
    out = stream.buffer.getvalue().decode("ascii")
    assert " +/- " in out and "caf\\xe9.txt (skipped)" in out and "\u00b1" not in out
    assert printable("a ± b — c", io.TextIOWrapper(io.BytesIO(), encoding="utf-8")) \
        == "a ± b — c"


def test_a_game_bots_cannot_play_is_refused_by_name():
    three = cfrviz.load_game("kuhn_poker_3p")
    for call in (lambda: cfrviz.bot(three, "always_raise"),
                 lambda: run_tournament(three, hands=100),
                 lambda: run_tournament("kuhn_poker_3p", {"x": lambda s: s.actions[0]},
                                        archetypes=False, hands=100),
                 lambda: situations(three)):
        with pytest.raises(ValueError, match=r"two-player games.*kuhn_poker_3p has 3 players.*"
                                             r"'kuhn_poker', 'leduc_poker' or 'pocket_poker'"):
            call()


# -- the same rules for a function in this process ---------------------------------------------

def test_a_function_cannot_change_the_situations_of_later_bots():
    before = [astuple(s) for s in situations(KUHN)]

    def vandal(s):
        import gc
        for o in gc.get_objects():
            if type(o).__name__ == "Situation":
                object.__setattr__(o, "actions", ("x",))
        return s.actions[0]

    # its answers are checked against fresh copies; walking gc takes seconds on a loaded machine
    # (the default 1 s limit made it "slow" in CI), and time is not what this test is about
    problem = tabulate(KUHN, vandal, "vandal", decision_limit=STOPPED, budget=STOPPED)
    assert problem.kind == "illegal action" and "returned 'x'" in problem.message
    assert [astuple(s) for s in situations(KUHN)] == before
    honest = tabulate(KUHN, lambda s: s.actions[0], "honest")
    assert isinstance(honest, Entrant)


def test_a_functions_looping_answer_or_message_is_stopped():
    class Spins:
        def __float__(self):
            while True:
                pass

    class Loops(Exception):
        def __str__(self):
            while True:
                pass

    def raises(_s):
        raise Loops

    start = time.perf_counter()
    # float() runs only in plain(), under the clock: the spinning object is refused unread.
    assert tabulate(KUHN, lambda _s: [Spins(), 0.5], "spins").kind == "bad probabilities"
    problem = tabulate(KUHN, raises, "loops", decision_limit=0.2)
    assert "could not be shown: str() did not finish" in problem.message
    assert time.perf_counter() - start < STOPPED


# -- the protocol: what comes back is plain data, checked here ---------------------------------

JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
                    lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner),
                    max_leaves=12)


FIRST = situations(KUHN)[0]


@settings(max_examples=100, deadline=None)
@given(JSON)
def test_any_message_decodes_to_an_answer_or_a_value_error(data):
    """A bot's process may send anything: it is an answer the checks refuse or accept, or a
    ValueError, never another exception and never a probability table that is not one."""
    situation = FIRST
    try:
        probs = as_probabilities(decode(data), situation)
    except ValueError:
        return
    assert probs.shape == (2,) and abs(probs.sum() - 1) < 1e-6 and (probs >= 0).all()


@pytest.mark.parametrize("answer", ["p", " Bet ", {"p": 0.25, "bet": 0.75}, [0.5, 0.5],
                                    (1, 0), None, 3, {2: 1.0}, [float("nan"), 1.0], [True, False],
                                    [0.5] * 20_000, object()])
def test_plain_then_decode_keeps_the_verdict(answer):
    """What as_probabilities says of an answer, it says of the answer made plain and back."""
    situation = situations(KUHN)[0]

    def verdict(value):
        try:
            return as_probabilities(value, situation).tolist()
        except ValueError as error:
            return error.kind

    assert verdict(decode(json.loads(json.dumps(plain(answer))))) == verdict(answer)


def test_play_files_reports_unreadable_files_before_running_any(tmp_path):
    write(tmp_path, {"ok.py": TWIN})
    (tmp_path / "binary.py").write_bytes(b"\xff\xfe\x00")
    os.mkfifo(tmp_path / "pipe.py")
    results = play_files(KUHN, [("ok", tmp_path / "ok.py"), ("bin", tmp_path / "binary.py"),
                                ("pipe", tmp_path / "pipe.py")], **LIMITS)
    assert isinstance(results[0], Entrant)
    assert isinstance(results[1], Problem) and results[1].name == "bin"
    assert "could not read binary.py" in results[1].message
    assert "pipe.py is not a regular file" in results[2].message
