"""Before the first token: progress while the prompt is read, a stop that lands within a
chunk, and no empty answer kept (the real model, embedder and SQLite)."""

from __future__ import annotations

import threading
import time

import pytest

from hela_desktop.events import DoneEvent, TokenEvent
from hela_desktop.llm import PrefillStopped


def test_sync_reports_progress_in_chunks_and_stops_keeping_what_it_read(llm):
    toks = llm.tokenize("The harbour lights came on one by one along the quay. " * 40)
    assert len(toks) > 300
    llm.reset()
    seen: list[tuple[int, int]] = []
    llm.prefill_s_per_token = 0.15 / 64  # as if measured: chunks of 64 tokens
    assert llm.prefill_chunk() == 64

    def progress(done, total):
        seen.append((done, total))
        return False

    assert llm.sync(toks, progress=progress) == len(toks)
    dones = [d for d, _ in seen]
    assert dones[0] == 0 and dones[-1] == len(toks) and dones == sorted(dones)
    assert len(seen) >= 3 and all(t == len(toks) for _, t in seen)
    assert llm.cached_tokens == toks

    # stop after the second chunk: what was read stays cached, and the next sync reads
    # only the rest
    llm.reset()
    llm.prefill_s_per_token = 0.15 / 64
    calls = []

    def stop_after_two(done, total):
        calls.append(done)
        return len(calls) > 2

    with pytest.raises(PrefillStopped) as info:
        llm.sync(toks, progress=stop_after_two)
    read = info.value.evaluated
    assert read == calls[-1] and 0 < read < len(toks)
    assert llm.cached_tokens == toks[:read]
    assert llm.sync(toks) == len(toks) - read


def test_chat_reports_status_and_a_stop_while_reading_keeps_no_empty_answer(make_assistant):
    a = make_assistant()
    stop = threading.Event()
    phases: list[tuple[str, int, int]] = []
    stopped_at = {}

    def on_status(phase, done, total):
        phases.append((phase, done, total))
        if phase == "reading" and not stop.is_set():
            stop.set()  # Esc pressed as soon as the prompt starts being read
            stopped_at["t"] = time.perf_counter()

    message = "Please read this long note carefully. " + "The river bends north past the mill. " * 60
    events = list(a.chat(message, None, stop, on_status=on_status))
    ended = time.perf_counter()
    done = events[-1]
    assert isinstance(done, DoneEvent) and done.interrupted
    assert done.tokens == 0 and not any(isinstance(e, TokenEvent) for e in events)
    assert phases[0] == ("recalling", 0, 0) and phases[1][0] == "reading"
    assert phases[1][1] == 0 and phases[1][2] > 300  # progress out of the whole prompt
    # stopped before any of the prompt was read: the turn ends quickly (persisting only)
    assert ended - stopped_at["t"] < 2.0
    # the user message is kept, no empty "stopped — 0 tokens" answer is
    assert done.message_id is None and done.episode_id is None
    msgs = a.store.messages(done.conversation_id)
    assert [m["role"] for m in msgs] == ["user"]

    # a normal turn afterwards reports reading progress up to the whole prompt, and answers
    phases.clear()
    events = list(a.chat("Where does the river bend?", done.conversation_id,
                         on_status=lambda *p: phases.append(p)))
    reads = [p for p in phases if p[0] == "reading"]
    assert reads and reads[-1][1] == reads[-1][2]
    assert events[-1].tokens > 0 and events[-1].message_id is not None
