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
         "I speak Dutch and French.", "I swim every Tuesday.", "I collect old maps.",
         "My favourite food is ramen.", "I grew up in Antwerp.", "My brother Wout is a pilot.",
         "I have two cats."]


def test_the_list_says_how_many_it_leaves_out(make_assistant):
    a = make_assistant()
    _said_minutes_apart(a, FACTS[:6])
    text = list(a.chat("What do you know about me?", a.new_conversation(), now=T0))[-1].text
    assert "matter most;" not in text and text.endswith(WHERE)  # all six are there
    _said_minutes_apart(a, FACTS[6:] + ["Can you recommend a podcast about dogs?"])
    done = list(a.chat("What do you know about me?", a.new_conversation(), now=T0 + 60))[-1]
    assert len(done.listed) == ABOUT_YOU
    # eighteen statements, twelve listed; the request is no statement about the user
    assert f"These are {ABOUT_YOU} of the {len(FACTS)} things you have told me. " + WHERE \
        in done.text, done.text


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


# ---- names and numbers no memory says ("Check this answer", `sources.made_up`) -----------
# `bench personal`, 0.19: "Which town do we live in now?" → "…a suburb of Manchester.",
# "Where's my shop located now?" → "We're currently located at 100 Elm Street in Hobart,
# Australia.", "What's my four-legged hiking buddy called?" → "…a dog named Chipe.": none
# of it in any memory, and only some of those answers were marked.

def test_names_and_numbers_no_memory_says_are_found():
    from hela_desktop.made_up import made_up

    shop = "Actually we moved the bookshop to Hobart last spring."
    assert made_up("We're currently located at 100 Elm Street in Hobart, Australia.",
                   shop) == ["100", "Elm Street", "Australia"]
    assert made_up("Your hiking buddy is a dog named Chipe.", "My dog Chispa loves hikes.") \
        == ["Chipe"]
    # what the memories say, in any form of the word, is no invention
    assert made_up("Your shop is in Hobart, where Margot's café is.",
                   f"{shop} Margot runs the café next door.") == []
    assert made_up("You ran 21.1 km at the Ghent half marathon.",
                   "I ran the Ghent half, 21.1 km, in May.") == []
    # a sentence's first word, months and weekdays, a list's own numbering, the app
    assert made_up("Paris is lovely. You leave on Friday in June.", "") == []
    assert made_up("Ideas:\n1. A quiz\n2. A picnic", "") == []
    assert made_up("As an AI assistant, HeLa cannot know that.", "") == []
    assert made_up("It is on Mid-July weekends.", "") == []  # (a month inside a word)
    assert made_up("Your son is 9 and plays the Violin.", "My son Joost is 9.") == ["Violin"]
    # German capitalises every noun: no word of an answer in another language is a name
    assert made_up("Dein Hund Biscuit ist ein Beagle und liebt den Park mit 3 Bällen.",
                   "My dog Biscuit is a beagle.") == ["3"]


def test_only_a_question_for_what_the_user_told_is_checked():
    from hela_desktop import facts

    for ask in ("Which town do we live in now?", "What's my dog called?",
                "When is our wedding now?", "How many animals are in the herd I milk?"):
        assert facts.asks_user_fact(ask), ask
    # ideas and advice rightly name what no memory says; a general question is no
    # question about the user's life
    for ask in ("What could I bake for next Friday's school fundraiser?",
                "Any present ideas for my sister's birthday?",
                "What should the best man steer clear of when he plans my stag do?",
                "How many moons does Jupiter have?", "My dog is called Pixel.",
                "Can you help me plan a week of marathon training around Joost's violin "
                "lessons and Samir's shifts?"):
        assert not facts.asks_user_fact(ask), ask


def test_an_answer_naming_what_no_memory_says_is_doubted():
    from hela_desktop.doubt import answer_doubt
    from hela_desktop.sources import MADE_UP_NOTE, UNUSED_MADE_UP_NOTE, doubt_note

    DAY = 86400.0
    town = Recall(episode_id=3, score=0.5, text="We moved to Hobart in March.",
                  extra={"created_at": T0 - 21 * DAY})
    ask = "Which town do we live in now?"
    assert answer_doubt(ask, "You live in Hobart, a lovely town.", [town], {3}) is None
    doubt = answer_doubt(ask, "You live in Hobart, near Launceston.", [town], {3})
    assert doubt == {"kind": "made_up", "words": ["Launceston"], "unused": False}
    given = [{"episode_id": 3, "text": town.text}]
    assert doubt_note(doubt, given) == MADE_UP_NOTE.format(words="“Launceston”", verb="is",
                                                           them="it")
    # with no memory given, the line says so (QA pass 35)
    assert doubt_note(doubt, []) == ("Check this answer: no memory was given to it, so "
                                     "“Launceston” is not from anything you told me: the "
                                     "model may have made it up.")
    assert doubt_note(doubt, given) == ("Check this answer: “Launceston” is in none of the "
                                     "memories it was given, so the model may have made it up.")
    # the memory's date as its prompt line gives it is known too ("3 weeks ago, on 13
    # November 2026"), and so is what the user wrote earlier in the chat
    when = "When did we move?"
    day = __import__("hela_desktop.prompt", fromlist=["x"]).calendar_day(T0 - 21 * DAY)
    assert answer_doubt(when, f"You moved on {day}.", [town], {3}, now=T0) is None
    assert answer_doubt(ask, "You live in Hobart, near Launceston.", [town], {3},
                        known="We often drive to Launceston.") is None
    # nothing used and names made up: both said
    got = answer_doubt(ask, "You live in the town of Ponsonby, a suburb of Manchester.",
                       [town], set())
    # (and, since pass 51, what the question points at: what was told)
    assert got == {"kind": "made_up", "words": ["Ponsonby", "Manchester"], "unused": True,
                   "memory": 3, "said": "We moved to Hobart in March."}
    assert doubt_note(got, []) == UNUSED_MADE_UP_NOTE.format(
        words="“Ponsonby” and “Manchester”", verb="are", them="them")[:-1] + (
        "; you told me “We moved to Hobart in March.”")
    # a knowledge line of the prompt is known too
    fact = Recall(episode_id=9, score=0.5, text="The user drives to Launceston on weekends.",
                  kind="knowledge")
    assert answer_doubt(ask, "You live in Hobart, near Launceston.", [town, fact], {3}) is None
    # a request for ideas is not checked; nor is a stored doubt's junk shown
    assert answer_doubt("Any ideas for a day out near my town?", "Try Launceston Gorge.",
                        [town], {3}) is None
    assert doubt_note({"kind": "made_up", "words": []}, []) == ""
    many = doubt_note({"kind": "made_up", "words": list("ABCDE")}, given)
    # (the rest counted, QA pass 36)
    assert "“A”, “B”, “C” and 2 more are in none" in many and "“D”" not in many


def test_the_stored_answer_is_checked_against_the_chat_too(make_assistant):
    """Through the real turn path and model: what the user wrote earlier in the chat is
    known (the model had it in its history), and the stored doubt is `answer_doubt`'s."""
    from hela_desktop.doubt import answer_doubt

    a = make_assistant()
    cid = a.new_conversation()
    list(a.chat("We drive to Launceston most weekends.", cid, now=T0))
    done = list(a.chat("Which town do we drive to at weekends?", cid, now=T0 + 60))[-1]
    said = a._said_in_chat(cid, "Which town do we drive to at weekends?")
    assert "We drive to Launceston most weekends." in said
    # (a question is no fact told: QA pass 38, a yes to "Is my mum 75?" read 75 as said)
    assert "Which town do we drive to at weekends?" not in said
    msg = a.store.messages(cid)[-1]
    recalled = [Recall(**m) for m in msg["stats"]["memories"]]
    expected = answer_doubt("Which town do we drive to at weekends?", done.text, recalled,
                            set(msg["stats"]["drew_on"]), a.engine.people_in,
                            known=f"{a.last_turn.system}\n{said}", now=T0 + 60)
    assert a.settings.system_prompt in a.last_turn.system  # (what the model was given)
    assert msg["stats"].get("doubt") == expected == done.doubt
    # "Launceston" is never reported made up: the chat said it
    assert "Launceston" not in str(done.doubt)


def test_a_number_the_answer_takes_from_a_memory_is_use():
    """QA pass 28: "How old is Joost?" → "Joost is 9 years old." was marked "it uses none
    of the memories recalled for it": a one-digit number was no content word."""
    from hela_desktop.doubt import answer_doubt
    from hela_desktop.edges import used_by_answer

    son = Recall(episode_id=2, score=0.5, text="My son Joost is 9 and plays the violin.")
    used = used_by_answer([(2, son.text)], "How old is Joost?", "Joost is 9 years old.")
    assert used == {2}
    assert answer_doubt("How old is my son?", "Joost is 9 years old.", [son], used) is None
    # the message's own number proves nothing
    assert used_by_answer([(2, son.text)], "Is Joost 9?", "Yes, 9.") == set()


def test_a_note_the_model_makes_up_after_a_date_is_taken_out():
    """QA pass 28: "Samir is now a paramedic, and he's the one who does what Samira was
    doing. (today; new information)": a note in the likeness of the prompt's "(today;
    older news)", which the clean-up did not know."""
    from hela_desktop.prompt import could_be_markup

    assert could_be_markup("Samir is now a paramedic. (today; new information)")
    assert could_be_markup("Samir is a nurse (yesterday; older news)")
    assert not could_be_markup("Samir is a paramedic (he started today).")
    from hela_desktop.prompt import AnswerFilter

    f = AnswerFilter()
    said = "".join(f.push(piece) for piece in
                   ("Samir is now a paramedic.", " (today;", " new information)", " Yes."))
    said += f.flush()
    assert said == "Samir is now a paramedic. Yes.", said


def test_forgetting_a_value_keeps_the_correction_that_denies_it(make_assistant):
    """QA pass 28: "Please forget that my marathon is in April." deleted "I'm training for
    the Rotterdam marathon in April." and "Correction: the marathon is in October, not
    April." alike: nothing said October any more."""
    from hela_desktop.forget_request import forget, forget_target

    a = make_assistant()
    april, october = _said_minutes_apart(a, [
        "I'm training for the Rotterdam marathon in April.",
        "Correction: the marathon is in October, not April."])
    target = forget_target("Please forget that my marathon is in April.")
    done = forget(a.engine, target, None)
    assert [eid for eid, _ in done.deleted] == [april], (target, done.deleted)
    assert october not in [eid for eid, _ in done.maybe]
    assert a.store.episode(october).deleted_at is None


def test_a_correction_in_other_words_is_one(make_assistant):
    """QA pass 28: "Oh, I got that wrong: Samir works as a paramedic now." did not correct
    "My partner Samir is a nurse." (only "actually", "correction", "…, not a" and the like
    counted)."""
    from hela_desktop import facts
    from hela_desktop.knowledge import corrections

    for said in ("Oh, I got that wrong: Samir works as a paramedic now.",
                 "My mistake, the wedding is on the 4th.", "I was wrong, Noor lives in Delft.",
                 "I mixed that up: Joost plays the cello."):
        assert facts.corrects(said), said
    # (told as news, "…works as a paramedic now." is a change since 0.35, as "…now works
    # as a paramedic" was before; QA pass 43b)
    assert not facts.corrects("Samir works as a paramedic.")
    assert not facts.corrects("Nothing went wrong at work today.")
    a = make_assistant()
    nurse, medic = _said_minutes_apart(a, [
        "My partner Samir is a nurse.",
        "Oh, I got that wrong: Samir works as a paramedic now."])
    assert corrections(a.store, [nurse]) == {nurse: medic}


def test_a_place_shared_with_older_news_makes_no_older_news(make_assistant):
    """QA pass 28 (both passes): "Hi, I'm Marta. I'm 41 and I work as a civil engineer in
    Rotterdam." came in with "I'm training for the Rotterdam marathon in April." (both
    name Rotterdam) and was marked older news than the marathon's correction, in the prompt
    too; an answer repeating "41" was then marked as giving older news.  A person's name
    still makes such company (Ines's balcony after her move)."""
    from hela_desktop.gate import RelevanceGate
    from hela_desktop.memory import NewEpisode

    a = make_assistant()
    texts = ["Hi, I'm Marta. I'm 41 and I work as a civil engineer in Rotterdam.",
             "I'm training for the Rotterdam marathon in April.",
             "Correction: the marathon is in October, not April.",
             "My sister Ines lives in Lyon.",
             "Ines sent me photos of the balcony garden at her flat.",
             "Actually my sister moved to Porto."]
    ids = a.engine.add_episodes([NewEpisode(t, created_at=T0 - (9 - i) * 3600)
                                 for i, t in enumerate(texts)])
    intro, april, october, lyon, balcony, porto = ids
    when = {e: T0 - (9 - i) * 3600 for i, e in enumerate(ids)}

    def rec(eid, **extra):
        return Recall(episode_id=eid, score=0.5, text=texts[ids.index(eid)], extra=extra)

    kept = [rec(october), rec(april, older_than=october),
            Recall(episode_id=intro, score=0.3, text=texts[0], spread_from=april,
                   extra={"gate": "association", "via_name": "rotterdam"}),
            rec(porto), rec(lyon, older_than=porto),
            Recall(episode_id=balcony, score=0.3, text=texts[4], spread_from=lyon,
                   extra={"gate": "association", "via_name": "ines"})]
    RelevanceGate(a.engine, a.settings.gate)._old_company(kept, when)
    assert "older_than" not in kept[2].extra  # a place: no company
    assert kept[5].extra.get("older_than") == porto  # a person: company
