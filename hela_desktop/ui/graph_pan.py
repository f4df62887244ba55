"""Bringing a chosen memory into view: it and its neighbours in the part of the plot on
screen (above the key to the link colours), by the least pan, zooming out only when they
do not fit.  And Fit: the whole graph in view, every dot whole and clear of the plot's
edges and of the key.

It was centred instead: a memory at the edge of the graph, chosen from a link under an
answer, went to the middle of the plot and half the graph, its neighbours with it, went
past the plot's right edge, under the detail pane (QA pass 41, p26a.png).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore

from .graph_legend import EdgeLegend
from .graph_model import GraphData

ROOM_PX = 14.0  # pixels kept clear round the dots brought into view (a ring, a label's start)
EDGE_PX = 4.0  # pixels at least between a dot's rim and the plot's edge (or the key's)
REFRAME = 0.03  # a graph unfolding this far (of its extent) from its last fit is fitted again


def least_shift(view: tuple[float, float, float, float],
                box: tuple[float, float, float, float]) -> tuple[float, float] | None:
    """The smallest move (dx, dy) of `box` that puts it inside `view` (both
    ``(left, bottom, right, top)``, in the same units); (0, 0) when it is inside already,
    None when it is larger than `view` on either axis."""
    shift = []
    for lo, hi, blo, bhi in ((view[0], view[2], box[0], box[2]), (view[1], view[3], box[1], box[3])):
        if bhi - blo > hi - lo:
            return None
        shift.append(lo - blo if blo < lo else (hi - bhi if bhi > hi else 0.0))
    return shift[0], shift[1]


def zoom_to_show(view: tuple[float, float, float, float], box: tuple[float, float, float, float],
                 margin: tuple[float, float]) -> float:
    """How much to zoom out (at least 1) so that `box` fits `view` with `margin` round it
    (view units at the present zoom: pixels, which grow with the zoom)."""
    w, h = view[2] - view[0], view[3] - view[1]
    bw, bh = box[2] - box[0], box[3] - box[1]
    return max(bw / max(w - 2 * margin[0], 1e-9), bh / max(h - 2 * margin[1], 1e-9), 1.0)


class GraphPanMixin:
    """For `GraphView`: `bring_into_view`, and its second go once the pane is laid out."""

    # the view's state these methods use (set by GraphView)
    data: GraphData
    xy: np.ndarray
    visible_mask: np.ndarray | None
    vb: pg.ViewBox
    legend: EdgeLegend
    node_size: float
    selected: int | None
    _view_rect: Callable[[], QtCore.QRectF]
    _dots_in_scene: Callable[[], np.ndarray]
    _user_moved_view: bool
    _pending_fit: bool
    _fitted_box: tuple[np.ndarray, np.ndarray]

    def fit(self, user: bool = True) -> None:
        """Zoom to all visible nodes, with room on the right for labels: every dot whole
        and clear of the plot's edges; the key over an empty corner of the graph where
        that leaves every dot clear of it, else room below the graph for it (QA pass 42d:
        the room it always took below lay empty beside it; QA pass 42c: a dot half cut
        off at the left edge)."""
        if not len(self.xy):
            return self.vb.setRange(QtCore.QRectF(-1, -1, 2, 2))
        rows = np.nonzero(self.visible_mask)[0] if self.visible_mask is not None else slice(None)
        p = self.xy[rows]
        if not len(p):
            return
        lo, hi = p.min(axis=0), p.max(axis=0)
        centre, span = (lo + hi) / 2, np.maximum(hi - lo, 3.5)
        # extra room on the right: labels are written to the right of their dots
        rect = QtCore.QRectF(centre[0] - span[0] / 2, centre[1] - span[1] / 2,
                             span[0] * 1.3, span[1])
        self.legend.arrange()
        h, room = self.vb.height(), self.legend.room()
        roomy = QtCore.QRectF(rect)
        if room and h > room + 40:  # room below for the legend, or its button (y up)
            roomy.adjust(0, -span[1] * room / (h - room), 0, 0)
        # zooming out stops at 4× the whole graph (QA pass 35: it shrank to one blob)
        self.vb.setLimits(maxXRange=roomy.width() * 4, maxYRange=roomy.height() * 4)
        self.vb.setRange(rect, padding=0.1)
        if roomy != rect and not self.dots_clear(key=True):
            self.vb.setRange(roomy, padding=0.1)
        for _ in range(3):  # (a tiny plot: 10% of it is less than a dot)
            if self.dots_clear():
                break
            self.vb.scaleBy((1.15, 1.15), center=self.vb.viewRect().center())
        self._fitted_box = (lo, hi)  # (the graph's extent this fit framed: `refit_due`)
        if user:
            self._user_moved_view = False
            self._pending_fit = True

    def refit_due(self) -> bool:
        """While the view follows the graph (no zoom or pan by the user): has the graph
        unfolded away from the frame its last fit gave it, by more than `REFRAME` of its
        extent on any side?  The opened window's graph sat in the upper part of the pane
        until Fit was pressed (QA pass 42's last look, pass 43): the layout settled
        after the fit, every dot still in view, so it was never framed again."""
        box = getattr(self, "_fitted_box", None)
        rows = np.nonzero(self.visible_mask)[0] if self.visible_mask is not None else slice(None)
        p = self.xy[rows]
        if box is None or not len(p):
            return box is None
        lo, hi = p.min(axis=0), p.max(axis=0)
        if lo.shape != box[0].shape:
            return True
        span = np.maximum(box[1] - box[0], 1e-9)
        return bool((np.abs(lo - box[0]) > REFRAME * span).any()
                    or (np.abs(hi - box[1]) > REFRAME * span).any())

    def dots_clear(self, *, key: bool = False) -> bool:
        """Is every drawn dot whole inside the plot, `EDGE_PX` clear of its edges, and of
        the key while it is open (or, `key`, where it would be)?"""
        dots = self._dots_in_scene()
        if not len(dots):
            return True
        r = self.node_size / 2 + EDGE_PX
        shown = self._view_rect().adjusted(r, r, -r, -r)
        x, y = dots[:, 0], dots[:, 1]
        if ((x < shown.left()) | (x > shown.right()) | (y < shown.top()) | (y > shown.bottom())).any():
            return False
        if not (key and self.legend.has_edges) and not self.legend.isVisible():
            return True
        k = self.legend.key_rect().adjusted(-r, -r, r, r)
        return not ((x >= k.left()) & (x <= k.right()) & (y >= k.top()) & (y <= k.bottom())).any()

    def neighbourhood_rows(self, row: int) -> np.ndarray:
        """Row `row` and its linked neighbours' rows, only those drawn (focus mode hides some)."""
        d = self.data
        rows = np.unique(np.concatenate([[row], d.dst[d.src == row], d.src[d.dst == row]]).astype(np.int64))
        mask = self.visible_mask
        if mask is not None and len(mask) == len(self.xy):
            rows = rows[mask[rows] | (rows == row)]
        return rows

    def shown_part(self) -> QtCore.QRectF:
        """The part of the plot on screen, in scene pixels, above the key (dots under it are
        hidden too)."""
        shown = self._view_rect()
        key = self.legend.scene_rect()
        if not key.isEmpty() and key.top() > shown.center().y():
            shown.setBottom(min(shown.bottom(), key.top()))
        return shown

    def bring_into_view(self, node_id: int, *, zoom_out: bool = True) -> None:
        """Pan the least that puts memory `node_id` and its neighbours in `shown_part`; if
        they do not fit, zoom out round them until they do (unless `zoom_out` is False:
        then only the memory itself is sure to be in view)."""
        d, vb = self.data, self.vb
        row = d.index.get(int(node_id))
        xy = self.xy
        if row is None or row >= len(xy):
            return
        shown = self.shown_part()
        if shown.width() < 4 or shown.height() < 4:
            return
        a, b = vb.mapSceneToView(shown.topLeft()), vb.mapSceneToView(shown.bottomRight())
        view = (min(a.x(), b.x()), min(a.y(), b.y()), max(a.x(), b.x()), max(a.y(), b.y()))
        px, py = (abs(float(v)) for v in vb.viewPixelSize())
        room = self.node_size / 2 + ROOM_PX
        m = (room * px, room * py)
        for rows in (self.neighbourhood_rows(row), np.array([row])):
            pts = xy[rows]
            core = (float(pts[:, 0].min()), float(pts[:, 1].min()),
                    float(pts[:, 0].max()), float(pts[:, 1].max()))
            box = (core[0] - m[0], core[1] - m[1], core[2] + m[0], core[3] + m[1])
            shift = least_shift(view, box)
            if shift is not None:
                if shift != (0.0, 0.0):
                    vb.setRange(vb.viewRect().translated(-shift[0], -shift[1]), padding=0)
                return
            if zoom_out:
                s = zoom_to_show(view, core, m)
                r = vb.viewRect()
                c = QtCore.QPointF((view[0] + view[2]) / 2, (view[1] + view[3]) / 2)
                goal = QtCore.QPointF((core[0] + core[2]) / 2, (core[1] + core[3]) / 2)
                # scaled about the shown part's middle, which goes to the box's middle
                vb.setRange(QtCore.QRectF(goal.x() + (r.left() - c.x()) * s,
                                          goal.y() + (r.top() - c.y()) * s,
                                          r.width() * s, r.height() * s), padding=0)
                return

    def bring_into_view_soon(self, node_id: int, *, zoom_out: bool = True) -> None:
        """`bring_into_view` now and once more when the pane is laid out again: a detail pane
        opened for the choice narrows the plot only then."""
        self.bring_into_view(node_id, zoom_out=zoom_out)

        def again() -> None:
            if self.selected == int(node_id):
                self.bring_into_view(node_id, zoom_out=zoom_out)
        QtCore.QTimer.singleShot(0, self.vb, again)  # (not after the view is gone)
