"""What the forty-ninth pass found, fixed (QA passes 49a, Tomás Ruiz, and 49b, Grace
Okafor), and what pass 48 left open."""
from __future__ import annotations

CATS = "We have two cats, Miso and Tofu."
MEERA = "My sister Meera's wedding is on 21 August."


def _recall(eid: int, text: str, **extra):
    from hela_desktop.events import Recall

    return Recall(episode_id=eid, score=1.0, text=text, extra={"statement": True, **extra})


def _names(text: str) -> set[str]:
    return {n for n in ("miso", "tofu", "meera") if n in text.lower()}


def test_pets_asked_for_in_the_plural_are_named_by_their_names():
    """Pass 48's data: "Your cats are Miso and Tofu." to "What are my cats called?" read "it
    calls your cats “Miso”, the name of your cat" ("my cats" matched no "cat")."""
    from hela_desktop.whom import misnamed

    mems = [_recall(1, CATS), _recall(2, MEERA)]
    ask = "What are my cats called?"
    for right in ("Your cats are Miso and Tofu.", "You have two cats, Miso and Tofu."):
        assert misnamed(ask, right, mems, _names) is None, right
    d = misnamed(ask, "Your cats are called Meera.", mems, _names)
    assert d and d["said"] == "Meera" and d["of"] == "your sister"


def test_a_soft_yes_beside_the_diet_named_is_no_no():
    """Pass 48's window check: "It's very possible. You're right, my wife is vegetarian…"
    to "Can Annelie eat a steak?" had no caution line (the diet named read as its reason);
    a yes that a "but" turns, or a no, still rests on it."""
    from hela_desktop.cautions import cautions, missed

    veg = "My wife Annelie is vegetarian."
    (c,) = cautions([(1, veg)], about={"annelie"})
    ask = "Can Annelie eat a steak?"
    assert missed("It's very possible. You're right, my wife is vegetarian and her name is "
                  "Annelie.", c, ask)
    assert missed("Sure, she is vegetarian and loves a good steak.", c, ask)
    for fine in ("Yes, but remember she is vegetarian, so pick a mushroom dish.",
                 "She is vegetarian, so she does not eat meat.",
                 "As a vegetarian she would not want it."):
        assert not missed(fine, c, ask), fine


def test_apixaban_cautions_painkillers_not_cranberry_or_a_glass_of_wine():
    """QA pass 49b: "I take apixaban every day." read a cranberry juice, grapefruit and a
    small glass of wine as against it; the NHS's apixaban page says alcohol is fine within
    the usual limits, and warns of aspirin and ibuprofen (warfarin's of all of them)."""
    from hela_desktop.cautions import caution_of, cautions, offered

    grace = "I have atrial fibrillation and I take apixaban every day."
    assert {"aspirin", "ibuprofen"} <= caution_of(grace)
    assert not {"cranberry", "wine", "grapefruit"} & caution_of(grace)
    assert {"cranberry", "wine", "aspirin"} <= caution_of("I take warfarin every day.")
    assert "cranberry" in caution_of("I'm on blood thinners.")
    (c,) = cautions([(1, grace)])
    assert not offered("A glass of cranberry juice is a lovely drink.", c,
                       "Can I have a glass of cranberry juice?")
    assert offered("Yes, aspirin will help your headache.", c,
                   "Can I take aspirin for a headache?") == ["aspirin"]


GRACE = ("Good morning. I'm Grace Okafor, I'm 72 and I live in Bristol.",
         "My husband Emeka passed away three years ago.",
         "Our daughter Ngozi lives in Toronto with her husband David.",
         "I have a parrot called Kiki who is 30 years old.")


def test_its_own_feelings_and_hearsay_are_not_speaking_as_you():
    """QA pass 49b: "I just love how he's now 30 years old…" and "I've also heard that
    Ngozi and David have a wonderful family together." read "it speaks as if it were you";
    the user's own words said as its own still do."""
    from hela_desktop.whom import as_user

    mems = [_recall(i, t) for i, t in enumerate(GRACE, 1)]
    ask = "I have a parrot called Kiki who is 30 years old."
    for fine in ("I just love how he's now 30 years old, with a parrot at the top of his mind.",
                 "I've also heard that Ngozi and David have a wonderful family together."):
        assert as_user(ask, fine, mems) is None, fine
    assert as_user(ask, "I live in Bristol and I'm 72.", mems)


def test_one_who_died_spoken_of_as_living_within_a_sentence():
    """QA pass 49b: "…proud of your husband … I just love how he's now 30 years old…", the
    husband dead, had no line; "he's now at peace" is said in his memory."""
    from hela_desktop.made_up import alive_again

    texts = list(enumerate(GRACE, 1))
    names = {"emeka", "ngozi", "david", "kiki"}
    d = alive_again("I'm so glad you're proud of your husband. I just love how he's now 30 "
                    "years old, with a parrot at the top of his mind.", texts, names)
    assert d and d["name"] == "your husband" and d["memory"] == 2
    for fine in ("Your husband was a good man, and I know he's now at peace.",
                 "I'm sorry about your husband. It is sad that he passed away."):
        assert alive_again(fine, texts, names) is None, fine


def test_a_no_then_what_the_food_is_offers_nothing():
    """QA pass 49a: "No, Elena can't have brie on crackers. Brie is a food that's famous for
    being high in sugar and fat…" read "it names “brie” without a word of warning"."""
    from hela_desktop.cautions import cautions, offered

    (c,) = cautions([(1, "My wife Elena is pregnant with our second child.")],
                    about={"elena"})
    ask = "Can Elena have some brie on crackers?"
    assert not offered("No, Elena can't have brie on crackers. Brie is a food that's famous "
                       "for being high in sugar and fat; it's not healthy to eat brie on "
                       "crackers either.", c, ask)
    assert offered("No. Brie on crackers is a lovely snack, she can enjoy it.", c, ask)


def test_a_yes_to_what_you_gave_up(make_assistant):
    """QA pass 49a: "Do I smoke?" answered "Yes, you're right! It's a common practice to
    quit smoking in January." had no line; a no, or another's habit, has none."""
    from hela_desktop.doubt import answer_doubt
    from hela_desktop.sources import doubt_note

    a = make_assistant()
    quit_ = "I quit smoking in January."
    mems = [_recall(1, quit_), _recall(2, "My wife Elena is a teacher.")]

    def line(ask: str, answer: str) -> str:
        d = answer_doubt(ask, answer, mems, {1}, a.engine.people_in)
        return doubt_note(d, [{"episode_id": 1, "text": quit_}]) if d else ""

    yes = "Yes, you're right! It's a common practice to quit smoking in January."
    assert line("Do I smoke?", yes) == f"Check this answer: it says yes, and you told me “{quit_}”"
    assert "it says yes" in line("Do I still smoke?", "Yes.")
    assert "it says yes" not in line("Do I smoke?", "No, you quit smoking in January.")
    assert "it says yes" not in line("Does Elena smoke?", "Yes, she does.")


def test_a_name_given_anew_takes_the_old_one_back():
    """QA pass 49a: "My best friend is Marta. No wait, her name is Marga, not Marta." was
    kept whole; "Yes, your best friend is Marta!" had no line."""
    from hela_desktop.taken_back import as_meant

    meant = as_meant("My best friend is Marta. No wait, her name is Marga, not Marta.")
    assert meant and meant.text == "My best friend is Marga." and meant.taken == "Marta"
    meant = as_meant("My friend lives in Lagos, no wait, Abuja, not Lagos.")
    assert meant and meant.text == "My friend lives in Abuja." and meant.taken == "Lagos"
    assert as_meant("My dog is Rex. No wait, his name's Max.").text == "My dog is Max."
    assert as_meant("It was great, I mean really great.") is None


def test_words_of_other_languages_are_no_names_and_a_no_said_to_someone():
    """QA pass 49a: "Gracias", "Mio" read as made-up names, "Dear Madre," as calling Carmen
    a name never told, and "Ella, no." as no no."""
    from hela_desktop.language import opens_with_no
    from hela_desktop.made_up import addressed_as, made_up

    assert made_up("You're welcome, dear. Gracias! Mio amigo, Buenos días!", "I'm Tomás.") == []
    assert made_up("You're welcome, dear, and Felipe says hi.", "I'm Tomás.") == ["Felipe"]
    ask = "Write a birthday card for my mother Carmen."
    assert addressed_as(ask, "Dear Madre,\nHappy birthday!", {"carmen"}) is None
    assert addressed_as(ask, "Dear Luisa,\nHappy birthday!", {"carmen"})
    assert opens_with_no("Ella, no. You're referring to your daughter.")
    assert opens_with_no("Tomás, no, she can't have eggs.")
    assert not opens_with_no("Sure, no problem!")


def test_when_the_baby_is_due_is_checked(make_assistant):
    """QA pass 49a: "When is the baby due?" answered "The baby is due next week, March
    15th." had no line ("the baby" named no one, so the question read as none of the
    user's)."""
    from hela_desktop.doubt import answer_doubt

    a = make_assistant()
    due = "My wife Elena is pregnant with our second child; the baby is due in March."
    mems = [_recall(1, due)]
    d = answer_doubt("When is the baby due?", "The baby is due next week, March 15th.", mems,
                     {1}, a.engine.people_in)
    assert d and d["kind"] == "made_up" and d["words"] == ["March 15th"]
    assert answer_doubt("When is the baby due?", "The baby is due in March.", mems, {1},
                        a.engine.people_in) is None


def test_the_reply_to_an_allergy_that_prepares_the_food():
    """QA pass 49a: to "Our daughter Lucía is 3 and she's allergic to eggs.", "We could
    prepare a variety of recipes with egg-based ingredients… ensuring she has enough eggs…"
    had no line; what the allergy is offers nothing."""
    from hela_desktop.cautions import cautions, offered

    msg = "Our daughter Lucía is 3 and she's allergic to eggs."
    (c,) = cautions([(0, msg)], about={"lucía"})
    assert offered("We could prepare a variety of recipes with egg-based ingredients to "
                   "celebrate.", c, msg) == ["egg"]
    assert offered("We can focus on ensuring she has enough eggs for herself.", c, msg)
    for fine in ("Eggs are found in many foods, so check labels.",
                 "She has an egg allergy, which means eggs can cause a reaction.",
                 "Lucía has to avoid eggs."):
        assert not offered(fine, c, msg), fine


def test_a_common_word_within_a_title_is_no_fact_of_another():
    """QA pass 49a: "…a sweet drink called Las Amigos de Papa (Children of the Papa)." to a
    question about the mother read "it says of her what you told me of your wife
    (“Children”)"."""
    from hela_desktop.whom import misattributed

    mems = [_recall(1, "My wife Elena is pregnant with our second child."),
            _recall(2, "My mother Carmen has high blood pressure and takes lisinopril.")]

    def names(text: str) -> set[str]:
        low = text.lower()
        return {n for n in ("elena", "carmen") if n in low} | (
            {"my mother"} if "mother" in low else set())

    ask = "Can my mother have grapefruit juice with breakfast?"
    assert misattributed(ask, "She drinks a sweet drink called Las Amigos de Papa (Children "
                         "of the Papa).", mems, names) is None
    d = misattributed(ask, "Your mother is expecting her second child.", mems, names)
    assert d and d["memory"] == 1


def test_a_drink_named_before_its_kind_is_avoided_in_the_same_clause():
    """QA pass 49a: "…having wine can help you have more babies so it's better to avoid
    alcohol when pregnant." read "it names “wine” without a word of warning"."""
    from hela_desktop.cautions import cautions, offered

    (c,) = cautions([(3, "My wife Elena is pregnant with our second child.")],
                    about={"elena"})
    ask = "What can Elena drink at a party?"
    assert not offered("I've heard some people suggest that having wine can help you have "
                       "more babies so it's better to avoid alcohol when pregnant.", c, ask)
    assert offered("She can have a glass of wine and avoid beer.", c, ask) == ["wine"]


def test_my_dear_and_a_name_of_another_calls_you_by_it():
    """QA pass 49b: "…Yes, my dear Tobi! It's actually 10 March today…" to Grace, Tobi her
    grandson, had no "it calls you" line."""
    from hela_desktop.whom import greets_as

    mems = [_recall(1, "My grandson Tobi is 10 and has a peanut allergy."),
            _recall(2, "Good morning. I'm Grace Okafor, I'm 72 and I live in Bristol.")]
    ask = "Is my operation on 3 March?"
    d = greets_as(ask, "I'm so glad you're happy. Yes, my dear Tobi! It's actually 10 March "
                  "today, not 3 March.", mems, None, ["Grace", "Okafor"])
    assert d and d["said"] == "Tobi"
    assert greets_as(ask, "No, my dear Grace, it is on 10 March.", mems, None,
                     ["Grace", "Okafor"]) is None


def test_a_greeting_by_another_name_beside_speaking_as_you(make_assistant):
    """QA pass 49b: the reply to "Ngozi and David have moved from Toronto to Vancouver."
    opened "Dear Emily," and the line said only that it spoke as the user."""
    from hela_desktop.doubt import answer_doubt
    from hela_desktop.sources import doubt_note

    a = make_assistant()
    mems = [_recall(i, t) for i, t in enumerate(GRACE, 1)]
    d = answer_doubt("Ngozi and David have moved from Toronto to Vancouver.",
                     "Dear Emily, I hope Ngozi will love her new home. I live in Bristol and "
                     "I'm 72.", mems, {3}, a.engine.people_in, own_names=("Grace", "Okafor"))
    note = doubt_note(d, [])
    assert "it calls you “Emily”" in note and "it speaks as if it were you" in note, note


def test_a_card_that_opens_on_another_name_and_signs_as_another(make_assistant):
    """QA pass 49b: "Dear Mark, … Emily" for "Write a birthday card for Tobi." said only
    one of its two faults."""
    from hela_desktop.doubt import answer_doubt
    from hela_desktop.sources import doubt_note

    a = make_assistant()
    mems = [_recall(1, "My grandson Tobi is 10 and has a peanut allergy.")]
    d = answer_doubt("Write a birthday card for Tobi.", "Dear Mark,\nHappy birthday!\nLove,\n"
                     "Emily", mems, {1}, a.engine.people_in, own_names=("Grace", "Okafor"),
                     user_names={"tobi", "grace", "okafor"})
    note = doubt_note(d, [])
    assert "“Mark”" in note and "“Emily”" in note, note


def test_a_low_salt_diet_you_were_put_on_is_a_caution():
    """QA pass 49b: "My doctor put me on a low-salt diet for my blood pressure." set no
    caution; "Is a bag of crisps a good snack for me?" had none."""
    from hela_desktop.cautions import caution_of, cautions, offered

    salt = "My doctor put me on a low-salt diet for my blood pressure."
    assert {"crisps", "bacon", "gravy"} <= caution_of(salt)
    assert "warfarin" not in caution_of(salt) and "aspirin" in caution_of(
        "My doctor put me on warfarin.")
    assert not caution_of("My doctor put my husband on a low-salt diet.")
    assert not caution_of("I love salty food.")
    (c,) = cautions([(3, salt)])
    assert offered("A bag of crisps is a great snack!", c,
                   "Is a bag of crisps a good snack for me?") == ["crisps"]
    assert not offered("Crisps are very salty, so try unsalted nuts instead.", c,
                       "Is a bag of crisps a good snack for me?")


def test_quite_is_no_quit():
    """QA pass 49a: "…everyone around here is quite supportive…" read as telling a change
    ("quite" stemmed to "quit"), and "…working night shifts on cardiology ward." after "I've
    switched to day shifts" had no older-news line."""
    from hela_desktop import facts
    from hela_desktop.older_news import gives_older

    assert facts.stem("quite") != facts.stem("quit") == facts.stem("quits")
    old, new = "I work night shifts on the cardiology ward.", "Actually, I've switched to day shifts."
    answer = ("Your job includes working night shifts on cardiology ward. Everyone around here is "
              "quite supportive.")
    assert gives_older("What is my job?", answer, old, new)


def test_you_or_your_mother_called_an_animal(make_assistant):
    """QA pass 49a: "Tomás Ruiz is a fantastic dog." (the reply to "I work night shifts…")
    and "Carmen is a basset hound" (Carmen the mother) had no line."""
    from hela_desktop.doubt import answer_doubt
    from hela_desktop.says_of import called_animal
    from hela_desktop.sources import doubt_note

    texts = [(1, "Hello, my name is Tomás Ruiz and I work as a nurse."),
             (5, "My mother Carmen has high blood pressure and takes lisinopril.")]
    d = called_animal("Carmen is a basset hound.", texts)
    assert d and d["name"] == "Carmen" and d["memory"] == 5
    d = called_animal("Tomás Ruiz is a fantastic dog.", texts, ["Tomás", "Ruiz"])
    assert d and d["name"] == "you" and d["memory"] == 1
    assert called_animal("Bruno is a basset hound.", texts, ["Tomás", "Ruiz"]) is None
    a = make_assistant()
    d = answer_doubt("I work night shifts on the cardiology ward.",
                     "Tomás Ruiz is a fantastic dog. He's a wonderful companion.", [], set(),
                     a.engine.people_in, own_names=("Tomás", "Ruiz"))
    assert doubt_note(d, []).startswith("Check this answer: it says you are a dog."), d


def test_a_job_you_had_given_as_another():
    """QA pass 49b: "What was my job?" answered "I used to be a pharmacist before my
    retirement. My job was as a supply clerk for a small business." had no line."""
    from hela_desktop.says_of import you_are

    own = [(12, "I used to be a pharmacist before I retired.")]
    d = you_are("I used to be a pharmacist before my retirement. My job was as a supply clerk "
                "for a small business.", own, as_them=True)
    assert d and d["said"] == "clerk" and d["memory"] == 12
    assert you_are("You were a teacher.", own)["said"] == "teacher"
    for right in ("You were a pharmacist.", "Your job was as a pharmacist in Bristol."):
        assert you_are(right, own) is None, right


def test_a_name_spelt_out_is_the_name_left_out(make_assistant):
    """Pass 48b's Q9: "What is my wife's name?" quoted the old spelling "My wife Anneli is
    vegetarian." in its left-out line, not "My wife's name is spelled Annelie…"."""
    from hela_desktop.whom import name_left_out

    a = make_assistant()
    spelt = "My wife's name is spelled Annelie, with an e at the end."
    mems = [_recall(3, spelt), _recall(2, "My wife Anneli is vegetarian.")]
    d = name_left_out("What is my wife's name?", "Your wife is a lovely person.", mems,
                      a.engine.people_in)
    assert d and d["memory"] == 3 and d["said"] == spelt


def test_fixes_49d():
    """QA pass 49d (the re-run of 49b): the low-salt diet was never recalled for a caution
    ("salt" was no word the store looked for) and "high in salt" was no reason; "…has moved
    my cataract operation again, it's on 17 March now." was no correction; "Not really." to
    "Can Tobi have a Snickers bar?" read "it does not say no"; "Dear David," to "Write a
    short letter to Ngozi and David." read "it calls Ngozi “David”"."""
    from hela_desktop import facts
    from hela_desktop.cautions import CUES, cautions, missed, offered
    from hela_desktop.made_up import addressed_as

    assert "salt" in CUES
    (c,) = cautions([(3, "My doctor put me on a low-salt diet for my blood pressure.")])
    ask = "Is a bacon sandwich all right for me, with my low-salt diet?"
    assert offered("Yes, a bacon sandwich is indeed all right for you.", c, ask) == ["bacon"]
    for fine in ("A bacon sandwich is high in salt, so have it rarely.", "No, bacon is very salty."):
        assert not offered(fine, c, ask) and not missed(fine, c, ask), fine
    op = "My cataract operation is on 3 March."
    again = "Sorry, the hospital has moved my cataract operation again, it's on 17 March now."
    assert facts.corrects(again) and facts.corrects_memory(op, again)
    assert not facts.corrects("We moved house last year, it is on a quiet street.")
    (tobi,) = cautions([(6, "My grandson Tobi is 10 and has a peanut allergy.")], about={"tobi"})
    assert not missed("Not really. You've given me a vivid picture.", tobi,
                      "Can Tobi have a Snickers bar?")
    assert addressed_as("Write a short letter to Ngozi and David.", "Dear David,\nWe hope…",
                        {"ngozi", "david"}) is None


def test_a_grandson_called_a_nephew_and_another_speaking_by_name():
    """QA pass 49d: "…your nephew Tobi's table" (Tobi the grandson) was not marked; "My name
    is Emeka and I…" read as speaking as the user too, beside speaking as Emeka."""
    from hela_desktop.whom import as_user, misrelated

    mems = [_recall(i, t) for i, t in enumerate(
        [*GRACE, "My grandson Tobi is 10 and has a peanut allergy."], 1)]
    d = misrelated("A brunch on the go to your nephew Tobi's table.", mems)
    assert d == {"kind": "misrelated", "name": "Tobi", "said": "nephew", "told": "your grandson"}
    assert as_user("Tell me about Emeka.", "My name is Emeka and I passed away three years ago "
                   "in Bristol.", mems, ("Grace", "Okafor")) is None
    assert as_user("Tell me about Emeka.", "I live in Bristol and I'm 72.", mems,
                   ("Grace", "Okafor"))


def test_a_common_word_quoted_alone_and_a_compass_word_are_no_names():
    """QA pass 49d: 'I added "Unfortunately" at the end' and "West African" read as
    made-up names."""
    from hela_desktop.made_up import made_up

    known = "My husband Emeka passed away."
    assert made_up('I added "Unfortunately" at the end of the letter.', known) == []
    assert made_up("He worked as a West African missionary.", known) == []
    assert made_up('I added "Zorbin" and "King of the Piano".', known) == ["Zorbin",
                                                                          "King of the Piano"]


def test_a_name_taken_back_is_never_respelt_as_the_new_one(make_assistant):
    """QA pass 49c: after "My best friend is Marta. No wait, her name is Marga, not Marta.",
    "Is my best friend called Marta?" read "Read “Marta” as “Marga”", and its right "No"
    looked wrong; the name taken back is kept, when the index is built again too (from the
    answer's record of what it read)."""
    a = make_assistant()
    list(a.chat("My best friend is Marta. No wait, her name is Marga, not Marta."))
    ask = "Is my best friend called Marta?"
    assert a.engine.respell(ask) == (ask, [])
    assert a.store.respelled_as("taken back") == [("Marta", "My best friend is Marga.")]
    a.engine.reload_index()
    assert a.engine.respell(ask) == (ask, [])
    assert a.engine.respell("Is my best friend called Marha?")[0].endswith("Marga?")


def test_fixes_49c(make_assistant):
    """QA pass 49c (the re-run of 49a): "My job involves working with organizations…" read
    as older news of the night shifts ("working" its only old word); "No, I don't smoke."
    read "it uses none of the memories recalled for it", "I quit smoking in January."
    told; "…a friend of yours, Marga. … Elena is your best friend." had no line."""
    from hela_desktop.doubt import answer_doubt
    from hela_desktop.older_news import gives_older
    from hela_desktop.whom import misnamed

    old, new = "I work night shifts on the cardiology ward.", "Actually, I've switched to day shifts."
    assert not gives_older("What is my job?", "I'm a public relations specialist. My job "
                           "involves working with organizations in Valencia.", old, new)
    assert gives_older("What is my job?", "You work night shifts on the ward.", old, new)
    a = make_assistant()
    quit_ = [_recall(11, "I quit smoking in January.")]
    assert answer_doubt("Do I smoke?", "No, I don't smoke.", quit_, set(),
                        a.engine.people_in) is None
    mems = [_recall(1, "My best friend is Marga."), _recall(2, "My wife Elena is pregnant.")]

    def names(t: str) -> set[str]:
        return ({"my friend"} if "friend" in t.lower() else set()) | {
            n for n in ("marga", "elena") if n.capitalize() in t}

    ask = "What is my best friend called?"
    d = misnamed(ask, "You're referring to a friend of yours, Marga. So, in this context, "
                 "Elena is your best friend.", mems, names)
    assert d and d["said"] == "Elena" and d["of"] == "your wife"
    for fine in ("Your best friend is Marga, and Elena is your wife.", "Your best friend is Marga."):
        assert misnamed(ask, fine, mems, names) is None, fine


def test_fixes_49c_more():
    """QA pass 49c: "The answer is no, Elena cannot have grapefruit juice…" to a question of
    the mother had no "it speaks of “Elena” instead" (a no was read as saying whom it is);
    "a non-selective vasoactive agent" and "the FDA" read as made up."""
    from hela_desktop.made_up import made_up
    from hela_desktop.whom import other_person

    mems = [_recall(5, "My mother Carmen has high blood pressure and takes lisinopril."),
            _recall(3, "My wife Elena is pregnant."),
            _recall(4, "Our daughter Lucía is 3 and she's allergic to eggs.")]

    def names(t: str) -> set[str]:
        low = t.lower()
        return {n for n in ("carmen", "elena", "lucía") if n in low} | {
            "my " + k for k in ("mother", "daughter", "wife") if f"my {k}" in low or f"our {k}" in low}

    d = other_person("Can my mother Carmen have grapefruit juice for breakfast?",
                     "The answer is no, Elena cannot have grapefruit juice for breakfast.", mems,
                     names)
    assert d and d["said"] == ["Elena"]
    assert other_person("Is Lucía allergic to peanuts?", "No, it's Elena who is allergic.",
                        mems, names) is None
    assert made_up("She can take a non-selective vasoactive agent (NSVA), and the FDA agrees. "
                   "You take levitax every morning.", "My mother takes lisinopril.") == ["levitax"]


def test_fixes_49e():
    """QA pass 49e: "…still on 10 March. Unfortunately, the hospital has moved it back to 3
    March…" had no line (two words between "moved" and "to"); "So yes, my husband is still
    alive." and "…your husband has continued in his profession." had none, the husband
    dead; "When my husband passed away three years ago, it was a huge loss…" spoke as the
    user unmarked (a number spelt out)."""
    from hela_desktop.made_up import alive_again
    from hela_desktop.older_news import gives_older
    from hela_desktop.whom import as_user

    answer = ("I'm glad to hear that your cataract operation is still on 10 March. "
              "Unfortunately, the hospital has moved it back to 3 March.")
    assert gives_older("Is my cataract operation still on 10 March?", answer,
                       "My cataract operation is on 3 March.",
                       "Sorry, the hospital has moved my cataract operation again, it's on 17 "
                       "March now.")
    died = [(4, "My husband Emeka passed away three years ago.")]
    for alive in ("So yes, my husband is still alive.",
                  "I'm glad to hear your husband has continued in his profession."):
        assert alive_again(alive, died, {"emeka"}), alive
    assert alive_again("I miss my husband every day.", died, {"emeka"}) is None
    mems = [_recall(4, died[0][1])]
    assert as_user("My cataract operation is on 3 March.", "When my husband passed away three "
                   "years ago, it was a huge loss for both of us.", mems, ("Grace",))
    assert as_user("My cataract operation is on 3 March.", "I know three years is a long time.",
                   mems, ("Grace",)) is None


def test_a_compass_word_before_a_peoples_word_only():
    """The fresh-clone CI on 39b84e1: "West" as no name also cut "North America" to
    "America"; only a compass word before a people's word ("West African") is no name."""
    from hela_desktop.made_up import made_up

    assert made_up("He has toured Europe and North America.", "I'm Marta.") == [
        "Europe", "North America"]
    assert made_up("He worked as a West African missionary.", "I'm Marta.") == []
