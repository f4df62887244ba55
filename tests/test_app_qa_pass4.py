"""The fourth QA pass of the window, by hand under Xvfb: what a new user met, fixed.

Idle reflection runs that changed nothing fold into one Activity row, Enter on a memory
edits it as a double-click does, a match found in the graph opens a detail pane that had
folded by itself, the timeline does not say "nothing recalled" before anything was
recalled, and the graph's Details toggle shows whether it is on in both themes.

pytest-qt offscreen, real widgets on a real store, no model loaded."""

from __future__ import annotations

import json
import time

import pytest
import qt_env  # noqa: F401  (before PySide6: offscreen, a throwaway QSettings folder)

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")

from PySide6 import QtCore, QtGui, QtWidgets  # noqa: E402
from test_ui_app import fill_store  # noqa: E402

from hela_desktop.store import Store  # noqa: E402

pytestmark = pytest.mark.gui

NOTHING_NEW = {"hubs": 2, "clusters": 2, "already_done": 2}
ADDED = {"hubs": 2, "clusters": 2, "distilled": 1, "added": 1}


def _log(store: Store, runs: list[tuple[float, str, dict]]) -> None:
    """Activity rows at given times (oldest first), as the jobs log them."""
    for at, job, summary in runs:
        store.conn.execute("INSERT INTO activity(at, job, summary) VALUES (?, ?, ?)",
                           (at, job, json.dumps(summary)))
    store.conn.commit()


def _browser(qtbot, store):
    from test_app_qa_pass3 import _browser as browser_at

    return browser_at(qtbot, store, 620)


def _at(hour: int, minute: int) -> float:
    return time.mktime((2026, 3, 4, hour, minute, 0, 0, 0, -1))


def test_idle_runs_that_changed_nothing_are_one_activity_row(qtbot, tmp_path):
    """Every idle pass logs a distilling and a forgetting run; the passes that found
    nothing filled the tab with the same two lines."""
    runs = []
    for n, (h, m) in enumerate(((9, 0), (9, 30), (10, 0), (10, 30), (11, 0))):
        checked = {"checked": 7 + n, "archived": []}
        runs += [(_at(h, m), "consolidate", NOTHING_NEW), (_at(h, m) + 1, "forget", checked)]
    runs += [(_at(12, 0), "consolidate", ADDED), (_at(12, 0) + 1, "forget", {"checked": 12})]
    runs += [(_at(13, 0), "consolidate", NOTHING_NEW),
             (_at(13, 0) + 1, "forget", {"checked": 12, "archived": [3, 4]})]
    for h in (14, 15):
        runs += [(_at(h, 0), "consolidate", NOTHING_NEW), (_at(h, 0) + 1, "forget", {"checked": 10})]
    with Store(tmp_path / "data") as store:
        fill_store(store, 2)
        _log(store, runs)
        b = _browser(qtbot, store)
        b.tabs.setCurrentIndex(3)
        t = b.activity
        rows = [(t.item(r, 1).text(), t.item(r, 2).text()) for r in range(t.rowCount())]
    assert rows == [
        ("Forgetting", "Checked 10 memories; none was weak, isolated and old enough to archive. "
                       "(2 runs changed nothing, from 14:00 to 15:00.)"),
        ("Distilling", "No group of related memories changed since the last reflection. (2 runs changed nothing, "
                       "from 14:00 to 15:00.)"),
        # a run that changed something is a row of its own, and ends the stretches
        ("Forgetting", "Archived 2 weak, isolated, stale memories (#3, #4) — restore them "
                       "from the Archive tab."),
        ("Distilling", "No group of related memories changed since the last reflection."),
        ("Forgetting", "Checked 12 memories; none was weak, isolated and old enough to archive."),
        ("Distilling", "Distilled 1 new fact from 1 group of related memories."),
        ("Forgetting", "Checked 11 memories; none was weak, isolated and old enough to archive. "
                       "(5 runs changed nothing, from 09:00 to 11:00.)"),
        ("Distilling", "No group of related memories changed since the last reflection. (5 runs changed nothing, "
                       "from 09:00 to 11:00.)"),
    ]
    assert b.activity.item(6, 0).text().endswith("11:00")  # when: the newest run
    # hovering a folded row lists its runs, newest first
    said = b.activity.item(6, 2).toolTip()
    assert "5 runs that changed nothing" in said and "Checked 7 memories" in said
    assert said.index("Checked 11") < said.index("Checked 7")
    assert "Double-click" in b.activity.item(2, 2).toolTip()  # it changed something


def test_activity_rows_on_different_days_name_the_dates():
    from hela_desktop.ui.explain import activity_rows, changed_nothing

    day = 86400.0
    runs = [{"at": _at(9, 0) + day, "job": "forget", "summary": {"checked": 3}},
            {"at": _at(9, 0), "job": "forget", "summary": {"checked": 3}}]
    (row,) = activity_rows(runs)
    assert row["runs"] == 2 and "from 2026-03-04 09:00 to 2026-03-05 09:00" in row["text"]
    # a run that failed stays a row of its own: the error is worth reading
    assert not changed_nothing("consolidate", {"error": "the model crashed"})
    assert not changed_nothing("forget", {"restored": [5]})
    assert not changed_nothing("something else", {})
    assert changed_nothing("consolidate", {"clusters": 1, "distilled": 1, "rejected": 3})


def _answer_dialog(qtbot, kind, answer) -> list:
    """Call `answer(dialog)` on the next modal dialog of `kind` once it is open (the
    browser's Edit… runs its dialog modally); the list gets the dialog."""
    seen: list = []
    until = time.monotonic() + 5

    def look() -> None:
        dlg = QtWidgets.QApplication.activeModalWidget()
        if isinstance(dlg, kind):
            seen.append(dlg)
            answer(dlg)
        elif time.monotonic() < until:  # none came: give up (the test then fails)
            QtCore.QTimer.singleShot(20, look)

    QtCore.QTimer.singleShot(0, look)
    return seen


def test_enter_on_a_memory_edits_it_as_a_double_click_does(qtbot, tmp_path):
    from hela_desktop.ui.memory_browser import EditMemoryDialog

    with Store(tmp_path / "data") as store:
        ids = fill_store(store, 4)
        _log(store, [(_at(9, 0), "forget", {"checked": 4, "archived": [ids[0]]})])
        b = _browser(qtbot, store)
        asked = []
        b.op.connect(lambda name, arg: asked.append((name, arg)))
        row = next(r for r, e in enumerate(b.model.episodes) if e.id == ids[2])
        rect = b.table.visualRect(b.model.index(row, 2))
        qtbot.mouseClick(b.table.viewport(), QtCore.Qt.MouseButton.LeftButton, pos=rect.center())
        assert b.selected_id() == ids[2]

        def change(dlg) -> None:
            dlg.user.setPlainText("question 2, corrected")
            dlg.accept()

        seen = _answer_dialog(qtbot, EditMemoryDialog, change)
        qtbot.keyClick(b.table, QtCore.Qt.Key.Key_Return)
        assert len(seen) == 1 and seen[0].windowTitle() == f"Edit memory #{ids[2]}"
        assert asked == [("edit", (ids[2], "question 2, corrected", "answer 2"))]
        # the keypad's Enter too
        seen = _answer_dialog(qtbot, EditMemoryDialog, lambda dlg: dlg.reject())
        qtbot.keyClick(b.table, QtCore.Qt.Key.Key_Enter)
        assert len(seen) == 1 and len(asked) == 1
        # on the Activity tab Enter opens what a run changed, as a double-click does
        b.tabs.setCurrentIndex(3)
        b.activity.setFocus()
        b.activity.setCurrentCell(0, 2)
        qtbot.keyClick(b.activity, QtCore.Qt.Key.Key_Return)
        assert b.tabs.currentIndex() == 2  # the Archive


def test_enter_on_a_match_found_in_the_graph_opens_a_folded_detail_pane(qtbot, tmp_path):
    from test_app_qa_pass3 import narrow_graph

    view, ids = narrow_graph(qtbot, tmp_path)
    view.search.setFocus()
    qtbot.keyClicks(view.search, "question 3")
    qtbot.keyClick(view.search, QtCore.Qt.Key.Key_Return)
    assert view.selected == ids[3]
    # the match is shown: the pane opened, and says which memory
    assert view.details.isVisible() and view.details_button.isChecked()
    assert f"Memory #{ids[3]}" in view.details.toPlainText()
    # folded by the user, it stays folded
    view.details_button.click()
    view.search.setFocus()
    qtbot.keyClick(view.search, QtCore.Qt.Key.Key_Return)
    assert view.selected == ids[3] and not view.details.isVisible()


def _window(qtbot, tmp_path):
    from test_ui_app import _ui_settings

    from hela_desktop.ui.main_window import MainWindow

    w = MainWindow(tmp_path / "data", _ui_settings(), load_model=False, autoload=False,
                   idle_scheduler=False)
    qtbot.addWidget(w)
    return w


def test_the_timeline_says_nothing_was_recalled_only_once_recall_found_nothing(
        qtbot, tmp_path, monkeypatch):
    from hela_desktop.events import MemoriesEvent

    painted: list[str] = []
    draw_text = QtGui.QPainter.drawText

    def drawn(painter, *args):
        painted.append(str(args[-1]).replace("\u00a0", " "))
        return draw_text(painter, *args)

    monkeypatch.setattr(QtGui.QPainter, "drawText", drawn)

    def timeline_says() -> str:
        painted.clear()
        w.timeline.grab()
        return " ".join(painted)

    w = _window(qtbot, tmp_path)
    w.show()
    asked: list[str] = []

    def chat(text, _conv, _said_at=0.0) -> None:  # the assistant thread takes it (no model here)
        w.client.streaming = True
        asked.append(text)

    monkeypatch.setattr(w.client, "chat", chat)
    assert "Send a message" in timeline_says()
    assert not w.model_ready  # the model is still loading: the message waits for it
    w.send("My cat is called Miso.")
    assert asked and w.is_streaming()
    said = timeline_says()
    assert "No memories were recalled" not in said, said
    assert "will show here once they are recalled" in said
    # recall found nothing: now it says so
    w._on_memories(MemoriesEvent(memories=[], retrieve_ms=2.0))
    assert "No memories were recalled for this answer" in timeline_says()
    w.timeline.set_answer([[0, 5, []]], 5, "Answer · message #2")  # and after the answer
    assert "No memories were recalled for this answer" in timeline_says()
    w.client.streaming = False
    w.close()


def _mean_colour(widget) -> tuple[float, float, float]:
    img = widget.grab().toImage()
    px = [img.pixelColor(x, y) for x in range(img.width()) for y in range(img.height())]
    return tuple(sum(getattr(c, ch)() for c in px) / len(px) for ch in ("red", "green", "blue"))


@pytest.mark.parametrize("dark", [False, True])
def test_the_details_toggle_shows_whether_it_is_on_in_both_themes(qtbot, dark):
    from hela_desktop.ui.graph_view import GraphView
    from hela_desktop.ui.theme import apply_theme, graph_colors

    app = QtWidgets.QApplication.instance()
    style, palette = app.style().name(), app.palette()
    try:
        apply_theme(app, dark)
        view = GraphView(colors=graph_colors(dark), threaded=False)
        qtbot.addWidget(view)
        view.resize(900, 400)
        view.show()
        qtbot.waitExposed(view)
        view.apply_colors(graph_colors(dark))  # as the window does when the theme changes
        button = view.details_button
        if not button.isChecked():  # folded by itself (a narrow screen): the user opens it
            button.click()
        assert button.isChecked() and view.details.isVisible()
        on, size_on = _mean_colour(button), button.size()
        button.click()
        assert not button.isChecked() and not view.details.isVisible()
        off = _mean_colour(button)
        # the two states differ at a glance (Fusion alone: 0 in the dark palette, 3 in
        # the light one), and the button keeps its size
        # the two states differ at a glance, checked in the accent's blue (Fusion alone:
        # a shade darker in the light palette, next to nothing in the dark one), and the
        # button keeps its size
        assert sum(abs(a - b) for a, b in zip(on, off, strict=True)) > 60, (on, off)
        lean = (on[2] - on[0]) - (off[2] - off[0])
        assert lean > 30, (on, off)
        assert button.size() == size_on
    finally:
        app.setStyle(style)
        app.setPalette(palette)
