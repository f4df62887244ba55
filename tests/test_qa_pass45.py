"""What the forty-fifth pass found, fixed."""
from __future__ import annotations

import gc
import re

import pytest

from hela_desktop.events import Recall

AMARA = [("Our daughter Amara is 7 and allergic to peanuts.", ""),
         ("Amara turned 8 yesterday.", ""),
         ("My brother Chidi is a pilot and lives in Lagos.", ""),
         ("Chidi is 41 and loves jazz.", "")]


def _line(ask: str, answer: str, texts: list[tuple[int, str]], told: list) -> str:
    """The line under `answer` to `ask`, `texts` (id, words) recalled, `told` the
    cautions."""
    from hela_desktop.doubt import answer_doubt
    from hela_desktop.edges import used_by_answer
    from hela_desktop.sources import doubt_note

    mems = [Recall(episode_id=i, score=1.0, text=t) for i, t in texts]
    people = {"amara", "chidi", "daughter"}

    def names(text: str) -> set[str]:
        return {w.lower() for w in re.findall(r"[A-Za-z]+", text) if w.lower() in people}

    drew = used_by_answer(texts, ask, answer)
    doubt = answer_doubt(ask, answer, mems, drew, names, known="\n".join(t for _, t in texts),
                         cautions=told, user_names=frozenset({"amara", "chidi"}))
    return doubt_note(doubt, [{"episode_id": i, "text": t} for i, t in texts])


def test_a_child_asked_of_is_cautioned_against_alcohol_by_their_newest_age(
        make_assistant, seed_dir):
    """QA pass 45 (brief): "Can Amara have a glass of champagne at the wedding?", Amara 8,
    could be answered yes with nothing under it: the cautions knew no age."""
    a = make_assistant(seed_dir(AMARA))
    ask = "Can Amara have a glass of champagne at the wedding?"
    (c,) = a._under_age(ask, a._asked_about(ask))
    assert c.text == "Amara turned 8 yesterday." and c.theirs
    assert {"champagne", "wine", "beer"} <= c.avoid and "peanuts" not in c.avoid
    texts = [(i + 1, u) for i, (u, _) in enumerate(AMARA)]
    assert _line(ask, "Yes, Amara can have a glass of champagne at the wedding.", texts, [c]) \
        == ("Check this answer: it names “champagne” without a word of warning, and you told "
            "me “Amara turned 8 yesterday.”")
    assert _line(ask, "Yes, she can.", texts, [c]) \
        == "Check this answer: it says yes to “champagne”, and you told me “Amara turned 8 yesterday.”"
    # (QA pass 45c: "it leaves out what you told me: “Amara turned 8 yesterday.”" left a
    # parent to guess what the age had to do with it)
    assert _line(ask, "It depends on the wedding and the time of day.", texts, [c]) \
        == ("Check this answer: it does not say no to “champagne”, and you told me “Amara "
            "turned 8 yesterday.”")
    # a no, or "too young", is what it should say: no line
    assert _line(ask, "No, Amara is too young to drink champagne.", texts, [c]) == ""
    assert _line(ask, "She is under age, so give her sparkling juice.", texts, [c]) == ""
    # by relation too
    ask = "Can my daughter have a small beer?"
    assert [c.text for c in a._under_age(ask, a._asked_about(ask))] == ["Amara turned 8 yesterday."]


@pytest.mark.parametrize("ask", [
    "Can Chidi have champagne at the wedding?",  # 41: an adult
    "Can I have champagne at Amara's party?",  # the user's own drink, at her party
    "Suggest drinks for the whole family at Christmas.",  # the household: adults too
    "What time does Amara's school start?",
])
def test_no_alcohol_caution_for_adults_or_the_user(make_assistant, seed_dir, ask):
    a = make_assistant(seed_dir(AMARA))
    assert a._under_age(ask, a._asked_about(ask)) == []


def test_a_later_adult_age_lifts_the_caution():
    from hela_desktop.minors import under_age

    told = [(1, "Our son Leo is 17 and plays rugby."), (2, "Leo turned 18 on Sunday.")]
    assert under_age(told, {"leo"}) == []
    (c,) = under_age(told[:1], {"leo"})
    assert c.text == "Our son Leo is 17 and plays rugby." and c.episode_id == 1
    # an age of something else is no age: "Leo is 10 minutes away"
    assert under_age([(1, "Leo is 10 minutes away.")], {"leo"}) == []


def test_loading_takes_the_loaded_heap_out_of_the_collectors_rounds(tmp_path, llm, embedder):
    """CI of 0.36.0: the window's event loop stalled 448 ms mid-answer.  A full garbage
    collection walked the ~480,000 objects loading made (414–541 ms measured); frozen
    after loading (`loader.settle_heap`), they are out of its rounds until the assistant is
    closed."""
    from hela_desktop.loader import AssistantLoader

    gc.unfreeze()
    loader = AssistantLoader(tmp_path / "data", llm=llm, embedder=embedder)
    try:
        loader.load_model()
        assert gc.get_freeze_count() > 10_000  # the models' and libraries' objects
        before = len(gc.get_objects())
        assert before < gc.get_freeze_count()  # most of what is tracked is frozen
    finally:
        loader.close()
    assert gc.get_freeze_count() == 0


@pytest.mark.parametrize("old, new, kept, replaced", [
    # QA passes 45 and 45b: an age change replaced the allergy told beside it
    ("Our daughter Amara is 7 and allergic to peanuts.", "Amara turned 8 yesterday.",
     ["Our daughter Amara is allergic to peanuts."], "Our daughter Amara is 7"),
    ("Our grandson Ole is 4 and allergic to eggs.", "Ole turned 5 last week.",
     ["Our grandson Ole is allergic to eggs."], "Our grandson Ole is 4"),
    # QA pass 45: "…is a pilot and lives in Lagos" was cut at "in Lagos", and "My brother
    # Chidi is a pilot and lives." held
    ("My brother Chidi is a pilot and lives in Lagos.", "Chidi moved to Abuja.",
     ["My brother Chidi is a pilot"], "lives in Lagos."),
    ("My brother Chidi is a pilot and lives in Lagos.", "Chidi has swapped Lagos for Abuja.",
     ["My brother Chidi is a pilot"], "lives in Lagos."),
    ("My brother Chidi is a pilot and lives in Lagos.", "Chidi is now a teacher.",
     ["My brother Chidi lives in Lagos."], "My brother Chidi is a pilot"),
    # both parts kept: as they were said
    ("Our daughter Chloe is 34 and vegetarian. She lives in Leeds.", "Chloe moved to York.",
     ["Our daughter Chloe is 34 and vegetarian."], "She lives in Leeds."),
])
def test_a_correction_replaces_only_its_part(old, new, kept, replaced):
    from hela_desktop import facts
    from hela_desktop.superseded import kept_parts, on_subject

    assert facts.corrects_memory(old, new)
    assert kept_parts(old, [new]) == kept
    assert on_subject(old, new) == replaced


def test_a_bare_part_kept_alone_says_its_verb():
    from hela_desktop.superseded import part_alone, told_parts

    assert part_alone(told_parts("I'm 30 and allergic to nuts."), 1) == "I am allergic to nuts."
    assert part_alone(told_parts("We're 30 and vegan."), 1) == "We are vegan."


def test_one_town_swapped_for_another_is_a_move():
    """QA pass 45: "Chidi has swapped Lagos for Abuja." corrected nothing, and "Chidi still
    lives in Lagos…" was marked only for calling him an artist."""
    from hela_desktop import facts

    assert facts.corrects("Chidi has swapped Lagos for Abuja.")
    assert facts.negated("We left London for Bristol.") == [facts.stem("london")]
    assert facts.corrects_memory("We live in London.", "We left London for Bristol.")
    assert not facts.corrects("I left my keys at home.")
    assert not facts.corrects_memory("My sister Ngozi is a doctor.", "Chidi swapped Lagos for Abuja.")


def test_an_allergy_or_diet_said_to_be_over_is_no_caution():
    """QA pass 45b: "Good news: Ole has outgrown his egg allergy." was a caution of its own
    ("…names “eggs” without a word of warning, and you told me “Ole has outgrown his egg
    allergy.”"), and the allergy's stayed."""
    from hela_desktop.cautions import cautions

    ole = [(6, "Our grandson Ole is 4 and allergic to eggs."),
           (37, "Good news: Ole has outgrown his egg allergy.")]
    assert cautions(ole, about={"ole"}) == []
    assert [c.episode_id for c in cautions(ole[:1], about={"ole"})] == [6]
    # another's allergy stays
    both = [(1, "Our son Leo is allergic to eggs."), *ole]
    assert [c.episode_id for c in cautions(both, about={"ole", "leo"})] == [1]
    assert cautions([(1, "I'm vegetarian."), (2, "I'm no longer vegetarian.")]) == []
    assert cautions([(1, "Dad is on warfarin."), (2, "Dad is no longer on warfarin.")],
                    about={"dad"}) == []
    # not what is newly avoided: "I don't eat meat any more." is a caution
    assert [c.episode_id for c in cautions([(1, "I don't eat meat any more.")])] == [1]
    assert cautions([(1, "I'm not vegetarian any more.")]) == []


def test_lithium_is_a_caution_for_the_painkillers_that_raise_it():
    """QA pass 45: "Can Daniel take ibuprofen for his headache?", his lithium told, had no
    caution (the NHS's lithium page: ibuprofen and the like raise its level)."""
    from hela_desktop.cautions import cautions, offered

    (c,) = cautions([(3, "My husband Daniel takes lithium for bipolar disorder.")],
                    about={"daniel"})
    assert {"ibuprofen", "naproxen", "aspirin"} <= c.avoid
    ask = "Can Daniel take ibuprofen for his headache?"
    assert offered("Yes, Daniel can take ibuprofen for his headache.", c, ask) == ["ibuprofen"]
    assert _line(ask, "It depends on the headache.", [(3, c.text)], [c]) == (
        "Check this answer: it does not say no to “ibuprofen”, and you told me “My husband "
        "Daniel takes lithium for bipolar disorder.”")


def test_the_messages_own_topic_is_no_offer():
    """QA pass 45b: "…he's really excited about that fish tomorrow." to "Is the fishing trip
    on the 16th?" read "it names “fish” without a word of warning, and you told me “I'm
    vegan.”"; a meal asked for is still one."""
    from hela_desktop.cautions import cautions, offered

    (vegan,) = cautions([(1, "I'm vegan.")])
    assert offered("He's really excited about that fish tomorrow.", vegan,
                   "Is the fishing trip on the 16th?") == []
    assert offered("Grill the fish you catch.", vegan,
                   "Suggest a dinner after the fishing trip.") == ["fish"]
    assert offered("Have the fish.", vegan, "Where shall we eat tonight?") == ["fish"]


def test_eating_it_without_allergy_issues_is_an_offer():
    """QA pass 45: "…you can eat peanut butter sandwiches without allergy issues anymore"
    to "Can Amara eat a peanut butter sandwich?" had no caution line."""
    from hela_desktop.cautions import cautions, offered

    (c,) = cautions([(4, "Our daughter Amara is 7 and allergic to peanuts.")], about={"amara"})
    assert offered("Amara turned 8, so you can eat peanut butter sandwiches without allergy "
                   "issues anymore.", c, "Can Amara eat a peanut butter sandwich?") == ["peanut"]


@pytest.mark.parametrize("faith", ["Islam", "Christianity", "Judaism", "Hinduism", "Buddhism"])
def test_a_faith_is_no_made_up_name(faith):
    """QA pass 45c: "Chidi is a Muslim and lives in Abuja, which means he practices Islam."
    read "“Islam” is in none of the memories it was given"."""
    from hela_desktop.made_up import made_up

    assert made_up(f"Chidi practices {faith}.", "My brother Chidi lives in Abuja.") == []
    assert made_up("Chidi practices Zorblax.", "My brother Chidi lives in Abuja.") == ["Zorblax"]


def test_an_allergy_outgrown_corrects_that_allergy_only():
    """QA pass 45c: "Good news: Amara has outgrown her peanut allergy." was not noted as a
    correction: the allergy stayed current beside it, in "What do you know about me?" too."""
    from hela_desktop import facts
    from hela_desktop.superseded import kept_parts

    ole = "Our grandson Ole is 4 and allergic to eggs."
    assert facts.corrects("Good news: Ole has outgrown his egg allergy.")
    assert facts.corrects_memory(ole, "Good news: Ole has outgrown his egg allergy.")
    assert kept_parts(ole, ["Good news: Ole has outgrown his egg allergy."]) == [
        "Our grandson Ole is 4"]
    assert facts.corrects_memory("I am allergic to peanuts.", "I have outgrown my peanut allergy.")
    # not another's, nor another food
    assert not facts.corrects_memory(ole, "I have outgrown my peanut allergy.")
    assert not facts.corrects_memory("My son Leo is allergic to eggs.",
                                     "Good news: Ole has outgrown his egg allergy.")
    assert not facts.corrects_memory(ole, "Good news: Ole has outgrown his peanut allergy.")


def test_no_alcohol_caution_for_what_a_child_must_avoid_or_no_drink(make_assistant, seed_dir):
    """QA pass 45d: "What is Ole allergic to?" answered "eggs" read "it leaves out what you
    told me: “Ole turned 5 last week.”"."""
    a = make_assistant(seed_dir(AMARA))
    for ask in ("What is Amara allergic to?", "What should Amara avoid?",
                "How is Amara getting on at school?"):
        assert a._under_age(ask, a._asked_about(ask)) == [], ask
    ask = "Is it ok to give Amara some cider?"
    assert [c.episode_id for c in a._under_age(ask, a._asked_about(ask))] == [2]


def test_anothers_relation_dying_is_no_death_of_the_place_before_it():
    """QA pass 45d: "Sofie has moved to Bergen after her husband died in 2014." read "it says
    Bergen died, and you never told me so"."""
    from hela_desktop.made_up import death_untold

    names = {"sofie", "bergen", "ole"}
    assert death_untold("Sofie has moved to Bergen after her husband died in 2014.",
                        "Sofie has moved to Bergen.", names) is None
    assert death_untold("Ole is sad because his grandmother passed away.", "", names) is None
    assert death_untold("Sofie died last year.", "Sofie has moved to Bergen.", names) == {
        "kind": "death_untold", "name": "Sofie"}


def test_what_was_just_corrected_is_not_also_called_newer():
    """QA pass 45d: under "Sofie has swapped Bergen for Stavanger.", "…moved to Bergen… now a
    vet here in Oslo." read "it repeats what you have just corrected — “Sofie has moved to
    Bergen.” Also: it may give older news — “Sofie has moved to Bergen.” is newer"."""
    from hela_desktop.doubt import answer_doubt

    mems = [Recall(episode_id=5, score=1.0, text="Sofie is a vet in Oslo.",
                   extra={"superseded_by": 10}),
            Recall(episode_id=10, score=1.0, text="Sofie has moved to Bergen.")]
    got = answer_doubt("Sofie has swapped Bergen for Stavanger.",
                       "Sofie has moved to Bergen. She's now a vet here in Oslo.", mems, {5, 10},
                       corrected=[(10, "Sofie has moved to Bergen.")])
    kinds = [got["kind"], *(d["kind"] for d in got.get("also", []))]
    assert kinds[0] == "repeats_corrected" and "older" not in kinds


def test_the_reply_to_a_death_told_that_speaks_of_them_as_living_is_marked():
    """QA pass 45b: the reply to "My best friend Magnus died in 2021." had him "celebrating
    his 30th birthday", and only "Olympic" and "30" were marked; words said in their memory
    ("He will always be remembered.") are no life."""
    from hela_desktop.doubt import answer_doubt
    from hela_desktop.sources import doubt_note

    told = "My best friend Magnus died in 2021."

    def line(answer: str) -> str:
        return doubt_note(answer_doubt(told, answer, [], set(), lambda t: {
            w.lower() for w in re.findall(r"[A-Z][a-z]+", t) if w == "Magnus"},
            known="", user_names=frozenset({"magnus"})), [])

    assert line("Magnus is celebrating his birthday with the team today.").startswith(
        "Check this answer: it speaks of Magnus as living, and you told me “My best friend "
        "Magnus died in 2021.”")
    for kind in ("I'm so sorry about Magnus. He will always be remembered.",
                 "Magnus was a wonderful friend, and he will be missed.",
                 "Magnus will be in your heart forever."):
        assert line(kind) == "", kind


def test_a_no_to_a_painkiller_denies_no_medicine_told():
    """QA pass 45e: "No, Omar does not take ibuprofen." read "it says Omar does not take
    ibuprofen, and you told me “My husband Omar takes lithium.”" (once lithium cautioned
    ibuprofen, the food words were set aside and "take" alone was left to deny)."""
    from hela_desktop.says_of import says_not

    told = [(3, "My husband Omar takes lithium.")]
    ask = "Can Omar take ibuprofen for his back?"
    assert says_not("No, Omar does not take ibuprofen.", told, "omar", ask) is None
    assert says_not("Omar does not take lithium.", told, "omar", ask)["memory"] == 3
    # an allergy denied by its food still is ("…no allergies to almond milk", QA pass 42)
    assert says_not("No, Oscar has no allergies to almond milk.",
                    [(1, "Chloe's son Oscar is 4 and he's allergic to tree nuts.")], "oscar",
                    "Can Oscar have almond milk?")["memory"] == 1


def test_a_reply_that_says_the_allergy_is_over_repeats_nothing_corrected():
    """QA pass 45e: the reply "Karim has outgrown his sesame allergy." to that news read "it
    repeats what you have just corrected — “allergic to sesame.”"."""
    from hela_desktop.older_news import repeats_corrected

    old = "Our son Karim is 6 and allergic to sesame."
    news = "Good news: Karim has outgrown his sesame allergy."
    assert not repeats_corrected(news, "Karim has outgrown his sesame allergy.", old)
    assert repeats_corrected(news, "Karim is allergic to sesame, so avoid hummus.", old)
