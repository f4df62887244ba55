"""The key to the graph's edge colours (and the pinned ring, the diamond of a fact), in the bottom-left corner of
the plot.

It never hides memories: a fit of the view lays it over an empty corner of the graph, or
leaves it room below the graph where a dot would lie under it (`GraphPanMixin.fit`), and where the
plot is too small for it (a small window, the side panels open), or a zoom or pan has
brought memories under it, it folds into a small "Legend" button.  A click on the key folds it; a click on the button opens it (the
user's choice then holds at every size).
"""

from __future__ import annotations

import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets

from .graph_items import edge_pens
from .theme import GraphColors

TOOLTIP = ("What the colours of the links mean. A memory's dot is coloured by its topic: the "
           "memories linked most closely together share one, and its name shows when you "
           "zoom out; a pale blue one belongs to none of the ten largest. (Click to fold the "
           "key away.)")
MARGIN = 8  # pixels between the key (or its button) and the plot's corner
ROOM_GAP = 12  # and between the key and the lowest memory after a fit


class EdgeLegend(pg.LegendItem):
    """The key to the edge colours: a link made when a memory was written (prior), learned
    links (the stronger, the more often answers used the two memories together), and the
    links among the memories an answer is using; with its folded form, a button on the
    plot."""

    # the last: links between the memories an answer is using, drawn while it is written
    # (pink; the key had left it out, QA pass 22)
    ROWS = ("link made when written", "learned, weak", "learned, strong", "in use by the answer")
    # and, while the graph has one, the ring around a pinned memory (the key said nothing
    # of it, QA pass 28b)
    PINNED = "pinned memory"
    # … and the diamond of a distilled fact, while there is one (QA pass 33: the key named
    # neither it nor what the dots' colours are)
    KNOWLEDGE = "fact distilled while idle"
    toggled = QtCore.Signal()  # the user opened or folded it: the room below changed

    def __init__(self, colors: GraphColors, plot: pg.PlotWidget):
        super().__init__(offset=(MARGIN, -MARGIN), verSpacing=-6, labelTextSize="8pt")
        self._samples = [pg.PlotDataItem() for _ in self.ROWS]
        for item, text in zip(self._samples, self.ROWS):
            self.addItem(item, text)
        self.ring = pg.ScatterPlotItem(symbol="o", size=11)  # a ring as the graph draws it, no line
        self.has_pinned = False  # set by the view: the row shows while a memory is pinned
        self.diamond = pg.ScatterPlotItem(symbol="d", size=11)
        self.has_knowledge = False  # set by the view: the row shows while there is a fact
        # (a row of dot colours covered a memory: the tooltip tells them, QA pass 33)
        self.setToolTip(TOOLTIP)
        self.plot = plot
        self.button = QtWidgets.QToolButton(plot)
        self.button.setText("Legend")
        self.button.setToolTip("Show what the colours of the links mean")
        self.button.setCursor(QtCore.Qt.CursorShape.PointingHandCursor)
        self.button.clicked.connect(lambda: self.set_open(True))
        self.button.hide()
        self.has_edges = False  # set by the view: no links, no key
        self.user_open: bool | None = None  # None: open where it fits
        self.open = False  # the key is shown (else the button, when there are links)
        # memories lie where the key is (zoomed in or panned): it folds away, unless the
        # user opened it (QA pass 41e: zoomed in, the key covered dots, g2c)
        self.covering = False
        self.set_colors(colors)

    def set_colors(self, c: GraphColors) -> None:
        prior, learned = edge_pens(c, thin=False)
        for item, color in zip(self._samples, (prior[2].color(), learned[0].color(),
                                               learned[2].color(), QtGui.QColor(c.active_edge))):
            item.setPen(pg.mkPen(color, width=2.5))
        self.ring.setPen(pg.mkPen(c.pinned, width=2))
        self.ring.setBrush(pg.mkBrush(None))
        self.diamond.setPen(pg.mkPen(c.knowledge_border, width=1))
        self.diamond.setBrush(pg.mkBrush(c.knowledge))
        bg = QtGui.QColor(c.background)
        bg.setAlpha(215)
        self.setBrush(pg.mkBrush(bg))
        self.setPen(pg.mkPen(c.grid))
        self.setLabelTextColor(c.text)
        for _sample, label in self.items:  # setLabelTextColor leaves drawn labels as they are
            label.setText(label.text, color=c.text)
        self.button.setStyleSheet(
            f"QToolButton {{ background: {c.background}; color: {c.text}; border: 1px solid {c.grid};"
            " border-radius: 3px; padding: 1px 6px; }"
            f"QToolButton:hover {{ border-color: {c.muted_text}; }}")

    # ---- folding --------------------------------------------------------------------
    def fits(self, width: float, height: float) -> bool:
        """Whether the key has room in a plot of this size, the graph still above it."""
        br = self.boundingRect()
        return height >= 3 * (br.height() + ROOM_GAP) and width >= 1.8 * br.width()

    def arrange(self) -> None:
        """Show the key where it fits (or where the user opened it), else the button."""
        vb = self.parentItem()
        w, h = (vb.width(), vb.height()) if vb is not None else (0.0, 0.0)
        for item, text, wanted in ((self.ring, self.PINNED, self.has_pinned),
                                   (self.diamond, self.KNOWLEDGE, self.has_knowledge)):
            shown = any(sample.item is item for sample, _label in self.items)
            if wanted and not shown:
                self.addItem(item, text)
            elif shown and not wanted:
                self.removeItem(item)
        self.open = self.user_open if self.user_open is not None else \
            self.fits(w, h) and not self.covering
        self.setVisible(self.has_edges and self.open)
        self.button.setVisible(self.has_edges and not self.open)
        self.button.adjustSize()
        self.button.move(MARGIN, self.plot.height() - self.button.height() - MARGIN)

    def room(self) -> float:
        """Pixels at the bottom of the plot that the key, or its button, takes."""
        if not self.has_edges:
            return 0.0
        if self.open or (self.covering and self.user_open is None):  # (a fit: room for it)
            return self.boundingRect().height() + ROOM_GAP
        return self.button.sizeHint().height() + MARGIN + 4

    def key_rect(self) -> QtCore.QRectF:
        """Where the key is, or would be when open, in the plot's scene."""
        return self.mapRectToScene(self.boundingRect())

    def set_covering(self, covering: bool) -> None:
        """Whether memories lie under the key (the view says, after each zoom or pan)."""
        if covering != self.covering:
            self.covering = covering
            self.arrange()

    def scene_rect(self) -> QtCore.QRectF:
        """Where the key, or its button, is in the plot's scene (labels keep clear of it)."""
        if self.isVisible():
            return self.mapRectToScene(self.boundingRect())
        if self.button.isVisible():
            g = self.button.geometry()
            return QtCore.QRectF(self.plot.mapToScene(g.topLeft()), self.plot.mapToScene(g.bottomRight()))
        return QtCore.QRectF()

    def set_open(self, on: bool) -> None:
        """The user opens (the button) or folds (a click on the key) the key."""
        self.user_open = bool(on)
        self.arrange()
        self.toggled.emit()

    def mouseClickEvent(self, ev) -> None:  # noqa: N802 - pyqtgraph's name
        if ev.button() == QtCore.Qt.MouseButton.LeftButton:
            self.set_open(False)
            ev.accept()

    def mouseDragEvent(self, ev) -> None:  # noqa: N802 - pyqtgraph's name
        ev.ignore()  # the key stays in its corner (the room a fit leaves is there); a drag pans
