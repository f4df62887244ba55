"""Seventeenth pass: what the window says of the model that answers."""

from __future__ import annotations

import shutil

import numpy as np
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
    ids, xy, topics = w.graph.positions_to_keep()
    kept = load_positions(data)
    assert set(kept) == {int(i) for i in ids}
    assert np.allclose([kept[int(i)] for i in ids], xy, atol=1e-3)
    # the same arrangement again: the file is left as it is (no write every few minutes)
    path = data / LAYOUT_FILE
    os.utime(path, (1_000_000, 1_000_000))
    assert save_positions(data, ids, xy, topics) and path.stat().st_mtime == 1_000_000
    assert save_positions(data, ids, xy + 1.0, topics) and path.stat().st_mtime > 1_000_000
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


def test_stable_slots_keep_a_topic_s_colour_as_it_is_outgrown():
    """Worked by hand.  Rows 0-3 were topic A in slot 0, rows 4-6 topic B in slot 1, and
    B has grown (rows 7, 8 new): numbered by size, B is now group 0 and A group 1.  Each
    keeps the slot most of its rows had; a new topic C (group 2, 3 rows, none coloured
    before) takes the first free slot, 2; a group of 2 rows gets no colour."""
    from hela_desktop.ui.graph_model import stable_slots

    groups = np.array([1, 1, 1, 1, 0, 0, 0, 0, 0, 2, 2, 2, 3, 3])
    prev = np.array([0, 0, 0, 0, 1, 1, 1, -1, -1, -1, -1, -1, -1, -1])
    assert stable_slots(groups, prev, 12) == {0: 1, 1: 0, 2: 2}
    # nothing coloured before: slots by size, as the groups are numbered
    assert stable_slots(groups, np.full(14, -1), 12) == {0: 0, 1: 1, 2: 2}
    # two groups claim slot 0 (a topic split): the larger overlap keeps it (group 1: 3 rows
    # against group 0's 2), the other takes the first free slot
    groups = np.array([0, 0, 0, 1, 1, 1])
    prev = np.array([0, 0, 5, 0, 0, 0])
    assert stable_slots(groups, prev, 12) == {1: 0, 0: 5}
    # only n_slots topics are coloured, and a slot beyond them is not kept
    assert stable_slots(np.array([0, 0, 0, 1, 1, 1]), np.array([9, 9, 9, -1, -1, -1]), 2) == {0: 0, 1: 1}


def _two_topics(big_b: bool) -> dict:
    """Topic A (memories 1-4) and topic B (5-7, or 5-9), each a tight group."""
    b = range(5, 10 if big_b else 8)
    nodes = [{"id": i, "kind": "episode", "label": f"m{i}", "text": f"memory {i}",
              "created_at": 1_750_000_000.0 + i, "access_count": 0, "last_access": None,
              "pinned": False, "last_recall": None} for i in [1, 2, 3, 4, *b]]
    edges = [(i, j, 0.9) for grp in (range(1, 5), b) for i in grp for j in grp if i < j]
    edges.append((4, 5, 0.05))
    return {"nodes": nodes, "edges": edges, "learned": {}}


@pytest.mark.gui
def test_a_topic_keeps_its_colour_when_another_outgrows_it(qtbot):
    """The QA pass: topic colours changed between turns.  Groups are numbered by size and
    coloured by number, so when topic B outgrew topic A the two swapped colours."""
    from hela_desktop.ui.graph_view import GraphView

    view = GraphView(threaded=False)
    qtbot.addWidget(view)
    view.set_snapshot(_two_topics(False), animate=False)
    colour = {int(i): int(b) for i, b in zip(view.data.ids, view.topic_bucket)}
    assert colour[1] != colour[5] and colour[1] >= 0 and colour[5] >= 0
    view.set_snapshot(_two_topics(True), animate=False)  # B now the larger
    again = {int(i): int(b) for i, b in zip(view.data.ids, view.topic_bucket)}
    assert again[1] == colour[1] and again[5] == colour[5] and again[9] == colour[5]
