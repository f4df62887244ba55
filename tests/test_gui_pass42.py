"""QA pass 41e (/work/exp/s41/qa5/NOTES.md: N8, P9, P10, P11): window polish.

- A memory named under an older answer (or chosen in the graph) was opened, but the
  timeline went on showing the latest answer ("Answer 26 of this chat"); a list cut with
  "and 1 more (in the timeline)" pointed at a timeline that showed another answer.

pytest-qt offscreen, real widgets, no model."""

from __future__ import annotations

import pytest
import qt_env  # noqa: F401  (before PySide6: offscreen, a throwaway QSettings folder)

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")

from PySide6 import QtCore  # noqa: E402
from test_app_polish import _formats, _window  # noqa: E402
from test_ui_app import _wait, fill_store  # noqa: E402

from hela_desktop.store import Store  # noqa: E402


def _recall(i: int) -> dict:
    return {"episode_id": i, "text": f"question {i} about the garden", "kind": "episode"}


def _two_answers(tmp_path):
    """A chat of two answers: the first recalled six memories (its list is cut after
    four), the second one other memory."""
    data_dir = tmp_path / "data"
    with Store(data_dir) as store:
        ids = fill_store(store, 9)
        cid = store.add_conversation("Garden")
        first, second = ids[:6], ids[7]
        store.add_message(cid, "user", "What grows in my garden?")
        m1 = store.add_message(cid, "assistant", "Roses and ferns grow there.",
                               stats={"tokens": 6, "swaps": 0, "elapsed_s": 1.0,
                                      "memories": [_recall(i) for i in first]})
        store.save_timeline(m1, [(0, 6, list(first))])
        store.add_message(cid, "user", "And the oak?")
        m2 = store.add_message(cid, "assistant", "The oak is old.",
                               stats={"tokens": 4, "swaps": 0, "elapsed_s": 1.0,
                                      "memories": [_recall(second)]})
        store.save_timeline(m2, [(0, 4, [second])])
        store.conn.commit()
    return data_dir, cid, ids


def _hrefs(view, prefix: str) -> dict[str, str]:
    return {f.anchorHref(): frag for frag, f in _formats(view.document())
            if f.isAnchor() and f.anchorHref().startswith(prefix)}


def test_a_memory_named_under_an_older_answer_shows_that_answers_timeline(qtbot, tmp_path):
    data_dir, cid, ids = _two_answers(tmp_path)
    w = _window(qtbot, data_dir)
    view = w.chat.view
    w.open_conversation(cid)
    _wait(qtbot, lambda: "The oak is old." in view.toPlainText(), 20)
    _wait(qtbot, lambda: len(w.graph.data) >= len(ids), 20)
    assert w.timeline.title == "Answer 2 of this chat"  # the latest, as the chat opens
    links = _hrefs(view, "m:")
    first_key = next(int(h.rpartition(":")[2]) for h in links if h.startswith(f"m:{ids[1]}:"))
    view.anchorClicked.emit(QtCore.QUrl(f"m:{ids[1]}:{first_key}"))
    assert w.graph.selected == ids[1]
    assert w.timeline.title == "Answer 1 of this chat"  # the answer whose list was clicked
    assert w.timeline.message_key == first_key and ids[1] in w.timeline.rows
    assert w.timeline.highlight_ids == {ids[1]}
    assert "Why answer 1 of this chat recalled it" in w.graph.details.toPlainText()

    # chosen in the graph: the answer that used it (the latest that did), explained so
    w.graph.select(ids[7], center=True)
    assert w.timeline.title == "Answer 2 of this chat" and w.timeline.highlight_ids == {ids[7]}
    assert "Why answer 2 of this chat recalled it" in w.graph.details.toPlainText()
    # … and one the timeline's answer used keeps it
    w.graph.select(ids[7])
    assert w.timeline.title == "Answer 2 of this chat"
    # one whose line was clicked: the answer its pane explains
    w.graph.select(ids[1])
    assert w.timeline.title == "Answer 1 of this chat"
    assert "Why answer 1 of this chat recalled it" in w.graph.details.toPlainText()
    # one no answer of the chat used: the timeline stays as it is
    w.graph.select(ids[8])
    assert w.timeline.title == "Answer 1 of this chat" and w.graph.selected == ids[8]
    w.close()


def test_and_more_is_a_link_to_that_answers_timeline(qtbot, tmp_path):
    data_dir, cid, ids = _two_answers(tmp_path)
    w = _window(qtbot, data_dir)
    view = w.chat.view
    w.open_conversation(cid)
    _wait(qtbot, lambda: "The oak is old." in view.toPlainText(), 20)
    more = _hrefs(view, "a:")
    assert list(more.values()) == ["and 2 more (in this answer's timeline)"]
    assert "(in the timeline)" not in view.toPlainText()  # (said of whichever it showed)
    assert w.timeline.title == "Answer 2 of this chat"
    with qtbot.waitSignal(view.answerChosen, timeout=2000):
        view.anchorClicked.emit(QtCore.QUrl(next(iter(more))))
    assert w.timeline.title == "Answer 1 of this chat" and len(w.timeline.rows) == 6
    # reached from the keyboard as the memory links are (Alt+Down, Enter)
    from hela_desktop.ui import chat_links
    assert chat_links.memory_links(view)[-2][2] == next(iter(more))
    w.close()


def _arrow_rows(header, section: int) -> list[int]:
    """How many dark pixels each row of the sort arrow at the right of `section` has, top
    to bottom (▼: the most first)."""
    from PySide6 import QtGui

    img = header.grab().toImage()
    right = header.sectionViewportPosition(section) + header.sectionSize(section)
    rows = []
    for y in range(header.height()):
        n = sum(1 for x in range(right - 22, right - 2)
                if QtGui.QColor(img.pixel(x, y)).lightness() < 140)
        if n:
            rows.append(n)
    return rows


def test_the_created_columns_arrow_points_the_way_the_list_runs(qtbot):
    """Newest first showed ▲ (m1.png): Qt hands Fusion "SortUp" for a descending order."""
    from hela_desktop.ui.memory_browser import MemoryBrowser
    from hela_desktop.ui.theme import EdgedIndicators

    b = MemoryBrowser()
    qtbot.addWidget(b)
    style = EdgedIndicators("Fusion")  # (the app's style, on this header alone)
    hh = b.table.horizontalHeader()
    hh.setStyle(style)
    b.resize(900, 400)
    b.show()
    qtbot.waitExposed(b)
    assert (hh.sortIndicatorSection(), hh.sortIndicatorOrder()) == (
        1, QtCore.Qt.SortOrder.DescendingOrder)  # newest first
    down = _arrow_rows(hh, 1)
    assert len(down) >= 2 and down[0] > down[-1]  # ▼: wide at the top
    hh.setSortIndicator(1, QtCore.Qt.SortOrder.AscendingOrder)  # oldest first
    up = _arrow_rows(hh, 1)
    assert len(up) >= 2 and up[0] < up[-1]  # ▲


def test_no_number_of_the_timelines_axis_is_cut_at_its_edge(qtbot):
    """The last number (55, at the plot's right edge) was drawn half past the widget."""
    from hela_desktop.ui.timeline import TimelineView

    t = TimelineView()
    qtbot.addWidget(t)
    for width in (420, 600, 673):
        t.resize(width, 170)
        for n in (7, 12, 55, 113, 224):
            t.set_answer([(0, n, [3, 4])], n, "Answer 1 of this chat")
            labels = t.axis_labels(100.0)
            inside = QtCore.QRectF(t.rect())
            for _x, box, text in labels:
                assert inside.contains(box), (width, n, text, box)
                assert box.width() >= t.fontMetrics().horizontalAdvance(text)
            boxes = [b for _, b, _ in labels]
            assert not any(a.intersects(b) for a, b in zip(boxes, boxes[1:]))  # none overlap
    t.show()
    qtbot.waitExposed(t)
    t.repaint()  # (drawn with them)
