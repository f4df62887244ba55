"""Chats: ``conversations``, ``messages`` and the ``timelines`` of answers."""

from __future__ import annotations

import json
import time

from ..words import printable
from .base import StoreBase
from .rows import MARK_FORGOTTEN, OFF_BRANCH, marks, new_uid


class MessageQueries(StoreBase):
    """Conversations, their messages, and which memories were active for each token span."""

    # ---- conversations and messages ------------------------------------------------
    def add_conversation(self, title: str = "New chat", *, at: float | None = None) -> int:
        now = time.time() if at is None else at
        cur = self.conn.execute(
            "INSERT INTO conversations(uid, title, created_at, updated_at) VALUES (?, ?, ?, ?)",
            (new_uid(), title, now, now),
        )
        return int(cur.lastrowid or 0)

    def conversations(self) -> list[dict]:
        """Every chat, newest activity first, with how many messages it holds and how many
        memories were formed in it (not deleted: those a chat's deletion can take along;
        ``pinned``: how many of them are pinned, which it leaves;
        counted from the ``episodes_conversation_live`` index, `schema.INDEXES`)."""
        rows = self.conn.execute(
            "SELECT c.id, c.title, c.created_at, c.updated_at, "
            "(SELECT COUNT(*) FROM messages m WHERE m.conversation_id = c.id), "
            "(SELECT COUNT(*) FROM episodes e WHERE e.conversation_id = c.id "
            "AND e.deleted_at IS NULL), "
            "(SELECT COUNT(*) FROM episodes e WHERE e.conversation_id = c.id "
            "AND e.deleted_at IS NULL AND e.pinned = 1) "
            "FROM conversations c ORDER BY c.updated_at DESC, c.id DESC"
        ).fetchall()
        return [
            dict(id=r[0], title=r[1], created_at=r[2], updated_at=r[3], messages=r[4],
                 memories=r[5], pinned=r[6])
            for r in rows
        ]

    def find_in_chats(self, words: list[str], limit: int = 500) -> dict[int, str]:
        """Chats with a message that holds every one of `words` (case aside), newest
        message first: {conversation id: that message's text}, at most `limit` chats.
        SQLite's LIKE ignores case for ASCII only: it narrows by the ASCII words, and each
        message is then checked here with Unicode case folding."""
        words = [w.casefold() for w in words if w]
        if not words:
            return {}
        ascii_words = [w for w in words if w.isascii()]
        like = " AND ".join(["content LIKE ? ESCAPE '\\'"] * len(ascii_words)) or "1"
        args = ["%" + w.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
                for w in ascii_words]
        found: dict[int, str] = {}
        for cid, content in self.conn.execute(
                f"SELECT conversation_id, content FROM messages WHERE {like} "
                "ORDER BY created_at DESC, id DESC", args):
            if cid not in found and all(w in content.casefold() for w in words):
                found[cid] = content
                if len(found) >= limit:
                    break
        return found

    def recent_answers(self, limit: int = 20, *, exclude_conversation: int | None = None,
                       conversation: int | None = None) -> list[str]:
        """The latest completed answers, newest first (optionally of other chats only, or
        of one chat only)."""
        if conversation is not None:
            return [r[0] for r in self.conn.execute(
                "SELECT content FROM messages WHERE role = 'assistant' AND interrupted = 0 "
                "AND conversation_id = ? ORDER BY id DESC LIMIT ?", (conversation, limit))]
        return [r[0] for r in self.conn.execute(
            "SELECT content FROM messages WHERE role = 'assistant' AND interrupted = 0 "
            "AND conversation_id IS NOT ? ORDER BY id DESC LIMIT ?",
            (exclude_conversation, limit))]

    def recent_user_texts(self, conversation_id: int, limit: int = 20) -> list[str]:
        """What the user said last in a chat, newest first, at most `limit` messages."""
        return [r[0] for r in self.conn.execute(
            "SELECT content FROM messages WHERE conversation_id = ? AND role = 'user' "
            "ORDER BY id DESC LIMIT ?", (conversation_id, limit))]

    def conversation_exists(self, conversation_id: int) -> bool:
        return (
            self.conn.execute(
                "SELECT 1 FROM conversations WHERE id = ?", (conversation_id,)
            ).fetchone()
            is not None
        )

    def rename_conversation(self, conversation_id: int, title: str) -> None:
        """A new title; not activity: the chat keeps its `updated_at` (the chat list is
        ordered by it and shows it as when the chat was last active)."""
        self.conn.execute(
            "UPDATE conversations SET title = ? WHERE id = ?",
            (printable(title).strip() or "Untitled", conversation_id),
        )

    def delete_conversation(self, conversation_id: int) -> None:
        """Delete the chat and its messages; the memories formed in it stay."""
        with self.transaction():
            self.conn.execute("DELETE FROM conversations WHERE id = ?", (conversation_id,))

    def conversation_title(self, conversation_id: int) -> str | None:
        """The chat's title (None: no such chat): one row, where `conversations()` counts
        every chat's messages and memories (about 0.03-0.1 s with 3,000 imported chats)."""
        row = self.conn.execute("SELECT title FROM conversations WHERE id = ?",
                                (conversation_id,)).fetchone()
        return None if row is None else str(row[0])

    def conversation_uid(self, conversation_id: int) -> str | None:
        """The chat's uid (the same in every copy of the file: backups, exports)."""
        row = self.conn.execute("SELECT uid FROM conversations WHERE id = ?",
                                (conversation_id,)).fetchone()
        return None if row is None else row[0]

    def conversation_uids(self) -> set[str]:
        """The uid of every chat in this file."""
        return {r[0] for r in self.conn.execute("SELECT uid FROM conversations")}

    def delete_conversation_uid(self, uid: str) -> bool:
        """Delete the chat of this uid and its messages (a backup's copy of a chat deleted
        in the live file); whether there was one."""
        with self.transaction():
            return self.conn.execute("DELETE FROM conversations WHERE uid = ?",
                                     (uid,)).rowcount > 0

    def add_message(
        self,
        conversation_id: int,
        role: str,
        content: str,
        *,
        at: float | None = None,
        interrupted: bool = False,
        episode_id: int | None = None,
        stats: dict | None = None,
    ) -> int:
        now = time.time() if at is None else at
        with self.transaction():
            cur = self.conn.execute(
                "INSERT INTO messages(uid, conversation_id, role, content, created_at, "
                "interrupted, episode_id, stats) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    new_uid(),
                    conversation_id,
                    role,
                    content,
                    now,
                    int(interrupted),
                    episode_id,
                    json.dumps(stats) if stats else None,
                ),
            )
            self.conn.execute(
                "UPDATE conversations SET updated_at = ? WHERE id = ?", (now, conversation_id)
            )
        return int(cur.lastrowid or 0)

    def delete_messages_from(self, conversation_id: int, message_id: int) -> list[int]:
        """Remove a chat's messages from `message_id` on (regenerate, edit and resend);
        returns the ids of the memories their answers had formed and no other message
        shares (a request asked again elsewhere keeps its memory; the caller decides)."""
        with self.transaction():
            eps = [r[0] for r in self.conn.execute(
                "SELECT DISTINCT episode_id FROM messages WHERE conversation_id = ? AND id >= ? "
                "AND episode_id IS NOT NULL ORDER BY episode_id", (conversation_id, message_id))]
            self.conn.execute("DELETE FROM messages WHERE conversation_id = ? AND id >= ?",
                              (conversation_id, message_id))
            shared = {r[0] for r in self.conn.execute(
                f"SELECT DISTINCT episode_id FROM messages WHERE episode_id IN "
                f"({','.join('?' * len(eps))})", eps)} if eps else set()
        return [e for e in eps if e not in shared]

    def hide_answers(self, episode_ids: list[int]) -> None:
        """Mark the answers these live memories were formed in ``forgotten``: they stay in
        their chats, and the model is not shown those exchanges again (answers that
        repeated what a request to forget deleted: the memory keeps its own words, the
        answer told the forgotten thing again)."""
        ids = sorted({int(i) for i in episode_ids})
        if ids:
            with self.transaction():
                self.conn.execute(MARK_FORGOTTEN + "role = 'assistant' AND episode_id IN "
                                  f"({marks(len(ids))})", ids)

    def messages(self, conversation_id: int) -> list[dict]:
        """The chat's messages, oldest first.  ``forgotten``: an answer whose memory the user
        deleted (or deleted for good): the exchange stays in the transcript, but the model
        is not shown it again.  ``off_branch``: an imported answer whose memory a newer
        export of the chat showed on another branch (`OFF_BRANCH`): in the transcript, not
        in what the model is shown of the chat."""
        rows = self.conn.execute(
            "SELECT m.id, m.role, m.content, m.created_at, m.interrupted, m.episode_id, "
            "m.stats, e.deleted_at IS NOT NULL, m.uid, e.archived_at IS NOT NULL AND "
            "substr(e.archive_reason, 1, ?) = ? FROM messages m "
            "LEFT JOIN episodes e ON e.id = m.episode_id "
            "WHERE m.conversation_id = ? ORDER BY m.id",
            (len(OFF_BRANCH), OFF_BRANCH, conversation_id),
        ).fetchall()
        out = []
        for r in rows:
            stats = json.loads(r[6]) if r[6] else None
            marked = isinstance(stats, dict) and stats.get("forgotten") is True  # purged
            out.append(dict(id=r[0], role=r[1], content=r[2], created_at=r[3],
                            interrupted=bool(r[4]), episode_id=r[5], stats=stats,
                            forgotten=bool(r[7]) or marked, uid=r[8],
                            off_branch=bool(r[9])))
        return out

    def respelled_as(self, kind: str) -> list[tuple[str, str]]:
        """What every message's answer read otherwise in the way `kind` names, and how it
        was read (the first two of each ``stats["respelled"]`` record whose third is `kind`:
        "taken back", the part of a message the user took back as they wrote it, and the
        message as meant), oldest first."""
        out = []
        for (raw,) in self.conn.execute("SELECT stats FROM messages WHERE stats LIKE ? ORDER BY id",
                                        (f"%{kind}%",)):
            stats = json.loads(raw) if raw else None
            records = stats.get("respelled") if isinstance(stats, dict) else None
            out += [(str(r[0]), str(r[1])) for r in (records if isinstance(records, list) else ())
                    if isinstance(r, list) and len(r) == 3 and r[2] == kind]
        return out

    def recorded_corrections(self, every: bool = False) -> dict[int, list[int]]:
        """Episode id -> the memories whose answers noted them as correcting it by what the
        user said just before (``stats["corrects"]`` records marked ``"of_it"``: "Actually
        they rang again, it's back to 12 May after all.", of "The dentist moved it to 19
        May."), the newest first: their words alone do not say what they correct; `every`:
        each correction an answer's line confirmed ("Noted: this replaces …"), named or not.
        Read once while the file is unchanged (the gate asks at every re-retrieval of an
        answer); the caller does not change what it gets."""
        key = (self.conn.total_changes,
               int(self.conn.execute("PRAGMA data_version").fetchone()[0]))
        seen = getattr(self, "_recorded_seen", None)
        if seen is None or seen[0] != key:
            maps: dict[bool, dict[int, list[int]]] = {False: {}, True: {}}
            seen = (key, maps)
            for new, raw in self.conn.execute(
                    "SELECT episode_id, stats FROM messages WHERE role = 'assistant' AND "
                    "episode_id IS NOT NULL AND stats LIKE '%\"corrects\"%' ORDER BY id DESC"):
                stats = json.loads(raw) if raw else None
                fixed = stats.get("corrects") if isinstance(stats, dict) else None
                for c in (fixed if isinstance(fixed, list) else ()):  # (any JSON: an import's)
                    if isinstance(c, dict) and type(c.get("episode_id")) is int \
                            and c["episode_id"] != new:
                        maps[True].setdefault(c["episode_id"], []).append(int(new))
                        if c.get("of_it"):
                            maps[False].setdefault(c["episode_id"], []).append(int(new))
            self._recorded_seen = seen
        return seen[1][every]

    def previous_message_episode(self, conversation_id: int) -> int | None:
        """The live memory formed by the user's message before their latest one in a chat
        ("what I just said", asked in the latest), or None when that message formed none
        (a request to forget, an answer stopped before it began) or it is deleted."""
        users = self.conn.execute(
            "SELECT id FROM messages WHERE conversation_id = ? AND role = 'user' "
            "ORDER BY id DESC LIMIT 2", (conversation_id,)).fetchall()
        if len(users) < 2:
            return None
        row = self.conn.execute(
            "SELECT m.episode_id, e.deleted_at FROM messages m "
            "LEFT JOIN episodes e ON e.id = m.episode_id WHERE m.conversation_id = ? "
            "AND m.role = 'assistant' AND m.id > ? AND m.id < ? ORDER BY m.id LIMIT 1",
            (conversation_id, users[1][0], users[0][0])).fetchone()
        return row[0] if row is not None and row[0] is not None and row[1] is None else None

    def mark_stopped(self, message_id: int) -> None:
        """Mark the user's message whose answer they stopped before it began: it formed no
        memory, by their choice (`unanswered_tail` passes it over)."""
        self.conn.execute("UPDATE messages SET interrupted = 1 WHERE id = ? AND role = 'user'",
                          (message_id,))

    def unanswered_tail(self, conversation_id: int) -> tuple[int, str, float] | None:
        """The chat's last message (id, words, time) when it is the user's, left without an
        answer or a memory and not stopped by them (`mark_stopped`): the app was killed or
        crashed while it was answered."""
        row = self.conn.execute(
            "SELECT id, role, content, created_at, interrupted, episode_id FROM messages "
            "WHERE conversation_id = ? ORDER BY id DESC LIMIT 1", (conversation_id,)).fetchone()
        if row is None or row[1] != "user" or row[4] or row[5] is not None:
            return None
        return int(row[0]), str(row[2]), float(row[3])

    def link_message_episode(self, message_id: int | None, episode_id: int) -> None:
        """Record the episode an answer formed."""
        self.conn.execute("UPDATE messages SET episode_id = ? WHERE id = ?",
                          (episode_id, message_id))

    # ---- timelines ------------------------------------------------------------------
    def save_timeline(self, message_id: int, spans: list[tuple[int, int, list[int]]]) -> None:
        self.conn.executemany(
            'INSERT OR REPLACE INTO timelines(message_id, start, "end", episode_ids) VALUES (?,?,?,?)',
            [(message_id, s, e, json.dumps(ids)) for s, e, ids in spans],
        )

    def timeline(self, message_id: int) -> list[tuple[int, int, list[int]]]:
        rows = self.conn.execute(
            'SELECT start, "end", episode_ids FROM timelines WHERE message_id = ? ORDER BY start',
            (message_id,),
        ).fetchall()
        return [(r[0], r[1], json.loads(r[2])) for r in rows]
