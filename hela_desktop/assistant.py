"""One chat turn: retrieve, stream with live re-retrieval, persist (Qt-free).

Prompt layout (stable first, so llama.cpp's KV prefix is reused)::

    [system prompt + distilled user model]   stable across turns and swaps
    [history, oldest trimmed first]          stable within a turn
    [memory block]  [user message]           re-evaluated from the first changed memory
    [assistant tokens generated so far]      re-evaluated after a swap

The memory block lives at the start of the final user turn.  Surviving memories keep their
place and new ones are appended, so a swap re-evaluates only from the first removed memory.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

from .config import Settings
from .embedder import Embedder
from .events import DoneEvent, Event, MemoriesEvent, MemoryUpdateEvent, Recall, TokenEvent
from .llm import LocalLLM, ModelError, PrefillStopped, Prepared, Utf8Stream, common_prefix
from .memory import PROFILES, MemoryEngine, NewEpisode, fit_budget
from .store import Store

MEMORY_HEADER = "Things you remember from earlier conversations with the user:"
_MARK = "\x00hela-memories\x00"  # where the memory lines go in the rendered user turn


MAX_MEMORY_CHARS = 200  # a memory line is cut here (about 45-75 tokens)


def format_memory(r: Recall) -> str:
    """One line of the memory block (long memories are shortened)."""
    text = " ".join(r.text.split())
    if len(text) > MAX_MEMORY_CHARS:
        text = text[: MAX_MEMORY_CHARS - 1].rsplit(" ", 1)[0] + "…"
    when = r.extra.get("date")
    return f"- ({when}) {text}" if when else f"- {text}"


@dataclass
class TurnState:
    """What happened during one answer (kept for tests and the benchmark)."""

    prompt_tokens: int = 0
    prefill_tokens: int = 0
    swap_prefill: list[int] = field(default_factory=list)
    swap_bounds: list[int] = field(default_factory=list)  # max tokens a swap may re-evaluate
    stable_prefix: int = 0  # tokens of system prompt + history
    first_prompt: list[int] = field(default_factory=list)
    swap_full: list[int] = field(default_factory=list)  # whole prompt + generated, per swap
    swap_seconds: list[float] = field(default_factory=list)  # measured time of each swap
    swap_shifted: list[bool] = field(default_factory=list)  # whether a swap moved the cache
    deferred_swaps: int = 0  # swaps the time budget did not allow (yet)


@dataclass
class _Swap:
    """A swap the policy wants: the new active set, its prompt and how to get there."""

    active: list[Recall]
    added: list[Recall]
    dropped: list[int]
    query_vec: np.ndarray
    retrieve_ms: float
    prompt: list[int]
    edits: list[tuple[int, int, list[int]]] | None  # in-place KV edits (splice mode)
    shift: bool  # the edits do not fit in place: the cache's tail moves
    seconds: float  # expected time, from the model's measured prefill and shift costs
    prepared: Prepared | None = None  # the new lines, already evaluated beside generation


class Assistant:
    """The whole memory-and-generation loop behind the app and the terminal chat.

    Example::

        a = Assistant(Path("~/hela").expanduser()); a.load()
        for ev in a.chat("My sister Ana lives in Lisbon."):
            ...
    """

    def __init__(self, data_dir: Path, settings: Settings | None = None, *,
                 model_path: str | None = None, llm: LocalLLM | None = None,
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
        self.llm: LocalLLM | None = llm
        self.last_turn: TurnState | None = None
        self._model_lock = threading.Lock()
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hela-retrieval")
        self._costs: dict[tuple[int, str], list[int]] = {}
        self._message = ""
        self._frame: tuple[list[int], list[int]] | None = None
        self._history: list[dict] = []

    # ---- loading ------------------------------------------------------------------------
    def load_embedder(self) -> None:
        if self.embedder is None:
            # half the cores: live re-retrieval embeds beside llama.cpp's generation thread
            self.embedder = Embedder(threads=max(1, (os.cpu_count() or 2) // 2))
        if self.engine is None:
            self.engine = MemoryEngine(self.store, self.embedder, self.settings)

    def load(self) -> None:
        """Load the embedder and the chat model (raises ModelError / EmbedderError)."""
        self.load_embedder()
        if self.llm is None:
            s = self.settings
            self.llm = LocalLLM(s.model_path or None, n_ctx=s.n_ctx,
                                n_gpu_layers=s.n_gpu_layers, n_threads=s.n_threads)

    def reload_model(self, settings: Settings) -> None:
        """Switch model or model settings; the old model stays loaded if the new one fails."""
        new = LocalLLM(settings.model_path or None, n_ctx=settings.n_ctx,
                       n_gpu_layers=settings.n_gpu_layers, n_threads=settings.n_threads)
        with self._model_lock:
            old, self.llm = self.llm, new
        if old is not None:
            old.close()
        self.apply_settings(settings)

    def apply_settings(self, settings: Settings) -> None:
        self.settings = settings
        if self.engine is not None:
            self.engine.settings = settings

    def model_info(self) -> dict:
        if self.llm is None:
            return {"path": self.settings.model_path or "(bundled default)", "name": None,
                    "device": "—", "n_gpu_layers": self.settings.n_gpu_layers,
                    "n_ctx": self.settings.n_ctx}
        return {"path": str(self.llm.path), "name": self.llm.path.stem, "device": self.llm.device,
                "n_gpu_layers": self.llm.n_gpu_layers, "n_ctx": self.llm.n_ctx}

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)
        if self.llm is not None:
            self.llm.close()
        self.store.close()

    def new_conversation(self, title: str = "New chat") -> int:
        return self.store.add_conversation(title)

    # ---- prompt -------------------------------------------------------------------------
    def _stable_messages(self) -> list[dict]:
        system = self.settings.system_prompt
        model = self.user_model_text()
        if model:
            system = f"{system}\n\nWhat you know about the user:\n{model}"
        return [{"role": "system", "content": system}]

    def user_model_text(self) -> str:
        """Distilled user-model knowledge for the stable part of the prompt (if any)."""
        rows = self.store.conn.execute(
            "SELECT text FROM knowledge WHERE kind = 'user_model' AND superseded_by IS NULL "
            "AND archived_at IS NULL ORDER BY strength DESC, id LIMIT 8").fetchall()
        return "\n".join(f"- {r[0]}" for r in rows)

    def _user_content(self, memories: list[Recall], message: str) -> str:
        know = self.turn_knowledge  # fixed for the turn, so it sits before the episodes
        if not memories and not know:
            return message
        lines = "\n".join([f"- {k.text}" for k in know] + [format_memory(r) for r in memories])
        return f"{MEMORY_HEADER}\n{lines}\n\n{message}"

    # distilled knowledge recalled for this turn (hela_desktop.knowledge); not in events
    turn_knowledge: list[Recall] = []
    KNOWLEDGE_K = 3  # knowledge items per turn (their own top-k, beside the episodes)
    KNOWLEDGE_MIN_SCORE = 0.35  # cosine a knowledge item needs to be recalled

    def _recall_knowledge(self, query_vec: np.ndarray) -> list[Recall]:
        """A few knowledge items for the memory block, minus those already in the system prompt."""
        try:
            from .knowledge import retrieve_knowledge

            found = retrieve_knowledge(self.engine, query_vec, self.KNOWLEDGE_K + 8,
                                       min_score=self.KNOWLEDGE_MIN_SCORE)
        except Exception:  # noqa: BLE001 - knowledge is an extra; never break a turn
            return []
        in_system = set(self.user_model_text().splitlines())
        return [k for k in found if f"- {k.text}" not in in_system][: self.KNOWLEDGE_K]

    def _segments(self, history: list[dict], memories: list[Recall],
                  message: str) -> tuple[list[int], list[list[int]], list[int]]:
        """The prompt as (head, one token list per memory line, tail).

        head = system prompt + history + the start of the user turn (memory header and this
        turn's knowledge lines); tail = the user message and the assistant header.  Each
        memory line is tokenized on its own, so lines can be removed or added as units.
        """
        know = self.turn_knowledge
        stable = self._stable_messages() + history
        if not memories and not know:
            text = self.llm.render(stable + [{"role": "user", "content": message}])
            return self.llm.tokenize(text), [], []
        lines = "".join(f"- {k.text}\n" for k in know)
        content = f"{MEMORY_HEADER}\n{lines}{_MARK}\n{message}"
        text = self.llm.render(stable + [{"role": "user", "content": content}])
        head_text, tail_text = text.split(_MARK, 1)
        return (self.llm.tokenize(head_text), [self._line_tokens(r) for r in memories],
                self.llm.tokenize(tail_text))

    def _prompt_tokens(self, history: list[dict], memories: list[Recall], message: str) -> list[int]:
        head, mems, tail = self._segments(history, memories, message)
        return head + [t for m in mems for t in m] + tail

    def _line_tokens(self, r: Recall) -> list[int]:
        line = format_memory(r) + "\n"
        key = (r.episode_id, line)
        toks = self._costs.get(key)
        if toks is None:
            if len(self._costs) > 20000:
                self._costs.clear()
            toks = self._costs[key] = self.llm.tokenize(line, special=False)
        return toks

    def _fit_history(self, conversation_id: int, message: str) -> list[dict]:
        """Past messages of this chat, oldest dropped first until the prompt fits."""
        s = self.settings
        msgs = [m for m in self.store.messages(conversation_id) if m["content"].strip()]
        history = [{"role": m["role"], "content": m["content"]} for m in msgs]
        # pair-wise consistency: drop a trailing user message that has no answer
        while history and history[-1]["role"] == "user":
            history.pop()
        reserve = s.max_answer_tokens + s.token_budget + 64
        while history:
            n = len(self._prompt_tokens(history, [], message))
            if n + reserve <= self.llm.n_ctx:
                break
            history = history[2:] if len(history) > 1 else []
            while history and history[0]["role"] != "user":
                history.pop(0)
        return history

    def _memory_cost(self, r: Recall) -> int:
        return len(self._line_tokens(r))

    def _select(self, ranked: list[Recall]) -> list[Recall]:
        s = self.settings
        return fit_budget(ranked, s.max_memories, s.token_budget, self._memory_cost)

    def _annotate(self, recalls: list[Recall]) -> None:
        eps = self.store.episodes(r.episode_id for r in recalls if r.kind == "episode")
        for r in recalls:
            e = eps.get(r.episode_id)
            if e is not None:
                r.extra["date"] = datetime.fromtimestamp(e.created_at).strftime("%Y-%m-%d")

    # ---- one turn -----------------------------------------------------------------------
    def chat(self, message: str, conversation_id: int | None = None,
             stop: threading.Event | None = None, *, seed: int | None = None,
             on_status: Callable[[str, int, int], None] | None = None) -> Iterator[Event]:
        """Answer `message`, streaming events; persists everything at the end.

        Stopping early (``stop.set()``, closing the generator, Ctrl-C) stores the partial
        answer marked as interrupted; the store stays consistent either way.  A stop before
        the first token (even while the prompt is being read) keeps no empty answer.
        `on_status(phase, done, total)` tells what happens before the first token:
        ``"recalling"`` (0, 0), then ``"reading"`` with prompt tokens read so far.
        """
        if not message or not message.strip():
            raise ValueError("empty message: type something to send")
        if self.settings.profile not in PROFILES:
            raise ValueError(f"unknown retrieval profile {self.settings.profile!r}")
        self.load()
        message = message.strip()
        self._message = message
        s = self.settings
        llm = self.llm
        engine = self.engine
        with self._model_lock:
            if conversation_id is None or not self.store.conversation_exists(conversation_id):
                conversation_id = self.store.add_conversation(_title(message))
            history = self._fit_history(conversation_id, message)
            self.store.add_message(conversation_id, "user", message)
            state = TurnState()
            self.last_turn = state
            t0 = time.perf_counter()

            # -- initial retrieval
            if on_status is not None:
                on_status("recalling", 0, 0)
            user_vec = engine.embed_query(message)
            tr = time.perf_counter()
            ranked = engine.retrieve(message, query_vec=user_vec)
            self._annotate(ranked)
            active = self._select(ranked)
            self.turn_knowledge = self._recall_knowledge(user_vec)
            retrieve_ms = (time.perf_counter() - tr) * 1000
            yield MemoriesEvent(memories=list(active), retrieve_ms=retrieve_ms)

            stable = llm.tokenize(llm.render(self._stable_messages() + history))
            state.stable_prefix = common_prefix(stable, self._prompt_tokens(history, [], message))
            head, mems, tail = self._segments(history, active, message)
            # head and tail stay fixed for the turn: swaps only re-assemble memory lines
            self._frame = (head, tail) if tail else None
            self._history = history
            prompt = head + [t for m in mems for t in m] + tail
            state.prompt_tokens = len(prompt)
            state.first_prompt = list(prompt)
            # the previous answer of this chat is still cached behind its memory block: in
            # splice mode the block is dropped and the answer's cells are reused
            reuse = self.settings.swap_mode == "splice" and llm.cache_tag == ("chat", conversation_id)
            llm.cache_tag = None

            def reading(done: int, total: int) -> bool:
                if on_status is not None:
                    on_status("reading", done, total)
                return stop is not None and stop.is_set()

            try:
                state.prefill_tokens += llm.sync(prompt, skip=llm.n_ctx // 2 if reuse else 0,
                                                 progress=reading)
                if self._prefetch():
                    llm.mirror()
            except PrefillStopped as exc:  # Esc while reading: the loop below ends at once
                state.prefill_tokens += exc.evaluated

            generated: list[int] = []
            swap_s = 0.0  # time spent in swaps this answer
            t_gen0 = time.perf_counter()
            text_parts: list[str] = []
            utf8 = Utf8Stream()
            spans: list[list] = [[0, 0, [r.episode_id for r in active]]]
            sets_seen: list[list[int]] = [[r.episode_id for r in active]]
            used: dict[int, tuple[Recall, np.ndarray]] = {r.episode_id: (r, user_vec) for r in active}
            swaps = 0
            interrupted = False
            finished = False
            pending = None
            last_swap_at = 0
            llm.start_sampling(s.temperature, s.top_p, seed=seed)
            try:
                while len(generated) < s.max_answer_tokens:
                    if stop is not None and stop.is_set():
                        interrupted = True
                        break
                    tok = llm.sample()
                    if llm.is_end(tok):
                        break
                    generated.append(tok)
                    piece = utf8.push(llm.detokenize([tok]))
                    text_parts.append(piece)
                    idx = len(generated) - 1
                    spans[-1][1] = idx + 1
                    yield TokenEvent(index=idx, text=piece)
                    if prompt_len_ok(max(len(prompt) + len(generated), llm.next_position + 1),
                                     llm.n_ctx):
                        llm.push(tok)
                    else:
                        break
                    # -- live re-retrieval every N tokens, computed beside generation
                    if pending is not None and (pending.done() or not s.async_retrieval):
                        swap = pending.result()
                        pending = None
                        if swap is not None:
                            # the time budget: swaps may pause the answer for at most this
                            # share of the time spent generating it so far
                            gen_s = time.perf_counter() - t_gen0 - swap_s
                            if swap_s + swap.seconds > s.swap_time_budget * gen_s:
                                state.deferred_swaps += 1
                                swap = None
                        if swap is not None:
                            ts = time.perf_counter()
                            # what the layout promises: at most memory block + user message +
                            # generated tokens
                            state.swap_bounds.append(
                                len(swap.prompt) - state.stable_prefix + len(generated))
                            state.swap_full.append(len(swap.prompt) + len(generated))
                            n_eval = self._swap_context(swap, prompt, generated)
                            took = time.perf_counter() - ts
                            swap_s += took
                            state.prefill_tokens += n_eval
                            state.swap_prefill.append(n_eval)
                            state.swap_seconds.append(took)
                            state.swap_shifted.append(swap.shift)
                            active = swap.active
                            prompt = swap.prompt
                            swaps += 1
                            for r in swap.added:
                                used.setdefault(r.episode_id, (r, swap.query_vec))
                            ids = [r.episode_id for r in active]
                            sets_seen.append(ids)
                            spans.append([len(generated), len(generated), ids])
                            last_swap_at = len(generated)
                            yield MemoryUpdateEvent(
                                token_index=len(generated), added=swap.added,
                                removed=swap.dropped, active=ids, retrieve_ms=swap.retrieve_ms,
                                prefill_tokens=n_eval, swap_ms=took * 1000)
                    if (pending is None and len(generated) % s.reretrieve_every == 0
                            and len(generated) - last_swap_at >= s.reretrieve_every):
                        window = llm.detokenize(generated[-s.lookback_tokens:]).decode(
                            "utf-8", "ignore")
                        pending = self._pool.submit(
                            self._propose, message, user_vec, window, list(active), prompt,
                            len(generated))
                        if not s.async_retrieval:
                            pending.result()
                finished = True
            except BaseException:
                interrupted = True
                raise
            finally:
                if pending is not None:
                    pending.cancel()
                    with contextlib.suppress(BaseException):
                        pending.result()
                llm.stop_sampling()
                tail = utf8.flush()
                if tail:
                    text_parts.append(tail)
                answer = "".join(text_parts).strip()
                if not finished:
                    interrupted = True
                elapsed = time.perf_counter() - t0
                done = self._persist(conversation_id, message, answer, interrupted, spans,
                                     sets_seen, used, state, swaps, len(generated), elapsed)
                llm.cache_tag = ("chat", conversation_id)
            yield done

    def _propose(self, message: str, user_vec: np.ndarray, window: str,
                 active: list[Recall], prompt: list[int], n_generated: int) -> _Swap | None:
        """Re-retrieve from the recent output and plan a swap (runs on the retrieval thread).

        With prefetch on, the swap's new memory lines are evaluated here too, on the model's
        side context, while the main thread keeps generating.  Returns None when the active
        set should stay.
        """
        s = self.settings
        engine = self.engine
        t = time.perf_counter()
        gen_vec = engine.embed_query(window)
        b = s.blend_user_message
        q = (1.0 - b) * gen_vec + b * user_vec
        q = (q / max(np.linalg.norm(q), 1e-9)).astype(np.float32)
        ranked = engine.retrieve(f"{message} {window}", query_vec=q)
        self._annotate(ranked)
        candidate = self._select(ranked)
        ms = (time.perf_counter() - t) * 1000
        if {r.episode_id for r in active} == {r.episode_id for r in candidate}:
            return None
        swap = self._plan_swap((ranked, candidate, q, ms), active, n_generated, prompt)
        if swap is not None and swap.edits is not None and self._prefetch():
            try:
                swap.prepared = self.llm.prepare(swap.edits)
            except Exception:  # noqa: BLE001 - the swap can still be made on the main context
                swap.prepared = None
                self.llm.invalidate_side()
            if swap.prepared is not None:  # only copying cells is left for the main thread
                swap.seconds = self.llm.swap_seconds(0, swap.shift)
        return swap

    def _prefetch(self) -> bool:
        return (self.settings.swap_prefetch and self.settings.swap_mode == "splice"
                and self._frame is not None)

    def _plan_swap(self, proposal, active, n_generated: int,
                   current_prompt: list[int]) -> _Swap | None:
        """Turn a proposal into a swap, or None to keep the current set.

        Hysteresis: a newcomer must beat the memory it displaces by the swap margin, plus
        more the more the swap costs.  A newcomer takes the place of the memory it displaces
        (the others keep theirs), so in splice mode its line is written into the old line's
        KV positions and the rest of the cache stays where it is.
        """
        s = self.settings
        llm = self.llm
        ranked, candidate, q, ms = proposal
        old_ids = [r.episode_id for r in active]
        new_ids = {r.episode_id for r in candidate}
        score = {r.episode_id: r.score for r in ranked}
        outgoing = [i for i in old_ids if i not in new_ids]
        weakest_out = max((score.get(i, -np.inf) for i in outgoing), default=-np.inf)
        spread = _score_range(ranked)
        incoming = [r for r in candidate if r.episode_id not in set(old_ids)
                    and (r.score - weakest_out) / spread > s.swap_margin]
        if not incoming:
            return None
        keep = [r for r in active if r.episode_id in new_ids]
        budget_left = s.token_budget - sum(self._memory_cost(r) for r in keep)
        room = s.max_memories - len(keep)
        added = []
        for r in incoming:
            c = self._memory_cost(r)
            if room <= 0 or c > budget_left:
                continue
            r.tokens = c
            added.append(r)
            budget_left -= c
            room -= 1
        if not added:
            return None
        # a memory is only dropped when a newcomer takes its place
        dropped = sorted(outgoing, key=lambda i: score.get(i, 0.0))[: len(added)]
        gone = set(dropped)
        survivors = [r for r in active if r.episode_id not in gone]
        fitted = fit_budget(survivors + added, s.max_memories, s.token_budget,
                            self._memory_cost)
        added = [r for r in added if r in fitted]
        if not added:
            return None
        spans = self._line_spans(active)
        splice = spans is not None and self._can_splice(active)
        place = self._place(added, dropped, spans if splice else None)
        new_active: list[Recall] = []
        for r in active:
            if r.episode_id not in gone:
                new_active.append(r)
            elif r.episode_id in place:
                new_active.append(place[r.episode_id])
        new_active += [r for r in added if r not in place.values()]
        prompt = self._assemble(new_active)
        edits, shift = None, False
        if splice:
            edits = [(*spans[i], self._line_tokens(place[i]) if i in place else [])
                     for i in dropped]
            rest = [t for r in added if r not in place.values() for t in self._line_tokens(r)]
            if rest:
                end = spans[old_ids[-1]][1]
                edits.append((end, end, rest))
            shift = any(len(new) > llm.room(a, b) for a, b, new in edits)
            n_eval = sum(len(new) for _, _, new in edits)
            seconds = llm.swap_seconds(n_eval, shift)
            # prefetched, the answer only pauses to copy the cells in and re-run a token
            pause = llm.swap_seconds(0, shift) if self._prefetch() else seconds
        else:
            n_eval = len(prompt) - common_prefix(current_prompt, prompt) + n_generated
            pause = seconds = n_eval * llm.prefill_s_per_token
        # cost-aware: a swap's gain, in units of the ranking's score range, must pay for the
        # pause it causes, counted in prefill tokens (a cache shift as the tokens it takes as
        # long as)
        cost = pause / max(llm.prefill_s_per_token, 1e-6)
        if dropped:
            gain = (min(r.score for r in added)
                    - max(score.get(i, -np.inf) for i in dropped)) / spread
            if gain <= s.swap_margin + s.swap_cost_weight * cost / 100.0:
                return None
        return _Swap(new_active, added, dropped, q, ms, prompt, edits, shift, seconds)

    def _line_spans(self, active: list[Recall]) -> dict[int, tuple[int, int]] | None:
        """Where each memory line sits in the current context, as [start, end) indices."""
        if self._frame is None or not active:
            return None
        spans, pos = {}, len(self._frame[0])
        for r in active:
            n = len(self._line_tokens(r))
            spans[r.episode_id] = (pos, pos + n)
            pos += n
        return spans

    def _place(self, added: list[Recall], dropped: list[int],
               spans: dict[int, tuple[int, int]] | None) -> dict[int, Recall]:
        """Which newcomer takes which dropped memory's place: in splice mode the longest
        newcomers first, each into the tightest place it fits without moving the cache."""
        free = list(dropped)
        if spans is None:
            return dict(zip(free, added, strict=False))
        place = {}
        for r in sorted(added, key=lambda r: -len(self._line_tokens(r))):
            if not free:
                break
            need = len(self._line_tokens(r))
            rooms = {i: self.llm.room(*spans[i]) for i in free}
            fits = [i for i in free if rooms[i] >= need]
            best = (min(fits, key=rooms.get) if fits else max(free, key=rooms.get))
            place[best] = r
            free.remove(best)
        return place

    def _can_splice(self, active: list[Recall]) -> bool:
        return (self.settings.swap_mode == "splice" and bool(active)
                and self.llm is not None and self.llm.can_shift)

    def _assemble(self, memories: list[Recall]) -> list[int]:
        """The prompt for another memory set, from the turn's fixed head and tail."""
        if self._frame is None:  # the turn started without a memory block
            return self._prompt_tokens(self._history, memories, self._message)
        head, tail = self._frame
        return head + [t for r in memories for t in self._line_tokens(r)] + tail

    def _swap_context(self, swap: _Swap, prompt: list[int], generated: list[int]) -> int:
        """Bring the model's context to the swap's memory set; returns tokens evaluated.

        ``exact``: re-evaluate from the first changed token (longest cached prefix kept):
        at most the memory block, the user message and the generated tokens.
        ``splice``: edit the KV cache in place — each new line is evaluated in the place
        of the line it replaces; tokens after it keep the context they were written in.
        """
        llm = self.llm
        target = swap.prompt + generated
        if swap.edits is not None and llm.cached_tokens == prompt + generated:
            n = llm.replace(swap.edits, swap.prepared)
            if llm.cached_tokens == target:
                return n
        n = llm.sync(target)
        if self._prefetch():
            llm.mirror()
        return n

    def _persist(self, conversation_id, message, answer, interrupted, spans, sets_seen, used,
                 state, swaps, n_tokens, elapsed) -> DoneEvent:
        engine = self.engine
        timeline = [(a, b, ids) for a, b, ids in spans if b > a]
        stats = {
            "tokens": n_tokens, "swaps": swaps, "prefill_tokens": state.prefill_tokens,
            "prompt_tokens": state.prompt_tokens, "elapsed_s": round(elapsed, 3),
            "deferred_swaps": state.deferred_swaps,
            "profile": self.settings.profile,
            "memories": [r.to_dict() for r, _ in used.values()],
        }
        now = time.time()
        episode_id = None
        with self.store.transaction():
            message_id = None  # stopped before the first token: no empty answer is kept
            if answer or not interrupted:
                message_id = self.store.add_message(
                    conversation_id, "assistant", answer, interrupted=interrupted, stats=stats)
                self.store.save_timeline(message_id, timeline)
            if not interrupted and answer:
                episode_id = engine.add_episode(NewEpisode(
                    user_text=message, assistant_text=answer, conversation_id=conversation_id,
                    created_at=now))
                self.store.conn.execute("UPDATE messages SET episode_id = ? WHERE id = ?",
                                        (episode_id, message_id))
            # Hebbian learning: one step per distinct co-active set of this answer
            seen: set[tuple[int, ...]] = set()
            for ids in sets_seen if message_id is not None else ():
                key = tuple(sorted(ids))
                if len(key) >= 2 and key not in seen:
                    seen.add(key)
                    engine.hebbian_update(key, now=now)
            for r, qv in used.values() if message_id is not None else ():
                engine.record_access([r], qv, now=now)
        tps = n_tokens / elapsed if elapsed > 0 else 0.0
        return DoneEvent(
            conversation_id=conversation_id, message_id=message_id, episode_id=episode_id,
            tokens=n_tokens, swaps=swaps, prefill_tokens=state.prefill_tokens,
            tokens_per_s=tps, elapsed_s=elapsed, interrupted=interrupted,
            deferred_swaps=state.deferred_swaps, text=answer,
            timeline=timeline)


def _score_range(ranked: list[Recall]) -> float:
    """Best minus median score of a ranking: the scale swap gains are measured in, so the
    same margin works for every profile (z-scores, cos², similarities)."""
    scores = sorted((r.score for r in ranked if np.isfinite(r.score)), reverse=True)
    if len(scores) < 2:
        return 1.0
    return max(scores[0] - scores[len(scores) // 2], 1e-9)


def prompt_len_ok(n: int, n_ctx: int) -> bool:
    return n < n_ctx - 1


def _title(message: str) -> str:
    t = " ".join(message.split())
    return t[:48] + ("…" if len(t) > 48 else "")


def utc_iso(ts: float) -> str:
    return datetime.fromtimestamp(ts, tz=timezone.utc).isoformat()


__all__ = ["Assistant", "ModelError", "TurnState", "format_memory", "MEMORY_HEADER"]
