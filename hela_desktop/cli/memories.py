"""``hela-desktop memories …``: the memory browser from the command line.

    memories list [--archived | --deleted] [--limit N] [--json]
    memories search TEXT [--limit N] [--json]     by meaning plus keywords, best first
    memories show ID [--json]
    memories edit ID [--user TEXT] [--answer TEXT] re-embeds, so recall follows the edit
    memories pin ID [--off]
    memories delete ID [--for-good]                soft delete (restorable), or erase
    memories restore ID                            undo a delete or an archive

Every change goes through `MemoryEngine` (the same calls the app makes); bad input — an
unknown id, nothing to change — is one ``error: …`` line on stderr and exit status 2.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import time
from pathlib import Path

from ..importers.base import NAMES
from ..knowledge import shown_corrections
from ..store import answered_by
from ..words import terminal_safe
from .common import (
    MAX_ID,
    add_data_dir,
    an_id,
    error,
    existing_store,
    holds_folder,
    in_range,
    no_such,
    shows_help,
)


def add_cli(subparsers) -> None:
    m = subparsers.add_parser("memories", help="list, search, show, edit, pin, delete, restore memories")
    msub = m.add_subparsers(dest="memories_cmd", metavar="ACTION")
    m.set_defaults(func=shows_help(m))

    def add(name: str, help_: str, func, *, with_id: bool = True, json_: bool = False):
        p = add_data_dir(msub.add_parser(name, help=help_))
        if with_id:
            p.add_argument("id", type=an_id, metavar="ID", help="memory (episode) id")
        if json_:
            p.add_argument("--json", action="store_true", help="print JSON")
        p.set_defaults(func=func)
        return p

    p = add("list", "memories, newest first", cmd_list, with_id=False, json_=True)
    which = p.add_mutually_exclusive_group()
    which.add_argument("--archived", action="store_true", help="the archived ones instead")
    which.add_argument("--deleted", action="store_true",
                       help="the deleted ones instead (restorable, or erased with "
                            "`memories delete ID --for-good`)")
    p.add_argument("--limit", type=in_range(1, MAX_ID), default=50, help="at most this many (default 50)")
    p = add("search", "search by meaning plus keywords, best first", cmd_search, with_id=False,
            json_=True)
    p.add_argument("text", metavar="TEXT", help="what to look for")
    p.add_argument("--limit", type=in_range(1, MAX_ID), default=20, help="at most this many (default 20)")
    add("show", "one memory in full", cmd_show, json_=True)
    p = add("edit", "change a memory's text (it is re-embedded)", cmd_edit)
    p.add_argument("--user", help="new text of what you said")
    p.add_argument("--answer", help="new text of HeLa's answer")
    p = add("pin", "pin a memory (never archived by forgetting)", cmd_pin)
    p.add_argument("--off", action="store_true", help="unpin")
    p = add("delete", "delete a memory (restorable with `memories restore`)", cmd_delete)
    p.add_argument("--for-good", action="store_true",
                   help="erase it from the memory file, with its links and any knowledge "
                        "drawn only from it (cannot be undone)")
    add("restore", "bring back a deleted or archived memory", cmd_restore)
    for name in ("edit", "pin", "delete", "restore"):
        holds_folder(msub.choices[name], create=False)
    add_data_dir(m)


# ---------------------------------------------------------------------- helpers ------
def _store(args):
    return existing_store(Path(args.data_dir))


def _engine(store, with_embedder: bool):
    from ..config import Settings
    from ..memory import MemoryEngine

    embedder = None
    if with_embedder:
        from ..embedder import Embedder

        embedder = Embedder()
    try:
        settings = Settings.load(store.path.parent)
    except ValueError:
        settings = Settings()
    return MemoryEngine(store, embedder, settings)


def _episode(store, eid: int):
    e = store.episode(eid)
    if e is None:
        raise LookupError(no_such("memory", eid, store))
    return e


def _state(e) -> str:
    if e.deleted_at is not None:
        return "deleted"
    if e.archived_at is not None:
        return "archived"
    return "active"


def _when(ts: float | None) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(ts)) if ts else "never"


def _as_dict(e, recall=None) -> dict:
    d = {"id": e.id, "user": e.user_text, "assistant": e.assistant_text,
         "created_at": e.created_at, "pinned": e.pinned, "state": _state(e),
         "access_count": e.access_count, "last_access": e.last_access,
         "conversation_id": e.conversation_id, "source": e.source}
    if recall is not None:
        d.update(score=round(recall.score, 4), semantic=round(recall.semantic, 4),
                 keyword=round(recall.keyword, 4), nearest=recall.path == "nearest")
        for key in ("corrects", "corrected_by"):  # a correction with what it corrects
            if recall.extra.get(key) is not None:
                d[key] = int(recall.extra[key])
    return d


def _origin(e) -> str:
    """Where an imported memory came from, for `memories show`: "ChatGPT export, chat
    “Pet names” (gpt-4o), imported 2026-12-02 10:30"; "" for one said here."""
    if e.source not in NAMES:
        return ""
    m = e.meta if isinstance(e.meta, dict) else {}
    where = f"chat “{m['conversation_title']}”" if m.get("conversation_title") else \
        str(m.get("file") or "")
    model = f" ({m['model']})" if m.get("model") else ""
    when = f", imported {_when(m['imported_at'])}" if m.get("imported_at") else ""
    return f"{NAMES[e.source]}{', ' + where if where else ''}{model}{when}"


def _indented(text: str) -> str:
    """A memory's text under its heading, every line indented (a note's title and body,
    a code block); a control character is shown, not obeyed (`words.terminal_safe`)."""
    return "\n".join("  " + line if line.strip() else ""
                     for line in terminal_safe(text).splitlines())


def _room(width: int, used: int) -> int:
    """How much of a memory's text a line shows: `width`, narrowed to the terminal (or
    $COLUMNS) so that a line of `used` more characters does not wrap; piped output keeps
    `width`."""
    if "COLUMNS" in os.environ or sys.stdout.isatty():
        cols = shutil.get_terminal_size((width + used, 24)).columns
        return max(20, min(width, cols - used))
    return width


def _line(e, width: int = 100) -> str:
    text = " ".join(f"{e.user_text} — {e.assistant_text}".split()) if e.assistant_text \
        else " ".join(e.user_text.split())
    text = terminal_safe(text if len(text) <= width else text[: width - 1] + "…")
    pin = "★" if e.pinned else " "
    return f"#{e.id:<5} {_when(e.created_at)} {pin} {text}"


def _run(func):
    """Run a command body; unknown ids and missing folders become `error:` lines (exit 2)."""
    def wrapper(args) -> int:
        try:
            return func(args)
        except LookupError as exc:
            return error(str(exc).strip("'\""))
    return wrapper


def _on_memory(func):
    """A command on one memory: `func(args, store, episode)` with the store open and the
    memory found (an unknown id is an `error:` line, exit 2)."""
    @_run
    def wrapper(args) -> int:
        with _store(args) as store:
            return func(args, store, _episode(store, args.id))
    return wrapper


# ---------------------------------------------------------------------- commands -----
@_run
def cmd_list(args) -> int:
    with _store(args) as store:
        eps = store.list_episodes(only_archived=args.archived, only_deleted=args.deleted,
                                  limit=max(1, args.limit))
        if args.json:
            print(json.dumps([_as_dict(e) for e in eps], indent=2, ensure_ascii=False))
            return 0
        total = store.count_episodes(archived=args.archived, deleted=args.deleted)
        for e in eps:
            print(_line(e, _room(100, 26)))
        kind = "archived " if args.archived else "deleted " if args.deleted else ""
        print(f"({len(eps)} of {total} {kind}memories)")
    return 0


SEARCH_WHY = {"nearest": "near in meaning", "answer": "in HeLa's answer"}


@_run
def cmd_search(args) -> int:
    if not args.text.strip():
        return error("empty search: give some text to look for")
    with _store(args) as store:
        res = _engine(store, True).search(args.text, limit=max(1, args.limit))
        eps = store.episodes(r.episode_id for r in res)
        if args.json:
            print(json.dumps([_as_dict(eps[r.episode_id], r) for r in res if r.episode_id in eps],
                             indent=2, ensure_ascii=False))
            return 0
        paths = {r.path for r in res}
        if "search" not in paths:  # nothing the user said matches
            also = [w for p, w in (("nearest", "the nearest in meaning"),
                                   ("answer", "HeLa's answers that have the words")) if p in paths]
            print(f"nothing matches “{args.text}”" + (f"; {' and '.join(also)}:" if also else ""))
        for r in res:
            if r.episode_id in eps:
                why = (f"corrects #{r.extra['corrects']}" if r.path == "correction"
                       else SEARCH_WHY.get(r.path)
                       or ("words as written" if r.extra.get("as_written") else "meaning")
                       + (" + keywords" if r.keyword > 0 else ""))
                if r.extra.get("corrected_by") is not None:
                    why += f"; corrected later by #{r.extra['corrected_by']}"
                print(f"{r.score:5.2f}  {_line(eps[r.episode_id], _room(88, 55))}  ({why})")
    return 0


@_on_memory
def cmd_show(args, store, e) -> int:
    n_links = len(store.edges_of([e.id]))
    if args.json:
        d = _as_dict(e)
        d.update(links=n_links, last_recall=e.last_recall, meta=e.meta)  # meta: provenance
        print(json.dumps(d, indent=2, ensure_ascii=False))
        return 0
    print(f"Memory #{e.id} ({_state(e)}{', pinned' if e.pinned else ''})")
    print(f"  created        {_when(e.created_at)}")
    times = "once" if e.access_count == 1 else f"{e.access_count} times"
    print(f"  recalled       {times}, last {_when(e.last_access)}")
    print(f"  links          {n_links}")
    origin = _origin(e)
    if origin:
        print(f"  from           {terminal_safe(origin)}")
    fix = shown_corrections(store, [e.id]).get(e.id)  # (as the window's tooltip says it)
    if fix is not None:
        said = " ".join(store.key_texts([fix]).get(fix, "").split())
        print(f"  corrected by   #{fix} “{terminal_safe(said)}” (so this one is older news)")
    print(f"You said:\n{_indented(e.user_text)}")
    if e.assistant_text:
        print(f"{answered_by(e.source)} answered:\n{_indented(e.assistant_text)}")
    return 0


@_on_memory
def cmd_edit(args, store, e) -> int:
    if args.user is None and args.answer is None:
        return error("nothing to change: give --user TEXT and/or --answer TEXT")
    if args.user is not None and not args.user.strip():
        return error("what you said cannot be empty (delete the memory instead: "
                     f"`memories delete {e.id}`)")
    user = e.user_text if args.user is None else args.user.strip()
    answer = e.assistant_text if args.answer is None else args.answer.strip()
    if not user and not answer:
        return error("a memory cannot be empty")
    _engine(store, True).edit_episode(e.id, user, answer)
    print(f"memory #{e.id} saved and re-embedded")
    return 0


@_on_memory
def cmd_pin(args, store, e) -> int:
    _engine(store, False).set_pinned(e.id, not args.off)
    print(f"memory #{e.id} {'unpinned' if args.off else 'pinned'}")
    return 0


@_on_memory
def cmd_delete(args, store, e) -> int:
    if args.for_good:
        from ..forgetting import purge

        engine = _engine(store, False)
        if e.deleted_at is None:
            engine.delete_episode(e.id)
        purge(engine, [e.id])
        print(f"memory #{e.id} deleted for good")
        return 0
    if e.deleted_at is not None:
        return error(f"memory #{e.id} is already deleted (`memories restore {e.id}` brings it "
                     f"back; `memories delete {e.id} --for-good` erases it)")
    _engine(store, False).delete_episode(e.id)
    print(f"memory #{e.id} deleted (undo: hela-desktop memories restore {e.id})")
    return 0


@_on_memory
def cmd_restore(args, store, e) -> int:
    if e.deleted_at is None and e.archived_at is None:
        return error(f"memory #{e.id} is neither deleted nor archived")
    _engine(store, False).restore_episode(e.id)
    print(f"memory #{e.id} restored")
    return 0
