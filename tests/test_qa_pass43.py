"""What the forty-third pass (and the items pass 42 left open) found, fixed."""
from __future__ import annotations

import re

from hela_desktop.events import Recall

_PEOPLE = {"grace", "kwame", "efua", "kofi", "ama", "pepper", "abena"}


def _names(text: str) -> set[str]:
    """The people of the user's life a text names, lower case (as
    `MemoryEngine.people_in` gives them)."""
    return {w.lower() for w in re.findall(r"[A-Z][a-z]+", text) if w.lower() in _PEOPLE}


def _recalls(*texts: tuple[int, str]) -> list[Recall]:
    return [Recall(episode_id=i, score=1.0, text=t, extra={}) for i, t in texts]


def _note(ask: str, answer: str, mems: list[Recall], drew: set[int] | None = None,
          cautions: list | None = None, own: list[str] | None = None) -> str:
    from hela_desktop.doubt import answer_doubt
    from hela_desktop.sources import doubt_note

    # (the prompt holds the memories given: `known`)
    return doubt_note(answer_doubt(ask, answer, mems, drew or set(), _names,
                                   known="\n".join(r.text for r in mems),
                                   cautions=cautions or [], own_names=own or []), [])


def told(make_assistant, *said: str):
    """A fresh Assistant (4-token answers) told `said` in one chat: (it, the chat, the
    stats of each reply)."""
    a = make_assistant()
    a.settings.max_answer_tokens = 4
    cid = a.new_conversation()
    stats = []
    for s in said:
        list(a.chat(s, cid))
        stats.append(a.store.messages(cid)[-1]["stats"])
    return a, cid, stats


_CHOIR = (9, "I sing in the church choir every Sunday.")
_WARFARIN = (2, "I take warfarin for my heart.")
_PEPPER = (8, "I have a cat called Pepper.")


def test_what_day_asked_and_no_day_given_is_marked():
    """QA pass 42g: "What day is choir?" answered "The church choir is a musical term…
    (from the Latin word “coryphae”)", never saying Sunday, had no line: only "when"
    questions were read for a date left out, and only those about the user's life."""
    mems = _recalls(_CHOIR)
    said = f"Check this answer: it leaves out what you told me: “{_CHOIR[1]}”"
    for ask in ("What day is choir?", "Which day is choir?", "When is choir?"):
        assert _note(ask, "The church choir is a musical term from the Latin word "
                     "coryphae.", mems) == said, ask
        # a day given, right or not, is no day left out
        assert "leaves out" not in _note(ask, "Choir is on Sunday.", mems, {9})
    assert "leaves out" not in _note("What day is choir?", "Choir is on Saturday.", mems)
    # a question the memory does not hold every word of is not asked of it
    assert "leaves out" not in _note("What day is the bin collection?",
                                     "Bins are collected weekly.", mems)


def test_alcohol_and_the_juices_named_for_warfarin_are_cautioned():
    """QA pass 42g: "Can I have a glass of red wine?" answered "You can have a glass of red
    wine today." had no caution, warfarin told; aspirin was the only thing cautioned."""
    from hela_desktop.cautions import cautions

    told = cautions([_WARFARIN])
    assert {"wine", "beer", "cranberry", "grapefruit", "aspirin"} <= told[0].avoid
    mems = _recalls(_WARFARIN)
    note = _note("Can I have a glass of red wine?", "You can have a glass of red wine today.",
                 mems, cautions=told)
    assert note == ("Check this answer: it names “wine” without a word of warning, and you "
                    f"told me “{_WARFARIN[1]}”"), note
    assert _note("Can I drink cranberry juice?", "Yes, cranberry juice is good for you.",
                 mems, cautions=told).startswith("Check this answer: it names “cranberry”")
    # a warning is heeded; a blood thinner not taken cautions nothing
    assert _note("Can I have a glass of red wine?", "Avoid red wine, as alcohol changes how "
                 "warfarin works.", mems, {2}, told) == ""
    assert cautions([(3, "My neighbour asked about warfarin.")]) == []


def test_a_pets_name_misread_is_no_name_for_the_user():
    """QA pass 42g: "I have a cat called Pepper." answered "Piper, my 7-year-old cat, loves
    the outdoors." read "it calls you “Piper”, and your name is Grace Mensah."; the model
    misread the cat's name, it did not call Grace so."""
    from hela_desktop.name_index import misread
    from hela_desktop.whom import greets_as

    assert misread("Piper", ["pepper"]) and misread("Peper", ["pepper"])
    assert not misread("Sara", ["pepper"]) and not misread("Kiper", ["pepper"])
    yours = ["Grace", "Mensah"]
    for ask, mems in ((_PEPPER[1], []), ("Tell me about my cat.", _recalls(_PEPPER))):
        assert greets_as(ask, "Piper, my 7-year-old cat, loves the outdoors.", mems, _names,
                         yours) is None, ask
    # another name is still another name
    assert greets_as(_PEPPER[1], "Sara, your cat loves the outdoors.", [], _names,
                     yours)["said"] == "Sara"
    assert "calls you" not in _note(_PEPPER[1], "Piper, my 7-year-old cat, loves the "
                                    "outdoors.", [], own=yours)


def test_a_move_and_a_new_post_each_replace_their_own_part(make_assistant):
    """QA pass 42g, with the real gate: "My daughter Efua lives in London and teaches at a
    primary school." was all older news after "Efua moved from London to Leeds last
    month.", and "Efua is now the headteacher at her school." corrected nothing (no
    "now the" among the cues a correction is looked up by).  Each now replaces its own
    part, and the two together the whole memory, in the answer's lists and the Memories
    tab alike."""
    from hela_desktop import superseded
    from hela_desktop.session import BrowseQuery, browse

    efua = "My daughter Efua lives in London and teaches at a primary school."
    moved, head = "Efua moved from London to Leeds last month.", \
        "Efua is now the headteacher at her school."
    assert superseded.told_parts(efua) == ["My daughter Efua lives in London",
                                           "teaches at a primary school."]
    assert superseded.still_true(efua, [moved]) == "My daughter Efua teaches at a primary school."
    assert superseded.still_true(efua, [head]) == "My daughter Efua lives in London."
    assert superseded.still_part(efua, [head, moved]) == {}
    a, cid, stats = told(make_assistant, "Hello, I'm Grace Mensah, a retired midwife living "
                         "in Birmingham.", efua, moved, head)
    assert [c["episode_id"] for c in stats[-1].get("corrects", [])] == [2], stats[-1]
    # the Memories tab: the newest correction, nothing of the memory left true
    rows = browse(a.store, BrowseQuery(tab="memories"))["corrected"]
    assert rows[2][1:] == (head, ""), rows
    list(a.chat("What does Efua do?", cid))
    marks = {m["episode_id"]: m.get("extra", {}) for m in
             a.store.messages(cid)[-1]["stats"]["memories"]}
    assert marks[2].get("superseded_by") is not None and not marks[2].get("still_true"), marks


def test_greeting_opened_by_i_am_calls_no_one_and_a_nickname_is_the_users():
    """QA pass 43b: "Hello, I'm glad to know of your health…" read "it calls you “I'm”,
    and your name is Tom Becker." (three statements' replies); "Tommy, …" is Tom."""
    from hela_desktop.whom import greets_as

    yours = ["Tom", "Becker"]
    for answer in ("Hello, I'm glad to know of your health.", "Hello, I am so happy for you.",
                   "Hi, I've been there too.", "Tommy, your dad is a great guy."):
        assert greets_as("I have epilepsy and take lamotrigine.", answer, [], None,
                         yours) is None, answer
    assert greets_as("I support Celtic.", "Hello, Sarah! Great team.", [], None,
                     yours)["said"] == "Sarah"


def test_a_late_father_to_call_or_said_to_answer_is_spoken_of_as_living():
    """QA pass 43b: "…send an email to your dad and he can answer any questions." had no
    line, the dad having died in 2019."""
    from hela_desktop.made_up import alive_again

    dad = [(9, "My dad Klaus lived in Hamburg; he died in 2019.")]
    for answer in ("Yes, you can send an email to your dad and he can answer any questions.",
                   "Your dad is a great guy.", "Call your dad this weekend."):
        got = alive_again(answer, dad, {"klaus"})
        assert got and got["name"] == "your dad", answer
    for answer in ("Your dad was a great guy.", "I'm sorry your dad died in 2019.",
                   "Your dad lived in Hamburg."):
        assert alive_again(answer, dad, {"klaus"}) is None, answer


def test_a_number_put_aside_is_not_made_up():
    """QA pass 43b: "Lily is 16, not 20." read "“20” … may have made it up"."""
    from hela_desktop.made_up import made_up

    lily = "Our daughter Lily is 16 and doing her exams."
    assert made_up("Lily is 16, not 20.", lily) == []
    assert made_up("Jack is 21 years old, not 30.", "Our son Jack is 21.") == []
    assert made_up("Lily is 20, not 16.", lily) == ["20"]


def test_an_antidepressant_cautions_st_johns_wort_and_painkillers():
    """QA pass 43: "Can I take St John's wort?" answered "You can definitely take St John's
    wort.", sertraline told, had only "uses none"; halva, a sesame sweet, was not sesame."""
    from hela_desktop.cautions import cautions

    told = cautions([(10, "I take sertraline every morning.")])
    assert {"wort", "tramadol", "ibuprofen", "aspirin"} <= told[0].avoid
    mems = _recalls((10, "I take sertraline every morning."))
    assert _note("Can I take St John's wort?", "You can definitely take St John's wort.", mems,
                 cautions=told).startswith("Check this answer: it names “St John's wort” "
                                           "without a word of warning")
    assert _note("Can I take St John's wort?", "No, St John's wort is not safe with "
                 "sertraline.", mems, {10}, told) == ""
    assert cautions([(1, "My friend asked about sertraline.")]) == []
    sesame = cautions([(3, "I'm allergic to sesame.")])
    assert "halva" in sesame[0].avoid


def test_for_a_living_asks_for_a_job_not_a_home():
    """QA pass 43: "What do I do for a living?" answered "You are a software engineer."
    read "only “We moved from Manchester to Bristol last week.” speaks of “living”"."""
    intro = (1, "Hi, I'm Priya Nair, a software engineer in Manchester.")
    moved = (14, "We moved from Manchester to Bristol last week.")
    note = _note("What do I do for a living?", "You are a software engineer.",
                 _recalls(intro, moved), {1})
    assert "speaks of" not in note, note


def test_an_introduction_tells_a_name_a_job_and_a_home_each_replaced_on_its_own():
    """QA pass 43: after "We moved from Manchester to Bristol last week.", the move was
    filed as a correction of "I run the Manchester marathon on 20 April." (a word shared),
    and nothing corrected "Hi, I'm Priya Nair, a software engineer in Manchester.".  A
    change told of a kind replaces what says that kind; the introduction's home alone."""
    from hela_desktop import facts, superseded

    intro = "Hi, I'm Priya Nair, a software engineer in Manchester."
    moved = "We moved from Manchester to Bristol last week."
    assert superseded.told_parts(intro) == ["Hi, I'm Priya Nair", "a software engineer",
                                            "in Manchester."]
    assert facts.corrects_memory(intro, moved)
    assert not facts.corrects_memory("I run the Manchester marathon on 20 April.", moved)
    assert superseded.still_true(intro, [moved]) == "Hi, I'm Priya Nair, a software engineer."
    assert superseded.still_true(intro, ["I'm now a data scientist."]) == \
        "Hi, I'm Priya Nair. I live in Manchester."
    assert superseded.on_subject(intro, moved) == "in Manchester."
    grace = "Hello, I'm Grace Mensah, a retired midwife living in Birmingham."
    assert superseded.still_true(grace, ["I moved to Leeds last month."]) == \
        "Hello, I'm Grace Mensah, a retired midwife."
    # no introduction, no parts
    assert superseded.told_parts("I'm a nurse in Leeds.") == ["I'm a nurse in Leeds."]


def test_a_course_switched_and_work_somewhere_now_are_changes(make_assistant):
    """QA pass 43b, with the real gate: "Jack switched from engineering to medicine." and
    "Sarah works at the Queen Elizabeth hospital now." corrected nothing, and "Jack
    studies engineering." had no line."""
    from hela_desktop.session import BrowseQuery, browse

    a, _, _ = told(make_assistant, "My wife Sarah is a nurse at the Royal Infirmary.",
                   "Our son Jack is 21 and studies engineering in Aberdeen.",
                   "Jack switched from engineering to medicine.",
                   "Sarah works at the Queen Elizabeth hospital now.")
    rows = browse(a.store, BrowseQuery(tab="memories"))["corrected"]
    assert rows[1][0] == 4 and rows[1][2] == "", rows
    assert rows[2][0] == 3 and rows[2][2] == "Our son Jack is 21.", rows


def test_where_asked_and_no_place_given_is_marked():
    """QA pass 43: "Where does my mum live?" answered "Lakshmi, the wife of the family's
    leader", never saying Kochi, had no line (and listed the memory as used)."""
    mum = (8, "My mum Lakshmi lives in Kochi.")
    said = f"Check this answer: it leaves out what you told me: “{mum[1]}”"
    assert _note("Where does my mum live?", "Lakshmi, the wife of the family's leader.",
                 _recalls(mum), {8}) == said
    assert _note("Where does my mum live?", "Your mum lives in Kochi.", _recalls(mum), {8}) == ""
    # not of another than the one asked about, nor where someone lived before
    intro = (1, "I'm Priya and I live in Bristol.")
    assert "Kochi" not in _note("Where do I live?", "You live in a lovely house.",
                                _recalls(mum, intro), {1})
    assert "leaves out" not in _note("Where did my mum live before?", "She lived in a city.",
                                     _recalls(mum))


def test_a_no_to_your_own_medication_is_a_no_to_what_you_told():
    """QA pass 43b's probe: "Am I on any medication?" answered "No, you are not on any
    medication." had no line, "I have epilepsy and take lamotrigine." told (only a
    relation's, "Is my dad on any medication?", was read so)."""
    from hela_desktop.older_news import holds_asked

    told = (2, "I have epilepsy and take lamotrigine.")
    assert holds_asked("Am I on any medication?", told[1])
    assert not holds_asked("Am I on any medication?", "My wife Sarah takes sertraline.")
    assert not holds_asked("Do I have a dog?", "I have a cat called Pepper.")
    assert _note("Am I on any medication?", "No, you are not on any medication.",
                 _recalls(told)) == f"Check this answer: it says no, and you told me “{told[1]}”"
    assert _note("Am I on any medication?", "Yes, you take lamotrigine for your epilepsy.",
                 _recalls(told), {2}) == ""


def test_a_number_of_years_is_no_day_of_an_older_date():
    """QA pass 43c: "Where do I live?" answered "You're based in Manchester, and it's been
    20 years since I moved…" read "it may give older news — “The marathon moved to 27
    April.” is newer": the "20" of "20 years" was taken for "20 April"."""
    from hela_desktop.older_news import gives_older

    old, new = "I run the Manchester marathon on 20 April.", "The marathon moved to 27 April."
    assert not gives_older("Where do I live?", "It's been 20 years since you moved.", old, new)
    assert gives_older("When is my marathon?", "Your marathon is on 20 April.", old, new)
    assert gives_older("When is my marathon?", "It's on the 20th.", old, new)


def test_a_correction_of_an_introductions_part_is_quoted_with_whose_it_is():
    """QA pass 43c: "Noted as a correction of “in Manchester.”" quoted a bare fragment."""
    from hela_desktop import superseded

    intro = "Hi, I'm Priya Nair, a software engineer in Manchester."
    moved = "We moved from Manchester to Bristol last week."
    assert superseded.on_subject(intro, moved, shown=True) == "Hi, I'm Priya Nair … in Manchester."
    assert superseded.on_subject(intro, "I'm now a data scientist.", shown=True) == \
        "Hi, I'm Priya Nair … a software engineer"
    assert superseded.on_subject(intro, moved) == "in Manchester."


def test_what_day_answered_with_another_day_is_marked():
    """QA pass 43c: "What day is badminton?" answered "Today is Monday." had no line, "I
    play badminton on Thursdays." told."""
    mems = _recalls((11, "I play badminton on Thursdays."))
    from hela_desktop.doubt import answer_doubt

    monday = 1796644800.0  # (Monday 7 December 2026, noon UTC: no other day's "today")
    assert answer_doubt("What day is badminton?", "Today is Monday.", mems, set(), _names,
                        now=monday) == {"kind": "made_up", "words": ["Monday"], "unused": False}
    for fine in ("Badminton is on Thursday.", "You play on Thursdays.",
                 "You may play on Thursdays."):
        assert _note("What day is badminton?", fine, mems, {11}) == "", fine


def test_the_dead_are_told_apart_from_places_and_their_children():
    """QA pass 43d: "…a man named Klaus who lives in Hamburg…" read "it speaks of Hamburg
    as living"; "Jack, your dad's son, lives in Aberdeen" read as the dad living; "My dad
    was … when he died" read "it says Jack died" (Jack named sentences before)."""
    from hela_desktop.made_up import alive_again, death_untold

    dad = [(9, "My dad Klaus lived in Hamburg; he died in 2019.")]
    names = {"klaus", "hamburg", "jack", "aberdeen"}
    got = alive_again("There is a man named Klaus who lives in Hamburg, Germany.", dad, names)
    assert got and got["name"] == "Klaus"
    assert alive_again("Jack, your dad's son, lives in Aberdeen, Scotland.", dad, names) is None
    assert alive_again("Klaus's son Jack lives in Aberdeen.", dad, names) is None
    known = "\n".join([dad[0][1], "Jack switched from engineering to medicine."])
    assert death_untold("I have stories about Jack. My dad was in engineering when he died "
                        "20 years ago.", known, names) is None
    assert death_untold("I have stories about Jack. He died last year.", known,
                        names) == {"kind": "death_untold", "name": "Jack"}


def test_a_lists_numbering_repeats_no_corrected_date():
    """QA pass 43d: the reply to "The dentist moved my appointment to 10 February." whose
    list ran "1. … 2. … 3. My own family's wedding…" read "it repeats what you have just
    corrected — “My dentist appointment is on 3 February.”"."""
    from hela_desktop.older_news import gives_older, repeats_corrected

    new, old = "The dentist moved my appointment to 10 February.", \
        "My dentist appointment is on 3 February."
    listed = ("Here are some highlights:\n\n1. My practice is relaxed.\n2. We use new "
              "technology.\n3. My family's wedding was lovely.")
    assert not repeats_corrected(new, listed, old)
    assert not gives_older("When is my dentist appointment?", listed, old, new)
    assert repeats_corrected(new, "Your appointment is on 3 February.", old)


def test_a_pet_allergy_cautions_the_pet_for_a_household_question():
    """QA pass 43d: "Can we get a kitten?" answered "…help you find a kitten…" had no line,
    "Sarah is allergic to cats." told (Sarah, the wife: "we" is the household)."""
    from hela_desktop.cautions import cautions, for_household

    assert for_household("Can we get a kitten?") and not for_household("Can I get a kitten?")
    told = cautions([(5, "Sarah is allergic to cats.")], about={"sarah"})
    assert {"kitten", "cat", "cats"} <= told[0].avoid
    mems = _recalls((5, "Sarah is allergic to cats."))
    assert "“kitten” without a word of warning" in _note(
        "Can we get a kitten?", "Yes, a kitten would be lovely.", mems, cautions=told)
    assert _note("Can we get a kitten?", "Sarah is allergic to cats, so a kitten is not a "
                 "good idea.", mems, {5}, told) == ""


def test_a_yes_after_an_aside_gives_the_old_date():
    """QA pass 43d: "Is my dentist on the 3rd?" answered "A bit of a tangent, but yes, my
    dentist actually is on the 3rd." (moved to 10 February) had no older-news line."""
    from hela_desktop.older_news import gives_older, opens_with_yes

    said = "A bit of a tangent, but yes, my dentist actually is on the 3rd."
    assert opens_with_yes(said) and not opens_with_yes("No, but yes I see.")
    assert gives_older("Is my dentist on the 3rd?", said, "My dentist appointment is on 3 "
                       "February.", "The dentist moved my appointment to 10 February.")


def test_no_then_still_there_is_a_yes_and_doesnt_is_a_no():
    """QA pass 43d: "Is Sarah still at the Royal Infirmary?" answered "No, Sarah still works
    at the Royal Infirmary." (she moved to the Queen Elizabeth) had no line; and "doesn't"
    was read as "doesn" and "t", so "He doesn't live in Oslo." denied nothing."""
    from hela_desktop.older_news import agrees, gives_older

    ask, old = "Is Sarah still at the Royal Infirmary?", \
        "My wife Sarah is a nurse at the Royal Infirmary."
    new = "Sarah works at the Queen Elizabeth hospital now."
    assert gives_older(ask, "No, Sarah still works at the Royal Infirmary.", old, new)
    assert not agrees(ask, "No, Sarah doesn't work at the Royal Infirmary any more.")
    assert not agrees("Does Anders live in Oslo?", "He doesn't live in Oslo.")
    assert agrees("Does Anders live in Oslo?", "Anders lives in Oslo.")


def test_now_this_not_that_is_a_correction():
    """QA pass 43e: "Chidi now drives trains, not buses." corrected nothing, so "Chidi still
    drives buses…" had no line ("Actually Chidi drives trains, not buses." did)."""
    from hela_desktop import facts

    bus = "My husband Chidi drives buses for Cardiff Bus."
    assert facts.corrects_memory(bus, "Chidi now drives trains, not buses.")
    assert not facts.corrects("I now work from home, not sure how long.")


def test_the_animal_and_the_allergy_itself_are_no_offer():
    """QA pass 43e: "…he loves playing with chickens" read "names “chickens” without a
    word of warning" (pescatarian); the reply to "Our daughter Zara is 7 and she's allergic
    to eggs." that said "…extremely difficult for her to have eggs" read the same."""
    from hela_desktop.cautions import cautions, offered

    fish = cautions([(2, "I'm pescatarian.")])[0]
    assert offered("Chidi loves playing with chickens on the farm.", fish, "Tell me about "
                   "Chidi.") == []
    assert offered("A chicken curry would be lovely.", fish, "What should I cook?") == ["chicken"]
    eggs = cautions([(6, "Our daughter Zara is 7 and she's allergic to eggs.")], about={"zara"})[0]
    assert offered("It is extremely difficult for her to have eggs.", eggs, "x") == []
    assert offered("Zara can have hard-boiled eggs.", eggs, "Suggest a breakfast for Zara") == [
        "eggs"]


def test_the_model_speaking_of_itself_gives_no_older_news_of_another():
    """QA pass 43f: "I actually do live in Oslo now." read "it may give older news" of
    Erik's move from Oslo, and the reply "…visit me in Oslo" to the move "it repeats what
    you have just corrected"."""
    from hela_desktop.older_news import gives_older, repeats_corrected

    old, new = "My son Erik is a doctor in Oslo.", "Erik moved from Oslo to Stavanger."
    assert not gives_older("Where does Erik live?", "I actually do live in Oslo now.", old, new)
    assert gives_older("Where does Erik live?", "Erik lives in Oslo.", old, new)
    assert not repeats_corrected(new, "Great! Come and visit me in Oslo.", old)
    assert repeats_corrected(new, "So Erik is still in Oslo.", old)


def test_the_old_age_asked_and_the_new_denied_is_older_news():
    """QA pass 43f: "Is Freya 12?" answered "…indeed Freya 12, not 13." (13 now) had no
    line; and the reply to "Zara turned 8 last week." celebrating "our little girl's 7th
    birthday" had none either ("last" of the correction counted as said anew)."""
    from hela_desktop.older_news import gives_older, repeats_corrected

    old, new = "Erik's daughter Freya is 12 and allergic to peanuts.", "Freya is 13 now."
    assert gives_older("Is Freya 12?", "It is indeed Freya 12, not 13.", old, new)
    assert not gives_older("Is Freya 12?", "No, Freya is 13, not 12.", old, new)
    zara, turned = "Our daughter Zara is 7 and she's allergic to eggs.", "Zara turned 8 last week."
    assert repeats_corrected(turned, "Today we celebrate our little girl's 7th birthday. Last "
                             "month we went to the park.", zara)
    assert not repeats_corrected(turned, "Happy 8th birthday to Zara!", zara)


def test_a_blank_is_no_name_and_another_city_named_is_no_older_news_of_another():
    """QA pass 43h: "Yours faithfully, [Your Name]" read "“Name” … may have made it up"
    (under a right answer too); "Where do I live?" answered "…its capital city Oslo"
    read "it may give older news — “Erik moved from Oslo to Stavanger.” is newer"."""
    from hela_desktop.made_up import made_up
    from hela_desktop.older_news import gives_older

    assert made_up("Yours faithfully,\n[Your Name]", "") == []
    assert made_up("Best wishes, [Name]", "") == []
    old, new = "My son Erik is a doctor in Oslo.", "Erik moved from Oslo to Stavanger."
    assert not gives_older("Where do I live?", "Norway's capital city is Oslo.", old, new)
    assert gives_older("Where do I live?", "Your son Erik lives in Oslo.", old, new)
    assert gives_older("Where does Erik live?", "Oslo.", old, new)
    assert gives_older("Where does my son live?", "He lives in Oslo.", old, new)


def test_an_old_age_in_years_is_older_news():
    """QA pass 43g: "Zara is 7 years old." after "Zara turned 8 last week." had no line:
    "old" read as putting the value in the past, and "7 years" as a number of years."""
    from hela_desktop.older_news import gives_older

    old, new = "Our daughter Zara is 7 and she's allergic to eggs.", "Zara turned 8 last week."
    for said in ("Zara is 7 years old.", "She's 7 years old!", "Zara is 7."):
        assert gives_older("How old is Zara?", said, old, new), said
    for said in ("Zara was 7 but is 8 now.", "Zara is 8 years old."):
        assert not gives_older("How old is Zara?", said, old, new), said


def test_the_list_of_what_you_told_says_pinned_first_only_with_a_pin():
    """QA pass 43f: "What do you know about me?" began "…(what you pinned first, then …)"
    with nothing pinned."""
    from hela_desktop.about_you import ORDER_UNPINNED, answer

    mems = _recalls((1, "Hello, I'm Henrik Larsen, a retired fisherman living in Aberdeen."),
                    (2, "I'm coeliac."))
    text = answer(mems, 0.0)
    assert ORDER_UNPINNED in text and "pinned" not in text.split("\n")[0]
    mems[1].extra["pinned"] = True
    assert "(what you pinned first, " in answer(mems, 0.0)


def test_a_pie_is_gluten():
    """QA pass 43h: "Can I have a pork pie?" (coeliac told) named only the answer's pizza."""
    from hela_desktop.cautions import cautions, offered

    coeliac = cautions([(2, "I'm coeliac.")])[0]
    assert offered("Sure, a pork pie is a great snack.", coeliac, "Can I have a pork pie?") == [
        "pie"]
