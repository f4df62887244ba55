"""Deleting a memory means it: what the user deleted stops informing answers, leaves exports,
and can be erased from the memory file for good (memory hygiene and privacy).

Real SQLite files, the real embedder where an engine is needed, the real window
(pytest-qt offscreen) for the Archive tab; no model."""

from __future__ import annotations

import time
import zipfile
from pathlib import Path

import numpy as np
import pytest

from hela_desktop import knowledge as K
from hela_desktop.cli import main as cli_main
from hela_desktop.forgetting import purge
from hela_desktop.memfile import Selection, export_store
from hela_desktop.store import Store

pytest_plugins = ["memfile_support"]

SECRET = "quokkazebra"  # a word that occurs nowhere else in a store or a file


def _vec(seed: int) -> np.ndarray:
    v = np.random.default_rng(seed).normal(size=8).astype(np.float32)
    return v / np.linalg.norm(v)


def _store_with_secret(path: Path) -> tuple[Store, dict]:
    """Filler memories around one the user will delete, with knowledge drawn from it."""
    s = Store(path)
    ids = {}
    with s.transaction():
        cid = s.add_conversation("Banking")
        for i in range(120):
            s.add_episode(f"filler memory {i} about gardening and tea", "ok", _vec(i),
                          conversation_id=cid)
        ids["secret"] = s.add_episode(f"My bank PIN is 4821 and my password is {SECRET}.",
                                      f"Noted: {SECRET}.", _vec(999), conversation_id=cid)
        ids["kept"] = s.add_episode("My sister Ana lives in Lisbon.", "Nice.", _vec(1000),
                                    conversation_id=cid)
        now = time.time()
        ids["k_secret"] = s.add_knowledge("user_model", f"The user's password is {SECRET}.",
                                          None, None, now, [ids["secret"]])
        ids["k_both"] = s.add_knowledge("fact", "The user's sister Ana lives in Lisbon.",
                                        None, None, now, [ids["secret"], ids["kept"]])
    return s, ids


def _files_holding(folder: Path, word: str) -> dict[str, int]:
    """How often `word` occurs, byte for byte, in each file of the data folder."""
    out = {}
    for f in folder.iterdir():
        if f.is_file():
            n = f.read_bytes().count(word.encode())
            if n:
                out[f.name] = n
    return out


# ------------------------------------------------------- what a deletion takes back ----
def test_knowledge_drawn_from_a_deleted_memory_is_no_longer_used(tmp_path):
    """Deleting "my password is …" left "The user's password is …" in the user model that
    opens every prompt: a deleted memory's words still vouched for what was distilled from
    them.  Now they count no more; restoring the memory brings the item back, and an item
    the user wrote or edited is theirs, whatever its sources."""
    s, ids = _store_with_secret(tmp_path / "d")
    assert [k.id for k in K.trusted_user_model(s)] == [ids["k_secret"]]
    s.set_deleted(ids["secret"], True)
    assert K.trusted_user_model(s) == []
    rows = {r["id"]: r for r in K.knowledge_rows(s)}
    assert rows[ids["k_secret"]]["status"] == "not supported"
    assert "You deleted the memories it was drawn from" in rows[ids["k_secret"]]["why"]
    # and how it comes back: restoring them does it too (it said "until you edit it")
    assert "restore them (Memories ▸ Archive) or edit it" in rows[ids["k_secret"]]["why"]
    # an item also drawn from a memory that stays is judged by the words that stay
    assert rows[ids["k_both"]]["trusted"]
    s.set_deleted(ids["secret"], False)
    assert [k.id for k in K.trusted_user_model(s)] == [ids["k_secret"]]
    s.set_deleted(ids["secret"], True)
    K.edit_item(s, None, ids["k_secret"], "The user keeps their password private.")
    assert [k.id for k in K.trusted_user_model(s)] == [ids["k_secret"]]
    s.close()


def test_delete_for_good_erases_the_words_from_the_memory_file(tmp_path):
    """A deleted memory could be restored by id forever and could never be erased: only
    archived ones could be purged.  Purging now takes deleted ones too, never a live one;
    the knowledge drawn only from it goes with it; and its words are gone from every file
    of the data folder (the row, the keyword index, the write-ahead log), not only from
    view."""
    folder = tmp_path / "d"
    s, ids = _store_with_secret(folder)
    assert _files_holding(folder, SECRET)  # it is there to begin with
    assert purge(s, [ids["secret"], ids["kept"]]) == []  # live memories are never purged
    s.set_deleted(ids["secret"], True)
    assert purge(s, [ids["secret"], ids["kept"]]) == [ids["secret"]]
    assert s.episode(ids["secret"]) is None and s.episode(ids["kept"]) is not None
    # the item drawn only from it is gone; the one also drawn from a kept memory stays
    assert {k.id for k in s.list_knowledge()} == {ids["k_both"]}
    assert _files_holding(folder, SECRET) == {}
    assert s.integrity_ok()
    assert s.list_episodes(search=SECRET) == []
    assert [e.id for e in s.list_episodes(search="Lisbon")] == [ids["kept"]]
    s.close()
    assert _files_holding(folder, SECRET) == {}


def test_an_edited_item_outlives_the_memories_it_came_from(tmp_path):
    s, ids = _store_with_secret(tmp_path / "d")
    K.edit_item(s, None, ids["k_secret"], "The user keeps a password manager.")
    s.set_deleted(ids["secret"], True)
    purge(s, [ids["secret"]])
    assert ids["k_secret"] in {k.id for k in s.list_knowledge()}  # the user's own words
    s.close()


# ------------------------------------------------------------------ exports -----------
def _archive_text(path: Path) -> str:
    with zipfile.ZipFile(path) as zf:
        return "\n".join(zf.read(n).decode("utf-8") for n in zf.namelist())


def test_exports_leave_deleted_memories_out(tmp_path):
    """An export held every deleted memory in full (the Markdown copy marked it
    "deleted"): a file shared or moved after deleting something still carried it.  Deleted
    memories, the links to them and the knowledge drawn only from them are now left out,
    and the report says how many; `include_deleted` keeps them (a backup)."""
    s, ids = _store_with_secret(tmp_path / "d")
    s.set_deleted(ids["secret"], True)
    n_live = s.count_episodes()
    for fmt, name in (("native", "a.hela"), ("markdown", "a.md")):
        rep = export_store(s, tmp_path / name, fmt=fmt)
        text = (_archive_text(tmp_path / name) if fmt == "native"
                else (tmp_path / name).read_text(encoding="utf-8"))
        assert "PIN is 4821" not in text and SECRET not in text, fmt
        assert f"password is {SECRET}" not in text, fmt
        assert rep.counts["episodes"] == n_live and rep.deleted_left_out == 1
        assert rep.counts["knowledge"] == 1  # "Ana lives in Lisbon" stays
        assert "1 deleted memory left out" in rep.sentence()
    # the chat itself is the user's transcript, kept as it is (docs/privacy.md)
    rep = export_store(s, tmp_path / "b.hela")
    assert rep.counts["conversations"] == 1
    # a selection leaves it out too
    cid = s.conversations()[0]["id"]
    rep = export_store(s, tmp_path / "c.hela", selection=Selection(conversation=cid))
    assert rep.counts["episodes"] == n_live and rep.deleted_left_out == 1
    assert SECRET not in _archive_text(tmp_path / "c.hela").split("conversations.jsonl")[0]
    # a backup that keeps it, restorable on the other side
    rep = export_store(s, tmp_path / "all.hela", include_deleted=True)
    assert rep.counts["episodes"] == n_live + 1 and rep.deleted_left_out == 0
    assert SECRET in _archive_text(tmp_path / "all.hela")
    s.close()


def test_an_export_of_a_store_without_deleted_memories_reads_every_row(tmp_path):
    """Nothing to leave out: the fast whole-store path, with no selection tables."""
    from hela_desktop.memfile.export import _prepare_selection

    s, _ids = _store_with_secret(tmp_path / "d")
    assert _prepare_selection(s, Selection(), True, False) == (True, [])
    s.set_deleted(_ids["secret"], True)
    assert _prepare_selection(s, Selection(), True, False) == (False, [_ids["secret"]])
    assert _prepare_selection(s, Selection(), True, True) == (True, [])
    s.close()


# ------------------------------------------------------------------ the terminal -------
def test_the_terminal_lists_erases_and_exports_without_deleted_memories(tmp_path, capsys):
    folder = tmp_path / "d"
    s, ids = _store_with_secret(folder)
    s.close()
    dd = ["--data-dir", str(folder)]
    assert cli_main(["memories", "delete", str(ids["secret"]), *dd]) == 0
    capsys.readouterr()
    assert cli_main(["memories", "list", "--deleted", *dd]) == 0
    out = capsys.readouterr().out
    assert f"#{ids['secret']}" in out and "(1 of 1 deleted memories)" in out
    # deleting it again says how to bring it back, or erase it
    assert cli_main(["memories", "delete", str(ids["secret"]), *dd]) == 2
    assert "--for-good" in capsys.readouterr().err
    assert cli_main(["export", str(tmp_path / "x.hela"), *dd]) == 0
    assert "1 deleted memory left out (--include-deleted keeps them)" in capsys.readouterr().out
    assert cli_main(["export", str(tmp_path / "y.hela"), "--include-deleted", *dd]) == 0
    assert "left out" not in capsys.readouterr().out
    # a live memory can be erased in one step
    assert cli_main(["memories", "delete", str(ids["kept"]), "--for-good", *dd]) == 0
    assert f"memory #{ids['kept']} deleted for good" in capsys.readouterr().out
    assert cli_main(["memories", "delete", str(ids["secret"]), "--for-good", *dd]) == 0
    capsys.readouterr()
    assert _files_holding(folder, SECRET) == {}
    assert cli_main(["memories", "show", str(ids["secret"]), *dd]) == 2
    with Store(folder) as s:
        assert s.count_episodes(deleted=True) == 0 and s.episode(ids["kept"]) is None


def test_forget_purge_takes_deleted_memories_too(tmp_path, capsys):
    folder = tmp_path / "d"
    s, ids = _store_with_secret(folder)
    s.set_deleted(ids["secret"], True)
    s.close()
    assert cli_main(["forget", "--purge", "--data-dir", str(folder)]) == 0
    out = capsys.readouterr().out
    assert (f"deleted 1 archived or deleted memory for good, and 1 knowledge item drawn only "
            f"from them: #{ids['secret']}") in out
    assert _files_holding(folder, SECRET) == {}


# ------------------------------------------------------------------ the window ---------
def _memories_tab(qtbot, folder: Path, embedder):
    """The window on `folder`, its embedder ready and its Memories tab filled: (window,
    memory browser)."""
    from test_app_polish import _window
    from test_ui_app import _wait

    w = _window(qtbot, folder, embedder)
    _wait(qtbot, lambda: w.embedder_ready, 60)
    b = w.browser
    w.right_tabs.setCurrentIndex(1)
    _wait(qtbot, lambda: b.model.rowCount() > 0, 20)
    return w, b


@pytest.mark.gui
def test_the_archive_tab_shows_deleted_memories_and_deletes_them_for_good(
        qtbot, tmp_path, embedder, monkeypatch):
    """A memory deleted in the window could be brought back only by Undo before the window
    closed; after that it was nowhere to be seen, and nothing could erase it.  The Archive
    tab now lists it (✕, in italics, "Deleted by you …"); Restore brings it back, and
    Delete for good (the button or the Delete key, after a question) erases it, several
    rows at once."""
    pytest.importorskip("pytestqt")
    import qt_env  # noqa: F401
    from PySide6 import QtCore, QtGui, QtWidgets
    from test_ui_app import _wait, give_keys

    from hela_desktop.ui import archive_tab

    folder = tmp_path / "d"
    s, ids = _store_with_secret(folder)
    with s.transaction():
        s.set_archived(ids["kept"] - 2, "stale")  # one archived by forgetting, too
    s.close()
    reader = Store(folder)
    w, b = _memories_tab(qtbot, folder, embedder)
    b.select_id(ids["secret"])
    give_keys(qtbot, b.table)
    qtbot.keyClick(b.table, QtCore.Qt.Key.Key_Delete)
    _wait(qtbot, lambda: reader.episode(ids["secret"]).deleted_at is not None, 20)

    b.tabs.setCurrentIndex(2)
    _wait(qtbot, lambda: len(b.archive_model.episodes) == 2, 20)
    first = b.archive_model.episodes[0]  # the most recently removed first
    assert first.id == ids["secret"]
    m = b.archive_model
    assert m.data(m.index(0, 0)) == "✕" and m.data(m.index(1, 0)) == ""
    assert m.data(m.index(0, 2), QtCore.Qt.ItemDataRole.FontRole).italic()
    assert "Deleted by you" in m.data(m.index(0, 2), QtCore.Qt.ItemDataRole.ToolTipRole)
    assert b.archive_tab.count_label.text() == (
        "1 memory archived by forgetting · 1 memory deleted by you")
    assert not b.purge_button.isEnabled()

    asked = []

    def answer(clicks):
        def ask(box):
            asked.append(box.text())
            # what the box offers: Cancel as the default, and a button that says what it does
            assert box.defaultButton() is box.button(QtWidgets.QMessageBox.StandardButton.Cancel)
            erase = [x for x in box.buttons() if x.text() == "Delete for good"]
            assert len(erase) == 1 and box.buttonRole(erase[0]) == \
                QtWidgets.QMessageBox.ButtonRole.DestructiveRole
            return erase[0] if clicks else box.defaultButton()
        return ask

    monkeypatch.setattr(archive_tab, "ask", answer(False))
    b.archive.selectAll()
    assert sorted(b.archive_tab.selected_ids()) == sorted([ids["secret"], ids["kept"] - 2])
    b.archive.setFocus()
    qtbot.keyClick(b.archive, QtCore.Qt.Key.Key_Delete)  # asked, and cancelled
    assert asked and asked[-1].startswith("Delete 2 memories for good?")
    qtbot.wait(300)
    assert reader.episode(ids["secret"]) is not None

    monkeypatch.setattr(archive_tab, "ask", answer(True))
    b.archive.selectRow(0)
    qtbot.mouseClick(b.purge_button, QtCore.Qt.MouseButton.LeftButton)
    assert asked[-1].startswith(f"Delete memory #{ids['secret']} for good?")
    _wait(qtbot, lambda: reader.episode(ids["secret"]) is None, 20)
    _wait(qtbot, lambda: [e.id for e in b.archive_model.episodes] == [ids["kept"] - 2], 20)
    # Undo can no longer bring it back, so it is no longer offered
    assert not w.act_undo_delete.isEnabled() and not b.undo_bar.isVisibleTo(b)
    assert "deleted for good" in w.statusBar().currentMessage()
    keys = [k for k in b.archive.findChildren(QtGui.QShortcut)]
    assert keys and all(k.context() == QtCore.Qt.ShortcutContext.WidgetShortcut for k in keys)
    reader.close()
    w.close()


@pytest.mark.parametrize("stats", [None, [1, 2], "text", {"tokens": float("nan")},
                                   {"tokens": 3}])
def test_a_purge_marks_the_answer_whatever_statistics_it_carries(tmp_path, stats):
    """An imported chat may carry any JSON (or NaN) in a message's statistics: reading the
    chat and purging its memory both still work, and the answer is marked forgotten."""
    with Store(tmp_path / "d") as s:
        cid = s.add_conversation("Imported")
        s.add_message(cid, "user", "My PIN is 4821.")
        mid = s.add_message(cid, "assistant", "Noted.", stats=stats)
        eid = s.add_episode("My PIN is 4821.", "Noted.", _vec(1), conversation_id=cid)
        s.link_message_episode(mid, eid)
        assert [m["forgotten"] for m in s.messages(cid)] == [False, False]
        s.set_deleted(eid, True)
        assert [m["forgotten"] for m in s.messages(cid)] == [False, True]
        assert purge(s, [eid]) == [eid]
        msgs = s.messages(cid)
        assert [m["forgotten"] for m in msgs] == [False, True]
        assert msgs[1]["episode_id"] is None and msgs[1]["stats"]["forgotten"] is True


@pytest.mark.gui
def test_deleting_a_chat_can_delete_the_memories_formed_in_it(qtbot, tmp_path, embedder):
    """Deleting a chat kept every memory formed in it, and the question did not offer
    otherwise: a person who deletes a chat to be rid of what they said in it found it all
    still recalled.  The question now has a box to tick: the chat goes, and the memories
    formed in it are deleted too (restorable), none of another chat's."""
    pytest.importorskip("pytestqt")
    import qt_env  # noqa: F401
    from PySide6 import QtCore, QtWidgets
    from test_app_polish import _window
    from test_ui_app import _wait

    folder = tmp_path / "d"
    with Store(folder) as s:
        mine = s.add_conversation("Divorce")
        other = s.add_conversation("Recipes")
        ids = [s.add_episode(t, "ok", _vec(i), conversation_id=c) for i, (t, c) in enumerate(
            [("My divorce hearing is in May.", mine), ("My lawyer is Ms Okafor.", mine),
             ("I bake sourdough on Sundays.", other), ("My son's school is St Anne's.", mine)])]
        s.set_pinned(ids[3], True)  # a pin says "keep this": it stays (QA pass 23)
        for c in (mine, other):
            s.add_message(c, "user", "hello")
        s.add_message(s.add_conversation("Small talk"), "user", "hi")
    reader = Store(folder)
    w = _window(qtbot, folder, embedder)
    _wait(qtbot, lambda: w.embedder_ready and len(w.conversations.chats()) == 3, 60)

    def choose() -> bool:  # the list may be refilled meanwhile (a busy machine): again
        w.conversations.select(next(c["id"] for c in w.conversations.chats() if c["title"] == "Divorce"))
        return w.conversations.current_id() == mine

    _wait(qtbot, choose, 20)

    seen: list = []
    tries: list = []

    def answer():  # the real question, read and answered (closed if it has no box)
        box = QtWidgets.QApplication.activeModalWidget()
        if not isinstance(box, QtWidgets.QMessageBox):  # not shown yet (a busy machine)
            if len(seen) < 1 and tries.append(1) is None and len(tries) < 100:
                QtCore.QTimer.singleShot(100, answer)
            return
        tick = box.checkBox()
        seen.append((box.text(), tick.text() if tick else None,
                     tick.isChecked() if tick else None))
        if tick is None:
            box.close()
            return
        tick.setChecked(True)
        box.button(QtWidgets.QMessageBox.StandardButton.Yes).click()

    QtCore.QTimer.singleShot(200, answer)
    w.conversations.delete_current()
    text, tick, ticked = seen[0]
    assert "The 3 memories formed in it stay" in text and "unless you delete them too" in text
    assert tick and "Also delete the 2 memories formed in it" in tick
    assert tick.endswith("; the 1 pinned one stays")
    assert ticked is False  # keeping them is the default
    _wait(qtbot, lambda: reader.episode(ids[1]).deleted_at is not None, 20)
    assert reader.episode(ids[0]).deleted_at is not None  # one write: both at once
    assert reader.episode(ids[2]).deleted_at is None  # another chat's memory stays
    assert reader.episode(ids[3]).deleted_at is None  # and the pinned one
    _wait(qtbot, lambda: len(w.conversations.chats()) == 2, 20)
    from hela_desktop.ui.window_status import op_message

    assert "with the memories formed in it, pinned ones aside" in op_message("delete_conv_memories", mine)[0]
    # with what went counted (QA pass 24: "pinned ones aside" when none was pinned)
    assert op_message("delete_conv_memories", mine, ids[:2])[0] == (
        "Chat deleted with the 2 memories formed in it (Memories ▸ Archive restores them).")
    assert op_message("delete_conv_memories", mine, [ids[0]])[0] == (
        "Chat deleted with the memory formed in it (Memories ▸ Archive restores it).")
    assert "were all pinned, so they stay" in op_message("delete_conv_memories", mine, [])[0]
    assert "keeps what you said in it" in op_message("delete_conv", mine)[0]
    assert op_message("delete_conv", mine, 0)[0] == "Chat deleted."  # (it formed none)
    # a chat that formed no memory (QA pass 13: the box was offered all the same): the
    # question says so and offers nothing to tick
    seen.clear()
    tries.clear()
    w.conversations.select(next(c["id"] for c in w.conversations.chats() if c["title"] == "Small talk"))
    QtCore.QTimer.singleShot(200, answer)
    w.conversations.delete_current()
    assert seen[0][1] is None and "No memories were formed in it." in seen[0][0]
    reader.close()
    w.close()


@pytest.mark.gui
def test_restoring_in_the_archive_tab_takes_the_memory_off_undo(qtbot, tmp_path, embedder):
    """A memory deleted in the Memories tab and then restored in the Archive tab still
    stood in the undo strip ("Memory #15 deleted." with Undo) and kept Edit ▸ Undo delete
    memory enabled, though it was back in the list (QA pass 9)."""
    pytest.importorskip("pytestqt")
    import qt_env  # noqa: F401
    from test_ui_app import _wait

    folder = tmp_path / "d"
    s, ids = _store_with_secret(folder)
    s.close()
    reader = Store(folder)
    w, b = _memories_tab(qtbot, folder, embedder)
    b.select_id(ids["secret"])
    b.delete_selected()
    _wait(qtbot, lambda: reader.episode(ids["secret"]).deleted_at is not None, 20)
    assert b.undo_ids() == [ids["secret"]] and w.act_undo_delete.isEnabled()
    b.tabs.setCurrentIndex(2)
    _wait(qtbot, lambda: [e.id for e in b.archive_model.episodes] == [ids["secret"]], 20)
    b.archive.selectRow(0)
    b.archive_tab.restore_button.click()
    _wait(qtbot, lambda: reader.episode(ids["secret"]).deleted_at is None, 20)
    assert b.undo_ids() == [] and not w.act_undo_delete.isEnabled()
    assert not b.undo_bar.isVisibleTo(b)
    reader.close()
    w.close()


def test_an_older_file_imported_again_does_not_bring_back_what_was_deleted_for_good(tmp_path):
    """A backup made before Delete for good still holds the memory; importing it again
    brought the memory back, words, links and knowledge.  Only its uid is kept after a
    purge (schema 3, table ``erased``), and an import leaves such a memory out — as it
    would be added, it goes again at once, and the report says so."""
    from hela_desktop.memfile import import_file

    folder = tmp_path / "d"
    s, ids = _store_with_secret(folder)
    old = tmp_path / "before.hela"
    export_store(s, old)
    n = s.count_episodes()
    s.set_deleted(ids["secret"], True)
    purge(s, [ids["secret"]])
    assert s.conn.execute("SELECT COUNT(*) FROM erased").fetchone()[0] == 1
    rep = import_file(s, old, dry_run=True)
    assert rep.erased == 1 and rep.added["episodes"] == 0
    rep = import_file(s, old)
    assert rep.erased == 1 and rep.added["episodes"] == 0 and rep.added["knowledge"] == 0
    assert "1 memory you had deleted for good was left out" in rep.sentence()
    assert s.count_episodes() == n - 1 and s.list_episodes(search=SECRET) == []
    assert {k.text for k in s.list_knowledge()} == {"The user's sister Ana lives in Lisbon."}
    assert s.integrity_ok()
    s.close()
    assert _files_holding(folder, SECRET) == {}


def test_a_schema_2_store_gains_the_erased_table(tmp_path):
    import sqlite3

    from hela_desktop.store import SCHEMA_VERSION

    folder = tmp_path / "d"
    with Store(folder) as s:
        s.add_episode("I like tea.", "", _vec(0))
    c = sqlite3.connect(folder / "memory.sqlite3")
    c.execute("DROP TABLE erased")
    c.execute("PRAGMA user_version = 2")
    c.commit()
    c.close()
    with Store(folder) as s:  # opened by this version: migrated, nothing lost
        assert s.schema_version == SCHEMA_VERSION == 3 and s.count_episodes() == 1
        assert s.conn.execute("SELECT COUNT(*) FROM erased").fetchone()[0] == 0


def test_the_activity_sentence_for_a_purge_counts_its_memories():
    """"Deleted 1 memory for good (#7), and 1 knowledge item drawn only from them." (QA
    pass 9): one memory is "it"."""
    from hela_desktop.ui.explain import activity_sentence

    one = activity_sentence("forget", {"purged": [7], "purged_knowledge": [2]})
    assert one == "Deleted 1 memory for good (#7), and 1 knowledge item drawn only from it."
    two = activity_sentence("forget", {"purged": [7, 8], "purged_knowledge": [2]})
    assert two.endswith("drawn only from them.")


def test_an_export_that_leaves_deleted_memories_out_says_chats_go_whole(tmp_path):
    """"6 deleted memories left out" read as if their words were gone from the export, but
    the chats went whole: the export still held "My PIN is 4821." in its transcript, and in
    the answer to "Forget that my PIN is 4821" (QA pass 9).  The report says so."""
    s, ids = _store_with_secret(tmp_path / "d")
    cid = s.conversations()[0]["id"]
    s.add_message(cid, "user", f"My bank PIN is 4821 and my password is {SECRET}.")
    s.set_deleted(ids["secret"], True)
    rep = export_store(s, tmp_path / "a.hela")
    assert SECRET in _archive_text(tmp_path / "a.hela")  # the transcript, as documented
    assert rep.summary().endswith("; chats are exported whole, with what was said in them "
                                  "(--no-conversations leaves them out)")
    assert rep.sentence().endswith("1 deleted memory left out, but chats are exported "
                                   "whole, with what was said in them.")
    rep = export_store(s, tmp_path / "b.hela", include_conversations=False)
    assert "exported whole" not in rep.summary() and SECRET not in _archive_text(tmp_path / "b.hela")
    rep = export_store(s, tmp_path / "c.hela", include_deleted=True)
    assert "chats are exported whole" not in rep.summary()
    s.close()


def test_the_purge_question_says_the_chats_keep_what_was_said():
    """"The words are erased from the memory file", asked while the chat list beside it
    still showed a chat titled "My PIN is 4821." and its transcript (QA pass 9): the
    question says a chat keeps them until it is deleted (docs/privacy.md)."""
    pytest.importorskip("PySide6")
    from hela_desktop.ui.archive_tab import purge_question

    q = purge_question([7])
    assert q.startswith("Delete memory #7 for good?")
    assert "a chat they were said in until you delete that chat" in q


def test_a_search_export_says_what_it_leaves_out_and_include_deleted_keeps_it(tmp_path):
    """`export --search Miso` left a deleted memory about Miso out without saying so, and
    `--include-deleted` did not bring it back: the search never matched deleted memories
    (QA pass 9)."""
    s, ids = _store_with_secret(tmp_path / "d")
    s.set_deleted(ids["secret"], True)
    rep = export_store(s, tmp_path / "a.hela", selection=Selection(search="PIN"))
    assert rep.counts["episodes"] == 0 and rep.deleted_left_out == 1
    rep = export_store(s, tmp_path / "b.hela", selection=Selection(search="PIN"),
                       include_deleted=True)
    assert rep.counts["episodes"] == 1 and rep.deleted_left_out == 0
    assert SECRET in _archive_text(tmp_path / "b.hela")
    s.close()


def test_an_import_says_which_memories_arrive_deleted(sample_file, tmp_path):
    """A backup made with --include-deleted brought its deleted memories in as deleted, and
    the report counted them as added: "13 added" while `memories list` showed 10."""
    from hela_desktop.memfile import import_file

    with Store(tmp_path / "fresh") as s:
        rep = import_file(s, sample_file)
        assert rep.added["episodes"] == 6 and rep.added_deleted == 1
        assert s.count_episodes(deleted=True) == 1
        assert "1 memory of them is deleted, as in the file" in rep.sentence()
        assert "1 of the memories added is deleted, as in the file" in rep.summary()


@pytest.mark.gui
def test_a_link_to_a_memory_the_graph_does_not_hold_finds_it_where_it_is(
        qtbot, tmp_path, embedder, monkeypatch):
    """Clicking a memory named under an answer ("From your memories") or in the timeline
    selected it in the graph, and when the graph did not hold it (deleted, archived,
    deleted for good, or older than the newest the graph shows) the click only cleared the
    selection, without a word.  It is now found where it is: a deleted or archived one
    chosen in Memories ▸ Archive, a kept one alone in the Memories tab (searched as "#N"),
    and the status bar says which; one deleted for good is said to be gone."""
    pytest.importorskip("pytestqt")
    import qt_env  # noqa: F401
    from PySide6 import QtCore
    from test_ui_app import _wait

    from hela_desktop.ui import window_panes, worker

    folder = tmp_path / "d"
    texts = [f"Note {i}: the {w} in the garden needs water." for i, w in
             enumerate(["rose", "fern", "oak", "tulip"] * 20)]
    vecs = embedder.embed(texts)
    with Store(folder) as s:
        cid = s.add_conversation("Garden")
        made = [s.add_episode(t, "ok", v, conversation_id=cid) for t, v in zip(texts, vecs)]
        ids = {"kept": made[-1], "secret": made[-2]}
        archived = made[-3]
        s.set_archived(archived, "stale")
        s.set_deleted(ids["secret"], True)
    for module in (window_panes, worker):  # the graph's cap, made small
        monkeypatch.setattr(module, "GRAPH_LIMIT", 50)
    w, b = _memories_tab(qtbot, folder, embedder)
    _wait(qtbot, lambda: len(w.graph.data) == 50, 20)
    shown = set(w.graph.data.index)
    assert ids["kept"] in shown and ids["secret"] not in shown and archived not in shown
    old = min(i for i in range(1, ids["kept"]) if i not in shown and i != archived)

    w.chat.view.memoryClicked.emit(ids["kept"])  # in the graph: selected there, as before
    assert w.right_tabs.currentIndex() == 0 and w.graph.selected == ids["kept"]

    w.chat.view.memoryClicked.emit(ids["secret"])
    _wait(qtbot, lambda: b.archive_tab.selected_ids() == [ids["secret"]], 20)
    assert w.right_tabs.currentWidget() is b and b.tabs.currentIndex() == 2
    said = w.statusBar().currentMessage()
    assert said.startswith(f"Memory #{ids['secret']} was deleted by you on ") and "Restore" in said

    w.timeline.memoryClicked.emit(archived)
    _wait(qtbot, lambda: b.archive_tab.selected_ids() == [archived], 20)
    assert "archived by forgetting" in w.statusBar().currentMessage()

    w.chat.view.memoryClicked.emit(old)  # kept, but older than the 50 the graph shows
    # (pass 14: explained beside the graph, with a link to it in Memories)
    _wait(qtbot, lambda: f"Memory #{old}" in w.graph.details.toPlainText(), 20)
    assert w.right_tabs.currentIndex() == 0 and "Not drawn in the graph" in w.graph.details.toPlainText()
    assert "older than the 50 newest memories" in w.statusBar().currentMessage()
    w.graph.open_details_link(QtCore.QUrl(f"memories:{old}"))  # "Show it in Memories"
    _wait(qtbot, lambda: b.tabs.currentIndex() == 0 and b.selected_id() == old, 20)
    assert w.right_tabs.currentWidget() is b
    assert b.search.text() == f"#{old}" and b.model.rowCount() == 1

    # a link in the details pane to a memory gone from the graph (QA pass 20: "Linked from
    # #7" after Edit and resend took #7 back; the click dropped the selection without a
    # word): found where it is, as from the chat
    w.graph.open_details_link(QtCore.QUrl(f"node:{ids['secret']}"))
    _wait(qtbot, lambda: b.tabs.currentIndex() == 2
          and b.archive_tab.selected_ids() == [ids["secret"]], 20)
    assert w.statusBar().currentMessage().startswith(f"Memory #{ids['secret']} was deleted")

    w.run_op("purge", [ids["secret"]])
    reader = Store(folder)
    _wait(qtbot, lambda: reader.episode(ids["secret"]) is None, 20)
    w.chat.view.memoryClicked.emit(ids["secret"])
    _wait(qtbot, lambda: "deleted for good" in w.statusBar().currentMessage()
          and "nothing of it is left" in w.statusBar().currentMessage(), 20)
    reader.close()
    w.close()


def test_no_chats_whole_warning_when_the_deleted_memory_s_chat_is_gone(tmp_path):
    """QA pass 24: "1 deleted memory left out, but chats are exported whole" for a memory
    whose chat had been deleted: no chat held its words.  Said only when one does."""
    s, ids = _store_with_secret(tmp_path / "d")
    cid = s.conversations()[0]["id"]
    s.add_message(cid, "user", f"My password is {SECRET}.")
    s.set_deleted(ids["secret"], True)
    assert s.episode(ids["secret"]).conversation_id == cid
    assert "exported whole" in export_store(s, tmp_path / "a.hela").sentence()
    other = s.add_conversation("Other chat")
    s.add_message(other, "user", "hello")
    s.delete_conversation(cid)
    rep = export_store(s, tmp_path / "b.hela")
    assert rep.deleted_left_out == 1 and rep.said_in_chats == 0
    assert rep.sentence().endswith("1 deleted memory left out.")
    s.close()
