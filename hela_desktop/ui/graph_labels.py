"""Words on the graph: labels next to memories (active, selected, hovered, and the most
linked idle ones where there is room) and topic names when zoomed out.

`GraphLabelsMixin` is part of `GraphView` (kept apart to keep each file to one concern);
it reads the view's data, positions and state, declared below for the type checker.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui

from .graph_legend import EdgeLegend
from .graph_model import GraphData, short_label, stable_slots
from .nodes_item import NodesItem
from .plain import is_rtl
from .theme import GraphColors

# topics (groups of densely linked memories) get a colour each: the 10 largest.  No
# orange or rust: that hue means a learned link (``GraphColors.learned_edge``); no pink:
# that is a link between memories an answer is using (``active_edge``; two pink topics
# read as "in use" while nothing was, the verification pass of 0.14).
TOPIC_COLOURS = ("#3a9e6f", "#7b5fc4", "#3aa6b0", "#b8a031", "#4f86c6", "#6f9e2e",
                 "#2e6f9e", "#3d8f4a", "#9c4fb0", "#5f7f8f")
TOPICS_SHOWN = len(TOPIC_COLOURS)
IDLE_LABELS = 6  # the most linked idle memories are labelled too, where there is room
MAX_MAIN_LABELS = 16  # active, selected and highlighted memories labelled at most
SMALL_GRAPH = 400  # up to this many memories, labels avoid every dot
FEW_MEMORIES = 12  # up to this many, every memory is labelled where there is room
CLEAR_LABEL = 1.5  # a label is clearly its dot's when any other dot is this many times as far


class GraphLabelsMixin:
    """Memory labels and topic names of a `GraphView`."""

    # the view's state these methods use (set by GraphView)
    data: GraphData
    xy: np.ndarray  # (N, 2) positions of the nodes, in data rows
    active: dict[int, float]
    recent: list[int]
    highlighted: set[int]
    selected: int | None
    zoomed_out: bool
    focus_mode: bool
    important: list[int]
    visible_mask: np.ndarray | None
    memory_labels: list[pg.TextItem]
    topic_labels: list[pg.TextItem]
    topic_items: list[NodesItem]
    topic_names: dict[int, str]
    topic_bucket: np.ndarray
    _group: np.ndarray
    _slot_order: list[int]
    colors: GraphColors
    node_size: float
    plot: pg.PlotWidget
    vb: pg.ViewBox
    edge_items: list[pg.PlotCurveItem]
    render: Callable[..., None]
    set_active: Callable[..., None]
    node_at: Callable[[QtCore.QPointF], int | None]
    legend: EdgeLegend

    # ---- memory labels ----------------------------------------------------------------
    def clear_active(self) -> None:
        """The answer is over: its memories stop glowing and stay named, first among the
        idle labels, where there is room, until the next answer's are (QA pass 25: they
        lost their names the moment the glow ended)."""
        if self.active:
            self.recent = list(self.active)
        self.set_active([])

    def _label_targets(self) -> tuple[list[int], int, int]:
        """The memories to label, how many of them must be, and how many after those are
        the last answer's (placed like a few memories' labels: beside a dot of their own
        or tied to it by a line); the rest: idle ones, named where there is clear room."""
        d = self.data
        said: set[str] = set()  # one label a wording: copies of a statement said many times
        # (the most linked memories, all of them "I work as a dentist…") are named once;
        # two wordings that only begin alike are two labels

        def new(i: int) -> bool:
            node = d.nodes[i]
            text = " ".join(str(node.get("label") or node.get("text", "")).split()).casefold()
            if text in said:
                return False
            said.add(text)
            return True

        want = []
        if self.selected is not None and self.selected in d.index and new(self.selected):
            want.append(self.selected)
        want += [i for i in self.active if i in d.index and i not in want and new(i)]
        want += [i for i in self.highlighted if i in d.index and i not in want and new(i)]
        want = want[:MAX_MAIN_LABELS]
        n_main = len(want)  # labels after these are idle ones: shown only where they fit
        n_recent = 0
        if not self.zoomed_out or len(d) <= SMALL_GRAPH:
            idle = (i for i in [*self.recent, *self.important] if i in d.index and i not in want
                    and (self.visible_mask is None or self.visible_mask[d.index[i]]) and new(i))
            # (the last answer's all, up to the main labels' bound; the most linked after)
            room = max(IDLE_LABELS, min(len(self.recent), MAX_MAIN_LABELS))
            named = [i for _, i in zip(range(room), idle)]
            n_recent = sum(1 for i in named if i in self.recent)  # (they come first)
            want += named
        if len(d) <= FEW_MEMORIES:  # a new folder's first memories (the very first has
            # no link, so it is not among the most linked): each named where it fits
            want += [int(i) for r, i in enumerate(d.ids) if int(i) not in want
                     and (self.visible_mask is None or self.visible_mask[r]) and new(int(i))]
        return want, n_main, n_recent

    def _label_text(self, i: int) -> str:
        node = self.data.nodes[i]
        return short_label(node.get("label") or node.get("text", ""), 28)

    def _dot_rects(self, want: list[int], r_dot: float) -> dict[int, QtCore.QRectF]:
        """Scene rectangles labels must not cover: the labelled dots, every dot in small graphs."""
        rows = [self.data.index[i] for i in want]
        if len(self.xy) <= SMALL_GRAPH:
            rows = (list(range(len(self.xy))) if self.visible_mask is None
                    else list(np.nonzero(self.visible_mask)[0]))
        dots = {}
        for r in rows:
            c = self.vb.mapViewToScene(QtCore.QPointF(*self.xy[r]))
            dots[int(r)] = QtCore.QRectF(c.x() - r_dot, c.y() - r_dot, 2 * r_dot, 2 * r_dot)
        return dots

    def _style_label(self, t: pg.TextItem, text: str, col: QtGui.QColor) -> None:
        """Set text and colour only on change (setText re-lays out the text).  A label sits
        on a backing of the background colour, so lines under it do not cross its words."""
        if getattr(t, "_hela_text", None) != text:
            t.setText(text)
            t._hela_text = text
        if getattr(t, "_hela_color", None) != col.name():
            t.setColor(col)
            t._hela_color = col.name()
        if getattr(t, "_hela_fill", None) != self.colors.background:
            back = QtGui.QColor(self.colors.background)
            back.setAlpha(235)  # lines under a label barely show
            t.fill = pg.mkBrush(back)
            t._hela_fill = self.colors.background
            t.update()

    def _update_labels(self) -> None:
        d = self.data
        want, n_main, n_recent = self._label_targets()
        pi = self.plot.getPlotItem()
        while len(self.memory_labels) < len(want):
            t = pg.TextItem("", anchor=(-0.08, 0.5))
            t.setZValue(20)
            pi.addItem(t)
            self.memory_labels.append(t)
        text_col = QtGui.QColor(self.colors.text)
        muted = QtGui.QColor(self.colors.muted_text)
        r_dot = self.node_size / 2 + 2
        dots = self._dot_rects(want, r_dot)
        named = {d.index[i] for i in want}
        placed: list[QtCore.QRectF] = []
        view_rect = self._view_rect()
        self._scene_dots = self._dots_in_scene()
        leaders: list[tuple[float, float]] = []  # (x, y) pairs in view coordinates
        for n, t in enumerate(self.memory_labels):
            if n >= len(want):
                t.setVisible(False)
                continue
            i = want[n]
            t._hela_id = i  # (a click on the label chooses its memory: `memory_at`)
            self._style_label(t, self._label_text(i), text_col if n < n_main else muted)
            row = d.index[i]
            # the last answer's may cover a dot left unnamed (as labels in a big graph do):
            # between every dot of a narrow pane they found no room (QA pass 27)
            tied = n_main <= n < n_main + n_recent
            obstacles = [r for k, r in dots.items() if k != row and (not tied or k in named)]
            obstacles += placed
            # with no answer since the window opened (a relaunch) the most linked, short of
            # clear room beside their dot, go where a line ties them to it: between the
            # dots of a dense graph none had clear room, and it showed anonymous dots
            # (QA pass 28b); never where one could be read as another's
            spot = self._label_spot(t, row, r_dot, obstacles, placed, view_rect, must=n < n_main,
                                    tied=n < n_main + n_recent, line=n >= n_main and not self.recent)
            if spot is None:  # an idle label that does not fit is left out
                t.setVisible(False)
                continue
            if getattr(t, "_hela_shifted", False):
                leaders += self._leader(row, spot)
            placed.append(spot)
            t.setVisible(True)
        self._draw_leaders(leaders)

    def memory_at(self, scene_pos: QtCore.QPointF) -> int | None:
        """The memory under a scene position: its dot, else its label (a newcomer clicks
        the words; only the dot answered, QA pass 28b)."""
        nid = self.node_at(scene_pos)
        if nid is not None:
            return nid
        for t in self.memory_labels:
            i = getattr(t, "_hela_id", None)
            if (t.isVisible() and i is not None and i in self.data.index
                    and t.sceneBoundingRect().contains(scene_pos)):
                return int(i)
        return None

    def _leader(self, row: int, rect: QtCore.QRectF) -> list[tuple[float, float]]:
        """A line from memory `row`'s dot to the nearest point of its label, in view
        coordinates: a label moved down past others floated under the cluster, its dot
        unknown (QA pass 22: "Pixel is three years old…" under the graph)."""
        x, y = self.xy[row]
        sp = self.vb.mapViewToScene(QtCore.QPointF(x, y))
        near = QtCore.QPointF(min(max(sp.x(), rect.left()), rect.right()),
                              min(max(sp.y(), rect.top()), rect.bottom()))
        end = self.vb.mapSceneToView(near)
        return [(float(x), float(y)), (end.x(), end.y())]

    def _dots_in_scene(self) -> np.ndarray:
        """The drawn dots' centres in scene pixels, (M, 2), with their data rows in the
        third column (the view maps data to scene by a scale and a shift)."""
        rows = (np.arange(len(self.xy)) if self.visible_mask is None
                else np.nonzero(self.visible_mask)[0])
        if not len(rows):
            return np.zeros((0, 3))
        o = self.vb.mapViewToScene(QtCore.QPointF(0.0, 0.0))
        u = self.vb.mapViewToScene(QtCore.QPointF(1.0, 1.0))
        pts = self.xy[rows] * np.array([u.x() - o.x(), u.y() - o.y()]) + np.array([o.x(), o.y()])
        return np.column_stack([pts, rows])

    def _clarity(self, row: int, rect: QtCore.QRectF) -> float:
        """How much nearer label `rect` is to its own memory's dot than to any other drawn
        dot: the other's distance over its own (inf when there is no other).  Under
        `CLEAR_LABEL` a reader may take it for the other's: the verification pass of 0.14
        saw "Tell me: does Pixel like…" centred between two dots."""
        dots = getattr(self, "_scene_dots", None)
        if dots is None or len(dots) < 2:
            return float("inf")
        dx = np.maximum(np.maximum(rect.left() - dots[:, 0], dots[:, 0] - rect.right()), 0.0)
        dy = np.maximum(np.maximum(rect.top() - dots[:, 1], dots[:, 1] - rect.bottom()), 0.0)
        dist = np.hypot(dx, dy)
        own = dots[:, 2] == row
        if not own.any() or own.all():
            return float("inf")
        return float(dist[~own].min() / max(dist[own].min(), 1e-6))

    def _draw_leaders(self, points: list[tuple[float, float]]) -> None:
        item = getattr(self, "_leaders", None)
        if item is None:
            if not points:
                return
            item = self._leaders = pg.PlotCurveItem(connect="pairs", antialias=True)
            item.setZValue(19)  # under the labels, over the links
            self.plot.getPlotItem().addItem(item)
        item.setPen(pg.mkPen(QtGui.QColor(self.colors.muted_text), width=1.6,
                             style=QtCore.Qt.PenStyle.DashLine, cosmetic=True))
        xs = np.array([p[0] for p in points], dtype=float)
        ys = np.array([p[1] for p in points], dtype=float)
        item.setData(xs, ys)
        item.setVisible(bool(points))

    def _view_rect(self) -> QtCore.QRectF:
        """What is really on screen, in scene pixels: the plot's box, within the part of the
        scene the widget shows (a narrow window shows less than the box)."""
        shown = self.plot.mapToScene(self.plot.viewport().rect()).boundingRect()
        return self.vb.sceneBoundingRect().intersected(shown)

    def _label_spot(self, t: pg.TextItem, row: int, r_dot: float, obstacles: list, placed: list,
                    view_rect: QtCore.QRectF, *, must: bool, tied: bool = False,
                    line: bool = False) -> QtCore.QRectF | None:
        """Put label `t` right of its dot (left, for right-to-left text), else left (right),
        above or below — the first place that covers no other dot or label, stays in view
        and off the legend, where no other dot is about as near (`_clarity`); else, for a
        label that must be shown (or any in a graph of a few memories, or one of the last
        answer's, `tied`), the nearest free room a few lines above or below, tied to its
        dot by a line (also for one that may go only there, `line`), or the free place
        nearest its own dot against the others; else
        (`must`) the first of those places in view (right if none is), nudged down past
        labels and tied to its dot by a line.  Returns its scene rectangle, or None when
        an idle label has no clear room (QA pass 26: with the Details panel open, a graph of
        31 memories named none, not even the two the last answer used)."""
        x, y = self.xy[row]
        sp = self.vb.mapViewToScene(QtCore.QPointF(x, y))
        br = t.textItem.boundingRect()
        w, h = br.width(), br.height()
        gap = r_dot + 2
        candidates = [
            ((-gap / w, 0.5), QtCore.QRectF(sp.x() + gap, sp.y() - h / 2, w, h)),
            ((1 + gap / w, 0.5), QtCore.QRectF(sp.x() - gap - w, sp.y() - h / 2, w, h)),
            ((0.5, 1 + gap / h), QtCore.QRectF(sp.x() - w / 2, sp.y() - gap - h, w, h)),
            ((0.5, -gap / h), QtCore.QRectF(sp.x() - w / 2, sp.y() + gap, w, h)),
        ]
        if is_rtl(getattr(t, "_hela_text", "")):  # read from the right: it starts by its dot
            candidates[0], candidates[1] = candidates[1], candidates[0]
        legend = self.legend.scene_rect()  # a label never goes under the legend
        in_view = [(a, r) for a, r in candidates if view_rect.contains(r) and not r.intersects(legend)]
        free = [(a, r) for a, r in in_view if not any(r.intersects(o) for o in obstacles)]
        clarity = [self._clarity(row, r) for _a, r in free]
        clear = [c for c, k in zip(free, clarity) if k >= CLEAR_LABEL]
        shifted = unclear = False
        few = len(self.xy) <= FEW_MEMORIES or tied
        far = None if clear or (free and not line) or not (must or few or line) else self._far_spot(
            sp, w, h, gap, obstacles, placed, view_rect, legend)
        if clear:
            anchor, rect = clear[0]
        elif far is not None:  # no room beside its dot: in the nearest free room above or
            # below, tied to it by a line (a few memories in a narrow pane left half their
            # dots unnamed, QA pass 24)
            anchor, rect = (0.0, 0.0), far
            shifted = True
        elif free and (must or few):  # as near another dot
            # wherever it goes: the place nearest its own (a new folder's few memories
            # are each named)
            anchor, rect = free[int(np.argmax(clarity))]
            unclear = True
        elif not must:  # an idle label that could be read as another's is left out
            return None
        else:
            # a label that must be shown: on screen if it fits there, nudged past labels
            anchor, rect = (in_view or candidates)[0]
            for _ in range(12):
                if not any(rect.intersects(o) for o in placed):
                    break
                rect.translate(0, h * 0.8)
                shifted = True
        t._hela_shifted = shifted
        t._hela_unclear = unclear
        anchor = (round(anchor[0], 3), round(anchor[1], 3))
        if getattr(t, "_hela_anchor", None) != anchor:
            t.setAnchor(anchor)
            t._hela_anchor = anchor
        if far is not None and not clear:
            corner = self.vb.mapSceneToView(rect.topLeft())
            t.setPos(corner.x(), corner.y())
        elif shifted:
            vp = self.vb.mapSceneToView(QtCore.QPointF(sp.x(), rect.center().y()))
            t.setPos(x, vp.y())
        else:
            t.setPos(x, y)
        return rect

    @staticmethod
    def _far_spot(sp: QtCore.QPointF, w: float, h: float, gap: float, obstacles: list,
                  placed: list, view_rect: QtCore.QRectF,
                  legend: QtCore.QRectF) -> QtCore.QRectF | None:
        """The nearest free place for a `w` × `h` label a few lines above or below its dot
        at scene point `sp` (starting at the dot, centred on it, or ending at it), in view,
        off the legend, covering no dot or label, its line to the dot crossing no label."""
        spots = []
        for k in range(1, 6):
            for sign in (-1, 1):
                top = sp.y() + sign * (gap + k * h * 1.1) - h / 2
                for left in (sp.x() + gap / 2, sp.x() - w / 2, sp.x() - gap / 2 - w,
                             sp.x() + gap / 2 + w / 2, sp.x() - gap / 2 - 1.5 * w):
                    spots.append(QtCore.QRectF(left, top, w, h))

        def reach(r: QtCore.QRectF) -> float:
            dx = max(r.left() - sp.x(), sp.x() - r.right(), 0.0)
            dy = max(r.top() - sp.y(), sp.y() - r.bottom(), 0.0)
            return float(np.hypot(dx, dy))

        for r in sorted(spots, key=reach):
            if (not view_rect.contains(r) or r.intersects(legend)
                    or any(r.intersects(o) for o in obstacles)):
                continue
            end = QtCore.QPointF(min(max(sp.x(), r.left()), r.right()),
                                 min(max(sp.y(), r.top()), r.bottom()))
            steps = [sp + (end - sp) * (n / 8) for n in range(1, 8)]
            if any(o.contains(p) for o in placed for p in steps):
                continue
            return r
        return None

    # ---- topics and zoom ----------------------------------------------------------------
    def _on_topics(self, ids, groups, names) -> None:
        if len(ids) == len(self.data.ids) and np.array_equal(ids, self.data.ids):
            self._apply_topics(ids, groups, names)
            self.render()

    def _apply_topics(self, ids, groups, names: dict) -> None:
        """Colour the largest topics and name them (groups found on the graph); a topic keeps
        the colour most of its memories had (`stable_slots`)."""
        self._group = np.asarray(groups, dtype=np.int64)
        prev = self.topic_bucket if len(self.topic_bucket) == len(self._group) else np.zeros(0)
        slot_of = stable_slots(self._group, prev, TOPICS_SHOWN)
        lookup = np.full(int(self._group.max()) + 2 if len(self._group) else 1, -1, dtype=np.int64)
        for g, sl in slot_of.items():
            lookup[g] = sl
        self.topic_bucket = lookup[self._group] if len(self._group) else self._group.copy()
        self.topic_names = {slot_of[int(g)]: str(nm) for g, nm in names.items()
                            if int(g) in slot_of}
        self._slot_order = [slot_of[g] for g in sorted(slot_of)]  # largest topic first
        pi = self.plot.getPlotItem()
        while len(self.topic_labels) < TOPICS_SHOWN:
            t = pg.TextItem("", anchor=(0.5, 0.5), fill=self._topic_fill())
            font = QtGui.QFont()
            font.setBold(True)
            font.setPointSizeF(font.pointSizeF() * 1.15)
            t.setFont(font)
            t.setZValue(15)
            t.setColor(self._topic_text_colour(len(self.topic_labels)))
            pi.addItem(t)
            self.topic_labels.append(t)

    def _topic_fill(self):
        bg = QtGui.QColor(self.colors.background)
        bg.setAlpha(210)  # the name stays readable over the links
        return pg.mkBrush(bg)

    def _topic_text_colour(self, n: int) -> QtGui.QColor:
        c = QtGui.QColor(TOPIC_COLOURS[n % len(TOPIC_COLOURS)])
        dark = QtGui.QColor(self.colors.background).lightness() < 128
        c = c.lighter(130) if dark else c.darker(150)
        c.setAlpha(230)
        return c

    def _place_topic_labels(self, d: GraphData, pos: np.ndarray) -> None:
        """Topic names at the middle of their memories, when zoomed out (a map of topics)."""
        show = self.zoomed_out and len(self._group) == len(d) and not self.focus_mode
        for n in set(range(len(self.topic_labels))) - set(self._slot_order):
            self.topic_labels[n].setVisible(False)  # a colour no topic holds now
        placed: list[QtCore.QRectF] = []  # scene rectangles of the names already shown
        view_rect = self._view_rect()
        for n in self._slot_order:  # largest topic first: it wins a spot
            t = self.topic_labels[n]
            name = self.topic_names.get(n)
            rows = np.nonzero(self.topic_bucket == n)[0] if show and name else ()
            if not len(rows):
                t.setVisible(False)
                continue
            if getattr(t, "_hela_text", None) != name:
                t.setText(name)
                t._hela_text = name
            c = self.vb.mapViewToScene(QtCore.QPointF(float(np.median(pos[rows, 0])),
                                                      float(np.median(pos[rows, 1]))))
            br = t.textItem.boundingRect()
            w, h = br.width(), br.height()
            spot = None
            # a topic at the edge of the view: its name slides in, whole (it was cut off)
            x = min(max(c.x() - w / 2, view_rect.left()), view_rect.right() - w)
            for dy in (0.0, -h, h, -2 * h, 2 * h):  # the middle of the topic, else nudged
                r = QtCore.QRectF(x, c.y() + dy - h / 2, w, h)
                if not any(r.intersects(o) for o in placed):
                    spot = r
                    break
            if spot is None:  # no room without covering another name
                t.setVisible(False)
                continue
            placed.append(spot)
            t.setPos(self.vb.mapSceneToView(spot.center()))
            t.setVisible(True)

    def _on_range(self, *_args) -> None:
        """Zoomed out: weak links fade away and topic names appear; zoomed in: the reverse.
        Memory labels are placed again for the new view."""
        n = len(self.xy)
        if not n:
            return
        r = self.vb.viewRect()
        px = max(1.0, self.vb.width() * self.vb.height())
        inside = ((self.xy[:, 0] >= r.left()) & (self.xy[:, 0] <= r.right())
                  & (self.xy[:, 1] >= r.top()) & (self.xy[:, 1] <= r.bottom())).sum()
        zoomed_out = n >= 30 and inside * 45 * 45 > px  # more than one memory per 45×45 px
        self.edge_items[0].setVisible(not (zoomed_out and n > 150))
        if zoomed_out != self.zoomed_out:
            self.zoomed_out = zoomed_out
            self._place_topic_labels(self.data, self.xy)
        # labels are placed for the view they were drawn in: after a pan, a zoom or a
        # re-fit (a resized window) a label beside its dot may have left the screen.  A
        # placement takes milliseconds and a pan sends many range changes: once per turn
        # of the event loop
        if not getattr(self, "_labels_due", False):
            self._labels_due = True
            QtCore.QTimer.singleShot(0, self, self._place_labels_now)  # type: ignore[call-overload]  # self: the GraphView (a QWidget); gone with it

    def _place_labels_now(self) -> None:
        self._labels_due = False
        self._update_labels()
