"""plotly's ``FigureWidget`` with a front end that starts at once, however busy the machine.

Since plotly 6 a ``FigureWidget`` is an anywidget whose ES module is plotly's whole front end
(``widgetbundle.js``, about 5 MB: plotly.js and the widget), sent with every figure and
imported anew, from a new blob URL, for every figure: each figure evaluates all of plotly.js
again (2-4 s at a load average of 14 on 2 cores, in Debian's chromium).  anywidget gives a
model two seconds to start (``initialize`` returned); a model that misses them drops every
message the kernel sends it, for good ("[anywidget] Failed to initialize model").  A widget
that makes its figures empty and fills them at once (most cfrviz widgets) then shows blank
charts (issue 25 item 5; tests/test_browser_load.py).

:class:`FigureWidget` sends a small ES module (:data:`FRONT_END`, a file) that starts in
milliseconds, and plotly's bundle once per kernel: :class:`PlotlyBundle`, one model that
every figure refers to (:func:`shared_bundle`).  Sending the 5 MB with each figure had the
kernel encode, the server forward and the page parse 70 MB for a notebook of 14 figures,
which kept a loaded kernel and page busy for a minute (issue 30).  The page imports the bundle
once and shares it between figures.  Until it is ready each figure records the messages the
kernel sends it: plotly's model reads a message when its change event fires, and the kernel
clears it right after.  Once the bundle is ready it gives plotly's own model and view the
recorded messages in order, and figures draw whatever the load.  A figure whose front end
starts later than anywidget's two seconds asks the kernel for its figure again
(:mod:`cfrviz.widgets.late_start`) and draws that.  It is a ``go.FigureWidget`` in every other
respect.
"""

from __future__ import annotations

import functools
import hashlib
from copy import deepcopy
from importlib import resources

import ipywidgets
import plotly.graph_objects as go
import traitlets
from plotly.basewidget import BaseFigureWidget

from .late_start import StartsLate

#: The kernel-to-page messages of plotly's widget (traits set, then cleared at once).
MESSAGES = sorted(n for n in BaseFigureWidget.class_trait_names() if n.startswith("_py2js_"))

#: The ES module anywidget imports for each figure (before :func:`late_start.es_module`):
#: ``figure_widget.js`` beside this module, package data (tests/js/figure_widget.test.js).
FRONT_END = (resources.files("cfrviz.widgets") / "figure_widget.js").read_text(encoding="utf-8")


@functools.cache
def plotly_bundle() -> tuple[str, str]:
    """plotly's front end (the text of its ``widgetbundle.js``) and a key naming it."""
    source = str(BaseFigureWidget._esm)  # plotly's FileContents: the bundle's text
    return source, "plotly-" + hashlib.sha256(source.encode()).hexdigest()[:16]


class PlotlyBundle(ipywidgets.Widget):
    """plotly's front end as a model of its own (no view), sent to the page once per kernel
    and referred to by every :class:`FigureWidget` (:func:`shared_bundle`)."""

    source = traitlets.Unicode().tag(sync=True)
    key = traitlets.Unicode().tag(sync=True)


_shared: list[PlotlyBundle] = []


def shared_bundle() -> PlotlyBundle:
    """The kernel's :class:`PlotlyBundle`, made the first time (and again once closed, as
    ``Widget.close_all()`` does)."""
    if not _shared or _shared[0].comm is None:
        source, key = plotly_bundle()
        _shared[:] = [PlotlyBundle(source=source, key=key)]
    return _shared[0]


class FigureWidget(StartsLate, go.FigureWidget):
    """``plotly.graph_objects.FigureWidget`` whose front end starts at once and draws whatever
    the load (see the module's docstring); same arguments and behaviour."""

    _esm = FRONT_END
    _plotly_bundle = traitlets.Instance(PlotlyBundle).tag(
        sync=True, **ipywidgets.widget_serialization)
    _plotly_esm_key = traitlets.Unicode().tag(sync=True)
    #: What the front end records while plotly's bundle loads (:data:`MESSAGES`).
    _plotly_messages = traitlets.List(traitlets.Unicode(), default_value=MESSAGES).tag(sync=True)

    @traitlets.default("_plotly_bundle")
    def _default_plotly_bundle(self) -> PlotlyBundle:
        return shared_bundle()

    @traitlets.default("_plotly_esm_key")
    def _default_plotly_esm_key(self) -> str:
        return plotly_bundle()[1]

    def resync(self) -> None:
        """The figure as it is now, as plotly's display sends it (its front end draws a view
        from ``_widget_data`` and ``_widget_layout``), then the whole state."""
        self._widget_layout = deepcopy(self._layout_obj._props)
        self._widget_data = deepcopy(self._data)
        super().resync()
