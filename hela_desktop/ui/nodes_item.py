"""Thousands of same-looking markers drawn as pixmap fragments straight from numpy.

`ScatterPlotItem.setData` rebuilds per-point records in Python on every call, which
costs ~10 ms for 2,000 points — too much per animation frame.  `NodesItem` keeps one
pre-rendered sprite and maps positions with a vectorised affine transform; updating
positions is an array copy.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui

try:
    from pyqtgraph.Qt.internals import PrimitiveArray
except ImportError:  # pragma: no cover - older pyqtgraph
    PrimitiveArray = None


class NodesItem(pg.GraphicsObject):
    """Markers of one style (circle or diamond, pixel size, pen, brush) at data positions."""

    def __init__(self, symbol: str = "o", size: float = 9.0, pen=None, brush=None):
        super().__init__()
        self.x = np.zeros(0)
        self.y = np.zeros(0)
        self.symbol = symbol
        self.size = float(size)
        self.pen = QtGui.QPen(QtCore.Qt.PenStyle.NoPen) if pen is None else QtGui.QPen(pen)
        self.brush = QtGui.QBrush(QtCore.Qt.BrushStyle.NoBrush) if brush is None else QtGui.QBrush(brush)
        self._sprite: QtGui.QPixmap | None = None
        self._dpr = 1.0
        self._rect = QtCore.QRectF()
        self._frags = PrimitiveArray(QtGui.QPainter.PixmapFragment, 10) if PrimitiveArray else None

    # ---- style and data -------------------------------------------------------------
    def set_style(self, *, symbol: str | None = None, size: float | None = None, pen=None,
                  brush=None) -> None:
        if symbol is not None:
            self.symbol = symbol
        if size is not None:
            self.size = float(size)
        if pen is not None:
            self.pen = QtGui.QPen(pen)
        if brush is not None:
            self.brush = QtGui.QBrush(brush)
        self._sprite = None
        self.prepareGeometryChange()
        self.update()

    def setSize(self, size: float) -> None:  # noqa: N802 - ScatterPlotItem-compatible
        self.set_style(size=size)

    def set_points(self, x, y) -> None:
        """New positions (data coordinates)."""
        self.x = np.asarray(x, dtype=np.float64)
        self.y = np.asarray(y, dtype=np.float64)
        self.prepareGeometryChange()
        if len(self.x):
            x0, x1 = float(self.x.min()), float(self.x.max())
            y0, y1 = float(self.y.min()), float(self.y.max())
            self._rect = QtCore.QRectF(x0, y0, max(x1 - x0, 1e-9), max(y1 - y0, 1e-9))
        else:
            self._rect = QtCore.QRectF()
        self.update()

    def setData(self, x=None, y=None) -> None:  # noqa: N802 - ScatterPlotItem-compatible
        self.set_points([] if x is None else x, [] if y is None else y)

    def __len__(self) -> int:
        return len(self.x)

    # ---- painting -------------------------------------------------------------------
    def _make_sprite(self, dpr: float) -> QtGui.QPixmap:
        w = int(np.ceil((self.size + self.pen.widthF() + 2) * dpr))
        pm = QtGui.QPixmap(w, w)
        pm.fill(QtCore.Qt.GlobalColor.transparent)
        p = QtGui.QPainter(pm)
        p.setRenderHint(QtGui.QPainter.RenderHint.Antialiasing)
        p.scale(dpr, dpr)
        p.setPen(self.pen)
        p.setBrush(self.brush)
        c = w / dpr / 2.0
        r = self.size / 2.0
        if self.symbol == "d":
            p.drawPolygon(QtGui.QPolygonF([QtCore.QPointF(c, c - r), QtCore.QPointF(c + r, c),
                                           QtCore.QPointF(c, c + r), QtCore.QPointF(c - r, c)]))
        else:
            p.drawEllipse(QtCore.QPointF(c, c), r, r)
        p.end()
        return pm

    def boundingRect(self) -> QtCore.QRectF:  # noqa: N802
        if self._rect.isNull() and not len(self.x):
            return QtCore.QRectF()
        ps = self.pixelSize() if self.getViewBox() is not None else None
        pad = (self.size + 4) / 2.0
        # (no pixel size while the view has no area: its pane dragged shut)
        px, py = (ps[0] * pad, ps[1] * pad) if ps and None not in ps else (0.0, 0.0)
        return self._rect.adjusted(-px, -py, px, py)

    def dataBounds(self, ax: int, frac: float = 1.0, orthoRange=None):  # noqa: N802, N803
        if not len(self.x):
            return (None, None)
        a = self.x if ax == 0 else self.y
        return (float(a.min()), float(a.max()))

    def pixelPadding(self) -> float:  # noqa: N802
        return self.size / 2.0 + 2

    def paint(self, p: QtGui.QPainter, *_args) -> None:
        n = len(self.x)
        if not n:
            return
        widget = _args[1] if len(_args) > 1 else None
        dpr = widget.devicePixelRatioF() if widget is not None else 1.0
        if self._sprite is None or dpr != self._dpr:
            self._dpr = dpr
            self._sprite = self._make_sprite(dpr)
        tr = p.transform()
        xs = tr.m11() * self.x + tr.m21() * self.y + tr.dx()
        ys = tr.m12() * self.x + tr.m22() * self.y + tr.dy()
        np.clip(xs, -2 ** 30, 2 ** 30, out=xs)
        np.clip(ys, -2 ** 30, 2 ** 30, out=ys)
        p.save()
        p.resetTransform()
        w = self._sprite.width()
        if self._frags is not None:
            self._frags.resize(n)
            f = self._frags.ndarray()
            f[:, 0] = xs
            f[:, 1] = ys
            f[:, 2:6] = (0.0, 0.0, w, w)
            f[:, 6:10] = (1.0 / dpr, 1.0 / dpr, 0.0, 1.0)
            # the (fragments, count, pixmap) overload exists; PySide6's stub lists only one
            p.drawPixmapFragments(*self._frags.drawargs(), self._sprite)  # type: ignore[call-arg]
        else:  # pragma: no cover
            half = w / dpr / 2.0
            for x, y in zip(xs, ys):
                p.drawPixmap(QtCore.QPointF(x - half, y - half), self._sprite)
        p.restore()
