"""One writer per data folder: an advisory lock on ``<data-dir>/hela.lock``.

The desktop app holds it for as long as it has a folder open, and so do the commands that
write (``chat``, ``import``, ``consolidate``, ``forget``, ``restore``, ``memories`` and
``knowledge`` edits): a second one on the same folder is refused with `FolderBusy` instead
of writing beside the first, whose in-memory index would miss what the second wrote.  The
lock is the operating system's (``flock`` on POSIX, ``msvcrt.locking`` on Windows), held by
an open file: it goes when the process ends, however it ends, so a process killed with
``kill -9`` leaves no stale lock behind (the file stays; only the lock on it counts).

Qt-free (the window, the CLI and the tests all use it).  The file holds the holder's
process id and what it is, for the message a second process gets.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sys
from pathlib import Path

from .paths import PRIVATE_FILE_MODE, private_data_dir

LOCK_FILE = "hela.lock"
_WIN_LOCK_OFFSET = 4096  # Windows locks a byte past the text, so that it stays readable


class FolderBusy(RuntimeError):
    """Another HeLa Desktop process holds the data folder; the message says which and what
    to do (one line)."""

    def __init__(self, data_dir: Path, holder: str):
        self.data_dir, self.holder = Path(data_dir), holder
        super().__init__(
            f"{data_dir}: this data folder is in use by another HeLa Desktop ({holder}); "
            "close it first, or choose another data folder (--data-dir); nothing was changed")


class FolderLock:
    """A held lock on a data folder; `release()` (or leaving the ``with``) lets it go."""

    def __init__(self, data_dir: Path, fd: int):
        self.data_dir = Path(data_dir)
        self._fd: int | None = fd

    @property
    def held(self) -> bool:
        return self._fd is not None

    def release(self) -> None:
        if self._fd is not None:
            fd, self._fd = self._fd, None
            with contextlib.suppress(OSError):
                _unlock(fd)
            os.close(fd)  # closing the file lets the lock go in any case

    def __enter__(self) -> FolderLock:
        return self

    def __exit__(self, *exc) -> None:
        self.release()

    def __del__(self) -> None:
        self.release()


if sys.platform == "win32":  # pragma: no cover - Windows
    import msvcrt

    def _try_lock(fd: int) -> bool:
        """Take the lock on `fd` without waiting; False when another process has it."""
        os.lseek(fd, _WIN_LOCK_OFFSET, os.SEEK_SET)
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True

    def _unlock(fd: int) -> None:
        os.lseek(fd, _WIN_LOCK_OFFSET, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
else:
    import fcntl

    def _try_lock(fd: int) -> bool:
        """Take the lock on `fd` without waiting; False when another process has it."""
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        except OSError as exc:  # a file system without locks: do not stop the app for it
            if exc.errno in (errno.ENOLCK, errno.EOPNOTSUPP, errno.ENOSYS):
                return True
            raise
        return True

    def _unlock(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_UN)


def holder_of(data_dir: Path) -> str:
    """What the lock file says about its holder: "the desktop app, process 1234"."""
    try:
        text = (Path(data_dir) / LOCK_FILE).read_text(encoding="utf-8", errors="replace")
    except OSError:
        text = ""
    pid, _, what = text.strip().partition("\n")
    what = " ".join(what.split())[:80] or "another process"
    return f"{what}, process {pid}" if pid.strip().isdigit() else what


def lock_data_dir(data_dir: str | Path, what: str) -> FolderLock:
    """Create the data folder (owner-only) if it is missing and take its lock for this
    process; `what` names the holder ("the desktop app", "hela-desktop chat") for the
    message another process gets.  Raises `FolderBusy` when another process holds it, and
    `OSError` when the folder cannot be made or the lock file opened."""
    data_dir = private_data_dir(Path(data_dir))
    path = data_dir / LOCK_FILE
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, PRIVATE_FILE_MODE)
    except PermissionError:
        if not path.exists():
            raise
        fd = os.open(path, os.O_RDONLY)  # a read-only folder: lock, without the note
    try:
        if not _try_lock(fd):
            raise FolderBusy(data_dir, holder_of(data_dir))
        with contextlib.suppress(OSError):  # the note is for messages only
            os.ftruncate(fd, 0)
            os.lseek(fd, 0, os.SEEK_SET)
            os.write(fd, f"{os.getpid()}\n{what}\n".encode())
    except BaseException:
        os.close(fd)
        raise
    return FolderLock(data_dir, fd)
