"""Findings of the twenty-eighth pass.

- "What do you know about me?" stopped at 8 lines without saying so (QA pass 27): a user
  who had said more could not tell the list from all there is.

A real SQLite store and the real embedder (`make_assistant`).
"""

from __future__ import annotations

from test_doubt_pass26 import _said_minutes_apart
from test_qa_pass24 import T0

from hela_desktop.about_you import WHERE, answer, not_listed
from hela_desktop.events import Recall
from hela_desktop.gate import ABOUT_YOU, ABOUT_YOU_LOOK

FACTS = ["I work as a physiotherapist.", "My dog is called Biscuit.",
         "My hobby is bouldering on weekends.", "I live in Ghent.", "I was born in 1985.",
         "My sister Ines lives in Lyon.", "I am allergic to peanuts.", "I play the cello.",
         "My partner Samir is a nurse.", "I drive a blue Volvo.", "My son Joost is nine.",
         "I speak Dutch and French."]


def test_the_list_says_how_many_it_leaves_out(make_assistant):
    a = make_assistant()
    _said_minutes_apart(a, FACTS[:6])
    text = list(a.chat("What do you know about me?", a.new_conversation(), now=T0))[-1].text
    assert "matter most;" not in text and text.endswith(WHERE)  # all six are there
    _said_minutes_apart(a, FACTS[6:] + ["Can you recommend a podcast about dogs?"])
    done = list(a.chat("What do you know about me?", a.new_conversation(), now=T0 + 60))[-1]
    assert len(done.listed) == ABOUT_YOU
    # twelve statements, eight listed; the request is no statement about the user
    assert "These are 8 of the 12 things you have told me. " + WHERE in done.text, done.text


def test_beyond_what_the_gate_looks_at_it_says_there_is_more(make_assistant):
    a = make_assistant()
    people = ["Anna", "Bert", "Chloe", "Dirk", "Emre", "Fleur", "Gijs", "Hana", "Ivo", "Jade"]
    likes = ["plays chess on Sundays", "grows tomatoes", "restores old bikes",
             "sings in a choir", "collects vinyl records", "runs a bakery"]
    assert len(people) * len(likes) >= ABOUT_YOU_LOOK  # more than the gate looks at
    _said_minutes_apart(a, [f"My neighbour {p} {w}." for p in people for w in likes])
    text = list(a.chat("What do you know about me?", a.new_conversation(), now=T0))[-1].text
    assert f"These are the {ABOUT_YOU} that matter most of what you have told me. " + WHERE \
        in text


def test_what_is_left_out_in_words():
    assert not_listed(8, 0) == ""
    assert not_listed(8, 1) == "These are 8 of the 9 things you have told me. "
    assert not_listed(8, None) == "These are the 8 that matter most of what you have told me. "
    assert not_listed(1, None) == "This is the one that matters most of what you have told me. "
    one = Recall(episode_id=1, score=0.5, text="I live in Ghent.", extra={})
    assert answer([one], T0, 3).endswith("This is 1 of the 4 things you have told me. " + WHERE)
    assert answer([], T0, 3).endswith(WHERE) and "matter most" not in answer([], T0, 3)
