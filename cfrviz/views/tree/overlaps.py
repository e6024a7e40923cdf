"""Where a tree figure's node markers and labels fall on the page, in pixels, and which of
them overlap: the geometric check behind ``tests/test_tree_layout.py``, usable by hand::

    from cfrviz.views.tree.overlaps import overlaps
    view = TreeView(game); fig = view.figure()
    for pair in overlaps(view, fig):
        print(pair)

Boxes are estimated, not measured: a text's width is its length times ``CHAR_EM`` times its
font size (Arial, mixed text), its height Arial's ascent plus descent; text drawn on a trace
sits where plotly.js puts it (``textPointPosition`` in plotly.js's ``drawing`` module: the
marker radius over 0.8 plus one pixel away from a marker, the baseline 0.75 of the font size
below the anchor's middle); an annotation adds its padding and border on each side.  A marker's
box is its symbol's outline (plotly.js's ``symbol_defs``: a diamond reaches 1.3 radii, a
downward triangle 2/sqrt(3) radii sideways).  ``tests/test_tree_layout.py`` compares these
estimates with the boxes Chromium draws (``getBBox``).
"""

from __future__ import annotations

from dataclasses import dataclass
from html import unescape

import numpy as np

from .view import CHAR_EM, TreeView, roles_of

#: The default size a tree figure is checked at: JupyterLab's output area in a 1280-pixel
#: window (``benchmarks/screens.py``'s ``OUTPUT_PX``); the height is the figure's own.
DEFAULT_WIDTH_PX = 848
#: Arial's ascent and descent, in units of the font size (the box ``getBBox`` reports).
ASCENT, DESCENT = 0.905, 0.212
#: Half the extent of a marker symbol (sideways, upwards, downwards) in marker radii.
SYMBOL_EXTENT = {"circle": (1.0, 1.0, 1.0), "square": (1.0, 1.0, 1.0),
                 "hexagon": (1.0, 1.0, 1.0), "star": (1.0, 1.0, 1.0),
                 "diamond": (1.3, 1.3, 1.3), "triangle-down": (2 / np.sqrt(3), 0.5, 1.0)}
#: A probability adds at most this to an edge's label (" .33", see ``edge_texts``).
PROBABILITY_TEXT = " .33"


@dataclass(frozen=True)
class Box:
    """One drawn thing's box in page pixels (``y`` grows downwards)."""

    kind: str           # "marker", "payoff", "edge label", "chance label", "key", "cut"
    what: str           # which: the node id, the label's text
    x0: float
    y0: float
    x1: float
    y1: float

    def __str__(self) -> str:
        return (f"{self.kind} {self.what!r} at x {self.x0:.1f}..{self.x1:.1f}, "
                f"y {self.y0:.1f}..{self.y1:.1f} px")


def _text_width(text: str, size: float) -> float:
    return len(unescape(str(text))) * CHAR_EM * size


class Page:
    """Data coordinates to page pixels for a figure drawn ``width`` pixels wide."""

    def __init__(self, fig, width: float):
        layout = fig.layout
        m = layout.margin
        self.left, self.top = float(m.l), float(m.t)
        self.plot_w = width - float(m.l) - float(m.r)
        self.plot_h = float(layout.height) - float(m.t) - float(m.b)
        self.xr, self.yr = [float(v) for v in layout.xaxis.range], \
            [float(v) for v in layout.yaxis.range]

    def x(self, v):
        v = np.asarray(v, dtype=float)
        return self.left + (v - self.xr[0]) / (self.xr[1] - self.xr[0]) * self.plot_w

    def y(self, v):
        v = np.asarray(v, dtype=float)
        return self.top + (self.yr[1] - v) / (self.yr[1] - self.yr[0]) * self.plot_h


def _trace_text_boxes(kind, page, xs, ys, texts, positions, size, marker_px, names):
    """Boxes of text drawn on a trace, placed as plotly.js's ``textPointPosition`` does."""
    boxes = []
    r = marker_px / 2 / 0.8 + 1 if marker_px else 0.0
    if isinstance(positions, str):
        positions = [positions] * len(texts)
    for x, y, text, pos, name in zip(page.x(xs), page.y(ys), texts, positions, names):
        h = "end" if "left" in pos else "start" if "right" in pos else "middle"
        v = "top" if "top" in pos else "bottom" if "bottom" in pos else "middle"
        sh = {"start": 1, "end": -1, "middle": 0}[h]
        sv = {"top": -1, "bottom": 1, "middle": 0}[v]
        w = _text_width(text, size)
        ax = x + sh * r
        base = y + 0.75 * size + sv * r + (sv - 1) * size / 2
        x0 = ax - {"start": 0.0, "end": w, "middle": w / 2}[h]
        boxes.append(Box(kind, str(name), float(x0), float(base - ASCENT * size),
                         float(x0 + w), float(base + DESCENT * size)))
    return boxes


def figure_boxes(view: TreeView, fig, width: float = DEFAULT_WIDTH_PX, *,
                 probabilities: bool = True) -> list[Box]:
    """Every node marker's and label's box of ``fig`` (built by ``view.figure()``), in
    pixels, when the figure is drawn ``width`` pixels wide.

    With ``probabilities`` (the default), each decision edge's label is measured as the
    explorers show it with a strategy, four characters longer (``"b .33"``); without, as
    the figure's edge-label trace holds it.
    """
    page = Page(fig, width)
    return (_node_boxes(view, fig, page) + _edge_label_boxes(view, fig, page, probabilities)
            + _text_boxes(view, fig, page) + _annotation_boxes(fig, page))


def _node_boxes(view: TreeView, fig, page: Page) -> list[Box]:
    """Each node marker's box, and each terminal's payoff label's."""
    boxes: list[Box] = []
    for role in roles_of(view.tree):
        trace = fig.data[view.traces[role]]
        if trace.x is None or len(trace.x) == 0:
            continue
        symbol, size = trace.marker.symbol, float(trace.marker.size)
        sx, up, down = SYMBOL_EXTENT[symbol]
        r = size / 2 + float(trace.marker.line.width or 0) / 2
        nodes = [int(row[0]) for row in trace.customdata]
        for n, px, py in zip(nodes, page.x(trace.x), page.y(trace.y)):
            boxes.append(Box("marker", f"node {n}", float(px - sx * r), float(py - up * r),
                             float(px + sx * r), float(py + down * r)))
        if role == "terminal":
            boxes += _trace_text_boxes("payoff", page, trace.x, trace.y, trace.text,
                                       trace.textposition, float(trace.textfont.size), size,
                                       [f"node {n}: {s}" for n, s in zip(nodes, trace.text)])
    return boxes


def _edge_label_boxes(view: TreeView, fig, page: Page, probabilities: bool) -> list[Box]:
    """Each decision edge's label's box, with the probability the explorers add or as drawn."""
    if not len(view.decision_edges):
        return []
    labels = fig.data[view.traces["edge labels"]]
    x, y, left = view.edge_label_places()
    if probabilities:
        texts = [unescape(a) + PROBABILITY_TEXT for a in view.edge_actions]
    else:  # as the figure shows them now
        texts = [unescape(a) for a in (labels.text or view.edge_actions)]
    positions = ["middle left" if e else "middle right" for e in left.tolist()]
    return _trace_text_boxes("edge label", page, x, y, texts, positions,
                             float(labels.textfont.size), 0.0,
                             [f"edge to node {c}: {s}" for c, s in
                              zip(view.decision_edges.tolist(), texts)])


def _text_boxes(view: TreeView, fig, page: Page) -> list[Box]:
    """The boxes of the cut marks, and of chance labels and information-set keys drawn as
    text (when too many to box)."""
    boxes: list[Box] = []
    cut = fig.data[view.traces["cut"]]
    if cut.x is not None and len(cut.x):
        boxes += _trace_text_boxes("cut", page, cut.x, cut.y, cut.text, "middle center",
                                   float(cut.textfont.size), 0.0, ["⋯"] * len(cut.x))
    for kind in ("chance labels", "infoset keys"):
        trace = fig.data[view.traces[kind]]
        if trace.mode == "text" and trace.x is not None and len(trace.x):
            boxes += _trace_text_boxes(kind[:-1], page, trace.x, trace.y, trace.text,
                                       trace.textposition, float(trace.textfont.size), 0.0,
                                       list(trace.text))
    return boxes


def _annotation_boxes(fig, page: Page) -> list[Box]:
    """The boxes of the labels drawn as annotations in the plot (boxed chance labels and
    information-set keys)."""
    boxes: list[Box] = []
    for a in fig.layout.annotations:
        if a.xref == "paper" or not a.text:
            continue  # the notes and the best-response value, above the plot
        size = float(a.font.size)
        pad = float(a.borderpad or 0) + float(a.borderwidth if a.borderwidth is not None else 1)
        w = _text_width(a.text, size) + 2 * pad
        h = (ASCENT + DESCENT) * size + 2 * pad
        px, py = float(page.x(a.x)), float(page.y(a.y))
        x0 = {"left": px, "right": px - w}.get(a.xanchor, px - w / 2)
        boxes.append(Box("boxed label", unescape(a.text), x0, py - h / 2, x0 + w, py + h / 2))
    return boxes


@dataclass(frozen=True)
class Overlap:
    """Two boxes that overlap, and by how many pixels each way."""

    a: Box
    b: Box
    dx: float
    dy: float

    def __str__(self) -> str:
        return f"{self.a} overlaps {self.b} by {self.dx:.1f} x {self.dy:.1f} px"


def box_overlaps(boxes: list[Box], slack: float = 0.5) -> list[Overlap]:
    """Every pair of ``boxes`` that overlaps by more than ``slack`` pixels both ways."""
    if not boxes:
        return []
    c = np.array([(b.x0, b.y0, b.x1, b.y1) for b in boxes])
    dx = np.minimum(c[:, None, 2], c[None, :, 2]) - np.maximum(c[:, None, 0], c[None, :, 0])
    dy = np.minimum(c[:, None, 3], c[None, :, 3]) - np.maximum(c[:, None, 1], c[None, :, 1])
    hit = np.triu((dx > slack) & (dy > slack), k=1)
    return [Overlap(boxes[i], boxes[j], float(dx[i, j]), float(dy[i, j]))
            for i, j in zip(*np.nonzero(hit))]


def overlaps(view: TreeView, fig=None, width: float = DEFAULT_WIDTH_PX, *,
             probabilities: bool = True) -> list[Overlap]:
    """The overlapping markers and labels of ``view``'s figure drawn ``width`` pixels wide
    (``fig`` defaults to ``view.figure()``); see :func:`figure_boxes`."""
    fig = view.figure() if fig is None else fig
    return box_overlaps(figure_boxes(view, fig, width, probabilities=probabilities))


def _polylines(xs, ys) -> list[np.ndarray]:
    """A plotly line trace's pieces (``None`` breaks the line) as arrays of points."""
    pieces: list[np.ndarray] = []
    current: list[tuple[float, float]] = []
    for x, y in zip(list(xs) + [None], list(ys) + [None]):
        if x is None or y is None:
            if len(current) > 1:
                pieces.append(np.array(current, dtype=float))
            current = []
        else:
            current.append((float(x), float(y)))
    return pieces


def _cross(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Which segments of ``a`` (n, 4) properly cross which of ``b`` (m, 4): a point inside
    both, not an end of either, as an (n, m) boolean array."""
    def side(p, q, r):  # sign of the turn p -> q -> r
        return np.sign((q[..., 0] - p[..., 0]) * (r[..., 1] - p[..., 1])
                       - (q[..., 1] - p[..., 1]) * (r[..., 0] - p[..., 0]))
    p1, p2 = a[:, None, :2], a[:, None, 2:]
    q1, q2 = b[None, :, :2], b[None, :, 2:]
    return ((side(p1, p2, q1) * side(p1, p2, q2) < 0)
            & (side(q1, q2, p1) * side(q1, q2, p2) < 0))


def connector_crossings(view: TreeView, fig=None) -> dict[str, int]:
    """How often the dashed information-set connectors of ``view``'s figure cross.

    Returns ``{"connectors": n, "edges": m}``: the crossings of two different sets'
    connectors (their lanes and the drops to their members), and of a connector with a
    tree edge.  Counted in data coordinates, where crossing does not depend on the size
    the figure is drawn at.
    """
    fig = view.figure() if fig is None else fig
    segments, owner = [], []
    for name, index in view.traces.items():
        if not name.startswith("connectors of"):
            continue
        trace = fig.data[index]
        pieces = iter(_polylines(trace.x, trace.y))
        for info, members in zip(trace.meta["infosets"], trace.meta["members"]):
            for _ in range(1 + len(members)):  # the lane, then one drop per member
                piece = next(pieces)
                for p, q in zip(piece[:-1], piece[1:]):
                    segments.append((*p, *q))
                    owner.append(info)
    if not segments:
        return {"connectors": 0, "edges": 0}
    lines, owners = np.array(segments), np.array(owner)
    tree = view.tree
    edges = np.array([(view.x[tree.parent[c]], view.y[tree.parent[c]], view.x[c], view.y[c])
                      for c in view.nodes[view.nodes != 0].tolist()], dtype=float)
    between = _cross(lines, lines) & (owners[:, None] != owners[None, :])
    return {"connectors": int(np.triu(between).sum()),
            "edges": int(_cross(lines, edges).sum()) if len(edges) else 0}
