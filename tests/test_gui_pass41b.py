"""QA pass 41 (/work/exp/s41/qa2/NOTES.md, P10 "window"): three things in the window.

- A memory chosen (a link under an answer, a click) was centred: one at the edge of the
  graph went to the middle and half the graph, its neighbours with it, went past the plot's
  edge under the detail pane (p26a.png).  Now it and its neighbours are brought into the
  part of the plot on screen by the least pan, zooming out only where they do not fit.
- The lines that tie labels to their dots were grey dashes, read as links; now a row of
  fine dots under the links, ending in a round mark at the label's words.
- The chat showed a horizontal scrollbar that scrolled a pixel (22.png, crophs.png): each
  token is a link of its own, and Qt's line breaking, measuring a line in those pieces, let
  it run a fraction of a pixel past the wrap width.

The geometry is tested on its own; then pytest-qt offscreen, real widgets, no model."""

from __future__ import annotations

import numpy as np
import pytest
import qt_env  # noqa: F401  (before PySide6: offscreen, a throwaway QSettings folder)

from hela_desktop.ui.graph_pan import least_shift, zoom_to_show


def test_the_least_shift_into_view_and_none_when_it_does_not_fit():
    view = (0.0, 0.0, 10.0, 10.0)
    assert least_shift(view, (2, 2, 4, 4)) == (0.0, 0.0)  # inside: no move
    assert least_shift(view, (8, 2, 12, 4)) == (-2.0, 0.0)  # past the right edge: left 2
    assert least_shift(view, (-3, 9, -1, 11)) == (3.0, -1.0)
    assert least_shift(view, (0, 0, 11, 1)) is None  # wider than the view
    # zooming out: the box fits with its margin (which grows with the zoom)
    s = zoom_to_show(view, (0, 0, 18, 4), (1.0, 1.0))
    assert s == pytest.approx(18 / 8) and 18 + 2 * s <= 10 * s + 1e-9
    assert zoom_to_show(view, (0, 0, 2, 2), (1.0, 1.0)) == 1.0


# ------------------------------------------------------------------ the graph ------
pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")

from PySide6 import QtCore, QtGui  # noqa: E402
from test_graph_labels_pass41 import _window_graph  # noqa: E402


def _outside(view, rows) -> list[int]:
    """Of `rows`, those whose dot (with its ring) is not wholly in the plot on screen, above
    the key."""
    shown = view.shown_part()
    r = view.node_size / 2 + 2
    out = []
    for row in rows:
        c = view.vb.mapViewToScene(QtCore.QPointF(*view.xy[row]))
        if not shown.contains(QtCore.QRectF(c.x() - r, c.y() - r, 2 * r, 2 * r)):
            out.append(int(row))
    return out


def test_a_chosen_memory_in_view_with_its_neighbours_does_not_move_the_view(qtbot, tmp_path):
    """The whole graph fitted: a memory at its edge chosen from a link stays where it is
    (centred, the dots beyond it went past the plot's edge under the detail pane)."""
    view, ids = _window_graph(qtbot, tmp_path, 40)
    assert not _outside(view, range(len(ids)))
    edge = int(np.argmin(view.xy[:, 0]))  # the leftmost memory: centring moved the view far
    before = view.vb.viewRect()
    view.select(int(view.data.ids[edge]), center=True)
    qtbot.wait(20)
    assert view.vb.viewRect() == before
    assert not _outside(view, range(len(ids)))  # no dot lost


def test_a_chosen_memory_and_its_neighbours_come_into_view_by_the_least_pan(qtbot, tmp_path):
    view, ids = _window_graph(qtbot, tmp_path, 40)
    edge = int(np.argmax(view.xy[:, 0]))  # the rightmost, and its neighbours
    rows = view.neighbourhood_rows(edge)
    assert len(rows) > 1
    # the view panned left by the user, past them
    r = view.vb.viewRect()
    view.vb.setRange(r.translated(-0.5 * r.width(), 0), padding=0)
    qtbot.wait(20)
    assert _outside(view, rows)
    scale = view.vb.viewRect().width()
    view.select(int(view.data.ids[edge]), center=True)
    qtbot.wait(20)
    assert not _outside(view, rows)
    assert view.vb.viewRect().width() == pytest.approx(scale)  # panned, not zoomed
    # the chosen one at the edge of the room (not in the middle: the least pan)
    c = view.vb.mapViewToScene(QtCore.QPointF(*view.xy[edge]))
    assert c.x() > view.shown_part().center().x() + 0.25 * view.shown_part().width()


def test_neighbours_wider_than_the_view_zoom_it_out_and_a_pane_opened_for_it_is_counted(
        qtbot, tmp_path):
    """Zoomed in on a corner, a memory chosen whose neighbours span more than the view: it
    zooms out round them.  With the detail pane folded (a narrow graph pane), a link that
    opens it narrows the plot after the choice: they are in view once it is laid out."""
    view, ids = _window_graph(qtbot, tmp_path, 40)
    span = np.ptp(view.xy, axis=0)
    reach = [np.ptp(view.xy[view.neighbourhood_rows(k)], axis=0).max() for k in range(len(ids))]
    k = int(np.argmax(reach))
    lo = view.xy.min(axis=0)
    view.vb.setRange(QtCore.QRectF(lo[0], lo[1], span[0] * 0.2, span[1] * 0.2), padding=0)
    qtbot.wait(20)
    rows = view.neighbourhood_rows(k)
    assert _outside(view, rows)
    view.select(int(view.data.ids[k]), center=True)
    qtbot.wait(20)
    assert not _outside(view, rows)
    # the pane folded by itself (narrow), zoomed in again, then a link under an answer
    view.resize(560, 560)
    qtbot.wait(50)
    assert view.details.isHidden()
    view.vb.setRange(QtCore.QRectF(lo[0], lo[1], span[0] * 0.2, span[1] * 0.2), padding=0)
    view._user_moved_view = True  # (the user zoomed: no fit follows the pane)
    qtbot.wait(20)
    k2 = int(np.argmax(view.xy[:, 0]))
    assert view.unfold_details()  # as `_show_in_graph` does
    view.select(int(view.data.ids[k2]), center=True)
    qtbot.wait(50)
    assert view.details.isVisible()
    assert not _outside(view, view.neighbourhood_rows(k2))


def test_a_leader_is_not_drawn_as_a_link(qtbot, tmp_path):
    """A label tied to its dot: dotted (round dots), fainter and under the links, with a
    round mark where it meets the label's words (inside its box, off its empty margin)."""
    view, ids = _window_graph(qtbot, tmp_path, 40)
    centre = view.xy.mean(axis=0)
    # (the memories nearest the middle, in turn, until one's label needs a line: since
    # 0.35 a label with no room is left out rather than tied far off, so the first may not)
    tied = []
    for k in np.argsort(np.hypot(*(view.xy - centre).T))[:12]:
        view.set_active([ids[int(k)]])
        view._update_labels()
        tied = [t for t in view.memory_labels if t.isVisible() and t._hela_shifted]
        if tied:
            break
    assert tied, "no label tied by a line near the middle of a crowded graph"
    lead = view._leaders
    pen = lead.opts["pen"]
    assert pen.style() == QtCore.Qt.PenStyle.CustomDashLine and pen.dashPattern()[0] < 0.1
    assert pen.capStyle() == QtCore.Qt.PenCapStyle.RoundCap  # dots, not dashes
    assert pen.color().alphaF() < 1
    links = [i for i in view.edge_items + view.learned_items if i.isVisible()]
    assert links and lead.zValue() < min(i.zValue() for i in links)  # under every link
    xs, ys = lead.getData()
    mx, my = view._leader_ends.getData()
    assert view._leader_ends.isVisible() and len(mx) == len(xs) // 2 == len(tied)
    assert np.allclose(mx, xs[1::2]) and np.allclose(my, ys[1::2])
    for t in tied:  # each mark lies inside its label's box, by the margin round the words
        box = t.mapRectToScene(t.boundingRect()).adjusted(2.5, 3.5, -2.5, -3.5)
        assert any(box.contains(view.vb.mapViewToScene(QtCore.QPointF(x, y)))
                   for x, y in zip(mx, my))


# ------------------------------------------------------------------ the chat ------
# an answer of the QA pass (its tokens as the model gave them: each a link of its own)
TOKENS = ['This', ' is', ' a', ' common', ' fallacy', '.', ' "', 'I', ' told', ' you', ' about',
          ' how', ' to', ' eat', ' something', ',', ' but', ' I', ' forgot', ' what', ' it', ' is',
          '."', ' The', ' sentence', ' should', ' be', ' re', 'ph', 'r', 'ased', ' for', ' clarity',
          ':']


def _chat(qtbot, text_tokens: list[str]):
    from hela_desktop.ui.chat import MessageView

    view = MessageView()
    qtbot.addWidget(view)
    view.resize(520, 400)
    view.show()
    qtbot.waitExposed(view)
    text, offsets, pos = "".join(text_tokens), [], 0
    for tok in text_tokens:
        offsets.append((pos, pos + len(tok)))
        pos += len(tok)
    view.add_user("Can Kiran eat satay chicken?")
    view.add_assistant(text, 1, [], offsets=offsets)
    return view


def _overflow_at(qtbot, view, width: int) -> tuple[float, int]:
    view.resize(width + view.width() - view.viewport().width(), view.height())
    qtbot.wait(1)
    doc = view.document()
    doc.documentLayout().blockBoundingRect(doc.lastBlock())  # (laid out)
    return doc.size().width() - view.viewport().width(), view.horizontalScrollBar().maximum()


def test_an_answer_a_fraction_of_a_pixel_too_wide_does_not_scroll_sideways(qtbot):
    """At some widths a line of the answer, measured in its tokens' pieces, runs a fraction
    of a pixel past the wrap width (480: 426.6 of 426 pixels, as in the window): the
    document is that much wider than the chat.  No scrollbar for it; all is in view."""
    view = _chat(qtbot, TOKENS)
    over = []
    for width in range(440, 560):
        extra, most = _overflow_at(qtbot, view, width)
        if extra > 0:
            over.append((width, extra))
            assert most == 0, (width, extra)
            assert not view.horizontalScrollBar().isVisible() or most == 0
        assert extra < view.document().documentMargin()  # (so nothing is cut off)
    if not over:
        pytest.skip("this font's lines fit their width at every width tried")


def test_what_is_really_wider_than_the_chat_still_scrolls_sideways(qtbot):
    """(Lines wrap anywhere in the chat, even code; a picture 800 pixels wide does not.)"""
    view = _chat(qtbot, TOKENS)
    cur = QtGui.QTextCursor(view.document())
    cur.movePosition(QtGui.QTextCursor.MoveOperation.End)
    image = QtGui.QImage(800, 10, QtGui.QImage.Format.Format_RGB32)
    image.fill(QtGui.QColor("white"))
    cur.insertImage(image)
    extra, most = _overflow_at(qtbot, view, 480)
    assert extra > 300 and most > 300
