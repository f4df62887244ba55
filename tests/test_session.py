"""The window's Qt-free session model: events fold into state; the reads the assistant
thread runs for the window (chats, one chat with timelines, browser tabs)."""

from __future__ import annotations

import numpy as np
import pytest

from hela_desktop.events import (
    ConversationEvent,
    ConversationsEvent,
    DoneEvent,
    MemoryChangedEvent,
    ModelStatusEvent,
    ReflectionEvent,
    ReflectionStartedEvent,
    TokenEvent,
)
from hela_desktop.session import (
    BrowseQuery,
    Session,
    browse,
    conversation_event,
    conversations_event,
)
from hela_desktop.store import Store


def test_events_fold_into_state_and_listeners_hear_each_aspect():
    s = Session()
    heard: list[tuple[str, object]] = []
    s.subscribe(lambda aspect, ev: heard.append((aspect, ev)))

    s.apply(ModelStatusEvent("opened", {"name": None, "path": "m.gguf"}))
    s.apply(ModelStatusEvent("loading", message="Loading the language model…"))
    assert s.loading == "Loading the language model…" and not s.model_ready
    s.apply(ModelStatusEvent("failed", message="no such file", kind="model"))
    assert s.model_error == "no such file" and not s.model_ready and s.loading == ""
    s.expect_model()
    assert s.model_error is None
    s.apply(ModelStatusEvent("ready", {"name": "tiny"}))
    s.apply(ModelStatusEvent("embedder_ready"))
    assert s.model_ready and s.embedder_ready and s.model_info == {"name": "tiny"}

    s.apply(ConversationsEvent([{"id": 3, "title": "Sailing"}, {"id": 4, "title": "Cats"}]))
    msgs = [{"id": 1, "role": "user", "content": "hi"}, {"id": 2, "role": "assistant", "content": "hello"},
            {"id": 5, "role": "user", "content": "again"}]
    s.apply(ConversationEvent(3, "Sailing", msgs))
    assert s.current_conv == 3 and s.title == "Sailing"
    assert s.last_user_message()["id"] == 5 and [m["id"] for m in s.user_messages()] == [1, 5]
    s.apply(ConversationsEvent([{"id": 3, "title": "Renamed"}]))
    assert s.title == "Renamed"  # a rename reaches the open chat's title

    s.apply(MemoryChangedEvent("turn", 7, [42]))
    assert s.memory_count == 7 and s.last_memory_change.ids == [42]
    s.apply(ReflectionStartedEvent("manual"))
    assert s.reflecting
    rep = ReflectionEvent("manual", 1.7e9, seconds=0.5, forgetting={"archived": []})
    s.apply(rep)
    assert not s.reflecting and s.last_reflection is rep

    s.start_turn()
    assert s.streaming
    done = DoneEvent(4, 9, 10, tokens=3, swaps=0, prefill_tokens=0, tokens_per_s=1.0, elapsed_s=3.0)
    s.apply(done)
    assert not s.streaming and s.last_done is done and s.current_conv == 4
    s.apply(TokenEvent(0, "x"))  # chat-stream events are not the session's: ignored

    assert [a for a, _ in heard] == ["model"] * 6 + ["conversations", "conversation", "conversations",
                                                    "memory", "reflection", "reflection", "busy", "busy"]
    s.apply(ConversationEvent(4, "", reason="missing"))  # the open chat was deleted
    assert s.current_conv is None and s.messages == [] and s.title == "New chat"
    s.reset()
    assert s.memory_count == 0 and s.conversations == [] and not s.model_ready


def test_a_broken_listener_does_not_stop_the_others():
    s = Session()
    seen = []

    def broken(_aspect, _ev):
        raise RuntimeError("boom")

    s.subscribe(broken)
    s.subscribe(lambda aspect, _ev: seen.append(aspect))
    s.apply(MemoryChangedEvent("edit", 1))
    assert seen == ["memory"]


def test_reads_for_the_window(tmp_path):
    with Store(tmp_path) as st:
        emb = np.ones(8, dtype=np.float32)
        e1 = st.add_episode("Ana sails on the Tagus", "Nice.", emb, created_at=1.7e9)
        e2 = st.add_episode("My cat is Miso", "A good name.", emb, created_at=1.7e9 + 60)
        e3 = st.add_episode("I play the piano", "Lovely.", emb, created_at=1.7e9 + 120)
        st.set_archived(e3, "stale")
        cid = st.add_conversation("Sister chat")
        st.add_message(cid, "user", "Where does Ana sail?")
        mid = st.add_message(cid, "assistant", "On the Tagus.")
        st.save_timeline(mid, [(0, 3, [e1])])
        st.log_activity("forget", {"archived": 1})

        assert [c["title"] for c in conversations_event(st).conversations] == ["Sister chat"]
        ev = conversation_event(st, cid)
        assert ev.reason == "open" and ev.title == "Sister chat"
        assert [m["role"] for m in ev.messages] == ["user", "assistant"]
        assert ev.messages[0]["spans"] == [] and [tuple(s[:2]) for s in ev.messages[1]["spans"]] == [(0, 3)]
        assert conversation_event(st, cid + 99).reason == "missing"

        mem = browse(st, BrowseQuery("memories"))
        assert [e.id for e in mem["episodes"]] == [e2, e1] and mem["total"] == 2  # live, newest first
        assert [e.id for e in browse(st, BrowseQuery("memories", "cat"))["episodes"]] == [e2]
        # a ranking by meaning puts its live matches first, then word matches it missed
        ranked = browse(st, BrowseQuery("memories", "", ranked=(e1, e3)))["episodes"]
        assert [e.id for e in ranked] == [e1, e2]
        # the same matches sorted by a column the user clicked (0.13): newest first
        by_date = browse(st, BrowseQuery("memories", "", ranked=(e1, e3), order="created"))
        assert [e.id for e in by_date["episodes"]] == [e2, e1]
        assert [e.id for e in browse(st, BrowseQuery("archive"))["episodes"]] == [e3]
        assert browse(st, BrowseQuery("knowledge"))["knowledge"] == []
        assert [a["job"] for a in browse(st, BrowseQuery("activity"))["activity"]] == ["forget"]


def test_an_unanswered_message_says_why_its_answer_failed():
    s = Session()
    s.current_conv = 3
    assert s.unanswered_note().startswith("No answer yet: press Ctrl+R")
    s.start_turn()
    s.end_turn(failed="cannot reach the model server at http://127.0.0.1:9")
    assert s.unanswered_note() == ("Could not answer: cannot reach the model server at "
                                   "http://127.0.0.1:9 — your message is kept: press Ctrl+R "
                                   "(Chat ▸ Regenerate answer) to try again.")
    s.current_conv = 4  # another chat: its unanswered message did not fail here
    assert s.unanswered_note().startswith("No answer yet")
    s.current_conv = 3
    s.start_turn()  # tried again
    assert s.unanswered_note().startswith("No answer yet")
    s.end_turn()  # dropped before it began: no reason
    assert s.failed is None


def test_opening_a_chat_reads_its_title_not_every_chat(tmp_path, monkeypatch):
    """With 3,000 imported chats, listing them all (each one's messages and memories
    counted: 0.03-0.1 s) only to find one title cost every chat opened (and an export)."""
    from hela_desktop.chat_export import conversation_markdown

    with Store(tmp_path) as st:
        cid = st.add_conversation("Sourdough")
        st.add_message(cid, "user", "How often should I feed the starter?")
        monkeypatch.setattr(st, "conversations", lambda: pytest.fail("every chat listed"))
        assert conversation_event(st, cid).title == "Sourdough"
        assert conversation_markdown(st, cid).startswith("# Sourdough")
        assert st.conversation_title(cid + 1) is None
        with pytest.raises(LookupError):
            conversation_markdown(st, cid + 1)


def test_a_message_no_context_can_hold_is_not_offered_ctrl_r():
    """QA pass 26: an imported paste of 2,500,000 characters read "No answer yet: press
    Ctrl+R … to answer it", and Ctrl+R could only be refused.  One longer than 32
    characters a token of the local model's context says it stays unanswered; a model
    server's context is its own, so Ctrl+R is offered there."""
    s = Session()
    s.current_conv = 3
    s.messages = [{"role": "user", "content": "x" * (32 * 4096 + 1)}]
    note = s.unanswered_note(4096)
    assert note.startswith("No answer: this message is 131,073 characters long") and \
        "Ctrl+R" not in note and "4,096 tokens" in note
    assert s.unanswered_note(None).startswith("No answer yet: press Ctrl+R")
    s.messages = [{"role": "user", "content": "x" * (32 * 4096)}]  # it might fit: try
    assert s.unanswered_note(4096).startswith("No answer yet: press Ctrl+R")
