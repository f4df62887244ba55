"""The assistant's thread: model loading, generation, retrieval and memory edits.

`AssistantWorker` is a QObject living in its own QThread.  The window calls it only
through queued signals (`AssistantClient`), and it answers through signals, so the GUI
thread never waits on the model, the embedder or the engine's SQLite connection.
Stopping an answer is a `threading.Event` the GUI sets directly.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6 import QtCore

from ..config import Settings
from ..events import (
    DoneEvent,
    MemoriesEvent,
    MemoryChangedEvent,
    MemoryUpdateEvent,
    ModelStatusEvent,
    ReflectionEvent,
    TokenEvent,
)
from ..session import conversation_event, conversations_event
from .worker_ops import OPS

if TYPE_CHECKING:
    from ..loader import AssistantLoader
    from ..scheduler import IdleScheduler


def lower_thread_priority(nice: int = 8) -> None:
    """Make the calling thread (and the threads it starts, e.g. llama.cpp's) yield the CPU
    to the GUI thread.  Linux nice values are per thread; elsewhere this does nothing."""
    if hasattr(os, "setpriority") and sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            tid = threading.get_native_id()
            os.setpriority(os.PRIO_PROCESS, tid, max(os.getpriority(os.PRIO_PROCESS, tid), nice))


GRAPH_LIMIT = 5000  # the graph view shows at most this many (most recent) memories


def loading_text(settings: Settings) -> str:
    """What the window says while the chat model loads: a server is asked, not loaded (a
    stalled one is waited for up to `server_timeout`)."""
    if settings.backend == "server":
        return f"Connecting to the model server at {settings.server_url}…"
    return "Loading the language model…"


class AssistantWorker(QtCore.QObject):
    """Owns the `AssistantLoader` (the store at once, then the embedder, then the model and
    the `Assistant`); runs on the worker thread.

    Two kinds of events leave it: the chat stream (`stream`) and the session's events
    (`update`: `ModelStatusEvent`, `MemoryChangedEvent`, `ReflectionStartedEvent`,
    `ReflectionEvent`, `ConversationsEvent`, `ConversationEvent`), which the window folds
    into its `Session`.  Every database read the window needs happens here.
    """

    stream = QtCore.Signal(object)  # MemoriesEvent | TokenEvent | MemoryUpdateEvent | DoneEvent
    update = QtCore.Signal(object)  # a hela_desktop.events.SessionEvent
    turnFailed = QtCore.Signal(str, bool)  # (one line, True: refused before anything was stored)
    snapshot = QtCore.Signal(dict)
    opDone = QtCore.Signal(str, object, object)  # op name, argument, result
    opFailed = QtCore.Signal(str, str)  # op name, message
    progress = QtCore.Signal(str, int, int)  # op name, done, total
    promptProgress = QtCore.Signal(int, int)  # a long prompt being read: tokens done, total
    progressNote = QtCore.Signal(str, str)  # op name, what it is doing ("embedding: …")
    tokenOffsets = QtCore.Signal(int, object)  # message id, [(start, end) char offsets]
    turnStatus = QtCore.Signal(str, int, int)  # before the first token: phase, done, total
    _reflected = QtCore.Signal()  # (scheduler thread -> this thread) a pass changed memory

    def __init__(self, data_dir: Path, settings: Settings, assistant_kwargs: dict | None = None,
                 idle_scheduler: bool = True):
        super().__init__()
        self.use_idle_scheduler = idle_scheduler
        self.scheduler: IdleScheduler | None = None  # once the store is open
        self.data_dir = Path(data_dir)
        self.settings = settings
        # already-loaded models to share (tests); the worker never closes what it was given
        self.assistant_kwargs = dict(assistant_kwargs or {})
        self.loader: AssistantLoader | None = None  # once the store is open
        self.stop_event = threading.Event()
        self.import_cancel = threading.Event()  # set from the GUI: the import stops, undone
        self.busy = False
        self.server_down = False  # the last message found the model server gone
        self.started_request = 0  # the last chat request that began (GUI reads it)
        self.cancelled: set[int] = set()  # chat requests dropped before they began
        self.request_lock = threading.Lock()
        self._reflected.connect(self._after_reflection)

    def _status(self, state: str, message: str = "", kind: str = "", info: dict | None = None) -> None:
        self.update.emit(ModelStatusEvent(state, info or {}, message, kind))

    # ---- lifecycle ------------------------------------------------------------------
    @QtCore.Slot()
    def open(self) -> None:
        """Open the store (no heavy loading); send what the window shows before anything
        loads: the graph, the memory count and the chats."""
        lower_thread_priority()
        from ..loader import AssistantLoader
        from ..store import StoreError

        try:
            loader = AssistantLoader(self.data_dir, self.settings, **self.assistant_kwargs)
        except (StoreError, OSError) as exc:
            self._status("failed", str(exc), "store")
            return
        self.loader = loader
        loader.on_progress = self.promptProgress.emit  # (not shown yet)
        if self.use_idle_scheduler:
            try:
                from ..scheduler import IdleScheduler

                self.scheduler = IdleScheduler(loader, on_report=self._on_reflection,
                                               on_start=self.update.emit)
            except Exception as exc:  # noqa: BLE001 - the app works without idle reflection
                print(f"hela-desktop: idle consolidation is off ({exc})", file=sys.stderr)
        self._status("opened", info=loader.model_info())
        self.memory_changed("open")
        self.update.emit(conversations_event(loader.store))

    @QtCore.Slot(bool)
    def load(self, with_model: bool = True) -> None:
        """Load the embedder, then (optionally) the chat model; report failures clearly."""
        from ..embedder import EmbedderError

        loader = self.loader
        if loader is None:
            return
        try:
            self._status("loading", "Loading the embedding model…")
            loader.load_embedder()
            self._status("embedder_ready")
            self._emit_snapshot()
        except EmbedderError as exc:
            self._status("loading", "")
            self._status("failed", str(exc), "embedder")
            return
        if not with_model:
            self._status("loading", "")
            return
        self._load_model(loader.load_model, loader.settings)

    @QtCore.Slot(object)
    def reload_model(self, settings: Settings) -> None:
        """Switch model (or GPU layers / context).  If the new one fails, the old one is
        released all the same (`AssistantLoader.switch_model`): the next message tries the
        new one again and is never answered by the model (or server) switched away from."""
        loader = self.loader
        if loader is not None:
            self._load_model(lambda: loader.switch_model(settings), settings)

    def _load_model(self, load: Callable[[], object], settings: Settings) -> None:
        """Run `load` with progress shown; report success or a one-line failure."""
        from ..llm import ModelError
        from ..server_llm import ServerError

        self._status("loading", loading_text(settings))
        try:
            load()
        except (ModelError, ServerError) as exc:
            self._status("loading", "")
            self._status("failed", str(exc), "model")
            return
        except Exception as exc:  # noqa: BLE001 - any llama.cpp failure: tell the user
            self._status("loading", "")
            self._status("failed", f"the model could not be loaded ({exc})", "model")
            return
        self._status("loading", "")
        if self.loader is not None:
            self._status("ready", info=self.loader.model_info())

    @QtCore.Slot(object)
    def apply_settings(self, settings: Settings) -> None:
        self.settings = settings
        if self.loader is not None:
            self.loader.apply_settings(settings)

    @QtCore.Slot()
    def close(self) -> None:
        if self.scheduler is not None:
            self.scheduler.shutdown(wait=True)
            self.scheduler = None
        if self.loader is not None:
            self.loader.close()  # (a model it was given stays open)
            self.loader = None

    # ---- chat -----------------------------------------------------------------------
    @QtCore.Slot(str, object, int, float)
    def chat(self, message: str, conversation_id, request: int = 0, said_at: float = 0.0) -> None:
        """Stream one answer; every event goes out through `stream`."""
        from ..llm import ModelError
        from ..server_llm import ServerError, ServerLLM
        from ..store import StoreError
        from ..turn import MessageTooLong

        with self.request_lock:
            if request in self.cancelled:  # stopped while it waited (e.g. behind loading)
                self.cancelled.discard(request)
                return
            self.started_request = request
        loader = self.loader
        if loader is None:
            self.turnFailed.emit("the assistant is not available", True)
            return
        # (the stop flag is cleared by the client when it queues the request, so a Stop
        # pressed while this request waited behind model loading is not lost)
        self.busy = True
        done = None
        try:
            missing = loader.llm is None
            try:
                a = loader.load_model()  # what is not loaded yet (a model that failed: again)
            except (ModelError, ServerError) as exc:  # nothing stored: the message goes back
                if isinstance(exc, ModelError):  # (a server is tried again at the next one)
                    self._status("failed", str(exc), "model")
                self.turnFailed.emit(str(exc), True)
                return
            if isinstance(a.llm, ServerLLM):
                try:  # gone since it was connected: refused, nothing stored (README)
                    a.llm.reach()
                except ServerError as exc:
                    self.server_down = True
                    self._status("failed", str(exc), "server")
                    self.turnFailed.emit(str(exc), True)
                    return
            if missing or self.server_down:  # it failed before (a server that was down,
                self.server_down = False  # a switch that failed)
                self._status("ready", info=loader.model_info())
            for ev in a.chat(message, conversation_id, stop=self.stop_event,
                             said_at=said_at or None, on_status=self.turnStatus.emit):
                if isinstance(ev, DoneEvent):  # the chat as stored, then the answer's end
                    done = ev
                    self.update.emit(conversation_event(a.store, ev.conversation_id, reason="turn"))
                    self.update.emit(conversations_event(a.store))
                self.stream.emit(ev)
        except ModelError as exc:
            self._status("failed", str(exc), "model")
            self.turnFailed.emit(str(exc), False)
        except MessageTooLong as exc:  # refused before anything was stored
            self.turnFailed.emit(str(exc), True)
        except (ServerError, ValueError, StoreError) as exc:
            # a server failing mid-answer (the partial answer was stored, marked
            # interrupted), a refused message (too long), the store busy or the disk full:
            # one line; an answer that could not be stored is kept and stored with the next
            # message
            self.turnFailed.emit(str(exc), False)
        except Exception as exc:  # noqa: BLE001 - surface, never crash the thread
            traceback.print_exc()
            self.turnFailed.emit(f"{type(exc).__name__}: {exc}", False)
        finally:
            self.busy = False
        if done is not None:
            self.memory_changed("turn", [done.episode_id] if done.episode_id else [])

    def stop(self) -> None:
        """Thread-safe: ask the running answer to end (the partial answer is kept)."""
        self.stop_event.set()
        llm = self.loader.llm if self.loader is not None else None
        if self.busy and llm is not None:
            from ..llm import LocalLLM  # (loaded with the model)

            if not isinstance(llm, LocalLLM):
                llm.abort()  # a server that sends nothing would otherwise hold the answer

    def touch(self) -> None:
        """Thread-safe: the user is active (idle reflection yields and waits)."""
        if self.scheduler is not None:
            self.scheduler.touch()

    def present(self) -> None:
        """Thread-safe: the user is using the window (`Scheduler.present`)."""
        if self.scheduler is not None:
            self.scheduler.present()

    def consolidate_now(self) -> bool:
        """Thread-safe: start one consolidation + forgetting pass in the background."""
        return self.scheduler.run_now() if self.scheduler is not None else False

    # ---- idle reflection ------------------------------------------------------------
    def _on_reflection(self, report: ReflectionEvent) -> None:
        """(scheduler thread) A pass ended: say so now, refresh memory on this thread."""
        self.update.emit(report)
        if report.consolidation is not None or report.forgetting is not None:
            self._reflected.emit()

    @QtCore.Slot()
    def _after_reflection(self) -> None:
        if self.loader is not None:
            self.memory_changed("reflection")

    # ---- memory ---------------------------------------------------------------------
    def memory_changed(self, cause: str, ids: list[int] | None = None) -> None:
        """Tell the window the memories changed: their count, then the graph."""
        loader = self.loader
        if loader is None:
            return
        self.update.emit(MemoryChangedEvent(cause, loader.store.count_episodes(), list(ids or [])))
        self._emit_snapshot()

    def _emit_snapshot(self) -> None:
        loader = self.loader
        if loader is None:
            return
        from .graph_model import add_knowledge, snapshot_from_store

        if loader.engine is not None:
            snap = add_knowledge(loader.engine.graph_snapshot(limit=GRAPH_LIMIT), loader.store)
        else:  # before the embedder loads: straight from the store
            snap = snapshot_from_store(loader.store, limit=GRAPH_LIMIT,
                                       lam=loader.settings.hela.lam)
        snap["total_episodes"] = loader.store.count_episodes()
        self.snapshot.emit(snap)

    @QtCore.Slot(str, object)
    def op(self, name: str, arg) -> None:
        """Memory edits, file jobs and reads, run where the engine lives (`worker_ops.OPS`
        lists them).  The result comes back through `opDone`, a failure through `opFailed`;
        an op that changes memory is followed by a `MemoryChangedEvent` and a snapshot."""
        loader = self.loader
        if loader is None:
            self.opFailed.emit(name, "the memory store is not open")
            return
        spec = OPS.get(name)
        if spec is None:
            self.opFailed.emit(name, f"unknown operation {name!r}")
            return
        try:
            if spec.embedder:
                loader.load_embedder()
            result = spec.run(self, loader, arg)
            if spec.quiet:
                return
            self.opDone.emit(name, arg, result)
            if spec.changes_memory:
                self.memory_changed(spec.changes_memory, spec.ids(arg, result))
        except Exception as exc:  # noqa: BLE001
            self.opFailed.emit(name, str(exc))

    def token_offsets(self, text: str) -> list[tuple[int, int]] | None:
        """Character spans of the model's tokens in a stored answer (for token hover)."""
        llm = self.loader.llm if self.loader is not None else None
        if llm is None or not text:
            return None
        toks = llm.tokenize(text, special=False)
        out, pos, buf = [], 0, b""
        for t in toks:
            buf += llm.detokenize([t])
            try:
                piece = buf.decode("utf-8")
            except UnicodeDecodeError:
                out.append((pos, pos))
                continue
            buf = b""
            start = text.find(piece, pos) if piece.strip() else pos
            if start < 0 or start > pos + 4:
                start = pos
            end = min(len(text), start + len(piece))
            out.append((start, end))
            pos = end
        return out


class AssistantClient(QtCore.QObject):
    """GUI-side handle: owns the worker thread; its signals queue calls into the worker."""

    requestOpen = QtCore.Signal()
    requestLoad = QtCore.Signal(bool)
    requestChat = QtCore.Signal(str, object, int, float)
    requestReload = QtCore.Signal(object)
    requestSettings = QtCore.Signal(object)
    requestOp = QtCore.Signal(str, object)
    requestClose = QtCore.Signal()

    def __init__(self, data_dir: Path, settings: Settings, parent=None,
                 assistant_kwargs: dict | None = None, idle_scheduler: bool = True):
        super().__init__(parent)
        self.worker_thread = QtCore.QThread()
        self.worker_thread.setObjectName("assistant")
        self.worker = AssistantWorker(data_dir, settings, assistant_kwargs, idle_scheduler)
        self.worker.moveToThread(self.worker_thread)
        self.requestOpen.connect(self.worker.open)
        self.requestLoad.connect(self.worker.load)
        self.requestChat.connect(self.worker.chat)
        self.requestReload.connect(self.worker.reload_model)
        self.requestSettings.connect(self.worker.apply_settings)
        self.requestOp.connect(self.worker.op)
        self.requestClose.connect(self.worker.close)
        # True from `chat` until the window has handled the answer's end (its DoneEvent or
        # turnFailed) and clears it: cleared here on the same signals, it went False before
        # the window's slot had run, and a message sent in between found the failed answer
        # still "Loading the language model…" on screen (CI on 0.45.0)
        self.streaming = False
        self.request = 0
        self.worker_thread.start()

    def chat(self, message: str, conversation_id: int | None, said_at: float = 0.0) -> None:
        """Ask for an answer (`said_at`: the message's own time, when answered again)."""
        self.streaming = True
        self.worker.stop_event.clear()
        self.worker.touch()
        self.request += 1
        self.requestChat.emit(message, conversation_id, self.request, float(said_at))

    def stop(self) -> bool:
        """Stop the answer.  Returns True when it had not begun yet (it waited behind model
        loading or another job): it is dropped at once and nothing of it is stored."""
        with self.worker.request_lock:
            if self.streaming and self.worker.started_request != self.request:
                self.worker.cancelled.add(self.request)
                self.streaming = False
                return True
        self.worker.stop()
        return False

    def shutdown(self, timeout_ms: int = 60000) -> None:
        """Stop any answer (its partial text is stored), close the assistant, end the thread."""
        self.worker.stop()
        self.worker.touch()  # a running idle pass yields at once
        self.requestClose.emit()
        self.worker_thread.quit()
        deadline = time.monotonic() + timeout_ms / 1000
        while not self.worker_thread.wait(50):
            self.worker.stop()
            if time.monotonic() > deadline:
                break
        if self.worker_thread.isFinished() and self.worker.loader is not None:
            self.worker.close()  # the queued close may not have run before the loop quit


__all__ = ["AssistantWorker", "AssistantClient", "MemoriesEvent", "TokenEvent", "MemoryUpdateEvent"]
