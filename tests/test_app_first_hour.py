"""The desktop app's first hour (issue 15), pytest-qt offscreen: status before the first
token and Esc in that phase, search by meaning, plain-language settings and panels,
activity sentences, one source of truth after changes, and the chat basics."""

from __future__ import annotations

import sys
import threading
import time

import pytest
import qt_env  # noqa: F401  (before PySide6: offscreen, a throwaway QSettings folder)

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")

from PySide6 import QtCore, QtGui, QtWidgets  # noqa: E402
from test_ui_app import (
    _ui_settings,  # noqa: E402
    _wait,  # noqa: E402
    give_keys,  # noqa: E402
    graph_on,  # noqa: E402
    op_done,  # noqa: E402
)

from hela_desktop.config import Settings  # noqa: E402
from hela_desktop.store import Store  # noqa: E402

pytestmark = [pytest.mark.gui, pytest.mark.slow]  # the whole app, one hour of use

SEED = [
    ("I am allergic to peanuts, so I avoid satay.", "Good to know; I will keep that in mind."),
    ("My sister Ana lives in Lisbon.", "Nice, Lisbon is a lovely city."),
    ("I work as a nurse at the hospital in Porto.", "Nursing is demanding work."),
    ("My cat is called Miso and he is orange.", "Miso is a great name for a cat."),
    ("Shellfish gives me an allergic rash, so I skip prawns.", "That sounds unpleasant."),
    ("I am learning to play the piano.", "Practice a little every day."),
]


@pytest.fixture
def seeded_dir(seed_dir):
    return seed_dir(SEED)


class _Gate(QtCore.QObject):
    """Blocks the assistant thread until released (to queue a request behind it)."""

    block = QtCore.Signal()

    def __init__(self, thread: QtCore.QThread):
        super().__init__()
        self.release = threading.Event()
        self.moveToThread(thread)
        self.block.connect(self._wait, QtCore.Qt.ConnectionType.QueuedConnection)

    @QtCore.Slot()
    def _wait(self) -> None:
        self.release.wait(30)


def test_status_before_first_token_and_esc_in_that_phase(qtbot, seeded_dir, llm, embedder):
    from hela_desktop.ui.main_window import MainWindow

    w = MainWindow(seeded_dir, _ui_settings(), assistant_kwargs={"llm": llm, "embedder": embedder},
                   idle_scheduler=False)
    qtbot.addWidget(w)
    w.show()
    _wait(qtbot, lambda: w.model_ready and w.embedder_ready, 120)
    view = w.chat.view
    reader = Store(seeded_dir)  # the test's own look at the database

    # 1. the answer has not begun (the assistant thread is busy): Esc drops it at once,
    #    nothing is stored, and the message goes back into the input box
    gate = _Gate(w.client.worker_thread)
    gate.block.emit()
    w.send("What am I allergic to?")
    assert view.live_status  # a sign of life in the answer bubble
    w.act_stop.trigger()
    assert not w.is_streaming()  # at once: no event was handled in between
    assert w.chat.input.toPlainText() == "What am I allergic to?"
    assert "What am I allergic" not in view.toPlainText() and view.live_key() is None
    gate.release.set()
    qtbot.wait(300)
    assert reader.conversations() == []  # nothing of it was stored

    # 2. Esc while the prompt is being read: stops within a chunk, keeps no empty answer
    w.chat.input.clear()
    statuses: list[str] = []
    reading: list[tuple[int, int]] = []  # (tokens read, of) as the prompt is read

    def on_status(phase: str, done: int, total: int) -> None:
        statuses.append(phase)
        if phase == "reading":
            reading.append((done, total))

    w.client.worker.turnStatus.connect(on_status)
    w.session.last_done = None
    w.send("Read this long note please. " + "The river bends north past the old mill. " * 45)
    _wait(qtbot, lambda: view.live_status.startswith("Reading"), 60)
    assert "%" in view.live_status and "tokens" in view.live_status
    w.act_stop.trigger()
    _wait(qtbot, lambda: w.session.last_done is not None, 30)
    # it stopped inside the prompt, not after reading it whole (a chunk is about 0.15 s;
    # counted in tokens, not seconds, so a busy machine cannot fail it; on a busy one Esc
    # can come before the first chunk is read: (0, 446) is inside the prompt too)
    assert reading and reading[-1][0] < reading[-1][1], reading
    assert w.session.last_done.interrupted and w.session.last_done.tokens == 0 and w.session.last_done.message_id is None
    assert "stopped — 0 tokens" not in view.toPlainText()
    assert "Stopped before the answer began" in view.toPlainText()
    msgs = reader.messages(w.current_conv)
    assert [m["role"] for m in msgs] == ["user"]
    assert statuses[:2] == ["recalling", "reading"]

    # 3. a message too long for the model is refused before anything is stored: its
    #    bubbles go, the text goes back into the box, a notice says why; nothing is lost
    w.chat.input.clear()
    n_before = len(reader.messages(w.current_conv))
    failed: list = []
    w.client.worker.turnFailed.connect(lambda m, refused: failed.append(refused))
    long = "Please keep this. " * 1200
    w.send(long)
    # (the worker's signal reaches `failed` at once; the window's slot, which puts the text
    # back, runs when the queued signal arrives)
    _wait(qtbot, lambda: bool(failed) and not w.is_streaming()
          and bool(w.chat.input.toPlainText()), 60)
    assert failed == [True]
    assert w.chat.input.toPlainText() == long.strip()
    assert "Please keep this" not in view.toPlainText() and view.live_key() is None
    assert "Not sent: message too long" in view.toPlainText()
    assert "back in the box" in view.toPlainText()
    assert len(reader.messages(w.current_conv)) == n_before
    w.chat.input.clear()

    # 4. a normal answer replaces the status with its first token
    w.session.last_done = None
    w.send("Where does Ana live?")
    _wait(qtbot, lambda: w.session.last_done is not None, 60)
    assert view.live_status == "" and "Reading your message" not in view.toPlainText()
    assert w.session.last_done.tokens > 0
    w.close()
    reader.close()


def test_search_by_meaning_in_browser_and_graph(qtbot, seeded_dir, embedder):
    from hela_desktop.ui.main_window import MainWindow

    w = MainWindow(seeded_dir, _ui_settings(), load_model=False,
                   assistant_kwargs={"embedder": embedder}, idle_scheduler=False)
    qtbot.addWidget(w)
    w.show()
    _wait(qtbot, lambda: w.embedder_ready, 60)
    reader = Store(seeded_dir)  # the test's own look at the database
    allergic = {1, 5}  # "allergic to peanuts", "hives … allergic reaction"

    # the memory browser: "allergy" finds the two memories that say "allergic", best first
    w.search_memories()
    w.browser.search.setText("allergy")
    _wait(qtbot, lambda: "best match first" in w.browser.count_label.text(), 20)
    ids = [e.id for e in w.browser.model.episodes]
    assert set(ids) == allergic, ids
    w.browser.search.setText("food allergy")
    _wait(qtbot, lambda: "best match first" in w.browser.count_label.text()
          and w.browser.ranked_text() == "food allergy", 20)
    assert {e.id for e in w.browser.model.episodes} == allergic
    # words still work, ranked: "Lisbon" puts Ana's memory first
    # (the ranking arrives first, the table it orders a moment later: until then the count
    # line still says "best match first" of the last search's rows)
    w.browser.search.setText("Lisbon")
    _wait(qtbot, lambda: w.browser.ranked_text() == "Lisbon"
          and "best match first" in w.browser.count_label.text()
          and set(e.id for e in w.browser.model.episodes) != allergic, 20)
    assert w.browser.model.episodes[0].id == 2

    # the graph's find box: the same ranking, literal label matches after it
    w.right_tabs.setCurrentIndex(0)
    w.graph.search.setText("allergy")
    _wait(qtbot, lambda: len(w.graph.search_rows) >= 2, 20)
    found = {int(w.graph.data.ids[r]) for r in w.graph.search_rows}
    # ("allergic" is found by meaning, none of the words typed: as the browser marks it)
    assert found == allergic and w.graph.match_label.text() == "2 by meaning"
    w.graph.next_match()
    assert w.graph.selected in allergic

    # a deleted memory leaves the results at once (one source of truth)
    w.right_tabs.setCurrentIndex(1)
    w.browser.search.setText("allergy")
    # (the ranking arrives before the rows it orders: until they do, the table still holds
    # the last search's rows, and a row chosen then was another memory; CI, session 26)
    _wait(qtbot, lambda: w.browser.ranked_text() == "allergy"
          and {e.id for e in w.browser.model.episodes} == allergic, 20)
    w.browser.select_id(5)
    assert w.browser.selected_id() == 5
    with op_done(qtbot, w, "delete"):
        w.browser.delete_selected()
    assert reader.episode(5).deleted_at is not None
    # (0.03 s on a quiet machine; beside two busy processes on 2 cores it took over 20 s,
    # as the worker's queue drains: CI failed on it once, session 19)
    _wait(qtbot, lambda: [e.id for e in w.browser.model.episodes] == [1], 60)
    w.close()
    reader.close()


# ---------------------------------------------------------------- plain language -------
RESEARCH_WORDS = ("Re-retrieve", "Look back over", "Swap time budget", "cos²", "hela-nospread",
                  "hela-paper", "relevance=", "base=")


def test_settings_speak_plainly_with_details_behind_advanced(qtbot, tmp_path):
    from hela_desktop.ui.settings_dialog import SettingsDialog

    dlg = SettingsDialog(Settings(), tmp_path)
    qtbot.addWidget(dlg)
    dlg.show()

    def visible_words() -> str:
        texts = [lab.text() for lab in dlg.findChildren(QtWidgets.QLabel) if lab.isVisible()]
        texts += [dlg.profile.itemText(i) for i in range(dlg.profile.count())]
        texts += [b.title() for b in dlg.findChildren(QtWidgets.QGroupBox) if b.isVisible()]
        return "\n".join(texts)

    words = visible_words()
    assert not [w for w in RESEARCH_WORDS if w in words], words
    assert "How memories are found" in words and "Meaning, words and links (recommended)" in words
    assert dlg.profile.currentData() == "hela"  # plain names, same profile ids
    # the technical settings are behind "Advanced", closed at first
    assert not dlg.advanced.isVisible() and not dlg.n_ctx.isVisible()
    dlg.advanced_button.click()
    assert dlg.advanced.isVisible() and dlg.n_ctx.isVisible() and dlg.time_budget.isVisible()
    assert "Pauses allowed for memory swaps" in visible_words()
    # every setting still names its settings.json key for those who look
    for box, key in ((dlg.reretrieve, "reretrieve_every"), (dlg.lookback, "lookback_tokens"),
                     (dlg.time_budget, "swap_time_budget"), (dlg.n_ctx, "n_ctx"),
                     (dlg.temperature, "temperature")):
        assert box.toolTip().endswith(f"({key})")


def test_why_recalled_panel_explains_itself():
    from hela_desktop.ui.explain import recall_html, recall_reasons

    # what the issue saw: found "directly" although base was 0
    weak = {"score": -1.2, "semantic": 0.12, "keyword": 0.0, "recency": 0.93, "spread": 0.0,
            "path": "base", "extra": {"base": 0.0, "relevance": -1.261, "cos": 0.12}}
    reasons = recall_reasons(weak)
    assert reasons[0] == "It is not much related in meaning to what was being said."
    assert "not a strong match" in " ".join(reasons) and "older" in reasons[-1]
    page = recall_html(weak)
    assert "relevance" not in page and "1.261" not in page and "Details ▸" in page
    assert "<td nowrap>Shared words</td>" in page  # bar labels never break mid-word
    detailed = recall_html(weak, details=True)
    assert "relevance -1.261" in detailed and "Hide details" in detailed

    linked = {"score": 1.4, "semantic": 0.55, "keyword": 2.3, "recency": 1.0, "spread": 0.3,
              "spread_from": 7, "path": "associative", "extra": {"base": 0.8, "cos": 0.55}}
    reasons = recall_reasons(linked, lambda i: "Ana sails")
    assert reasons[:2] == ["It is close in meaning to what was being said.", "It shares words with it."]
    assert "It is linked to memory #7 (Ana sails), which was recalled too." in reasons
    assert any("by association" in r for r in reasons)


def test_why_recalled_details_toggle_in_graph_panel(qtbot, tmp_path):
    from hela_desktop.ui.graph_model import snapshot_from_store
    from hela_desktop.ui.graph_view import GraphView

    store = Store(tmp_path)
    ids = [store.add_episode(f"question {i}", f"answer {i}", __import__("numpy").ones(8, "float32"))
           for i in range(3)]
    view = GraphView(threaded=False)
    qtbot.addWidget(view)
    view.resize(700, 400)
    view.show()
    view.set_snapshot(snapshot_from_store(store), animate=False)
    view.set_active(ids[:1], {ids[0]: {"score": 0.2, "semantic": 0.45, "keyword": 1.0, "recency": 1.0,
                                       "spread": 0.0, "path": "base", "extra": {"base": 0.3, "cos": 0.45}}})
    view.select(ids[0])
    text = view.details.toPlainText()
    assert "close in meaning" in text and "shares words" in text and "base 0.300" not in text
    view.open_details_link(QtCore.QUrl("toggle:recall-details"))
    assert "base 0.300" in view.details.toPlainText()
    store.close()


def test_activity_reports_read_as_sentences():
    from hela_desktop.ui.explain import activity_sentence, reflection_sentence

    # the example, interrupted by typing
    s = activity_sentence("consolidate", {"graph_hash": "3919ab", "hubs": 2, "clusters": 3,
                                          "distilled": 1, "added": 1, "remaining": 1, "yielded": True})
    assert s == ("Distilled 1 new fact from 1 group of related memories. Stopped early because "
                 "you started typing; 1 group will be read at the next idle moment.")
    assert activity_sentence("consolidate", {"hubs": 0, "clusters": 0}) == \
        "No busy group of memories to distil yet."
    assert activity_sentence("forget", {"checked": 12, "archived": [3, 7]}) == \
        "Archived 2 weak, isolated, stale memories (#3, #7) — restore them from the Archive tab."
    assert activity_sentence("forget", {"checked": 12, "archived": []}) == \
        "Checked 12 memories; none was weak, isolated and old enough to archive."
    # a run stopped by typing is not reported as "nothing new"
    r = reflection_sentence({"trigger": "idle", "yielded": True,
                             "consolidation": {"hubs": 2, "clusters": 2, "yielded": True, "remaining": 2},
                             "forgetting": None})
    assert "Stopped early because you started typing" in r and "nothing new" not in r.lower()
    assert reflection_sentence({"error": "model missing"}) == "Reflection failed: model missing"


# ---------------------------------------------------------------- one source of truth --
def test_no_stale_state_after_delete_or_switching_folder(qtbot, seeded_dir, embedder, tmp_path):
    from hela_desktop.ui.main_window import MainWindow

    now = time.time()
    with Store(seeded_dir) as st:  # one distilled fact in folder A
        kid = st.conn.execute(
            "INSERT INTO knowledge(uid, kind, text, created_at, updated_at, strength) "
            "VALUES ('k1', 'fact', 'The user is allergic to peanuts', ?, ?, 1.0)", (now, now)).lastrowid
        st.conn.execute("INSERT INTO knowledge_sources(knowledge_id, episode_id) VALUES (?, 1)", (kid,))
    other = tmp_path / "other"
    with Store(other) as st:
        st.add_episode("Folder B only", "yes", __import__("numpy").ones(384, "float32"))

    w = MainWindow(seeded_dir, _ui_settings(), load_model=False,
                   assistant_kwargs={"embedder": embedder}, idle_scheduler=False)
    qtbot.addWidget(w)
    w.show()
    _wait(qtbot, lambda: w.embedder_ready, 60)
    # the graph and the status bar count the same memories (the fact is not a memory)
    _wait(qtbot, lambda: "6 memories · 1 fact" in w.graph.stats_label.text(), 20)
    assert w.status.memories.text() == "6 memories"

    # a deleted memory: no longer selected, bold in the timeline, or counted anywhere
    w.graph.select(4)
    w.on_node_selected(4)
    assert w.timeline.highlight_ids == {4}
    w.right_tabs.setCurrentIndex(1)
    _wait(qtbot, lambda: any(e.id == 4 for e in w.browser.model.episodes), 20)
    w.browser.select_id(4)
    assert w.browser.selected_id() == 4
    with op_done(qtbot, w, "delete"):
        w.browser.delete_selected()
    _wait(qtbot, lambda: 4 not in w.graph.data.index, 20)
    assert w.graph.selected is None and w.timeline.highlight_ids == set()
    assert w.status.memories.text() == "5 memories" and w.graph.stats_label.text().startswith("5 memories")
    assert w.browser.undo_bar.isVisible()

    # switching the data folder: nothing of folder A stays on screen
    w.right_tabs.setCurrentIndex(0)
    w.graph.search.setText("peanuts")  # a match stepped to in the find box (QA pass 19:
    _wait(qtbot, lambda: len(w.graph.search_rows) >= 1, 20)  # its rows pointed into the
    w.graph.next_match()  # old graph, and the next snapshot raised IndexError)
    w.graph.select(-kid)
    assert "allergic to peanuts" in w.graph.details.toPlainText()
    errors: list = []
    hook, sys.excepthook = sys.excepthook, lambda *exc: errors.append(exc)
    try:
        w.apply_settings(_ui_settings(), other)
        _wait(qtbot, lambda: w.embedder_ready and len(w.graph.data) == 1, 60)
        qtbot.wait(300)
    finally:
        sys.excepthook = hook
    assert errors == [] and w.graph.search.text() == "" and len(w.graph.search_rows) == 0
    assert w.graph.selected is None and "allergic" not in w.graph.details.toPlainText()
    assert w.status.memories.text() == "1 memory" and w.graph.stats_label.text().startswith("1 memory")
    assert not w.browser.undo_bar.isVisible() and w.browser.undo_ids() == []
    w.browser.undo_delete()  # the undo of folder A's delete must not touch folder B
    w.browser.tabs.setCurrentIndex(1)
    assert w.browser.knowledge.rowCount() == 0
    w.right_tabs.setCurrentIndex(1)
    w.browser.tabs.setCurrentIndex(0)
    _wait(qtbot, lambda: [e.user_text for e in w.browser.model.episodes] == ["Folder B only"], 20)
    w.close()


# ---------------------------------------------------------------- chat basics ----------
def test_chat_basics_copy_code_regenerate_edit_export_zoom_theme_reopen(qtbot, seeded_dir, llm, embedder,
                                                                        tmp_path):
    from hela_desktop.ui.main_window import MainWindow

    with Store(seeded_dir) as st:  # a stored chat with a code block in its answer
        cid = st.add_conversation("Code chat")
        st.add_message(cid, "user", "Show me a loop in Python")
        st.add_message(cid, "assistant", "Here:\n```python\nfor i in range(3):\n    print(i)\n```\nDone.")
    w = MainWindow(seeded_dir, _ui_settings(), assistant_kwargs={"llm": llm, "embedder": embedder},
                   idle_scheduler=False)
    qtbot.addWidget(w)
    w.show()
    _wait(qtbot, lambda: w.model_ready and w.embedder_ready, 120)
    reader = Store(seeded_dir)  # the test's own look at the database
    _wait(qtbot, lambda: len(w.conversations.chats()) == 1, 20)
    w.conversations.list.setCurrentIndex(w.conversations.list.model().index(0, 0))
    view = w.chat.view
    _wait(qtbot, lambda: [e["role"] for e in view.entries] == ["user", "assistant"], 20)

    # copy a message (as written, Markdown kept) and a code block (plain + coloured HTML)
    clip = QtGui.QGuiApplication.clipboard()
    view.copy_message(1)
    assert clip.text().startswith("Here:\n```python\nfor i in range(3):")
    key = view.entries[1]["key"]
    a, b, lang = view.msgs[key]["blocks"][0]
    assert lang == "python"
    pos = a + 2
    code, lang = view.code_block_at(pos)
    assert code == "for i in range(3):\n    print(i)"
    # the block is syntax-highlighted: "for" has a keyword colour, unlike plain text
    c = QtGui.QTextCursor(view.document())
    c.setPosition(a + 1)
    plain = QtGui.QTextCursor(view.document())
    plain.setPosition(view.document().toPlainText().index("Done.") + 1)
    assert c.charFormat().foreground().color() != plain.charFormat().foreground().color()
    menu = view.context_menu(pos)
    labels = [act.text() for act in menu.actions()]
    assert "Copy message" in labels and "Copy code block" in labels and "Regenerate answer" in labels
    next(act for act in menu.actions() if act.text() == "Copy code block").trigger()
    assert clip.text() == code and "color:" in clip.mimeData().html()
    user_menu = [act.text() for act in view.context_menu(view.entries[0]["frame"].firstPosition() + 1).actions()]
    assert "Edit and resend…" in user_menu and "Regenerate answer" not in user_menu

    # regenerate: the last answer is replaced, the chat keeps one user message
    said = reader.messages(cid)[0]["created_at"]
    qtbot.wait(1100)  # (a second on: a time taken anew would show)
    w.session.last_done = None
    w.regenerate()
    _wait(qtbot, lambda: w.session.last_done is not None, 90)
    msgs = reader.messages(cid)
    # … and the message keeps its time, and so does the memory it forms (session 19: both
    # were re-stamped, so a message answered again a week later passed for news over what
    # had been said since)
    assert msgs[0]["created_at"] == said < msgs[1]["created_at"] - 1
    assert reader.episode(w.session.last_done.episode_id).created_at == said
    # (the model's own answer, not the one planted above; it may hold code of its own)
    assert [m["role"] for m in msgs] == ["user", "assistant"]
    assert not msgs[1]["content"].startswith("Here:\n```python\nfor i in range(3):")
    assert msgs[0]["content"] == "Show me a loop in Python"
    first_episode = w.session.last_done.episode_id

    # edit and resend: the message and what followed are replaced (the old memory goes)
    w.session.last_done = None
    w.edit_and_resend(0, "Where does my sister Ana live?")
    _wait(qtbot, lambda: w.session.last_done is not None, 90)
    msgs = reader.messages(cid)
    assert [m["content"] for m in msgs][0] == "Where does my sister Ana live?" and len(msgs) == 2
    assert msgs[0]["created_at"] > said + 1  # new words: said now
    assert reader.episode(first_episode).deleted_at is not None
    assert [e["role"] for e in view.entries] == ["user", "assistant"]
    # the Archive tab tells a replaced answer from one the user deleted (session 18: it
    # counted answers Regenerate replaced as "deleted by you")
    from hela_desktop.store import REPLACED
    from hela_desktop.ui.archive_tab import removed_counts

    reasons = reader.archive_reasons([first_episode])
    assert reasons == {first_episode: REPLACED}
    assert removed_counts([reader.episode(first_episode)], reasons) == (
        "1 answer replaced by a new one")

    # export one chat as Markdown
    out = w.files.export_chat_to(tmp_path / "chat.md")
    md = out.read_text(encoding="utf-8")
    assert md.startswith("# Code chat\n") and "**You** · " in md and "Where does my sister Ana live?" in md
    assert md.count("**HeLa** · ") == 1

    # Delete key in the memory browser deletes the selected memory (with undo)
    w.right_tabs.setCurrentIndex(1)
    _wait(qtbot, lambda: any(e.id == 3 for e in w.browser.model.episodes), 20)
    w.browser.select_id(3)
    assert w.browser.selected_id() == 3
    give_keys(qtbot, w.browser.table)
    with op_done(qtbot, w, "delete"):
        qtbot.keyClick(w.browser.table, QtCore.Qt.Key.Key_Delete)
    assert reader.episode(3).deleted_at is not None and w.browser.undo_bar.isVisible()

    # font zoom: Ctrl+= / Ctrl+- change the chat's text size, remembered
    size0 = view.font().pointSizeF()
    w.act_zoom_in.trigger()
    w.act_zoom_in.trigger()
    assert view.font().pointSizeF() > size0 * 1.15 and w.chat.input.font().pointSizeF() == view.font().pointSizeF()
    w.act_zoom_out.trigger()
    assert QtCore.QSettings().value("chat/zoom") in (1, "1")
    normal = next(a for a in w.findChildren(QtGui.QAction)  # Ctrl+0, as in a browser
                  if a.shortcut() == QtGui.QKeySequence("Ctrl+0"))
    normal.trigger()
    assert view.font().pointSizeF() == pytest.approx(size0)

    # light / dark / follow the system
    w.theme_actions["dark"].trigger()
    assert w.dark and QtWidgets.QApplication.palette().color(QtGui.QPalette.ColorRole.Window).lightness() < 128
    w.theme_actions["light"].trigger()
    assert not w.dark and QtWidgets.QApplication.palette().color(QtGui.QPalette.ColorRole.Window).lightness() > 128
    assert QtCore.QSettings().value("appearance") == "light"
    w.theme_actions["system"].trigger()
    w.close()
    reader.close()

    # the last chat reopens on launch
    w2 = MainWindow(seeded_dir, _ui_settings(), load_model=False, assistant_kwargs={"embedder": embedder},
                    idle_scheduler=False)
    qtbot.addWidget(w2)
    _wait(qtbot, lambda: w2.current_conv == cid and w2.conversations.current_id() == cid, 20)
    _wait(qtbot, lambda: "Where does my sister Ana live?" in w2.chat.view.toPlainText(), 20)
    w2.close()


# ---------------------------------------------------------------- graph readability ----
def test_topics_found_and_named_on_the_graph():
    import numpy as np

    from hela_desktop.ui.graph_model import communities, name_communities, weighted_degree

    # two triangles (a: 0-1-2, b: 3-4-5, c: 6-7 pair) joined by weak bridges
    src = np.array([0, 0, 1, 3, 3, 4, 2, 6, 5])
    dst = np.array([1, 2, 2, 4, 5, 5, 3, 7, 6])
    w = np.array([1, 1, 1, 1, 1, 1, 0.1, 1, 0.1])
    g = communities(8, src, dst, w)
    assert g[0] == g[1] == g[2] and g[3] == g[4] == g[5] and g[6] == g[7]
    assert len({g[0], g[3], g[6]}) == 3
    assert sorted(np.bincount(g).tolist(), reverse=True) == np.bincount(g).tolist()  # 0 = largest
    assert communities(3, np.zeros(0, int), np.zeros(0, int), np.zeros(0)).tolist() == [0, 1, 2]
    # weighted degree by hand: node 2 has edges 0-2 (1), 1-2 (1), 2-3 (0.1)
    assert weighted_degree(8, src, dst, w)[2] == pytest.approx(2.1)

    texts = ["Ana loves sailing", "sailing on the Tagus with Ana", "Ana bought a sailing boat",
             "my cat Miso sleeps", "Miso the cat is orange", "Miso chased a cat", "x", "y"]
    names = name_communities(g, texts, min_size=3)
    assert set(names) == {int(g[0]), int(g[3])}  # the pair is too small to name
    assert set(names[int(g[0])].split(" · ")) <= {"sailing", "ana"}
    assert set(names[int(g[3])].split(" · ")) <= {"miso", "cat"}
    # distilled knowledge names its group first
    named = name_communities(g, texts, min_size=3, knowledge={int(g[0]): "Ana sails on the Tagus"})
    assert named[int(g[0])] == "Ana sails on the Tagus"
    # numbers name nothing a person can place: an imported vault's groups were "2024 · noa"
    dated = ["2024 Ana sailing", "2024 155 sailing", "2024 155 Ana",
             "my cat Miso", "Miso the cat", "Miso and a cat", "x", "y"]
    assert set(name_communities(g, dated, min_size=3)[int(g[0])].split(" · ")) <= {"sailing", "ana"}


def test_graph_view_colours_names_fades_refits_and_folds_details(qtbot):

    from hela_desktop.bench.gui import synthetic_graph
    from hela_desktop.ui.graph_view import GraphView

    view = GraphView(threaded=False)
    qtbot.addWidget(view)
    view.resize(1200, 700)
    view.show()
    view.set_snapshot(synthetic_graph(600), animate=False)
    view.settle(150)
    qtbot.wait(50)
    # topics: the largest groups have their own colour and a name
    coloured = [b for b in range(len(view.topic_items)) if (view.topic_bucket == b).sum()]
    assert len(coloured) >= 4 and view.topic_names
    assert sum(len(item) for item in view.topic_items) + len(view.node_items["episode"]) == \
        len(view.kind_rows["episode"])
    # zoomed out: a map of topics, weak links faded out
    assert view.zoomed_out and not view.edge_items[0].isVisible()
    shown = [t for t in view.topic_labels if t.isVisible()]
    assert shown and all(t.toPlainText() in view.topic_names.values() for t in shown)
    rects = [t.sceneBoundingRect() for t in shown]  # names never cover each other
    assert not any(a.intersects(b) for i, a in enumerate(rects) for b in rects[i + 1:])
    # zoomed in: names and weak links come back as the detail grows
    p = view.xy[0]
    view.vb.setRange(QtCore.QRectF(p[0] - 1, p[1] - 1, 2, 2), padding=0)
    qtbot.wait(50)
    assert not view.zoomed_out and view.edge_items[0].isVisible()
    assert not any(t.isVisible() for t in view.topic_labels)
    # the view re-fits when the window grows (until the user zooms by hand)
    view.fit(user=True)
    qtbot.wait(50)
    before = view.vb.viewRect()
    view.resize(1500, 900)
    qtbot.wait(100)
    assert view.vb.viewRect() != before
    # the detail pane folds away when the pane is narrow, and on request
    assert view.details.isVisible()
    view.resize(540, 600)
    qtbot.wait(50)
    assert not view.details.isVisible() and not view.details_button.isChecked()
    view.details_button.click()
    assert view.details.isVisible()
    view.shutdown()


def test_important_idle_memories_are_labelled_where_there_is_room(qtbot, tmp_path):
    import numpy as np

    from hela_desktop.ui.graph_model import snapshot_from_store

    store = Store(tmp_path)
    ids = [store.add_episode(f"memory number {i}", "ok", np.ones(8, "float32")) for i in range(12)]
    hub = ids[0]
    store.upsert_edges([(hub, j, 0.9, 0.0, 3, 0, time.time()) for j in ids[1:6]])
    view = graph_on(qtbot, store, 100)
    assert view.important[0] == hub  # the most linked memory comes first
    # a fit leaves room for the legend in the bottom-left corner: no memory under it (the
    # memories laid out on a grid, so that one sits in that corner)
    view.xy[:] = np.array([((i % 3) * 15, (i // 3) * 12) for i in range(len(view.xy))],
                          dtype=view.xy.dtype)
    view.fit()
    qtbot.wait(50)
    assert view.legend.isVisible()
    box = view.legend.mapRectToScene(view.legend.boundingRect())
    for x, y in view.xy:
        assert not box.contains(view.vb.mapViewToScene(QtCore.QPointF(x, y)))
    labelled = [t.toPlainText() for t in view.memory_labels if t.isVisible()]
    assert "memory number 0" in labelled[0]  # nothing is active, the hub is still named
    # among the most linked, a statement names the graph before a question does
    fact = store.add_episode("My dog is called Pixel.", "ok", np.ones(8, "float32"))
    ask = store.add_episode("What's my dog's name?", "ok", np.ones(8, "float32"))
    store.upsert_edges([(j, ask, 0.9, 0.0, 3, 0, time.time()) for j in ids[6:11]]
                       + [(ids[11], fact, 0.3, 0.0, 1, 0, time.time())])
    view.set_snapshot(snapshot_from_store(store), animate=False)
    view.settle(100)
    assert view.important[0] == fact and ask in view.important
    # labels stay on screen and sit on a backing, also in a narrow window with details
    view.resize(520, 420)
    view.details_button.setChecked(True)
    view.details.setVisible(True)
    for i in ids[:8]:
        view.select(i)
        qtbot.wait(20)
        shown = view.plot.mapToScene(view.plot.viewport().rect()).boundingRect()
        for t in view.memory_labels:
            if t.isVisible():
                r = t.mapRectToScene(t.boundingRect())
                assert shown.adjusted(-2, -2, 2, 2).contains(r), (t.toPlainText(), r, shown)
                assert t.fill.color().alpha() == 235
    # a pan (or a zoom, or a re-fit when the window is resized) places the labels again:
    # one that was right of its dot must not stay half off the screen
    view.resize(700, 420)
    view.select(ids[0])
    qtbot.wait(50)
    view.vb.translateBy(x=view.vb.viewRect().width() * 0.35)
    qtbot.wait(50)
    shown = view.plot.mapToScene(view.plot.viewport().rect()).boundingRect()
    for t in view.memory_labels:
        r = t.mapRectToScene(t.boundingRect())
        if t.isVisible() and shown.intersects(r):
            assert shown.adjusted(-2, -2, 2, 2).contains(r), (t.toPlainText(), r, shown)
    store.close()
