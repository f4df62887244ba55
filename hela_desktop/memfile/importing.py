"""Import: a memory file (or a history export) into a store, all or nothing.

The stages run in order: the source is opened (`detect`) and prepared, the whole file is
validated (`validate`), what needs it is embedded in batches, and everything is written
in one savepoint (`merge`).  Any problem with the file raises one `MemoryFileError` and
leaves the store exactly as it was.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
import time
from collections.abc import Callable
from copy import deepcopy
from pathlib import Path
from typing import Any

import numpy as np

from ..paths import DEFAULT_EMBEDDER_NAME
from ..store import Store
from ..store import transfer as tx
from ..store.rows import OFF_BRANCH
from .detect import _open_source
from .format import (
    DEFAULT_EMBEDDER_DIM,
    DEFAULT_LIMITS,
    Limits,
    MemoryFileError,
    Progress,
    _Bad,
    _chunks,
    _Source,
)
from .merge import Vectors, _apply
from .report import ImportReport
from .validate import _Plan, _validate

Embed = Callable[[list[str]], Any]
Stage = Callable[[str, int, int], None]


class ImportCancelled(Exception):
    """The import was cancelled (its `cancel` event was set); nothing was written."""


class _DryRun(Exception):
    pass


class _WillChange(Exception):
    """Writing changes the store (the look before the backup, `_Import.write`)."""


def _embed_fn(embedder: Any) -> Callable[[list[str]], np.ndarray]:
    if hasattr(embedder, "embed"):
        return embedder.embed
    if callable(embedder):
        return embedder
    raise TypeError("embedder must be an Embedder, a callable(list[str]) -> array, or None")


def _target_embedder_name(store: Store, embedder: Any) -> str:
    """The embedder whose vectors the store should hold after the import.

    An `Embedder` (or anything with a ``name``) names itself; otherwise (None, or a bare
    callable) it is the store's ``embedder`` meta key, or the bundled default model.
    """
    name = getattr(embedder, "name", None) if embedder is not None else None
    return name or store.get_meta("embedder") or DEFAULT_EMBEDDER_NAME


def _target_dim(store: Store, embedder: Any, target_name: str) -> int | None:
    """The dimension the store's vectors have (None when nothing tells)."""
    dim = getattr(embedder, "dim", None) if embedder is not None else None
    if dim:
        return int(dim)
    dim = store.embedding_dim()
    if dim:
        return dim
    return DEFAULT_EMBEDDER_DIM if target_name == DEFAULT_EMBEDDER_NAME else None


def _embed_all(items: list[tuple[str, str, str]], embedder: Any, progress, done: int,
               total: int) -> dict[tuple[str, str], bytes]:
    if embedder is None:
        from ..embedder import Embedder

        embedder = Embedder()
    fn = _embed_fn(embedder)
    out: dict[tuple[str, str], bytes] = {}
    for chunk in _chunks(items, 256):
        vecs = np.asarray(fn([t for _, _, t in chunk]), dtype=np.float32)
        if vecs.ndim != 2 or vecs.shape[0] != len(chunk):
            raise ValueError(f"embedder returned shape {vecs.shape} for {len(chunk)} texts")
        for (table, uid, _), v in zip(chunk, vecs, strict=True):
            out[(table, uid)] = v.tobytes()
        done += len(chunk)
        if progress is not None:
            progress(done, total)
    return out


def _left_out_erased(store: Store, report: ImportReport) -> bool:
    """What the file holds that the user deleted for good here and the store still had
    (another file's erasures, a backup's, name it) goes again at once, and the report
    counts it as left out, not added (`Store.erase_again`); True when there was some.
    (A memory the store no longer holds was not written at all, `merge`.)"""
    ids, links, knowledge = store.erase_again()
    if not ids:
        return False
    report.erased += len(ids)
    for kind, n in (("episodes", len(ids)), ("edges", links), ("knowledge", knowledge)):
        if kind in report.added:
            report.added[kind] = max(0, report.added[kind] - n)
    report.added_deleted = min(report.added_deleted, report.added.get("episodes", 0))
    return True


def _follow_branches(store: Store, src: _Source, report: ImportReport, older: set[str]) -> None:
    """A newer export of chats imported before: the memories of the user's messages it
    shows on another branch than their chat shows now (a question edited there) are
    archived (those on the shown branch again came back as they were merged,
    `merge._Merge.back_on_branch`), unless the store's version of the chat is newer
    (`older`).  Imported chats follow the branch their newest export shows."""
    retired: dict[str, str] | None = getattr(src, "retired", None)
    if not retired:
        return
    uids = sorted(u for u, conv in retired.items() if conv not in older)
    ids = [i for chunk in _chunks(uids, 500) for i in tx.live_episode_ids(store.conn, chunk)]
    if ids:
        from ..importers.base import NAMES

        why = OFF_BRANCH + NAMES.get(src.kind, src.kind)
        store.archive_episodes([(i, why) for i in ids], time.time())
        report.off_branch = len(ids)


def import_file(
    store: Store,
    path: str | os.PathLike,
    *,
    embedder: Any = None,
    dry_run: bool = False,
    progress: Progress | None = None,
    lam: float | None = None,
    limits: Limits = DEFAULT_LIMITS,
    stage: Stage | None = None,
    cancel: threading.Event | None = None,
    backup_keep: int = 0,
) -> ImportReport:
    """Import a memory file into `store`, all or nothing.

    `path` may be a ``.hela`` archive, a JSON list of memories (streaming-memory layout:
    ``content``, ``created_at`` ISO string, ``emotional_intensity``, ``type``) or a text /
    Markdown file (one memory per paragraph).  `embedder` (an `Embedder` or a callable
    ``list[str] -> (n, dim) array``) embeds memories that arrive without a usable embedding;
    when None, the default `Embedder()` is loaded only if something needs embedding.
    ``dry_run`` validates and counts without writing (and without embedding).  `lam` is the
    Hebbian decay λ used to compare edge weights when merging (default: `HelaParams.lam`).
    ``progress(done, total)`` reports records processed (``total`` 0 while unknown).
    `path` may also be a conversation export or a notes folder (see `hela_desktop.importers`).
    ``stage(name, start, end)`` announces each phase and the progress values it spans
    (``end`` 0 while unknown): ``"reading"`` (a conversation export is parsed; progress in
    bytes), ``"checking"``, ``"embedding"`` (progress advances one per text), ``"backup"``
    (with `backup_keep`, below; progress in bytes of the memory file), ``"writing"``.
    Setting `cancel` (a `threading.Event`) stops the import at the next progress step with
    `ImportCancelled`, the store unchanged (a backup it was making is not kept).
    `backup_keep` > 0: just before writing into a store that holds memories, a backup of it
    is made (``memory-…-before-import.sqlite3``, `hela_desktop.backups`; the newest
    `backup_keep` kept), so that restoring it undoes the import (`ImportReport.backup`).

    Raises `MemoryFileError` (store unchanged) for any problem with the file.
    """
    t0 = time.perf_counter()
    path = Path(path)
    if lam is None:
        from ..config import HelaParams

        lam = HelaParams().lam
    job = _Import(store, path, embedder, dry_run, lam, progress, stage, cancel)
    job.backup_keep = 0 if dry_run else int(backup_keep)
    try:
        src = _open_source(path, limits, time.time())
        _leave_out_what_is_here(src, store)
        try:
            report, total = job.run(src)
        finally:
            src.close()
    except _Bad as bad:
        raise MemoryFileError(path, bad.where or "file", bad.what) from None
    if job.progress is not None:
        job.progress(total, total)
    report.seconds = time.perf_counter() - t0
    return report


def _leave_out_what_is_here(src: _Source, store: Store) -> None:
    """For a source whose chats may be the store's own (HeLa's chat export read back into
    the folder it came from): an exchange whose user words are a memory said at its time
    is left out, counted, instead of stored twice (QA pass 29)."""
    from ..importers.base import HistorySource

    if isinstance(src, HistorySource) and src.said_within > 0:
        # a memory is made when its answer ends, the message's time is when it was sent
        # (QA pass 33: two answers that ended in the next minute came in twice)
        within = src.said_within + ANSWER_TAKES_S
        src.said_here = lambda text, at: store.said_between(text, at - 1.0, at + within)


ANSWER_TAKES_S = 900.0  # the longest an answer is taken to take, for `_leave_out_what_is_here`


class _Import:
    """One import's settings and its phases (`stage` names them; `cancel` stops them)."""

    def __init__(self, store: Store, path: Path, embedder: Any, dry_run: bool, lam: float,
                 progress: Progress | None, stage: Stage | None,
                 cancel: threading.Event | None) -> None:
        self.store, self.path, self.embedder, self.dry_run = store, path, embedder, dry_run
        self.lam, self.stage, self.cancel = lam, stage, cancel
        self.target_name = _target_embedder_name(store, embedder)
        self.dim = _target_dim(store, embedder, self.target_name)
        self.user_progress = progress
        self.progress: Progress | None = progress if cancel is None else self._checked
        self.backup_keep = 0  # > 0: back the store up just before writing

    def _cancelled(self) -> ImportCancelled:
        return ImportCancelled(f"{self.path}: import cancelled; nothing was changed")

    def _checked(self, done: int, total: int) -> None:
        if self.cancel is not None and self.cancel.is_set():
            raise self._cancelled()
        if self.user_progress is not None:
            self.user_progress(done, total)

    def enter(self, name: str, start: int = 0, end: int = 0) -> None:
        if self.cancel is not None and self.cancel.is_set():
            raise self._cancelled()
        if self.stage is not None:
            self.stage(name, start, end)

    def run(self, src: _Source) -> tuple[ImportReport, int]:
        """Read, check, embed and write `src`; the report and the progress total."""
        store, progress = self.store, self.progress
        self.enter("reading")
        src.prepare(progress, store.path.parent)
        # progress units: records validated + records written (+ texts embedded)
        total0 = 2 * sum(src.manifest.get("counts", {}).values())
        self.enter("checking", 0, total0 // 2)  # checking is the first half of the records' work
        plan = _validate(src, store.conn, self.target_name, self.dim, progress, total0)
        report = ImportReport(path=self.path, kind=src.kind, dry_run=self.dry_run,
                              bad_vectors=plan.bad_vectors)
        total = plan.records * 2 + len(plan.to_embed)
        vectors: Vectors = {}
        if plan.to_embed and not self.dry_run:
            self.enter("embedding", plan.records, plan.records + len(plan.to_embed))
            t_emb = time.perf_counter()
            vectors = _embed_all(plan.to_embed, self.embedder, progress, plan.records, total)
            report.embed_seconds = time.perf_counter() - t_emb
        report.embedded = len(plan.to_embed)
        done0 = plan.records + (0 if self.dry_run else len(plan.to_embed))
        size = self.backup_size() if plan.records else 0
        if size:
            # a backup only for an import that changes something: first a write that
            # stops (undone) at its first change, as more checking (the bar leaves the
            # backup its part); when it changes nothing, that was the import
            self.enter("checking", done0, total)
            before = deepcopy(report)
            if self.write(src, plan, vectors, report, done0, total, probe=True):
                self.enter("writing", total, total)
                report.details = src.details
                return report, total
            report = before
            self.back_up(report, size)
        self.enter("writing", done0, total)
        self.write(src, plan, vectors, report, done0, total)
        report.details = src.details
        return report, total

    def backup_size(self) -> int:
        """The bytes the backup before writing copies; 0 when none is made (backups are
        not kept, or the store holds no memories)."""
        from ..backups import before_import_bytes

        return before_import_bytes(self.store, self.backup_keep)

    def back_up(self, report: ImportReport, size: int) -> None:
        """The backup just before writing, when backups are kept and the store holds
        memories: a stage of its own, its progress the memory file's bytes copied."""
        from ..backups import BEFORE_IMPORT, make_backup

        self.enter("backup", 0, size)
        progress = self.progress
        report.backup = make_backup(
            self.store, keep=self.backup_keep, suffix=BEFORE_IMPORT,
            progress=None if progress is None else
            lambda d, of: progress(size * d // max(of, 1), size)
        ).name

    def _unchanged(self, start: int) -> Progress:
        """Progress that stops the write (`_WillChange`) once the store has changed."""
        def progress(done: int, total: int) -> None:
            if tx.changes(self.store.conn) != start:
                raise _WillChange
            if self.progress is not None:
                self.progress(done, total)
        return progress

    def write(self, src: _Source, plan: _Plan, vectors: Vectors, report: ImportReport,
              done: int, total: int, probe: bool = False) -> bool:
        """Merge into the store in one savepoint (a dry run: into a throw-away copy, or
        rolled back).  `probe`: stop, undoing what was written, as soon as the store
        changes (seen at each progress step and at the end); False when it did."""
        store = self.store
        start = tx.changes(store.conn)
        progress = self._unchanged(start) if probe else self.progress
        erased = False
        with tx.page_cache(store.conn, 65536):  # 64 MiB while importing
            # a dry run writes into an in-memory copy of the store: it needs no write lock,
            # so it works while another process writes (unless the caller holds one anyway)
            copy = (store.memory_copy() if self.dry_run and not store.conn.in_transaction
                    else contextlib.nullcontext(store))
            try:
                # a savepoint makes the import all-or-nothing even when the caller
                # already holds a transaction (store.transaction() nests by joining)
                with copy as into, into.transaction() as conn, \
                        tx.savepoint(conn, "hela_memfile_import"):
                    older = _apply(src, into, plan, vectors, self.target_name, self.dim,
                                   self.lam, report, progress, done, total)
                    erased = _left_out_erased(into, report)
                    _follow_branches(into, src, report, older)
                    if self.dry_run:
                        raise _DryRun
                    if probe and tx.changes(store.conn) != start:
                        raise _WillChange
            except _DryRun:
                pass
            except _WillChange:
                return False
            except sqlite3.IntegrityError as exc:
                raise _Bad(f"conflicts with the store ({exc})", "import") from None
            if erased and not self.dry_run and not store.conn.in_transaction:
                store.scrub()  # their words, written and removed in this import
        return True
