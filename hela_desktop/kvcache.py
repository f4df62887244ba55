"""The KV-cache bookkeeping behind `LocalLLM` (llama.cpp's cells, positions and splicing).

Each cached token has a KV position.  Positions only grow along the context but may have
holes: `KVCache.replace` writes a memory line into the positions of the line it removes, so
a swap needs no RoPE shift of the cache when the new line fits.  llama.cpp decodes a
sequence only at its next position, so new tokens always follow the previous one.

`KVCache` is the cache half of `hela_desktop.llm.LocalLLM` (a mixin: it works on the
model's `Llama` object, ``self._llm``); the functions below work on a llama.cpp context and
are shared with the side context (`hela_desktop.side_context`).  `chat_tag` names whose
cells the cache holds (a chat of one data folder).
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable, Sequence
from typing import Any, Protocol

import numpy as np

from .formulas import running_cost, swap_pause_s

Edit = tuple[int, int, Sequence[int]]  # replace cached tokens [a, b) by these tokens


class Follower(Protocol):
    """What the cache tells the side context (`hela_desktop.side_context.SideContext`)."""

    def invalidate(self) -> None: ...

    def follow(self, main_ctx: Any, ops: list[tuple] | None) -> None: ...


class ModelError(RuntimeError):
    """The chat model cannot be used; the message is one line naming the file and the fix."""


class PrefillStopped(Exception):
    """`LocalLLM.sync` stopped reading a prompt because its `progress` callback said so."""

    def __init__(self, evaluated: int):
        super().__init__(f"stopped after {evaluated} prompt tokens")
        self.evaluated = evaluated


def chat_tag(data_dir: object, conversation_id: int) -> tuple[str, str, int]:
    """The cache tag of one chat: chat ids repeat across data folders, so it names both."""
    return ("chat", str(data_dir), conversation_id)


def common_prefix(a: Sequence[int] | np.ndarray,
                  b: Sequence[int] | np.ndarray) -> int:
    """Length of the longest common prefix of two token sequences."""

    n = min(len(a), len(b))
    if n == 0:
        return 0
    diff = np.asarray(a[:n]) != np.asarray(b[:n])
    return int(np.argmax(diff)) if diff.any() else n


def resume_point(cached: Sequence[int], tokens: Sequence[int], p: int,
                  limit: int) -> tuple[int, int]:
    """Where `tokens[p:]` picks up again in `cached` after a block of at most `limit` tokens:
    (q, m) with cached[q:q+m] == tokens[p:p+m], m as long as possible (0 if nowhere)."""

    c = np.asarray(cached)
    hi = min(len(c), p + 1 + limit)
    best = (0, 0)
    for q in (np.nonzero(c[p + 1 : hi] == tokens[p])[0] + p + 1).tolist():
        m = common_prefix(c[q:], tokens[p:])
        if m > best[1]:
            best = (q, m)
    return best


class Prepared:
    """Memory lines evaluated on the side context, ready to be copied into the main one."""

    def __init__(self, items: list[tuple], cells: list, ids: list[int], pos: list[int]):
        self.items = items  # (a, b, new, start, end_pos, grow), last edit first
        self.cells = cells  # the new cells of each edit, as llama.cpp sequence state
        self.ids = ids  # the context up to the last edit, as it was when prepared
        self.pos = pos

    @property
    def tokens(self) -> int:
        return sum(len(it[2]) for it in self.items)

    def matches(self, items: list[tuple], ids: list[int], pos: list[int]) -> bool:
        n = len(self.ids)
        return (items == self.items and ids[:n] == self.ids and pos[:n] == self.pos)


def get_cells(ctx, seq_id: int):
    """One sequence's KV cells (llama.cpp sequence state), as a ctypes buffer."""
    import ctypes

    import llama_cpp

    n = llama_cpp.llama_state_seq_get_size(ctx.ctx, seq_id)
    buf = (ctypes.c_uint8 * n)()
    if llama_cpp.llama_state_seq_get_data(ctx.ctx, buf, n, seq_id) != n:
        raise RuntimeError("llama.cpp could not save a sequence's cells")
    return buf


def set_cells(ctx, buf, seq_id: int) -> None:
    import llama_cpp

    if llama_cpp.llama_state_seq_set_data(ctx.ctx, buf, len(buf), seq_id) != len(buf):
        raise RuntimeError("llama.cpp could not restore a sequence's cells")


def put_cells(ctx, start: int, end_pos: int, grow: int, cells, k: int) -> None:
    """Replace sequence 0's cells in positions [start, end_pos) by k new cells (moving the
    later cells `grow` positions right when positive).  The new cells are `cells` (saved
    from a sequence 1) or, when that is None, already in sequence 1."""
    if cells is not None:
        ctx.kv_cache_seq_rm(1, -1, -1)
        set_cells(ctx, cells, 1)
    ctx.kv_cache_seq_rm(0, start, end_pos)
    if grow > 0:
        ctx.kv_cache_seq_shift(0, end_pos, -1, grow)
    if k:
        ctx.kv_cache_seq_cp(1, 0, start, start + k)
    ctx.kv_cache_seq_rm(1, -1, -1)


def decode_into(ctx, batch, n_batch: int, tokens: Sequence[int], pos0: int,
                 seq_id: int, progress: Callable[[int, int], None] | None = None) -> None:
    """Decode `tokens` at positions pos0.. on one sequence of `ctx`, n_batch at a time
    (``progress(done, total)`` after each batch when there is more than one)."""
    n = len(tokens)
    for i in range(0, n, n_batch):
        set_batch(batch, tokens[i : i + n_batch], pos0 + i, seq_id=seq_id)
        ctx.decode(batch)
        if progress is not None and n > n_batch:
            progress(min(i + n_batch, n), n)


def next_pos(pos: Sequence[int], i: int) -> int:
    """The position right after cached token i-1 (0 for the first token)."""
    return pos[i - 1] + 1 if i else 0


def set_batch(batch, tokens: Sequence[int], pos0: int, *, seq_id: int) -> None:
    """Fill a llama batch with `tokens` at positions pos0.. on one sequence (logits: last)."""
    b = batch.batch
    n = len(tokens)
    b.n_tokens = n
    for i, t in enumerate(tokens):
        b.token[i] = t
        b.pos[i] = pos0 + i
        b.seq_id[i][0] = seq_id
        b.n_seq_id[i] = 1
        b.logits[i] = i == n - 1


def plan_edits(edits: Sequence[Edit], ids: list[int], pos: list[int]) -> list[tuple]:
    """Check edits and lay them out, last first: (a, b, new, start, end_pos, grow).

    Edits that touch (one ends where the next begins) are merged into one, so that every
    edit's positions can be computed up front: applying the later edits first never
    moves what an earlier one uses.
    """
    n_cached = len(ids)
    merged: list[list] = []
    for a, b, new in sorted(((a, b, [int(t) for t in new]) for a, b, new in edits),
                            key=lambda e: (e[0], e[1])):
        if not (0 <= a <= b <= n_cached - 1):
            raise ValueError(f"bad edit range {a}:{b} (context of {n_cached} tokens)")
        if merged and a < merged[-1][1]:
            raise ValueError(f"overlapping edits at {a}")
        if merged and a == merged[-1][1]:
            merged[-1][1] = b
            merged[-1][2] = merged[-1][2] + new
        else:
            merged.append([a, b, new])
    out = []
    for a, b, new in reversed(merged):
        start = next_pos(pos, a)
        out.append((a, b, new, start, pos[b], len(new) - (pos[b] - start)))
    return out


class KVCache:
    """The cache half of `LocalLLM`: sync, splice (`replace`), push and their costs."""

    _llm: Any  # llama_cpp.Llama
    _pos: list[int]  # the KV position of each cached token
    n_ctx: int
    evaluated_tokens: int
    side: Follower  # the side context, kept in step with this cache

    # measured costs, refreshed as the model runs (formulas.running_cost: a higher figure is
    # learnt faster, so a machine that gets busy is priced right after one swap or a few
    # tokens): they let the assistant price a swap before making it, from what things cost
    # now
    prefill_s_per_token = 0.005  # seconds per token of a prefill
    token_s = 0.02  # seconds one generated token takes (its decode), updated every token
    _prefill_token_s = 0.02  # token_s when prefill_s_per_token was last measured
    # what a swap pauses the answer for (cells copied in, the last token re-run, and with
    # True the cache's tail moved), in units of token_s
    pause_tokens: dict[bool, float]

    def prefill_s_now(self) -> float:
        """Seconds per prefill token now: the last measured figure, scaled by how much
        slower (or faster) a token is now than when it was measured."""
        return swap_pause_s(1, self.prefill_s_per_token, self._prefill_token_s, self.token_s,
                            0.0)

    def swap_seconds(self, tokens: int, shift: bool) -> float:
        """What a `replace` evaluating `tokens` new tokens here is expected to pause the
        answer for, on this machine as busy as it is now (formulas.swap_pause_s)."""
        return swap_pause_s(tokens, self.prefill_s_per_token, self._prefill_token_s,
                            self.token_s, self.pause_tokens[shift])

    @property
    def cached_tokens(self) -> list[int]:
        return list(self._llm.input_ids[: self._llm.n_tokens])

    @property
    def positions(self) -> list[int]:
        """The KV position of every cached token (increasing; holes where lines were swapped)."""
        return list(self._pos[: self._llm.n_tokens])

    _fresh = False

    def _decode(self, tokens: Sequence[int], pos0: int, seq_id: int = 0,
                progress: Callable[[int, int], None] | None = None) -> None:
        llm = self._llm
        t = time.perf_counter()
        decode_into(llm._ctx, llm._batch, llm.n_batch, tokens, pos0, seq_id, progress)
        took = time.perf_counter() - t
        if len(tokens) >= 8:  # a prefill: keep the measured cost per token up to date
            self.prefill_s_per_token = running_cost(self.prefill_s_per_token, took / len(tokens))
            self._prefill_token_s = self.token_s  # the machine's speed when it was measured

    def _set_cache(self, ids: list[int], pos: list[int]) -> None:
        self._llm.input_ids[: len(ids)] = ids
        self._llm.n_tokens = len(ids)
        self._pos = list(pos)
        self._fresh = True

    MIN_RESUME = 16  # tokens that must match after a dropped block for the drop to pay

    def sync(self, tokens: Sequence[int], *, skip: int = 0,
             progress: Callable[[int, int], bool | None] | None = None) -> int:
        """Make the evaluated context equal `tokens`, reusing the longest cached prefix.

        With `skip` > 0, where the cache and `tokens` part ways a cached block of at most
        `skip` tokens may be dropped when what follows it matches `tokens` again for at
        least MIN_RESUME tokens (up to 4 blocks): those cells are kept and moved left (a
        RoPE shift) instead of being evaluated again.  That is how a new turn reuses the
        previous answer although the memory block before it is gone.  Kept cells were
        computed with the dropped block in view.

        `progress(done, total)` is called after each batch of a prompt longer than one batch
        (``n_batch`` tokens), so a long prompt's reading can be shown.

        Returns the number of tokens evaluated (0 only when nothing changed and fresh
        logits for the last token are already there).

        `progress(done, total)` is called before each chunk of about 0.15 s and at the end;
        when it returns True the evaluation stops there (the cache keeps what was evaluated)
        and `PrefillStopped` is raised — how Esc stops a long prompt within a fraction of a
        second.
        """
        tokens = [int(t) for t in tokens]
        if not tokens:
            raise ValueError("empty prompt")
        if len(tokens) >= self.n_ctx:
            raise ModelError(f"prompt of {len(tokens)} tokens does not fit the context ({self.n_ctx})")
        common = common_prefix(self._llm.input_ids[: self._llm.n_tokens], tokens)
        dropped = 0
        while skip and dropped < 4 and common < len(tokens) - 1 and common < self._llm.n_tokens:
            q, m = resume_point(self._llm.input_ids[: self._llm.n_tokens], tokens, common, skip)
            if m < self.MIN_RESUME:
                break
            self._drop(common, q, m)
            common += m
            dropped += 1
        n = self._llm.n_tokens
        if common == len(tokens) and n == len(tokens) and self._fresh and not dropped:
            return 0
        if common == len(tokens):
            common -= 1  # re-run the last token to get its logits
        start = next_pos(self._pos, common)
        if start + len(tokens) - common >= self.n_ctx:  # holes used up the room: compact
            common, start = 0, 0
        todo = tokens[common:]
        self._llm._ctx.kv_cache_seq_rm(-1, start, -1)
        done = 0
        with self._all_threads() if dropped else contextlib.nullcontext():
            while done < len(todo):  # (a pending shift runs inside the first decode)
                if progress is not None and progress(done, len(todo)):
                    self._set_cache(tokens[: common + done],
                                    self._pos[:common] + list(range(start, start + done)))
                    self._fresh = done > 0
                    self.evaluated_tokens += done
                    self.side.invalidate()
                    raise PrefillStopped(done)
                n = len(todo) if progress is None else self.prefill_chunk()
                self._decode(todo[done: done + n], start + done)
                done += n
        if progress is not None:
            progress(len(todo), len(todo))
        self._set_cache(tokens, self._pos[:common] + list(range(start, start + len(todo))))
        self.evaluated_tokens += len(todo)
        self.side.invalidate()
        return len(todo)

    def prefill_chunk(self, seconds: float = 0.15) -> int:
        """Tokens to evaluate per step when a prompt is read with progress: about `seconds`
        of work at the measured prefill speed (32 to n_batch tokens)."""
        per = max(self.prefill_s_per_token, 1e-6)
        return int(max(32, min(self._llm.n_batch, seconds / per)))

    def _drop(self, a: int, q: int, m: int) -> None:
        """Keep cached tokens [0, a) and [q, q+m), dropping [a, q) and everything after q+m;
        the kept cells after the gap move left so positions stay contiguous."""
        ctx = self._llm._ctx
        n = self._llm.n_tokens
        ids = [int(t) for t in self._llm.input_ids[:n]]
        pos = self._pos[:n]
        end = q + m
        if end < n:
            ctx.kv_cache_seq_rm(-1, pos[end], -1)
        start = next_pos(pos, a)
        delta = pos[q] - start
        ctx.kv_cache_seq_rm(-1, start, pos[q])
        if delta:
            ctx.kv_cache_seq_shift(0, pos[q], -1, -delta)
        self._set_cache(ids[:a] + ids[q:end], pos[:a] + [p - delta for p in pos[q:end]])


    @property
    def can_shift(self) -> bool:
        """Whether the KV cache supports position shifts (needed by `replace`)."""
        try:
            import llama_cpp

            mem = llama_cpp.llama_get_memory(self._llm._ctx.ctx)
            return bool(llama_cpp.llama_memory_can_shift(mem))
        except Exception:  # noqa: BLE001
            return False

    def room(self, a: int, b: int) -> int:
        """How many tokens fit in place of cached tokens [a, b) without shifting the rest."""
        return self._pos[b] - next_pos(self._pos, a)

    def replace(self, edits: Sequence[tuple[int, int, Sequence[int]]],
                prepared: Prepared | None = None) -> int:
        """Edit the context in place: each (a, b, tokens) replaces cached tokens [a, b).

        Ranges are in the current context's coordinates, must not overlap and must end
        before the last token.  New tokens take the positions of what they replace and
        attend to what precedes them; only when they do not fit there are the later cells
        moved right (a RoPE shift of the cache, run on all threads).  Cells after an edit
        keep the KV they were computed with.  With `prepared` (from `prepare`, for the same
        edits and context) the new cells were computed beside generation and are only copied
        in; otherwise they are decoded here, on scratch sequence 1, which shares the prefix's
        cells.  Finally the last token is re-evaluated so the next token sees the edit.
        Returns the number of tokens evaluated for the edit (inserted tokens + 1).
        """
        llm = self._llm
        ctx = llm._ctx
        t0 = time.perf_counter()
        n_cached = llm.n_tokens
        ids = [int(t) for t in llm.input_ids[:n_cached]]
        pos = list(self._pos[:n_cached])
        items = plan_edits(edits, ids, pos)
        if prepared is not None and not prepared.matches(items, ids, pos):
            prepared = None
        n_eval = 0
        shifted = False
        side_ops = []
        with self._all_threads():
            for i, (a, b, new, start, end_pos, grow) in enumerate(items):
                k = len(new)
                cells = prepared.cells[i] if prepared is not None else None
                if cells is None and k:  # evaluate the new cells here, on sequence 1
                    ctx.kv_cache_seq_rm(1, -1, -1)
                    ctx.kv_cache_seq_cp(0, 1, 0, start)
                    self._decode(new, start, seq_id=1)
                put_cells(ctx, start, end_pos, grow, cells, k)
                side_ops.append((start, end_pos, grow, cells, k))
                if grow > 0:
                    pos[b:] = [p + grow for p in pos[b:]]
                    shifted = True
                ids[a:b] = new
                pos[a:b] = range(start, start + k)
                n_eval += k
            last = len(ids) - 1
            p_last = next_pos(pos, last)
            ctx.kv_cache_seq_rm(0, pos[last], -1)
            pos[last] = p_last
            self._decode([ids[last]], p_last)
        self._set_cache(ids, pos)
        n_eval += 1
        self.evaluated_tokens += n_eval
        # what the answer waited, beyond evaluating new lines here, in units of the time one
        # token takes now: that prices the next swap on this machine as it is then
        took = time.perf_counter() - t0
        if prepared is None:
            took -= (n_eval - 1) * self.prefill_s_now()
        self.pause_tokens[shifted] = running_cost(self.pause_tokens[shifted],
                                            max(took, 0.0) / max(self.token_s, 1e-6))
        self.side.follow(ctx, side_ops if prepared is not None else None)
        return n_eval


    @property
    def busy(self) -> bool:
        """Whether other work keeps this machine's cores busy (1-minute load average at
        least the number of cores; checked at most once a second)."""
        now = time.monotonic()
        if now - self._busy_at > 1.0:
            self._busy_at = now
            try:
                self._busy = os.getloadavg()[0] >= (os.cpu_count() or 1)
            except (OSError, AttributeError):  # no load average (Windows)
                self._busy = False
        return self._busy

    _busy = False
    _busy_at = -1e9

    @contextlib.contextmanager
    def _all_threads(self):
        """Run single-token work (the cache shift) on the batch thread count for a moment —
        unless the machine is busy: threads waiting for cores other work holds stall each
        other (a shift took 1 s instead of 0.1 s with two busy processes on two cores)."""
        import llama_cpp

        cp = self._llm.context_params
        if cp.n_threads_batch > cp.n_threads and not self.busy:
            llama_cpp.llama_set_n_threads(self._llm._ctx.ctx, cp.n_threads_batch,
                                          cp.n_threads_batch)
        try:
            yield
        finally:
            llama_cpp.llama_set_n_threads(self._llm._ctx.ctx, cp.n_threads, cp.n_threads_batch)

    def push(self, token: int) -> None:
        """Append one generated token to the context (evaluates it)."""
        n = self._llm.n_tokens
        p = next_pos(self._pos, n)
        t = time.perf_counter()
        self._decode([int(token)], p)
        self.token_s = running_cost(self.token_s, time.perf_counter() - t)
        self._llm.input_ids[n] = token
        self._llm.n_tokens = n + 1
        del self._pos[n:]
        self._pos.append(p)
        self.evaluated_tokens += 1
        self._fresh = True

    @property
    def next_position(self) -> int:
        """The KV position the next token would take (at most n_ctx - 1 is safe)."""
        return next_pos(self._pos, self._llm.n_tokens)


@contextlib.contextmanager
def quiet_stderr():
    """llama.cpp prints load logs on fd 2 even with verbose=False on some builds."""
    if os.environ.get("HELA_DEBUG_LLAMA"):
        yield
        return
    try:
        fd = os.dup(2)
    except OSError:
        yield
        return
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 2)
            try:
                yield
            finally:
                os.dup2(fd, 2)
    finally:
        os.close(fd)
