"""A model server's answer that begins a sentence it has already said ends before it
(`hela_desktop.answer_loop`): the no-repeat rule of a local model has no portable
equivalent over HTTP, and a small model behind a server pasted sentences twice (QA pass
22).  Hand-worked strings, then a real stub server process on 127.0.0.1."""

from __future__ import annotations

from test_server import make_server_assistant, server_settings, stub_server  # noqa: F401

from hela_desktop.answer_loop import SentenceLoop, starts_like
from hela_desktop.events import DoneEvent

LOOPED = ("You're right, they are not innocent pets anymore. They have become a burden on "
          "their owner. You're right, they are not innocent pets anymore. And more.")


def _through(text: str, step: int = 1) -> tuple[str, bool]:
    g = SentenceLoop()
    out = "".join(g.push(text[i:i + step]) for i in range(0, len(text), step)) + g.flush()
    return out, g.done


def test_starts_like_by_hand():
    whole = ("you're", "right", "they", "are")
    assert starts_like(("you're", "ri"), whole, open_end=True)  # inside "right"
    assert not starts_like(("you're", "ri"), whole, open_end=False)  # "ri" ended there
    assert not starts_like(("you", "right"), whole, open_end=True)  # an earlier word differs
    assert not starts_like((), whole, open_end=True)


def test_a_sentence_said_again_ends_the_answer_before_it():
    # the third sentence repeats the first (9 words ≥ 5): it and all after it go
    for step in (1, 3, 7):  # however the server cuts its chunks
        out, done = _through(LOOPED, step)
        assert done and out == ("You're right, they are not innocent pets anymore. They have "
                                "become a burden on their owner. "), step


def test_what_only_begins_like_an_earlier_sentence_is_kept_as_written():
    text = ("You're right, they are not innocent pets anymore. You're right about the beach "
            "though. Yes. Yes.")  # held while it matched, released as it went on
    assert _through(text) == (text, False)  # "Yes." twice: under 5 words, not a loop
    cut = "My dog Pixel loves the beach. My dog Pixel"  # a repeat's start at the very end
    assert _through(cut) == ("My dog Pixel loves the beach. ", False)


def test_a_rewind_forgets_what_was_held():
    g = SentenceLoop()
    said = g.push("My dog Pixel loves the beach. My dog")
    assert said == "My dog Pixel loves the beach. "  # "My dog" held
    g.rewind()  # asked again from the text released: the model writes it anew
    assert g.push("My dog Pixel sleeps a lot.") == "My dog Pixel sleeps a lot."


def test_a_looping_server_answer_ends_where_the_loop_begins(
        stub_server, make_assistant, settings, embedder):  # noqa: F811
    server_settings(settings, f"{stub_server}/loop")
    a = make_server_assistant(make_assistant, settings, embedder)
    done = [ev for ev in a.chat("Tell me about my dog.") if isinstance(ev, DoneEvent)][-1]
    assert done.text.strip() == "My dog Pixel loves the beach. He runs every day."
    assert not done.interrupted
    stored = a.store.messages(done.conversation_id)[-1]
    assert stored["role"] == "assistant" and stored["content"].strip() == done.text.strip()
