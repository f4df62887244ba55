"""The eleventh QA pass of the window, by hand under Xvfb: a new user's models — GGUF files
of LM Studio, Jan, GPT4All and Ollama on disk, a llama.cpp server on another port, switching
between them — what they met, fixed.

Switching to a model server that does not answer (stopped with SIGSTOP) said "Loading the
language model…" for the two minutes of `server_timeout`, and a message sent meanwhile
said "Starting…": nothing said a server was being waited for.

pytest-qt offscreen, real widgets on a real store with the real embedder, a stub server."""

from __future__ import annotations

import copy

import pytest
import qt_env  # noqa: F401  (before PySide6: offscreen, a throwaway QSettings folder)

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")

from test_server import server_settings, stub_server  # noqa: E402, F401  (a fixture)

pytestmark = pytest.mark.gui


def ready_window(qtbot, tmp_path, embedder):
    """A shown window on a new data folder, its model and embedder loaded."""
    from hela_desktop.config import Settings
    from hela_desktop.ui.main_window import MainWindow

    s = Settings()
    s.max_answer_tokens = 8
    w = MainWindow(tmp_path / "data", s, assistant_kwargs={"embedder": embedder},
                   idle_scheduler=False)
    qtbot.addWidget(w)
    w.show()
    qtbot.waitUntil(lambda: w.model_ready and w.embedder_ready, timeout=120_000)
    return w


def test_switching_to_a_silent_server_says_it_is_waited_for(qtbot, tmp_path, embedder,
                                                           stub_server):  # noqa: F811
    w = ready_window(qtbot, tmp_path, embedder)
    url = f"{stub_server}/mute"
    new = server_settings(copy.copy(w.settings), url)
    new.server_timeout = 4.0
    w.apply_settings(new)
    waiting = f"Connecting to the model server at {url}…"
    qtbot.waitUntil(lambda: w.status.busy_label.text() == waiting, timeout=5_000)
    w.send("Anyone there?")  # the old model is still "ready" while the switch runs
    live = w.chat.view.toPlainText().rpartition("Anyone there?")[2]
    assert waiting in live and "Starting" not in live
    qtbot.waitUntil(lambda: w.model_error is not None, timeout=30_000)
    assert "stalled: nothing received for 4 s" in w.model_error
    qtbot.waitUntil(lambda: not w.is_streaming(), timeout=30_000)
    w.close()
