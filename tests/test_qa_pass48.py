"""What the forty-eighth pass found, fixed (QA passes 48a, Priya Nair, and 48b, Jonas
Berg), and what pass 47 left open."""
from __future__ import annotations

DANIEL = "My husband Daniel has high blood pressure and takes lisinopril."
SWITCH = "Daniel's doctor switched him to amlodipine instead of lisinopril."
KIDNEY = "I have chronic kidney disease, stage 3."
GOUT = "I take allopurinol for my gout."


def test_kidney_disease_cautions_painkillers_and_a_medicine_for_gout_tells_it():
    """The NHS's ibuprofen page: ask a doctor first with kidney problems; a medicine taken
    "for my gout" tells the gout (its caution: alcohol)."""
    from hela_desktop.cautions import caution_of, caution_of_others, cautions, offered

    assert {"ibuprofen", "naproxen", "aspirin"} <= caution_of(KIDNEY)
    assert "ibuprofen" in caution_of_others("My dad has kidney failure.", {"dad"})[0]
    assert "beer" in caution_of(GOUT)
    assert "beer" not in caution_of("I take allopurinol every day.")
    assert not caution_of("My friend donated a kidney to her brother.")
    (c,) = cautions([(2, KIDNEY)])
    assert offered("Yes, ibuprofen is fine for a sore knee.", c,
                   "Can I take ibuprofen for my sore knee?") == ["ibuprofen"]
    assert not offered("Ibuprofen is not a good idea with your kidneys; try paracetamol.", c,
                       "Can I take ibuprofen for my sore knee?")


def test_a_change_told_to_the_old_value_is_older_news():
    """QA pass 47c: "No, Daniel's doctor did switch him to lisinopril." and "Daniel's doctor
    switched to lisinopril, which is … amlodipine." had no line, nor a reply to the switch
    that told it back to front; the change told the right way round, or denied, is no
    older news."""
    from hela_desktop.older_news import gives_older, repeats_corrected

    q = "Is Daniel still on lisinopril?"
    assert gives_older(q, "No, Daniel's doctor did switch him to lisinopril.", DANIEL, SWITCH)
    assert gives_older("What medicine does Daniel take?", "Daniel's doctor switched to "
                       "lisinopril, which is a type of medication called amlodipine.",
                       DANIEL, SWITCH)
    for right in ("No, his doctor switched him from lisinopril to amlodipine.",
                  "No, he didn't switch him to lisinopril, he takes amlodipine.",
                  "Daniel takes amlodipine now; he was switched to it from lisinopril."):
        assert not gives_older(q, right, DANIEL, SWITCH), right
    assert repeats_corrected(SWITCH, "When Daniel started with amlodipine, his doctor "
                             "suggested switching to lisinopril as a possible treatment.",
                             DANIEL)
    assert not repeats_corrected(SWITCH, "Got it, Daniel was switched from lisinopril to "
                                 "amlodipine.", DANIEL)
    # (a day moved back to the old one)
    assert gives_older("When is my appointment?", "The dentist moved it to Tuesday at 10:30.",
                       "My dentist appointment is on Tuesday at 10:30.",
                       "The dentist moved my appointment to Thursday at 14:00.")


PRIYA = "Hi, I'm Priya Nair and I teach maths at a secondary school in Leeds."
YORK = "We've moved from Leeds to York and I teach at a school there now."
ARJUN = "Our son Arjun is 6 and he's allergic to shellfish."
TURNED = "Arjun just turned 7."


def test_stopping_drinking_is_a_caution():
    """QA pass 48a: "Sam stopped drinking alcohol two years ago." was never cited under a
    glass of wine for Sam; stopping coffee is no caution."""
    from hela_desktop.cautions import caution_of, caution_of_others

    assert "wine" in caution_of_others("Sam stopped drinking alcohol two years ago.", {"sam"})[0]
    assert "beer" in caution_of("I gave up drinking last year.")
    assert not caution_of("I stopped drinking coffee after lunch.")


def test_a_job_remembered_as_a_retired_captain(make_assistant):
    """QA pass 48b: "What did I do for work?" recalled only the dentist, not "Hello, I'm
    Jonas Berg, a retired ferry captain living in Gothenburg."."""
    from hela_desktop.your_own import asks_own, tells_own

    assert asks_own("What did I do for work?") == "job"
    assert tells_own("Hello, I'm Jonas Berg, a retired ferry captain living in Gothenburg.",
                     "job")


def test_a_grandchild_told_as_a_childs_child(make_assistant):
    """QA pass 48b: "What is my granddaughter's name?" read "you have not told me about
    your granddaughter", "…their baby daughter Elsa" of "Our son Erik" told."""
    from hela_desktop import kin
    from hela_desktop.memory import NewEpisode

    erik = "Our son Erik lives in Stockholm with his wife Maja and their baby daughter Elsa."
    assert kin.tells_grandchild("granddaughter", erik)
    assert not kin.tells_grandchild("grandson", erik)
    assert kin.tells_grandchild("grandson", "My daughter Ana and her 3-year-old son Leo.")
    a = make_assistant()
    assert not a.engine.tells_of("granddaughter")
    a.engine.add_episodes([NewEpisode(erik)])
    assert a.engine.tells_of("granddaughter") and not a.engine.tells_of("grandson")
    assert a._untold("What is my granddaughter's name?") == []


def test_a_correction_that_names_what_it_puts_aside_corrects_only_what_said_it():
    """QA pass 48a: "Actually Meera's wedding has moved to Munnar, not Kochi." was noted
    as correcting "Meera's wedding is on 21 August." too, and a right date was then marked
    older news."""
    from hela_desktop import facts

    munnar = "Actually Meera's wedding has moved to Munnar, not Kochi."
    assert facts.corrects_memory("My sister Meera's wedding is on 14 August in Kochi.", munnar)
    assert not facts.corrects_memory("Sorry, I got that wrong: Meera's wedding is on 21 August.",
                                     munnar)
    assert facts.corrects_memory("The trip is in May.", "Actually the trip is in June, not May.")


def test_a_move_with_a_job_there_corrects_the_old_home_and_job():
    """QA pass 48a: "We've moved from Leeds to York and I teach at a school there now." was
    not noted as a correction ("We've" read as someone's name), and "Do I still live in
    Leeds?" answered "We also live in Leeds now…" had no line."""
    from hela_desktop import facts
    from hela_desktop.older_news import gives_older

    assert facts.who(YORK) == {facts.SELF}
    assert facts.corrects_memory(PRIYA, YORK)
    assert gives_older("Do I still live in Leeds?", "We also live in Leeds now, which is lovely.",
                       PRIYA, YORK)
    assert not gives_older("What do I teach?", "You teach maths at a school.", PRIYA, YORK)
    assert not gives_older("Where do I live?", "You live in York now.", PRIYA, YORK)


def test_a_caution_kept_in_part_of_he_still_holds(make_assistant):
    """QA pass 48a: after "Arjun just turned 7.", what still held of "Our son Arjun is 6
    and he's allergic to shellfish." was "He's allergic to shellfish.", which named no
    Arjun: "…but he also can eat crab and lobster" to "Can Arjun have prawn crackers?" had
    no line."""
    from hela_desktop.doubt import answer_doubt
    from hela_desktop.sources import doubt_note

    a = make_assistant()
    a.engine.add_episodes([NewEpisode_(ARJUN, 1200), NewEpisode_(TURNED, 600)])
    q = "Can Arjun have prawn crackers?"
    answer = "Arjun is allergic to shellfish, but he also can eat crab and lobster."
    found = a._cautions(q, answer, [])
    assert found and "crab" in found[0].avoid
    mems = [_recall(1, ARJUN), _recall(2, TURNED)]
    d = answer_doubt(q, answer, mems, [1], a.engine.people_in, cautions=found)
    assert "“crab” and “lobster” without a word of warning" in doubt_note(
        d, [{"episode_id": 1, "text": ARJUN}])


def test_a_denial_up_to_a_but_is_read():
    """QA pass 48a: "…so he doesn't have an allergy to shellfish but can be allergic to
    other types of seafood…" had no line."""
    from hela_desktop.says_of import says_not

    answer = ("Arjun is allergic to shellfish. He's a vegetarian, so he doesn't have an "
              "allergy to shellfish but can be allergic to other types of seafood like crab.")
    d = says_not(answer, [(4, ARJUN)], "Arjun", "What is Arjun allergic to?",
                 {4: "He's allergic to shellfish."})
    assert d and d["said"] == "doesn't have an allergy to shellfish"


def test_cautions_read_as_a_person_means_them():
    """QA pass 48a: a prawn cocktail read as a drink for a child; "…without eating gluten
    or any form of wheat" and "…can be enjoyed…, but I'm not going to recommend it." read
    as offering them."""
    from hela_desktop.cautions import cautions, offered
    from hela_desktop.minors import under_age

    (c,) = cautions([(4, ARJUN)], about={"arjun"})
    q = "Can Arjun eat a prawn cocktail?"
    assert offered("Yes, Arjun can enjoy a prawn cocktail.", c, q) == ["prawn"]
    (young,) = under_age([(5, TURNED)], frozenset({"arjun"}), q)
    assert not offered("Yes, Arjun can enjoy a prawn cocktail.", young, q)
    assert offered("A mojito cocktail is lovely.", young, q)
    coeliac = "I have coeliac disease, so I can't eat gluten."
    (g,) = cautions([(2, coeliac)])
    assert not offered("You can live life normal without eating gluten or any form of wheat.",
                       g, coeliac)
    assert offered("You can have toast without butter, with jam.", g, "Can I have toast?")
    (w,) = cautions([(3, "My partner Sam is on warfarin after a heart valve operation.")],
                    about={"sam"})
    q = "Can Sam have a glass of champagne at the wedding?"
    assert not offered("A glass of champagne can be enjoyed during the wedding, but I'm not "
                       "going to recommend it.", w, q)
    assert offered("A glass of champagne can be enjoyed during the wedding. Have fun!", w, q)


def test_a_pet_named_at_a_sentences_end_is_not_calling_you():
    """QA pass 48a: "You've got a cat that you're proud of, Miso." read "it calls you
    “Miso”, and your name is Priya Nair"."""
    from hela_desktop.whom import greets_as

    mems = [_recall(6, "We have two cats, Miso and Tofu.")]
    assert greets_as("How many cats do I have?", "You've got a cat that you're proud of, Miso.",
                     mems, None, ("Priya", "Nair")) is None
    assert greets_as("Thanks!", "Have a lovely day with your family, Sara!", mems, None,
                     ("Priya", "Nair"))


def test_a_time_is_quoted_whole():
    """QA pass 48b: "(“My dentist appointment is scheduled for Tuesday at 10”)"."""
    from hela_desktop.whom import as_user

    d = as_user("My dentist appointment is on Tuesday at 10:30.",
                "My dentist appointment is scheduled for Tuesday at 10:30 AM.", [],
                ("Jonas",))
    assert d and "10:30" in d["said"]


def test_a_name_spelt_out_is_the_same_person(make_assistant):
    """QA pass 48b: after "My wife's name is spelled Annelie, with an e at the end.", "Can
    Annelie eat a steak?" answered "She loves to eat a steak…" had no line, "My wife Anneli
    is vegetarian." told."""
    from hela_desktop.memory import NewEpisode

    a = make_assistant()
    a.engine.add_episodes([NewEpisode("My wife Anneli is vegetarian."),
                           NewEpisode("My wife's name is spelled Annelie, with an e at the end.")])
    assert "anneli" in a.engine.people_in("Can Annelie eat a steak?")
    found = a._cautions("Can Annelie eat a steak?", "She loves to eat a steak.", [])
    assert found and "steak" in found[0].avoid
    # (a name one slip off that was never spelt out stays another person)
    assert "anneli" not in a.engine.people_in("Can Annelies eat a steak?")


def NewEpisode_(text: str, ago: float):
    import time

    from hela_desktop.memory import NewEpisode

    return NewEpisode(text, created_at=time.time() - ago)


def _recall(eid: int, text: str, **extra):
    from hela_desktop.events import Recall

    return Recall(episode_id=eid, score=1.0, text=text, extra={"statement": True, **extra})


def test_a_card_for_someone_named_that_opens_on_another_name():
    """QA pass 48a: "Dear Yuvraj, …" to "Write a short birthday card for Arjun." had no
    line; "Dear Arjun", "Hi Mum", a short form and a title are fine."""
    from hela_desktop.made_up import addressed_as
    from hela_desktop.sources import doubt_note

    known = {"arjun", "miso", "priya"}
    ask = "Write a short birthday card for Arjun."
    d = addressed_as(ask, "Dear Yuvraj,\nWe are thrilled to have you on our team.", known)
    assert doubt_note(d, []) == "Check this answer: it calls Arjun “Yuvraj”, a name you never told me."
    d = addressed_as(ask, "Dear Miso, happy birthday!", known)
    assert "“Miso”, the name of someone else you told me of" in doubt_note(d, [])
    for fine in ("Dear Arjun, happy 7th birthday!", "Hi Mum, happy birthday!",
                 "Dear Arj, happy birthday!", "Dear Mrs Patel,", "Happy birthday, Arjun!"):
        assert addressed_as(ask, fine, known) is None, fine
    assert addressed_as("Write a short letter to my dad Ravi.", "Dear Yuvraj,", {"ravi"})


def test_the_reply_to_a_correction_that_gives_the_old_value_as_now_again():
    """QA pass 48b: "Erik and Maja moved from Stockholm to Uppsala in the spring. … They've
    been living with their friends in Stockholm ever since…" had no line: its first
    sentence put Stockholm aside; a sentence of Stockholm itself is no repeat."""
    from hela_desktop.older_news import repeats_corrected

    erik = "Our son Erik lives in Stockholm with his wife Maja and their baby daughter Elsa."
    moved = "Erik and Maja moved from Stockholm to Uppsala in the spring."
    assert repeats_corrected(moved, moved + " They've been living with their friends in "
                             "Stockholm ever since they arrived back home.", erik)
    for fine in (moved + " They had been living in Stockholm for years.",
                 moved + " Stockholm is a lovely city.",
                 "How lovely! They have been living in Uppsala since the spring."):
        assert not repeats_corrected(moved, fine, erik), fine


def test_what_a_drug_is_made_up_of_offers_nothing():
    """QA pass 48b: the reply to "I'm allergic to penicillin." read "it names “penicillins”
    without a word of warning" for "…the amino acid that makes up its active ingredient -
    sulfa drugs like cephalosporins are often referred to as penicillins."."""
    from hela_desktop.cautions import cautions, offered

    told = "I'm allergic to penicillin."
    (c,) = cautions([(11, told)])
    assert not offered("The name comes from the amino acid that makes up its active "
                       "ingredient - cephalosporins are often referred to as penicillins.", c, told)
    assert offered("I will make you some amoxicillin.", c, told)


def test_a_grandchild_named_with_a_word_before_is_of_the_users_life(make_assistant):
    """QA pass 48b: "Elsa is a Norwegian child, and her name is Kjerke." to "Who is Elsa?"
    had no line: "…their baby daughter Elsa" made Elsa no one of the user's."""
    from hela_desktop.memory import NewEpisode

    a = make_assistant()
    a.engine.add_episodes([NewEpisode("Our son Erik lives in Stockholm with his wife Maja and "
                                      "their baby daughter Elsa.")])
    assert "elsa" in a.engine.people_in("Who is Elsa?")
    assert "stockholm" not in a.engine.people_in("Is Stockholm nice?")


def test_an_illness_of_yours_no_memory_tells(make_assistant):
    """QA pass 48b: "…3. You've been diagnosed with diabetes - this is a disease…" to "What
    do you know about my health?" had no line (nor "“2” is in none of the memories" for a
    list's number in a line)."""
    from hela_desktop.doubt import answer_doubt
    from hela_desktop.medicines import ills_said
    from hela_desktop.memory import NewEpisode
    from hela_desktop.sources import doubt_note

    assert ills_said("You've been diagnosed with diabetes.") == ["diabetes"]
    assert ills_said("You're diabetic and you have chronic kidney disease.") == [
        "diabetic", "kidney disease"]
    for none in ("If you have diabetes, avoid sugar.", "Do you have asthma?",
                 "You don't have diabetes.", "People who have gout avoid beer."):
        assert not ills_said(none), none
    a = make_assistant()
    kidney = "I have chronic kidney disease, stage 3."
    a.engine.add_episodes([NewEpisode(kidney), NewEpisode("My dad has asthma.")])
    q = "What do you know about my health?"
    answer = ("1. You have chronic kidney disease - a long-term condition. 2. You've been "
              "diagnosed with diabetes - too much sugar in the blood. 3. You have asthma.")
    assert a._ills_untold(q, answer) == ["diabetes"]  # (asthma is told, if of his dad)
    d = answer_doubt(q, answer, [_recall(1, kidney)], {1}, a.engine.people_in,
                     ills=a._ills_untold(q, answer))
    assert doubt_note(d, [{"episode_id": 1, "text": kidney}]) == (
        "Check this answer: it says you have diabetes, and you never told me so.")
    assert a._ills_untold("I have diabetes.", "You have diabetes, I'm sorry.") == []


def test_one_who_died_has_gone_on_to_something():
    """QA pass 48b: "Nils Berg and his family have gone on to raise a new generation of
    sailors." in the reply to "My brother Nils died in 2019." had no line."""
    from hela_desktop.made_up import alive_again

    nils = [(8, "My brother Nils died in 2019.")]
    d = alive_again("Nils Berg and his family have gone on to raise a new generation of "
                    "sailors.", nils, {"nils"})
    assert d and d["name"] == "Nils"
    assert not alive_again("Nils had gone on to become a captain before he died in 2019.",
                           nils, {"nils"})


def test_names_given_several_at_once():
    """QA pass 48a: "And your brother, Miso, he's been through some tough times" in the
    reply to "We have two cats, Miso and Tofu." had no line: the names of a count of
    animals or children were read as no one's."""
    from hela_desktop.whom import _given_names, misrelated

    assert _given_names(["We have two cats, Miso and Tofu.", "We have two sons, Tom and Max.",
                         "I have 3 dogs, Rex, Bo and Fifi."]) == {
        "miso": "cat", "tofu": "cat", "tom": "son", "max": "son", "rex": "dog", "bo": "dog",
        "fifi": "dog"}
    d = misrelated("And your brother, Miso, he's been through some tough times.",
                   [_recall(6, "We have two cats, Miso and Tofu.")])
    assert d and d["name"] == "Miso"


def test_a_place_put_aside_leaves_the_date_current_in_recall(make_assistant):
    """QA pass 48c: after "Actually Meera's wedding has moved to Munnar, not Kochi.", the
    note named only the Kochi memory, but recall still marked "Meera's wedding is on 21
    August." older news (the question's own words shared), and a right date read "it may
    give older news"."""
    import time

    from hela_desktop.gate import RelevanceGate
    from hela_desktop.knowledge import all_corrections
    from hela_desktop.memory import NewEpisode

    a = make_assistant()
    now = time.time()
    told = ["My sister Meera's wedding is on 14 August in Kochi.",
            "Sorry, I got that wrong: Meera's wedding is on 21 August.",
            "Actually Meera's wedding has moved to Munnar, not Kochi."]
    ids = a.engine.add_episodes([NewEpisode(t, created_at=now - (3 - i) * 600)
                                 for i, t in enumerate(told)])
    q = "When is Meera's wedding?"
    qv = a.engine.embed_query(q)
    res = RelevanceGate(a.engine, a.settings.gate).admit(q, a.engine.retrieve(q, query_vec=qv),
                                                          qv)
    by_id = {r.episode_id: r for r in res.admitted}
    assert by_id[ids[0]].extra.get("superseded_by") == ids[2]
    assert "superseded_by" not in by_id[ids[1]].extra
    assert ids[2] not in all_corrections(a.engine.store, [ids[1]]).get(ids[1], [])


def test_names_on_a_line_of_their_own_and_titled_signatures():
    """QA pass 48c: a card for Arjun opening "Liam,\\nPray for…", answers to Priya opening
    "Liam,\\nLiam, please…" and "Liam... I hope…", and a card signed "Best wishes, / Mr.
    Arjun Sharma / Chennai, India" had no line."""
    from hela_desktop.made_up import addressed_as, signed_as
    from hela_desktop.whom import greets_as

    ask, known = "Write a short birthday card for Arjun.", {"arjun", "priya"}
    assert addressed_as(ask, "Liam,\nPray for your child's health.", known)["said"] == "Liam"
    for fine in ("Congratulations\nArjun!", "Greetings,\nDear one", "Arjun,\nHappy birthday!"):
        assert addressed_as(ask, fine, known) is None, fine
    yours = ("Priya", "Nair")
    for calls in ("Liam,\nLiam, please add something to our list.",
                  "Liam... I hope you have a wonderful birthday."):
        assert greets_as("Thanks!", calls, [], None, yours)["said"] == "Liam", calls
    for fine in ("Sorry... I cannot help.", "Hello,\nI am here.", "Great...  Here it is."):
        assert greets_as("Thanks!", fine, [], None, yours) is None, fine
    card = "Happy birthday Arjun!\n\nBest wishes,\nMr. Arjun Sharma\nChennai, India"
    assert signed_as(card, yours)["said"] == "Arjun"
    assert signed_as("Happy birthday!\nLove,\nPriya Sharma\nChennai-India", yours) is None


def test_no_health_problems_when_an_illness_was_told():
    """QA pass 48c: "Yes, my dad has no health problems." to "Does my dad have any health
    problems?" had no line, "My dad Ravi lives in Chennai and has type 2 diabetes." told."""
    from hela_desktop.says_of import says_not
    from hela_desktop.sources import doubt_note

    ravi = [(5, "My dad Ravi lives in Chennai and has type 2 diabetes.")]
    q = "Does my dad have any health problems?"
    d = says_not("Yes, my dad has no health problems.", ravi, "", q)
    assert doubt_note(d, []) == ("Check this answer: it says your dad has no health problems, "
                                 "and you told me “My dad Ravi lives in Chennai and has type 2 "
                                 "diabetes.”")
    assert says_not("You don't have any health problems.",
                    [(2, "I have chronic kidney disease, stage 3.")], "", q)
    for fine in ("Your dad has no problems with his car.",
                 "Your dad has no other health problems besides his diabetes."):
        assert says_not(fine, ravi, "", q) is None, fine


def test_a_dinner_for_the_four_of_us_and_one_line_for_two_reasons(make_assistant):
    """QA pass 48c: "Plan a dinner for the four of us." offered scallops and red wine with
    no line (no caution recalled); QA pass 48a: the wine line cited only the warfarin,
    never "Sam stopped drinking alcohol two years ago."."""
    from hela_desktop.cautions import cautions, for_household
    from hela_desktop.doubt import _offered
    from hela_desktop.sources import doubt_note

    assert for_household("Plan a dinner for the four of us.")
    assert not for_household("Four of us went to the cinema last week, it was fun.")
    warfarin = "My partner Sam is on warfarin after a heart valve operation."
    sober = "Sam stopped drinking alcohol two years ago."
    found = cautions([(3, warfarin), (9, sober)], about={"sam"})
    (d,) = _offered("Sam can have a glass of red wine.", found, "Can Sam have wine?", None)
    assert d["memory"] == 3 and d["also_memory"] == [9]
    assert doubt_note(d, []) == (f"Check this answer: it names “wine” without a word of "
                                 f"warning, and you told me “{warfarin}” and “{sober}”")


def test_a_pet_that_died_said_to_be_had_now():
    """QA pass 48c: "…two cats, Miso and Tofu, who are both 15 years old." had no line,
    "Tofu died last month; he was 15." told."""
    from hela_desktop.made_up import alive_again

    tofu = [(11, "Tofu died last month; he was 15.")]
    d = alive_again("You have two cats, Miso and Tofu, who are both 15 years old.", tofu,
                    {"tofu", "miso"})
    assert d and d["name"] == "Tofu"
    for fine in ("You have one cat, Miso; Tofu died last month.", "You have fond memories of Tofu."):
        assert not alive_again(fine, tofu, {"tofu", "miso"}), fine


def test_cautions_48d():
    """QA pass 48d: "She has an allergy to onions and I need to get her … for her to eat
    her steak tonight." (a vegetarian) had no line, the onion allergy read as speaking of
    the steak as what she must not have; "The person who should avoid eating:\\n- Any type
    of meat … (lamb is a vegetarian)" read as offering lamb."""
    from hela_desktop.cautions import cautions, offered

    (c,) = cautions([(3, "My wife Anneli is vegetarian.")], about={"anneli"})
    q = "Can Anneli and I share a steak tonight?"
    assert offered("She has an allergy to onions and I need to get her some special "
                   "permission letters for her to eat her steak tonight.", c, q) == ["steak"]
    (n,) = cautions([(4, "Our son Leo is allergic to peanuts.")], about={"leo"})
    assert not offered("He has an allergy to peanuts, so no peanut butter for him.", n,
                       "Can Leo have peanut butter?")
    q = "What should Anneli avoid eating?"
    assert not offered("The person who should avoid eating:\n- Any type of meat or animal "
                       "products (lamb is a vegetarian)\nMilk is fine.", c, q)
    assert offered("Here are some dinner ideas:\n- Roast lamb with potatoes\n- A veggie curry",
                   c, "Suggest a dinner for Anneli.") == ["lamb"]


def test_the_users_words_quoted_are_not_speaking_as_them():
    """QA pass 48d: "1. "Hello, I'm Jonas Berg, a retired ferry captain…" - Corrected
    spelling" read "it speaks as if it were you (“I'm Jonas”)"."""
    from hela_desktop.whom import as_user

    yours = ("Jonas", "Berg")
    assert as_user("What did I do for work?", '1. "Hello, I\'m Jonas Berg, a retired ferry '
                   'captain living in Gothenburg." - Corrected spelling', [], yours) is None
    assert as_user("What did I do for work?", "Hello, I'm Jonas Berg, a retired captain.", [],
                   yours)


def test_fixes_48e():
    """QA pass 48e: "…your new life here in Leeds!" to "Do I still live in Leeds?" after
    the move to York, "No, Miso and Tofu are still alive." after Tofu's death, and "My father
    has no known medical conditions that affect his health…" of a father with type 2
    diabetes had no line."""
    from hela_desktop.made_up import alive_again
    from hela_desktop.older_news import gives_older
    from hela_desktop.says_of import says_not

    q = "Do I still live in Leeds?"
    assert gives_older(q, "I'd be happy to help you with your current situation here in Leeds! "
                       "But I'm really glad you're enjoying your new life here in Leeds!",
                       PRIYA, YORK)
    for fine in ("No, you are no longer in Leeds; you live in York now.",
                 "No, you don't live here in Leeds any more."):
        assert not gives_older(q, fine, PRIYA, YORK), fine
    tofu = [(11, "Tofu died last month; he was 15.")]
    assert alive_again("No, Miso and Tofu are still alive.", tofu, {"tofu", "miso"})
    for fine in ("Tofu is alive in our hearts.", "Tofu lives on in our memories."):
        assert not alive_again(fine, tofu, {"tofu", "miso"}), fine
    ravi = [(5, "My dad Ravi lives in Chennai and has type 2 diabetes.")]
    assert says_not("My father has no known medical conditions that affect his health or "
                    "wellbeing.", ravi, "", "Does my dad have any health problems?")


def test_speaking_as_the_one_asked_about_by_name_not_by_an_apology():
    """QA pass 48e: "…I'm sorry for the mix-up. My name is Meera, and I am a close friend of
    your family." read "it speaks as if it were Meera (“I'm sorry for”)": the apology matched
    "Sorry, I got that wrong: Meera's wedding is on 21 August."."""
    from hela_desktop.whom import as_them

    mems = [_recall(8, "Sorry, I got that wrong: Meera's wedding is on 21 August.")]
    names = lambda t: {"meera"} if "Meera" in t else set()  # noqa: E731
    q = "Is Meera's wedding in Kochi?"
    d = as_them(q, "No, it is not in Kochi. I'm sorry for the mix-up. My name is Meera, and I "
                "am a close friend of your family.", mems, names)
    assert d and d["said"] == "My name is Meera"
    assert as_them(q, "I'm sorry for the confusion; the wedding is on 21 August.", mems,
                   names) is None


def test_what_holds_the_allergen_and_a_no_to_medication_stay_as_they_were():
    """The fresh-clone CI on eb3d1ed: "She is allergic to leucine, which is found in eggs."
    read as offering eggs (the 48d rule for an allergy to something else), and "You are not
    on any medication" read as denying an illness ("medical" and "medication" share a
    stem), not as the no it is."""
    from hela_desktop.cautions import cautions, offered
    from hela_desktop.says_of import says_not

    (c,) = cautions([(2, "Our daughter Kwame is allergic to eggs.")], about={"kwame"})
    assert not offered("She is allergic to leucine, which is found in eggs.", c,
                       "What is Kwame allergic to?")
    assert says_not("You are not on any medication.",
                    [(1, "I have epilepsy and take lamotrigine.")], "", "Am I on any medication?"
                    ) is None
