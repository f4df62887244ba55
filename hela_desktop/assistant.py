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
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

from . import prompt as P
from .config import Settings
from .embedder import Embedder
from .events import DoneEvent, Event, MemoriesEvent, MemoryUpdateEvent, Recall, TokenEvent
from .gate import RelevanceGate
from .llm import LocalLLM, ModelError, PrefillStopped, Prepared, Utf8Stream, common_prefix
from .memory import PROFILES, MemoryEngine, NewEpisode, fit_budget
from .store import Store, StoreError, db_error_message

MEMORY_HEADER = P.MEMORY_HEADER
_MARK = "\x00hela-memories\x00"  # where the memory lines go in the rendered user turn


class MessageTooLong(ValueError):
    """The message does not fit the model's context; nothing was stored."""


class AnswerNotSaved(StoreError):
    """The answer streamed but could not be stored (disk full, memory file busy or gone);
    it is kept in `Assistant.unsaved` and `Assistant.save_unsaved()` tries again."""

    def __init__(self, reason: str, answer: str):
        super().__init__(f"{reason} — the answer was not saved yet: it is kept, and saved "
                         "with the next message")
        self.reason = reason  # what stopped it, in one line
        self.answer = answer


def format_memory(r: Recall, now: float | None = None) -> str:
    """One line of the memory block: when, and the user's own words."""
    return P.memory_line(r.text, r.extra.get("created_at"), time.time() if now is None else now,
                         older="older_than" in r.extra, replaced="superseded_by" in r.extra)


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
    late_swaps: int = 0  # proposals abandoned because they came too late (a busy machine)


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
        self._now: float | None = None  # the turn's time (None: the clock)
        self._frame: tuple[list[int], list[int]] | None = None
        self._history: list[dict] = []
        # distilled knowledge recalled for this turn (hela_desktop.knowledge); not in events
        self.turn_knowledge: list[Recall] = []
        self.unsaved: tuple | None = None  # an answer whose saving failed (see save_unsaved)
        self._abandon = threading.Event()  # set: the pending proposal is no longer wanted
        # called as a long prompt is read: on_progress(tokens done, tokens to read)
        self.on_progress: Callable[[int, int], None] | None = None

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
        if self.llm is None and self.settings.backend == "server":
            from .server_llm import server_llm  # raises ServerError: one line, nothing written

            self.llm = server_llm(self.settings).connect()
        if self.llm is None:
            s = self.settings
            self.llm = LocalLLM(s.model_path or None, n_ctx=s.n_ctx,
                                n_gpu_layers=s.n_gpu_layers, n_threads=s.n_threads)

    def reload_model(self, settings: Settings) -> None:
        """Switch model or model settings; the old model stays loaded if the new one fails."""
        if settings.backend == "server":
            from .server_llm import server_llm

            new = server_llm(settings).connect()
        else:
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
        if getattr(self.llm, "remote", False):
            return {"path": self.llm.url, "name": self.llm.name, "device": "server",
                    "n_gpu_layers": 0, "n_ctx": self.llm.n_ctx, "server_url": self.llm.url}
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
    def _plain(self, text: str) -> str:
        """Text from the user, memories or imports, with control tokens defused."""
        plain = getattr(self.llm, "plain", None)
        return plain(text) if plain is not None else text

    def _stable_messages(self) -> list[dict]:
        system = self.settings.system_prompt
        model = self.user_model_text()
        if model:
            system = f"{system}\n\nWhat you know about the user (from their own words):\n{model}"
        return [{"role": "system", "content": self._plain(system)}]

    def user_model_text(self) -> str:
        """The user model for the stable part of the prompt: only knowledge items the user's
        own words support (or that the user wrote or edited), strongest first."""
        from .knowledge import trusted_user_model

        return "\n".join(f"- {k.text}" for k in trusted_user_model(self.store)[:8])

    def _user_content(self, memories: list[Recall], message: str) -> str:
        know = self.turn_knowledge  # fixed for the turn, so it sits before the episodes
        if not memories and not know:
            return message
        now = self._now or time.time()
        return P.user_turn([P.knowledge_line(k.text) for k in know]
                           + [format_memory(r, now) for r in memories], message)

    MAX_SWAP_PAUSE_S = 0.5  # no swap that would pause an answer longer (unless budget 100)
    LATE_TOKENS = 32  # a proposal is dropped when it comes more tokens than this (or than
    # the lookback window) after it was asked for
    KNOWLEDGE_K = 3  # knowledge items per turn (their own top-k, beside the episodes)
    KNOWLEDGE_MIN_SCORE = 0.35  # cosine a knowledge item needs for a question about the user

    def _recall_knowledge(self, query_vec: np.ndarray, personal: bool = True) -> list[Recall]:
        """A few knowledge items for the memory block, minus those already in the system
        prompt; a task or general question needs the gate's stronger evidence."""
        from .knowledge import retrieve_knowledge, trusted_ids

        floor = self.KNOWLEDGE_MIN_SCORE if personal else self.settings.gate.general_min
        try:
            found = retrieve_knowledge(self.engine, query_vec, self.KNOWLEDGE_K + 8,
                                       min_score=floor)
        except Exception:  # noqa: BLE001 - knowledge is an extra; never break a turn
            return []
        trusted = trusted_ids(self.store)
        in_system = set(self.user_model_text().splitlines())
        return [k for k in found if k.episode_id in trusted
                and f"- {k.text}" not in in_system][: self.KNOWLEDGE_K]

    def _segments(self, history: list[dict], memories: list[Recall],
                  message: str) -> tuple[list[int], list[list[int]], list[int]]:
        """The prompt as (head, one token list per memory line, tail).

        head = system prompt + history + the start of the user turn (memory header and this
        turn's knowledge lines); tail = the user message and the assistant header.  Each
        memory line is tokenized on its own, so lines can be removed or added as units.
        """
        know = self.turn_knowledge
        stable = self._stable_messages() + [
            {"role": m["role"], "content": self._plain(m["content"])} for m in history]
        message = self._plain(message)
        if not memories and not know:
            text = self.llm.render(stable + [{"role": "user", "content": message}])
            return self.llm.tokenize(text), [], []
        content = P.user_turn([self._plain(P.knowledge_line(k.text)) for k in know] + [_MARK],
                              message).replace(_MARK + "\n", _MARK)
        text = self.llm.render(stable + [{"role": "user", "content": content}])
        head_text, tail_text = text.split(_MARK, 1)
        return (self.llm.tokenize(head_text), [self._line_tokens(r) for r in memories],
                self.llm.tokenize(tail_text))

    def _prompt_tokens(self, history: list[dict], memories: list[Recall], message: str) -> list[int]:
        head, mems, tail = self._segments(history, memories, message)
        return head + [t for m in mems for t in m] + tail

    def _line_tokens(self, r: Recall) -> list[int]:
        line = format_memory(r, self._now) + "\n"
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

    def _select(self, ranked: list[Recall], query_vec: np.ndarray | None = None,
                message: str | None = None) -> list[Recall]:
        """The memories for the prompt: those the relevance gate admits, in rank order,
        within the memory cap and the token budget; superseded ones are left out."""
        s = self.settings
        if query_vec is not None:
            res = RelevanceGate(self.engine, s.gate).admit(
                self._message if message is None else message, ranked, query_vec)
            ranked = res.admitted
            self.last_gate = res
        self._annotate(ranked)
        return fit_budget(ranked, s.max_memories, s.token_budget, self._memory_cost)

    last_gate = None  # the relevance gate's last decision (tests, bench personal)

    def _annotate(self, recalls: list[Recall]) -> None:
        eps = self.store.episodes(r.episode_id for r in recalls if r.kind == "episode")
        for r in recalls:
            e = eps.get(r.episode_id)
            if e is not None:
                r.extra["created_at"] = e.created_at
                with contextlib.suppress(OverflowError, OSError, ValueError):  # a bad date
                    r.extra["date"] = datetime.fromtimestamp(e.created_at).strftime("%Y-%m-%d")

    # ---- one turn -----------------------------------------------------------------------
    def _open_turn(self, message: str, conversation_id: int | None,
                   state: TurnState, now: float | None = None) -> tuple[int, list[dict]]:
        """Start a turn: its conversation (new if needed), the history that fits, and the
        user message stored.  (Shared with the server backend, hela_desktop.server_turn.)"""
        if conversation_id is None or not self.store.conversation_exists(conversation_id):
            conversation_id = self.store.add_conversation(_title(message))
        history = self._fit_history(conversation_id, message)
        self.store.add_message(conversation_id, "user", message, at=now)
        self.last_turn = state
        return conversation_id, history

    def _first_prompt(self, history: list[dict], active: list[Recall], message: str,
                      state: TurnState) -> list[int]:
        """The turn's first prompt, as tokens; records its stable prefix in `state`."""
        llm = self.llm
        stable = llm.tokenize(llm.render(self._stable_messages() + history))
        state.stable_prefix = common_prefix(stable, self._prompt_tokens(history, [], message))
        head, mems, tail = self._segments(history, active, message)
        # head and tail stay fixed for the turn: swaps only re-assemble memory lines
        self._frame = (head, tail) if tail else None
        self._history = history
        prompt = head + [t for m in mems for t in m] + tail
        state.prompt_tokens = len(prompt)
        state.first_prompt = list(prompt)
        return prompt

    def _initial_recall(self, message: str) -> tuple[np.ndarray, list[Recall], float]:
        """The memories a turn starts with: (query vector, active set, retrieval ms), through
        the relevance gate, at the turn's time (`self._now`)."""
        engine = self.engine
        user_vec = engine.embed_query(message)
        tr = time.perf_counter()
        ranked = engine.retrieve(message, query_vec=user_vec, now=self._now)
        active = self._select(ranked, user_vec, message)
        personal = self.last_gate.personal if self.last_gate is not None else True
        self.turn_knowledge = self._recall_knowledge(user_vec, personal)
        return user_vec, active, (time.perf_counter() - tr) * 1000

    def chat(self, message: str, conversation_id: int | None = None,
             stop: threading.Event | None = None, *, seed: int | None = None,
             now: float | None = None,
             on_status: Callable[[str, int, int], None] | None = None) -> Iterator[Event]:
        """Answer `message`, streaming events; persists everything at the end.

        Stopping early (``stop.set()``, closing the generator, Ctrl-C) stores the partial
        answer marked as interrupted; the store stays consistent either way.  A stop before
        the first token (even while the prompt is being read) keeps no empty answer.  `now`
        is the time of the turn (epoch seconds; default: the clock), as `bench personal`
        replays dialogues at their own dates.  `on_status(phase, done, total)` tells what
        happens before the first token: ``"recalling"`` (0, 0), then ``"reading"`` with
        prompt tokens read so far.
        """
        if not message or not message.strip():
            raise ValueError("empty message: type something to send")
        if self.settings.profile not in PROFILES:
            raise ValueError(f"unknown retrieval profile {self.settings.profile!r}")
        self.load()
        self._now = now
        if getattr(self.llm, "remote", False):  # a model server: hela_desktop.server_turn
            from .server_turn import server_chat

            yield from server_chat(self, message.strip(), conversation_id, stop, seed=seed)
            return
        message = message.strip()
        self._check_length(message)
        if self.unsaved is not None:  # the previous answer first, so the chat stays in order
            self.save_unsaved()
        self._message = message
        s = self.settings
        llm = self.llm
        with self._model_lock:
            state = TurnState()
            conversation_id, history = self._open_turn(message, conversation_id, state, now)
            t0 = time.perf_counter()

            # -- initial retrieval
            if on_status is not None:
                on_status("recalling", 0, 0)
            user_vec, active, retrieve_ms = self._initial_recall(message)
            yield MemoriesEvent(memories=list(active), retrieve_ms=retrieve_ms)

            prompt = self._first_prompt(history, active, message, state)
            # the previous answer of this chat is still cached behind its memory block: in
            # splice mode the block is dropped and the answer's cells are reused
            # the tag names the data folder too: chat ids repeat across folders
            tag = ("chat", str(self.store.path), conversation_id)
            reuse = self.settings.swap_mode == "splice" and llm.cache_tag == tag
            llm.cache_tag = None

            def reading(done: int, total: int) -> bool:
                if on_status is not None:
                    on_status("reading", done, total)
                if self.on_progress is not None and done and total > llm._llm.n_batch:
                    self.on_progress(done, total)  # (a long prompt: more than one batch)
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
            pending_at = 0  # the token count when the pending proposal was asked for
            last_swap_at = 0
            guard = P.RepeatGuard(self._earlier_answers(conversation_id, history))
            clean = P.AnswerFilter()
            llm.start_sampling(s.temperature, s.top_p, seed=seed)
            try:
                while len(generated) < s.max_answer_tokens:
                    if stop is not None and stop.is_set():
                        interrupted = True
                        break
                    tok = llm.sample(guard.banned(generated))
                    if llm.is_end(tok):
                        break
                    generated.append(tok)
                    guard.push(generated)
                    piece = clean.push(utf8.push(llm.detokenize([tok])))
                    if clean.done:  # the model began a transcript turn: the answer is over
                        break
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
                        if swap is not None and len(generated) - pending_at > max(
                                s.lookback_tokens, self.LATE_TOKENS):
                            # a busy machine: the proposal (and its prefetch) came so late
                            # that the answer has moved a whole lookback window past the
                            # text it was retrieved for; let it go
                            state.late_swaps += 1
                            swap = None
                        if swap is not None:
                            # the time budget: swaps may pause the answer for at most this
                            # share of the time spent generating it so far
                            gen_s = time.perf_counter() - t_gen0 - swap_s
                            if (swap_s + swap.seconds > s.swap_time_budget * gen_s
                                    or (swap.seconds > self.MAX_SWAP_PAUSE_S
                                        and s.swap_time_budget < 100.0)):
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
                        pending_at = len(generated)
                        pending = self._reretrieve(message, user_vec, window, active, prompt,
                                                   len(generated))
                finished = True
            except BaseException:
                interrupted = True
                raise
            finally:
                _drop(pending, self._abandon)  # the answer is over: not waited for
                llm.stop_sampling()
                tail = clean.push(utf8.flush()) + clean.flush()
                if tail:  # held back at the end: streamed below, before `done`
                    text_parts.append(tail)
                answer = "".join(text_parts).strip()
                if not finished:
                    interrupted = True
                elapsed = time.perf_counter() - t0
                persist = (conversation_id, message, answer, interrupted, spans, sets_seen,
                           used, state, swaps, len(generated), elapsed, now)
                try:
                    done = self._persist(*persist)
                except (sqlite3.Error, OSError) as exc:  # disk full, store busy: keep it
                    self.unsaved = persist
                    raise AnswerNotSaved(db_error_message(self.store.path, exc),
                                         answer) from exc
                llm.cache_tag = tag
            if tail:
                yield TokenEvent(index=max(len(generated) - 1, 0), text=tail)
            yield done

    def save_unsaved(self) -> DoneEvent | None:
        """Store the answer whose saving failed (after space was freed or the other writer
        finished); raises the store's error again if it still cannot."""
        if self.unsaved is None:
            return None
        done = self._persist(*self.unsaved)
        self.unsaved = None
        return done

    def _check_length(self, message: str) -> None:
        """Refuse, before anything is stored, a message that leaves no room in the context
        for the memory block and an answer."""
        s = self.settings
        n = len(self._prompt_tokens([], [], message))
        room = self.llm.n_ctx - s.token_budget - min(s.max_answer_tokens, 64) - 64
        if n > room:
            raise MessageTooLong(
                f"message too long: {n} tokens, and this model's context ({self.llm.n_ctx} "
                f"tokens) holds about {max(room, 0)} for a message; shorten it, or import "
                "long texts as memories (hela-desktop import FILE)")

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
        if self._abandon.is_set():
            return None
        b = s.blend_user_message
        q = (1.0 - b) * gen_vec + b * user_vec
        q = (q / max(np.linalg.norm(q), 1e-9)).astype(np.float32)
        ranked = engine.retrieve(f"{message} {window}", query_vec=q, now=self._now)
        candidate = self._select(ranked, q, message)
        ms = (time.perf_counter() - t) * 1000
        if self._abandon.is_set() or {r.episode_id for r in active} == {
                r.episode_id for r in candidate}:
            return None
        swap = self._plan_swap((ranked, candidate, q, ms), active, n_generated, prompt)
        if swap is not None and swap.edits is not None and self._prefetch():
            try:
                swap.prepared = self.llm.prepare(swap.edits, abort=self._abandon.is_set)
            except Exception:  # noqa: BLE001 - the swap can still be made on the main context
                swap.prepared = None
                self.llm.invalidate_side()
            if swap.prepared is not None:  # only copying cells is left for the main thread
                swap.seconds = self.llm.swap_seconds(0, swap.shift)
        return swap

    def _reretrieve(self, message: str, user_vec: np.ndarray, window: str,
                    active: list[Recall], prompt: list[int], n_generated: int):
        """Start a re-retrieval (`_propose`) on the retrieval thread; a future."""
        self._abandon.clear()
        pending = self._pool.submit(self._propose, message, user_vec, window, list(active),
                                    prompt, n_generated)
        if not self.settings.async_retrieval:
            pending.result()
        return pending

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
            pause = seconds = n_eval * llm.prefill_s_now()
        # cost-aware: a swap's gain, in units of the ranking's score range, must pay for the
        # pause it causes, counted in prefill tokens (a cache shift as the tokens it takes as
        # long as)
        cost = pause / max(llm.prefill_s_now(), 1e-6)
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

    def _earlier_answers(self, conversation_id: int, history: list[dict],
                         recent: int = 20) -> list[list[int]]:
        """Token ids of earlier answers an answer may not copy runs from: this chat's
        history and the latest answers of other chats."""
        texts = [m["content"] for m in history if m["role"] == "assistant"]
        texts += self.store.recent_answers(recent, exclude_conversation=conversation_id)
        return [self.llm.tokenize(t, special=False) for t in texts if t.strip()]

    def _persist(self, conversation_id, message, answer, interrupted, spans, sets_seen, used,
                 state, swaps, n_tokens, elapsed, now: float | None = None) -> DoneEvent:
        engine = self.engine
        timeline = [(a, b, ids) for a, b, ids in spans if b > a]
        stats = {
            "tokens": n_tokens, "swaps": swaps, "prefill_tokens": state.prefill_tokens,
            "prompt_tokens": state.prompt_tokens, "elapsed_s": round(elapsed, 3),
            "deferred_swaps": state.deferred_swaps,
            "profile": self.settings.profile,
            "memories": [r.to_dict() for r, _ in used.values()],
        }
        now = time.time() if now is None else now
        episode_id = None
        with self.store.transaction():
            # a memory that was in the prompt may have been purged meanwhile (by another
            # process): the answer is stored all the same, without rows for the gone ids
            gone = self.store.missing_episodes(
                {i for ids in sets_seen for i in ids}
                | {i for i, (r, _) in used.items() if r.kind == "episode"})
            if gone:
                for i in gone:
                    engine.index.remove(i)
                sets_seen = [[i for i in ids if i not in gone] for ids in sets_seen]
                used = {i: v for i, v in used.items() if i not in gone}
            message_id = None  # stopped before the first token: no empty answer is kept
            if answer or not interrupted:
                message_id = self.store.add_message(
                    conversation_id, "assistant", answer, interrupted=interrupted, stats=stats,
                    at=now)
                self.store.save_timeline(message_id, timeline)
            # the user's words are the memory; the answer stays beside them as context
            if not interrupted:
                episode_id = engine.add_episode(NewEpisode(
                    user_text=message, assistant_text=answer, conversation_id=conversation_id,
                    created_at=now))
                self.store.link_message_episode(message_id, episode_id)
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


def _drop(pending, abandon: threading.Event | None = None) -> None:
    """Cancel a re-retrieval that is no longer wanted (`abandon` tells a running one to stop
    early) and wait for it to stop."""
    if pending is not None:
        if abandon is not None:
            abandon.set()
        pending.cancel()
        with contextlib.suppress(BaseException):
            pending.result()


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
