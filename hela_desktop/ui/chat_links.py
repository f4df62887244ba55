"""The memories named under answers, reached with the keyboard: Alt+Down and Alt+Up move
to the next or previous one in the chat (chosen, and scrolled into view), Enter opens it
as a click does, in the graph with why it was recalled (QA pass 34: a keyboard user had
no way to reach them; Tab passes the chat in one press, README "Keyboard")."""

from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets

MEMORY = "m:"  # a memory link's address: "m:<episode id>:<answer's key>"
ANSWER = "a:"  # "and 2 more (in this answer's timeline)": "a:<answer's key>"


def memory_links(view: QtWidgets.QTextBrowser) -> list[tuple[int, int, str]]:
    """The memory links of `view`'s document, in order: (start, end, address)."""
    out: list[tuple[int, int, str]] = []
    block = view.document().begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            frag = it.fragment()
            href = frag.charFormat().anchorHref() if frag.isValid() else ""
            if href.startswith((MEMORY, ANSWER)):  # (the answer's timeline too)
                start, end = frag.position(), frag.position() + frag.length()
                if out and out[-1][2] == href and out[-1][1] == start:  # (one link, split)
                    out[-1] = (out[-1][0], end, href)
                else:
                    out.append((start, end, href))
            it += 1
        block = block.next()
    return out


def step(view: QtWidgets.QTextBrowser, forward: bool) -> bool:
    """Choose the next (or previous) memory link after (before) the chosen text; with
    none chosen, one of the latest line of links in view (`_latest_in_view`; QA pass 36:
    Alt+Down began at the chat's first answer, far above the one just read).
    The whole link is scrolled into view, not only its end.  False when there is none
    that way."""
    links = memory_links(view)
    cur = view.textCursor()
    if not cur.hasSelection():
        nxt = _latest_in_view(view, links, forward)
    elif forward:
        nxt = next((lk for lk in links if lk[0] >= cur.selectionEnd()), None)
    else:
        nxt = next((lk for lk in reversed(links) if lk[1] <= cur.selectionStart()), None)
    if nxt is None:
        return False
    c = QtGui.QTextCursor(view.document())
    c.setPosition(nxt[0])
    c.setPosition(nxt[1], QtGui.QTextCursor.MoveMode.KeepAnchor)
    view.setTextCursor(c)
    view.ensureCursorVisible()  # (its end)
    start = QtGui.QTextCursor(view.document())
    start.setPosition(nxt[0])
    top = view.cursorRect(start).top()
    if top < 0:  # (its beginning above the view: down to it, as far as the end allows)
        bar = view.verticalScrollBar()
        bar.setValue(bar.value() + top - 4)
    return True


def _latest_in_view(view: QtWidgets.QTextBrowser, links: list, forward: bool):
    """With none chosen: the last line of links in view (the latest answer's, as the chat
    stands), its first link going down, its last going up; the chat's last line of links
    when none is in view."""
    bottom = view.cursorForPosition(view.viewport().rect().bottomRight()).position()
    seen = [lk for lk in links if lk[0] <= bottom] or links
    if not seen:
        return None
    block = view.document().findBlock(seen[-1][0]).blockNumber()
    line = [lk for lk in seen if view.document().findBlock(lk[0]).blockNumber() == block]
    return line[0] if forward else line[-1]


def chosen(view: QtWidgets.QTextBrowser) -> str:
    """The address of the memory link the chosen text is (as `step` chose it), or ""."""
    cur = view.textCursor()
    return next((href for start, end, href in memory_links(view)
                 if cur.hasSelection() and (start, end) == (cur.selectionStart(),
                                                            cur.selectionEnd())), "")


def key(view: QtWidgets.QTextBrowser, event: QtGui.QKeyEvent, open_link) -> bool:
    """Handle Alt+Down / Alt+Up (step) and Enter on a chosen memory link (`open_link`,
    with its address as a URL); True when the key was taken."""
    alt = event.modifiers() & QtCore.Qt.KeyboardModifier.AltModifier
    if alt and event.key() in (QtCore.Qt.Key.Key_Down, QtCore.Qt.Key.Key_Up):
        step(view, event.key() == QtCore.Qt.Key.Key_Down)
        return True
    if event.key() in (QtCore.Qt.Key.Key_Return, QtCore.Qt.Key.Key_Enter):
        href = chosen(view)
        if href:
            open_link(QtCore.QUrl(href))
            return True
    return False
