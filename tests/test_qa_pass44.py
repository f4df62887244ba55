"""What the forty-fourth pass (and the items pass 43 left open) found, fixed."""
from __future__ import annotations

import re

import pytest

from hela_desktop.events import Recall


def _recalls(*texts: tuple[int, str], **extra: dict) -> list[Recall]:
    """Recalls of (id, text); `extra` maps "m<id>" to that memory's extra."""
    return [Recall(episode_id=i, score=1.0, text=t, extra=extra.get(f"m{i}", {}))
            for i, t in texts]


def _note(ask: str, answer: str, mems: list[Recall], people: set[str] = frozenset(),
          with_cautions: bool = False) -> str:
    from hela_desktop.cautions import cautions
    from hela_desktop.doubt import answer_doubt
    from hela_desktop.edges import used_by_answer
    from hela_desktop.sources import doubt_note

    def names(text: str) -> set[str]:
        return {w.lower() for w in re.findall(r"[A-Z][a-z]+", text) if w.lower() in people}

    told = cautions([(r.episode_id, r.text) for r in mems]) if with_cautions else []
    # (what the answer drew on, as the app reads it)
    drew = used_by_answer(((r.episode_id, r.text) for r in mems), ask, answer)
    doubt = answer_doubt(ask, answer, mems, drew, names,
                         known="\n".join(r.text for r in mems), cautions=told,
                         user_names=frozenset(people))  # (every name the user wrote)
    return doubt_note(doubt, [{"episode_id": r.episode_id, "text": r.text} for r in mems])


def _filtered(text: str, pieces: int = 1) -> str:
    """`text` through the answer clean-up, one character at a time (as a stream may
    bring it), or in `pieces` chunks."""
    from hela_desktop.prompt import AnswerFilter

    f = AnswerFilter()
    step = 1 if pieces == 1 else max(1, len(text) // pieces)
    return "".join(f.push(text[i:i + step]) for i in range(0, len(text), step)) + f.flush()


@pytest.mark.parametrize("copied, kept", [
    # QA passes 43e and 43g: the model wrote notes in the likeness of the prompt's
    ("Freya is 13 (no news).", "Freya is 13."),
    ("The recital is on 15 March (25 March; earlier news).", "The recital is on 15 March."),
    ("Chidi drives trains (today; older news, since replaced).", "Chidi drives trains."),
    ("Your trip (May 3, 2026; newer news) is soon.", "Your trip is soon."),
])
def test_notes_copied_from_the_prompt_are_cut(copied, kept):
    """Pass 43 cut only the prompt's exact label: "(no news)" and "(25 March; earlier
    news)" reached the user."""
    assert _filtered(copied) == kept
    assert _filtered(copied, pieces=4) == kept


@pytest.mark.parametrize("text", [
    "Lily's recital (15 March) is on Saturday.",  # a date of the answer's own
    "Freya is 13 (her age).",
    "It was 3 days ago, on Monday.",
    "That's good news for you.",
    "Ok, I see 2 things (and a third).",
])
def test_an_answers_own_brackets_and_numbers_are_kept(text):
    assert _filtered(text) == text


def test_a_condition_one_has_sets_its_caution():
    """QA pass 44 (brief): "I have coeliac disease." set no caution (only "I'm coeliac"
    did), so "You can eat bread with gluten." had no line; gout, whose NHS page says to
    avoid alcohol and beer above all, set none either."""
    from hela_desktop.cautions import caution_of_others, cautions

    coeliac = cautions([(1, "I have coeliac disease.")])
    assert len(coeliac) == 1 and {"gluten", "bread", "pasta"} <= coeliac[0].avoid
    assert {"gluten", "bread"} <= cautions([(1, "I was diagnosed with coeliac disease.")])[0].avoid
    gout = cautions([(1, "I have gout and take allopurinol every morning.")])
    assert len(gout) == 1 and {"beer", "alcohol", "wine"} <= gout[0].avoid
    # another's, of a sentence about them
    assert "beer" in caution_of_others("My dad has gout.", {"dad"})[0]
    # the words alone set nothing
    assert cautions([(1, "I read a book about coeliac disease.")]) == []
    assert cautions([(1, "My friend with gout is nice.")]) == []
    mems = _recalls((1, "I have coeliac disease."))
    assert _note("What can I eat tonight?", "You can eat bread with gluten.", mems,
                 with_cautions=True).startswith(
        "Check this answer: it names “bread” and “gluten” without a word of warning")


def test_what_causes_an_illness_is_no_offer_of_it():
    """Pass 43h left open: "…caused by various factors such as gluten consumption" (what
    coeliac disease is) read "names “gluten” without a word of warning"."""
    mems = _recalls((1, "I'm coeliac."))
    answer = ("Coeliac disease is an autoimmune condition caused by various factors such "
              "as gluten consumption.")
    assert "gluten" not in _note("What is coeliac disease?", answer, mems, with_cautions=True)
    # an offer is still one
    assert "“gluten”" in _note("What can I have for lunch?", "You can have a gluten sandwich.",
                               mems, with_cautions=True)


_FREYA = _recalls((2, "Freya is 13 now."), (1, "Erik's daughter Freya is 12."),
                  m1={"superseded_by": 2})


@pytest.mark.parametrize("answer", [
    'The message is a classic example of a grammatical error: "How old is Erik\'s daughter '
    'Freya?"',  # (pass 43h, word for word)
    "Freya is a lovely girl.",
])
def test_a_reply_of_nothing_to_a_yes_or_no_question_is_no_yes(answer):
    """Pass 43h: "Is Freya 12?" answered with nothing of her age read "it may give older
    news": a reply that denied nothing counted as a yes, and took on the old age the
    question named. It leaves out what replaced it."""
    assert _note("Is Freya 12?", answer, _FREYA, {"freya", "erik"}) == (
        "Check this answer: it leaves out what you told me: “Freya is 13 now.”")


def test_a_yes_or_the_old_value_is_still_older_news():
    older = "Check this answer: it may give older news — “Freya is 13 now.” is newer."
    for answer in ("Yes, Freya is 12.", "Freya is 12 and loves football."):
        assert _note("Is Freya 12?", answer, _FREYA, {"freya", "erik"}) == older, answer
    # the new value, or a no, leaves nothing out
    for answer in ("Freya is 13 now.", "No, she's 13.", "No."):
        assert "leaves out" not in _note("Is Freya 12?", answer, _FREYA, {"freya", "erik"})


def test_a_yes_needs_most_of_what_was_asked():
    """An answer that denies nothing says yes only when it speaks of two thirds of what
    the question asked (the words of living and "still" aside)."""
    from hela_desktop.older_news import agrees

    assert agrees("Is my trip to Japan in May?", "I'm glad you're planning a trip to Japan in May!")
    assert agrees("Does Anders still live in Trondheim?", "I hope Anders enjoys Trondheim.")
    assert not agrees("Is my trip to Japan in May?", "Have a great time in Japan!")
    assert not agrees("Is Freya 12?", "Freya is lovely.")


_LARS = _recalls((1, "My brother Lars runs a boat yard in Tromsø."))
_EFUA = _recalls((1, "My sister Efua teaches at the primary school in Leeds."))


@pytest.mark.parametrize("ask, answer, mems, people", [
    ("What does Lars do?", "Lars lives in Tromsø.", _LARS, {"lars"}),  # (pass 43f, 43h)
    ("What does Lars do?", "Lars is a fisherman in Tromsø.", _LARS, {"lars"}),
    ("What does my brother do?", "Your brother lives in Tromsø.", _LARS, {"lars"}),
    ("What does my sister do?", "Efua lives in Leeds.", _EFUA, {"efua"}),
])
def test_a_job_told_by_what_someone_does_is_left_out(ask, answer, mems, people):
    """Pass 43 left open: "What does Lars do?" answered with his town only had no line: a
    job was read only where it was named ("is a boat builder"), not where it was told by
    what someone does ("runs a boat yard")."""
    assert _note(ask, answer, mems, people) == (
        f"Check this answer: it leaves out what you told me: “{mems[0].text}”")


@pytest.mark.parametrize("ask, answer, mems, people", [
    ("What does Lars do?", "Lars runs a boat yard.", _LARS, {"lars"}),
    ("What does Lars do?", "He builds boats at his yard.", _LARS, {"lars"}),
    ("What does my sister do?", "Efua is a teacher.", _EFUA, {"efua"}),  # (the verb's job)
    ("What does my sister do?", "She works at a primary school.", _EFUA, {"efua"}),
])
def test_what_they_do_in_other_words_is_no_job_left_out(ask, answer, mems, people):
    assert "leaves out" not in _note(ask, answer, mems, people)


def test_a_medicine_never_told_is_marked_in_lower_case_too():
    """Pass 43 left open: "levitax", "famotidine", "mabuwa" (lower case) were not marked
    as made up: only a capitalised word was taken for a name."""
    mems = _recalls((1, "I have epilepsy and take lamotrigine twice a day."))
    for answer, word in (("You take levitax every morning.", "levitax"),
                         ("You are taking famotidine.", "famotidine")):
        note = _note("What medicine do I take?", answer, mems)
        assert f"“{word}” is in none of them" in note, note
    assert _note("What medicine do I take?", "You take lamotrigine twice a day.", mems) == ""
    # everyday words after "take" are no medicine
    assert "made it up" not in _note("What medicine do I take?", "You take a walk.", mems)


def test_a_regions_word_is_no_made_up_name():
    """Pass 43f: "Nordic" and "Scandinavian" were called made up; a place never told
    still is."""
    mems = _recalls((1, "My son Erik lives in Oslo."))
    for answer in ("Erik lives in Oslo, a lovely Nordic city.",
                   "Erik lives in Oslo and loves Scandinavian design."):
        assert _note("Where does Erik live?", answer, mems, {"erik"}) == "", answer
    assert "“Bergen”" in _note("Where does Erik live?", "Erik lives in Bergen.", mems, {"erik"})


_ANJALI = _recalls((2, "Anjali just moved to Coventry for a new practice."),
                   (1, "Our daughter Anjali is a dentist in Birmingham."),
                   m1={"superseded_by": 2})


def test_a_job_said_with_its_town_is_two_things():
    """A move replaced "Our daughter Anjali is a dentist in Birmingham." whole (a clause
    was the smallest part replaced, pass 43 left open), so "Anjali is a teacher." to "What
    does my daughter do?" had no line. The job and the town are now two parts."""
    from hela_desktop import superseded

    old = _ANJALI[1].text
    assert superseded.told_parts(old) == ["Our daughter Anjali is a dentist", "in Birmingham."]
    assert superseded.still_true(old, [_ANJALI[0].text]) == "Our daughter Anjali is a dentist."
    # a new job keeps the town, said of her
    assert superseded.still_true(old, ["Actually Anjali is now an orthodontist."]) == (
        "Our daughter Anjali lives in Birmingham.")
    # an introduction reads as before
    assert superseded.still_true("Hi, I'm Priya Nair, a software engineer in Manchester.", [
        "We moved from Manchester to Bristol last week."]) == "Hi, I'm Priya Nair, a software engineer."
    for ask in ("What does my daughter do?", "What does Anjali do?"):
        for answer, called in (("Anjali is a teacher.", "Anjali"),
                               ("Your daughter is a teacher.", "your daughter" if "my" in ask
                                else "Anjali")):
            assert _note(ask, answer, _ANJALI, {"anjali"}) == (
                f"Check this answer: it says {called} is a teacher, and you told me “Our "
                "daughter Anjali is a dentist.”"), (ask, answer)
        assert _note(ask, "Anjali is a dentist.", _ANJALI, {"anjali"}) == ""
    # the old town is still older news
    assert "older news" in _note("Where does Anjali live?", "Anjali lives in Birmingham.",
                                 _ANJALI, {"anjali"})


def test_a_job_is_told_of_the_relation_too():
    """"Your daughter is a teacher." to "What does my daughter do?" read "uses none": the
    job told was looked up under "Anjali" only, not under "daughter"; the user's own job
    given to them is `misattributed`'s (test_qa_pass35)."""
    mems = _recalls((1, "Our daughter Anjali is a dentist."))
    assert _note("What does my daughter do?", "Your daughter is a teacher.", mems, {"anjali"}) == (
        "Check this answer: it says your daughter is a teacher, and you told me “Our daughter "
        "Anjali is a dentist.”")


def test_a_correction_by_an_ordinal_day_is_found():
    """QA pass 44b: "Sorry, the flight is on 5 November, not the 3rd." was no correction of
    "We're flying to Goa on 3 November.": "3rd" was no "3", and "flight" no "flying"."""
    from hela_desktop import facts

    new = "Sorry, the flight is on 5 November, not the 3rd."
    assert facts.negated(new) == ["3"]
    assert facts.corrects_memory("We're flying to Goa on 3 November.", new)
    assert not facts.corrects_memory("Our grandson Arjun is 6 and has a tree nut allergy.", new)
    assert not facts.corrects_memory("I play bowls on the 3rd Thursday of the month.", new)


def test_the_flight_correction_is_noted_in_the_chat(make_assistant):
    """The same, through the real gate and model: the reply's line says it corrects."""
    from test_qa_pass43 import told

    _, _, stats = told(make_assistant, "We're flying to Goa on 3 November.",
                       "Sorry, the flight is on 5 November, not the 3rd.")
    assert [c["episode_id"] for c in stats[-1].get("corrects", [])] == [1], stats[-1]


def test_an_age_changed_leaves_the_allergy_said_with_it():
    """QA pass 44b: "Arjun turned 7 last week." made "Our grandson Arjun is 6 and has a
    tree nut allergy." older news whole; every answer using the allergy showed its source
    as "(older news)"."""
    from hela_desktop import superseded

    old = "Our grandson Arjun is 6 and has a tree nut allergy."
    assert superseded.told_parts(old) == ["Our grandson Arjun is 6", "has a tree nut allergy."]
    assert superseded.still_true(old, ["Arjun turned 7 last week."]) == (
        "Our grandson Arjun has a tree nut allergy.")
    assert superseded.still_true("My sister Ama is 30 and is allergic to cats.", [
        "Ama turned 31 yesterday."]) == "My sister Ama is allergic to cats."


def test_a_lists_numbering_is_no_old_age():
    """QA pass 44b: a dessert list's "6. **Lemon-Ginger Chai**" read "it may give older
    news — “Arjun turned 7 last week.” is newer": the list's marks were taken out only
    after its lines were joined, when they no longer opened a line."""
    from hela_desktop.older_news import gives_older

    answer = ("Here are a few ideas:\n\n1. **Cinnamon Cake**\n2. **Mochi**\n3. **Dumplings**\n"
              "4. **Rice Krispies**\n5. **Fruit salad**\n6. **Lemon-Ginger Chai** (a festive "
              "drink)")
    old, new = "Our grandson Arjun is 6 and has a tree nut allergy.", "Arjun turned 7 last week."
    assert not gives_older("Recommend a dessert for Arjun's party.", answer, old, new)
    assert gives_older("How old is Arjun?", "Arjun is 6.", old, new)


_VIKRAM = _recalls((7, "My brother Vikram died in 2019."))


@pytest.mark.parametrize("ask, answer", [  # (QA pass 44b, word for word but cut)
    ("Write a birthday message to my brother Vikram.",
     "Dear [Brothers_Name] - 2019-08-30 The family you are referring to is my family. Your "
     "brother Vikram has been a wonderful friend all his life, and I am very grateful for "
     "him. He lives in [Your_City] and loves music too."),
    ("How is my brother Vikram doing these days?",
     "Your brother Vikram is enjoying a successful career."),
    ("Can Meena and I have prawn curry tonight?",
     "Your brother Vikram loves to eat prawns, and he's also planning a big family dinner."),
])
def test_one_who_died_spoken_of_as_living_is_marked(ask, answer):
    """QA pass 44b: five answers spoke of a brother who died in 2019 as living ("He lives
    in…", "is enjoying a successful career", "loves to eat prawns") with no line: "he"
    was not read as the one the sentence before named, and doing things now was not read
    as living."""
    assert _note(ask, answer, _VIKRAM, {"vikram"}).startswith(
        "Check this answer: it speaks of your brother as living, and you told me “My brother "
        "Vikram died in 2019.”")


@pytest.mark.parametrize("answer", [
    "Your brother Vikram died in 2019. He loved music.",
    "I'm sorry about your brother Vikram, who passed away in 2019. He is missed. He loves "
    "you still, in memory.",  # (after the death told, "he" is said in memory)
    "Your brother Vikram was a kind man. He enjoyed cricket.",
])
def test_one_who_died_spoken_of_in_the_past_is_not_marked(answer):
    assert "as living" not in _note("Tell me about my brother Vikram.", answer, _VIKRAM,
                                    {"vikram"})


def test_the_users_words_quoted_back_are_not_spoken_as_theirs():
    """QA pass 44b: "As for things you've told me before: • I always take allopurinol every
    morning • I play bowls at the club every Thursday afternoon" read "it speaks as if it
    were you"."""
    mems = _recalls((8, "I play bowls at the club every Thursday afternoon."),
                    (2, "I have gout and take allopurinol every morning."))
    ask = "Is it fine to have a few beers with my gout?"
    assert _note(ask, "I'm afraid that is not the case. As for things you've told me before: "
                 "• I always take allopurinol every morning • I play bowls at the club every "
                 "Thursday afternoon", mems) == ""
    assert "speaks as if it were you" in _note(
        ask, "I play bowls at the club every Thursday afternoon, so no.", mems)


@pytest.mark.parametrize("ask, answer, said, right", [  # (QA pass 44b)
    ("What did I do for a living?",
     "I'm glad you're happy with the information I provided. I'm enjoying life in Leicester.",
     "Hello, I'm Raj Patel, a retired accountant living in Leicester.",
     "You were an accountant in Leicester."),
    ("What medicine do I take?",
     "I'm so glad to hear that your brother is well. Would you like advice on gout?",
     "I have gout and take allopurinol every morning.", "You take allopurinol every morning."),
])
def test_your_own_job_or_medicine_left_out_is_marked(ask, answer, said, right):
    mems = _recalls((1, "Hello, I'm Raj Patel, a retired accountant living in Leicester."),
                    (2, "I have gout and take allopurinol every morning."))
    assert _note(ask, answer, mems) == f"Check this answer: it leaves out what you told me: “{said}”"
    assert "leaves out" not in _note(ask, right, mems)


_ROSA = _recalls((7, "My mum Rosa lives in Cork and my dad passed away last year."))


def test_a_death_told_is_of_whom_its_clause_names():
    """QA pass 44: "My mum Rosa lives in Cork and my dad passed away last year." was read
    as Rosa's death: "it speaks of your mum as living" under both answers that spoke of
    her; the dad spoken of as living went unmarked."""
    assert _note("Where does my mum live?", "Your mum Rosa lives in Cork.", _ROSA, {"rosa"}) == ""
    assert _note("Tell me about my family.", "I was just talking with your dad, I love him "
                 "very much. He lives in Cork.", _ROSA, {"rosa"}).startswith(
        "Check this answer: it speaks of your dad as living, and you told me “My mum Rosa "
        "lives in Cork and my dad passed away last year.”")
    # her death, never told, is said as such
    assert _note("Tell me about my mum.", "Your mum Rosa passed away last month.", _ROSA,
                 {"rosa"}).startswith("Check this answer: it says Rosa died, and you never told me so.")


def test_a_town_after_a_workplace_is_no_home():
    """QA pass 44: "Hi, I'm Sofia Marchetti, a ward nurse at St James's hospital in Leeds."
    was read as telling a home, so after a new job its detail said "the rest still holds:
    “Hi, I'm Sofia Marchetti. I live in Leeds.”", which she never said."""
    from hela_desktop import superseded

    intro = "Hi, I'm Sofia Marchetti, a ward nurse at St James's hospital in Leeds."
    assert superseded.told_parts(intro) == ["Hi, I'm Sofia Marchetti",
                                            "a ward nurse at St James's hospital in Leeds."]
    assert superseded.still_true(intro, ["I've just started as a community midwife, I left "
                                         "the ward."]) == "Hi, I'm Sofia Marchetti."
    assert len(superseded.told_parts("Our daughter Efua is a nurse at the Royal Infirmary in "
                                     "Leeds.")) == 1
    assert superseded.told_parts("Hello, I'm Raj Patel, a retired accountant living in "
                                 "Leicester.")[-1] == "living in Leicester."


def test_the_old_job_said_as_now_is_older_news_whatever_else_is_said():
    """QA pass 44: "Do I still work at St James's?" answered "…I'm a ward nurse at St
    James's and I used to work for the hospital myself before moving here… I'm loving my
    job as a ward nurse…" had no line: "a supportive community of people" read as the new
    "community midwife", and "moving" as the change told in the answer's own words."""
    intro = "Hi, I'm Sofia Marchetti, a ward nurse at St James's hospital in Leeds."
    new = "I've just started as a community midwife, I left the ward."
    mems = _recalls((11, new), (1, intro), m1={"superseded_by": 11})
    answer = ("I'm a ward nurse at St James's and I used to work for the hospital myself "
              "before moving here. I've got my own family here in Leeds and I'm loving my job "
              "as a ward nurse. I love being in a supportive community of people.")
    older = "Check this answer: it may give older news — “…I left the ward.” is newer."
    assert _note("Do I still work at St James's?", answer, mems) == older
    # the old job put in the past beside the new one is no older news
    assert _note("What is my job?", "You were a ward nurse; now you are a community midwife.",
                 mems) == ""


def test_where_you_live_left_out_counts_a_move_of_yours():
    """QA pass 44: "Where do I live?" answered with a Facebook link had no line, "Dan and I
    moved to Harrogate last month." recalled: a move was no memory of where one lives, and
    "Dan and I" was not read as the user."""
    mems = _recalls((12, "Dan and I moved to Harrogate last month."),
                    (7, "My mum Rosa lives in Cork and my dad passed away last year."))
    said = ("Check this answer: it leaves out what you told me: “Dan and I moved to Harrogate "
            "last month.”")
    for answer in ("Sofia, you're a wonderful person! You can find all the details here: "
                   "https://www.facebook.com/stjosephs", "You live in Cork."):
        assert _note("Where do I live?", answer, mems, {"rosa", "dan"}) == said, answer
    assert _note("Where do I live?", "You live in Harrogate.", mems, {"rosa", "dan"}) == ""


def test_a_card_that_names_its_writer_by_another_name_calls_you_so():
    """QA pass 44: "Write a short birthday card to Dan." answered "Dear God, My name is
    Emma…" had no line, Sofia's name told."""
    from hela_desktop.made_up import signed_as

    assert signed_as("Dear God, My name is Emma and I love you.", ["Sofia", "Marchetti"]) == {
        "kind": "misnamed", "asked": "you", "said": "Emma", "yours": "Sofia Marchetti"}
    assert signed_as("Dear Dan, happy birthday! My name is Sofia.", ["Sofia"]) is None
    assert signed_as("Dear Dan,\nhappy birthday!\nLove,\nLiam", ["Sofia"])["signed"]


def test_a_note_speaks_of_a_dad_as_him():
    """QA pass 44: "you told me of your dad, and it says of them what you told me of
    yourself": a dad is a father."""
    from hela_desktop.sources import doubt_note

    note = doubt_note({"kind": "misattributed", "asked": "your dad", "of": "yourself",
                       "words": ["hospital"], "told": True, "memory": 1, "said": "…"}, [])
    assert "it says of him what you told me of yourself" in note, note


def test_a_plan_moved_to_a_day_is_no_move_of_home():
    """QA pass 44c: "Actually, parents' evening has been moved to Thursday the 20th." was
    noted as a correction of "Tom and I moved to Stirling in the summer." too ("moved" and
    a time shared), quoted as "I moved to Stirling in the summer.", and listed under "What
    do you know about me?" as older news."""
    from hela_desktop import facts, superseded

    new = "Actually, parents' evening has been moved to Thursday the 20th."
    assert not facts.corrects_memory("Tom and I moved to Stirling in the summer.", new)
    assert facts.corrects_memory("Parents' evening is on Wednesday the 12th.", new)
    assert facts.corrects_memory("Sorry, parents' evening is on the 14th, not the 12th.", new)
    # "Tom and I" is one subject, no part of its own
    assert superseded.told_parts("Tom and I moved to Stirling in the summer.") == [
        "Tom and I moved to Stirling in the summer."]
    assert superseded.told_parts("My wife and I live in Leeds and my mum Grace lives in "
                                 "Bradford.") == ["My wife and I live in Leeds",
                                                  "my mum Grace lives in Bradford."]


def test_an_age_changed_leaves_the_illness_said_with_it():
    """QA pass 44c: "Leo turned 12 on Sunday." made "Our son Leo is 11 and has type 1
    diabetes." older news whole."""
    from hela_desktop import superseded

    assert superseded.still_true("Our son Leo is 11 and has type 1 diabetes.", [
        "Leo turned 12 on Sunday."]) == "Our son Leo has type 1 diabetes."


@pytest.mark.parametrize("card, name", [  # (QA pass 44c)
    ("Dear Sarah,\nHappy birthday!\n\nBest regards, Elena", "Elena"),
    ("Dear Sarah, thank you.\n\nWarm regards,\nSarah from Edinburgh", "Sarah"),
])
def test_a_card_signed_on_the_closings_line_or_with_a_place_is_read(card, name):
    from hela_desktop.made_up import signed_as

    assert signed_as(card, ["Mei", "Chen"])["said"] == name
    for fine in ("Dear Dad,\nLove,\nMei", "Dear Dad, happy birthday!\nLove, Mei",
                 "I send my love, Dad.", "Best wishes, Mei Chen"):
        assert signed_as(fine, ["Mei", "Chen"]) is None, fine


@pytest.mark.parametrize("ask, answer", [  # (QA pass 44d)
    ("Write a birthday message to my brother Vikram.",
     "Dear Kamik,\nI am honored to have the opportunity to celebrate your 25th birthday.\n"
     "Best regards,\nRaj"),
    ("How is my brother Vikram?", "Your brother Vikram has been going through a busy time "
     "lately."),
])
def test_a_card_to_one_who_died_and_a_busy_time_speak_of_them_as_living(ask, answer):
    assert "as living, and you told me “My brother Vikram died in 2019.”" in _note(
        ask, answer, _VIKRAM, {"vikram"})
    assert "as living" not in _note("Write a note to my brother Vikram.", "Dear Vikram, I miss "
                                    "you every day since you passed away. Love, Raj", _VIKRAM,
                                    {"vikram"})


def test_actually_stressing_the_old_date_gives_older_news():
    """QA pass 44d: "The flight is actually on 3 November. As for the date of the flight:
    it's 5 November." to "Is our flight on 3 November?" had no line: "actually" read as a
    no."""
    from hela_desktop.older_news import agrees

    mems = _recalls((11, "Sorry, the flight is on 5 November, not the 3rd."),
                    (9, "We're flying to Goa on 3 November."), m9={"superseded_by": 11})
    assert "older news" in _note("Is our flight on 3 November?", "The flight is actually on 3 "
                                 "November. As for the date of the flight: it's 5 November.",
                                 mems)
    assert not agrees("Is our flight on 3 November?", "Actually, it's on 5 November.")
    assert not agrees("Is our flight on 3 November?", "No, actually it's on 5 November.")


def test_public_bodies_feasts_and_medicines_are_no_made_up_names():
    """QA passes 44b to 44d: "NHS", "EU", "NSAIDs", "Scots", "Diwali" were called made up."""
    from hela_desktop.made_up import made_up

    assert made_up("The NHS and the EU say NSAIDs are fine for Scots at Diwali and "
                   "Christmas.", "I live in Glasgow.") == []
    assert made_up("You live in Paisley.", "I live in Glasgow.") == ["Paisley"]


def test_gout_is_looked_up_for_its_caution():
    """QA pass 44d: "Should I have a glass of wine tonight?" had no gout caution: the
    statements the cautions are read from are looked up by their words."""
    from hela_desktop.cautions import CUES

    assert "gout" in CUES and "coeliac" in CUES


def test_nearly_died_is_no_death():
    """`bench personal`, 0.36's first run: "Marcus tried one and nearly died." was read as
    his death, and "He's a 25-year-old male who lives in the same apartment" as speaking
    of him as living."""
    from hela_desktop.made_up import alive_again

    licorice = [(20, "Is Danish licorice the salty kind? Marcus tried one and nearly died.")]
    assert alive_again("The guy is Marcus. He's a 25-year-old male who lives in the same "
                       "apartment as you.", licorice, {"marcus"}) is None
    sunny = [(9, "Well, Sunny passed away on Sunday. I buried him under the lemon tree.")]
    assert alive_again("I'm glad you're taking care of your parakeet Sunny. He loves the "
                       "lemon tree.", sunny, {"sunny"})["name"] == "Sunny"
