"""Twenty-second pass, as a new user: what the window showed that it should not have."""

from __future__ import annotations

import qt_env  # noqa: F401  (before PySide6: offscreen, a throwaway QSettings folder)
from PySide6 import QtCore, QtGui, QtWidgets  # noqa: E402


def _accent_pixels(img: QtGui.QImage, accent: QtGui.QColor) -> int:
    """Pixels of `img` within a few levels of `accent` (the keyboard's mark)."""
    return sum(1 for x in range(img.width()) for y in range(img.height())
               for c in (img.pixelColor(x, y),)
               if abs(c.red() - accent.red()) + abs(c.green() - accent.green())
               + abs(c.blue() - accent.blue()) < 40)


def _painted(pal: QtGui.QPalette, element, option) -> QtGui.QImage:
    """`element` drawn by the app's style on the window colour, 120 × 30."""
    img = QtGui.QImage(120, 30, QtGui.QImage.Format.Format_RGB32)
    img.fill(pal.color(QtGui.QPalette.ColorRole.Window))
    p = QtGui.QPainter(img)
    style = QtWidgets.QApplication.style()
    if isinstance(element, QtWidgets.QStyle.PrimitiveElement):
        style.drawPrimitive(element, option, p)
    else:
        style.drawControl(element, option, p)
    p.end()
    return img


def test_the_keyboard_mark_on_a_tab_and_a_check_box_is_drawn_in_the_accent(qtbot):
    """QA pass 21: with the dark scheme, Tab on the graph / Memories tabs and on "Focus on
    active" left a mark that could hardly be seen (a tab got none at all from Fusion).
    The style draws the mark in the accent (3.2:1 on the dark window, 4.3:1 on the light)
    for a check box's label and for a tab that has the keyboard; not for a tab without it."""
    from hela_desktop.ui.theme import apply_theme

    app = QtWidgets.QApplication.instance()
    palette = app.palette()
    S, CE = QtWidgets.QStyle.StateFlag, QtWidgets.QStyle.ControlElement
    try:
        for dark in (True, False):
            apply_theme(app, dark)
            pal = app.palette()
            accent = pal.color(QtGui.QPalette.ColorRole.Highlight)

            mark = QtWidgets.QStyleOptionFocusRect()
            mark.palette, mark.rect = pal, QtCore.QRect(2, 2, 110, 24)
            img = _painted(pal, QtWidgets.QStyle.PrimitiveElement.PE_FrameFocusRect, mark)
            assert _accent_pixels(img, accent) > 150, dark  # the whole outline, ~2·(110+24)

            tab = QtWidgets.QStyleOptionTab()
            tab.palette, tab.rect, tab.text = pal, QtCore.QRect(0, 0, 120, 30), "Memories"
            tab.state = S.State_Enabled | S.State_Selected
            assert _accent_pixels(_painted(pal, CE.CE_TabBarTabLabel, tab), accent) == 0, dark
            tab.state |= S.State_HasFocus | S.State_KeyboardFocusChange
            assert _accent_pixels(_painted(pal, CE.CE_TabBarTabLabel, tab), accent) > 150, dark
    finally:
        app.setPalette(palette)


def test_a_server_gone_since_it_was_connected_refuses_the_message_as_at_a_switch(
        qtbot, tmp_path, embedder):
    """QA pass 22: a message sent to a server that had stopped since it was connected was
    stored, remembered and then "Could not answer: … connection refused", while the status
    bar still named the server's model; the same dead server chosen in Settings gave "Not
    sent … back in the box" and no memory.  Now a message first checks that something
    listens there (`ServerLLM.reach`): gone, the message is refused the same way and the
    status bar says "Model server: not reachable"; back, the next message is answered.
    A real stub server process on 127.0.0.1, stopped and started again on its port."""
    import copy
    import subprocess
    import sys

    from test_app_qa_models import ready_window
    from test_server import HERE, free_port, server_settings, stop, wait_up

    from hela_desktop.store import Store

    port = free_port()
    url = f"http://127.0.0.1:{port}"

    def start() -> subprocess.Popen:
        proc = subprocess.Popen([sys.executable, str(HERE / "stub_server.py"), str(port)])
        wait_up(url + "/ok", proc, 20)
        return proc

    proc = start()
    try:
        w = ready_window(qtbot, tmp_path, embedder)
        w.apply_settings(server_settings(copy.copy(w.settings), url + "/ok", "stub"))
        qtbot.waitUntil(lambda: w.model_ready and "stub" in w.status.model.text(), timeout=30_000)
        w.send("Hello there.")
        qtbot.waitUntil(lambda: not w.is_streaming() and w.session.last_done is not None,
                        timeout=30_000)
        qtbot.waitUntil(lambda: w.timeline.title == "Answer 1 of this chat", timeout=5000)
        answered = w.timeline.title
        with Store(tmp_path / "data") as s:
            kept = s.count_episodes()
        stop(proc)
        w.send("My cat is called Miso.")
        qtbot.waitUntil(lambda: not w.is_streaming(), timeout=15_000)
        assert "Not sent: cannot reach the model server" in w.chat.view.toPlainText()
        assert w.chat.input.toPlainText() == "My cat is called Miso."  # back in the box
        assert w.status.model.text() == "Model server: not reachable"
        assert w.timeline.title == answered  # the last answer's timeline, as before the send
        with Store(tmp_path / "data") as s:  # nothing stored: no message, no memory
            assert s.count_episodes() == kept
        proc = start()
        w.chat.input.clear()
        w.send("My cat is called Miso.")
        qtbot.waitUntil(lambda: not w.is_streaming(), timeout=30_000)
        assert "one two three" in w.chat.view.toPlainText()
        assert "stub" in w.status.model.text()
        w.close()
    finally:
        stop(proc)


def test_edit_knowledge_and_edit_and_resend_can_be_finished_from_the_keyboard(qtbot):
    """QA pass 22: in Edit knowledge (Qt's multi-line input dialog) Tab and Enter went into
    the text and Ctrl+Enter did nothing, so only a mouse click on OK saved it; a long fact
    scrolled sideways.  Now Tab leaves the text for the buttons, Ctrl+Enter saves, and the
    text wraps; the label says so.  The same holds in Edit memory."""
    from PySide6.QtCore import Qt

    from hela_desktop.ui.text_dialog import text_prompt

    dlg = text_prompt(None, "Edit knowledge", "What should be remembered:",
                      "The user has a dog.", "Save")
    qtbot.addWidget(dlg)
    dlg.show()
    qtbot.waitExposed(dlg)
    box = dlg.findChild(QtWidgets.QPlainTextEdit)
    assert box.lineWrapMode() == QtWidgets.QPlainTextEdit.LineWrapMode.WidgetWidth
    accent = QtWidgets.QApplication.palette().color(QtGui.QPalette.ColorRole.Highlight).name()
    assert f"QPlainTextEdit:focus {{ border: 1px solid {accent}; }}" in dlg.styleSheet()
    assert "QPushButton:focus { border: 2px solid" in dlg.styleSheet()
    assert "Ctrl+Enter: Save" in dlg.labelText()
    box.setFocus()
    qtbot.keyClick(box, Qt.Key.Key_Tab)
    assert "\t" not in dlg.textValue() and not box.hasFocus()  # on to the buttons
    box.setFocus()
    qtbot.keyClicks(box, " Called Pixel.")
    with qtbot.waitSignal(dlg.accepted, timeout=2000):
        qtbot.keyClick(box, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert dlg.textValue().endswith("Called Pixel.")
    from types import SimpleNamespace

    from hela_desktop.ui.memory_browser import EditMemoryDialog

    memory = EditMemoryDialog(SimpleNamespace(id=3, user_text="My dog is Pixel.",
                                              assistant_text="Noted.", source=None))
    qtbot.addWidget(memory)
    memory.show()
    with qtbot.waitSignal(memory.accepted, timeout=2000):
        qtbot.keyClick(memory.user, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert memory.values() == ("My dog is Pixel.", "Noted.")


def test_typing_after_a_click_on_the_graph_or_the_chat_goes_to_the_message_box(qtbot):
    """QA pass 22: a click on a memory in the graph, then "Who gave me Pixel?" and Enter:
    nothing was sent and the words were gone (the keys went to the graph).  Characters
    typed on the graph or the chat now go to the message box, which takes the keyboard;
    Ctrl+keys, a lone space and the graph's zoom keys (+, −) stay where they were."""
    from PySide6.QtCore import Qt

    from hela_desktop.ui.type_to_chat import TypeToChat

    box, graph, chat = QtWidgets.QPlainTextEdit(), QtWidgets.QGraphicsView(), QtWidgets.QTextBrowser()
    w = QtWidgets.QWidget()
    lay = QtWidgets.QVBoxLayout(w)
    for part in (graph, chat, box):
        lay.addWidget(part)
    qtbot.addWidget(w)
    TypeToChat(box, graph, chat)
    w.show()
    qtbot.waitExposed(w)
    graph.setFocus()
    qtbot.keyClick(graph, Qt.Key.Key_Minus)  # the graph's zoom key: kept
    qtbot.keyClick(graph, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)  # a command
    qtbot.keyClick(graph, Qt.Key.Key_Space)
    assert box.toPlainText() == ""
    qtbot.keyClicks(graph, "W")
    assert box.toPlainText() == "W" and w.focusWidget() is box
    qtbot.keyClicks(box, "ho gave me Pixel?")
    chat.setFocus()
    qtbot.keyClicks(chat, "!")
    assert box.toPlainText() == "Who gave me Pixel?!" and w.focusWidget() is box


def test_a_memory_a_shared_name_brought_in_is_not_said_to_come_through_links():
    """QA pass 22: the why-recalled panel of a memory the relevance gate brought in for a
    shared name said "It came in through its links (by association)" beside an empty Links
    bar.  It says what happened: both mention the name."""
    from hela_desktop.ui.explain import recall_reasons

    r = {"episode_id": 20, "score": 0.4, "semantic": 0.4, "path": "associative",
         "spread_from": 18, "spread": 0.0,
         "extra": {"cos": 0.4, "similarity": 0.4, "gate": "association", "via_name": "Pixel",
                   "statement": True}}
    said = " ".join(recall_reasons(r))
    assert "through its links" not in said
    assert "both mention “Pixel”" in said
    spread = {**r, "extra": {"cos": 0.4}}  # lifted by spreading: that line stays
    assert "through its links" in " ".join(recall_reasons(spread))


def test_a_restart_brings_back_the_tabs_and_focus_on_active(qtbot, tmp_path):
    """QA pass 22: after a restart the Memories ▸ Knowledge tab and the "Focus on active"
    tick came back as on a first start (the chat, the draft and the theme did come back).
    They are saved with the window's size and splitters, and restored with them."""
    from test_app_polish import _window

    from hela_desktop.ui import window_look

    qs = QtCore.QSettings(str(tmp_path / "ui.conf"), QtCore.QSettings.Format.IniFormat)
    first = _window(qtbot, tmp_path / "data")
    first.show_right(1)
    first.browser.tabs.setCurrentIndex(1)  # Knowledge
    first.graph.focus_box.setChecked(True)
    window_look.save_layout(first, qs)
    first.close()
    again = _window(qtbot, tmp_path / "data")
    assert again.right_tabs.currentIndex() == 0 and not again.graph.focus_box.isChecked()
    window_look.restore_layout(again, qs)
    assert again.right_tabs.currentIndex() == 1 and again.browser.tabs.currentIndex() == 1
    assert again.graph.focus_box.isChecked() and again.act_focus.isChecked()
    qs.setValue("window/right_tab", "nonsense")  # a hand-edited file: the defaults
    qs.setValue("window/memories_tab", 99)
    window_look.restore_layout(again, qs)
    assert again.right_tabs.currentIndex() == 0
    assert again.browser.tabs.currentIndex() == again.browser.tabs.count() - 1
    again.close()


def test_an_answer_names_the_model_that_wrote_it(make_assistant):
    """QA pass 22: after switching models (this computer, a server), nothing under an
    answer said which model wrote it.  The answer's statistics keep the model's name (as
    the status bar gives it) and the footer ends its figures with "by …"; an answer stored
    before 0.14 says nothing of it.  The real small model."""
    from hela_desktop.events import DoneEvent
    from hela_desktop.session import conversation_event
    from hela_desktop.ui.window_status import answer_footer, stats_of

    a = make_assistant()
    done = [ev for ev in a.chat("Hello there.", None) if isinstance(ev, DoneEvent)][-1]
    from hela_desktop.assistant import describe_model, model_label

    # as the status bar names it (the verification pass: the footer said "….Q4_1" while
    # the bar said "SmolLM2-135M-Instruct (bundled, 16-bit)")
    assert done.model and done.model == model_label(describe_model(a.llm))
    assert "bundled" in done.model and "Q4_1" not in done.model
    stored = [m for m in conversation_event(a.store, done.conversation_id).messages
              if m["role"] == "assistant"][-1]
    st = stats_of(stored)
    assert st["model"] == done.model
    assert f" · by {done.model}" in answer_footer(st, False)
    old = {k: v for k, v in st.items() if k != "model"}
    assert " · by " not in answer_footer(old, False)
    # a hostile name from an imported file: one line, no control characters, cut short
    long = answer_footer({**st, "model": "\x1b[2Jx\n" + "word " * 40}, False)
    assert "\x1b" not in long and "\n" not in long and long.endswith("…")


def test_a_label_moved_away_from_its_memory_is_tied_to_it_by_a_line(qtbot, tmp_path):
    """QA pass 22: while an answer streamed, the labels of memories in use that found no
    free place beside their dots were moved down, under the cluster, with nothing to say
    whose they were ("Pixel is three years old…" floating below).  Such a label is now
    joined to its dot by a dotted line; labels beside their dots have none."""
    import numpy as np
    from test_app_qa_gv8 import _graph

    view, ids = _graph(qtbot, tmp_path, 30)
    active = ids[-8:]
    rows = [view.data.index[i] for i in active]
    centre = view.xy.mean(axis=0)
    span = np.ptp(view.xy, axis=0).max() or 1.0
    for k, r in enumerate(rows):  # the memories in use, in a tight bunch
        view.xy[r] = centre + np.array([0.004 * k, 0.004 * k]) * span
    view.active = dict.fromkeys(active, 1.0)
    view._update_labels()
    shifted = [t for t in view.memory_labels if t.isVisible() and t._hela_shifted]
    assert shifted, "the bunch should push some labels away"
    leaders = view._leaders
    xs, ys = leaders.getData()
    assert leaders.isVisible() and len(xs) == 2 * len(shifted)
    starts = {(round(x, 6), round(y, 6)) for x, y in zip(xs[::2], ys[::2])}
    # each line starts at the dot of a memory whose label moved (some of those in use;
    # an idle label may be tied by a short line too, QA pass 41)
    rows_moved = [view.data.index[t._hela_id] for t in shifted]
    dots = {(round(float(view.xy[r][0]), 6), round(float(view.xy[r][1]), 6)) for r in rows_moved}
    assert starts <= dots and set(rows_moved) & set(rows)
    for k, r in enumerate(rows):  # spread out again: every label beside its dot, no line
        view.xy[r] = centre + np.array([0.3 * (k % 3 - 1), 0.3 * (k // 3 - 1)]) * span
    view._update_labels()
    moved = sum(1 for t in view.memory_labels if t.isVisible() and t._hela_shifted)
    assert moved < len(shifted)
    assert (len(leaders.getData()[0]) == 2 * moved) if moved else not leaders.isVisible()


def test_the_knowledge_table_gives_the_knowledge_the_room(qtbot):
    """The verification pass of 0.14: at 900 px the Knowledge tab left its text about 115
    px, and "From memories" was cut.  Kind and status are as wide as their words, the
    source list a heading's width (whole on hover), and a narrow tab leaves it out."""
    from hela_desktop.ui.memory_browser import MemoryBrowser

    b = MemoryBrowser()
    qtbot.addWidget(b)
    rows = [{"id": 1, "kind": "user_model", "text": "The user has a border collie called "
             "Pixel who loves the beach and hates thunderstorms.", "status": "in use",
             "state": "in use", "trusted": True, "why": "80% of its words…",
             "sources": [1, 2, 4, 16, 17, 18]}]
    b._show_knowledge(rows)
    t = b.knowledge
    b.tabs.setCurrentIndex(1)  # the Knowledge tab in view
    b.resize(460, 400)
    b.show()
    qtbot.waitExposed(b)
    qtbot.wait(50)
    assert t.isColumnHidden(3) and t.columnWidth(1) >= 150, t.columnWidth(1)
    b.resize(900, 400)
    qtbot.wait(50)
    assert not t.isColumnHidden(3)
    assert t.item(0, 3).toolTip() == "Distilled from memories #1, #2, #4, #16, #17, #18"
    head = t.horizontalHeader()
    assert t.columnWidth(3) >= head.sectionSizeFromContents(3).width()  # the heading whole
    assert t.columnWidth(1) > t.columnWidth(0) + t.columnWidth(2) + t.columnWidth(3)
