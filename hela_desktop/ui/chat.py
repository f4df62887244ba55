"""The chat pane: conversation list, the streaming message view, the input box.

Every character of an answer carries an anchor naming the token that wrote it
(``t:<message key>:<token index>``), so hovering or clicking a word tells the window
which memories were active when it was written.
"""

from __future__ import annotations

import time

from PySide6 import QtCore, QtGui, QtWidgets

from ..events import NOT_FROM_MEMORIES
from ..sources import NO_SOURCES, Sources, source_groups
from . import chat_links
from .chat_fold import LESS, LINK, find_last, fold, unfold, write_user_text
from .chat_links import ANSWER
from .explain import when as format_when
from .markdown_stream import MarkdownStream, Style, format_all
from .plain import no_orphan, tip
from .theme import show_html, warning_color

HIGHLIGHT_MAX = 50_000  # characters of a code block that get syntax colours


def _hint(*lines: str) -> str:
    """A grey centred paragraph of `lines` (each a whole sentence: a narrow pane wraps it
    where it must), none of which wraps to leave one word alone."""
    return "<p align='center' class='muted'>" + "<br>".join(map(no_orphan, lines)) + "</p>"


def _keys(*parts: str) -> str:
    """Key hints joined by " · ", each kept whole on a line (a line breaks after a dot)."""
    return "\u00a0· ".join(p.replace(" ", "\u00a0") for p in parts)


EMPTY_HINT = (
    "<div style='margin-top:60px'>"
    "<p align='center' style='font-size:15pt'><b>Ask HeLa anything.</b></p>"
    + _hint("Everything runs on this computer — nothing leaves it.",
            "Each exchange becomes a memory in the graph on the right; memories an answer "
            "uses together grow linked, like associations.")
    + _hint(_keys("Enter sends", "Shift+Enter adds a line", "Esc stops the answer"),
            "Hover a word of an answer to see which memories it was written with.")
    + "</div>"
)
# under the welcome while answers come from the bundled model (`set_model_note`)
BETTER_MODEL = ("For better answers, choose a bigger model file or a model server in "
                "Settings\u00a0▸\u00a0Answers.")


def empty_hint(note: tuple[str, ...] = ()) -> str:
    """The welcome of an empty chat, with `note` (what to know about the model answering,
    a line each) under it."""
    return EMPTY_HINT if not note else EMPTY_HINT[:-len("</div>")] + _hint(*note) + "</div>"


class MessageView(QtWidgets.QTextBrowser):
    """Messages as framed blocks; assistant text is written token by token with anchors."""

    tokenHovered = QtCore.Signal(int, int)  # message key, token index (-1, -1: none)
    tokenClicked = QtCore.Signal(int, int)
    memoryClicked = QtCore.Signal(int)  # a memory named under an answer: its episode id
    # … and the answer it was named under: (episode id, message id or None), just before
    sourceClicked = QtCore.Signal(int, object)
    # the answer (its key here) whose list was clicked, first: the timeline shows that one
    # (it went on showing the latest answer, "Answer 26 of this chat", QA pass 41e)
    answerChosen = QtCore.Signal(int)
    regenerateRequested = QtCore.Signal()
    editRequested = QtCore.Signal(int, str)  # n-th user message of the chat (0-based), its text
    paletteChanged = QtCore.Signal()  # bubbles are recoloured; code colours need a re-render

    def __init__(self, parent=None):
        super().__init__(parent)
        self._placed = 0  # how often a place was gone to (a resize pending then keeps it)
        self.setOpenLinks(False)
        self.setOpenExternalLinks(False)
        self.setMouseTracking(True)
        self.viewport().setMouseTracking(True)
        self.anchorClicked.connect(self._on_anchor_clicked)
        self.horizontalScrollBar().rangeChanged.connect(self._no_sliver_scroll)
        self.msgs: dict[int, dict] = {}  # key -> {message_id, spans, ranges{tok: [a, b]}}
        self._next_key = 1
        self._live: int | None = None
        self._cursor: QtGui.QTextCursor | None = None
        self._md: MarkdownStream | None = None
        self._last_user_frame: QtGui.QTextFrame | None = None
        self._hover: tuple[int, int] = (-1, -1)
        self._highlight: tuple[int, int] = (-1, -1)
        self.tooltip_for = None  # callable(key, tok) -> str (set by the window)
        self.live_status = ""  # what the live answer is waiting for, before its first token
        self.model_note: tuple[str, ...] = ()  # under the welcome: of the model answering
        self.show_empty()

    def _no_sliver_scroll(self, _low: int, high: int) -> None:
        """No sideways scrolling for what ends in the document's margin: each token is a
        link of its own, Qt measures a line in those pieces, and its line breaking let some
        lines run up to a pixel past the wrap width (426.6 pixels of text in a 426 pixel
        line, QA pass 41): the answer's frame, and the document, grew that much past the
        chat, and a scrollbar came, that scrolled it a pixel.  All is still in view then;
        a long code line still scrolls."""
        if 0 < high < self.document().documentMargin():
            self.horizontalScrollBar().setRange(0, 0)

    def keyPressEvent(self, event: QtGui.QKeyEvent) -> None:  # noqa: N802 - Qt's name
        # Alt+Down / Alt+Up: the memories named under answers; Enter opens the chosen one
        if not chat_links.key(self, event, self._on_anchor_clicked):
            super().keyPressEvent(event)

    def focusNextPrevChild(self, next: bool) -> bool:  # noqa: A002, N802 - Qt's names
        """Tab leaves the chat: every answer is a link (its tokens), and Tab stopped at each
        one, a hundred presses to pass an imported chat (arrows and Page keys scroll it)."""
        return QtWidgets.QWidget.focusNextPrevChild(self, next)

    # ---- content --------------------------------------------------------------------
    def show_empty(self) -> None:
        self.clear()
        self.msgs.clear()
        self.entries: list[dict] = []  # every message shown: role, raw text, frame, key
        self._live = None
        show_html(self, empty_hint(self.model_note))
        self._empty = True
        self._passing: int | None = None

    def set_model_note(self, *note: str) -> None:
        """What the welcome of an empty chat says of the model answering, a line each
        (shown at once if the chat is empty)."""
        if note != self.model_note:
            self.model_note = note
            if getattr(self, "_empty", False):
                show_html(self, empty_hint(note))

    def _begin(self) -> None:
        if getattr(self, "_empty", False):
            self.clear()
            self._empty = False

    def _is_dark(self) -> bool:
        return self.palette().color(QtGui.QPalette.ColorRole.Base).lightness() < 128

    def changeEvent(self, e: QtCore.QEvent) -> None:  # noqa: N802 - Qt API
        super().changeEvent(e)
        if e.type() == QtCore.QEvent.Type.PaletteChange:
            self.restyle()
            self.paletteChanged.emit()

    def restyle(self) -> None:
        """Recolour every message bubble for the current palette (the live answer's too),
        or the welcome text."""
        if getattr(self, "_empty", False):
            show_html(self, empty_hint(self.model_note))
        for frame in self.document().rootFrame().childFrames():
            role = frame.frameFormat().property(QtGui.QTextFormat.Property.UserProperty)
            if role in ("user", "assistant"):
                frame.setFrameFormat(self._frame_format(role))

    def _muted(self) -> QtGui.QColor:
        """The grey of the small print (times, the lines under an answer): the palette's,
        readable on both bubbles in either scheme."""
        return self.palette().color(QtGui.QPalette.ColorRole.PlaceholderText)

    def _frame_format(self, role: str) -> QtGui.QTextFrameFormat:
        dark = self._is_dark()
        f = QtGui.QTextFrameFormat()
        f.setProperty(QtGui.QTextFormat.Property.UserProperty, role)
        f.setPadding(8)
        f.setBorder(0)
        f.setTopMargin(6)
        f.setBottomMargin(6)
        if role == "user":
            f.setBackground(QtGui.QColor("#2b3552" if dark else "#e9eefc"))
            f.setLeftMargin(60)
        else:
            f.setBackground(QtGui.QColor("#23262e" if dark else "#f6f7f9"))
            f.setRightMargin(30)
        return f

    def _header(self, cur: QtGui.QTextCursor, role: str, when: float | None,
                author: str | None = None) -> None:
        fmt = QtGui.QTextCharFormat()
        fmt.setFontWeight(QtGui.QFont.Weight.Bold)
        fmt.setForeground(self.palette().color(QtGui.QPalette.ColorRole.Link) if role == "assistant"
                          else self._muted())
        cur.insertText(author or ("HeLa" if role == "assistant" else "You"), fmt)
        if when:
            f2 = QtGui.QTextCharFormat()
            f2.setForeground(self._muted())
            f2.setFontPointSize(max(7.0, self.font().pointSizeF() * 0.85))
            today = format_when(when, "%Y-%j") == format_when(time.time(), "%Y-%j")
            fmt_ = "%H:%M" if today else "%d %b %Y %H:%M"  # older messages show their date
            cur.insertText("  " + format_when(when, fmt_), f2)
        cur.insertBlock()

    def _retime(self, frame: QtGui.QTextFrame, when: float) -> None:
        """The heading of the message in `frame` with the time `when` (a HeLa answer's)."""
        cur = frame.firstCursorPosition()
        cur.movePosition(QtGui.QTextCursor.MoveOperation.EndOfBlock,
                         QtGui.QTextCursor.MoveMode.KeepAnchor)
        cur.removeSelectedText()
        self._header(cur, "assistant", when)
        cur.deletePreviousChar()  # the heading's own line break: the block was there

    def add_user(self, text: str, when: float | None = None) -> None:
        self._begin()
        self._drop_passing(moved_on=True)
        cur = QtGui.QTextCursor(self.document())
        cur.movePosition(QtGui.QTextCursor.MoveOperation.End)
        frame = cur.insertFrame(self._frame_format("user"))
        c = frame.firstCursorPosition()
        self._header(c, "user", when or time.time())
        write_user_text(self, c, text, len(self.entries))  # (folded when long)
        self._last_user_frame = frame
        self.entries.append({"role": "user", "text": text, "frame": frame, "key": None})
        self._scroll_end(force=True)

    def begin_assistant(self, when: float | None = None, author: str | None = None) -> int:
        """Start a live answer (`author`: who wrote an imported one; HeLa when None);
        returns its message key."""
        self._begin()
        self._drop_passing()
        key = self._new_key()
        cur = QtGui.QTextCursor(self.document())
        cur.movePosition(QtGui.QTextCursor.MoveOperation.End)
        frame = cur.insertFrame(self._frame_format("assistant"))
        c = frame.firstCursorPosition()
        self._header(c, "assistant", when or time.time(), author)
        self._cursor = c
        self._md = MarkdownStream()
        self._live = key
        self._status: tuple[int, int] | None = None
        self.msgs[key]["frame"] = frame
        self.entries.append({"role": "assistant", "text": "", "frame": frame, "key": key})
        self._scroll_end(force=True)
        return key

    def set_live_status(self, text: str) -> None:
        """What happens before the first token ("Reading your message… 40 %"), shown muted
        where the answer will appear; the first token replaces it."""
        if self._live is None or self._cursor is None or self.msgs[self._live]["n_tokens"]:
            return
        self._clear_status()
        a = self._cursor.position()
        f = QtGui.QTextCharFormat()
        f.setForeground(self._muted())
        f.setFontItalic(True)
        self._cursor.insertText(text, f)
        self._status = (a, self._cursor.position())
        self._cursor.setPosition(a)
        self.live_status = text

    def _clear_status(self) -> None:
        st = getattr(self, "_status", None)
        if st is None or self._cursor is None:
            return
        c = QtGui.QTextCursor(self.document())
        c.setPosition(st[0])
        c.setPosition(st[1], QtGui.QTextCursor.MoveMode.KeepAnchor)
        c.removeSelectedText()
        self._cursor.setPosition(st[0])
        self._status = None
        self.live_status = ""

    def _remove_frame(self, frame) -> None:
        c = QtGui.QTextCursor(self.document())
        c.setPosition(max(0, frame.firstPosition() - 1))
        c.setPosition(frame.lastPosition() + 1, QtGui.QTextCursor.MoveMode.KeepAnchor)
        c.removeSelectedText()

    def discard_live(self, *, with_user: bool = False) -> None:
        """Remove the live answer that never began (and, with `with_user`, the message
        it answered): an empty answer is not kept."""
        key = self._live
        if key is None:
            return
        self._clear_status()
        frame = self.msgs.pop(key).get("frame")
        self._live, self._cursor, self._md = None, None, None
        self.entries = [e for e in self.entries if e["key"] != key]
        if frame is not None:
            self._remove_frame(frame)
        user = self._last_user_frame
        if with_user and user is not None:
            self._remove_frame(user)
            self._last_user_frame = None
            if self.entries and self.entries[-1]["role"] == "user":
                self.entries.pop()
        if not self.msgs and not self.document().toPlainText().strip():
            self.show_empty()

    def _new_key(self) -> int:
        key = self._next_key
        self._next_key += 1
        self.msgs[key] = {"message_id": None, "spans": [], "ranges": {}, "n_tokens": 0}
        return key

    def append_tokens(self, pieces: list[tuple[int, str]]) -> None:
        """Append (token index, text) pieces to the live answer."""
        if self._live is None or self._cursor is None or self._md is None:
            return
        at_end = self._at_end()
        self._clear_status()
        entry = self._entry_for(self._live)
        for idx, text in pieces:
            if entry is not None:
                entry["text"] += text
            self._write(self._live, self._md.feed(text, idx))
            self.msgs[self._live]["n_tokens"] = max(self.msgs[self._live]["n_tokens"], idx + 1)
        if at_end:
            self._scroll_end(force=True)

    def _char_format(self, key: int, style: Style, tok: int) -> QtGui.QTextCharFormat:
        f = QtGui.QTextCharFormat()
        f.setAnchor(True)
        f.setAnchorHref(f"t:{key}:{tok}")
        if style.bold or style.heading:
            f.setFontWeight(QtGui.QFont.Weight.Bold)
        if style.heading:
            f.setFontPointSize(self.font().pointSizeF() * (1.3 if style.heading == 1 else 1.15))
        if style.code or style.block:
            f.setFontFamilies(["monospace", "DejaVu Sans Mono", "Menlo", "Consolas"])
            f.setFontFixedPitch(True)
            f.setBackground(QtGui.QColor("#30343f" if self._is_dark() else "#eceef3"))
        return f

    def _entry_for(self, key: int | None) -> dict | None:
        return next((e for e in reversed(self.entries) if e["key"] == key), None)

    def _write(self, key: int, segments) -> None:
        ranges = self.msgs[key]["ranges"]
        blocks = self.msgs[key].setdefault("blocks", [])  # [start, end, language] of code blocks
        cursor = self._cursor
        assert cursor is not None, "text is written only into a live answer"
        for text, style, tok in segments:
            a = cursor.position()
            cursor.insertText(text, self._char_format(key, style, tok))
            b = cursor.position()
            if style.block:
                if blocks and blocks[-1][1] == a:
                    blocks[-1][1] = b
                else:
                    blocks.append([a, b, style.lang])
            r = ranges.get(tok)
            if r is None:
                ranges[tok] = [a, b]
            else:
                r[0], r[1] = min(r[0], a), max(r[1], b)

    def finish_assistant(self, message_id: int | None, spans, footer: str = "",
                         sources: Sources = NO_SOURCES, when: float = 0.0) -> None:
        """The live answer is complete: flush held markers, add the footer lines; `when`:
        the time it was stored, shown in its heading from now on (QA pass 21: "11:02"
        while it was written, "11:03" once the chat was drawn again)."""
        if self._live is None:
            return
        key = self._live
        if when:
            self._retime(self.msgs[key]["frame"], when)
        at_end = self._at_end()  # following the answer: the lines under it come into view
        self._clear_status()
        if self._md is not None:
            self._write(key, self._md.flush())
        m = self.msgs[key]
        m["message_id"] = message_id
        m["spans"] = [tuple(s) for s in spans]
        if footer or sources.lines():
            self._footer(footer, sources)
        self._live, self._cursor, self._md = None, None, None
        self._highlight_code(key)
        if at_end:
            doc = self.document()  # laid out to the end now, so that the maximum is final
            doc.documentLayout().blockBoundingRect(doc.lastBlock())
            self._scroll_end(force=True)

    def _footer(self, text: str, sources: Sources = NO_SOURCES) -> None:
        """The small lines under an answer: its statistics, then the memories it drew on
        (`sources.answer_sources`), each a link to the memory in the graph, or, for a
        question about the user's life that nothing was recalled for, a plain warning that
        the answer is not from their memories."""
        f = QtGui.QTextCharFormat()
        f.setForeground(self._muted())
        f.setFontPointSize(max(7.0, self.font().pointSizeF() * 0.85))
        cur = self._cursor
        assert cur is not None, "a footer closes a live answer"
        # (how a name was read, the correction taken: plain news, no warning)
        for line in (text, sources.read_as, sources.noted):
            if line:
                cur.insertBlock()
                cur.insertText(line, f)
        shown, more, unrecalled = sources.shown, sources.more, sources.unrecalled
        for note in (NOT_FROM_MEMORIES if unrecalled else "", sources.doubt):
            if note:  # the signs that an answer about the user's life is made up or old
                warn = QtGui.QTextCharFormat(f)
                warn.setForeground(self.palette().color(QtGui.QPalette.ColorRole.Text))
                cur.insertBlock()
                cur.insertText(note, warn)
        if not shown:
            return
        cur.insertBlock()
        link = QtGui.QTextCharFormat(f)
        link.setForeground(self.palette().color(QtGui.QPalette.ColorRole.Link))
        link.setAnchor(True)
        for g, (head, group) in enumerate(source_groups(sources)):
            cur.insertText(f"{' — ' if g else ''}{head}: ", f)
            for i, (eid, label, whole) in enumerate(group):
                if i:
                    cur.insertText(" · ", f)
                link.setAnchorHref(f"m:{eid}:{self._live}")  # (the answer it was named under)
                link.setToolTip(tip(f"#{eid} · {whole}", "(click: show it in the graph)"))
                cur.insertText(f"“{label}”", link)
                if eid in sources.older:  # the old value, not the current one
                    cur.insertText(sources.older_label(eid), f)
        if more:  # a link: the timeline may be showing another answer (QA pass 41e)
            cur.insertText(" · ", f)
            link.setAnchorHref(f"{ANSWER}{self._live}")
            link.setToolTip(tip("The memories left out here are rows of this answer's "
                                "timeline", "(click: show its timeline)"))
            cur.insertText(f"and {more} more (in this answer's timeline)", link)

    def add_assistant(self, text: str, message_id: int | None, spans, *, when: float | None = None,
                      offsets: list[tuple[int, int]] | None = None, footer: str = "",
                      sources: Sources = NO_SOURCES, author: str | None = None) -> int:
        """A stored answer; `offsets` are its tokens' character spans (approximated if None)."""
        key = self.begin_assistant(when, author)
        n_tok = max((int(s[1]) for s in spans), default=0)
        pieces: list[tuple[str, int]] = []
        if offsets:
            pos = 0
            for i, (a, b) in enumerate(offsets):
                if a > pos:
                    pieces.append((text[pos:a], max(0, i - 1)))
                pieces.append((text[a:b], i))
                pos = max(pos, b)
            if pos < len(text):
                pieces.append((text[pos:], max(0, len(offsets) - 1)))
        elif n_tok > 0 and text:
            per = len(text) / n_tok  # no tokenizer yet: spread tokens evenly over the text
            for i in range(n_tok):
                pieces.append((text[int(i * per):int((i + 1) * per)], i))
        else:
            pieces = [(text, 0)]
        self._write(key, format_all(pieces))
        self.msgs[key]["n_tokens"] = n_tok
        self.msgs[key]["message_id"] = message_id
        self.msgs[key]["spans"] = [tuple(s) for s in spans]
        self.msgs[key]["approximate"] = offsets is None
        entry = self._entry_for(key)
        if entry is not None:
            entry["text"] = text
        if footer or sources.lines():
            self._footer(footer, sources)
        self._live, self._cursor, self._md = None, None, None
        self._highlight_code(key)
        return key

    # ---- code blocks, copying, actions on a message ----------------------------------
    def _highlight_code(self, key: int) -> None:
        """Syntax colours over the answer's code blocks (token anchors are kept); a block
        longer than `HIGHLIGHT_MAX` characters stays plain (an imported artifact may be
        megabytes of code: colouring 1.9 MB of Python held the window for minutes)."""
        from .highlight import code_spans

        dark = self._is_dark()
        for a, b, lang in self.msgs.get(key, {}).get("blocks", []):
            if b - a > HIGHLIGHT_MAX:
                continue
            code = self._text_between(a, b)
            for s0, s1, colour, bold in code_spans(code, lang, dark=dark):
                c = QtGui.QTextCursor(self.document())
                c.setPosition(a + s0)
                c.setPosition(a + s1, QtGui.QTextCursor.MoveMode.KeepAnchor)
                f = QtGui.QTextCharFormat()
                f.setForeground(QtGui.QColor(colour))
                if bold:
                    f.setFontWeight(QtGui.QFont.Weight.Bold)
                c.mergeCharFormat(f)

    def _text_between(self, a: int, b: int) -> str:
        c = QtGui.QTextCursor(self.document())
        c.setPosition(a)
        c.setPosition(b, QtGui.QTextCursor.MoveMode.KeepAnchor)
        return c.selectedText().replace("\u2029", "\n")

    def entry_at(self, pos: int) -> int | None:
        """Index in `entries` of the message containing document position `pos`."""
        for i, e in enumerate(self.entries):
            f = e["frame"]
            if f.firstPosition() <= pos <= f.lastPosition():
                return i
        return None

    def code_block_at(self, pos: int) -> tuple[str, str] | None:
        """(code, language) of the code block at document position `pos`, if any."""
        for m in self.msgs.values():
            for a, b, lang in m.get("blocks", []):
                if a <= pos < b:
                    return self._text_between(a, b).rstrip("\n"), lang
        return None

    def copy_message(self, index: int) -> None:
        """The message's text as written (Markdown for answers) to the clipboard."""
        QtGui.QGuiApplication.clipboard().setText(self.entries[index]["text"])

    def copy_code(self, code: str, lang: str = "") -> None:
        """A code block: plain text, and coloured HTML for editors that take it."""
        from .highlight import code_html

        data = QtCore.QMimeData()
        data.setText(code)
        data.setHtml(code_html(code, lang, dark=False))
        QtGui.QGuiApplication.clipboard().setMimeData(data)
        self._put_mime = True

    def release_clipboard(self) -> None:
        """Before the window goes: keep what we copied as plain text, so no QMimeData of
        ours outlives the application (PySide6 crashes at exit otherwise, offscreen)."""
        cb = QtGui.QGuiApplication.clipboard()
        if getattr(self, "_put_mime", False):
            cb.setText(cb.text())
        self._put_mime = False

    def user_ordinal(self, index: int) -> int:
        return sum(1 for e in self.entries[:index] if e["role"] == "user")

    def contextMenuEvent(self, e: QtGui.QContextMenuEvent) -> None:  # noqa: N802
        pos = self.cursorForPosition(e.pos()).position()
        menu = self.context_menu(pos)
        menu.exec(e.globalPos())

    def context_menu(self, pos: int) -> QtWidgets.QMenu:
        """Copy, Copy message, Copy code, Edit and resend, Regenerate — for what is at `pos`."""
        menu = QtWidgets.QMenu(self)
        if self.textCursor().hasSelection():
            menu.addAction("Copy", self.copy)
        i = self.entry_at(pos)
        busy = self._live is not None
        if i is not None:
            entry = self.entries[i]
            menu.addAction("Copy message", lambda: self.copy_message(i))
            block = self.code_block_at(pos)
            if block is not None:
                menu.addAction("Copy code block", lambda: self.copy_code(*block))
            if entry["role"] == "user" and not busy:
                n = self.user_ordinal(i)
                menu.addAction("Edit and resend…", lambda: self.editRequested.emit(n, entry["text"]))
            if i == len(self.entries) - 1 and not busy:  # the last message of the chat
                menu.addAction("Regenerate answer", self.regenerateRequested.emit)
        menu.addSeparator()
        menu.addAction("Select all", self.selectAll)
        return menu

    def add_notice(self, text: str, passing: bool = False, quiet: bool = False,
                   after: str = "") -> None:
        """A one-line notice (errors, 'stopped'; `quiet`: news, not a fault, in the muted
        colour). `passing`: it is about the last message only ("press Ctrl+R to answer
        it"), so it goes when the chat moves on: to `after`, said quietly in its place, when
        another message of yours follows (the message stays unanswered; an answer to it,
        Ctrl+R, takes the notice away with nothing in its place)."""
        self._begin()
        cur = QtGui.QTextCursor(self.document())
        cur.movePosition(QtGui.QTextCursor.MoveOperation.End)
        start = cur.position()
        f = QtGui.QTextCharFormat()
        f.setForeground(self.palette().color(QtGui.QPalette.ColorRole.PlaceholderText)
                        if quiet else warning_color(self.palette()))
        cur.insertBlock()
        cur.insertText(text, f)
        self._passing = start if passing else None
        self._after = after if passing else ""
        self._scroll_end(force=True)

    def _drop_passing(self, moved_on: bool = False) -> None:
        """A new message or answer: a passing notice at the end of the chat goes (`moved_on`:
        a message of yours followed, and its `after` line takes its place)."""
        start, self._passing = getattr(self, "_passing", None), None
        after, self._after = getattr(self, "_after", ""), ""
        if start is not None:
            cur = QtGui.QTextCursor(self.document())
            cur.setPosition(start)
            cur.movePosition(QtGui.QTextCursor.MoveOperation.End, QtGui.QTextCursor.MoveMode.KeepAnchor)
            cur.removeSelectedText()
            if moved_on and after:
                self.add_notice(after, quiet=True)

    def key_for_message(self, message_id: int) -> int | None:
        for k, m in self.msgs.items():
            if m["message_id"] == message_id:
                return k
        return None

    def live_key(self) -> int | None:
        return self._live

    def end_failed_live(self) -> None:
        """A turn that failed: its answer stays as far as it came; one that never began (a
        model server that was down) is not left behind as an empty "HeLa" bubble."""
        if self._live is not None and not self.msgs[self._live]["n_tokens"]:
            self.discard_live()
        else:
            self.finish_assistant(None, [], "")

    # ---- hover and highlight ----------------------------------------------------------
    def _token_at(self, pos: QtCore.QPoint) -> tuple[int, int]:
        href = self.anchorAt(pos)
        if href.startswith("t:"):
            try:
                _, k, t = href.split(":")
                return int(k), int(t)
            except ValueError:
                pass
        return (-1, -1)

    def mouseMoveEvent(self, e: QtGui.QMouseEvent) -> None:  # noqa: N802
        super().mouseMoveEvent(e)
        hit = self._token_at(e.position().toPoint())
        if hit != self._hover:
            self._hover = hit
            self.highlight_token(*hit)
            self.tokenHovered.emit(*hit)
            if hit[0] >= 0 and self.tooltip_for is not None:
                tip = self.tooltip_for(*hit)
                QtWidgets.QToolTip.showText(e.globalPosition().toPoint(), tip, self.viewport())
            else:
                QtWidgets.QToolTip.hideText()
        on_link = hit[0] >= 0 or self.anchorAt(e.position().toPoint()).startswith(("m:", ANSWER))
        self.viewport().setCursor(QtCore.Qt.CursorShape.PointingHandCursor if on_link
                                  else QtCore.Qt.CursorShape.IBeamCursor)

    def leaveEvent(self, e) -> None:  # noqa: N802
        super().leaveEvent(e)
        if self._hover != (-1, -1):
            self._hover = (-1, -1)
            self.highlight_token(-1, -1)
            self.tokenHovered.emit(-1, -1)

    def _on_anchor_clicked(self, url: QtCore.QUrl) -> None:
        s = url.toString()
        eid, _, key = s[2:].partition(":")
        if s.startswith("m:") and eid.isdigit():
            if key.isdigit():
                self.answerChosen.emit(int(key))
                mid = (self.msgs.get(int(key)) or {}).get("message_id")
                self.sourceClicked.emit(int(eid), mid)
            self.memoryClicked.emit(int(eid))
        elif s.startswith(ANSWER) and s[len(ANSWER):].isdigit():
            self.answerChosen.emit(int(s[len(ANSWER):]))
        elif s[:2] in (LINK, LESS) and s[2:].isdigit():
            (unfold if s.startswith(LINK) else fold)(self, int(s[2:]))
        elif s.startswith("t:"):
            try:
                _, k, t = s.split(":")
                self.tokenClicked.emit(int(k), int(t))
            except ValueError:
                pass

    def highlight_token(self, key: int, tok: int, *, ensure_visible: bool = False) -> None:
        """Mark one token (from a hover here or in the timeline)."""
        self._highlight = (key, tok)
        sels = []
        m = self.msgs.get(key)
        r = m["ranges"].get(tok) if m else None
        if r is not None and r[1] > r[0]:
            sel = QtWidgets.QTextEdit.ExtraSelection()
            c = QtGui.QTextCursor(self.document())
            c.setPosition(r[0])
            c.setPosition(r[1], QtGui.QTextCursor.MoveMode.KeepAnchor)
            sel.cursor = c
            fmt = QtGui.QTextCharFormat()
            fmt.setBackground(QtGui.QColor(255, 200, 60, 170))
            sel.format = fmt
            sels.append(sel)
            if ensure_visible:
                self.setTextCursor(QtGui.QTextCursor(c))
                self.ensureCursorVisible()
        self.setExtraSelections(sels)

    def keep_place(self, render) -> None:
        """Call `render` (which draws the chat again) and keep the reader's place: at the
        end stays at the end, elsewhere the same share of the way down (zoomed text is
        taller, so the same pixel offset would be an earlier message)."""
        place = self.place()
        render()
        self.go_to_place(place)

    def place(self) -> float | None:
        """How far down the reader is, as a share of the way (None: at the end)."""
        sb = self.verticalScrollBar()
        return None if self._at_end() else sb.value() / max(1, sb.maximum())

    def go_to_place(self, place: float | None) -> None:
        """Scroll to a `place()` (None: the end); a resize still pending does not then take
        the reader to the end."""
        doc = self.document()  # laid out to the end now (it would be, lazily, later)
        doc.documentLayout().blockBoundingRect(doc.lastBlock())
        sb = self.verticalScrollBar()
        sb.setValue(sb.maximum() if place is None else round(min(max(place, 0.0), 1.0) * sb.maximum()))
        self._placed += 1

    def _at_end(self) -> bool:
        sb = self.verticalScrollBar()
        return sb.value() >= sb.maximum() - 40

    def resizeEvent(self, e) -> None:  # noqa: N802 (Qt's name)
        """A narrower or wider chat wraps its lines again: one read at its end stays at
        its end (it was left part-way up, the newest message out of view)."""
        at_end, placed = self._at_end(), self._placed
        super().resizeEvent(e)
        if at_end and e.oldSize().width() != e.size().width():
            QtCore.QTimer.singleShot(0, lambda: self._scroll_end(force=placed == self._placed))

    def show_found(self, word: str) -> bool:
        """Select the last place `word` is said (case aside) and scroll to it: a chat opened
        from the chat list's search shows where it holds the words.  False: not here."""
        return find_last(self, word)

    def _scroll_end(self, force: bool = False) -> None:
        sb = self.verticalScrollBar()
        if force or self._at_end():
            sb.setValue(sb.maximum())
