"""What the forty-seventh pass found, fixed (QA passes 47a, Tomás Herrera, and 47b, Aiko
Tanaka)."""
from __future__ import annotations

import time

from hela_desktop.events import Recall
from hela_desktop.memory import NewEpisode

TOMAS = "Hi, I'm Tomás Herrera and I work as a pharmacist in Seville."
CADIZ = "I left the pharmacy in Seville; I'm a hospital pharmacist in Cádiz now."
AGAIN = "Just so you know, I don't work in Seville any more. I work at the hospital in Cadiz."
DANIEL = "My husband Daniel has high blood pressure and takes lisinopril."
SWITCH = "Daniel's doctor switched him to amlodipine instead of lisinopril."
LUCIA = "Our daughter Lucía is 9 and is allergic to peanuts."
RACE = "I'm running the Valencia half marathon on Sunday 20 March."
RACE_FIX = "Actually the race is on Saturday 19 March, not Sunday."
KENJI = "Kenji is a paramedic."
PROMOTED = "Kenji has just been promoted to team leader at the ambulance station."
HIRO = "My brother Hiro lives in Osaka and has epilepsy."
KYOTO = "Hiro and his wife split up; he lives alone in Kyoto now."
PREGNANT = "I'm 24 weeks pregnant with our first baby."
VEGANS = "I'm vegan, and so is my husband Kenji."


def _told(a, texts: list[str]) -> list[int]:
    now = time.time()
    return a.engine.add_episodes([NewEpisode(t, created_at=now - (len(texts) - i) * 600)
                                  for i, t in enumerate(texts)])


def _recall(eid: int, text: str, **extra) -> Recall:
    return Recall(episode_id=eid, score=1.0, text=text, extra={"statement": True, **extra})


def test_a_clause_ending_in_now_tells_a_change():
    """QA passes 47a and 47b: "…I'm a hospital pharmacist in Cádiz now." left "…I work as
    a pharmacist in Seville." current, and "…he lives alone in Kyoto now." left "My brother
    Hiro lives in Osaka…" current, each answer of the old value unmarked."""
    from hela_desktop import facts, superseded

    assert facts.corrects_memory(TOMAS, CADIZ)
    assert facts.corrects_memory(TOMAS, "I'm a hospital pharmacist in Cádiz now.")
    assert facts.changes_memory("My sister Divya is a nurse.", "Divya is a midwife now.")
    assert facts.corrects_memory(HIRO, KYOTO)
    assert superseded.still_true(HIRO, [KYOTO]) == "My brother Hiro has epilepsy."
    # (of a person, and a job or a home: not the weather, nor a mood)
    for said in ("It's a lovely day now.", "I'm a bit tired now.", "That is a good idea now."):
        assert not facts.corrects(said), said
    # (the pharmacy left is put aside as such)
    assert {"pharm", "sevil"} <= set(facts.negated(CADIZ))


def test_a_promotion_leaves_the_old_job_true():
    """QA pass 47b: "Kenji has just been promoted to team leader at the ambulance station."
    was noted as a correction of "Kenji is a paramedic.", and three answers that rightly
    called him a paramedic read "it may give older news"."""
    from hela_desktop import facts
    from hela_desktop.doubt import answer_doubt

    assert not facts.corrects_memory(KENJI, PROMOTED)
    assert not facts.corrects(PROMOTED)
    mems = [_recall(8, PROMOTED), _recall(4, KENJI)]
    assert answer_doubt("Is Kenji a paramedic?", "Yes, Kenji is indeed a paramedic.", mems,
                        {4}) is None


def test_a_message_that_agrees_with_a_correction_does_not_correct_it():
    """QA pass 47a (P3): "…I don't work in Seville any more. I work at the hospital in
    Cadiz." was noted as a correction of "I left the pharmacy in Seville; I'm a hospital
    pharmacist in Cádiz now.", which says the same."""
    from hela_desktop import facts

    assert facts.already_says(CADIZ, AGAIN)
    assert not facts.corrects_memory(CADIZ, AGAIN)
    assert facts.corrects_memory(TOMAS, AGAIN)  # (the first job it does correct)
    # (another new place is news again)
    assert facts.corrects_memory(CADIZ, "I don't work in Seville any more. I work in Málaga.")


def test_where_i_work_answered_by_the_town(make_assistant):
    """QA pass 47a (Q1): "Where do I work?" answered "Cádiz, a very busy city in Spain…"
    read "it leaves out what you told me: “Hi, I'm Tomás Herrera and I work as a
    pharmacist in Seville.”": the town of the job is an answer, and the old job is older
    news."""
    from test_qa_pass46 import _admit

    from hela_desktop.doubt import answer_doubt
    from hela_desktop.edges import used_by_answer
    from hela_desktop.sources import doubt_note

    a = make_assistant()
    ids = _told(a, [TOMAS, LUCIA, CADIZ])
    res = _admit(a, "Where do I work?")
    by_id = {r.episode_id: r for r in res.admitted}
    assert by_id[ids[0]].extra["superseded_by"] == ids[2]

    def line(answer: str) -> str:
        texts = [(r.episode_id, r.text) for r in res.admitted]
        doubt = answer_doubt("Where do I work?", answer, res.admitted,
                             used_by_answer(texts, "Where do I work?", answer),
                             a.engine.people_in, user_names=a.engine.user_names())
        return doubt_note(doubt, [{"episode_id": r.episode_id, "text": r.text}
                                  for r in res.admitted]) if doubt else ""

    assert line("Cádiz, a very busy city in Spain. You can find a lot of job opportunities "
                "there.") == ""
    # the old town is older news, quoted with what the semicolon ties to it
    assert line("You're a pharmacist in Seville today.") == (
        "Check this answer: it may give older news — “I left the pharmacy in Seville; I'm a "
        "hospital pharmacist in Cádiz now.” is newer.")
    assert "leaves out" in line("You work at a bank.")


def test_a_quote_keeps_the_clause_a_denial_belongs_to():
    """QA pass 47b (P2): "it may give older news — “…not 9:40.” is newer" read as if 9:40
    were the new time."""
    from hela_desktop.sources import _part_about

    assert _part_about("Correction: the flight leaves at 7:15, not 9:40.",
                       "My flight to Osaka is on 3 April at 9:40.") == \
        "Correction: the flight leaves at 7:15, not 9:40."


def test_the_old_date_is_older_news_beside_a_day_put_aside():
    """QA pass 47a (Q6, P1): "Today (20 March) is the 23rd race…" was marked only for what
    it made up: the correction put aside "Sunday", and gave a date of its own."""
    from hela_desktop.older_news import gives_older

    ask = "When is my race?"
    for answer in ("Today (20 March) is the 23rd race of the Xanadon La Mana half marathon.",
                   "It's not happening on Saturday, it will happen on Sunday 20 March!",
                   "Your race is on 20 March."):
        assert gives_older(ask, answer, RACE, RACE_FIX), answer
    for answer in ("The race is on Saturday 19 March.",
                   "It was moved from 20 March to Saturday 19 March."):
        assert not gives_older(ask, answer, RACE, RACE_FIX), answer


def test_a_medicine_corrected_in_part_leaves_the_condition():
    """QA pass 47a: "My husband Daniel has high blood pressure and…" was shown "(older
    news)" whole after his medicine changed."""
    from hela_desktop import superseded

    assert superseded.told_parts(DANIEL) == ["My husband Daniel has high blood pressure",
                                            "takes lisinopril."]
    assert superseded.still_true(DANIEL, [SWITCH]) == "My husband Daniel has high blood pressure."


def test_blood_pressure_medicines_and_grapefruit_are_cautions():
    """QA pass 47a: "So, you can have a glass of grapefruit juice with breakfast." to one
    on amlodipine, and ibuprofen for one on lisinopril, had no caution (the NHS's pages for
    them); "switched him to amlodipine" is taking it."""
    from hela_desktop.cautions import caution_of, cautions, offered

    (c,) = cautions([(9, SWITCH)], about={"daniel"})
    assert c.theirs and "grapefruit" in c.avoid and "ibuprofen" not in c.avoid
    assert offered("So, you can have a glass of grapefruit juice with breakfast.", c,
                   "Can Daniel have grapefruit juice?") == ["grapefruit"]
    (c,) = cautions([(3, DANIEL)], about={"daniel"})
    assert "ibuprofen" in c.avoid and "grapefruit" not in c.avoid
    assert "naproxen" in caution_of("I take ramipril every morning.")
    assert not caution_of("My friend takes the bus to work.")


def test_pregnancy_is_a_caution_until_it_is_over(make_assistant):
    """QA pass 47b: "Can I have a glass of wine tonight?" and "Can I take ibuprofen for a
    headache?" at 24 weeks pregnant had no line, the pregnancy not even recalled; brie was
    cautioned only as a vegan's."""
    from test_qa_pass46 import _admit

    from hela_desktop.cautions import caution_of, cautions
    from hela_desktop.medicines import PREGNANCY_WEEKS, as_of

    avoid = caution_of(PREGNANT)
    assert {"wine", "ibuprofen", "brie", "pate"} <= avoid
    assert not caution_of("I'm not pregnant.")
    (c,) = cautions([(1, "My wife Ingrid is pregnant.")], about={"ingrid"})
    assert "wine" in c.avoid
    # recalled for a question of food or medicine, and read against the answer
    a = make_assistant()
    ids = _told(a, ["Hello, I'm Aiko Tanaka, a graphic designer living in Bristol.", PREGNANT,
                    "My dad's 70th birthday is on 12 May."])
    for ask in ("Can I have a glass of wine tonight?", "Can I take ibuprofen for a headache?"):
        assert ids[1] in {r.episode_id for r in _admit(a, ask).admitted}, ask
        (c,) = a._cautions(ask, "Yes, that's fine.", [])
        assert c.episode_id == ids[1]
    # told more than PREGNANCY_WEEKS weeks ago, it is over
    long_ago = time.time() - (PREGNANCY_WEEKS + 1) * 7 * 86400
    assert as_of(PREGNANT, long_ago, time.time()) == ""
    assert as_of(PREGNANT, time.time() - 86400, time.time()) == PREGNANT
    assert as_of("I'm vegan. " + PREGNANT, long_ago, time.time()) == "I'm vegan."


def test_a_diet_shared_is_theirs_too(make_assistant):
    """QA pass 47b (P3): "Can Kenji have a cheeseburger?" answered with his promotion had
    no line, "I'm vegan, and so is my husband Kenji." told."""
    from hela_desktop.cautions import cautions, missed

    (c,) = cautions([(3, VEGANS)], about={"kenji"}, own=False)
    assert c.theirs and {"cheeseburger", "steak"} <= c.avoid
    assert missed("As previously mentioned, Kenji has been promoted to team leader at the "
                  "ambulance station.", c, "Can Kenji have a cheeseburger?")
    (c,) = cautions([(3, "I'm vegan, and so is my husband.")], about={"husband"}, own=False)
    assert c.theirs


def test_offers_after_a_warning_and_what_others_eat():
    """QA pass 47a (P10): "…not wanting to eat peanuts. … I'll start baking her some
    cookies made from peanut butter…" to "What should my daughter avoid eating?" had no
    line; QA pass 47b (Q16): "…people who are used to knowing the date they have their
    wedding cake" was read as offering the vegan user cake."""
    from hela_desktop.cautions import cautions, offered

    (c,) = cautions([(4, LUCIA)], about={"lucía", "daughter"})
    answer = ("You're right, it does sound like a recipe for disaster, but I understand your "
              "point of not wanting to eat peanuts. I think I'll start baking her some cookies "
              "made from peanut butter and honey right away.")
    assert offered(answer, c, "What should my daughter avoid eating?") == ["peanut"]
    assert offered("She must avoid peanuts and peanut butter.", c,
                   "What should my daughter avoid eating?") == []
    (c,) = cautions([(3, VEGANS)])
    assert offered("It makes it easier for people who are used to knowing the date they have "
                   "their wedding cake.", c, "What should I pack for the flight?") == []
    assert offered("Everyone loves cake, have a slice.", c, "What should I pack?") == ["cake"]


def test_cava_for_a_child(make_assistant):
    """QA pass 47a (Q16): "Can Lucía have a glass of cava at the wedding?" (9) had no
    alcohol caution: cava was no drink the app knew."""
    a = make_assistant()
    ids = _told(a, [LUCIA])
    (c,) = a._under_age("Can Lucía have a glass of cava at the wedding?", frozenset({"lucía"}))
    assert c.episode_id == ids[0] and "cava" in c.avoid


def test_a_death_said_of_another_than_the_last_name():
    """QA pass 47a (Q15): "Dear Tomás, … Your father was a pharmacist… He passed away last
    year" read "it says you died"; QA pass 47b: "…Kenji's son, Yuki, passed away…" (Yuki
    the cat, whose death was told) read "it says Kenji died"."""
    from hela_desktop.made_up import death_untold

    names = {"tomás", "kenji", "yuki"}
    card = ("Dear Tomás,\n\nYour father was a pharmacist as well. He passed away last year, "
            "but we still have him today.")
    assert death_untold(card, TOMAS, names, you="Tomás") == {"kind": "death_untold",
                                                             "name": "your father"}
    told = "Our old cat Yuki died in January."
    assert death_untold("I'm so glad to hear that Kenji's son, Yuki, passed away on January "
                        "15.", told, names) is None
    assert death_untold("Kenji's son passed away.", told, names) is None
    assert death_untold("Kenji passed away last year.", told, names)["name"] == "Kenji"


def test_a_date_asked_and_hours_given(make_assistant):
    """QA pass 47b (Q12): "When is my dad's birthday?" answered "Hello, I'm not available
    for a 24-hour reminder. What's the date…?" had no line: "24" was read as a date."""
    from hela_desktop.doubt import _date_left_out

    told = "My dad's 70th birthday is on 12 May."
    mems = [_recall(11, told)]
    got = _date_left_out("When is my dad's birthday?", "Hello, I'm not available for a "
                         "24-hour reminder. What's the date and time you need?", mems)
    assert got == {"kind": "left_out", "memory": 11, "said": told}
    assert _date_left_out("When is my dad's birthday?", "It's on 12 May.", mems) is None


def test_a_card_signed_before_a_placeholder_or_a_title():
    """QA pass 47a (Q14, P8) and 47b (P10): cards signed "Carmen," then "Dedicated Hearts"
    and "[Your Name]", "God bless you, / Daniel, / [Your Name] / NMC cardiology
    specialist", and "Wishing for a nice day together at work, / Karen" had no line: the
    signature had to be the last line, and "Warm regards to all," was no closing."""
    from hela_desktop.made_up import signed_as

    yours = ["Tomás", "Herrera"]
    for card, name in (
            ("Dear Carmen,\n\nI hope you are well.\n\nWarm regards to all,\n\nCarmen,\n\n"
             "Dedicated Hearts\n\n[Your Name]", "Carmen"),
            ("Dear Daniel,\n\nHe loves you.\n\nGod bless you,\nDaniel,\n[Your Name]\n"
             "NMC cardiology specialist", "Daniel"),
            ("Dear Kenji,\n\nWell done.\n\nWishing for a nice day together at work,\nKaren",
             "Karen")):
        assert signed_as(card, yours) == {"kind": "misnamed", "asked": "you", "said": name,
                                          "yours": "Tomás Herrera", "signed": True}
    for card in ("Best wishes,\nTomás", "Wishing you a happy birthday, Kenji.",
                 "Dear Kenji,\nWell done!\n[Your Name]"):
        assert signed_as(card, yours) is None, card


def test_a_suggestion_of_what_you_can_do_is_not_checked_for_names():
    """QA pass 47b (P1): "…you can use your calendar on platforms like Google Calendar or
    Apple Calendar…" in the reply to a correction read "“Google Calendar” and “Apple
    Calendar” are in none of the memories…"."""
    from hela_desktop.life_news import of_people

    reply = ("I'm sorry for any confusion. However, you can use your calendar on platforms "
             "like Google Calendar or Apple Calendar to schedule a date. In this case, your "
             "dad's birthday is 14 May.")
    assert of_people(reply) == "in this case, your dad's birthday is 14 May."
    assert "you can't" in of_people("You can't eat nuts, your son says.")


# ---- the re-runs, 47c and 47d, on the fixes above ----------------------------------------


def test_a_letter_signed_by_strangers_after_titles_and_a_closing_line():
    """QA pass 47d (Q13): a message to her brother ended "Warm regards, / Kyōhei Nakamura /
    Founder and CEO, Aroma / … / Best regards, / Takahisa Takatsuki / The Japanese
    Ambassador… / Please let me know a way you can assist…", with no line."""
    from hela_desktop.made_up import signed_as

    letter = ("Dear Hiro,\nI hope this message finds you well.\nWarm regards,\nKyōhei Nakamura\n"
              "Founder and CEO, Aroma\nAroma Products Inc.\nBest regards,\nTakahisa Takatsuki\n"
              "The Japanese Ambassador to the United States\n\nPlease let me know a way you can "
              "assist with a message to Hiro.")
    assert signed_as(letter, ["Aiko", "Tanaka"])["said"] == "Takahisa"
    assert signed_as("Dear Hiro,\nWarm regards,\nAiko Tanaka", ["Aiko", "Tanaka"]) is None
    # (a long text after a closing is no signature's)
    assert signed_as("Love,\nLiam\n\n" + "More words follow here for a long while. " * 8,
                     ["Aiko"]) is None


def test_a_sentence_that_denies_the_new_value_gives_the_old():
    """QA pass 47d (Q4): "So, it's 3 April at 9:40 instead of 7:15." had no older-news
    line: "…4:30 instead of 9:40." later in the answer put 9:40 aside for the whole of it."""
    from hela_desktop.older_news import gives_older

    old, new = "My flight to Osaka is on 3 April at 9:40.", "Correction: the flight leaves at 7:15, not 9:40."
    answer = ("To clarify: 1. The family is moving to Osaka now. So, it's 3 April at 9:40 instead "
              "of 7:15. 2. Hiro and his wife did a joint decision to move. So, it goes back to 3 "
              "April at 4:30 instead of 9:40.")
    assert gives_older("Does my flight leave at 9:40?", answer, old, new)
    assert not gives_older("When does my flight leave?", "It leaves at 7:15 instead of 9:40.",
                           old, new)


def test_a_yes_after_talk_is_a_yes():
    """QA pass 47c (P5): "…it's still Wednesday 20 March. So, yes, I'll continue the race on
    Sunday 20 March…" to "Is my race on Sunday 20 March?" was not read as a yes to the old
    date."""
    from hela_desktop.older_news import agrees, gives_older

    ask = "Is my race on Sunday 20 March?"
    answer = ("I'm glad you're having fun with your race. In general, it's still Wednesday 20 "
              "March.\n\nSo, yes, I'll continue the race on Sunday 20 March.")
    assert agrees(ask, answer) and gives_older(ask, answer, RACE, RACE_FIX)
    assert not agrees(ask, "No, it is on Saturday. Yes, the race moved.")


def test_the_reply_to_a_correction_repeats_it_only_of_what_it_was_about():
    """QA pass 47c (fact 11): "…their bakery in Seville? … a beautiful beachfront home
    there too." read "it repeats what you have just corrected — “I work as a pharmacist in
    Seville.”"."""
    from hela_desktop.older_news import repeats_corrected

    assert not repeats_corrected(CADIZ, "Was it her husband and her family who opened up their "
                                 "bakery in Seville? And I love the name Seville.", TOMAS)
    assert repeats_corrected(CADIZ, "Great, so you still work as a pharmacist in Seville.", TOMAS)
    assert repeats_corrected(SWITCH, "Daniel takes lisinopril.", DANIEL)


def test_a_correction_note_quotes_a_part_with_its_subject():
    """QA pass 47c (fact 9): "Noted as a correction of “takes lisinopril.”" said nothing of
    whose medicine it was."""
    from hela_desktop import superseded

    assert superseded.on_subject(DANIEL, SWITCH, shown=True) == DANIEL
    assert superseded.on_subject("Hi, I'm Priya Nair, a software engineer in Manchester.",
                                 "We moved to York.", shown=True) == "Hi, I'm Priya Nair … in Manchester."


def test_cautions_read_as_said():
    """QA pass 47c (Q16): "…We don't have a wedding on Wednesday…" to "Can Lucía have a
    glass of cava…?" was read as a no; 47d (P4): "…a bit more about your pregnancy…" to
    "Can I have some pâté on toast?" was read as a warning, and "pâté" was no word of the
    groups; (Q6) "…ibuprofen that may not always be as safe for pregnant women" read
    "without a word of warning"."""
    from hela_desktop.cautions import Caution, cautions, missed, offered
    from hela_desktop.food_groups import GROUPS

    child = Caution(4, LUCIA, GROUPS["alcohol"], theirs=True)
    assert missed("Today, I'm not sure if my answer is accurate. We don't have a wedding on "
                  "Wednesday.", child, "Can Lucía have a glass of cava at the wedding?")
    assert not missed("No, she is too young for cava.", child,
                      "Can Lucía have a glass of cava at the wedding?")
    (p,) = cautions([(2, PREGNANT)])
    pate = "Can I have some pâté on toast?"
    assert missed("I'm happy to help with that, but I'll need to know a bit more about your "
                  "pregnancy. Can you please tell me what it means to be pregnant?", p, pate)
    assert not missed("No, pâté is not safe while you are pregnant.", p, pate)
    assert offered("Try some pâté on toast!", p, "What should I eat?") == ["pâté"]
    assert offered("There are ingredients in ibuprofen that may not always be as safe for "
                   "pregnant women.", p, "Can I take ibuprofen for a headache?") == []


def test_not_familiar_with_what_was_told(make_assistant):
    """QA pass 47b (Q11): "Hello, I'm not familiar with your midwife." read only "it uses
    none of the memories…", "My midwife is called Rachel." told."""
    from hela_desktop.doubt import answer_doubt

    told = "My midwife is called Rachel."
    a = make_assistant()
    (eid,) = _told(a, [told])
    doubt = answer_doubt("Who is my midwife?", "Hello, I'm not familiar with your midwife.",
                         [_recall(eid, told, gate="evidence")], set(), a.engine.people_in)
    assert doubt == {"kind": "not_known", "memory": eid, "said": told}


def test_talk_about_its_own_reply_is_not_speaking_as_the_user():
    """QA pass 47d (Q5): "…I must clarify that my response was based on the current date and
    time, which is 12 May 2024" read "it speaks as if it were you", "My dad's 70th birthday
    is on 12 May." told; 47c (P6): "I'll add that Daniel still takes lisinopril…" too."""
    from hela_desktop.whom import as_user

    told = [_recall(11, "My dad's 70th birthday is on 12 May."),
            _recall(3, "I fly to Porto on 14 March.")]
    for reply in ("I must clarify that my response was based on the current date and time, "
                  "which is 12 May 2024.",
                  "I'll add that I fly to Porto on 14 March."):
        assert as_user("Can I have a glass of wine tonight?", reply, told) is None, reply
    # (saying as its own what the user told still does)
    assert as_user("Hi", "I fly to Porto on 14 March.", told) is not None
