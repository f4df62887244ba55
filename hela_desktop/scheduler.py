"""Background consolidation and forgetting while the app sits idle (Qt-free, APScheduler 3).

API for the GUI (and anything else that loads an assistant with
:class:`~hela_desktop.loader.AssistantLoader`)::

    sched = IdleScheduler(loader, on_report=callback,      # starts checking at once
                          on_start=started)
    sched.touch()        # call on every key press in the input box, and when an answer
                         # starts and ends: it marks activity and makes a running job yield
    sched.run_now()      # "Consolidate now" button: one pass in the background, idle or not
    sched.busy           # True while a pass runs (status bar: "consolidating…")
    sched.idle_seconds() # seconds since the last activity
    sched.last_report    # the last pass's ReflectionEvent (None before the first)
    sched.shutdown()     # on quit: asks a running job to yield, waits for it, stops

``on_report(report: ReflectionEvent)`` is called from the scheduler's worker thread after
every pass, ``on_start(ReflectionStartedEvent)`` when one begins (a Qt GUI must forward them
to the GUI thread, e.g. through a signal).  The report (`hela_desktop.events`) carries
``trigger`` ("idle" | "manual"), ``started_at`` (epoch s), ``seconds``, ``consolidation``
(``ConsolidationReport.to_dict()`` or None), ``forgetting`` (``ForgettingReport.to_dict()``
or None), ``yielded`` and ``error`` (str or None).

Rules:

- **Idle** means no `touch()` and no generation (the model lock free) for
  ``Settings.idle_minutes`` (default 2).  A check runs every ``check_seconds``; after an idle
  pass completes, the next one waits for new activity followed by idle time again.  A pass
  that yielded, or that left clusters for later (``ConsolidationParams.max_clusters``),
  continues at the next idle check.
- **One model at a time.**  Each cluster's model call and transaction run under the
  loader's ``model_lock``, the same lock a chat turn holds (and a model switch), so chat and
  consolidation never use the model together.  A pass loads what is not loaded yet (the
  embedder, then the model, under the lock).  A job waits at most
  ``lock_timeout`` for it; if a chat holds it, the job yields.
- **Yielding.**  `touch()` sets an event that the job checks before every cluster and every
  generated token; the current model call stops at once (nothing of it is written) and the
  lock is released.  Committed clusters stay committed; the rest is done next time.
- **Threads.**  The job writes through its own `Store` connection on the same file (SQLite
  WAL), and removes archived episodes from ``loader.engine``'s index under its lock.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
import traceback
from collections.abc import Callable
from typing import TYPE_CHECKING

from apscheduler.schedulers.background import BackgroundScheduler

from .backups import backup_if_due, due
from .consolidate import ConsolidationParams, consolidate
from .events import ReflectionEvent, ReflectionStartedEvent
from .forgetting import ForgettingParams, forget
from .store import Store, StoreError

if TYPE_CHECKING:
    from .loader import AssistantLoader

log = logging.getLogger(__name__)


class _LiveLLM:
    """Forwards to ``loader.llm`` as it is *now* (a model switch replaces it)."""

    def __init__(self, loader: AssistantLoader):
        object.__setattr__(self, "_loader", loader)

    def __getattr__(self, name):
        return getattr(self._loader.llm, name)

    def __setattr__(self, name, value):
        setattr(self._loader.llm, name, value)


class IdleScheduler:
    """Runs reflective consolidation, then forgetting, when the user is idle.

    `loader`: the app's `AssistantLoader` (its settings, store path, engine, model and model
    lock are used; what is not loaded yet is loaded by the first pass).  `on_report`: called with each pass's `ReflectionEvent` (worker thread);
    `on_start`: called with a `ReflectionStartedEvent` as a pass begins (worker thread).
    `idle_minutes`: default ``loader.settings.idle_minutes``, read at every check so a
    settings change applies at once.  `consolidation` / `forgetting`: parameters.
    `check_seconds`: how often idleness is checked.  `start`: start the background scheduler
    now (tests may pass False and call `run_pass` directly).
    """

    def __init__(self, loader: AssistantLoader,
                 on_report: Callable[[ReflectionEvent], None] | None = None, *,
                 on_start: Callable[[ReflectionStartedEvent], None] | None = None,
                 idle_minutes: float | None = None, check_seconds: float = 10.0,
                 consolidation: ConsolidationParams | None = None,
                 forgetting: ForgettingParams | None = None,
                 lock_timeout: float = 0.5, start: bool = True,
                 clock: Callable[[], float] = time.monotonic):
        self.loader = loader
        self.on_report = on_report
        self.on_start = on_start
        self._idle_minutes = idle_minutes
        self.consolidation = consolidation or ConsolidationParams(lock_timeout=lock_timeout)
        self.forgetting = forgetting or ForgettingParams()
        self.lock_timeout = lock_timeout
        self.model_lock: threading.Lock = loader.model_lock
        self._clock = clock
        self._last_activity = clock()
        self._activity_seq = 0
        self._done_seq = -1  # activity seq at the last completed idle pass
        self._yield = threading.Event()
        self._stopping = threading.Event()
        self._job_lock = threading.Lock()
        self._pending = False  # an idle pass is scheduled but has not started yet
        self._running: str | None = None  # the trigger of the pass running now
        self.last_report: ReflectionEvent | None = None
        self._sched = BackgroundScheduler(
            daemon=True, job_defaults={"coalesce": True, "max_instances": 1, "misfire_grace_time": 30})
        self._sched.add_job(self._tick, "interval", seconds=check_seconds, id="hela-idle-check")
        if start:
            self._sched.start()

    # ---- activity ------------------------------------------------------------------------
    @property
    def idle_minutes(self) -> float:
        if self._idle_minutes is not None:
            return float(self._idle_minutes)
        return float(getattr(self.loader.settings, "idle_minutes", 2.0))

    def touch(self) -> None:
        """The user did something (typed, sent, an answer started/ended): yield and reset."""
        self._last_activity = self._clock()
        self._activity_seq += 1
        self._yield.set()

    def present(self) -> None:
        """The user is using the window (a click, a key, a scroll): no idle pass starts for
        `idle_minutes` more, and an idle one running yields; a pass asked for (Reflect now)
        goes on.  Nothing new to reflect on, unlike `touch`.  (QA pass 21: an idle pass
        began while the Memories tab was being clicked through, since only typing a
        message counted.)"""
        self._last_activity = self._clock()
        if self._running == "idle":
            self._yield.set()

    def idle_seconds(self) -> float:
        """Seconds since the last activity (0 while an answer is being generated)."""
        if self.model_lock.locked() and not self.busy:
            return 0.0
        return max(0.0, self._clock() - self._last_activity)

    def should_yield(self) -> bool:
        """True once the user is back (or the app is quitting): the job stops at once."""
        return self._yield.is_set() or self._stopping.is_set()

    @property
    def busy(self) -> bool:
        """A pass is running."""
        return self._job_lock.locked()

    # ---- triggering ----------------------------------------------------------------------
    def _tick(self) -> None:
        if self._stopping.is_set() or self.busy or self._pending:
            return
        if self.model_lock.locked():  # an answer is being generated: that is activity
            self._last_activity = self._clock()
            return
        if self._clock() - self._last_activity < self.idle_minutes * 60.0:
            return
        if self._done_seq == self._activity_seq:
            return  # already consolidated since the last activity
        # run the pass as its own job, so the idle check keeps ticking (and stays quiet)
        self._pending = True
        self._sched.add_job(self.run_pass, kwargs={"trigger": "idle"})

    def run_now(self) -> bool:
        """Start one pass in the background now, idle or not; False if one is running."""
        if self.busy or self._stopping.is_set():
            return False
        self._sched.add_job(self.run_pass, kwargs={"trigger": "manual"})
        if not self._sched.running:
            threading.Thread(target=self.run_pass, kwargs={"trigger": "manual"},
                             daemon=True).start()
        return True

    def shutdown(self, wait: bool = True) -> None:
        """Ask a running pass to yield, wait for it (if `wait`), stop the scheduler."""
        self._stopping.set()
        self._yield.set()
        if self._sched.running:
            self._sched.shutdown(wait=wait)
        if wait:
            with self._job_lock:
                pass

    # ---- the job -------------------------------------------------------------------------
    def run_pass(self, trigger: str = "manual") -> ReflectionEvent | None:
        """One pass (consolidation, then forgetting) in the calling thread; its report,
        given to `on_report` once the pass has let go (`busy` is False by then: told while
        it still held on, a "Reflect now" at once was refused, and a test that read `busy`
        in the report's wake failed under load).

        Returns None when another pass is running.
        """
        report = self._pass(trigger)
        if report is not None:
            self._notify(self.on_report, report)
        return report

    def _pass(self, trigger: str) -> ReflectionEvent | None:
        if not self._job_lock.acquire(blocking=False):
            return None
        if trigger == "idle":
            self._pending = False
            if self._done_seq == self._activity_seq:
                self._job_lock.release()
                return None
        seq = self._activity_seq
        self._yield.clear()
        if self._stopping.is_set():
            self._yield.set()
        self._running = trigger
        t0 = time.perf_counter()
        report = ReflectionEvent(trigger=trigger, started_at=time.time())
        self._notify(self.on_start, ReflectionStartedEvent(trigger=trigger))
        store = None
        try:
            loader = self.loader
            report.backup = self._backup()
            engine = loader.load_embedder()
            # no model, or none since a switch failed: load what the settings name now
            if (loader.assistant is None or loader.llm is None) and not self._load_model():
                report.yielded = True
                return self._finish(report, t0, seq, complete=False)
            store = Store(loader.store.path)
            crep = consolidate(engine, _LiveLLM(loader), store=store, params=self.consolidation,
                               should_yield=self.should_yield, model_lock=self.model_lock)
            report.consolidation = crep.to_dict()
            complete = not crep.yielded and crep.remaining == 0
            if crep.yielded or self.should_yield():
                report.yielded = True
                return self._finish(report, t0, seq, complete=False)
            if not self.model_lock.acquire(timeout=self.lock_timeout):
                report.yielded = True
                return self._finish(report, t0, seq, complete=False)
            try:
                frep = forget(engine, store=store, hela=engine.hela, params=self.forgetting,
                              should_yield=self.should_yield)
            finally:
                self.model_lock.release()
            report.forgetting = frep.to_dict()
            report.yielded = frep.yielded
            return self._finish(report, t0, seq, complete=complete and not frep.yielded)
        except Exception as exc:  # noqa: BLE001 - a background job must never crash the app
            log.error("idle pass failed: %s\n%s", exc, traceback.format_exc())
            report.error = f"{type(exc).__name__}: {exc}"
            return self._finish(report, t0, seq, complete=True)
        finally:
            self._running = None
            if store is not None:
                store.close()
            self._job_lock.release()

    def _backup(self) -> dict | None:
        """An automatic backup of the memory file, when one is due (`backups.due`): what
        was made (``Backup.to_dict()`` and how many are kept), or ``{"error": …}``; None
        when none was due.  A failed backup is reported and stops nothing else."""
        settings = self.loader.settings
        path = self.loader.store.path
        if not due(path, settings.backup_every_days, settings.backup_keep):
            return None
        try:
            with Store(path, create=False) as store:
                return backup_if_due(store, keep=settings.backup_keep,
                                     every_days=settings.backup_every_days)
        except (OSError, StoreError, sqlite3.Error) as exc:
            log.error("backup failed: %s", exc)
            return {"error": f"{type(exc).__name__}: {exc}"}

    def _load_model(self) -> bool:
        """Load the chat model under the model lock; False if a chat holds the lock."""
        if not self.model_lock.acquire(timeout=self.lock_timeout):
            return False
        try:
            self.loader.load_model()
        finally:
            self.model_lock.release()
        return True

    def _finish(self, report: ReflectionEvent, t0: float, seq: int, *,
                complete: bool) -> ReflectionEvent:
        report.seconds = round(time.perf_counter() - t0, 3)
        if complete:  # a whole manual pass counts too: the next idle one would find nothing new
            self._done_seq = seq
        self.last_report = report
        return report

    @staticmethod
    def _notify(callback, event) -> None:
        if callback is not None:
            try:
                callback(event)
            except Exception:  # noqa: BLE001
                log.exception("scheduler callback failed")
