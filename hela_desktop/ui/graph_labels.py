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

from ..facts import is_statement
from .graph_legend import EdgeLegend
from .graph_model import GraphData, says_something, short_label, stable_slots, weighted_degree
from .graph_spots import (
    distances_to_rects,
    nearest_points,
    open_spots,
    rects_hit_segments,
    rects_overlap,
    segments_cross,
    segments_near_points,
)
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
IDLE_LABELS = 8  # the most linked idle memories are labelled too, where there is room
MAX_MAIN_LABELS = 16  # active, selected and highlighted memories labelled at most
SMALL_GRAPH = 400  # up to this many memories, labels avoid every dot
FEW_MEMORIES = 12  # up to this many, every memory is labelled where there is room
CLEAR_LABEL = 1.5  # a label is clearly its dot's when any other dot is this many times as far
SHORT_LABELS = (24, 20)  # an idle label with no room for its usual length is cut so
# (never to a stub that says nothing, `says_something`: "Ahmed's…", "Is Zara…" were cut at
# 15, QA passes 42c/42d)
EDGE_CHECKS = 4000  # labels keep off the links of graphs with up to this many drawn
ZOOMED_LABELS = 24  # zoomed in, idle labels up to a third of the dots in view, at most this
LABEL_LENGTH, LAST_WORD = 28, 4  # a label's letters, and how many more may end it whole
CHOSEN_REACH = 2.2  # the chosen memory's label moves at most this many lines from its dot
CHOSEN_WIDE = 5.0  # … or this many, where nearer it would cover another dot
LEADER_REACH = 3.0  # any other label tied by a line lies at most this many lines from its
# dot, else it is left out (QA pass 43: lines of 7, across the graph)
FAR_CLEAR = 3.0  # a label tied by a line lies this many gaps from other dots, or nearer its own
# a leader (the line tying a label to its dot): round dots LEADER_WIDTH pixels wide, the
# gaps in pen widths; a round mark LEADER_END pixels across on the label's edge
LEADER_WIDTH, LEADER_DOTS, LEADER_END = 1.6, [0.01, 2.2], 4.5
LEADER_INSET = (3.0, 4.0)  # it ends this far into the label's box: where its words begin


def _as_array(rects: list) -> np.ndarray:
    """Scene `QRectF`s as rows (left, top, right, bottom)."""
    return np.array([(r.left(), r.top(), r.right(), r.bottom()) for r in rects],
                    dtype=float).reshape(-1, 4)


class GraphLabelsMixin:
    """Memory labels and topic names of a `GraphView`."""

    # the view's state these methods use (set by GraphView)
    data: GraphData
    xy: np.ndarray  # (N, 2) positions of the nodes, in data rows
    active: dict[int, float]
    recent: list[int]
    newest: list[int]
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
    _idle_room: int
    _scene_edges: np.ndarray
    colors: GraphColors
    node_size: float
    plot: pg.PlotWidget
    vb: pg.ViewBox
    edge_items: list[pg.PlotCurveItem]
    edge_rows: list[np.ndarray]
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
        self._idle_room = 0
        if not self.zoomed_out or len(d) <= SMALL_GRAPH:
            recent = [*self.newest, *(i for i in self.recent if i not in self.newest)]
            idle = (i for i in [*recent, *self.important] if i in d.index and i not in want
                    and (self.visible_mask is None or self.visible_mask[d.index[i]]) and new(i))
            # (the last answer's all, up to the main labels' bound; the most linked after,
            # each tried in turn until that many are shown: with 41 memories the six most
            # linked found no room and one label was drawn, QA pass 41)
            room = max(IDLE_LABELS, min(len(recent), MAX_MAIN_LABELS))
            named = list(idle)
            if not self.zoomed_out:  # zoomed in, there is room for more: the dots in view,
                # the most linked first (QA pass 41e: 4 of 60 dots named, g2c)
                more = self._in_view_by_links(want + named)
                if more:
                    room = max(room, min(ZOOMED_LABELS, (len(more) + len(named)) // 3))
                    named += [i for i in more[:2 * room] if new(i)]  # (tried in turn)
            last = [i for i in named if i in recent][:room]  # (they come first)
            n_recent = len(last)
            want += last + [i for i in named if i not in recent]
            self._idle_room = room
        if len(d) <= FEW_MEMORIES:  # a new folder's first memories (the very first has
            # no link, so it is not among the most linked): each named where it fits
            self._idle_room = len(d)
            want += [int(i) for r, i in enumerate(d.ids) if int(i) not in want
                     and (self.visible_mask is None or self.visible_mask[r]) and new(int(i))]
        return want, n_main, n_recent

    def _in_view_by_links(self, taken: list[int]) -> list[int]:
        """The memories with a dot in view (not in `taken`), the most linked first."""
        d, r = self.data, self.vb.viewRect()
        if not len(self.xy) or len(self.xy) != len(d):
            return []
        inside = ((self.xy[:, 0] >= r.left()) & (self.xy[:, 0] <= r.right())
                  & (self.xy[:, 1] >= r.top()) & (self.xy[:, 1] <= r.bottom()))
        if self.visible_mask is not None:
            inside &= self.visible_mask
        rows = np.nonzero(inside)[0]
        shown = len(d) if self.visible_mask is None else int(self.visible_mask.sum())
        if len(rows) == shown or len(rows) > 4 * ZOOMED_LABELS:  # not zoomed in (all in
            return []  # view: as before), or not far enough in to name many
        deg = weighted_degree(len(d), d.src, d.dst, d.weight)
        rows = rows[np.argsort(-deg[rows], kind="stable")]
        skip = set(taken)
        return [int(d.ids[r]) for r in rows if d.kinds[r] == "episode" and int(d.ids[r]) not in skip]

    def _label_text(self, i: int, length: int = LABEL_LENGTH) -> str:
        """Memory `i`'s label, at most `length` letters; the usual length takes a few more
        rather than cut off the last word ("Tom is allergic to…" left out "shellfish")."""
        node = self.data.nodes[i]
        text = node.get("label") or node.get("text", "")
        whole = short_label(text, length + LAST_WORD) if length == LABEL_LENGTH else ""
        return whole if whole and not whole.endswith("…") else short_label(text, length)

    def _shorter_texts(self, i: int) -> list[str]:
        """Memory `i`'s label cut shorter (`SHORT_LABELS`), each ended after a whole word
        ("Write a birthda…" says less than no label) and still saying something."""
        full = self._label_text(i, 200)
        out = []
        for n in SHORT_LABELS:
            text = self._label_text(i, n)
            stem = text.rstrip("…")
            if text.endswith("…") and full[len(stem):len(stem) + 1] not in (" ", ",", ".", ";", ":", ""):
                continue  # cut in the middle of a word
            if not says_something(text):
                continue
            if text != self._label_text(i) and text not in out:
                out.append(text)
        return out

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

    def _asks(self, i: int) -> bool:
        """Does memory `i` only ask (a question, a request), telling nothing?"""
        text = self._label_text(i, 400)
        cache = self.__dict__.setdefault("_asks_of", {})
        if text not in cache:
            cache[text] = self.data.nodes[i].get("kind", "episode") == "episode" \
                and not is_statement(text)
        return cache[text]

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
        # placed again only when something they depend on changed: an answer's glow
        # redraws 30 times a second, and each placement weighs every place against every
        # link (the GUI thread fell behind while an answer streamed)
        vr, lg, shown = self._view_rect(), self.legend.scene_rect(), self.vb.viewRect()
        key = (id(d), hash(self.xy.tobytes()), tuple(want), n_main, n_recent,
               (vr.x(), vr.y(), vr.width(), vr.height()), (lg.x(), lg.y(), lg.width(), lg.height()),
               (shown.x(), shown.y(), shown.width(), shown.height()),
               None if self.visible_mask is None else hash(self.visible_mask.tobytes()),
               self.colors.text, self.colors.background, self.node_size,
               len(self.memory_labels))
        if key == getattr(self, "_labels_key", None):
            return
        self._labels_key = key
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
        dot_rows, dot_arr = np.array(list(dots), dtype=int), _as_array(list(dots.values()))
        placed: list[QtCore.QRectF] = []
        view_rect = self._view_rect()
        self._scene_dots = self._dots_in_scene()
        self._scene_edges = self._edges_in_scene()
        leaders: list[tuple[float, float]] = []  # (x, y) pairs in view coordinates
        lead_segs = np.zeros((0, 4))  # the same in scene pixels: no label lies across one
        for n in range(len(want), len(self.memory_labels)):
            self.memory_labels[n].setVisible(False)
        for n, i in enumerate(want):
            t = self.memory_labels[n]
            t._hela_id = i  # (a click on the label chooses its memory: `memory_at`)
            self._style_label(t, self._label_text(i), text_col if n < n_main else muted)
            t.setVisible(False)
        # the main labels first, each where it fits best; then the idle ones in two rounds:
        # first each that has clear room beside its own dot, no link across it, then the
        # rest where they fit (one placed first took the room another needed, and left it
        # to float between dots, QA pass 41)
        # what the user told is named before what they asked: the last answer's statements,
        # the idle ones, then questions where room is left (QA passes 42c/42d: most labels
        # were questions, "Can Oscar eat…", "Is Oscar 4?")
        rounds = [(n, 0) for n in range(n_main)]
        recent, rest = range(n_main, n_main + n_recent), range(n_main + n_recent, len(want))
        asks = {n: self._asks(want[n]) for n in range(n_main, len(want))}
        for group in ([n for n in recent if not asks[n]], [n for n in rest if not asks[n]],
                      [n for n in recent if asks[n]], [n for n in rest if asks[n]]):
            # clear room beside its dot; else room tied to it by a line; else (where a
            # label may be) the place beside it least like another's
            rounds += [(n, 2) for n in group] + [(n, 1) for n in group] + [(n, 0) for n in group]
        idle_shown = 0
        shown_texts: set[str] = set()  # (two dots side by side both "Can Oscar eat…")
        for n, strict in rounds:
            t = self.memory_labels[n]
            if t.isVisible() or (n >= n_main and idle_shown >= self._idle_room):
                continue
            row = d.index[want[n]]
            # no label covers another dot, the last answer's included (they covered dots
            # left unnamed, QA pass 27; QA pass 43: "Hello, I'm Tom Becker, I…" half over
            # one): one with no room is cut shorter or left out.  (Arrays: weighed
            # hundreds of times while zoomed in.)
            obstacles = np.vstack([dot_arr[dot_rows != row], _as_array(placed)])
            # with no answer since the window opened (a relaunch) the most linked, short of
            # clear room beside their dot, go where a line ties them to it: between the
            # dots of a dense graph none had clear room, and it showed anonymous dots
            # (QA pass 28b); never where one could be read as another's
            # an idle label too long for the room beside its dot is cut shorter (a narrow
            # pane's 41 memories had no room for 28 letters beside any dot, QA pass 41)
            spot = None
            chosen = n == 0 and want[0] == self.selected
            texts = self._texts_to_try(want[n], n < n_main, shown_texts)
            # no label hides another dot (QA pass 43: "The dentist moved my…" over two):
            # cut shorter, else (the chosen one's) further off, tied by a line; else left
            # out; the chosen one over other dots only where no place in view is clear
            for relax in (0, 1, 2, 3) if chosen else (0,):
                for text in texts:
                    self._style_label(t, text, text_col if n < n_main else muted)
                    spot = self._label_spot(t, row, r_dot, obstacles if relax < 3 else placed,
                                            placed, view_rect, must=n < n_main,
                                            tied=n < n_main + n_recent,
                                            line=n >= n_main and not self.recent, strict=strict,
                                            chosen=chosen, relax=relax, leader_segs=lead_segs)
                    if spot is not None:
                        break
                if spot is not None:
                    break
            if spot is None:  # an idle label that does not fit is left out
                continue
            if getattr(t, "_hela_shifted", False):
                leaders += self._leader(row, spot)
                a, b = (self.vb.mapViewToScene(QtCore.QPointF(*p)) for p in leaders[-2:])
                lead_segs = np.vstack([lead_segs, [[a.x(), a.y(), b.x(), b.y()]]])
            placed.append(spot)
            shown_texts.add(t._hela_text.casefold())
            idle_shown += n >= n_main
            t.setVisible(True)
        self._draw_leaders(leaders)

    def _texts_to_try(self, i: int, must: bool, shown: set[str]) -> list[str]:
        """The words memory `i`'s label may take, the first that fits wins: its usual
        label, then shorter ones; none that says nothing, nor one another label already
        shows (a label that `must` be shown is written longer instead)."""
        texts = [self._label_text(i)] + self._shorter_texts(i)
        out = [x for x in texts if x.casefold() not in shown and (must or says_something(x))]
        if must and not out:
            longer = self._label_text(i, 60)
            out = [longer if longer.casefold() not in shown else texts[0]]
        return out

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
        # at the words, not at the margin round them (its mark hung at an empty corner)
        rect = rect.adjusted(*LEADER_INSET, -LEADER_INSET[0], -LEADER_INSET[1])
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
        """The lines that tie labels to their dots, as pairs of points (dot, label's edge).
        Not to be taken for links (QA pass 41: grey dashes read as one more link): a row of
        fine round dots, fainter than any link, under the dots and links, ending in a small
        round mark on the label's edge."""
        item = getattr(self, "_leaders", None)
        if item is None:
            if not points:
                return
            item = self._leaders = pg.PlotCurveItem(connect="pairs", antialias=True)
            item.setZValue(-1)  # under the links and dots: it starts at its dot's rim
            self._leader_ends = pg.ScatterPlotItem(pxMode=True, antialias=True)
            self._leader_ends.setZValue(21)  # over the label's backing, on its edge
            pi = self.plot.getPlotItem()
            pi.addItem(item)
            pi.addItem(self._leader_ends)
        col = QtGui.QColor(self.colors.muted_text)
        col.setAlphaF(0.8)
        pen = pg.mkPen(col, width=LEADER_WIDTH, cosmetic=True)
        pen.setCapStyle(QtCore.Qt.PenCapStyle.RoundCap)
        pen.setDashPattern(LEADER_DOTS)  # (0-long dashes with round caps: round dots)
        item.setPen(pen)
        xs = np.array([p[0] for p in points], dtype=float)
        ys = np.array([p[1] for p in points], dtype=float)
        item.setData(xs, ys)
        item.setVisible(bool(points))
        self._leader_ends.setData(xs[1::2], ys[1::2], size=LEADER_END, pen=None, brush=pg.mkBrush(col))
        self._leader_ends.setVisible(bool(points))

    def _view_rect(self) -> QtCore.QRectF:
        """What is really on screen, in scene pixels: the plot's box, within the part of the
        scene the widget shows (a narrow window shows less than the box)."""
        shown = self.plot.mapToScene(self.plot.viewport().rect()).boundingRect()
        return self.vb.sceneBoundingRect().intersected(shown)

    def _edges_in_scene(self) -> np.ndarray:
        """The drawn links as scene segments, (E, 4); none in a graph too big to check
        each label against every link (`EDGE_CHECKS`)."""
        rows = [r for r in (self.edge_rows or []) if len(r)]
        if not rows or len(self.xy) != len(self.data):
            return np.zeros((0, 4))
        e = np.unique(np.concatenate(rows))
        if len(e) > EDGE_CHECKS:
            return np.zeros((0, 4))
        o = self.vb.mapViewToScene(QtCore.QPointF(0.0, 0.0))
        u = self.vb.mapViewToScene(QtCore.QPointF(1.0, 1.0))
        scale = np.array([u.x() - o.x(), u.y() - o.y()])
        shift = np.array([o.x(), o.y()])
        a = self.xy[self.data.src[e]] * scale + shift
        b = self.xy[self.data.dst[e]] * scale + shift
        return np.column_stack([a, b])

    def _label_spot(self, t: pg.TextItem, row: int, r_dot: float, obstacles, placed: list,
                    view_rect: QtCore.QRectF, *, must: bool, tied: bool = False,
                    line: bool = False, strict: int = 0, chosen: bool = False,
                    relax: int = 0, leader_segs: np.ndarray | None = None) -> QtCore.QRectF | None:
        """Place label `t` of memory `row`: of the places around its dot that stay in view,
        off the legend and cover no other dot (`obstacles`) or label (`placed`), the best —
        beside its dot (right of it first; left for right-to-left text; then its corners,
        the text starting or ending at the dot, then centred above or below) where no other
        dot is about as near (`_clarity`) and it lies across no link; else in free room
        nearby, tied to its dot by a line that crosses no label and passes by no other dot
        (`_far_spots`).  Lying across a link costs more than a short line (QA pass 41:
        labels lay across lines and floated between dots).  A place beside its dot as
        near another dot is taken only by a label that must be shown (or any in a graph of
        a few memories, or one of the last answer's, `tied`); a tied one only by those
        and idle ones with no answer yet (`line`); an idle one never lies across a link.
        Returns the label's scene rectangle, or None when an idle label has no such place;
        one that must be shown with none goes to the first place in view, nudged down past
        labels and tied to its dot by a line.
        The `chosen` memory's label (the ringed one) stays by its dot: beside it where no
        other dot is about as near, else a line or two from it, tied by a short line that
        passes no other dot, nearer its own dot than any other; else beside it over other
        dots.  It went up to seven lines away, under another memory's dot (QA pass 41e:
        80-110 px, p17a_graph, g1c, g2c); and over two dots (QA pass 43): where no place
        that near is clear of dots, `relax` 1 takes one beside it not clearly its own or
        up to `CHOSEN_WIDE` lines off, 2 the nearest clear room anywhere in view, and 3
        (none) the place beside it over the fewest dots.  No other label lies across a
        line drawn already (`leader_segs`, scene segments), nor more than `LEADER_REACH`
        lines from its dot."""
        x, y = self.xy[row]
        sp = self.vb.mapViewToScene(QtCore.QPointF(x, y))
        cx, cy = sp.x(), sp.y()
        br = t.textItem.boundingRect()
        w, h = br.width(), br.height()
        gap = r_dot + 2
        k = gap * 0.55  # a corner: the dot just off the text's first (or last) letter
        right, left = (cx + gap, cy - h / 2), (cx - gap - w, cy - h / 2)
        corners = [(cx + k, cy - k - h), (cx + k, cy + k)]
        corners_left = [(cx - k - w, cy - k - h), (cx - k - w, cy + k)]
        rtl = is_rtl(getattr(t, "_hela_text", ""))
        if rtl:  # read from the right: it starts by its dot
            right, left, corners, corners_left = left, right, corners_left, corners
        beside = [right, left, *corners, (cx - w / 2, cy - gap - h), (cx - w / 2, cy + gap),
                  *corners_left]
        few = len(self.xy) <= FEW_MEMORIES or tied
        # an idle label goes only where a short line ties it (with no answer yet, `line`,
        # a longer one: a reopened graph showed anonymous dots, QA pass 28b)
        over_dots = relax >= 3
        far = ((CHOSEN_REACH if relax == 0 else CHOSEN_WIDE) if chosen
               else LEADER_REACH if must or few or line else 2.5)
        spots = beside + ([] if strict == 2 or over_dots else self._far_spots(  # (the first
            cx, cy, w, h, gap, reach=far * h))  # round: beside only)
        if relax in (1, 2):  # (1: near it, 2: anywhere in view)
            spots += open_spots((view_rect.left(), view_rect.top(), view_rect.right(),
                                 view_rect.bottom()), w, h, (cx, cy),
                                far * h if relax == 1 else np.inf)
        every = np.array([(lx, ty, lx + w, ty + h) for lx, ty in spots], dtype=float)
        n_beside = len(beside)
        legend = self.legend.scene_rect()  # a label never goes under the legend
        ok = ((every[:, 0] >= view_rect.left()) & (every[:, 1] >= view_rect.top())
              & (every[:, 2] <= view_rect.right()) & (every[:, 3] <= view_rect.bottom()))
        ok &= ~rects_overlap(every, _as_array([legend])).any(axis=1)
        ok &= ~rects_overlap(every, obstacles if isinstance(obstacles, np.ndarray)
                             else _as_array(obstacles)).any(axis=1)
        order = np.nonzero(ok)[0]  # (the rest is weighed only for the places still open)
        rects, is_far = every[order], order >= n_beside
        ends = nearest_points(rects, cx, cy)
        leaders = np.column_stack([np.full(len(rects), cx), np.full(len(rects), cy), ends])
        dots = getattr(self, "_scene_dots", np.zeros((0, 3)))
        others = dots[dots[:, 2] != row, :2] if len(dots) else np.zeros((0, 2))
        # a line to the label crosses no label and passes by no other memory's dot
        grazed = _as_array(placed) + np.array([6.0, 3.0, -6.0, -3.0])  # (an end: fine)
        ok = ~(is_far & rects_hit_segments(grazed, leaders).any(axis=0))
        by_dots = np.zeros(len(rects))
        by_dots[is_far] = segments_near_points(leaders[is_far], others, r_dot).sum(axis=1)
        if not (must or few):
            ok &= by_dots == 0
        ok &= ~is_far | must | chosen | (tied and strict == 0) | self._own_more_than_near(
            rects, others, cx, cy, gap)  # (the last answer's: as a last resort, anywhere)
        edges = getattr(self, "_scene_edges", np.zeros((0, 4)))
        if leader_segs is not None and len(leader_segs):
            edges = np.vstack([edges, leader_segs])
        if len(edges) and len(rects):  # (only the links near its dot can meet its label)
            lo, hi = rects[:, :2].min(axis=0), rects[:, 2:].max(axis=0)
            near = ~((np.maximum(edges[:, 0], edges[:, 2]) < lo[0]) | (np.minimum(edges[:, 0], edges[:, 2]) > hi[0])
                     | (np.maximum(edges[:, 1], edges[:, 3]) < lo[1]) | (np.minimum(edges[:, 1], edges[:, 3]) > hi[1]))
            edges = edges[near]
        inner = rects + np.array([1.5, 1.5, -1.5, -1.5])  # (a link grazing a corner is fine)
        across = rects_hit_segments(inner, edges).sum(axis=1)
        crossed = np.zeros(len(rects))
        crossed[is_far] = segments_cross(leaders[is_far], edges).sum(axis=1)
        clarity = np.full(len(rects), np.inf)  # (`_clarity`, for every place at once)
        mine = dots[:, 2] == row if len(dots) else np.zeros(0, dtype=bool)
        weigh = np.ones(len(rects), dtype=bool) if chosen else ~is_far  # (far ones too)
        if len(dots) >= 2 and mine.any() and not mine.all() and weigh.any():
            dist = distances_to_rects(rects[weigh], dots[:, :2])
            clarity[weigh] = dist[:, ~mine].min(axis=1) / np.maximum(dist[:, mine].min(axis=1), 1e-6)
        clear = clarity >= CLEAR_LABEL
        reach = np.hypot(ends[:, 0] - cx, ends[:, 1] - cy)
        # a place beside its dot first; lying across links costs more than a short line
        # to it, and being read as another's more than either
        cost = np.where(is_far, 25 + 0.5 * reach + 4 * crossed, 0.5 * order)
        # a label read from its dot's side: a left-to-right one ending at its dot (one
        # right-to-left starting there) only where the other side costs more than a link
        ends_at_dot = (rects[:, 0] >= cx - 1) if rtl else (rects[:, 2] <= cx + 1)
        cost = cost + 20 * (~is_far & ends_at_dot)
        cost = cost + 15 * across + 30 * by_dots + np.where(
            clear, 0.0, 45 + 20 * (CLEAR_LABEL - np.minimum(clarity, CLEAR_LABEL)))
        if strict == 2 or not (must or few):  # (2: clear room beside its dot only)
            ok &= clear & (across == 0)
        if strict == 1 or not (must or tied):  # (1: no place as near another dot; an
            ok &= clear  # idle one, not even in a graph of a few memories)
        if chosen:
            ok, cost = self._chosen_rules(relax, ok, cost, is_far, clarity, by_dots,
                                          rects, others, r_dot)
        shifted = unclear = False
        if ok.any():
            best = int(np.argmin(np.where(ok, cost, np.inf)))
            rect = QtCore.QRectF(rects[best, 0], rects[best, 1], w, h)
            shifted = bool(is_far[best])
            unclear = not shifted and not clear[best]
        elif not over_dots:  # no clear place: left out (the chosen one tries further)
            return None
        else:  # a label that must be shown: on screen if it fits there, nudged past labels
            inside = [r for r in every[:n_beside] if view_rect.contains(QtCore.QRectF(r[0], r[1], w, h))]
            r0 = (inside or list(every[:n_beside]))[0]
            rect = QtCore.QRectF(r0[0], r0[1], w, h)
            for _ in range(12):
                if not any(rect.intersects(o) for o in placed):
                    break
                rect.translate(0, h * 0.8)
                shifted = True
        t._hela_shifted = shifted
        t._hela_relax = relax  # (for tests: how far from the usual rules it was placed)
        t._hela_unclear = unclear
        # the label's corner at the dot's place: it sits at `rect` whatever the zoom
        anchor = (round((cx - rect.left()) / w, 4), round((cy - rect.top()) / h, 4))
        if getattr(t, "_hela_anchor", None) != anchor:
            t.setAnchor(anchor)
            t._hela_anchor = anchor
        t.setPos(x, y)
        return rect

    @staticmethod
    def _chosen_rules(relax: int, ok: np.ndarray, cost: np.ndarray, is_far: np.ndarray,
                      clarity: np.ndarray, by_dots: np.ndarray, rects: np.ndarray,
                      others: np.ndarray, r_dot: float) -> tuple[np.ndarray, np.ndarray]:
        """The places the chosen memory's label may take at each `relax` (`_label_spot`),
        and what they cost."""
        if relax == 0:  # beside it, clearly its own; or a line or two off, nearer it
            ok = ok & np.where(is_far, (clarity >= 1.0) & (by_dots == 0), clarity >= CLEAR_LABEL)
        elif relax == 1:  # (its ring tells it beside it; a line passes no dot, to words
            ok = ok & (~is_far | ((by_dots == 0) & (clarity >= 1.0)))  # nearer it)
        elif relax == 2 and (ok & (clarity >= 1.0)).any():  # (nearer it, where any is)
            ok = ok & (clarity >= 1.0)
        elif relax >= 3:  # beside it, over as few other dots as may be
            covered = rects_overlap(rects, np.column_stack([others - r_dot, others + r_dot]))
            cost = cost + 40 * covered.sum(axis=1)
        return ok, cost

    @staticmethod
    def _own_more_than_near(rects: np.ndarray, others: np.ndarray, cx: float, cy: float,
                            gap: float) -> np.ndarray:
        """For places tied to the dot at (`cx`, `cy`) by a line: is each nearer that dot
        than any other dot (`others`), or clear of them all by `FAR_CLEAR` gaps, and of one
        in line with its words, before or after them, by twice that?  One that lay beside
        another dot was read as its label (QA pass 42c: "Tom left the…" between two dots)."""
        far = 2 * FAR_CLEAR * gap
        if not len(rects) or not len(others):
            return np.ones(len(rects), dtype=bool)
        lo, hi = rects[:, :2].min(axis=0) - far, rects[:, 2:].max(axis=0) + far
        near = others[(others[:, 0] >= lo[0]) & (others[:, 0] <= hi[0])
                      & (others[:, 1] >= lo[1]) & (others[:, 1] <= hi[1])]
        if not len(near):
            return np.ones(len(rects), dtype=bool)
        other = distances_to_rects(rects, near).min(axis=1)
        own = distances_to_rects(rects, np.array([[cx, cy]]))[:, 0]
        x, y = near[None, :, 0], near[None, :, 1]
        in_line = (y >= rects[:, None, 1] - gap / 2) & (y <= rects[:, None, 3] + gap / 2)
        before_after = np.maximum(np.maximum(rects[:, None, 0] - x, x - rects[:, None, 2]), 0.0)
        inline = np.where(in_line, before_after, np.inf).min(axis=1)
        return (other >= own) | ((other >= FAR_CLEAR * gap) & (inline >= far))

    @staticmethod
    def _far_spots(cx: float, cy: float, w: float, h: float, gap: float,
                   reach: float) -> list[tuple[float, float]]:
        """Top-left corners of places for a `w` × `h` label in the room near its dot at
        scene point (`cx`, `cy`), not beside it: a few lines above or below (starting at
        the dot, centred on it, or ending at it) and further right or left, up to `reach`
        pixels from it."""
        spots = []
        step = h * 1.1
        for n in range(1, 7):
            for sign in (-1, 1):
                top = cy + sign * (gap + n * step) - h / 2
                if abs(top + h / 2 - cy) - h / 2 > reach:
                    continue
                for f in (-0.5, 1.5, 0.0, 1.0, 0.5, 0.25, 0.75, -0.25, 1.25):  # (of its width)
                    spots.append((cx + gap / 2 - f * (w + gap), top))
        for n in range(1, 5):
            dx = n * 1.5 * h
            if dx <= reach:
                for dy in (-h / 2, -h / 2 - step, -h / 2 + step):
                    spots += [(cx + gap + dx, cy + dy), (cx - gap - w - dx, cy + dy)]
        return [(lx, ty) for lx, ty in spots  # (no further than `reach` from the dot)
                if np.hypot(max(lx - cx, cx - lx - w, 0.0), max(ty - cy, cy - ty - h, 0.0)) <= reach]

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
        self._fold_key_off_dots()
        # labels are placed for the view they were drawn in: after a pan, a zoom or a
        # re-fit (a resized window) a label beside its dot may have left the screen.  A
        # placement takes milliseconds and a pan sends many range changes: once per turn
        # of the event loop
        if not getattr(self, "_labels_due", False):
            self._labels_due = True
            QtCore.QTimer.singleShot(0, self, self._place_labels_now)  # type: ignore[call-overload]  # self: the GraphView (a QWidget); gone with it

    def _fold_key_off_dots(self) -> None:
        """The key folds into its button while drawn memories lie where it is (zoomed in
        or panned), and opens again when none does."""
        key = self.legend.key_rect()
        if key.isEmpty() or not len(self.xy):
            return
        dots = self._dots_in_scene()
        r = self.node_size / 2
        under = ((dots[:, 0] >= key.left() - r) & (dots[:, 0] <= key.right() + r)
                 & (dots[:, 1] >= key.top() - r) & (dots[:, 1] <= key.bottom() + r))
        self.legend.set_covering(bool(under.any()))

    def _place_labels_now(self) -> None:
        self._labels_due = False
        self._update_labels()
