"""Loading an assistant's parts in steps (Qt-free).

An `Assistant` is built from loaded parts; the app loads them one at a time and keeps
working in between — browsing, importing, exporting and editing memories need only the
store (and some the embedder), never the chat model, which may take long to load or fail
to.  `AssistantLoader` holds what is loaded so far:

- at once: the data folder's `Store`, the settings and the model lock;
- `load_embedder()`: the embedder and the `MemoryEngine` (raises EmbedderError);
- `load_model()`: the chat model (raises ModelError / ServerError), then the `Assistant`;
- `switch_model(settings)`: another model or model settings, swapped under the model lock.
  If the new one fails to load, the old one is released all the same: nothing the user
  switched away from (a server elsewhere, say) answers or reflects on memories again; the
  new settings stay and the next `load_model` tries them.

`assistant` is None until both the engine and the model exist.  The terminal chat, the
benchmarks and the tests want everything at once: `open_assistant(data_dir, ...)`.

Example::

    loader = AssistantLoader(Path("~/hela").expanduser())
    loader.load_embedder()        # the memory browser and imports work from here on
    a = loader.load_model()       # the Assistant, fully loaded
    loader.close()
"""

from __future__ import annotations

import gc
import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from .assistant import Assistant, describe_model
from .config import Settings
from .embedder import Embedder
from .llm import LocalLLM
from .memory import MemoryEngine
from .store import Store

if TYPE_CHECKING:
    from .server_llm import ServerLLM


def settle_heap() -> None:
    """Take what loading made out of the cyclic garbage collector's rounds (`gc.freeze`).

    Loaded, the app holds some 480,000 objects the collector tracks (torch, transformers,
    the embedder, llama.cpp's bindings, Qt's wrappers), nearly all of them kept for the
    whole session.  A full collection walked them all, holding the interpreter lock for
    0.4–0.5 s on these 2-core machines (measured: 414–541 ms): whenever one fell due while
    an answer streamed, the window stopped for as long (the CI run of 0.36.0 saw a 448 ms
    stall of its event loop).  Frozen, they are still freed by reference counting; only
    reference cycles among them wait for `thaw_heap`.  Young garbage is collected first
    (generations 0 and 1: cheap) so that it is not kept."""
    gc.collect(1)
    gc.freeze()


def thaw_heap() -> None:
    """Give what `settle_heap` froze back to the collector (the assistant is closed)."""
    gc.unfreeze()


def new_model(settings: Settings) -> LocalLLM | ServerLLM:
    """The chat model the settings name: a model server (connected; raises ServerError with
    one line, nothing written) or a local GGUF model (raises ModelError)."""
    if settings.backend == "server":
        from .server_llm import server_llm

        return server_llm(settings).connect()
    return LocalLLM.from_settings(settings)


class AssistantLoader:
    """The parts of an assistant on one data folder, loaded in steps (see the module).

    `settings`: default the folder's saved settings (`model_path` overrides its model).
    `llm` / `embedder`: parts already loaded to share (tests, benchmarks); `close` leaves a
    given model open (its owner closes it).  Every method runs on the host's thread (the
    app's assistant thread); `load_model` may also be called from the idle scheduler's
    thread: loading is serialised.
    """

    def __init__(self, data_dir: Path, settings: Settings | None = None, *,
                 model_path: str | None = None, llm: LocalLLM | ServerLLM | None = None,
                 embedder: Embedder | None = None):
        self.data_dir = Path(data_dir)
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.settings = settings or Settings.load(self.data_dir)
        if model_path:
            self.settings.model_path = str(model_path)
        self.store = Store(self.data_dir)
        self.embedder: Embedder | None = embedder
        self.engine: MemoryEngine | None = (
            MemoryEngine(self.store, embedder, self.settings) if embedder is not None else None)
        self.llm: LocalLLM | ServerLLM | None = llm
        self._lent = llm  # the host's model: never closed here
        # the lock a chat turn holds while it uses the model; idle work and a model switch
        # take it too (it exists before the model: the scheduler waits on it meanwhile)
        self.model_lock = threading.Lock()
        # one load at a time; taken inside the model lock (the idle scheduler loads holding
        # it), never around it
        self._loading = threading.RLock()
        self._assistant: Assistant | None = None
        # given to the assistant: on_progress(tokens done, tokens to read) of a long prompt
        self.on_progress: Callable[[int, int], None] | None = None

    @property
    def assistant(self) -> Assistant | None:
        """The assistant, once the engine and the model are loaded (else None)."""
        return self._assistant

    def load_embedder(self) -> MemoryEngine:
        """Load the embedder (raises EmbedderError); returns the memory engine."""
        with self._loading:
            if self.engine is None:
                if self.embedder is None:
                    # half the cores: live re-retrieval embeds beside llama.cpp's generation
                    self.embedder = Embedder(threads=max(1, (os.cpu_count() or 2) // 2))
                self.engine = MemoryEngine(self.store, self.embedder, self.settings)
                settle_heap()
            return self.engine

    def load_model(self) -> Assistant:
        """Load what is missing — the embedder, then the chat model — and return the
        assistant (raises EmbedderError / ModelError / ServerError; what loaded stays)."""
        with self._loading:
            engine = self.load_embedder()
            loaded = self.llm is None or self._assistant is None
            if self.llm is None:
                self.llm = new_model(self.settings)
            if self._assistant is None:
                self._assistant = Assistant(engine, self.llm, model_lock=self.model_lock)
                self._assistant.on_progress = self.on_progress
            if loaded:
                settle_heap()
            self._assistant.llm = self.llm  # (after a switch that failed: the new one)
            return self._assistant

    def switch_model(self, settings: Settings) -> None:
        """Switch model or model settings.  Without a model yet (it failed, or was not
        loaded), the settings apply and it loads.  If the new model fails to load, the old
        one is released anyway and the new settings stay (raises ModelError / ServerError):
        the next use tries them, and what the user switched away from is never used again.
        (Runs on the host's thread; the swap itself waits for the model lock.)"""
        if self.llm is None:
            self.apply_settings(settings)
            self.load_model()
            return
        new: LocalLLM | ServerLLM | None = None
        try:
            new = new_model(settings)
            settle_heap()
        finally:
            with self.model_lock:
                old, self.llm = self.llm, new
                if self._assistant is not None and new is not None:
                    self._assistant.llm = new
            if old is not None and old is not self._lent:
                old.close()
            self.apply_settings(settings)

    def apply_settings(self, settings: Settings) -> None:
        self.settings = settings
        if self.engine is not None:
            self.engine.settings = settings  # the assistant's settings too

    def model_info(self) -> dict:
        """The loaded model as the status bar shows it, or what the settings name."""
        if self.llm is None:
            return {"path": self.settings.model_path or "(bundled default)", "name": None,
                    "device": "—", "n_gpu_layers": self.settings.n_gpu_layers,
                    "n_ctx": self.settings.n_ctx}
        return describe_model(self.llm)

    def close(self) -> None:
        """Close the assistant (or what was loaded of it): the store, and the model unless
        it was given."""
        keep = self.llm is None or self.llm is self._lent
        thaw_heap()
        if self._assistant is not None:
            self._assistant.close(close_model=not keep)
            self._assistant = None
        else:
            if not keep and self.llm is not None:
                self.llm.close()
            self.store.close()


def open_assistant(data_dir: Path, settings: Settings | None = None, *,
                   model_path: str | None = None, llm: LocalLLM | ServerLLM | None = None,
                   embedder: Embedder | None = None) -> Assistant:
    """An assistant on `data_dir` with every part loaded: those given, the rest now (raises
    EmbedderError / ModelError / ServerError, and closes the store again).  Its `close()`
    closes the model too, given or not."""
    loader = AssistantLoader(data_dir, settings, model_path=model_path, llm=llm,
                             embedder=embedder)
    try:
        return loader.load_model()
    except BaseException:
        loader.close()
        raise


__all__ = ["AssistantLoader", "new_model", "open_assistant"]
