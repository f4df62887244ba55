"""Seventeenth pass: what the window says of the model that answers."""

from __future__ import annotations

import shutil

import pytest
import qt_env  # noqa: F401  (before PySide6: offscreen, a throwaway QSettings folder)

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")

from test_ui_app import _ui_settings, _wait  # noqa: E402

from hela_desktop.assistant import describe_model  # noqa: E402
from hela_desktop.events import ModelStatusEvent  # noqa: E402
from hela_desktop.ui.window_status import model_label, model_tip  # noqa: E402

pytestmark = pytest.mark.gui


def test_the_status_bar_says_the_bundled_model_answers_at_16_bit(qtbot, tmp_path, llm, embedder):
    """0.8.0 runs the bundled model from a 16-bit copy of its weights, while the status
    bar still named the 4-bit file ("Model: SmolLM2-135M-Instruct.Q4_1") and its tooltip
    that file's path: a person checking which file answers was told the wrong one.  It
    names the model as Settings does and says "16-bit" now ("Q4_1 · 16-bit", tried first,
    read as both at once), and the tooltip names the copy; a model of the user's own is
    shown as before."""
    from hela_desktop.llm import LocalLLM
    from hela_desktop.ui.main_window import MainWindow

    if llm.run_path == llm.path:
        pytest.skip(f"no 16-bit copy of the bundled model here: {llm.f16_problem}")
    info = describe_model(llm)
    assert info["run_path"].endswith(".F16.gguf")
    other = tmp_path / "my-model.gguf"
    shutil.copyfile(llm.path, other)
    mine = LocalLLM(path=str(other), n_ctx=512)
    assert "run_path" not in describe_model(mine) and "f16_problem" not in describe_model(mine)

    w = MainWindow(tmp_path / "data", _ui_settings(),
                   assistant_kwargs={"llm": llm, "embedder": embedder}, idle_scheduler=False)
    qtbot.addWidget(w)
    w.show()
    _wait(qtbot, lambda: w.model_ready, 120)
    label = w.status.model
    assert label.text() == "Model: SmolLM2-135M-Instruct (bundled, 16-bit)", label.text()
    assert info["run_path"] in label.toolTip() and str(llm.path) in label.toolTip()
    w._on_model_status(ModelStatusEvent("ready", describe_model(mine)))
    assert "16-bit" not in label.text() and "16-bit" not in label.toolTip()
    mine.close()


def test_the_tooltip_says_why_the_4_bit_file_answers():
    """When the copy could not be made (no room, a folder that cannot be written) the
    tooltip says so, with the reason, rather than nothing."""
    tip = model_tip({"path": "/m/SmolLM2.Q4_1.gguf", "f16_problem": "/m: no room (need 300 MB)"})
    assert tip.startswith("/m/SmolLM2.Q4_1.gguf\n")
    assert "4-bit file" in tip and "no room (need 300 MB)" in tip
    assert model_tip({"path": "/m/mine.gguf"}) == "/m/mine.gguf"
    assert model_label({"name": "SmolLM2-135M-Instruct.Q4_1", "bundled": True}) == (
        "SmolLM2-135M-Instruct (bundled, 4-bit)")
    assert model_label({"name": "qwen2.5-7b-instruct-q4_k_m", "bundled": False}) == (
        "qwen2.5-7b-instruct-q4_k_m")


def test_the_graph_arrangement_is_kept_while_the_window_is_open(qtbot, tmp_path):
    """The arrangement was written only when the window closed: an app killed (logout,
    a crash, `kill`) reopened with every dot elsewhere.  An open window now keeps it every
    few minutes, and an arrangement already on disk is not written again."""
    import os

    import numpy as np
    from test_app_polish import _window
    from test_ui_app import fill_store

    from hela_desktop.store import Store
    from hela_desktop.ui import layout_file
    from hela_desktop.ui.layout_file import LAYOUT_FILE, load_positions, save_positions

    assert 60_000 <= layout_file.KEEP_EVERY_MS <= 10 * 60_000
    data = tmp_path / "data"
    with Store(data) as s:
        fill_store(s, n=20)
    w = _window(qtbot, data)
    assert w._layout_timer.isActive() and w._layout_timer.interval() == layout_file.KEEP_EVERY_MS
    _wait(qtbot, lambda: w.graph.loaded and len(w.graph.xy) == 20, 20)
    qtbot.wait(800)
    assert not (data / LAYOUT_FILE).exists()
    w._layout_timer.timeout.emit()  # as the timer does, with the window still open
    ids, xy = w.graph.positions_to_keep()
    kept = load_positions(data)
    assert set(kept) == {int(i) for i in ids}
    assert np.allclose([kept[int(i)] for i in ids], xy, atol=1e-3)
    # the same arrangement again: the file is left as it is (no write every few minutes)
    path = data / LAYOUT_FILE
    os.utime(path, (1_000_000, 1_000_000))
    assert save_positions(data, ids, xy) and path.stat().st_mtime == 1_000_000
    assert save_positions(data, ids, xy + 1.0) and path.stat().st_mtime > 1_000_000
    w.close()
    assert not w._layout_timer.isActive()


def test_file_dialogs_open_where_the_last_file_went(qtbot, tmp_path, monkeypatch):
    """The QA pass: File ▸ Import memories opened in the home folder right after a memory
    file was exported elsewhere.  Every file dialog of the File menu now opens in the folder
    of the last file exported or imported (the home folder at first, or when that folder is
    gone)."""
    from pathlib import Path

    from PySide6 import QtCore, QtWidgets
    from test_app_polish import _window

    from hela_desktop.ui import window_files

    QtCore.QSettings().remove(window_files.LAST_FOLDER_KEY)
    w = _window(qtbot, tmp_path / "data")
    elsewhere = tmp_path / "exports"
    elsewhere.mkdir()
    asked: list[str] = []

    def save(parent, caption, start, filters):
        asked.append(start)
        return str(elsewhere / "mine.hela"), ""

    def open_(parent, caption, start, filters):
        asked.append(start)
        return "", ""  # cancelled

    monkeypatch.setattr(QtWidgets.QFileDialog, "getSaveFileName", save)
    monkeypatch.setattr(QtWidgets.QFileDialog, "getOpenFileName", open_)
    ran: list[tuple] = []
    monkeypatch.setattr(w.files, "start_progress", lambda *a, **k: None)
    monkeypatch.setattr(w, "run_op", lambda *a: ran.append(a))  # (the export is not run)
    w.files.export_memories()
    w.files.import_memories()
    assert asked == [str(Path.home() / "memories.hela"), str(elsewhere)]
    assert ran == [("export", str(elsewhere / "mine.hela"))]
    elsewhere.rmdir()  # the folder is gone: home again
    assert window_files.start_in() == str(Path.home())
    QtCore.QSettings().remove(window_files.LAST_FOLDER_KEY)
    w.close()
