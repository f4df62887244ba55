"""What QA pass 26 found wrong with "Check this answer", and what a correction marks.

- "What does Tomas do now?" → "…now works as a chef in Lyon, while also working as a
  software engineer in Berlin." went unmarked: it said as much of the old job as of the
  new one.
- "Actually Tomas quit his job…" made "I'm planning a trip to Japan in May with my friend
  Tomas." older news (a shared name), and a mark under a later answer named the chef as
  the newer news of the trip; a move of Ines's made her cats older news.
- "Is my trip to Japan in May?" → "Yes, your trip to Japan in May…" was marked as using
  no memory, not as giving the old month.

A real SQLite store and the real embedder (`make_assistant`) for the gate.
"""

from __future__ import annotations

import pytest
from test_qa_pass24 import T0, _admit

from hela_desktop import facts
from hela_desktop.doubt import answer_doubt
from hela_desktop.events import Recall
from hela_desktop.memory import NewEpisode
from hela_desktop.older_news import gives_older

ENGINEER = "Tomas is a software engineer in Berlin."
CHEF = "Actually Tomas quit his job and now works as a chef."
TRIP = "I'm planning a trip to Japan in May with my friend Tomas."
JUNE = "Actually the trip is in June, not May."
LYON = "My sister Ines lives in Lyon."
PORTO = "Actually Ines moved to Porto."


def test_what_a_correction_says_is_no_longer_so():
    assert facts.negated(JUNE) == ["may"]
    assert facts.negated("Actually my dog is a beagle, not a terrier.") == facts.stems("terrier")
    assert facts.negated("I no longer work at the bakery.") == facts.stems("work bakery")
    assert facts.negated(PORTO) == []
    assert facts.negated(CHEF) == ["job"]  # ("quit his job": no longer so, QA pass 32)


@pytest.mark.parametrize("message,answer,old,new,older", [
    # the old value beside the new one, both as now (QA pass 26)
    ("What does Tomas do now?", "Tomas had to quit his job and now works as a chef in Lyon "
     "(France), while also working as a software engineer in Berlin.", ENGINEER, CHEF, True),
    ("What does Tomas do now?", "Tomas is a software engineer in Berlin.", ENGINEER, CHEF, True),
    ("What does Tomas do now?", "Tomas was a software engineer in Berlin.", ENGINEER, CHEF, True),
    # the old one put in the past beside the new: right
    ("What does Tomas do now?", "Tomas was a software engineer in Berlin, but now he works "
     "as a chef.", ENGINEER, CHEF, False),
    ("What does Tomas do now?", "Tomas works as a chef.", ENGINEER, CHEF, False),
    # a correction that names what is no longer so: only that is out of date (Japan and
    # Tomas still hold)
    ("Actually Tomas quit his job and now works as a chef.",
     "I'm glad to hear about the awesome Tomas's career in Japan.", TRIP, JUNE, False),
    ("When is my trip to Japan?", "Your trip with Tomas is in June.", TRIP, JUNE, False),
    ("When is my trip to Japan?", "Your trip is in May.", TRIP, JUNE, True),
    ("When is my trip to Japan?", "It moved from May to June.", TRIP, JUNE, False),
    # a yes says what the question said
    ("Is my trip to Japan in May?", "Yes, your trip to Japan in May is indeed a good "
     "opportunity.", TRIP, JUNE, True),
    ("Is my trip to Japan in June?", "Yes, it is.", TRIP, JUNE, False),
    ("Is my trip to Japan in May?", "No, it is in June.", TRIP, JUNE, False),
    # the change in the answer's own words, or copied from the correction
    ("Where is Ines now?", "Ines moved to Lyon (France) and now lives in Porto.", LYON, PORTO, True),
    ("Where does my sister live now?", "Ines left Lyon for Porto.", LYON, PORTO, False),
    ("Where does my sister live now?", "She used to live in Lyon, but now she lives in Porto.",
     LYON, PORTO, False),
    # QA pass 27: a yes-or-no question answered without a no says what it asked
    ("Is my trip to Japan in May?", "I'm glad you're planning a trip to Japan in May and "
     "visiting your friend Tomas.", TRIP, JUNE, True),
    ("Is my trip to Japan in May?", "No, your trip to Japan in May is actually June.", TRIP,
     JUNE, False),
    ("Is my trip to Japan in June?", "I'm glad you're planning a trip to Japan in June.", TRIP,
     JUNE, False),
    ("Is Ines in Lyon?", "Ines lives in Lyon with her cats.", LYON, PORTO, True),
    ("Is Ines in Lyon?", "No, she moved to Porto.", LYON, PORTO, False),
    ("Is Tomas a software engineer?", "Tomas is a software engineer in Berlin right now.",
     ENGINEER, CHEF, True),
    # … the old value set aside is no mark (a right answer was marked)
    ("When is my trip to Japan?", "The trip to Japan in June, rather than in May.", TRIP, JUNE,
     False),
    # … a word the correction says is no longer so, beside the new value
    ("What is my job?", "I love my role as physiotherapist, and I'm a nurse now.",
     "I work as a physiotherapist.", "I no longer work as a physiotherapist; I'm a nurse now.",
     True),
    ("What is my job?", "You are a nurse now.", "I work as a physiotherapist.",
     "I no longer work as a physiotherapist; I'm a nurse now.", False),
    ("Where is Ines now?", "Your sister Ines moved to Porto.", LYON, PORTO, False),
])
def test_an_answer_gives_older_news(message, answer, old, new, older):
    assert gives_older(message, answer, old, new) is older


def test_a_yes_to_the_old_month_is_marked_as_older_news():
    trip = Recall(episode_id=1, score=0.5, text=TRIP, extra={"superseded_by": 2})
    june = Recall(episode_id=2, score=0.5, text=JUNE)
    said = "Yes, your trip to Japan in May is indeed a good opportunity."
    assert answer_doubt("Is my trip to Japan in May?", said, [june, trip], set()) == {
        "kind": "older", "newer": 2, "older": 1}


def _said_minutes_apart(a, texts):
    return a.engine.add_episodes([NewEpisode(t, created_at=T0 - (len(texts) - i) * 60)
                                  for i, t in enumerate(texts)])


def test_a_correction_marks_only_what_it_is_about(make_assistant):
    """Said minutes apart, as in the QA pass: the job correction makes the old job older
    news, not the trip with Tomas; the move makes Lyon older news, not the cats."""
    a = make_assistant()
    trip, engineer, lyon, cats, chef, move = _said_minutes_apart(a, [
        TRIP, ENGINEER, LYON, "My sister Ines has two cats.", CHEF,
        "Actually Ines moved to Lisbon last week."])
    for ask, found, old, new, untouched in (
            ("What do Tomas and I plan in Japan, and what does he do?", trip, engineer, chef,
             trip),
            ("What is new with my sister Ines and her cats?", cats, lyon, move, cats)):
        res = _admit(a, ask, T0)
        by_id = {r.episode_id: r for r in res.admitted}
        seen = [(r.episode_id, r.extra.get("gate"), r.extra.get("older_than"))
                for r in res.admitted]
        assert {found, old, new} <= set(by_id), seen
        assert by_id[old].extra.get("older_than") == new, seen
        assert by_id[untouched].extra.get("older_than") is None, seen

def test_what_you_know_about_me_puts_the_user_first_and_says_what_a_correction_corrects(
        make_assistant):
    """QA pass 26: the list read "“Actually the trip is in June, not May.”" (which trip?)
    and "“Actually Ines moved to Porto.”" (who is Ines?), and three of its five lines were
    about other people while the dog was left out.  Statements in the first person come
    first (a correction counts as such when what it corrects is), and a correction says
    what it corrects."""
    from hela_desktop.about_you import answer

    a = make_assistant()
    said = _said_minutes_apart(a, [
        LYON, "I work as a physiotherapist.", "My dog is called Biscuit.", TRIP, ENGINEER,
        "My hobby is bouldering on weekends.", JUNE, CHEF, PORTO,
        "Tomas cooks ramen at his new restaurant."])
    lyon, job, dog, trip, engineer, hobby, june, chef, porto, ramen = said
    a.settings.max_memories = 5
    events = list(a.chat("What do you know about me?", a.new_conversation(), now=T0))
    text, listed = events[-1].text, events[-1].listed
    # "I …" (a correction as what it corrects), "My hobby/dog …", "My sister …", then the
    # others; beyond the memory cap of the prompt, as no model reads the list (QA pass 27)
    assert set(listed[:2]) == {job, june} and set(listed[2:4]) == {dog, hobby}, (listed, text)
    # (the job and the town of "Tomas is a software engineer in Berlin." are two things
    # since 0.36: the chef correction leaves "Tomas lives in Berlin." true, listed last)
    assert listed[4] == porto and set(listed[5:]) == {chef, ramen, engineer}, (listed, text)
    assert listed[-1] == engineer and "“Tomas lives in Berlin.” (today; the rest of that " \
        "message since corrected)" in text, text
    assert not {lyon, trip} & set(listed), (listed, text)
    assert f"“{JUNE}” (" in text and f"; correcting “{TRIP}”)" in text, text
    assert f"; correcting “{LYON}”)" in text, text
    assert "Memories tab" in text and "hela-desktop memories list" in text
    # a pinned memory of Ines's brings no other of hers by her name ahead of the "I …"
    # lines (QA pass 27: "My sister Ines has two cats." came second, unpinned)
    cats = _said_minutes_apart(a, ["My sister Ines has two cats."])[0]
    a.store.set_pinned(porto, True)
    events = list(a.chat("What do you know about me?", a.new_conversation(), now=T0 + 60))
    listed = events[-1].listed
    assert listed[0] == porto and set(listed[1:3]) == {job, june}, listed
    assert cats not in listed[:5], listed
    # (the same list, without the gate: what `answer` makes of a correction's recall)
    rec = Recall(episode_id=june, score=0.5, text=JUNE,
                 extra={"corrects": trip, "corrects_said": TRIP})
    assert answer([rec], T0).count(TRIP) == 1


def test_a_search_finds_the_correction_of_what_it_finds(make_assistant):
    """QA pass 26: Memories ▸ search "where does my sister live" listed "My sister Ines
    lives in Lyon." and not "Actually Ines moved to Porto.", which shares no word of the
    search.  The correction now comes right before what it corrects, and the browser's
    rows say which memories a later one corrects."""
    from hela_desktop.session import BrowseQuery, browse

    a = make_assistant()
    lyon, cats, porto = _said_minutes_apart(a, [LYON, "My sister Ines has two cats.", PORTO])
    found = a.engine.search("where does my sister live")
    ids = [r.episode_id for r in found]
    assert lyon in ids and porto in ids and ids.index(porto) == ids.index(lyon) - 1, ids
    brought = found[ids.index(porto)]
    assert brought.extra.get("corrects") == lyon and brought.path == "correction"
    assert brought.text == PORTO and brought.keyword == 0.0  # (its own: no word of the search)
    assert found[ids.index(lyon)].extra.get("corrected_by") == porto
    rows = browse(a.store, BrowseQuery("memories"))
    assert rows["corrected"] == {lyon: (porto, PORTO, "")}  # (not the cats)
    # a correction the search finds anyway comes up before what it corrects (QA pass 27)
    job, nurse = _said_minutes_apart(a, ["I work as a physiotherapist.",
                                         "I no longer work as a physiotherapist; I'm a nurse now."])
    ids = [r.episode_id for r in a.engine.search("physiotherapist")]
    assert ids.index(nurse) == ids.index(job) - 1, ids
    # … and one ranked well above it, questions between, has it right after (QA pass 27:
    # "trip" listed the correction, two questions, then the corrected memory)
    trip, _when, _may, june = _said_minutes_apart(a, [
        TRIP, "When is my trip to Japan?", "Is my trip to Japan in May?", JUNE])
    ids = [r.episode_id for r in a.engine.search("trip")]
    assert ids.index(trip) == ids.index(june) + 1, ids


def test_memories_search_in_the_terminal_says_what_a_correction_corrects(tmp_path, embedder,
                                                                        capsys):
    import json

    from hela_desktop.cli import main
    from hela_desktop.memory import MemoryEngine
    from hela_desktop.store import Store

    with Store(tmp_path) as store:
        lyon, porto = MemoryEngine(store, embedder).add_episodes([
            NewEpisode(LYON, created_at=T0), NewEpisode(PORTO, created_at=T0 + 60)])
    assert main(["memories", "search", "where does my sister live", "--data-dir",
                 str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert f"(corrects #{lyon})" in out and out.index("Porto") < out.index("Lyon"), out
    assert f"; corrected later by #{porto})" in out
    main(["memories", "search", "where does my sister live", "--json", "--data-dir",
          str(tmp_path)])
    rows = json.loads(capsys.readouterr().out)
    assert [(r["id"], r.get("corrects")) for r in rows][:2] == [(porto, lyon), (lyon, None)]
