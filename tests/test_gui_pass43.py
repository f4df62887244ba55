"""QA pass 43 (/work/exp/s43/qa/NOTES.md and qa2/NOTES.md, "Graph labels"): the memory
graph's words and frame.

- The chosen memory's label lay over two dots ("The dentist moved my…", p31b.png, g1.png),
  and one of the last answer's half over another ("Hello, I'm Tom Becker, I…", 42.png):
  no label hides another memory's dot now; one with no room is cut shorter, or tied by a
  line further off (the chosen one), or left out.
- A label's dotted line ran across the graph ("I take sertraline every morning.", qa
  g1.png): a line to any label but the chosen one's is short (`LEADER_REACH` lines).
- The opened window's graph sat in the upper part of the pane until Fit was pressed: the
  layout settled after the fit; the view is framed again as Fit frames it.

pytest-qt offscreen, real widgets on a real Store (SQLite), no model loaded."""

from __future__ import annotations

import numpy as np
import pytest
import qt_env  # noqa: F401  (before PySide6: offscreen, a throwaway QSettings folder)

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")

from PySide6 import QtCore  # noqa: E402
from test_graph_labels_pass41 import _dot, _drawn, _reach, _window_graph  # noqa: E402


def _covered(view) -> list[tuple[str, int]]:
    """(label, memory) for each drawn label over another memory's dot, even in part."""
    r = view.node_size / 2
    out = []
    for i, rect, _shifted in _drawn(view):
        for j in view.data.ids:
            if int(j) != i:
                c = _dot(view, int(j))
                if rect.intersects(QtCore.QRectF(c.x() - r, c.y() - r, 2 * r, 2 * r)):
                    out.append((view._label_text(i), int(j)))
    return out


def test_no_label_hides_another_memorys_dot_the_chosen_ones_included(qtbot, tmp_path):
    view, ids = _window_graph(qtbot, tmp_path, 60)
    view.set_active(ids[5:8])  # the last answer's, named first among the idle ones
    view.clear_active()
    for i in ids[::2]:
        view.select(i)
        view._update_labels()
        mine = [rect for j, rect, _shifted in _drawn(view) if j == i]
        assert len(mine) == 1, i  # the chosen one is always named
        assert not _covered(view), (i, _covered(view))
    view.select(None)
    view.set_active(ids[20:30])  # in use: named where there is room, over no dot
    view._update_labels()
    assert _drawn(view)
    assert not _covered(view)


def test_only_the_chosen_memorys_label_is_tied_by_a_long_line(qtbot, tmp_path):
    from hela_desktop.ui import graph_labels

    reach = getattr(graph_labels, "LEADER_REACH", 3.0)  # (so it runs on older code)
    view, ids = _window_graph(qtbot, tmp_path, 40)
    centre = view.xy.mean(axis=0)
    crowd = [ids[r] for r in np.argsort(np.hypot(*(view.xy - centre).T))[:8]]
    view.set_active(crowd)  # the last answer's, in the middle of the crowd (tied to
    view.clear_active()  # their dots by lines, up to seven lines long before)
    view.set_active(crowd[:3])
    for chosen in (None, ids[0]):
        view.select(chosen)
        view._update_labels()
        tied = [(i, rect) for i, rect, shifted in _drawn(view) if shifted and i != chosen]
        for i, rect in tied:
            assert _reach(rect, _dot(view, i)) <= reach * rect.height() + 1, \
                view._label_text(i)
        assert not _covered(view)


def test_the_opened_graph_is_framed_as_fit_frames_it(qtbot, tmp_path):
    """The layout goes on settling after the window's first fit (here: the graph drifts
    up in the view, every dot still in it, as the opened one did): the view follows,
    as a press of Fit would frame it."""
    view, ids = _window_graph(qtbot, tmp_path, 40)
    before = view.vb.viewRect()
    lo, hi = view.xy.min(axis=0), view.xy.max(axis=0)
    centre, span = (lo + hi) / 2, hi - lo
    xy = view.xy + np.array([0.0, 0.06 * span[1]])  # (y up: it drifts up, all in view)
    for k in range(1, 6):  # unfolding in steps
        view.set_positions(view.data.ids, view.xy + (xy - view.xy) * k / 5)
    qtbot.wait(50)
    opened = view.vb.viewRect()
    assert opened != before
    view.fit()  # the user's Fit
    qtbot.wait(50)
    fitted = view.vb.viewRect()
    tol = 0.02 * fitted.height()
    for a, b in ((opened.left(), fitted.left()), (opened.right(), fitted.right()),
                 (opened.top(), fitted.top()), (opened.bottom(), fitted.bottom())):
        assert abs(a - b) <= tol, (opened, fitted)
    # and the user's own zoom is left alone
    view.vb.scaleBy((0.8, 0.8))
    view._on_manual_range()
    zoomed = view.vb.viewRect()
    view.set_positions(view.data.ids, (view.xy - centre) * 0.8 + centre)
    assert view.vb.viewRect() == zoomed
