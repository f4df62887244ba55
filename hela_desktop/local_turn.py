"""A turn's answer from the local model (llama.cpp in process), with live swaps (Qt-free).

`LocalAnswer` reads the turn's prompt into the KV cache (reusing this chat's cached cells
in splice mode), then samples token by token; every few tokens the turn re-retrieves
beside generation and a swap the policy allows (`hela_desktop.swap`) edits the cache in
place (`swap.swap_context`) before the next token.  `hela_desktop.assistant.Assistant.chat`
drives it: `begin`, `stream` (the events), `end` (the held-back text), then the answer is
stored and `saved` tags the cache with the chat.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator

from . import facts
from . import prompt as P
from .events import Event, MemoryUpdateEvent, TokenEvent
from .kvcache import PrefillStopped, chat_tag
from .llm import LocalLLM, Utf8Stream
from .swap import (
    MAX_SWAP_PAUSE_S,
    Swap,
    prefetching,
    record_pause,
    record_swap,
    reretrieval_due,
    reretrieve,
    swap_context,
    take_proposal,
)
from .turn import Turn


def prompt_len_ok(n: int, n_ctx: int) -> bool:
    return n < n_ctx - 1


class LocalAnswer:
    """The answer of one turn from a `LocalLLM`."""

    remote = False

    def __init__(self, turn: Turn, llm: LocalLLM, stop: threading.Event | None = None, *,
                 seed: int | None = None,
                 on_status: Callable[[str, int, int], None] | None = None,
                 on_progress: Callable[[int, int], None] | None = None):
        self.turn = turn
        self.llm = llm
        self.stop = stop
        self.seed = seed
        self.on_status = on_status
        self.on_progress = on_progress
        # the tag names the data folder too: chat ids repeat across folders
        self.tag = chat_tag(turn.store.path, turn.conversation_id)
        self.generated: list[int] = []
        self.text_parts: list[str] = []
        self.utf8 = Utf8Stream()
        self.clean = P.AnswerFilter()
        self.guard = P.RepeatGuard([])

    # ---- before the first token ---------------------------------------------------------
    def _reading(self, done: int, total: int) -> bool:
        if self.on_status is not None:
            self.on_status("reading", done, total)
        if self.on_progress is not None and done and total > self.llm._llm.n_batch:
            self.on_progress(done, total)  # (a long prompt: more than one batch)
        return self.stop is not None and self.stop.is_set()

    def begin(self) -> None:
        """Read the first prompt into the cache (Esc while reading ends the answer at once)
        and start sampling."""
        turn, llm, s = self.turn, self.llm, self.turn.settings
        prompt = turn.first_prompt()
        # the previous answer of this chat is still cached behind its memory block: in
        # splice mode the block is dropped and the answer's cells are reused
        reuse = s.swap_mode == "splice" and llm.cache_tag == self.tag
        llm.cache_tag = None
        try:
            turn.state.prefill_tokens += llm.sync(prompt, skip=llm.n_ctx // 2 if reuse else 0,
                                                  progress=self._reading)
            if prefetching(turn):
                llm.mirror()
        except PrefillStopped as exc:  # Esc while reading: the loop below ends at once
            turn.state.prefill_tokens += exc.evaluated
        turn.t_gen0 = time.perf_counter()
        self.guard = P.RepeatGuard(self._earlier_answers())
        for opening in P.banned_openings(turn.asked):  # no apology for a question
            self.guard.ban_opening(llm.tokenize(opening, special=False))
        self.clean.not_speaking_as(turn.authors_shown())
        for r in turn.active:  # saying what the memories say is not copying an answer
            self._allow(turn.line_tokens(r), r.text)
        for k in turn.knowledge:
            self._allow(llm.tokenize(P.knowledge_line(k.text), special=False), k.text)
        llm.start_sampling(s.temperature, s.top_p, seed=self.seed)

    def _allow(self, line: list[int], text: str) -> None:
        """What a memory line lets an answer say again (`RepeatGuard.allow`, `allow_words`)."""
        self.guard.allow(line)
        for word in facts.content_words(text):
            self.guard.allow_words(self.llm.tokenize(" " + word, special=False))

    def _earlier_answers(self, recent: int = 20) -> list[list[int]]:
        """Token ids of earlier answers an answer may not copy runs from: this chat's
        history, its other latest answers (the model is shown only its last exchanges,
        `Settings.history_exchanges`) and the latest answers of other chats."""
        turn = self.turn
        texts = [m["content"] for m in turn.history if m["role"] == "assistant"]
        if turn.conversation_id is not None:
            texts += [t for t in turn.store.recent_answers(recent, conversation=turn.conversation_id)
                      if t not in texts]
        texts += turn.store.recent_answers(recent, exclude_conversation=turn.conversation_id)
        return [self.llm.tokenize(t, special=False) for t in texts if t.strip()]

    # ---- the answer ---------------------------------------------------------------------
    def _next_piece(self) -> tuple[int, str] | None:
        """Sample the next token: (token, its text), or None at the end of the answer."""
        llm, generated = self.llm, self.generated
        tok = llm.sample(self.guard.banned(generated))
        if llm.is_end(tok):
            return None
        generated.append(tok)
        self.guard.push(generated)
        piece = self.clean.push(self.utf8.push(llm.detokenize([tok])))
        if self.clean.done:  # the model began a transcript turn: the answer is over
            return None
        return tok, piece

    def stream(self) -> Iterator[Event]:
        """The answer's token and memory-update events."""
        turn, llm, s = self.turn, self.llm, self.turn.settings
        generated = self.generated
        while len(generated) < s.max_answer_tokens:
            if self.stop is not None and self.stop.is_set():
                turn.interrupted = True
                break
            nxt = self._next_piece()
            if nxt is None:
                break
            tok, piece = nxt
            self.text_parts.append(piece)
            idx = len(generated) - 1
            turn.spans[-1][1] = idx + 1
            yield TokenEvent(index=idx, text=piece)
            if not prompt_len_ok(max(len(turn.prompt) + len(generated), llm.next_position + 1),
                                 llm.n_ctx):
                break
            llm.push(tok)
            # -- live re-retrieval every N tokens, computed beside generation
            swap = take_proposal(turn, len(generated), max_pause=MAX_SWAP_PAUSE_S)
            if swap is not None:
                yield self._swap(swap)
            if reretrieval_due(turn, len(generated)):
                window = llm.detokenize(generated[-s.lookback_tokens:]).decode(
                    "utf-8", "ignore")
                reretrieve(turn, window, len(generated))
        turn.finished = True

    def _swap(self, swap: Swap) -> MemoryUpdateEvent:
        """Make the swap in the cache, record it, and say so."""
        turn, generated = self.turn, self.generated
        ts = time.perf_counter()
        n = len(generated)
        n_eval = swap_context(self.llm, swap, turn.prompt, generated, prefetching(turn))
        took = time.perf_counter() - ts
        turn.state.prefill_tokens += n_eval
        record_pause(turn, n_eval, took, swap.shift)
        ids = record_swap(turn, swap, n)
        for r in swap.added:
            self._allow(turn.line_tokens(r), r.text)
        return MemoryUpdateEvent(token_index=n, added=swap.added, removed=swap.dropped,
                                 active=ids, retrieve_ms=swap.retrieve_ms,
                                 prefill_tokens=n_eval, swap_ms=took * 1000)

    # ---- after the answer ---------------------------------------------------------------
    def end(self) -> str:
        """The answer is over: stop sampling; returns the text held back at the end (also
        added to the answer; streamed after the answer is stored, before `done`)."""
        self.turn.stop_reretrieval()  # not waited for
        self.llm.stop_sampling()
        tail = self.clean.push(self.utf8.flush()) + self.clean.flush()
        if tail:
            self.text_parts.append(tail)
        return tail

    @property
    def answer(self) -> str:
        return "".join(self.text_parts).strip()

    @property
    def n_tokens(self) -> int:
        return len(self.generated)

    @property
    def tail_index(self) -> int:
        return max(len(self.generated) - 1, 0)

    def saved(self) -> None:
        """The answer is stored: the cache now holds this chat's cells."""
        self.llm.cache_tag = self.tag

    def raise_error(self) -> None:
        """(A local answer has no error to raise after `done`.)"""
