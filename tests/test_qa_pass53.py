"""What the fifty-third pass found, fixed: what pass 52 noticed and left alone, and QA passes
53a (Tomasz Nowak) and 53b (Aisha Bello)."""
from __future__ import annotations

from test_qa_pass51 import _line, _recall
from test_qa_pass52 import _chat


def test_a_supplement_with_a_number_is_not_made_up():
    """Pass 52 noticed: "You take omega-3 capsules every morning.", told word for word, read
    "“omega-” is in none of the memories it was given" (the word after "take" was read up to
    its hyphen). A word of a medicine ends in a letter; one never told still counts."""
    from hela_desktop.made_up import made_up

    told = "I take omega-3 capsules every morning."
    assert made_up("You take omega-3 capsules every morning.", told) == []
    assert made_up("You take omega-7 capsules.", told) == ["7"]
    assert made_up("You take levitax-forte daily.", told) == ["levitax-forte"]
    assert made_up("You take levitax daily.", told) == ["levitax"]


def test_a_dose_given_wrong_is_marked():
    """Pass 52 noticed, pass 53 fixed: "You take 50 mg of levothyroxine" (50 micrograms
    told, a thousandfold less) and "Your warfarin dose is 5 mg." (3 mg told) had no line:
    every number before a measure was let be, for a recipe's amounts (QA pass 50a). A
    number told with another unit, or a medicine's dose never told, is marked, with what
    was told; a recipe's amounts still are not."""
    from hela_desktop.doses import is_dose
    from hela_desktop.made_up import made_up

    told = "I take 50 micrograms of levothyroxine every morning. My warfarin dose is 3 mg."
    assert made_up("You take 50 mg of levothyroxine.", told) == ["50 mg"]
    assert made_up("Your warfarin dose is 5 mg.", told) == ["5 mg"]
    assert made_up("Your warfarin dose is 3 grams.", told) == ["3 grams"]
    assert made_up("Take 1,000 mg.", told) == ["1,000 mg"]
    for same in ("Your warfarin dose is 3mg.", "You take 50mcg of levothyroxine.",
                 "You take 50 µg each morning.", "Warfarin, 3 milligrams."):
        assert made_up(same, told) == [], same
    assert made_up("You inject 14 units.", "I inject 12 units of insulin.") == ["14 units"]
    assert made_up("Ingredients: 200g pasta, 1 tbsp olive oil, 20g of flour.", told) == []
    assert is_dose("50 mg") and is_dose("1,000 mg") and not is_dose("Elm Street")

    mems = [_recall(1, "I take 50 micrograms of levothyroxine every morning.")]
    assert _line("What dose of levothyroxine do I take?",
                 "You take 50 mg of levothyroxine every morning.", mems) == (
        "Check this answer: “50 mg” is in none of the memories it was given, so the model may "
        "have made it up; you told me “I take 50 micrograms of levothyroxine every morning.”")
    assert _line("What dose of levothyroxine do I take?",
                 "You take 50 micrograms of levothyroxine every morning.", mems) == ""


def test_a_yes_to_what_was_given_up_in_a_memory_corrected_in_part():
    """QA pass 53a: "We're planning a trip to Gdańsk on 14 August to see Dad. Also, I gave up
    cycling to work after my knee operation.", the trip then moved: "Do I still cycle to
    work?" answered "Yes, you still cycle to work." had no line (the memory, older news for
    its trip, was read as no longer holding at all). What still holds of it counts, and is
    what the line quotes."""
    told = ("We're planning a trip to Gdańsk on 14 August to see Dad. Also, I gave up cycling "
            "to work after my knee operation.")
    rest = "Also, I gave up cycling to work after my knee operation."
    mems = [_recall(5, told, superseded_by=8, older_than=8, still_true=rest),
            _recall(8, "Actually, the Gdańsk trip isn't on 14 August any more - we moved it to "
                    "2 September.")]
    assert _line("Do I still cycle to work?", "Yes, you still cycle to work.", mems) == (
        f"Check this answer: it says yes, and you told me “{rest}”")
    assert _line("Do I still cycle to work?",
                 "No, you gave up cycling after your knee operation.", mems) == ""
    # (a memory replaced whole says nothing still)
    mems[0].extra.pop("still_true")
    assert _line("Do I still cycle to work?", "Yes, you still cycle to work.", mems) == ""


def test_what_a_doctor_or_midwife_said_to_keep_off_is_a_caution():
    """QA pass 53a: "My doctor says I must avoid cranberry juice and big changes in leafy
    greens." (on warfarin) and a spinach and kale salad approved had no caution; 53b: "The
    midwife said no unpasteurised cheese, no liver, and not too much caffeine." and "You
    can drink more coffee" had none. An instruction to the user from whoever cares for
    them is theirs; leafy greens, caffeine, unpasteurised cheese and liver are groups.
    What the line quotes is the sentence that says why: "…3 mg a day. My doctor says I must
    avoid…" was cut before the cranberry juice."""
    from hela_desktop.cautions import cautions, offered, part_naming

    def avoid(text: str) -> set[str]:
        return {w for c in cautions([(1, text)]) for w in c.avoid}

    assert {"spinach", "kale"} <= avoid(
        "My doctor says I must avoid cranberry juice and big changes in leafy greens.")
    assert {"coffee", "brie", "liver", "pâté"} <= avoid(
        "The midwife said no unpasteurised cheese, no liver, and not too much caffeine.")
    assert "coffee" in avoid("My GP told me to cut down on caffeine.")
    assert "tea" in avoid("I avoid caffeine.")
    # (another's instruction is not the user's; nor is a "no" to anything but food)
    assert avoid("My doctor says Tom should avoid caffeine.") == set()
    assert avoid("My sister said no to the party.") == set()

    warfarin = ("I take warfarin for atrial fibrillation, 3 mg a day. My doctor says I must "
                "avoid cranberry juice and big changes in leafy greens.")
    (c,) = cautions([(3, warfarin)])
    assert offered("A spinach and kale salad is definitely a good one.", c) == ["spinach", "kale"]
    second = "My doctor says I must avoid cranberry juice and big changes in leafy greens."
    assert part_naming(c, ["cranberry"]) == second
    assert part_naming(c, ["kale"]) == second
    assert part_naming(c, ["wine"]) == "I take warfarin for atrial fibrillation, 3 mg a day."
    pregnant = ("I'm pregnant! Due on 3 March. The midwife said no unpasteurised cheese, no "
                "liver, and not too much caffeine.")
    (p,) = cautions([(3, pregnant)])
    assert part_naming(p, ["coffee"]) == (
        "The midwife said no unpasteurised cheese, no liver, and not too much caffeine.")
    mems = [_recall(3, warfarin)]
    line = _line("Can I drink cranberry juice?", "Yes, cranberry juice is lovely.", mems,
                 cautions=[c])
    assert line == ("Check this answer: it names “cranberry” without a word of warning, and "
                    f"you told me “{second}”")


def test_asked_what_they_must_not_eat_an_answer_they_are_fine_with_it_leaves_it_out():
    """QA pass 53a: "What is he allergic to?" (Piotr, "…has a tree-nut allergy - walnuts and
    cashews.") answered "…he has no problem with nuts…" had no line of his allergy: "nuts"
    was named, if only to say he is fine with them. What it says they are fine with is not
    named as what they must not eat; "anything except walnuts" still is."""
    from hela_desktop.cautions import Caution, caution_of_others, missed

    told = ("My wife Ewa is a pharmacist. We have two kids: Zofia is 19 and studies medicine in "
            "Cardiff, she's vegan. Piotr is 12, he plays the violin and has a tree-nut allergy - "
            "walnuts and cashews.")
    words, said = caution_of_others(told, {"piotr"})
    his = Caution(2, said, words, theirs=True)
    ask = "What is Piotr allergic to?"
    for answer in ("Piotr is a vegetarian and vegan - he has no problem with nuts.",
                   "Piotr isn't allergic to walnuts.", "He can eat cashews and walnuts."):
        assert missed(answer, his, ask), answer
    for answer in ("Piotr can eat anything except walnuts and cashews.",
                   "Piotr is allergic to tree nuts.", "He is fine with milk, but not walnuts."):
        assert not missed(answer, his, ask), answer


def test_a_day_said_to_be_today_that_is_not():
    """QA pass 53b: answer after answer opened "Today, 3 March." (the user's due date) or
    "Today, 10 December." (the appointment moved from that day), with no line. A date or
    weekday an answer says today is, that today is not, is marked with today's."""
    import time

    from hela_desktop.timewords import wrong_today

    now = time.mktime((2026, 12, 7, 12, 0, 0, 0, 0, -1))  # (a Monday)
    today = "Monday 7 December"
    assert wrong_today("Today, 3 March. You are due.", now) == {
        "kind": "not_today", "said": "3 March", "today": today}
    assert wrong_today("Today's date is March 3rd.", now)["said"] == "March 3rd"
    assert wrong_today("Today is Friday.", now)["said"] == "Friday"
    assert wrong_today("Today is Tuesday 8 December.", now)["said"] == "Tuesday 8 December"
    for right in ("Today is Monday, 7 December.", "Today is the 7th of December.",
                  "Today I went out.", "Today is your birthday!", "Today is Monday the 7th."):
        assert wrong_today(right, now) is None, right
    mems = [_recall(3, "I'm pregnant! Due on 3 March.")]
    assert _line("When am I due?", "Today, 3 March. You are due on 3 March.", mems,
                 now=now) == "Check this answer: it says today is 3 March; today is Monday 7 December."


def test_what_a_question_asked_is_nothing_told_of_yourself():
    """QA pass 53a: "Tell me about my son Piotr." … answered "…He loves cooking." read "it says
    of Piotr what you told me of yourself (“cooking”): “What should I cook for Zofia when she
    visits from Cardiff? …”": a question is nothing told. Only what a memory states counts."""
    from hela_desktop.whom import misattributed

    mems = [_recall(2, "Piotr is 12 and he plays the violin."),
            _recall(9, "What should I cook for Zofia when she visits from Cardiff? I was thinking "
                    "roast chicken.")]
    names = lambda t: {n for n in ("piotr", "zofia") if n in t.lower()}  # noqa: E731
    assert misattributed("What does Piotr like?", "Piotr loves cooking.", mems, names) is None
    assert misattributed("What does Piotr like?", "Piotr loves roast chicken.", mems, names)


_KIDS = ("My wife Ewa is a pharmacist. We have two kids: Zofia is 19 and studies medicine in "
         "Cardiff, she's vegan. Piotr is 12, he plays the violin and has a tree-nut allergy - "
         "walnuts and cashews.")


def test_children_listed_after_a_colon_are_theirs(make_assistant):
    """QA pass 53a: "We have two kids: Zofia is 19 and studies medicine… Piotr is 12, …": neither
    was anyone of the user's life (no "my daughter Zofia"), so "What does Zofia study?"
    answered "Zofia studies pharmacy." was never checked against what was told. Each
    sentence after the colon may name one of them; and what someone studies is read after
    another thing said of them ("is 19 and studies medicine"), or as "a pharmacy student"."""
    from hela_desktop import kin
    from hela_desktop.says_of import says_otherwise

    for name in ("Zofia", "Piotr"):
        assert kin.as_theirs(name).search(_KIDS), name
    assert not kin.as_theirs("Cardiff").search(_KIDS)
    assert not kin.as_theirs("Tom").search("We have two kids. Tom called today.")  # (no list)
    a = make_assistant()
    list(a.chat(_KIDS))
    assert a.engine.people_in("What does Zofia study?") == {"zofia"}
    assert a.engine.people_in("What does Piotr do?") == {"piotr"}
    for answer in ("Zofia studies pharmacy.", "Zofia is 19, she's a pharmacy student."):
        got = says_otherwise(answer, [(2, _KIDS)], "zofia", "What does Zofia study?")
        assert got and got["said"] == "studying pharmacy", answer
    assert says_otherwise("Zofia studies medicine in Cardiff.", [(2, _KIDS)], "zofia",
                          "What does Zofia study?") is None


def test_a_diet_given_to_another_quotes_whose_it_is():
    """QA pass 53a: "Piotr is vegan." to "What is Piotr allergic to?" read "…you told me that of
    Zofia: “…Piotr is 12, he plays the violin…”", quoting Piotr's part for Zofia's diet."""
    from hela_desktop.sources import doubt_note

    note = doubt_note({"kind": "allergy_of", "name": "Piotr", "said": "vegan", "of": "Zofia",
                       "memory": 2, "quote": _KIDS}, [{"episode_id": 2, "text": _KIDS}])
    assert "that of Zofia: “My wife Ewa is a pharmacist. We have two kids: Zofia" in note


def test_no_medicine_said_of_someone_told_to_take_one():
    """QA pass 53b: "Can Daniel take my iron tablets?" answered "…He does not take any
    medicines…", "He has epilepsy and takes lamotrigine." told, had no line of it."""
    from hela_desktop.says_of import says_not

    told = "My husband is Daniel. He's a software developer. He has epilepsy and takes lamotrigine."
    for answer, said in (("Your husband Daniel has epilepsy. He does not take any medicines.",
                          "does not take any medicines"),
                         ("Daniel isn't on any medication.", "isn't on any medication")):
        got = says_not(answer, [(5, told)], "daniel", "Can Daniel take my iron tablets?")
        assert got and got["said"] == said and got["memory"] == 5, answer
    # (nothing told of a medicine of hers; nor a bus taken)
    assert says_not("Funmi does not take any medicines.", [(6, "My sister Funmi is 27.")],
                    "funmi", "Can Funmi take paracetamol?") is None
    assert says_not("Daniel does not take any medicines.", [(5, "Daniel takes the bus.")],
                    "daniel", "Does Daniel take anything?") is None


def test_the_memories_tab_shows_a_correction_the_chat_noted(make_assistant):
    """QA pass 53a: "Update from the clinic today: my warfarin dose went up from 3 mg to 4 mg."
    was "Noted as a correction of “I take warfarin for atrial fibrillation, 3 mg a day.”: it
    is kept, marked as older news." in the chat, and `memories show` and the Memories tab
    said nothing of it. What the chat confirmed, both show."""
    from hela_desktop.knowledge import shown_corrections
    from hela_desktop.session import corrected

    a = make_assistant()
    a.settings.max_answer_tokens = 4
    _conv, dones = _chat(a, "I take warfarin for atrial fibrillation, 3 mg a day.",
                         "Update from the clinic today: my warfarin dose went up from 3 mg "
                         "to 4 mg.")
    old, new = dones[0].episode_id, dones[1].episode_id
    assert [c["episode_id"] for c in dones[1].corrects] == [old]
    assert shown_corrections(a.store, [old, new]) == {old: new}
    assert corrected(a.store, list(a.store.episodes([old]).values()))[old][0] == new


def test_an_age_set_off_by_commas():
    """QA pass 53b: "And how old is he?" (Tunde, 35 told) answered "My brother, Tunde, is 29
    years old." had only "“29” is in none of the memories…": the age set off by commas was
    never read as said of Tunde, and the line never said 35."""
    from hela_desktop.says_of import says_otherwise

    told = [(7, "And my brother Tunde is 35. He runs a restaurant back in Lagos.")]
    for answer in ("Today I'm 31. My brother, Tunde, is 29 years old.", "Tunde, my brother, is 29."):
        got = says_otherwise(answer, told, "tunde", "And how old is Tunde?")
        assert got and (got["name"], got["said"], got["memory"]) == ("Tunde", "29", 7), answer
    assert says_otherwise("My brother, Tunde, is 35 years old.", told, "tunde",
                          "And how old is Tunde?") is None
    assert says_otherwise("Hi Tunde, is 29 enough?", told, "tunde", "How old is Tunde?") is None


def test_an_answer_from_nothing_told_says_what_was():
    """QA pass 53a: "Who is Helen Carter?" answered "…a female character in the story" read
    only "it uses none of the memories recalled for it, so it is not from what you told me."
    The line now quotes what the question points at, or the one memory naming whom it asks
    about, so the user has it back."""
    mems = [_recall(6, "My boss is Helen Carter. My best friend is Marek, he lives in Leeds."),
            _recall(4, "My dad Jan is 80 and still lives in Gdańsk.")]
    assert _line("Who is Helen Carter?", "Helen Carter is a female character in the story.",
                 mems) == ("Check this answer: it uses none of the memories recalled for it, and "
                           "you told me “My boss is Helen Carter.”")
    names = lambda t: {"jan"} if "Jan" in t else set()  # noqa: E731 (whom the store knows)
    assert _line("Who is Jan?", "Jan is a Polish person who loves football.", mems,
                 names=names) == (
        "Check this answer: it uses none of the memories recalled for it, and you told me “My "
        "dad Jan is 80 and still lives in Gdańsk.”")
    # (two memories naming them: which one is meant is not known, nothing quoted)
    both = [*mems, _recall(7, "Jan and Helen Carter met once.")]
    assert _line("Who is Jan?", "Jan is a Polish person who loves football.", both,
                 names=names) == (
        "Check this answer: it uses none of the memories recalled for it, so it is not from "
        "what you told me.")


def test_asked_when_an_answer_with_another_plans_date_leaves_it_out():
    """QA pass 53b: "When am I due?" answered "On 17 December, you're due…" (17 December the
    antenatal appointment's, "Due on 3 March." told) had only made-up words marked, "Day" of
    "Christmas Day" among them. An answer whose every date is none of the only memory that
    holds what is asked and gives a date leaves that memory out; a feast's day is no name."""
    from hela_desktop.made_up import made_up
    from hela_desktop.timewords import days_of_months

    assert days_of_months("Due on 3 March. On 17 December, and March 4th, the 5th of May") == {
        (3, "mar"), (17, "dec"), (4, "mar"), (5, "may")}
    assert made_up("You are due by Christmas Day, or Easter Sunday.", "Due on 3 March.") == []
    due = _recall(3, "I'm pregnant! Due on 3 March.")
    moved = _recall(12, "Oh, the appointment got moved. It's now 17 December, not the 10th.")
    mems = [due, moved]
    assert _line("When am I due?", "You're due on 17 December.", mems) == (
        "Check this answer: it leaves out what you told me: “I'm pregnant! Due on 3 March.”")
    assert _line("When am I due?", "You're due on 3 March.", mems) == ""
    assert _line("When is my appointment?", "Your appointment is on 17 December.", mems) == ""


def test_a_food_named_before_can_i_eat_it():
    """QA pass 53b: "Tunde is sending jollof and prawn suya from Lagos, can I eat it?" answered
    with a question of its own had only "it uses none of the memories…": the prawn was not
    read as asked about, being named before "can I eat it?"."""
    from hela_desktop.cautions import asked_foods, cautions

    (c,) = cautions([(2, "I'm lactose intolerant, and I'm allergic to shellfish, prawns "
                        "especially.")])
    ask = "Tunde is sending jollof and prawn suya from Lagos, can I eat it?"
    assert asked_foods(ask, c) == ["prawn"]
    assert asked_foods("Tunde is sending jollof and prawn suya. Can I eat rice?", c) == []
    mems = [_recall(2, c.text)]
    assert _line(ask, "What's the most interesting fact I could share with you?", mems,
                 cautions=[c]) == (
        "Check this answer: it does not say no to “prawn”, and you told me “I'm lactose "
        "intolerant, and I'm allergic to shellfish, prawns especially.”")
    assert _line(ask, "No, you are allergic to prawns.", mems, cautions=[c]) == ""


def test_a_place_told_of_another_in_the_same_message(make_assistant):
    """QA pass 53a: "Helen Carter has relocated to Leeds" (and, asked, "Helen lives in
    Leeds."), after "My boss is Helen Carter. My best friend is Marek, he lives in Leeds.",
    had no line: one message told of two people, and the place was the other's. Each part is
    read as whom it names, or the one named before it."""
    from hela_desktop.places_of import place_of_another, whose_parts

    told = "My boss is Helen Carter. My best friend is Marek, he lives in Leeds."
    a = make_assistant()
    list(a.chat(told))
    names = a.engine.people_in
    assert [sorted(w) for w, _ in whose_parts(told, names)] == [
        ["helen", "my boss"], ["marek", "my best friend"]]
    mems = [_recall(6, told)]
    got = place_of_another("Where does Helen Carter live?", "Helen Carter lives in Leeds.", mems,
                           names)
    assert got and (got["words"], got["of"]) == (["Leeds"], "Marek")
    assert _line("Where does Helen Carter live?", "She lives in Leeds.", mems, names=names) == (
        "Check this answer: you asked about Helen, and it says of Helen what you told me of "
        f"Marek (“Leeds”): “{told}”")
    for fine in ("Marek lives in Leeds.", "He lives in Leeds."):
        assert place_of_another("Where does Marek live?", fine, mems, names) is None, fine
    assert place_of_another("Where does my best friend live?", "He lives in Leeds.", mems,
                            names) is None


def test_fixes_53d():
    """QA pass 53d: "Update: my doctor raised my sertraline to 100 mg." corrected nothing (no
    "from 50"), so lines kept quoting "I take sertraline 50 mg every morning."; the St John's
    wort line quoted the dose, not "My pharmacist said I must avoid St John's wort with it.";
    "Kevin is my younger brother, he's 33…" read "you have not told me about your brother",
    then "it speaks of “Kevin” instead", and "Kevin is 31" had only "“31” is in none…"."""
    from hela_desktop import facts, kin
    from hela_desktop.cautions import cautions, part_naming
    from hela_desktop.says_of import says_otherwise
    from hela_desktop.whom import names_of

    for text in ("Update: my doctor raised my sertraline to 100 mg.",
                 "They increased her insulin to 12 units.", "The GP put my ramipril up to 10mg."):
        assert facts.corrects(text), text
        assert facts.corrects_memory("I take sertraline 50 mg every morning.", text) or \
            "sertraline" not in text, text
    for text in ("We raised money to 100 people.", "I raised my hand to ask."):
        assert not facts.corrects(text), text
    told = ("I take sertraline 50 mg every morning. My pharmacist said I must avoid St John's "
            "wort with it.")
    (c,) = cautions([(3, told)])
    assert part_naming(c, ["St John's wort"]) == (
        "My pharmacist said I must avoid St John's wort with it.")
    kevin = "Kevin is my younger brother, he's 33 and works as a chef in Montreal."
    assert kin.kin(kevin) == {"brother"} and kin.kin("my big day") == set()
    assert names_of({"brother"}, [kevin]) == {"kevin"}
    got = says_otherwise("Kevin is 31 years old and works as a chef in Montreal.", [(6, kevin)],
                         "brother", "How old is my brother and where does he live?")
    assert got and (got["name"], got["said"]) == ("Kevin", "31")


_GARETH = ("Then there's my son Gareth. He's 41, works as a plumber in Bristol, and has two kids: "
           "Ffion, who is 9, and Dylan, who is 6. Dylan is allergic to eggs.")


def test_fixes_53c(make_assistant):
    """QA pass 53c (a retired postman of 74 in Cardiff): "I've switched my food bank day to
    Thursdays now." corrected nothing; "Which of them is allergic to eggs?" answered "The
    answer is: Ffion." (Dylan's allergy) had no line, the grandchildren being no one of
    his; "Gareth is an architect" (he "works as a plumber" after "He's 41,") had none; the
    amoxicillin line was cut before "I'm allergic to penicillin."; "it calls you “Harry”"
    when "everyone calls me Harry"; "Head Teacher" of "headteacher" was made up."""
    from hela_desktop import facts, kin
    from hela_desktop.allergy_of import as_claim
    from hela_desktop.made_up import made_up
    from hela_desktop.says_of import says_otherwise
    from hela_desktop.whom import own_names

    switched = "I've switched my food bank day to Thursdays now."
    assert facts.corrects_memory("I volunteer at the food bank every Tuesday.", switched)
    assert not facts.corrects("I switched my phone to silent mode.")
    assert kin.as_theirs("Dylan").search(_GARETH) and kin.as_theirs("Ffion").search(_GARETH)
    a = make_assistant()
    list(a.chat(_GARETH))
    names = a.engine.people_in
    ask = "Which of them is allergic to eggs?"
    assert as_claim(ask, "The answer is: Ffion.", names) == "Ffion is allergic to eggs."
    assert as_claim("What is Ffion allergic to?", "Ffion.", names) == "Ffion."
    assert _line(ask, "The answer is: Ffion.", [_recall(5, _GARETH)], names=names) == (
        "Check this answer: it says of Ffion “allergic to eggs”, and you told me that of Dylan: "
        "“…and Dylan, who is 6. Dylan is allergic to eggs.”")
    assert _line(ask, "Dylan.", [_recall(5, _GARETH)], names=names) == ""
    got = says_otherwise("Gareth is an architect in Bristol.", [(5, _GARETH)], "gareth",
                         "Tell me about my son Gareth.")
    assert got and (got["name"], got["said"]) == ("Gareth", "architect")
    assert own_names(["Hello, I'm Harold Jenkins, but everyone calls me Harry."]) == [
        "Harold", "Jenkins", "Harry"]
    head = "My daughter Sian is 45 and she's a primary school headteacher in Swansea."
    assert made_up("Sian is a Head Teacher in Swansea.", head) == []
    assert made_up("Sian is a Head Master in Swansea.", head) == ["Head Master"]


def test_a_caution_left_out_quotes_the_sentence_of_what_was_asked():
    """QA pass 53c: "Can I have amoxicillin for my chest infection?" read "…you told me “I have
    type 2 diabetes and take metformin 500 mg twice a day. I'm also on ramipril 5 mg…”", cut
    before the penicillin allergy it was about."""
    from hela_desktop.cautions import cautions

    told = ("I have type 2 diabetes and take metformin 500 mg twice a day. I'm also on ramipril "
            "5 mg for my blood pressure, and I'm allergic to penicillin.")
    cs = cautions([(3, told)])
    assert _line("Can I have amoxicillin for my chest infection?", "Let me look into that.",
                 [_recall(3, told)], cautions=cs) == (
        "Check this answer: it does not say no to “amoxicillin”, and you told me “I'm also on "
        "ramipril 5 mg for my blood pressure, and I'm allergic to penicillin.”")
