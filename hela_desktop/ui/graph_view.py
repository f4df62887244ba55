"""Live view of the Hebbian graph: pyqtgraph, batched drawing, layout in a worker thread.

Nodes are drawn by a handful of `ScatterPlotItem`s (one per style, so pyqtgraph takes its
fast uniform-brush path); edges by a few `PlotCurveItem`s with ``connect="pairs"`` (one
per class, cosmetic pens): links made when a memory was written (priors) in a neutral
colour by weight, learned links in a warm colour by how much was learned, with a legend.  Active memories get a coloured glow that grows when
they enter and fades when they leave; edges the Hebbian update strengthened flash thick.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets

from .graph_details import GraphDetailsMixin
from .graph_items import GlowItem, LayoutRunner, edge_pens
from .graph_labels import IDLE_LABELS, TOPIC_COLOURS, GraphLabelsMixin
from .graph_legend import EdgeLegend
from .graph_model import (
    EDGE_CLASSES,
    LEARNED_CLASSES,
    GraphData,
    told_first,
    topics_for,
    weighted_degree,
)
from .graph_pan import GraphPanMixin
from .graph_search import GraphSearchMixin
from .layout import ForceLayout
from .nodes_item import NodesItem
from .plain import ElidedLabel
from .theme import (
    GraphColors,
    checked_button_style,
    focus_frame_style,
    graph_colors,
    memory_color,
    muted,
)

THIN_EDGES_ABOVE = 3000  # bigger graphs draw every edge 1 px wide (weight shows as shade)
ENTER_S = 0.5  # glow grows over this time when a memory becomes active
LEAVE_S = 0.8  # and fades over this time when it leaves
HOT_S = 2.5  # a strengthened edge stays thick this long
NEWEST_LABELS = 2  # of the memories a snapshot brings, the newest this many are named first
NODE_SIZE = 9
# the graph pane's width from which the detail pane opens by itself: the pane's least and a
# plot of 360 pixels (at 760 it was folded at the first window size on a 1600x1000 screen,
# 741 wide, and on a 1280x800 one, 616: /work/exp/qa14g/shots/before/)
DETAILS_ROOM = 220 + 360


def details_sizes(room: int) -> list[int]:
    """The plot's and the detail pane's widths in a graph pane `room` pixels wide: the
    pane a little over a third (260 of 741), at least its 220 pixels, at most 320."""
    pane = max(220, min(320, room * 35 // 100))
    return [max(0, room - pane), pane]
KNOWLEDGE_SIZE = 14


def node_size_for(n: int) -> float:
    """Node diameter in pixels: smaller dots for bigger graphs."""
    return float(np.clip(11.0 - 2.2 * np.log10(max(n, 1) / 50.0), 5.0, 11.0))


class GraphView(QtWidgets.QWidget, GraphLabelsMixin, GraphSearchMixin, GraphDetailsMixin,
                GraphPanMixin):
    """The graph pane: toolbar (search, focus, fit), the plot, and a node details panel."""

    nodeSelected = QtCore.Signal(int)  # episode id, or -1 when the selection is cleared
    nodeHovered = QtCore.Signal(int)  # episode id under the mouse, -1 when none
    knowledgeAction = QtCore.Signal(str, int)  # ("edit" | "delete", knowledge id)
    memoriesRequested = QtCore.Signal(int)  # "Show it in Memories": a memory beyond the graph
    locateRequested = QtCore.Signal(int)  # a details link to a memory gone from the graph
    _sendGraph = QtCore.Signal(object, object)
    _sendSeed = QtCore.Signal(object, object)
    _sendReheat = QtCore.Signal(float)
    _sendTopics = QtCore.Signal(object)

    def __init__(self, parent=None, *, colors: GraphColors | None = None, threaded: bool = True,
                 details: bool = True):
        super().__init__(parent)
        self.colors = colors or graph_colors()
        self.data = GraphData()
        self.xy = np.zeros((0, 2))
        self.active: dict[int, float] = {}  # id -> time it became active
        self.leaving: dict[int, float] = {}  # id -> time it left
        self.recent: list[int] = []  # the last answer's memories (`clear_active`)
        self.newest: list[int] = []  # the memories the last snapshot brought
        self.hot: list[tuple[float, np.ndarray]] = []  # (start, edge rows)
        self.highlighted: set[int] = set()
        self.search_rows = np.zeros(0, dtype=np.int64)
        self._search_cursor = -1
        self._searched = ""  # the text the matches are for
        self.semantic_search: Callable[[str], None] | None = None  # ask the engine (the window sets it)
        self._ranked: tuple[str, list] | None = None  # its answer: (text, [(id, score)])
        self._asked = ""
        self._ask_timer = QtCore.QTimer(self, singleShot=True, interval=250)
        self._ask_timer.timeout.connect(self._ask_engine)
        self.selected: int | None = None
        self.recalls: dict[int, dict] = {}  # live Recall dicts from the current answer
        self.recalled_for: dict[int, int] = {}  # … or from this stored answer (message id)
        self.recalled_as: dict[int, str] = {}  # … its place ("Answer 2 of this chat")
        self.outside: dict[int, dict] = {}  # a memory beyond the graph, explained (show_outside)
        self.loaded = False  # a snapshot has come: what is not drawn now is beyond the graph
        self.wanted: int | None = None  # chosen before the graph was drawn: chosen once it is
        self.kept: dict[int, tuple[float, float]] = {}  # positions from last time (`keep_positions`)
        self.recall_details = False  # "why recalled": the raw numbers shown too
        self.focus_mode = False
        self.visible_mask: np.ndarray | None = None  # bool mask (focus mode) or None
        self._user_moved_view = False
        self._pending_fit = True
        self.edge_rows: list[np.ndarray] = []  # drawn edge rows per pen (prior and learned classes)
        self.kind_rows: dict[str, np.ndarray] = {}
        self.memory_labels: list[pg.TextItem] = []
        self.frames = 0
        self.node_size = float(NODE_SIZE)
        self.topic_bucket = np.zeros(0, dtype=np.int64)  # topic colour per row (-1: none)
        self.kept_topics: dict[int, int] = {}  # the colour slot each memory wore last session
        self._group = np.zeros(0, dtype=np.int64)  # topic (group) per row
        self.topic_names: dict[int, str] = {}
        self._slot_order: list[int] = []  # topic colour slots in use, largest topic first
        self.important: list[int] = []  # the most linked memories (idle labels)
        self.zoomed_out = False
        self._details_user = False  # the user opened/closed the detail pane
        self._pinned_rows = np.zeros(0, dtype=np.int64)
        self._drawn_rows: dict = {}

        self._build_ui(details)
        self._anim = QtCore.QTimer(self)
        self._anim.setInterval(33)
        self._anim.timeout.connect(self._animate)

        self.threaded = threaded
        self.layout_engine: ForceLayout | None = None
        self._thread: QtCore.QThread | None = None
        if threaded:
            self._thread = QtCore.QThread(self)
            self._thread.setObjectName("graph-layout")
            self.runner = LayoutRunner()
            self.runner.moveToThread(self._thread)
            self._thread.started.connect(self.runner.start)
            self._sendGraph.connect(self.runner.set_graph)
            self._sendSeed.connect(self.runner.seed)
            self._sendReheat.connect(self.runner.reheat)
            self.runner.positions.connect(self._on_positions)
            self._sendTopics.connect(self.runner.topics)
            self.runner.topicsReady.connect(self._on_topics)
            self._thread.start()
        else:
            self.layout_engine = ForceLayout()

    # ---- construction ---------------------------------------------------------------
    def _build_ui(self, details: bool) -> None:
        c = self.colors
        self.details: QtWidgets.QTextBrowser | None
        lay = QtWidgets.QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(2)
        bar = QtWidgets.QHBoxLayout()
        bar.setContentsMargins(4, 2, 4, 0)
        self._build_search()
        self.focus_box = QtWidgets.QCheckBox("Focus on active")
        self.focus_box.setToolTip("Show only the active memories and their neighbours")
        self.focus_box.toggled.connect(self.set_focus_mode)
        self.fit_button = QtWidgets.QToolButton()
        self.fit_button.setText("Fit")
        self.fit_button.setToolTip("Zoom to show the whole graph (Ctrl+Shift+H)")
        self.fit_button.clicked.connect(self.fit)
        self.stats_label = ElidedLabel("")  # "10 memories · 23 links (4 learned)", or "…"
        muted(self.stats_label)
        bar.addWidget(self.search, 2)
        bar.addWidget(self.match_label)
        bar.addWidget(self.focus_box)
        bar.addWidget(self.fit_button)
        self.details_button = QtWidgets.QToolButton()
        self.details_button.setText("Details")
        self.details_button.setCheckable(True)
        self.details_button.setChecked(True)
        self.details_button.setToolTip("Show or hide the detail pane")
        self.details_button.clicked.connect(self._toggle_details)
        bar.addWidget(self.details_button)
        bar.addStretch(1)
        bar.addWidget(self.stats_label)
        lay.addLayout(bar)

        self.plot = pg.PlotWidget(background=c.background)
        self.plot.setAntialiasing(True)
        pi = self.plot.getPlotItem()
        pi.hideAxis("left")
        pi.hideAxis("bottom")
        pi.hideButtons()
        pi.setMenuEnabled(False)
        self.vb = pi.getViewBox()
        self.vb.setAspectLocked(True)
        self.vb.sigRangeChangedManually.connect(self._on_manual_range)

        self.edge_items = []  # prior classes (by weight), then the learned ones (by share)
        self.learned_items: list[pg.PlotCurveItem] = []
        for items in [self.edge_items] * len(EDGE_CLASSES) + [self.learned_items] * len(LEARNED_CLASSES):
            item = pg.PlotCurveItem(connect="pairs", antialias=False, skipFiniteCheck=True)
            item.setSegmentedLineMode("on")
            items.append(item)
            pi.addItem(item)
        self.legend = EdgeLegend(c, self.plot)
        self.legend.setParentItem(self.vb)
        self.legend.setZValue(30)
        self.legend.toggled.connect(self._refit)
        self.vb.sigResized.connect(lambda *_: self.legend.arrange())
        self.active_edges = pg.PlotCurveItem(connect="pairs", antialias=True, skipFiniteCheck=True)
        self.hot_edges = pg.PlotCurveItem(connect="pairs", antialias=True, skipFiniteCheck=True)
        self.active_edges.setSegmentedLineMode("on")
        self.hot_edges.setSegmentedLineMode("on")
        pi.addItem(self.active_edges)
        pi.addItem(self.hot_edges)
        self.glow = GlowItem()
        pi.addItem(self.glow)
        self.node_items = {
            "episode": NodesItem("o", NODE_SIZE),
            "knowledge": NodesItem("d", KNOWLEDGE_SIZE),
        }
        for item in self.node_items.values():
            pi.addItem(item)
        self.topic_items = [NodesItem("o", NODE_SIZE) for _ in TOPIC_COLOURS]
        for item in self.topic_items:
            pi.addItem(item)
        self.topic_labels: list[pg.TextItem] = []
        self.vb.sigRangeChanged.connect(self._on_range)
        self.pinned_item = NodesItem("o", NODE_SIZE + 6)
        self.search_item = NodesItem("o", NODE_SIZE + 10)
        self.match_item = NodesItem("o", NODE_SIZE + 16)  # the match stepped to
        self.highlight_item = NodesItem("o", NODE_SIZE + 14)
        self.selected_item = NodesItem("o", NODE_SIZE + 8)
        for item in (self.pinned_item, self.search_item, self.match_item, self.highlight_item,
                     self.selected_item):
            pi.addItem(item)
        scene = self.plot.scene()
        scene.sigMouseClicked.connect(self._on_scene_click)
        scene.sigMouseMoved.connect(self._on_scene_move)
        self.empty_text = pg.TextItem("", anchor=(0.5, 0.5), color=c.muted_text)
        pi.addItem(self.empty_text)
        self.apply_colors(c)

        self.details_button.setVisible(details)
        if details:
            self.details = QtWidgets.QTextBrowser()
            self.details.setObjectName("graphDetails")
            self.details.setOpenLinks(False)
            self.details.anchorClicked.connect(self.open_details_link)
            self.details.setMinimumWidth(220)
            split = QtWidgets.QSplitter(QtCore.Qt.Orientation.Horizontal)
            split.addWidget(self.plot)
            split.addWidget(self.details)
            split.setStretchFactor(0, 3)
            split.setStretchFactor(1, 1)
            split.setSizes(details_sizes(760))  # (shares: the splitter scales them)
            split.setCollapsible(0, False)
            self.split = split
            lay.addWidget(split, 1)
            self._show_details(None)
        else:
            self.details = None
            lay.addWidget(self.plot, 1)

    def apply_colors(self, c: GraphColors, *, redraw: bool = True) -> None:
        """Switch palettes (light/dark)."""
        self.colors = c
        pal = QtWidgets.QApplication.palette()
        self.details_button.setStyleSheet(checked_button_style(pal))
        # Tab reaches the graph (its keys zoom) and the details: show when they have it
        self.setStyleSheet(focus_frame_style(pal, "PlotWidget", "QTextBrowser#graphDetails"))
        self.plot.setBackground(c.background)
        bg = QtGui.QColor(c.background)
        prior, learned = edge_pens(c, thin=len(self.data.src) > THIN_EDGES_ABOVE)
        for pen, item in zip(prior + learned, self.edge_items + self.learned_items):
            item.setPen(pen)
        self.legend.set_colors(c)
        self.active_edges.setPen(pg.mkPen(QtGui.QColor(c.active_edge), width=2.5, cosmetic=True))
        nob = QtGui.QBrush(QtCore.Qt.BrushStyle.NoBrush)
        self.node_items["episode"].set_style(pen=pg.mkPen(c.episode_border, width=1), brush=pg.mkBrush(c.episode))
        self.node_items["knowledge"].set_style(pen=pg.mkPen(c.knowledge_border, width=1),
                                               brush=pg.mkBrush(c.knowledge))
        for colour, item in zip(TOPIC_COLOURS, self.topic_items):
            fill = QtGui.QColor(colour)
            item.set_style(pen=pg.mkPen(fill.darker(140) if bg.lightness() > 128 else fill.lighter(150),
                                        width=1), brush=pg.mkBrush(fill))
        for n, t in enumerate(self.topic_labels):
            t.setColor(self._topic_text_colour(n))
            t.fill = self._topic_fill()
        self.pinned_item.set_style(pen=pg.mkPen(c.pinned, width=2), brush=nob)
        self._style_search_rings()
        self.highlight_item.set_style(pen=pg.mkPen(c.selection, width=2, style=QtCore.Qt.PenStyle.DashLine),
                                      brush=nob)
        self.selected_item.set_style(pen=pg.mkPen(c.selection, width=2.5), brush=nob)
        self.empty_text.setColor(c.muted_text)
        if redraw:
            self.render()

    # ---- data in --------------------------------------------------------------------
    def set_snapshot(self, snap: dict, *, animate: bool = True) -> None:
        """Show a new graph snapshot; new nodes pop in, strengthened edges flash."""
        old = self.data
        new = GraphData.from_snapshot(snap)
        hot_keys = new.strengthened(old) if (animate and len(old)) else []
        old_pos = {int(i): self.xy[r] for r, i in enumerate(old.ids)} if len(self.xy) == len(old.ids) else {}
        self.data = new
        pos = np.zeros((len(new), 2))
        have = np.zeros(len(new), dtype=bool)
        kept, self.kept = self.kept, {}  # (the first snapshot of a folder only)
        for r, i in enumerate(new.ids):
            p = old_pos.get(int(i), kept.get(int(i)))
            if p is not None:
                pos[r] = p
                have[r] = True
        if len(new) and not have.all():
            centre = pos[have].mean(axis=0) if have.any() else np.zeros(2)
            pos[~have] = centre + np.random.default_rng(len(new)).normal(0, 1.0, (int((~have).sum()), 2))
        self.xy = pos
        # the memories this snapshot brings (what the user just said): named first among the
        # idle labels (QA passes 50 and 51b: the newest dot often had no label)
        self.newest = [int(i) for r, i in enumerate(new.ids) if not have[r]
                       and new.kinds[r] == "episode"][-NEWEST_LABELS:] if len(old) else []
        self.kind_rows = {k: np.nonzero(new.kinds == k)[0] for k in self.node_items}
        if (len(old.src) > THIN_EDGES_ABOVE) != (len(new.src) > THIN_EDGES_ABOVE):
            self.apply_colors(self.colors, redraw=False)
        self._pinned_rows = np.asarray([r for r, i in enumerate(new.ids) if new.nodes[int(i)].get("pinned")],
                                       dtype=np.int64)
        self.node_size = node_size_for(len(new))
        self.node_items["episode"].setSize(self.node_size)
        self.node_items["knowledge"].setSize(self.node_size + 5)
        for item in self.topic_items:
            item.setSize(self.node_size)
        deg = weighted_degree(len(new), new.src, new.dst, new.weight)
        top = np.argsort(-deg, kind="stable") if len(deg) else np.zeros(0, np.int64)
        cands = [int(r) for r in top if deg[r] > 0 and new.kinds[r] == "episode"]
        # what the user stated ("My dog is called Pixel") names the graph better than what
        # they asked ("What's my dog's name?"): the most linked statements, then questions
        # (QA passes 42c/42d: most labels were questions)
        cands = told_first(cands, lambda r: str(new.nodes[int(new.ids[r])].get("label") or ""),
                           3 * IDLE_LABELS)
        self.important = [int(new.ids[r]) for r in cands]  # (tried in turn: `_label_targets`)
        old_topics = {int(i): int(b) for i, b in zip(old.ids, self.topic_bucket)} if len(self.topic_bucket) == len(old) else {}
        old_topics = {**self.kept_topics, **old_topics}  # (kept from the last session)
        self.kept_topics = {}  # (the first snapshot of a folder only)
        self.topic_bucket = np.array([old_topics.get(int(i), -1) for i in new.ids], dtype=np.int64)
        self._group = np.full(len(new), -1, dtype=np.int64)
        if self.threaded:
            self._sendTopics.emit((new, self.topic_bucket.copy()))  # (from the topics they had)
        else:
            self._apply_topics(new.ids, *topics_for(new, self.topic_bucket))
        self.pinned_item.setSize(self.node_size + 6)
        self.highlight_item.setSize(self.node_size + 14)
        self.selected_item.setSize(self.node_size + 8)
        self.hot = []  # edge rows of the old snapshot mean nothing in the new one
        if hot_keys:
            rows = [r for r, (a, b) in enumerate(zip(new.src, new.dst))
                    if (min(int(new.ids[a]), int(new.ids[b])), max(int(new.ids[a]), int(new.ids[b]))) in set(hot_keys)]
            self.hot.append((time.monotonic(), np.asarray(rows, dtype=np.int64)))
        dropped = self.selected is not None and self.selected not in new.index
        if dropped:  # deleted, archived, or another data folder: nothing stays selected
            self.selected = None
        self.highlighted &= set(new.index)
        self._recompute_visibility()
        self._on_search(self.search.text(), redraw=False)  # (drawn once, below)
        edges = new.edge_list()
        if kept and have.any():  # the layout starts where the dots were last time
            self._seed(new.ids[have], pos[have])
        if self.layout_engine is None:  # threaded: the layout thread places them
            self._sendGraph.emit(new.ids.copy(), edges)
        else:
            self.layout_engine.set_graph(new.ids, edges)
            self.xy = self.layout_engine.positions()
        n_edges = len(new.src)
        n_ep, n_kn = len(self.kind_rows["episode"]), len(self.kind_rows["knowledge"])
        total = int(snap.get("total_episodes", n_ep) or n_ep)
        shown = f"{n_ep:,} of {total:,} memories" if total > n_ep else \
            f"{n_ep:,} memor{'y' if n_ep == 1 else 'ies'}"
        facts = f" · {n_kn:,} fact{'' if n_kn == 1 else 's'}" if n_kn else ""
        n_learned = int(new.is_learned().sum())
        learned = f" ({n_learned:,} learned)" if n_learned else ""
        links = f"{n_edges:,} link{'' if n_edges == 1 else 's'}"
        self.stats_label.setText(f"{shown}{facts} · {links}{learned}",
                                 f"{shown}{facts} · {links}", shown,
                                 f"{n_ep:,} memor{'y' if n_ep == 1 else 'ies'}")
        self.legend.has_edges, self.legend.has_pinned = bool(n_edges), bool(len(self._pinned_rows))
        self.legend.has_knowledge = bool(n_kn)
        self.legend.arrange()
        self.empty_text.setText("" if len(new) else "No memories yet — they appear here as you chat.")
        if not len(new):
            self.empty_text.setPos(0, 0)
            self.vb.setRange(QtCore.QRectF(-1, -1, 2, 2), padding=0)
        self.loaded = True
        if self.selected is not None or dropped:
            self._show_details(self.selected)
        self._kick()
        self.render()
        if dropped:
            self.nodeSelected.emit(-1)
        self._keep_reading()

    def keep_positions(self, kept: dict[int, tuple[float, float]],
                       topics: dict[int, int] | None = None) -> None:
        """Where the dots were when this folder was last shown, and the topic colour each
        wore (`layout_file`): the next snapshot starts from them; new memories settle
        around them, and a topic keeps its colour (after a restart the largest topic took
        the first colour, and two topics swapped theirs: QA pass 20)."""
        self.kept = dict(kept)
        self.kept_topics = dict(topics or {})

    def positions_to_keep(self) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
        """(ids, positions, topic colour slots or None) of the dots drawn now, to be kept
        for next time (none before the graph has loaded: what was kept stays)."""
        if not self.loaded or len(self.xy) != len(self.data.ids):
            return np.zeros(0, dtype=np.int64), np.zeros((0, 2)), None
        topics = self.topic_bucket.copy() if len(self.topic_bucket) == len(self.data.ids) \
            else None
        return self.data.ids.copy(), self.xy.copy(), topics

    def _seed(self, ids, pos) -> None:
        if self.layout_engine is None:
            self._sendSeed.emit(np.asarray(ids).copy(), np.asarray(pos).copy())
        else:
            self.layout_engine.seed(ids, pos)

    def _keep_reading(self) -> None:
        """After a new snapshot, what the pane explained stays: a memory chosen before the
        graph was drawn, or explained beyond it, is chosen in the graph once drawn; else
        its explanation is drawn again (the window reads it again, `explained_id`)."""
        nid = self.explained_id()
        if nid is not None and nid in self.data.index:
            self.select(nid, center=True)
        elif self.outside:
            self._show_details(next(iter(self.outside)))

    def explained_id(self) -> int | None:
        """The memory the pane explains without it being drawn (beyond the graph, or chosen
        before the graph was drawn), if any."""
        return self.wanted if self.wanted is not None else next(iter(self.outside), None)

    def drop_outside(self) -> None:
        """The memory explained beyond the graph is gone (deleted, archived): the pane
        shows the graph's help again."""
        if self.explained_id() is not None and self.selected is None:
            self.outside, self.wanted = {}, None
            self._show_details(None)

    def set_active(self, ids, recalls: dict[int, dict] | None = None) -> None:
        """The memories active right now (glow); others fade out."""
        now = time.monotonic()
        ids = [int(i) for i in ids]
        for i in list(self.active):
            if i not in ids:
                del self.active[i]
                self.leaving[i] = now
        for i in ids:
            if i not in self.active:
                self.active[i] = now
                self.leaving.pop(i, None)
        if recalls:
            self.recalls.update({int(k): v for k, v in recalls.items()})
            for k in recalls:
                self.recalled_for.pop(int(k), None)
                self.recalled_as.pop(int(k), None)
        self._recompute_visibility()
        if self.focus_mode and not self._user_moved_view:
            self.fit(user=False)  # follow the active neighbourhood as it changes
        if self.selected is not None and self.selected in self.recalls:
            self._show_details(self.selected)
        self._kick()
        self.render()

    def highlight(self, ids) -> None:
        """Dashed rings on these memories (hover in the timeline or chat)."""
        new = {int(i) for i in ids}
        if new != self.highlighted:
            self.highlighted = new
            self.render()

    def set_positions(self, ids, pos) -> None:
        """Positions from the layout (ids must match the current node order)."""
        if len(ids) != len(self.data.ids) or not np.array_equal(ids, self.data.ids):
            return
        self.xy = np.asarray(pos, dtype=np.float64)
        if self._pending_fit and not self._user_moved_view and len(self.xy):
            # keep the whole graph in view while it unfolds, refitting only when needed: a
            # dot past an edge, even in part (one was half cut off, QA pass 42c), or under
            # the key
            r = self.vb.viewRect()
            lo, hi = self.xy.min(axis=0), self.xy.max(axis=0)
            small = (hi[0] - lo[0]) < 0.6 * r.width() and (hi[1] - lo[1]) < 0.6 * r.height()
            if small or self.refit_due() or not self.dots_clear():
                self.fit(user=False)  # (framed as Fit frames it, QA pass 43)
        self._fold_key_off_dots()  # (dots that drift under the key fold it)
        self.render()

    @QtCore.Slot(object, object)
    def _on_positions(self, ids, pos) -> None:
        self.set_positions(ids, pos)

    # ---- interaction ----------------------------------------------------------------
    def select(self, node_id: int | None, *, center: bool = False, zoom_out: bool = True) -> None:
        """Select a memory: ring it, show its details; `center`: bring it and its neighbours
        into view (`bring_into_view`: the least pan, zooming out only where they do not fit,
        unless not `zoom_out`)."""
        self.wanted = None
        if node_id is not None and int(node_id) not in self.data.index:
            if not self.loaded:  # chosen before the graph is drawn: chosen once it is
                self.wanted = int(node_id)
            node_id = None
        self.outside = {}  # a memory beyond the graph is explained no more
        self.selected = None if node_id is None else int(node_id)
        self._show_details(self.selected if self.wanted is None else self.wanted)
        self._follow_selection(self.selected)
        if self.focus_mode:  # (its neighbours are shown: before they are brought into view)
            self._recompute_visibility()
        if center and self.selected is not None and len(self.xy):
            self.bring_into_view_soon(self.selected, zoom_out=zoom_out)
        self.render()
        self.nodeSelected.emit(-1 if self.selected is None else self.selected)

    def node_at(self, scene_pos: QtCore.QPointF) -> int | None:
        """The drawn memory under a scene position (within its dot, in pixels), if any."""
        if not len(self.xy):
            return None
        rows = np.concatenate([r for r in self._drawn_rows.values()]) if self._drawn_rows else np.zeros(0, int)
        if not len(rows):
            return None
        p = self.vb.mapSceneToView(scene_pos)
        ps = self.vb.viewPixelSize()
        d = self.xy[rows] - (p.x(), p.y())
        dpx = np.hypot(d[:, 0] / ps[0], d[:, 1] / ps[1])
        k = int(np.argmin(dpx))
        if dpx[k] <= max(self.node_size / 2.0 + 3, 6):
            return int(self.data.ids[rows[k]])
        return None

    def _on_scene_click(self, ev) -> None:
        if ev.button() != QtCore.Qt.MouseButton.LeftButton:
            return
        nid = self.memory_at(ev.scenePos())
        if nid is not None:  # a pane opened for it narrows the plot: it stays in view
            self.select(nid, center=self.unfold_details())
            ev.accept()

    def unfold_details(self) -> bool:
        """Open a detail pane that folded by itself: choosing a memory asks to see it.
        True: it opened."""
        if self.details is not None and self.details.isHidden() and not self._details_user:
            self.details_button.setChecked(True)
            self._toggle_details(True)
            return True
        return False

    def _on_manual_range(self, *_args) -> None:
        self._user_moved_view = True
        self._pending_fit = False

    def settle(self, steps: int) -> None:
        """An unthreaded view (``threaded=False``: benchmarks, screenshots, tests): run `steps`
        layout steps at once, show the positions and zoom to them."""
        lay = self.layout_engine
        if lay is None:
            raise RuntimeError("settle() is for a view built with threaded=False")
        lay.run(steps)
        self.set_positions(lay.ids, lay.positions())
        self.fit(user=False)

    def set_focus_mode(self, on: bool) -> None:
        """Show only active (and selected) memories and their neighbours."""
        self.focus_mode = bool(on)
        if self.focus_box.isChecked() != self.focus_mode:
            self.focus_box.setChecked(self.focus_mode)
        self._recompute_visibility()
        self.fit()
        self.render()

    def reset(self) -> None:
        """Forget everything about the shown folder (before another one is opened)."""
        self.selected = None
        self.outside, self.wanted, self.loaded, self.kept = {}, None, False, {}
        self.kept_topics = {}
        self.topic_bucket = np.zeros(0, dtype=np.int64)  # (ids repeat across folders)
        self.recalls.clear()
        self.recalled_for.clear()
        self.recalled_as.clear()
        self.highlighted = set()
        self.active.clear()
        self.leaving.clear()
        self.recent, self.newest = [], []
        self.set_search_results("", None)
        # the find box is the old folder's too (its rows pointed into the old graph: the
        # next snapshot raised IndexError, and "dentist" stood there with "none")
        self.search_rows = np.zeros(0, dtype=np.int64)
        self._search_cursor = -1
        self.search.clear()
        self._show_details(None)

    # ---- drawing --------------------------------------------------------------------
    def _recompute_visibility(self) -> None:
        d = self.data
        if self.focus_mode and len(d):
            seeds = set(self.active) | set(self.highlighted)
            if self.selected is not None:
                seeds.add(self.selected)
            if seeds:
                mask = np.zeros(len(d), dtype=bool)
                mask[list(d.neighbourhood(seeds, hops=1))] = True
                self.visible_mask = mask
            else:
                self.visible_mask = None
        else:
            self.visible_mask = None
        self.edge_rows = d.edge_classes(self.visible_mask)

    def _kick(self) -> None:
        if not self._anim.isActive():
            self._anim.start()

    def _animate(self) -> None:
        now = time.monotonic()
        self.leaving = {i: t for i, t in self.leaving.items() if now - t < LEAVE_S}
        self.hot = [(t, rows) for t, rows in self.hot if now - t < HOT_S]
        entering = any(now - t < ENTER_S for t in self.active.values())
        pulsing = bool(self.active)
        if not (self.leaving or self.hot or entering or pulsing):
            self._anim.stop()
        self.render(overlays_only=True)

    @staticmethod
    def _pairs_xy(pos: np.ndarray, src: np.ndarray, dst: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        idx = np.empty(2 * len(src), dtype=np.int64)
        idx[0::2] = src
        idx[1::2] = dst
        p = pos[idx]
        return p[:, 0], p[:, 1]

    def render(self, overlays_only: bool = False) -> None:  # type: ignore[override]  # the view's redraw; QWidget.render (paint into a device) is not used
        """Push current positions and state into the pyqtgraph items (no layout work).

        `overlays_only`: positions did not change (an animation tick), so only the glow,
        strengthened edges, rings and labels are updated — not the thousands of nodes.
        """
        d, pos = self.data, self.xy
        if len(pos) != len(d):
            return
        empty = np.zeros(0)
        if not overlays_only:
            self._render_base(d, pos, empty)
        self._render_overlays(d, pos, empty)
        self.frames += 1

    def _render_base(self, d: GraphData, pos: np.ndarray, empty: np.ndarray) -> None:
        self._drawn_rows = {}
        items = self.edge_items + self.learned_items
        for item, rows in zip(items, self.edge_rows or [np.zeros(0, dtype=np.int64)] * len(items)):
            if len(rows):
                x, y = self._pairs_xy(pos, d.src[rows], d.dst[rows])
                item.setData(x, y)
            else:
                item.setData(empty, empty)
        vis = self.visible_mask
        for kind, item in self.node_items.items():
            rows = self.kind_rows.get(kind, np.zeros(0, dtype=np.int64))
            if vis is not None:
                rows = rows[vis[rows]]
            self._drawn_rows[kind] = rows
            if kind == "episode" and len(self.topic_bucket) == len(d):  # coloured by topic
                b = self.topic_bucket[rows]
                for n, titem in enumerate(self.topic_items):
                    tr = rows[b == n]
                    titem.setData(pos[tr, 0], pos[tr, 1]) if len(tr) else titem.setData([], [])
                rows = rows[b < 0]
            item.setData(pos[rows, 0], pos[rows, 1]) if len(rows) else item.setData([], [])
        self._place_topic_labels(d, pos)
        self._set_rings(self.pinned_item, self._pinned_rows)
        self._draw_search_rings()

    def _render_overlays(self, d: GraphData, pos: np.ndarray, empty: np.ndarray) -> None:
        now = time.monotonic()
        # Active memories: edges among them, coloured glow growing in / fading out.
        act_rows = [d.index[i] for i in self.active if i in d.index]
        if len(act_rows) > 1 and len(d.src):
            a = np.isin(d.src, act_rows) & np.isin(d.dst, act_rows)
            x, y = self._pairs_xy(pos, d.src[a], d.dst[a])
            self.active_edges.setData(x, y)
        else:
            self.active_edges.setData(empty, empty)
        spots: list[tuple[float, float, float, QtGui.QColor, bool]] = []
        pulse = 0.5 + 0.5 * math.sin(now * 4.0)
        for i, t0 in self.active.items():
            r = d.index.get(i)
            if r is None:
                continue
            grow = min(1.0, (now - t0) / ENTER_S)
            ease = 1 - (1 - grow) ** 3
            col = QtGui.QColor(memory_color(i))
            col.setAlpha(int(120 + 60 * pulse * grow))
            size = self.node_size + (14 + 4 * pulse) * ease
            px, py = float(pos[r, 0]), float(pos[r, 1])
            if grow < 1.0:  # entering: a bright ring expands
                spots.append((px, py, self.node_size + 40 * ease, memory_color(i), True))
            spots.append((px, py, size, col, False))
        for i, t0 in self.leaving.items():
            r = d.index.get(i)
            if r is None:
                continue
            fade = max(0.0, 1.0 - (now - t0) / LEAVE_S)
            col = QtGui.QColor(memory_color(i))
            col.setAlpha(int(150 * fade))
            spots.append((float(pos[r, 0]), float(pos[r, 1]), self.node_size + 18 * fade, col, False))
        self.glow.set_spots(spots)
        # Hebbian strengthening: recently strengthened edges swell, then relax.
        if self.hot:
            t0, _ = self.hot[-1]
            rows = np.unique(np.concatenate([r for _, r in self.hot]))
            age = (now - t0) / HOT_S
            swell = math.sin(min(1.0, age * 3.0) * math.pi / 2) * (1.0 - max(0.0, age - 0.4) / 0.6)
            col = QtGui.QColor(self.colors.hot_edge)
            col.setAlpha(int(90 + 165 * max(0.0, swell)))
            self.hot_edges.setPen(pg.mkPen(col, width=1.5 + 5.0 * max(0.0, swell), cosmetic=True))
            if len(rows):
                x, y = self._pairs_xy(pos, d.src[rows], d.dst[rows])
                self.hot_edges.setData(x, y)
        else:
            self.hot_edges.setData(empty, empty)
        # Rings: pinned, search matches, hover highlights, selection.
        self._set_rings(self.highlight_item, [d.index[i] for i in self.highlighted if i in d.index])
        self._set_rings(self.selected_item, [d.index[self.selected]] if self.selected in d.index else [])
        self._update_labels()

    def _set_rings(self, item: NodesItem, rows) -> None:
        rows = np.asarray(rows, dtype=np.int64)
        if len(rows):
            item.setData(self.xy[rows, 0], self.xy[rows, 1])
        else:
            item.setData([], [])

    def minimumSizeHint(self) -> QtCore.QSize:  # noqa: N802 - Qt's name
        return self.room_for_count(super().minimumSizeHint())

    def resizeEvent(self, e) -> None:  # noqa: N802
        super().resizeEvent(e)
        if self.details is not None and not self._details_user:
            wide = self.width() >= DETAILS_ROOM  # a narrow pane keeps the graph
            if wide and self.details.isHidden():  # opening: its share, not its least
                self.split.setSizes(details_sizes(self.split.width() or self.width()))
            self.details.setVisible(wide)
            # not isVisible(): behind the Memories tab the pane is shown yet not visible,
            # and the button said "off" over a shown pane once the graph tab came back
            self.details_button.setChecked(wide)
        if not self._user_moved_view:  # the view follows the window until the user zooms
            QtCore.QTimer.singleShot(0, lambda: self.fit(user=False))

    def _toggle_details(self, on: bool) -> None:
        self._details_user = True
        if self.details is not None:
            self.details.setVisible(on)
        self._refit()

    def _refit(self) -> None:
        """Fit the view again once laid out, unless the user has zoomed or panned."""
        if not self._user_moved_view:
            QtCore.QTimer.singleShot(0, lambda: self.fit(user=False))

    # ---- lifecycle ------------------------------------------------------------------
    def shutdown(self) -> None:
        """Stop the layout thread (call before the window goes away)."""
        self._anim.stop()
        if self._thread is not None:
            QtCore.QMetaObject.invokeMethod(self.runner, "stop", QtCore.Qt.ConnectionType.BlockingQueuedConnection)
            self._thread.quit()
            self._thread.wait(3000)
            self._thread = None
