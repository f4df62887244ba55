"""What the thirty-fourth QA pass (and the items pass 33 left open) found, fixed."""
from __future__ import annotations

import pytest
from PySide6 import QtCore, QtGui

from hela_desktop.knowledge import support


def test_a_sentence_about_a_thing_vouches_only_for_an_item_that_names_it():
    """An idle pass distilled "The user moves to Thursday." from "The dentist moved to
    Thursday." (QA pass 33): the move was the dentist's, not the user's."""
    said = ["The dentist moved to Thursday.", "The kids love pizza.",
            "The new job starts in May.", "I love the sea."]
    assert support("The user moves to Thursday.", said) == 0.0
    assert support("The user's dentist moved to Thursday.", said) == 1.0
    assert support("The user loves pizza.", said) == 0.0
    assert support("The user's kids love pizza.", said) == 1.0
    # a word that only says which thing ("new") is passed over to the thing itself
    assert support("The user starts a new job in May.", said) == 1.0
    assert support("The user starts in May.", said) == 0.0
    # "the" inside a sentence about the user changes nothing
    assert support("The user loves the sea.", said) == 1.0


T0 = 1_780_000_000.0


def _told(make_assistant, told, recalled):
    """An assistant told `told` in one chat, and the doubt it has of a reply to a message,
    its first `recalled` memories recalled (the engine's own reading of the people)."""
    from hela_desktop.doubt import answer_doubt
    from hela_desktop.events import Recall

    a = make_assistant()
    cid = a.new_conversation()
    for k, t in enumerate(told):
        list(a.chat(t, cid, now=T0 + k))
    e = a.engine
    mems = [Recall(episode_id=k + 1, score=1.0, text=t) for k, t in enumerate(told[:recalled])]
    return lambda message, said: answer_doubt(message, said, mems, {1}, e.people_in,
                                              known="", user_names=e.user_names())


def test_a_question_for_a_name_answered_with_another_persons_name_is_doubted(make_assistant):
    """QA pass 33b: "What is my dog called?" was answered "The correct title of your dog's
    name is Felix." (Felix is the son), the dog's memory listed as used and nothing marked.
    The people of the user's life are the engine's own reading (`people_in`)."""
    from hela_desktop.sources import doubt_note

    told = ("My dog Biscuit is a five-year-old beagle.", "My son Felix is nine.",
            "My sister Ana lives in Lisbon.")
    check = _told(make_assistant, told, len(told))

    def doubt(ask, said):
        return check(ask, said)

    got = doubt("What is my dog called?", "The correct title of your dog's name is Felix.")
    assert got == {"kind": "misnamed", "asked": "your dog", "said": "Felix", "of": "your son"}
    assert doubt_note(got, []) == ("Check this answer: it calls your dog “Felix”, the name "
                                   "of your son.")
    assert doubt("What's my sister's name?", "Your sister is called Felix.")["of"] == \
        "your son"
    # their own name, even beside another's, or no other person's name: no such doubt
    for said in ("Your dog is called Biscuit.", "Your dog Biscuit loves Felix.",
                 "Your dog is called Rex."):
        assert (doubt("What is my dog called?", said) or {}).get("kind") != "misnamed"
    # not a question for a name: what the dog does with the son is no misnaming
    assert (doubt("What does my dog like?", "Your dog likes Felix.") or {}).get("kind") \
        != "misnamed"
    # a stored doubt without what its note needs says nothing; without whose name, it
    # still warns
    assert doubt_note({"kind": "misnamed", "asked": "your dog"}, []) == ""
    assert doubt_note({"kind": "misnamed", "asked": "your dog", "said": "Felix"}, []) == (
        "Check this answer: it calls your dog “Felix”, the name of someone else you told "
        "me of.")


def test_a_reply_that_puts_a_name_from_another_memory_with_the_one_told_of_is_doubted(
        make_assistant):
    """The reply to "My mum Grace lives in Bradford." was "Your mum Grace is in Leeds.",
    Leeds being the brother's town (a known name: the made-up check let it pass)."""
    from hela_desktop.sources import doubt_note

    told = ("My brother Tom lives in Leeds.", "I work as a nurse in York.",
            "My mum Grace lives in Bradford.")
    check = _told(make_assistant, told, 2)

    def doubt(said, message=told[2]):
        return check(message, said)

    got = doubt("That's lovely! Your mum Grace is in Leeds.")
    assert got == {"kind": "misplaced", "asked": "your mum", "memory": 1,
                   "said": told[0], "words": ["Leeds"]}
    assert doubt_note(got, []) == ("Check this answer: it says “Leeds” of your mum, and "
                                   "only another memory says it: “My brother Tom lives in "
                                   "Leeds.”")
    assert doubt("Grace must enjoy York.")["words"] == ["York"]  # (the user's own town)
    # what the message says, a sentence that speaks of the brother too, a name no memory
    # gives (the made-up check weighs that): no such doubt
    for said in ("Your mum Grace lives in Bradford.",
                 "Your mum Grace lives in Bradford, near your brother Tom in Leeds.",
                 "Grace and Tom can meet in Leeds."):
        assert (doubt(said) or {}).get("kind") != "misplaced", said
    assert (doubt("Your mum Grace is in Halifax.") or {}).get("kind") == "made_up"
    # a question is no message that tells: the question checks read it
    assert (doubt("Your mum Grace is in Leeds.", "Where does my mum live?") or {}).get(
        "kind") != "misplaced"


def test_the_graphs_key_tells_on_hover_what_a_dots_colour_is():
    """QA pass 33: the key named the links' colours, not the dots'; a row for them covered
    a memory, so its tooltip tells them, in the palette the graph uses."""
    from hela_desktop.ui.graph_labels import TOPICS_SHOWN
    from hela_desktop.ui.graph_legend import TOOLTIP
    from hela_desktop.ui.theme import LIGHT

    assert "coloured by its topic" in TOOLTIP and "fold" in TOOLTIP
    assert {10: "ten"}[TOPICS_SHOWN] in TOOLTIP  # (the number of topics coloured)
    assert LIGHT.episode == "#8fa8d8" and "pale blue" in TOOLTIP  # (an uncoloured dot's fill)


@pytest.mark.parametrize("text, rank", [
    ("My name is Oskar.", 0), ("My job is on the Plymouth ferries.", 0),
    ("I work as a marine engineer.", 0), ("My tortoise Shelly is 40.", 1),
    ("My hobby is rowing.", 1), ("My sister Ana lives in Lisbon.", 2),
    ("Ana's name is short for Anabela.", 3)])
def test_what_the_user_is_called_is_said_of_themselves(text, rank):
    """QA pass 33: "What do you know about me?" ranked "My name is…" as "My tortoise…"."""
    from hela_desktop import facts

    assert facts.self_rank(text) == rank


def _recalls(a, ask, at):
    """The memories recalled for `ask` in a new chat, by id, and the answer's end."""
    from hela_desktop.events import DoneEvent, MemoriesEvent

    got, done = {}, None
    for ev in a.chat(ask, a.new_conversation(), now=at):
        if isinstance(ev, MemoriesEvent):
            got.update({r.episode_id: r for r in ev.memories})
        elif isinstance(ev, DoneEvent):
            done = ev
    return got, done


def test_a_correction_of_the_brothers_home_leaves_the_fathers_alone(make_assistant):
    """QA pass 34: "Actually my brother Jonas lives in Hamburg, not Leipzig." was noted as
    a correction of "My father Anselm lives in Graz." too (both say where someone lives);
    the father's right answer was then marked older news."""
    from hela_desktop import facts
    from hela_desktop.events import DoneEvent

    assert not facts.says_over("My father Anselm lives in Graz.",
                               "Actually my brother Jonas lives in Hamburg, not Leipzig.")
    assert facts.says_over("My brother Jonas lives in Leipzig.",
                           "Actually my brother Jonas lives in Hamburg, not Leipzig.")
    a = make_assistant()
    cid = a.new_conversation()
    told = ("My father Anselm lives in Graz.", "My brother Jonas lives in Leipzig.",
            "Actually my brother Jonas lives in Hamburg, not Leipzig.")
    for k, t in enumerate(told):
        done = [ev for ev in a.chat(t, cid, now=T0 + 60 * k) if isinstance(ev, DoneEvent)][0]
    assert [c["episode_id"] for c in done.corrects] == [2]
    # asked with the word the two share, "live" (QA pass 34b: still "older news")
    for k, ask in enumerate(("Where does my father Anselm live?", "Where does my father live?")):
        got, _ = _recalls(a, ask, T0 + 3600 + 60 * k)
        assert 1 in got and not {"superseded_by", "older_than"} & set(got[1].extra), ask


def test_a_moved_appointment_makes_no_older_news_of_the_childs_age(make_assistant):
    """QA pass 34: after "Lieke's orthodontist appointment moved to Friday at 10 am.",
    "My daughter Lieke is 7 years old.", brought in by her name, was marked older news."""
    a = make_assistant()
    cid = a.new_conversation()
    told = ("My daughter Lieke is 7 years old.",
            "Lieke has an orthodontist appointment on Thursday at 3:30 pm.",
            "Lieke's orthodontist appointment moved to Friday at 10 am.")
    for k, t in enumerate(told):
        list(a.chat(t, cid, now=T0 + 60 * k))
    got, _ = _recalls(a, "When is Lieke's orthodontist appointment now?", T0 + 3600)
    assert got[2].extra.get("older_than") == 3 or got[2].extra.get("superseded_by") == 3
    assert 1 not in got or "older_than" not in got[1].extra, got[1].extra


def test_forget_that_someone_named_does_something_is_a_request_to_forget(make_assistant):
    """QA pass 34: "Forget that Pepper is scared of the vacuum cleaner." went to the model,
    was stored as a new memory saying the fact again, and nothing was forgotten."""
    from hela_desktop.forget_request import forget_target

    assert forget_target("Forget that Pepper is scared of the vacuum cleaner.") == \
        "Pepper is scared of the vacuum cleaner"
    assert forget_target("Forget that Lieke has an orthodontist appointment.") == \
        "Lieke has an orthodontist appointment"
    # never mind, a day, a bare "that": not such a request
    for text in ("Forget that, my cat is called Miso.", "Forget that Monday meeting.",
                 "Forget that."):
        assert forget_target(text) is None, text
    a = make_assistant()
    cid = a.new_conversation()
    told = ["Pepper is scared of the vacuum cleaner and hides under the sofa.",
            "My father Anselm lives in Graz."]
    ids = [list(a.chat(t, cid, now=T0 + 60 * k))[-1].episode_id for k, t in enumerate(told)]
    done = list(a.chat("Forget that Pepper is scared of the vacuum cleaner.", cid,
                       now=T0 + 600))[-1]
    assert done.forget is not None and done.forget["deleted"] == [ids[0]], done.text
    assert done.episode_id is None  # (the request is no memory of its own)
    assert a.store.episode(ids[1]).deleted_at is None


def test_a_forgotten_fact_takes_no_question_whose_answer_shares_only_general_words(
        make_assistant):
    """QA pass 34: "Forget what I just said." after "I go bouldering every Saturday morning
    at the Kletterhalle." also deleted two questions whose stored answers said "every day",
    "this morning" and "you can go to Leipzig every year"."""
    from hela_desktop.forget_request import answer_copies
    from hela_desktop.memory import NewEpisode

    a = make_assistant()
    e = a.engine
    fact = "I go bouldering every Saturday morning at the Kletterhalle."
    ids = e.add_episodes([
        NewEpisode("Where does my father live?", "He lives in Graz; you can go to Leipzig "
                   "every year to see your brother.", created_at=T0),
        NewEpisode("Tell me a bedtime story about Pepper.", "Every day Pepper played. This "
                   "morning she slept.", created_at=T0 + 60),
        NewEpisode("What do I do on Saturdays?", "You go bouldering every Saturday at the "
                   "Kletterhalle.", created_at=T0 + 120),
        NewEpisode(fact, created_at=T0 + 180)])
    asked, _ = answer_copies(e, [(ids[3], fact)])
    assert [i for i, _ in asked] == [ids[2]]


def test_a_message_left_unanswered_by_a_kill_is_remembered_when_the_next_is_sent(
        make_assistant):
    """QA pass 34: after a kill -9 while "Rasmus builds all our furniture himself…" was
    answered, sending the next message instead of Ctrl+R left it without a memory for
    good.  The kill is the row Turn.open stores and nothing after it (a real kill of the
    process would lose the model too; the store's rows are what a restart finds)."""
    import threading

    a = make_assistant()
    cid = a.new_conversation()
    list(a.chat("My partner Rasmus is a carpenter.", cid, now=T0))
    told = "Rasmus builds all our furniture himself, even Lieke's bunk bed."
    orphan = a.store.add_message(cid, "user", told, at=T0 + 60)  # then the kill
    assert a.store.unanswered_tail(cid) == (orphan, told, T0 + 60)
    done = list(a.chat("Lieke's orthodontist appointment moved to Friday.", cid,
                       now=T0 + 600))[-1]
    kept = [e for e in a.store.episodes(a.store.conversation_episode_ids(cid)).values()
            if e.user_text == told]
    assert len(kept) == 1 and kept[0].created_at == T0 + 60 and kept[0].id != done.episode_id
    assert [m["episode_id"] for m in a.store.messages(cid) if m["id"] == orphan] == [kept[0].id]
    assert a.store.unanswered_tail(cid) is None
    # a message whose answer the user stopped before it began stays without a memory:
    # their choice (README: "no memory was made of it")
    stop = threading.Event()

    def esc(phase, _done, _total):
        if phase == "recalling":
            stop.set()

    stopped = "Write me a long poem about bouldering with Rasmus."
    list(a.chat(stopped, cid, stop=stop, now=T0 + 700, on_status=esc))
    last = a.store.messages(cid)[-1]
    assert (last["role"], last["content"], last["interrupted"]) == ("user", stopped, True)
    assert a.store.unanswered_tail(cid) is None
    list(a.chat("Thanks.", cid, now=T0 + 800))
    assert not [e for e in a.store.episodes(a.store.conversation_episode_ids(cid)).values()
                if e.user_text == stopped]
    # a request the app answers itself forms no memory, left unanswered or not
    a.store.add_message(cid, "user", "Forget that Rasmus is a carpenter.", at=T0 + 900)
    assert a._remember_unanswered(cid) is None


def test_a_chat_export_says_where_an_answer_stopped_and_reads_back(tmp_path, embedder):
    """QA pass 34: the window said "stopped at the 256-token limit", the Markdown export
    nothing; a message whose answer the user stopped before it began is said so too, and
    the app reads its own export back with either note."""
    from hela_desktop.chat_export import messages_markdown
    from hela_desktop.memfile import import_file
    from hela_desktop.store import Store

    t = 1_764_590_400.0
    msgs = [
        {"role": "user", "content": "Write me a long poem about Pepper.", "created_at": t},
        {"role": "assistant", "content": "Pepper sleeps…", "created_at": t + 60,
         "stats": {"tokens": 256, "limit": 256}},
        {"role": "user", "content": "My cat Pepper hides under the sofa.", "created_at": t + 120,
         "interrupted": True},
        {"role": "user", "content": "Thanks!", "created_at": t + 240}]
    text = messages_markdown("Pepper", msgs)
    heads = [line for line in text.splitlines() if line.startswith("**")]
    assert heads[1].endswith(" · stopped at the 256-token limit")
    assert heads[2].endswith(" · stopped before an answer") and "·" not in heads[3][12:]
    f = tmp_path / "pepper.md"
    f.write_text(text, encoding="utf-8")
    with Store(tmp_path / "data") as store:
        import_file(store, f, embedder=embedder)
        got = [(r[0], r[1]) for r in store.conn.execute(
            "SELECT user_text, assistant_text FROM episodes ORDER BY id")]
    # (two messages of the user's in a row are one exchange, as for any chat imported)
    assert got == [("Write me a long poem about Pepper.", "Pepper sleeps…"),
                   ("My cat Pepper hides under the sofa.\n\nThanks!", "")]


def test_an_answer_giving_someone_what_was_told_of_another_is_doubted(make_assistant):
    """QA pass 34: "Where does my father live?" was answered with the brother's city, and
    the line under it named only side words."""
    from hela_desktop.sources import doubt_note

    told = ("My brother Jonas lives in Leipzig.", "My father Anselm lives in Graz.",
            "I work as a pharmacist in Bremen.")
    check = _told(make_assistant, told, len(told))
    ask = "Where does my father live?"
    got = check(ask, "Your father Anselm lives in Leipzig.")
    assert (got["kind"], got["memory"], got["of"], got["words"]) == (
        "misattributed", 1, "your brother", ["Leipzig"])
    # (the words it took, QA pass 36b)
    assert doubt_note(got, []) == ("Check this answer: you asked about your father, and it "
                                   "says of him what you told me of your brother (“Leipzig”): "
                                   "“My brother Jonas lives in Leipzig.”")
    # of the user themself, as before
    got = check(ask, "Your father is a pharmacist.")
    assert (got["kind"], got["memory"], got.get("of")) == ("misattributed", 3, None)
    assert "what you told me of yourself (“" in doubt_note(got, [])
    # right, or a sentence that speaks of the brother too: no such doubt
    for said in ("Your father Anselm lives in Graz.",
                 "Your father lives in Graz and your brother Jonas in Leipzig."):
        assert (check(ask, said) or {}).get("kind") != "misattributed", said


def test_a_long_undo_line_wraps_instead_of_widening_its_pane(qtbot):
    """QA pass 34: "Forgot #17 “Pepper is scared of the vacuum cleaner and hides under
    the…”, as asked in the chat. [Undo]" pushed the splitter and folded the chat list."""
    from hela_desktop.ui.plain import undo_bar

    bar, label, _button = undo_bar(lambda: None)
    qtbot.addWidget(bar)
    label.setText("Forgot #17 “Pepper is scared of the vacuum cleaner and hides under the "
                  "sofa when the vacuum comes out”, as asked in the chat.")
    bar.show()
    assert bar.minimumSizeHint().width() < 200
    bar.resize(260, 80)
    qtbot.wait(10)
    assert label.heightForWidth(label.width()) > label.fontMetrics().height()  # (wrapped)


def test_a_reply_to_a_statement_that_speaks_as_the_user_or_gives_their_job_away_is_doubted(
        make_assistant):
    """QA pass 34: "I'm Teodora and I work as a pharmacist at the hospital in Bremen." was
    answered "I am Teodora, a pharmacist who runs Bremen's pharmacy.", and "My father
    Anselm lives in Graz." "…your relationship with Anselm, the hospital pharmacist?",
    nothing under either."""
    from hela_desktop.sources import doubt_note

    told = ("I'm Teodora and I work as a pharmacist at the hospital in Bremen.",
            "My brother Jonas lives in Leipzig.", "My father Anselm lives in Graz.")
    check = _told(make_assistant, told, 2)
    got = check(told[0], "I am Teodora, a pharmacist who runs Bremen's pharmacy.")
    assert got["kind"] == "as_user" and doubt_note(got, []) == (
        "Check this answer: it speaks as if it were you (“I am Teodora”).")
    assert check(told[0], "Nice to meet you, Teodora!") is None
    # (a sentence that speaks to the user, "How would you describe…", may be of them: not
    # read as one about Anselm alone)
    got = check(told[2], "That's lovely! Anselm, the hospital pharmacist, must enjoy Graz.")
    assert (got["kind"], got["memory"], got["told"]) == ("misattributed", 1, True)
    assert doubt_note(got, []).startswith("Check this answer: you told me of Anselm, and it "
                                          "says of Anselm what you told me of yourself (“")
    assert check(told[2], "Graz is a lovely city for your father.") is None


@pytest.mark.gui
def test_f10_opens_the_menu_bar(qtbot, tmp_path):
    """QA pass 34: F10 opened no menu (Alt+F and the others did)."""
    from test_app_polish import _chat_dir, _window

    from hela_desktop.ui.window_look import WIDGET_KEYS

    data_dir, _, _ = _chat_dir(tmp_path)
    w = _window(qtbot, data_dir)
    mb = w.menuBar()
    assert mb.activeAction() is None
    # (offscreen, no window is active for a key to reach: the shortcut is pressed)
    f10 = [s for s in w.findChildren(QtGui.QShortcut) if s.key().toString() == "F10"]
    assert len(f10) == 1
    f10[0].activated.emit()
    qtbot.waitUntil(lambda: mb.activeAction() is not None, timeout=5000)
    assert mb.activeAction().text() == "&File"
    assert "F10" in dict(WIDGET_KEYS)  # (Help ▸ Keyboard shortcuts lists it)
    qtbot.keyClick(mb, QtCore.Qt.Key.Key_Escape)
    w.close()


def test_an_answer_that_gives_another_value_did_not_use_the_memory_it_restates():
    """QA pass 34: "Which city does my brother Jonas live in?" answered "Your brother
    Jonas lives in Dresden, Germany." listed "My brother Jonas lives in Leipzig." as used:
    the question restates it but for the value asked."""
    from hela_desktop.edges import used_by_answer

    mem = [(1, "My brother Jonas lives in Leipzig.")]
    ask = "Which city does my brother Jonas live in?"
    assert used_by_answer(mem, ask, "Your brother Jonas lives in Dresden, Germany.") == set()
    assert used_by_answer(mem, ask, "Your brother Jonas lives in Leipzig.") == {1}
    # a yes-or-no question about the memory: the answer that speaks of it used it
    assert used_by_answer(mem, "Does my brother Jonas live in Leipzig?",
                          "Yes, your brother Jonas lives there.") == {1}


def test_made_up_german_with_names_is_drifted():
    """QA pass 34: "Zumdamm: „Alles ist Sprechere, kann ich eine Batterie für Hafenstrasse
    abgebaut?“ …" had 26.5 % foreign words and 5.9 % English ones: under the 30 % foreign
    bar, over the 5 % English one.  Worked by hand: 0.265 ≥ 0.2 and 0.059 < 0.1 over 68
    words → drifted; 12 % English stays English; under 12 words, too short to tell."""
    from hela_desktop import formulas as F

    assert F.drifted(0.059, 0.265, 68, 0.30)
    assert not F.drifted(0.12, 0.25, 68, 0.30)  # (English answers had 17 % or more)
    assert not F.drifted(0.059, 0.19, 68, 0.30)  # too little foreign
    assert not F.drifted(0.059, 0.265, 11, 0.30)  # short


@pytest.mark.gui
def test_the_memories_named_under_answers_are_reached_with_the_keyboard(qtbot):
    """QA pass 34: a keyboard user had no way to open a memory named under an answer (Tab
    passes the chat in one press).  Alt+Down / Alt+Up choose the next or previous one,
    Enter opens it as a click does."""
    from hela_desktop.ui.chat import MessageView

    view = MessageView()
    qtbot.addWidget(view)
    view.setHtml('<p>Lisbon, you told me.</p><p>Used from your memories: '
                 '<a href="m:5:1">“My sister Ana…”</a> · <a href="m:7:1">“My dog…”</a></p>')
    clicked = []
    view.memoryClicked.connect(clicked.append)
    alt = QtCore.Qt.KeyboardModifier.AltModifier
    qtbot.keyClick(view, QtCore.Qt.Key.Key_Return)
    assert clicked == []  # (nothing chosen yet)
    qtbot.keyClick(view, QtCore.Qt.Key.Key_Down, alt)
    assert view.textCursor().selectedText() == "“My sister Ana…”"
    qtbot.keyClick(view, QtCore.Qt.Key.Key_Down, alt)
    qtbot.keyClick(view, QtCore.Qt.Key.Key_Return)
    assert clicked == [7]
    qtbot.keyClick(view, QtCore.Qt.Key.Key_Up, alt)
    qtbot.keyClick(view, QtCore.Qt.Key.Key_Enter)
    assert clicked == [7, 5]
    qtbot.keyClick(view, QtCore.Qt.Key.Key_Up, alt)  # (none before the first: it stays)
    assert view.textCursor().selectedText() == "“My sister Ana…”"


def test_a_pets_own_name_and_the_users_own_are_told_apart(make_assistant):
    """QA pass 34b: "What's my cat's name?" answered "Sofia has a cat named Biscuit." was
    marked "it calls your cat “Biscuit”, the name of your cat" (the memories said "a cat
    called Biscuit" and "Our cat Biscuit"); "My sister's name is Marisol." (the user's own
    name) was "the name of someone else you told me of"; "Your father, Marisol, a hero."
    was "it says of him what you told me of yourself"."""
    from hela_desktop.sources import doubt_note

    told = ("My name is Marisol and I work as a librarian in Porto.",
            "We have a cat called Biscuit.", "Our cat Biscuit is four years old.",
            "My sister Renata is a nurse.", "My father Ignacio lives in Valencia.")
    check = _told(make_assistant, told, len(told))
    assert (check("What's my cat's name?", "Sofia has a cat named Biscuit.") or {}).get(
        "kind") != "misnamed"
    got = check("What's my sister's name?", "Your sister is called Marisol.")
    assert got["kind"] == "misnamed" and doubt_note(got, []) == (
        "Check this answer: it calls your sister “Marisol”, your own name.")
    assert (check("Where does my father live?", "Your father, Marisol, a hero.") or {}).get(
        "kind") != "misattributed"


def test_a_weekdays_or_months_short_form_is_no_made_up_name():
    """QA pass 34b: "…moved to Thursday at 3:01 pm (Fri)…" was marked for “Fri”."""
    from hela_desktop.made_up import made_up

    said = "Paloma's dentist appointment moved to Friday at 10 am."
    assert made_up("It moved to 10 am (Fri), as you said.", said) == []
    assert made_up("It moved to Sept 3, with Dr. Brandt.", said) == ["Sept 3", "Brandt"]
    assert made_up("Then Jan will take her.", said) == ["Jan"]  # (a name, not January)


def test_what_an_import_left_out_is_counted_in_words():
    """QA pass 34b: a dry run said "2 message you asked HeLas to forget"."""
    from hela_desktop.importers.base import left_out

    assert left_out(2, "message you asked HeLa to forget") == \
        "2 messages you asked HeLa to forget"
    assert left_out(1, "message you asked HeLa to forget") == \
        "1 message you asked HeLa to forget"
    assert left_out(2, "call to a tool") == "2 calls to a tool"
