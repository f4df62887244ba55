"""``hela-desktop export`` and ``hela-desktop import``: memory files from the command line,
thin calls into `hela_desktop.memfile` (`export_store`, `import_file`)."""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import os
import re
import sys
import time
from pathlib import Path
from typing import TextIO

from ..backups import before_import_bytes
from ..config import HelaParams, Settings
from ..memfile import MemoryFileError, ProgressText, Selection, export_store, import_file
from ..store import DB_FILE, DB_SUFFIXES, Store, StoreError
from .common import an_id, holds_folder, no_such, undo_new_folder


def _parse_date(text: str, *, end: bool = False) -> float:
    """A CLI date: ``YYYY-MM-DD`` (local midnight; with ``end``, the following midnight,
    so ``--until`` includes that day) or a full ISO date-time; any year from 1 to 9999."""
    t = text.strip()
    try:
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", t):
            d = _dt.datetime.fromisoformat(t)
            if end and d.date() < _dt.date.max:
                return _local_timestamp(d + _dt.timedelta(days=1))
            return _local_timestamp(d) + (86400.0 if end else 0.0)  # the day after 9999-12-31
        d = _dt.datetime.fromisoformat(t.replace("Z", "+00:00"))
        return d.timestamp() if d.tzinfo is not None else _local_timestamp(d)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a date: {text!r} (use YYYY-MM-DD)") from None


def _local_timestamp(d: _dt.datetime) -> float:
    """The timestamp of the local time `d`; near the years 1 and 9999, where the platform
    cannot convert it, with the offset the local zone has today."""
    try:
        return d.timestamp()
    except (OverflowError, OSError, ValueError):  # 0001-01-01: "year 0 is out of range"
        offset = _dt.datetime.now().astimezone().utcoffset() or _dt.timedelta()
        return (d - _dt.datetime(1970, 1, 1) - offset).total_seconds()


def add_cli(subparsers: argparse._SubParsersAction) -> None:
    """Register ``export`` and ``import`` subcommands on an argparse subparsers object.

    Each sets ``func(args) -> int`` and expects ``args.data_dir`` (a resolved Path).
    """
    p = subparsers.add_parser(
        "export", help="export memories to a .hela file (or Markdown)",
        description="Export the memory store, or a selection of it, to a memory file.")
    p.add_argument("file", type=Path, help="output file (.hela, or .md for Markdown)")
    p.add_argument("--format", choices=["native", "markdown"], default=None,
                   help="native .hela archive (default) or Markdown (default for *.md)")
    p.add_argument("--conversation", type=an_id, default=None, metavar="ID",
                   help="only the memories of this conversation")
    p.add_argument("--since", type=_parse_date, default=None, metavar="DATE",
                   help="only memories created on or after DATE (YYYY-MM-DD or ISO)")
    p.add_argument("--until", type=lambda s: _parse_date(s, end=True), default=None,
                   metavar="DATE", help="only memories created on or before DATE")
    p.add_argument("--search", default=None, metavar="TEXT",
                   help="only memories matching this full-text search")
    p.add_argument("--no-embeddings", action="store_true",
                   help="leave embeddings out (smaller; recomputed on import)")
    p.add_argument("--no-conversations", action="store_true",
                   help="leave chat transcripts out")
    p.add_argument("--include-deleted", action="store_true",
                   help="also the memories you deleted (left out by default, with their "
                        "links and the knowledge drawn only from them)")
    p.set_defaults(func=_cli_export)

    q = subparsers.add_parser(
        "import", help="import a .hela file, a JSON list of memories, a text file, a "
                       "ChatGPT / Claude / Open WebUI / Jan export or a notes folder",
        description="Import memories; the file is checked completely before anything is "
                    "written, and a refused file changes nothing.  Conversation exports "
                    "(ChatGPT, Claude, Open WebUI, Jan) and Markdown notes folders are "
                    "recognised from their content; importing one twice adds nothing.")
    q.add_argument("file", type=Path, help="file or folder to import")
    q.add_argument("--dry-run", action="store_true",
                   help="check the file and show what would change, without writing")
    q.add_argument("--json", action="store_true", help="print the report as one JSON object")
    q.add_argument("--progress", action="store_true",
                   help="print progress on stderr even when it is not a terminal")
    q.set_defaults(func=_cli_import)
    holds_folder(q, lambda a: not a.dry_run)


EXIT_REFUSED, EXIT_ENVIRONMENT = 2, 3  # the exit codes of the CLI (README)
EXIT_INTERRUPTED = 130  # Ctrl-C, as `main` answers it


def _open_store(args: argparse.Namespace, *, dry_run: bool = False) -> Store | None:
    """The data folder's store; for a dry run on a folder without a memory file (or with no
    folder at all), an empty one in memory, so that the dry run creates nothing on disk."""
    try:
        if dry_run and not _memory_file(Path(args.data_dir)).exists():
            return Store.in_memory(args.data_dir)
        return Store(args.data_dir)
    except StoreError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return None


def _memory_file(data_dir: Path) -> Path:
    return data_dir if data_dir.suffix.lower() in DB_SUFFIXES else data_dir / DB_FILE


def _settings_hela(args: argparse.Namespace) -> HelaParams | None:
    """The data folder's HeLa constants (None when its settings file is unreadable: the
    defaults then apply)."""
    try:
        return Settings.load(args.data_dir).hela
    except ValueError:
        return None


def _backup_keep(args: argparse.Namespace) -> int:
    """How many backups the folder's settings keep (0 when unreadable: none is made)."""
    try:
        return Settings.load(args.data_dir).backup_keep
    except ValueError:
        return 0


def _cli_export(args: argparse.Namespace) -> int:
    if str(args.file).strip() in ("", "-"):  # not standard output: a file named "-"
        print("error: export writes a file: name one (.hela, or .md for Markdown)",
              file=sys.stderr)
        return EXIT_REFUSED
    if not args.file.parent.is_dir():
        print(f"error: {args.file.parent}: no such folder; nothing exported", file=sys.stderr)
        return EXIT_REFUSED
    if args.since is not None and args.until is not None and args.since >= args.until:
        print("error: --since is after --until: no memory was made in between; nothing "
              "exported", file=sys.stderr)
        return EXIT_REFUSED
    fmt = args.format or ("markdown" if args.file.suffix.lower() in (".md", ".markdown")
                          else "native")
    sel = Selection(conversation=args.conversation, since=args.since, until=args.until,
                    search=args.search)
    d = Path(args.data_dir)  # a mistyped --data-dir: no empty export (a file: Store says)
    if (d.is_dir() or not d.exists()) and not _memory_file(d).exists():
        print(f"error: no memories in {args.data_dir} yet (check --data-dir); "
              "nothing exported", file=sys.stderr)
        return EXIT_REFUSED
    store = _open_store(args)
    if store is None:
        return EXIT_ENVIRONMENT
    try:
        with store:
            if args.conversation is not None and not store.conversation_exists(args.conversation):
                print(f"error: {no_such('conversation', args.conversation, store)}",
                      file=sys.stderr)
                return EXIT_REFUSED
            # written beside the target first: a selection that matches nothing must not
            # replace a file already there with an empty one
            part = args.file.with_name(f".{args.file.name}.{os.getpid()}.part")
            try:
                rep = export_store(store, part, fmt=fmt, selection=sel,
                                   include_embeddings=not args.no_embeddings,
                                   include_conversations=not args.no_conversations,
                                   hela=_settings_hela(args),
                                   include_deleted=args.include_deleted)
                if not sel.is_all() and not any(rep.counts.values()):
                    print("error: no memory or chat matches the selection (--conversation, "
                          "--since, --until, --search); no file written", file=sys.stderr)
                    return EXIT_REFUSED
                os.replace(part, args.file)
                rep.path = args.file
            finally:
                part.unlink(missing_ok=True)
    except OSError as exc:
        print(f"error: {args.file}: cannot write ({exc.strerror or exc})", file=sys.stderr)
        return EXIT_ENVIRONMENT
    print(rep.summary())
    return 0


def _cli_import(args: argparse.Namespace) -> int:
    hela = _settings_hela(args)
    lam = None if hela is None else hela.lam
    store = _open_store(args, dry_run=args.dry_run)
    if store is None:
        return EXIT_ENVIRONMENT
    keep = 0 if args.dry_run else _backup_keep(args)
    show = _ProgressPrinter(sys.stderr, before_import_bytes(store, keep)) \
        if (args.progress or sys.stderr.isatty()) else None
    try:
        with store:
            rep = import_file(store, args.file, dry_run=args.dry_run, lam=lam, backup_keep=keep,
                              progress=None if show is None else show.progress,
                              stage=None if show is None else show.stage)
    except MemoryFileError as exc:
        if show is not None:
            show.finish()
        print(f"error: {exc}", file=sys.stderr)
        undo_new_folder(args)  # a folder made for this import is not left behind, empty
        return EXIT_REFUSED
    except KeyboardInterrupt:  # Ctrl-C: the import's one transaction was rolled back
        if show is not None:
            show.finish()
        print("\ninterrupted: nothing was imported; your memories are as they were",
              file=sys.stderr)
        undo_new_folder(args)
        return EXIT_INTERRUPTED
    if show is not None:
        show.finish()
    print(json.dumps(rep.as_dict(), ensure_ascii=False) if args.json else rep.summary())
    return 0


class _ProgressPrinter(ProgressText):
    """Import progress on a terminal (one line rewritten) or a log (a line every 2 s)."""

    def __init__(self, out: TextIO, backup_bytes: int = 0):
        super().__init__(backup_bytes)
        self.out = out
        self.tty = out.isatty()
        self.last = 0.0
        self.shown = False

    def stage(self, name: str, start: int, end: int) -> None:
        super().stage(name, start, end)
        self.last = 0.0

    def progress(self, done: int, total: int) -> str:
        now = time.perf_counter()
        if now - self.last < (0.25 if self.tty else 2.0) and done < total:
            return self.text
        self.last = now
        text = super().progress(done, total)
        self.out.write("\r\x1b[K" + text if self.tty else text + "\n")
        self.out.flush()
        self.shown = True
        return text

    def finish(self) -> None:
        if self.tty and self.shown:
            self.out.write("\r\x1b[K")
            self.out.flush()
