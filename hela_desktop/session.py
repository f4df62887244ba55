"""The state the desktop window shows, held without Qt and changed only by events.

`Session` folds the events of `hela_desktop.events` into one place: the model's status,
the list of chats, the open chat and its messages, the number of memories, the last
reflection, and whether an answer or a reflection is running.  The window observes it
(``subscribe``; `hela_desktop.ui.session_qt` turns the callbacks into Qt signals) and
never reads the database itself: the reads below (`conversation_event`,
`conversations_event`, `browse`) run on the assistant thread, which owns the store, and
their answers arrive as events.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .events import (
    ConversationEvent,
    ConversationsEvent,
    DoneEvent,
    MemoryChangedEvent,
    ModelStatusEvent,
    ReflectionEvent,
    ReflectionStartedEvent,
)

log = logging.getLogger(__name__)

Listener = Callable[[str, Any], None]  # (aspect, the event that changed it)
ASPECTS = ("model", "conversations", "conversation", "memory", "reflection", "busy")
# a message longer than this many characters a token of the model's context cannot fit
# it, whatever the words (tokenizers average 3-5 characters a token on prose)
NEVER_FITS_CHARS_PER_TOKEN = 32


def unanswered_line(m: dict) -> str:
    """The quiet line under a message of yours that the next one of yours followed with no
    answer between (a stored message `m`): that the answer was stopped and no memory made,
    or that its words are kept among your memories (`Assistant._remember_unanswered`).
    QA pass 34b: once the chat moved on, nothing said why a message stood unanswered."""
    if m.get("interrupted"):
        return "Stopped before the answer began: no answer, and no memory was made of it."
    if m.get("episode_id") is not None and not m.get("forgotten"):
        return "Left without an answer; its words are kept among your memories."
    return "Left without an answer."


class Session:
    """What the window shows, updated by `apply` (and `start_turn` / `turn_failed`).

    Listeners get ``(aspect, event)`` after each change; `aspect` is one of `ASPECTS`.
    Call it from one thread only (the GUI thread): it holds no lock.
    """

    def __init__(self) -> None:
        self._listeners: list[Listener] = []
        self.reset()

    def reset(self) -> None:
        """Forget everything (a new data folder): nothing shown may outlive its folder."""
        # model
        self.model_info: dict = {}
        self.model_ready = False
        self.model_error: str | None = None
        self.embedder_ready = False
        self.loading = ""  # what is loading now ("" when nothing)
        # chats
        self.conversations: list[dict] = []
        self.current_conv: int | None = None
        self.title = "New chat"
        self.messages: list[dict] = []
        # memory and reflection
        self.memory_count = 0
        self.last_memory_change: MemoryChangedEvent | None = None
        self.reflecting = False
        self.last_reflection: ReflectionEvent | None = None
        # the answer
        self.streaming = False
        self.last_done: DoneEvent | None = None
        self.failed: tuple[int | None, str] | None = None  # (chat, why) the last answer failed

    # ---- observing --------------------------------------------------------------------
    def subscribe(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def _changed(self, aspect: str, event: Any = None) -> None:
        for fn in list(self._listeners):
            try:
                fn(aspect, event)
            except Exception:  # a broken view must not stop the others
                log.exception("session listener failed")

    # ---- events -----------------------------------------------------------------------
    def apply(self, event: Any) -> None:
        """Fold one event into the state and tell the listeners what changed."""
        handler = _HANDLERS.get(type(event))
        if handler is None:
            return
        self._changed(handler(self, event), event)

    def _on_model(self, ev: ModelStatusEvent) -> str:
        if ev.state == "loading":
            self.loading = ev.message
        elif ev.state == "embedder_ready":
            self.embedder_ready = True
        elif ev.state == "failed" and ev.kind == "model":
            self.model_ready, self.model_error = False, ev.message
            self.loading = ""
        elif ev.state == "ready":
            self.model_ready, self.model_error = True, None
            self.model_info = dict(ev.info)
            self.loading = ""
        elif ev.state == "opened":
            self.model_info = dict(ev.info)
        return "model"

    def _on_conversations(self, ev: ConversationsEvent) -> str:
        self.conversations = list(ev.conversations)
        if self.current_conv is not None:
            self.title = self.conversation_title(self.current_conv) or self.title
        return "conversations"

    def _on_conversation(self, ev: ConversationEvent) -> str:
        if ev.reason == "missing":
            if ev.conversation_id == self.current_conv:
                self._clear_chat()
        else:
            self.current_conv = ev.conversation_id
            self.title = ev.title
            self.messages = list(ev.messages)
        return "conversation"

    def _on_memory(self, ev: MemoryChangedEvent) -> str:
        self.memory_count = int(ev.episodes)
        self.last_memory_change = ev
        return "memory"

    def _on_reflection_started(self, _ev: ReflectionStartedEvent) -> str:
        self.reflecting = True
        return "reflection"

    def _on_reflection(self, ev: ReflectionEvent) -> str:
        self.reflecting = False
        self.last_reflection = ev
        return "reflection"

    def _on_done(self, ev: DoneEvent) -> str:
        self.last_done = ev
        self.failed = None
        self.streaming = False
        self.current_conv = ev.conversation_id
        return "busy"

    # ---- what the window itself starts ------------------------------------------------
    def start_turn(self) -> None:
        self.streaming = True
        self.failed = None
        self._changed("busy")

    def end_turn(self, failed: str = "") -> None:
        """The answer ended without a `DoneEvent` (it failed: `failed` says why; or it was
        dropped unbegun)."""
        self.streaming = False
        self.failed = (self.current_conv, failed) if failed else None
        self._changed("busy")

    def expect_model(self) -> None:
        """A new model was chosen: forget the last failure while it loads."""
        self.model_error = None
        self._changed("model")

    def new_chat(self) -> None:
        self._clear_chat()
        self._changed("conversation", None)

    def _clear_chat(self) -> None:
        self.current_conv = None
        self.title = "New chat"
        self.messages = []

    # ---- reading the state ------------------------------------------------------------
    def conversation_title(self, cid: int | None) -> str | None:
        return next((c["title"] for c in self.conversations if c["id"] == cid), None)

    def unanswered_note(self, n_ctx: int | None = None) -> str:
        """What the open chat says under a message of yours left without an answer: why,
        if its answer failed in this session (the notice said so before the chat was drawn
        again), and what to do.  `n_ctx`: the local model's context in tokens (None: a
        model server, whose context is its own); a message that cannot fit it whatever its
        words (an imported paste of megabytes, QA pass 26: the note invited Ctrl+R, which
        could only be refused) is said to stay unanswered."""
        why = self.failed[1] if self.failed and self.failed[0] == self.current_conv else ""
        if why:
            return failed_note(why)
        last = self.messages[-1]["content"] if self.messages else ""
        if n_ctx and len(last) > NEVER_FITS_CHARS_PER_TOKEN * n_ctx:
            return (f"No answer: this message is {len(last):,} characters long, far more than "
                    f"the model can read at once (its context holds {n_ctx:,} tokens). Its "
                    "words are kept among your memories, where search finds them.")
        return "No answer yet: press Ctrl+R (Chat ▸ Regenerate answer) to answer it."

    def unanswered_after(self) -> str:
        """What the chat says, quietly, under the open chat's last message of yours, left
        unanswered, once you send another instead of answering it (`unanswered_line`)."""
        from .turn import kept_unanswered

        last = self.messages[-1] if self.messages else {}
        return unanswered_line({"interrupted": False, "forgotten": False,
                                "episode_id": 0 if kept_unanswered(last.get("content", "")) else None})

    def user_messages(self) -> list[dict]:
        """The open chat's messages from the user, oldest first."""
        return [m for m in self.messages if m["role"] == "user"]

    def forgotten_after(self, n: int) -> int:
        """How many memories the app deleted on the user's requests to forget after the
        chat's n-th message from the user (0-based): a resend takes those exchanges back
        from the chat, not the deletions (`forget_request`)."""
        users = [i for i, m in enumerate(self.messages) if m["role"] == "user"]
        if not 0 <= n < len(users):
            return 0
        out = 0
        for m in self.messages[users[n] + 1:]:
            st = m.get("stats") if m["role"] == "assistant" else None
            done = st.get("forget") if isinstance(st, dict) else None
            gone = done.get("deleted") if isinstance(done, dict) else None
            out += len(gone) if isinstance(gone, list) else 0
        return out

    def last_user_message(self) -> dict | None:
        users = self.user_messages()
        return users[-1] if users else None

    def last_answer_was_the_apps(self) -> bool:
        """The open chat ends with an answer the app gave itself (a request to forget,
        `forget_request`): nothing the model could say again."""
        last = self.messages[-1] if self.messages else None
        st = last.get("stats") if last is not None and last["role"] == "assistant" else None
        return isinstance(st, dict) and isinstance(st.get("forget"), dict)


def failed_note(why: str) -> str:
    """The line under a message whose answer failed, live and when the chat is drawn again."""
    return (f"Could not answer: {why} — your message is kept: press Ctrl+R (Chat ▸ "
            "Regenerate answer) to try again.")


_HANDLERS: dict[type, Callable[[Session, Any], str]] = {
    ModelStatusEvent: Session._on_model,
    ConversationsEvent: Session._on_conversations,
    ConversationEvent: Session._on_conversation,
    MemoryChangedEvent: Session._on_memory,
    ReflectionStartedEvent: Session._on_reflection_started,
    ReflectionEvent: Session._on_reflection,
    DoneEvent: Session._on_done,
}


# ---- reads the assistant thread runs for the window ------------------------------------
def conversations_event(store) -> ConversationsEvent:
    return ConversationsEvent(store.conversations())


def conversation_event(store, cid: int, reason: str = "open") -> ConversationEvent:
    """One chat with its messages, each answer with its timeline (``"spans"``); an answer to
    a request to forget whose memories are back (Undo) names them (``"forget_back"``)."""
    if not store.conversation_exists(cid):
        return ConversationEvent(cid, "", [], reason="missing")
    title = store.conversation_title(cid)  # one row, not every chat counted
    title = "Chat" if title is None else title
    msgs = []
    for m in store.messages(cid):
        m = dict(m)
        m["spans"] = store.timeline(m["id"]) if m["role"] == "assistant" else []
        gone = forgotten_ids(m.get("stats"))
        if gone:
            eps = store.episodes(gone)
            m["forget_back"] = [i for i in gone if i in eps and eps[i].deleted_at is None]
        msgs.append(m)
    return ConversationEvent(cid, title, msgs, reason=reason)


def forgotten_ids(stats) -> list[int]:
    """The memories a request to forget deleted, from its answer's statistics."""
    forget = stats.get("forget") if isinstance(stats, dict) else None
    ids = forget.get("deleted") if isinstance(forget, dict) else None
    return [i for i in ids if type(i) is int] if isinstance(ids, list) else []


@dataclass(frozen=True)
class BrowseQuery:
    """What the memory browser shows: `tab` "memories" (`search` words; `ranked`: the
    engine's matches by meaning, best first, or when nothing matched, `nearest`: the few
    memories nearest in meaning), "archive" (archived and deleted memories,
    most recently removed first), "knowledge" or "activity"."""

    tab: str
    search: str = ""
    ranked: tuple[int, ...] | None = None
    # the Memories tab's sort column (`store.EPISODE_ORDERS`), or `MATCH_ORDER` (None too):
    # a search's matches by meaning best first; the others newest first
    order: str | None = None
    descending: bool = True
    nearest: int = 0  # how many of `ranked` match nothing said, only near in meaning


BROWSE_LIMIT = 2000
MATCH_ORDER = "match"


def browse(store, q: BrowseQuery) -> dict:
    """The rows for one tab of the memory browser (runs where the store lives)."""
    if q.tab == "memories":
        order = "created" if q.order in (None, MATCH_ORDER) else q.order
        eps = store.list_episodes(search=q.search or None, limit=BROWSE_LIMIT, order=order,
                                  descending=q.descending)  # newest first by default
        if q.ranked is not None:
            eps = ranked_episodes(store, q.ranked, eps)
            if q.order not in (None, MATCH_ORDER):  # sorted by a column, as the store sorts
                at = {i: n for n, i in enumerate(store.sorted_ids((e.id for e in eps), q.order,
                                                                   q.descending))}
                eps.sort(key=lambda e: at.get(e.id, len(at)))
        return {"episodes": eps, "total": store.count_episodes(), "corrected": corrected(store, eps)}
    if q.tab == "archive":
        eps = store.list_episodes(removed=True, limit=BROWSE_LIMIT, order="removed")
        return {"episodes": eps, "reasons": store.archive_reasons(e.id for e in eps)}
    if q.tab == "knowledge":
        from .knowledge import knowledge_rows

        try:
            rows = [r for r in knowledge_rows(store) if r["state"] != "superseded"]
        except Exception:  # noqa: BLE001 - an unreadable store shows an empty tab
            rows = []
        return {"knowledge": rows}
    if q.tab == "activity":
        return {"activity": store.activity(limit=500)}
    raise ValueError(f"unknown browser tab {q.tab!r}")


def corrected(store, eps: list) -> dict[int, tuple[int, str, str]]:
    """Shown memory id -> (the later statement that corrects it, its words, what of the
    memory it leaves true: "" when it corrects all of it): the Memories tab says so on the
    row (QA pass 26: "My sister Ines lives in Lyon." read as current beside "Actually Ines
    moved to Porto."; QA pass 37: a brother's move greyed his diet too)."""
    from .knowledge import all_corrections, shown_corrections
    from .superseded import still_true

    fixes = shown_corrections(store, [e.id for e in eps])
    # (what is left true after each correction of its own part: a move and a new post)
    every = all_corrections(store, list(fixes)) if fixes else {}
    said = store.key_texts(set(fixes.values()) | {b for bs in every.values() for b in bs})
    texts = {e.id: e.user_text for e in eps}
    return {a: (b, said.get(b, ""), still_true(texts.get(a, ""), [
        said.get(x, "") for x in dict.fromkeys([b, *every.get(a, [])])])) for a, b in fixes.items()}


def ranked_episodes(store, ranked, literal: list) -> list:
    """Ranked matches that are still live, then word matches the ranking missed."""
    eps = store.episodes(int(i) for i in ranked)
    out = [eps[int(i)] for i in ranked if int(i) in eps
           and eps[int(i)].deleted_at is None and eps[int(i)].archived_at is None]
    seen = {e.id for e in out}
    return out + [e for e in literal if e.id not in seen]
