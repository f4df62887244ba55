"""One writer per data folder: the desktop app and the commands that write hold an OS lock
on ``<data-dir>/hela.lock``; a second one is refused (one line, exit 3), readers are not,
and a holder killed with ``kill -9`` leaves no stale lock.

Real processes throughout: a holder process, the real CLI, the real desktop app
(offscreen), SIGKILL.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from hela_desktop.folder_lock import LOCK_FILE, FolderBusy, lock_data_dir
from hela_desktop.store import Store

ENV = dict(os.environ, HF_HUB_OFFLINE="1", QT_QPA_PLATFORM="offscreen")

HOLDER = ("import sys, time\n"
          "from hela_desktop.folder_lock import lock_data_dir\n"
          "lock = lock_data_dir(sys.argv[1], 'a test holder')\n"
          "print('held', flush=True)\n"
          "time.sleep(300)\n")


def run(*args, timeout=120, env=None):
    return subprocess.run([sys.executable, "-m", "hela_desktop", *args], capture_output=True,
                          text=True, timeout=timeout, env=env or ENV)


def one_error_line(r) -> str:
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), r.stderr
    return lines[0]


def _seed(d) -> int:
    with Store(d) as s:
        return s.add_episode("I keep bees in the garden.", "Lovely.", np.ones(384, "float32"))


def _hold(d) -> subprocess.Popen:
    p = subprocess.Popen([sys.executable, "-c", HOLDER, str(d)], stdout=subprocess.PIPE,
                         text=True, env=ENV)
    assert p.stdout is not None and p.stdout.readline().strip() == "held"
    return p


def _kill_9(p: subprocess.Popen) -> None:
    os.kill(p.pid, signal.SIGKILL)
    p.wait(timeout=30)
    assert p.returncode == -signal.SIGKILL


def test_lock_is_exclusive_and_released(tmp_path):
    d = tmp_path / "data"
    with lock_data_dir(d, "first") as lock:
        assert lock.held and (d / LOCK_FILE).is_file()
        assert (d / LOCK_FILE).stat().st_mode & 0o077 == 0  # owner-only, like the rest
        with pytest.raises(FolderBusy, match=rf"in use by another HeLa Desktop \(first, process {os.getpid()}\)"):
            lock_data_dir(d, "second")
    assert not lock.held
    lock_data_dir(d, "again").release()  # the file stays; only the lock counted


def test_writers_refused_readers_served_and_kill_9_frees_the_folder(tmp_path):
    """A process holds the folder: every command that writes is refused in one line (exit
    3) and changes nothing; reading commands and dry runs still answer.  After the holder
    is killed with SIGKILL the folder is free at once (no stale lock)."""
    d = tmp_path / "data"
    eid = _seed(d)
    notes = tmp_path / "notes.txt"
    notes.write_text("A note about zebras.\n")
    holder = _hold(d)
    try:
        with pytest.raises(FolderBusy, match=f"a test holder, process {holder.pid}"):
            lock_data_dir(d, "the test")
        for argv in (["memories", "pin", str(eid)], ["import", str(notes)], ["forget"],
                     ["restore", str(eid)], ["knowledge", "delete", "1"]):
            r = run(*argv, "--data-dir", str(d))
            line = one_error_line(r)
            assert r.returncode == 3, (argv, r.stderr)
            assert "in use by another HeLa Desktop (a test holder" in line, (argv, line)
        r = run("memories", "list", "--data-dir", str(d))
        assert r.returncode == 0 and "bees" in r.stdout, r.stderr
        r = run("import", str(notes), "--dry-run", "--data-dir", str(d))
        assert r.returncode == 0 and "would import" in r.stdout, r.stderr
        r = run("forget", "--list", "--data-dir", str(d))
        assert r.returncode == 0, r.stderr
    finally:
        _kill_9(holder)
    with Store(d) as s:  # nothing was written by the refused commands
        e = s.episode(eid)
        assert e is not None and not e.pinned
        assert s.conn.execute("SELECT COUNT(*) FROM episodes").fetchone()[0] == 1
    lock_data_dir(d, "the test").release()  # free again: the kernel dropped the dead lock
    r = run("memories", "pin", str(eid), "--data-dir", str(d))
    assert r.returncode == 0, r.stderr
    with Store(d) as s:
        e = s.episode(eid)
        assert e is not None and e.pinned


def test_an_edit_of_a_missing_folder_does_not_create_it(tmp_path):
    d = tmp_path / "none"
    r = run("memories", "pin", "1", "--data-dir", str(d))
    assert r.returncode == 2 and "no memories" in one_error_line(r)
    assert not d.exists()


@pytest.mark.gui
@pytest.mark.slow
def test_a_second_desktop_app_on_the_folder_is_refused(tmp_path):
    """The real app (offscreen) holds its folder: a second app on it exits 3 with one line
    before opening a window, as does a chat; after the first is killed with SIGKILL the
    folder can be locked again."""
    pytest.importorskip("PySide6")
    d = tmp_path / "data"
    _seed(d)
    env = dict(ENV, XDG_CONFIG_HOME=str(tmp_path / "config"))
    first = subprocess.Popen([sys.executable, "-m", "hela_desktop", "--data-dir", str(d)],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                             env=env)
    try:
        deadline = time.monotonic() + 60
        while "the desktop app" not in _read(d / LOCK_FILE):
            assert first.poll() is None, first.communicate()[1]
            assert time.monotonic() < deadline, "the app never took its folder's lock"
            time.sleep(0.1)
        assert _read(d / LOCK_FILE).split()[0] == str(first.pid)
        r = run("--data-dir", str(d), env=env, timeout=60)
        line = one_error_line(r)
        assert r.returncode == 3
        assert f"in use by another HeLa Desktop (the desktop app, process {first.pid})" in line
        r = run("chat", "-m", "hello", "--data-dir", str(d), env=env)
        assert r.returncode == 3 and "the desktop app" in one_error_line(r)
        with pytest.raises(FolderBusy):
            lock_data_dir(d, "the test")
    finally:
        _kill_9(first)
    lock_data_dir(d, "the test").release()
    with Store(d) as s:
        assert s.conn.execute("SELECT COUNT(*) FROM messages").fetchone()[0] == 0


def _read(path) -> str:
    try:
        return path.read_text()
    except OSError:
        return ""


@pytest.mark.gui
def test_switching_the_window_to_a_folder_in_use_is_refused(qtbot, tmp_path):
    """Settings ▸ Data folder to a folder another HeLa Desktop holds: the window stays on
    its folder (and keeps its lock) with a message; to a free folder, the lock moves."""
    pytest.importorskip("pytestqt")
    from hela_desktop.config import Settings
    from hela_desktop.ui.main_window import MainWindow

    a, busy, free = tmp_path / "a", tmp_path / "busy", tmp_path / "free"
    w = MainWindow(a, Settings(), load_model=False, autoload=False, idle_scheduler=False)
    qtbot.addWidget(w)
    w.folder_lock = lock_data_dir(a, "the desktop app")
    other = lock_data_dir(busy, "someone else")
    try:
        w.apply_settings(Settings(), busy)
        assert w.data_dir == a and w.folder_lock.held
        assert w.last_message is not None and "in use" in w.last_message[1]
        assert not (busy / "settings.json").exists()
        with pytest.raises(FolderBusy):
            lock_data_dir(a, "the test")
        w.apply_settings(Settings(), free)
        assert w.data_dir == free and w.folder_lock.held
        lock_data_dir(a, "the test").release()  # the old folder was let go
        with pytest.raises(FolderBusy):
            lock_data_dir(free, "the test")
    finally:
        other.release()
        w.close()
        w.folder_lock.release()
