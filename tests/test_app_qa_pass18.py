"""Session 18 (the window's leftovers and a demanding user's pass under Xvfb): what it got
wrong.  Real widgets on Qt's offscreen platform."""

from __future__ import annotations

import pytest
import qt_env  # noqa: F401  (before PySide6: offscreen, a throwaway QSettings folder)


def test_a_narrow_stats_line_shows_a_shorter_form_before_it_cuts(qtbot):
    """At 900×600 the graph's line "14 memories · 23 links (4 learned)" was cut to "14 …"
    (/work/exp/s17/qa/s31_small_graph.png).  It now shows the longest shorter form that
    fits ("14 memories · 23 links", "14 memories"), the whole line on hover.  (Not a bare
    "14": the second pass read it as a number with no meaning.)"""
    from hela_desktop.ui.plain import ElidedLabel

    label = ElidedLabel()
    qtbot.addWidget(label)
    forms = ("14 memories · 23 links (4 learned)", "14 memories · 23 links", "14 memories · 2",
             "14 memories")
    label.setText(*forms)
    fm = label.fontMetrics()
    widths = [fm.horizontalAdvance(f) for f in forms]
    assert label.shown_text(widths[0] + 2) == forms[0]
    assert label.shown_text(widths[0] - 1) == forms[1]
    assert label.shown_text(widths[2]) == forms[2]
    assert label.shown_text(widths[3] + 1) == forms[3]
    assert label.shown_text(1) == forms[3]  # (then cut with "…")
    assert forms[0] in label.toolTip()
    assert label.minimumSizeHint().width() == 40  # (what the window's layouts count on)
    label.setText("plain")  # one form: as before
    assert label.shown_text(1) == "plain" and label.shorter == ()


@pytest.mark.gui
def test_ctrl_n_while_an_answer_is_written_stops_it_and_opens_a_new_chat(qtbot, tmp_path, llm,
                                                                        embedder):
    """Ctrl+N (and "+ New") did nothing while an answer was written, without a word: the
    action was greyed, and the chat list said nothing of why (QA pass 18).  Now it stops
    the answer (what it wrote is kept, marked interrupted) and opens a new chat once it
    has ended; the chat list holds still meanwhile and says why."""
    pytest.importorskip("pytestqt")
    from test_ui_app import _ui_settings, _wait

    from hela_desktop.store import Store
    from hela_desktop.ui.main_window import MainWindow

    s = _ui_settings()
    s.max_answer_tokens = 400
    w = MainWindow(tmp_path / "data", s, assistant_kwargs={"llm": llm, "embedder": embedder},
                   idle_scheduler=False)
    qtbot.addWidget(w)
    w.show()
    _wait(qtbot, lambda: w.model_ready and w.embedder_ready, 120)
    from PySide6 import QtWidgets

    chat_menu = next(m for m in w.menuBar().findChildren(QtWidgets.QMenu) if m.title() == "&Chat")
    assert chat_menu.actions()[0] is w.act_new  # New chat in the Chat menu too (QA pass 18)
    w.send("Write a very long essay about ships and the sea.")
    _wait(qtbot, lambda: w.timeline.n_tokens >= 3, 120)
    assert w.act_new.isEnabled() and w.conversations.new_button.isEnabled()
    assert not w.conversations.list.isEnabled()
    assert "once the answer ends" in w.conversations.body.toolTip()
    w.act_new.trigger()
    assert w.statusBar().currentMessage().startswith("Stopping the answer")
    _wait(qtbot, lambda: not w.is_streaming() and w.current_conv is None, 60)
    assert w.chat.title.text() == "New chat" and w.chat.view.entries == []
    assert w.conversations.list.isEnabled() and w.conversations.body.toolTip() == ""
    with Store(tmp_path / "data") as reader:
        chats = reader.conversations()
        assert len(chats) == 1  # the chat answered; the new one is not stored until used
        msgs = reader.messages(chats[0]["id"])
    assert [m["role"] for m in msgs] == ["user", "assistant"]
    assert msgs[1]["interrupted"] and msgs[1]["content"]
    w.close()


@pytest.mark.gui
def test_each_chat_keeps_its_own_unsent_message(qtbot, tmp_path):
    """The message box was one for every chat: a half-typed message followed the user into
    other chats (QA pass 18, c10a/c10b.png).  Each chat keeps what was left unsent in it
    while the app runs."""
    from test_app_polish import _window
    from test_ui_app import _wait

    from hela_desktop.store import Store

    with Store(tmp_path / "data") as st:
        a, b = st.add_conversation("Garden"), st.add_conversation("Trip")
        for cid in (a, b):
            st.add_message(cid, "user", "Hello")
            st.add_message(cid, "assistant", "Hi.")
    w = _window(qtbot, tmp_path / "data")
    _wait(qtbot, lambda: len(w.conversations.chats()) == 2, 20)

    def pick(cid: int) -> None:
        w.conversations.selected.emit(cid)
        _wait(qtbot, lambda: w.current_conv == cid and w.session.title in ("Garden", "Trip"), 20)
        qtbot.wait(50)

    pick(a)
    w.chat.input.setPlainText("Half-typed about the garden")
    pick(b)
    assert w.chat.input.toPlainText() == ""
    w.chat.input.setPlainText("For the trip")
    pick(a)
    assert w.chat.input.toPlainText() == "Half-typed about the garden"
    w.new_chat()
    assert w.chat.input.toPlainText() == ""
    w.chat.input.setPlainText("A new thought")
    pick(b)
    assert w.chat.input.toPlainText() == "For the trip"
    w.new_chat()
    assert w.chat.input.toPlainText() == "A new thought"
    w.close()
