"""Session 19 (a demanding user's leftovers): what the window got wrong.  Real widgets on
Qt's offscreen platform, real SQLite files and the real embedder."""

from __future__ import annotations

import pytest
import qt_env  # noqa: F401  (before PySide6: offscreen, a throwaway QSettings folder)

from hela_desktop.store import Store


@pytest.mark.gui
def test_restoring_two_memories_at_once_says_so_once(qtbot, seed_dir, embedder):
    """Undo of a step that took two memories, or Restore of two rows of the Archive, said
    "Memory #2 restored." (each restore had its own status line; the last one stayed).  One
    line now counts them: "2 memories restored."."""
    from test_deleting import _memories_tab
    from test_ui_app import _wait

    from hela_desktop.ui.window_status import op_message

    assert op_message("restore", [7])[0] == "Memory #7 restored."
    assert op_message("restore", 7)[0] == "Memory #7 restored."  # (one ID, as before)
    folder = seed_dir([("My bank PIN is 4821.", "Noted."), ("My sister Ana lives in Lisbon.", "Nice."),
                       ("I grow tomatoes on the balcony.", "Lovely.")])
    reader = Store(folder)
    w, b = _memories_tab(qtbot, folder, embedder)
    both = [1, 2]
    for eid in both:  # as "Forget …" in a chat does: deleted, one step of the undo history
        reader.set_deleted(eid, True)
    w.browser.forgotten(both, "Forget my bank and my sister", None)
    b.undo_delete()
    _wait(qtbot, lambda: all(reader.episode(i).deleted_at is None for i in both), 20)
    _wait(qtbot, lambda: "2 memories restored." in w.statusBar().currentMessage(), 10)
    reader.close()
    w.close()


@pytest.mark.gui
def test_a_chat_list_folded_by_a_small_window_comes_back_from_the_view_menu(qtbot, tmp_path):
    """At 1000×700 the chat list folded away, and nothing but a drag of an invisible handle
    brought it back: View offered the graph and Memories, not the chats (QA pass 19).  View
    ▸ Chat list (Ctrl+Shift+L) opens it at its usual width, the keyboard on it."""
    from test_app_polish import _chat_dir, _window
    from test_ui_app import _wait

    from hela_desktop.ui.chat_width import LIST_WIDTH

    data_dir, _, _ = _chat_dir(tmp_path)
    w = _window(qtbot, data_dir)
    w.resize(1000, 700)
    s = w.main_split
    _wait(qtbot, lambda: s.sizes()[0] == 0, 10)  # folded: the chat keeps its width
    act = next(a for m in w.menuBar().actions() if m.text() == "&View"
               for a in m.menu().actions() if a.text() == "&Chat list")
    assert act.shortcut().toString() == "Ctrl+Shift+L"
    act.trigger()
    _wait(qtbot, lambda: s.sizes()[0] == LIST_WIDTH, 5)
    assert w.focusWidget() is w.conversations.list  # (the window's, active or not)
    w.close()


@pytest.mark.gui
def test_the_shortcuts_window_lists_each_key_once(qtbot, tmp_path):
    """Help ▸ Keyboard shortcuts listed Ctrl+N twice (File ▸ New chat, Chat ▸ New chat), as if
    it did two things (QA pass 19).  A key in two menus is one row naming both."""
    from test_app_polish import _chat_dir, _window

    from hela_desktop.ui.window_look import WIDGET_KEYS, shortcut_rows

    data_dir, _, _ = _chat_dir(tmp_path)
    w = _window(qtbot, data_dir)
    rows = shortcut_rows(w)[:-len(WIDGET_KEYS)] if WIDGET_KEYS else shortcut_rows(w)
    keys = [k for k, _ in rows]
    assert len(keys) == len(set(keys))
    assert dict(rows)["Ctrl+N"] == "File ▸ New chat (also Chat ▸ New chat)"
    # Ctrl+0 is the text's normal size, as in a browser (it fitted the graph until 0.13)
    assert dict(rows)["Ctrl+0"] == "View ▸ Normal size"
    assert dict(rows)["Ctrl+Shift+H"] == "View ▸ Fit graph"
    # File's memory files and backups have keys (QA pass 35: they had none)
    assert [dict(rows)[k] for k in ("Ctrl+Shift+E", "Ctrl+Shift+I", "Ctrl+Shift+S",
                                    "Ctrl+Shift+B")] == [
        "File ▸ Export memories…", "File ▸ Import memories…",
        "File ▸ Export chat as Markdown…", "File ▸ Backups…"]
    w.close()
