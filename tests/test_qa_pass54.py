"""What the fifty-fourth pass found, fixed: what pass 53 noticed and left alone, and QA passes
54a–d (Daniel, Isla, Margaret and Rosa)."""
from __future__ import annotations

from test_qa_pass51 import _line, _recall


def test_a_carers_word_against_a_single_food_is_a_caution():
    """Pass 53 noticed: "My doctor says I must avoid cranberry juice." was no caution of its
    own (only a group's name counted there: "avoid dairy"), and "My GP told me to avoid
    grapefruit." none at all without a medicine that names it. A food any group names is a
    food of its own there; "avoid stress" or "avoid mornings" names none, and "no
    unpasteurised cheese" is no caution against every cheese."""
    from hela_desktop.cautions import caution_of, cautions

    assert caution_of("My doctor says I must avoid cranberry juice.") == {"cranberry"}
    assert caution_of("My GP told me to avoid grapefruit.") == {"grapefruit"}
    assert caution_of("I avoid mornings and grapefruit.") == {"grapefruit"}
    assert caution_of("My doctor told me to avoid stress.") == frozenset()
    assert caution_of("I can't have my phone at work.") == frozenset()
    pregnant = caution_of("The midwife said no unpasteurised cheese, no liver.")
    assert "brie" in pregnant and "liver" in pregnant and "cheese" not in pregnant

    mems = [_recall(1, "I take warfarin, 3 mg a day. My doctor says I must avoid cranberry "
                       "juice."), _recall(2, "My GP told me to avoid grapefruit.")]
    cs = cautions((r.episode_id, r.text) for r in mems)
    assert _line("What juice should I have with breakfast?",
                 "Cranberry juice is a great choice for breakfast.", mems, cautions=cs) == (
        "Check this answer: it names “cranberry” without a word of warning, and you told me "
        "“My doctor says I must avoid cranberry juice.”")
    assert "“My GP told me to avoid grapefruit.”" in _line(
        "Can I have grapefruit for breakfast?", "Yes, grapefruit is a healthy breakfast.",
        mems[1:], cautions=cs[1:])
    assert _line("Can I have orange juice?", "Yes, orange juice is fine.", mems, cautions=cs) == ""


def test_a_dose_that_went_up_and_a_deadline_extended_correct_the_old(make_assistant):
    """QA pass 54b: "Sorry, my Lantus went up to 20 units." and "Good news: my dissertation
    deadline got extended to 29 April." corrected nothing: "You take Lantus 18 units every
    night." and "It is due on 15 April." had no line. And the NovoRapid said in the same
    sentence as the Lantus ("…about 6 units, and Lantus 18 units at night.") still holds:
    "About 6 units with meals." is no older news (the two shared only "units")."""
    from test_qa_pass52 import _chat

    from hela_desktop import facts, superseded

    for text in ("Sorry, my Lantus went up to 20 units.", "My dose went down to 10 mg.",
                 "My Lantus has gone up to 20 units.",
                 "Good news: my dissertation deadline got extended to 29 April."):
        assert facts.corrects(text), text
    for text in ("The price went up to 20 pounds.", "We extended the kitchen to the garden."):
        assert not facts.corrects(text), text
    told = ("I'm type 1 diabetic. I take NovoRapid with meals, about 6 units, and Lantus 18 "
            "units at night.")
    assert superseded.still_true(told, ["Sorry, my Lantus went up to 20 units."]) == (
        "I'm type 1 diabetic. I take NovoRapid with meals, about 6 units.")
    assert superseded.still_true(
        "I take metformin 500 mg twice a day, and 40 mg of atorvastatin at night.",
        ["My atorvastatin went up to 80 mg."]) == "I take metformin 500 mg twice a day."

    a = make_assistant()
    a.settings.max_answer_tokens = 4
    conv, dones = _chat(a, told, "My dissertation is on coastal erosion and it's due on 15 April.",
                        "Sorry, my Lantus went up to 20 units.",
                        "Good news: my dissertation deadline got extended to 29 April.")
    assert [c["episode_id"] for c in dones[2].corrects] == [dones[0].episode_id]
    assert [c["episode_id"] for c in dones[3].corrects] == [dones[1].episode_id]
    mems = [e for e in a.chat("How much NovoRapid do I take?", conversation_id=conv)
            if e.type == "memories"][0].memories
    old = next(r for r in mems if r.episode_id == dones[0].episode_id)
    assert old.extra.get("superseded_by") == dones[2].episode_id
    assert old.extra.get("still_true") == (
        "I'm type 1 diabetic. I take NovoRapid with meals, about 6 units.")
    assert _line("How much NovoRapid do I take?", "About 6 units with meals.", mems) == ""
    assert "older news" in _line("How many units of Lantus do I take?",
                                 "You take Lantus 18 units every night.", mems)


def test_a_dose_raised_corrects_the_dose_not_the_diet_of_the_same_person(make_assistant):
    """QA pass 54d: "Oh, and Luis's doctor raised his allopurinol to 200 mg." was noted as a
    correction of "He has gout, so his doctor told him to avoid red meat, shellfish and
    beer." too (both name Luis and his doctor), and every right answer on his diet then
    read "it may give older news". A dose changed corrects what names the medicine."""
    from test_qa_pass52 import _chat

    from hela_desktop import facts

    diet = "My husband is Luis. He has gout, so his doctor told him to avoid red meat, " \
           "shellfish and beer."
    dose = "Luis takes allopurinol 100 mg every day."
    raised = "Oh, and Luis's doctor raised his allopurinol to 200 mg."
    assert not facts.corrects_memory(diet, raised) and facts.corrects_memory(dose, raised)
    assert facts.corrected_words(raised) >= {"200", "allop"}
    assert "lantu" in facts.corrected_words("Sorry, my Lantus went up to 20 units.")

    a = make_assistant()
    a.settings.max_answer_tokens = 4
    _, dones = _chat(a, diet, dose, raised)
    assert [c["episode_id"] for c in dones[2].corrects] == [dones[1].episode_id]


def test_a_list_after_allergic_to_or_avoid_is_a_caution_whole():
    """QA pass 54d: "…his doctor told him to avoid red meat, shellfish and beer." was a
    caution of red meat only (the words after "avoid" were read up to the first comma), and
    "Can Luis have a prawn cocktail?" answered yes had no line; "I'm allergic to nuts, eggs
    and milk." was no caution of eggs or milk. An answer that lists them after "avoid all"
    warns of each ("…avoid all red meat, shellfish and beer" read "names “beer” without a
    word of warning")."""
    from hela_desktop.cautions import caution_of, cautions

    assert {"eggs", "milk", "nuts"} <= caution_of("I'm allergic to nuts, eggs and milk.")
    assert {"pork", "prawn", "beer"} <= caution_of("I avoid pork, shellfish and alcohol.")
    assert {"prawn", "beer", "steak"} <= caution_of(
        "My doctor told me to avoid red meat, shellfish and beer.")
    assert "bread" not in caution_of("I can't eat gluten, so I bake my own bread.") - caution_of(
        "I can't eat gluten.")
    assert caution_of("I'm allergic to cats, which is a shame.") == caution_of(
        "I'm allergic to cats.")

    told = "My husband is Luis. He has gout, so his doctor told him to avoid red meat, " \
           "shellfish and beer."
    mems = [_recall(1, told)]
    cs = cautions([(1, told)], about={"luis", "husband"})
    assert "Check this answer: it names “prawn” without a word of warning" in _line(
        "Can Luis have a prawn cocktail?", "Yes, Luis can have a prawn cocktail.", mems,
        cautions=cs)
    assert _line("What should Luis avoid?", "His doctor told him to avoid all red meat, "
                 "shellfish and beer, and he takes allopurinol.", mems, cautions=cs) == ""
    assert "“beer”" in _line("Can Luis have steak?",
                             "He should avoid steak, but he can have chicken and a beer.",
                             mems, cautions=cs)


def test_sourdough_for_a_coeliac_and_a_gluten_free_loaf_that_is_fine():
    """QA pass 54d: "Can Mateo have a slice of our sourdough?" (coeliac) answered yes had no
    line (no bread of that name was known); and "Yes, gluten-free bread is fine." to "Can
    Mateo have gluten-free bread?" read "it names “gluten” and “bread” without a word of
    warning"."""
    from hela_desktop.cautions import cautions

    told = "Our son Mateo, 11, has coeliac disease."
    mems, cs = [_recall(1, told)], cautions([(1, told)], about={"mateo"})
    assert "“sourdough”" in _line("Can Mateo have a slice of our sourdough?",
                                  "Yes, he can have a slice of sourdough.", mems, cautions=cs)
    assert _line("Can Mateo have gluten-free bread?", "Yes, gluten-free bread is fine.", mems,
                 cautions=cs) == ""
    assert _line("Can Mateo have a gluten-free waffle?", "Yes.", mems, cautions=cs) == ""
    assert "“toast”" in _line("Can Mateo have toast?", "Yes, toast is fine.", mems, cautions=cs)


def test_corrections_said_with_sorry_no_wait_or_instead():
    """QA passes 54a, c and d: "No wait, it was August, not July." (of "We moved from Leeds
    to Chorlton in July."), "Oh, and Joan's changed her days. She comes on Wednesdays now
    instead." and "Sorry, Sofia is 15, she turns 16 in June." corrected nothing, and the
    old month, days and age were given back unmarked. And "We moved from Leeds to Chorlton
    in July." was noted as a correction of "I'm Daniel, 34, and I work as a software
    developer in Manchester." (a move from Leeds is no news of a town it does not name)."""
    from hela_desktop import facts

    for old, new in (
            ("We moved from Leeds to Chorlton in July.", "No wait, it was August, not July."),
            ("My carer Joan comes on Tuesdays and Thursdays.",
             "Oh, and Joan's changed her days. She comes on Wednesdays now instead."),
            ("Our daughter Sofia is 16 and doing her GCSEs.",
             "Sorry, Sofia is 15, she turns 16 in June."),
            ("We live in Leeds.", "We moved from Leeds to Chorlton in July."),
            ("We live in a small flat.", "We moved from Leeds to Chorlton in July.")):
        assert facts.corrects(new) and facts.corrects_memory(old, new), (old, new)
    for old, new in (
            ("I'm Daniel, 34, and I work as a software developer in Manchester.",
             "We moved from Leeds to Chorlton in July."),
            ("I love tea.", "Sorry, I can't make it on Friday."),
            ("My carer Joan comes on Tuesdays.", "Instead of tea I had coffee.")):
        assert not facts.corrects_memory(old, new), (old, new)


def test_what_was_given_up_a_double_no_and_a_midwifes_no_are_read(make_assistant):
    """QA pass 54b: "I gave up caffeine in October." then "Can I have a latte?" answered
    "You can have a latte here at Brew Lab." had no line (what was given up was no caution,
    and the store was never asked for it: only statements holding a caution's words are);
    "A latex glove is not a bad idea, my friend." read "bad" as a warning, to one allergic
    to latex. And "The midwife said no unpasteurised cheese, no liver…" (pass 53) was a
    caution the store was never asked for either."""
    from test_qa_pass52 import _chat

    from hela_desktop.cautions import caution_of, cautions, offered

    assert {"latte", "coffee", "caffeine"} <= caution_of("I gave up caffeine in October.")
    assert "bread" not in caution_of("I gave up on the bread recipe.")
    assert caution_of("I quit my job in March.") == frozenset()
    assert "bacon" in caution_of("I've given up meat.")
    assert not caution_of("I stopped drinking coffee after lunch.")  # (a habit: QA pass 48a)
    (latex,) = cautions([(1, "Also, I'm allergic to latex.")])
    ask = "Is a latex glove fine for me?"
    for yes in ("A latex glove is not a bad idea, my friend.", "Latex is not dangerous at all."):
        assert offered(yes, latex, ask) == ["latex"], yes
    for no in ("Latex gloves are bad for you.", "Latex is dangerous for you."):
        assert offered(no, latex, ask) == [], no

    a = make_assistant()
    a.settings.max_answer_tokens = 4
    _chat(a, "I gave up caffeine in October.",
          "The midwife said no unpasteurised cheese, no liver, and not too much caffeine.")
    said = {c.text for c in a._cautions("Can I have a latte?", "You can have a latte.", [])}
    assert said == {"I gave up caffeine in October.",
                    "The midwife said no unpasteurised cheese, no liver, and not too much "
                    "caffeine."}


def test_a_husband_lost_is_a_death_told():
    """QA pass 54c: after "I lost my husband Geoffrey in 2019.", "Geoffrey passed away in
    2019." read "it says Geoffrey died, and you never told me so"."""
    from hela_desktop.made_up import death_untold

    told = "My name is Margaret. I lost my husband Geoffrey in 2019."
    assert death_untold("Geoffrey passed away in 2019.", told, {"geoffrey"}) is None
    assert death_untold("Geoffrey passed away in 2019.", "My husband Geoffrey loves golf.",
                        {"geoffrey"}) == {"kind": "death_untold", "name": "Geoffrey"}
    assert death_untold("Geoffrey passed away.", "I lost my son in the crowd at the park.",
                        {"geoffrey"}) is not None


def test_a_dose_told_of_one_medicine_given_to_another_is_marked(make_assistant):
    """QA pass 54b: "I take NovoRapid with meals, about 6 units, and Lantus 18 units at
    night." then the Lantus up to 20: "…I included the 20 units of NovoRapid in your
    answer…" had no line (20 units was told, of the Lantus). A dose is read with the
    medicine it is of; the line quotes what still holds of the NovoRapid."""
    from test_qa_pass52 import _chat

    from hela_desktop.doses import is_dose, medicine_doses
    from hela_desktop.made_up import made_up

    told = ("I'm type 1 diabetic. I take NovoRapid with meals, about 6 units, and Lantus 18 "
            "units at night. Sorry, my Lantus went up to 20 units.")
    assert medicine_doses(told) == {"novorapid": {("6", "unit")},
                                    "lantus": {("18", "unit"), ("20", "unit")}}
    assert medicine_doses("I take metformin 500 mg twice a day and aspirin 75 mg.") == {
        "metformin": {("500", "mg")}, "aspirin": {("75", "mg")}}
    assert made_up("I included the 20 units of NovoRapid in your answer.", told) == [
        "20 units of NovoRapid"]
    assert made_up("You take Lantus 6 units at night.", told) == ["Lantus 6 units"]
    for right in ("About 6 units of NovoRapid with meals.", "You take 20 units of Lantus.",
                  "NovoRapid, about 6 units with meals, and Lantus 20 units at night.",
                  "Use 200 g of flour and 2 tbsp of sugar."):
        assert made_up(right, told) == [], right
    assert is_dose("20 units of NovoRapid") and is_dose("Lantus 18 units")
    assert not is_dose("20 of them")

    a = make_assistant()
    a.settings.max_answer_tokens = 4
    conv, _ = _chat(a, "I'm type 1 diabetic. I take NovoRapid with meals, about 6 units, and "
                       "Lantus 18 units at night.", "Sorry, my Lantus went up to 20 units.")
    ask = "How much NovoRapid do I take?"
    mems = [e for e in a.chat(ask, conversation_id=conv) if e.type == "memories"][0].memories
    assert _line(ask, "I included the 20 units of NovoRapid in your answer.", mems) == (
        "Check this answer: “20 units of NovoRapid” is in none of the memories it was given, "
        "so the model may have made it up; you told me “I take NovoRapid with meals, about 6 "
        "units.”")


def test_a_weekday_never_told_is_marked_with_what_was(make_assistant):
    """QA pass 54a: "Our son Arjun … goes to nursery on Mondays, Wednesdays and Fridays."
    then "Does he go on Tuesday?" answered "Arjun goes to nursery on Tuesday." had no line,
    nor "Arjun goes on Tuesdays and Thursdays." to "What days does Arjun go to nursery?"
    (weekdays were checked only under "when", "day"…, and not in the plural). The line
    says what was told."""
    told = "Our son Arjun is 3. He goes to nursery on Mondays, Wednesdays and Fridays."
    mems = [_recall(1, told)]

    def names(text: str) -> set[str]:  # (the store's: Arjun is someone of theirs)
        return {"arjun"} if "Arjun" in text else set()

    tuesday = _line("Does Arjun go on Tuesday?", "Arjun goes to nursery on Tuesday.", mems,
                    names=names)
    assert tuesday.startswith("Check this answer: “Tuesday” is in none of the memories"), tuesday
    assert tuesday.endswith(f"you told me “{told}”") or tuesday.endswith(
        "you told me “He goes to nursery on Mondays, Wednesdays and Fridays.”"), tuesday
    days = _line("What days does Arjun go to nursery?", "Arjun goes on Tuesdays and Thursdays.",
                 mems, names=names)
    assert "“Tuesdays” and “Thursdays” are in none of the memories" in days, days
    assert _line("What days does Arjun go to nursery?", "Mondays, Wednesdays and Fridays.",
                 mems, names=names) == ""
    assert _line("Does Arjun go on Mondays?", "Yes, on Mondays.", mems, names=names) == ""


def test_he_of_the_one_asked_is_no_older_news_of_another():
    """QA pass 54c: "Yes, he goes on Tuesdays." to "Does Arjun go to nursery on Tuesdays?"
    read "it may give older news — “…Joan's changed her days…” is newer", Joan's Tuesdays
    being the old days of the carer, not of Arjun."""
    from hela_desktop.older_news import gives_older

    old = "My carer Joan comes on Tuesdays and Thursdays."
    new = "Oh, and Joan's changed her days. She comes on Wednesdays now instead."
    assert not gives_older("Does Arjun go to nursery on Tuesdays?", "Yes, he goes on Tuesdays.",
                           old, new)
    assert gives_older("When does Joan come?", "She comes on Tuesdays and Thursdays.", old, new)
    assert gives_older("Does Arjun see Joan?", "Yes, Joan comes on Tuesdays and Thursdays.",
                       old, new)


def test_open_on_a_day_told_closed_is_marked():
    """QA pass 54d: "…We open at 7 am and close at 4 pm, and we're closed on Mondays."; "Are
    we open on Mondays?" answered "We're open on Mondays." and "Is the bakery closed on
    Monday?" answered "The bakery is open on Mondays." had no line; a right "No, the bakery
    is closed on Mondays." read "it says no, and you told me…"."""
    from hela_desktop.opposites import opposite

    told = ("I run a bakery called Pan Dulce in Bristol. We open at 7 am and close at 4 pm, "
            "and we're closed on Mondays.")
    said = "We open at 7 am and close at 4 pm, and we're closed on Mondays."
    for wrong in ("We're open on Mondays.", "The bakery is open on Mondays.",
                  "Yes, Mondays you are open until 4."):
        assert opposite(wrong, [(1, told)]) == {"kind": "opposite", "memory": 1, "said": said,
                                                "words": "open on Mondays"}, wrong
    for right in ("No, you're closed on Mondays.", "We are not open on Mondays.",
                  "You open at 7 am.", "You're open on Tuesdays."):
        assert opposite(right, [(1, told)]) is None, right
    assert opposite("The shop is closed on Sundays.", [(2, "We're open on Sundays too.")])[
        "words"] == "closed on Sundays"

    mems = [_recall(1, told)]
    line = f"Check this answer: it says “open on Mondays”, and you told me “{said}”"
    assert _line("Are we open on Mondays?", "We're open on Mondays.", mems) == line
    assert _line("Are we open on Mondays?", "Yes.", mems) == line
    assert _line("Are we open on Mondays?", "No, the bakery is closed on Mondays.", mems) == ""
    assert "it says no" in _line("Are we closed on Mondays?", "No.", mems)


def test_smoking_given_up_is_a_caution_and_saying_so_is_no_offer():
    """QA pass 54a: "I quit smoking in March." then "Is it OK for me to smoke one cigarette
    at the party on Saturday?" answered "It's not a big deal…" had no line. What was given
    up is kept off like a food; an answer that says it was given up offers nothing ("You
    gave up caffeine and smoking.", "You stopped smoking in March.")."""
    from hela_desktop.cautions import caution_of, cautions

    assert {"cigarette", "smoke", "vape"} <= caution_of("I quit smoking in March.")
    assert caution_of("I smoke.") == caution_of("I never smoke.") == frozenset()
    said = [(1, "I quit smoking in March."), (2, "I gave up caffeine in October.")]
    mems, cs = [_recall(i, t) for i, t in said], cautions(said)
    assert _line("Can I have a cigarette?", "Yes.", mems, cautions=cs) == (
        "Check this answer: it says yes to “cigarette”, and you told me “I quit smoking in "
        "March.”")
    for ask, answer in (("Have I quit smoking?", "Yes, you quit smoking in March."),
                        ("When did I stop smoking?", "You stopped smoking in March."),
                        ("What did I give up?", "You gave up caffeine and smoking.")):
        assert _line(ask, answer, mems, cautions=cs) == "", answer
    assert "“latte”" in _line("Can I have a latte?", "Sure, enjoy a latte.", mems, cautions=cs)


def test_a_wrong_age_of_the_user_quotes_the_age_told():
    """QA pass 54b: "How old am I?" answered "23" read "… “23” is in none of them: the model
    may have made it up." and never said she told it she is 22."""
    told = "Hi! I'm Isla, I'm 22 and a third-year geography student at the University of Edinburgh."
    mems = [_recall(1, told), _recall(2, "My sister Eilidh lives in Toronto, she's a nurse.")]
    line = _line("How old am I?", "You are 23 years old.", mems)
    assert line.startswith("Check this answer:") and "“23”" in line, line
    assert line.endswith("you told me “I'm Isla, I'm 22 and a third-year geography student at "
                         "the University of Edinburgh.”"), line
    assert _line("How old am I?", "You are 22 years old.", mems) == ""


def test_a_word_before_an_apposition_is_no_name_the_user_is_called():
    """QA pass 54b: "Beer, a specialty of Brew Lab's history is quite long." read "it calls
    you “Beer”, and your name is Isla."; "Sara, welcome to your unit." still calls her Sara
    (QA pass 42b)."""
    from hela_desktop.whom import greets_as

    mems = [_recall(1, "Hi! I'm Isla, I'm 22 and a geography student.")]
    assert greets_as("Tell me about Brew Lab.", "Beer, a specialty of Brew Lab's history is "
                     "quite long.", mems, yours=["Isla"]) is None
    assert greets_as("Tell me about Brew Lab.", "Sara, welcome to your unit.", mems,
                     yours=["Isla"]) == {"kind": "misnamed", "asked": "you", "said": "Sara",
                                         "yours": "Isla"}


def test_the_users_own_name_is_no_one_else_a_line_names(make_assistant):
    """QA pass 54c: "Where does my son live?" answered "He lives in Norwich." read "…what you
    told me of yourself and Margaret (“Norwich”)", Margaret being the user."""
    from test_qa_pass52 import _chat

    from hela_desktop.whom import misattributed

    told = "My name is Margaret, I'm 81 and a retired school librarian in Norwich."
    a = make_assistant()
    a.settings.max_answer_tokens = 4
    conv, _ = _chat(a, told, "My son Richard lives in Bristol.",
                    "My daughter Helen lives in Norwich and has twins, Oliver and Sophie.")
    ask = "Where does my son live?"
    mems = [e for e in a.chat(ask, conversation_id=conv) if e.type == "memories"][0].memories
    got = misattributed(ask, "He lives in Norwich.", mems, a.engine.people_in)
    assert got is not None and got["said"] == told and got["words"] == ["Norwich"], got
    assert "of" not in got, got  # (its line: "…what you told me of yourself (“Norwich”)…")


def test_a_dose_in_advice_about_a_medicine_told_is_checked():
    """QA pass 54a: "How many puffs of the blue one should I take?" (advice, "should I")
    answered with a dose had no line: only answers to questions for what the user told were
    read for numbers. Where the question shares words with a memory that gives a dose, the
    answer's doses are read, and the line says what was told; a general question ("How
    much paracetamol can I take?") quotes no memory of another medicine."""
    mems = [_recall(1, "I use a blue salbutamol inhaler, 100 micrograms, two puffs when I "
                       "need it."), _recall(2, "I take metformin 500 mg twice a day.")]
    assert _line("How many puffs of the blue one should I take?",
                 "Use 200 micrograms in each puff.", mems) == (
        "Check this answer: “200 micrograms” is in none of the memories it was given, so the "
        "model may have made it up; you told me “I use a blue salbutamol inhaler, 100 "
        "micrograms, two puffs when I need it.”")
    assert _line("How much metformin should I take?", "You should take 1000 mg of metformin "
                 "twice a day.", mems).endswith(
        "you told me “I take metformin 500 mg twice a day.”")
    assert _line("How much metformin should I take?", "500 mg twice a day.", mems) == ""
    general = _line("How much paracetamol can I take?",
                    "Adults can take 1000 mg up to four times a day.", mems)
    assert "metformin" not in general, general


def test_years_is_no_fact_taken_from_the_users_memory(make_assistant):
    """QA pass 54c: "How old will Oliver be on his birthday?" answered "Oliver will be 10
    years old today." read "it says of Oliver what you told me of yourself … (“years”): “I
    wear a hearing aid…”": a word of time is no fact of anyone's."""
    from test_qa_pass52 import _chat

    from hela_desktop.whom import misattributed

    a = make_assistant()
    a.settings.max_answer_tokens = 4
    mine = "My name is Margaret, I'm 81. I've worn a hearing aid in my left ear for years."
    conv, dones = _chat(a, mine, "My daughter Helen lives in Norwich and has twins, Oliver and "
                                 "Sophie, who turn 9 on 3 May.")
    ask = "How old will Oliver be on his birthday?"
    mems = [e for e in a.chat(ask, conversation_id=conv) if e.type == "memories"][0].memories
    mems = [r for r in mems if r.episode_id != dones[0].episode_id] + [
        _recall(dones[0].episode_id, mine)]  # (recalled or not: the line read it so)
    assert misattributed(ask, "Oliver will be 10 years old today.", mems,
                         a.engine.people_in) is None
    assert misattributed(ask, "Oliver wears a hearing aid in his left ear.", mems,
                         a.engine.people_in) is not None
