"""What the fifty-fifth pass found, fixed: what pass 54 noticed and left alone, and QA passes
55a–c (Priya, Gwen and Kemi)."""
from __future__ import annotations


def test_an_old_value_given_as_now_beside_the_new_is_older_news():
    """Pass 54 noticed: "The deadline was extended to 29 April, and it's now 15 April." gave
    the new date and then the old one as it is now, and had no line (the new date being in
    the sentence). A clause that says the old value is so "now", nothing new in it, gives
    it; the old value put in the past or denied beside the new one does not."""
    from hela_desktop.older_news import gives_older

    old = "My dissertation is on coastal erosion and it's due on 15 April."
    new = "Good news: my dissertation deadline got extended to 29 April."
    asked = "When is my dissertation deadline?"
    assert gives_older(asked, "The deadline was extended to 29 April, and it's now 15 April.",
                       old, new)
    assert gives_older(asked, "It is due on 15 April.", old, new)
    for fine in ("It was 15 April but now it is 29 April.",
                 "It was 15 April but it got extended to 29 April.",
                 "Your deadline is now 29 April, not 15 April.",
                 "It's now 29 April."):
        assert not gives_older(asked, fine, old, new), fine


def test_a_dose_lowered_by_a_doctor_is_older_news_and_the_medicine_still_a_caution(
        make_assistant):
    """QA pass 55b: after "My doctor has lowered my warfarin to 2.5 mg a day.", an answer
    giving "warfarin 3 mg" beside "…her doctor" had no line ("doctor" read as the new
    value). The store never handed the correction over (no cue for "lowered"), so the
    cautions quoted the replaced "…warfarin, 3 mg a day."; handed over, the warfarin
    caution must stand (a dose changed is still taken), quoted from the new dose. "Yes,
    aspirin…" is no older news of the dose ("take" is no old value)."""
    from test_qa_pass52 import _chat

    from hela_desktop.older_news import gives_older

    old = "I have atrial fibrillation and I take warfarin, 3 mg a day."
    new = "My doctor has lowered my warfarin to 2.5 mg a day."
    asked = "What's my warfarin dose?"
    assert gives_older(asked, "\"Last night, I had warfarin 3 mg for atrial fibrillation.\" "
                              "So, your wife was given an anti-treating medication by her "
                              "doctor.", old, new)
    assert not gives_older(asked, "You take 2.5 mg a day.", old, new)
    assert not gives_older("Can I take aspirin for a headache?",
                           "Yes, aspirin is good for a headache.", old, new)

    a = make_assistant()
    a.settings.max_answer_tokens = 4
    _chat(a, old, "I must avoid cranberry juice and keep my green vegetables steady.",
          "I'm allergic to aspirin.", new)
    cs = a._cautions("Can I have a glass of cranberry juice?", "", [])
    quoted = [c.text for c in cs]
    assert new in quoted and old not in quoted, quoted
    assert "aspirin" in next(c for c in cs if c.text == new).avoid
    # (the green vegetables are kept steady, not avoided)
    kept = next(c for c in cs if c.text.startswith("I must avoid"))
    assert "cranberry" in kept.avoid and "spinach" not in kept.avoid


def test_a_question_of_one_kind_leaves_out_only_what_is_of_that_kind():
    """QA pass 55b: "What medicine am I allergic to?" answered "I'm allergic to aspirin."
    read "it leaves out … cranberry juice", and "What should I avoid drinking?" answered
    "Avoid cranberry juice." read "it leaves out … aspirin". A medicine asked leaves out only
    medicines, a drink only drinks, a food no medicine."""
    from test_qa_pass51 import _line, _recall

    from hela_desktop.cautions import cautions
    from hela_desktop.food_groups import of_kind_asked

    assert of_kind_asked("What medicine am I allergic to?", {"aspirin", "cranberry"}) == {"aspirin"}
    assert of_kind_asked("What should I avoid drinking?", {"aspirin", "cranberry"}) == {"cranberry"}
    assert of_kind_asked("What can't I eat?", {"aspirin", "prawn"}) == {"prawn"}
    assert of_kind_asked("What am I allergic to?", {"aspirin", "prawn"}) == {"aspirin", "prawn"}

    mems = [_recall(1, "I must avoid cranberry juice."), _recall(2, "I'm allergic to aspirin.")]
    cs = cautions((r.episode_id, r.text) for r in mems)
    assert _line("What medicine am I allergic to?", "I'm allergic to aspirin.", mems,
                 cautions=cs) == ""
    assert _line("What should I avoid drinking?", "Avoid cranberry juice.", mems,
                 cautions=cs) == ""
    assert "“I'm allergic to aspirin.”" in _line("What medicine am I allergic to?",
                                                 "You have no allergies.", mems, cautions=cs)


def test_a_late_husband_is_the_husband_and_his_name_his_own():
    """QA pass 55b: "What was my husband called?" answered "…My late husband was called
    Dafydd." read "you have not told me about your husband", and, that mended, "it calls
    your husband “Dafydd”, the name of someone else" ("late" between "my" and "husband",
    and "was called")."""
    from hela_desktop import whom
    from hela_desktop.kin import kin

    told = "My late husband was called Dafydd."
    assert kin(told) == {"husband"}
    assert whom._given_names([told]) == {"dafydd": "husband"}
    assert whom._given_names(["My new partner is called Sam."]) == {"sam": "partner"}


def test_a_rent_gone_up_and_gym_days_changed_replace_the_old():
    """QA pass 55c: "My rent went up to £1,020." and "I've changed my gym days to Tuesdays
    and Fridays." replaced nothing (a sum is no dose; "Saturdays" and "Fridays" were read
    as two people's names, so the plans were of different people). The landlord told in
    the same sentence as the rent still holds, and "Your rent is £950 a month." is older
    news (it was read as of Mr Okafor, the one the sentence names)."""
    from hela_desktop import facts, superseded
    from hela_desktop.older_news import gives_older

    for text in ("My rent went up to £1,020.", "Our rent has gone up to £1,020 a month.",
                 "The landlord raised my rent to £1,020.",
                 "The vet has put Biscuit's Semintra up to 1.5 ml daily."):
        assert facts.corrects(text), text
    for text in ("The price went up to 20 pounds.", "Prices went up to £5 a loaf."):
        assert not facts.corrects(text), text
    old = "My landlord is called Mr Okafor and the rent is £950 a month."
    new = "My rent went up to £1,020."
    assert facts.corrects_memory(old, new)
    assert superseded.still_true(old, [new]) == "My landlord is called Mr Okafor."
    assert gives_older("What's my rent?", "Your rent is £950 a month.", old, new)
    assert not gives_older("What's my rent?", "Your rent is £1,020 a month.", old, new)
    assert not gives_older("Who is my landlord?", "Your landlord is Mr Okafor.", old, new)

    gym = "I go to the gym on Wednesdays and Saturdays."
    assert facts.SELF in facts.who(gym) and "saturdays" not in facts.who(gym)
    assert facts.corrects_memory(gym, "I've changed my gym days to Tuesdays and Fridays.")


def test_an_old_weekday_beside_a_new_one_is_older_news():
    """QA pass 55a: after "Tom has switched to Monday to Thursday nights now." (Tuesday to
    Friday before), "Tom works today, he's a Monday to Friday night employee." had no line:
    as much new as old. An old weekday given as now is older news whatever is beside it;
    put in the past or denied, it is not."""
    from hela_desktop.older_news import gives_older

    old = "My partner Tom works night shifts at the hospital, Tuesday to Friday."
    new = "Tom has switched to Monday to Thursday nights now."
    asked = "When does Tom work now?"
    assert gives_older(asked, "Tom works today, he's a Monday to Friday night employee.", old, new)
    for fine in ("Tom works Monday to Thursday nights.",
                 "He used to work Tuesday to Friday, but now it is Monday to Thursday.",
                 "Tom works Monday to Thursday now, not Tuesday to Friday."):
        assert not gives_older(asked, fine, old, new), fine


def test_a_dose_or_a_medicine_asked_and_not_given_is_left_out():
    """QA pass 55a: "How much Semintra does Biscuit get?" answered with no amount had no
    line; 55c: "What medicine do I take?" answered without one either. Asked how much, an
    answer with no dose leaves out the memory that gives one; asked which medicine, one
    naming none of those told."""
    from test_qa_pass51 import _line, _recall

    from hela_desktop.doses import dose_left_out

    cat = "The vet has put Biscuit's Semintra up to 1.5 ml daily."
    own = "I have epilepsy and I take lamotrigine 150 mg twice a day."
    mems = [_recall(1, own), _recall(2, cat)]
    pairs = [(r.episode_id, r.text) for r in mems]
    assert dose_left_out("How much Semintra does Biscuit get?",
                         "She is receiving a medication called Semintra.", pairs)["memory"] == 2
    assert dose_left_out("How much Semintra does Biscuit get?", "1.5 ml a day.", pairs) is None
    assert dose_left_out("What medicine do I take?", "You take a tablet every day.",
                         pairs)["memory"] == 1
    assert dose_left_out("What medicine do I take?", "You take lamotrigine.", pairs) is None
    assert dose_left_out("How many cats do I have?", "One.", pairs) is None
    assert _line("How much lamotrigine do I take?", "Lamotrigine is used for epilepsy.", mems) == (
        f"Check this answer: it leaves out what you told me: “{own}”")


def test_asked_who_an_answer_naming_another_of_theirs_is_passed_over():
    """QA pass 55a: "Who visits on Sundays?" answered "…your friend, Tom, … still lives in
    Leicester." had no line: the mum's "Leicester" read as saying something of her memory.
    Asked who, an answer naming none of that memory's people and another's is answered from
    the other. And "Your mother visits…" uses "My mum Lakshmi…" (a relation in any of its
    words: it read "it uses none of the memories")."""
    from test_qa_pass51 import _line, _recall

    from hela_desktop.edges import used_by_answer

    mum = "My mum Lakshmi lives in Leicester and visits on Sundays."
    tom = "Tom has switched to Monday to Thursday nights now."
    mems = [_recall(1, mum), _recall(2, tom)]
    def named(text):  # (the names the user's memories hold, as the store reads them)
        return {n for n in ("tom", "lakshmi") if n in text.lower()}

    line = _line("Who visits on Sundays?", "You are referring to your friend, Tom, who has "
                 "switched jobs. Tom works night shifts at the hospital but still lives in "
                 "Leicester.", mems, names=named)
    assert line.startswith(f"Check this answer: only “{mum}”"), line
    assert _line("Who visits on Sundays?", "Lakshmi does.", mems) == ""
    assert used_by_answer([(1, mum)], "Who visits on Sundays?", "Your mother visits.") == {1}
    assert _line("Who visits on Sundays?", "Your mother visits on Sundays.", mems) == ""


def test_a_pets_new_dose_replaces_the_dose_not_the_illness_or_the_diet():
    """QA pass 55a: "The vet has put Biscuit's Semintra up to 1.5 ml daily." was no
    correction ("Biscuit's" between "put" and "up"); read as one, it replaced all of "My cat
    Biscuit has kidney disease. She's on a renal diet and takes a tablet called Semintra, 1
    ml daily." (sharing "Biscuit"). A new dose replaces what gives that medicine a dose."""
    from hela_desktop import facts, superseded

    old = ("My cat Biscuit has kidney disease. She's on a renal diet and takes a tablet called "
           "Semintra, 1 ml daily.")
    new = "The vet has put Biscuit's Semintra up to 1.5 ml daily."
    assert facts.corrects(new) and facts.corrects_memory(old, new)
    assert superseded.still_true(old, [new]) == (
        "My cat Biscuit has kidney disease. She's on a renal diet.")
    assert superseded.still_true("I have atrial fibrillation and I take warfarin, 3 mg a day.",
                                 ["My doctor has lowered my warfarin to 2.5 mg a day."]) == (
        "I have atrial fibrillation.")


def test_a_doing_never_done_said_yes_to_is_marked_and_a_no_to_it_is_not():
    """QA pass 55c: "Can I drive to work?" answered "I'd be happy to help you drive
    somewhere" had no line, "I don't drive. I cycle to work…" told; and a right "No." read
    "it says no, and you told me “I don't drive…”". A doing the user says they don't do is
    one given up (`gave_up`), and a memory that denies it holds no yes to it; "I don't eat
    pork" is no doing never done (its food is the caution's)."""
    from test_qa_pass51 import _line, _recall

    told = "I don't drive. I cycle to work at St Mary's hospital."
    mems = [_recall(1, told), _recall(2, "I'm vegan.")]
    line = f"Check this answer: it says yes, and you told me “{told}”"
    assert _line("Can I drive to work?", "I'd be happy to help you drive somewhere, I'm "
                 "ready!", mems) == line
    assert _line("Can I drive to work?", "Yes, of course.", mems) == line
    assert _line("Can I drive to work?", "No.", mems) == ""
    assert _line("Can I drive to work?", "No, you don't drive; you cycle.", mems) == ""
    assert _line("Do I cycle to work?", "No.", mems) == (
        f"Check this answer: it says no, and you told me “{told}”")
    pork = [_recall(1, "I don't eat pork.")]
    assert _line("Can I eat chicken?", "Yes.", pork) == ""


def test_a_new_dose_makes_only_the_old_dose_older_news():
    """QA pass 55c: after "My neurologist increased my lamotrigine to 150 mg twice a day.",
    answers naming lamotrigine and no dose ("…taking lamotrigine twice a day…") read "it
    may give older news": the old memory's other words ("take") counted as its old value.
    A new dose outdates the old dose only."""
    from hela_desktop.older_news import gives_older

    old = "I have epilepsy and I take lamotrigine 100 mg twice a day."
    new = "My neurologist increased my lamotrigine to 150 mg twice a day."
    assert not gives_older("Is lamotrigine safe to stop suddenly?",
                           "The FDA says lamotrigine is taken twice a day for epilepsy.", old, new)
    assert not gives_older("My GP wants to give me flucloxacillin. Is that OK?",
                           "You are taking lamotrigine twice a day, so it is fine.", old, new)
    assert gives_older("How much lamotrigine do I take?", "You take 100 mg twice a day.", old, new)


def test_a_move_to_a_place_named_like_a_time_of_day_is_a_move():
    """QA pass 55d: "We've moved to Morningside." corrected nothing ("Morning…" read as a
    plan moved to a morning), so "I live in Leith." stayed current and lines quoted it; and
    "Actually I don't live in Leith any more, I live in Morningside." then corrected the
    Morningside memory too, which already said so."""
    from hela_desktop import facts

    fix = "Actually I don't live in Leith any more, I live in Morningside."
    for new in ("We've moved to Morningside.", "I moved to Morningside.", fix):
        assert facts.corrects_memory("I live in Leith.", new), new
    assert not facts.corrects_memory("We've moved to Morningside.", fix)
    assert facts.corrects_memory("We moved to Leith.", fix)
    assert facts.corrects_memory("My dentist appointment is on Tuesday at 10 am.",
                                 "The dentist moved to Wednesday morning.")


def test_a_pb_corrected_is_the_personal_best_not_the_race_on_the_same_number():
    """QA pass 55e: "Actually my PB is now 3:19, I ran it in Chester in October." was noted
    as correcting "I'm training for the Manchester Marathon on 19 April." (the 19 of 3:19),
    not "My personal best is 3:24." ("PB" was no "personal best"), so "Your personal best is
    3:24." had no line and the race date read as older news."""
    from hela_desktop import facts, superseded
    from hela_desktop.older_news import gives_older

    old = "I'm training for the Manchester Marathon on 19 April. My personal best is 3:24."
    new = "Actually my PB is now 3:19, I ran it in Chester in October."
    assert {"perso", "best"} <= facts.terms(new)
    assert superseded.still_true(old, [new]) == (
        "I'm training for the Manchester Marathon on 19 April.")
    assert gives_older("What's my personal best?", "Your personal best is 3:24.", old, new)
    assert not gives_older("When is my marathon?", "Your marathon is on 19 April.", old, new)


def test_a_number_in_figures_uses_the_memory_that_spells_it_and_her_midwifes_word_counts():
    """QA pass 55e: "How many puffs do I take?" answered "You have a total of 2 puffs." read
    "it uses none of the memories recalled for it" ("…two puffs before running." told);
    and of "My partner Hannah is 20 weeks pregnant… Her midwife said no soft cheese, no
    liver and no alcohol." only the first sentence was Hannah's ("Her" going on of her)."""
    from test_qa_pass51 import _line, _recall

    from hela_desktop.cautions import caution_of_others
    from hela_desktop.edges import used_by_answer

    told = "I have asthma and use a blue salbutamol inhaler, two puffs before running."
    assert used_by_answer([(1, told)], "How many puffs do I take?", "A total of 2 puffs.") == {1}
    assert _line("How many puffs do I take?", "You have a total of 2 puffs.",
                 [_recall(1, told)]) == ""
    hannah = ("My partner Hannah is 20 weeks pregnant, due on 28 August. Her midwife said no "
              "soft cheese, no liver and no alcohol.")
    avoid, said = caution_of_others(hannah, {"hannah", "partner"})
    assert said == hannah and {"brie", "liver", "beer"} <= avoid


def test_a_unit_asked_makes_no_memory_older_news_of_another_medicines_dose(make_assistant):
    """QA pass 55f: "How many mg of sumatriptan do I take?" made "I get migraines and take
    sumatriptan 50 mg for them." older news of "His consultant increased his donepezil to
    10 mg." (both say "mg", and the question asks it), and the line read "it may give older
    news"; and "What dose of donepezil is he on now?" answered with no dose had no line."""
    from test_qa_pass52 import _chat

    from hela_desktop.doses import dose_left_out

    a = make_assistant()
    a.settings.max_answer_tokens = 4
    conv, _ = _chat(a, "I look after my dad, Wing. He takes donepezil 5 mg at night.",
                    "I get migraines and take sumatriptan 50 mg for them.",
                    "His consultant increased his donepezil to 10 mg.")
    mems = [e for e in a.chat("How many mg of sumatriptan do I take?", conversation_id=conv)
            if e.type == "memories"][0].memories
    suma = next(r for r in mems if "sumatriptan" in r.text)
    assert suma.extra.get("superseded_by") is None and suma.extra.get("older_than") is None

    new = [(8, "His consultant increased his donepezil to 10 mg.")]
    assert dose_left_out("What dose of donepezil is he on now?",
                         "Dad is allergic to didizil, but not really changed his dose.",
                         new)["memory"] == 8
    assert dose_left_out("What dose of donepezil is he on now?", "He takes 10 mg.", new) is None


def test_the_landlord_putting_the_rent_up_corrects_the_rent():
    """QA pass 55g: "The landlord put the rent up to £3,500." was no correction of "The rent
    for the restaurant is £3,200 a month.", so "…3,200 pounds…" had no line."""
    from hela_desktop import facts
    from hela_desktop.older_news import gives_older

    old, new = "The rent for the restaurant is £3,200 a month.", "The landlord put the rent up to £3,500."
    assert facts.corrects(new) and facts.corrects_memory(old, new)
    assert gives_older("What's the restaurant rent?",
                       "The restaurant's rent is 3,200 pounds a month.", old, new)
    assert not gives_older("What's the restaurant rent?", "The rent is £3,500 a month.", old, new)
