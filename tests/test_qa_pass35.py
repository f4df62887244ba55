"""What the thirty-fifth pass (and the items pass 34 left open) found, fixed."""
from __future__ import annotations

import numpy as np

from hela_desktop.session import unanswered_line
from hela_desktop.store import Store
from hela_desktop.turn import kept_unanswered


def _vec(seed: int) -> np.ndarray:
    v = np.random.default_rng(seed).standard_normal(384).astype(np.float32)
    return v / np.linalg.norm(v)


def test_the_line_under_a_message_left_unanswered_says_why():
    """QA pass 34b: once the next message was sent, a stopped message, or one the app was
    killed while answering, stood unanswered in the middle of the chat with nothing saying
    why."""
    assert unanswered_line({"interrupted": True}).startswith(
        "Stopped before the answer began: no answer, and no memory was made")
    assert unanswered_line({"episode_id": 4}) == (
        "Left without an answer; its words are kept among your memories.")
    assert unanswered_line({"episode_id": 4, "forgotten": True}) == "Left without an answer."
    assert unanswered_line({"episode_id": None}) == "Left without an answer."
    assert kept_unanswered("My cat Biscuit is four.")
    assert not kept_unanswered("Forget that my cat is four.")
    assert not kept_unanswered("What do you know about me?")


def test_the_chat_says_why_a_message_stands_unanswered_after_the_next_one(qtbot, tmp_path):
    """Drawn from the store (a chat reopened) and live (the next message sent)."""
    from test_app_polish import _window

    d = tmp_path / "data"
    with Store(d) as s:
        cid = s.add_conversation("Biscuit")
        s.add_message(cid, "user", "My favourite author is Jose Saramago.", interrupted=True)
        orphan = s.add_message(cid, "user", "Biscuit sleeps on the radiator.")
        s.link_message_episode(orphan, s.add_episode("Biscuit sleeps on the radiator.", "",
                                                     _vec(1), conversation_id=cid))
        s.add_message(cid, "user", "Forget that Biscuit is four.")
        s.add_message(cid, "user", "What is my cat called?")
        s.add_message(cid, "assistant", "Biscuit.", stats={"tokens": 3, "swaps": 0, "elapsed_s": 1.0})
        s.add_message(cid, "user", "Paloma starts school in September.")
    w = _window(qtbot, d)
    view = w.chat.view
    w.open_conversation(cid)
    qtbot.waitUntil(lambda: "Paloma starts school" in view.toPlainText(), timeout=20_000)
    lines = view.toPlainText().splitlines()

    def after(said: str) -> str:
        at = next(i for i, t in enumerate(lines) if said in t)
        return next(t for t in lines[at + 1:] if t.strip())

    assert after("Jose Saramago").startswith("Stopped before the answer began: no answer, and no memory")
    assert after("radiator") == "Left without an answer; its words are kept among your memories."
    assert after("Biscuit is four") == "Left without an answer."  # no memory: a request to forget
    assert after("What is my cat called?") != "Left without an answer."  # answered
    assert after("Paloma starts school").startswith("No answer yet: press Ctrl+R")
    # live: another message instead of Ctrl+R; the last one's note changes to the quiet line
    view.add_user("And my dog is called Pepper.")
    text = view.toPlainText()
    assert "No answer yet" not in text
    lines = text.splitlines()
    assert after("Paloma starts school") == "Left without an answer; its words are kept among your memories."
    # an answer to it (Ctrl+R) takes the notice away with nothing in its place
    view.add_notice("No answer yet: press Ctrl+R.", passing=True, after="Left without an answer.")
    view.begin_assistant()
    assert "No answer yet" not in view.toPlainText()
    assert view.toPlainText().count("Left without an answer.") == 1  # the forget request's only
    w.close()


def test_a_name_question_answered_with_a_pets_or_another_persons_name_alone_is_doubted(
        make_assistant):
    """QA pass 34b: "What is my sister called?" answered "Biscuit, my cat." was read as said
    to Biscuit, and a pet's name is no person's to `people_in`: nothing was marked. A bare
    name opening the answer is the name given; the user's own name set off by a comma is
    still said to them."""
    from test_qa_pass34 import _told

    from hela_desktop.sources import doubt_note

    told = ("We have a cat called Biscuit.", "My sister Renata is a nurse.",
            "My name is Marisol and I work as a librarian in Porto.")
    doubt = _told(make_assistant, told, len(told))
    for said in ("Biscuit, my cat.", "Biscuit.", "It's Biscuit!", "Your sister's name is Biscuit."):
        got = doubt("What is my sister called?", said)
        assert got == {"kind": "misnamed", "asked": "your sister", "said": "Biscuit",
                       "of": "your cat"}, said
    assert doubt_note(got, []) == ("Check this answer: it calls your sister “Biscuit”, "
                                   "the name of your cat.")
    # a pronoun goes on about the sister (QA pass 35b: "She's a cat named Pip.")
    got = doubt("What is my sister called?", "Your sister is a very special one. She's a cat "
                "named Biscuit.")
    assert got == {"kind": "misnamed", "asked": "your sister", "said": "Biscuit", "of": "your cat"}
    assert doubt("What is my cat called?", "Renata.") == {
        "kind": "misnamed", "asked": "your cat", "said": "Renata", "of": "your sister"}
    assert doubt("What is my sister called?", "Marisol.")["of"] == "yourself"
    for right in ("Renata, of course.", "Marisol, your sister is called Renata.",
                  "Biscuit is your cat; your sister is Renata."):
        assert doubt("What is my sister called?", right) is None, right
    got = doubt("What is my sister called?", "Marisol, I don't know.")
    assert (got or {}).get("kind") != "misnamed"  # said to the user


def test_an_answer_in_the_users_voice_about_their_husband_is_checked_too(make_assistant):
    """QA pass 35: "What does my husband do for a living?" answered "My husband is a sound
    engineer at a radio station." (the user's own job) went unmarked, where "Your husband's
    job is …" was marked: the "my" read the sentence as about the user."""
    told = ("My name is Anouk and I work as a sound engineer at a radio station.",
            "My husband Dariusz is a primary school teacher.")
    doubt = _told_of(make_assistant, told)
    for said in ("You've got it. My husband is a sound engineer at a radio station.",
                 "Your husband is a sound engineer at a radio station."):
        got = doubt("What does my husband do for a living?", said)
        assert got["kind"] == "misattributed" and got["asked"] == "your husband", said
        assert got["said"] == told[0]
    assert doubt("What does my husband do for a living?",
                 "My husband is a primary school teacher.") is None


def test_a_request_for_ideas_is_told_softly_that_it_uses_no_memory():
    """QA pass 35: "Can you suggest a quick snack to bring to my orchestra rehearsal?" was
    marked "it uses none of the memories recalled for it, so it is not from what you told
    me": an idea need not be from what was told.  But what was told may matter ("…anything
    my skin reacts badly to that I should list?" beside a latex allergy, `bench personal`),
    so the line stays, softer."""
    from hela_desktop.doubt import answer_doubt
    from hela_desktop.events import Recall
    from hela_desktop.sources import UNUSED_IDEAS_NOTE, doubt_note

    mems = [Recall(episode_id=1, score=1.0,
                   text="I play cello in an amateur orchestra every Tuesday evening.")]

    def doubt(ask, said):  # (no memory used by the answer)
        return answer_doubt(ask, said, mems, set(), None, known="")

    for ask in ("Can you suggest a quick snack to bring to my orchestra rehearsal?",
                "List three high-protein snacks I could take to rehearsal."):
        got = doubt(ask, "Try hummus with carrot sticks, or a boiled egg.")
        assert got == {"kind": "unused", "ideas": True}, ask
        assert doubt_note(got, []) == UNUSED_IDEAS_NOTE == (
            "Check this answer: it uses none of the memories recalled for it; what you told "
            "me may matter here.")
    # a question for what was told keeps the plain line, with what the question points at
    # (since 0.45, QA pass 53a)
    assert doubt("What instrument do I play?", "Probably the drums, as a hobby.") == {
        "kind": "unused", "memory": 1,
        "said": "I play cello in an amateur orchestra every Tuesday evening."}


def _told_of(make_assistant, told):
    from test_qa_pass34 import _told

    return _told(make_assistant, told, len(told))


def test_a_question_for_when_is_doubted_for_a_month_or_day_no_memory_gives():
    """QA pass 35: "Which month is our Lisbon trip?" answered "…a summer trip to Lisbon in
    June." (May told, April before) went unmarked: months and weekdays never counted.  For
    a question that asks when, one no memory (nor the message) gives does; "May I…" is no
    month, and "PM" after a time is no name."""
    from hela_desktop.doubt import answer_doubt
    from hela_desktop.events import Recall

    mems = [Recall(episode_id=1, score=1.0, text="We are planning a family trip to Lisbon in April."),
            Recall(episode_id=2, score=1.0, text="Actually the Lisbon trip is in May, not April.")]

    def doubt(ask, said):
        return answer_doubt(ask, said, mems, {2}, None, known="")

    got = doubt("Which month is our Lisbon trip?", "We are planning a summer trip to Lisbon in June.")
    assert got == {"kind": "made_up", "words": ["June"], "unused": False}
    assert doubt("Which month is our Lisbon trip?", "The Lisbon trip is in May.") is None
    assert doubt("When is our Lisbon trip?", "May I say: it is in May, on a Friday.")["words"] == ["Friday"]
    # a question that does not ask when leaves months alone, as before
    assert doubt("Where are we going on our trip in May?", "To Lisbon, in May or June.") is None
    # a language is no made-up name (QA pass 35b: "…consistency in English language writing.")
    assert doubt("When is our Lisbon trip?", "In May; pack an English phrasebook.") is None
    # "PM" is part of a time, not a made-up name
    got = doubt("When is our Lisbon trip?", "It is in May, leaving at 2:00 PM.")
    assert got == {"kind": "made_up", "words": ["2:00"], "unused": False}


def test_an_export_from_the_window_says_the_settings_stay_behind(make_assistant, tmp_path):
    """QA pass 35: on a new computer the settings and the theme were gone, and neither the
    export's report nor Getting started said they would be."""
    from pathlib import Path
    from types import SimpleNamespace

    from hela_desktop.ui.getting_started import GUIDE
    from hela_desktop.ui.worker_ops import DEFAULTS_STAY, STAYS_BEHIND, _export

    a = make_assistant()
    list(a.chat("My tortoise is called Pimento.", a.new_conversation()))
    w = SimpleNamespace(progress=SimpleNamespace(emit=lambda *_: None))  # (the op's signal)
    said = _export(w, a, str(tmp_path / "mine.hela"))
    # (no setting changed yet: no settings file to copy, QA pass 38 P20)
    assert said.startswith("Exported 1 memory") and said.endswith(DEFAULTS_STAY)
    a.settings.save(Path(a.store.path).parent)
    said = _export(w, a, str(tmp_path / "mine.hela"))
    assert said.endswith(STAYS_BEHIND) and "copy settings.json" in said
    assert not _export(w, a, str(tmp_path / "mine.md")).endswith(STAYS_BEHIND)  # (a reading copy)
    guide = " ".join(GUIDE.split())
    assert "not your settings" in guide and "archive or delete" not in guide


def test_forgettings_reasons_read_as_time():
    """QA pass 35: `forget --dry-run` said "not accessed for 0 days (> 0)" (a label cut
    mid-word, "…to my orchestra rehea", now ends at a word: tests/test_forgetting.py)."""
    from hela_desktop.forgetting import _span

    assert [_span(d) for d in (90.4, 1.0, 0.25, 1 / 24, 0.01, 0.0)] == [
        "90 days", "1 day", "6 hours", "1 hour", "under an hour", "0 days"]


def test_a_timeline_row_says_its_colour_is_the_memorys_own(qtbot):
    """QA pass 35: a memory green in the graph (its topic) was navy in the timeline, with
    nothing saying why; a row's tooltip now does."""
    from PySide6 import QtCore, QtGui, QtWidgets

    from hela_desktop.ui.timeline import LABEL_W, OWN_COLOUR, TimelineView

    t = TimelineView()
    qtbot.addWidget(t)
    t.resize(600, 200)
    t.show()
    t.set_answer([(0, 10, [6])], 10, "Answer")
    r = t.plot_rect()
    at = QtCore.QPointF(LABEL_W / 2, r.top() + t._row_h() / 2)
    t.mouseMoveEvent(QtGui.QMouseEvent(QtCore.QEvent.Type.MouseMove, at, t.mapToGlobal(at),
                                       QtCore.Qt.MouseButton.NoButton,
                                       QtCore.Qt.MouseButton.NoButton,
                                       QtCore.Qt.KeyboardModifier.NoModifier))
    assert QtWidgets.QToolTip.text().startswith("#6 ") and OWN_COLOUR in QtWidgets.QToolTip.text()


def test_the_why_recalled_panel_says_your_husband_not_my_husband_capitalised():
    """QA pass 35: "Close enough to a message that names “My husband” to be used"."""
    from hela_desktop.gate import explain

    said = explain({"gate": "evidence", "similarity": 0.4, "bar": 0.2,
                    "named": ["my husband", "dariusz"]})[0]
    assert said == ("Close enough to a message that names your husband and “Dariusz” to be "
                    "given to the model (similarity 0.40, needed 0.20).")


def test_an_answer_from_another_memory_than_the_one_the_question_points_at_is_doubted():
    """QA pass 35: "What does Lotte do on Saturday mornings?" answered "Lotte loves drawing
    horses.", the only memory saying "Saturday" (her swimming lessons) passed over, and the
    horses listed as used, nothing marked."""
    from hela_desktop.doubt import answer_doubt
    from hela_desktop.events import Recall
    from hela_desktop.passed_over import passed_over
    from hela_desktop.sources import doubt_note

    mems = [Recall(episode_id=1, score=1.0, text="Lotte takes swimming lessons every Saturday morning."),
            Recall(episode_id=2, score=1.0, text="Lotte loves drawing horses."),
            Recall(episode_id=3, score=1.0, text="My daughter Lotte is 7 years old.")]
    ask = "What does my daughter Lotte do on Saturday mornings?"
    got = answer_doubt(ask, "Lotte loves drawing horses.", mems, {2}, None, known="")
    # ("mornings" is the memory's "morning" in another form, 0.28)
    assert got == {"kind": "passed_over", "asked": ["Saturday", "mornings"], "memory": 1,
                   "said": mems[0].text, "instead": 2, "other": mems[1].text}
    assert doubt_note(got, []) == (
        "Check this answer: only “Lotte takes swimming lessons every Saturday morning.” speaks of "
        "“Saturday” and “mornings”, and it answers from “Lotte loves drawing horses.” instead.")
    # an answer from that memory, one from none, one the question's words cannot place
    for said in ("She takes swimming lessons.", "On Saturday mornings she swims, and she "
                 "loves drawing horses too."):
        assert answer_doubt(ask, said, mems, {1}, None, known="") is None, said
    assert passed_over(ask, "Lotte relaxes at home.", mems) is None  # (draws on none)
    assert passed_over("What does my daughter Lotte like?", "Lotte loves drawing horses.",
                       mems) is None  # ("like": no memory holds it)
    assert passed_over("How old is Lotte and what does she do on Saturdays?",
                       "She loves drawing horses.", mems) is None  # (two memories asked of)
    # the question's own words, in another form, are not the answer's (QA pass 35b)
    for said in ("She loves drawing horses and paints them for hours on a Saturday morning.",
                 "Lotte has a special day every Saturday morning when she loves drawing horses."):
        assert passed_over(ask, said, mems)["instead"] == 2, said
    # a memory marked older news is no one's to pass over: the newer may rightly answer
    old = [Recall(episode_id=1, score=1.0, text=mems[0].text, extra={"superseded_by": 2}),
           *mems[1:]]
    assert passed_over(ask, "Lotte loves drawing horses.", old) is None
    # a request for ideas is not a question for what was told
    assert answer_doubt("Any ideas for my daughter Lotte on Saturday mornings?",
                        "She could draw horses.", mems, {2}, None, known="") is None


def test_zooming_the_graph_out_stops_at_four_times_the_whole_graph(qtbot, tmp_path):
    """QA pass 35: zooming out had no floor: the graph shrank to one blob of dots."""
    from test_app_qa_pass29 import _view
    from test_ui_app import fill_store

    with Store(tmp_path / "d") as store:
        fill_store(store, 12)
        view = _view(qtbot, store, width=700)
    view.settle(100)
    view.fit(user=True)
    (x0, x1), (y0, y1) = view.vb.viewRange()
    for _ in range(12):  # a dozen turns of the wheel out
        view.vb.scaleBy((2.0, 2.0))
    (a0, a1), (b0, b1) = view.vb.viewRange()
    assert a1 - a0 <= 4 * (x1 - x0) + 1e-6 and b1 - b0 <= 4 * (y1 - y0) + 1e-6
    assert a1 - a0 > 2 * (x1 - x0)  # (it does zoom out, up to there)


def test_a_name_all_the_memories_hold_tells_which_was_used_only_when_nothing_else_does():
    """QA pass 35: "Lotte is 7 years old." was said to use "Lotte loves drawing horses." and
    "Lotte takes swimming lessons…" too, sharing only her name: the line over-claimed."""
    from hela_desktop.edges import used_by_answer

    mems = [(1, "Lotte takes swimming lessons every Saturday morning."),
            (2, "Lotte loves drawing horses."), (3, "My daughter Lotte is 7 years old.")]
    assert used_by_answer(mems, "What is my daughter's name and how old is she?",
                          "Lotte is 7 years old.") == {3}
    assert used_by_answer(mems, "What does my daughter do on Saturday mornings?",
                          "Lotte loves drawing horses.") == {2}
    # the name alone, and nothing else: it is what tells
    assert used_by_answer(mems, "What is my daughter's name?", "Her name is Lotte.") == {1, 2, 3}
    # a word two of three hold ("Saturday", here "Saturdays") tells neither of them: the
    # judo was used, not the swimming
    two = [*mems[:2], (4, "Lotte has judo on Saturday afternoons.")]
    assert used_by_answer(two, "What does my daughter do?",
                          "Lotte has judo on Saturdays, and loves horses.") == {2, 4}


def test_hovering_a_link_in_the_graph_says_what_it_joins_and_its_weight(qtbot, tmp_path):
    """QA pass 35: hovering a link showed nothing; its weight could only be found by
    choosing one end and reading its neighbours."""
    from PySide6 import QtCore
    from test_app_qa_pass29 import _view
    from test_ui_app import fill_store

    from hela_desktop.ui.graph_model import edge_words

    with Store(tmp_path / "d") as store:
        fill_store(store, 8)
        view = _view(qtbot, store, width=700)
    view.settle(100)
    view.fit(user=True)
    qtbot.wait(50)
    rows = [r for r in view.edge_rows if len(r)]
    assert rows, "the graph draws links"
    row = int(rows[0][0])
    a, b = view.xy[view.data.src[row]], view.xy[view.data.dst[row]]
    mid = QtCore.QPointF(float((a[0] + b[0]) / 2), float((a[1] + b[1]) / 2))
    scene = view.vb.mapViewToScene(mid)
    if view.memory_at(scene) is not None:  # (a dot on the middle: a quarter of the way)
        scene = view.vb.mapViewToScene(QtCore.QPointF(float(a[0] * 0.75 + b[0] * 0.25),
                                                      float(a[1] * 0.75 + b[1] * 0.25)))
    view._on_scene_move(scene)
    said = view.plot.toolTip()
    assert view.edge_at(scene) is not None and said.startswith("Link #"), said
    ids = sorted(int(view.data.ids[i]) for i in (view.data.src[row], view.data.dst[row]))
    got = view.edge_at(scene)
    assert said == edge_words(view.data, got)
    assert "made when written" in said or "learned" in said or "weight" in said
    if got == row:
        assert said.startswith(f"Link #{ids[0]} – #{ids[1]}:") or said.startswith(
            f"Link #{ids[1]} – #{ids[0]}:")
    # away from every link and dot: no tooltip
    view._on_scene_move(view.vb.mapViewToScene(QtCore.QPointF(1e6, 1e6)))
    assert view.plot.toolTip() == ""


def test_a_links_words_give_its_two_parts():
    from hela_desktop.ui.graph_model import GraphData, edge_near, edge_words

    snap = {"nodes": [{"id": 4, "label": "My dog Pixel is a beagle."},
                      {"id": 9, "label": "Pixel loves long walks."},
                      {"id": 12, "label": "I work as a nurse."}],
            "edges": [(4, 9, 0.52), (9, 12, 0.3)], "learned": {(4, 9): 0.02}}
    d = GraphData.from_snapshot(snap)
    assert edge_words(d, 0) == ("Link #4 – #9: My dog Pixel is a beagle. – Pixel loves long "
                                "walks.\nmade when written 0.50 · learned 0.02")
    assert edge_words(d, 1).endswith("\nmade when written 0.30")
    # the nearest segment within 4 pixels (a pixel of 0.1 view units: 0.4 units)
    xy = np.array([[0.0, 0.0], [10.0, 0.0], [10.0, 10.0]])
    rows = np.array([0, 1])
    assert edge_near(xy, d.src, d.dst, rows, (5.0, 0.3), (0.1, 0.1)) == 0
    assert edge_near(xy, d.src, d.dst, rows, (9.8, 5.0), (0.1, 0.1)) == 1
    assert edge_near(xy, d.src, d.dst, rows, (5.0, 1.0), (0.1, 0.1)) is None


def test_follow_the_system_after_dark_takes_the_systems_look_again(qtbot, tmp_path):
    """QA pass 35b: View ▸ Appearance ▸ Follow the system right after Dark stayed dark on a
    light desktop: with no colour scheme named by the desktop, the app read its own (dark)
    palette as the system's."""
    from PySide6 import QtCore, QtGui
    from test_app_polish import _window

    from hela_desktop.ui import theme

    w = _window(qtbot, tmp_path / "data")
    w.theme_actions["dark"].trigger()
    assert w.dark
    w.theme_actions["system"].trigger()
    system = theme.system_is_dark()
    assert theme._PLATFORM_DARK and w.dark == system
    lightness = QtGui.QGuiApplication.palette().color(QtGui.QPalette.ColorRole.Window).lightness()
    assert (lightness < 128) == system
    hints = QtGui.QGuiApplication.styleHints()
    if hints.colorScheme() == QtCore.Qt.ColorScheme.Unknown:  # (offscreen, Xvfb: none named)
        assert system == theme._PLATFORM_DARK[0]
        if QtGui.QGuiApplication.platformName() == "offscreen":
            assert not w.dark  # (the offscreen platform's own palette is light)
    w.close()


def test_one_everyday_word_shared_with_the_users_own_memory_is_no_misattribution(
        make_assistant):
    """QA pass 35b: "Your wife is a veterinarian, and she loves to work outdoors." was
    marked "it says of her what you told me of yourself: “My name is Bram and I work as a
    bus driver…”" over the one word "work"."""
    told = ("My name is Bram and I work as a bus driver for Arriva.",
            "My wife Liesel is a veterinarian.")
    doubt = _told_of(make_assistant, told)
    ask = "What does my wife like to do on weekends?"
    assert doubt(ask, "Your wife is a veterinarian, and she loves to work outdoors.") is None
    got = doubt(ask, "Your wife works as a bus driver on weekends.")  # (two words: a fact)
    assert got["kind"] == "misattributed" and got["memory"] == 1
    got = doubt(ask, "Your wife drives for Arriva.")  # (a name: a fact)
    assert got["kind"] == "misattributed" and got["words"] == ["Arriva"]


def test_an_answer_that_denies_the_new_value_gives_older_news():
    """QA pass 35b: "The month you're referring to is in March, not April." (April the
    correction's month) was not marked older news: its "not" read as putting March aside."""
    from hela_desktop.older_news import gives_older

    old, new = "Our trip to Krakow is in March.", "Actually the Krakow trip is in April, not March."
    ask = "Which month is our Krakow trip?"
    assert gives_older(ask, "The month you're referring to is in March, not April.", old, new)
    assert not gives_older(ask, "Your Krakow trip is in April, not March.", old, new)
    assert gives_older(ask, "Your Krakow trip is in March.", old, new)
    assert not gives_older(ask, "Your Krakow trip is in April.", old, new)
