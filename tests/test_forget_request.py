""""Forget that …" in the chat: the app deletes the memory and says so; the model is not
asked, and the request does not become a memory that says the thing again.

The real embedder, a real SQLite store and the real small model (loaded, not asked for the
request itself)."""

from __future__ import annotations

import pytest

from hela_desktop.events import FORGET_FOOTER, DoneEvent, MemoriesEvent, TokenEvent
from hela_desktop.forget_request import EVERYTHING, LAST, forget_target, names_only

ASKS = {
    "Forget that my sister lives in Lisbon.": "my sister lives in Lisbon",
    "Please forget my PIN.": "my PIN",
    "Can you forget what I told you about my ex?": "my ex",
    "HeLa, forget about Tom": "Tom",
    "could you please stop remembering my old address": "my old address",
    "Don't remember that I'm vegan.": "I'm vegan",
    "Forget my old address, I moved.": "my old address, I moved",
    "Could you forget about Tom and Ana?": "Tom and Ana",
    "Delete the memory about my bank PIN": "my bank PIN",
    "Please erase what I said about the surgery.": "the surgery",
    # a thing named with "the" (QA pass 31, 32b): the app answers, told or not
    "Forget the street.": "street", "Forget the haircut appointment.": "haircut appointment",
    "Forget what I just said.": LAST,
    "forget my last message": LAST,
    "Forget everything.": EVERYTHING,
    "Forget everything I told you": EVERYTHING,
    # were answered "Nothing you told me matches “me”" (QA pass 9)
    "Forget me.": EVERYTHING, "Stop remembering me": EVERYTHING,
    "Forget what you know about me": EVERYTHING, "Forget about me": EVERYTHING,
}
NOT_ASKS = [
    "I always forget my keys.", "Don't forget to buy milk.", "Do not forget to call mum.",
    "Forget it.", "forget that", "Forget about it!", "Delete this line from the poem.",
    "How do I delete a file?", "Remove the duplicates from this list: a, b, a.",
    "Can you forget", "Where does my sister live?", "forget", "Erase the board.",
    # advice wanted, or a second request after it: the model answers these
    "Forget the past and move on, what do you think?", "Forget the past.",
    "Forget about work, let's talk about holidays.", "Forget my troubles, tell me a joke",
    "Forget that my sister lives in Lisbon?", "Forget my manners, but what's 2+2?",
    # a weekday or a month is no name (QA pass 9: "Forget Monday." deleted every Monday)
    "Forget Monday.", "Forget about May",
    "forget my diet, so what should I cook tonight",
    # "never mind" and then something new: a real misfire (QA pass 9), "Forget that, my
    # brother plays the cello" deleted "My brother Rui plays the cello in Coimbra."
    "Forget that, my brother plays the cello.", "Forget it, my sister lives in Porto now.",
    "forget it - I was wrong about the date", "Forget about that; I'm vegan now.",
]


@pytest.mark.parametrize("message, target", ASKS.items())
def test_requests_to_forget_are_recognised(message, target):
    assert forget_target(message) == target


@pytest.mark.parametrize("message", NOT_ASKS)
def test_other_messages_are_not(message):
    assert forget_target(message) is None


def test_a_target_of_names_only():
    assert names_only("Ana") == ["Ana"]
    assert names_only("Tom and Ana") == ["Tom", "Ana"]
    assert names_only("my ex Tom") == [] and names_only("that Ana lives in Lisbon") == []
    assert names_only("I") == []


def _chat(a, message, cid=None):
    return list(a.chat(message, cid))


def test_forget_deletes_the_memory_and_the_model_is_not_asked(make_assistant, monkeypatch):
    """Asked "Forget that my sister lives in Lisbon", the small model said "Sure" (or
    answered in Portuguese) and the request was stored as a new memory that said it again,
    recalled by the next question.  Now the app deletes the matching memory, answers
    itself (no token from the model), stores both messages in the chat and no memory of the
    request; the next question does not recall what was forgotten."""
    a = make_assistant()
    events = _chat(a, "My sister Ana lives in Lisbon.")
    cid = events[-1].conversation_id
    _chat(a, "I work as a nurse at the hospital in Porto.", cid)
    sister = a.store.list_episodes(search="Lisbon")[0].id
    n_before = a.store.count_episodes()

    def no_model(*_a, **_k):
        raise AssertionError("the model was asked")

    monkeypatch.setattr(a, "_answerer", no_model)
    events = _chat(a, "Forget that my sister lives in Lisbon.", cid)
    monkeypatch.undo()
    assert isinstance(events[0], MemoriesEvent) and events[0].memories == []
    text = "".join(e.text for e in events if isinstance(e, TokenEvent))
    done = events[-1]
    assert isinstance(done, DoneEvent) and done.forget["deleted"] == [sister]
    # an answer that said it again is named, not deleted (since 0.12 the greedy model's
    # second answer does: its first, made-up Portuguese, is not shown to it any more)
    assert done.forget["maybe"] == [] and set(done.forget) <= {"deleted", "maybe", "repeated"}
    assert done.episode_id is None and done.tokens == 0
    assert f"#{sister} “My sister Ana lives in Lisbon.”" in text
    assert "Memories ▸ Archive ▸ Restore" in text
    assert f"hela-desktop memories restore {sister}" in text
    assert a.store.episode(sister).deleted_at is not None
    assert a.store.count_episodes() == n_before - 1  # the request is no memory
    msgs = a.store.messages(cid)
    assert [m["role"] for m in msgs[-2:]] == ["user", "assistant"]
    assert msgs[-1]["content"] == done.text == text and msgs[-1]["stats"]["forget"]
    # the window's footer and the terminal's line say who answered
    from hela_desktop.ui.window_status import done_lines, stored_lines

    assert done_lines(done, {})[0] == FORGET_FOOTER == stored_lines(msgs[-1])[0]
    ev = _chat(a, "Where does my sister live?", cid)
    assert sister not in {m.episode_id for m in ev[0].memories}
    # nor is it in the chat's history the model is shown: the exchange that formed the
    # deleted memory and the request to forget it are left out, the rest kept
    shown = " ".join(m["content"] for m in a.turn.history)
    assert "Lisbon" not in shown and "Forget" not in shown
    # the rest kept, unless its answer told the forgotten thing again (the greedy model's
    # answer to the nurse message did, and the model was shown it in the history until
    # 0.12; its memory keeps its own words, named in the answer)
    assert ("nurse" in shown) == (not done.forget.get("repeated"))
    if done.forget.get("repeated"):
        assert "kept my answer, which said it again" in text


def test_the_model_is_not_shown_a_deleted_memory_s_exchange_even_after_a_purge(
        make_assistant):
    from hela_desktop.forgetting import purge
    from hela_desktop.turn import model_history

    a = make_assistant()
    cid = _chat(a, "My PIN is 4821.")[-1].conversation_id
    _chat(a, "I like tea.", cid)
    pin = a.store.list_episodes(search="PIN")[0].id
    assert "4821" in str(model_history(a.store.messages(cid)))
    a.engine.delete_episode(pin)
    assert "4821" not in str(model_history(a.store.messages(cid)))
    purge(a.engine, [pin])  # the link to the memory is gone; the mark stays
    msgs = a.store.messages(cid)
    assert [m["forgotten"] for m in msgs] == [False, True, False, False]
    assert "4821" in msgs[0]["content"]  # the transcript is the user's, as written
    hist = model_history(msgs)
    assert [m["content"] for m in hist][0] == "I like tea." and "4821" not in str(hist)


def test_forget_about_a_name_and_forget_the_last_message(make_assistant):
    a = make_assistant()
    from hela_desktop.memory import NewEpisode

    ids = a.engine.add_episodes([NewEpisode(u, "") for u in (
        "My sister Ana lives in Lisbon.", "Ana loves sailing on the Tagus every weekend.",
        "My ex Tom still texts me sometimes.", "Banana bread needs ripe bananas.")])
    done = _chat(a, "Forget about Ana.")[-1]
    assert done.forget["deleted"] == ids[:2]  # both that name her; not the banana bread
    cid = done.conversation_id
    # the chat it opened is not named after what it asked to forget
    assert [c["title"] for c in a.store.conversations()] == ["Something to forget"]
    done = _chat(a, "Forget about Lucia.", cid)[-1]
    assert done.forget == {"deleted": [], "maybe": []}
    assert "Nothing you told me matches “Lucia”" in done.text
    _chat(a, "My PIN is 4821.", cid)
    pin = a.store.list_episodes(search="PIN")[0].id
    done = _chat(a, "Forget what I just said.", cid)[-1]
    assert done.forget["deleted"] == [pin]
    done = _chat(a, "Forget everything.", cid)[-1]
    assert done.forget["deleted"] == [] and "data folder" in done.text
    assert a.store.episode(ids[2]).deleted_at is None


def test_an_unclear_request_deletes_nothing_and_names_what_may_be_meant(make_assistant):
    a = make_assistant()
    from hela_desktop.memory import NewEpisode

    ids = a.engine.add_episodes([NewEpisode(u, "") for u in (
        "I moved to 12 Rua Augusta last year.", "My old address was 5 Baker Street.",
        "My office is at 40 Market Street.")])
    done = _chat(a, "Forget what I said about the street.")[-1]
    assert done.forget["deleted"] == [] and done.forget["maybe"]
    assert "Perhaps you meant" in done.text and "not deleted" in done.text
    assert all(a.store.episode(i).deleted_at is None for i in ids)


def test_a_forget_that_cannot_be_stored_deletes_nothing(make_assistant, monkeypatch):
    """The deletions and the answer are one write: when the answer cannot be stored (disk
    full, the file busy), the memory is neither deleted nor out of recall."""
    import sqlite3

    from hela_desktop.memory import NewEpisode

    a = make_assistant()
    (pin,) = a.engine.add_episodes([NewEpisode("My bank PIN is 4821.", "")])

    def full(*_a, **_k):
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(a.store, "add_message",
                        lambda cid, role, *r, **k: full() if role == "assistant"
                        else type(a.store).add_message(a.store, cid, role, *r, **k))
    with pytest.raises(sqlite3.OperationalError):
        _chat(a, "Forget my bank PIN.")
    monkeypatch.undo()
    assert a.store.episode(pin).deleted_at is None
    assert pin in {r.episode_id for r in a.engine.retrieve("bank PIN", k=3)}


def test_forget_what_i_just_said_means_only_the_previous_message(make_assistant):
    """Asked twice, "Forget what I just said" deleted the message before the previous one
    too (the chat's latest live memory), and after another request to forget it deleted
    whatever the user had said before that (QA pass 9): only the user's previous message
    in the chat is meant, and when it left no memory nothing is deleted."""
    a = make_assistant()
    cid = _chat(a, "My PIN is 4821.")[-1].conversation_id
    pin = a.store.list_episodes(search="PIN")[0].id
    _chat(a, "My sister Ana lives in Lisbon.", cid)
    sister = a.store.list_episodes(search="Lisbon")[0].id
    assert _chat(a, "Forget what I just said.", cid)[-1].forget["deleted"] == [sister]
    done = _chat(a, "Forget what I just said.", cid)[-1]
    assert done.forget == {"deleted": [], "maybe": []}
    assert "previous message in this chat left no memory" in done.text
    assert a.store.episode(pin).deleted_at is None
    _chat(a, "Forget about Lucia.", cid)  # a request: no memory
    assert _chat(a, "Forget what I just said.", cid)[-1].forget["deleted"] == []
    assert a.store.episode(pin).deleted_at is None
    # the first message of a chat: nothing before it
    assert _chat(a, "Forget what I just said.")[-1].forget["deleted"] == []


def test_the_status_bar_says_what_a_request_to_forget_deleted():
    """After a request to forget the status bar said "0 tokens at 0.0/s · 0 memory swaps",
    the line of an answer the model did not give (QA pass 9)."""
    from hela_desktop.ui.window_status import forget_line

    assert forget_line({"deleted": [7], "maybe": [8]}) == (
        "Memory #7 deleted (Edit ▸ Undo brings it back).")
    assert forget_line({"deleted": [1, 9], "maybe": []}).startswith("2 memories deleted")
    assert forget_line({"deleted": [], "maybe": []}) == "Nothing deleted: no memory matched."
    assert forget_line({"deleted": [], "maybe": [3]}).startswith("Nothing deleted: the answer")


def test_a_name_too_many_memories_name_is_listed_not_deleted(make_assistant):
    """"Forget about Ana" deleted every memory that names her, however many: one line in a
    chat should not wipe a person out of a year of memories.  Past ten, none is deleted;
    they are listed with how to delete them."""
    from hela_desktop.memory import NewEpisode

    a = make_assistant()
    ids = a.engine.add_episodes([NewEpisode(f"Ana and I went to place number {i}.", "")
                                 for i in range(12)])
    done = _chat(a, "Forget about Ana.")[-1]
    assert done.forget["deleted"] == [] and done.forget["maybe"] == ids
    assert done.text.startswith("12 memories name “Ana”") and "- and 2 more" in done.text
    assert all(a.store.episode(i).deleted_at is None for i in ids)


@pytest.mark.gui
def test_regenerate_on_the_apps_own_answer_says_there_is_nothing_to_answer_again(
        qtbot, tmp_path):
    """Regenerate on a forget answer rewound it and asked again, and the second run found
    nothing left ("Nothing you told me matches …"), as if the first had not deleted it.
    Now Regenerate says the answer was the app's own and leaves the chat as it is."""
    pytest.importorskip("pytestqt")
    import qt_env  # noqa: F401
    from test_app_polish import _window
    from test_ui_app import _wait

    from hela_desktop.store import Store

    d = tmp_path / "data"
    with Store(d) as s:
        cid = s.add_conversation("Something to forget")
        s.add_message(cid, "user", "Forget my PIN.")
        s.add_message(cid, "assistant", "Deleted this memory …", stats={
            "tokens": 0, "forget": {"deleted": [1], "maybe": []}})
    w = _window(qtbot, d)
    w.open_conversation(cid)
    _wait(qtbot, lambda: w.current_conv == cid and len(w.session.messages) == 2, 20)
    assert w.session.last_answer_was_the_apps()
    asked = []
    w.run_op = lambda *a: asked.append(a)  # noqa: E731 - what Regenerate would ask for
    w.regenerate()
    assert asked == [] and "nothing to answer again" in w.statusBar().currentMessage()
    w.close()


def test_a_long_past_message_is_cut_to_its_start_not_dropped_with_the_chat():
    """What the model is shown of a past message over the limit: its start, cut at a word
    boundary (one without a space in its second half is cut where it is), then " …"."""
    from hela_desktop.turn import _shorten_long

    hist = [{"role": "user", "content": "Read my note please"},
            {"role": "assistant", "content": "alpha beta gamma delta"},
            {"role": "user", "content": "x" * 30}]
    assert _shorten_long(hist, 14) == [
        {"role": "user", "content": "Read my note …"},       # "Read my note p" at a word
        {"role": "assistant", "content": "alpha beta …"},    # "alpha beta gam"
        {"role": "user", "content": "x" * 14 + " …"}]        # no word boundary: where it is
    assert _shorten_long(hist, 100) == hist and _shorten_long([], 5) == []


def test_a_fact_to_forget_is_found_among_the_questions_asked_about_it(make_assistant):
    """Tried as a new user (session 14): "Forget that my cat is called Miso." deleted
    nothing and answered "Perhaps you meant these": the question "What's my cat's name?"
    (cosine 0.69 to the request) stood too close to the fact (0.76) for it to be clear.  A
    question told nothing, so when the request names a fact, only what the user told is
    weighed; the questions stay (asking about the cat is not the fact)."""
    a = make_assistant()
    from hela_desktop.memory import NewEpisode

    ids = a.engine.add_episodes([NewEpisode(u, "") for u in (
        "My cat is called Miso and she hates the rain.", "What's my cat's name?",
        "What do you know about my cat?", "I work at a bookshop called Livraria Sol.")])
    done = _chat(a, "Forget that my cat is called Miso.")[-1]
    assert done.forget == {"deleted": [ids[0]], "maybe": []}
    assert [a.store.episode(i).deleted_at is None for i in ids] == [False, True, True, True]
    # a thing asked about, not told, still weighs the questions ("the surgery" was no fact)
    done = _chat(a, "Forget what I asked about my cat.", done.conversation_id)[-1]
    assert done.forget["deleted"] or done.forget["maybe"]


def test_forgetting_a_fact_takes_the_questions_whose_stored_answer_repeats_it(make_assistant):
    """Tried as a new user (session 17): "Forget that I'm allergic to peanuts" deleted the
    statement and left the question "What am I allergic to?", whose stored answer said "I am
    allergic to peanuts": exported with the memory file, and Memories search did not find
    it.  A question told nothing of its own, so it goes with the fact (restorable with it);
    a statement about something else whose answer repeats the fact is named, not deleted;
    an answer that shares only the topic stays.  Memories search now finds stored answers."""
    a = make_assistant()
    from hela_desktop.memory import NewEpisode

    ids = a.engine.add_episodes([NewEpisode(u, r) for u, r in (
        ("My locker code is 4417.", "Got it."),
        ("What's my locker code?", "Your locker code is 4417."),
        ("I started at a new gym on Elm Street.", "Nice! Remember your locker code 4417."),
        ("Do lockers at gyms have codes?", "Many gyms use lockers with a code you set."),
        ("What is a good code editor?", "Many people like VS Code."))])
    gym = a.store.add_conversation("Gym")  # the exchange the kept statement was formed in
    a.store.add_message(gym, "user", "I started at a new gym on Elm Street.")
    a.store.link_message_episode(a.store.add_message(
        gym, "assistant", "Nice! Remember your locker code 4417."), ids[2])
    a.store.add_message(gym, "user", "It has a pool.")
    a.store.add_message(gym, "assistant", "Lovely.")
    events = _chat(a, "Forget my locker code.")
    done = events[-1]
    assert done.forget == {"deleted": [ids[0], ids[1]], "maybe": [], "repeated": [ids[2]]}
    # its answer told the code again: the model is not shown that exchange again (0.12;
    # it was, in the gym chat's history), and the rest of the chat is
    from hela_desktop.turn import model_history

    assert [m["content"] for m in model_history(a.store.messages(gym))] == [
        "It has a pool.", "Lovely."]
    assert len(a.store.messages(gym)) == 4  # the transcript keeps it
    gone = [a.store.episode(i).deleted_at is not None for i in ids]
    assert gone == [True, True, False, False, False]
    text = done.text
    assert f"#{ids[1]} “What's my locker code?”" in text and "Also deleted a question" in text
    assert f"#{ids[2]} “I started at a new gym on Elm Street.”" in text
    assert "To bring them back" in text and "memories restore ID` for each" in text
    # Memories search finds the copy the keyword index (the user's words) does not hold
    assert [r.episode_id for r in a.engine.search("4417")] == [ids[2]]
    # both come back together (the window's Undo restores the "deleted" ids)
    for i in done.forget["deleted"]:
        a.engine.restore_episode(i)
    assert {r.episode_id for r in a.engine.search("4417")} == {ids[0], ids[1], ids[2]}


def test_forgetting_a_name_takes_the_answers_that_name_it_not_what_else_its_memory_said(
        make_assistant):
    """QA pass 21: "Forget about Pixel." deleted "My sister Ana lives in Lisbon and my dog
    is called Pixel." (it names Pixel), and then "Where does my sister live?" too, "as my
    stored answer repeated it": that answer named Ana and Lisbon, not Pixel.  What is
    forgotten is the name: a question whose answer names Pixel goes, the sister's does not."""
    a = make_assistant()
    from hela_desktop.memory import NewEpisode

    ids = a.engine.add_episodes([NewEpisode(u, r) for u, r in (
        ("My sister Ana lives in Lisbon and my dog is called Pixel.", "Lovely."),
        ("Where does my sister live?", "Your sister Ana lives in Lisbon."),
        ("What is my dog called?", "Your dog is called Pixel."),
        ("I walk every morning before work.", "Take Pixel along!"))])
    done = _chat(a, "Forget about Pixel.")[-1]
    kept = done.forget.get("kept") or []
    assert done.forget == {"deleted": [ids[0], ids[2]], "maybe": [], "repeated": [ids[3]],
                           "kept": kept} and len(kept) == 1
    assert a.store.episode(ids[1]).deleted_at is None
    assert "Where does my sister live?" not in done.text
    # the sister's part of the deleted memory is kept as a memory of its own (QA pass 32)
    assert a.store.episode(kept[0]).user_text == "My sister Ana lives in Lisbon."


def test_an_answer_to_forget_says_which_of_its_memories_are_back(make_assistant):
    """The chat read again names, under a request to forget's answer, the memories Undo
    brought back (QA pass 21: the "Undone" line was added at the chat's end and was gone
    after a restart); one deleted for good is not back."""
    from hela_desktop.memory import NewEpisode
    from hela_desktop.session import conversation_event

    a = make_assistant()
    ids = a.engine.add_episodes([NewEpisode(u, "") for u in (
        "My sister Ana lives in Lisbon.", "Ana loves sailing on the Tagus every weekend.")])
    done = _chat(a, "Forget about Ana.")[-1]
    cid = done.conversation_id
    answer = lambda: [m for m in conversation_event(a.store, cid).messages  # noqa: E731
                      if m["role"] == "assistant"][0]
    assert answer()["forget_back"] == []
    a.engine.restore_episode(ids[1])
    assert answer()["forget_back"] == [ids[1]]
    a.engine.restore_episode(ids[0])
    assert answer()["forget_back"] == ids
    from hela_desktop.forgetting import purge

    a.engine.delete_episode(ids[0])
    purge(a.engine, [ids[0]], backups=False)
    assert answer()["forget_back"] == [ids[1]]


def test_forgetting_one_thing_says_what_else_its_memory_said(make_assistant):
    """QA pass 21: "Forget that my sister lives in Lisbon" deleted "My dog is called Pixel
    and my sister Ana lives in Lisbon.", the dog's name with it, without a word.  The answer
    now names the part that said something else (`other_parts`), and says how to keep it;
    a memory of one thing, or a name's memory, gets no such line when nothing else went."""
    from hela_desktop.forget_request import other_parts
    from hela_desktop.memory import NewEpisode

    # by hand: parts at "and my"; stems {dog, call, pixel} share none of {siste, liv, lisbo}
    both = "My dog is called Pixel and my sister Ana lives in Lisbon."
    assert other_parts(both, "my sister lives in Lisbon") == ["My dog is called Pixel"]
    assert other_parts(both, "Pixel") == ["my sister Ana lives in Lisbon."]
    assert other_parts("I like salt and pepper on eggs.", "salt") == []  # one part
    assert other_parts("My PIN is 4821. I live in Porto; my gym is PureFit.", "my PIN") == [
        "I live in Porto", "my gym is PureFit."]

    a = make_assistant()
    ids = a.engine.add_episodes([NewEpisode(u, "Noted.") for u in (
        both, "My PIN is 4821.")])
    done = _chat(a, "Forget that my sister lives in Lisbon.")[-1]
    assert done.forget["deleted"] == [ids[0]]
    # (QA pass 32: what else it said is kept as a memory of its own, dated as said;
    # Undo deletes it again)
    new = done.forget["kept"][0]
    assert f"It also said “My dog is called Pixel”: I kept that as memory #{new}." in done.text
    assert f"then delete #{new}, which Undo does itself" in done.text
    kept, old = a.store.episode(new), a.store.episode(ids[0])
    assert kept.user_text == "My dog is called Pixel." and kept.created_at == old.created_at
    assert kept.deleted_at is None and old.deleted_at is not None
    assert new in {r.episode_id for r in a.engine.retrieve("What is my dog called?")}
    done = _chat(a, "Forget my PIN.")[-1]
    assert done.forget["deleted"] == [ids[1]] and "also said" not in done.text
