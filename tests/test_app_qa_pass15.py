"""Fifteenth pass, the lead's: what a new user is told of the model answering."""

from __future__ import annotations

import shutil

import pytest
import qt_env  # noqa: F401  (before PySide6: offscreen, a throwaway QSettings folder)

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")

from test_ui_app import _ui_settings, _wait  # noqa: E402

from hela_desktop.assistant import describe_model  # noqa: E402
from hela_desktop.events import SMALL_MODEL_NOTE, ModelStatusEvent  # noqa: E402

pytestmark = pytest.mark.gui


def test_the_empty_chat_says_the_bundled_model_is_tiny_and_how_to_get_better_answers(
        qtbot, tmp_path, llm, embedder):
    """A new user's first answers come from a 135M model that answers about one question in
    five about themselves rightly with the memory in its prompt (`bench personal`); nothing
    said so, and the assistant simply seemed not to listen.  The welcome of an empty chat
    now says it, and where better answers come from, while (and only while) the bundled
    model answers."""
    from hela_desktop.llm import LocalLLM
    from hela_desktop.ui.main_window import MainWindow

    assert describe_model(llm)["bundled"] is True
    other = tmp_path / "my-model.gguf"  # a model file of the user's choosing
    shutil.copyfile(llm.path, other)
    mine = LocalLLM(path=str(other), n_ctx=512)
    assert describe_model(mine)["bundled"] is False

    w = MainWindow(tmp_path / "data", _ui_settings(),
                   assistant_kwargs={"llm": llm, "embedder": embedder}, idle_scheduler=False)
    qtbot.addWidget(w)
    w.show()
    view = w.chat.view
    assert SMALL_MODEL_NOTE not in view.toPlainText()  # not known before the model loads
    _wait(qtbot, lambda: w.model_ready, 120)
    assert SMALL_MODEL_NOTE in view.toPlainText()
    # (kept on one line: "▸ Answers." had wrapped alone; toPlainText shows its no-break
    # spaces as spaces)
    assert "a bigger model file or a model server in Settings ▸ Answers" in view.toPlainText()
    assert "Ask HeLa anything." in view.toPlainText()  # under the welcome, not instead of it
    w.chat.view.show_empty()  # a new chat says it again
    assert SMALL_MODEL_NOTE in view.toPlainText()
    # another model (the user's file, or a server) answers: the note goes at once
    w._on_model_status(ModelStatusEvent("ready", describe_model(mine)))
    assert SMALL_MODEL_NOTE not in view.toPlainText() and "Ask HeLa anything." in view.toPlainText()
    mine.close()


def test_the_unsent_message_is_kept_owner_only_in_the_data_folder(qtbot, tmp_path):
    """doc15 found the unsent message (0.6.0) kept in Qt's settings file, which Qt writes
    with the usual permissions (0644 here): readable by other users of the computer, while
    everything else of the user's is owner-only in the data folder.  It is kept there now,
    0600, and one that 0.6.0 left in Qt's settings is taken out of them."""
    import os
    import stat

    from PySide6 import QtCore
    from test_app_polish import _window

    from hela_desktop.ui.window_chats import DRAFT_FILE

    data = tmp_path / "data"
    w = _window(qtbot, data)
    w.chat.input.setPlainText("My PIN is 4821, don't tell anyone")
    w.close()
    # the chat list, loaded after closing began (a window closed within its first second),
    # took the kept message back and deleted it (seen once in this test, by timing)
    w._reopen_last_chat()
    draft = data / DRAFT_FILE
    assert draft.read_text(encoding="utf-8") == "My PIN is 4821, don't tell anyone"
    if os.name == "posix":
        assert stat.S_IMODE(draft.stat().st_mode) == 0o600
    key = w._folder_key("draft")
    assert QtCore.QSettings().value(key) is None  # nothing of it in Qt's file
    w2 = _window(qtbot, data)
    assert w2.chat.input.toPlainText() == "My PIN is 4821, don't tell anyone"
    assert not draft.exists()  # the box holds it now; kept again only if unsent at close
    w2.chat.input.clear()
    w2.close()
    assert not draft.exists()
    # where 0.6.0 kept it: restored once, and gone from Qt's file
    QtCore.QSettings().setValue(key, "An old draft")
    w3 = _window(qtbot, data)
    assert w3.chat.input.toPlainText() == "An old draft"
    assert QtCore.QSettings().value(key) is None
    w3.chat.input.clear()
    w3.close()


def test_settings_ok_keeps_an_idle_time_the_file_allows(qtbot, tmp_path):
    """doc15: settings.json accepted idle_minutes down to 0.1 while the Settings box began
    at 0.5, so pressing OK without touching it changed 0.2 into 0.5.  One range, 0.1 to
    1440 minutes, for both."""
    from hela_desktop.config import Settings
    from hela_desktop.ui.settings_dialog import SettingsDialog

    for minutes in (0.1, 0.2, 1440.0):
        dlg = SettingsDialog(Settings().with_overrides(idle_minutes=minutes), tmp_path)
        qtbot.addWidget(dlg)
        assert dlg.result_settings().idle_minutes == pytest.approx(minutes)
    from hela_desktop.config import SettingsError

    with pytest.raises(SettingsError, match="idle_minutes"):
        Settings().with_overrides(idle_minutes=5000.0)


def test_the_memories_tab_counts_one_memory_as_one(qtbot, seed_dir, embedder):
    """Seen in qa15w's screenshot of the Memories tab: "1 memories"."""
    from test_app_polish import _window

    w = _window(qtbot, seed_dir([("My cat is called Miso.", "What a lovely name!")]), embedder)
    _wait(qtbot, lambda: w.browser.count_label.text() == "1 memory", 60)
