"""``hela-desktop knowledge list|edit|delete|restore``: see and correct distilled knowledge.

Every command is a thin call into :mod:`hela_desktop.knowledge`.  Exit codes: 0 done, 2 a
refused request (unknown id, empty text), with one ``error: …`` line on stderr.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..words import terminal_safe
from .common import (
    add_data_dir,
    an_id,
    error,
    existing_store,
    holds_folder,
    no_such,
    shows_help,
)


def add_cli(subparsers) -> None:
    k = subparsers.add_parser(
        "knowledge", help="list, edit, delete or restore distilled knowledge")
    ksub = k.add_subparsers(dest="knowledge_cmd", metavar="ACTION")
    ls = ksub.add_parser("list", help="knowledge items, with support and sources")
    ls.add_argument("--all", action="store_true", help="include deleted and superseded items")
    ls.add_argument("--json", action="store_true", help="print one JSON array")
    ls.set_defaults(func=cmd_list)
    ed = ksub.add_parser("edit", help="replace an item's text (it is then trusted as yours)")
    ed.add_argument("id", type=an_id, metavar="ID", help="knowledge item id (`knowledge list`)")
    ed.add_argument("text", metavar="TEXT", help="the item's new text")
    ed.set_defaults(func=cmd_edit)
    de = ksub.add_parser("delete", help="take an item out of use (undo: restore)")
    de.add_argument("id", type=an_id, metavar="ID", help="knowledge item id (`knowledge list`)")
    de.set_defaults(func=cmd_delete)
    re_ = ksub.add_parser("restore", help="bring a deleted item back")
    re_.add_argument("id", type=an_id, metavar="ID",
                     help="knowledge item id (`knowledge list --all`)")
    re_.set_defaults(func=cmd_restore)
    for leaf in (ls, ed, de, re_):
        add_data_dir(leaf)
    for leaf in (ed, de, re_):
        holds_folder(leaf, create=False)
    k.set_defaults(func=shows_help(k))
    add_data_dir(k)


def _store(args):
    return existing_store(Path(args.data_dir))


def cmd_list(args) -> int:
    from ..knowledge import knowledge_rows

    store = _store(args)
    try:
        rows = [r for r in knowledge_rows(store) if args.all or r["state"] == "in use"]
        if args.json:  # one JSON array, as every listing of the CLI prints it
            print(json.dumps(rows, indent=2, ensure_ascii=False))
            return 0
        for k in rows:
            print(f"#{k['id']} [{k['kind']}] {terminal_safe(k['text'])}  ({k['status']}; {k['why']} "
                  f"From memories {', '.join(f'#{s}' for s in k['sources']) or '-'}.)")
        if not rows:
            print("no knowledge yet: it is distilled while the app is idle, and only what "
                  "your own words support is kept (each reflection says how many of the "
                  "model's suggestions it set aside)")
    finally:
        store.close()
    return 0


def _act(args, fn, done: str, refuse=None) -> int:
    """Run `fn(store)` on an item that exists; `refuse(item)`: why the item cannot take
    this action (None: it can).  A refusal is one ``error:`` line, exit 2."""
    from ..knowledge import get_item

    store = _store(args)
    try:
        with store.transaction():  # the write lock first (busy: exit 3), then the check
            item = get_item(store, args.id)
            why = no_such("knowledge item", args.id, store) if item is None else \
                (refuse(item) if refuse else None)
            if not why:
                fn(store)
        if why:
            return error(why)
    except ValueError as exc:
        return error(str(exc))
    finally:
        store.close()
    print(done)
    return 0


def cmd_edit(args) -> int:
    from ..embedder import Embedder
    from ..knowledge import edit_item

    if not args.text.strip():  # before the embedder loads
        return error("empty text: write what should be remembered, or delete the item")
    emb = Embedder()
    return _act(args, lambda st: edit_item(st, emb, args.id, args.text),
                f"knowledge #{args.id} edited")


def cmd_delete(args) -> int:
    from ..knowledge import delete_item

    def refuse(item) -> str | None:
        return (f"knowledge #{item.id} is already deleted (`knowledge restore {item.id}` "
                "brings it back)") if item.archived_at is not None else None

    return _act(args, lambda st: delete_item(st, args.id),
                f"knowledge #{args.id} deleted (undo: hela-desktop knowledge restore {args.id})",
                refuse)


def cmd_restore(args) -> int:
    from ..knowledge import restore_item

    def refuse(item) -> str | None:
        return None if item.archived_at is not None else f"knowledge #{item.id} is not deleted"

    return _act(args, lambda st: restore_item(st, args.id), f"knowledge #{args.id} restored",
                refuse)
