"""Per-token memory timeline: x = token index, one row per memory that was active.

Bars show when each memory was in the prompt, markers show swaps (live re-retrieval).
Hovering a column reports the token (the window highlights it in the chat and the
memories in the graph); the window can set a highlighted token from elsewhere too.
"""

from __future__ import annotations

import html

from PySide6 import QtCore, QtGui, QtWidgets

from .plain import draw_elided, no_orphan
from .theme import GraphColors, graph_colors, memory_color

LABEL_W = 180
HEADER_H = 22
AXIS_H = 18


# what a row's colour is (QA pass 35: a memory green in the graph was navy here): its own,
# as the graph's glow around it while an answer uses it; a dot's fill is its topic's
OWN_COLOUR = ("<small>This colour is the memory's own, as is its glow in the graph while "
              "an answer uses it; a dot's fill there is its topic's colour.</small>")


class TimelineView(QtWidgets.QWidget):
    """Painted with QPainter: a few dozen rectangles, cheap to redraw per token."""

    tokenHovered = QtCore.Signal(int)  # token index, -1 when the mouse leaves
    tokenClicked = QtCore.Signal(int)
    memoryClicked = QtCore.Signal(int)

    def __init__(self, parent=None, colors: GraphColors | None = None):
        super().__init__(parent)
        self.colors = colors or graph_colors()
        self.setMouseTracking(True)
        self.setMinimumHeight(110)
        self.spans: list[list] = []  # [start, end, [ids]]
        self.n_tokens = 0
        self.swaps: list[int] = []
        self.rows: list[int] = []
        self.title = ""
        self.author: str | None = None  # who wrote an imported answer ("ChatGPT")
        self.live = False
        self.hover_tok = -1
        self.ext_tok = -1
        self.highlight_ids: set[int] = set()
        self.label_of = lambda i: f"#{i}"
        self.message_key: int | None = None
        self.recalling = False  # an answer has begun; its memories are not recalled yet

    def sizeHint(self) -> QtCore.QSize:  # noqa: N802
        return QtCore.QSize(600, 170)

    # ---- data -----------------------------------------------------------------------
    def clear(self) -> None:
        self.set_answer([], 0, "")

    def set_answer(self, spans, n_tokens: int, title: str, *, key: int | None = None,
                   live: bool = False, author: str | None = None) -> None:
        """Show a finished (or live) answer's spans ``[(start, end, [ids])]``; `author`:
        the assistant that wrote an imported one."""
        self.spans = [[int(a), int(b), [int(i) for i in ids]] for a, b, ids in spans]
        self.n_tokens = int(max([n_tokens] + [s[1] for s in self.spans]))
        self.swaps = [s[0] for s in self.spans[1:]]
        self.rows = []
        for s in self.spans:
            for i in s[2]:
                if i not in self.rows:
                    self.rows.append(i)
        self.title = title
        self.author = author
        self.live = live
        self.recalling = False
        self.message_key = key
        self.hover_tok = self.ext_tok = -1
        self.update()

    def begin_live(self, ids, key: int | None = None) -> None:
        """An answer begins with the memories recalled for it; `ids` None: not recalled
        yet (the model may still be loading), so "none recalled" is not said."""
        self.set_answer([[0, 0, list(ids or [])]], 0, "Answer in progress…", key=key, live=True)
        self.recalling = ids is None

    def live_token(self, index: int) -> None:
        self.n_tokens = max(self.n_tokens, index + 1)
        if self.spans:
            self.spans[-1][1] = self.n_tokens
        self.update()

    def live_swap(self, token_index: int, ids) -> None:
        ids = [int(i) for i in ids]
        if self.spans and self.spans[-1][1] <= self.spans[-1][0]:
            self.spans[-1][2] = ids  # the previous set never wrote a token
        else:
            self.spans.append([token_index, token_index, ids])
            self.swaps.append(token_index)
        for i in ids:
            if i not in self.rows:
                self.rows.append(i)
        self.update()

    def active_at(self, tok: int) -> list[int]:
        """Memories active when token `tok` was written."""
        for a, b, ids in self.spans:
            if a <= tok < b:
                return list(ids)
        if self.live and self.spans and tok >= self.spans[-1][0]:
            return list(self.spans[-1][2])
        return []

    def set_external_token(self, tok: int) -> None:
        if tok != self.ext_tok:
            self.ext_tok = tok
            self.update()

    def set_highlight_ids(self, ids) -> None:
        ids = {int(i) for i in ids}
        if ids != self.highlight_ids:
            self.highlight_ids = ids
            self.update()

    def apply_colors(self, c: GraphColors) -> None:
        self.colors = c
        self.update()

    # ---- geometry -------------------------------------------------------------------
    def plot_rect(self) -> QtCore.QRectF:
        return QtCore.QRectF(LABEL_W, HEADER_H, max(10, self.width() - LABEL_W - 10),
                             max(10, self.height() - HEADER_H - AXIS_H))

    def _row_h(self) -> float:
        r = self.plot_rect()
        return min(20.0, r.height() / max(1, len(self.rows)))

    def _span(self) -> int:
        """Tokens across the plot: a finished answer's own length (a 9-token answer's bars
        reach the end; against an axis of 20 they stopped half way and read as memories
        dropped mid-answer, QA pass 25); at least 20 while an answer streams, so its bars do
        not stretch with every token."""
        return self.n_tokens if self.n_tokens and not self.live else max(self.n_tokens, 20)

    def x_of(self, tok: float) -> float:
        r = self.plot_rect()
        return r.left() + r.width() * tok / self._span()

    def _tok_at(self, x: float) -> int:
        r = self.plot_rect()
        if x < r.left() or not self.n_tokens:
            return -1
        t = int((x - r.left()) / r.width() * self._span())
        return t if 0 <= t < self.n_tokens else -1

    def axis_labels(self, y: float) -> list[tuple[float, QtCore.QRectF, str]]:
        """The token axis's ticks: (x, the box of its number, the number), each box wholly
        inside the widget (the last number, centred on the plot's right edge, was cut in
        half there, QA pass 41e)."""
        total = self._span()
        step = max(5, int(round(total / 8 / 5)) * 5) if total >= 20 else 2 if total > 8 else 1
        fm = self.fontMetrics()
        out = []
        for t in range(0, total + 1, step):
            x, text = self.x_of(t), str(t)
            w = fm.horizontalAdvance(text) + 4
            left = min(x - w / 2, self.width() - 2 - w)
            out.append((x, QtCore.QRectF(left, y + 3, w, fm.height()), text))
        return out

    # ---- painting -------------------------------------------------------------------
    def empty_hint(self) -> str:
        """What the timeline says while it has no memory to show."""
        if self.recalling and not self.n_tokens:  # e.g. the model is still loading
            return "The memories this answer draws on will show here once they are recalled."
        if self.live or self.n_tokens:
            return ("No memories were recalled for this answer: none was close enough to "
                    "the message.")
        if self.author:  # (QA pass 33: "the model did not write" it, of ChatGPT's answer)
            return (f"No memories were active here: {self.author} wrote this answer, and it "
                    "was imported.")
        if self.title:  # an answer of no tokens: a request to forget, done by the app
            return "No memories were active here: the model did not write this answer."
        return "Send a message: each row here will show one memory and the tokens it was active for."

    def paintEvent(self, _e) -> None:  # noqa: N802
        c = self.colors
        p = QtGui.QPainter(self)
        p.setRenderHint(QtGui.QPainter.RenderHint.Antialiasing, False)
        p.fillRect(self.rect(), QtGui.QColor(c.background))
        text_col, muted = QtGui.QColor(c.text), QtGui.QColor(c.muted_text)
        f = p.font()
        p.setPen(text_col)
        head = self.title or "Memory timeline"
        if self.n_tokens:
            head += f"   ·   {self.n_tokens} tokens · {len(self.swaps)} swap{'s' if len(self.swaps) != 1 else ''}"
        bold = QtGui.QFont(f)
        bold.setBold(True)
        p.setFont(bold)
        p.drawText(QtCore.QRectF(8, 2, self.width() - 16, HEADER_H - 2),
                   QtCore.Qt.AlignmentFlag.AlignVCenter | QtCore.Qt.AlignmentFlag.AlignLeft, head)
        p.setFont(f)
        r = self.plot_rect()
        if not self.rows:
            p.setPen(muted)
            p.drawText(r.adjusted(-LABEL_W + 8, 0, -8, 0),  # wrapped: a narrow pane cuts nothing
                       QtCore.Qt.AlignmentFlag.AlignCenter | QtCore.Qt.TextFlag.TextWordWrap,
                       no_orphan(self.empty_hint()))
            p.end()
            return
        rh = self._row_h()
        grid = QtGui.QColor(c.grid)
        for n, eid in enumerate(self.rows):
            y = r.top() + n * rh
            if n % 2 == 0:
                p.fillRect(QtCore.QRectF(0, y, self.width(), rh), grid if c.background != "#16181d" else QtGui.QColor("#1d2027"))
            col = memory_color(eid)
            hl = eid in self.highlight_ids
            p.setBrush(col)
            p.setPen(QtCore.Qt.PenStyle.NoPen)
            d = min(10.0, rh - 4)
            p.drawEllipse(QtCore.QRectF(8, y + (rh - d) / 2, d, d))
            fb = QtGui.QFont(f)
            fb.setBold(hl)
            p.setFont(fb)
            p.setPen(text_col if hl or not self.highlight_ids else muted)
            draw_elided(p, QtCore.QRectF(24, y, LABEL_W - 30, rh), QtCore.Qt.AlignmentFlag.AlignVCenter,
                        f"#{eid} {self.label_of(eid)}")  # right-to-left text from the right
            p.setFont(f)
            bar = QtGui.QColor(col)
            bar.setAlpha(235 if (hl or not self.highlight_ids) else 110)
            for a, b, ids in self.spans:
                if eid in ids and b > a:
                    x0, x1 = self.x_of(a), self.x_of(b)
                    p.fillRect(QtCore.QRectF(x0, y + 2, max(1.5, x1 - x0), rh - 4), bar)
        # swap markers
        pen = QtGui.QPen(muted)
        pen.setStyle(QtCore.Qt.PenStyle.DashLine)
        for s in self.swaps:
            x = self.x_of(s)
            p.setPen(pen)
            p.drawLine(QtCore.QPointF(x, r.top()), QtCore.QPointF(x, r.top() + rh * len(self.rows)))
            p.setPen(QtCore.Qt.PenStyle.NoPen)
            p.setBrush(QtGui.QColor(c.hot_edge))
            tri = QtGui.QPolygonF([QtCore.QPointF(x - 5, r.top() - 7), QtCore.QPointF(x + 5, r.top() - 7),
                                   QtCore.QPointF(x, r.top() - 1)])
            p.drawPolygon(tri)
        # axis
        p.setPen(muted)
        yb = r.top() + rh * len(self.rows) + 2
        for x, box, text in self.axis_labels(yb):
            p.drawLine(QtCore.QPointF(x, yb), QtCore.QPointF(x, yb + 4))
            p.drawText(box, QtCore.Qt.AlignmentFlag.AlignHCenter, text)
        p.drawText(QtCore.QRectF(8, yb + 3, LABEL_W - 16, 14), QtCore.Qt.AlignmentFlag.AlignLeft, "token →")
        # hovered / external token column
        for tok, alpha in ((self.ext_tok, 90), (self.hover_tok, 140)):
            if tok >= 0:
                x0, x1 = self.x_of(tok), self.x_of(tok + 1)
                band = QtGui.QColor(c.selection)
                band.setAlpha(alpha)
                p.fillRect(QtCore.QRectF(x0, r.top(), max(2.0, x1 - x0), rh * len(self.rows)), band)
        p.end()

    # ---- mouse ----------------------------------------------------------------------
    def mouseMoveEvent(self, e: QtGui.QMouseEvent) -> None:  # noqa: N802
        pos = e.position()
        tok = self._tok_at(pos.x())
        if tok != self.hover_tok:
            self.hover_tok = tok
            self.update()
            self.tokenHovered.emit(tok)
        row = self._row_at(pos.y())
        if tok >= 0:
            ids = self.active_at(tok)
            names = "<br>".join(f"<span style='color:{memory_color(i).name()}'>●</span> #{i} "
                                f"{html.escape(self.label_of(i))}" for i in ids) or "<i>no memories</i>"
            QtWidgets.QToolTip.showText(e.globalPosition().toPoint(), f"<b>token {tok}</b><br>{names}", self)
        elif row is not None:
            QtWidgets.QToolTip.showText(e.globalPosition().toPoint(),
                                        f"#{row} {html.escape(self.label_of(row))}<br>"
                                        f"<i>click to show in the graph</i><br>{OWN_COLOUR}", self)

    def _row_at(self, y: float) -> int | None:
        r = self.plot_rect()
        if not self.rows or y < r.top():
            return None
        n = int((y - r.top()) / self._row_h())
        return self.rows[n] if 0 <= n < len(self.rows) else None

    def mousePressEvent(self, e: QtGui.QMouseEvent) -> None:  # noqa: N802
        pos = e.position()
        if pos.x() < LABEL_W:
            row = self._row_at(pos.y())
            if row is not None:
                self.memoryClicked.emit(row)
        else:
            tok = self._tok_at(pos.x())
            if tok >= 0:
                self.tokenClicked.emit(tok)

    def leaveEvent(self, _e) -> None:  # noqa: N802
        if self.hover_tok != -1:
            self.hover_tok = -1
            self.update()
            self.tokenHovered.emit(-1)
