"""Values the store hands out and takes in: episodes, blobs, uids, FTS5 queries."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np


def new_uid() -> str:
    return uuid.uuid4().hex


def to_blob(vec: np.ndarray | None) -> bytes | None:
    if vec is None:
        return None
    return np.asarray(vec, dtype=np.float32).tobytes()


def from_blob(blob: bytes | None) -> np.ndarray | None:
    if blob is None:
        return None
    return np.frombuffer(blob, dtype=np.float32)


@dataclass
class Episode:
    id: int
    uid: str
    conversation_id: int | None
    user_text: str
    assistant_text: str
    created_at: float
    access_count: int = 0
    last_access: float | None = None
    importance: float = 0.0
    pinned: bool = False
    archived_at: float | None = None
    deleted_at: float | None = None
    last_recall: dict | None = None
    source: str = "chat"
    meta: dict | None = None

    @property
    def text(self) -> str:
        """The whole exchange, for reading (memory browser, exports)."""
        return episode_text(self.user_text, self.assistant_text, answered_by(self.source))

    @property
    def author(self) -> str | None:
        """The other assistant that wrote this imported memory's answer ("ChatGPT"), or
        None when HeLa wrote it (here, or in an imported chat of HeLa's own)."""
        return AUTHORS.get(self.source or "")

    @property
    def key(self) -> str:
        """The user's words: what is embedded, indexed and shown to the model."""
        return key_text(self.user_text, self.assistant_text)


# who wrote an imported chat's answers, by the memory's source (the app's own chat export,
# and every chat here: HeLa)
# why a memory is archived when a newer export of its chat shows its message on another
# branch (followed by the source's name: "… in a newer ChatGPT export"; `memfile.importing`)
OFF_BRANCH = "on another branch of its chat in a newer "
# why a memory is deleted when Regenerate or Edit and resend took its answer back (kept with
# `deleted_at` in `archive_reason`; the Archive tab tells it from one the user deleted)
REPLACED = "replaced by a new answer (Regenerate, or Edit and resend)"
# the statement that marks answers ``forgotten`` (the model is not shown those exchanges
# again: `MessageQueries.messages`); the caller ends it with a condition on `episode_id`
MARK_FORGOTTEN = (
    "UPDATE messages SET stats = json_set(CASE WHEN json_valid(stats) THEN (CASE "
    "WHEN json_type(stats) = 'object' THEN stats ELSE '{}' END) ELSE '{}' END, "
    "'$.forgotten', json('true')) WHERE ")
AUTHORS = {"chatgpt": "ChatGPT", "claude": "Claude", "openwebui": "Open WebUI", "jan": "Jan"}


def answered_by(source: str | None) -> str:
    """Who wrote a memory's answer: the assistant of the export it came from ("ChatGPT"),
    else HeLa."""
    return AUTHORS.get(source or "", "HeLa")


def episode_text(user_text: str, assistant_text: str, author: str = "HeLa") -> str:
    """The whole exchange as text, for people to read, named as the window names them
    ("You: …", "HeLa: …", or the imported answer's author: "ChatGPT: …")."""
    if assistant_text:
        return f"You: {user_text}\n{author}: {assistant_text}"
    return user_text


def key_text(user_text: str, assistant_text: str = "") -> str:
    """The retrieval key of an episode: the user's own words.  The assistant's words never
    become a key on their own: an episode without user words has no key (empty)."""
    return (user_text or "").strip()


EPISODE_COLS = (
    "id, uid, conversation_id, user_text, assistant_text, created_at, access_count, "
    "last_access, importance, pinned, archived_at, deleted_at, last_recall, source, meta"
)


def row_to_episode(r) -> Episode:
    return Episode(
        id=r[0],
        uid=r[1],
        conversation_id=r[2],
        user_text=r[3],
        assistant_text=r[4],
        created_at=r[5],
        access_count=r[6],
        last_access=r[7],
        importance=r[8],
        pinned=bool(r[9]),
        archived_at=r[10],
        deleted_at=r[11],
        last_recall=json.loads(r[12]) if r[12] else None,
        source=r[13],
        meta=json.loads(r[14]) if r[14] else None,
    )


def chunks(seq: list, n: int) -> Iterator[list]:
    for i in range(0, len(seq), n):
        yield seq[i : i + n]


def marks(n: int) -> str:
    """``?,?,…`` for an ``IN (…)`` list of `n` values."""
    return ",".join("?" * n)


_FTS_SPECIAL = str.maketrans({c: " " for c in '"*^():{}[]+-,.;!?\'`~@#$%&=<>/\\|'})


def fts_query(text: str) -> str:
    """A safe FTS5 query: every word quoted, all of them wanted (the memory browser's word
    matches: joined by OR, "where does my sister live" matched 1,017 of 2,660 memories
    through "my" alone, and the count said so)."""
    words = [w for w in text.translate(_FTS_SPECIAL).split() if w]
    return " AND ".join(f'"{w}"' for w in words) or '""'
