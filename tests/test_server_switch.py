"""Switching to a model server that takes the connection but never answers (stopped with
SIGSTOP, hung): the window said "Connecting to the model server at …" for the two minutes
of `server_timeout` before saying anything was wrong, and a message sent meanwhile waited
as long. The connection's checks now wait `PROBE_TIMEOUT_S` (5 s) at most; a port nobody
listens on fails at once. A stub server plays the silent one."""

from __future__ import annotations

import copy
import time

import pytest
import qt_env  # noqa: F401  (before PySide6: offscreen, a throwaway QSettings folder)
from test_server import free_port, server_settings, stub_server  # noqa: F401  (a fixture)

from hela_desktop.server_llm import PROBE_TIMEOUT_S, ServerError, ServerLLM


def test_a_silent_server_is_given_up_in_seconds_and_a_dead_port_at_once(stub_server):  # noqa: F811
    llm = ServerLLM(f"{stub_server}/mute", timeout=120.0)
    t0 = time.perf_counter()
    with pytest.raises(ServerError) as err:
        llm.connect()
    assert time.perf_counter() - t0 < PROBE_TIMEOUT_S + 3  # (it waited the 120 s)
    assert f"stalled: nothing received for {PROBE_TIMEOUT_S:g} s" in str(err.value)
    assert llm.client.timeout == 120.0  # answers still wait as long as the settings say
    t0 = time.perf_counter()
    with pytest.raises(ServerError, match="connection refused"):
        ServerLLM(f"http://127.0.0.1:{free_port()}", timeout=120.0).connect()
    assert time.perf_counter() - t0 < 2
    fast = ServerLLM(f"{stub_server}/mute", timeout=1.0)  # a shorter server_timeout wins
    with pytest.raises(ServerError, match="nothing received for 1 s"):
        fast.connect()


@pytest.mark.gui
def test_switching_to_a_silent_server_says_so_in_seconds_and_the_chat_stays_usable(
        qtbot, tmp_path, embedder, stub_server):  # noqa: F811
    pytest.importorskip("pytestqt")
    from test_app_qa_models import ready_window

    w = ready_window(qtbot, tmp_path, embedder)
    url = f"{stub_server}/mute"
    new = server_settings(copy.copy(w.settings), url)
    assert new.server_timeout == 120.0  # the default
    t0 = time.perf_counter()
    w.apply_settings(new)
    qtbot.waitUntil(lambda: w.model_error is not None, timeout=int(PROBE_TIMEOUT_S + 10) * 1000)
    assert time.perf_counter() - t0 < PROBE_TIMEOUT_S + 5
    assert f"{url} stalled: nothing received for {PROBE_TIMEOUT_S:g} s" in w.model_error
    box = w.last_message[1]  # a sentence of its own there, with what to do
    assert box.startswith("The model server at") and "restart it" in box, box
    # a message: tried again (README), and refused with the reason within seconds
    w.send("Anyone there?")
    qtbot.waitUntil(lambda: not w.is_streaming(), timeout=int(PROBE_TIMEOUT_S + 10) * 1000)
    live = w.chat.view.toPlainText().rpartition("Anyone there?")[2]
    assert "stalled" in live, live
    assert w.timeline.title == "" and not w.timeline.live  # it said "Answer in progress…"
    w.close()
