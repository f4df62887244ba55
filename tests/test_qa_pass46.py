"""What the forty-sixth pass found, fixed (and what the forty-fifth left open)."""
from __future__ import annotations

import time

import pytest

from hela_desktop.events import Recall
from hela_desktop.memory import NewEpisode

KARIM = ["Hi, I'm Nadia Haddad and I work in a pharmacy in Cardiff.",
         "Our son Karim is 6 and allergic to sesame.",
         "My husband Omar takes lithium.",
         "Karim turned 7 on Saturday.",
         "Good news: Karim has outgrown his sesame allergy."]


def _told(a, texts: list[str]) -> list[int]:
    now = time.time()
    return a.engine.add_episodes([NewEpisode(t, created_at=now - (len(texts) - i) * 600)
                                  for i, t in enumerate(texts)])


def _admit(a, message: str):
    from hela_desktop.gate import RelevanceGate

    qv = a.engine.embed_query(message)
    return RelevanceGate(a.engine, a.settings.gate).admit(
        message, a.engine.retrieve(message, query_vec=qv, now=time.time()), qv)


def test_what_still_holds_reads_every_stored_correction(make_assistant):
    """QA pass 45e: with only the allergy news recalled, the why-recalled panel read
    "Corrected in part by the newer memory #7; the rest still holds: “Our son Karim is
    6.”", "Karim turned 7 on Saturday." told before it."""
    from hela_desktop.gate import RelevanceGate

    a = make_assistant()
    _, old, _, age, allergy = _told(a, KARIM)
    texts = a.store.key_texts({old, allergy})
    mems = [Recall(episode_id=i, score=1.0, text=texts[i],
                   extra={"statement": True, "gate": "evidence"}) for i in (allergy, old)]
    kept, gone = RelevanceGate(a.engine, a.settings.gate)._supersede(mems, {"karim"})
    (r,) = gone
    assert r.episode_id == old and r.extra["superseded_by"] == allergy
    assert r.extra["corrected_also"] == [age]
    assert "still_true" not in r.extra  # the age and the allergy both replaced
    # one correction only: the rest still holds, as before
    a2 = make_assistant(a.data_dir.parent / "two")
    _, old, _, allergy = _told(a2, KARIM[:3] + KARIM[4:])
    texts = a2.store.key_texts({old, allergy})
    mems = [Recall(episode_id=i, score=1.0, text=texts[i],
                   extra={"statement": True, "gate": "evidence"}) for i in (allergy, old)]
    _, (r,) = RelevanceGate(a2.engine, a2.settings.gate)._supersede(mems, {"karim"})
    assert r.extra["still_true"] == "Our son Karim is 6." and "corrected_also" not in r.extra


def test_a_correction_brought_by_a_name_is_not_older_news(make_assistant):
    """QA pass 45e (twice): "Karim turned 7 on Saturday." came in through Karim's name and
    was listed "(older news)" after "Good news: Karim has outgrown his sesame allergy.",
    both corrections of the same memory."""
    a = make_assistant()
    _, old, _, age, allergy = _told(a, KARIM)
    for ask in ("Does Karim still have a sesame allergy?", "Is Karim allergic to anything?"):
        res = _admit(a, ask)
        by_id = {r.episode_id: r for r in res.admitted}
        assert {old, age, allergy} <= set(by_id)
        assert by_id[old].extra["superseded_by"] == allergy
        assert by_id[age].extra.get("older_than") is None, ask


def test_a_non_answer_leaves_out_the_correction_of_what_was_asked(make_assistant):
    """QA pass 45e (P2, P6): "Is Karim 6?" answered "Today. (present)" read "it leaves out
    what you told me: “Good news: Karim has outgrown his sesame allergy.”": the memory left
    out is the new age."""
    from hela_desktop.doubt import answer_doubt
    from hela_desktop.sources import doubt_note

    a = make_assistant()
    ids = _told(a, KARIM)
    for ask, said in (("Is Karim 6?", KARIM[3]), ("Is Karim allergic to sesame?", KARIM[4])):
        res = _admit(a, ask)
        assert set(ids[1:2] + ids[3:]) <= {r.episode_id for r in res.admitted}
        doubt = answer_doubt(ask, "Today. (present)", res.admitted, set(), a.engine.people_in,
                             user_names=a.engine.user_names())
        assert doubt_note(doubt, [{"episode_id": r.episode_id, "text": r.text}
                                  for r in res.admitted]) \
            == f"Check this answer: it leaves out what you told me: “{said}”", ask


GRACE = "Hello, I'm Grace and my husband Daniel takes lithium."


def test_the_users_statement_said_back_is_no_warning_and_speaks_as_the_user_only(
        make_assistant, seed_dir):
    """The 45th pass's last check (the README's `make run`, a fresh clone): "Can Daniel take
    ibuprofen for his headache?" answered with the statement word for word read "it speaks
    as if it were Daniel (“I'm Grace and”). Also: it speaks as if it were you (“I'm
    Grace”)." (Grace is the user), and naming lithium counted as heeding the caution."""
    from hela_desktop.cautions import cautions, heeded, missed
    from hela_desktop.doubt import answer_doubt
    from hela_desktop.sources import doubt_note

    ask = "Can Daniel take ibuprofen for his headache?"
    (c,) = cautions([(1, GRACE)], about={"daniel"})
    assert missed(GRACE, c, ask) and not heeded(GRACE, c, ask)
    # the condition named in words of its own still heeds it
    for answer in ("Best to check with his doctor first, as he takes lithium.",
                   "No, ibuprofen and lithium do not mix."):
        assert heeded(answer, c, ask) and not missed(answer, c, ask), answer
    a = make_assistant(seed_dir([(GRACE, "")]))
    mems = [Recall(episode_id=1, score=1.0, text=GRACE)]
    doubt = answer_doubt(ask, GRACE, mems, {1}, a.engine.people_in, known=GRACE,
                         user_names=a.engine.user_names(), cautions=[c], own_names=("Grace",))
    note = doubt_note(doubt, [{"episode_id": 1, "text": GRACE}])
    assert "as if it were Daniel" not in note
    assert note.startswith("Check this answer: it does not say no to “ibuprofen”"), note


def test_news_is_no_word_an_answer_draws_on():
    """QA pass 45e: "Today. (present) The above-mentioned news is not related to the
    conversation…" read "Used from your memories: “Good news: Karim has outgrown his
    sesame…”", by the word "news" alone."""
    from hela_desktop.edges import used_by_answer

    mems = [(5, KARIM[4]), (4, KARIM[3])]
    ask = "Can Karim have hummus?"
    assert used_by_answer(mems, ask, "Today. (present) The above-mentioned news is not "
                          "related to the conversation.") == set()
    assert used_by_answer(mems, ask, "Yes: he has outgrown his sesame allergy.") == {5}


def test_a_medicine_by_name_is_a_medication_told():
    """One list of medicine names for the checks (older_news and doubt had two, and only
    one knew lithium): "Is Daniel on any medication?" is asked of "…takes lithium"."""
    from hela_desktop.older_news import holds_asked

    assert holds_asked("Is Daniel on any medication?", "My husband Daniel takes lithium.")
    assert holds_asked("Is my dad on any medication?", "My dad takes allopurinol.")
    assert not holds_asked("Is Daniel on any medication?", "My husband Daniel plays chess.")


PRIYA = "Hi, I'm Priya Nair, a chemistry teacher at a secondary school in Leeds."
DEPUTY = "I got the deputy head job at a school in York!"
MOVED = "We moved to York last month."


def test_a_move_corrects_no_job_and_a_new_job_corrects_the_old():
    """QA pass 46a: "We moved to York last month." was noted as a correction of "I got the
    deputy head job at a school in York!" (a workplace's town read as a home), and the new
    job never put aside "…a chemistry teacher at a secondary school in Leeds."."""
    from hela_desktop import facts, superseded

    assert not facts.corrects_memory(DEPUTY, MOVED)
    assert not facts.corrects_memory(PRIYA, MOVED)  # (the school's town, not her home)
    assert facts.corrects_memory("Hi, I'm Priya Nair, a software engineer in Manchester.", MOVED)
    for job in (DEPUTY, "I got a job as a nurse at the Royal."):
        assert facts.corrects_memory(PRIYA, job), job
    # (a promotion leaves the old job as true as it was: QA pass 47b, "Kenji has just been
    # promoted to team leader at the ambulance station." marked "Kenji is a paramedic." as
    # older news, and three right answers were read as giving it)
    assert not facts.corrects_memory(PRIYA, "I was promoted to deputy head.")
    assert not facts.corrects_memory(
        "Kenji is a paramedic.", "Kenji has just been promoted to team leader at the ambulance station.")
    assert superseded.still_true(PRIYA, [DEPUTY]) == "Hi, I'm Priya Nair."
    assert not facts.corrects("I got the lead role in the school play.")


def test_a_date_given_again_is_no_correction_of_the_memory_that_gave_it():
    """QA pass 46a (P9): "Scratch that about the dentist, it's back on Monday the 14th after
    all." was noted as correcting "My dentist appointment is on Monday the 14th." too, and
    the reply "You're right, it's Monday the 14th after all." read "it may give older news —
    “…the dentist moved it to Wednesday the 16th.” is newer"."""
    from hela_desktop import facts
    from hela_desktop.doubt import answer_doubt

    monday = "My dentist appointment is on Monday the 14th."
    wednesday = "Sorry, the dentist moved it to Wednesday the 16th."
    back = "Scratch that about the dentist, it's back on Monday the 14th after all."
    assert not facts.corrects_memory(monday, back) and facts.corrects_memory(wednesday, back)
    mems = [Recall(episode_id=2, score=1.0, text=wednesday, extra={"statement": True}),
            Recall(episode_id=1, score=1.0, text=monday,
                   extra={"statement": True, "superseded_by": 2, "older_than": 2})]
    answer = "You're right, it's Monday the 14th after all."
    assert answer_doubt(back, answer, mems, {1}, corrected=[(2, wednesday)]) is None
    # without the correction it is older news, as before
    assert answer_doubt("When is my dentist appointment?", answer, mems, {1})["kind"] == "older"


def test_a_diet_corrected_takes_its_caution_with_it(make_assistant):
    """QA pass 46a (P7, P8): after "Sam has started eating fish, so he's pescatarian now
    rather than vegetarian." the reply read "it names “fish” without a word of warning, and
    you told me “My partner Sam is vegetarian.”", and so did "Is Sam still vegetarian?"."""
    from hela_desktop.knowledge import standing_cautions

    a = make_assistant()
    veg, = _told(a, ["My partner Sam is vegetarian."])
    fish = "Sam has started eating fish, so he's pescatarian now rather than vegetarian."
    whom = {"about": {"sam"}}
    # the message that corrects it, not yet a memory
    said = [(0, fish), (veg, "My partner Sam is vegetarian.")]
    found = standing_cautions(a.store, said, {veg: fish}, **whom)
    assert [c.episode_id for c in found] == [0] and "fish" not in found[0].avoid
    assert "chicken" in found[0].avoid  # (pescatarian: still no meat)
    # a later turn: the correction stored
    new, = _told(a, [fish])
    found = standing_cautions(a.store, [(veg, "My partner Sam is vegetarian."), (new, fish)],
                              **whom)
    assert [c.episode_id for c in found] == [new]
    # an age corrected leaves the allergy said with it
    b = make_assistant(a.data_dir.parent / "b")
    old, age = _told(b, [KARIM[1], KARIM[3]])
    (c,) = standing_cautions(b.store, [(old, KARIM[1]), (age, KARIM[3])], about={"karim"})
    assert c.episode_id == old and "sesame" in c.avoid


def test_an_allergy_named_is_no_warning_against_a_childs_beer():
    """QA pass 46a (Q16): "Can Arjun have a beer at his birthday party?", Arjun 13, answered
    "…I understand that Arjun has a tree nut allergy… bring a cake…" with no line: naming
    his allergy counted as heeding the alcohol caution."""
    from hela_desktop.cautions import heeded, missed
    from hela_desktop.minors import under_age

    ask = "Can Arjun have a beer at his birthday party?"
    (c,) = under_age([(4, "Our son Arjun is 12 and has a tree nut allergy."),
                      (12, "Arjun turned 13 on Sunday.")], {"arjun"}, ask)
    answer = "I understand that Arjun has a tree nut allergy, so please bring a cake."
    assert missed(answer, c, ask) and not heeded(answer, c, ask)
    assert not missed("No, Arjun is too young for beer.", c, ask)


def test_what_others_eat_is_no_offer_in_a_reply_to_a_statement():
    """QA pass 46a: three of twelve replies to facts had a false caution line: "If your
    partner is a meat-eater…", "There are people who have tree nuts on their diet" (the
    reply to the allergy itself), and "She loves eating sweets too…" (the cat), the user
    diabetic."""
    from hela_desktop.cautions import cautions, offered

    sam = "My partner Sam is vegetarian."
    (c,) = cautions([(3, sam)], about={"sam"})
    assert offered("If your partner is a meat-eater, there's no excuse to assume she'll eat "
                   "the same as everyone else.", c, sam) == []
    assert offered("Sam could try a chicken curry.", c, sam) == ["chicken"]
    arjun = "Our son Arjun is 12 and has a tree nut allergy."
    (c,) = cautions([(4, arjun)], about={"arjun"})
    assert offered("There are people who have tree nuts on their diet, and they must be "
                   "careful.", c, arjun) == []
    assert offered("Arjun can have tree nuts on his birthday.", c, arjun) == ["nuts"]
    (c,) = cautions([(2, "I have type 1 diabetes and use insulin.")])
    assert offered("She loves eating sweets too, which is why I like to offer her "
                   "chocolates.", c, "We have a cat called Mango.") == []
    assert offered("You could have some sweets tonight.", c, "What can I have tonight?") \
        == ["sweets"]


def test_a_never_elsewhere_is_no_no_to_the_question(make_assistant):
    """QA pass 46a (Q15): "Is Arjun 12?", Arjun 13 now, answered "…He is a true hero… His
    story is one that many have never heard before…" had no line: the "never" of another
    sentence was read as a no."""
    from hela_desktop.doubt import answer_doubt

    a = make_assistant()
    old, new = _told(a, ["Our son Arjun is 12 and has a tree nut allergy.",
                         "Arjun turned 13 on Sunday."])
    res = _admit(a, "Is Arjun 12?")
    answer = ("I'm glad to hear about your son Arjun's journey. He is a true hero. His story "
              "is one that many have never heard before.")
    doubt = answer_doubt("Is Arjun 12?", answer, res.admitted, set(), a.engine.people_in)
    assert doubt == {"kind": "left_out", "memory": new, "said": "Arjun turned 13 on Sunday."}
    for no in ("Arjun is not 12.", "He isn't."):
        assert answer_doubt("Is Arjun 12?", no, res.admitted, set(), a.engine.people_in) is None


@pytest.mark.parametrize(("said", "meant", "taken"), [
    # (what it does not take back stays, QA pass 46c: Manchester was lost)
    ("My sister Divya is a nurse in Manchester, no wait, she's a midwife, not a nurse.",
     "My sister Divya is a midwife, not a nurse. My sister Divya lives in Manchester.",
     "My sister Divya is a nurse"),
    # (QA pass 46c: "a" for "an" was no piece of its kind, and the message was kept whole)
    ("My neighbour Tom is a plumber, sorry, I mean an electrician.",
     "My neighbour Tom is an electrician.", "a plumber"),
    ("My wife Ingrid is pregnant with twins, no wait, she is not pregnant; our daughter Sofie "
     "is pregnant.", "My wife Ingrid is not pregnant; our daughter Sofie is pregnant.",
     "My wife Ingrid is pregnant with twins"),
    ("My dentist appointment is on Monday the 14th, sorry, I mean Wednesday the 16th.",
     "My dentist appointment is on Wednesday the 16th.", "Monday the 14th"),
    ("Chidi lives in Lagos, no wait, Abuja.", "Chidi lives in Abuja.", "Lagos"),
    ("Book club is on Thursday. No wait, it's on Tuesday.", "Book club is on Tuesday.",
     "Book club is on Thursday"),
    ("I'm allergic to peanuts, I mean tree nuts.", "I'm allergic to tree nuts.", "peanuts"),
    ("My son is 7 - sorry, 8.", "My son is 8.", "7"),
    ("My mum lives in Kochi. She takes warfarin, no wait, apixaban.",
     "My mum lives in Kochi. She takes apixaban.", "warfarin"),
    ("Hi, I'm Priya. My brother Chidi is a pilot, no wait, Tunde is the pilot.",
     "Hi, I'm Priya. Tunde is the pilot.", "My brother Chidi is a pilot"),
])
def test_what_a_message_takes_back_is_left_out(said, meant, taken):
    """QA passes 45d and 46a: "My wife Ingrid is pregnant…, no wait, she is not pregnant;
    our daughter Sofie is pregnant." was kept whole, and later answers said Ingrid was
    pregnant with no line."""
    from hela_desktop.taken_back import as_meant

    assert as_meant(said) == (meant, taken)


@pytest.mark.parametrize("said", [
    "I mean it, thank you.", "Sorry, I'm late.", "It was great, I mean really great.",
    "Thanks, sorry, that was rude.", "I love it, I mean who doesn't?",
    "The dentist moved it to Wednesday, no wait, it's on Thursday.",  # ("it": the plan?)
    "My daughter Amara is allergic to peanuts, I mean, she was, she has outgrown it.",
    "What is my son's age, I mean, how old is he?", "My sister is a nurse in Manchester.",
])
def test_what_takes_nothing_back_plainly_is_kept_as_written(said):
    from hela_desktop.taken_back import as_meant

    assert as_meant(said) is None


def test_the_turn_keeps_the_message_as_meant_and_says_so(make_assistant):
    """The memory holds what the user meant, the chat what they wrote, and the line under
    the answer says how it was read."""
    from hela_desktop.events import DoneEvent
    from hela_desktop.sources import respelled_note

    a = make_assistant()
    said = "My sister Divya is a nurse in Manchester, no wait, she's a midwife, not a nurse."
    done = [ev for ev in a.chat(said) if isinstance(ev, DoneEvent)][-1]
    meant = "My sister Divya is a midwife, not a nurse. My sister Divya lives in Manchester."
    assert a.store.key_texts([done.episode_id]) == {done.episode_id: meant}
    assert [m["content"] for m in a.store.messages(done.conversation_id)
            if m["role"] == "user"] == [said]
    assert respelled_note(done.respelled) == (
        "Read your message without what you took back (“My sister Divya is a nurse”): “My "
        "sister Divya is a midwife, not a nurse. My sister Divya lives in Manchester.” is "
        "what I keep.")


def test_a_job_given_up_for_another_corrects_the_old_one():
    """QA pass 46b: "Piotr quit cooking; he teaches history now." was no correction, and
    "He is a chef" went unmarked four times."""
    from hela_desktop import facts, superseded

    chef = "My brother Piotr is a chef in Kraków."
    now = "Piotr quit cooking; he teaches history now."
    assert facts.corrects_memory(chef, now)
    assert superseded.on_subject(chef, now) == "My brother Piotr is a chef"
    # (a habit is no job: "quit smoking", "runs every morning now")
    for said in ("I quit smoking.", "Piotr runs every morning now."):
        assert not facts.change_kinds("Piotr is a chef.", said), said


def test_a_job_title_names_no_food_and_markup_is_cut():
    """QA pass 46b (q1): "…I'm a skilled pastry chef in Warsaw, Poland. (today; more
    specific details, since replaced by your job description)" read "it names “pastry”
    without a word of warning", the user coeliac, and the note copied from the prompt
    stayed."""
    from hela_desktop.cautions import cautions, offered
    from hela_desktop.prompt import AnswerFilter

    (c,) = cautions([(2, "I'm coeliac, so no gluten for me.")])
    assert offered("I'm a skilled pastry chef in Warsaw, Poland.", c, "What is my job?") == []
    assert offered("Try a pastry from the bakery.", c, "What should I eat?") == ["pastry"]
    f = AnswerFilter()
    text = ("I'm a skilled pastry chef in Warsaw. (today; more specific details, since "
            "replaced by your job description)")
    assert f.push(text) + f.flush() == "I'm a skilled pastry chef in Warsaw."


def test_an_age_is_no_old_state_of_allergy_news(make_assistant):
    """QA pass 46b: "Our twins Zofia and Jan are 15." was listed "(older news)" after
    "Zofia has grown out of her shellfish allergy, the doctor confirmed it."."""
    a = make_assistant()
    twins, allergy, over = _told(a, ["Our twins Zofia and Jan are 15.",
                                     "Zofia is allergic to shellfish.",
                                     "Zofia has grown out of her shellfish allergy, the doctor "
                                     "confirmed it."])
    for ask in ("Is Zofia allergic to anything?", "Can Zofia eat shellfish now?"):
        by_id = {r.episode_id: r for r in _admit(a, ask).admitted}
        assert by_id[allergy].extra.get("superseded_by") == over, ask
        assert twins not in by_id or by_id[twins].extra.get("older_than") is None, ask


def test_methotrexate_sets_a_painkiller_caution():
    """QA pass 46b (P1): "…she takes both methotrexate for her arthritis and ibuprofen" had
    no line (the NHS's methotrexate page: ibuprofen and the like)."""
    from hela_desktop.cautions import cautions, missed, offered

    ask = "Can Ewa take ibuprofen for her knee?"
    (c,) = cautions([(3, "My wife Ewa takes methotrexate for her arthritis.")], about={"ewa"})
    assert "ibuprofen" in c.avoid
    assert offered("She takes both methotrexate for her arthritis and ibuprofen to manage "
                   "it.", c, ask) == ["ibuprofen"]
    assert not missed("No, not with her methotrexate; paracetamol is safer.", c, ask)


def test_a_households_children_as_such_are_cautioned_against_alcohol(make_assistant):
    """QA pass 46b (P4): "Suggest a birthday cake for the twins." got a peach bourbon cake
    with no alcohol caution, "Our twins Zofia and Jan are 15." told: a message of the
    household read as of adults too."""
    from hela_desktop.cautions import cautions, offered

    a = make_assistant()
    _, twins, _ = _told(a, ["Hello, my name is Marek Nowak and I drive buses in Glasgow.",
                            "Our twins Zofia and Jan are 15.", "Zofia is allergic to shellfish."])
    ask = "Suggest a birthday cake for the twins."
    (c,) = a._under_age(ask, a._asked_about(ask))
    assert c.episode_id == twins and "bourbon" in c.avoid
    assert offered("A peach bourbon cake would be lovely.", c, ask) == ["bourbon"]
    assert a._under_age("Suggest drinks for the whole family at Christmas.", frozenset()) == []
    assert not cautions([(twins, "Our twins Zofia and Jan are 15.")], about={"zofia", "jan"})


def test_another_peoples_word_is_no_made_up_name():
    """QA pass 46b: "Belarusian" was listed as a name the model may have made up. ("Europe",
    listed in 46a for "…some of Europe's top universities", still is: a tour of Europe
    never told is made up, QA pass 29.)"""
    from hela_desktop.made_up import made_up

    known = "My brother Piotr is a chef in Kraków."
    assert made_up("He is a Belarusian chef.", known) == []
    assert made_up("He is a chef in Minsk.", known) == ["Minsk"]


def test_a_lists_numbering_is_no_number_an_answer_draws_on():
    """QA pass 46a (Q18): a hike list ("1. Sunscreen 20 SPF; … 3. Waterproof jacket") read
    "Used from your memories: “I have type 1 diabetes and use insulin.”" by its "1.", and
    the line "what you told me may matter here" was left out."""
    from hela_desktop.edges import used_by_answer

    mems = [(2, "I have type 1 diabetes and use insulin.")]
    ask = "What should I keep in my bag for a long hike?"
    assert used_by_answer(mems, ask, "Remember:\n1. Sunscreen 20 SPF;\n3. Waterproof jacket;") \
        == set()
    assert used_by_answer(mems, ask, "Bring your insulin, and 1 spare pen.") == {2}


def test_a_stored_correction_comes_as_newer_news_however_unlike(make_assistant):
    """QA pass 46c (P6): "Do I still teach chemistry in Leeds?" was answered "Yes, indeed, I
    teach chemistry here…" with no older-news line: the new job, unlike the question, was
    not recalled (and no store lookup found a correction without a correction's word)."""
    from hela_desktop.doubt import answer_doubt

    a = make_assistant()
    intro, _, job = _told(a, [PRIYA, "I have type 1 diabetes and use insulin.", DEPUTY])
    res = _admit(a, "Do I still teach chemistry in Leeds?")
    by_id = {r.episode_id: r for r in res.admitted}
    assert by_id[job].extra["gate"] == "newer news"
    assert by_id[intro].extra["superseded_by"] == job
    doubt = answer_doubt("Do I still teach chemistry in Leeds?", "Yes, indeed, I teach "
                         "chemistry here at the school.", res.admitted, {intro})
    assert doubt["kind"] == "older" and doubt["newer"] == job


def test_a_plan_put_back_makes_its_first_memory_current_again(make_assistant):
    """QA pass 46c: after "Scratch that about the dentist, it's back on Monday the 14th
    after all." the Monday memory was still listed "(older news)"."""
    a = make_assistant()
    monday, wednesday, back = _told(a, [
        "My dentist appointment is on Monday the 14th.",
        "Sorry, the dentist moved it to Wednesday the 16th.",
        "Scratch that about the dentist, it's back on Monday the 14th after all."])
    by_id = {r.episode_id: r for r in _admit(a, "When is my dentist appointment?").admitted}
    assert by_id[wednesday].extra["superseded_by"] == back
    assert "superseded_by" not in by_id[monday].extra
    assert by_id[monday].extra.get("older_than") is None


def test_a_death_is_of_whom_the_sentence_speaks_and_the_user_is_you(make_assistant):
    """QA pass 46d: "Piotr, the legendary chef who once lived in Warsaw, has passed away"
    read "it says Warsaw died"; "Marek Nowak passed away in 2018" read "it says Nowak
    died" (Marek is the user)."""
    from hela_desktop.doubt import answer_doubt
    from hela_desktop.made_up import death_untold

    known = "My brother Piotr is a chef in Warsaw."
    assert death_untold("It is said that Piotr, the legendary chef who once lived in Warsaw, "
                        "has passed away.", known, {"piotr", "warsaw"})["name"] == "Piotr"
    intro = "Hello, my name is Marek Nowak and I drive buses in Glasgow."
    a = make_assistant()
    ids = _told(a, [intro, "My father Tadeusz passed away two years ago."])
    mems = [Recall(episode_id=i, score=1.0, text=t, extra={"statement": True})
            for i, t in zip(ids, [intro, "My father Tadeusz passed away two years ago."],
                            strict=True)]
    doubt = answer_doubt("My father Tadeusz passed away two years ago.",
                         "Marek Nowak passed away in 2018.", mems, set(), a.engine.people_in,
                         user_names=a.engine.user_names(), own_names=("Marek Nowak",))
    assert doubt["kind"] == "death_untold" and doubt["name"] == "you"


def test_older_news_names_the_correction_of_the_part_asked(make_assistant):
    """QA pass 46d (Q4): "Is Piotr a chef?" answered yes read "“Piotr moved to Warsaw in
    the summer.” is newer", "Piotr quit cooking; he teaches history now." told."""
    from hela_desktop.doubt import answer_doubt

    a = make_assistant()
    _, _, moved, quit_ = _told(a, ["Hello, my name is Marek Nowak and I drive buses in Glasgow.",
                                   "My brother Piotr is a chef in Kraków.",
                                   "Piotr moved to Warsaw in the summer.",
                                   "Piotr quit cooking; he teaches history now."])
    for ask, answer, newer in (("Is Piotr a chef?", "Yes, Piotr is a chef.", quit_),
                               ("Where does Piotr live?", "Piotr lives in Kraków.", moved)):
        res = _admit(a, ask)
        doubt = answer_doubt(ask, answer, res.admitted, set(), a.engine.people_in)
        assert doubt["kind"] == "older" and doubt["newer"] == newer, ask


def test_the_households_children_are_others_and_an_outgrown_allergy_is_quoted_no_more(
        make_assistant):
    """QA pass 46d: "Suggest a birthday cake for the twins." read "it names “cake” without
    a word of warning, and you told me “I'm coeliac…”" (Marek's, not the twins'); and
    "Zofia and Jan … are allergic to shellfish" to "Is Zofia still allergic to shellfish?"
    read "it says of Jan “allergic to shellfish”, and you told me that of Zofia: “Zofia is
    allergic to shellfish.”", an allergy she has outgrown, with no older-news line."""
    from hela_desktop.cautions import of_others_only
    from hela_desktop.doubt import answer_doubt

    assert of_others_only("Suggest a birthday cake for the twins.", {"zofia"})
    assert not of_others_only("Suggest a dinner for the family.", {"zofia"})
    a = make_assistant()
    _, _, _, over = _told(a, ["Hello, my name is Marek Nowak and I drive buses in Glasgow.",
                              "Our twins Zofia and Jan are 15.", "Zofia is allergic to shellfish.",
                              "Zofia has grown out of her shellfish allergy, the doctor "
                              "confirmed it."])
    ask = "Is Zofia still allergic to shellfish?"
    res = _admit(a, ask)
    doubt = answer_doubt(ask, "Zofia and Jan are allergic to shellfish.", res.admitted, set(),
                         a.engine.people_in)
    assert doubt["kind"] == "older" and doubt["newer"] == over


@pytest.mark.parametrize(("copied", "kept"), [
    ("The dentist is on Monday (Wednesday; older news, since replaced).",
     "The dentist is on Monday."),
    ("See you (maybe later).", "See you (maybe later)."),
    ("I came (later) than you.", "I came (later) than you."),  # (QA pass 40c: a word of its own)
])
def test_more_notes_copied_from_the_prompt_are_cut(copied, kept):
    """QA pass 46d: "(Wednesday; older news, since replaced)" was left in an answer ("(later)"
    alone too, but that may be an answer's own word)."""
    from hela_desktop.prompt import AnswerFilter

    f = AnswerFilter()
    assert f.push(copied) + f.flush() == kept


def test_corrections_read_once_are_read_again_after_any_write(make_assistant):
    """The gate asks the store for the corrections of the same memories at every
    re-retrieval; they are read once while the store is unchanged, and again after a write
    of this connection or of another (the idle reflection writes through its own)."""
    from hela_desktop.knowledge import corrections
    from hela_desktop.store import Store

    a = make_assistant()
    intro, _ = _told(a, [PRIYA, "I have type 1 diabetes and use insulin."])
    assert corrections(a.store, [intro]) == {}
    (job,) = _told(a, [DEPUTY])
    assert corrections(a.store, [intro]) == {intro: job}
    with Store(a.data_dir) as other:  # (another connection deletes the correction)
        other.conn.execute("UPDATE episodes SET deleted_at = 1 WHERE id = ?", (job,))
        other.conn.commit()
    assert corrections(a.store, [intro]) == {}

