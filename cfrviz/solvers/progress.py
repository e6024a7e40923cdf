"""A solve's progress bar: tqdm's (a notebook widget in a kernel, a terminal line elsewhere),
made only when it is to be shown, and marked as cfrviz's output for the save hook."""

from __future__ import annotations

import functools
import time
from typing import Any

from ..core.notebook import displayed_as_ours

#: A bar not asked for is shown only for a run still going after this many seconds.
BAR_DELAY = 2.0


def progress_bar(total: int, initial: int, algorithm: str, game: str,
                 progress: bool | None) -> ProgressBar | None:
    """A :class:`ProgressBar` (a tqdm bar: notebook widget or terminal line), or None.

    ``progress=None`` shows a bar only for runs still going after :data:`BAR_DELAY` seconds.
    """
    if progress is False:
        return None
    return ProgressBar(total, initial, f"{algorithm} on {game}", bool(progress))


class ProgressBar:
    """A tqdm bar made only when it is to be shown: at once when asked for, else at the first
    update after :data:`BAR_DELAY` seconds.  tqdm's notebook bar is four widgets, their
    layouts and styles, sent to the page by its constructor even while its own ``delay`` hides
    it: a lesson that solves a few hundred times sent the page thousands of models that were
    never shown, and under load the page failed to build some ("widget model not found")."""

    def __init__(self, total: int, initial: int, desc: str, asked: bool) -> None:
        self.total, self.done, self.desc, self.asked = total, initial, desc, asked
        self.due = time.monotonic() + (0.0 if asked else BAR_DELAY)
        self.bar: Any = None
        if asked:
            self._show()

    def _show(self) -> None:
        from tqdm.auto import tqdm

        self.bar = _bar_class(tqdm)(total=self.total, initial=self.done, desc=self.desc,
                                    unit="it", leave=self.asked, mininterval=0.2)

    def update(self, n: int) -> None:
        """``n`` more iterations done."""
        self.done += n
        if self.bar is not None:
            self.bar.update(n)
        elif time.monotonic() >= self.due:
            self._show()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


@functools.cache
def _bar_class(tqdm: Any) -> Any:
    """The bar class over ``tqdm`` (tqdm.auto's), whose notebook widget a save treats as
    cfrviz's output.  Made once per base: tqdm keeps a monitor thread per class, so a class
    per call left a thread per solve; ``monitor_interval = 0`` starts none at all."""

    class Bar(tqdm):  # type: ignore[misc]
        monitor_interval = 0

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            with displayed_as_ours():
                super().__init__(*args, **kwargs)

        def update(self, n: float | None = 1) -> bool | None:
            with displayed_as_ours():
                return super().update(n)  # type: ignore[no-any-return]

        def close(self) -> None:
            with displayed_as_ours():
                super().close()

    return Bar
