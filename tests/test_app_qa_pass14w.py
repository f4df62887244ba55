"""QA pass 14w (a new user's first hour in the real window, under Xvfb: a chat of facts,
the graph, the Memories tab, Settings, File ▸ Export and Import): what it got wrong.

Real SQLite files; screenshots: /work/exp/qa14w/shots/."""

from __future__ import annotations

import numpy as np
import pytest
import qt_env  # noqa: F401  (before PySide6: offscreen, a throwaway QSettings folder)

from hela_desktop.memfile import export_store, import_file
from hela_desktop.store import Store

EMBEDDER = "all-MiniLM-L6-v2"


def _store_like_the_apps(data_dir):
    """Memories as the window writes them: each vector named with its embedder, and no
    ``embedder`` key in the store's meta."""
    rng = np.random.default_rng(14)
    store = Store(data_dir)
    for i, text in enumerate(("My cat is called Miso", "I am allergic to peanuts")):
        vec = rng.normal(size=384).astype(np.float32)
        store.add_episode(text, "Noted.", vec / np.linalg.norm(vec), embedder=EMBEDDER,
                          created_at=1.7e9 + i)
    assert store.get_meta("embedder") is None
    return store


def test_importing_your_own_export_again_makes_no_backup(tmp_path):
    """File ▸ Import of the file File ▸ Export had just written said "Nothing new in
    …/export1.hela: everything in it is here already. Your memories as they were before it
    are kept in backups/memory-…-before-import.sqlite3: restoring that undoes the import"
    (/work/exp/qa14w/shots/36_after_import.png): the import named the file's embedder in
    the store's meta for the length of the write (and dropped it again), which counted as
    a change, so a backup was made of an import that changed nothing; two of them push
    out the backup that undoes a real import.  Now the name is written only when a vector
    needs it, and the no-op import makes no backup."""
    store = _store_like_the_apps(tmp_path / "data")
    with store:
        export_store(store, tmp_path / "mine.hela")
        before = store.conn.total_changes
        report = import_file(store, tmp_path / "mine.hela", backup_keep=2)
        assert report.backup is None
        assert sum(report.added.values()) == 0 and sum(report.merged.values()) == 0
        assert store.conn.total_changes == before
        assert store.get_meta("embedder") is None
    assert not list((tmp_path / "data" / "backups").glob("*before-import*"))


@pytest.mark.gui
def test_a_message_typed_and_not_sent_is_there_after_closing_and_reopening(qtbot, tmp_path):
    """Typed "A draft I have not sent yet", then Ctrl+Q: on the next start the box was
    empty and the words lost (/work/exp/qa14w/shots/46_before_quit.png, then
    48_reopen_1280.png).  The unsent message is back in the box (its data folder's, not
    another folder's), once: sent or cleared, it does not come back."""
    pytest.importorskip("pytestqt")
    from test_app_polish import _window

    data, other = tmp_path / "data", tmp_path / "other"
    w = _window(qtbot, data)
    w.chat.input.setPlainText("A draft I have not sent yet")
    w.close()
    elsewhere = _window(qtbot, other)
    assert elsewhere.chat.input.toPlainText() == ""
    elsewhere.close()
    w2 = _window(qtbot, data)
    assert w2.chat.input.toPlainText() == "A draft I have not sent yet"
    assert w2.chat.input.textCursor().atEnd()  # typing goes on where it stopped
    w2.chat.input.clear()
    w2.close()
    w3 = _window(qtbot, data)
    assert w3.chat.input.toPlainText() == ""
    w3.close()
