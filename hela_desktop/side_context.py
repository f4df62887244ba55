"""The side context: swapped-in memory lines computed beside generation.

A second llama.cpp context on the same weights, used only from the retrieval thread.  It
mirrors the main context's prompt (loaded after the turn's prefill, then replaying every
swap), so a new memory line can be evaluated there, attending to the same prefix, while the
main context keeps generating; the swap then only copies its cells
(`hela_desktop.kvcache.KVCache.replace` with a `Prepared`).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence
from typing import Any

from .kvcache import (
    Edit,
    Prepared,
    decode_into,
    get_cells,
    plan_edits,
    put_cells,
    quiet_stderr,
    set_cells,
)


class SideContext:
    """The side context of one model (created on the first `mirror`)."""

    def __init__(self, llm: Any):  # llama_cpp.Llama: the main model and context
        self._llm = llm
        self._ctx: Any = None  # llama_cpp._internals.LlamaContext, once created
        self._batch: Any = None
        self._failed = False
        self._lock = threading.Lock()
        self._todo: list[tuple[str, Any]] = []  # what to replay before the next prepare
        self._loaded = False
        self.evaluated_tokens = 0  # tokens evaluated here, ever

    def _context(self) -> Any:
        if self._ctx is not None or self._failed:
            return self._ctx
        try:
            from llama_cpp._internals import LlamaBatch, LlamaContext

            main = self._llm.context_params
            p = type(main).from_buffer_copy(main)  # the main context's parameters, exactly
            p.n_seq_max = 2
            p.kv_unified = True
            spare = max(1, (os.cpu_count() or 2) - int(main.n_threads))
            p.n_threads = p.n_threads_batch = spare
            with quiet_stderr():
                self._ctx = LlamaContext(model=self._llm._model, params=p, verbose=False)
                self._batch = LlamaBatch(n_tokens=self._llm.n_batch, embd=0, n_seq_max=2,
                                         verbose=False)
        except Exception:  # noqa: BLE001 - no side context: swaps decode on the main one
            self._failed = True
            self._ctx = None
        return self._ctx

    def mirror(self) -> None:
        """Load the main context's current state (main thread, while no `prepare` runs);
        creates the side context on the first call."""
        if self._context() is None:
            return
        with self._lock:
            self._todo = [("load", get_cells(self._llm._ctx, 0))]

    def invalidate(self) -> None:
        """The main context changed in a way the side context cannot replay (or the side
        context failed): `prepare` returns None until the next `mirror`."""
        with self._lock:
            self._todo = []
            self._loaded = False

    def follow(self, main_ctx: Any, ops: list[tuple] | None) -> None:
        """The main context was edited by `replace`: replay its cell operations (`ops`, when
        the edit used prepared cells), else reload the main context's cells if mirrored."""
        with self._lock:
            if ops is not None:
                self._todo.extend(("edit", op) for op in ops)
            elif self._ctx is not None and (self._loaded or self._todo):
                self._todo = [("load", get_cells(main_ctx, 0))]

    def _replay(self, side: Any) -> bool:
        """Apply what the main context did since the last prepare; False: not mirrored."""
        with self._lock:
            todo, self._todo = self._todo, []
        for kind, op in todo:
            if kind == "load":
                side.kv_cache_clear()
                set_cells(side, op, 0)
            else:
                put_cells(side, *op)
        if not self._loaded and not any(kind == "load" for kind, _ in todo):
            return False
        self._loaded = True
        return True

    def prepare(self, edits: Sequence[Edit], ids: list[int], pos: list[int], *,
                abort: Callable[[], bool] | None = None) -> Prepared | None:
        """Evaluate the new tokens of `edits` to the main context (`ids` at `pos`) here.

        Returns what `replace` needs to apply the edits by copying cells, or None when there
        is no side context (it could not be created, or `mirror` was never called) or when
        `abort()` turned true before an edit (the answer no longer wants it).
        """
        side = self._ctx
        if side is None or not self._replay(side):
            return None
        items = plan_edits(edits, ids, pos)
        cells: list[Any] = []
        for _a, _b, new, start, _end, _grow in items:
            if abort is not None and abort():
                return None
            if not new:
                cells.append(None)
                continue
            side.kv_cache_seq_rm(1, -1, -1)
            side.kv_cache_seq_cp(0, 1, 0, start)
            decode_into(side, self._batch, self._llm.n_batch, new, start, 1)
            side.kv_cache_seq_rm(1, 0, start)  # keep only the new cells
            cells.append(get_cells(side, 1))
            side.kv_cache_seq_rm(1, -1, -1)
            self.evaluated_tokens += len(new)
        end = max(b for _a, b, *_ in items)
        return Prepared(items=[tuple(x) for x in items], cells=cells,
                        ids=ids[: end + 1], pos=pos[: end + 1])

    def close(self) -> None:
        if self._ctx is not None:
            self._ctx.close()
            self._ctx = None
