"""QA pass 15w (the window's known leftovers, then a demanding user's pass in the real
window under Xvfb): what it got wrong.

Real SQLite files, the real embedder and the real small model; screenshots:
/work/exp/qa15w/shots/."""

from __future__ import annotations

import pytest
import qt_env  # noqa: F401  (before PySide6: offscreen, a throwaway QSettings folder)

from hela_desktop.ui.undo_history import KNOWLEDGE, MEMORY, UndoHistory


def test_the_undo_history_takes_back_the_latest_step_of_any_kind_or_of_one():
    h = UndoHistory()
    h.push(MEMORY, [3])
    h.push(KNOWLEDGE, [2])
    h.push(MEMORY, [1, 5], "Forget that my cat is called Miso")
    assert h.push(MEMORY, []) is None  # a forget that deleted nothing is no step
    assert h.last().undo_text() == "Undo forget “Forget that my cat is called Miso”"
    assert h.last(KNOWLEDGE).done() == "Knowledge #2 deleted."
    assert h.ids(MEMORY) == [3, 1, 5]
    h.drop(MEMORY, [1, 5])  # restored in the Archive tab: the forget's step goes
    assert h.last().undo_text() == "Undo delete knowledge #2"
    assert h.pop(MEMORY).ids == (3,) and h.pop().kind == KNOWLEDGE and h.pop() is None


@pytest.mark.gui
def test_ctrl_z_after_forget_in_the_chat_brings_back_what_it_forgot(qtbot, seed_dir, llm,
                                                                  embedder):
    """Deleted "I work as a nurse…" in the Memories tab, then typed "Forget that my cat is
    called Miso" in the chat: Ctrl+Z in the Memories tab brought back the nurse, the older
    deletion, and the cat stayed forgotten (/work/exp/qa15w/shots/04_ctrlz_old.png).  The
    window keeps one undo history in the order things happened: Ctrl+Z (and Edit ▸ Undo,
    which names it) takes back the forget first, then the older deletion."""
    pytest.importorskip("pytestqt")
    from PySide6 import QtCore, QtWidgets
    from test_ui_app import SEED, _ui_settings, _wait

    from hela_desktop.store import Store
    from hela_desktop.ui.main_window import MainWindow

    data = seed_dir(SEED)
    w = MainWindow(data, _ui_settings(), assistant_kwargs={"llm": llm, "embedder": embedder},
                   idle_scheduler=False)
    qtbot.addWidget(w)
    w.show()
    _wait(qtbot, lambda: w.model_ready and w.embedder_ready, 120)
    w.right_tabs.setCurrentIndex(1)
    b = w.browser
    _wait(qtbot, lambda: b.model.rowCount() == len(SEED), 20)
    nurse = next(e.id for e in b.model.episodes if "nurse" in e.user_text)
    cat = next(e.id for e in b.model.episodes if "Miso" in e.user_text)
    b.select_id(nurse)
    b.delete_selected()
    _wait(qtbot, lambda: b.model.rowCount() == len(SEED) - 1, 20)
    assert w.act_undo_delete.text().startswith(f"&Undo delete memory #{nurse}\t")
    w.send("Forget that my cat is called Miso")
    _wait(qtbot, lambda: not w.is_streaming(), 60)
    reader = Store(data)
    assert reader.episode(cat).deleted_at is not None
    assert w.act_undo_delete.text().startswith("&Undo forget “Forget that my cat is called")
    assert b.undo_label.text().startswith(f"Forgot #{cat} (")
    w.activateWindow()
    _wait(qtbot, lambda: QtWidgets.QApplication.activeWindow() is w, 5)
    b.table.setFocus()
    _wait(qtbot, b.table.hasFocus, 5)
    qtbot.keyClick(b.table, QtCore.Qt.Key.Key_Z, QtCore.Qt.KeyboardModifier.ControlModifier)
    _wait(qtbot, lambda: reader.episode(cat).deleted_at is None, 20)
    assert reader.episode(nurse).deleted_at is not None  # the older deletion: still done
    assert w.act_undo_delete.text().startswith(f"&Undo delete memory #{nurse}\t")
    qtbot.keyClick(b.table, QtCore.Qt.Key.Key_Z, QtCore.Qt.KeyboardModifier.ControlModifier)
    _wait(qtbot, lambda: reader.episode(nurse).deleted_at is None, 20)
    assert not w.act_undo_delete.isEnabled() and w.act_undo_delete.text().startswith("&Undo\t")
    reader.close()
    w.close()
