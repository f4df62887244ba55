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
    path: str = "base"  # "base": found directly; "associative": lifted by spreading
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
    timeline: list = field(default_factory=list)  # [(start, end, [episode ids]), ...]
    type: str = "done"

    def to_dict(self) -> dict:
        d = asdict(self)
        d["tokens_per_s"] = round(self.tokens_per_s, 2)
        d["elapsed_s"] = round(self.elapsed_s, 3)
        return d


Event = MemoriesEvent | TokenEvent | MemoryUpdateEvent | DoneEvent


def to_json(event: Event) -> str:
    return json.dumps(event.to_dict(), ensure_ascii=False)
