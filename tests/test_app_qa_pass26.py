"""Twenty-sixth pass: what QA pass 25 lost or showed wrongly in the window."""

from __future__ import annotations

import pytest
import qt_env  # noqa: F401  (before PySide6: offscreen, a throwaway QSettings folder)

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")

from test_ui_app import _ui_settings, _wait  # noqa: E402

from hela_desktop.store import Store  # noqa: E402

pytestmark = [pytest.mark.gui]

LONG = "Please keep this. " * 1200  # far more than SmolLM2's 2,048-token context holds


def test_regenerate_or_resend_of_a_message_too_long_takes_nothing_back(qtbot, seed_dir, llm,
                                                                      embedder):
    """QA pass 25: Ctrl+R on an imported chat whose only message had no answer, a message
    too long to send, took the message back and then was refused: the chat was left empty
    and the text only in the input box.  Now the model is asked first; nothing is taken
    back, and a notice says why."""
    from hela_desktop.ui.main_window import MainWindow

    d = seed_dir([("My sister Ana lives in Lisbon.", "Lisbon is lovely.")])
    with Store(d) as st:
        long_chat = st.add_conversation("Imported, no answer", at=1.7e9)
        st.add_message(long_chat, "user", LONG.strip(), at=1.7e9)
        short_chat = st.add_conversation("Short", at=1.8e9)
        st.add_message(short_chat, "user", "Where does Ana live?", at=1.8e9)
        st.add_message(short_chat, "assistant", "Ana lives in Lisbon.", at=1.8e9 + 5)
    w = MainWindow(d, _ui_settings(), assistant_kwargs={"llm": llm, "embedder": embedder},
                   idle_scheduler=False)
    qtbot.addWidget(w)
    w.show()
    _wait(qtbot, lambda: w.model_ready and w.embedder_ready, 120)
    reader = Store(d)
    _wait(qtbot, lambda: len(w.conversations.chats()) == 2, 20)
    view = w.chat.view

    w.open_conversation(long_chat)
    _wait(qtbot, lambda: [e["role"] for e in view.entries] == ["user"], 20)
    w.regenerate()
    _wait(qtbot, lambda: "Not answered: message too long" in view.toPlainText(), 60)
    assert "message too long" in view.toPlainText() and "Nothing was taken back." in view.toPlainText()
    # Ctrl+R again: the same refusal, said once in the chat (QA pass 27: two alike)
    w.statusBar().clearMessage()
    w.regenerate()
    _wait(qtbot, lambda: "Not answered" in w.statusBar().currentMessage(), 60)
    assert view.toPlainText().count("Not answered: message too long") == 1
    assert [m["content"] for m in reader.messages(long_chat)] == [LONG.strip()]
    assert [e["role"] for e in view.entries] == ["user"]
    assert w.chat.input.toPlainText() == ""  # (the message is still in the chat)
    assert not w.is_streaming()

    # Edit and resend with a text too long: the chat as it was, the edit in the box
    w.open_conversation(short_chat)
    _wait(qtbot, lambda: [e["role"] for e in view.entries] == ["user", "assistant"], 20)
    w.edit_and_resend(0, LONG.strip())
    _wait(qtbot, lambda: "Not sent: message too long" in view.toPlainText(), 60)
    assert "your edited message is in the box" in view.toPlainText()
    assert [m["content"] for m in reader.messages(short_chat)] == [
        "Where does Ana live?", "Ana lives in Lisbon."]
    assert w.chat.input.toPlainText() == LONG.strip()
    # and a message that fits is answered again as before
    w.chat.input.clear()
    w.session.last_done = None
    w.regenerate()
    _wait(qtbot, lambda: w.session.last_done is not None, 90)
    msgs = reader.messages(short_chat)
    assert [m["role"] for m in msgs] == ["user", "assistant"]
    assert msgs[0]["content"] == "Where does Ana live?"
    reader.close()
    w.close()


def test_an_answers_memories_keep_their_names_when_the_glow_ends(qtbot, tmp_path):
    """QA pass 25: in a graph of 16-23 memories the memories an answer used lost their
    labels as soon as they stopped glowing, and the graph showed 0-1 names.  They now stay
    named first among the idle labels, where there is room, until the next answer's."""
    from PySide6 import QtCore
    from test_app_qa_gv8 import _graph

    from hela_desktop.ui.graph_labels import IDLE_LABELS

    view, ids = _graph(qtbot, tmp_path, 20)
    (x0, x1), (y0, y1) = view.vb.viewRange()
    sp = view.vb.mapViewToScene(QtCore.QPointF((x0 + x1) / 2, (y0 + y1) / 2))
    for k in range(len(view.xy)):  # two loose columns: room beside every dot
        p = view.vb.mapSceneToView(QtCore.QPointF(sp.x() + (-170 if k % 2 else 60),
                                                  sp.y() + (k // 2 - 4.5) * 40))
        view.xy[k] = (p.x(), p.y())
    quiet = [i for i in ids if i not in view.important[:IDLE_LABELS]][:2]
    assert len(quiet) == 2

    def named() -> set[str]:
        view._update_labels()
        return {t.toPlainText() for t in view.memory_labels if t.isVisible()}

    want = {view._label_text(i) for i in quiet}
    assert not want & named()  # idle and not among the most linked: unnamed
    view.set_active(quiet)
    assert want <= named()
    view.clear_active()
    assert not view.active and want <= named(), (named(), view.recent, quiet)
    # the next answer's memories take their place
    other = [i for i in ids if i not in quiet and i not in view.important[:IDLE_LABELS]][:1]
    view.set_active(other)
    view.clear_active()
    assert view.recent == other
