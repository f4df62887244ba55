"""Automatic backups of the memory file (Qt-free).

A copy of ``memory.sqlite3`` is made in ``<data folder>/backups/`` while the app sits idle,
at most once every ``Settings.backup_every_days`` (default 1), and the newest
``Settings.backup_keep`` (default 7; 0: no automatic backups) are kept.  Each copy is a
whole, consistent memory file (SQLite's online backup, written beside and then renamed
into place, owner-only), named for when it was made:
``memory-2026-12-02-013005.sqlite3``.

Deleting means it here too: a memory deleted for good (`forgetting.purge`) is erased
from every backup as well (`erase_in_backups`), and restoring a backup
(`restore_backup`) never brings back a memory erased after it was made.  Restoring
first keeps the memory file it replaces, as ``memory-…-before-restore.sqlite3``, so a
restore can itself be undone.  An import into a folder that holds memories first makes
``memory-…-before-import.sqlite3``; the newest `IMPORT_BACKUPS_KEPT` of those are kept
beside the daily ones, never in their place.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from .paths import create_private_file, private_data_dir
from .store import Store, StoreError

BACKUP_DIR = "backups"
_PREFIX = "memory-"
_SUFFIX = ".sqlite3"
_STAMP = "%Y-%m-%d-%H%M%S"
BEFORE_RESTORE = "-before-restore"
BEFORE_IMPORT = "-before-import"
# the backups made before an import kept beside the daily ones (never more than `keep`):
# enough to undo the last import and the one before it, without an afternoon of imports
# pushing a week of daily backups out
IMPORT_BACKUPS_KEPT = 2


@dataclass(frozen=True)
class Backup:
    path: Path
    made_at: float  # epoch seconds, from the name (local time)
    size: int  # bytes

    @property
    def name(self) -> str:
        return self.path.name

    @property
    def before_restore(self) -> bool:
        """The memory file a restore replaced (kept so the restore can be undone; never
        deleted by the rotation)."""
        return self.path.stem.endswith(BEFORE_RESTORE)

    @property
    def before_import(self) -> bool:
        """Made just before an import wrote anything (restoring it undoes the import)."""
        return self.path.stem.endswith(BEFORE_IMPORT)

    @property
    def daily(self) -> bool:
        """One of the daily rotation (or made with Back up now): `keep` of them are kept."""
        return not (self.before_restore or self.before_import)

    @property
    def note(self) -> str:
        """Why it was made, when not by the daily rotation: a few words."""
        if self.before_restore:
            return "the memory file a restore replaced"
        return "made before an import" if self.before_import else ""

    def to_dict(self) -> dict:
        return {"file": self.name, "path": str(self.path), "made_at": self.made_at,
                "made": time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(self.made_at)),
                "bytes": self.size, "before_restore": self.before_restore,
                "before_import": self.before_import}


def backup_dir(db_file: Path) -> Path:
    """Where the backups of memory file `db_file` live."""
    return Path(db_file).parent / BACKUP_DIR


def _parse(path: Path) -> Backup | None:
    stem = path.name[len(_PREFIX):-len(_SUFFIX)]
    if not (path.name.startswith(_PREFIX) and path.name.endswith(_SUFFIX)):
        return None
    stem = stem.removesuffix(BEFORE_RESTORE).removesuffix(BEFORE_IMPORT)
    try:
        made = time.mktime(time.strptime(stem, _STAMP))
        size = path.stat().st_size
    except (ValueError, OverflowError, OSError):
        return None  # not one of ours: left alone
    return Backup(path, made, size)


def list_backups(db_file: Path) -> list[Backup]:
    """The backups of `db_file`, newest first (files of other names are not backups)."""
    folder = backup_dir(db_file)
    if not folder.is_dir():
        return []
    found = [b for b in (_parse(p) for p in folder.iterdir() if p.is_file()) if b is not None]
    return sorted(found, key=lambda b: (b.made_at, b.name), reverse=True)


def due(db_file: Path, every_days: float, keep: int, now: float | None = None) -> bool:
    """Whether an automatic backup is due: backups are on (`keep` > 0) and the newest
    daily one (not one made before an import or a restore, which are kept apart) is at
    least `every_days` old (or there is none)."""
    if keep <= 0:
        return False
    now = time.time() if now is None else now
    made = [b.made_at for b in list_backups(db_file) if b.daily]
    return not made or now - max(made) >= every_days * 86400.0


def _free_name(folder: Path, now: float, suffix: str = "") -> Path:
    stamp = time.strftime(_STAMP, time.localtime(now))
    path = folder / f"{_PREFIX}{stamp}{suffix}{_SUFFIX}"
    n = 0
    while path.exists():  # two in one second: the next second's name
        n += 1
        stamp = time.strftime(_STAMP, time.localtime(now + n))
        path = folder / f"{_PREFIX}{stamp}{suffix}{_SUFFIX}"
    return path


def make_backup(store: Store, *, keep: int | None = None, now: float | None = None,
                suffix: str = "", progress: Callable[[int, int], object] | None = None
                ) -> Backup:
    """Copy `store`'s memory file into its backups folder; then, if `keep` is given, delete
    the oldest regular backups beyond the newest `keep` (a copy kept by a restore is never
    deleted here).  The copy is complete or absent: it is written under a temporary name
    and renamed into place.  ``progress(pages copied, pages)`` as the copy goes
    (`Store.copy_to`)."""
    now = time.time() if now is None else now
    folder = backup_dir(store.path)
    private_data_dir(folder)
    final = _free_name(folder, now, suffix)
    partial = folder / f".partial-{final.name}"
    chats = store.conversation_uids()
    try:
        if progress is None:
            store.copy_to(partial)
        else:
            store.copy_to(partial, progress)
        # a purge or a chat deletion that committed while the copy was made reached the
        # backups listed then, not this one: what is erased or deleted now goes from it here,
        # before and after it is listed (one after the second look lists it and reaches it)
        erased = store.erased_uids()
        if erased:
            _erase_in(partial, erased)
        gone = chats - store.conversation_uids()
        _delete_chats_in(partial, gone)
        os.replace(partial, final)
        later = sorted(set(store.erased_uids()) - set(erased))
        if later:
            _erase_in(final, later)
        _delete_chats_in(final, chats - store.conversation_uids() - gone)
    finally:
        delete_backup(partial)  # gone once renamed; else with any log beside it
    if keep is not None:
        prune(store.path, keep)
    made = _parse(final)
    assert made is not None
    return made


def holds_memories(store: Store) -> bool:
    """Whether `store` holds any memory, in recall, archived or deleted (an empty one has
    nothing a backup could keep)."""
    return any(store.count_episodes(archived=a, deleted=d)
               for a, d in ((False, False), (True, False), (False, True)))


def before_import_bytes(store: Store, keep: int) -> int:
    """What the backup made before an import into `store` copies: the memory file's bytes
    when backups are kept (`keep` > 0) and it holds memories; 0 when none is made.  The
    import decides by it, and its progress bar weighs that stage by it."""
    if keep <= 0 or not holds_memories(store):
        return 0
    try:
        return max(1, store.path.stat().st_size)
    except OSError:
        return 1  # (the copy will say what is wrong)


def backup_if_due(store: Store, *, keep: int, every_days: float, log: bool = True
                  ) -> dict | None:
    """The daily backup, when one is due (`due`): made, the oldest beyond `keep` deleted,
    and (`log`) noted in the activity log (job ``backup``: a write, which waits for
    another writer; the copy itself only reads).  What was made
    (``Backup.to_dict()`` with ``kept``: how many regular backups there are now), or None
    when none was due (or the store is still empty: the first day's backup waits for its
    first memory).  Raises OSError, `StoreError` or sqlite3.Error if it fails (the file it
    was writing is gone; the memory file is untouched)."""
    if not due(store.path, every_days, keep) or not holds_memories(store):
        return None
    made = make_backup(store, keep=keep).to_dict()
    made["kept"] = len([b for b in list_backups(store.path) if b.daily])
    if log:
        with store.transaction():
            store.log_activity("backup", {"file": made["file"], "kept": made["kept"]})
    return made


def delete_backup(path: Path) -> None:
    """Delete one backup file (the user's choice), with any log SQLite left beside it."""
    for p in (Path(path), Path(f"{path}-wal"), Path(f"{path}-shm")):
        with contextlib.suppress(FileNotFoundError):
            p.unlink()


def prune(db_file: Path, keep: int) -> list[Path]:
    """Delete the daily backups beyond the newest `keep`, and those made before an import
    beyond the newest ``min(keep, IMPORT_BACKUPS_KEPT)``: an import's backup never takes a
    day's place.  (A restore's is never deleted here.)  The paths deleted."""
    found = list_backups(db_file)
    daily = [b for b in found if b.daily]
    imports = [b for b in found if b.before_import]
    gone = []
    for b in daily[max(0, keep):] + imports[max(0, min(keep, IMPORT_BACKUPS_KEPT)):]:
        delete_backup(b.path)
        gone.append(b.path)
    return gone


def erase_in_backups(db_file: Path) -> dict:
    """Erase from every backup the memories memory file `db_file` has deleted for good
    (its ``erased`` uids, read through a connection of its own: this may run on any
    thread), as `forgetting.purge` erased them from the file.  Every erasure so far is
    applied, so a run cut short (the app quit) is made good by the next.  A backup that
    cannot be opened cannot be cleaned, and is deleted (it could not be restored either).
    Returns ``{"backups": n cleaned, "memories": n erased in them, "deleted": [names]}``."""
    with Store(db_file, create=False) as store:
        uids = store.erased_uids()
    out: dict = {"backups": 0, "memories": 0, "deleted": []}
    if not uids:
        return out
    for b in list_backups(db_file):
        try:
            out["memories"] += _erase_in(b.path, uids)
            out["backups"] += 1
        except (StoreError, sqlite3.DatabaseError, OSError):  # unreadable: not kept either
            with contextlib.suppress(OSError):
                b.path.unlink()
            out["deleted"].append(b.name)
    return out


def delete_chat_in_backups(db_file: Path, uid: str | None) -> int:
    """Delete the chat of `uid` (deleted in the live file) from every backup, with its
    messages, as there; how many backups held it.  A backup that cannot be opened is left
    as it is (unlike an erasure, deleting a chat keeps its memories)."""
    held = 0
    for b in list_backups(db_file) if uid else []:
        try:
            held += _delete_chats_in(b.path, {str(uid)})
        except (StoreError, sqlite3.DatabaseError, OSError):
            continue
    return held


def _delete_chats_in(db_file: Path, uids: set[str]) -> bool:
    """Delete the chats of `uids` from memory file `db_file`, with their messages; whether
    it held any (their words are then scrubbed from the file's free pages)."""
    if not uids:
        return False
    with Store(db_file, create=False) as copy:
        held = sum(copy.delete_conversation_uid(u) for u in sorted(uids)) > 0
        if held:
            copy.scrub()
    return held


def _erase_in(db_file: Path, uids: list[str]) -> int:
    """Purge the memories of `uids` from memory file `db_file`; how many it held."""
    with Store(db_file, create=False) as copy:
        with copy.transaction():
            copy.add_erased(uids)
            ids, _links, _knowledge = copy.erase_again()
        if ids:  # the index and the log hold their words: rewritten (seconds on a big file)
            copy.scrub()
    return len(ids)


def restore_backup(db_file: Path, backup: Path, *, now: float | None = None) -> dict:
    """Put backup `backup` in place of memory file `db_file` (nothing may have it open:
    the caller holds the data folder's lock and has closed its store).

    The backup is checked first (a whole memory file, of a schema this version reads), on
    a copy, and the memories erased since it was made are erased from that copy; only then
    is the current file kept as ``memory-…-before-restore.sqlite3`` and replaced.  A
    refusal (`StoreError`) changes nothing.  Returns ``{"restored": name, "made_at": when
    the backup was made (None: a file not named as a backup), "kept": name of the copy of
    the replaced file, "erased": memories erased from the backup}``."""
    db_file, backup = Path(db_file), Path(backup)
    if not backup.is_file():
        raise StoreError(f"{backup}: no such backup")
    if not Store.is_memory_file(backup):
        raise StoreError(f"{backup.name}: cannot be restored: it is damaged, or not a HeLa "
                         "memory file")
    staged = db_file.with_name(f".restoring-{db_file.name}")
    erased = 0
    try:
        _copy_file(backup, staged)
        with Store(db_file, create=False) as live:
            uids = live.erased_uids()
            kept = make_backup(live, now=now, suffix=BEFORE_RESTORE)
        try:
            erased = _erase_in(staged, uids) if uids else 0
            with Store(staged, create=False) as check:
                ok = check.integrity_ok()
        except (StoreError, sqlite3.DatabaseError) as exc:
            kept.path.unlink()
            why = ("it was made by a newer version of HeLa Desktop" if "newer" in str(exc)
                   else "it is damaged, or not a HeLa memory file")
            raise StoreError(f"{backup.name}: cannot be restored: {why}") from exc
        if not ok:
            kept.path.unlink()
            raise StoreError(f"{backup.name}: the backup is damaged (integrity check failed)")
        for side in ("-wal", "-shm"):  # the replaced file's log must not meet the new one
            with contextlib.suppress(FileNotFoundError):
                Path(str(db_file) + side).unlink()
        os.replace(staged, db_file)
    finally:
        for p in (staged, Path(str(staged) + "-wal"), Path(str(staged) + "-shm")):
            with contextlib.suppress(FileNotFoundError):
                p.unlink()
    named = _parse(backup)
    return {"restored": backup.name, "made_at": None if named is None else named.made_at,
            "kept": kept.name, "erased": erased}


def _copy_file(src: Path, dest: Path) -> None:
    """Copy a backup byte for byte into an owner-only file.  A backup is not opened to be
    checked (that must not change it), unless SQLite's log lies beside it (an erasure cut
    short by a crash): then it is opened once, so that what the log holds is in the file."""
    if Path(f"{src}-wal").exists() and Store.is_memory_file(src):
        Store(src, create=False).close()  # the last connection to close folds the log in
    create_private_file(dest)
    with open(src, "rb") as a, open(dest, "r+b") as b:
        shutil.copyfileobj(a, b)
