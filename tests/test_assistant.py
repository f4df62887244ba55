"""The chat loop with the real model, the real embedder and real SQLite files."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from hela_desktop.bench.speed import TOPICS
from hela_desktop.events import DoneEvent, MemoriesEvent, MemoryUpdateEvent, TokenEvent
from hela_desktop.memory import NewEpisode

DIVERSE = TOPICS  # twenty unrelated facts, shared with `bench speed`


def _events(gen):
    return list(gen)


def test_turn_streams_events_and_persists(make_assistant):
    a = make_assistant()
    events = _events(a.chat("Hello! My sister Ana lives in Lisbon."))
    assert isinstance(events[0], MemoriesEvent)
    tokens = [e for e in events if isinstance(e, TokenEvent)]
    done = events[-1]
    assert isinstance(done, DoneEvent) and not done.interrupted
    assert len(tokens) == done.tokens > 0
    assert [t.index for t in tokens] == list(range(done.tokens))
    assert done.text == "".join(t.text for t in tokens).strip()
    msgs = a.store.messages(done.conversation_id)
    assert [m["role"] for m in msgs] == ["user", "assistant"]
    assert msgs[1]["content"] == done.text and msgs[1]["episode_id"] == done.episode_id
    ep = a.store.episode(done.episode_id)
    assert ep.user_text == "Hello! My sister Ana lives in Lisbon."
    # the timeline covers every token exactly once
    tl = a.store.timeline(done.message_id)
    assert tl[0][0] == 0 and tl[-1][1] == done.tokens
    assert all(tl[i][1] == tl[i + 1][0] for i in range(len(tl) - 1))


def test_fact_recalled_in_later_conversation_after_restart(make_assistant, tmp_path):
    data = tmp_path / "restart"
    a = make_assistant(data)
    done = _events(a.chat("Remember this: my dog is called Biscuit and he is a beagle."))[-1]
    fact_episode = done.episode_id
    _events(a.chat("Tell me a fun fact about octopuses."))
    a.store.close()

    b = make_assistant(data)  # a new process would see exactly this: the same file
    first = next(iter(b.chat("What is the name of my dog?", conversation_id=None)))
    assert isinstance(first, MemoriesEvent)
    recalled = [m.episode_id for m in first.memories]
    assert recalled and recalled[0] == fact_episode
    why = first.memories[0]
    assert why.semantic > 0 and why.keyword > 0 and 0 < why.recency <= 1


def _swappy(settings):
    """Settings under which the story prompt below makes the tiny model swap memories."""
    settings.reretrieve_every = 2
    settings.lookback_tokens = 12
    settings.blend_user_message = 0.0  # the live query follows the answer only
    settings.max_memories = 2
    settings.swap_margin = 0.0
    settings.swap_cost_weight = 0.0
    settings.swap_time_budget = 100.0  # no time limit on swaps
    settings.max_answer_tokens = 64
    # these tests exercise the swap machinery on a story prompt; the relevance gate would
    # (rightly) keep every memory out of a story, so it is off here
    settings.gate.enabled = False
    return settings


@pytest.mark.parametrize("mode", ["exact", "splice", "prefetch"])
def test_swap_reuses_the_stable_prefix_and_timeline_matches(make_assistant, settings, llm, mode,
                                                            monkeypatch):
    # a proposal that comes more than LATE_TOKENS after it was asked for is dropped (a busy
    # machine: under a CI run's load of 5 the 64-token story had no swap left); this test is
    # about how a swap is made, so none is late here
    monkeypatch.setattr("hela_desktop.swap.LATE_TOKENS", 10_000)
    settings.swap_mode = "exact" if mode == "exact" else "splice"
    settings.swap_prefetch = mode == "prefetch"
    _swappy(settings)
    a = make_assistant(s=settings)
    conv = a.new_conversation()
    # some history, so the stable prefix is more than the system prompt
    a.store.add_message(conv, "user", "Hi, I'm Sam.")
    a.store.add_message(conv, "assistant", "Nice to meet you, Sam!")
    a.engine.add_episodes([NewEpisode(t, "") for t in DIVERSE])

    before = llm.evaluated_tokens
    events = _events(a.chat("Tell me a long story about anything you like.", conv))
    done = events[-1]
    updates = [e for e in events if isinstance(e, MemoryUpdateEvent)]
    state = a.last_turn
    assert done.swaps == len(updates) >= 1, "the answer should have triggered a memory swap"
    # every evaluated token is accounted for: prefill (first prompt + swaps) + generated tokens
    assert llm.evaluated_tokens - before == done.prefill_tokens + done.tokens
    for u, bound in zip(updates, state.swap_bounds, strict=True):
        # a swap re-evaluates at most memory block + user message + generated tokens ...
        assert 0 < u.prefill_tokens <= bound
        if mode != "exact":  # ... and splicing only the added memory lines (+ 1 token)
            assert u.prefill_tokens == sum(a._memory_cost(r) for r in u.added) + 1
        # ... and never the stable part (system prompt + history)
        assert u.prefill_tokens <= state.prompt_tokens - state.stable_prefix + u.token_index
    assert state.stable_prefix > 20
    # the timeline's spans start exactly at the swaps, with the swapped-in sets
    tl = a.store.timeline(done.message_id)
    starts = [s for s, _, _ in tl]
    assert starts == [0] + [u.token_index for u in updates if u.token_index < done.tokens]
    for (_start, _, ids), u in zip(tl[1:], updates, strict=False):
        assert ids == u.active
    first = events[0]
    assert tl[0][2] == [m.episode_id for m in first.memories]
    # Hebbian learning happened for the co-active sets
    assert a.store.hebbian_step() >= 1 and a.store.count_edges() > 0
    if mode == "prefetch":  # the added lines were evaluated beside generation
        assert llm.side_evaluated_tokens > 0


def test_time_budget_defers_swaps(make_assistant, settings):
    """With no time for swaps, the swaps the policy wants are counted but not made."""
    _swappy(settings).swap_time_budget = 0.0
    a = make_assistant(s=settings)
    a.engine.add_episodes([NewEpisode(t, "") for t in DIVERSE])
    events = _events(a.chat("Tell me a long story about anything you like."))
    done = events[-1]
    assert done.swaps == 0 and not any(isinstance(e, MemoryUpdateEvent) for e in events)
    assert done.deferred_swaps >= 1
    stats = a.store.messages(done.conversation_id)[-1]["stats"]
    assert stats["deferred_swaps"] == done.deferred_swaps


def test_stop_keeps_partial_answer_marked_interrupted(make_assistant, settings):
    settings.max_answer_tokens = 200
    a = make_assistant(s=settings)
    stop = threading.Event()
    seen = []
    done = None
    for ev in a.chat("Write a long poem about the sea.", stop=stop):
        if isinstance(ev, TokenEvent):
            seen.append(ev.text)
            if len(seen) == 5:
                stop.set()
        if isinstance(ev, DoneEvent):
            done = ev
    assert done.interrupted and done.tokens == 5
    msgs = a.store.messages(done.conversation_id)
    assert msgs[-1]["interrupted"] and msgs[-1]["content"] == "".join(seen).strip()
    assert done.episode_id is None  # only completed exchanges become memories
    assert a.store.integrity_ok()


def test_closing_the_stream_midway_stores_the_partial_answer(make_assistant, settings):
    settings.max_answer_tokens = 200
    a = make_assistant(s=settings)
    gen = a.chat("Describe a long walk through a forest.")
    n = 0
    for ev in gen:
        if isinstance(ev, TokenEvent):
            n += 1
            if n == 3:
                break
    gen.close()  # what Ctrl-C in the terminal chat does
    conv = a.store.conversations()[0]["id"]
    msgs = a.store.messages(conv)
    assert msgs[-1]["role"] == "assistant" and msgs[-1]["interrupted"]
    assert a.store.integrity_ok()


def test_empty_message_is_refused(make_assistant):
    a = make_assistant()
    with pytest.raises(ValueError, match="empty message"):
        next(iter(a.chat("   \n ")))
    assert a.store.conversations() == []


def test_history_that_overflows_the_context_is_trimmed(make_assistant, settings, tmp_path):
    from hela_desktop.llm import LocalLLM

    small = LocalLLM(n_ctx=768)
    settings.n_ctx = 768
    settings.max_answer_tokens = 16
    settings.token_budget = 120
    a = make_assistant(s=settings, model=small)
    conv = a.new_conversation()
    long = "This is a long message about many things. " * 30
    for i in range(12):
        a.store.add_message(conv, "user", f"{i}: {long}")
        a.store.add_message(conv, "assistant", f"{i}: {long}")
    done = _events(a.chat("And now a short question?", conv))[-1]
    assert not done.interrupted and done.tokens > 0
    assert a.last_turn.prompt_tokens + done.tokens < 768
    small.close()


@pytest.mark.slow
def test_many_swaps_over_turns_keep_the_cache_consistent(make_assistant, settings, llm):
    """A multi-turn chat with frequent prefetched swaps (some replacing, some appending,
    some moving the cache): KV positions stay increasing and inside the context, every
    token is accounted for, and the store stays consistent."""
    _swappy(settings)
    settings.reretrieve_every = 4
    settings.max_answer_tokens = 48
    settings.max_memories = 4
    settings.temperature = 0.7
    settings.async_retrieval = False  # the same swaps every run (prefetch still used)
    a = make_assistant(s=settings)
    a.engine.add_episodes([NewEpisode(t, "") for t in DIVERSE])
    conv = a.new_conversation()
    side_before = llm.side_evaluated_tokens
    swaps = 0
    for i, q in enumerate(["Tell me a long story about my cat and the honey.",
                           "What do you remember about my music and the marathon?",
                           "Plan my weekend with chess, dogs and tomatoes."]):
        before = llm.evaluated_tokens
        done = _events(a.chat(q, conv, seed=i))[-1]
        assert llm.evaluated_tokens - before == done.prefill_tokens + done.tokens
        pos = llm.positions
        assert all(x < y for x, y in zip(pos, pos[1:], strict=False))
        assert pos[-1] < llm.n_ctx
        swaps += done.swaps
    assert swaps >= 3 and llm.side_evaluated_tokens > side_before
    assert a.store.integrity_ok()
    # the history's cells (the earlier answers' kept from their own turns, computed with
    # those turns' memories in view, and moved left when the memory blocks were dropped)
    # still predict nearly what a fresh evaluation of the same tokens predicts
    from test_llm import _logits

    stable = llm.cached_tokens[: a.last_turn.stable_prefix]
    llm.sync(stable)
    cached = _logits(llm)
    llm.reset()
    llm.sync(stable)
    fresh = _logits(llm)
    assert np.corrcoef(cached, fresh)[0, 1] > 0.9


def test_next_turn_reuses_the_previous_answer_behind_its_memory_block(make_assistant, settings,
                                                                      tmp_path):
    """In splice mode a new turn drops the previous turn's memory block from the cache and
    keeps the cells of the previous message and answer; exact mode evaluates them again."""
    settings.swap_time_budget = 0.0  # no swaps: both runs answer the same way
    settings.max_answer_tokens = 48
    prefill, answers = {}, {}
    for mode in ("exact", "splice"):
        settings.swap_mode = mode
        a = make_assistant(tmp_path / mode, s=settings)
        a.engine.add_episodes([NewEpisode(t, "") for t in DIVERSE])
        first = _events(a.chat("Tell me about the bees and the honey harvest."))[-1]
        second = _events(a.chat("And what about my cello lessons?", first.conversation_id))
        prefill[mode] = second[-1].prefill_tokens
        answers[mode] = first.tokens
    assert answers["exact"] == answers["splice"]
    # the previous answer (and message) were not evaluated again
    assert prefill["splice"] <= prefill["exact"] - answers["splice"]


# ---- the turn's pure parts: prompt layout and swap policy, on hand-picked values -------
def _recall(i: int, score: float, text: str = "", created_at: float | None = None):
    from hela_desktop.events import Recall

    r = Recall(episode_id=i, score=score, text=text)
    if created_at is not None:
        r.extra["created_at"] = created_at
    return r


def test_score_range_is_best_minus_median():
    from hela_desktop.swap import score_range

    # scores 0.9, 0.5, 0.4, 0.1 (sorted): best 0.9, median index 2 -> 0.4; range 0.5
    ranked = [_recall(1, 0.4), _recall(2, 0.9), _recall(3, 0.1), _recall(4, 0.5)]
    assert score_range(ranked) == pytest.approx(0.5)
    assert score_range([_recall(1, 0.7)]) == 1.0  # one score: no scale, 1
    assert score_range([_recall(1, 0.7), _recall(2, float("-inf"))]) == 1.0
    assert score_range([_recall(1, 0.7), _recall(2, 0.7)]) == pytest.approx(1e-9)


def test_user_content_puts_knowledge_then_memories_before_the_message():
    from hela_desktop import prompt as P

    now = 1_700_000_000.0
    know = [_recall(10, 1.0, "The user loves hiking.")]
    mems = [_recall(1, 1.0, "My sister Ana lives in Lisbon.", created_at=now - 3 * 86400)]
    text = P.user_content(know, mems, "Where does Ana live?", now)
    lines = text.split("\n")
    assert lines[0] == P.MEMORY_HEADER
    assert lines[1] == "- The user loves hiking."
    assert lines[2].startswith("- My sister Ana lives in Lisbon. (3 days ago, on ")
    assert lines[3:] == ["", "Where does Ana live?"]
    assert P.user_content([], [], "hello", now) == "hello"
    assert P.system_text("Be brief.", "") == "Be brief."
    assert P.system_text("Be brief.", "- Likes tea") == (
        "Be brief.\n\nWhat you know about the user (from their own words):\n- Likes tea")


def test_user_turn_frame_splits_where_the_memory_lines_go():
    from hela_desktop import prompt as P

    def render(messages):
        return "".join(f"<{m['role']}>{m['content']}</{m['role']}>" for m in messages)

    head, tail = P.user_turn_frame(render, [{"role": "system", "content": "S"}],
                                   ["- k"], "hi")
    assert head == f"<system>S</system><user>{P.MEMORY_HEADER}\n- k\n"
    assert tail == "\nhi</user>"
    line = "- a memory\n"
    assert render([{"role": "system", "content": "S"},
                   {"role": "user", "content": P.user_turn(["- k", "- a memory"], "hi")}]
                  ) == head + line + tail


def test_title_of_a_new_chat():
    from hela_desktop.turn import title_of

    assert title_of("  Hello\n  there ") == "Hello there"
    assert title_of("x" * 60) == "x" * 60  # stored whole: no "…" (the window shortens it)
    assert title_of("x" * 250) == "x" * 200  # a cap, not an ellipsis
    words = " ".join(["Pixel"] * 60)  # 359 characters
    t = title_of(words)
    assert 150 <= len(t) <= 200 and words.startswith(t) and t.endswith("Pixel")


def test_a_long_chat_is_fitted_with_a_few_prompts_tokenized_and_keeps_what_fits(
        tmp_path, make_assistant):
    """A chat of 300 exchanges: the history kept is what dropping the oldest exchange, one
    at a time, until the prompt fits keeps (computed here that slow way), but the prompt is
    tokenized a few times, not once per exchange dropped (8 s before a turn at 200)."""
    from hela_desktop.config import Settings
    from hela_desktop.turn import Turn, _drop_oldest, model_history

    a = make_assistant(tmp_path / "data", s=Settings(history_exchanges=-1))  # as many as fit
    c = a.store.add_conversation("Sauces")
    for i in range(300):
        a.store.add_message(c, "user", f"Question {i}: how do I make the sauce thicker?")
        a.store.add_message(c, "assistant", f"Answer {i}: reduce it, or add cornstarch. " * 4)
    calls = []
    real = Turn.prompt_tokens
    Turn.prompt_tokens = lambda self, *k: calls.append(1) or real(self, *k)  # type: ignore
    try:
        kept = a._fit_history(c, "And another?")
    finally:
        Turn.prompt_tokens = real  # type: ignore[method-assign]
    assert len(calls) <= 10, len(calls)  # (once per exchange dropped: about 250)
    s = a.settings
    reserve = s.max_answer_tokens + s.token_budget + 64
    turn = Turn(a.parts(), "And another?")
    slow = model_history(a.store.messages(c))
    while len(turn.prompt_tokens(slow, [], "And another?")) + reserve > a.llm.n_ctx:
        slow = _drop_oldest(slow)
    assert kept == slow and 0 < len(kept) < 600 and kept[0]["role"] == "user"


def test_the_chat_shown_to_the_model_is_cut_to_the_last_exchanges_asked(tmp_path, make_assistant):
    """`history_exchanges`: the chat's own earlier exchanges the model is shown (-1: as
    many as fit, 0: none).  QA pass 23: in one long chat the small model opened 22 of 26
    answers alike, copying its own earlier answers (docs/benchmarks.md)."""
    from hela_desktop.config import Settings
    from hela_desktop.turn import last_exchanges

    h = [{"role": r, "content": f"{r} {i}"} for i in range(3) for r in ("user", "assistant")]
    assert last_exchanges(h, -1) == h and last_exchanges(h, 0) == []
    assert last_exchanges(h, 1) == h[4:] and last_exchanges(h, 2) == h[2:]
    assert last_exchanges(h, 9) == h
    assert Settings(history_exchanges=-7).history_exchanges == -7  # (clamped on validate)
    s = Settings.from_dict({"history_exchanges": -7})
    assert s.history_exchanges == -1
    a = make_assistant(tmp_path / "data", s=Settings(history_exchanges=1))
    c = a.store.add_conversation("Sauces")
    for i in range(4):
        a.store.add_message(c, "user", f"Question {i}")
        a.store.add_message(c, "assistant", f"Answer {i}")
    assert a._fit_history(c, "And another?") == [
        {"role": "user", "content": "Question 3"}, {"role": "assistant", "content": "Answer 3"}]
    # the no-repeat rule still knows the chat's earlier answers the model is not shown
    assert a.store.recent_answers(3, conversation=c) == ["Answer 3", "Answer 2", "Answer 1"]
    a.settings.history_exchanges = 0
    assert a._fit_history(c, "And another?") == []
    a.settings.history_exchanges = -1
    assert len(a._fit_history(c, "And another?")) == 8
