"""The window and its assistant client agree on when an answer has ended (CI on 0.45.0:
the client cleared its own "streaming" flag on the worker's turnFailed before the window's
slot for the same signal had run; a message sent in between found the failed answer still
"Loading the language model…" on screen, and no reason was shown).  Only the window clears
it now, once it has handled the end."""

from __future__ import annotations

import pytest
import qt_env  # noqa: F401  (before PySide6: offscreen, a throwaway QSettings folder)

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")


def _sent_window(qtbot, tmp_path, monkeypatch):
    from test_app_qa_pass4 import _window

    w = _window(qtbot, tmp_path)
    asked: list[str] = []

    def chat(text, _conv, _said_at=0.0) -> None:  # the assistant thread is not asked here
        w.client.streaming = True
        asked.append(text)

    monkeypatch.setattr(w.client, "chat", chat)
    w.send("Anyone there?")
    assert asked == ["Anyone there?"] and w.is_streaming()
    return w


@pytest.mark.gui
def test_a_failed_turn_ends_the_answer_only_once_the_window_has_said_why(
        qtbot, tmp_path, monkeypatch):
    w = _sent_window(qtbot, tmp_path, monkeypatch)
    worker = w.client.worker
    worker.turnFailed.disconnect(w._on_turn_failed)  # the window's slot, not run yet
    worker.turnFailed.emit("the server stalled", True)
    assert w.is_streaming()  # (it was False here: the client had cleared it on its own)
    worker.turnFailed.connect(w._on_turn_failed)
    w._on_turn_failed("the server stalled", True)
    assert not w.is_streaming() and not w.client.streaming
    assert "Not sent: the server stalled." in w.chat.view.toPlainText()
    assert w.chat.input.toPlainText() == "Anyone there?"
    w.close()


@pytest.mark.gui
def test_an_answer_ends_only_once_the_window_has_shown_it(qtbot, tmp_path, monkeypatch):
    from hela_desktop.events import DoneEvent

    w = _sent_window(qtbot, tmp_path, monkeypatch)
    worker = w.client.worker
    worker.stream.disconnect(w._on_event)
    worker.stream.emit(DoneEvent(1, None, None, 0, 0, 0, 0.0, 0.0))
    assert w.is_streaming()
    worker.stream.connect(w._on_event)
    w._on_event(DoneEvent(1, None, None, 0, 0, 0, 0.0, 0.0))
    assert not w.is_streaming() and not w.client.streaming
    assert "Stopped before the answer began" in w.chat.view.toPlainText()
    w.close()
