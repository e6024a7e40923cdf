"""Exercise checkers: instant feedback that accepts right answers and explains wrong ones.

Every checker returns a :class:`Feedback`, which a notebook shows as a coloured
box.  A checker never raises on a student's answer: an unanswered exercise
(``None`` or ``...``) reports "not done yet", and an answer that crashes is
reported with the error it raised.
"""

from __future__ import annotations

import html
from dataclasses import dataclass

CORRECT = "correct"
WRONG = "wrong"
NOT_DONE = "not done yet"

_COLOURS = {CORRECT: ("#e6f4ea", "#137333", "✓"), WRONG: ("#fce8e6", "#a50e0e", "✗"),
            NOT_DONE: ("#f1f3f4", "#3c4043", "…")}


@dataclass(frozen=True)
class Feedback:
    """The verdict on one answer.

    Attributes
    ----------
    status : str
        ``"correct"``, ``"wrong"`` or ``"not done yet"``.
    message : str
        What was right, or what went wrong and how to think about it.
    mistake : str or None
        A short name of the recognised common mistake, if any (used by tests).
    """

    status: str
    message: str
    mistake: str | None = None

    @property
    def correct(self) -> bool:
        return self.status == CORRECT

    def __bool__(self) -> bool:
        return self.correct

    def __str__(self) -> str:
        return f"{_COLOURS[self.status][2]} {self.status.upper()}: {self.message}"

    def _ipython_display_(self) -> None:
        """The coloured box in a notebook; nothing on a dashboard (Voila, ``make present``),
        where the class sees the lesson's widgets and no exercise scaffolding."""
        from IPython.display import HTML, display

        from ..views.style import in_dashboard
        if not in_dashboard():
            display(HTML(self._repr_html_()))

    def _repr_html_(self) -> str:
        background, colour, mark = _COLOURS[self.status]
        return (f"<div style='background:{background};color:{colour};padding:8px 12px;"
                f"border-left:4px solid {colour};border-radius:3px'><b>{mark} "
                f"{html.escape(self.status.capitalize())}.</b> "
                f"{html.escape(self.message)}</div>")


def correct(message: str) -> Feedback:
    return Feedback(CORRECT, message)


def wrong(message: str, mistake: str | None = None) -> Feedback:
    return Feedback(WRONG, message, mistake)


def not_done(message: str = "Fill in your answer above, then run this cell again.") -> Feedback:
    return Feedback(NOT_DONE, message)


def unanswered(answer) -> bool:
    """True for the placeholders a starter cell leaves: ``None`` and ``...``."""
    return answer is None or answer is Ellipsis


def as_number(answer) -> float | None:
    """An answer as a finite float (a number or a one-element array), or None.

    Booleans, strings and other objects are not numbers here, so ``True`` never
    passes for 1 and a checker can say "expected a number" instead of raising.
    """
    from numbers import Real

    import numpy as np

    from .guard import floats

    if isinstance(answer, np.ndarray) and answer.size == 1:
        answer = answer.item()
    if isinstance(answer, (bool, np.bool_)) or not isinstance(answer, (Real, np.number)):
        return None
    try:
        value = float(floats(answer))
    except ValueError:  # a Real whose __float__ raises, an int too large for a float
        return None
    return value if np.isfinite(value) else None


def as_vector(answer, length: int):
    """An answer as a float array of shape ``(length,)`` with finite entries, or None."""
    import numpy as np

    from .guard import floats

    try:
        values = floats(answer)
    except ValueError:  # guard.NotNumbers
        return None
    if values.shape != (length,) or not np.all(np.isfinite(values)):
        return None
    return values
