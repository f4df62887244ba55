"""Settings' model list, read off the window's thread: the dialog opened only once every
GGUF header in LM Studio's, Jan's, GPT4All's and Ollama's folders had been read (a tenth of
a second a file for a large vocabulary, more on a slow disk), and a damaged file was left
out without a word."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from hela_desktop.paths import bundled_model_path

MODEL = bundled_model_path()
pytestmark = [pytest.mark.gui,
              pytest.mark.skipif(MODEL is None, reason="the bundled model is not installed")]


def _lm_studio(tmp_path: Path) -> tuple[Path, Path]:
    """A home whose LM Studio folder holds three models, a damaged download, one cut short
    and a page saved under a .gguf name; (home, the folder)."""
    assert MODEL is not None
    home = tmp_path / "home"
    folder = home / ".lmstudio" / "models" / "someone" / "SmolLM2-GGUF"
    folder.mkdir(parents=True)
    for i in range(3):
        os.link(MODEL, folder / f"smol-{i}-instruct.Q4_1.gguf")
    data = MODEL.read_bytes()
    (folder / "bad-instruct.Q4_1.gguf").write_bytes(data[:2000])
    (folder / "cut-instruct.Q4_1.gguf").write_bytes(data[: len(data) // 2])
    (folder / "page.gguf").write_bytes(b"<html>Not found</html>")
    return home, folder


@pytest.fixture
def slow_headers(monkeypatch):
    """Every header read waits until the test lets it go (at most 10 s)."""
    from hela_desktop import model_catalog

    go = threading.Event()
    go.on_gui_thread = []  # type: ignore[attr-defined]  # headers read on the window's thread
    real = model_catalog.read_gguf_info

    def slow(path):
        if threading.current_thread() is threading.main_thread():
            go.on_gui_thread.append(path)  # type: ignore[attr-defined]
        go.wait(10)
        return real(path)

    monkeypatch.setattr(model_catalog, "read_gguf_info", slow)
    yield go
    go.set()


def test_settings_opens_at_once_and_lists_the_other_apps_models_when_read(
        qtbot, tmp_path, monkeypatch, slow_headers):
    pytest.importorskip("pytestqt")
    from PySide6 import QtGui

    from hela_desktop.config import Settings
    from hela_desktop.ui.settings_dialog import LOOKING, SettingsDialog

    home, folder = _lm_studio(tmp_path)
    monkeypatch.setattr(SettingsDialog, "_home", home)
    s = Settings()
    s.model_path = str(folder / "smol-1-instruct.Q4_1.gguf")  # the current choice
    dlg = SettingsDialog(s, tmp_path / "data")
    qtbot.addWidget(dlg)
    assert slow_headers.on_gui_thread == []  # (it read every header there: 10 s each here)
    texts = [dlg.model.itemText(i) for i in range(dlg.model.count())]
    assert texts[-1] == LOOKING and dlg.scanning
    assert dlg.models_hint.text().startswith(LOOKING)  # said under the list too
    items = dlg.model.model()
    assert isinstance(items, QtGui.QStandardItemModel)
    assert not items.item(dlg.model.count() - 1).isEnabled()  # a line, not a choice
    assert dlg.model_path() == s.model_path  # the current choice, by its file name meanwhile
    assert dlg.model.currentText() == "smol-1-instruct.Q4_1.gguf"
    slow_headers.set()
    qtbot.waitUntil(lambda: not dlg.scanning, timeout=20000)
    rows = {dlg.model.itemText(i): i for i in range(dlg.model.count())}
    assert LOOKING not in rows and not any("page" in t for t in rows)  # not GGUF at all
    assert dlg.models_hint.text().startswith("Also listed: GGUF chat models of LM Studio")
    assert dlg.model_path() == s.model_path  # still the current choice, now by its name
    assert dlg.model.currentText() == "smol-1-instruct.Q4_1 (LM Studio)"
    assert list(rows)[1:] == [  # in the folder's order (the choice, too: not first)
        "bad-instruct.Q4_1 (LM Studio) — damaged", "cut-instruct.Q4_1 (LM Studio) — incomplete",
        *(f"smol-{i}-instruct.Q4_1 (LM Studio)" for i in range(3))]
    assert "Q4_1, 8,192 ctx" in dlg.model_details.text()
    bad = rows["bad-instruct.Q4_1 (LM Studio) — damaged"]
    assert not items.item(bad).isEnabled()
    assert dlg.model.itemData(bad, 3) == (  # (Qt.ToolTipRole)
        "bad-instruct.Q4_1 — LM Studio, its header is damaged (truncated GGUF header)")
    assert not items.item(rows["cut-instruct.Q4_1 (LM Studio) — incomplete"]).isEnabled()
    assert all(items.item(rows[f"smol-{i}-instruct.Q4_1 (LM Studio)"]).isEnabled()
               for i in range(3))
    # a file of the data folder: described off the window's thread too, shown when read
    (tmp_path / "data" / "models").mkdir(parents=True)
    mine = tmp_path / "data" / "models" / "mine.gguf"
    os.link(folder / "bad-instruct.Q4_1.gguf", mine)
    dlg.model.addItem(mine.name, str(mine))
    dlg.model.setCurrentIndex(dlg.model.count() - 1)
    qtbot.waitUntil(lambda: "damaged" in dlg.model_details.text(), timeout=20000)
    # (where it is: it said "file", as if that were the app it came from, QA pass 23)
    assert dlg.model_details.text() == (
        "mine — in your data folder, its header is damaged (truncated GGUF header)")


def test_closing_settings_while_models_are_read_is_safe(qtbot, tmp_path, monkeypatch,
                                                        slow_headers):
    pytest.importorskip("pytestqt")
    import shiboken6
    from PySide6 import QtWidgets

    from hela_desktop.config import Settings
    from hela_desktop.ui.settings_dialog import SettingsDialog

    home, _ = _lm_studio(tmp_path)
    monkeypatch.setattr(SettingsDialog, "_home", home)
    parent = QtWidgets.QWidget()
    qtbot.addWidget(parent)
    dlg = SettingsDialog(Settings(), tmp_path / "data", parent)
    scan = dlg._scanner.job_thread
    dlg.reject()
    dlg.deleteLater()
    qtbot.waitUntil(lambda: not shiboken6.isValid(dlg))
    slow_headers.set()
    scan.join(20)
    assert not scan.is_alive()
    qtbot.wait(100)  # the answer, sent into a deleted dialog, is dropped: no crash, no error
