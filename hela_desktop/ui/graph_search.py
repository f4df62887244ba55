"""Find in the graph: the matches of the search box (the engine's ranking by meaning
plus keywords, then literal matches in labels), and stepping through them.

`GraphSearchMixin` is part of `GraphView` (kept apart to keep each file to one concern);
it reads the view's data and widgets, declared below for the type checker.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from PySide6 import QtCore, QtWidgets

from .graph_model import GraphData


class GraphSearchMixin:
    """The search box's matches of a `GraphView`."""

    # the view's state these methods use (set by GraphView)
    data: GraphData
    search: QtWidgets.QLineEdit
    match_label: QtWidgets.QLabel
    search_rows: np.ndarray
    _search_cursor: int
    semantic_search: Callable[[str], None] | None
    _ranked: tuple[str, list] | None
    _asked: str
    _ask_timer: QtCore.QTimer
    render: Callable[..., None]
    select: Callable[..., None]  # (node id or None, center=False)
    _unfold_details: Callable[[], None]

    def _on_search(self, text: str) -> None:
        """Matches: the engine's ranking by meaning plus keywords (when it has answered for
        this text), then literal matches of the text in labels."""
        raw = text.strip()
        text = raw.lower()
        if not text or not len(self.data):
            self.search_rows = np.zeros(0, dtype=np.int64)
            self.match_label.setText("")
        else:
            rows = []
            if self._ranked is not None and self._ranked[0] == raw:
                rows = [self.data.index[int(i)] for i, _ in self._ranked[1] if int(i) in self.data.index]
            elif self.semantic_search is not None and self._asked != raw:
                self._asked = raw
                self._ask_timer.start()  # once typing pauses
            have = set(rows)
            rows += [r for r, i in enumerate(self.data.ids)
                     if r not in have and (text in (self.data.nodes[int(i)].get("text") or "").lower()
                                           or text in (self.data.nodes[int(i)].get("label") or "").lower()
                                           or text == f"#{int(i)}")]
            self.search_rows = np.asarray(rows, dtype=np.int64)
            self.match_label.setText(f"{len(rows)} found" if rows else "none")
        self._search_cursor = -1
        self.render()

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
        """Select the next search match and pan to it."""
        if not len(self.search_rows):
            return
        self._search_cursor = (self._search_cursor + 1) % len(self.search_rows)
        self._unfold_details()
        self.select(int(self.data.ids[self.search_rows[self._search_cursor]]), center=True)
