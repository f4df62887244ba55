"""QA pass 13 (a new user's first hour: three facts, a new chat, the Memories tab, the
backups, a quit in the middle of an answer): what the window got wrong.

pytest-qt offscreen, the real window on a real data folder (real SQLite, real embedder
where memories are needed), no model loaded.  Screenshots: /work/exp/qa13u/shots/."""

from __future__ import annotations

import time

import pytest
import qt_env  # noqa: F401  (before PySide6: offscreen, a throwaway QSettings folder)

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")

from PySide6 import QtCore  # noqa: E402
from test_app_polish import _window  # noqa: E402
from test_ui_app import SEED, _wait  # noqa: E402

from hela_desktop.events import ReflectionEvent  # noqa: E402
from hela_desktop.store import Store  # noqa: E402
from hela_desktop.ui.window_status import answer_sources  # noqa: E402

pytestmark = pytest.mark.gui

ANA = "My sister Ana lives in Lisbon"


def _folder(tmp_path):
    """A data folder with three linked memories (random vectors: no embedder needed)."""
    import numpy as np

    data_dir = tmp_path / "data"
    rng = np.random.default_rng(13)
    with Store(data_dir) as store:
        made = [store.add_episode(t, "Noted.", rng.normal(size=8).astype(np.float32),
                                  created_at=1.7e9 + i)
                for i, t in enumerate((ANA, "I'm allergic to peanuts", "My dog is called Pixel"))]
        store.upsert_edges([(made[0], made[1], 0.3, 0.5, 1, 0, 1.7e9),
                            (made[1], made[2], 0.3, 0.5, 1, 0, 1.7e9)])
    return data_dir


def test_a_statement_said_twice_is_named_once_under_the_answer():
    """Said again in a new chat, "My sister Ana lives in Lisbon" is a second memory; an
    answer that recalled both read "From your memories: “My sister Ana lives in Lisbon” ·
    “My sister Ana lives in Lisbon”" (/work/exp/qa13u/shots/29-restart-after-ctrlq-tokens.png).
    The same words are named once, by the memory recalled first; others stay in order."""
    recalls = [{"episode_id": 10, "text": ANA, "kind": "episode"},
               {"episode_id": 1, "text": ANA, "kind": "episode"},
               {"episode_id": 2, "text": "I'm allergic to peanuts", "kind": "episode"},
               {"episode_id": 11, "text": f"my  sister ana lives in {'lisbon'}", "kind": "episode"}]
    shown, more, unrecalled, *_ = answer_sources(recalls)
    assert [i for i, _, _ in shown] == [10, 2] and more == 0 and not unrecalled
    # five memories, two of them the same words: four named, none "more"
    five = [{"episode_id": i, "text": f"memory {i}"} for i in range(4)] + [
        {"episode_id": 9, "text": "memory 0"}]
    assert answer_sources(five) == (answer_sources(five[:4]).shown, 0, False, None, frozenset(), "", "", frozenset(), "")


def test_a_memory_named_under_an_answer_opens_the_folded_details(qtbot, tmp_path):
    """At the window's first size the graph pane is narrower than the detail pane needs,
    so the pane is folded; clicking a memory under an answer ("From your memories") or in
    the timeline only ringed it in the graph: its text and why it was recalled stayed out
    of sight (/work/exp/qa13u/shots/08-clicked-memory.png).  The click now opens the pane,
    as a click on the memory in the graph does; a pane the user folded stays folded."""
    from hela_desktop.ui.graph_view import DETAILS_ROOM

    w = _window(qtbot, _folder(tmp_path))
    w.resize(1000, 640)  # (pass 14: at the first size, 1480 x 900, the pane is open)
    g = w.graph
    _wait(qtbot, lambda: len(g.data.nodes) == 3, 20)
    _wait(qtbot, lambda: g.width() > 0 and not g.details.isVisible(), 10)
    assert g.width() < DETAILS_ROOM  # the pane folded by itself
    eid = int(g.data.ids[0])
    w.chat.view.memoryClicked.emit(eid)
    assert g.selected == eid
    _wait(qtbot, lambda: g.details.isVisible(), 5)
    assert g.details_button.isChecked()
    assert f"#{eid}" in g.details.toPlainText() and "Why it was last recalled" in g.details.toPlainText()
    # folded by the user: a later click in the timeline leaves it folded
    g.details_button.click()
    assert not g.details.isVisible()
    other = int(g.data.ids[1])
    w.timeline.memoryClicked.emit(other)
    assert g.selected == other and not g.details.isVisible()
    w.close()


def test_an_open_backups_list_shows_the_backup_made_while_it_was_open(qtbot, tmp_path):
    """File ▸ Backups… stayed "No backups yet: Back up now makes the first." while the
    status bar said "While you were away: Backed up your memories to backups/memory-….sqlite3"
    (/work/exp/qa13u/shots/21-backups-x.png): the idle reflection's backup did not reach an
    open list (only Back up now did).  The list is read again when a reflection made one."""
    from hela_desktop.backups import make_backup
    from hela_desktop.store import DB_FILE
    from hela_desktop.ui.backups_dialog import BackupsDialog

    data_dir = tmp_path / "data"
    with Store(data_dir) as store:
        store.add_conversation("Hello")
    w = _window(qtbot, data_dir)
    dlg = BackupsDialog(data_dir / DB_FILE, 7, lambda: None, lambda _p: None, w)
    qtbot.addWidget(dlg)
    w._backups_dialog = dlg  # as while File ▸ Backups… is open
    assert dlg.backups == [] and dlg.count_label.text().startswith("No backups yet")
    with Store(data_dir) as store:  # the assistant thread's idle pass, here by hand
        made = make_backup(store, keep=7)
    w._on_reflection(ReflectionEvent("idle", time.time(), backup={"file": made.path.name}))
    assert [b.path.name for b in dlg.backups] == [made.path.name]
    assert dlg.count_label.text().startswith("1 backup in ")
    assert w.statusBar().currentMessage().startswith("While you were away: Backed up")
    w._backups_dialog = None
    w.close()


def test_delete_in_memories_chooses_the_next_row_and_undo_the_restored_one(
        qtbot, seed_dir, embedder):
    """After Delete in the Memories tab no row was chosen: Edit, Pin and Delete went grey
    and a second Delete did nothing (/work/exp/qa13u/shots/14-deleted.png); after Undo the
    memory came back unchosen.  The row that takes the deleted one's place is chosen, and
    Undo chooses the memory it brought back (in the table only: a deleted memory's
    selection in the graph is cleared, as before)."""
    from test_deleting import _memories_tab

    w, b = _memories_tab(qtbot, seed_dir(SEED), embedder)
    _wait(qtbot, lambda: b.model.rowCount() == len(SEED), 20)
    ids = [e.id for e in b.model.episodes]
    b.table.selectRow(1)
    b.delete_selected()
    _wait(qtbot, lambda: b.model.rowCount() == len(SEED) - 1 and b.selected_id() == ids[2], 20)
    assert b.delete_button.isEnabled() and b.edit_button.isEnabled()
    assert w.graph.selected is None  # only the table's choice: the graph is not told
    b.delete_selected()  # Delete again: the next one goes
    _wait(qtbot, lambda: b.model.rowCount() == len(SEED) - 2 and b.selected_id() == ids[3], 20)
    b.table.selectRow(b.model.rowCount() - 1)  # the last row: the one above takes its place
    last = b.selected_id()
    b.delete_selected()
    _wait(qtbot, lambda: b.model.rowCount() == len(SEED) - 3
          and b.selected_id() == ids[-2], 20)
    b.undo_delete()
    _wait(qtbot, lambda: b.model.rowCount() == len(SEED) - 2 and b.selected_id() == last, 20)
    w.close()


def test_the_last_column_says_used_not_recalled(qtbot, tmp_path):
    """A question asked again word for word, or a memory brought back by Undo, moves its
    last use without a recall: rows read "Recalled 0" beside a time under "Last recalled"
    (/work/exp/qa13u/shots/11-memories-tab.png).  The column is "Last used" and its header
    says what counts; the graph's details say "last used" too."""
    from hela_desktop.ui.memory_browser import EpisodeTableModel

    m = EpisodeTableModel()
    horizontal, tip = QtCore.Qt.Orientation.Horizontal, QtCore.Qt.ItemDataRole.ToolTipRole
    assert m.headerData(5, horizontal) == "Last used"
    assert "asked again" in m.headerData(5, horizontal, tip)
    assert "recalled" in m.headerData(4, horizontal, tip)
    data_dir = _folder(tmp_path)
    with Store(data_dir) as store:
        store.touch_episode(1, time.time())  # asked again word for word
    w = _window(qtbot, data_dir)
    g = w.graph
    _wait(qtbot, lambda: 1 in g.data.nodes, 20)
    g.unfold_details()
    g.select(1)
    assert "recalled 0× · last used " in g.details.toPlainText()
    w.close()


def test_the_timeline_of_an_answer_the_model_did_not_write_does_not_ask_for_a_message(qtbot):
    """After "Forget that I'm allergic to peanuts" (answered by the app, 0 tokens) the
    timeline under "Answer · message #24" said "Send a message: each row here will show
    one memory…", as for an empty chat (/work/exp/qa13u/shots/40-archive.png)."""
    from hela_desktop.ui.timeline import TimelineView

    t = TimelineView()
    qtbot.addWidget(t)
    t.set_answer([], 0, "Answer · message #24")
    assert t.empty_hint() == "No memories were active here: the model did not write this answer."
    t.clear()  # a new chat: nothing sent yet
    assert t.empty_hint().startswith("Send a message")
    t.set_answer([], 60, "Answer · message #26")  # written, nothing recalled: as before
    assert t.empty_hint().startswith("No memories were recalled for this answer")


def test_the_details_pane_cuts_a_long_answer_before_why_it_was_recalled(qtbot, tmp_path):
    """A memory whose answer ran to the 256-token limit filled the narrow detail pane:
    "Why it was last recalled" began below its bottom edge (/work/exp/qa13u/shots/
    09-node-details.png).  Your words stay whole; the answer is cut at a word after 300
    characters (the whole of it: the Memories tab)."""
    import numpy as np

    from hela_desktop.ui.graph_details import ANSWER_SHOWN, shown_text

    rambling = "O mesgo e a mudeira, pessocilada para todo o que eu ficará em um dia. " * 20
    assert shown_text(f"You: {ANA}\nHeLa: Nice.") == f"You: {ANA}\nHeLa: Nice."
    cut = shown_text(f"You: {ANA}\nHeLa: {rambling}")
    assert cut.startswith(f"You: {ANA}\nHeLa: O mesgo e a mudeira") and cut.endswith("…")
    assert len(cut.partition("\nHeLa: ")[2]) <= ANSWER_SHOWN
    assert shown_text(ANA) == ANA  # no answer
    data_dir = tmp_path / "data"
    with Store(data_dir) as store:
        eid = store.add_episode(ANA, rambling, np.ones(8, np.float32), created_at=1.7e9)
    w = _window(qtbot, data_dir)
    g = w.graph
    _wait(qtbot, lambda: eid in g.data.nodes, 20)
    g.unfold_details()
    g.select(eid)
    shown = g.details.toPlainText()
    assert f"You: {ANA}" in shown and rambling.strip() not in shown
    assert "Why it was last recalled" in shown
    w.close()


def test_rename_shows_a_long_title_in_a_box_wide_enough_to_read(qtbot, tmp_path):
    """A new chat is titled with its first message, up to 200 characters; Rename put it in
    a box 150 pixels wide, showing "Where does my sister live?" and no more
    (/work/exp/qa13u/shots/16-rename.png).  The box is at least 420 pixels wide, wider
    for a long title (up to 760), and still answers what was typed."""
    from PySide6 import QtWidgets

    title = ("Can you help me plan a week in Lisbon with my sister Ana, who lives there, "
             "and my cat Pixel, who hates trains?")
    data_dir = tmp_path / "data"
    with Store(data_dir) as store:
        cid = store.add_conversation(title)
    w = _window(qtbot, data_dir)
    lst = w.conversations.list
    _wait(qtbot, lambda: lst.model().rowCount() == 1, 20)
    lst.setCurrentIndex(lst.model().index(0, 0))
    seen = {}

    def answer():
        dlg = QtWidgets.QApplication.activeModalWidget()
        edit = dlg.findChild(QtWidgets.QLineEdit)
        seen.update(text=edit.text(), edit=edit.width(),
                    needs=edit.fontMetrics().horizontalAdvance(title))
        edit.setText("Lisbon week")
        dlg.accept()

    QtCore.QTimer.singleShot(200, answer)
    with qtbot.waitSignal(w.conversations.renameRequested, timeout=5000) as sig:
        w.conversations.rename_current()
    assert sig.args == [cid, "Lisbon week"]
    assert seen["text"] == title
    assert seen["edit"] >= 380 and seen["edit"] >= min(seen["needs"], 700), seen
    w.close()


def test_the_details_button_tells_the_truth_after_a_resize_behind_the_memories_tab(
        qtbot, tmp_path):
    """Widened while the Memories tab was in front (a maximised window, say), the graph
    opened its detail pane but the Details button stayed "off": behind the tab the pane
    was not visible yet (/work/exp/qa13u/shots/56-large.png).  The button follows what
    the pane will show, and narrowing folds both again."""
    from hela_desktop.ui.graph_view import DETAILS_ROOM

    w = _window(qtbot, _folder(tmp_path))
    w.resize(1000, 700)
    g = w.graph
    _wait(qtbot, lambda: len(g.data.nodes) == 3, 20)
    _wait(qtbot, lambda: not g.details_button.isChecked() and g.details.isHidden(), 5)
    w.right_tabs.setCurrentIndex(1)  # Memories in front
    w.resize(2000, 1000)
    qtbot.wait(50)
    w.right_tabs.setCurrentIndex(0)
    _wait(qtbot, lambda: g.width() >= DETAILS_ROOM and g.details.isVisible(), 5)
    assert g.details_button.isChecked()
    w.right_tabs.setCurrentIndex(1)
    w.resize(1000, 700)
    qtbot.wait(50)
    w.right_tabs.setCurrentIndex(0)
    _wait(qtbot, lambda: g.width() < DETAILS_ROOM, 5)
    assert not g.details.isVisible() and not g.details_button.isChecked()
    w.close()


def test_a_long_status_message_ends_in_an_ellipsis_and_shows_whole_on_hover(qtbot, tmp_path):
    """A long "While you were away: …" line was cut mid-letter by the widgets on the right
    ("… or not in your own words). C", /work/exp/qa13u/shots/44-find-graph.png).  It now
    ends in "…" where it must, says all of it on hover, and a wider window shows more."""
    from PySide6 import QtWidgets

    w = _window(qtbot, _folder(tmp_path))
    w.resize(1000, 700)
    _wait(qtbot, lambda: w.statusBar().width() > 900, 10)
    bar = w.statusBar()
    text = ("While you were away: Read 1 group of related memories; nothing new to add (the "
            "model's 3 suggestions were set aside: too short, repeated, or not in your own "
            "words). Consolidated 4 memories and backed up your memories to backups/x.sqlite3.")
    bar.showMessage(text, 60000)
    shown = bar.currentMessage()
    assert shown != text and shown.endswith("…") and text.startswith(shown[:-1])
    assert bar.fontMetrics().horizontalAdvance(shown) <= bar.room()
    assert text in bar.toolTip()
    w.resize(1580, 700)
    _wait(qtbot, lambda: len(bar.currentMessage()) > len(shown), 10)
    assert text.startswith(bar.currentMessage().rstrip("…")) and text in bar.toolTip()
    # a short one is left as it is; one Qt puts up itself (a status tip) is its own whole
    bar.showMessage("Saved.", 5000)
    assert bar.currentMessage() == "Saved." and bar.full_message == "Saved."
    QtWidgets.QStatusBar.showMessage(bar, "Open a memory file")
    assert bar.full_message == "Open a memory file" and "Open a memory file" in bar.toolTip()
    w.close()


def test_help_lists_every_shortcut_and_ctrl_z_undoes_a_deleted_memory(qtbot, seed_dir, embedder):
    """Help had only About: nothing listed the keyboard shortcuts README promises, and Edit ▸
    Undo delete memory did not show its key.  Help ▸ Keyboard shortcuts (F1) lists every
    menu action's keys by its menu, and the widgets' own keys; the menu shows Ctrl+Z, which
    in the Memories tab brings back the memory deleted last, while the message box keeps
    its own undo."""
    from PySide6 import QtGui
    from test_deleting import _memories_tab

    w, b = _memories_tab(qtbot, seed_dir(SEED), embedder)
    _wait(qtbot, lambda: b.model.rowCount() == len(SEED), 20)
    assert w.act_undo_delete.text().endswith("\t" + QtGui.QKeySequence(
        QtGui.QKeySequence.StandardKey.Undo).toString(QtGui.QKeySequence.SequenceFormat.NativeText))
    w.act_keys.trigger()
    dlg = w.keys_dialog
    assert dlg.isVisible() and dlg.windowTitle() == "Keyboard shortcuts"
    t = dlg.table
    rows = {(t.item(i, 0).text(), t.item(i, 1).text()) for i in range(t.rowCount())}
    undo = QtGui.QKeySequence(QtGui.QKeySequence.StandardKey.Undo).toString(
        QtGui.QKeySequence.SequenceFormat.NativeText)
    assert {("Ctrl+N", "File ▸ New chat (also Chat ▸ New chat)"), ("F1", "Help ▸ Keyboard shortcuts"),
            (undo, "Edit ▸ Undo"), ("Ctrl+Q", "File ▸ Quit"),
            ("Enter", "Send the message (message box)")} <= rows
    assert any(k.startswith("Ctrl+") and what == "View ▸ Zoom in" for k, what in rows)
    w.act_keys.trigger()  # again: the same window, raised
    assert w.keys_dialog is dlg
    dlg.close()
    # Ctrl+Z: in the message box, its own undo; elsewhere, the deleted memory comes back
    gone = b.model.episodes[0].id
    b.table.selectRow(0)
    b.delete_selected()
    _wait(qtbot, lambda: b.model.rowCount() == len(SEED) - 1 and w.act_undo_delete.isEnabled(), 20)
    w.activateWindow()
    box = w.chat.input
    box.setFocus()
    _wait(qtbot, box.hasFocus, 5)
    qtbot.keyClicks(box, "hello")
    qtbot.keyClick(box, QtCore.Qt.Key.Key_Z, QtCore.Qt.KeyboardModifier.ControlModifier)
    assert box.toPlainText() == "" and w.act_undo_delete.isEnabled()
    assert b.model.rowCount() == len(SEED) - 1
    from PySide6 import QtWidgets

    w.activateWindow()  # a window's shortcut needs it active (the list was closed above)
    _wait(qtbot, lambda: QtWidgets.QApplication.activeWindow() is w, 5)
    b.table.setFocus()
    _wait(qtbot, b.table.hasFocus, 5)
    qtbot.keyClick(b.table, QtCore.Qt.Key.Key_Z, QtCore.Qt.KeyboardModifier.ControlModifier)
    _wait(qtbot, lambda: b.model.rowCount() == len(SEED)
          and gone in [e.id for e in b.model.episodes], 20)
    w.close()


def test_a_refused_key_in_settings_says_the_range(qtbot, tmp_path):
    """Typing "99" into Memories per answer (at most 15) left "9" without a word, and
    "5000" in Longest answer became 500 (/work/exp/qa13u/shots/34-settings-typed.png):
    Qt refuses the key.  The box now says its range when it does, and in its tooltip."""
    from PySide6 import QtWidgets

    from hela_desktop.config import Settings
    from hela_desktop.ui.settings_dialog import SettingsDialog

    dlg = SettingsDialog(Settings(), tmp_path / "data")
    qtbot.addWidget(dlg)
    dlg.show()
    box = dlg.max_memories
    assert "\nFrom 1 to 15" in box.toolTip()
    assert dlg.reretrieve.toolTip().endswith("\nFrom 1 to 20 tokens (reretrieve_every)")
    assert dlg.backup_keep.range_words() == "From 0 (none) to 365 backups"
    assert dlg.idle.range_words() == "From 0.1 to 1440 min"  # (not "1440.0": QA pass 35)
    box.setFocus()
    box.lineEdit().selectAll()
    qtbot.keyClicks(box, "99")
    assert box.value() == 9
    _wait(qtbot, lambda: QtWidgets.QToolTip.isVisible()
          and QtWidgets.QToolTip.text() == "Memories at a time, at most: From 1 to 15", 5)
    # (QA pass 32: shown under the box, over the next row, it names its own field)
    assert dlg.n_ctx.field_name() == "Context size"
    dlg.reject()
