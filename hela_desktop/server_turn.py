"""One chat turn against a model server, with live re-retrieval (Qt-free).

The prompt, the memory selection, the swap policy and its bookkeeping are those of the
local backend (`hela_desktop.turn.Turn`, `hela_desktop.swap`), and the answer is stored
the same way (`Assistant._persist`): only the generation differs.  The prompt keeps the local layout — system prompt and history first,
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
from collections.abc import Generator, Iterator
from dataclasses import dataclass, field

from .answer_loop import SentenceLoop
from .events import Event, MemoryUpdateEvent, TokenEvent
from .kvcache import common_prefix
from .prompt import AnswerFilter
from .server_llm import ServerError, ServerLLM, StreamReport
from .swap import Swap, record_pause, record_swap, reretrieval_due, reretrieve, take_proposal
from .turn import Turn, TurnState


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


class ServerAnswer:
    """The answer of one turn from a `ServerLLM` (the turn's state is a `ServerTurnState`).

    `hela_desktop.assistant.Assistant.chat` drives it as it drives `LocalAnswer`: `begin`,
    `stream`, `end`, then the answer is stored, and `raise_error` raises a server failure
    after the ``done`` event."""

    remote = True

    def __init__(self, turn: Turn, llm: ServerLLM, stop: threading.Event | None = None, *,
                 seed: int | None = None):
        if not isinstance(turn.state, ServerTurnState):
            raise TypeError("a server turn records a ServerTurnState")
        self.turn = turn
        self.state: ServerTurnState = turn.state
        self.llm = llm
        self.stop = stop
        self.seed = seed
        self.pieces: list[str] = []  # one per streamed chunk: the answer's "tokens"
        self.clean = AnswerFilter()
        self.loop = SentenceLoop()  # no no-repeat rule over HTTP: a sentence said twice ends it
        self.sent: list[int] = []  # the previous request's prompt, as tokens
        self.update: tuple[Swap, float] | None = None  # (swap, time the stream was ended):
        # announced with the next text
        self.error: ServerError | None = None

    def begin(self) -> None:
        self.turn.first_prompt()
        self.clean.not_speaking_as(self.turn.authors_shown())
        self.turn.t_gen0 = time.perf_counter()

    def _body(self, generated: str) -> dict:
        """The request for the turn's current memory set and the text generated so far."""
        turn, llm = self.turn, self.llm
        if llm.mode_in_use == "completions":
            return {"prompt": llm.text(turn.prompt) + generated}
        msgs = turn.stable_messages() + turn.history + [
            {"role": "user", "content": turn.user_content(turn.active, turn.asked)}]
        if generated:
            msgs.append({"role": "assistant", "content": generated})
        return {"messages": msgs}

    def stream(self) -> Iterator[Event]:
        """The answer's token and memory-update events: one request, then one per swap."""
        turn = self.turn
        try:
            while not (turn.finished or turn.interrupted):
                if self.stop is not None and self.stop.is_set():  # Stop before a request
                    turn.interrupted = True
                    break
                swap = yield from self._request()
                if self.update is not None:  # the continued stream ended without any text
                    yield self._announce(self.state.requests[-1])
                if swap is not None and not (turn.finished or turn.interrupted):
                    record_swap(turn, swap, len(self.pieces))
                    self.update = (swap, time.perf_counter())
        except ServerError as exc:
            turn.interrupted = True
            if self.stop is None or not self.stop.is_set():  # else: Stop cut the stream
                self.error = exc
                self.state.error = str(exc)

    def _new_request(self) -> tuple[ServerRequest, str]:
        turn, llm = self.turn, self.llm
        generated = "".join(self.pieces)
        if self.update is not None:
            self.loop.rewind()  # asked again from `generated`: what it held comes anew
        now_sent = turn.prompt + llm.tokenize(generated)
        req = ServerRequest(estimate=len(now_sent) - common_prefix(self.sent, now_sent))
        if self.update is not None:
            req.bound_text = llm.text(turn.prompt[self.state.stable_prefix:]) + generated
        self.state.requests.append(req)
        self.sent = now_sent
        return req, generated

    def _request(self) -> Generator[Event, None, Swap | None]:
        """One streamed request; returns the swap that ended it early, if any."""
        turn, llm, s = self.turn, self.llm, self.turn.settings
        req, generated = self._new_request()
        rep = StreamReport()
        stream = llm.stream(**self._body(generated),
                            max_tokens=s.max_answer_tokens - len(self.pieces),
                            temperature=s.temperature, top_p=s.top_p, seed=self.seed,
                            report=rep, stop=self.stop)
        swap = None
        try:
            for piece in stream:
                if self.update is not None:
                    yield self._announce(req, rep)
                if self.stop is not None and self.stop.is_set():
                    turn.interrupted = True
                    break
                event = self._piece(piece)
                if event is None:
                    break
                yield event
                if turn.finished:  # (it began a sentence it had said: `SentenceLoop`)
                    break
                if self._full():
                    turn.finished = True
                    break
                swap = take_proposal(turn, len(self.pieces), late=False)
                if swap is not None:
                    break  # end this stream; continue with the new memories
                if reretrieval_due(turn, len(self.pieces)):
                    window = "".join(self.pieces[-s.lookback_tokens:])
                    reretrieve(turn, window, len(self.pieces))
            else:
                turn.finished = True  # the server ended the answer
        finally:
            stream.close()
            llm.finish(rep)
            req.processed, req.prompt_total = rep.prompt_processed, rep.prompt_total
            req.first_chunk_s, req.chunks = rep.first_chunk_s, rep.chunks
            self.state.prefill_tokens += (req.processed if req.processed is not None
                                          else req.estimate)
        return swap

    def _piece(self, piece: str) -> TokenEvent | None:
        """A streamed chunk, cleaned of leaked transcript markup; None: the answer is over."""
        piece = self.loop.push(self.clean.push(piece))
        if self.clean.done or (self.loop.done and not piece):
            self.turn.finished = True
            return None
        if self.loop.done:  # the text before the repeated sentence is the answer's last
            self.turn.finished = True
        if not self.pieces:  # generation counts from the first text on, as for a local model
            self.turn.t_gen0 = time.perf_counter()  # (not from the request: prompt reading)
        self.pieces.append(piece)
        self.turn.spans[-1][1] = len(self.pieces)
        return TokenEvent(index=len(self.pieces) - 1, text=piece)

    def _full(self) -> bool:
        n = len(self.pieces)
        return (n >= self.turn.settings.max_answer_tokens
                or len(self.turn.prompt) + n >= self.llm.n_ctx - 1)

    def _announce(self, req: ServerRequest, rep: StreamReport | None = None
                  ) -> MemoryUpdateEvent:
        """The memory_update event of a swap, once the continued stream has answered."""
        assert self.update is not None
        swap, t_end = self.update
        self.update = None
        took = time.perf_counter() - t_end
        processed = rep.prompt_processed if rep is not None else req.processed
        n = processed if processed is not None else req.estimate
        record_pause(self.turn, n, took, False)
        return MemoryUpdateEvent(token_index=len(self.pieces), added=swap.added,
                                 removed=swap.dropped,
                                 active=[r.episode_id for r in swap.active],
                                 retrieve_ms=swap.retrieve_ms, prefill_tokens=n,
                                 swap_ms=took * 1000)

    def end(self) -> str:
        """The answer is over; returns the text held back at the end (a last piece)."""
        self.turn.stop_reretrieval()
        tail = self.loop.push(self.clean.flush())
        tail += self.loop.flush()
        if tail:
            self.pieces.append(tail)
            self.turn.spans[-1][1] = len(self.pieces)
        return tail

    @property
    def answer(self) -> str:
        return "".join(self.pieces).strip()

    @property
    def n_tokens(self) -> int:
        return len(self.pieces)

    @property
    def tail_index(self) -> int:
        return len(self.pieces) - 1

    def saved(self) -> None:
        """(A server's cache is the server's own.)"""

    def raise_error(self) -> None:
        """A server failure mid-answer, raised after the ``done`` event."""
        if self.error is not None:
            raise self.error


__all__ = ["ServerAnswer", "ServerTurnState", "ServerRequest"]
