"""Helper threads that overlap a memory file's I/O with the work on it: a reader that runs
ahead of its consumer (`_prefetch`) and a writer that compresses behind its producer
(`_BackgroundWriter`).  zlib and SQLite release the GIL, so both gain real parallelism.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Generator, Iterator
from typing import IO, Any, TypeVar

_T = TypeVar("_T")


def _prefetch(it: Iterator[_T], depth: int = 3) -> Generator[_T, None, None]:
    """Iterate `it` in a helper thread, up to `depth` items ahead of the consumer.

    Exceptions raised by `it` are re-raised in the consumer; if the consumer stops early,
    the helper stops too (and `it` is closed) before this generator finishes.
    """
    q: queue.Queue = queue.Queue(maxsize=depth)
    stop = threading.Event()
    end = object()

    def put(item: Any) -> bool:
        while not stop.is_set():
            try:
                q.put(item, timeout=0.05)
                return True
            except queue.Full:
                continue
        return False

    def run() -> None:
        try:
            for item in it:
                if not put((True, item)):
                    return
            put((True, end))
        except BaseException as exc:  # noqa: BLE001 - handed to the consumer
            put((False, exc))

    worker = threading.Thread(target=run, name="memfile-reader", daemon=True)
    worker.start()
    try:
        while True:
            ok, item = q.get()
            if not ok:
                raise item
            if item is end:
                return
            yield item
    finally:
        stop.set()
        worker.join()
        close = getattr(it, "close", None)
        if close is not None:
            close()


class _BackgroundWriter:
    """Writes to a file object from a helper thread (zlib's deflate releases the GIL, so
    compressing overlaps with encoding the next records)."""

    def __init__(self, fh: IO[bytes], depth: int = 4):
        self.fh = fh
        self.q: queue.Queue = queue.Queue(maxsize=depth)
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, name="memfile-writer", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while True:
            data = self.q.get()
            if data is None:
                return
            if self.error is None:
                try:
                    self.fh.write(data)
                except BaseException as exc:  # noqa: BLE001 - re-raised by write/close
                    self.error = exc

    def write(self, data: bytes) -> None:
        if self.error is not None:
            raise self.error
        self.q.put(data)

    def close(self) -> None:
        self.q.put(None)
        self.thread.join()
        if self.error is not None:
            raise self.error
