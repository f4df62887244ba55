"""What the fifty-second pass found, fixed: what pass 51 noticed and left alone, and QA pass
52a (Priya Raman)."""
from __future__ import annotations

import subprocess
import sys

import pytest
from test_qa_pass51 import _line, _recall


def _chat(a, *said: str) -> tuple[int, list]:
    """Tell `said` in one chat: (the chat, each reply's done event)."""
    conv, dones = None, []
    for text in said:
        dones.append([e for e in a.chat(text, conversation_id=conv) if e.type == "done"][-1])
        conv = dones[-1].conversation_id
    return conv, dones


def test_a_plan_moved_again_in_more_words():
    """Pass 52: "Now it's been moved again, to 1 July.", "They rescheduled it for 1 July.",
    "They've put it off until 3 March." and "It's on Friday now." corrected nothing (a comma
    or a word between the verb and the day, "for", "put it off"); "It got pushed to 1
    July." and "It was postponed to 1 July." were read as naming what they are about."""
    from hela_desktop import facts, superseded

    for text in ("Now it's been moved again, to 1 July.", "It has been moved again, to 1 July.",
                 "They rescheduled it for 1 July.", "Now it is on 1 July.", "It's on Friday now.",
                 "They've put it off until 3 March.", "It got pushed to 1 July.",
                 "It got delayed to 1 July.", "It was postponed to 1 July.",
                 "It's been pushed back to 1 July.", "It was brought forward to 1 July."):
        assert facts.corrects(text) and superseded.of_it_only(text), text
    for text in ("It's a lovely day now.", "I moved for work.", "It is on the shelf now.",
                 "The party is on Friday.", "I changed my mind about going on Friday."):
        assert not facts.corrects(text), text
    # a plan's time changed, a few words between; not a home moved in a month
    for text in ("They moved it again, to Friday.", "They put it off until March.",
                 "The dentist moved my appointment to Friday."):
        assert superseded.TIME_CHANGE.search(text), text
    for text in ("Actually I moved to York in March.", "We moved from Leeds in May."):
        assert not superseded.TIME_CHANGE.search(text), text


def test_a_plan_moved_twice_replaces_the_first_time_too(make_assistant):
    """Pass 52: 3pm Tuesday, "Actually it's been moved to Thursday.", "They moved it again,
    to Friday.": asked when, the Tuesday memory was listed unmarked beside the Friday one
    (the Friday correction is of the Thursday one, which was not recalled); once marked,
    "…on Friday at 3pm." read as older news for the 3pm that still holds."""
    a = make_assistant()
    a.settings.max_answer_tokens = 4
    said = ("My dentist appointment is on Tuesday at 3pm.",
            "Actually it's been moved to Thursday.", "They moved it again, to Friday.")
    conv, dones = _chat(a, *said)
    assert dones[2].corrects and dones[2].corrects[0]["episode_id"] == dones[1].episode_id
    first, last = dones[0].episode_id, dones[2].episode_id
    mems = [e for e in a.chat("When is my dentist appointment?", conversation_id=conv)
            if e.type == "memories"][0].memories
    old = next(r for r in mems if r.episode_id == first)
    assert old.extra.get("superseded_by") == last
    recalls = [_recall(last, said[2]), _recall(first, said[0], superseded_by=last)]
    ask = "When is my dentist appointment?"
    assert _line(ask, "Your dentist appointment is on Friday at 3pm.", recalls) == ""
    assert _line(ask, "Your dentist appointment is on Tuesday at 3pm.", recalls) == (
        "Check this answer: it may give older news — “They moved it again, to Friday.” is "
        "newer.")


def test_what_a_message_brings_back_is_no_older_news(make_assistant):
    """Pass 51: "It's back to 12 May after all." listed the 12 May memory it brings back
    as "(older news)" under its own reply.  A plan put back, then moved again, is replaced
    again."""
    from hela_desktop import superseded
    from hela_desktop.sources import stored_sources

    assert superseded.restores("It's back to 12 May after all.", "My op is on 12 May.")
    assert not superseded.restores("Now it's moved to 1 July.", "My op is on 12 May.")
    assert not superseded.restores("Actually it's back on.", "My op is on 12 May.")
    a = make_assistant()
    a.settings.max_answer_tokens = 4
    said = ("My hip operation is on 12 May.", "Actually they moved it to 11 June.",
            "It's back to 12 May after all.", "Now it's been moved again, to 1 July.")
    conv, dones = _chat(a, *said)
    first, moved, back, again = (d.episode_id for d in dones)
    assert dones[2].corrects == [{"episode_id": moved, "text": said[1], "of_it": True,
                                  "restores": [first]}]
    shown = stored_sources(a.store.messages(conv)[5]["stats"])
    assert first not in shown.older and moved in shown.older
    assert [c["episode_id"] for c in dones[3].corrects] == [back]
    mems = [e for e in a.chat("When is my hip operation?", conversation_id=conv)
            if e.type == "memories"][0].memories
    old = next((r for r in mems if r.episode_id == first), None)
    assert old is None or old.extra.get("superseded_by") == again


def test_a_question_that_restates_one_sentence_of_a_memory():
    """Pass 51b: "Is Sam a vet?" → "Sam is a vet." listed "I'm a backend developer at a
    startup called Ledgerly. My partner Sam is a vet." as not used: the question restates one
    sentence of it, and names Sam, whom it calls "my partner Sam"."""
    from hela_desktop.edges import used_by_answer

    two = "I'm a backend developer at a startup called Ledgerly. My partner Sam is a vet."
    for text in (two, "My partner Sam is a vet."):
        for answer in ("Sam is a vet.", "Yes, Sam is a vet."):
            assert used_by_answer([(1, text)], "Is Sam a vet?", answer) == {1}, (text, answer)
    assert used_by_answer([(1, two)], "Is Sam a vet?", "No, Sam is a doctor.") == set()
    assert used_by_answer([(1, "My partner Sam is a vet."), (2, "Sam likes hiking.")],
                          "Is Sam a vet?", "Yes.") == set()
    # (a relation word stands for the name only beside it)
    assert used_by_answer([(1, "My partner works with Sam, a vet.")], "Is Sam a vet?",
                          "Sam is a vet.") == set()


def test_what_someone_studies(make_assistant):
    """Pass 51b: "She studies law." of "…she studies medicine in Granada." had no line."""
    from hela_desktop.says_of import says_otherwise

    told = "My sister Lucía is 24 and she studies medicine in Granada."
    a = make_assistant()
    list(a.chat(told))
    mems = [_recall(1, told)]
    for ask, answer, who in (
            ("What does my sister study?", "She studies law.", "your sister"),
            ("What does Lucía study?", "Lucía is studying law at university.", "Lucía"),
            ("What does Lucía study?", "Lucía's studying law.", "Lucía")):
        assert _line(ask, answer, mems, names=a.engine.people_in) == (
            f"Check this answer: it says {who} is studying law, and you told me “{told}”"), answer
    texts = [(1, told)]
    for answer in ("She studies medicine.", "Lucía is studying medicine in Granada.",
                   "Lucía studies history books for fun.", "Lucía is a medical student."):
        assert says_otherwise(answer, texts, asking="What does Lucía study?") is None, answer


@pytest.mark.slow
def test_one_terminal_turn_says_which_conversation_to_go_on_with(tmp_path):
    """Pass 51b: `chat --message` never said the conversation id `--conversation` needs."""
    import os
    import re

    d = tmp_path / "data"
    env = dict(os.environ, HF_HUB_OFFLINE="1")

    def run(*args):
        return subprocess.run([sys.executable, "-m", "hela_desktop", "chat", "--data-dir", str(d),
                               "--max-tokens", "4", "--temperature", "0", *args],
                              capture_output=True, text=True, timeout=300, env=env)

    r = run("--message", "My cat is called Biscuit.")
    assert r.returncode == 0, r.stderr
    got = re.search(r"\(conversation (\d+): go on with --conversation (\d+)\)", r.stderr)
    assert got and got.group(1) == got.group(2), r.stderr
    r2 = run("--conversation", got.group(1), "--message", "What is my cat called?")
    assert r2.returncode == 0 and f"(conversation {got.group(1)}:" in r2.stderr, r2.stderr
    r3 = run("--json", "--message", "Hello.")  # (JSON lines carry it: no hint)
    assert r3.returncode == 0 and "go on with" not in r3.stderr


def test_the_newest_memory_is_named_on_the_graph(qtbot, tmp_path):
    """QA passes 50 and 51b: the dot of what the user had just said often had no label (it
    is no answer's memory yet, and has no links to be among the most linked)."""
    import numpy as np
    from test_gui_pass42b import ASKED, TOLD, _qa_graph, _shown

    from hela_desktop.store import Store
    from hela_desktop.ui.graph_model import snapshot_from_store

    view, ids = _qa_graph(qtbot, tmp_path, TOLD + ASKED)
    assert view.newest == []  # (the first snapshot brings nothing new)
    with Store(tmp_path) as store:
        new = store.add_episode("My cat Biscuit is twelve.", "Noted.", np.ones(8, "float32"))
        view.set_snapshot(snapshot_from_store(store))
    view.settle(200)
    view._update_labels()
    assert view.newest == [new]
    assert new in [i for i, _ in _shown(view)], _shown(view)
    view.reset()
    assert view.newest == []
