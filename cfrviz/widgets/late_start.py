"""anywidget front ends that work however late they start (issue 30).

anywidget gives a model two seconds, from its creation in the page, to import its ES module
and run ``initialize``.  Past them it rejects the model ("[anywidget] Failed to initialize
model.") and drops, for good, every message the kernel sends it afterwards: the widget shows
the state it was created with and never changes again (a blank figure, a Play stuck at 0).  A
busy page misses the two seconds now and then: a loaded machine, a hub of a whole class, a
lesson drawing a dozen figures at once.

Every anywidget of cfrviz is a :class:`StartsLate`.  Its ES module is its own with the widget
wrapped by :data:`KEEP_ALIVE` (:func:`es_module`, applied to the class's ``_esm`` when the
class is made).  In the page, the wrapper's ``initialize`` asks anywidget whether it still
passes the kernel's messages on (a message that does nothing, through the model's own
handler).  When it does not, it hands the model's messages to ipywidgets' handler directly
from then on and asks the kernel for the whole state again; :class:`StartsLate` answers with
it (:meth:`StartsLate.resync`) and then says so.  The widget's own ``initialize`` gets
``synced``, a promise resolved once the model holds the kernel's state: at once when nothing
was lost, with ``true`` as the answer arrives when something was.
"""

from __future__ import annotations

import re
from importlib import resources
from typing import Any

import traitlets

#: The key of the custom messages between the page and the kernel: ``{KEY: "resync"}`` asks
#: for the whole state again, ``{KEY: "resynced"}`` follows it.
KEY = "cfrviz"

_DEFAULT = re.compile(r"^export default\b", re.MULTILINE)
#: A named export (``export function render``, ``export const KINDS``): kept as a plain
#: declaration, since anywidget takes a module's exported ``render`` in place of its widget.
_NAMED = re.compile(r"^export (?=(?:async\s+)?function\b|const\b|let\b|var\b|class\b)",
                    re.MULTILINE)

#: The wrapper, in the page: ``keep_alive.js`` beside this module (package data; tests/js/
#: late_start.test.js), its exports made plain declarations, for :func:`es_module` to put at
#: the end of a module.
KEEP_ALIVE = _NAMED.sub("", (resources.files("cfrviz.widgets") / "keep_alive.js").read_text(
    encoding="utf-8"))


def es_module(source: str) -> str:
    """anywidget module ``source`` with its widget (its one ``export default``, at a line's
    start) wrapped by :data:`KEEP_ALIVE`, and its named exports (which only Node's tests
    import) plain declarations; a module wrapped already is returned as it is."""
    if KEEP_ALIVE in source:
        return source
    found = len(_DEFAULT.findall(source))
    if found != 1 or re.search(r"^export\s*[{*]", source, re.MULTILINE):
        raise ValueError("an anywidget module of cfrviz must have one 'export default' at a "
                         f"line's start (this one has {found}) and no 'export {{...}}' or "
                         "'export *' for KEEP_ALIVE to wrap it")
    body = _NAMED.sub("", _DEFAULT.sub("const cfrvizWidget =", source))
    return body + "\n" + KEEP_ALIVE + "\nexport default cfrvizKeepAlive(cfrvizWidget);\n"


class StartsLate:
    """Mixin for an ``anywidget.AnyWidget`` of cfrviz (put it first among the bases): its
    ``_esm`` goes through :func:`es_module`, and it answers the page's request for the whole
    state (see the module's docstring)."""

    _esm: Any  # anywidget's: the ES module (its text, or a file), wrapped here

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)  # anywidget reads an _esm given as a path here
        # A class's own module (a string, or anywidget's FileContents of a file), not the trait
        # traitlets' add_traits puts on the subclass it makes for each instance.
        source = cls.__dict__.get("_esm")
        if source is not None and not isinstance(source, traitlets.TraitType):
            cls._esm = es_module(str(source))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.on_msg(self._on_front_end_message)  # type: ignore[attr-defined]

    def _on_front_end_message(self, _widget: Any, content: Any, _buffers: Any) -> None:
        if isinstance(content, dict) and content.get(KEY) == "resync":
            self.resync()
            self.send({KEY: "resynced"})  # type: ignore[attr-defined]

    def resync(self) -> None:
        """Send the page the whole state (what a model that missed messages needs)."""
        self.send_state()  # type: ignore[attr-defined]
