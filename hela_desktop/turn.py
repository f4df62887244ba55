"""One chat turn as an object (Qt-free): its state, prompt, recall and swap bookkeeping.

A `Turn` is made per message by `hela_desktop.assistant.Assistant.chat` from the
assistant's loaded parts (`TurnParts`: settings, store, memory engine, model).  It holds
everything that belongs to that one answer — the message and its time, the history that
fits, the knowledge recalled, the fixed head and tail of the prompt, the active memory set,
the pending re-retrieval and what happened (`TurnState`) — so nothing of a turn lives on
the assistant.  The generation loops drive it: `hela_desktop.local_turn` (llama.cpp, in
process) and `hela_desktop.server_turn` (a model server); both use the one swap policy
(`hela_desktop.swap`) and its one swap bookkeeping (`swap.record_swap`).

Prompt layout: see `hela_desktop.prompt`.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

import numpy as np

from . import facts
from . import prompt as P
from .about_me import asks_only_about_whole_user
from .config import Settings
from .events import MemoriesEvent, Recall
from .follow_up import as_written, gender_in, pronoun_gender, refer
from .gate import GateResult, RelevanceGate
from .kvcache import common_prefix
from .language import speaks_of_self_abroad
from .memory import MemoryEngine, fit_budget
from .store import Store
from .taken_back import TAKEN_BACK, as_meant

if TYPE_CHECKING:
    from .llm import LocalLLM
    from .server_llm import ServerLLM

    ChatModel = LocalLLM | ServerLLM


class MessageTooLong(ValueError):
    """The message does not fit the model's context; nothing was stored."""


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
    generation_s: float = 0.0  # from the end of prompt reading (the first token) to the end
    # the message asked about the user's own life (`facts.asks_about_user`) and nothing the
    # user said was recalled for it: no memory in the prompt, no knowledge item that matched
    unrecalled: bool = False
    # the system message the model was given (the system prompt and the user model): what
    # an answer may take from besides its memories (`sources.made_up`)
    system: str = ""
    # why the answer failed ("" when it did not): a server's failure, or an error of the
    # model's or of the app's own; the message is remembered as after an answer
    error: str = ""
    failed_by: str = ""  # "error" for an error of the model's or the app's own
    # the message as read: the names of the user's life it misspells written right
    # (`NameIndex.respell`), and those names (as written, as read); what it takes back as it
    # goes left out (`taken_back.as_meant`: (what it took back, the message as read,
    # TAKEN_BACK)); the line under the answer says so
    asked: str = ""
    respelled: list[tuple[str, ...]] = field(default_factory=list)


@dataclass
class TurnParts:
    """What a turn runs on, all loaded (an `Assistant` lends its own)."""

    settings: Settings
    store: Store
    engine: MemoryEngine
    llm: ChatModel
    pool: ThreadPoolExecutor  # the retrieval thread
    abandon: threading.Event  # set: the pending proposal is no longer wanted
    costs: dict[tuple[int, str], list[int]]  # memory line -> its tokens, kept across turns


KNOWLEDGE_K = 3  # knowledge items per turn (their own top-k, beside the episodes)
KNOWLEDGE_MIN_SCORE = 0.35  # cosine a knowledge item needs for a question about the user


def user_model_text(store: Store, trusted: list | None = None) -> str:
    """The user model for the stable part of the prompt: only knowledge items the user's
    own words support (or that the user wrote or edited), strongest first (`trusted`:
    `knowledge.trusted_items` worked out already, of every kind)."""
    from .knowledge import trusted_user_model

    items = trusted_user_model(store) if trusted is None else [
        k for k in trusted if k.kind == "user_model"]
    return "\n".join(f"- {k.text}" for k in items[:8])


DEEPER = 4  # how much further a recall crowded by the user's questions looks, once


def crowded(ranked: list[Recall]) -> bool:
    """Is a ranking mostly questions and requests, which the relevance gate never lets in
    (``extra["statement"]`` False)?  What the user told may then be further down it."""
    return 2 * sum(r.extra.get("statement") is False for r in ranked) > len(ranked)


def recall_knowledge(engine: MemoryEngine, store: Store, settings: Settings,
                     query_vec: np.ndarray, personal: bool = True,
                     trusted_now: list | None = None) -> tuple[list[Recall], bool]:
    """A few knowledge items for the memory block, minus those already in the system
    prompt; a task or general question needs the gate's stronger evidence.  Also whether
    any trusted item spoke to the message, those in the system prompt included
    (`trusted_now`: `knowledge.trusted_items` read already)."""
    from .knowledge import retrieve_knowledge, trusted_items

    floor = KNOWLEDGE_MIN_SCORE if personal else settings.gate.general_min
    try:
        found = retrieve_knowledge(engine, query_vec, KNOWLEDGE_K + 8, min_score=floor)
    except Exception:  # noqa: BLE001 - knowledge is an extra; never break a turn
        return [], False
    items = trusted_items(store) if trusted_now is None else trusted_now
    trusted = {k.id for k in items}
    found = [k for k in found if k.episode_id in trusted]
    in_system = set(user_model_text(store, items).splitlines())
    return [k for k in found if f"- {k.text}" not in in_system][:KNOWLEDGE_K], bool(found)


def model_history(msgs: list[dict]) -> list[dict]:
    """What of a chat the model is shown: its messages as role and content, less the
    exchanges it must not see again — one whose memory the user deleted (``forgotten``),
    an imported one a newer export of the chat shows on another branch (``off_branch``:
    the question edited there; the chat goes on from the version it shows now), a
    request to forget with the app's answer (the request says the forgotten thing again,
    and the answer was not the model's), "What do you know about me?" with the app's list
    (``listed``: the model copied the list's quotes and marks), and an answer that drifted out of the user's
    language (``drifted``: shown its own made-up Portuguese, the small model went on in it
    for the rest of the chat), and an answer a failure cut short (``failed``: shown "1. The
    story", the next answer began "1. The story: 2025; …", QA pass 33; the message is a
    memory, recalled when it matters)."""
    out: list[dict] = []
    for m in msgs:
        st = m.get("stats")
        if m["role"] == "assistant" and (m.get("forgotten") or m.get("off_branch") or (
                isinstance(st, dict) and (isinstance(st.get("forget"), dict)
                                          or isinstance(st.get("listed"), list)
                                          or st.get("drifted") is True
                                          or st.get("failed") is True))):
            if out and out[-1]["role"] == "user":
                out.pop()
            continue
        if m["content"].strip():
            out.append({"role": m["role"], "content": m["content"]})
    return out


CHARS_PER_TOKEN = 3  # what a token holds, about (prose 4, code 3): for a first cut only


def _shorten_long(history: list[dict], limit: int) -> list[dict]:
    """The history with each message over `limit` characters cut to its start, at a word
    boundary, ending in " …" (a long imported answer or pasted note: the exchanges after it
    are kept, and its start is still seen)."""
    out = []
    for m in history:
        text = m["content"]
        if len(text) > limit:
            cut = text[:limit]
            head = cut.rsplit(None, 1)[0] if " " in cut[limit // 2:] else cut
            m = {**m, "content": head.rstrip() + " …"}
        out.append(m)
    return out


def _next_start(history: list[dict], start: int) -> int:
    """Where the history starts once the exchange at `start` is dropped (the oldest kept
    starts with the user's message)."""
    start = start + 2 if len(history) - start > 1 else len(history)
    while start < len(history) and history[start]["role"] != "user":
        start += 1
    return start


def last_exchanges(history: list[dict], n: int) -> list[dict]:
    """The last `n` exchanges of a history (from the `n`-th last user message on; all for
    n < 0, none for 0)."""
    if n < 0:
        return history
    users = [i for i, m in enumerate(history) if m["role"] == "user"]
    return history[users[-n]:] if 0 < n <= len(users) else (history if n else [])


def _drop_oldest(history: list[dict]) -> list[dict]:
    """The history less its oldest exchange."""
    return history[_next_start(history, 0):]


FORGET_TITLE = "Something to forget"
TITLE_MAX = 200  # characters of the first message kept as a new chat's title


def title_of(message: str) -> str:
    """A new chat's title: the first message, on one line, up to `TITLE_MAX` characters
    (at a word boundary when there is one in the last quarter).  Stored whole, without an
    ellipsis: the places that show it shorten it to fit (the chat list, the chat's heading),
    and Rename and the chat export get it as it is.  A chat opened by a request to forget
    is not named after what it asks to forget."""
    from .forget_request import forget_target

    if forget_target(message) is not None:
        return FORGET_TITLE
    t = " ".join(message.split())
    if len(t) <= TITLE_MAX:
        return t
    cut = t[:TITLE_MAX]
    space = cut.rfind(" ")
    return cut[:space] if space >= TITLE_MAX * 3 // 4 else cut


def kept_unanswered(message: str) -> bool:
    """Whether a message of the user's left without an answer (the app killed while it
    answered, an answer that failed) is kept among their memories
    (`Assistant._remember_unanswered`): all but the requests the app answers itself (to
    forget, "What do you know about me?")."""
    from .forget_request import forget_target

    return forget_target(message) is None and not asks_only_about_whole_user(message)


def drop_pending(pending: Future | None, abandon: threading.Event | None = None) -> None:
    """Cancel a re-retrieval that is no longer wanted (`abandon` tells a running one to stop
    early) and wait for it to stop."""
    if pending is not None:
        if abandon is not None:
            abandon.set()
        pending.cancel()
        with contextlib.suppress(BaseException):
            pending.result()


class Turn:
    """One message and its answer: the state the generation loop and the swap policy share.

    Example (what `Assistant.chat` does, less the generation)::

        turn = Turn(parts, "Where does my sister live?")
        turn.open(None)            # a new chat; the user message is stored
        event = turn.recall()      # MemoriesEvent: the memories the answer starts with
        prompt = turn.first_prompt()
    """

    def __init__(self, parts: TurnParts, message: str, now: float | None = None,
                 state: TurnState | None = None, said_at: float | None = None):
        self.parts = parts
        self.settings = parts.settings
        self.store = parts.store
        self.engine = parts.engine
        self.llm = parts.llm
        self.message = message  # as the user wrote it: the chat shows it
        self.now = now  # the turn's time (None: the clock)
        # when the user said it, if before the turn (an answer asked again keeps its
        # message's time; None: the turn's time)
        self.said_at = said_at
        self.user_message_id: int | None = None  # the message as stored (`open`)
        self.state = state if state is not None else TurnState()
        # what recall, the prompt, the answer's checks and the memory read ("Where does
        # Andres live?" as "Where does Anders live?")
        self.asked, respelled = self.engine.respell(message)
        self.state.respelled = list(respelled)
        # … as meant: "…is a nurse, no wait, she's a midwife" (QA passes 45d, 46a)
        if (meant := as_meant(self.asked)) is not None:
            self.asked = meant.text
            self.state.respelled.append((meant.taken, meant.text, TAKEN_BACK))
            self.engine.name_index.learn((), [meant.taken])  # (never respelt: `NameIndex`)
        self.state.asked = self.asked
        self.conversation_id = 0
        self.history: list[dict] = []
        self.knowledge: list[Recall] = []  # distilled knowledge recalled for this turn
        self.knowledge_matched = False  # a trusted knowledge item spoke to the message
        self._trusted: list | None = None  # `knowledge.trusted_items`, read once a turn
        self._system: str | None = None  # the system message, made once a turn
        self.gate: GateResult | None = None  # the relevance gate's last decision
        self.frame: tuple[list[int], list[int]] | None = None  # (head, tail) of the prompt
        self.user_vec: np.ndarray = np.zeros(0, dtype=np.float32)
        self.active: list[Recall] = []
        self.prompt: list[int] = []
        # the answer's bookkeeping: token spans per memory set, the sets, what was used
        self.spans: list[list] = []
        self.sets_seen: list[list[int]] = []
        self.used: dict[int, tuple[Recall, np.ndarray]] = {}
        self.swaps = 0
        self.swap_s = 0.0  # time spent in swaps this answer
        self.last_swap_at = 0
        self.pending: Future | None = None  # the re-retrieval under way
        self.pending_at = 0  # the token count when it was asked for
        self.t0 = time.perf_counter()
        self.t_gen0 = self.t0
        self.t_last_token = 0.0  # when the answer's last token came (perf_counter)
        self.finished = False
        self.interrupted = False

    # ---- prompt -------------------------------------------------------------------------
    def plain(self, text: str) -> str:
        """Text from the user, memories or imports, with control tokens defused."""
        plain: Callable[[str], str] | None = getattr(self.llm, "plain", None)
        return plain(text) if plain is not None else text

    def trusted(self) -> list:
        """The knowledge items this turn may use (`knowledge.trusted_items`)."""
        if self._trusted is None:
            from .knowledge import trusted_items

            self._trusted = trusted_items(self.store)
        return self._trusted

    def stable_messages(self) -> list[dict]:
        """The system message: the system prompt and the user model, worked out once a
        turn (the prompt is counted several times as the history is fitted, and each
        reading of the user model weighs every knowledge item's support)."""
        if self._system is None:
            um = user_model_text(self.store, self.trusted())
            self._system = self.plain(P.system_text(self.settings.system_prompt, um))
        return [{"role": "system", "content": self._system}]

    def user_content(self, memories: list[Recall], message: str) -> str:
        return P.user_content(self.knowledge, memories, message, self.now)

    def segments(self, history: list[dict], memories: list[Recall],
                 message: str) -> tuple[list[int], list[list[int]], list[int]]:
        """The prompt as (head, one token list per memory line, tail).

        head = system prompt + history + the start of the user turn (memory header and this
        turn's knowledge lines); tail = the user message and the assistant header.  Each
        memory line is tokenized on its own, so lines can be removed or added as units.
        """
        llm = self.llm
        stable = self.stable_messages() + [
            {"role": m["role"], "content": self.plain(m["content"])} for m in history]
        message = self.plain(message)
        if not memories and not self.knowledge:
            text = llm.render(stable + [{"role": "user", "content": message}])
            return llm.tokenize(text), [], []
        head, tail = P.user_turn_frame(
            llm.render, stable, [self.plain(P.knowledge_line(k.text)) for k in self.knowledge],
            message)
        return (llm.tokenize(head), [self.line_tokens(r) for r in memories],
                llm.tokenize(tail))

    def prompt_tokens(self, history: list[dict], memories: list[Recall],
                      message: str) -> list[int]:
        head, mems, tail = self.segments(history, memories, message)
        return head + [t for m in mems for t in m] + tail

    def line_tokens(self, r: Recall) -> list[int]:
        line = P.format_memory(r, self.now) + "\n"
        key = (r.episode_id, line)
        costs = self.parts.costs
        toks = costs.get(key)
        if toks is None:
            if len(costs) > 20000:
                costs.clear()
            toks = costs[key] = self.llm.tokenize(line, special=False)
        return toks

    def memory_cost(self, r: Recall) -> int:
        return len(self.line_tokens(r))

    def assemble(self, memories: list[Recall]) -> list[int]:
        """The prompt for another memory set, from the turn's fixed head and tail."""
        if self.frame is None:  # the turn started without a memory block
            return self.prompt_tokens(self.history, memories, self.asked)
        head, tail = self.frame
        return head + [t for r in memories for t in self.line_tokens(r)] + tail

    def fit_history(self, conversation_id: int, message: str) -> list[dict]:
        """Past messages of this chat, oldest dropped first until the prompt fits; a
        message longer than half the room is first cut to its start (`_shorten_long`)."""
        s = self.settings
        history = model_history(self.store.messages(conversation_id))
        # pair-wise consistency: drop a trailing user message that has no answer
        while history and history[-1]["role"] == "user":
            history.pop()
        history = last_exchanges(history, s.history_exchanges)
        reserve = s.max_answer_tokens + s.token_budget + 64
        history = _shorten_long(history, max(self.llm.n_ctx - reserve, 0) // 2 * CHARS_PER_TOKEN)
        history = history[self._first_that_may_fit(history, message, reserve):]
        while history:  # the exact count, from there: one or a few prompts tokenized
            n = len(self.prompt_tokens(history, [], message))
            if n + reserve <= self.llm.n_ctx:
                break
            history = _drop_oldest(history)
        return history

    def _first_that_may_fit(self, history: list[dict], message: str, reserve: int) -> int:
        """Where the history can start at the earliest, counted without rendering it: the
        newest messages are tokenized one by one (each once) until their own tokens, fewer
        than they take in the prompt, fill the room; the start is then moved past them as
        dropping the oldest exchanges would.  (Tokenizing the whole prompt once per exchange
        dropped took 8 s before a turn in a chat of 200 exchanges, 28 s at 2,000.)"""
        room = self.llm.n_ctx - reserve - len(self.prompt_tokens([], [], message))
        used, oldest = 0, len(history)
        while oldest > 0 and used <= room:
            oldest -= 1
            used += max(0, self.llm.count_tokens(history[oldest]["content"]) - 2)
        if used <= room:
            return 0  # everything may fit
        start = 0  # the first start the drops reach that leaves `oldest` out
        while start <= oldest and start < len(history):  # (room < 0: no history at all;
            start = _next_start(history, start)         # this looped for ever on it)
        return start

    def check_length(self) -> None:
        """Refuse, before anything is stored, a message that leaves no room in the context
        for the memory block and an answer."""
        s = self.settings
        n_ctx = self.llm.n_ctx
        n = len(self.prompt_tokens([], [], self.asked))
        room = n_ctx - s.token_budget - min(s.max_answer_tokens, 64) - 64
        if room < 64:  # the settings leave no room, whatever the message
            raise MessageTooLong(
                f"the room for memories ({s.token_budget:,} tokens) leaves almost nothing of "
                f"this model's context ({n_ctx:,} tokens) for a message and its answer; "
                "lower \"Room for memories in the prompt\" in Settings ▸ Advanced")
        if n > room:
            raise MessageTooLong(
                f"message too long: {n:,} tokens, and this model's context ({n_ctx:,} "
                f"tokens) holds about {max(room, 0):,} for a message; shorten it, or import "
                "long texts as memories (File ▸ Import memories…, or hela-desktop import FILE)")

    def first_prompt(self) -> list[int]:
        """The turn's first prompt, as tokens; records its stable prefix in `state`."""
        llm, history, message, state = self.llm, self.history, self.asked, self.state
        stable = llm.tokenize(llm.render(self.stable_messages() + history))
        state.stable_prefix = common_prefix(stable, self.prompt_tokens(history, [], message))
        head, mems, tail = self.segments(history, self.active, message)
        # head and tail stay fixed for the turn: swaps only re-assemble memory lines
        self.frame = (head, tail) if tail else None
        self.prompt = head + [t for m in mems for t in m] + tail
        state.prompt_tokens = len(self.prompt)
        state.first_prompt = list(self.prompt)
        return self.prompt

    # ---- the turn's start -----------------------------------------------------------------
    def open(self, conversation_id: int | None) -> int:
        """Start the turn: its conversation (new if needed), the history that fits, and the
        user message stored; returns the conversation id."""
        store = self.store
        if conversation_id is None or not store.conversation_exists(conversation_id):
            conversation_id = store.add_conversation(title_of(self.message))
        self.conversation_id = conversation_id
        self.history = self.fit_history(conversation_id, self.asked)
        self.refer()
        self.user_message_id = store.add_message(
            conversation_id, "user", self.message,
            at=self.now if self.said_at is None else self.said_at)
        self.t0 = time.perf_counter()
        return conversation_id

    def refer(self) -> None:
        """A follow-up question's "he" or "she" read as whom the user's last messages of
        the chat named (`follow_up.refer`: "How old is he?" after "What does Sam have?"
        reads "How old is Sam?"), as a misspelt name is."""
        engine = self.engine
        if not pronoun_gender(self.asked) or engine.people_in(self.asked):
            return
        # (what the user said, as the chat shows it: not only the history the model is
        # shown, which leaves out a message whose answer drifted into another language,
        # QA pass 51b: "What does she study?" after "…my sister Lucía?" answered in Spanish)
        earlier = [(t, as_written(t, engine.people_in(t)))
                   for t in self.store.recent_user_texts(self.conversation_id, 3)]

        def gender(name: str) -> str:
            return gender_in(name, self.store.key_texts(
                engine.memories_naming(name, 20)).values())

        self.asked, pairs = refer(self.asked, earlier, gender)
        self.state.asked = self.asked
        self.state.respelled = [*self.state.respelled, *pairs]

    def recall(self) -> MemoriesEvent:
        """The memories the turn starts with, through the relevance gate at the turn's
        time, and its knowledge items; the answer's bookkeeping starts from them."""
        engine = self.engine
        self.user_vec = engine.embed_query(self.asked)
        tr = time.perf_counter()
        ranked = engine.retrieve(self.asked, query_vec=self.user_vec, now=self.now)
        self.active = self.select(ranked, self.user_vec)
        if len(ranked) >= engine.hela.k and (not self.active or len(
                self.active) < self.settings.max_memories and crowded(ranked)):
            # the ranking was full of memories the gate never lets in (the user's earlier
            # questions about Anders, ten of them, crowded out "My brother Anders … is
            # vegan", QA pass 37; or all but one of them, QA pass 38): look further down it
            # once
            ranked = engine.retrieve(self.asked, query_vec=self.user_vec, now=self.now,
                                     k=DEEPER * engine.hela.k)
            self.active = self.select(ranked, self.user_vec)
        personal = self.gate.personal if self.gate is not None else True
        self.knowledge, self.knowledge_matched = recall_knowledge(
            engine, self.store, self.settings, self.user_vec, personal, self.trusted())
        retrieve_ms = (time.perf_counter() - tr) * 1000
        ids = [r.episode_id for r in self.active]
        self.spans = [[0, 0, ids]]
        self.sets_seen = [list(ids)]
        self.used = {r.episode_id: (r, self.user_vec) for r in self.active}
        return MemoriesEvent(memories=list(self.active), retrieve_ms=retrieve_ms)

    def select(self, ranked: list[Recall], query_vec: np.ndarray | None = None) -> list[Recall]:
        """The memories for the prompt: those the relevance gate admits, in rank order,
        within the memory cap and the token budget; superseded ones are left out."""
        s = self.settings
        self.annotate(ranked)  # the gate needs to know which carry another assistant's answer
        if query_vec is not None:
            res = RelevanceGate(self.engine, s.gate).admit(self.asked, ranked, query_vec)
            ranked = res.admitted
            self.gate = res
            self.annotate([r for r in ranked if "created_at" not in r.extra])  # associations
        return fit_budget(ranked, s.max_memories, s.token_budget, self.memory_cost)

    def authors_shown(self) -> set[str]:
        """The assistants whose imported answers the prompt shows now ("ChatGPT")."""
        return {str(r.extra["answered_by"]) for r in self.active
                if r.extra.get("answered_by") and r.extra.get("answer")}

    def annotate(self, recalls: list[Recall]) -> None:
        """What the prompt and the gate need of each memory: its time, and, for one imported
        from another assistant's chats, who answered and the start of that answer."""
        eps = self.store.episodes(r.episode_id for r in recalls if r.kind == "episode")
        for r in recalls:
            e = eps.get(r.episode_id)
            if e is not None:
                r.extra["created_at"] = e.created_at
                with contextlib.suppress(OverflowError, OSError, ValueError):  # a bad date
                    r.extra["date"] = datetime.fromtimestamp(e.created_at).strftime("%Y-%m-%d")
                if e.author and e.assistant_text.strip():
                    r.extra["answered_by"] = e.author
                    r.extra["answer"] = P.answer_excerpt(e.assistant_text)

    # ---- the end of the answer -----------------------------------------------------------
    def stop_reretrieval(self) -> None:
        """The answer is over: a pending re-retrieval is not waited for."""
        drop_pending(self.pending, self.parts.abandon)
        self.pending = None

    def persist_args(self, answer: str, n_tokens: int) -> tuple[Any, ...]:
        """What `Assistant._persist` stores for this answer."""
        if not self.finished:
            self.interrupted = True
        # to the last token: a server that went quiet before the answer was cut or stopped
        # would count its silence as generation ("7 tokens · 0.5 tokens/s")
        end = self.t_last_token if self.t_last_token > self.t_gen0 else time.perf_counter()
        self.state.generation_s = end - self.t_gen0
        self.state.unrecalled = (not self.used and not self.knowledge_matched
                                 and (facts.asks_about_user(self.asked, self.engine.people_in)
                                      or speaks_of_self_abroad(self.asked)))
        self.state.system = self._system or ""
        return (self.conversation_id, self.message, answer, self.interrupted, self.spans,
                self.sets_seen, self.used, self.state, self.swaps, n_tokens,
                time.perf_counter() - self.t0, self.now, self.user_vec, self.said_at,
                self.user_message_id)


__all__ = ["Turn", "TurnParts", "TurnState", "MessageTooLong", "user_model_text", "model_history", "last_exchanges",
           "recall_knowledge", "drop_pending", "title_of"]
