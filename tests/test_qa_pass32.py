"""QA pass 31's open items and the thirty-second pass (4–5 December 2026): what a person
met and this pass fixed."""

from __future__ import annotations

import pytest

from hela_desktop import facts, superseded
from hela_desktop.doubt import answer_doubt
from hela_desktop.events import Recall

T0 = 1_780_000_000.0


# ---- a plan moved to another time replaces the old time (`facts._CHANGES`, schedule) -------

@pytest.mark.parametrize("old, new, changes", [
    ("I have a haircut appointment on Tuesday at 10 am.", "The haircut moved to Wednesday at 4 pm.",
     True),
    ("My dentist appointment is on March 3rd.", "The dentist moved my appointment to Friday.",
     True),
    ("I have a haircut appointment on Tuesday at 10 am.",
     "My haircut got rescheduled to next Monday.", True),
    ("The team meeting is on Monday at 9.", "I pushed the team meeting back to Thursday.", True),
    ("The wedding is in May.", "The wedding is now in June.", True),
    ("Kari's birthday party is on Saturday.", "Kari's party was postponed to next week.", True),
    # another plan, another person's, no plan named, no time said before
    ("My dentist appointment is on March 3rd.", "The haircut moved to Wednesday at 4 pm.", False),
    ("Kari's birthday party is on Saturday.", "Ines's party was postponed to next week.", False),
    ("My dentist appointment is on Tuesday.", "My appointment moved to Friday.", False),
    ("I play football on Tuesdays.", "The haircut moved to Wednesday.", False),
    ("I live in Madrid.", "The haircut moved to Wednesday at 4 pm.", False),
    # a time is no home: "moved to June" is not a move, "is now in June" no new city
    ("My sister Kari lives in Oslo.", "Kari's wedding is now in June.", False),
])
def test_a_plan_moved_to_another_time_replaces_when_it_was(old, new, changes):
    """QA pass 31: "The haircut moved to Wednesday at 4 pm." was no correction ("moved to"
    was read as a home), and the Tuesday haircut stayed current."""
    assert facts.corrects(new)
    assert facts.corrects_memory(old, new) is changes


def test_a_move_of_house_is_still_a_move_and_of_two_plans_only_the_one_named_is_replaced():
    assert facts.changes_memory("I live in Madrid.", "We moved to Valencia.")
    assert facts.changes_memory("I live in Madrid.", "We moved to the Netherlands.")
    old = "I have a haircut on Tuesday. My dentist is on Friday."
    new = "The haircut moved to Wednesday."
    assert superseded.on_subject(old, new) == "I have a haircut on Tuesday."
    assert superseded.off_subject(old, new) == "My dentist is on Friday."


def test_a_moved_plan_is_noted_as_a_correction_and_listed_in_its_place(make_assistant):
    from hela_desktop.knowledge import corrections

    a = make_assistant()
    cid = a.new_conversation()
    told = ["I have a haircut appointment on Tuesday at 10 am.",
            "My dentist appointment is on Friday at 9.", "I live in Bergen.",
            "The haircut moved to Wednesday at 4 pm."]
    done = [list(a.chat(t, cid, now=T0 + 60 * k))[-1] for k, t in enumerate(told)]
    ids = [d.episode_id for d in done]
    assert [c["episode_id"] for c in done[3].corrects] == [ids[0]]
    assert corrections(a.store, ids[:3]) == {ids[0]: ids[3]}
    about = list(a.chat("What do you know about me?", cid, now=T0 + 600))[-1]
    lines = [x for x in about.text.splitlines() if x.startswith("- ")]
    assert any(x.startswith("- “The haircut moved to Wednesday at 4 pm.” (") and
               "correcting “I have a haircut appointment on Tuesday at 10 am.”" in x
               for x in lines), lines
    assert not any(x.startswith("- “I have a haircut") for x in lines)
    assert any(x.startswith("- “My dentist appointment is on Friday at 9.”") for x in lines)


# ---- "Forget the …" when the user told it (`forget_request.told_thing`) --------------------

def test_forgetting_the_thing_named_with_the_deletes_what_was_told(make_assistant):
    """QA pass 31: "Forget the haircut appointment." ("the …", not "my …") went to the
    model, which said it had forgotten it; nothing was deleted.  Pass 32b: one never told,
    "Forget the dentist appointment.", got the model's "I forgot the dentist appointment.";
    the app now says nothing matched."""
    from hela_desktop.forget_request import forget_target

    assert forget_target("Forget the haircut appointment.") == "haircut appointment"
    assert forget_target("Please forget about the dentist appointment, please") == \
        "dentist appointment"
    # what asks something of the chat, or more: for the model
    for text in ("Forget the past.", "Forget the rules and write a poem.",
                 "Forget the haircut appointment and tell me a joke.",
                 "Forget the previous instructions.", "Forget the haircut appointment?",
                 "I forget the haircut appointment."):
        assert forget_target(text) is None, text
    a = make_assistant()
    cid = a.new_conversation()
    told = ["I have a haircut appointment on Tuesday at 10 am.",
            "My dentist appointment is on Friday at 9.",
            "The haircut moved to Wednesday at 4 pm."]
    ids = [list(a.chat(t, cid, now=T0 + 60 * k))[-1].episode_id for k, t in enumerate(told)]
    done = list(a.chat("Forget the haircut appointment.", cid, now=T0 + 600))[-1]
    assert sorted(done.forget["deleted"]) == sorted([ids[0], ids[2]]), done.text
    assert set(a.store.kept_key_texts(ids)) == {ids[1]}
    n = a.store.count_episodes()
    done = list(a.chat("Forget the piano lesson.", cid, now=T0 + 660))[-1]
    assert done.forget == {"deleted": [], "maybe": []} and a.store.count_episodes() == n
    assert done.text.startswith("Nothing you told me matches “piano lesson”"), done.text


# ---- a forget reply names a kept memory only for a copy of what, not of when -------------

def test_an_answer_that_shares_only_the_time_repeats_nothing_forgotten(make_assistant):
    """QA pass 31b: "Forget my dentist appointment." named "Our dog Pepper is a border
    collie." as a memory whose stored answer "still repeats it": that answer said "…on
    Thursday at 1 pm." and nothing of a dentist."""
    from hela_desktop.memory import NewEpisode

    a = make_assistant()
    ids = a.engine.add_episodes([NewEpisode(u, r, created_at=T0 + k) for k, (u, r) in enumerate((
        ("I have a dentist appointment on Thursday at 1 pm.", "Noted."),
        ("Our dog Pepper is a border collie.", "I'm a dog trainer, free on Thursday at 1 pm."),
        ("I walk Pepper past the clinic.", "Your dentist appointment is Thursday at 1 pm."),
        ("When is my dentist appointment?", "It is on Thursday at 1 pm.")))])
    done = list(a.chat("Forget my dentist appointment.", a.new_conversation(),
                       now=T0 + 600))[-1]
    # the question goes with it (its answer has no word of what, but the question itself
    # names the dentist), the walk is named (its answer names the dentist), the dog is not
    assert sorted(done.forget["deleted"]) == [ids[0], ids[3]], done.text
    assert done.forget["repeated"] == [ids[2]], done.text
    assert f"#{ids[1]}" not in done.text
    assert "of something else kept my answer, which said it again" in done.text


# ---- a pane a small window folds is offered back in the chat's heading ---------------------

@pytest.mark.gui
def test_a_folded_side_pane_is_offered_back_in_the_chats_heading(qtbot, tmp_path):
    """QA pass 31: at 800 × 600 the memory graph and Memories were gone, and nothing said
    where (the welcome text still spoke of "the graph on the right")."""
    from test_app_polish import _window

    w = _window(qtbot, tmp_path / "data")
    s, chat = w.main_split, w.chat
    w.resize(1480, 900)
    qtbot.waitUntil(lambda: all(s.sizes()), timeout=5000)
    qtbot.wait(200)
    assert not chat.graph_button.isVisible() and not chat.chats_button.isVisible()
    w.resize(700, 500)  # the graph side folds
    qtbot.waitUntil(lambda: s.sizes()[2] == 0, timeout=5000)
    qtbot.waitUntil(chat.graph_button.isVisible, timeout=5000)
    assert "Ctrl+1" in chat.graph_button.toolTip()
    chat.graph_button.click()  # it opens, and the chat list folds for it
    qtbot.waitUntil(lambda: s.sizes()[2] > 0 and s.sizes()[0] == 0, timeout=5000)
    qtbot.waitUntil(lambda: not chat.graph_button.isVisible(), timeout=5000)
    assert chat.chats_button.isVisible() and w.right_tabs.currentIndex() == 0
    chat.chats_button.click()
    qtbot.waitUntil(lambda: s.sizes()[0] > 0, timeout=5000)
    qtbot.waitUntil(lambda: not chat.chats_button.isVisible(), timeout=5000)
    assert w.conversations.list.hasFocus() or not w.isActiveWindow()
    w.close()


# ---- an acronym of the words beside it is no made-up name (`sources.made_up`) -------------

def test_an_acronym_spelled_out_beside_it_is_not_made_up():
    """bench personal (0.23): "…chronic obstructive pulmonary disease (COPD" under "What
    breathing condition do I have?" was marked as if "COPD" were invented."""
    from hela_desktop.made_up import made_up

    known = "I have asthma."
    assert made_up("Asthma is not chronic obstructive pulmonary disease (COPD).", known) == []
    assert made_up("COPD (chronic obstructive pulmonary disease) is not asthma.", known) == []
    assert made_up("It is like the Bank of England (BOE).", known) == ["Bank of England"]
    # an acronym of nothing said beside it is still a name the memories lack
    assert made_up("Ask your doctor about COPD and asthma.", known) == ["COPD"]
    assert made_up("Your inhaler is from the PQRS clinic.", known) == ["PQRS"]


# ---- a question in another language that recalls nothing says so -------------------------

def test_a_question_about_oneself_in_another_language_is_read_as_personal():
    from hela_desktop.language import speaks_of_self_abroad

    for text in ("¿Dónde vive mi hermana?", "Wo wohnt meine Schwester?",
                 "Où habite ma sœur ?", "Waar woont mijn zus?", "Onde mora a minha irmã?"):
        assert speaks_of_self_abroad(text), text
    for text in ("¿Cuál es la capital de Francia?",  # (of no one)
                 "Where does my sister live?",  # (English: `facts.asks_about_user`)
                 "Write a poem about mi casa, please."):
        assert not speaks_of_self_abroad(text), text


def test_a_spanish_question_that_recalls_nothing_is_marked_not_from_memories(make_assistant):
    """QA pass 31: "¿Dónde vive mi hermana?" recalled nothing (the embedder is English),
    and nothing under the answer said so."""
    a = make_assistant()
    cid = a.new_conversation()
    list(a.chat("I repair bicycles for a living.", cid, now=T0))
    done = list(a.chat("¿Cómo se llama mi perro?", cid, now=T0 + 60))[-1]
    assert done.unrecalled, done


# ---- a message box is as wide as its title ------------------------------------------------

def test_a_message_box_is_wide_enough_for_its_title(qtbot):
    """QA pass 31: the import's message box was so narrow that the window manager wrote
    its title "Import finis… eLa Desktop"."""
    from PySide6 import QtGui, QtWidgets

    from hela_desktop.ui.plain import message_box

    QtGui.QGuiApplication.setApplicationDisplayName("HeLa Desktop")
    title = "Import finished"
    box = message_box(QtWidgets.QMessageBox.Icon.Information, title, "Added 3 memories.")
    qtbot.addWidget(box)
    box.show()
    qtbot.waitExposed(box)
    need = box.fontMetrics().horizontalAdvance(f"{title} — HeLa Desktop")
    assert box.width() >= need + 100, (box.width(), need)
    box.close()


# ---- a caution told in the message itself is checked in its reply -------------------------

def test_a_caution_told_in_the_message_is_checked_in_its_own_reply(make_assistant):
    """QA pass 32: "I am allergic to sesame, so no tahini or hummus for me." got "…You can
    also try making it with honey or sesame-lime curaçoula", with nothing under it: the
    cautions were read from the memories, and the message's own is made after the check.
    Here the bundled model, greedy, answers "Sure, here's a recipe for a cake made with
    nuts: …"."""
    from hela_desktop.cautions import cautions, offered

    a = make_assistant()
    cid = a.new_conversation()
    told = "I'm allergic to nuts. Give me a recipe for a cake."
    done = list(a.chat(told, cid, now=T0))[-1]
    named = offered(done.text, cautions([(0, told)])[0], told)
    doubt = a.store.messages(cid)[-1]["stats"].get("doubt") or {}
    assert (doubt.get("kind") == "caution") == bool(named), (done.text, doubt)
    assert named, done.text  # (the case itself)


def test_a_word_cut_at_the_longest_answers_limit_is_no_made_up_name():
    """QA pass 32: "…Best regards to you and Tob" (cut at the 256-token limit) was marked:
    "“Tob” is in none of the memories it was given"."""
    mems = [Recall(episode_id=1, score=1.0, text="My husband Tobias drives a bus.")]
    ask, said = "What does my husband do?", "Tobias drives a bus. Best regards to you and Tob"
    assert answer_doubt(ask, said, mems, {1}, cut=True) is None
    assert answer_doubt(ask, said, mems, {1})["words"] == ["Tob"]  # (not cut: a name)


def test_a_forget_reply_names_every_other_part_that_went(make_assistant):
    """QA pass 32: "Forget my dentist appointment." deleted a paragraph of five things and
    named three of the other four; "my mum Grace lives in Bradford" went unsaid."""
    a = make_assistant()
    cid = a.new_conversation()
    para = ("I go bouldering at the Depot every Thursday evening with my friend Hana. I have a "
            "haircut booked at Salon Vero on Friday. I also have a dentist appointment with Dr "
            "Akintola on 3 July. We live on Harehills Lane in Leeds, and my mum Grace lives in "
            "Bradford.")
    pid = list(a.chat(para, cid, now=T0))[-1].episode_id
    done = list(a.chat("Forget my dentist appointment.", cid, now=T0 + 60))[-1]
    assert done.forget["deleted"] == [pid], done.text
    for part in ("bouldering at the Depot every Thursday evening with my friend Hana",
                 "haircut booked at Salon Vero on Friday", "We live on Harehills Lane in Leeds",
                 "my mum Grace lives in Bradford"):
        assert part in done.text, (part, done.text)


# ---- changes of life told without "Actually" (QA pass 32) ----------------------------------

@pytest.mark.parametrize("old, new", [
    ("My husband Tobias drives a bus for First Leeds.",
     "Tobias quit the buses; he now works as a train conductor for Northern."),
    ("Our daughter Sunniva is six; she turns seven on 12 June.",
     "Sunniva had her birthday yesterday, she is seven now."),
    ("We live on Harehills Lane in Leeds.", "We moved house last weekend, we now live in York."),
    ("I manage a bakery in Leeds.", "I now work at a school."),
])
def test_a_change_told_plainly_replaces_what_was_said(old, new):
    """QA pass 32: "…he now works as a train conductor", "she is seven now" and "we now
    live in York" were no corrections of "drives a bus for First Leeds", "is six" and "We
    live on Harehills Lane", which stayed current in "What do you know about me?"."""
    assert facts.corrects_memory(old, new)


def test_a_job_said_with_a_verb_is_no_car_and_an_age_now_is_no_temperature():
    assert not facts.changes_memory("I drive a blue van.", "I now work at Voltra.")
    assert not facts.changes_memory("My son Tom is nine.", "The oven is 200 now.")
    assert not facts.changes_memory("My husband Tobias drives a bus for First Leeds.",
                                    "My sister Ada now works as a nurse.")


def test_a_corrections_bar_for_a_memory_of_several_sentences_by_hand():
    """`formulas.subject_bar`: 0.3 / sqrt(n), n up to 9."""
    from hela_desktop.formulas import subject_bar

    assert subject_bar(0.3, 1) == pytest.approx(0.3)
    assert subject_bar(0.3, 4) == pytest.approx(0.15)
    assert subject_bar(0.3, 9) == pytest.approx(0.1)
    assert subject_bar(0.3, 40) == pytest.approx(0.1)
    assert subject_bar(0.3, 0) == pytest.approx(0.3)


def test_what_a_correction_denies_picks_its_sentence():
    """QA pass 32: "Actually the dentist appointment is on 10 July, not 3 July." was said to
    correct "I have a haircut booked … at 10 am." too (its "10")."""
    old = "I have a haircut on Friday at 10 am. I have a dentist appointment on 3 July."
    new = "Actually the dentist appointment is on 10 July, not 3 July."
    assert superseded.on_subject(old, new) == "I have a dentist appointment on 3 July."
    # several corrections of one memory: each replaces its own sentence
    para = ("I go bouldering on Thursdays. I have a haircut on Friday at 10 am. "
            "I have a dentist appointment on 3 July.")
    assert superseded.still_true(para, [new, "The haircut moved to Wednesday at 4 pm."]) == \
        "I go bouldering on Thursdays."
    assert superseded.still_true(para, [new]) == \
        "I go bouldering on Thursdays. I have a haircut on Friday at 10 am."
    assert superseded.still_true(para, ["Actually I love tea."]) == ""  # (of none of it: all)


def test_what_you_know_about_me_after_a_week_of_changes(make_assistant):
    """QA pass 32, the tester's week: "What do you know about me?" listed "My husband
    Tobias drives a bus…" and "We live on Harehills Lane…" as current, left out the new
    job, the moved haircut and the daughter, and said the dentist correction corrected the
    haircut."""
    from hela_desktop.knowledge import all_corrections, corrections

    a = make_assistant()
    cid = a.new_conversation()
    para = ("Some things about my week: I go bouldering at the Depot climbing wall every "
            "Thursday evening with my friend Hana. I have a haircut booked at Salon Vero on "
            "Friday at 10 am. I also have a dentist appointment with Dr Akintola on 3 July at "
            "2:30 pm. We live on Harehills Lane in Leeds.")
    told = ["My husband Tobias drives a bus for First Leeds.",
            "Our daughter Sunniva is six; she turns seven on 12 June.", para,
            "We have a tortoise called Pebbles.",
            "The haircut moved to Wednesday at 4 pm.",
            "Tobias quit the buses; he now works as a train conductor for Northern.",
            "We moved house last weekend, we now live in York.",
            "Sunniva had her birthday yesterday, she is seven now.",
            "Actually the dentist appointment is on 10 July, not 3 July."]
    done = [list(a.chat(t, cid, now=T0 + 60 * k))[-1] for k, t in enumerate(told)]
    ids = [d.episode_id for d in done]
    for k in (4, 6, 8):  # each change of the paragraph is noted under its reply
        assert [c["episode_id"] for c in done[k].corrects] == [ids[2]], (told[k], done[k].corrects)
    assert [c["episode_id"] for c in done[5].corrects] == [ids[0]]
    # the note under each quotes the sentence it replaces (QA pass 32b)
    assert done[6].corrects[0]["text"] == "We live on Harehills Lane in Leeds."
    assert done[4].corrects[0]["text"] == ("I have a haircut booked at Salon Vero on Friday "
                                           "at 10 am.")
    assert [c["episode_id"] for c in done[7].corrects] == [ids[1]]
    assert corrections(a.store, ids[:4]) == {ids[0]: ids[5], ids[1]: ids[7], ids[2]: ids[8]}
    assert all_corrections(a.store, [ids[2]]) == {ids[2]: [ids[8], ids[6], ids[4]]}
    about = list(a.chat("What do you know about me?", a.new_conversation(),
                        now=T0 + 3600))[-1].text
    lines = [x for x in about.splitlines() if x.startswith("- ")]
    assert "of the" not in about  # (all of them)
    # (the paragraph's lead-in, "Some things about my week:", tells nothing alone)
    assert any(x.startswith("- “I go bouldering at the Depot climbing wall every Thursday "
                            "evening with my friend Hana.” (") for x in lines), lines
    for new, old in ((4, "I have a haircut booked at Salon Vero on Friday at 10 am."),
                     (5, "My husband Tobias drives a bus for First Leeds."),
                     (6, "We live on Harehills Lane in Leeds."),
                     (7, "Our daughter Sunniva is six; she turns seven on 12 June."),
                     (8, "I also have a dentist appointment with Dr Akintola on 3 July at "
                         "2:30 pm.")):
        assert any(x.startswith(f"- “{told[new]}” (") and f"correcting “{old}”" in x
                   for x in lines), (told[new], "\n".join(lines))
    for gone in ("drives a bus", "Harehills", "is six", "Salon Vero on Friday"):
        assert not any(x.startswith("- “") and gone in x.split("” (")[0] for x in lines), gone


def test_an_age_is_no_date():
    """QA pass 32: "How old is Sunniva?" → "Sunniva is currently 12 years old." went
    unmarked: "12" was in the memories, as "she turns seven on 12 June"."""
    from hela_desktop.made_up import made_up

    known = "Our daughter Sunniva is six; she turns seven on 12 June."
    assert made_up("Sunniva is currently 12 years old.", known) == ["12 years old"]
    assert made_up("Her birthday is on the 12th, 12 June.", known) == []
    # a 12 the memories also say as an age, or a count, is known
    assert made_up("Sunniva is 12 years old.", known + " Her cousin Ada is 12.") == []
    assert made_up("It was 12 years ago.", known) == []


def test_what_someone_quit_is_no_longer_so():
    """QA pass 32: "Is Tobias still a bus driver?" → "…still a bus driver…" went unmarked
    after "Tobias quit the buses; he now works as a train conductor for Northern.": the
    buses, said in both, were read as still true."""
    from hela_desktop.older_news import gives_older

    old = "My husband Tobias drives a bus for First Leeds."
    new = "Tobias quit the buses; he now works as a train conductor for Northern."
    assert facts.negated(new) == ["bus"] and facts.corrects_memory(old, new)
    ask = "Is Tobias still a bus driver?"
    assert gives_older(ask, "Yes, Tobias is still a bus driver.", old, new)
    assert not gives_older(ask, "No, Tobias now works as a train conductor for Northern.",
                           old, new)
    assert facts.corrects_memory("I smoke ten cigarettes a day.", "I quit smoking last month.")
    # what was quit is what it corrects; a stop on the way is none
    assert not facts.corrects_memory("My husband Tobias loves jazz.", "Tobias quit the buses.")
    assert not facts.corrects("I stopped by the bakery on my way home.")


def test_common_words_in_names_and_lines_and_a_name_after_a_title():
    """QA pass 32: "York City" was marked for "City", "Dentist: Last week of July, time
    TBD." for "Last" and "TBD", and "…with the dentist Dr. Nana" went unmarked: the full
    stop of "Dr." had made "Nana" a sentence's first word, and a common one."""
    from hela_desktop.made_up import made_up

    known = "We now live in York. My dentist is Dr Akintola."
    assert made_up("My parents live in York City with Adakele.", known) == ["Adakele"]
    assert made_up("Dentist: Last week of July, time TBD.", known) == []
    assert made_up("The appointment is with Dr. Nana.", known) == ["Nana"]
    assert made_up("See Dr. Akintola. Nana says hi.", known) == []
    # a name the memories lack is still marked after a known one
    assert made_up("You live in York Minster Gardens.", known) == ["Minster Gardens"]


def test_each_correction_of_a_paragraph_is_checked_for_older_news(make_assistant):
    """QA pass 32: a paragraph whose haircut and dentist were each corrected was marked as
    replaced by the newest correction only, the dentist's; an answer that gave the old
    haircut time could not be doubted, and unrelated answers were checked against the
    dentist."""
    para = ("I go bouldering on Thursdays. I have a haircut booked at Salon Vero on Friday "
            "at 10 am. I also have a dentist appointment with Dr Akintola on 3 July.")
    haircut, dentist = ("The haircut moved to Wednesday at 4 pm.",
                        "Actually the dentist appointment is on 10 July, not 3 July.")
    mems = [Recall(episode_id=3, score=1.0, text=dentist),
            Recall(episode_id=2, score=0.9, text=haircut),
            Recall(episode_id=1, score=0.8, text=para,
                   extra={"superseded_by": 3, "older_than": 3, "corrected_also": [2]})]
    ask = "When is my haircut?"
    doubt = answer_doubt(ask, "Your haircut is at Salon Vero on Friday at 10 am.", mems, {1})
    assert doubt is not None and doubt["kind"] == "older" and doubt["newer"] == 2, doubt
    assert answer_doubt(ask, "Your haircut is on Wednesday at 4 pm.", mems, {2}) is None
    # through the gate: the paragraph carries both corrections
    a = make_assistant()
    cid = a.new_conversation()
    for k, t in enumerate((para, haircut, dentist)):
        list(a.chat(t, cid, now=T0 + 60 * k))
    list(a.chat(ask, cid, now=T0 + 600))
    shown = {m["episode_id"]: m.get("extra") or {} for m in
             a.store.messages(cid)[-1]["stats"]["memories"]}
    assert shown.get(1, {}).get("superseded_by") == 3, shown
    assert shown[1].get("corrected_also") == [2], shown


def test_what_else_a_forgotten_memory_said_is_kept_and_undo_takes_it_back(make_assistant,
                                                                          qtbot):
    """QA pass 32: "Forget my dentist appointment." deleted a paragraph of five things, the
    bouldering, the haircut, the home and the mum with it.  Those parts are kept as a
    memory of their own (dated as said); a part that speaks of the forgotten thing by a
    pronoun goes with it; Undo brings the paragraph back and deletes the copy."""
    from hela_desktop.ui.memory_browser import MemoryBrowser

    a = make_assistant()
    cid = a.new_conversation()
    para = ("I go bouldering at the Depot every Thursday. I have a dentist appointment with "
            "Dr Akintola on 3 July. We live on Harehills Lane in Leeds.")
    pid = list(a.chat(para, cid, now=T0))[-1].episode_id
    done = list(a.chat("Forget my dentist appointment.", cid, now=T0 + 60))[-1]
    assert done.forget["deleted"] == [pid], done.text
    new = done.forget["kept"][0]
    assert a.store.episode(new).user_text == ("I go bouldering at the Depot every Thursday. "
                                              "We live on Harehills Lane in Leeds.")
    assert f"I kept that as memory #{new}." in done.text
    # a part by a pronoun went with it
    mid = list(a.chat("My cat is called Miso. She hates the rain.", cid,
                      now=T0 + 180))[-1].episode_id
    done = list(a.chat("Forget that my cat is called Miso.", cid, now=T0 + 240))[-1]
    assert done.forget["deleted"] == [mid] and "kept" not in done.forget
    assert "“She hates the rain”, which went with it" in done.text
    # Undo in the window: the memory back, the copy deleted
    browser = MemoryBrowser()
    qtbot.addWidget(browser)
    ops = []
    browser.op.connect(lambda name, arg: ops.append((name, arg)))
    browser.forgotten([pid], "Forget my dentist appointment.", cid, [new])
    browser.undo_delete()
    assert ("restore", [pid]) in ops and ("delete", new) in ops
    from hela_desktop.ui.undo_history import Step

    step = Step("memory", (pid,), "Forget my dentist appointment.", cid, "", (new,))
    assert step.undone().endswith(f"#{pid} is back and recalled again. #{new}, which kept the "
                                  "rest, is deleted.")


def test_forgetting_one_part_keeps_the_other_corrections_and_only_what_is_still_true(
        make_assistant):
    """QA pass 32b: "Forget that my brother runs a bakery." deleted the paragraph that
    said it and "Elsa had her birthday last week, she is seven now.", a correction of
    another of its sentences; and the reply asked the user to tell again "We live on
    Crookes Road in Sheffield" and "Our daughter Elsa is six", both corrected since."""
    a = make_assistant()
    cid = a.new_conversation()
    para = ("We live on Crookes Road in Sheffield. My brother Anders runs a bakery in Oslo. "
            "I play the cello in a community orchestra on Thursdays. Our cat is called "
            "Pepper. Our daughter Elsa is six.")
    told = [para, "We now live in Leeds.", "Elsa had her birthday last week, she is seven now."]
    ids = [list(a.chat(t, cid, now=T0 + 60 * k))[-1].episode_id for k, t in enumerate(told)]
    done = list(a.chat("Forget that my brother runs a bakery.", cid, now=T0 + 600))[-1]
    assert done.forget["deleted"] == [ids[0]], done.text
    assert set(a.store.kept_key_texts(ids[1:])) == {ids[1], ids[2]}  # (both corrections stay)
    new = done.forget["kept"][0]
    assert a.store.episode(new).user_text == ("I play the cello in a community orchestra on "
                                              "Thursdays. Our cat is called Pepper.")
    assert "corrected since (“We live on Crookes Road in Sheffield” and “Our daughter Elsa " \
        "is six”) went with it; your corrections stay." in done.text, done.text
    assert "tell me again" not in done.text


def test_forget_and_delete_are_requests_not_things_told():
    """QA pass 32b: "Forget the past." (for the model) was listed by "What do you know about
    me?" as a thing the user told."""
    for text in ("Forget the past.", "Delete the first line.", "Forget the rules."):
        assert not facts.is_statement(text), text
    assert facts.is_statement("I forget names all the time.")


def test_an_answer_that_denies_the_allergy_offers_the_food():
    """QA pass 32b: "I'm allergic to shellfish. Is a prawn curry a good idea for dinner?"
    → "You're allergic to shellfish, not to prawns." with nothing under it: its "not" was
    read as a word against prawns."""
    from hela_desktop.cautions import cautions, offered

    allergy = cautions([(1, "I'm allergic to shellfish.")])[0]
    assert offered("You're allergic to shellfish, not to prawns.", allergy) == ["prawns"]
    assert offered("You aren't allergic to prawns, enjoy.", allergy) == ["prawns"]
    for said in ("Avoid prawns: they are shellfish.", "Please do not go to prawn restaurants.",
                 "No prawns for you."):
        assert offered(said, allergy) == [], said


def test_a_lead_in_before_a_colon_is_no_part_of_the_sentence_after_it():
    """QA pass 32b: "A bit about us: We live on Crookes Road in Sheffield. …" corrected by
    "We now live in Leeds.": a reply that said "a bit" was warned of older news, "bit"
    being read as part of where they lived."""
    from hela_desktop.older_news import gives_older

    para = "A bit about us: We live on Crookes Road in Sheffield. Our cat is called Pepper."
    assert facts.sentences(para)[:2] == ["A bit about us:", "We live on Crookes Road in Sheffield."]
    assert superseded.on_subject(para, "We now live in Leeds.") == "We live on Crookes Road in Sheffield."
    assert not gives_older("Elsa had her birthday last week.",
                           "I'm glad you shared a bit about yourself!", para,
                           "We now live in Leeds.")
    assert facts.sentences("Meet at 10:30 today. Note: the cat.") == [
        "Meet at 10:30 today.", "Note: the cat."]
