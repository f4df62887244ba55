"""The operations the window asks of the assistant thread (`AssistantWorker.op`).

Each is one function ``run(worker, loader, arg) -> result`` in `OPS` (`loader`: the
worker's `hela_desktop.loader.AssistantLoader`, whose store is open and whose engine is
loaded when the op asks for the embedder; none needs the chat model), with what it needs
(the embedder), whether it changes memory (the cause its `MemoryChangedEvent` names) and
whether its answer goes out another way than ``opDone`` (``quiet``).  Qt-free apart from
the worker's signals they emit.

``edit`` (id, user, assistant) · ``pin`` (id, bool) · ``delete`` id · ``restore`` id ·
``purge`` [id, ...] (archived or deleted ones, for good) ·
``export`` path · ``import`` path · ``offsets`` (message id, text) · ``rename_conv``
(id, title) · ``delete_conv`` id · ``delete_conv_memories`` id (and its memories) · ``knowledge_edit`` (id, text) · ``knowledge_delete`` id
· ``knowledge_restore`` id · ``search`` (who, text) · ``rewind`` (conversation id, message
id, the message to send then) · ``conversation`` id · ``conversations`` · ``browse`` `BrowseQuery` · ``locate`` id
(where a memory is now: kept, with its graph node, archived, deleted or gone) · ``backup`` (a backup of the
memory file now) · ``find_chats`` text (the chats whose messages hold its words).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..backups import delete_chat_in_backups
from ..config import SETTINGS_FILE
from ..edges import GraphNode
from ..session import browse, conversation_event, conversations_event
from ..store import REPLACED


class OpCancelled(Exception):
    """The user cancelled the job (nothing of it was kept)."""


@dataclass(frozen=True)
class Op:
    run: Callable[[Any, Any, Any], Any]  # (worker, loader, arg) -> result
    embedder: bool = False  # load the embedder first
    changes_memory: str = ""  # the MemoryChangedEvent's cause ("" = changes none)
    quiet: bool = False  # its answer goes out by its own signal, not opDone

    def ids(self, arg, result) -> list[int]:
        """The memories the op touched, where its argument or result says."""
        if self.changes_memory == "rewind":
            return [int(i) for i in result or []]
        if self.changes_memory in ("edit", "pin"):
            return [int(arg[0])]
        if self.changes_memory == "delete":
            return [int(arg)]
        if self.changes_memory == "restore":
            return restore_ids(arg)
        if self.changes_memory in ("purge", "delete_chat"):
            return [int(i) for i in result or []]
        return []


def _edit(_w, a, arg) -> None:
    eid, user, assistant_text = arg
    a.engine.edit_episode(int(eid), user, assistant_text)


def _pin(w, a, arg) -> None:
    eid, pinned = arg
    if a.engine is not None:
        a.engine.set_pinned(int(eid), bool(pinned))
    else:
        a.store.set_pinned(int(eid), bool(pinned))
    # each chat counts its pinned memories, which deleting it with its memories leaves:
    # the question counted the pins of when the list was read (the verification of 0.15)
    w.update.emit(conversations_event(a.store))


def _delete(_w, a, arg) -> None:
    a.engine.delete_episode(int(arg))


def restore_ids(arg) -> list[int]:
    """The memories a "restore" op brings back: one ID, or a list (Undo of a step, several
    chosen in the Archive)."""
    return [int(i) for i in arg] if isinstance(arg, (list, tuple)) else [int(arg)]


def _restore(_w, a, arg) -> None:
    for eid in restore_ids(arg):
        a.engine.restore_episode(eid)


def _after(job: Callable[[], Any]) -> None:
    """A deletion's share in the backups, on a thread of its own: the assistant thread (a
    new message) does not wait for it (3 to 4 s with a week of backups of 100,000
    memories).  A run cut short by quitting is made good by the next deletion."""
    import logging
    import threading

    def run() -> None:
        try:
            job()
        except Exception:  # noqa: BLE001 - logged; the memory file is done already
            logging.getLogger(__name__).exception("cleaning the backups failed")

    threading.Thread(target=run, name="hela-backups", daemon=True).start()


def _purge(_w, a, arg) -> list[int]:
    from ..backups import erase_in_backups
    from ..forgetting import purge

    gone = purge(a.engine if a.engine is not None else a.store, [int(i) for i in arg],
                 backups=False)
    if gone:
        path = a.store.path
        _after(lambda: erase_in_backups(path))
    return gone


def _export(w, a, arg) -> str:
    from ..memfile import export_store

    path = Path(arg)
    fmt = "markdown" if path.suffix.lower() in (".md", ".markdown") else "native"
    result = export_store(a.store, path, fmt=fmt, hela=a.engine.hela,
                          progress=lambda d, t: w.progress.emit("export", int(d), int(t)))
    if fmt == "markdown":
        return result.sentence()
    # (QA pass 38: it said to copy settings.json where there was none, no setting changed)
    changed = (Path(a.store.path).parent / SETTINGS_FILE).exists()
    return result.sentence() + (STAYS_BEHIND if changed else DEFAULTS_STAY)


# what a memory file does not carry, said under an export from the window (QA pass 35: on
# another computer the settings and the theme were gone without a word)
STAYS_BEHIND = ("\n\nYour settings and the window's look are not in it: to take the settings "
                "along, copy settings.json from the data folder too.")
DEFAULTS_STAY = ("\n\nYour settings and the window's look are not in it; you have changed no "
                 "setting yet, so there is no settings file to take along.")


def _import(w, a, arg) -> str:
    from ..backups import before_import_bytes
    from ..memfile import ImportCancelled, ProgressText, import_file

    words = ProgressText(before_import_bytes(a.store, a.settings.backup_keep))

    def progress(d: int, t: int) -> None:
        note = words.progress(d, t)
        w.progress.emit("import", *words.bar())  # one bar over the whole import
        w.progressNote.emit("import", note)

    try:
        rep = import_file(a.store, Path(arg), embedder=a.embedder, lam=a.settings.hela.lam,
                          progress=progress, stage=words.stage, cancel=w.import_cancel,
                          backup_keep=a.settings.backup_keep)
    except ImportCancelled:
        raise OpCancelled("cancelled") from None
    a.engine.reload_index()
    w.update.emit(conversations_event(a.store))  # imported chats
    return rep.sentence()


def _rewind(w, a, arg) -> list[int]:
    """(chat, message id, the message to send then): drop it and what follows; the chat as
    it is now goes out.  A message the model would refuse (too long, empty) fails the op
    first, and nothing is taken back."""
    cid, mid, text = arg
    if text:
        if a.llm is None:  # loaded as for a send, its progress shown
            w._load_model(a.load_model, a.settings)
        a.load_model().check_message(text)
    result = a.store.delete_messages_from(int(cid), int(mid))
    for eid in result:  # the memories of answers taken back (restorable)
        a.engine.delete_episode(int(eid), REPLACED)
    w.update.emit(conversation_event(a.store, int(cid), reason="rewind"))
    w.update.emit(conversations_event(a.store))
    return result


def _search(_w, a, arg) -> list[tuple[int, float, str, bool]]:
    """(who asked, text) -> [(id, score, how near in meaning alone, only by HeLa's answer)],
    best first: "nearest" (offered as the nearest, nothing matching), "meaning" (matched by
    meaning and by none of the searched words: QA pass 30, "Where do I work?" for "job"
    looked like a word match; the terminal says "(meaning)"), or "" (words matched)."""
    return [(r.episode_id, r.score, "nearest" if r.path == "nearest" else
             "meaning" if r.path == "search" and not r.keyword and not r.extra.get("as_written")
             else "", r.path == "answer")
            for r in a.engine.search(arg[1])]


def _knowledge_edit(_w, a, arg) -> None:
    from .. import knowledge as K

    K.edit_item(a.store, a.embedder, int(arg[0]), str(arg[1]))


def _knowledge_delete(_w, a, arg) -> None:
    from .. import knowledge as K

    K.delete_item(a.store, int(arg))


def _knowledge_restore(_w, a, arg) -> None:
    from .. import knowledge as K

    K.restore_item(a.store, int(arg))


def _rename_conv(w, a, arg) -> None:
    cid, title = arg
    a.store.rename_conversation(int(cid), title)
    w.update.emit(conversations_event(a.store))


def _delete_conv(w, a, arg) -> int:
    """The chat deleted, its memories kept; how many it had formed (the status bar says
    they stay only when there were some)."""
    uid = a.store.conversation_uid(int(arg))
    formed = len(a.store.conversation_episode_ids(int(arg)))
    a.store.delete_conversation(int(arg))
    path = a.store.path
    _after(lambda: delete_chat_in_backups(path, uid))
    w.update.emit(conversations_event(a.store))
    return formed


def _delete_conv_memories(w, a, arg) -> list[int]:
    """The chat, and the memories formed in it deleted (restorable, as a delete is), but
    the pinned ones: a pin says "keep this" (QA pass 23: a pinned memory went with its
    chat, and the dialog had not said so)."""
    uid = a.store.conversation_uid(int(arg))
    try:
        with a.store.transaction():  # the chat and its memories together, or neither
            gone = a.store.conversation_episode_ids(int(arg), pinned=False)
            for eid in gone:
                a.engine.delete_episode(eid)
            a.store.delete_conversation(int(arg))
    except Exception:
        a.engine.reload_index()  # what left recall comes back with the rollback
        raise
    path = a.store.path
    _after(lambda: delete_chat_in_backups(path, uid))
    w.update.emit(conversations_event(a.store))
    return gone


def _offsets(w, _a, arg) -> None:
    mid, text = arg
    w.tokenOffsets.emit(int(mid), w.token_offsets(text))


def _conversation(w, a, arg) -> None:
    """A chat's messages: `arg` its id, or (id, why: "open", "refresh")."""
    cid, reason = (arg, "open") if isinstance(arg, int) else arg
    w.update.emit(conversation_event(a.store, int(cid), reason=reason))


def _conversations(w, a, _arg) -> None:
    w.update.emit(conversations_event(a.store))


def _browse(_w, a, arg) -> dict:
    return browse(a.store, arg)


def _backup(_w, a, _arg) -> dict:
    """A backup of the memory file now (File ▸ Backups ▸ Back up now)."""
    from ..backups import make_backup

    keep = a.settings.backup_keep
    return make_backup(a.store, keep=keep or None).to_dict()


def _find_chats(_w, a, arg) -> dict[int, str]:
    """The chats whose messages hold every word of `arg` (the chat list's search): {chat
    id: the part of the message around the words}, not whole messages (an imported one
    may be megabytes, and the window needs a line)."""
    from ..words import snippet

    words = str(arg).split()
    return {cid: snippet(text, words) for cid, text in a.store.find_in_chats(words).items()}


def _locate(_w, a, arg) -> dict:
    """Where memory `arg` is now: "kept" (in recall), "archived", "deleted" (with when),
    or "gone" (deleted for good, or never there)."""
    e = a.store.episodes([int(arg)]).get(int(arg))
    if e is None:
        return {"id": int(arg), "state": "gone", "at": None}
    if e.deleted_at is not None:
        return {"id": e.id, "state": "deleted", "at": e.deleted_at}
    if e.archived_at is not None:
        return {"id": e.id, "state": "archived", "at": e.archived_at}
    # kept: the memory as the graph's nodes are, so that the window can explain it (why it
    # was recalled) though the graph holds only the newest
    return {"id": e.id, "state": "kept", "at": None, "node": GraphNode.of(e).as_dict()}


OPS: dict[str, Op] = {
    "edit": Op(_edit, embedder=True, changes_memory="edit"),
    "pin": Op(_pin, changes_memory="pin"),
    "delete": Op(_delete, embedder=True, changes_memory="delete"),
    "restore": Op(_restore, embedder=True, changes_memory="restore"),
    "purge": Op(_purge, changes_memory="purge"),
    "export": Op(_export),
    "import": Op(_import, embedder=True, changes_memory="import"),
    "rewind": Op(_rewind, embedder=True, changes_memory="rewind"),
    "search": Op(_search, embedder=True),
    "knowledge_edit": Op(_knowledge_edit, embedder=True, changes_memory="knowledge"),
    "knowledge_delete": Op(_knowledge_delete, changes_memory="knowledge"),
    "knowledge_restore": Op(_knowledge_restore, changes_memory="knowledge"),
    "rename_conv": Op(_rename_conv),
    "delete_conv": Op(_delete_conv),
    "delete_conv_memories": Op(_delete_conv_memories, embedder=True, changes_memory="delete_chat"),
    "offsets": Op(_offsets, quiet=True),
    "conversation": Op(_conversation, quiet=True),
    "conversations": Op(_conversations, quiet=True),
    "browse": Op(_browse),
    "locate": Op(_locate),
    "backup": Op(_backup),
    "find_chats": Op(_find_chats),
}
