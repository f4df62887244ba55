"""The assistant: the memory-and-generation loop behind the app and the terminal chat
(Qt-free).

`Assistant` owns what lives across turns — the memory engine (with the data folder's
store, the embedder and the settings), the chat model (a local GGUF model or a model
server), the model lock and the retrieval thread — all loaded when it is built
(`hela_desktop.loader` loads them, in steps for the app).  Each message is one
`hela_desktop.turn.Turn` (prompt, recall, swap bookkeeping; layout in
`hela_desktop.prompt`, swap policy in `hela_desktop.swap`) answered by `hela_desktop.local_turn.LocalAnswer` or
`hela_desktop.server_turn.ServerAnswer`; `chat` streams the events of
`hela_desktop.events` in order: memories, tokens and memory updates, done.
"""

from __future__ import annotations

import re
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from . import edges as G
from . import facts, superseded, whom
from . import formulas as F
from . import prompt as P
from .about_me import asks_only_about_whole_user
from .cautions import CUES, caution_of_others, for_household, of_others_only
from .config import Settings
from .doubt import answer_doubt
from .embedder import Embedder
from .events import DoneEvent, Event, MemoriesEvent, Recall, TokenEvent
from .follow_up import pronoun_gender
from .forget_request import forget_target
from .gate import CAUTIONS_LOOK, GateResult, of_family
from .knowledge import corrected_by, standing_cautions
from .language import asks_language, language_shares
from .llm import LocalLLM, ModelError
from .medicines import ILLNESSES, as_of, ills_said
from .memory import PROFILES, MemoryEngine, NewEpisode
from .minors import CHILDREN, CHILDREN_WORDS, asked_of, children_named, under_age
from .prompt import format_memory
from .store import AUTHORS, Store, StoreError, db_error_message
from .taken_back import TAKEN_BACK, taken_names
from .turn import (
    MessageTooLong,
    Turn,
    TurnParts,
    TurnState,
    kept_unanswered,
    recall_knowledge,
    user_model_text,
)
from .words import printable

if TYPE_CHECKING:
    from .local_turn import LocalAnswer
    from .server_llm import ServerLLM
    from .server_turn import ServerAnswer

MEMORY_HEADER = P.MEMORY_HEADER


class AnswerNotSaved(StoreError):
    """The answer streamed but could not be stored (disk full, memory file busy or gone);
    it is kept in `Assistant.unsaved` and `Assistant.save_unsaved()` tries again."""

    def __init__(self, reason: str, answer: str):
        super().__init__(f"{reason} — the answer was not saved yet: it is kept, and saved "
                         "with the next message")
        self.reason = reason  # what stopped it, in one line
        self.answer = answer


def describe_model(llm: LocalLLM | ServerLLM) -> dict:
    """What the window's status bar shows of a loaded chat model."""
    if not isinstance(llm, LocalLLM):
        return {"path": llm.url, "name": llm.name, "device": "server",
                "n_gpu_layers": 0, "n_ctx": llm.n_ctx, "server_url": llm.url}
    from .model_catalog import display_name  # (Jan's <id>/model.gguf, Ollama's blobs)
    from .paths import is_bundled_model

    info = {"path": str(llm.path), "name": display_name(llm.path), "device": llm.device,
            "n_gpu_layers": llm.n_gpu_layers, "n_ctx": llm.n_ctx,
            "bundled": is_bundled_model(llm.path)}
    if llm.run_path != llm.path:  # the bundled model answers from its 16-bit copy
        info["run_path"] = str(llm.run_path)
    elif llm.f16_problem:  # it would have, and could not: say why
        info["f16_problem"] = llm.f16_problem
    return info


def model_label(info: dict) -> str:
    """A model's name as the status bar and an answer's footer give it (`info`: from
    `describe_model`): the bundled model as Settings names it, and at which precision it
    answers ("SmolLM2-135M-Instruct (bundled, 16-bit)"), not as its 4-bit file is called
    ("….Q4_1 · 16-bit" read as 4-bit and 16-bit at once)."""
    if not info.get("bundled"):
        return str(info["name"])
    from .paths import BUNDLED_NAME

    return f"{BUNDLED_NAME} (bundled, {'16-bit' if info.get('run_path') else '4-bit'})"


SAID_IN_CHAT = 200  # the user's last messages of a chat an answer is checked against


class Assistant:
    """The whole memory-and-generation loop behind the app and the terminal chat, built
    from loaded parts: the memory engine (its store, embedder and settings) and the chat
    model.  Nothing on it is optional; `hela_desktop.loader` loads the parts (in steps for
    the app, all at once with `open_assistant`).

    Example::

        a = open_assistant(Path("~/hela").expanduser())  # hela_desktop.loader
        for ev in a.chat("My sister Ana lives in Lisbon."):
            ...
    """

    def __init__(self, engine: MemoryEngine, llm: LocalLLM | ServerLLM, *,
                 model_lock: threading.Lock | None = None):
        self.engine = engine
        self.store: Store = engine.store
        self.embedder: Embedder = engine.embedder
        # each memory line's tokens, kept across turns, in the tokens of `llm` (`Turn.line_tokens`)
        self._costs: dict[tuple[int, str], list[int]] = {}
        self._llm: LocalLLM | ServerLLM = llm
        # the lock a chat turn holds while it uses the model (idle work takes it too)
        self.model_lock = model_lock if model_lock is not None else threading.Lock()
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hela-retrieval")
        self._abandon = threading.Event()  # set: the pending proposal is no longer wanted
        # reports of the latest turn (tests, benchmarks): its state, the turn itself, and
        # the distilled knowledge it recalled (hela_desktop.knowledge; not in events)
        self.last_turn: TurnState | None = None
        self.turn: Turn | None = None
        self.turn_knowledge: list[Recall] = []
        self.unsaved: tuple | None = None  # an answer whose saving failed (see save_unsaved)
        # called as a long prompt is read: on_progress(tokens done, tokens to read)
        self.on_progress: Callable[[int, int], None] | None = None

    @property
    def llm(self) -> LocalLLM | ServerLLM:
        """The chat model (replaced under `model_lock` by a model switch)."""
        return self._llm

    @llm.setter
    def llm(self, llm: LocalLLM | ServerLLM) -> None:
        # another model, other tokens: the memory lines' tokens are made again (QA pass 33:
        # after a switch to a server, every answer failed with "IndexError: list index out
        # of range", the server's pieces read from llama.cpp's token ids)
        if llm is not self._llm:
            self._costs.clear()
        self._llm = llm

    @property
    def settings(self) -> Settings:
        """The settings in force (the engine's: one object for both)."""
        return self.engine.settings

    @property
    def data_dir(self) -> Path:
        """The data folder (the folder of the store's file)."""
        return self.store.path.parent

    @property
    def last_gate(self) -> GateResult | None:
        """The relevance gate's last decision (tests, bench personal)."""
        return self.turn.gate if self.turn is not None else None

    def parts(self) -> TurnParts:
        """What a turn runs on: this assistant's loaded parts."""
        return TurnParts(self.settings, self.store, self.engine, self.llm, self._pool,
                         self._abandon, self._costs)

    def apply_settings(self, settings: Settings) -> None:
        self.engine.settings = settings

    def model_info(self) -> dict:
        return describe_model(self.llm)

    def close(self, *, close_model: bool = True) -> None:
        """Stop the retrieval thread, close the model (unless `close_model` is False: a
        host that lent it keeps it) and the store."""
        self._pool.shutdown(wait=True, cancel_futures=True)
        if close_model:
            self.llm.close()
        self.store.close()

    def new_conversation(self, title: str = "New chat") -> int:
        return self.store.add_conversation(title)

    # ---- the prompt outside a turn (benchmarks, tests) ----------------------------------
    def user_model_text(self) -> str:
        """The user model for the stable part of the prompt (`turn.user_model_text`)."""
        return user_model_text(self.store)

    def _stable_messages(self) -> list[dict]:
        return Turn(self.parts(), "").stable_messages()

    def _user_content(self, memories: list[Recall], message: str) -> str:
        """The final user turn with the latest turn's knowledge and these memories."""
        return P.user_content(self.turn_knowledge, memories, message)

    def _fit_history(self, conversation_id: int, message: str) -> list[dict]:
        return Turn(self.parts(), message).fit_history(conversation_id, message)

    def _memory_cost(self, r: Recall) -> int:
        return Turn(self.parts(), "").memory_cost(r)

    def _recall_knowledge(self, query_vec: np.ndarray, personal: bool = True) -> list[Recall]:
        return recall_knowledge(self.engine, self.store, self.settings, query_vec, personal)[0]

    # ---- one turn -----------------------------------------------------------------------
    def check_message(self, message: str, parts: TurnParts | None = None,
                      now: float | None = None) -> str:
        """The message as it would be sent (`printable`, stripped), or the error `chat`
        would refuse it with before storing anything: ValueError for an empty message,
        `MessageTooLong` for one the local model's context cannot hold with memories and
        an answer.  Regenerate and Edit and resend ask first, before they take anything
        back (QA pass 25: a message too long to send was taken back, then refused, and
        the chat was left empty)."""
        message = printable(message or "").strip()  # (a paste's terminal colours, a BEL)
        if not message:
            raise ValueError("empty message: type something to send")
        parts = parts or self.parts()
        if isinstance(parts.llm, LocalLLM):
            Turn(parts, message, now).check_length()
        return message

    def chat(self, message: str, conversation_id: int | None = None,
             stop: threading.Event | None = None, *, seed: int | None = None,
             now: float | None = None, said_at: float | None = None,
             on_status: Callable[[str, int, int], None] | None = None) -> Iterator[Event]:
        """Answer `message`, streaming events; persists everything at the end.

        Stopping early (``stop.set()``, closing the generator, Ctrl-C) stores the partial
        answer marked as interrupted; the store stays consistent either way.  A stop before
        the first token (even while the prompt is being read) keeps no empty answer.  `now`
        is the time of the turn (epoch seconds; default: the clock), as `bench personal`
        replays dialogues at their own dates.  `said_at`: when the user said it, when that
        was before the turn (Regenerate answers a message again: it keeps its time, and the
        memory it forms is dated by it, so it does not pass for news over what was said
        since).  `on_status(phase, done, total)` tells what happens before the first token
        (local model): ``"recalling"`` (0, 0), then ``"reading"`` with prompt tokens read
        so far.
        """
        if said_at is not None:  # never after the turn itself
            said_at = min(float(said_at), time.time() if now is None else now)
        if self.settings.profile not in PROFILES:
            raise ValueError(f"unknown retrieval profile {self.settings.profile!r}")
        parts = self.parts()
        message = self.check_message(message, parts, now)
        local = isinstance(parts.llm, LocalLLM)
        if local:
            if self.unsaved is not None:  # the previous answer first: the chat stays in order
                self.save_unsaved()
        target = forget_target(message)
        with self.model_lock:
            self._remember_unanswered(conversation_id)
            turn = self._begin_turn(parts, message, conversation_id, now, said_at)
            if target is not None:  # "Forget that …": the app does it, not the model
                yield from self._forget(turn, target)
                return
            if self.settings.list_about_you and asks_only_about_whole_user(message):
                yield from self._list_about_you(turn)  # the user's own words, listed
                return
            if local and on_status is not None:
                on_status("recalling", 0, 0)
            yield turn.recall()
            self.turn_knowledge = turn.knowledge
            yield from self._answer(turn, self._answerer(turn, stop, seed, on_status))

    def _remember_unanswered(self, conversation_id: int | None) -> int | None:
        """Remember the chat's last message if the app was killed or crashed while it was
        answered (`Store.unanswered_tail`), before a new one is sent: what the user told is
        not lost for going on without Ctrl+R (QA pass 34: after a kill, "Rasmus builds all
        our furniture himself…" never became a memory once the next message was sent).  A
        request the app answers itself (to forget, "What do you know about me?") forms
        none.  Returns the memory's id (None: nothing was left unanswered)."""
        if conversation_id is None:
            return None
        tail = self.store.unanswered_tail(conversation_id)
        if tail is None:
            return None
        message_id, text, at = tail
        if not kept_unanswered(text):
            return None
        with self.store.transaction():
            episode_id = self.engine.add_episode(NewEpisode(
                user_text=text, conversation_id=conversation_id, created_at=at))
            self.store.link_message_episode(message_id, episode_id)
        return episode_id

    def _forget(self, turn: Turn, target: str) -> Iterator[Event]:
        """A request to forget, answered by the app (`hela_desktop.forget_request`): the
        matching memories deleted, the answer stored in the chat, no memory of the request
        and no link learned."""
        from .forget_request import answer, forget

        now = time.time() if turn.now is None else turn.now
        try:  # the deletions and the answer together, or neither
            with self.store.transaction():
                done = forget(self.engine, target, turn.conversation_id)
                text = answer(done)
                stats = {"tokens": 0, "forget": done.stats(), "elapsed_s": 0.0}
                message_id = self.store.add_message(turn.conversation_id, "assistant", text,
                                                    stats=stats, at=now)
        except (sqlite3.Error, OSError):
            self.engine.reload_index()  # what left recall comes back with the rollback
            raise
        yield MemoriesEvent(memories=[], retrieve_ms=0.0)
        yield TokenEvent(index=0, text=text)
        yield DoneEvent(conversation_id=turn.conversation_id, message_id=message_id,
                        episode_id=None, tokens=0, swaps=0, prefill_tokens=0,
                        tokens_per_s=0.0, elapsed_s=time.perf_counter() - turn.t0, text=text,
                        forget=done.stats(), answered_at=now)

    def _list_about_you(self, turn: Turn) -> Iterator[Event]:
        """"What do you know about me?", answered by the app (`hela_desktop.about_you`):
        the memories the gate recalls for it, listed in the user's words; the answer stored
        in the chat, no memory of the question, no link learned, no recall counted (what
        is listed first would be listed first for ever)."""
        from .about_you import answer
        from .gate import ABOUT_YOU

        now = time.time() if turn.now is None else turn.now
        recalled = turn.recall()
        yield recalled
        # no model reads the list: the memory cap is for prompts, and five lines left the
        # dog out (QA pass 27); the gate's other statements about the user follow
        shown = {r.episode_id for r in recalled.memories}
        more = [r for r in (turn.gate.admitted if turn.gate is not None else [])
                if r.episode_id not in shown and r.extra.get("gate") == "about you"]
        gated = sum(1 for r in (turn.gate.admitted if turn.gate is not None else [])
                    if r.extra.get("gate") == "about you")  # (up to 10 when that is all)
        listed = (list(recalled.memories) + more)[:max(ABOUT_YOU, gated, len(recalled.memories))]
        total = turn.gate.about_you_total if turn.gate is not None else 0
        about = sum(1 for r in listed if r.extra.get("gate") == "about you")
        ids = [r.episode_id for r in listed if r.kind == "episode"]
        # in the order the list says: pinned, then of yourself, then of others (QA pass 33:
        # what the question recalled came first, "My name is Halvard…" ninth)
        pinned = self.store.pinned_among(ids)
        # (a correction as what it corrects, when nearer: "Actually the trip is in June.")
        listed.sort(key=lambda r: (r.episode_id not in pinned, min(
            facts.self_rank(r.text), facts.self_rank(str(r.extra.get("corrects_said") or "")
                                                    or r.text))))
        # another assistant's chats are not listed: said so, with how many (QA pass 33)
        sources = self.store.sources(ids)
        left = {AUTHORS[s]: n - sum(1 for i in ids if sources.get(i) == s)
                for s, n in self.store.live_source_counts(AUTHORS).items()}
        text = answer(listed, now, None if total is None else max(0, total - about),
                      {k: n for k, n in left.items() if n > 0})
        ids = [r.episode_id for r in listed if r.kind == "episode"]
        stats = {"tokens": 0, "listed": ids, "elapsed_s": 0.0}
        message_id = self.store.add_message(turn.conversation_id, "assistant", text,
                                            stats=stats, at=now)
        yield TokenEvent(index=0, text=text)
        yield DoneEvent(conversation_id=turn.conversation_id, message_id=message_id,
                        episode_id=None, tokens=0, swaps=0, prefill_tokens=0,
                        tokens_per_s=0.0, elapsed_s=time.perf_counter() - turn.t0, text=text,
                        listed=ids, answered_at=now)

    def _begin_turn(self, parts: TurnParts, message: str, conversation_id: int | None,
                    now: float | None, said_at: float | None = None) -> Turn:
        """A new turn, its conversation opened and the user message stored."""
        from .server_turn import ServerTurnState

        local = isinstance(parts.llm, LocalLLM)
        turn = Turn(parts, message, now, TurnState() if local else ServerTurnState(), said_at)
        turn.open(conversation_id)
        self.turn, self.last_turn = turn, turn.state
        return turn

    def _answerer(self, turn: Turn, stop: threading.Event | None, seed: int | None,
                  on_status: Callable[[str, int, int], None] | None
                  ) -> LocalAnswer | ServerAnswer:
        llm = turn.llm
        if isinstance(llm, LocalLLM):
            from .local_turn import LocalAnswer

            return LocalAnswer(turn, llm, stop, seed=seed, on_status=on_status,
                               on_progress=self.on_progress)
        from .server_turn import ServerAnswer

        return ServerAnswer(turn, llm, stop, seed=seed)

    def _answer(self, turn: Turn, answer: LocalAnswer | ServerAnswer) -> Iterator[Event]:
        """Generate, store the answer however the generation ended, then stream the text
        held back at the end and the ``done`` event."""
        failure: Exception | None = None
        try:
            answer.begin()
            for ev in answer.stream():
                if isinstance(ev, TokenEvent):
                    turn.t_last_token = time.perf_counter()
                yield ev
        except Exception as exc:  # noqa: BLE001 - raised again after the answer is stored
            # an error of the model's or of the app's own ends the answer as a server's
            # failure does: what was said is kept, the message remembered, the chat drawn
            # with it (QA pass 33: after an IndexError the chat was not listed, Ctrl+R did
            # nothing, and the message formed no memory)
            turn.interrupted = True
            if not turn.state.error:
                turn.state.error, turn.state.failed_by = f"{type(exc).__name__}: {exc}", "error"
            failure = exc
        except BaseException:
            turn.interrupted = True
            raise
        finally:
            tail = answer.end()
            persist = turn.persist_args(answer.answer, answer.n_tokens)
            done = self._save(persist, answer.remote)
            answer.saved()
        if tail:
            yield TokenEvent(index=answer.tail_index, text=tail)
        yield done
        answer.raise_error()
        if failure is not None:
            raise failure

    def _said_in_chat(self, conversation_id: int, message: str) -> str:
        """What the user told last in the chat (the model may have it from its history;
        no history that fits a model's context holds more than `SAID_IN_CHAT` messages):
        not `message` itself, nor questions ("Is my mum 75?" asked is not her age told; it
        made a yes to it, and the same question asked again, pass for what the user said)."""
        return "\n".join(t for t in self.store.recent_user_texts(conversation_id, SAID_IN_CHAT)
                         if t != message and not facts.only_asks(t))

    def _save(self, persist: tuple, remote: bool) -> DoneEvent:
        """Store the answer; a local answer that cannot be stored is kept (`unsaved`)."""
        if remote:
            return self._persist(*persist)
        try:
            return self._persist(*persist)
        except (sqlite3.Error, OSError) as exc:  # disk full, store busy: keep it
            self.unsaved = persist
            raise AnswerNotSaved(db_error_message(self.store.path, exc), persist[2]) from exc

    def save_unsaved(self) -> DoneEvent | None:
        """Store the answer whose saving failed (after space was freed or the other writer
        finished); raises the store's error again if it still cannot."""
        if self.unsaved is None:
            return None
        done = self._persist(*self.unsaved)
        self.unsaved = None
        return done

    def _persist(self, conversation_id, message, answer, interrupted, spans, sets_seen, used,
                 state, swaps, n_tokens, elapsed, now: float | None = None,
                 user_vec: np.ndarray | None = None, said_at: float | None = None,
                 user_message_id: int | None = None) -> DoneEvent:
        engine = self.engine
        timeline = [(a, b, ids) for a, b, ids in spans if b > a]
        limit = self.settings.max_answer_tokens
        limit = limit if n_tokens >= limit and not interrupted else 0  # cut at "Longest answer"
        stats = {
            # (the swaps the timeline shows: the footer under a stored answer says the same)
            "tokens": n_tokens, "swaps": max(0, len(timeline) - 1),
            "prefill_tokens": state.prefill_tokens,
            "prompt_tokens": state.prompt_tokens, "elapsed_s": round(elapsed, 3),
            "generation_s": round(state.generation_s, 3), "limit": limit,
            "deferred_swaps": state.deferred_swaps,
            "profile": self.settings.profile,
            "memories": [r.to_dict() for r, _ in used.values()],
            "model": self._model_name(),  # which model wrote it: the footer says so
        }
        # a question, request or small talk asked again word for word is the memory it
        # repeats (no copy, no new links; it keeps its first answer)
        failed = bool(getattr(state, "error", ""))  # a server failure cut it (ServerTurnState)
        # the message as the turn read it, names of the user's life it misspelt written right:
        # what the memory keeps (the chat keeps the message as written), or a misspelling
        # asked once became a name of the user's, and was never read as theirs again
        asked = getattr(state, "asked", "") or message
        # (not one whose "he" or "she" the chat tells: "How old is he?" of another chat's
        # "he" read "asked before: memory #26", QA pass 52a)
        repeat = None if interrupted and not failed or pronoun_gender(asked) \
            else engine.repeat_of(asked, user_vec)
        if repeat is not None:
            stats["repeat_of"] = repeat
        if getattr(state, "respelled", None):
            stats["respelled"] = [list(p) for p in state.respelled]
        if state.unrecalled:  # a question about the user's life that nothing recalled spoke to
            stats["unrecalled"] = True
        if failed:
            stats["failed"] = True
            if state.failed_by:
                stats["failed_by"] = state.failed_by
        drifted = self._drifted(conversation_id, message, answer)
        if drifted:  # not in the user's language: the model is not shown it again
            stats["drifted"] = True
        now = time.time() if now is None else now
        # it corrects what the user said before: the line under the answer says so
        stats.update(self._corrects(message, user_vec, now, formed=repeat is None and (
            not interrupted or failed), conversation_id=conversation_id))
        superseded.mark_restored(message, stats.get("corrects", []), stats.get("memories", []))
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
                used = {i: v for i, v in used.items() if i not in gone}
            # what the answer drew on: memories it says a content word of (Hebbian co-use)
            drew_on = G.used_by_answer(
                ((i, r.text) for i, (r, _) in used.items() if r.kind == "episode"),
                asked, answer)
            stats["drew_on"] = sorted(drew_on)
            # a sign the answer is wrong: it gives the older news, or a question about the
            # user's life used none of what was recalled (the window says to check it)
            doubt = answer_doubt(
                asked, answer, [r for r, _ in used.values()], drew_on, engine.people_in,
                known=f"{state.system}\n{self._said_in_chat(conversation_id, message)}", now=now,
                stopped=interrupted, cut=bool(limit), user_names=engine.user_names(),
                untold=self._untold(asked), unrecalled=state.unrecalled,
                own_names=self._own_names(),
                corrected=[(c["episode_id"], c["text"]) for c in stats.get("corrects", [])],
                cautions=self._cautions(asked, answer, stats.get("corrects", [])),
                ills=self._ills_untold(asked, answer), taken=self._taken_back(),
                replaced=self._replaced(r for r, _ in used.values()))
            if doubt is not None:
                stats["doubt"] = doubt
                if doubt.get("older") in used:  # it gave the old value: used, whatever
                    # its words (QA pass 27: "Ines is indeed in Lyon." was marked as older
                    # news and listed Lyon as "not used")
                    drew_on = drew_on | {int(doubt["older"])}
                    stats["drew_on"] = sorted(drew_on)
            message_id = self._answer_row(conversation_id, answer, interrupted and not failed,
                                          interrupted, stats, now, timeline, user_message_id)
            # the user's words are the memory; the answer stays beside them as context.  A
            # model server's failure is not the user's choice: what they said is remembered
            # all the same (a Stop is: nothing is kept; Regenerate forms it again)
            if not interrupted or failed:
                if repeat is not None:
                    engine.touch(repeat, now)  # needed again: not stale for forgetting
                    episode_id = repeat
                else:
                    episode_id = engine.add_episode(NewEpisode(
                        user_text=asked, assistant_text=answer,
                        conversation_id=conversation_id,
                        created_at=now if said_at is None else said_at))
                # (no answer row when the server failed before the answer began: the
                # user's message holds the memory, and a Regenerate removes it with it)
                self.store.link_message_episode(
                    message_id if message_id is not None else user_message_id, episode_id)
            # Hebbian learning from co-use: one step per answer, linking the new memory
            # and the memories the answer drew on; memories recalled together by chance
            # (nothing of them in the answer) are not linked, nor what an answer marked
            # "Check this answer" drew on: a wrong answer teaches no association (QA pass
            # 36: made-up answers wove a chat's memories into one mesh, 45 learned links
            # among 14 memories, the sister linked to the teacher she was mistaken for)
            if message_id is not None:
                linked = drew_on if doubt is None else set()
                engine.hebbian_update(linked | {episode_id} if episode_id else linked, now=now)
            for r, qv in used.values() if message_id is not None else ():
                engine.record_access([r], qv, now=now)
        tps = n_tokens / elapsed if elapsed > 0 else 0.0
        return DoneEvent(
            conversation_id=conversation_id, message_id=message_id, episode_id=episode_id,
            tokens=n_tokens, swaps=swaps, prefill_tokens=state.prefill_tokens,
            tokens_per_s=tps, elapsed_s=elapsed, interrupted=interrupted,
            deferred_swaps=state.deferred_swaps, text=answer,
            timeline=timeline, generation_s=state.generation_s, limit=limit,
            repeated=repeat is not None, unrecalled=state.unrecalled, failed=failed,
            failed_by=state.failed_by,
            drifted=drifted, drew_on=sorted(drew_on), doubt=doubt,
            corrects=stats.get("corrects", []), respelled=stats.get("respelled", []),
            answered_at=now if message_id is not None else 0.0, model=stats["model"])

    def _answer_row(self, conversation_id: int, answer: str, stopped: bool, interrupted: bool,
                    stats: dict, now: float, timeline: list,
                    user_message_id: int | None) -> int | None:
        """Store the answer's message and timeline; None for an answer the user `stopped`
        before its first token (no empty answer is kept), whose message is marked so: it
        forms no memory by their choice (`Store.mark_stopped`)."""
        if answer or not interrupted:
            message_id = self.store.add_message(conversation_id, "assistant", answer,
                                                interrupted=interrupted, stats=stats, at=now)
            self.store.save_timeline(message_id, timeline)
            return message_id
        if stopped and user_message_id is not None:
            self.store.mark_stopped(user_message_id)
        return None

    def _corrects(self, message: str, user_vec: np.ndarray | None, now: float, *,
                  formed: bool, conversation_id: int = 0) -> dict:
        """``{"corrects": [{"episode_id", "text"}]}``: the user's earlier statements
        `message` corrects (`knowledge.corrected_by`, among the 20 memories nearest it in
        meaning), when its memory is `formed` (not a repeat, not stopped); {} for none.
        One that gives a new time of "it" only (`superseded.of_it_only`) corrects the
        statement the user made just before in the chat (``"of_it"``: the store keeps it
        as a correction, `Store.recorded_corrections`)."""
        if not formed or user_vec is None or not facts.corrects(message):
            return {}
        fixed = corrected_by(self.store, message, self.engine.most_similar(user_vec, 20), now)
        before = self.store.previous_message_episode(conversation_id) \
            if not fixed and superseded.of_it_only(message) else None
        said = self.store.kept_key_texts([before]).get(before) if before is not None else None
        if said and facts.is_statement(said) and not facts.already_says(said, message) and any(
                w[:1].isdigit() or w in facts.TIME_STEMS for w in facts.terms(said)):
            return {"corrects": [{"episode_id": before, "text": said, "of_it": True}]}
        # of a memory that said several things, the sentence it replaces (QA pass 32b: two
        # corrections of one paragraph both read "Noted as a correction of “A bit about
        # us: We live on…”")
        return {"corrects": [{"episode_id": i, "text": superseded.on_subject(t, message, shown=True)}
                             for i, t in fixed.items()]} if fixed else {}

    def _model_name(self) -> str:
        """The chat model's name as the status bar gives it (`model_label`: the bundled
        model and the precision it answers at, another file's or a catalogue's name, a
        server's model id)."""
        info = describe_model(self.llm)
        return model_label(info) if info.get("name") else ""

    def _asked_about(self, message: str) -> frozenset[str]:
        """Whom of the user's life `message` names, lower case: their names, relation words
        ("sister", "mum" and "mother"), and the names memories give those relations ("My
        sister Aoife…"): whose diet an answer must keep to too (`cautions.cautions`)."""
        people = self.engine.people_in(message)
        if for_household(message):  # ("Suggest a dinner for the family": each of theirs
            # whom a caution names, QA pass 39)
            people |= {p for _, t, _ in self.store.said_after(
                0.0, skip_sources=AUTHORS, containing=CUES)[-CAUTIONS_LOOK:]
                if of_family(t, self.engine) for p in self.engine.people_in(t)}
        names = {p for p in people if not p.startswith("my ")} | self._cautioned(message, people)
        relations = {w for p in people if p.startswith("my ") for w in facts.kin_words(p[3:])}
        if relations:
            texts = self.store.key_texts(self.engine.memories_naming(
                next(p for p in people if p.startswith("my ")), 20))
            names |= whom.names_of(relations, texts.values())
        return frozenset(names | relations)

    def _cautioned(self, message: str, people: set[str]) -> set[str]:
        """The names `message` says, not yet known as the user's people, whom a memory tells
        something they must not eat or drink of ("Meera plays cricket and she's allergic to
        peanuts." to "Can Meera have satay?": QA pass 52a, no caution; a name not called
        "my daughter Meera" was no one of theirs)."""
        return {n for n in self.engine.names_in(message) - people if not n.startswith("my ")
                and any(caution_of_others(t, {n})[0] for t in self.store.key_texts(
                    self.engine.memories_naming(n, 20)).values())}

    def _cautions(self, asked: str, answer: str, corrects: list[dict]) -> list:
        """The cautions the answer to `asked` is read against (`cautions.cautions`, and a
        child's age, `_under_age`), less
        those a correction has taken back (`knowledge.standing_cautions`; `corrects`: what
        the message itself corrects, ``stats["corrects"]``).  The message's own first (QA
        pass 32: "I am allergic to sesame, so no tahini or hummus for me." got "…try
        sesame-lime curaçoula", unmarked: its memory is made after this check; 0: no memory
        yet), and of whom the answer names (the reply to "My mum is 70." offered "a big cake
        with peanuts" for Zofia, her allergy told, unmarked: QA pass 38c)."""
        about = self._asked_about(asked)
        whom = {"about": about, "named": self._asked_about(answer),
                "own": not of_others_only(asked, about)}
        now = time.time()  # (a pregnancy told long ago is over: `as_of`)
        said = [(0, asked), *((i, as_of(t, when, now))
                              for i, t, when in self.store.said_after(0.0, containing=CUES))]
        # (and a child's age: alcohol for them, QA pass 45)
        return standing_cautions(self.store, said, {int(c["episode_id"]): asked for c in corrects},
                                 **whom) + self._under_age(asked, about)

    def _under_age(self, message: str, about: frozenset[str]) -> list:
        """The alcohol cautions of the children `message` asks of (`minors.under_age`); of
        a household's, only of its children as such ("Suggest a cake for the twins"; not
        "Suggest drinks for the family": adults too)."""
        young = asked_of(message, about)
        if for_household(message):  # (of the children as such only: "for the twins")
            young = children_named((i, t) for i, t, _ in self.store.said_after(
                0.0, containing=CHILDREN_WORDS)) if CHILDREN.search(message) else frozenset()
        return under_age([(0, message), *((i, t) for i, t, _ in self.store.said_after(
            0.0, containing=sorted(young)))], young, message) if young else []

    def _own_names(self) -> tuple[str, ...]:
        """The names the user gave as theirs in any statement ("Hi, I'm Marcus Webb…"):
        an answer that calls itself by one speaks as them (`whom.as_user`)."""
        return tuple(whom.own_names(t for _, t, _ in self.store.said_after(
            0.0, containing=("name", "i'm", "call me"))))

    def _taken_back(self) -> list[tuple[str, str]]:
        """(name, the message as meant) of each name the user took back as they wrote it
        and no statement of theirs still gives (`taken_back.taken_names`)."""
        return taken_names(self.store.respelled_as(TAKEN_BACK), lambda name: (
            t for _, t, _ in self.store.said_after(0.0, containing=(name,))))

    def _replaced(self, recalled: Iterable[Recall]) -> list[tuple[int, str, int]]:
        """(old id, its words, the newer id) of each statement not `recalled` whose newest
        recorded correction was, as what is current (QA pass 51: "Your dentist appointment
        is on 11 June." had no line, "The dentist moved it to 11 June." not recalled once
        "It's back to 12 May after all." corrected it)."""
        mems = {r.episode_id: r for r in recalled if r.kind == "episode"}
        pairs = [(o, news[0]) for o, news in self.store.recorded_corrections(every=True).items()
                 if o not in mems and news and news[0] in mems
                 and mems[news[0]].extra.get("superseded_by") is None]
        texts = self.store.kept_key_texts({o for o, _ in pairs}) if pairs else {}
        return [(o, texts[o], n) for o, n in pairs if o in texts]

    def _ills_untold(self, message: str, answer: str) -> list[str]:
        """The illnesses `answer` says the user has (`medicines.ills_said`) that neither
        `message` nor any memory of the user's names (of anyone: "My dad has diabetes."
        leaves it unsaid whose it is)."""
        out = []
        for ill in ills_said(answer):
            cue = ILLNESSES[ill]
            said = [message, *(t for _, t, _ in self.store.said_after(
                0.0, skip_sources=AUTHORS, containing=(cue + "*",)))]
            if not any(re.search(rf"\b{cue}", t, re.IGNORECASE) for t in said):
                out.append(ill)
        return out

    def _untold(self, message: str) -> list[str]:
        """The relations `message` asks about ("my sister") that no memory of the user's
        names (`doubt.answer_doubt`: what an answer says of them is not from memory), nor
        the message itself tells of (QA pass 31b: a long note about "my boss" ending in a
        question was answered under "you have not told me about your boss")."""
        told_here = facts.kin(" ".join(facts.statements(message)))
        return [r for r in sorted(facts.kin(message))
                if r not in told_here and not self.engine.tells_of(r)]

    def _drifted(self, conversation_id: int, message: str, answer: str) -> bool:
        """Did `answer` drift out of the language the user writes in this chat
        (`formulas.drifted`, over the user's last 20 messages here, this one included)?
        Not when the message asked for another language ("Translate this into Spanish")."""
        english, foreign, n = language_shares(answer)
        if n < F.DRIFT_MIN_WORDS or asks_language(message):
            return False  # too short to tell (no need to read the chat), or asked for
        users = self.store.recent_user_texts(conversation_id, 20)  # (not the whole chat)
        user_english, user_foreign, _ = language_shares(" ".join(users))
        if F.drifted(english, foreign, n, user_english, user_foreign=user_foreign):
            return True
        # a paragraph of made-up Dutch before English ones (QA pass 28: 26 % foreign words
        # in all, 30 words of Dutch in the first paragraph) primes the next answer all the
        # same: a long paragraph of foreign words counts (foreign words only: a list of
        # names or ingredients has no English function word either)
        return any(F.drifted(*language_shares(part), user_english,
                             user_foreign=user_foreign, min_words=F.DRIFT_PARAGRAPH_WORDS,
                             long_words=10 ** 9)
                   for part in answer.split("\n") if part.strip())



__all__ = ["Assistant", "AnswerNotSaved", "MessageTooLong", "ModelError", "TurnState",
           "describe_model", "format_memory", "MEMORY_HEADER"]
