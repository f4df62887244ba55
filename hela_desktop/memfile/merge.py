"""Merge: write a validated memory file into the store, one function per table.

A record whose uid the store lacks is added; one it has is merged by the rules of
``docs/memory-file-format.md`` (never losing what either side knows); anything unchanged is
skipped.  Runs inside the import's savepoint (`importing.import_file`), so a failure
anywhere leaves the store as it was.  All SQL is in `hela_desktop.store.transfer`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from ..edges import merge_edge
from ..store import Store
from ..store import transfer as tx
from ..store.rows import OFF_BRANCH
from .format import Progress, _Bad, _obj_text, _Source, _where, stats_from_file
from .report import ImportReport
from .streams import _prefetch
from .validate import _keep_vector, _Plan, _usable_vector

Batch = list[tuple[int | str, dict]]
Vectors = dict[tuple[str, str], bytes]


def _maxn(a: Any, b: Any) -> Any:
    """The larger of two values where None means unknown."""
    if a is None:
        return b
    if b is None:
        return a
    return a if a >= b else b


def _apply(src: _Source, store: Store, plan: _Plan, vectors: Vectors, target_name: str,
           dim: int | None, lam: float, report: ImportReport, progress: Progress | None,
           done: int, total: int) -> set[str]:
    """Write every member of `src` (validated into `plan`; `vectors` computed for what
    needed embedding) into `store`, counting added / merged / skipped records in `report`;
    `progress` goes on from `done` towards `total`.  Returns the uids of the conversations
    the file holds an older version of than the store (`_Merge.older`)."""
    merge = _Merge(src, store, plan, vectors, target_name, dim, report, progress, done, total)
    merge.run(lam)
    return merge.older


class _Merge:
    """The state one import's write shares between tables: uid -> id maps and counts."""

    def __init__(self, src: _Source, store: Store, plan: _Plan, vectors: Vectors,
                 target_name: str, dim: int | None, report: ImportReport,
                 progress: Progress | None, done: int, total: int) -> None:
        self.src, self.store, self.conn, self.plan = src, store, store.conn, plan
        self.vectors, self.target, self.dim, self.report = vectors, target_name, dim, report
        self.progress, self.count, self.total = progress, done, total
        self.file_emb = src.manifest.get("embedder")
        self.conv_id: dict[str, int] = {}
        self.ep_id: dict[str, int] = {}
        self.new_eps: set[int] = set()
        self.msg_id: dict[str, int] = {}
        # memories whose answer a newer export replaced: their answer messages follow
        self.new_answers: set[str] = set()
        # a history source: its memories archived as off its chat's branch come back when
        # it shows them on the branch again
        self.follows_branches = hasattr(src, "retired")
        # conversations last updated before the store's version of them: an older export,
        # whose branches are not followed
        self.older: set[str] = set()
        # a data folder that never held a memory takes the file's numbers (format 3), so
        # that "#12" is the same memory on a new computer
        self.numbers = plan.numbered and bool(plan.numbers) and store.episode_ids_given() == 0
        for m in src.members:
            k = m.removesuffix(".jsonl")
            report.added[k] = report.merged[k] = report.skipped[k] = 0

    # ---- shared ------------------------------------------------------------------------
    def bump(self, kind: str, status: str) -> None:
        getattr(self.report, status)[kind] += 1

    def tick(self, n: int) -> None:
        self.count += n
        if self.progress is not None:
            self.progress(min(self.count, self.total), self.total)

    def vec_for(self, table: str, rec: dict) -> tuple[bytes | None, str | None, bool]:
        """(embedding, embedder, own?) for a record: its own vector or the computed one."""
        if _keep_vector(rec, self.file_emb, self.target, self.dim):
            return rec["embedding"], rec["embedder"], True
        blob = self.vectors.get((table, rec["uid"]))
        return blob, (self.target if blob is not None else rec["embedder"]), False

    def batched(self, member: str, size: int) -> Iterator[Batch]:
        src = self.src

        def read() -> Iterator[Batch]:
            batch: Batch = []
            for item in src.records(member, trusted=True):
                batch.append(item)
                if len(batch) >= size:
                    yield batch
                    batch = []
            if batch:
                yield batch

        # reading (inflate, JSON) runs one step ahead in a helper thread while SQLite,
        # which releases the GIL, writes the previous batch
        for batch in _prefetch(read()):
            self.tick(len(batch))
            yield batch

    def left_out(self, uid: str) -> bool:
        """A memory of the file the user deleted for good here, which the store no longer
        holds: not written, nor anything that needs it (its links, its place in a
        timeline, a distilled item it alone grounds)."""
        return uid in self.plan.erased and uid not in self.ep_id

    def episode_ref(self, uid: str | None, member: str, loc: int | str) -> int | None:
        """The store's id of the file's memory `uid`; None for none or one left out."""
        if uid is None or self.left_out(uid):
            return None
        return self.ref(self.ep_id, uid, member, loc)

    @staticmethod
    def ref(m: dict[str, int], uid: str, member: str, loc: int | str) -> int:
        try:
            return m[uid]
        except KeyError:
            raise _Bad(f"unknown reference {uid!r} (file changed while importing?)",
                       _where(member, loc)) from None

    # ---- the whole file ----------------------------------------------------------------
    def run(self, lam: float) -> None:
        store = self.store
        target_step, shift = self._rebase_steps()
        # vectors whose embedder the file names only in its manifest: the store keeps the
        # name, written after the records and only when a vector needs it (written before
        # them and dropped again, it counted as a change: an import of the store's own
        # export, which changes nothing, made a backup)
        file_emb = self.file_emb
        name_meta = bool(file_emb and file_emb == self.target and not store.get_meta("embedder"))
        tables: dict[str, Callable[[str], None]] = {
            "conversations.jsonl": self.conversations, "episodes.jsonl": self.episodes,
            "messages.jsonl": self.messages, "timelines.jsonl": self.timelines,
            "knowledge.jsonl": self.knowledge,
        }
        for member in self.src.members:
            if member == "edges.jsonl":
                _apply_edges(self.conn, self.plan, self.ep_id, self.new_eps, target_step,
                             shift, lam, self.report, self.tick)
            elif member in tables:
                tables[member](member)
        if file_emb and name_meta and store.has_unnamed_vectors():
            store.set_meta("embedder", file_emb)

    def _rebase_steps(self) -> tuple[int, int]:
        """The store's Hebbian step after the import and the shift for the file's edge steps,
        so w·(1-λ)^(step_now - step_edge) is preserved."""
        store, src = self.store, self.src
        file_step = int(src.manifest.get("hebbian_step") or 0)
        target_step = store.hebbian_step()
        if (not tx.has_edges(self.conn) and file_step > target_step
                and "edges.jsonl" in src.members):
            store.set_meta("hebbian_step", str(file_step))
            target_step = file_step
        if abs(target_step) > 2**62:
            raise _Bad(f"the store's Hebbian step counter ({target_step}) is out of range",
                       "import")
        return target_step, target_step - file_step

    # ---- one function per table --------------------------------------------------------
    def conversations(self, member: str) -> None:
        kind, conn = "conversations", self.conn
        for batch in self.batched(member, 500):
            old = tx.existing_conversations(conn, [r["uid"] for _, r in batch])
            shown = self.shown_versions(old)
            for _, r in batch:
                e = old.get(r["uid"])
                if e is None:
                    self.conv_id[r["uid"]] = tx.insert_conversation(
                        conn, r["uid"], r["title"], r["created_at"], r["updated_at"])
                    self.bump(kind, "added")
                    continue
                self.conv_id[r["uid"]] = e[1]
                if r["updated_at"] < shown.get(e[1], e[4]):
                    self.older.add(r["uid"])
                title, upd = (r["title"], r["updated_at"]) if r["updated_at"] > e[4] \
                    else (e[2], e[4])
                created = min(e[3], r["created_at"])
                if (title, created, upd) != (e[2], e[3], e[4]):
                    tx.update_conversation(conn, e[1], title, created, upd)
                    self.bump(kind, "merged")
                else:
                    self.bump(kind, "skipped")

    def shown_versions(self, old: dict[str, tuple]) -> dict[int, float]:
        """For a history source: the stored chats' versions as the exports imported so far
        showed them (the newest user message imported from one, `tx.imported_versions`),
        against which the file's version (its chat's update time) is older or not.  The
        chat's own update time also moves when the user goes on with it here, and an export
        made after that, of an edit made before it, was taken for an older one: its
        branches were no longer followed."""
        if not self.follows_branches or not old:
            return {}
        return tx.imported_versions(self.conn, [e[1] for e in old.values()],
                                    f"{self.src.kind}-")

    def episodes(self, member: str) -> None:
        kind, conn = "episodes", self.conn
        for batch in self.batched(member, 1000):
            old = tx.existing_episodes(conn, [r["uid"] for _, r in batch])
            inserts: list[tuple] = []
            numbers: list[int | None] = []
            self.back_on_branch(batch, old)
            for where, r in batch:
                cid = None if r["conversation"] is None else self.ref(
                    self.conv_id, r["conversation"], member, where)
                emb, embn, own = self.vec_for("episodes", r)
                cent = r.get("query_centroid") if own else None
                if cent is not None and not _usable_vector(cent, self.dim, unit=False):
                    cent = None  # a centroid that cannot be compared with queries
                e = old.get(r["uid"])
                if e is None and r["uid"] in self.plan.erased:
                    # deleted for good here: left out (writing it and erasing it again
                    # counted as a change, and an import that changed nothing was backed up)
                    self.report.erased += 1
                    continue
                if e is None:
                    numbers.append(r.get("number"))
                    inserts.append((
                        r["uid"], cid, r["user_text"], r["assistant_text"], r["created_at"],
                        emb, embn, r["access_count"], r["last_access"], r["importance"],
                        r["pinned"], r["archived_at"], r["archive_reason"], r["deleted_at"],
                        cent, r["query_count"], r["last_recall"], r["source"], r["meta"],
                    ))
                    continue
                self.ep_id[r["uid"]] = e[0]
                changed = _episode_changes(e, r, cid, emb, embn, cent, self.answered_at)
                if "assistant_text" in changed:
                    self.new_answers.add(r["uid"])
                    self.report.answers_updated += 1
                if changed:
                    tx.update_columns(conn, "episodes", e[0], changed)
                    self.bump(kind, "merged")
                else:
                    self.bump(kind, "skipped")
            if inserts:
                self._insert_episodes(inserts, numbers)

    def answered_at(self, uid: str) -> float | None:
        """When the stored memory `uid`'s answer was given, for one imported before
        replies' times were kept (0.5.0 and earlier: no ``reply_at``): the time of its
        answer message in the chat, which those imports took from the export."""
        return tx.message_time(self.conn, uid + ".a")

    def back_on_branch(self, batch: Batch, old: dict[str, tuple]) -> None:
        """A history source's memories archived as off their chat's branch
        (`OFF_BRANCH`) come back where it shows them on the branch again, unless its
        version of the chat is older than the store's."""
        if not self.follows_branches:
            return
        back = [e[0] for _, r in batch if (e := old.get(r["uid"])) is not None
                and e[14] is None and e[15] is not None
                and (e[16] or "").startswith(OFF_BRANCH) and r["conversation"] not in self.older]
        if back:
            self.store.unarchive_episodes(back)
            self.report.back_on_branch += len(back)

    def _insert_episodes(self, inserts: list[tuple], numbers: list[int | None]) -> None:
        if self.numbers:  # (each has one, none twice: `validate`)
            ids: list[int | None] = numbers
        else:
            first = self.store.next_episode_id()  # purged ids are not given out again
            ids = [None if first is None else first + k for k in range(len(inserts))]
        tx.insert_episodes(self.conn, [(i, *row) for i, row in zip(ids, inserts, strict=True)])
        for uid, i in tx.episode_ids_of(self.conn, [t[0] for t in inserts]):
            self.ep_id[uid] = i
            self.new_eps.add(i)
        self.report.added["episodes"] += len(inserts)
        self.report.added_deleted += sum(1 for row in inserts if row[13] is not None)

    def messages(self, member: str) -> None:
        kind, conn = "messages", self.conn
        for batch in self.batched(member, 500):
            old = tx.existing_messages(conn, [r["uid"] for _, r in batch])
            for where, r in batch:
                eid = self.episode_ref(r["episode"], member, where)
                e = old.get(r["uid"])
                if e is None:
                    stats = stats_from_file(r["stats"], self.ep_id)
                    if eid is None and r["episode"] is not None:
                        stats = _forgotten(stats)  # its memory was deleted for good here
                    self.msg_id[r["uid"]] = tx.insert_message(conn, (
                        r["uid"], self.ref(self.conv_id, r["conversation"], member, where),
                        r["role"], r["content"], r["created_at"], r["interrupted"], eid,
                        stats))
                    self.bump(kind, "added")
                    continue
                self.msg_id[r["uid"]] = e[1]
                if e[2] is None and eid is not None:
                    tx.set_message_episode(conn, e[1], eid)
                    self.bump(kind, "merged")
                elif r["role"] == "assistant" and r["uid"].removesuffix(".a") in self.new_answers:
                    tx.set_message_text(conn, e[1], r["content"], r["created_at"])
                    self.bump(kind, "merged")
                else:
                    self.bump(kind, "skipped")

    def timelines(self, member: str) -> None:
        for batch in self.batched(member, 1000):
            for where, r in batch:
                ids = [self.ref(self.ep_id, u, member, where) for u in r["episodes"]
                       if not self.left_out(u)]
                added = tx.add_timeline_span(
                    self.conn, self.ref(self.msg_id, r["message"], member, where),
                    r["start"], r["end"], ids)
                self.bump("timelines", "added" if added else "skipped")

    def knowledge(self, member: str) -> None:
        kind, conn = "knowledge", self.conn
        know_id: dict[str, int] = {}
        dropped: set[str] = set()  # grounded only by memories left out: not written
        fix_superseded: list[tuple[int, str, int | str]] = []
        for batch in self.batched(member, 500):
            old = tx.existing_knowledge(conn, [r["uid"] for _, r in batch])
            for where, r in batch:
                emb, embn, _own = self.vec_for("knowledge", r)
                srcs = [self.ref(self.ep_id, u, member, where) for u in r["sources"]
                        if not self.left_out(u)]
                e = old.get(r["uid"])
                if e is None and r["sources"] and not srcs:
                    dropped.add(r["uid"])
                    continue
                if e is None:
                    kid = tx.insert_knowledge(conn, (
                        r["uid"], r["kind"], r["text"], emb, embn, r["created_at"],
                        r["updated_at"], r["strength"], r["archived_at"], r["access_count"],
                        r["last_access"]))
                    know_id[r["uid"]] = kid
                    tx.add_knowledge_sources(conn, kid, srcs)
                    if r["superseded_by"] is not None:
                        fix_superseded.append((kid, r["superseded_by"], where))
                    self.bump(kind, "added")
                    continue
                kid = e[0]
                know_id[r["uid"]] = kid
                changed = _knowledge_changes(e, r, emb, embn)
                if changed:
                    tx.update_columns(conn, "knowledge", kid, changed)
                added_src = tx.add_knowledge_sources(conn, kid, srcs)
                superseding = e[8] is None and r["superseded_by"] is not None
                if superseding:
                    fix_superseded.append((kid, r["superseded_by"], where))
                self.bump(kind, "merged" if (changed or added_src or superseding) else "skipped")
        for kid, target_uid, where in fix_superseded:
            if target_uid in dropped:
                continue
            tx.set_superseded(conn, kid, self.ref(know_id, target_uid, member, where))


def _episode_changes(e: tuple, r: dict, cid: int | None, emb: bytes | None,
                     embn: str | None, cent: bytes | None,
                     answered_at: Callable[[str], float | None]) -> dict[str, Any]:
    """The columns of a stored episode `e` (`tx.EPISODE_MERGE_COLUMNS`) that merging the
    file's record `r` changes: counts and times the larger, pinned if either is, the first
    conversation, meta and vector known, the fresher recall state."""
    new = {
        "conversation_id": e[2] if e[2] is not None else cid,
        "access_count": max(e[5], r["access_count"]),
        "last_access": _maxn(e[6], r["last_access"]),
        "importance": max(e[7], r["importance"]),
        "pinned": int(bool(e[8]) or bool(r["pinned"])),
        "meta": e[12] if e[12] is not None else r["meta"],
    }
    answer = _newer_answer(e, r, answered_at)
    if answer is not None:
        new["assistant_text"], new["meta"] = answer
    if e[3] is None and emb is not None:
        new["embedding"], new["embedder"] = emb, embn
    if r["query_count"] > e[10] and cent is not None:
        new["query_centroid"], new["query_count"] = cent, r["query_count"]
    if r["last_recall"] is not None and (
            e[11] is None or (r["last_access"] or 0) > (e[6] or 0)):
        new["last_recall"] = r["last_recall"]
    cur_vals = {"conversation_id": e[2], "access_count": e[5],
                "last_access": e[6], "importance": e[7], "pinned": e[8],
                "meta": e[12], "embedding": e[3], "embedder": e[4],
                "query_centroid": e[9], "query_count": e[10],
                "last_recall": e[11], "assistant_text": e[13]}
    return {k: v for k, v in new.items() if cur_vals[k] != v}


# what names an imported exchange's answer in a memory's meta (`importers.base.add_chat`)
_REPLY_KEYS = ("reply_id", "reply_at", "model")


def _newer_answer(e: tuple, r: dict, answered_at: Callable[[str], float | None]
                  ) -> tuple[str, str] | None:
    """(answer, meta) when the file's record gives a stored memory a newer answer: both
    were imported from a chat, the file's answer is another reply (``reply_id``: the
    answer was regenerated there, or another branch shown) and a newer one: its
    ``reply_at`` is later than the stored answer's (the memory's ``reply_at``; for one
    imported before those were kept, the time of its answer message in the chat,
    `answered_at`).  When either time is unknown, the stored answer stays: an older
    export, or another tool's export of the same chat, does not replace it.  The memory
    keeps its user words (edited here or not), links and history; one the user deleted
    is left alone.  None otherwise."""
    if e[14] is not None or e[12] is None or r["meta"] is None:
        return None
    try:
        old, got = json.loads(e[12]), json.loads(r["meta"])
    except ValueError:
        return None
    if type(old) is not dict or type(got) is not dict:
        return None
    reply = got.get("reply_id")
    if reply is None or old.get("reply_id") in (None, reply):
        return None
    was, now = old.get("reply_at"), got.get("reply_at")
    if not isinstance(was, (int, float)):
        was = answered_at(e[1])
    if not (isinstance(was, (int, float)) and isinstance(now, (int, float)) and now > was):
        return None
    for k in _REPLY_KEYS:
        if k in got:
            old[k] = got[k]
        else:
            old.pop(k, None)
    return r["assistant_text"], _obj_text(old)


def _forgotten(stats: str | None) -> str:
    """A message's statistics marked as those of an answer whose memory was deleted for
    good (``forgotten``: the model is not shown it again, as `Store.purge_episodes`
    marks them)."""
    try:
        obj = json.loads(stats) if stats is not None else {}
    except ValueError:
        obj = {}
    if type(obj) is not dict:
        obj = {}
    obj["forgotten"] = True
    return _obj_text(obj)


def _knowledge_changes(e: tuple, r: dict, emb: bytes | None,
                       embn: str | None) -> dict[str, Any]:
    """The columns of a stored knowledge item `e` (the order of
    `tx.existing_knowledge`) that merging the file's record `r` changes: the newer text,
    the larger strength and counts, a vector where it had none."""
    changed: dict[str, Any] = {}
    if r["updated_at"] > e[6]:
        changed.update(kind=r["kind"], text=r["text"], updated_at=r["updated_at"])
        if emb is not None:
            changed.update(embedding=emb, embedder=embn)
    elif e[4] is None and emb is not None:
        changed.update(embedding=emb, embedder=embn)
    if r["strength"] > e[7]:
        changed["strength"] = r["strength"]
    if r["access_count"] > e[9]:
        changed["access_count"] = r["access_count"]
    la = _maxn(e[10], r["last_access"])
    if la != e[10]:
        changed["last_access"] = la
    cur_vals = {"kind": e[2], "text": e[3], "embedding": e[4], "embedder": e[5],
                "updated_at": e[6]}
    return {k: v for k, v in changed.items() if k not in cur_vals or cur_vals[k] != v}


def _apply_edges(conn: Any, plan: _Plan, ep_id: dict[str, int], new_eps: set[int],
                 target_step: int, shift: int, lam: float, report: ImportReport,
                 tick: Callable[[int], None]) -> None:
    """Write the validated edges (kept in `plan`): plain inserts for edges that touch a new
    memory, the merge rule for edges between two memories the store already had."""
    n_eps = len(plan.ep_index)
    ids = np.zeros(n_eps, dtype=np.int64)
    fresh_ep = np.zeros(n_eps, dtype=bool)
    gone_ep = np.zeros(n_eps, dtype=bool)  # deleted for good here: their links left out
    for uid, i in plan.ep_index.items():
        eid = ep_id.get(uid)
        if eid is None and uid in plan.erased:
            gone_ep[i] = True
            continue
        if eid is None:
            raise _Bad(f"memory {uid!r} vanished (file changed while importing?)",
                       "edges.jsonl")
        ids[i] = eid
        fresh_ep[i] = eid in new_eps
    e_a = np.frombuffer(plan.e_a, dtype=np.int64) if len(plan.e_a) else np.zeros(0, np.int64)
    e_b = np.frombuffer(plan.e_b, dtype=np.int64) if len(plan.e_b) else np.zeros(0, np.int64)
    chunk = 20_000
    for lo in range(0, len(e_a), chunk):
        hi = min(lo + chunk, len(e_a))
        a, b = ids[e_a[lo:hi]], ids[e_b[lo:hi]]
        src, dst = np.minimum(a, b).tolist(), np.maximum(a, b).tolist()
        fresh = (fresh_ep[e_a[lo:hi]] | fresh_ep[e_b[lo:hi]]).tolist()
        gone = (gone_ep[e_a[lo:hi]] | gone_ep[e_b[lo:hi]]).tolist()
        w, p = plan.e_weight[lo:hi], plan.e_prior[lo:hi]
        c, u = plan.e_count[lo:hi], plan.e_updated[lo:hi]
        steps = [st + shift for st in plan.e_step[lo:hi]]
        inserts = []
        for j in range(hi - lo):
            if gone[j]:
                continue
            row = (src[j], dst[j], w[j], p[j], c[j], steps[j], u[j])
            if fresh[j]:
                inserts.append(row)
                continue
            e = tx.edge(conn, src[j], dst[j])
            if e is None:
                inserts.append(row)
                continue
            # the store's rule for an edge known twice (`edges.merge_edge`)
            merged = merge_edge(tuple(e), (w[j], p[j], c[j], steps[j], u[j]), target_step, lam)
            if merged != tuple(e):
                tx.update_edge(conn, src[j], dst[j], merged)
                report.merged["edges"] += 1
            else:
                report.skipped["edges"] += 1
        if inserts:
            tx.insert_edges(conn, inserts)
            report.added["edges"] += len(inserts)
        tick(hi - lo)
