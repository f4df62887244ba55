"""A long message of the user's, folded in the chat: its beginning and a link that shows
the rest (QA pass 28: a 15,000-character paste filled screens of the chat, the answer to
it far below).  The message stays whole everywhere else: Copy message, Edit and resend,
the memory, the model's prompt."""

from __future__ import annotations

from PySide6 import QtGui

FOLD_CHARS = 3000  # a message longer than this is folded …
FOLD_LINES = 40  # … or one of more lines than this
SHOWN_CHARS = 1200  # about what is shown of it: a screenful at the chat's width
SHOWN_LINES = 16
LINK = "u:"  # the link's address: "u:<index in the view's entries>"
LESS = "f:"  # the unfolded message's link that folds it again: "f:<index>"


def fold_point(text: str) -> int | None:
    """Where a long message's shown part ends (at a line's or word's end, near
    `SHOWN_CHARS` characters or `SHOWN_LINES` lines); None: shown whole."""
    if len(text) <= FOLD_CHARS and text.count("\n") < FOLD_LINES:
        return None
    end = SHOWN_CHARS
    lines = 0
    for i, ch in enumerate(text[:SHOWN_CHARS]):
        lines += ch == "\n"
        if lines >= SHOWN_LINES:
            end = i
            break
    cut = max(text.rfind("\n", 0, end), text.rfind(" ", 0, end))
    return cut if cut > end // 2 else end


def write_user_text(view, cur: QtGui.QTextCursor, text: str, index: int,
                    whole: bool = False) -> None:
    """The user's message at `cur`, folded when long: its beginning, then "… Show all
    (N characters)", a link that unfolds it (`unfold`); `whole`: a long one unfolded, then
    "· Show less", a link that folds it again (`fold`)."""
    at = fold_point(text)
    cur.insertText(text if at is None or whole else text[:at].rstrip(), QtGui.QTextCharFormat())
    if at is None:
        return
    link = QtGui.QTextCharFormat()
    link.setForeground(view.palette().color(QtGui.QPalette.ColorRole.Link))
    link.setAnchor(True)
    if whole:
        link.setAnchorHref(f"{LESS}{index}")
        link.setToolTip("Show only the beginning of this message again")
        cur.insertText(" · ", QtGui.QTextCharFormat())
        cur.insertText("Show less", link)
        return
    link.setAnchorHref(f"{LINK}{index}")
    link.setToolTip("Show the whole message here (Copy message copies it whole)")
    cur.insertText(" … ", QtGui.QTextCharFormat())
    cur.insertText(f"Show all ({len(text):,} characters)", link)


def unfold(view, index: int, whole: bool = True) -> bool:
    """Show the whole of the folded message `index` of `view.entries` (`whole` False: fold
    the unfolded one again); False when it is not one (or already so)."""
    if not 0 <= index < len(view.entries):
        return False
    entry = view.entries[index]
    if entry["role"] != "user" or bool(entry.get("unfolded")) == whole \
            or fold_point(entry["text"]) is None:
        return False
    frame = entry["frame"]
    body = frame.firstCursorPosition()
    body.movePosition(QtGui.QTextCursor.MoveOperation.NextBlock)  # (past the header)
    body.setPosition(frame.lastPosition(), QtGui.QTextCursor.MoveMode.KeepAnchor)
    body.removeSelectedText()
    write_user_text(view, body, entry["text"], index, whole)
    entry["unfolded"] = whole
    return True


def fold(view, index: int) -> bool:
    """Show only the beginning of the unfolded message `index` again (`unfold`)."""
    return unfold(view, index, whole=False)


def unfold_saying(view, word: str) -> bool:
    """Unfold every folded message of the user's whose hidden part says `word` (case
    aside), so that a search in the chat can show it; True if one was."""
    w = word.casefold()
    return any([unfold(view, i) for i, e in enumerate(view.entries)
                if e["role"] == "user" and w in e["text"].casefold()])


def find_last(view, word: str) -> bool:
    """Select the last place `word` is said in `view` (case aside) and scroll to it, a
    folded message unfolded first when only its hidden part says it; False: not here."""
    back = QtGui.QTextDocument.FindFlag.FindBackward
    cur = view.textCursor()
    cur.movePosition(QtGui.QTextCursor.MoveOperation.End)
    view.setTextCursor(cur)
    found = view.find(word, back) or (unfold_saying(view, word) and view.find(word, back))
    if found:
        view.ensureCursorVisible()
    return bool(found)
