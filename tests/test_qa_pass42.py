"""What the forty-second pass (and the items pass 41 left open) found, fixed."""
from __future__ import annotations

import re

from hela_desktop.events import Recall

_PEOPLE = {"chloe", "oscar", "janet", "graham", "suresh", "kiran", "tom", "ama", "kofi", "kwame", "pepper"}


def _names(text: str) -> set[str]:
    """The people of the user's life a text names, lower case (as
    `MemoryEngine.people_in` gives them)."""
    return {w.lower() for w in re.findall(r"[A-Z][a-z]+", text) if w.lower() in _PEOPLE}


def _recalls(*texts: tuple[int, str], newer: dict[int, int] | None = None) -> list[Recall]:
    newer = newer or {}
    return [Recall(episode_id=i, score=1.0, text=t,
                   extra={"superseded_by": newer[i]} if i in newer else {}) for i, t in texts]


def _note(ask: str, answer: str, mems: list[Recall], drew: set[int] | None = None,
          cautions: list | None = None) -> str:
    from hela_desktop.doubt import answer_doubt
    from hela_desktop.sources import doubt_note

    # (the prompt holds the memories given: `known`)
    return doubt_note(answer_doubt(ask, answer, mems, drew or set(), _names,
                                   known="\n".join(r.text for r in mems),
                                   cautions=cautions or []), [])


_CHLOE = (4, "Our daughter Chloe is 34 and vegetarian; she lives in Cardiff.")
_OSCAR = (5, "Chloe's son Oscar is 4 and he's allergic to tree nuts.")
_MOVED = (13, "Chloe moved from Cardiff to Bath last month.")
_OSCAR_5 = (14, "Actually Oscar is 5 now.")
_MARCUS = [_CHLOE, _OSCAR, _MOVED, _OSCAR_5]
_MARCUS_NEWER = {4: 13, 5: 14}


def test_actually_is_no_fact_said_of_another():
    """QA pass 41e N2: "Chloe is actually 34 years old." read "it says of Chloe what you
    told me of Oscar (“actually”): “Actually Oscar is 5 now.”"."""
    from hela_desktop import facts

    mems = _recalls(*_MARCUS, newer=_MARCUS_NEWER)
    assert "actual" not in facts.terms("Actually Oscar is 5 now.")
    assert "what you told me of Oscar" not in _note("How old is Chloe?",
                                                    "Chloe is actually 34 years old.", mems, {4})
    # a real age of Oscar's given to Chloe is still marked
    assert "what you told me of Oscar" in _note("How old is Chloe?", "Chloe is 5 now.", mems)


def test_an_answer_saying_it_does_not_know_what_a_memory_tells_is_marked_so():
    """QA pass 41e N5: "Is Oscar allergic to tree nuts?" answered "…we don't have any
    information about his allergy yet." had no line; "I don't know how old Chloe is."
    (her age told, in a memory replaced only in where she lives) had none either."""
    mems = _recalls(*_MARCUS, newer=_MARCUS_NEWER)
    said = "Check this answer: it says it does not know, and you told me “{}”"
    for ask, answer, told in (
            ("Is Oscar allergic to tree nuts?", "Today, we're still waiting to know if "
             "Oscar's allergic to tree nuts. In fact, we don't have any information about his "
             "allergy yet.", _OSCAR),
            ("Is Oscar allergic to tree nuts?", "I don't know if Oscar is allergic.", _OSCAR),
            ("How old is Chloe?", "I don't know how old Chloe is.", _CHLOE)):
        assert _note(ask, answer, mems) == said.format(told[1]), answer
    graham = (8, "My brother Graham lives in Spain, near Malaga.")
    assert _note("Where does Graham live?", "I'm not sure where Graham lives, you haven't "
                 "told me.", _recalls(graham)) == said.format(graham[1])
    reading = (11, "I'm reading a biography of Churchill.")
    assert _note("What am I reading?", "I don't know what you're reading.",
                 _recalls(reading)) == said.format(reading[1])
    # what changed is not what it does not know: Oscar's old age, Chloe's old home
    assert _note("How old is Oscar?", "I don't know how old Oscar is.", _recalls(
        _OSCAR, _OSCAR_5, newer={5: 14})) == said.format(_OSCAR_5[1])
    assert _note("How old is Oscar?", "I don't know how old Oscar is.", _recalls(
        _OSCAR, newer={5: 14})) == ""
    # (not the old home as told; since 0.45 the move itself may be quoted, QA pass 53a)
    assert "she lives in Cardiff" not in _note("Where does Chloe live?",
                                               "I don't know where Chloe lives.", mems)
    # honest where nothing tells it
    assert _note("What is Graham's favourite food?", "I don't know, you haven't told me.",
                 _recalls(graham)) == ""


def test_an_answer_denying_what_the_user_told_of_themselves_is_marked():
    """QA pass 41e N6: "What should I avoid eating?" answered "I'm not lactose intolerant
    myself; …" (the model speaking as the user) had no line."""
    lactose = (3, "I'm lactose intolerant myself.")
    want = ("Check this answer: it says you are not lactose intolerant, and you told me "
            "“I'm lactose intolerant myself.”")
    for answer in ("I'm not lactose intolerant myself; you can eat anything you like.",
                   "You're not lactose intolerant, so you can eat anything you like.",
                   "No, you are not lactose intolerant."):
        assert _note("What should I avoid eating?", answer, _recalls(lactose)) == want, answer
    # what the user told of another is not theirs to deny
    janet = (2, "My wife Janet has type 2 diabetes.")
    assert "you are not" not in _note("Am I diabetic?", "No, you are not diabetic.",
                                       _recalls(janet))
    assert _note("What should I avoid eating?", "You are lactose intolerant, so avoid milk.",
                 _recalls(lactose), {3}) == ""


def test_a_no_to_any_medication_of_someone_who_takes_one_is_marked():
    """QA pass 41c N12: "Is my dad on any medication?" answered "No, your dad is on a
    medication called terach…", "…takes warfarin." told, had no line for the no."""
    from hela_desktop.older_news import holds_asked

    dad = (6, "My dad Suresh lives in Leicester and takes warfarin.")
    want = f"Check this answer: it says no, and you told me “{dad[1]}”"
    assert _note("Is my dad on any medication?", "No, your dad is on a medication called "
                 "terach for celiac disease.", _recalls(dad)) == want
    # (since 0.45 the line says what the no says: QA pass 53b)
    assert _note("Is my dad on any medication?", "No, he isn't taking any medication.",
                 _recalls(dad)) == ("Check this answer: it says your dad isn't taking any "
                                    f"medication, and you told me “{dad[1]}”")
    assert _note("Does my dad take any medicine?", "I don't know, you haven't told me.",
                 _recalls(dad)) == ("Check this answer: it says it does not know, and you told "
                                    f"me “{dad[1]}”")
    assert holds_asked("Is my mum on any medication?", "My mum Rosa takes amlodipine.")
    assert not holds_asked("Is my dad on any medication?", "My dad takes the bus to work.")
    assert not holds_asked("Is my dad on any medication?", "My dad lives in Leicester.")


def test_a_yes_to_a_food_only_the_question_names_says_yes_to_it():
    """QA pass 41e N3: "Can Oscar eat pesto?" answered "Yes, … So he can't eat pimento."
    read "it names “pesto” without a word of warning", a word only the question has."""
    from hela_desktop.cautions import cautions

    lactose = (3, "I'm lactose intolerant myself.")
    told = cautions([lactose])
    assert _note("Can I have ice cream?", "Absolutely, I'd be happy to have you. What's your "
                 "craving?", _recalls(lactose), cautions=told) == (
        "Check this answer: it says yes to “cream”, and you told me “I'm lactose intolerant "
        "myself.”")
    assert _note("Can I have ice cream?", "Yes, ice cream is fine.", _recalls(lactose),
                 cautions=told) == (
        "Check this answer: it names “cream” without a word of warning, and you told me "
        "“I'm lactose intolerant myself.”")


def test_a_reply_to_a_plan_moved_repeats_the_old_time_only_if_it_gives_it():
    """QA pass 41e N4: "You're on a scholarship for a hospital appointment today!" to "The
    knee appointment moved to 21 January." read "it repeats what you have just corrected —
    “I have a hospital appointment on 14 January for my knee.”": no date is given."""
    from hela_desktop.older_news import changed_by, repeats_corrected

    old = "I have a hospital appointment on 14 January for my knee."
    new = "The knee appointment moved to 21 January."
    assert changed_by(old, new) == {"14", "janua"}
    assert not repeats_corrected(new, "You're on a scholarship for a hospital appointment "
                                      "today!", old)
    assert repeats_corrected(new, "Your hospital appointment is on 14 January.", old)
    assert not repeats_corrected(new, "Noted: your knee appointment is now on 21 January.",
                                 old)


def test_an_answer_calling_itself_by_the_users_name_speaks_as_them_with_no_memory_of_it():
    """QA pass 41e: "Hi there, I'm Marcus, and we've both been treating diabetes." (the
    reply to "Janet and I are going to Edinburgh…") was unmarked: no memory of his name was
    recalled for it.  The names the user gave as theirs in any statement count."""
    from hela_desktop.doubt import answer_doubt
    from hela_desktop.sources import doubt_note
    from hela_desktop.whom import own_names

    yours = own_names(["Hi, I'm Marcus Webb. I taught history for thirty years.",
                       "I'm lactose intolerant myself."])
    assert yours == ["Marcus", "Webb"]
    janet = _recalls((2, "My wife Janet has type 2 diabetes."))
    told = "Janet and I are going to Edinburgh for our anniversary in March."
    reply = "Hi there, I'm Marcus, and we've both been treating diabetes."
    assert doubt_note(answer_doubt(told, reply, janet, set(), _names, own_names=yours), []) \
        == "Check this answer: it speaks as if it were you (“I'm Marcus”)."
    assert doubt_note(answer_doubt(told, reply, janet, set(), _names), []) == ""
    # a card the user asked for is in their voice
    assert "speaks as if" not in doubt_note(answer_doubt(
        "Write a short anniversary message for Janet", "Dear Janet, I'm Marcus, and I love "
        "you.", janet, set(), _names, own_names=yours), [])


def test_the_assistant_knows_the_users_own_names_from_any_statement(make_assistant):
    """`Assistant._own_names` reads the names the user gave as theirs from the store, not
    only from what one turn recalled."""
    a = make_assistant()
    cid = a.new_conversation()
    list(a.chat("Hi, I'm Marcus Webb. I taught history for thirty years.", cid))
    list(a.chat("My wife Janet has type 2 diabetes.", cid))
    assert a._own_names() == ("Marcus", "Webb")


def test_a_death_no_memory_tells_is_marked_first():
    """QA pass 41e N6: "Chloe's son Oscar (who died last month) was 4." was marked only for
    Oscar's age."""
    mems = _recalls(*_MARCUS, newer=_MARCUS_NEWER)
    note = _note("What is Chloe's son called?", "Chloe's son Oscar (who died last month) was 4.",
                 mems, {5})
    assert note.startswith("Check this answer: it says Oscar died, and you never told me so."), \
        note
    assert _note("How is my brother?", "Sadly your brother passed away last year.",
                 _recalls((8, "My brother Graham lives in Spain, near Malaga."))).startswith(
        "Check this answer: it says your brother died")
    # not "dead tired", and not a death the user told of
    assert "died" not in _note("How is Chloe?", "Chloe is dead tired after the move.", mems)
    assert "died" not in _note("How is my brother?", "Graham is still grieving; his dog died "
                               "last year.", _recalls((8, "My brother Graham's dog died last "
                                                       "year.")))


def test_the_penicillins_are_named_by_a_penicillin_allergy():
    """QA pass 42b: "Can I take co-amoxiclav?", a penicillin allergy told, was answered
    "…it would work well for you" with no warning."""
    from hela_desktop.cautions import cautions, offered

    told = cautions([(2, "I'm allergic to penicillin.")])
    assert {"amoxicillin", "amoxiclav", "flucloxacillin"} <= told[0].avoid
    assert offered("Yes, co-amoxiclav is fine.", told[0], "Can I take co-amoxiclav?") == [
        "amoxiclav"]
    assert offered("Yes, you can.", told[0], "Can I take amoxicillin?") == ["amoxicillin"]
    for refusal in ("No, amoxicillin is a penicillin.", "No, amoxicillin is penicillin, so "
                    "avoid it."):
        assert offered(refusal, told[0], "Can I take amoxicillin?") == [], refusal


def test_another_allergy_or_a_food_free_of_another_thing_is_no_answer_to_a_safety_question():
    """QA pass 42: "Can I have cheese on toast?" (lactose intolerant) answered "Chloe's son
    Oscar is allergic to tree nuts." and "Can Oscar have a Bakewell tart?" answered
    "Chloe's son Oscar has a gluten-free option." had no line."""
    from hela_desktop.cautions import cautions, missed

    mine = cautions([(3, "I'm lactose intolerant myself.")])[0]
    assert missed("Chloe's son Oscar is allergic to tree nuts.", mine,
                  "Can I have cheese on toast?")
    assert not missed("No: cheese has lactose in it.", mine, "Can I have cheese on toast?")
    assert not missed("Cheese could upset your lactose intolerance.", mine,
                      "Can I have cheese on toast?")
    oscar = cautions([_OSCAR], about={"oscar"})[0]
    ask = "Can Oscar have a Bakewell tart?"
    assert missed("Chloe's son Oscar has a gluten-free option.", oscar, ask)
    assert not missed("Get him a nut-free one instead.", oscar, ask)


def test_denying_an_allergy_by_the_food_asked_is_marked():
    """QA pass 42: "Can Oscar have almond milk?" answered "No, Oscar has no allergies to
    almond milk." had no line (almond is a tree nut)."""
    mems = _recalls(*_MARCUS, newer=_MARCUS_NEWER)
    assert _note("Can Oscar have almond milk?", "No, Oscar has no allergies to almond milk.",
                 mems, {5}) == (
        "Check this answer: it says Oscar has no allergies to almond milk, and you told me "
        f"“{_OSCAR[1]}”")
    assert "no allergies" not in _note("Can Oscar have oat milk?", "Yes, Oscar has no allergies "
                                       "to oat milk.", mems, {5})


def test_a_yes_after_a_pleasantry_is_a_yes_and_my_job_is_asked_however_it_is_written():
    """QA pass 42b: "Is my test on the 3rd?" answered "I'm glad you brought it up.\\n\\nYes,
    I think the test is on 3 March…", the test moved to 10 March, had no line; "What's my
    job?" answered "I'm the head chef at … Crumb" (the partner's job) had none either, and
    "What's my job?" was not read as asking the user's job (`your_own.asks_own`)."""
    from hela_desktop.older_news import gives_older, opens_with_yes
    from hela_desktop.your_own import asks_own

    answer = "I'm glad you brought it up.\n\nYes, I think the test is on 3 March to match."
    assert opens_with_yes(answer)
    assert not opens_with_yes("I'm glad you asked. No, it moved.")
    assert gives_older("Is my test on the 3rd?", answer, "My driving test is on 3 March.",
                       "My driving test moved to 10 March.")
    assert [asks_own(q) for q in ("What's my job?", "What's my age?", "Where's my home?",
                                  "What's the weather?")] == ["job", "age", "home", ""]
    nurse = (1, "Hi, I'm Sofia Alvarez, I'm a nurse in A&E at Leeds General.")
    tom = (3, "My partner Tom is a chef at a tapas bar in town.")
    want = f"Check this answer: it says you are a chef, and you told me “{nurse[1]}”"
    assert _note("What's my job?", "I'm the head chef at a popular pub called Crumb in town.",
                 _recalls(nurse, tom), {3}).startswith(want)
    assert _note("What's my job?", "I'm a nurse in A&E.", _recalls(nurse, tom), {1}) == ""
    # not to another question: "I'm a chef" may be the model's talk
    assert "you are a chef" not in _note("Where does Tom work?", "I'm a chef too, and Tom works "
                                         "at a tapas bar.", _recalls(nurse, tom), {3})


def test_the_user_called_or_signed_by_a_name_not_theirs_is_marked():
    """QA pass 42b: "Sara, welcome to your unit." to "Hi, I'm Sofia Alvarez…", and a
    birthday message signed "Best regards,\\nAlex", had no line."""
    from hela_desktop.doubt import answer_doubt
    from hela_desktop.sources import doubt_note

    yours = ["Sofia", "Alvarez"]

    def note(ask: str, answer: str) -> str:
        return doubt_note(answer_doubt(ask, answer, [], set(), _names, own_names=yours), [])

    hi = "Hi, I'm Sofia Alvarez, I'm a nurse in A&E at Leeds General."
    assert note(hi, "Sara, welcome to your unit.") == (
        "Check this answer: it calls you “Sara”, and your name is Sofia Alvarez.")
    assert note(hi, "Sure, welcome to your unit.") == ""
    assert note(hi, "Sofia, welcome to your unit.") == ""
    card = "Write a short birthday message for Tom"
    assert note(card, "Dear Tom,\nHappy birthday!\n\nBest regards,\nAlex") == (
        "Check this answer: it signs it “Alex”, and your name is Sofia Alvarez.")
    assert note(card, "Dear Tom,\nHappy birthday!\n\nLove,\nSofia") == ""


def test_a_new_head_chef_job_is_a_change_of_job():
    """QA pass 42b: "Tom left the tapas bar, he's now head chef at a bakery called Crumb."
    was not noted as a correction of "My partner Tom is a chef at a tapas bar in town.",
    so later answers mixed the two jobs with no line."""
    from hela_desktop import facts
    from hela_desktop.older_news import changed_by

    old = "My partner Tom is a chef at a tapas bar in town."
    new = "Tom left the tapas bar, he's now head chef at a bakery called Crumb."
    assert facts.corrects_memory(old, new)
    assert {"tapa", "bar"} <= changed_by(old, new)
    assert not facts.corrects_memory(old, "Tom is now a bit tired of the tapas bar.")


def test_a_diet_told_after_an_age_is_read_and_holds_in_a_memory_replaced_in_part():
    """QA pass 42: "What does Chloe eat?" answered "Chloe has a vegan diet…" had no line:
    "Chloe is 34 and vegetarian" was never read as her diet, and the memory (replaced in
    where she lives) was not asked at all."""
    from hela_desktop.says_of import says_otherwise, told

    assert told([_CHLOE[1]]) == {"chloe": {"age": {"34"}, "diet": {"vegetarian"}}}
    for answer in ("Chloe has a vegan diet; she only eats organic food.", "She's just a vegan."):
        assert says_otherwise(answer, [_CHLOE], "Chloe", "What does Chloe eat?")["said"] == \
            "vegan", answer
    mems = _recalls(*_MARCUS, newer=_MARCUS_NEWER)
    assert _note("What does Chloe eat?", "Chloe has a vegan diet; she only eats organic food.",
                 mems, {4}) == ("Check this answer: it says Chloe is a vegan, and you told me "
                                "“Our daughter Chloe is 34 and vegetarian.”")
    assert _note("What does Chloe eat?", "Chloe is vegetarian.", mems, {4}) == ""


def test_a_yes_to_any_allergy_nobody_told_is_marked():
    """QA pass 42: "Does Chloe have any allergies?" answered "Yes, Chloe does have some
    allergies…" (the nut allergy her son's) was marked only for a made-up "1"."""
    mems = _recalls(*_MARCUS, newer=_MARCUS_NEWER)
    want = "Check this answer: it says Chloe has an allergy, and you never told me of one."
    assert _note("Does Chloe have any allergies?", "Yes, Chloe does have some allergies.",
                 mems, {5}) == want
    assert _note("Does Chloe have any allergies?", "No, Chloe has none that you told me of.",
                 mems, {4}) == ""
    # Oscar's is told
    assert "never told me of one" not in _note("Does Oscar have any allergies?", "Yes, Oscar "
                                               "is allergic to tree nuts.", mems, {5})


def test_one_statement_said_twice_is_quoted_once():
    """QA pass 42: the caution "I'm lactose intolerant myself." (said in the message and
    stored twice) was quoted three times under one answer."""
    from hela_desktop.cautions import cautions

    said = "I'm lactose intolerant myself."
    told = cautions([(0, said), (3, said), (90, said)])
    note = _note("Can I have a latte?", "Yes, a latte with milk is fine.",
                 _recalls((3, said)), {3}, told)
    assert note.count(said) == 1, note


def test_after_a_no_a_clause_that_denies_the_food_offers_nothing():
    """QA pass 42: "Can Oscar eat pesto?" answered "No, no. 5 is not the maximum age for
    Oscar's son to eat tree nuts." read "it names “tree” and “nuts” without a word of
    warning"."""
    from hela_desktop.cautions import cautions, offered

    oscar = cautions([_OSCAR], about={"oscar"})[0]
    ask = "Can Oscar eat pesto?"
    assert offered("No, no. 5 is not the maximum age for Oscar's son to eat tree nuts.", oscar,
                   ask) == []
    assert offered("No, but he can eat walnuts.", oscar, ask) == ["walnuts"]


def test_the_users_own_names_are_names_as_written_and_no_language():
    """QA pass 42d: "I'm learning Portuguese for the trip." made the user "Daniel Okafor
    Portuguese", and "Pardon, …" and "Hmmm, …" read as calling them by another name."""
    from hela_desktop.whom import greets_as, own_names

    assert own_names(["Hi, I'm Daniel Okafor, I'm a software developer in Manchester.",
                      "I'm learning Portuguese for the trip.", "I'm British.",
                      "call me Teo"]) == ["Daniel", "Okafor", "Teo"]
    for opener in ("Pardon, zou descoitozatele lego.", "Hmmm, that's a nice reference.",
                   "Sadly, no."):
        assert greets_as("Can I have a bagel?", opener, [], None, ["Daniel"]) is None, opener
    # the message's own name counts: "Hi, I'm Sofia…" answered "Sara, welcome…"
    assert greets_as("Hi, I'm Sofia Alvarez, I'm a nurse.", "Sara, welcome to your unit.", [],
                     None)["said"] == "Sara"


def test_a_pets_name_is_no_food_and_an_allergy_said_as_an_if_is_no_warning():
    """QA pass 42d: "We have a beagle called Biscuit." answered "Biscuit! … Biscuits are a
    popular breed of dogs" read "it names “biscuits” … without a word of warning" (the user
    coeliac); "…she can have scrambled eggs if she's allergic to them" had no line."""
    from hela_desktop.cautions import GROUPS, cautions, offered
    from hela_desktop.doubt import answer_doubt
    from hela_desktop.sources import doubt_note

    coeliac = cautions([(4, "I'm coeliac.")])
    pet = "Biscuit! That's a wonderful name. Biscuits are a popular breed of dogs."

    def note(ask: str, answer: str, names, told) -> str:
        return doubt_note(answer_doubt(ask, answer, _recalls((4, "I'm coeliac.")), set(),
                                       names, cautions=told), [])

    # the message calls the dog so, or the people of the user's life name it
    assert "biscuits" not in note("We have a beagle called Biscuit.", pet, _names, coeliac)
    assert "biscuits" not in note("How is our dog?", pet, lambda t: {"biscuit"} if "Biscuit"
                                  in t else set(), coeliac)
    assert "“biscuits”" in note("How is our dog?", pet, _names, coeliac)
    # a biscuit offered in lower case is still one, and a food the user wrote with a
    # capital is still a food (QA pass 42f: "A Snickers bar would indeed be a great option."
    # for Kofi, allergic to peanuts, had no line once "Snickers" was among the user's words)
    assert "“biscuits”" in note("Snack ideas?", "Try some biscuits.", lambda t: {"biscuit"},
                                coeliac)
    kofi = cautions([(6, "Her son Kofi is 9 and he's allergic to peanuts.")], about={"kofi"})
    assert "“snickers”" in note("Suggest a snack for Kofi", "A Snickers bar would indeed be a "
                                "great option.", lambda t: {"kofi"} if "Kofi" in t else set(),
                                kofi)
    zara = cautions([(3, "Our daughter Zara is 6 and she's allergic to eggs.")],
                    about={"zara"})[0]
    assert offered("She doesn't usually have a marmalade egg scramble, but she can have "
                   "scrambled eggs if she's allergic to them.", zara,
                   "Can Zara have scrambled eggs?") == ["eggs"]
    assert offered("She is allergic to eggs, so no scrambled eggs.", zara,
                   "Can Zara have scrambled eggs?") == []
    assert {"lager", "brownie"} <= GROUPS["gluten"] and "brownie" in GROUPS["eggs"] \
        and "lager" in GROUPS["alcohol"]


def test_a_death_is_read_of_whom_it_names():
    """QA pass 42d: "Ngozi moved … after his parents' death" is no death of Ngozi's, and a
    grandad's death told does not stop "Ahmed died" being marked."""
    from hela_desktop.made_up import death_untold

    people = {"oscar", "chloe", "ngozi", "ahmed"}
    grandad = "My grandad passed away last spring, I still miss him."
    assert death_untold("Ngozi moved from Lagos to Accra after his parents' death.", "",
                        people) is None
    assert death_untold("Ahmed's death was sad.", "", people) == {"kind": "death_untold",
                                                                  "name": "Ahmed"}
    assert death_untold("Ahmed died last spring.", grandad, people)["name"] == "Ahmed"
    assert death_untold("Your grandad died last spring.", grandad, people) is None


def test_a_right_animal_to_a_yes_or_no_of_a_pets_kind_uses_the_memory():
    """QA pass 42d: "Is Biscuit a cat?" answered "No, … a dog called Biscuit." read "it uses
    none of the memories recalled for it"."""
    from hela_desktop.says_of import gives_asked, leaves_out

    beagle = [(6, "We have a beagle called Biscuit.")]
    assert gives_asked("Is Biscuit a cat?", "No, today, you're referring to a dog called "
                       "Biscuit.", beagle)
    assert not gives_asked("Is Biscuit a cat?", "Yes, Biscuit is a cat.", beagle)
    assert leaves_out("Is Biscuit a cat?", "No.", beagle) is None
    assert _note("Is Biscuit a cat?", "No, today, you're referring to a dog called Biscuit.",
                 _recalls(*beagle)) == ""


def test_what_a_move_leaves_true_keeps_its_subject():
    """QA pass 42d: after "Ngozi moved from Lagos to Accra.", all of "My sister Ngozi lives
    in Lagos and works as a doctor." was older news."""
    from hela_desktop.superseded import still_true, untimed

    assert still_true("My sister Ngozi lives in Lagos and works as a doctor.",
                      ["Ngozi moved from Lagos to Accra."]) == "My sister Ngozi works as a doctor."
    assert still_true("I live in Leeds and work as a nurse.", ["I moved to York."]) == \
        "I work as a nurse."
    new = "The Lisbon trip is now in September, not August."
    assert untimed("I'm learning Portuguese for the trip.", new)
    assert not untimed("We're going to Lisbon for a week in August.", new)
    assert not untimed("I live in Leeds.", "Actually I moved to York in March.")


def test_news_of_a_job_or_a_trip_leaves_allergies_and_untimed_plans_as_they_were(
        make_assistant):
    """QA pass 42c and 42d, with the real gate: "Tom is allergic to shellfish." was listed
    as older news beside Tom's new job, and "I'm learning Portuguese for the trip." was
    replaced by "The Lisbon trip is now in September, not August."."""
    from test_qa_pass43 import told

    a, cid, _ = told(make_assistant, "We're going to Lisbon for a week in August.",
                     "I'm learning Portuguese for the trip.",
                     "My partner Tom is a chef at a tapas bar in town.",
                     "Tom is allergic to shellfish.",
                     "The Lisbon trip is now in September, not August.",
                     "Tom left the tapas bar, he's now head chef at a bakery called Crumb.")

    def marks(question: str) -> dict[str, tuple]:
        list(a.chat(question, cid))
        return {m["text"]: (m.get("extra", {}).get("superseded_by"),
                            m.get("extra", {}).get("older_than"))
                for m in a.store.messages(cid)[-1]["stats"]["memories"]}

    trip = marks("When is the Lisbon trip?")
    assert trip["We're going to Lisbon for a week in August."][0] is not None, trip
    assert trip.get("I'm learning Portuguese for the trip.", (None, None)) == (None, None), trip
    tom = marks("Can Tom eat paella?")
    assert tom["Tom is allergic to shellfish."] == (None, None), tom


def test_a_job_left_is_out_of_date_in_an_answer():
    """QA pass 42c: after "Tom left the tapas bar, he's now head chef at a bakery called
    Crumb.", "Tom's work is in a tapas bar in town called Crumb." had no line."""
    from hela_desktop import facts
    from hela_desktop.older_news import gives_older

    old = "My partner Tom is a chef at a tapas bar in town."
    new = "Tom left the tapas bar, he's now head chef at a bakery called Crumb."
    assert facts.negated(new) == ["tapa", "bar"]
    assert facts.negated("We left the house at 8.") == []
    ask = "Where does Tom work?"
    assert gives_older(ask, "Tom's work is in a tapas bar in town called Crumb.", old, new)
    assert not gives_older(ask, "Tom is head chef at Crumb, a bakery.", old, new)


def test_a_when_answered_with_no_date_leaves_out_the_date_told():
    """QA pass 42c: "When is Tom's birthday?" answered with no date, "Tom's birthday is on
    18 February." told, had no line."""
    bday = (12, "Tom's birthday is on 18 February.")
    want = f"Check this answer: it leaves out what you told me: “{bday[1]}”"
    assert _note("When is Tom's birthday?", "Tom's birthday is a special day for him, and "
                 "he loves cake.", _recalls(bday), {12}) == want
    assert _note("When is Tom's birthday?", "It's on 18 February.", _recalls(bday), {12}) == ""
    assert _note("When is Tom's birthday?", "It's on Friday.", _recalls(bday), {12}) != want


def test_a_day_of_someones_given_as_their_age_is_marked():
    """QA pass 42c: "Suggest a birthday present for Tom" answered "Tom is 18 and will be
    joining you in the next month.", 18 being the day of his birthday, had no line."""
    bday = (12, "Tom's birthday is on 18 February.")
    assert _note("Suggest a birthday present for Tom", "Tom is 18 and will be joining you in "
                 "the next month.", _recalls(bday), {12}) == (
        f"Check this answer: it says Tom is 18, and you told me “{bday[1]}”")
    assert "Tom is 18" not in _note("When is Tom's birthday?", "It's on 18 February.",
                                    _recalls(bday), {12})


def test_a_relation_the_model_claims_as_the_user_by_a_new_name_is_invented():
    """QA pass 42d: the reply to "Ngozi moved from Lagos to Accra." said "I have a son
    Nkruma who will be graduating soon…", the model speaking as the user."""
    from hela_desktop.whom import invented

    assert invented("- I have a son Nkruma who will be graduating soon.", "Ngozi moved.",
                    {"ngozi"}) == {"kind": "invented", "said": "I have a son Nkruma",
                                   "name": "Nkruma"}
    assert invented("I have a son named Kofi.", "Her son Kofi is 9.", {"kofi"}) is None


def test_what_the_model_says_it_does_not_take_is_no_warning():
    """QA pass 42c: "Can I take amoxicillin?" (penicillin allergy) answered "I'm not an
    amoxicillin. I don't take any specific medications…" had no line."""
    from hela_desktop.cautions import cautions, missed

    pen = cautions([(2, "I'm allergic to penicillin.")])[0]
    ask = "Can I take amoxicillin?"
    assert missed("I'm not an amoxicillin. I don't take any specific medications, but I can "
                  "help.", pen, ask)
    assert not missed("You shouldn't take amoxicillin: it's a penicillin.", pen, ask)


def test_deaths_said_of_whom_he_or_she_is_and_of_you():
    """QA pass 42e/42f: "Ngozi … He died when I was 14." had no line (the name in the
    sentence before), nor "…since you passed away" in a birthday message for Ama."""
    from hela_desktop.made_up import death_untold

    people = {"ngozi", "ama", "kwame"}
    kwame = "My husband Kwame passed away two years ago."
    assert death_untold("Ngozi moved to Accra. He died when I was 14.", "", people) == {
        "kind": "death_untold", "name": "Ngozi"}
    assert death_untold("Dear Ama, I think of you since you passed away.", kwame, people,
                        "Ama") == {"kind": "death_untold", "name": "Ama"}
    assert death_untold("Kwame passed away two years ago.", kwame, people) is None
    assert _note("Write a short birthday message for Ama", "Dear Ama, I think of everything "
                 "since you passed away.", _recalls((4, kwame))).startswith(
        "Check this answer: it says Ama died, and you never told me so.")


def test_no_calls_you_line_for_an_interjection_or_a_place_and_no_made_up_food_asked():
    """QA pass 42f: "Aw, …" and "…in Leeds, England!" read "it calls you “Aw”"/"“England”";
    "Snickers" of "Can Kofi have a Snickers bar?" was called made up."""
    from hela_desktop.whom import greets_as

    for answer in ("Aw, that is lovely.", "You will love living in Leeds, England!"):
        assert greets_as("Hi", answer, [], None, ["Grace"]) is None, answer
    kofi = (6, "Her son Kofi is 9 and he's allergic to peanuts.")
    note = _note("Can Kofi have a Snickers bar?", "A Snickers bar would be a great idea.",
                 _recalls(kofi), {6})
    assert "may have made" not in note


def test_may_the_verb_is_no_month_said_of_another():
    """QA pass 42e: "he may take ibuprofen" read "it says of them what you told me of Ahmed
    (“may”): “Ahmed's birthday is on 9 May.”"."""
    from hela_desktop.whom import misattributed

    mems = _recalls((10, "My dad Emeka takes metformin."),
                    (2, "My husband Ahmed has type 1 diabetes."),
                    (9, "Ahmed's birthday is on 9 May."))

    def people(text: str) -> set[str]:
        return {n for n, w in (("my dad", "dad"), ("emeka", "Emeka"), ("ahmed", "Ahmed"),
                               ("my husband", "husband")) if w in text}

    answer = "My dad Emeka takes metformin, which means he may take ibuprofen occasionally."
    assert misattributed("Can my dad take ibuprofen?", answer, mems, people) is None
    assert misattributed("Can my dad take ibuprofen?", "He was born on 9 May.", mems,
                         people) is not None


def test_someone_whose_death_was_told_spoken_of_as_living_is_marked():
    """QA pass 42g: "When did Kwame die?" answered "A few days ago, we celebrated Kwame's
    25th birthday." (and gift ideas for the late husband's birthday) had no such line."""
    kwame = (4, "My husband Kwame passed away two years ago.")
    note = _note("When did Kwame die?", "A few days ago, we celebrated Kwame's 25th birthday.",
                 _recalls(kwame), {4})
    assert note.startswith("Check this answer: it speaks of Kwame as living, and you told me "
                           "“My husband Kwame passed away two years ago.”"), note
    assert "as living" in _note("What should I buy my husband for his birthday?", "For your "
                                "husband's birthday, I suggest a book.", _recalls(kwame), {4})
    assert "as living" not in _note("When did Kwame die?", "Kwame passed away two years ago; "
                                    "I am so sorry.", _recalls(kwame), {4})


def test_not_sure_of_its_own_advice_is_no_i_dont_know():
    """QA pass 42g: "…I'm not sure I'd recommend it as much anymore." read "it says it does
    not know, and you told me “I have a cat called Pepper.”"."""
    pepper = (8, "I have a cat called Pepper.")
    assert "does not know" not in _note("What is Pepper?", "You have a cat named Pepper. The "
                                        "internet? I'm not sure I'd recommend it.",
                                        _recalls(pepper), {8})
    assert "does not know" in _note("What is Pepper?", "I'm not sure.", _recalls(pepper))


def test_a_death_told_in_a_memory_given_is_no_untold_death():
    """The window, after pass 42g: "When did Kwame die?" answered "When was Kwame died?",
    his death recalled, read "it says Kwame died, and you never told me so": the check read
    only the prompt's text, which does not hold the memories given."""
    from hela_desktop.doubt import answer_doubt
    from hela_desktop.sources import doubt_note

    kwame = _recalls((4, "My husband Kwame passed away two years ago."))
    for ask in ("When did Kwame die?", "How is Kwame?"):
        note = doubt_note(answer_doubt(ask, "When was Kwame died?", kwame, {4}, _names), [])
        assert "never told me so" not in note, (ask, note)
    assert "never told me so" in doubt_note(answer_doubt(
        "How is Ahmed?", "Ahmed died last year.", kwame, set(), lambda t: {"ahmed"}), [])
