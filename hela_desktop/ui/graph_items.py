"""The graph view's parts that run on their own: the edge pens, the glow painter and the
layout thread (the key to the edge colours: `graph_legend`)."""

from __future__ import annotations

import time

import pyqtgraph as pg
from PySide6 import QtCore, QtGui

from .layout import ForceLayout
from .theme import GraphColors

EDGE_ALPHA = (0.22, 0.45, 0.75)  # prior classes, drawn as opaque colours blended over the background (fast)
EDGE_WIDTH = (1.0, 1.0, 1.8)
# learned classes, drawn over their link: the more was learned, the stronger and wider
# (even the weakest is wider than a link, so it shows as an orange line along it)
LEARNED_ALPHA = (0.65, 0.82, 1.0)
LEARNED_WIDTH = (2.0, 2.4, 3.0)


def _blend(rgb: tuple[int, int, int], alpha: float, background: str) -> QtGui.QColor:
    bg = QtGui.QColor(background)
    return QtGui.QColor(*(int(alpha * e + (1 - alpha) * b)
                          for e, b in zip(rgb, (bg.red(), bg.green(), bg.blue()))))


def edge_pens(c: GraphColors, thin: bool) -> tuple[list, list]:
    """(pens of the prior classes, pens of the learned classes): priors in the palette's
    neutral edge colour, learned links in its warm colour, stronger the more was learned;
    `thin` (big graphs): every line 1 px (wide lines rasterise slowly)."""
    def pens(rgb, alphas, widths):
        return [pg.mkPen(_blend(rgb, a, c.background), width=1.0 if thin else w, cosmetic=True)
                for a, w in zip(alphas, widths)]

    return (pens(c.edge, EDGE_ALPHA, EDGE_WIDTH),
            pens(c.learned_edge, LEARNED_ALPHA, LEARNED_WIDTH))


class GlowItem(pg.GraphicsObject):
    """Coloured halos and rings in pixel sizes, painted directly (a handful of spots).

    A ScatterPlotItem would re-render its symbol atlas for every new animated size or
    colour; painting a few ellipses ourselves costs microseconds.
    """

    def __init__(self):
        super().__init__()
        self.spots: list[tuple[float, float, float, QtGui.QColor, bool]] = []  # x, y, px, colour, ring
        self._rect = QtCore.QRectF()

    def set_spots(self, spots) -> None:
        self.prepareGeometryChange()
        self.spots = list(spots)
        if self.spots:
            xs = [s[0] for s in self.spots]
            ys = [s[1] for s in self.spots]
            ps = self.pixelSize() if self.getViewBox() is not None else None
            pad = max(s[2] for s in self.spots)
            px = (ps[0] if ps else 1.0) * pad
            py = (ps[1] if ps else 1.0) * pad
            self._rect = QtCore.QRectF(min(xs) - px, min(ys) - py, max(xs) - min(xs) + 2 * px,
                                       max(ys) - min(ys) + 2 * py)
        else:
            self._rect = QtCore.QRectF()
        self.update()

    def boundingRect(self) -> QtCore.QRectF:  # noqa: N802
        return self._rect

    def paint(self, p: QtGui.QPainter, *_args) -> None:
        if not self.spots:
            return
        tr = p.transform()
        p.save()
        p.resetTransform()
        p.setRenderHint(QtGui.QPainter.RenderHint.Antialiasing, True)
        for x, y, size, col, ring in self.spots:
            c = tr.map(QtCore.QPointF(x, y))
            r = size / 2.0
            if ring:
                p.setPen(QtGui.QPen(col, 2.0))
                p.setBrush(QtCore.Qt.BrushStyle.NoBrush)
            else:
                p.setPen(QtCore.Qt.PenStyle.NoPen)
                p.setBrush(col)
            p.drawEllipse(c, r, r)
        p.restore()


class LayoutRunner(QtCore.QObject):
    """Runs `ForceLayout` steps in its own thread and publishes positions (≤ 30 per s)."""

    positions = QtCore.Signal(object, object)  # (ids array, (N, 2) positions)
    topicsReady = QtCore.Signal(object, object, object)  # (ids, group per row, {group: name})

    def __init__(self, interval_ms: int = 33):
        super().__init__()
        self.layout = ForceLayout()
        self.interval_ms = interval_ms
        self._timer: QtCore.QTimer | None = None

    @QtCore.Slot()
    def start(self) -> None:
        from .worker import lower_thread_priority

        lower_thread_priority(4)
        self._timer = QtCore.QTimer(self)
        self._timer.setInterval(self.interval_ms)
        self._timer.timeout.connect(self._tick)

    @QtCore.Slot(object, object)
    def set_graph(self, ids, edges) -> None:
        self.layout.set_graph(ids, edges)
        if len(ids) and len(self.layout.ids) and self.layout.temperature > 0.5:
            # big change (first load): settle most of the way before the first frame
            self.layout.run(min(60, max(5, 30000 // max(len(ids), 1))))
        self.positions.emit(self.layout.ids.copy(), self.layout.positions())
        self._wake()

    @QtCore.Slot(object, object)
    def seed(self, ids, pos) -> None:
        self.layout.seed(ids, pos)

    @QtCore.Slot(object)
    def topics(self, job) -> None:
        """Find and name the graph's topics here, off the GUI thread: `job` is the graph
        and the topic each of its memories had (`topics_for`)."""
        from .graph_model import topics_for

        data, start = job
        groups, names = topics_for(data, start)
        self.topicsReady.emit(data.ids.copy(), groups, names)

    @QtCore.Slot(float)
    def reheat(self, amount: float) -> None:
        self.layout.reheat(amount)
        self._wake()

    def _wake(self) -> None:
        if self._timer is not None and not self._timer.isActive():
            self._timer.start()

    @QtCore.Slot()
    def _tick(self) -> None:
        lay = self.layout
        if self._timer is None:
            return
        if len(lay.ids) == 0 or lay.settled:
            self._timer.stop()
            return
        t0 = time.perf_counter()
        lay.step()
        spent_ms = (time.perf_counter() - t0) * 1000.0
        # big graphs: leave the cores to the GUI and the model between steps
        self._timer.setInterval(int(max(self.interval_ms, 1.5 * spent_ms)))
        self.positions.emit(lay.ids.copy(), lay.positions())

    @QtCore.Slot()
    def stop(self) -> None:
        """Stop stepping; the timer is destroyed here, in the thread that owns it."""
        t, self._timer = self._timer, None
        if t is not None:
            t.stop()
            t.setParent(None)
            del t
