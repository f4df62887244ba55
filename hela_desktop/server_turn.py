"""One chat turn against a model server, with live re-retrieval (Qt-free).

The prompt, the memory selection and the swap policy are the `Assistant`'s own
(``_segments``, ``_initial_recall``, ``_propose``/``_plan_swap``, ``_persist``): only the
generation differs.  The prompt keeps the local layout — system prompt and history first,
then the memory block, the user message and the answer — so a swap changes only the memory
block and what follows it, and the server's prompt cache (llama-server ``cache_prompt``,
vLLM prefix caching, SGLang RadixAttention, Ollama, llama-cpp-python's prefix match) keeps
the rest.  A swap ends the stream and asks again from the text generated so far: the new
prompt followed by that text on ``/v1/completions``, or the messages with the text as a
final assistant message on ``/v1/chat/completions``.

Events are those of the local backend.  Each streamed chunk is one ``token`` event (a
server sends about one token per chunk).  A ``memory_update`` is announced when the first
text of the continued stream arrives, so its ``swap_ms`` is the real pause and its
``prefill_tokens`` the server's own count where the server reports one (else the estimate
of what follows the first change).  A server failure mid-answer keeps the partial answer,
marked interrupted, yields the ``done`` event and then raises `ServerError`.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np

from .assistant import Assistant, TurnState, _drop
from .events import Event, MemoriesEvent, MemoryUpdateEvent, Recall, TokenEvent
from .llm import common_prefix
from .prompt import AnswerFilter
from .server_llm import ServerError, ServerLLM, StreamReport


@dataclass
class ServerRequest:
    """One streamed request of a turn (the first, then one per swap)."""

    estimate: int  # tokens after the common prefix with the previous request (our count)
    processed: int | None = None  # prompt tokens the server evaluated (its own count)
    prompt_total: int | None = None  # prompt tokens the server counted in the request
    first_chunk_s: float | None = None
    chunks: int = 0
    bound_text: str = ""  # a swap's memory block + user message + generated text


@dataclass
class ServerTurnState(TurnState):
    """TurnState plus what the server reported per request."""

    requests: list[ServerRequest] = field(default_factory=list)
    error: str = ""


def server_chat(a: Assistant, message: str, conversation_id: int | None,
                stop: threading.Event | None = None, *, seed: int | None = None
                ) -> Iterator[Event]:
    """`Assistant.chat` for a model server (``a.llm`` is a connected `ServerLLM`)."""
    s = a.settings
    llm: ServerLLM = a.llm
    a._message = message
    with a._model_lock:
        state = ServerTurnState()
        conversation_id, history = a._open_turn(message, conversation_id, state, a._now)
        t0 = time.perf_counter()
        user_vec, active, retrieve_ms = a._initial_recall(message)
        yield MemoriesEvent(memories=list(active), retrieve_ms=retrieve_ms)
        prompt = a._first_prompt(history, active, message, state)

        def request(active: list[Recall], prompt: list[int], generated: str) -> dict:
            if llm.mode_in_use == "completions":
                return {"prompt": llm.text(prompt) + generated}
            msgs = a._stable_messages() + history + [
                {"role": "user", "content": a._user_content(active, message)}]
            if generated:
                msgs.append({"role": "assistant", "content": generated})
            return {"messages": msgs}

        pieces: list[str] = []  # one per streamed chunk: the answer's "tokens"
        spans: list[list] = [[0, 0, [r.episode_id for r in active]]]
        sets_seen: list[list[int]] = [[r.episode_id for r in active]]
        used: dict[int, tuple[Recall, np.ndarray]] = {r.episode_id: (r, user_vec) for r in active}
        swaps = 0
        interrupted = finished = False
        pending = None
        last_swap_at = 0
        swap_s = 0.0
        error: ServerError | None = None
        update = None  # (swap, time the stream was ended): announced with the next text
        sent: list[int] = []
        t_gen0 = time.perf_counter()
        clean = AnswerFilter()
        try:
            while not (finished or interrupted):
                generated = "".join(pieces)
                now_sent = prompt + llm.tokenize(generated)
                req = ServerRequest(estimate=len(now_sent) - common_prefix(sent, now_sent))
                if update is not None:
                    req.bound_text = llm.text(prompt[state.stable_prefix:]) + generated
                state.requests.append(req)
                sent = now_sent
                rep = StreamReport()
                stream = llm.stream(**request(active, prompt, generated),
                                    max_tokens=s.max_answer_tokens - len(pieces),
                                    temperature=s.temperature, top_p=s.top_p, seed=seed,
                                    report=rep)
                swap = None
                try:
                    for piece in stream:
                        if update is not None:
                            ev, took = _announce(update, rep, req, state, len(pieces))
                            swap_s += took
                            update = None
                            yield ev
                        if stop is not None and stop.is_set():
                            interrupted = True
                            break
                        piece = clean.push(piece)  # leaked transcript markup is cleaned
                        if clean.done:
                            finished = True
                            break
                        pieces.append(piece)
                        spans[-1][1] = len(pieces)
                        yield TokenEvent(index=len(pieces) - 1, text=piece)
                        if (len(pieces) >= s.max_answer_tokens
                                or len(prompt) + len(pieces) >= llm.n_ctx - 1):
                            finished = True
                            break
                        if pending is not None and (pending.done() or not s.async_retrieval):
                            swap, pending = pending.result(), None
                            gen_s = time.perf_counter() - t_gen0 - swap_s
                            if swap is not None and swap_s + swap.seconds > s.swap_time_budget * gen_s:
                                state.deferred_swaps += 1
                                swap = None
                            if swap is not None:
                                break  # end this stream; continue with the new memories
                        if (pending is None and len(pieces) % s.reretrieve_every == 0
                                and len(pieces) - last_swap_at >= s.reretrieve_every):
                            window = "".join(pieces[-s.lookback_tokens:])
                            pending = a._reretrieve(message, user_vec, window, active, prompt,
                                                    len(pieces))
                    else:
                        finished = True  # the server ended the answer
                finally:
                    stream.close()
                    llm.finish(rep)
                    req.processed, req.prompt_total = rep.prompt_processed, rep.prompt_total
                    req.first_chunk_s, req.chunks = rep.first_chunk_s, rep.chunks
                    state.prefill_tokens += req.processed if req.processed is not None else req.estimate
                if update is not None:  # the continued stream ended without any text
                    ev, took = _announce(update, rep, req, state, len(pieces))
                    swap_s += took
                    update = None
                    yield ev
                if swap is not None and not (finished or interrupted):
                    state.swap_bounds.append(len(swap.prompt) - state.stable_prefix + len(pieces))
                    state.swap_full.append(len(swap.prompt) + len(pieces))
                    active, prompt = swap.active, swap.prompt
                    swaps += 1
                    for r in swap.added:
                        used.setdefault(r.episode_id, (r, swap.query_vec))
                    ids = [r.episode_id for r in active]
                    sets_seen.append(ids)
                    spans.append([len(pieces), len(pieces), ids])
                    last_swap_at = len(pieces)
                    update = (swap, time.perf_counter())
        except ServerError as exc:
            interrupted = True
            if stop is None or not stop.is_set():  # else: Stop cut the stream (abort())
                error = exc
                state.error = str(exc)
        except BaseException:
            interrupted = True
            raise
        finally:
            _drop(pending, a._abandon)
            tail = clean.flush()
            if tail:
                pieces.append(tail)
                spans[-1][1] = len(pieces)
            answer = "".join(pieces).strip()
            if not finished:
                interrupted = True
            done = a._persist(conversation_id, message, answer, interrupted, spans, sets_seen,
                              used, state, swaps, len(pieces), time.perf_counter() - t0,
                              now=a._now)
        if tail:
            yield TokenEvent(index=len(pieces) - 1, text=tail)
        yield done
        if error is not None:
            raise error


def _announce(update, rep: StreamReport, req: ServerRequest, state: ServerTurnState,
              token_index: int) -> tuple[MemoryUpdateEvent, float]:
    """The memory_update event of a swap, once the continued stream has answered."""
    swap, t_end = update
    took = time.perf_counter() - t_end
    n = rep.prompt_processed if rep.prompt_processed is not None else req.estimate
    state.swap_prefill.append(n)
    state.swap_seconds.append(took)
    state.swap_shifted.append(False)
    ev = MemoryUpdateEvent(token_index=token_index, added=swap.added, removed=swap.dropped,
                           active=[r.episode_id for r in swap.active],
                           retrieve_ms=swap.retrieve_ms, prefill_tokens=n, swap_ms=took * 1000)
    return ev, took


__all__ = ["server_chat", "ServerTurnState", "ServerRequest"]
