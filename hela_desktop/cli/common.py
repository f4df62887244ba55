"""What every command group shares: option parents, number types, settings from options."""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

from ..config import Settings, SettingsError
from ..folder_lock import FolderLock, lock_data_dir

EXIT_USAGE = 2  # a refused request: bad option, unknown id, empty text
EXIT_ENVIRONMENT = 3  # the machine, not the input: store busy or damaged, disk, folder, settings


class UsageError(Exception):
    """A refused command-line value: one ``error: …`` line, exit status 2."""


NO_REAL_LIMIT = 2**31  # a bound this high is a storage limit: "at least 1" says enough


def in_range(low, high=None, kind=int):
    """An argparse type: a finite number of `kind` from `low` to `high` (None: no upper
    bound); anything else is a usage error (exit 2) saying what is allowed."""
    import math

    def check(text: str):
        try:
            v = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
        if not math.isfinite(v):  # nan, inf: no option means them
            raise argparse.ArgumentTypeError(f"must be a finite number, got {text}")
        if v < low and (high is None or high >= NO_REAL_LIMIT):
            raise argparse.ArgumentTypeError(f"must be at least {low}, got {text}")
        if high is not None and not low <= v <= high:
            raise argparse.ArgumentTypeError(f"must be from {low} to {high}, got {text}")
        return v

    return check


def at_least(low, kind=int):
    """An argparse type: a finite number of `kind` not below `low` (else exit 2)."""
    return in_range(low, None, kind)


MAX_ID = 2**63 - 1  # SQLite's largest integer


def an_id(text: str) -> int:
    """An argparse type: a record id (a whole number from 1 to SQLite's largest integer);
    anything else is a usage error (exit 2), never a traceback."""
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an id: {text!r}") from None
    if not 1 <= v <= MAX_ID:
        raise argparse.ArgumentTypeError(f"no such id: {text} (ids are whole numbers from 1)")
    return v


def no_such(what: str, ident: int, store) -> str:
    """The one wording of an id the memory file does not hold ("no memory #7 in
    …/memory.sqlite3"; a `memory`, `conversation`): a refused request, exit 2."""
    return f"no {what} #{ident} in {store.path}"


def a_folder(text: str) -> Path:
    """An argparse type for ``--data-dir``: an empty value (an unset shell variable) is a
    usage error, not the current folder."""
    if not text.strip():
        raise argparse.ArgumentTypeError("empty: name a folder (an unset variable?)")
    return Path(text)


def existing_store(data_dir: Path):
    """The store of a data folder that has a memory file (or of the memory file named
    itself), for a command that reads or changes what is there: a missing folder or memory
    file is a usage error (a mistyped ``--data-dir``), and nothing is created.  A folder
    with the app's settings file is a data folder all the same (its settings are checked
    next, and a malformed one is what the command reports)."""
    from ..config import SETTINGS_FILE
    from ..store import DB_FILE, Store

    folder = Path(data_dir)  # a plain file: Store says "the data folder is a file"
    if (folder.is_dir() or not folder.exists()) and not (folder / DB_FILE).exists() \
            and not (folder / SETTINGS_FILE).is_file():
        raise UsageError(f"no memories in {folder} yet (no {DB_FILE} there; check --data-dir)")
    return Store(folder)


def data_dir_option() -> argparse.ArgumentParser:
    """The parent of the root parser and the main commands: ``--data-dir`` (full help)."""
    p = argparse.ArgumentParser(add_help=False)
    p.add_argument("--data-dir", type=a_folder, default=argparse.SUPPRESS,
                   help="memory and settings folder (default: the platform user data folder, or $HELA_DATA_DIR)")
    return p


def add_data_dir(p: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Give `p` a ``--data-dir`` (short help) unless it has one already."""
    if not any("--data-dir" in a.option_strings for a in p._actions):
        p.add_argument("--data-dir", type=a_folder, default=argparse.SUPPRESS,
                       help="memory and settings folder")
    return p


def holds_folder(p: argparse.ArgumentParser, when: Callable[[argparse.Namespace], bool]
                 | None = None, *, create: bool = True) -> argparse.ArgumentParser:
    """Mark `p` as a command that writes to the data folder: `main` runs it holding the
    folder's lock (`folder_lock`), so that it is refused (exit 3) while the desktop app or
    another writing command has the folder open.  (``chat`` takes it itself, once its
    options and model are checked: `lock_folder`.)  `when(args)`: only then (not for a dry
    run); ``create=False``: a missing folder is not created for the lock (the command
    refuses it anyway)."""
    p.set_defaults(folder_lock=(when or (lambda _args: True), create))
    return p


def _folder_of(args: argparse.Namespace) -> Path:
    """The data folder of ``args.data_dir`` (which may name the memory file itself)."""
    from ..store import DB_SUFFIXES

    folder = Path(args.data_dir)
    return folder.parent if folder.suffix.lower() in DB_SUFFIXES else folder


def undo_new_folder(args: argparse.Namespace) -> None:
    """A command that made the data folder and then wrote nothing into it (a refused
    import): take away what it made — the empty memory file, its journal files and the
    lock file — and the folder if nothing else is in it.  Nothing else is ever removed."""
    if not getattr(args, "made_folder", False):
        return
    folder = _folder_of(args)
    from ..folder_lock import LOCK_FILE
    from ..store import DB_FILE

    for name in (DB_FILE, DB_FILE + "-wal", DB_FILE + "-shm", DB_FILE + "-journal", LOCK_FILE):
        with contextlib.suppress(OSError):
            (folder / name).unlink()
    with contextlib.suppress(OSError):
        folder.rmdir()  # only when empty


def lock_folder(args: argparse.Namespace, *, create: bool = True) -> FolderLock | None:
    """Take the lock of ``args.data_dir`` for this command (`FolderBusy` when another
    process holds it).  None, without creating it, for a missing folder when not `create`."""
    folder = _folder_of(args)
    if not create and not folder.is_dir():
        return None
    words = [getattr(args, "command", None) or "chat"]
    words += [getattr(args, k, None) or "" for k in ("memories_cmd", "knowledge_cmd")]
    return lock_data_dir(folder, " ".join(["hela-desktop", *filter(None, words)]))


@contextlib.contextmanager
def folder_lock(args: argparse.Namespace) -> Iterator[FolderLock | None]:
    """Hold the data folder's lock while a writing command runs (see `holds_folder`);
    raises `FolderBusy` when another process holds it.  Nothing for the other commands."""
    spec = getattr(args, "folder_lock", None)
    # whether this command makes the folder (a refused import then takes it away again)
    args.made_folder = not _folder_of(args).exists()
    lock = lock_folder(args, create=spec[1]) if spec is not None and spec[0](args) else None
    try:
        yield lock
    finally:
        if lock is not None:
            lock.release()


def model_options() -> argparse.ArgumentParser:
    """The parent of the commands that answer: model, GPU layers, profile, server."""
    from ..memory import PROFILES

    p = argparse.ArgumentParser(add_help=False)
    p.add_argument("--model", metavar="PATH", help="GGUF model file (default: the setting, "
                   "else the bundled SmolLM2-135M-Instruct)")
    p.add_argument("--gpu-layers", type=in_range(-1, 2**31 - 1),  # llama.cpp: a 32-bit int
                   help="layers to offload (-1 all, 0 CPU)")
    p.add_argument("--profile", choices=PROFILES, help="retrieval profile (default: the setting)")
    p.add_argument("--server", metavar="URL", help="answer with an OpenAI-compatible model server "
                   "(e.g. http://127.0.0.1:8080) instead of a local model; the API key comes "
                   "from the setting or $HELA_SERVER_API_KEY")
    p.add_argument("--model-name", metavar="NAME", help="the server's model (default: the "
                   "setting, else the server's only model)")
    return p


def shows_help(p: argparse.ArgumentParser) -> Callable[[argparse.Namespace], int]:
    """The handler of a command group called without its action: its help, exit status 2."""
    def handler(args: argparse.Namespace) -> int:
        p.print_help()
        return EXIT_USAGE

    return handler


def error(msg: str, code: int = EXIT_USAGE) -> int:
    """Print one ``error: …`` line on stderr; returns `code` (the exit status)."""
    print(f"error: {msg}", file=sys.stderr)
    return code


def model_overrides(args: argparse.Namespace) -> dict:
    """The settings the model options (and chat's --max-tokens, --temperature) override;
    ``None`` where an option was not given.  A model file means the local backend, a
    server URL the server backend (a model file wins)."""
    def opt(name: str):
        return getattr(args, name, None)

    model = str(Path(opt("model")).expanduser()) if opt("model") else None
    backend = "local" if model else ("server" if opt("server") else None)
    return {"model_path": model, "n_gpu_layers": opt("gpu_layers"),
            "profile": opt("profile") or None, "max_answer_tokens": opt("max_tokens"),
            "temperature": opt("temperature"), "backend": backend,
            "server_url": opt("server") or None, "server_model": opt("model_name") or None}


# the option that sets each setting, to name it in an error
OPTION_OF = {"model_path": "--model", "n_gpu_layers": "--gpu-layers", "profile": "--profile",
             "max_answer_tokens": "--max-tokens", "temperature": "--temperature",
             "server_url": "--server", "server_model": "--model-name"}


def settings_from_args(args: argparse.Namespace) -> Settings:
    """The data folder's settings with the command-line overrides applied.  A malformed
    settings file raises SettingsError (exit 3 in ``main``); an option value outside its
    range raises UsageError (exit 2) naming the option."""
    s = Settings.load(args.data_dir)
    try:
        return s.with_overrides(**model_overrides(args))
    except SettingsError as exc:
        key, _, rest = str(exc).partition(": ")
        option = OPTION_OF.get(key)
        raise UsageError(f"{option}: {rest}" if option else str(exc)) from exc
