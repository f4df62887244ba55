"""Automatic backups of the memory file: made while idle (at most once per
`backup_every_days`, the newest `backup_keep` kept), cleaned of what is deleted for good,
restored without bringing back what was erased, refused whole when damaged.

Real SQLite files, the real CLI, the real idle scheduler (with the real embedder and the
bundled model) and the real window (pytest-qt offscreen)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np
import pytest

from hela_desktop import backups as B
from hela_desktop.cli import main as cli_main
from hela_desktop.forgetting import purge
from hela_desktop.store import DB_FILE, Store, StoreError

SECRET = "quokkazebra"  # a word that occurs nowhere else


def _vec(seed: int) -> np.ndarray:
    v = np.random.default_rng(seed).normal(size=8).astype(np.float32)
    return v / np.linalg.norm(v)


def _store(folder: Path, n: int = 20) -> tuple[Store, int]:
    s = Store(folder)
    with s.transaction():
        for i in range(n):
            s.add_episode(f"filler memory {i} about gardening", "ok", _vec(i))
        secret = s.add_episode(f"My password is {SECRET}.", "Noted.", _vec(99))
    return s, secret


def _texts(db_file: Path) -> list[str]:
    with Store(db_file, create=False) as s:
        return sorted(e.user_text for e in s.list_episodes(limit=1000, include_deleted=True,
                                                           include_archived=True))


def test_backups_are_made_named_listed_and_pruned(tmp_path):
    s, _ = _store(tmp_path / "d")
    day = 86400.0
    t0 = time.mktime((2026, 11, 1, 9, 30, 0, 0, 0, -1))
    assert B.list_backups(s.path) == [] and B.due(s.path, 1.0, 7, now=t0)
    made = [B.make_backup(s, keep=3, now=t0 + i * day) for i in range(5)]
    assert made[0].name == "memory-2026-11-01-093000.sqlite3"
    left = B.list_backups(s.path)
    assert [b.name for b in left] == [m.name for m in made[:1:-1]]  # the newest 3, newest first
    assert left[0].made_at == t0 + 4 * day and left[0].size == made[4].path.stat().st_size
    assert (left[0].path.stat().st_mode & 0o777) == 0o600
    assert (B.backup_dir(s.path).stat().st_mode & 0o777) == 0o700
    # due: a day after the newest regular one, and never when backups are off
    assert not B.due(s.path, 1.0, 7, now=t0 + 4.5 * day)
    assert B.due(s.path, 1.0, 7, now=t0 + 5 * day)
    assert not B.due(s.path, 1.0, 0, now=t0 + 50 * day)
    # two in one second get two names; files that are not backups are left alone
    again = B.make_backup(s, now=t0 + 4 * day)
    assert again.name == "memory-2026-11-05-093001.sqlite3"
    (B.backup_dir(s.path) / "notes.txt").write_text("mine")
    assert len(B.list_backups(s.path)) == 4
    assert B.prune(s.path, 1) and [b.name for b in B.list_backups(s.path)] == [again.name]
    assert (B.backup_dir(s.path) / "notes.txt").exists()
    # a backup is a whole memory file with every memory
    assert _texts(again.path) == _texts(s.path)
    s.close()


def test_backups_made_before_imports_never_push_the_daily_ones_out(tmp_path):
    s, _ = _store(tmp_path / "d")
    day = 86400.0
    t0 = time.mktime((2026, 11, 1, 9, 30, 0, 0, 0, -1))
    daily = [B.make_backup(s, keep=3, now=t0 + i * day) for i in range(3)]
    # an afternoon of imports on the third day: each makes its backup and prunes with keep 3
    imports = [B.make_backup(s, keep=3, now=t0 + 2.2 * day + i * 60, suffix=B.BEFORE_IMPORT)
               for i in range(5)]
    left = B.list_backups(s.path)
    assert [b.name for b in left if b.daily] == [b.name for b in daily[::-1]]
    # the newest 2 import backups, beside the daily ones
    assert [b.name for b in left if b.before_import] == [imports[4].name, imports[3].name]
    # the daily rotation looks at daily backups only: the imports' copies do not stand in
    assert B.due(s.path, 1.0, 3, now=t0 + 3 * day)
    made = B.backup_if_due(s, keep=3, every_days=1.0, log=False)
    assert made is not None and made["kept"] == 3
    assert len([b for b in B.list_backups(s.path) if b.before_import]) == 2
    # keep 1: one of each; backups off (keep 0): none of either
    B.prune(s.path, 1)
    assert sorted((b.daily, b.before_import) for b in B.list_backups(s.path)) == [
        (False, True), (True, False)]
    B.prune(s.path, 0)
    assert B.list_backups(s.path) == []
    s.close()


def test_deleting_for_good_erases_from_every_backup(tmp_path):
    s, secret = _store(tmp_path / "d")
    first = B.make_backup(s, now=time.time() - 86400)
    second = B.make_backup(s)
    assert all(SECRET.encode() in b.path.read_bytes() for b in (first, second))
    with s.transaction():
        s.set_deleted(secret, True)
    assert purge(s, [secret]) == [secret]
    for b in (first, second):
        assert SECRET.encode() not in b.path.read_bytes(), b.name
        assert len(_texts(b.path)) == 20  # the other memories stay
        assert not Path(str(b.path) + "-wal").exists()
    s.close()


def test_an_unreadable_backup_is_not_left_holding_what_was_erased(tmp_path):
    s, secret = _store(tmp_path / "d")
    good = B.make_backup(s, now=time.time() - 86400)
    bad = B.backup_dir(s.path) / "memory-2026-01-01-000000.sqlite3"
    bad.write_bytes(b"not a database " + SECRET.encode())
    with s.transaction():
        s.set_deleted(secret, True)
    purge(s, [secret])
    assert not bad.exists() and good.path.exists()
    s.close()


def test_restoring_brings_back_the_old_state_and_keeps_the_current_file(tmp_path):
    s, secret = _store(tmp_path / "d")
    old = B.make_backup(s, now=time.time() - 3600)
    with s.transaction():
        s.add_episode("said after the backup", "ok", _vec(500))
    path = s.path
    s.close()
    done = B.restore_backup(path, old.path)
    assert done["restored"] == old.name and done["erased"] == 0
    assert "said after the backup" not in _texts(path)
    kept = B.backup_dir(path) / done["kept"]
    assert kept.name.endswith("-before-restore.sqlite3") and "said after the backup" in _texts(kept)
    assert [b.before_restore for b in B.list_backups(path)].count(True) == 1
    # a copy kept by a restore is not a regular backup: pruning and `due` leave it be
    B.prune(path, 0)
    assert [b.name for b in B.list_backups(path)] == [kept.name]
    # and restoring it undoes the restore
    B.restore_backup(path, kept)
    assert "said after the backup" in _texts(path)


def test_a_restore_never_brings_back_what_was_deleted_for_good(tmp_path):
    """A backup copied in from elsewhere (made before the erasure, never cleaned) still
    holds the memory; restoring it erases it again on the way in."""
    s, secret = _store(tmp_path / "d")
    outside = tmp_path / "elsewhere.sqlite3"
    s.copy_to(outside)
    with s.transaction():
        s.set_deleted(secret, True)
    purge(s, [secret])
    path = s.path
    s.close()
    assert SECRET.encode() in outside.read_bytes()
    done = B.restore_backup(path, outside)
    assert done["erased"] == 1
    assert all(SECRET not in t for t in _texts(path)) and len(_texts(path)) == 20
    assert SECRET.encode() not in path.read_bytes()
    assert SECRET.encode() in outside.read_bytes()  # the user's own file is not touched


@pytest.mark.parametrize("content", [b"", b"SQLite format 3\x00" + b"\x00" * 200, b"garbage"])
def test_a_damaged_backup_is_refused_and_nothing_changes(tmp_path, content):
    s, _ = _store(tmp_path / "d")
    path = s.path
    s.close()
    before = path.read_bytes()
    bad = tmp_path / "bad.sqlite3"
    bad.write_bytes(content)
    with pytest.raises(StoreError, match="cannot be restored"):
        B.restore_backup(path, bad)
    assert path.read_bytes() == before
    assert B.list_backups(path) == []  # no copy of the current file left behind
    assert {p.name for p in path.parent.iterdir()} <= {DB_FILE, "backups"}  # nothing staged left


def test_the_terminal_lists_makes_and_restores_backups(tmp_path, capsys):
    folder = tmp_path / "d"
    s, secret = _store(folder)
    s.close()
    base = ["--data-dir", str(folder)]
    assert cli_main(["backups", "list", *base]) == 0
    assert "no backups yet" in capsys.readouterr().out
    assert cli_main(["backups", "make", "--json", *base]) == 0
    made = json.loads(capsys.readouterr().out)
    assert made["file"].startswith("memory-") and made["bytes"] > 0
    assert cli_main(["memories", "delete", str(secret), *base]) == 0
    capsys.readouterr()
    assert cli_main(["backups", "list", "--json", *base]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [b["file"] for b in listed] == [made["file"]]
    assert cli_main(["backups", "restore", made["file"], *base]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"restored {made['file']}") and "-before-restore.sqlite3" in out
    with Store(folder) as s2:
        assert s2.episode(secret).deleted_at is None  # as it was when the backup was made
    assert cli_main(["backups", "restore", "nope.sqlite3", *base]) == 2
    assert "no such backup" in capsys.readouterr().err
    assert cli_main(["backups", "restore", str(folder / DB_FILE), *base]) == 2
    assert "the memory file itself" in capsys.readouterr().err
    assert cli_main(["backups", *base]) == 2  # the group alone: its help


def test_restore_is_refused_while_the_app_has_the_folder(tmp_path, capsys):
    from hela_desktop.folder_lock import lock_data_dir

    folder = tmp_path / "d"
    s, _ = _store(folder)
    made = B.make_backup(s)
    s.close()
    lock = lock_data_dir(folder, "the desktop app")
    try:
        before = (folder / DB_FILE).read_bytes()
        assert cli_main(["backups", "restore", made.name, "--data-dir", str(folder)]) == 3
        assert "in use" in capsys.readouterr().err
        assert (folder / DB_FILE).read_bytes() == before
    finally:
        lock.release()


def test_an_idle_pass_backs_up_once_a_day(tmp_path):
    from hela_desktop.consolidate import ConsolidationParams
    from hela_desktop.embedder import Embedder
    from hela_desktop.loader import AssistantLoader
    from hela_desktop.scheduler import IdleScheduler
    from hela_desktop.ui.explain import activity_sentence, backup_sentence, reflection_sentence

    s, _ = _store(tmp_path)
    s.close()
    loader = AssistantLoader(tmp_path, embedder=Embedder())
    loader.settings.backup_keep = 2
    sched = IdleScheduler(loader, start=False,
                          consolidation=ConsolidationParams(hub_degree=50.0))
    try:
        first = sched.run_pass("manual")
        assert first is not None and first.error is None
        assert first.backup["file"] == B.list_backups(loader.store.path)[0].name
        assert first.backup["kept"] == 1
        said = reflection_sentence(first)  # what the pass did to the memories first
        assert said.endswith(
            f"Backed up your memories to backups/{first.backup['file']} (1 daily backup kept).")
        assert not said.startswith("Backed up"), said
        assert sched.run_pass("manual").backup is None  # not due again today
        loader.settings.backup_keep = 0
        for b in B.list_backups(loader.store.path):
            b.path.unlink()
        assert sched.run_pass("manual").backup is None  # off
    finally:
        sched.shutdown()
    acts = [a for a in loader.store.activity() if a["job"] == "backup"]
    assert len(acts) == 1 and activity_sentence("backup", acts[0]["summary"]).startswith(
        "Backed up your memories to backups/memory-")
    assert backup_sentence({"error": "OSError: disk full"}) == (
        "The automatic backup failed (OSError: disk full); your memories are as they were.")
    loader.close()


def test_backup_settings_are_checked():
    from hela_desktop.config import Settings, SettingsError

    s = Settings.from_dict({"backup_keep": -3, "backup_every_days": 0})
    assert s.backup_keep == 0 and s.backup_every_days == 0.01
    with pytest.raises(SettingsError, match="backup_keep"):
        Settings().with_overrides(backup_keep=1000)


@pytest.mark.gui
def test_the_window_backs_up_and_restores(qtbot, tmp_path, embedder, monkeypatch):
    """File ▸ Backups…: Back up now lists the new backup; Restore… (after a question whose
    default is Cancel) brings the memories back as they were, and the window shows them."""
    pytest.importorskip("pytestqt")
    import qt_env  # noqa: F401
    from PySide6 import QtWidgets
    from test_app_polish import _window
    from test_ui_app import _wait

    from hela_desktop.ui import backups_dialog

    folder = tmp_path / "d"
    s, secret = _store(folder)
    s.close()
    w = _window(qtbot, folder, embedder)
    _wait(qtbot, lambda: w.embedder_ready, 60)
    dialogs: list = []
    monkeypatch.setattr(backups_dialog.BackupsDialog, "exec", lambda self: dialogs.append(self))
    w.act_backups.trigger()
    dlg = dialogs[-1]
    assert dlg.count_label.text().startswith("No backups yet")
    assert not dlg.restore_button.isEnabled()
    w._backups_dialog = dlg  # as while it is shown (exec is replaced here)
    dlg.make_button.click()
    _wait(qtbot, lambda: len(dlg.backups) == 1, 20)
    assert dlg.restore_button.isEnabled() and "Backed up your memories" in \
        w.statusBar().currentMessage()

    w.run_op("delete", secret)
    reader = Store(folder)
    _wait(qtbot, lambda: reader.episode(secret).deleted_at is not None, 20)
    reader.close()
    asked: list = []

    def answer(go: bool):
        def ask(box):
            asked.append(box.text())
            assert box.defaultButton() is box.button(QtWidgets.QMessageBox.StandardButton.Cancel)
            chosen = [b for b in box.buttons() if b.text() == "Restore"]
            return chosen[0] if go else box.defaultButton()
        return ask

    monkeypatch.setattr(backups_dialog, "ask", answer(False))
    dlg.restore_selected()
    assert asked[-1].startswith("Restore the backup of ") and "kept as a backup" in asked[-1]
    with Store(folder) as s2:
        assert s2.episode(secret).deleted_at is not None  # cancelled: nothing changed
    monkeypatch.setattr(backups_dialog, "ask", answer(True))
    dlg.restore_selected()
    _wait(qtbot, lambda: w.client is not None and w.embedder_ready, 60)
    assert "The memory file it replaced is kept as backups/" in w.statusBar().currentMessage()
    # … and still once the model is ready (QA pass 33: "Ready — offline…" hid it; this
    # window loads no model, so its worker's event is handed to it here)
    from hela_desktop.events import ModelStatusEvent

    w._on_model_status(ModelStatusEvent(state="ready", info={}))
    # (the whole message: the bar elides it to the room its right-hand labels leave, which
    # varies; a fresh-clone run saw "…(File ▸ B…" with "Ready — " cut off)
    said = w.statusBar().full_message
    assert "The memory file it replaced is kept as backups/" in said and "Ready — " in said
    assert w.statusBar().currentMessage().startswith("Restored the backup of ")
    w._on_model_status(ModelStatusEvent(state="ready", info={}))  # (said once)
    assert w.statusBar().currentMessage() == "Ready — offline, on this computer."
    with Store(folder) as s2:
        assert s2.episode(secret).deleted_at is None
    w.right_tabs.setCurrentIndex(1)
    _wait(qtbot, lambda: secret in [e.id for e in w.browser.model.episodes], 30)
    w.close()


def test_importing_a_backup_says_how_to_use_it(tmp_path, capsys):
    """File ▸ Import… on a backup (or a memory.sqlite3) said "binary data (NUL byte): not a
    text or memory file"; it now says what the file is and the two ways to use it."""
    s, _ = _store(tmp_path / "d")
    made = B.make_backup(s)
    s.close()
    assert cli_main(["import", str(made.path), "--data-dir", str(tmp_path / "other")]) == 2
    err = capsys.readouterr().err
    assert "a SQLite database" in err and "backups restore" in err and "export" in err
    assert not (tmp_path / "other" / DB_FILE).exists()


def test_an_import_can_be_undone_by_the_backup_made_just_before_it(tmp_path, capsys):
    """A mistaken import (5,000 old chats into the wrong folder) could not be taken back.
    Just before an import writes into a store that holds memories, a backup of it is made
    and named in the report; restoring it undoes the import.  A dry run, a refused file and
    an import into an empty folder make none."""
    folder = tmp_path / "d"
    s, _ = _store(folder)
    s.close()
    notes = tmp_path / "notes.json"
    notes.write_text(json.dumps([{"content": f"imported memory {i}"} for i in range(3)]))
    base = ["--data-dir", str(folder)]
    assert cli_main(["import", str(notes), "--dry-run", *base]) == 0
    (tmp_path / "bad.json").write_text("[{")
    assert cli_main(["import", str(tmp_path / "bad.json"), *base]) == 2
    assert B.list_backups(folder / DB_FILE) == []
    capsys.readouterr()
    assert cli_main(["import", str(notes), "--json", *base]) == 0
    rep = json.loads(capsys.readouterr().out)
    made = B.list_backups(folder / DB_FILE)
    assert rep["backup"] == made[0].name and made[0].before_import
    assert made[0].note == "made before an import" and not made[0].before_restore
    assert len(_texts(made[0].path)) == 21 and len(_texts(folder / DB_FILE)) == 24
    assert cli_main(["backups", "restore", rep["backup"], *base]) == 0
    assert len(_texts(folder / DB_FILE)) == 21
    # into an empty folder there is nothing to keep
    assert cli_main(["import", str(notes), "--data-dir", str(tmp_path / "new")]) == 0
    assert not (tmp_path / "new" / "backups").exists()


def test_the_import_sentence_names_its_backup(tmp_path):
    from hela_desktop.memfile import import_file

    s, _ = _store(tmp_path / "d")
    notes = tmp_path / "notes.txt"
    notes.write_text("One thing I noted.\n\nAnother thing.")
    rep = import_file(s, notes, embedder=lambda texts: np.stack([_vec(i) for i in range(len(texts))]),
                      backup_keep=2)
    assert rep.backup and rep.sentence().endswith(
        f"\n\nYour memories as they were before it are kept in\nbackups/{rep.backup}\n\n"
        "Restoring that undoes the import (File ▸ Backups…).")
    assert import_file(s, notes, embedder=None).backup is None  # backup_keep 0: none
    s.close()


def test_a_backup_made_after_a_purge_holds_nothing_erased(tmp_path):
    """A backup copies the file as it is; a memory deleted for good is not in it.  And when
    the copy comes from a file whose erased memories are still there (a purge committing
    while it is made: here, a store whose purge did not reach its rows), the backup is
    cleaned before it is listed."""
    s, secret = _store(tmp_path / "d")
    with s.transaction():
        uid = s.episode(secret).uid
        s.add_erased([uid])  # erased, its row not yet gone (as mid-purge)
    made = B.make_backup(s)
    assert SECRET.encode() not in made.path.read_bytes()
    assert s.episode(secret) is not None  # the live file is the purge's to clean, not this
    assert not any(p.name.startswith(".partial-") for p in B.backup_dir(s.path).iterdir())
    s.close()


@pytest.mark.gui
def test_deleting_a_chat_deletes_it_from_the_backups(qtbot, tmp_path, embedder):
    """Deleting a chat removes it with its messages; a backup kept it, word for word, for a
    week.  The chat now goes from every backup too (its memories stay, as in the file)."""
    pytest.importorskip("pytestqt")
    import qt_env  # noqa: F401
    from test_app_polish import _window
    from test_ui_app import _wait

    folder = tmp_path / "d"
    with Store(folder) as s:
        cid = s.add_conversation("Private")
        keep = s.add_conversation("Recipes")
        eid = s.add_episode("I bake on Sundays.", "ok", _vec(1), conversation_id=cid)
        s.add_message(cid, "user", f"My locker code is {SECRET}.")
        s.add_message(keep, "user", "Sourdough needs time.")
        made = B.make_backup(s)
    w = _window(qtbot, folder, embedder)
    _wait(qtbot, lambda: w.embedder_ready and len(w.conversations.chats()) == 2, 60)
    assert SECRET.encode() in made.path.read_bytes()
    w.run_op("delete_conv", cid)
    _wait(qtbot, lambda: len(w.conversations.chats()) == 1, 20)
    _wait(qtbot, lambda: SECRET.encode() not in made.path.read_bytes(), 20)
    with Store(made.path, create=False) as copy:
        assert [c["title"] for c in copy.conversations()] == ["Recipes"]
        assert copy.episode(eid) is not None  # the memory formed in it stays, as in the file
    w.close()


def test_doctor_says_how_many_backups_there_are(tmp_path, capsys):
    s, _ = _store(tmp_path / "d")
    made = B.make_backup(s)
    s.close()
    cli_main(["doctor", "--data-dir", str(tmp_path / "d")])
    out = capsys.readouterr().out
    assert f"backups:          1, newest {made.to_dict()['made']} (keeps 7)" in out
    cli_main(["doctor", "--json", "--data-dir", str(tmp_path / "d")])
    rep = json.loads(capsys.readouterr().out)
    assert rep["backups"] == {"count": 1, "newest": made.to_dict()["made"], "keep": 7}


@pytest.mark.gui
def test_a_job_in_the_background_gives_back_its_result_or_its_error(qtbot):
    """The window restores a backup off its own thread (2 s at 100,000 memories) and
    still gets the result, or the refusal, as if it had run it itself."""
    pytest.importorskip("pytestqt")
    import threading

    import qt_env  # noqa: F401
    from PySide6 import QtWidgets

    from hela_desktop.ui.backups_dialog import in_background

    parent = QtWidgets.QWidget()
    qtbot.addWidget(parent)
    main = threading.get_ident()
    assert in_background(parent, "…", lambda: (time.sleep(0.5), threading.get_ident())[1]) != main
    assert in_background(parent, "…", lambda: 7) == 7  # done before the wait begins

    def refused():
        raise StoreError("cannot be restored: damaged")

    with pytest.raises(StoreError, match="damaged"):
        in_background(parent, "…", refused)


def test_the_terminal_chat_makes_the_daily_backup_too(tmp_path, capsys):
    """The app makes the daily backup while idle; a person who only uses `hela-desktop
    chat` never had one.  The chat makes it as it ends, when one is due, quietly."""
    folder = tmp_path / "d"
    s, _ = _store(folder)
    s.close()
    args = ["chat", "--message", "Hello there.", "--json", "--max-tokens", "4",
            "--data-dir", str(folder)]
    assert cli_main(args) == 0
    made = B.list_backups(folder / DB_FILE)
    assert len(made) == 1 and len(_texts(made[0].path)) == 22  # with this message
    assert "backup" not in capsys.readouterr().err
    assert cli_main(args) == 0
    assert len(B.list_backups(folder / DB_FILE)) == 1  # not due again today


def test_backups_can_be_deleted_by_name(tmp_path, capsys):
    s, _ = _store(tmp_path / "d")
    a = B.make_backup(s, now=time.time() - 86400)
    b = B.make_backup(s)
    s.close()
    base = ["--data-dir", str(tmp_path / "d")]
    assert cli_main(["backups", "delete", a.name, "nope.sqlite3", *base]) == 2
    assert "nope.sqlite3: no such backup here" in capsys.readouterr().err
    assert a.path.exists() and b.path.exists()  # all or nothing
    assert cli_main(["backups", "delete", str(a.path), *base]) == 2  # names, not paths
    assert cli_main(["backups", "delete", a.name, "--json", *base]) == 0
    assert json.loads(capsys.readouterr().out.splitlines()[-1]) == {"deleted": [a.name]}
    assert not a.path.exists() and b.path.exists() and (tmp_path / "d" / DB_FILE).exists()


@pytest.mark.gui
def test_the_backups_dialog_deletes_a_backup_after_a_question(qtbot, tmp_path, monkeypatch):
    pytest.importorskip("pytestqt")
    import qt_env  # noqa: F401
    from PySide6 import QtCore, QtWidgets

    from hela_desktop.ui import backups_dialog

    s, _ = _store(tmp_path / "d")
    old = B.make_backup(s, now=time.time() - 86400)
    new = B.make_backup(s)
    s.close()
    dlg = backups_dialog.BackupsDialog(tmp_path / "d" / DB_FILE, 7, lambda: None, lambda p: None)
    qtbot.addWidget(dlg)
    dlg.show()
    dlg.activateWindow()
    qtbot.waitExposed(dlg)
    assert [b.name for b in dlg.backups] == [new.name, old.name]
    assert dlg.delete_button.isEnabled()  # the newest is chosen
    asked: list = []

    def answer(go: bool):
        def ask(box):
            asked.append(box.text())
            assert box.defaultButton() is box.button(QtWidgets.QMessageBox.StandardButton.Cancel)
            return next(b for b in box.buttons() if b.text() == "Delete") if go else None
        return ask

    monkeypatch.setattr(backups_dialog, "ask", answer(False))
    dlg.table.selectRow(1)
    dlg.table.setFocus()
    qtbot.waitUntil(dlg.table.hasFocus, timeout=2000)
    qtbot.keyClick(dlg.table, QtCore.Qt.Key.Key_Delete)
    assert asked and "your memories are not touched" in asked[-1] and old.path.exists()
    monkeypatch.setattr(backups_dialog, "ask", answer(True))
    dlg.delete_button.click()
    assert not old.path.exists() and new.path.exists()
    assert [b.name for b in dlg.backups] == [new.name] and dlg.count_label.text().startswith("1 backup")
    # no button but Close answers Enter (QA pass 35: after Back up now, Enter asked to restore)
    assert not any(b.autoDefault() or b.isDefault() for b in (
        dlg.make_button, dlg.restore_button, dlg.delete_button, dlg.folder_button))


def test_a_backup_with_a_log_left_beside_it_is_restored_with_what_the_log_holds(tmp_path):
    """A crash while a chat was deleted from a backup leaves the change in SQLite's log
    beside it; restoring copied the file alone, and the chat came back."""
    import shutil
    import sqlite3

    folder = tmp_path / "d"
    with Store(folder) as s:
        cid = s.add_conversation("Private")
        s.add_message(cid, "user", f"My locker code is {SECRET}.")
        made = B.make_backup(s, now=time.time() - 86400)
    crashed = made.path.with_name("memory-2026-01-01-000000.sqlite3")
    conn = sqlite3.connect(made.path)
    conn.execute("PRAGMA wal_autocheckpoint=0")
    conn.execute("PRAGMA foreign_keys=ON")  # as the store runs: the messages go too
    conn.execute("DELETE FROM conversations WHERE id = ?", (cid,))
    conn.commit()
    for side in ("", "-wal"):  # the state a crash leaves: the file and its log
        shutil.copyfile(f"{made.path}{side}", f"{crashed}{side}")
    conn.close()
    B.restore_backup(folder / DB_FILE, crashed)
    with Store(folder) as s:
        assert s.conversations() == []


@pytest.mark.gui
def test_delete_for_good_in_the_window_reaches_the_backups_without_holding_it_up(
        qtbot, tmp_path, embedder):
    """Delete for good cleaned every backup on the assistant thread (4.4 s with a week of
    backups of 100,000 memories, while a new message waited).  It now answers as soon as
    the memory file is done, and the backups are cleaned beside it."""
    pytest.importorskip("pytestqt")
    import qt_env  # noqa: F401
    from test_app_polish import _window
    from test_ui_app import _wait

    folder = tmp_path / "d"
    s, secret = _store(folder)
    made = [B.make_backup(s, now=time.time() - 86400 * d) for d in (2, 1)]
    with s.transaction():
        s.set_deleted(secret, True)
    s.close()
    w = _window(qtbot, folder, embedder)
    _wait(qtbot, lambda: w.embedder_ready, 60)
    reader = Store(folder)
    w.run_op("purge", [secret])
    _wait(qtbot, lambda: reader.episode(secret) is None, 20)
    _wait(qtbot, lambda: all(SECRET.encode() not in b.path.read_bytes() for b in made), 30)
    assert all(len(_texts(b.path)) == 20 for b in made)
    reader.close()
    w.close()


def test_no_daily_backup_of_an_empty_store(tmp_path):
    """The first `chat` in a new folder backed up the empty memory file, and that was the
    day's backup: the day's memories waited for the next.  A store with no memory (in
    recall, archived or deleted) is not backed up; its first memory makes it due."""
    empty = Store(tmp_path / "d")
    assert B.backup_if_due(empty, keep=7, every_days=1.0) is None
    assert B.list_backups(empty.path) == []
    eid = empty.add_episode("My first memory.", "ok", _vec(1))
    with empty.transaction():
        empty.set_deleted(eid, True)  # a deleted one is still kept by a backup
    made = B.backup_if_due(empty, keep=7, every_days=1.0)
    assert made is not None and made["kept"] == 1
    empty.close()


def test_a_chat_deleted_while_a_backup_is_made_is_not_in_it(tmp_path, monkeypatch):
    """Deleting a chat deletes it from the backups listed then; one still being written is
    not listed yet.  The backup checks again, before and after it is listed: a chat deleted
    in either gap is not in it (the other chats, and every memory, are)."""
    s, _ = _store(tmp_path / "d")
    gone = s.add_conversation("Private")
    s.add_message(gone, "user", "My locker code is zephyrquill.")
    late = s.add_conversation("Also private")
    s.add_message(late, "user", "The spare key is under the blue pot.")
    keep = s.add_conversation("Recipes")
    s.add_message(keep, "user", "Sourdough needs time.")
    copy_to, replace = s.copy_to, B.os.replace

    def copy_then_delete(path):  # the copy is made; then the window deletes a chat
        copy_to(path)
        s.delete_conversation(gone)

    def rename_then_delete(src, dst):  # listed; then another chat goes
        replace(src, dst)
        s.delete_conversation(late)

    monkeypatch.setattr(s, "copy_to", copy_then_delete)
    monkeypatch.setattr(B.os, "replace", rename_then_delete)
    made = B.make_backup(s)
    data = made.path.read_bytes()
    assert b"zephyrquill" not in data and b"blue pot" not in data
    with Store(made.path, create=False) as copy:
        assert [c["title"] for c in copy.conversations()] == ["Recipes"]
        assert copy.count_episodes() == s.count_episodes() == 21
    s.close()
