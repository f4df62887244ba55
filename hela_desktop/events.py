"""What the assistant streams while it answers: plain dataclasses, JSON-serialisable.

A turn yields, in order: one `MemoriesEvent` (the memories retrieved before the answer),
then `TokenEvent`s interleaved with `MemoryUpdateEvent`s (a swap of the active set), and
finally one `DoneEvent`.  The GUI receives the same objects through Qt signals; the CLI
prints them as JSON lines (``to_json``).
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field


@dataclass
class Recall:
    """One retrieved memory and why it was recalled (its score breakdown)."""

    episode_id: int
    score: float
    text: str = ""
    semantic: float = 0.0  # similarity term (HeLa: (cos+1)/2; streaming: cos²)
    keyword: float = 0.0  # keyword-overlap term (IDF-weighted share of query terms)
    recency: float = 1.0  # temporal factor (HeLa: exp(-Δt/τ); streaming: exp(-h/24))
    spread: float = 0.0  # activation received along Hebbian edges
    spread_from: int | None = None  # the neighbour that sent most of it
    path: str = "base"  # "base": found directly; "associative": lifted by spreading;
    # memory search: "search" (a match), "answer" (by its stored answer only), "nearest"
    # (nothing said matched: near in meaning)
    kind: str = "episode"  # "episode" or "knowledge"
    tokens: int = 0  # model tokens this memory takes in the prompt
    extra: dict = field(default_factory=dict)  # profile-specific terms

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass
class MemoriesEvent:
    memories: list[Recall]
    retrieve_ms: float = 0.0
    type: str = "memories"

    def to_dict(self) -> dict:
        return {
            "type": self.type,
            "memories": [m.to_dict() for m in self.memories],
            "retrieve_ms": round(self.retrieve_ms, 2),
        }


@dataclass
class TokenEvent:
    index: int
    text: str
    type: str = "token"

    def to_dict(self) -> dict:
        return {"type": self.type, "index": self.index, "t": self.text}


@dataclass
class MemoryUpdateEvent:
    token_index: int  # the first token generated with the new set
    added: list[Recall]
    removed: list[int]
    active: list[int]
    retrieve_ms: float
    prefill_tokens: int  # tokens re-evaluated because of this swap
    swap_ms: float = 0.0  # time the swap took (the answer paused this long)
    type: str = "memory_update"

    def to_dict(self) -> dict:
        return {
            "type": self.type,
            "token_index": self.token_index,
            "added": [m.to_dict() for m in self.added],
            "removed": self.removed,
            "active": self.active,
            "retrieve_ms": round(self.retrieve_ms, 2),
            "prefill_tokens": self.prefill_tokens,
            "swap_ms": round(self.swap_ms, 1),
        }


def cut_short(failed_by: str) -> str:
    """Why an answer that failed (`DoneEvent.failed`) ended, in the words under it."""
    return "an error ended it" if failed_by == "error" else "the model server failed"


# under an answer whose `DoneEvent.unrecalled` holds, in the window and the terminal alike
# said wherever answers come from the bundled model (the window's empty chat, the terminal
# chat's first line): with the right memory in its prompt it answers about one question in
# five rightly (docs/benchmarks.md, `bench personal`), and a person should know that
SMALL_MODEL_NOTE = ("The built-in model is tiny: quick and private, but often wrong, even "
                    "about what you told it.")
# under an answer whose `DoneEvent.drifted` holds (window and terminal alike)
DRIFTED_NOTE = "not in the language you write: left out of what the model sees next"
# ("no memory", not "nothing you told me": a caution found by its words may quote what you
# told right under it, QA pass 37)
NOT_FROM_MEMORIES = ("Not from your memories: no memory was recalled for this question, so "
                     "check this answer before you rely on it.")


@dataclass
class DoneEvent:
    conversation_id: int
    message_id: int | None
    episode_id: int | None
    tokens: int
    swaps: int
    prefill_tokens: int
    tokens_per_s: float
    elapsed_s: float
    interrupted: bool = False
    deferred_swaps: int = 0  # swaps proposed but not made: they would have broken the time budget
    text: str = ""
    generation_s: float = 0.0  # from the first token on (elapsed_s also counts prompt reading)
    limit: int = 0  # the "longest answer" setting, when the answer stopped there; else 0
    timeline: list = field(default_factory=list)  # [(start, end, [episode ids]), ...]
    # the message repeated memory `episode_id` word for word: no new memory was made
    repeated: bool = False
    # the message asked about the user's own life and nothing they said was recalled for it:
    # the answer is not from their memories (the window and the terminal say so)
    unrecalled: bool = False
    # the answer was cut short by a failure, not by Stop (`interrupted` too): a model
    # server's, or ("error" in `failed_by`) an error of the model's or of the app's own
    failed: bool = False
    failed_by: str = ""
    # the recalled memories the answer used (`edges.used_by_answer`; the Hebbian step links
    # them and the new memory)
    drew_on: list[int] = field(default_factory=list)
    # the answer drifted out of the language the user writes (`formulas.drifted`): it stays
    # in the transcript, and the model is not shown it (with its message) again
    drifted: bool = False
    # a request to forget, answered by the app, not the model (`hela_desktop.forget_request`):
    # {"deleted": [episode ids], "maybe": [episode ids]}; None for a model's answer
    forget: dict | None = None
    # a sign the answer is wrong (`doubt.answer_doubt`): {"kind": "older", "newer": id}
    # or {"kind": "unused"}; None when nothing says so
    doubt: dict | None = None
    # the user's earlier statements the message corrects (`knowledge.corrected_by`):
    # [{"episode_id": id, "text": their words}]; the line under the answer confirms it
    corrects: list[dict] = field(default_factory=list)
    # names of the user's life the message misspelt, read as theirs: [[as written, as read]]
    # ("Andres", "Anders"); the line under the answer says so
    respelled: list[list[str]] = field(default_factory=list)
    # "What do you know about me?", answered by the app with the user's own words
    # (`hela_desktop.about_you`): the memories listed; None for a model's answer
    listed: list[int] | None = None
    # when the answer was stored (its message's time, Unix seconds; 0 when it was not):
    # the window's live answer shows it from then on, as the chat read again does
    answered_at: float = 0.0
    # the chat model that wrote it (its name as the status bar gives it; "" for the app's own)
    model: str = ""
    type: str = "done"

    @property
    def speed(self) -> float:
        """Tokens per second from the first token on, as the window and the terminal show
        it (`tokens_per_s` counts the whole time, the prompt's reading and a model's first
        load included); the whole time when that is unknown."""
        took = self.generation_s if self.generation_s > 0 else self.elapsed_s
        return self.tokens / took if took > 0 else 0.0

    @property
    def swaps_shown(self) -> int:
        """The swaps that changed what the answer went on with: one per span of the
        timeline after the first (`swaps` also counts one made before the first token or
        after the last, which the timeline cannot show: QA pass 37 read "1 memory swap"
        under an answer whose timeline said "0 swaps")."""
        return max(0, len(self.timeline) - 1)

    def to_dict(self) -> dict:
        d = asdict(self)
        d["tokens_per_s"] = round(self.tokens_per_s, 2)
        d["elapsed_s"] = round(self.elapsed_s, 3)
        d["generation_s"] = round(self.generation_s, 3)
        return d


Event = MemoriesEvent | TokenEvent | MemoryUpdateEvent | DoneEvent

# under an answer the app gave itself (a request to forget): the window and the terminal
FORGET_FOOTER = "done by HeLa Desktop itself: the model was not asked"
# … and under "What do you know about me?" (`hela_desktop.about_you`)
LISTED_FOOTER = "listed by HeLa Desktop from your memories: the model was not asked"


def to_json(event: Event) -> str:
    """One JSON line, its ``type`` first (what a reader of the stream looks at first)."""
    d = event.to_dict()
    return json.dumps({"type": d.pop("type", None), **d}, ensure_ascii=False)


# ---- events beyond the chat stream (the app's session: memory, reflection, chats, model) ----
# The assistant thread emits these; `hela_desktop.session.Session.apply` folds them into the
# state the window shows.  All are plain dataclasses, JSON-serialisable through `to_dict`.


@dataclass
class MemoryChangedEvent:
    """The memories changed: a turn stored one, an import, an edit, a pin, a delete,
    restore or purge, a rewind, a knowledge edit, or an idle reflection (consolidation/forgetting)."""

    cause: str  # "open" | "turn" | "import" | "edit" | "pin" | "delete" | "restore" |
    #             "purge" | "delete_chat" | "rewind" | "knowledge" | "reflection"
    episodes: int  # live memories after the change
    ids: list[int] = field(default_factory=list)  # the memories it touched, where known
    type: str = "memory_changed"

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass
class ReflectionStartedEvent:
    """An idle or manual reflection pass (consolidation, then forgetting) began."""

    trigger: str  # "idle" | "manual"
    type: str = "reflection_started"

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass
class ReflectionEvent:
    """What one reflection pass did: the reports of consolidation and forgetting
    (``ConsolidationReport.to_dict()`` / ``ForgettingReport.to_dict()``, None if not run)."""

    trigger: str  # "idle" | "manual"
    started_at: float  # epoch seconds
    seconds: float = 0.0
    consolidation: dict | None = None
    forgetting: dict | None = None
    yielded: bool = False  # the user came back (or the app quit): the rest waits
    error: str | None = None
    backup: dict | None = None  # the automatic backup made first (`backups`), if one was due
    type: str = "reflection"

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass
class ConversationsEvent:
    """The list of chats (``Store.conversations()`` rows, newest first)."""

    conversations: list[dict]
    type: str = "conversations"

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass
class ConversationEvent:
    """One chat's messages (``Store.messages()`` rows, each with its timeline as
    ``"spans"``).  `reason`: "open" (the user chose it: show it), "turn" (an answer was
    stored), "rewind" (messages were taken back), "missing" (it no longer exists)."""

    conversation_id: int | None
    title: str
    messages: list[dict] = field(default_factory=list)
    reason: str = "open"
    type: str = "conversation"

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass
class ModelStatusEvent:
    """Loading the models.  `state`: "opened" (store open, nothing loaded; `info` is
    ``Assistant.model_info()``), "loading" (`message` says what, "" when done),
    "embedder_ready", "ready" (`info`), "failed" (`kind`: "model" | "embedder" | "store")."""

    state: str
    info: dict = field(default_factory=dict)
    message: str = ""
    kind: str = ""
    type: str = "model_status"

    def to_dict(self) -> dict:
        return asdict(self)


SessionEvent = (MemoryChangedEvent | ReflectionStartedEvent | ReflectionEvent
                | ConversationsEvent | ConversationEvent | ModelStatusEvent)
