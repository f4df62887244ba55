"""``hela-desktop backups list|make|restore|delete``: the automatic backups of the memory
file.

Thin calls into :mod:`hela_desktop.backups`.  Exit codes: 0 done, 2 a refused request (no
such backup, a damaged one, a folder with no memories), 3 the folder is in use by the app
or another writing command.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..words import count, size_words
from .common import add_data_dir, error, existing_store, holds_folder, shows_help


def add_cli(subparsers) -> None:
    b = subparsers.add_parser(
        "backups", help="list, make, restore or delete the automatic backups of your memories")
    bsub = b.add_subparsers(dest="backups_cmd", metavar="ACTION")
    ls = bsub.add_parser("list", help="the backups, newest first")
    mk = bsub.add_parser("make", help="make a backup now (the oldest beyond backup_keep go)")
    rs = bsub.add_parser(
        "restore", help="put a backup in place of the memory file (the current one is kept "
                        "as a backup, so this can be undone)")
    rs.add_argument("backup", metavar="FILE",
                    help="a backup's file name (`backups list`) or the path of one")
    de = bsub.add_parser("delete", help="delete backup files (your memories are not touched)")
    de.add_argument("backups", nargs="+", metavar="FILE", help="backup file names (`backups list`)")
    for leaf in (ls, mk, rs, de):
        leaf.add_argument("--json", action="store_true", help="print one JSON document")
        add_data_dir(leaf)
    ls.set_defaults(func=cmd_list)
    mk.set_defaults(func=cmd_make)
    rs.set_defaults(func=cmd_restore)
    de.set_defaults(func=cmd_delete)
    for leaf in (mk, rs, de):
        holds_folder(leaf, create=False)
    b.set_defaults(func=shows_help(b))
    add_data_dir(b)


def _memory_file(args) -> Path:
    """The data folder's memory file (refused as `existing_store` refuses a folder without
    one)."""
    store = existing_store(Path(args.data_dir))
    store.close()
    return store.path


def _line(b) -> str:
    size = size_words(b.size)
    note = f"  ({b.note})" if b.note else ""
    return f"{b.to_dict()['made']}  {size:>9}  {b.name}{note}"


def cmd_list(args) -> int:
    from ..backups import backup_dir, list_backups

    path = _memory_file(args)
    found = list_backups(path)
    if args.json:
        print(json.dumps([b.to_dict() for b in found], indent=2, ensure_ascii=False))
        return 0
    for b in found:
        print(_line(b))
    print(f"{count(len(found), 'backup')} in {backup_dir(path)}" if found else
          f"no backups yet in {backup_dir(path)} (one is made while the app sits idle, at "
          "most once a day; `backups make` makes one now)")
    return 0


def cmd_make(args) -> int:
    from ..backups import make_backup
    from ..config import Settings

    settings = Settings.load(Path(args.data_dir))
    store = existing_store(Path(args.data_dir))
    try:
        made = make_backup(store, keep=settings.backup_keep or None)
    finally:
        store.close()
    if args.json:
        print(json.dumps(made.to_dict(), ensure_ascii=False))
    else:
        print(f"backed up to {made.path}")
    return 0


def cmd_delete(args) -> int:
    """Delete the named backups: all of them, or none when one is not a backup here."""
    from ..backups import delete_backup, list_backups

    path = _memory_file(args)
    by_name = {b.name: b for b in list_backups(path)}
    missing = [n for n in args.backups if Path(n).name not in by_name or Path(n).name != n]
    if missing:
        return error(f"{missing[0]}: no such backup here (`hela-desktop backups list` names "
                     "them); nothing was deleted")
    for name in dict.fromkeys(args.backups):
        delete_backup(by_name[name].path)
    if args.json:
        print(json.dumps({"deleted": list(dict.fromkeys(args.backups))}))
    else:
        print(f"deleted {count(len(set(args.backups)), 'backup')}")
    return 0


def cmd_restore(args) -> int:
    from ..backups import backup_dir, restore_backup
    from ..store import StoreError

    path = _memory_file(args)
    chosen = Path(args.backup).expanduser()
    if not chosen.is_file() and (backup_dir(path) / args.backup).is_file():
        chosen = backup_dir(path) / args.backup
    if not chosen.is_file():
        return error(f"{args.backup}: no such backup (`hela-desktop backups list` names them)")
    if chosen.resolve() == path.resolve():
        return error(f"{chosen}: that is the memory file itself, not a backup")
    try:
        done = restore_backup(path, chosen)
    except StoreError as exc:
        return error(f"{exc}; nothing was changed")
    if args.json:
        print(json.dumps(done, ensure_ascii=False))
        return 0
    erased = (f"; {count(done['erased'], 'memory', 'memories')} you deleted for good since "
              "then stayed erased") if done["erased"] else ""
    print(f"restored {done['restored']}{erased}. The memory file it replaced is kept as "
          f"backups/{done['kept']} (restore that to undo).")
    return 0
