"""Twenty-fifth pass, as a new user: what the window showed that it should not have."""

from __future__ import annotations

import qt_env  # noqa: F401  (before PySide6: offscreen, a throwaway QSettings folder)
from PySide6 import QtCore  # noqa: E402


def test_a_few_memories_crowded_together_are_named_in_the_room_above_or_below(qtbot, tmp_path):
    """QA pass 24: ten memories in a narrow pane left six dots unnamed, with half the
    pane empty above and below them: no place beside a dot was free.  A label with no
    free place beside its dot now takes the nearest free room a few lines above or below,
    tied to its dot by a dashed line; it covers no dot and no other label."""
    import numpy as np
    from test_app_qa_gv8 import _graph

    view, ids = _graph(qtbot, tmp_path, 10)
    (x0, x1), (y0, y1) = view.vb.viewRange()
    centre = np.array([(x0 + x1) / 2, (y0 + y1) / 2])
    sp = view.vb.mapViewToScene(QtCore.QPointF(*centre))
    step = view.node_size * 1.6  # dots too close for a label between any two

    def put(row: int, dx: float, dy: float) -> None:
        p = view.vb.mapSceneToView(QtCore.QPointF(sp.x() + dx, sp.y() + dy))
        view.xy[row] = (p.x(), p.y())

    for k in range(len(view.xy)):  # one row of ten dots across the middle
        put(k, (k - 4.5) * step, 0)
    view.active = {}
    view._update_labels()
    shown = [t for t in view.memory_labels if t.isVisible()]
    assert len(shown) >= 7, len(shown)  # before: three (the ends, and one beside them)
    rects = [t.mapRectToScene(t.boundingRect()) for t in shown]
    r = view.node_size / 2
    for n, a in enumerate(rects):
        assert not any(a.intersects(b) for b in rects[n + 1:])
        for x, y in view.xy:
            c = view.vb.mapViewToScene(QtCore.QPointF(x, y))
            assert not a.intersects(QtCore.QRectF(c.x() - r, c.y() - r, 2 * r, 2 * r))
    away = [t for t in shown if t._hela_shifted]
    assert away
    xs, ys = view._leaders.getData()
    assert view._leaders.isVisible() and len(xs) == 2 * len(away)
    # each line starts at a dot of the row and ends on its label's edge
    dots = {(round(float(x), 6), round(float(y), 6)) for x, y in view.xy}
    assert {(round(x, 6), round(y, 6)) for x, y in zip(xs[::2], ys[::2])} <= dots
    # spread out again: no line is left
    for k in range(len(view.xy)):
        put(k, ((k % 2) - 0.5) * 260, (k // 2 - 2) * 60)
    view._update_labels()
    assert not any(t.isVisible() and t._hela_shifted for t in view.memory_labels)


def test_the_graph_find_box_says_when_it_shows_only_the_nearest_in_meaning(qtbot, tmp_path):
    """A search that matches nothing offers the memories nearest in meaning (pass 25);
    the find box's count says they are only near, so a ring is not read as a match."""
    from test_app_qa_gv8 import _graph

    view, ids = _graph(qtbot, tmp_path, 10)
    view.search.setText("job")
    view.set_search_results("job", [(ids[2], 0.28, "nearest"), (ids[5], 0.25, "nearest")])
    assert view.match_label.text() == "2 near in meaning"
    view.next_match()
    assert view.match_label.text() == "1 of 2 near"
    assert view.selected == ids[2]
    # some found, some only near
    view.search.setText("work")
    view.set_search_results("work", [(ids[1], 0.5, ""), (ids[2], 0.28, "nearest")])
    assert view.match_label.text() == "1 found, 1 near"
    # a real match is counted as found
    view.search.setText("topic")
    view.set_search_results("topic", [(ids[2], 0.5, "")])
    assert view.match_label.text().endswith("found")
    # matched by meaning alone, none of the searched words: by meaning, not found (QA pass
    # 46d: "SopotSopot" said "2 found")
    view.search.setText("SopotSopot")
    view.set_search_results("SopotSopot", [(ids[3], 0.5, "meaning"), (ids[4], 0.4, "meaning")])
    assert view.match_label.text() == "2 by meaning"
    view.search.setText("Sopot")
    view.set_search_results("Sopot", [(ids[3], 0.5, ""), (ids[4], 0.4, "meaning"),
                                      (ids[5], 0.2, "nearest")])
    assert view.match_label.text() == "1 found, 1 by meaning, 1 near"
    view.search.setText("none at all")
    view.set_search_results("none at all", [])
    assert view.match_label.text() == "none"


def test_a_short_answers_bars_reach_the_end_of_the_timeline(qtbot):
    """QA pass 25: the timeline's axis never went under 20 tokens, so the bars of a
    9-token answer stopped near half way, as if its memories had left mid-answer.  A
    finished answer spans the whole axis; one streaming keeps 20 at least (its bars do not
    stretch with each token)."""
    from hela_desktop.ui.timeline import TimelineView

    t = TimelineView()
    qtbot.addWidget(t)
    t.resize(600, 200)
    t.set_answer([[0, 9, [3]]], 9, "Answer")
    r = t.plot_rect()
    assert abs(t.x_of(9) - r.right()) < 1e-6
    assert t._tok_at(r.right() - 1) == 8
    t.grab()  # the axis is drawn (ticks 0, 2, … 8) without error
    t.begin_live([3])
    t.live_token(8)
    assert t.x_of(9) < r.left() + r.width() * 0.5
    # a long answer: its own length, as before
    t.set_answer([[0, 120, [3]]], 120, "Answer")
    assert abs(t.x_of(120) - r.right()) < 1e-6
