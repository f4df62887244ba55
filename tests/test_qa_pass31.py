"""QA pass 30's open items and the thirty-first pass (4 December 2026): what a person met
and this pass fixed."""

from __future__ import annotations

from hela_desktop.doubt import answer_doubt
from hela_desktop.events import Recall
from hela_desktop.life_news import of_people, tells_of_life
from hela_desktop.sources import doubt_note

T0 = 1_780_000_000.0


# ---- every doubt is named, the strongest first (`doubt.answer_doubt`, `doubt_note`) ----

def test_an_answer_with_two_faults_names_both():
    """QA pass 30: "Karel is a dentist in Utrecht, the city where the renowned doctor and
    artist Ines Bregaad lives." was marked only as older news; the made-up surname went
    unnamed, as only one doubt was ever kept."""
    mems = [Recall(episode_id=2, score=1.0, text="Actually Karel is now a surgeon."),
            Recall(episode_id=1, score=0.9, text="My brother Karel is a dentist in Utrecht.",
                   extra={"superseded_by": 2})]
    ask = "What does my brother do?"
    said = "Karel is a dentist in Utrecht, where the doctor Ines Bregaad lives."
    doubt = answer_doubt(ask, said, mems, {1}, user_names={"ines"})
    assert doubt == {"kind": "older", "newer": 2, "older": 1,
                     "also": [{"kind": "made_up", "words": ["Bregaad"], "unused": False}]}
    recalls = [{"episode_id": 2, "text": "Actually Karel is now a surgeon."}]
    assert doubt_note(doubt, recalls) == (
        "Check this answer: it may give older news — “Actually Karel is now a surgeon.” is "
        "newer. Also: “Bregaad” is in none of the memories it was given, so the model may "
        "have made it up.")
    # one fault: as before, no "also"
    assert answer_doubt(ask, "Karel is a dentist in Utrecht.", mems, {1}) == {
        "kind": "older", "newer": 2, "older": 1}
    # what is stored is any JSON: a broken "also" is left out, the first note stays
    for junk in ("x", [1], [{"kind": "made_up"}], None):
        assert doubt_note({"kind": "unused", "also": junk}, []).startswith(
            "Check this answer: it uses none") and "Also" not in doubt_note(
            {"kind": "unused", "also": junk}, [])


def test_a_relation_never_told_and_a_made_up_place_are_both_named():
    mems = [Recall(episode_id=1, score=1.0, text="Hi! My name is Ines."),
            Recall(episode_id=2, score=0.9, text="My mother Greta lives in Ghent.")]
    doubt = answer_doubt("What is my sister's name?",
                         "Ines is my sister's name. She lives in Ghent, Netherlands.", mems,
                         {1, 2}, untold=["sister"])
    assert doubt["kind"] == "untold" and doubt["also"] == [
        {"kind": "made_up", "words": ["Netherlands"], "unused": False}]
    assert doubt_note(doubt, [{"episode_id": r.episode_id, "text": r.text} for r in mems]).endswith(
        "not from your memories. Also: “Netherlands” is in none of the memories it was "
        "given, so the model may have made it up.")


# ---- a reply to what the user tells is checked too (`sources.tells_of_life`) -------------

def test_a_reply_that_invents_details_of_the_users_people_is_doubted():
    """QA pass 30: "My mother Greta moved to Antwerp last month." got "…she moved there last
    month to celebrate her 30th birthday." and "Actually Karel is now a surgeon." got "She
    lives at Groningen, Netherlands…", and nothing under either said a word; the invented
    reply was kept beside the memory."""
    mems = [Recall(episode_id=1, score=1.0, text="My mother Greta lives in Ghent.")]
    told = "My mother Greta moved to Antwerp last month."
    reply = ("I'm glad you told me. My mother Greta is indeed a local in Antwerp, and she "
             "moved there last month to celebrate her 30th birthday.")
    assert tells_of_life(told, None)
    # ("My mother Greta…" speaks as the user too, QA pass 36)
    assert answer_doubt(told, reply, mems, set()) == {
        "kind": "as_user", "said": "My mother Greta is indeed a local in Antwerp, and she moved…",
        "also": [{"kind": "made_up", "words": ["30"], "unused": False}]}
    surgeon = answer_doubt("Actually Karel is now a surgeon.",
                           "Ines is your friend's name. She lives at Groningen, Netherlands.",
                           [Recall(episode_id=1, score=1.0,
                                   text="Hi! My name is Ines. My brother Karel is a dentist.")],
                           set(), names=lambda t: {"Karel"} & set(t.split()))
    # (`names`: the people of the user's life in a text, as `MemoryEngine.people_in` reads
    # them; without it, a statement that says no "my" or "I" tells of no one of theirs)
    assert surgeon["words"] == ["Groningen", "Netherlands"]


def test_a_reply_is_not_doubted_for_what_it_says_of_no_one_or_suggests():
    mems = [Recall(episode_id=1, score=1.0, text="I work as a nurse.")]
    told = "We fly to Lisbon on 14 March."
    for reply in ("Lisbon is lovely in March, with the Belém Tower by the river.",
                  "You could visit the Belém Tower while you are in Lisbon.",
                  "That sounds wonderful! Have a great trip on 14 March.",
                  # a sentence opens with its subject, not with a made-up name
                  "Pheromones can help regulate your mood when you travel."):
        assert answer_doubt(told, reply, mems, set()) is None, reply
    assert of_people("Lisbon is lovely. She moved to Porto. Maybe visit Braga.") == (
        "she moved to Porto.")
    # a message that asks, or tells of nothing of the user's, is no such statement
    assert not tells_of_life("Where do we fly to?", None)
    assert not tells_of_life("The Eiffel Tower is in Paris.", None)
    assert answer_doubt("Tell me about Paris.", "You will love Montmartre in 1889.", mems,
                        set()) is None


def test_a_reply_to_a_statement_is_checked_in_the_real_turn(make_assistant):
    """Through the real turn path and model: whatever the model says to a statement, the
    doubt it stores is the one `answer_doubt` gives for its words, and the line under it
    in the window and the terminal (`stored_sources`) says so."""
    from hela_desktop.sources import stored_sources

    a = make_assistant()
    cid = a.new_conversation()
    list(a.chat("My mother Greta lives in Ghent.", cid, now=T0))
    done = list(a.chat("My mother Greta moved to Antwerp last month.", cid, now=T0 + 60))[-1]
    stats = a.store.messages(cid)[-1]["stats"]
    mems = [Recall(episode_id=m["episode_id"], score=1.0, text=m["text"],
                   extra=m.get("extra") or {}) for m in stats["memories"]]
    known = "\n".join(m["content"] for m in a.store.messages(cid) if m["role"] == "user")
    expect = answer_doubt("My mother Greta moved to Antwerp last month.", done.text, mems,
                          set(done.drew_on), a.engine.people_in, known=known, now=T0 + 60,
                          user_names=a.engine.user_names())
    assert (stats.get("doubt") or {}).get("kind") == (expect or {}).get("kind")
    assert bool(stored_sources(stats).doubt) == bool(expect)


# ---- a long message is read whole (`Embedder.windows`) ------------------------------------

_CHATTER = ("The weather has been grey all week, with rain in the mornings and a cold wind "
            "off the water in the afternoons, so the walk to the station takes longer. ")


def test_a_long_message_is_matched_by_all_of_it_not_its_start(embedder):
    """QA pass 30: a 5,000-character note recalled nothing. The model reads 256 tokens of a
    text and cuts the rest, so two long messages that differ only after their first
    thousand characters had the same vector; now each part counts."""
    import numpy as np

    start = _CHATTER * 8  # about 1,300 characters: past the model's window
    assert embedder.count_tokens(start) > embedder.window
    sister = start + "Anyway, the big news: my sister Ana just got engaged to Tobias in Porto."
    job = start + "Anyway, the big news: I start my new job as a nurse at the hospital on Monday."
    a, b = embedder.embed([sister, job])
    assert float(a @ b) < 0.95  # (the same vector, 1.0, when only the start was read)
    memory = embedder.embed_one("My sister Ana lives in Porto.")
    assert float(memory @ a) > float(memory @ b) + 0.05
    # unit length, and a text within the window is read as before, whole and alone
    assert abs(float(np.linalg.norm(a)) - 1.0) < 1e-5
    short = "My sister Ana lives in Porto."
    assert embedder.windows(short) == [short]
    assert np.allclose(embedder.embed([short, sister])[0], memory, atol=1e-5)


def test_a_long_text_is_cut_into_whole_sentences_within_the_window():
    from hela_desktop.embedder import windows_of

    def count(t: str) -> int:  # one token a word, as a stand-in tokenizer
        return len(t.split())

    text = "One two three. Four five six seven. Eight nine.\nTen eleven twelve thirteen fourteen."
    assert windows_of(text, 100, count) == [text]
    assert windows_of(text, 7, count) == ["One two three. Four five six seven.",
                                          "Eight nine. Ten eleven twelve thirteen fourteen."]
    assert windows_of(text, 6, count) == ["One two three.", "Four five six seven. Eight nine.",
                                          "Ten eleven twelve thirteen fourteen."]
    # a sentence longer than the window is cut between words
    assert windows_of("a b c d e f g.", 3, count) == ["a b c", "d e f", "g."]
    assert all(count(w) <= 7 for w in windows_of(text * 5, 7, count))


# ---- a blank message box (`ui.chat_pane.ChatPane`) -----------------------------------------

def test_send_is_pressable_only_with_a_message_to_send(qtbot):
    """QA pass 30: with only spaces in the box, Send stayed pressable and did nothing, and
    nothing said why."""
    from hela_desktop.ui.chat_pane import BUSY_HINT, SEND_BLANK, ChatPane

    pane = ChatPane()
    qtbot.addWidget(pane)
    sent: list[str] = []
    pane.sendRequested.connect(sent.append)
    assert not pane.send_button.isEnabled() and pane.send_button.toolTip() == SEND_BLANK
    pane.input.setPlainText("   \n  ")
    assert not pane.send_button.isEnabled()
    pane.input.setPlainText("  Hello  ")
    assert pane.send_button.isEnabled() and pane.send_button.toolTip() == "Send (Enter)"
    pane.send_button.click()
    assert sent == ["Hello"] and pane.input.toPlainText() == ""
    assert not pane.send_button.isEnabled()  # (the box is empty again)
    # while an answer is written: not pressable, and the tooltip says why
    pane.set_streaming(True)
    pane.input.setPlainText("Next one")
    assert not pane.send_button.isEnabled() and pane.send_button.toolTip() == BUSY_HINT
    pane.set_streaming(False)
    assert pane.send_button.isEnabled()


# ---- "What do you know about me?" after a correction of part of a memory ------------------

def test_what_a_correction_leaves_true_is_still_listed_pinned_first(make_assistant):
    """QA pass 30: "Hi! My name is Ines. My brother Karel is a dentist in Utrecht.", pinned,
    was listed only inside the correction's line after "Actually Karel is now a surgeon.":
    the name was no current fact, and the list said "what you pinned first" without it."""
    from hela_desktop import superseded

    a = make_assistant()
    cid = a.new_conversation()
    first = "Hi! My name is Ines. My brother Karel is a dentist in Utrecht."
    told = [first, "I work as a nurse at the Amsterdam UMC hospital.",
            "I have a cat called Pepper.", "Actually Karel is now a surgeon."]
    ids = [list(a.chat(t, cid, now=T0 + 60 * k))[-1].episode_id for k, t in enumerate(told)]
    a.engine.set_pinned(ids[0], True)
    done = list(a.chat("What do you know about me?", cid, now=T0 + 600))[-1]
    assert "(what you pinned first, " in done.text  # (one pinned: said so)
    lines = [x for x in done.text.splitlines() if x.startswith("- ")]
    # (her brother's town still holds too: a job and its town are two things since 0.36)
    assert lines[0].startswith("- “My name is Ines. My brother Karel lives in Utrecht.” (") \
        and "the rest of that message since corrected" in lines[0], lines[0]
    fix = next(x for x in lines if "surgeon" in x)
    # what it corrects is the sentence it replaces, not the name beside it
    assert "correcting “My brother Karel is a dentist”" in fix, fix
    assert not any("dentist" in x for x in lines if x is not fix)
    # a correction of all a memory said leaves nothing of it listed
    assert superseded.off_subject("My brother Karel is a dentist.",
                             "Actually Karel is now a surgeon.") == ""


def test_a_corrected_memory_says_so_in_the_terminal_and_keeps_both_marks(make_assistant, tmp_path):
    """QA pass 30: `memories show 1` did not say that #1 was corrected by #15 (the window's
    tooltip did), and pinning the corrected memory put "★" in place of its "↻"."""
    import subprocess
    import sys

    from hela_desktop.ui.memory_browser import EpisodeTableModel

    a = make_assistant(tmp_path / "d")
    cid = a.new_conversation()
    old = list(a.chat("My brother Karel is a dentist in Utrecht.", cid, now=T0))[-1].episode_id
    new = list(a.chat("Actually Karel is now a surgeon.", cid, now=T0 + 60))[-1].episode_id
    a.engine.set_pinned(old, True)
    a.store.close()
    out = subprocess.run([sys.executable, "-m", "hela_desktop", "memories", "show", str(old),
                          "--data-dir", str(tmp_path / "d")], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert f"corrected by   #{new} “Actually Karel is now a surgeon.” (so this one is older news)" in out.stdout
    shown = subprocess.run([sys.executable, "-m", "hela_desktop", "memories", "show", str(new),
                            "--data-dir", str(tmp_path / "d")], capture_output=True, text=True,
                           timeout=120)
    assert "corrected by" not in shown.stdout
    from hela_desktop.store import Store

    with Store(tmp_path / "d") as store:
        eps = list(store.episodes([old]).values())
    model = EpisodeTableModel()
    model.set_episodes(eps, corrected={old: (new, "Actually Karel is now a surgeon.")})
    assert model.data(model.index(0, 0)) == "★↻"


def test_help_has_a_getting_started_guide_that_names_the_windows_own_lines(qtbot, tmp_path):
    """QA pass 30: the Help menu had only the shortcuts and About, and nothing told a new
    user what "Check this answer" or "Recalled, not used" mean, or how to correct."""
    from hela_desktop.config import Settings
    from hela_desktop.sources import NONE_USED, OLDER_NEWS, USED
    from hela_desktop.ui.main_window import MainWindow

    w = MainWindow(tmp_path / "data", Settings(), load_model=False, autoload=False,
                   idle_scheduler=False)
    qtbot.addWidget(w)
    help_menu = next(a.menu() for a in w.menuBar().actions() if a.text() == "&Help")
    assert [a.text() for a in help_menu.actions()][0] == "&Getting started"
    w.act_guide.trigger()
    dlg = w.guide_dialog
    text = dlg.text.toPlainText()
    for said in (USED, NONE_USED, "Check this answer", "Not from your memories", OLDER_NEWS,
                 "Forget that", "What do you know about me?", "Actually", "Edit ▸ Undo"):
        assert said in text, said
    w.act_guide.trigger()
    assert w.guide_dialog is dlg and dlg.isVisible()  # (made once, raised again)
    w.close()


# ---- a past word elsewhere does not excuse the old value (`sources.gives_older`) -------------

def test_the_old_value_is_older_news_unless_its_own_sentence_puts_it_in_the_past():
    """Left open in 0.22: "was" anywhere in the answer excused the old value beside the
    new one, though the sentence that gave it spoke of now."""
    from hela_desktop.older_news import gives_older

    old, new = "My mother Greta lives in Ghent.", "Actually Greta moved to Antwerp."
    ask = "Where does my mother live?"
    assert gives_older(ask, "Greta was born in Lyon. She lives in Ghent, and visits Antwerp "
                            "on Sundays.", old, new)
    assert not gives_older(ask, "Greta used to live in Ghent. Now she lives in Antwerp.",
                           old, new)
    assert not gives_older(ask, "Greta lived in Ghent before; she lives in Antwerp now.",
                           old, new)


# ---- the user's own move replaces where they lived (`facts.changes_memory`) ---------------

def test_the_users_own_move_replaces_where_they_lived(make_assistant):
    """QA pass 31: after "I live in Madrid." and "We moved to Valencia.", "What do you know
    about me?" listed both as current, and "Where do I live?" used both: the two share no
    word, as who moved is the user, unsaid."""
    from hela_desktop import facts
    from hela_desktop.knowledge import corrections

    assert facts.changes_memory("I live in Madrid.", "We moved to Valencia.")
    assert facts.changes_memory("We live in the Netherlands.", "I now live in Spain.")
    # not a move to a place, not a move of the user, not where they live
    for old, new in (("I live in Madrid.", "I moved to the night shift."),
                     ("My mother Elena lives in Zaragoza.", "We moved to Valencia."),
                     ("I work as a plumber for Aquaserv.", "I'm now a dad."),
                     ("I work as a plumber for Aquaserv.", "We moved to Valencia.")):
        assert not facts.changes_memory(old, new), (old, new)
    a = make_assistant()
    cid = a.new_conversation()
    told = ["I live in Madrid.", "My mother Elena lives in Zaragoza.", "We moved to Valencia."]
    ids = [list(a.chat(t, cid, now=T0 + 60 * k))[-1].episode_id for k, t in enumerate(told)]
    assert corrections(a.store, ids[:2]) == {ids[0]: ids[2]}
    done = list(a.chat("What do you know about me?", cid, now=T0 + 600))[-1]
    lines = [x for x in done.text.splitlines() if x.startswith("- ")]
    assert any(x.startswith("- “We moved to Valencia.” (") and "correcting “I live in Madrid.”"
               in x for x in lines), lines
    assert not any(x.startswith("- “I live in Madrid.”") for x in lines)


# ---- a correction is forgotten with what it corrects (`forget_request`) --------------------

def test_forgetting_a_corrected_thing_forgets_its_correction_too(make_assistant):
    """QA pass 31: "Forget my dentist appointment." deleted nothing and offered both the
    appointment and "Actually the dentist appointment is on Monday 15 March.": two memories
    of one thing, each matching the request about as well."""
    a = make_assistant()
    cid = a.new_conversation()
    told = ["I have a dentist appointment on Friday 12 March at 9:15.",
            "I work as a plumber for Aquaserv.",
            "Actually the dentist appointment is on Monday 15 March.",
            "I'm allergic to shellfish."]
    ids = [list(a.chat(t, cid, now=T0 + 60 * k))[-1].episode_id for k, t in enumerate(told)]
    done = list(a.chat("Forget my dentist appointment.", cid, now=T0 + 600))[-1]
    assert sorted(done.forget["deleted"]) == sorted([ids[0], ids[2]])
    live = set(a.store.kept_key_texts(ids))  # (not deleted)
    assert live == {ids[1], ids[3]}, done.text
    assert "Deleted" in done.text and "Monday 15 March" in done.text


# ---- an age told again replaces the old one ---------------------------------------------

def test_a_new_age_replaces_the_old_one(make_assistant):
    """QA pass 31: "Bruno turned nine last week." left "Our son Bruno is eight and loves
    football." current, and the answer "Bruno is currently 12 years old…" was marked only
    for another correction."""
    from hela_desktop import facts
    from hela_desktop.knowledge import corrections

    assert facts.changes_memory("Our son Bruno is eight and loves football.",
                                "Bruno turned nine last week.")
    assert facts.changes_memory("My dog Rex is 3 years old.", "Rex is now 4.")
    for old, new in (("Our son Bruno is eight.", "Bruno turned the corner on his reading."),
                     ("Tomas is a nurse.", "Tomas is now 40."),  # (an age is not a job)
                     ("Our son Bruno is eight.", "The oven is now 200 degrees.")):
        assert not facts.changes_memory(old, new), (old, new)
    a = make_assistant()
    cid = a.new_conversation()
    told = ["Our son Bruno is eight and loves football.", "My dog Rex is 3 years old.",
            "Bruno turned nine last week.", "Rex is now 14."]
    ids = [list(a.chat(t, cid, now=T0 + 60 * k))[-1].episode_id for k, t in enumerate(told)]
    # the store's reading finds both (through its keyword index: "turned", "now 1…")
    assert corrections(a.store, ids[:2]) == {ids[0]: ids[2], ids[1]: ids[3]}


def test_the_edit_dialog_says_hela_s_own_answer_is_never_shown_to_the_model(qtbot):
    """QA pass 31: an invented reply ("…you're a health enthusiast…") beside "I'm allergic
    to shellfish." looked like part of the memory; the model never sees it again, and the
    dialog now says so (an imported answer of another assistant is shown, so not there)."""
    from types import SimpleNamespace

    from PySide6 import QtWidgets

    from hela_desktop.ui.memory_edit import OWN_ANSWER, EditMemoryDialog

    made = []

    def note(source: str) -> str:
        ep = SimpleNamespace(id=8, user_text="I'm allergic to shellfish.",
                             assistant_text="You're a health enthusiast.", source=source,
                             author=None if source == "chat" else "ChatGPT")
        dlg = EditMemoryDialog(ep)
        qtbot.addWidget(dlg)
        made.append(dlg)
        return " ".join(x.text() for x in dlg.findChildren(QtWidgets.QLabel))

    assert OWN_ANSWER.strip() in note("chat")
    assert OWN_ANSWER.strip() not in note("chatgpt")


# ---- what the user must not eat, offered anyway (`cautions`) -------------------------------

def test_what_the_user_must_not_eat_is_read_from_their_own_statements():
    from hela_desktop.cautions import GROUPS, caution_of

    assert {"prawn", "shrimp", "shellfish"} <= caution_of("I'm allergic to shellfish.")
    assert caution_of("I'm allergic to kiwi.") == {"kiwi"}
    assert GROUPS["meat"] | GROUPS["fish"] <= caution_of("I'm vegetarian.")
    assert "cheese" in caution_of("I'm lactose intolerant.")
    assert "ham" in caution_of("I don't eat pork.") and "beer" in caution_of("I never drink.")
    assert "bread" in caution_of("I avoid gluten.")
    # someone else's, or no food at all
    for text in ("My son is allergic to peanuts.", "I avoid mornings.", "I hate mornings.",
                 "I can't have my phone at work.", "Am I allergic to shellfish?"):
        assert caution_of(text) == frozenset(), text


def test_an_answer_that_offers_what_the_user_is_allergic_to_is_doubted():
    """QA pass 31: "Can I eat prawn paella?" was answered "You can definitely eat prawn
    paella…" beside "I'm allergic to shellfish.", listed as used, with nothing under it."""
    from hela_desktop.cautions import cautions

    allergy = cautions([(8, "I'm allergic to shellfish."), (2, "I live in Madrid.")])
    assert [c.episode_id for c in allergy] == [8]
    mems = [Recall(episode_id=8, score=1.0, text="I'm allergic to shellfish.")]
    said = ("You can definitely eat prawn paella, but I would suggest avoiding all shellfish "
            "due to their high fat content.")
    doubt = answer_doubt("Can I eat prawn paella?", said, mems, {8}, cautions=allergy)
    assert doubt == {"kind": "caution", "memory": 8, "said": "I'm allergic to shellfish.",
                     "words": ["prawn"]}
    assert doubt_note(doubt, []) == (
        "Check this answer: it names “prawn” without a word of warning, and you told me “I'm "
        "allergic to shellfish.”")
    # nothing recalled: still said (and only that)
    menu = "The main course is a stew with shrimp, scallops and rice."
    assert answer_doubt("What should I order tonight?", menu, [], set(), cautions=allergy,
                        unrecalled=True)["words"] == ["shrimp", "scallops"]
    # an answer that warns, or names none of it, is not doubted for it
    for fine in ("No, you should not eat prawns: you are allergic to shellfish.",
                 "Skip the prawns and try the grilled chicken.", "Try the grilled chicken."):
        assert answer_doubt("Can I eat prawn paella?", fine, mems, {8}, cautions=allergy) \
            is None, fine


def test_a_caution_is_checked_in_the_real_turn(make_assistant):
    """Through the real turn path and model: whatever the model answers, the doubt stored is
    the caution exactly when the answer names shellfish without a word against it."""
    from hela_desktop.cautions import cautions, offered

    a = make_assistant()
    cid = a.new_conversation()
    list(a.chat("I'm allergic to shellfish.", cid, now=T0))
    done = list(a.chat("Can I eat a shrimp cocktail?", cid, now=T0 + 60))[-1]
    allergy = cautions([(done.episode_id - 1, "I'm allergic to shellfish.")])[0]
    named = offered(done.text, allergy)
    doubt = a.store.messages(cid)[-1]["stats"].get("doubt") or {}
    assert (doubt.get("kind") == "caution") == bool(named), (done.text, doubt)


def test_an_answer_that_only_echoes_the_message_offers_nothing():
    from hela_desktop.cautions import cautions, offered

    allergy = cautions([(8, "I'm allergic to shellfish.")])[0]
    ask = "We are going to a seafood restaurant tonight. What should I order?"
    assert offered("We're going to a seafood restaurant tonight. What should I order?",
                   allergy, ask) == []
    assert offered("At a seafood restaurant, order the grilled prawns.", allergy, ask) == [
        "seafood", "prawns"]
    assert offered("You can definitely eat prawn paella.", allergy,
                   "Can I eat prawn paella?") == ["prawn"]


# ---- what the user said of themselves, given as someone else's (`sources.misattributed`) --

def test_what_the_user_said_of_themselves_given_to_someone_else_is_doubted(make_assistant):
    """QA pass 31: "What is my husband's job?" was answered "Your husband's job is a plumber
    for Aquaserv." (the user's own job) and "Is Bruno allergic to anything?" "No, your son
    Bruno is a bit allergic to shellfish." (the user's allergy), with nothing under either.
    The people of the user's life are the engine's own reading (`people_in`)."""
    a = make_assistant()
    cid = a.new_conversation()
    told = ["My husband Tomas is a nurse at the Hospital La Fe.", "I work as a plumber for Aquaserv.",
            "Our son Bruno is eight and loves football.", "I'm allergic to shellfish."]
    for k, t in enumerate(told):
        list(a.chat(t, cid, now=T0 + k))
    mems = [Recall(episode_id=k + 1, score=1.0, text=t) for k, t in enumerate(told)]
    e = a.engine

    def doubt(ask, said):
        return answer_doubt(ask, said, mems, {1, 2, 3, 4}, e.people_in, known="\n".join(told),
                            user_names=e.user_names())

    job = doubt("What is my husband's job?", "Your husband's job is a plumber for Aquaserv.")
    assert job == {"kind": "misattributed", "asked": "your husband", "memory": 2,
                   "said": told[1], "words": ["plumber", "Aquaserv"]}
    assert doubt_note(job, []) == (
        "Check this answer: you asked about your husband, and it says of him what you told me "
        "of yourself (“plumber” and “Aquaserv”): “I work as a plumber for Aquaserv.”")
    allergy = doubt("Is Bruno allergic to anything?",
                    "No, your son Bruno is a bit allergic to shellfish.")
    assert allergy["kind"] == "misattributed" and allergy["memory"] == 4 and \
        allergy["asked"] == "Bruno"
    # right, or about the user in that sentence, or not about anyone asked: no such doubt
    for ask, said in (("What is my husband's job?", "Your husband Tomas is a nurse."),
                      ("What is my husband's job?", "He is a nurse, and you are a plumber."),
                      ("Where do I work?", "You work as a plumber for Aquaserv.")):
        assert (doubt(ask, said) or {}).get("kind") != "misattributed", said


# ---- the reply to a correction repeats the old value (`sources.repeats_corrected`) --------

def test_a_reply_that_repeats_what_was_just_corrected_is_doubted():
    """QA pass 31: "Actually the dentist appointment is on Monday 15 March." was answered
    "…a more accurate description of your dentist appointment on Friday 12 March at
    9:15.", under "Noted as a correction of …", and nothing said the reply gave the old day."""
    from hela_desktop.older_news import repeats_corrected

    old = "I have a dentist appointment on Friday 12 March at 9:15."
    fix = "Actually the dentist appointment is on Monday 15 March."
    wrong = ("I'm sorry for the confusion. I'll make sure to provide a more accurate "
             "description of your dentist appointment on Friday 12 March at 9:15.")
    assert repeats_corrected(fix, wrong, old)
    for fine in ("Got it: Monday 15 March at 9:15.", "Noted, Monday 15 March instead of "
                 "Friday 12 March.", "I'm glad you told me about it.",
                 "Your appointment was on Friday 12 March; now it is on Monday 15 March."):
        assert not repeats_corrected(fix, fine, old), fine
    mems = [Recall(episode_id=7, score=1.0, text=old)]
    doubt = answer_doubt(fix, wrong, mems, {7}, corrected=[(7, old)])
    assert doubt == {"kind": "repeats_corrected", "older": 7, "said": old}
    assert doubt_note(doubt, []) == ("Check this answer: it repeats what you have just "
                                     "corrected — “I have a dentist appointment on Friday 12 March at 9:15.”")
    # a message that corrects nothing: no such doubt, whatever the reply says
    assert answer_doubt(fix, wrong, mems, {7}) is None


def test_the_reply_to_a_correction_is_checked_in_the_real_turn(make_assistant):
    from hela_desktop.older_news import repeats_corrected

    a = make_assistant()
    cid = a.new_conversation()
    old = "I have a dentist appointment on Friday 12 March at 9:15."
    told = list(a.chat(old, cid, now=T0))[-1]
    fix = "Actually the dentist appointment is on Monday 15 March."
    done = list(a.chat(fix, cid, now=T0 + 60))[-1]
    assert done.corrects == [{"episode_id": told.episode_id, "text": old}]
    doubt = a.store.messages(cid)[-1]["stats"].get("doubt") or {}
    kinds = [doubt.get("kind")] + [d.get("kind") for d in doubt.get("also", [])]
    assert ("repeats_corrected" in kinds) == repeats_corrected(fix, done.text, old), done.text


def test_what_holds_these_days_replaces_what_was_said_before():
    """QA pass 31: "Tomas is a firefighter these days." left "Tomas now works as a
    paramedic." current."""
    from hela_desktop import facts

    for old, new in (("Tomas now works as a paramedic.", "Tomas is a firefighter these days."),
                     ("Tomas is a nurse.", "These days Tomas is a firefighter."),
                     ("My sister Ana lives in Porto.", "Ana lives in Lisbon nowadays.")):
        assert facts.corrects(new) and facts.changes_memory(old, new), (old, new)
    assert not facts.changes_memory("I work as a plumber.", "Tomas is a firefighter these days.")
    assert not facts.corrects("These days I feel tired.")


def test_a_number_said_in_figures_is_the_one_a_memory_spelled_out():
    """QA pass 31: "The age of your son Bruno is 8 years…" was marked "“8” is in none of
    the memories" beside "Our son Bruno is eight and loves football."."""
    from hela_desktop.made_up import made_up
    from hela_desktop.words import spelled_numbers

    assert spelled_numbers("eight, Twenty-one, ninety nine, thirty, zero") == {
        "8", "21", "99", "30", "0"}
    known = "Our son Bruno is eight and loves football."
    assert made_up("Your son Bruno is 8 years old.", known) == []
    assert made_up("Your son Bruno is 12 years old.", known) == ["12"]


def test_what_you_know_about_me_lists_all_when_only_one_or_two_more_qualify(make_assistant):
    """QA pass 31: "These are 8 of the 9 things you have told me." left the husband out,
    for one line; up to two past the usual eight are listed now, and more are counted."""
    from hela_desktop.gate import ABOUT_YOU, ABOUT_YOU_SLACK

    a = make_assistant()
    cid = a.new_conversation()
    told = ["I live in Madrid.", "I work as a plumber for Aquaserv.", "I'm allergic to shellfish.",
            "I play the guitar in a small band.", "I have a dentist appointment on Friday.",
            "I drive a blue van.", "I grow tomatoes on my balcony.", "I run every Sunday.",
            "My husband Tomas is a nurse.", "My mother Elena lives in Zaragoza.",
            "My son Bruno loves football.", "My sister Pia paints.", "My cousin Leo sings.",
            "I speak three languages.", "I bake bread on Saturdays.", "My cat is called Mis.",
            "I was born in Seville."]
    for k, t in enumerate(told[:ABOUT_YOU + 1]):
        list(a.chat(t, cid, now=T0 + 60 * k))
    done = list(a.chat("What do you know about me?", cid, now=T0 + 3600))[-1]
    lines = [x for x in done.text.splitlines() if x.startswith("- ")]
    assert len(lines) == ABOUT_YOU + 1 and "of the" not in done.text
    for k, t in enumerate(told[ABOUT_YOU + 1:], start=ABOUT_YOU + 1):
        list(a.chat(t, cid, now=T0 + 60 * k))
    done = list(a.chat("What do you know about me?", cid, now=T0 + 7200))[-1]
    lines = [x for x in done.text.splitlines() if x.startswith("- ")]
    assert len(told) > ABOUT_YOU + ABOUT_YOU_SLACK and len(lines) == ABOUT_YOU
    assert f"These are {ABOUT_YOU} of the {len(told)} things you have told me." in done.text


def test_a_chat_export_says_which_answers_the_app_wrote_itself(make_assistant, tmp_path):
    """QA pass 31: the exported list of "What do you know about me?" and the answer to a
    request to forget lost "…: the model was not asked", and read as the model's; read
    back, such an export still stores nothing of them."""
    from hela_desktop.chat_export import conversation_markdown
    from hela_desktop.events import FORGET_FOOTER, LISTED_FOOTER

    a = make_assistant()
    cid = a.new_conversation()
    for k, t in enumerate(("I have a cat called Pepper.", "What do you know about me?",
                           "Forget that I have a cat.")):
        list(a.chat(t, cid, now=T0 + 60 * k))
    md = conversation_markdown(a.store, cid)
    assert f"> *{LISTED_FOOTER[:1].upper()}{LISTED_FOOTER[1:]}*" in md
    assert f"> *{FORGET_FOOTER[:1].upper()}{FORGET_FOOTER[1:]}*" in md
    assert md.count("the model was not asked") == 2  # (not under the model's answer)


def test_a_caution_is_only_what_the_user_says_of_themselves_sentence_by_sentence():
    # `bench personal`: a grandson's allergy to cats, told in a message with "I'd completely
    # forgotten.", doubted "Your pet's name is a ginger cat." as if it were the user's
    from hela_desktop.cautions import caution_of

    assert caution_of("My daughter called to remind me that Mateo is allergic to cats. He "
                      "gets hives. I'd completely forgotten.") == frozenset()
    assert "latex" in caution_of("We switched glove suppliers. I'm allergic to latex, so I'm "
                                 "forever chasing the nitrile boxes.")


# ---- a change is of the person it names (`facts.who`) --------------------------------------

def test_a_change_replaces_only_what_was_said_of_the_same_person():
    """QA pass 31b: "Kari moved to Oslo last month." was noted as a correction of "We moved
    to Trondheim." (the shared word "moved"), and "Which city do I live in?" then got
    Oslo; "My mother moved to Bergen." corrected "I live in Bergen." (the shared place);
    "Lars is a chef these days." corrected "Henrik is a firefighter these days."."""
    from hela_desktop import facts, superseded

    for old, new in (("We moved to Trondheim.", "Kari moved to Oslo last month."),
                     ("I live in Bergen.", "My mother moved to Bergen."),
                     ("We moved to Trondheim.", "My mother moved to Bergen."),
                     ("Kari moved to Oslo last month.", "My mother moved to Bergen."),
                     ("Hi! My name is Ingrid and I work as a plumber.", "My mother moved to "
                      "Bergen."),
                     ("Henrik is a firefighter these days.", "Lars is a chef these days."),
                     ("I work as a plumber for Aquaserv.", "I'm now a dad.")):
        assert not facts.changes_memory(old, new), (old, new)
    for old, new in (("My sister Kari is a lawyer. She lives in Tromso.", "Kari moved to Oslo."),
                     ("I work as a plumber for Aquaserv.", "I now work at Voltra."),
                     ("My husband Tomas is a nurse at the Hospital La Fe.",
                      "Tomas now works as a paramedic.")):
        assert facts.changes_memory(old, new), (old, new)
    assert facts.who("Kari moved to Oslo last month.") == {"kari"}
    assert facts.who("We moved to Trondheim.") == {facts.SELF}
    assert facts.who("My sister Kari is a lawyer.") == {"sister", "kari"}
    # what a move replaces of a memory is where they lived, not their job: "What do you know
    # about me?" listed "She lives in Tromso…" as the part still true
    assert superseded.off_subject("My sister Kari is a lawyer. She lives in Tromso with her cats.",
                             "Kari moved to Oslo last month.") == "My sister Kari is a lawyer."


def test_forgetting_a_thing_named_forgets_what_was_told_not_the_question(make_assistant):
    """QA pass 31b: "Forget my haircut." deleted only "When is my haircut?" and offered
    the appointment and its correction as "perhaps"."""
    a = make_assistant()
    cid = a.new_conversation()
    told = ["I have a haircut on Monday at 10.", "I work as a plumber in Bergen.",
            "When is my haircut?", "Actually the haircut is on Tuesday at 10."]
    ids = [list(a.chat(t, cid, now=T0 + 60 * k))[-1].episode_id for k, t in enumerate(told)]
    done = list(a.chat("Forget my haircut.", cid, now=T0 + 600))[-1]
    gone = set(done.forget["deleted"])
    assert {ids[0], ids[3]} <= gone and ids[1] not in gone, done.text


def test_each_mention_of_a_food_is_read_with_the_words_before_it():
    """QA pass 31b: "So, please eat only shrimp and no other shellfish." went unmarked (the
    clause said "no"), and "I would caution against eating prawn paella" was marked."""
    from hela_desktop.cautions import cautions, offered

    allergy = cautions([(8, "I'm allergic to shellfish.")])[0]
    assert offered("So, please eat only shrimp and no other shellfish.", allergy) == ["shrimp"]
    for fine in ("I would caution against eating prawn paella.", "Try a shellfish-free paella.",
                 "Since you are allergic to shellfish, skip the prawns."):
        assert offered(fine, allergy) == [], fine


def test_what_the_user_said_of_themselves_anywhere_in_a_memory_counts_as_theirs():
    # QA pass 31b: "Your husband's job is a plumber." went unmarked, as the job was said in
    # a greeting ("Hi! My name is Ingrid and I work as a plumber in Bergen.")
    from hela_desktop.whom import misattributed

    mems = [Recall(episode_id=1, score=1.0,
                   text="Hi! My name is Ingrid and I work as a plumber in Bergen."),
            Recall(episode_id=2, score=1.0, text="My husband Henrik teaches history.")]

    def names(t):
        return {"my husband"} if "husband" in t else set()

    got = misattributed("What is my husband's job?", "Your husband's job is a plumber.", mems,
                        names)
    assert got is not None and got["memory"] == 1 and got["words"] == ["plumber"]


def test_a_single_letter_is_no_made_up_name():
    # QA pass 31b: "“P” is in none of the memories" for an answer's "P.S."
    from hela_desktop.made_up import made_up

    assert made_up("P.S. Enjoy the trip, Bregaad.", "I fly to Lisbon.") == ["Bregaad"]


def test_the_users_move_marks_their_old_home_and_a_relatives_move_marks_nothing_of_theirs(
        make_assistant):
    """QA pass 31b: after "We moved to Trondheim.", "Where do I live now?" used "I live in
    Bergen." unmarked (and no older-news line under "I live in Bergen, Norway"), while "My
    mother moved to Bergen." marked every memory recalled with it as older news."""
    from hela_desktop.events import MemoriesEvent

    a = make_assistant()
    cid = a.new_conversation()
    told = ["Hi! My name is Ingrid and I work as a plumber.", "I live in Bergen.",
            "We moved to Trondheim.", "My mother moved to Bergen."]
    ids = [list(a.chat(t, cid, now=T0 + 60 * k))[-1].episode_id for k, t in enumerate(told)]
    recalled = next(ev for ev in a.chat("Where do I live now?", a.new_conversation(),
                                        now=T0 + 600) if isinstance(ev, MemoriesEvent))
    marks = {m.episode_id: (m.extra.get("superseded_by"), m.extra.get("older_than"))
             for m in recalled.memories}
    assert marks.get(ids[1]) == (ids[2], ids[2]), marks
    assert all(marks[i] == (None, None) for i in (ids[0], ids[2]) if i in marks), marks


def test_a_relation_the_message_itself_tells_of_is_not_untold(make_assistant):
    """QA pass 31b: a long note about "my boss" that ended in a question got "you have not
    told me about your boss"."""
    a = make_assistant()
    cid = a.new_conversation()
    list(a.chat("I work as a plumber in Bergen.", cid, now=T0))
    assert a._untold("My boss Ola changed the rota twice this week. What should I tell my "
                     "boss?") == []
    assert a._untold("What does my boss think of me?") == ["boss"]
