"""What the forty-first pass (and the items pass 40 left open) found, fixed."""
from __future__ import annotations

import re

from hela_desktop.events import Recall

_PEOPLE = {"lucy", "alfie", "rosie", "zain", "noor", "hannah", "dev", "kiran"}


def _names(text: str) -> set[str]:
    """The people of the user's life a text names, lower case (as
    `MemoryEngine.people_in` gives them)."""
    return {w.lower() for w in re.findall(r"[A-Z][a-z]+", text) if w.lower() in _PEOPLE}


def _recalls(*texts: tuple[int, str]) -> list[Recall]:
    return [Recall(episode_id=i, score=1.0, text=t) for i, t in texts]


_LUCY = (2, "My partner Lucy is a solicitor.")
_ALFIE = (11, "Actually Alfie is 6 now.")
_FRIDAY = 1796990400.0  # (Friday 11 December 2026, noon UTC)


def test_another_persons_age_given_to_someone_whose_age_was_never_told_is_marked():
    """QA pass 40e P2: "How old is she?" (Lucy, whose age was never told) answered "Today
    is a Friday night and today she's 6.", 6 being Alfie's age, had no line: a memory that
    names Alfie with no relation word was of no one (`whom._whose` read the engine's
    lower-case names as none), and "she" was no one's."""
    from hela_desktop.doubt import answer_doubt
    from hela_desktop.sources import doubt_note

    mems = _recalls(_LUCY, _ALFIE)
    want = ("Check this answer: you asked about Lucy, and it says of Lucy what you told me of "
            "Alfie (“6”): “Actually Alfie is 6 now.”")
    for wrong in ("Lucy is 6.", "She's 6.", "Today is a Friday night and today she's 6. "
                  "Today, Lucy is older than Alfie."):
        # (on a Friday: "Today is a Friday" is no other day's, `wrong_today`)
        got = answer_doubt("How old is Lucy?", wrong, mems, {11}, _names, now=_FRIDAY)
        assert doubt_note(got, []) == want, wrong
    # "she" after another person is theirs; a sentence naming both is not Lucy's alone
    for fine in ("Alfie is 6 and she is proud of him.", "Lucy is 6 years older than Alfie.",
                 "Lucy is a solicitor."):
        got = answer_doubt("How old is Lucy?", fine, mems, {2, 11}, _names)
        assert "what you told me of Alfie" not in doubt_note(got, []), fine


def test_an_answer_that_says_it_was_never_told_is_not_marked_unless_a_memory_tells_it():
    """QA pass 40e: the right answer "I don't know how old Lucy is." read "it uses none of the
    memories recalled for it, so it is not from what you told me"; where a memory does say
    what was asked, such an answer is still marked."""
    from hela_desktop.doubt import answer_doubt
    from hela_desktop.sources import doubt_note

    def note(ask: str, answer: str, *mems: tuple[int, str]) -> str:
        return doubt_note(answer_doubt(ask, answer, _recalls(*mems), set(), _names), [])

    for honest in ("I don't know how old Lucy is.", "You haven't told me how old Lucy is.",
                   "I'm not sure, you never mentioned her age."):
        assert note("How old is Lucy?", honest, _LUCY) == "", honest
    works = (4, "Lucy works at Hale & Co in Norwich.")
    # (since pass 42 the line says what it says it does not know: `doubt._not_known`)
    assert note("Where does Lucy work?", "I don't know where Lucy works.", works) == (
        "Check this answer: it says it does not know, and you told me “Lucy works at Hale & "
        "Co in Norwich.”")
    assert note("How old is Alfie?", "I don't know how old Alfie is.", _ALFIE) == (
        "Check this answer: it says it does not know, and you told me “Actually Alfie is 6 "
        "now.”")
    # an invented age is still made up
    assert "“34”" in note("How old is Lucy?", "Lucy is 34.", _LUCY)


def test_the_food_asked_about_is_no_made_up_name_and_a_closing_no_is_a_no():
    """QA pass 40e P6 and P8: "Can Rosie have hummus?" answered "Hummus is made from
    chickpeas." read "“Hummus” is in none of them: the model may have made it up", the
    question's own word; "Hummus contains tahini, so no." and "Best not: most hummus has
    tahini in it." read as offering it; "No. Hummus is made from chickpeas and tahini."
    read "it uses none of the memories"."""
    from hela_desktop.cautions import cautions
    from hela_desktop.doubt import answer_doubt
    from hela_desktop.sources import doubt_note

    rosie = (4, "Our daughter Rosie is 9 and she is allergic to sesame.")
    ask = "Can Rosie have hummus?"
    said = cautions([rosie], about={"rosie"})

    def note(answer: str) -> str:
        return doubt_note(answer_doubt(ask, answer, _recalls(rosie), set(), _names,
                                       cautions=said), [])

    assert note("Hummus is made from chickpeas.") == (
        "Check this answer: it names “hummus” without a word of warning, and you told me "
        f"“{rosie[1]}”")
    for no in ("Hummus is made from chickpeas and tahini, so no.",
               "Best not: most hummus has tahini in it.",
               "No. Hummus is made from chickpeas and tahini.",
               "Hummus has tahini in it. So the answer is no."):
        assert note(no) == "", no
    for yes in ("Yes, Rosie can have hummus.", "Hummus is lovely, and Rosie can have it with "
                "no problem.", "Hummus is fine, so not a problem."):
        assert note(yes).startswith("Check this answer: it names “hummus”"), yes


def test_one_persons_allergy_or_diet_given_to_another_is_marked():
    """QA pass 40d N2: "Can Zain eat egg-free pasta?" answered "Noor has a sweet tooth and
    is allergic to eggs.", the egg allergy Zain's, was marked only for a made-up name."""
    from hela_desktop.allergy_of import given_to_another
    from hela_desktop.doubt import answer_doubt
    from hela_desktop.sources import doubt_note

    zain = (30, "Our son Zain is 6 and he is allergic to eggs.")
    noor = (31, "Our daughter Noor is 12 and she has type 1 diabetes.")
    hannah = (4, "Our daughter Hannah is 7 and she is vegetarian.")
    mems = [zain, noor, hannah]
    got = given_to_another("Noor has a sweet tooth and is allergic to eggs.", mems, _names)
    assert got == {"kind": "allergy_of", "memory": 30, "quote": zain[1], "name": "Noor",
                   "of": "Zain", "said": "allergic to eggs"}
    assert given_to_another("Noor is vegetarian.", mems, _names)["of"] == "Hannah"
    assert given_to_another("Noor has an egg allergy.", mems, _names)["said"] == \
        "an egg allergy"
    # theirs, denied, two people in one sentence, or a diet sharing only a dish: no line
    for fine in ("Zain is allergic to eggs.", "Noor is not allergic to eggs.",
                 "Noor is diabetic.", "Hannah is vegetarian and Zain is allergic to eggs.",
                 "Noor loves eggs."):
        assert given_to_another(fine, mems, _names) is None, fine
    kids = [(5, "Dev is coeliac, so no gluten for him."), (6, "Kiran is allergic to peanuts.")]
    got = answer_doubt("Is Dev allergic to peanuts?", "Yes, Dev is allergic to peanuts.",
                       _recalls(*kids), {6}, _names)
    assert doubt_note(got, []) == (
        "Check this answer: it says of Dev “allergic to peanuts”, and you told me that of "
        "Kiran: “Kiran is allergic to peanuts.”")
    assert given_to_another("No, Dev is not allergic to peanuts; Kiran is.", kids, _names) \
        is None


def test_no_dish_that_names_a_food_offers_it():
    """QA pass 40d N5: "…there are no recipes that mention “chicken nachtober” or “eggs and
    chocolate.”" read as offering eggs: the "no" stood seven words before them."""
    from hela_desktop.cautions import cautions, offered

    zain = cautions([(30, "Our son Zain is 6 and he is allergic to eggs.")], about={"zain"})[0]
    ask = "Suggest a pudding for Zain"
    assert offered("There are no recipes that mention “chicken nachtober” or “eggs and "
                   "chocolate.”", zain, ask) == []
    assert offered("There are no puddings without eggs, so try a custard tart with eggs.",
                   zain, ask) == ["custard", "eggs"]
    assert offered("No problem, eggs are great.", zain, ask) == ["eggs"]


def test_the_older_news_label_without_its_brackets_is_cut_from_an_answer():
    """QA passes 40b and 40c: the prompt's own label leaked without its brackets: "No,
    today; older news.", "Just like your daughter, Hannah, today; older news..."."""
    from hela_desktop.prompt import AnswerFilter

    def shown(text: str, step: int) -> str:
        f = AnswerFilter()
        return "".join(f.push(text[i:i + step]) for i in range(0, len(text), step)) + f.flush()

    for step in (1, 3, 50):
        assert shown("No, today; older news.\nSofia is 4.", step) == "No.\nSofia is 4."
        assert shown("Just like your daughter, Hannah, today; older news... (laughs)", step) \
            == "Just like your daughter, Hannah... (laughs)"
        assert shown("He moved 3 weeks ago; older news, since replaced. Then", step) == \
            "He moved. Then"
        for kept in ("I will see you today; it is sunny.", "The news, today; older newsletters",
                     "Eggs, milk, and flour, today, tomorrow; all fine", "a,b,,c"):
            assert shown(kept, step) == kept, (kept, step)


def test_whether_a_food_is_all_right_for_someone_is_a_question_whether_they_may_have_it():
    """Pass 41b's persona: "Is toast OK for Dev?", Dev coeliac, was no question of what he
    may have, and toast no food of gluten."""
    from hela_desktop.cautions import cautions, missed, offered

    dev = cautions([(4, "Dev is coeliac, so no gluten for him.")], about={"dev"})[0]
    ask = "Is toast OK for Dev?"
    assert offered("Yes, toast is fine for Dev.", dev, ask) == ["toast"]
    assert missed("Toast is a great breakfast.", dev, ask)
    for fine in ("No, toast has gluten.", "Only gluten-free toast."):
        assert offered(fine, dev, ask) == [] and not missed(fine, dev, ask), fine
    assert not missed("Yes.", dev, "Is it a good day for Dev?")


def test_children_told_as_a_pair_are_the_familys_and_their_cautions_come_for_the_family(
        make_assistant):
    """Pass 41b's persona: after "We have twin boys, Kiran and Dev, who are 7." and "Dev is
    coeliac, so no gluten for him.", Dev was no one of the user's life, and "Pasta ideas for
    the family tonight?" recalled nothing: "pasta" was no word of food to the gate."""
    from hela_desktop import kin
    from hela_desktop.cautions import CAUTION_GATE
    from hela_desktop.events import MemoriesEvent
    from hela_desktop.gate import of_family
    from hela_desktop.memory import NewEpisode

    for said in ("We have twin boys, Kiran and Dev, who are 7.",
                 "I've got two kids, Mia and Dev.", "Our girls are called Dev and Ana."):
        assert kin.as_theirs("Dev").search(said), said
    assert not kin.as_theirs("Dev").search("Dev has twin boys, Kiran and Ola.")
    a = make_assistant()
    told = ["We have twin boys, Kiran and Dev, who are 7.", "Dev is coeliac, so no gluten for him.",
            "Kiran is allergic to peanuts.", "My best friend Hollie is vegan."]
    for k, t in enumerate(told):
        a.engine.add_episode(NewEpisode(t, "", created_at=T0 + k))
    assert a.engine.people_in(told[1]) == {"dev"}
    assert of_family(told[1], a.engine) and not of_family(told[1])
    assert not of_family(told[3], a.engine)  # (a friend is no family)
    cid = a.new_conversation()
    a.settings.max_answer_tokens = 4
    for ask in ("Pasta ideas for the family tonight?", "What do the boys like to eat?"):
        shown = next(e for e in a.chat(ask, cid, now=T0 + 60) if isinstance(e, MemoriesEvent))
        cautioned = {r.text for r in shown.memories if r.extra.get("gate") == CAUTION_GATE}
        assert cautioned == {told[1], told[2]}, ask


T0 = 1_780_000_000.0


def test_warnings_said_in_other_words_are_read_as_warnings():
    """QA passes 41 and 41b: "No, tahini is sesame paste.", "Tahini is made from sesame, so
    best avoid it.", "avoid anything with sesame, like hummus or sesame snaps", "No, he is
    unable to take ibuprofen.", "Paracetamol is safer than ibuprofen for him…" and "Best to
    check with his doctor, as he takes warfarin." were each read as offering it or leaving
    the caution out."""
    from hela_desktop.cautions import cautions, missed, offered

    rosie = cautions([(4, "Our daughter Rosie is 9 and she is allergic to sesame.")],
                     about={"rosie"})[0]
    dad = cautions([(6, "My dad Suresh lives in Leicester and takes warfarin.")],
                   about={"dad", "suresh"})[0]
    for ask, answer, caution in (
            ("Can Rosie have tahini?", "No, tahini is sesame paste.", rosie),
            ("Can Rosie have tahini?", "Tahini is made from sesame, so best avoid it.", rosie),
            ("Suggest a snack for Rosie", "Apple slices; avoid anything with sesame, like "
             "hummus or sesame snaps.", rosie),
            ("Can my dad take ibuprofen?", "No, he is unable to take ibuprofen.", dad),
            ("Can my dad take ibuprofen?", "Paracetamol is safer than ibuprofen for him, "
             "since he takes warfarin.", dad),
            ("Can my dad take ibuprofen?", "Best to check with his doctor, as he takes "
             "warfarin.", dad)):
        assert offered(answer, caution, ask) == [] and not missed(answer, caution, ask), answer
    # the same foods offered are still marked
    assert offered("Tahini is lovely with apple slices.", rosie, "Can Rosie have tahini?") \
        == ["tahini"]
    assert offered("Try hummus, like the one with sesame seeds.", rosie,
                   "Suggest a snack for Rosie") == ["hummus", "sesame"]
    assert missed("Ibuprofen is a common painkiller.", dad, "Can my dad take ibuprofen?")


def test_a_card_is_not_doubted_for_its_greeting_and_a_name_called_at_the_end_is():
    """QA pass 41: "Dear Lucy, happy birthday! Love, Ben" to "Write a card for Lucy's
    birthday" read "it calls you “Lucy”, the name of your partner" (the possessive hid the
    name); "…have a great day on your birthday, Dan!" to "Thanks!" had no line."""
    from hela_desktop.doubt import answer_doubt
    from hela_desktop.sources import doubt_note
    from hela_desktop.whom import greets_as

    lucy = _recalls((2, "My partner Lucy is a solicitor."))
    assert doubt_note(answer_doubt("Write a card for Lucy's birthday", "Dear Lucy, happy "
                                   "birthday! Love, Ben", lucy, set(), _names), []) == ""
    dan = {"dan"}
    names = lambda t: {w.lower() for w in re.findall(r"[A-Z][a-z]+", t)} & dan  # noqa: E731
    got = greets_as("Thanks!", "You're welcome, have a great day on your birthday, Dan!", [],
                    names)
    assert doubt_note(got, []) == ("Check this answer: it calls you “Dan”, the name of "
                                   "someone else you told me of.")
    for fine in ("I hope you have fun with your brother, Dan.", "Thank you, Ben!",
                 "You can ask Dan."):
        assert greets_as("Thanks!", fine, [], names) is None, fine


def test_an_answer_in_other_words_uses_what_it_gives():
    """QA passes 41 and 41b: "She's a lawyer." (a solicitor), "Hollie is a veterinarian."
    (a vet, since moved), "Your father." (for "Who is Suresh?", "My dad Suresh…") read "it
    uses none of the memories recalled for it"; "Suresh is your brother." named no
    relation."""
    from hela_desktop.says_of import gives_asked
    from hela_desktop.whom import misrelated

    assert gives_asked("What does Lucy do?", "She's a lawyer.", [_LUCY])
    assert not gives_asked("What does Lucy do?", "She's a nurse.", [_LUCY])
    assert gives_asked("How old is Alfie?", "He is six.", [_ALFIE])
    suresh = (6, "My dad Suresh lives in Leicester and takes warfarin.")
    assert gives_asked("Who is Suresh?", "Your father.", [suresh])
    assert not gives_asked("Who is Suresh?", "Your brother.", [suresh])
    assert misrelated("Suresh is your brother.", _recalls(suresh)) == {
        "kind": "misrelated", "name": "Suresh", "said": "brother", "told": "your dad"}
    assert misrelated("Suresh is your dad.", _recalls(suresh)) is None


def test_two_children_told_at_once_have_their_age():
    """Pass 41b's persona: "Kiran is 7 and Dev is 9." had no line after "We have twin boys,
    Kiran and Dev, who are 7."."""
    from hela_desktop.says_of import says_otherwise, told

    twins = (3, "We have twin boys, Kiran and Dev, who are 7.")
    assert told([twins[1]]) == {"kiran": {"age": {"7"}}, "dev": {"age": {"7"}}}
    assert told(["Tom and Sam are 7 years apart."]) == {}
    assert told(["Our kids Mia and Leo are 5 and 8."]) == {}
    assert says_otherwise("Kiran is 7 and Dev is 9.", [twins], "", "How old are the boys?")[
        "said"] == "9"
    assert says_otherwise("Kiran and Dev are 7.", [twins], "", "How old are the boys?") is None


def test_a_move_or_a_new_month_soon_after_is_news_of_the_old():
    """Pass 41b's persona: "Hollie just moved to York." made "My best friend Hollie is a
    vet in Harrogate." no older news (a job in a place was no home), and then "Hollie is a
    vet." would have been; "The Seville trip is now in June, not May." corrected nothing
    ("Spanish" and "Seville" read as two people), and "It was in May, but now it's in
    June." read as older news; "We moved from Bradford to Leeds…" did not speak of where
    they lived."""
    from hela_desktop import facts
    from hela_desktop.older_news import gives_older
    from hela_desktop.passed_over import passed_over

    vet, moved = "My best friend Hollie is a vet in Harrogate.", "Hollie just moved to York."
    assert facts.same_kind(vet, moved) and facts.corrects_memory(vet, moved)
    assert gives_older("Where does Hollie live?", "Hollie lives in Harrogate.", vet, moved)
    assert not gives_older("What does Hollie do?", "Hollie is a vet.", vet, moved)
    assert not gives_older("Where does Hollie live?", "Hollie lives in York.", vet, moved)
    trip = "I'm learning Spanish for a trip to Seville in May."
    june = "The Seville trip is now in June, not May."
    assert facts.corrects_memory(trip, june)
    assert not facts.corrects_memory("Actually Hannah is 8 now.", "Actually Zain is 7 now.")
    ask = "When is the Seville trip?"
    assert not gives_older(ask, "It was in May, but now it's in June.", trip, june)
    assert gives_older(ask, "For your trip to Seville in May.", trip, june)
    grace, mixed = "My friend Grace is from Ghana.", ("Grace is not from Ghana, she is from "
                                                      "Nigeria, I mixed that up.")
    assert gives_older("Where is Grace from?", "She was born in Ghana, and is from Nigeria.",
                       grace, mixed)
    mems = _recalls((6, "My dad Suresh lives in Leicester and takes warfarin."),
                    (11, "We moved from Bradford to Leeds three years ago."))
    for answer in ("You lived in Bradford.", "Bradford."):
        assert passed_over("Where did we live before?", answer, mems) is None, answer


def test_a_name_ending_in_ly_asked_mid_sentence_is_read_as_the_users():
    """Pass 41b's persona: "Where does Holly live?" was not read as Hollie."""
    from hela_desktop.name_index import NameIndex

    n = NameIndex()
    n.learn(["My best friend Hollie is a vet in Harrogate.", "Hollie just moved to York."])
    assert n.respell("Where does Holly live?") == ("Where does Hollie live?",
                                                   [("Holly", "Hollie")])
    assert n.respell("Finally, where does Hollie live?")[1] == []


def test_she_after_another_named_is_theirs_and_a_quoted_sentence_ends_one():
    """QA pass 40e P1 (seen again in 41): "…We also had a lovely cat named Daisy. She's a
    cat…" read "it says Bramble is a cat"; QA pass 41: "However" after a closing quote and
    "Old" of "Old English" were called made-up names."""
    from hela_desktop import facts
    from hela_desktop.made_up import made_up
    from hela_desktop.says_of import says_otherwise

    bramble = [(7, "We have a dog, a spaniel called Bramble.")]
    got = says_otherwise("Bramble is a breed of poodle. We also had a lovely cat named Daisy. "
                         "She's a cat that lives in Norwich.", bramble, "Bramble",
                         "Is Bramble a poodle?")
    assert got["said"] == "poodle"
    assert says_otherwise("Bramble is lovely. She is a cat.", bramble, "Bramble",
                          "Is Bramble a poodle?")["said"] == "cat"
    assert facts.sentences("Lucy said “I love my job.” However, she is a solicitor.") == [
        "Lucy said “I love my job.”", "However, she is a solicitor."]
    lucy = "My partner Lucy is a solicitor."
    assert made_up("Lucy said \"I love my job.\" However, she is a solicitor.", lucy) == []
    assert made_up("Lucy is a solicitor. She speaks Old English too.", lucy) == []
    assert made_up("Lucy is a solicitor. She speaks Old Zorblax too.", lucy) == ["Old Zorblax"]


def test_a_new_job_makes_the_old_job_older_news_and_nothing_else():
    """QA pass 40e P3 (and 41): after "I handed in my notice at Royal Mail last week and I'm
    joining a bike shop as a mechanic.", "You're a postman in Norwich." to "Where do I work
    now?" had no line: the intro "Hi, I'm Ben Harper, a postman in Norwich." said no job to
    the change check.  Only the job is out of date: not his name, nor his home."""
    from hela_desktop import facts
    from hela_desktop.older_news import gives_older

    intro = "Hi, I'm Ben Harper, a postman in Norwich."
    notice = ("I handed in my notice at Royal Mail last week and I'm joining a bike shop as a "
              "mechanic.")
    assert facts.corrects_memory(intro, notice)
    for old in ("You're a postman in Norwich.", "You work at Royal Mail as a postman."):
        assert gives_older("Where do I work now?", old, intro, notice), old
    for fine, ask in (("You live in Norwich.", "Where do I live?"),
                      ("Your name is Ben Harper.", "What is my name?"),
                      ("You're joining a bike shop as a mechanic.", "Where do I work now?")):
        assert not gives_older(ask, fine, intro, notice), fine


def test_a_wrong_name_said_to_be_a_name_and_speaking_as_the_person_asked_about_are_marked():
    """QA pass 40e P4 and 41 P7: "Is Lucy a nurse?" answered "…In this time period, I am a
    solicitor." had no line; "What's my brother's name?" answered "Ajax is a very popular
    name…" named "Angel" and "God" as made up, not "Ajax"."""
    from hela_desktop.doubt import answer_doubt
    from hela_desktop.made_up import made_up
    from hela_desktop.sources import doubt_note

    assert made_up("Ajax is a very popular name in the world of religion.",
                   "My brother Dan is a firefighter.") == ["Ajax"]
    assert made_up("Ajax is a cleaning product.", "My brother Dan is a firefighter.") == []
    lucy = _recalls(_LUCY)
    for speaks in ("In this time period, I am a solicitor.", "No, I'm a solicitor."):
        assert doubt_note(answer_doubt("Is Lucy a nurse?", speaks, lucy, set(), _names), []) \
            == f"Check this answer: it speaks as if it were Lucy (“{speaks.split(', ')[-1][:-1]}”)."
    for fine in ("No, Lucy is a solicitor.", "I am sure she is a solicitor."):
        assert "speaks as if" not in doubt_note(
            answer_doubt("Is Lucy a nurse?", fine, lucy, {2}, _names), []), fine


def test_asked_by_relation_a_memory_naming_someone_by_name_alone_may_be_theirs():
    """bench personal on 3a39513: "What's my son completely obsessed with?" answered "Your
    son is obsessed with the idea of a shark… he's now planning to create his own
    shark-themed party." was marked as saying of the son what was told of Finn: Finn, "my
    eight-year-old", is the son."""
    from hela_desktop.whom import misattributed

    finn = _recalls((18, "Finn turns nine on the 10th of May and he wants a party at the "
                         "trampoline park with his whole class."),
                    (6, "Finn, my eight-year-old, has decided sharks are his entire "
                        "personality."))
    names = lambda t: {"finn"} if "Finn" in t else set()  # noqa: E731
    assert misattributed("What's my son completely obsessed with?", "Your son is obsessed "
                         "with sharks, and he's now planning his own shark-themed party.",
                         finn, names) is None


def test_handing_in_notice_and_joining_elsewhere_corrects_the_old_job():
    """bench personal on 3a39513: once "joining … as a" told a new job, "Handed in my notice
    at Ledgerly yesterday! I'm joining Pinebrook Games as a tools engineer in April." said
    it corrects, and corrected nothing: "I'm basically the backend person at Ledgerly…"
    lost its older-news mark."""
    from hela_desktop import facts

    old = ("I'm basically the backend person at Ledgerly, a small fintech startup, so I end up "
           "explaining concurrency bugs to people.")
    new = ("Handed in my notice at Ledgerly yesterday! I'm joining Pinebrook Games as a tools "
           "engineer in April.")
    assert facts.corrects(new) and facts.corrects_memory(old, new)
    assert not facts.corrects_memory("My sister Ines is a nurse at St Mary's.", new)


def test_qa_pass_41c_cautions_other_words_and_offers_after_a_concession():
    """QA pass 41c: "While Suresh does have a gluten intolerance, he can still take
    ibuprofen." had no line (the allergy word made the clause a warning); "No, toast is not
    appropriate for Dev.", "Aspirin carries certain risks…; talk to your doctor before giving
    him aspirin." and "…a glutenfree diet…" were read as offers or as leaving it out; "No,
    Kiran is not allergic to anything." to "Is Kiran allergic to anything?" had no line."""
    from hela_desktop.cautions import cautions, missed, offered

    dev = cautions([(4, "Dev is coeliac, so no gluten for him.")], about={"dev"})[0]
    dad = cautions([(6, "My dad Suresh lives in Leicester and takes warfarin.")],
                   about={"dad", "suresh"})[0]
    kiran = cautions([(5, "Kiran is allergic to peanuts.")], about={"kiran"})[0]
    assert offered("While Suresh does have a gluten intolerance, he can still take "
                   "ibuprofen.", dad, "Is ibuprofen OK for Suresh?") == ["ibuprofen"]
    for answer, caution, ask in (
            ("No, toast is not appropriate for Dev.", dev, "Is toast OK for Dev?"),
            ("Aspirin carries certain risks for him; talk to your doctor before giving him "
             "aspirin.", dad, "Can my dad take aspirin?"),
            ("Dev is on a glutenfree diet due to celiac's condition.", dev,
             "Can Dev have pasta?"),
            ("He is allergic to peanuts, he can't have them.", kiran, "Can Kiran have peanuts?")):
        assert offered(answer, caution, ask) == [] and not missed(answer, caution, ask), answer
    for ask in ("Is Kiran allergic to anything?", "Does Kiran have any allergies?"):
        for wrong in ("No, Kiran is not allergic to anything.", "Yes, Kiran is allergic to "
                      "sesame."):
            assert missed(wrong, kiran, ask), (ask, wrong)
        assert not missed("Yes, Kiran is allergic to peanuts.", kiran, ask)


def test_qa_pass_41c_swapped_allergies_and_the_old_value_asked_for():
    """QA pass 41c: "Kiran is coeliac and Dev is allergic to peanuts." (swapped) had no line;
    "Where did Hollie live before?" answered "Harrogate" read as older news."""
    from hela_desktop.allergy_of import given_to_another
    from hela_desktop.older_news import gives_older

    kids = [(5, "Dev is coeliac, so no gluten for him."), (6, "Kiran is allergic to peanuts.")]
    names = lambda t: {w.lower() for w in re.findall(r"[A-Z][a-z]+", t)} & {  # noqa: E731
        "kiran", "dev"}
    assert given_to_another("Kiran is coeliac and Dev is allergic to peanuts.", kids,
                            names)["name"] == "Kiran"
    assert given_to_another("Dev is coeliac, Kiran is allergic to peanuts.", kids, names) \
        is None
    vet, moved = "My best friend Hollie is a vet in Harrogate.", "Hollie just moved to York."
    assert not gives_older("Where did Hollie live before?", "Harrogate.", vet, moved)
    assert gives_older("Where does Hollie live?", "Harrogate.", vet, moved)


def test_a_question_about_the_household_or_a_thing_a_memory_tells_is_about_the_user():
    """QA pass 41c: "When is the Seville trip?" answered "It's in July." (June told) and
    "How old are the boys?" answered "They are 9." (7 told) had no line: neither question
    says "my", so neither was read as asking what the user told."""
    from hela_desktop.doubt import answer_doubt
    from hela_desktop.edges import used_by_answer
    from hela_desktop.sources import doubt_note

    def statements(*texts: tuple[int, str]) -> list[Recall]:
        return [Recall(episode_id=i, score=1.0, text=t, extra={"statement": True})
                for i, t in texts]

    trip = statements((13, "The Seville trip is now in June, not May."),
                      (10, "I'm learning Spanish for a trip to Seville in May."))
    twins = statements((3, "We have twin boys, Kiran and Dev, who are 7."))

    def note(ask: str, answer: str, mems: list[Recall]) -> str:
        drew = used_by_answer(((r.episode_id, r.text) for r in mems), ask, answer)
        return doubt_note(answer_doubt(ask, answer, mems, drew, _names), [])

    assert "“July”" in note("When is the Seville trip?", "It's in July.", trip)
    assert "“9”" in note("How old are the boys?", "They are 9.", twins)
    for fine in ("It's in June.", "Your trip to Seville is in June now."):
        assert note("When is the Seville trip?", fine, trip) == "", fine
    assert note("How old are the boys?", "They are 7.", twins) == ""
    assert note("What is the capital of Spain?", "Madrid.", trip) == ""


def test_the_memories_table_writes_its_times_short():
    """QA pass 41c: the Memories table's two full dates ("2026-12-06 03:59") took the room
    your words and the answer needed, cut to about fifteen letters each."""
    import time

    from hela_desktop.ui.explain import short_when

    now = time.mktime((2026, 12, 6, 4, 30, 0, 0, 0, -1))
    assert short_when(now - 60, now) == "today 04:29"
    assert short_when(now - 5 * 3600, now) == "yesterday 23:30"
    assert short_when(now - 3 * 86400, now) == "3 Dec 04:30"
    assert short_when(now - 400 * 86400, now) == "1 Nov 2025"
    assert short_when(None, now) == "—"


def test_qa_pass_41d_a_grandsons_allergy_and_age_corrections():
    """QA pass 41d: "Chloe's son Oscar is 4 and he's allergic to tree nuts." made Oscar no
    one of the user's life, so "Yes, Oscar can have a Bakewell tart." had no line; after
    "Actually Oscar is 5 now." any answer naming Chloe read as older news ("Yep, Chloe has
    allergies to tree nuts.", Oscar's allergy given to her, was marked only so); "Chloe is 34
    and vegetarian" said no diet; "The knee appointment moved to 21 January." corrected
    nothing."""
    from hela_desktop import facts, kin
    from hela_desktop.allergy_of import given_to_another
    from hela_desktop.cautions import caution_of_others
    from hela_desktop.older_news import gives_older, repeats_corrected

    oscar = "Chloe's son Oscar is 4 and he's allergic to tree nuts."
    chloe = "Our daughter Chloe is 34 and vegetarian; she lives in Cardiff."
    assert kin.as_theirs("Oscar").search(oscar)
    assert caution_of_others(oscar, {"oscar"})[0] >= {"bakewell", "pesto", "nutella"}
    assert not caution_of_others(oscar, {"chloe"})[0]  # (hers only as his mother)
    assert caution_of_others("Chloe's allergic to nuts.", {"chloe"})[0]
    assert "meat" in caution_of_others(chloe, {"chloe"})[0]
    names = lambda t: {w.lower() for w in re.findall(r"[A-Z][a-z]+", t)} & {  # noqa: E731
        "chloe", "oscar"}
    assert given_to_another("Yep, Chloe has allergies to tree nuts.", [(5, oscar), (4, chloe)],
                            names)["said"] == "allergies to tree nuts"
    five = "Actually Oscar is 5 now."
    assert not gives_older("Does Chloe have any allergies?", "Yep, Chloe has allergies to tree "
                           "nuts.", oscar, five)
    assert gives_older("How old is Oscar?", "Oscar is 4.", oscar, five)
    assert not repeats_corrected(five, "I'm glad your son is thriving, especially as he's "
                                 "allergic to tree nuts.", oscar)
    assert repeats_corrected(five, "Oscar is 4, lovely.", oscar)
    knee = "I have a hospital appointment on 14 January for my knee."
    assert facts.corrects_memory(knee, "The knee appointment moved to 21 January.")


def test_each_note_before_another_ends_with_a_stop():
    """QA pass 41d: "…what you have just corrected — “Chloe's son Oscar is 4” Also: …"."""
    from hela_desktop.sources import doubt_note

    got = doubt_note({"kind": "repeats_corrected", "older": 5, "said": "Chloe's son Oscar is 4",
                      "also": [{"kind": "made_up", "words": ["Childuyala"], "unused": False}]},
                     [])
    assert "is 4”. Also: " in got


def test_qa_pass_41e_a_number_is_an_age_only_as_one_and_news_of_one_person_dates_no_other():
    """QA pass 41e: "4 days late", "the 4th of May" and "5-23 Harker St." read as Oscar's
    age given to Chloe; "Chloe moved from Cardiff to Bath…", come in through "Chloe's son
    Oscar is 4…", was marked older than "Actually Oscar is 5 now."."""
    from hela_desktop.whom import misattributed
    from hela_desktop.whom import same_one as _same_one

    mems = _recalls(_LUCY, _ALFIE)
    for not_age in ("Lucy was 6 days late.", "Lucy was born on the 6th of May.",
                    "Lucy lives at 6-23 Harker St."):
        assert misattributed("How old is Lucy?", not_age, mems, _names) is None, not_age
    for age in ("Lucy is 6 years old.", "Lucy is a 6-year-old.", "She's 6."):
        assert misattributed("How old is Lucy?", age, mems, _names) is not None, age
    assert _same_one("ines", "Actually my sister moved to Porto.", "My sister Ines lives in Lyon.")
    assert not _same_one("chloe", "Actually Oscar is 5 now.",
                         "Chloe's son Oscar is 4 and he's allergic to tree nuts.")
    assert _same_one("chloe", "Actually she moved to Bath.", "My daughter Chloe lives in Cardiff.")
