"""QA pass 28b (4 December 2026), what the twenty-ninth pass fixed: the made-up check's
blind spots, a stopped answer's old value, a correction the chat never confirmed."""

from __future__ import annotations

from hela_desktop import facts
from hela_desktop.made_up import made_up

MARTA = ("Hi! I'm Marta, I'm 41 and I work as a civil engineer in Rotterdam. My son Joost is "
         "9 and he plays the violin. My partner Samir is a nurse.")


# ---- the made-up check (`sources.made_up`) ------------------------------------------------

def test_a_rare_name_that_opens_a_sentence_is_checked():
    # "What is my sister's name?" (no sister told) → the name that answers it went unquoted
    assert made_up('Siamira is a fictional character that can be found in the game '
                   '"Dungeons and Dragons." It\'s a mythical creature named Sari.', MARTA) \
        == ["Siamira", "Dungeons", "Dragons", "Sari"]
    # a bullet's first word too
    assert made_up("- Kralingen is where you live.\n- Joost is 9.", MARTA) == ["Kralingen"]
    # everyday words and common names open sentences all the time: not checked there
    assert made_up("Unfortunately I don't know. Sarah might. Oops, sorry!", MARTA) == []
    assert made_up("Paris is lovely. Swimming helps.", "") == []


def test_a_name_is_known_in_its_own_forms_not_by_a_shared_beginning():
    # "Samira" is not the user's partner Samir (the crude five-letter stem matched them)
    assert made_up("Samir is now a paramedic, and he does what Samira was doing.", MARTA) \
        == ["Samira"]
    # a name's own forms are known: the possessive, a plural, the people of a place
    assert made_up("So Joost's teacher likes Samir's cooking, Marta.", MARTA) == []
    assert made_up("The Japanese team came.", "We went to Japan.") == []
    assert made_up("Some Parisian cafés.", "A week in Paris.") == []


def test_a_name_of_several_words_is_quoted_whole_in_the_answers_order():
    # "Which school does Joost go to?" → the invented title was quoted as two names, and the
    # invented number left out behind three names
    assert made_up('Joost is known as the "King of the Piano". He has been performing for '
                   "over 40 years and has toured Europe and North America.", MARTA) \
        == ["King of the Piano", "40", "Europe", "North America"]


def test_common_words_come_from_the_embedders_word_list():
    from hela_desktop.language import _common_words

    assert len(_common_words()) > 15_000  # the bundled all-MiniLM-L6-v2 vocabulary
    for w in ("Unfortunately", "Absolutely", "Swimming", "Sarah", "Hola"):
        assert facts.is_common_word(w), w
    for w in ("Siamira", "Athabak", "Kralingen", "Joost"):
        assert not facts.is_common_word(w), w


# ---- a stopped answer (`doubt.answer_doubt(stopped=True)`) --------------------------------

def test_a_stopped_answer_that_gives_the_old_value_is_doubted():
    """QA pass 28: Esc on "Tell me a long story about a bridge in Rotterdam." kept
    "…I'm training for the Rotterdam marathon in April of this year." beside the correction
    to October, and no line said to check it: a stopped answer was never checked."""
    from hela_desktop.doubt import answer_doubt
    from hela_desktop.events import Recall

    april = Recall(episode_id=4, score=0.5, text="I'm training for the Rotterdam marathon in April.",
                   extra={"superseded_by": 6, "older_than": 6})
    october = Recall(episode_id=6, score=0.5,
                     text="Correction: the marathon is in October, not April.")
    ask = "When is my marathon?"
    kept = "I'm training for the Rotterdam marathon in April of this"
    assert answer_doubt(ask, kept, [october, april], {4}, stopped=True) == {
        "kind": "older", "newer": 6, "older": 4}
    # what a stopped answer did not get to say proves nothing: no "uses none" and no
    # made-up mark for a half sentence, which a finished one gets
    told = Recall(episode_id=2, score=0.5, text="My son Joost is 9.")
    ask = "Which school does my son go to?"
    cut = "Joost goes to the Erasmus"
    assert answer_doubt(ask, cut, [told], set())["kind"] == "made_up"
    assert answer_doubt(ask, cut, [told], set(), stopped=True) is None


# ---- a correction confirmed under its answer (`knowledge.corrected_by`) -----------------

T0 = 1_780_000_000.0


def test_the_answer_to_a_correction_says_it_was_taken(make_assistant):
    """QA pass 28: "Oh, and I got something wrong earlier: Samir isn't a nurse anymore, he
    now works as a paramedic." was answered "You can't have Samir as a paramedic, he's now
    a nurse." and nothing said the correction was taken.  Through the real turn path and
    model: the line under the answer names what it corrects, live and stored alike."""
    from hela_desktop.sources import CORRECTION_NOTE, correction_note
    from hela_desktop.ui.window_status import stored_lines

    a = make_assistant()
    cid = a.new_conversation()
    nurse = "My partner Samir is a nurse."
    told = list(a.chat(nurse, cid, now=T0))[-1]
    list(a.chat("My son Joost is 9 and he plays the violin.", cid, now=T0 + 60))
    fix = ("Oh, and I got something wrong earlier: Samir isn't a nurse anymore, he now "
           "works as a paramedic.")
    done = list(a.chat(fix, cid, now=T0 + 120))[-1]
    assert done.corrects == [{"episode_id": told.episode_id, "text": nurse}]
    stored = a.store.messages(cid)[-1]
    assert stored["stats"]["corrects"] == done.corrects
    note = stored_lines(stored)[1].noted
    # and the memory it corrects, named under the answer, is named as older news
    from hela_desktop.sources import answer_sources
    lines = answer_sources([{"episode_id": 3, "text": nurse}, {"episode_id": 5, "text": "x"}],
                           used=[3], corrects=[{"episode_id": 3, "text": nurse}])
    assert lines.older == {3}
    assert note == correction_note(done.corrects) == CORRECTION_NOTE.format(
        old=f"“{nurse}”", it="it is")
    # news that corrects nothing, or a question, confirms nothing
    for said in ("I'm allergic to peanuts.", "Actually, is Samir still a nurse?"):
        done = list(a.chat(said, cid, now=T0 + 180))[-1]
        assert done.corrects == [] and "corrects" not in a.store.messages(cid)[-1]["stats"]
    # stored statistics may hold anything
    for junk in (None, "x", [1], [{"text": ""}], {"text": nurse}):
        assert correction_note(junk) == ""


def test_the_window_shows_the_correction_taken_under_a_stored_answer(qtbot, tmp_path):
    import pytest

    pytest.importorskip("pytestqt")
    from test_app_polish import _window
    from test_ui_app import _wait

    from hela_desktop.store import Store

    data = tmp_path / "data"
    with Store(data) as store:
        cid = store.add_conversation("Samir")
        store.add_message(cid, "user", "Correction: Samir isn't a nurse anymore, he's a paramedic.")
        store.add_message(cid, "assistant", "You can't have Samir as a paramedic.",
                          stats={"tokens": 8, "swaps": 0, "elapsed_s": 1.0, "memories": [],
                                 "corrects": [{"episode_id": 1,
                                               "text": "My partner Samir is a nurse."}]})
    w = _window(qtbot, data)
    w.open_conversation(cid)
    _wait(qtbot, lambda: "You can't have Samir" in w.chat.view.toPlainText(), 20)
    assert ("Noted as a correction of “My partner Samir is a nurse.”: it is kept, marked as "
            "older news.") in w.chat.view.toPlainText()
    w.close()


def test_edit_and_resend_says_a_forgotten_memory_stays_forgotten(make_assistant):
    """QA pass 28: resending an earlier message took back the later "Forget that I drive a
    Volvo." exchange from the chat, the only record of how to restore the memory, while the
    memory stayed deleted, and the dialog did not say so.  Through the real turn path (the
    app answers a request to forget itself, no model)."""
    from hela_desktop.session import Session
    from hela_desktop.ui.chat_edit import edit_label

    a = make_assistant()
    cid = a.new_conversation()
    list(a.chat("I drive a blue Volvo estate.", cid, now=T0))
    list(a.chat("My partner Samir is a nurse.", cid, now=T0 + 60))
    done = list(a.chat("Forget that I drive a Volvo.", cid, now=T0 + 120))[-1]
    assert done.forget and len(done.forget["deleted"]) == 1
    s = Session()
    s.messages = a.store.messages(cid)  # (what the window's session holds for the open chat)
    assert [s.forgotten_after(n) for n in range(4)] == [1, 1, 1, 0]  # (resending the request itself too)
    label = edit_label(2, s.forgotten_after(0))
    assert label.startswith("Your message. Resending it takes back the answer to it and the "
                            "2 later exchanges of this chat, with their memories. The 1 memory "
                            "deleted there at your request stays deleted (Memories ▸ Archive "
                            "restores it).")
    assert edit_label(1).endswith("with their memories:")
    assert "2 memories deleted there at your request stay deleted" in edit_label(3, 2)
    assert edit_label(0, 1).startswith("Your message. The 1 memory deleted by this request "
                                      "stays deleted")


# ---- a long message folded in the chat (`ui.chat_fold`) ----------------------------------

def test_a_long_message_is_folded_and_unfolds_on_a_click(qtbot):
    """QA pass 28: a 15,000-character paste was drawn whole, screens of it before the
    answer.  It shows its beginning and "Show all (N characters)"; the link, or a search
    for words only its hidden part says, shows it whole; Copy message copies it whole."""
    from PySide6 import QtCore, QtGui

    from hela_desktop.ui.chat import MessageView
    from hela_desktop.ui.chat_fold import fold_point

    long = " ".join(f"word{i}" for i in range(2500)) + " zebracrossing"
    assert len(long) > 15_000 and fold_point("short") is None
    assert fold_point("\n".join(["a line"] * 60)) is not None  # (many short lines too)
    view = MessageView()
    qtbot.addWidget(view)
    view.add_user("Hello there.")
    view.add_user(long)
    view.add_user(long.replace("zebracrossing", "pelican"))
    shown = view.toPlainText()
    assert "Hello there." in shown and f"Show all ({len(long):,} characters)" in shown
    assert "zebracrossing" not in shown and "word2499" not in shown and "word100 " in shown
    assert len(shown) < 4000
    view.copy_message(1)
    assert QtGui.QGuiApplication.clipboard().text() == long
    view.anchorClicked.emit(QtCore.QUrl("u:1"))  # the link
    shown = view.toPlainText()
    assert "zebracrossing" in shown and shown.count("Show all") == 1  # (the third stays)
    assert long in shown
    assert view.show_found("pelican")  # only its hidden part says it: shown whole
    assert "Show all" not in view.toPlainText()
    assert view.textCursor().selectedText() == "pelican"
    view.anchorClicked.emit(QtCore.QUrl("u:0"))  # (not folded: nothing happens)
    assert view.toPlainText().count("Hello there.") == 1
    # an unfolded message folds again (thirtieth pass: "Show all" could not be undone)
    assert view.toPlainText().count("Show less") == 2
    view.anchorClicked.emit(QtCore.QUrl("f:1"))
    shown = view.toPlainText()
    assert "zebracrossing" not in shown and "pelican" in shown
    assert shown.count("Show all") == 1 and shown.count("Show less") == 1
    view.anchorClicked.emit(QtCore.QUrl("f:1"))  # (folded already: nothing happens)
    assert view.toPlainText() == shown
    view.anchorClicked.emit(QtCore.QUrl("u:1"))
    assert long in view.toPlainText()


# ---- a request naming the people of the user's life (`gate`) ----------------------------

def test_a_request_naming_people_of_the_users_life_lets_their_memories_in(make_assistant):
    """QA pass 28: "Can you help me plan a week of marathon training around Joost's violin
    lessons and Samir's shifts?" let in only the marathon (cosine 0.63) and held "My son
    Joost is 9 and he plays the violin." (0.33) as too far below it.  A memory naming whom
    the message names is weighed against the best memory naming the same."""
    from hela_desktop.events import MemoriesEvent

    a = make_assistant()
    cid = a.new_conversation()
    told = {}
    for i, said in enumerate(["My son Joost is 9 and he plays the violin.",
                              "My partner Samir is a nurse.",
                              "I'm training for the Rotterdam marathon in April.",
                              "I'm allergic to peanuts."]):
        told[said.split()[1]] = list(a.chat(said, cid, now=T0 + 60 * i))[-1].episode_id
    ask = ("Can you help me plan a week of marathon training around Joost's violin lessons "
           "and Samir's shifts?")
    events = list(a.chat(ask, a.new_conversation(), now=T0 + 600))
    first = next(e for e in events if isinstance(e, MemoriesEvent))
    got = {m.episode_id: m for m in first.memories}
    assert {told["son"], told["partner"], told["training"]} <= set(got), got
    assert got[told["son"]].extra.get("named") == ["joost"]
    assert told["allergic"] not in got  # (nothing names it: the bar of a request)


# ---- QA pass 29 (Priya) ----------------------------------------------------------------

def test_an_instruction_about_the_answer_tells_nothing():
    """"Is our Lisbon trip in May? Answer in one short sentence." and "Start your reply
    with the name of…" were read as statements: listed under "What do you know about me?",
    found as statements by a search, let into prompts."""
    for asked in ("Is our Lisbon trip in May? Answer in one short sentence.",
                  "Who teaches Asha swimming? Just give me the name.",
                  "Start your reply with the name of my husband.", "Keep it short.",
                  "Use bullet points.", "Only answer yes or no."):
        assert not facts.is_statement(asked), asked
    for told in ("I started a new job.", "Started a new job today!", "So I moved to Leeds.",
                 "And my dog is called Pixel.", "Then we went to Lisbon in June."):
        assert facts.is_statement(told), told


def test_not_any_more_says_what_is_no_longer_so():
    assert facts.negated("Oh, I should say: Tom isn't a teacher any more, he became a "
                         "headteacher.") == ["teach"]
    assert facts.negated("Samir isn't a nurse anymore, he now works as a paramedic.") == ["nurs"]
    assert facts.negated("Actually the trip is in June, not May.") == ["may"]  # (as before)


def test_the_old_value_is_found_by_what_the_correction_denies():
    """"What's my sister called?" → "…your husband…" was marked as older news beside "Tom
    isn't a teacher any more": with nothing read as denied, "husband" was what only the
    old memory said.  Now the teacher is what is out of date."""
    from hela_desktop.older_news import gives_older

    old = "My husband Tom is a teacher."
    new = "Oh, I should say: Tom isn't a teacher any more, he became a headteacher."
    assert not gives_older("What's my sister called?", "Your husband loves the wedding.", old, new)
    assert gives_older("What does Tom do?", "Tom is a teacher.", old, new)
    assert gives_older("Is Tom still a teacher?", "Tom's name is Tom. He loves to teach.", old, new)
    assert not gives_older("What does Tom do?", "Tom is a headteacher now.", old, new)


def test_a_yes_or_no_question_among_other_sentences_is_one():
    """"Is our Lisbon trip in May? Answer in one short sentence." → "Your trip to Lisbon in
    May is a fantastic idea." went unmarked: the message did not end with "?"."""
    from hela_desktop.older_news import gives_older

    old, new = "We're planning a trip to Lisbon in May.", "Actually the trip is in June, not May."
    yes = "Your trip to Lisbon in May is a fantastic idea."
    assert gives_older("Is our Lisbon trip in May? Answer in one short sentence.", yes, old, new)
    assert not gives_older("Is our Lisbon trip in May? Answer in one short sentence.",
                           "No, it is in June.", old, new)


def test_a_bulleted_lists_numbering_and_the_users_own_names_are_not_made_up():
    assert made_up("Your family:\n• 3. Asha's brother\n- 4. My own daughter", "Asha") == []
    answer = "Tom has become a headteacher, Priya, and Rachel teaches Asha."
    assert made_up(answer, "Tom is a headteacher. Asha swims.") == ["Priya", "Rachel"]
    assert made_up(answer, "Tom is a headteacher. Asha swims.", {"priya"}) == ["Rachel"]


def test_the_names_the_user_writes_are_the_engines(make_assistant):
    a = make_assistant()
    cid = a.new_conversation()
    list(a.chat("Hi! I'm Priya, a pharmacist in Leeds.", cid, now=T0))
    list(a.chat("My husband Tom is a teacher.", cid, now=T0 + 60))
    assert {"priya", "leeds", "tom"} <= a.engine.user_names()
    assert "pharmacist" not in a.engine.user_names()


def test_a_number_a_correction_denies_is_what_is_out_of_date():
    """"Asha turned 7 last week, so she's not 6 any more." made the swimming lessons
    older news: "Does Asha still do swimming lessons?" → "Yes, Asha still does swimming
    lessons." was marked.  The number is what the correction denies."""
    from hela_desktop.older_news import gives_older

    assert facts.negated("Asha turned 7 last week, so she's not 6 any more.") == ["6"]
    old = "My daughter Asha is 6 and she takes swimming lessons."
    new = "Asha turned 7 last week, so she's not 6 any more."
    assert not gives_older("Does Asha still do swimming lessons?",
                           "Yes, Asha still does swimming lessons.", old, new)
    assert gives_older("How old is Asha?", "Asha is 6.", old, new)
    assert not gives_older("How old is Asha?", "Asha is 7.", old, new)


# ---- a chat's Markdown export keeps the lines under each answer (`chat_export`) ----------

def test_the_markdown_export_keeps_the_lines_under_an_answer_and_imports_without_them(
        tmp_path, embedder):
    """QA pass 29: "Export chat as Markdown" dropped every "Check this answer", "Noted as
    a correction" and "Used from your memories" line.  They follow the answer, after a
    mark no Markdown viewer shows; the app's own import leaves them out of the answer."""
    from test_importers import episodes, import_twice

    from hela_desktop.chat_export import NOTES_MARK, answer_notes, messages_markdown

    t = 1_764_590_400.0
    nurse = "My partner Samir is a nurse."
    fix = "Samir isn't a nurse anymore, he works as a paramedic."
    msgs = [
        {"role": "user", "content": fix, "created_at": t},
        {"role": "assistant", "content": "You can't have Samir as a paramedic.", "created_at": t + 60,
         "stats": {"corrects": [{"episode_id": 1, "text": nurse}],
                   "memories": [{"episode_id": 1, "text": nurse, "kind": "episode"}],
                   "drew_on": [1]}},
        {"role": "user", "content": "What is my sister called?", "created_at": t + 120},
        {"role": "assistant", "content": "Your sister is *Siamira*.", "created_at": t + 180,
         "stats": {"doubt": {"kind": "made_up", "words": ["Siamira"], "unused": True},
                   "memories": [{"episode_id": 1, "text": nurse, "kind": "episode"}],
                   "drew_on": []}},
        {"role": "user", "content": "Thanks!", "created_at": t + 240},
        {"role": "assistant", "content": "You're welcome.", "created_at": t + 300,
         "stats": "junk"},
    ]
    text = messages_markdown("Samir", msgs)
    assert text.count(NOTES_MARK) == 2  # (the third answer has nothing under it)
    assert (f"> *Noted as a correction of “{nurse}”: it is kept, marked as older news.*\n"
            f"> *Used from your memories: #1 “{nurse}” (older news)*") in text
    assert "> *Check this answer: it uses none of the memories recalled for it, and “Siamira”" \
        in text and f"> *Recalled, not used in the answer: #1 “{nurse}”*" in text
    assert answer_notes(None) == answer_notes({"memories": "x"}) == []
    f = tmp_path / "samir.md"
    f.write_text(text, encoding="utf-8")
    store, _ = import_twice(tmp_path, f, embedder)
    assert [(e["user"], e["reply"]) for e in episodes(store)] == [
        (fix, "You can't have Samir as a paramedic."),
        ("What is my sister called?", "Your sister is *Siamira*."),
        ("Thanks!", "You're welcome.")]
    store.close()


def test_a_long_label_wraps_in_a_text_prompt(qtbot):
    """QA pass 29: Edit and resend opened 1,270 px wide: its label, longer now, did not wrap."""
    from hela_desktop.ui.chat_edit import edit_label
    from hela_desktop.ui.text_dialog import text_prompt

    d = text_prompt(None, "Edit and resend", edit_label(3, 1), "How old is my son Joost?",
                    "Resend and take back")
    qtbot.addWidget(d)
    d.show()
    qtbot.waitExposed(d)
    assert d.width() <= 600


def test_a_chat_export_is_owner_only_whatever_the_umask(tmp_path):
    """QA pass 29b: the chat's Markdown export was 0644 under umask 022, though the privacy
    notes say every export is owner-only."""
    import os
    import stat

    from hela_desktop.chat_export import write_markdown

    old = os.umask(0o022)
    try:
        out = write_markdown("Lena", [{"role": "user", "content": "My cat Mochi is 3.",
                                       "created_at": 1_764_590_400.0}], tmp_path / "chat.md")
    finally:
        os.umask(old)
    assert stat.S_IMODE(out.stat().st_mode) == 0o600
    assert "My cat Mochi is 3." in out.read_text(encoding="utf-8")
