"""Find in the graph: the matches of the search box (the engine's ranking by meaning
plus keywords, then literal matches in labels), and stepping through them.

A common word can match most of the graph: the box says how many match and which one is
shown ("3 of 105"); Enter or F3 goes to the next match, Shift+Enter or Shift+F3 to the
previous one (Down too, as in the other search boxes; Esc clears), centring and selecting
it so its details show (zoomed in, when the graph is zoomed out to a map of topics).  Many
matches get thin rings, so the graph under them still reads, and the match shown a ring
of its own.

`GraphSearchMixin` is part of `GraphView` (kept apart to keep each file to one concern);
it reads the view's data and widgets, declared below for the type checker.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets

from .graph_model import GraphData
from .nodes_item import NodesItem
from .plain import find_keys
from .theme import GraphColors

STEP_ZOOM = 0.35  # stepping to a match in a zoomed-out graph zooms in this much
MANY_MATCHES = 25  # more matches than this get thin rings (the graph shows through)
STEP_HINT = "Enter or F3: next match · Shift+Enter or Shift+F3: previous · Esc clears"


class GraphSearchMixin:
    """The search box's matches of a `GraphView`."""

    # the view's state these methods use (set by GraphView)
    data: GraphData
    search: QtWidgets.QLineEdit
    match_label: QtWidgets.QLabel
    search_rows: np.ndarray
    _search_cursor: int
    _searched: str
    semantic_search: Callable[[str], None] | None
    _ranked: tuple[str, list] | None
    _asked: str
    _ask_timer: QtCore.QTimer
    render: Callable[..., None]
    select: Callable[..., None]  # (node id or None, center=False)
    unfold_details: Callable[[], bool]
    _set_rings: Callable[[NodesItem, object], None]
    colors: GraphColors
    node_size: float
    search_item: NodesItem
    xy: np.ndarray
    vb: pg.ViewBox
    zoomed_out: bool
    _user_moved_view: bool
    _pending_fit: bool
    match_item: NodesItem

    def _build_search(self) -> None:
        """The search box, its count, and its keys (the view's toolbar places them)."""
        self.search = QtWidgets.QLineEdit()
        self.search.setPlaceholderText("Find in graph…")
        self.search.setMinimumWidth(110)  # a narrow window: the hint still reads
        self.search.setClearButtonEnabled(True)
        self.search.setToolTip(STEP_HINT)
        self.search.textChanged.connect(self._on_search)
        find_keys(self.search, self.next_match)  # Esc clears, Down goes to a match, as elsewhere
        self.search.installEventFilter(_StepKeys(self.search, self.next_match, self.previous_match))
        self.match_label = QtWidgets.QLabel("")
        self.match_label.setMinimumWidth(70)
        self.match_label.setToolTip(STEP_HINT)
        # shown only while it has a count: empty, its 70 px went to no one and the
        # graph's count beside it fell back to its shorter form at 1280 px (QA pass 28b)
        self.match_label.hide()
        view = cast(QtWidgets.QWidget, self)  # the GraphView
        for key, step in (("F3", self.next_match), ("Shift+F3", self.previous_match)):
            shortcut = QtGui.QShortcut(QtGui.QKeySequence(key), view)
            shortcut.setContext(QtCore.Qt.ShortcutContext.WidgetWithChildrenShortcut)
            shortcut.activated.connect(step)

    def room_for_count(self, least: QtCore.QSize) -> QtCore.QSize:
        """The view's least size counting the match count as if shown: the window's
        columns hold still as a search shows and hides it."""
        if self.match_label.isHidden():
            lay = cast(QtWidgets.QWidget, self).layout()
            spacing = max(0, lay.spacing()) if lay is not None else 0
            least.setWidth(least.width() + self.match_label.minimumWidth() + spacing)
        return least

    def _style_search_rings(self) -> None:
        """Rings around the matches: bold for a few, thin for many; the shown one bold."""
        many = len(self.search_rows) > MANY_MATCHES
        nob = QtGui.QBrush(QtCore.Qt.BrushStyle.NoBrush)
        self.search_item.set_style(pen=pg.mkPen(self.colors.search, width=1.5 if many else 3), brush=nob)
        self.search_item.setSize(self.node_size + (5 if many else 10))
        self.match_item.set_style(pen=pg.mkPen(self.colors.search, width=3.5), brush=nob)
        self.match_item.setSize(self.node_size + 16)

    def _draw_search_rings(self) -> None:
        self._style_search_rings()
        self._set_rings(self.search_item, self.search_rows)
        shown = self._search_cursor
        self._set_rings(self.match_item, self.search_rows[shown:shown + 1] if shown >= 0 else [])

    def _say_matches(self) -> None:
        n = len(self.search_rows)
        if not self.search.text().strip() or not len(self.data):
            text = ""
        elif not n:
            text = "none"
        else:
            near, meaning = self._near("nearest"), self._near("meaning")
            found = n - near - meaning
            text = f"{n:,} near in meaning" if near == n else ", ".join(
                f"{k:,} {what}" for k, what in ((found, "found"), (meaning, "by meaning"),
                                                (near, "near")) if k)
            if self._search_cursor >= 0:
                text = f"{self._search_cursor + 1:,} of {n:,}" + (" near" if near == n else "")
        self.match_label.setText(text)
        self.match_label.setVisible(bool(text))

    def _near(self, how: str) -> int:
        """How many of the matches shown came by meaning alone: `how` "nearest", offered as
        the nearest, nothing matching; "meaning", matched by meaning with none of the
        searched words ("SopotSopot" said "2 found" of the two Sopot memories, QA pass 46d:
        now "2 by meaning", as the memory browser marks such rows)."""
        r = self._ranked
        if r is None or r[0] != self._searched:
            return 0
        return sum(1 for t in r[1] if len(t) > 2 and t[2] == how and int(t[0]) in self.data.index)

    def _on_search(self, text: str, redraw: bool = True) -> None:
        """Matches: the engine's ranking by meaning plus keywords (when it has answered for
        this text), then literal matches of the text in labels (`redraw` False: the
        caller draws the graph itself)."""
        raw = text.strip()
        text = raw.lower()
        shown = self._shown_match() if raw == self._searched else None
        self._searched = raw
        if not text or not len(self.data):
            self.search_rows = np.zeros(0, dtype=np.int64)
        else:
            rows = []
            if self._ranked is not None and self._ranked[0] == raw:
                rows = [self.data.index[int(i)] for i, *_ in self._ranked[1] if int(i) in self.data.index]
            elif self.semantic_search is not None and self._asked != raw:
                self._asked = raw
                self._ask_timer.start()  # once typing pauses
            have = set(rows)
            rows += [r for r, i in enumerate(self.data.ids)
                     if r not in have and (text in (self.data.nodes[int(i)].get("text") or "").lower()
                                           or text in (self.data.nodes[int(i)].get("label") or "").lower()
                                           or text == f"#{int(i)}")]
            self.search_rows = np.asarray(rows, dtype=np.int64)
        # the same text searched again (the engine's ranking came, the graph changed): the
        # match shown stays the one shown
        at = np.nonzero(self.search_rows == self.data.index.get(shown, -1))[0] if shown is not None \
            else np.zeros(0, dtype=np.int64)
        self._search_cursor = int(at[0]) if len(at) else -1
        self._say_matches()
        if redraw:
            self.render()

    def _follow_selection(self, node_id: int | None) -> None:
        """A match chosen another way (a click, a link): it is the one shown, and Enter
        goes on from it."""
        if node_id is None or not len(self.search_rows):
            return
        at = np.nonzero(self.search_rows == self.data.index.get(node_id, -1))[0]
        if len(at) and int(at[0]) != self._search_cursor:
            self._search_cursor = int(at[0])
            self._say_matches()

    def _shown_match(self) -> int | None:
        """The id of the match shown (stepped to), if any."""
        if 0 <= self._search_cursor < len(self.search_rows):
            row = int(self.search_rows[self._search_cursor])
            return int(self.data.ids[row]) if row < len(self.data.ids) else None
        return None

    def set_search_results(self, text: str, results: list | None) -> None:
        """The engine's ranked matches for `text`; None forgets the last ranking."""
        self._ranked = None if results is None else (text, list(results))
        self._asked = ""
        if results is not None and text == self.search.text().strip():
            self._on_search(text)

    def _ask_engine(self) -> None:
        text = self.search.text().strip()
        if text and self.semantic_search is not None:
            self.semantic_search(text)

    def refresh_search(self) -> None:
        self._on_search(self.search.text())

    def next_match(self) -> None:
        """Select the next search match and pan to it (after the last: the first)."""
        self._step_match(+1)

    def previous_match(self) -> None:
        """Select the previous search match and pan to it (before the first: the last)."""
        self._step_match(-1)

    def _step_match(self, step: int) -> None:
        n = len(self.search_rows)
        if not n:
            return
        cur = self._search_cursor
        self._search_cursor = (cur + step) % n if cur >= 0 else (0 if step > 0 else n - 1)
        self._say_matches()
        self.unfold_details()
        row = int(self.search_rows[self._search_cursor])
        zoomed_in = self.zoomed_out
        if zoomed_in:  # a dot among hundreds, under topic names: closer, to read it
            x, y = self.xy[row]
            r = self.vb.viewRect()
            w, h = r.width() * STEP_ZOOM, r.height() * STEP_ZOOM
            self.vb.setRange(QtCore.QRectF(x - w / 2, y - h / 2, w, h), padding=0)
            self._user_moved_view = True  # the view stays there (Fit shows the whole graph)
            self._pending_fit = False
        # (zoomed in to read it: not out again to show its neighbours)
        self.select(int(self.data.ids[row]), center=True, zoom_out=not zoomed_in)


class _StepKeys(QtCore.QObject):
    """Enter and Shift+Enter (F3 and Shift+F3, as the pane's shortcuts) in the search box:
    the next and the previous match."""

    def __init__(self, edit: QtWidgets.QLineEdit, forward: Callable[[], None], back: Callable[[], None]):
        super().__init__(edit)
        self.edit, self.forward, self.back = edit, forward, back

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt's name
        if obj is self.edit and event.type() == QtCore.QEvent.Type.KeyPress and \
                event.key() in (QtCore.Qt.Key.Key_Return, QtCore.Qt.Key.Key_Enter, QtCore.Qt.Key.Key_F3):
            shift = bool(event.modifiers() & QtCore.Qt.KeyboardModifier.ShiftModifier)
            (self.back if shift else self.forward)()
            return True
        return False
