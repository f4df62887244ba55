"""What the thirty-seventh pass (and the items pass 36c left open) found, fixed."""
from __future__ import annotations

from hela_desktop.cautions import cautions, offered
from hela_desktop.events import Recall
from hela_desktop.made_up import made_up
from hela_desktop.sources import answer_sources, source_lines

T0 = 1_780_000_000.0


def _told_to(make_assistant, told, step: float = 1.0, **kw):
    """An assistant told `told` in one chat, `step` seconds apart from `T0`: (it, the chat)."""
    a = make_assistant(**kw)
    cid = a.new_conversation()
    for k, t in enumerate(told):
        list(a.chat(t, cid, now=T0 + step * k))
    return a, cid


def test_a_peoples_word_is_no_made_up_name_and_a_long_name_mistyped_is_that_name():
    """QA pass 36c P12: "Danish" was marked made up (the languages listed were English,
    French and the like, not every people's word).  P8: "Ljubljan", a slip of the
    "Ljubljana" a memory said, was marked made up."""
    known = "My partner Søren grew up in Copenhagen. We met in Ljubljana in 2019."
    assert made_up("Søren is Danish and loves Norwegian films.", known) == []
    assert made_up("You met in Ljubljan in 2019.", known) == []
    assert made_up("You met in Lubljana in 2019.", known) == []  # (a letter left out)
    assert made_up("You met in Ljbuljana in 2019.", known) == []  # (two swapped)
    # a country no memory names (nor a city of it: Copenhagen's Denmark is named since QA
    # pass 38) is still marked, and so is a short name one letter off ("Sören" is accents
    # aside the same; "Søran" is another name)
    assert made_up("You met in Sweden in 2019.", known) == ["Sweden"]
    assert made_up("You and Soren met in 2019.", known) == []
    assert made_up("You and Søran met in 2019.", known) == ["Søran"]
    # two letters off a long name is another
    assert made_up("You met in Ljubljaxx in 2019.", known) == ["Ljubljaxx"]
    assert made_up("You met in Bratislava in 2019.", known) == ["Bratislava"]


def test_a_yes_to_whether_someone_may_eat_what_they_must_not_is_a_caution():
    """QA pass 36c P6: "Can Bill eat chicken?" was answered "Yes!", Bill being vegetarian,
    and nothing was marked: the answer never names the chicken."""
    said = cautions([(1, "My colleague Bill is vegetarian.")], about={"bill"})
    assert offered("Yes!", said[0], "Can Bill eat chicken?") == ["chicken"]
    assert offered("Yes, Bill can eat chicken.", said[0], "Can Bill eat chicken?") == ["chicken"]
    assert offered("Sure, go ahead.", said[0], "Is it okay for Bill to eat chicken?") == ["chicken"]
    # a no, a yes that turns it down, or a yes to something else is no offer
    assert offered("No, Bill is vegetarian.", said[0], "Can Bill eat chicken?") == []
    assert offered("Yes, but he can't eat chicken.", said[0], "Can Bill eat chicken?") == []
    assert offered("Yes!", said[0], "Can Bill eat rice?") == []
    assert offered("Yes!", said[0], "Bill cooked chicken for us.") == []
    mine = cautions([(2, "I'm allergic to shellfish.")])
    assert offered("Absolutely, enjoy!", mine[0], "Could I have the prawn linguine tonight?"
                   ) == ["prawn"]


def test_a_memory_the_message_corrects_in_part_reads_partly_older_news_under_the_reply():
    """QA pass 36c: the same two-fact memory read "(older news)" under the reply to the
    correction and "(partly older news)" under the next answer."""
    whole = "I fly to Porto on 14 March for a conference. My cat is called Miso."
    rec = [{"episode_id": 3, "text": whole}]
    part = [{"episode_id": 3, "text": "I fly to Porto on 14 March for a conference."}]
    s = answer_sources(rec, used=[], corrects=part)
    assert s.older_label(3) == " (partly older news)"
    assert dict(source_lines(s))["recalled, not used in the answer"][0].endswith(
        "(partly older news)")
    # the whole memory corrected is older news, and one not recalled is named nowhere
    assert answer_sources(rec, used=[], corrects=rec).older_label(3) == " (older news)"
    assert answer_sources([], corrects=part).partly == frozenset()


def test_what_the_user_told_of_themself_and_another_is_named_so_when_misattributed(
        make_assistant):
    """QA pass 36c P3: "What does Zoë love?" answered "Zoë loves hiking in the Jura." was
    marked "it says of Zoë what you told me of yourself", the memory being "Søren and I
    love hiking in the Jura." — of the user and Søren."""
    from test_qa_pass34 import _told

    from hela_desktop.sources import doubt_note

    told = ("My daughter Zoë is six and loves drawing.",
            "My husband Søren and I love hiking in the Jura.",
            "I work as a pharmacist in Basel.")
    check = _told(make_assistant, told, len(told))
    got = check("What does Zoë love?", "Zoë loves hiking in the Jura.")
    assert got["kind"] == "misattributed" and doubt_note(got, []) == (
        "Check this answer: you asked about Zoë, and it says of Zoë what you told me of "
        "yourself and your husband (“hiking” and “Jura”): “My husband Søren and I love hiking "
        "in the Jura.”")
    got = check("What does Zoë love?", "Zoë works as a pharmacist in Basel.")
    assert "what you told me of yourself (“pharmacist” and “Basel”)" in doubt_note(got, [])


def test_an_answer_that_takes_what_the_user_said_earlier_in_the_chat_is_from_what_they_told(
        make_assistant):
    """QA pass 36c P9: "Where does my mum live now?" answered "Your mum lives in Braga.",
    told two messages before and not among the memories recalled, was marked "it uses
    none of the memories recalled for it, so it is not from what you told me"."""
    from hela_desktop.doubt import answer_doubt
    from hela_desktop.events import Recall

    a = make_assistant()
    cid = a.new_conversation()
    list(a.chat("My sister Ines works as a nurse in Leeds.", cid))
    mems = [Recall(episode_id=1, score=1.0, text="My sister Ines works as a nurse in Leeds.")]
    people = a.engine.people_in

    def doubt(answer: str, known: str) -> dict | None:
        return answer_doubt("Where does my mum live now?", answer, mems, set(), people,
                            known=known)

    told = "My mum moved from Porto to Braga last month."
    assert doubt("Your mum lives in Braga.", told) is None
    # unused, and from nothing told: still marked
    assert doubt("Your mum lives in the countryside.", told) == {"kind": "unused"}
    assert doubt("Your mum lives in Braga.", "")["kind"] == "made_up"
    # a yes or no in the question's own words cannot be read for use (QA pass 37b N6);
    # an answer of its own to a yes-or-no question can
    yes_no = "Does my sister Ines work as a nurse?"
    assert answer_doubt(yes_no, "Yes, Ines works as a nurse.", mems, set(), people) is None
    assert answer_doubt(yes_no, "She sells fresh fish at the harbour every morning.", mems,
                        set(), people)["kind"] == "unused"


def test_whose_pet_it_is_is_no_name_given_to_it(make_assistant):
    """QA pass 36c P10: "What is my cat called?" answered "Søren's cat is called
    Whiskers." was marked "it calls your cat “Søren”, the name of your husband": Søren is
    whose cat the answer says it is, not what it calls the cat."""
    from test_qa_pass34 import _told

    from hela_desktop.sources import doubt_note

    told = ("My husband Søren is a carpenter.", "Our cat is called Mochi.")
    check = _told(make_assistant, told, len(told))
    for said in ("Søren's cat is called Whiskers.", "Søren has a cat called Whiskers.",
                 "The cat of Søren is called Whiskers."):
        got = check("What is my cat called?", said)
        assert got is None or got["kind"] != "misnamed", (said, got)
    # called by the husband's name, it is still marked
    got = check("What is my cat called?", "Your cat is called Søren.")
    assert got["kind"] == "misnamed" and "“Søren”, the name of your husband" in doubt_note(got, [])
    got = check("What is my cat called?", "Your cat Søren has a lovely coat.")
    assert got["kind"] == "misnamed"


def test_a_common_first_name_opening_a_sentence_is_a_name_when_said_to_be_someone_of_yours():
    """QA pass 36c P6: "Elsa is your daughter." went unmarked, no memory naming an Elsa:
    a sentence's first word counts only when it is no common word, and the word list
    holds first names."""
    known = "My daughter Zoë is six. My husband Søren is a carpenter."
    assert made_up("Elsa is your daughter.", known) == ["Elsa"]
    assert made_up("Elsa, your little daughter, loves drawing.", known) == ["Elsa"]
    assert made_up("Max was your dog.", known) == ["Max"]
    # a common word opening a sentence is still none, and a name known is known
    assert made_up("Drawing is your daughter's hobby.", known) == []
    assert made_up("Zoë is your daughter.", known) == []
    assert made_up("Today is your husband's day off.", known) == []


def test_a_memorys_use_cells_say_what_its_last_use_was(qtbot):
    """QA pass 36b N13: the Memories table read "Recalled 0" beside a "Last used" time,
    which looked like a contradiction: the cells now say, on hover, how many answers
    recalled it and what the last use was, and the time is grey when none recalled it."""
    from PySide6 import QtCore, QtWidgets

    from hela_desktop.store.rows import Episode
    from hela_desktop.ui.memory_browser import EpisodeTableModel

    m = EpisodeTableModel()
    m.episodes = [Episode(id=1, uid="u1", conversation_id=None, user_text="My cat is Miso.", assistant_text="", created_at=1e9,
                          access_count=0, last_access=1e9 + 60),
                  Episode(id=2, uid="u2", conversation_id=None, user_text="I'm a nurse.", assistant_text="", created_at=1e9,
                          access_count=3, last_access=1e9 + 90),
                  Episode(id=3, uid="u3", conversation_id=None, user_text="Hi.", assistant_text="", created_at=1e9)]
    tip, fg = QtCore.Qt.ItemDataRole.ToolTipRole, QtCore.Qt.ItemDataRole.ForegroundRole
    assert m.data(m.index(0, 5), tip).startswith("Recalled by 0 answers. Last used ")
    assert m.data(m.index(0, 4), tip).endswith("the same question asked again word for word.")
    assert m.data(m.index(1, 5), tip).startswith("Recalled by 3 answers; last used ")
    assert m.data(m.index(2, 4), tip) == "Recalled by 0 answers; never used yet."
    grey = QtWidgets.QApplication.palette().color(
        QtWidgets.QApplication.palette().ColorRole.PlaceholderText)
    assert m.data(m.index(0, 5), fg) == grey and m.data(m.index(1, 5), fg) is None


def test_an_answer_in_chinese_or_japanese_to_an_english_chat_is_drift():
    """QA pass 36b N11: an answer mostly in Chinese characters was checked for nothing: a
    run of them was one "word", too short to judge, and names are not told apart in a
    script without capitals.  Now it is drift ("not in the language you write"), while a
    name in such a script inside an English answer is still only a name."""
    from hela_desktop import formulas as F
    from hela_desktop.language import language_shares

    user = language_shares("My Japanese teacher is Misaki and she lives in Osaka.")

    def drifted(answer: str) -> bool:
        return F.drifted(*language_shares(answer), user[0], user_foreign=user[1])

    assert drifted("你的日语老师是彦開，她住在东京。")
    assert drifted("美咲さんは大阪に住んでいます。")
    assert not drifted("Your teacher is 彦開です and she lives in Osaka.")
    assert not drifted("彦開です。She teaches on Tuesdays.")
    known = "My Japanese teacher is 美咲. She lives in Osaka."
    assert made_up("彦開です。She teaches on Tuesdays with Hiroshi.", known) == [
        "彦開です", "Hiroshi"]
    assert made_up("你的日语老师是彦開。", known) == []  # (no name told from a sentence)


_INGRID = ("My partner Tomasz is a carpenter, and we have a daughter, Solveig, who is 8.",
           "Solveig is allergic to peanuts, so we have to be very careful with snacks.",
           "We also have a dog, a springer spaniel called Fenris.",
           "My brother Anders lives in Trondheim. He is vegan, so no meat, fish, eggs or "
           "dairy for him.",
           "At the hospital my closest colleague is Grace, she is a midwife from Ghana.",
           "Solveig's best friend is Maja, they are in the same class at school.")


def test_people_named_in_other_words_are_of_the_users_life(make_assistant):
    """QA pass 37 P1: "we have a daughter, Solveig", "a springer spaniel called Fenris",
    "my closest colleague is Grace" and "Solveig's best friend is Maja" made no one of the
    user's life, so "Can Solveig eat peanut butter cookies?" asked about no one and her
    allergy was no caution."""
    a, cid = _told_to(make_assistant, _INGRID)
    for name in ("Solveig", "Fenris", "Grace", "Maja", "Tomasz", "Anders"):
        assert a.engine.people_in(f"How is {name} doing?") == {name.lower()}, name
    # a place or a thing said the same ways is none
    assert a.engine.people_in("How is Trondheim doing?") == set()
    from hela_desktop.whom import _given_names

    assert _given_names(_INGRID) == {"tomasz": "partner", "solveig": "daughter",
                                     "fenris": "spaniel", "grace": "colleague",
                                     "anders": "brother"}


def test_answers_that_give_a_child_what_she_is_allergic_to_are_marked(make_assistant):
    """QA pass 37 P1 and P10: four answers gave Solveig peanuts with no line ("The answer is
    yes, Solveig can eat peanut-butter cookies.", "Solveig is not allergic to peanuts…", a
    peanut butter sandwich as "a classic dish", "The answer is no, Solveig can have chicken
    satay with peanut sauce."); vegan Anders was given fish, a margherita pizza and
    scallops in beurre blanc unmarked, while a "dairy" the answer refused was marked."""
    from hela_desktop.cautions import CUES

    a, cid = _told_to(make_assistant, _INGRID)

    def offers(message: str, answer: str) -> list[str]:
        said = cautions([(0, message), *((i, t) for i, t, _ in a.store.said_after(
            0.0, containing=CUES))], about=a._asked_about(message))
        return [w for c in said for w in offered(answer, c, message)]

    assert offers("Can Solveig eat peanut butter cookies?",
                  "The answer is yes, Solveig can eat peanut-butter cookies.") == ["peanut"]
    assert offers("Is Solveig allergic to anything?",
                  "Solveig is not allergic to peanuts, but she has a nut intolerance.") == [
        "peanuts"]
    assert offers("Would a peanut butter sandwich be a good lunch for Solveig?",
                  "A peanut butter sandwich is a classic dish.") == ["peanut"]
    assert offers("Can Solveig have chicken satay with peanut sauce?",
                  "The answer is no, Solveig can have chicken satay with peanut sauce.") == [
        "satay", "peanut"]
    assert offers("Does Anders eat fish?", "Anders does eat fish, but he doesn't eat animal "
                  "agriculture (meat and dairy). He prefers seafood.") == ["fish", "seafood"]
    assert offers("Can Anders eat a margherita pizza?", "Yes, he can eat a margherita pizza."
                  ) == ["margherita", "pizza"]
    assert offers("What should I cook for Anders tonight?",
                  "Roasted scallops with a lemon-herb beurre blanc.") == ["scallops", "beurre"]
    # what keeps to it is not marked
    assert offers("Can Solveig eat peanut butter cookies?",
                  "No, Solveig can't eat peanut butter cookies.") == []
    assert offers("Can Solveig have chicken satay with peanut sauce?",
                  "Yes, but skip the peanut sauce.") == []
    assert offers("Can Solveig eat peanut butter cookies?",
                  "Can Solveig eat peanut butter cookies? No, she is allergic.") == []
    assert offers("What should I cook for Anders tonight?",
                  "He does not need to eat any meat or dairy: a lentil curry.") == []


def test_a_correction_that_puts_aside_what_the_memory_said_corrects_it():
    """QA pass 37 P5: "Actually the Lisbon flight is on 10 June, not 3 June." was no
    correction of "I'm flying to Lisbon on 3 June for a short holiday." ("flight" is not
    "flying" to the stems, and Lisbon and June are a name and a date).  P6: "We fly to
    Lisbon on 10 June instead of 3 June." then corrected the 10 June memory too."""
    from hela_desktop import facts

    trip = "I'm flying to Lisbon on 3 June for a short holiday."
    fix = "Actually the Lisbon flight is on 10 June, not 3 June."
    again = "We fly to Lisbon on 10 June instead of 3 June."
    assert facts.corrects_memory(trip, fix) and facts.corrects_memory(trip, again)
    assert not facts.corrects_memory(fix, again)  # (it says the same)
    # a newer date over an older correction still corrects it
    assert facts.corrects_memory("Actually the trip is in August, not June.",
                                 "Actually the trip is in July, not June.")
    # what it puts aside, said of someone else's other thing, is not corrected
    swim = "Actually Felix's swimming lessons are on Fridays, not Wednesdays."
    assert not facts.corrects_memory("Felix has football on Wednesdays.", swim)
    assert not facts.corrects_memory("The haircut moved to Wednesday.", swim)


def test_the_town_a_move_left_is_the_older_news():
    """QA pass 37 P2 and P3: after "Anders moved from Trondheim to Oslo.", "Not at all,
    Anders still lives in Trondheim." went unmarked, while "He lives in Oslo and doesn't
    eat meat or dairy." was marked older news: the move names Trondheim, so "lives" was
    read as what was out of date."""
    from hela_desktop import facts
    from hela_desktop.older_news import gives_older

    old = "My brother Anders lives in Trondheim. He is vegan, so no meat, fish, eggs or dairy."
    new = "Anders moved from Trondheim to Oslo."
    assert facts.negated(new) == ["trond"] and "oslo" in facts.still_said(new)
    asked = "Does Anders still live in Trondheim?"
    assert gives_older(asked, "Not at all, Anders still lives in Trondheim. He is a vegan.",
                       old, new)
    assert gives_older("Where does Anders live?", "His home is in Trondheim.", old, new)
    assert not gives_older(asked, "No, Anders lives in Oslo now.", old, new)
    assert not gives_older(asked, "No, he moved from Trondheim to Oslo.", old, new)
    assert not gives_older("Can Anders eat cheese?",
                           "He lives in Oslo and does not eat meat or dairy.", old, new)
    assert not gives_older("Can Tomasz and Anders share a pizza?",
                           "They could, after moving from a remote village.", old, new)


def test_a_yes_to_a_number_the_question_supplies_is_checked_against_the_memories(
        make_assistant):
    """QA pass 37 P7: "Is Solveig 10 years old?" answered "Yes, Solveig is 10 years old."
    and "Is Solveig 5 years old?" answered "Solveig is 5 years old." went unmarked (she is
    8): the question's own words counted as known."""
    from test_qa_pass34 import _told

    check = _told(make_assistant, _INGRID[:2], 2)
    for asked, said in (("Is Solveig 10 years old?", "Yes, Solveig is 10 years old."),
                        ("Is Solveig 5 years old?", "Solveig is 5 years old.")):
        got = check(asked, said)
        # (since pass 51 "…a daughter, Solveig, who is 8." tells her age: the line says it)
        assert got is not None and got["kind"] == "says_otherwise", (said, got)
        assert got["said"] == asked.split()[2] and got["name"] == "Solveig", got
    # a no, or a yes the memories hold, is not marked
    assert check("Is Solveig 10 years old?", "No, Solveig is 8.") is None
    assert check("Is Solveig 8 years old?", "Yes, Solveig is 8 years old.") is None


def test_a_note_quotes_the_clause_that_matters():
    """QA pass 37 P12: "it may give older news — “Busy day today: Fenris had his check-up at
    the…” is newer." (the newer memory's part about Grace's country came last), and the
    correction noted as "“At the hospital my closest colleague is Grace,…”" (cut before
    "from Ghana")."""
    from hela_desktop.sources import correction_note, doubt_note

    grace = ("At the hospital my closest colleague is Grace, she is a midwife from Ghana. "
             "And my favourite band is Royksopp.")
    busy = ("Busy day today: Fenris had his check-up at the vet and all was fine, Tomasz "
            "built a new bookshelf for Solveig, and by the way Grace is not from Ghana, she "
            "is from Nigeria.")
    rec = [{"episode_id": 7, "text": grace}, {"episode_id": 13, "text": busy}]
    assert doubt_note({"kind": "older", "newer": 13, "older": 7}, rec) == (
        "Check this answer: it may give older news — “…and by the way Grace is not from "
        "Ghana, she is from Nigeria.” is newer.")
    assert correction_note([{"episode_id": 7, "text": "At the hospital my closest colleague "
                             "is Grace, she is a midwife from Ghana."}]) == (
        "Noted as a correction of “At the hospital my closest colleague is Grace, she is a "
        "midwife from Ghana.”: it is kept, marked as older news.")


def test_the_footer_counts_the_swaps_the_timeline_shows(qtbot):
    """QA pass 37 P16: the chat said "1 memory swap" under an answer whose timeline header
    said "0 swaps": a swap made after the last token (or before the first) writes nothing
    with its memories, and the timeline has no span for it."""
    from hela_desktop.events import DoneEvent
    from hela_desktop.ui import window_status as ws
    from hela_desktop.ui.timeline import TimelineView

    ev = DoneEvent(conversation_id=1, message_id=2, episode_id=3, tokens=30, swaps=1,
                   prefill_tokens=100, tokens_per_s=10.0, elapsed_s=3.0,
                   timeline=[(0, 30, [7, 13])])
    t = TimelineView()
    qtbot.addWidget(t)
    t.set_answer(ev.timeline, ev.tokens, "Answer 3 of this chat")
    assert ev.swaps_shown == len(t.swaps) == 0
    assert "0 memory swaps" in ws.answer_footer({"tokens": 30, "swaps": ev.swaps_shown,
                                                 "elapsed_s": 3.0}, False)
    two = DoneEvent(conversation_id=1, message_id=2, episode_id=3, tokens=30, swaps=3,
                    prefill_tokens=100, tokens_per_s=10.0, elapsed_s=3.0,
                    timeline=[(0, 12, [7]), (12, 20, [8]), (20, 30, [9])])
    t.set_answer(two.timeline, two.tokens, "Answer 4 of this chat")
    assert two.swaps_shown == len(t.swaps) == 2


def test_a_memory_corrected_in_part_is_not_greyed_whole_in_the_memories_tab(
        make_assistant, qtbot):
    """QA pass 37 P13: after "Anders moved from Trondheim to Oslo.", the Memories tab
    greyed the whole of "My brother Anders lives in Trondheim. He is vegan, …" and said
    "corrected later", though his diet still holds."""
    from PySide6 import QtCore

    from hela_desktop.session import corrected
    from hela_desktop.ui.memory_browser import EpisodeTableModel

    told = ("My brother Anders lives in Trondheim. He is vegan, so no meat or dairy for him.",
            "My sister Ines lives in Lyon.", "Anders moved from Trondheim to Oslo.",
            "Actually Ines moved to Porto.")
    a, _ = _told_to(make_assistant, told, 86_400)
    eps = sorted(a.store.episodes(range(1, 5)).values(), key=lambda e: e.id)
    fixes = corrected(a.store, eps)
    assert fixes[1][:2] == (3, told[2]) and fixes[1][2].startswith("He is vegan")
    assert fixes[2] == (4, told[3], "")
    m = EpisodeTableModel()
    m.set_episodes(eps, corrected=fixes)
    fg, tip = QtCore.Qt.ItemDataRole.ForegroundRole, QtCore.Qt.ItemDataRole.ToolTipRole
    assert m.data(m.index(0, 2)).endswith("· corrected in part later (#3)")
    assert m.data(m.index(0, 2), fg) is None  # (not greyed)
    from test_app_qa_pass7 import _as_shown  # (wrapped since QA pass 38: a long line)

    shown = _as_shown(m.data(m.index(0, 2), tip))
    assert shown.startswith("Corrected in part later, by #3: “Anders moved")
    assert "Still so: “He is vegan" in shown
    assert m.data(m.index(1, 2)).endswith("· corrected later (#4)")
    assert m.data(m.index(1, 2), fg) is not None


def test_what_you_know_about_me_says_whom_a_part_left_true_is_of(make_assistant):
    """QA pass 37 P13: "What do you know about me?" listed "“He is vegan, so no meat…”
    (today; the rest of that message since corrected)" with no one it was of."""
    a, cid = _told_to(make_assistant, ("My brother Anders lives in Trondheim. He is vegan, "
                                       "so no meat or dairy for him.",
                                       "Anders moved from Trondheim to Oslo."), 86_400)
    done = [e for e in a.chat("What do you know about me?", cid, now=T0 + 3 * 86_400)
            if type(e).__name__ == "DoneEvent"][-1]
    assert "“He is vegan, so no meat or dairy for him.” (of your brother Anders; " in done.text


def test_a_country_or_the_word_called_is_nothing_misattributed(make_assistant):
    """QA pass 37 P4: "it says of Tomasz what you told me of yourself (“called”): “We also
    have a dog, a springer spaniel called…”", and of the brother "(“Norway”): “Hi! I'm
    Ingrid Halvorsen, a nurse living in Bergen, Norway.”"."""
    from test_qa_pass34 import _told

    told = ("Hi! I'm Ingrid Halvorsen, a nurse living in Bergen, Norway.", *_INGRID[:4])
    check = _told(make_assistant, told, len(told))
    got = check("What did Tomasz build recently?",
                "Today he built a birdhouse for a small bird called Finch.")
    assert got is None or got["kind"] != "misattributed", got
    got = check("What is my brother's name and where does he live?",
                "Your brother Anders lives in Trondheim, Norway, and he's vegan.")
    assert got is None or got["kind"] != "misattributed", got
    # the user's own town still is
    got = check("Where does my brother live?", "Your brother Anders lives in Bergen.")
    assert got is not None and got["kind"] == "misattributed", got


def test_a_question_about_someone_asked_about_often_still_recalls_what_was_told(
        make_assistant, settings):
    """QA pass 37 P9: "What should I cook for Anders tonight?" recalled nothing: the ten
    best-ranked memories were the user's earlier questions about Anders, which the gate
    never lets in, and "My brother Anders … is vegan" was eleventh."""
    from hela_desktop.events import MemoriesEvent

    settings.max_answer_tokens = 8  # (the answers do not matter here)
    a = make_assistant(s=settings)
    cid = a.new_conversation()
    list(a.chat(_INGRID[3], cid, now=T0))
    for k, q in enumerate(("Is Anders vegetarian?", "Suggest a dinner for Anders and me",
                           "Can Anders have scrambled eggs for breakfast?",
                           "Can Anders eat cheese?", "Where does Anders live?",
                           "Can Anders eat a margherita pizza?", "Does Anders eat fish?",
                           "Where does Anders live now?", "What does Anders like to cook?",
                           "Is Anders coming for dinner?", "What should Anders cook tonight?",
                           "When does Anders eat dinner?", "What should I cook for Anders?",
                           "Should I cook for Anders tonight?", "What can I cook tonight?",
                           "What could Anders and I cook tonight?", "Cook something for Anders?",
                           "Tonight, what should I cook?", "What should I make for Anders?",
                           "Any dinner ideas for Anders tonight?")):
        list(a.chat(q, cid, now=T0 + 60 * (k + 1)))
    first = next(e for e in a.chat("What should I cook for Anders tonight?", cid,
                                   now=T0 + 3600) if isinstance(e, MemoriesEvent))
    assert 1 in [r.episode_id for r in first.memories]


def test_a_distilled_fact_cut_at_the_grammars_limit_keeps_its_whole_clauses():
    """QA pass 37 P17: the Knowledge tab showed "Fenris has his check-up at the vet and all
    is fine, Tomasz built a new bookshelf for Solve.": the grammar's 90 characters ended the
    item inside "Solveig", and a full stop was added."""
    from hela_desktop.consolidate_prompt import clean_items

    cut = "Fenris has his check-up at the vet and all is fine, Tomasz built a new bookshelf for Solve"
    assert len(cut) == 90
    kept, rejected = clean_items([{"kind": "fact", "text": cut}], max_chars=90)
    assert [k["text"] for k in kept] == ["Fenris has his check-up at the vet and all is fine."]
    # cut with no clause to keep: dropped, and said why
    one = "Tomasz built a new bookshelf for Solveig and then he painted it blue and green for his daughter"
    kept, rejected = clean_items([{"kind": "fact", "text": one[:90]}], max_chars=90)
    assert kept == [] and rejected[0]["reason"] == "cut short"
    # shorter than the limit: as it was
    kept, _ = clean_items([{"kind": "fact", "text": "Tomasz built a bookshelf for Solveig"}],
                          max_chars=90)
    assert [k["text"] for k in kept] == ["Tomasz built a bookshelf for Solveig."]


def test_what_pass_37b_found(make_assistant):
    """QA pass 37b: "you have not told me about your daughter" though "…we have a
    daughter, Solveig…" was recalled (N8); right yes-or-no answers in the question's own
    words read "it uses none of the memories recalled for it, so it is not from what you
    told me" (N6); "Fenris is indeed a springer spaniel." was said to answer from another
    memory "instead" (N7)."""
    from test_qa_pass34 import _told

    from hela_desktop.passed_over import passed_over

    a, cid = _told_to(make_assistant, _INGRID)
    assert a._untold("What are the names of our dog and our daughter?") == []
    assert a._untold("What does my son do?") == ["son"]
    check = _told(make_assistant, ("My brother Anders lives in Trondheim.",
                                   "Anders moved from Trondheim to Oslo."), 2)
    assert check("Does Anders live in Oslo?", "Anders lives in Oslo.") is None
    assert check("Yes or no: does Anders live in Oslo?", "Yes.") is None
    mems = [Recall(episode_id=4, score=1.0, text="We also have a dog, a springer spaniel "
                   "called Fenris."),
            Recall(episode_id=13, score=1.0, text="Busy day today: Fenris had his check-up "
                   "at the vet and all was fine.")]
    assert passed_over("Is Fenris a springer spaniel?",
                       "Fenris is indeed a springer spaniel. He had a check-up.", mems) is None
    # an answer that says nothing of the spaniel, from the other memory, still is
    got = passed_over("Is Fenris a springer spaniel?", "Fenris had a check-up at the vet.", mems)
    assert got is not None and got["memory"] == 4 and got["instead"] == 13


def test_a_question_or_the_allergy_named_in_an_answer_offers_nothing():
    """QA pass 37b N1: "…And how does he manage with peanut butter at home?" and "…he does
    have a peanut allergy, which is considered serious." were said to name “peanut”
    without a word of warning."""
    said = cautions([(3, "Solveig is allergic to peanuts, so we have to be careful.")],
                    about={"solveig"})
    assert offered("That's hard. And how does he manage with peanut butter at home?",
                   said[0]) == []
    assert offered("Solveig has a peanut allergy, which is serious.", said[0],
                   "Can Solveig have a peanut butter sandwich?") == []
    assert offered("So, can Solveig eat peanut butter on toast today?", said[0],
                   "Can Solveig eat peanut butter on toast?") == []
    # a statement that offers it still does
    assert offered("Pack her a peanut butter sandwich. Does she like it?", said[0]) == ["peanut"]


def test_the_memories_tab_does_not_mark_a_correction_the_next_one_agrees_with(make_assistant):
    """QA pass 37b P6: the chat no longer noted the restated correction as correcting the
    agreeing 10 June memory, but the Memories tab still greyed it with "Corrected later,
    by #42" (its own reading of corrections)."""
    from hela_desktop.knowledge import corrections

    a, _ = _told_to(make_assistant, ("I'm flying to Lisbon on 3 June for a short holiday.",
                                     "Actually the Lisbon flight is on 10 June, not 3 June.",
                                     "We fly to Lisbon on 10 June instead of 3 June."), 86_400)
    fixes = corrections(a.store, [1, 2, 3])
    assert 1 in fixes and 2 not in fixes


def test_a_question_that_suggests_a_food_still_offers_it():
    """The question rule of QA pass 37b N1 is for questions asked of the user: "Or
    something adventurous with a lot of meat?" and "How about prawn linguine?" suggest."""
    mine = cautions([(2, "I'm allergic to shellfish.")])
    assert offered("How about prawn linguine?", mine[0]) == ["prawn"]
    assert offered("Do your kids like prawns?", mine[0]) == []


def test_a_food_suggested_in_a_question_without_a_question_word_is_offered():
    """QA pass 37c N9: "What kind of meal will it be? A steak with vegetables, maybe some
    lamb…?" for vegan Anders went unmarked once questions offered nothing."""
    said = cautions([(5, "My brother Anders is vegan.")], about={"anders"})
    assert offered("What kind of meal will it be? A steak with vegetables, maybe some lamb?",
                   said[0]) == ["steak", "lamb"]
    assert offered("So, can Anders eat a steak today?", said[0]) == []
