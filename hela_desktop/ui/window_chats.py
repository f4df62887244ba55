"""The main window's chats: the chat list (new, open, reopen the last one, delete), the
open chat drawn from the session (with its answers' token offsets), and taking messages
back (regenerate, edit and resend).

`WindowChats` is the part of `MainWindow` that does this (kept apart to keep each file to
one concern); `MainWindow` derives from it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from PySide6 import QtCore, QtGui

from ..config import Settings
from ..events import ConversationEvent
from ..importers.base import author_of
from ..paths import private_data_dir, write_private_text
from ..session import failed_note, unanswered_line
from ..words import sentence
from . import chat_edit
from . import window_status as ws
from .chat_list import ConversationList
from .undo_history import forget_undone
from .window_base import WindowBase

log = logging.getLogger(__name__)
DRAFT_FILE = "draft.txt"  # in the data folder: the message left unsent at the last close


class WindowChats(WindowBase):
    """The chat list and the open chat of the main window."""

    # the window's state these methods use (set by MainWindow)
    conversations: ConversationList
    settings: Settings
    _recalls: dict[int, dict]
    _offsets: dict[int, list]
    _resend: tuple[int | None, str, float] | None
    _after_answer: Callable[[], None] | None
    _drafts: dict[int | None, str]  # each chat's unsent message (None: a new chat)
    _place_for: tuple[int, float | None] | None  # the chat reopened at a start, and where
    _draft_for: int | None  # the chat being opened from the list, whose draft comes back
    _pending: list
    _sent_text: str
    _set_streaming: Callable[[bool], None]
    _rerender_timer: QtCore.QTimer

    # ---- chats ------------------------------------------------------------------------
    def new_chat(self) -> None:
        """Start a new conversation (Ctrl+N).  While an answer is being written it is
        stopped first (what it wrote is kept), and the new chat opens once it has ended:
        before, Ctrl+N did nothing then, without a word."""
        if self.is_streaming():
            self._after_answer = self.new_chat
            self.stop()  # (an answer not begun yet: at once, the message back in the box)
            if self.is_streaming():
                self.statusBar().showMessage("Stopping the answer (what it wrote is kept), "
                                             "then a new chat…", 5000)
            return
        self._keep_draft()
        self.session.new_chat()
        # a new chat has no memory of its own chosen: whatever is, goes (QA pass 33: after a
        # dialog the pane went on explaining memory #5 in the new chat)
        if self.graph.selected is not None or self.graph.explained_id() is not None:
            self.graph.select(None)
        self._chat_changed(None)
        self._remember_chat(None)
        self._take_draft(None)
        self.conversations.clear_current()
        self.chat.view.show_empty()
        self.chat.set_title("New chat")
        self.timeline.clear()
        self.chat.input.setFocus()

    def _chat_changed(self, cid: int | None) -> None:
        """Chat `cid` is open now: a memory chosen in the graph for another chat is let go
        (the details pane went on explaining a memory, with "Why it was last recalled"
        from another chat's answer, through Ctrl+N and a switch: QA pass 28b)."""
        if getattr(self, "_chat_shown", cid) != cid and (self.graph.selected is not None
                                                         or self.graph.explained_id() is not None):
            self.graph.select(None)
        self._chat_shown = cid

    def refresh_conversations(self) -> None:
        """Show the chats the session holds (they come from the assistant thread)."""
        self.conversations.set_conversations(self.session.conversations, self.current_conv)
        if self.current_conv is not None:
            self.chat.set_title(self.session.title)

    def open_conversation(self, cid: int) -> None:
        """Show chat `cid` once the assistant thread has read it."""
        self.run_op("conversation", int(cid))

    def _on_conversation_selected(self, cid: int) -> None:
        if cid < 0 or self.is_streaming() or cid == self.current_conv:
            return
        self._keep_draft()
        self._draft_for = int(cid)  # its own draft comes back once it is open
        self.open_conversation(cid)

    # ---- each chat its own unsent message (while the app runs) --------------------------
    def _keep_draft(self) -> None:
        """The open chat's unsent message is kept for it when another chat is opened: the
        box was one for all chats, and a half-typed message followed the user."""
        text = self.chat.input.toPlainText()
        if text.strip():
            self._drafts[self.current_conv] = text
        else:
            self._drafts.pop(self.current_conv, None)

    def _take_draft(self, cid: int | None) -> None:
        """Chat `cid` is open now: the box holds what was left unsent in it."""
        self.chat.input.setPlainText(self._drafts.pop(cid, ""))
        self.chat.input.moveCursor(QtGui.QTextCursor.MoveOperation.End)

    def _on_conversation(self, ev: ConversationEvent | None) -> None:
        if ev is None or ev.reason == "turn":
            return  # a new chat (shown already), an answer (shown as it streamed)
        if ev.reason == "missing":
            return
        if ev.reason == "open" and not self.is_streaming():
            self._chat_changed(ev.conversation_id)
            self._remember_chat(ev.conversation_id)
            self.refresh_conversations()
            self.render_conversation()
            if self._draft_for == ev.conversation_id:
                self._draft_for = None
                self._take_draft(ev.conversation_id)
            words = self.conversations.filter.text().split()
            cid, place = self._place_for or (None, None)
            self._place_for = None
            if words:  # opened from the chat search: where it says so
                self.chat.view.show_found(max(words, key=len))
            elif cid == ev.conversation_id and place is not None:  # at a start: where it
                self.chat.view.go_to_place(place)  # was read down to
        elif ev.reason == "refresh" and ev.conversation_id == self.current_conv:
            self.rerender_conversation()  # (in the same place)
        elif ev.reason == "rewind":
            conv, text, said_at = self._resend or (None, "", 0.0)
            self._resend = None
            if conv == ev.conversation_id == self.current_conv and text:
                self.render_conversation()
                self.send(text, said_at)

    def _folder_key(self, what: str) -> str:
        """A QSettings key of this data folder's (the last chat, the unsent message)."""
        return what + "/" + str(self.data_dir.resolve()).replace("/", "|").replace("\\", "|")

    def _last_chat_key(self) -> str:
        return self._folder_key("last_chat")

    def _remember_chat(self, cid: int | None) -> None:
        """The chat open now, for the next start: written only when it changes (writing the
        settings file is a disk write on the GUI thread; after every answer it held the
        window up to 200 ms on a busy disk, for the same chat each time)."""
        key, value = self._last_chat_key(), -1 if cid is None else int(cid)
        if getattr(self, "_remembered", None) != (key, value):
            QtCore.QSettings().setValue(key, value)
            self._remembered = (key, value)

    def _reopen_last_chat(self) -> None:
        """The chat open when the app last closed (per data folder), if it still exists,
        and the message left unsent in the box then."""
        cid = int(str(QtCore.QSettings().value(self._last_chat_key(), -1) or -1))
        if cid >= 0:
            self._place_for = (cid, self._saved_place(cid))
            self.open_conversation(cid)
        self._restore_draft()

    def _remember_place(self) -> None:
        """On closing: how far down the open chat was read, for the next start (QA pass 22:
        a restart opened the chat at its end, not where the user had scrolled to)."""
        place = self.chat.view.place() if self.current_conv is not None else None
        QtCore.QSettings().setValue(self._folder_key("chat_place"),
                                    "" if place is None else f"{self.current_conv}:{place:.5f}")

    def _saved_place(self, cid: int) -> float | None:
        """Where chat `cid` was read down to at the last close (None: at its end)."""
        cid_s, _, share = str(QtCore.QSettings().value(self._folder_key("chat_place"), "") or "").partition(":")
        try:
            return float(share) if cid_s == str(cid) and 0.0 <= float(share) <= 1.0 else None
        except ValueError:
            return None

    def _remember_draft(self) -> None:
        """On closing: a message typed and not sent is kept for the next start, in the data
        folder (`DRAFT_FILE`, owner-only like everything there; not in the memory file);
        closing lost it.  0.6.0 kept it in Qt's settings file, which others may read: a
        draft found there is taken out."""
        QtCore.QSettings().remove(self._folder_key("draft"))
        text = self.chat.input.toPlainText()
        try:
            if text.strip():  # (the folder is made, owner-only, if nothing made it yet)
                write_private_text(private_data_dir(self.data_dir) / DRAFT_FILE, text)
            else:
                (self.data_dir / DRAFT_FILE).unlink(missing_ok=True)
        except OSError as exc:  # a folder gone or read-only: the box's text is all there is
            log.warning("the unsent message was not kept: %s", exc)

    def _restore_draft(self) -> None:
        """The message left unsent at the last close, back in an empty box (once: it is
        then the box's, and kept again only if it is still unsent at the next close).  Not
        once closing has begun: the chat list, loaded meanwhile, would take back (and
        delete) the message just kept."""
        if getattr(self, "_closing", False):
            return
        qs, key = QtCore.QSettings(), self._folder_key("draft")
        text = str(qs.value(key, "") or "")  # where 0.6.0 kept it
        qs.remove(key)
        path = self.data_dir / DRAFT_FILE
        try:
            text = path.read_text(encoding="utf-8") or text
            path.unlink()
        except FileNotFoundError:
            pass
        except (OSError, UnicodeError) as exc:
            log.warning("the unsent message could not be read: %s", exc)
        if text and not self.chat.input.toPlainText():
            self.chat.input.setPlainText(text)
            self.chat.input.moveCursor(QtGui.QTextCursor.MoveOperation.End)

    def _delete_conversation(self, cid: int, memories: bool = False) -> None:
        """Delete a chat (`memories`: and the memories formed in it, restorable)."""
        self.run_op("delete_conv_memories" if memories else "delete_conv", cid)
        if cid != self.current_conv:
            return
        # the open chat went: its neighbour in the list opens (the one below, else the one
        # above), as in a mail client; a new chat only when none is left (QA pass 23: a new
        # chat opened and the user had to find their place again)
        shown = [int(c["id"]) for c in self.conversations.shown()]
        at = shown.index(cid) if cid in shown else -1
        rest = shown[at + 1:] + shown[:at][::-1] if at >= 0 else []
        if rest:
            self.conversations.select(rest[0])
        else:
            self.new_chat()
        self._drafts.pop(cid, None)  # (its unsent words went with it)

    # ---- taking messages back -----------------------------------------------------------
    def regenerate(self) -> None:
        """Answer the chat's last message again; the old answer (and its memory) goes."""
        m = self.session.last_user_message()
        if m is None or self.is_streaming():
            return
        if self.session.last_answer_was_the_apps():  # asked again, it finds nothing left
            self.statusBar().showMessage(
                "That answer was HeLa Desktop's own (a request to forget): there is nothing "
                "to answer again.", 6000)
            return
        # the same words: they keep their time (and the memory they form is dated by it,
        # not made news over what was said since in other chats)
        self.resend_from(m["id"], m["content"], float(m.get("created_at") or 0.0))

    def _ask_edit_and_resend(self, n: int, text: str) -> None:
        chat_edit.ask_edit_and_resend(self, n, text)  # says what resending takes back

    def edit_and_resend(self, n: int, text: str) -> None:
        """Replace the chat's n-th message (0-based) by `text`: it and everything after it
        are taken back, then `text` is sent."""
        if self.current_conv is None or self.is_streaming():
            return
        users = self.session.user_messages()
        if 0 <= n < len(users):
            self.resend_from(users[n]["id"], text)

    def resend_from(self, message_id: int, text: str, said_at: float = 0.0) -> None:
        """Take back the message `message_id` and all after it, then send `text` (`said_at`:
        at that message's time; 0: now, an edited message being new words)."""
        self._resend = (self.current_conv, text, said_at)
        self.run_op("rewind", (self.current_conv, message_id, text))

    def resend_refused(self, msg: str) -> None:
        """The model would refuse the message Regenerate or Edit and resend was to send:
        nothing was taken back.  An edited message goes into the input box (unless the
        user has typed there since); the chat is as it was."""
        conv, text, _ = self._resend or (None, "", 0.0)
        self._resend = None
        kept = conv == self.current_conv and text and text not in (
            m["content"] for m in self.session.messages if m["role"] == "user")
        if kept and not self.chat.input.toPlainText().strip():
            self.chat.input.setPlainText(text)
        # (Regenerate sends the message as it was: "not answered"; an edit: "not sent";
        # QA pass 26 read "Not sent again" of a message never sent)
        note = f"{'Not sent' if kept else 'Not answered'}: {sentence(msg)} Nothing was " \
            "taken back" + ("; your edited message is in the box (Send asks it as a new "
                            "message)." if kept else ".")
        shown = (self.current_conv, len(self.session.messages), note)
        if getattr(self, "_refusal_shown", None) != shown:  # (Ctrl+R twice: one notice,
            self._refusal_shown = shown                     # not two alike, QA pass 27)
            self.chat.view.add_notice(note)
        self.chat.view._scroll_end(force=True)  # (it was below the chat's edge)
        self.statusBar().showMessage(note, 8000)

    def copy_last_answer(self) -> None:
        answers = [i for i, e in enumerate(self.chat.view.entries) if e["role"] == "assistant"]
        if answers:
            self.chat.view.copy_message(answers[-1])
            self.statusBar().showMessage("Answer copied.", 2000)

    # ---- a send taken back, a turn that failed, an undo said in the chat -----------------
    def _unsend(self) -> None:
        """Undo a send that stored nothing: the bubbles go, the message goes back into the
        input box (unless the user has typed something new there)."""
        self._pending.clear()
        self.chat.view.discard_live(with_user=True)
        if not self.chat.input.toPlainText().strip():
            self.chat.input.setPlainText(self._sent_text)
        # the last answer's timeline again, as before the send (the verification pass of
        # 0.14: a refused message left it empty, "Send a message…")
        answers = [m for m in self.session.messages if m["role"] == "assistant"]
        keys = [e["key"] for e in self.chat.view.entries if e["role"] == "assistant"]
        self._show_timeline_of(answers[-1] if answers and keys else None,
                               keys[-1] if keys else None)
        self.session.end_turn()
        self._set_streaming(False)
        self.graph.clear_active()

    def _on_turn_failed(self, msg: str, refused: bool = False) -> None:
        """A turn that ended in an error.  `refused`: nothing was stored (a message too
        long, a model or server that could not be loaded), so the message goes back into
        the box; else the message is kept in the chat, and Ctrl+R answers it again."""
        if refused:
            self._unsend()
            note = f"Not sent: {sentence(msg)} Your message is back in the box."
            self.chat.view.add_notice(note)
            # not stored: kept here, so that the chat drawn again (an earlier answer's token
            # offsets coming in late) does not drop it (CI saw "Still there?" refused and
            # then no notice at all)
            self._refused_note = (self.current_conv, len(self.session.messages), note)
            # the box grew with the message put back: show the notice once laid out
            QtCore.QTimer.singleShot(0, lambda: self.chat.view._scroll_end(force=True))
            self.statusBar().showMessage("Not sent — your message is back in the box.", 8000)
            return
        self._pending.clear()
        self.chat.view.end_failed_live()
        if self.timeline.live and not self.timeline.n_tokens:  # no answer: not "in progress"
            self.timeline.clear()
        self.chat.view.add_notice(failed_note(msg))
        self.statusBar().showMessage(f"Could not answer: {msg}", 15000)  # (no Stop)
        self.session.end_turn(failed=msg)
        self._set_streaming(False)
        self.graph.clear_active()

    def _took_back(self, step) -> None:
        """Undo took back a chat's "Forget …": said under its answer, which still says the
        memories were deleted, when that chat is open (the status bar says "restored"):
        the chat is read again once they are back (QA pass 21: the line went at the end of
        the chat, after later exchanges, and was gone after a restart)."""
        cid = self.current_conv
        if step.request and step.chat is not None and step.chat == cid:
            # after the restore op, which is on its way to the assistant thread
            QtCore.QTimer.singleShot(0, lambda: self.run_op("conversation", (cid, "refresh")))

    # ---- the open chat ------------------------------------------------------------------
    def render_conversation(self) -> None:
        """Draw the session's open chat: messages, footers, and the last answer's timeline."""
        view = self.chat.view
        self.chat.set_title(self.session.title if self.current_conv is not None else "Chat")
        view.show_empty()
        last_key, last, said, before = None, None, "", None
        for m in self.session.messages:
            if m["role"] == "user":
                if before is not None and before["role"] == "user":  # left unanswered
                    view.add_notice(unanswered_line(before), quiet=True)
                view.add_user(m["content"], m["created_at"])
                said, before = m["content"], m
                continue
            before = m
            footer, sources = ws.stored_lines(m)
            key = view.add_assistant(m["content"], m["id"], m["spans"], when=m["created_at"],
                                     offsets=self._offsets.get(m["id"]), footer=footer,
                                     sources=sources, author=author_of(m.get("uid") or ""))
            if m.get("forget_back"):  # Undo brought them back: said under it, for good
                view.add_notice(forget_undone(said, m["forget_back"]), quiet=True)
            for r in ws.recalls_of(ws.stats_of(m)):
                self._recalls.setdefault(r["episode_id"], r)
            last_key, last = key, m
        self._ask_offsets()
        if not self.session.messages:
            view.show_empty()
        elif self.session.messages[-1]["role"] == "user":  # left unanswered (the app quit)
            view.add_notice(self.session.unanswered_note(
                None if self.settings.backend == "server" else self.settings.n_ctx),
                passing=True, after=self.session.unanswered_after())
        refused = getattr(self, "_refused_note", None)
        if refused and self.current_conv is not None \
                and refused[:2] == (self.current_conv, len(self.session.messages)):
            view.add_notice(refused[2])  # a refusal, until something is sent again
        self._show_timeline_of(last, last_key)
        view._scroll_end(force=True)

    def _show_timeline_of(self, m: dict | None, key: int | None) -> None:
        """The timeline of stored answer `m` (its chat entry `key`), or an empty one."""
        if m is not None:
            self.timeline.set_answer(m["spans"], ws.stored_tokens(m),
                                     ws.answer_title(self.chat.view, key), key=key,
                                     author=author_of(m.get("uid") or ""))
        else:
            self.timeline.clear()

    def _ask_offsets(self) -> None:
        """Token spans of the shown answers (for token hover), once the model is loaded."""
        if not self.session.model_ready:
            return
        for m in self.session.messages:
            if m["role"] == "assistant" and m["id"] not in self._offsets:
                self.run_op("offsets", (m["id"], m["content"]))

    def rerender_conversation(self) -> None:
        if self.current_conv is not None and not self.is_streaming():
            self.chat.view.keep_place(self.render_conversation)  # zoomed: the same place

    def _on_token_offsets(self, mid: int, offsets) -> None:
        if offsets:
            self._offsets[mid] = offsets
            self._rerender_timer.start()
