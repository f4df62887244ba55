"""``hela-desktop``: the desktop app, terminal chat, doctor, benchmarks, memory files.

Every subcommand is a thin wrapper over one library function; every one takes
``--data-dir DIR`` (default: the platform's user data folder, or ``$HELA_DATA_DIR``).
One module per command group registers its commands (``add_cli``) and holds their
handlers: :mod:`.app`, :mod:`.chat`, :mod:`.doctor`, :mod:`.bench` (speed, gui, locomo,
personal), :mod:`.memfile` (export, import), :mod:`.reflect` (consolidate, forget, restore),
:mod:`.memories`, :mod:`.knowledge` and :mod:`.backups`; :mod:`.common` holds what they share.  This module
parses the command line, runs the handler (holding the data folder's lock for the commands
that write: :func:`.common.holds_folder`) and maps errors to exit codes: 0 done, 1 a check
failed (doctor), 2 a refused request (bad input: an option out of range, an id the
memory file does not hold), 3 the environment (:func:`environment_error`),
130 interrupted, 141 the reader of its output went away (`| head`).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from .. import __version__
from ..paths import default_data_dir, set_offline_env
from . import app, backups, bench, chat, doctor, knowledge, memfile, memories, reflect
from .common import (
    EXIT_ENVIRONMENT,
    EXIT_USAGE,
    UsageError,
    add_data_dir,
    data_dir_option,
    error,
    folder_lock,
)

__all__ = ["EXIT_ENVIRONMENT", "EXIT_USAGE", "build_parser", "environment_error", "main"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="hela-desktop", parents=[data_dir_option()],
        description="HeLa Desktop: a private, offline assistant with a live Hebbian memory. "
                    "Without a command it opens the desktop app.")
    parser.add_argument("--version", action="version", version=f"hela-desktop {__version__}")
    parser.add_argument("--terminal", action="store_true",
                        help="start the terminal chat instead of the window")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    app.add_cli(sub)
    chat.add_cli(sub)
    doctor.add_cli(sub)
    bench.add_cli(sub)
    memfile.add_cli(sub)
    for name in ("export", "import"):
        add_data_dir(sub.choices[name])
    reflect.add_cli(sub)
    memories.add_cli(sub)
    knowledge.add_cli(sub)
    backups.add_cli(sub)
    return parser


# what the plain command (no subcommand: the app, or --terminal's chat) reads from `args`
_PLAIN_DEFAULTS = (("model", None), ("gpu_layers", None), ("profile", None), ("message", None),
                   ("server", None), ("model_name", None), ("json", False),
                   ("conversation", None), ("new", False), ("max_tokens", None),
                   ("temperature", None), ("seed", None))


def main(argv: list[str] | None = None) -> int:
    set_offline_env()
    parser = build_parser()
    args = parser.parse_args(argv)
    args.data_dir = Path(getattr(args, "data_dir", None) or default_data_dir()).expanduser()
    func = getattr(args, "func", None)
    if func is None:
        func = chat.cmd_chat if args.terminal else app.cmd_app
        for k, v in _PLAIN_DEFAULTS:
            setattr(args, k, getattr(args, k, v))
    try:
        with folder_lock(args):  # a command that writes: refused while another one writes
            return int(func(args) or 0)
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader went away (`| head`): stop quietly, as other tools do
        _quiet_stdout()
        return EXIT_BROKEN_PIPE
    except UsageError as exc:
        return error(str(exc), EXIT_USAGE)
    except Exception as exc:
        msg = environment_error(exc, args.data_dir)
        if msg is None:
            raise
        return error(msg, EXIT_ENVIRONMENT)


EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE, what a shell reports for a tool its reader left


def _quiet_stdout() -> None:
    """Point stdout at the null device, so that the interpreter's last flush into the
    closed pipe raises nothing more."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def environment_error(exc: BaseException, data_dir: Path) -> str | None:
    """One line (what happened, what to do) for an error that comes from the environment
    rather than from a bug: the memory file busy, damaged or newer, the data folder a file,
    read-only or full, settings.json malformed.  None for anything else."""
    import sqlite3

    from ..config import SettingsError
    from ..folder_lock import FolderBusy
    from ..store import DB_FILE, StoreError, db_error_message

    if isinstance(exc, (StoreError, SettingsError, FolderBusy)):
        return str(exc)
    if isinstance(exc, OSError) and exc.errno not in (1, 13, 17, 20, 28, 30, 122):
        return f"{exc.filename or data_dir}: {exc.strerror or exc}"
    if isinstance(exc, (sqlite3.Error, OSError)):
        return db_error_message(Path(data_dir) / DB_FILE, exc)
    return None


if __name__ == "__main__":
    raise SystemExit(main())
