"""The graph and the window, an eighth hands-on pass: the legend in a small window, finding
among many matches, right-to-left text.

pytest-qt offscreen, real widgets on a real Store (no embedder, no model)."""

from __future__ import annotations

import pytest
import qt_env  # noqa: F401  (before PySide6: offscreen, a throwaway QSettings folder)

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")

from PySide6 import QtCore, QtGui, QtWidgets  # noqa: E402
from test_ui_app import fill_store, graph_on  # noqa: E402

from hela_desktop.store import Store  # noqa: E402

pytestmark = pytest.mark.gui


def _graph(qtbot, tmp_path, n: int = 40):
    """An unthreaded graph view on a store of `n` linked memories, laid out."""
    store = Store(tmp_path)
    ids = fill_store(store, n)
    view = graph_on(qtbot, store, 80)
    store.close()
    return view, ids


def _under(view, rect: QtCore.QRectF) -> int:
    """How many drawn memories have their dot within `rect` (scene pixels)."""
    r = view.node_size / 2
    return sum(rect.adjusted(-r, -r, r, r).contains(view.vb.mapViewToScene(QtCore.QPointF(x, y)))
               for x, y in view.xy)


def _legend_box(view) -> QtCore.QRectF:
    if view.legend.isVisible():
        return view.legend.mapRectToScene(view.legend.boundingRect())
    b = view.legend.button
    return QtCore.QRectF(view.plot.mapToScene(b.geometry().topLeft()),
                         view.plot.mapToScene(b.geometry().bottomRight()))


def test_the_legend_folds_in_a_small_graph_and_never_covers_a_memory(qtbot, tmp_path):
    """In the smallest window (a plot 148 px tall) the key, 69 px tall, covered the
    graph's lower half (/work/exp/gv8/before/old-legend-*.png).  It now folds into a
    "Legend" button where it has no room, a fit leaves room below the graph for the key
    or its button, and the user may open or fold it at any size."""
    view, _ids = _graph(qtbot, tmp_path)
    view.details_button.setChecked(False)
    view._toggle_details(False)
    for w, h, details, folded in ((900, 600, False, False), (480, 190, False, True),
                                  (640, 420, True, True), (700, 420, False, False)):
        view.details.setVisible(details)  # the side panel open: a narrow plot
        view.resize(w, h)
        view.split.setSizes([300, w - 300] if details else [w, 0])
        qtbot.wait(30)
        view.fit()
        qtbot.wait(30)
        assert view.legend.isVisible() is not folded, (w, h, view.vb.width(), view.vb.height())
        assert view.legend.button.isVisible() is folded, (w, h)
        assert _under(view, _legend_box(view)) == 0, (w, h)
    # the user opens the folded key: it stays open, and the graph makes room for it
    view.resize(420, 250)
    qtbot.wait(30)
    assert view.legend.button.isVisible()
    view.legend.button.click()
    qtbot.wait(30)
    view.fit()
    qtbot.wait(30)
    assert view.legend.isVisible() and not view.legend.button.isVisible()
    assert _under(view, _legend_box(view)) == 0
    # and folds it again with a click on it, even in a big plot
    view.resize(900, 600)
    qtbot.wait(30)
    view.legend.set_open(False)
    qtbot.wait(30)
    assert not view.legend.isVisible() and view.legend.button.isVisible()
    # no links, no key and no button
    view.legend.has_edges = False
    view.legend.arrange()
    assert not view.legend.isVisible() and not view.legend.button.isVisible()


def test_find_with_many_matches_counts_them_and_steps_through_them(qtbot, tmp_path):
    """A common word in "Find in graph…" ringed 900 of 1,021 memories in thick green: one
    blob, "105 found" and no way back (/work/exp/gv8/before/old-find-garden*.png).  The box
    now says which match is shown ("3 of 40"); Enter / F3 go to the next, Shift+Enter /
    Shift+F3 to the previous (Down as in the other search boxes, Esc clears), each brought
    into view with its neighbours (it was centred, until QA pass 41: see
    test_gui_pass41b.py) and selected with its details; many matches get thin rings and the
    shown one its own."""
    view, ids = _graph(qtbot, tmp_path, 40)
    view.activateWindow()
    view.search.setFocus()
    qtbot.keyClicks(view.search, "question")
    assert len(view.search_rows) == 40 and view.match_label.text() == "40 found"
    assert view.search_item.pen.widthF() < 2  # many: thin rings
    assert len(view.match_item) == 0

    def shown() -> int:
        return int(view.data.ids[view.search_rows[view._search_cursor]])

    def centred(nid: int, neighbours: bool = True) -> bool:  # (in view: no longer centred)
        row = view.data.index[nid]
        rows = view.neighbourhood_rows(row) if neighbours else [row]
        shown = view.shown_part()
        return all(shown.contains(view.vb.mapViewToScene(QtCore.QPointF(*view.xy[r]))) for r in rows)

    qtbot.keyClick(view.search, QtCore.Qt.Key.Key_Return)
    assert view.match_label.text() == "1 of 40" and view.selected == shown() and centred(shown())
    assert f"#{shown()}" in view.details.toPlainText()
    assert len(view.match_item) == 1  # the shown match has a ring of its own
    qtbot.keyClick(view.search, QtCore.Qt.Key.Key_Return)
    assert view.match_label.text() == "2 of 40"
    qtbot.keyClick(view.search, QtCore.Qt.Key.Key_Return, QtCore.Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClick(view.search, QtCore.Qt.Key.Key_Return, QtCore.Qt.KeyboardModifier.ShiftModifier)
    assert view.match_label.text() == "40 of 40" and view.selected == shown() and centred(shown())
    qtbot.keyClick(view.search, QtCore.Qt.Key.Key_F3)
    assert view.match_label.text() == "1 of 40"
    qtbot.keyClick(view.search, QtCore.Qt.Key.Key_F3, QtCore.Qt.KeyboardModifier.ShiftModifier)
    assert view.match_label.text() == "40 of 40"
    qtbot.keyClick(view.search, QtCore.Qt.Key.Key_Down)  # as in the other search boxes
    assert view.match_label.text() == "1 of 40"
    # a match chosen with the mouse is the one shown; Enter goes on from it
    view.select(int(view.data.ids[view.search_rows[5]]))
    assert view.match_label.text() == "6 of 40"
    qtbot.keyClick(view.search, QtCore.Qt.Key.Key_Return)
    assert view.match_label.text() == "7 of 40"
    qtbot.keyClick(view.search, QtCore.Qt.Key.Key_F3, QtCore.Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClick(view.search, QtCore.Qt.Key.Key_Down)
    assert view.match_label.text() == "7 of 40"
    view.select(int(view.data.ids[view.search_rows[0]]))
    # the same text searched again (the engine's ranking, a new snapshot): the shown match stays
    first = shown()
    view.refresh_search()
    assert view.match_label.text() == "1 of 40" and shown() == first
    # a few matches: bold rings; a new text starts again
    qtbot.keyClicks(view.search, " 7")
    assert view.match_label.text() == "1 found" and view.search_item.pen.widthF() >= 3
    # zoomed out to a map of topics, a match is a dot under the names: stepping zooms in
    view.zoomed_out = True
    width = view.vb.viewRect().width()
    view.next_match()
    assert view.vb.viewRect().width() < 0.5 * width and centred(shown(), neighbours=False)
    qtbot.keyClick(view.search, QtCore.Qt.Key.Key_Escape)  # Esc clears
    assert view.search.text() == "" and view.match_label.text() == "" and not len(view.search_rows)
    # F3 also works where the keyboard is elsewhere in the graph pane
    keys = {s.key().toString() for s in view.findChildren(QtGui.QShortcut)
            if s.context() == QtCore.Qt.ShortcutContext.WidgetWithChildrenShortcut}
    assert {"F3", "Shift+F3"} <= keys


HEBREW = "הכלב שלי נקרא פיקסל והוא אוהב לרוץ בפארק כל בוקר"
ARABIC = "أختي تعيش في القاهرة منذ خمس سنوات وتعمل في مستشفى كبير"


def test_right_to_left_text_is_recognised_and_labels_end_after_a_word():
    from hela_desktop.ui.graph_model import short_label
    from hela_desktop.ui.plain import is_rtl

    assert is_rtl(HEBREW) and is_rtl(ARABIC) and is_rtl("#12 " + ARABIC) and is_rtl("«" + HEBREW)
    assert not is_rtl("My dog " + HEBREW) and not is_rtl("") and not is_rtl("123 …")
    # a label ends after a whole word (it was cut mid-word: "…والريح…"), in any script
    for text in (ARABIC, HEBREW, "I keep thinking about the tomatoes and the roses"):
        label = short_label(text, 28)
        assert len(label) <= 28 and label.endswith("…")
        assert text.startswith(label[:-1]) and text[len(label) - 1] == " ", label
    assert short_label("a" * 40, 28) == "a" * 27 + "…"  # one long word: cut where it must be
    assert short_label("short", 28) == "short"
    # a sentence's own stop does not stand before the "…" (it read "walks.…")
    assert short_label("Pixel likes long walks. Every morning.", 28) == "Pixel likes long walks…"
    assert short_label("My sister, Ana, lives in Lisbon now", 16) == "My sister, Ana…"


def _ink_columns(widget) -> tuple[int, int]:
    """The leftmost and rightmost pixel columns a widget painted in its text colour."""
    from PySide6 import QtGui

    img = widget.grab().toImage()
    bg = img.pixelColor(0, 0)  # a corner: background
    cols = [x for x in range(img.width()) for y in range(img.height())
            if abs(QtGui.QColor(img.pixelColor(x, y)).lightness() - bg.lightness()) > 60]
    return min(cols), max(cols)


def test_right_to_left_rows_start_at_the_right_and_end_at_the_left(qtbot):
    """Arabic and Hebrew chat titles (and the graph's stats line, the timeline's rows) were
    laid out left to right: the row began at the left and its "…" stood at the right, next
    to the first word (/work/exp/gv8/before/old-1024x640.png, the chat list).  Right-to-left
    rows now read from the right: aligned right, "…" at their left end."""
    from hela_desktop.ui.chat_list import ConversationList
    from hela_desktop.ui.plain import ElidedLabel

    chats = ConversationList()
    qtbot.addWidget(chats)
    chats.resize(170, 300)
    chats.show()
    chats.set_conversations([{"id": 1, "title": HEBREW, "messages": 2, "updated_at": 1.7e9},
                             {"id": 2, "title": "Garden notes 50", "messages": 2, "updated_at": 1.7e9}],
                            None)
    delegate = chats.list.itemDelegate()
    directions = []
    for row in range(2):
        opt = QtWidgets.QStyleOptionViewItem()
        delegate.initStyleOption(opt, chats.list.model().index(row, 0))
        directions.append(opt.direction)
    assert directions == [QtCore.Qt.LayoutDirection.RightToLeft, QtCore.Qt.LayoutDirection.LeftToRight]

    label = ElidedLabel(ARABIC[:12])
    qtbot.addWidget(label)
    label.resize(400, 24)
    label.show()
    left, right = _ink_columns(label)
    assert left > 200 and right > 380  # short right-to-left text: at the right end
    label.setText("Garden notes")
    left, right = _ink_columns(label)
    assert left < 20 and right < 200  # left-to-right text stays at the left
    label.setText(ARABIC)
    label.resize(160, 24)
    left, right = _ink_columns(label)
    assert right > 150  # elided, it still starts at the right


def test_a_right_to_left_graph_label_starts_beside_its_dot(qtbot, tmp_path):
    """A Hebrew or Arabic label was written to the right of its dot, its first word far from
    it; it now goes on the left, where a right-to-left reader starts."""
    view, ids = _graph(qtbot, tmp_path, 12)
    for i in ids[:2]:
        view.data.nodes[i]["label"] = view.data.nodes[i]["text"] = ARABIC if i == ids[0] else "plain words here"
    for i, left_of_dot in ((ids[0], True), (ids[1], False)):
        view.select(i)
        qtbot.wait(20)
        t = next(t for t in view.memory_labels if t.isVisible() and t.toPlainText().startswith(
            view.data.nodes[i]["label"][:6]))
        box = t.mapRectToScene(t.boundingRect())
        dot = view.vb.mapViewToScene(QtCore.QPointF(*view.xy[view.data.index[i]]))
        assert (box.right() <= dot.x()) is left_of_dot and (box.left() >= dot.x()) is not left_of_dot


def test_topic_names_at_the_edge_of_the_view_are_shown_whole(qtbot, tmp_path):
    """With the detail pane open, topic names at the graph's left edge were cut off by the
    plot ("arden · toma", /work/exp/gv8/after/newdark-legend-1024x640-det.png before the
    fix); a name now slides into the view, whole."""
    view, _ids = _graph(qtbot, tmp_path, 400)
    view.resize(620, 420)
    qtbot.wait(30)
    view.fit()
    qtbot.wait(30)
    r = view.vb.viewRect()  # the graph's middle at the view's left edge: topics cross it
    view.vb.setRange(QtCore.QRectF(r.center().x(), r.top(), r.width(), r.height()), padding=0)
    view._on_range()
    view._place_topic_labels(view.data, view.xy)
    shown = [t for t in view.topic_labels if t.isVisible()]
    assert view.zoomed_out and shown
    on_screen = view.plot.mapToScene(view.plot.viewport().rect()).boundingRect()
    inside = view.vb.sceneBoundingRect().intersected(on_screen).adjusted(-1, -1, 1, 1)
    for t in shown:
        assert inside.contains(t.mapRectToScene(t.boundingRect()).adjusted(1, 1, -1, -1)), t.toPlainText()


def test_the_detail_pane_writes_a_right_to_left_memory_from_the_right(qtbot, tmp_path):
    """"You: <Arabic>" was one left-to-right paragraph: "You:" at the left, the words
    starting at the far right of the line and wrapping oddly.  Each line now has its own
    direction, from its words."""
    view, ids = _graph(qtbot, tmp_path, 6)
    view.data.nodes[ids[0]]["text"] = f"You: {ARABIC}\nHeLa: Noted, your sister lives in Cairo."
    view.select(ids[0])
    doc = view.details.document()
    directions = {}
    block = doc.begin()
    while block.isValid():
        directions[block.text()] = block.blockFormat().layoutDirection()
        block = block.next()
    assert directions[f"You: {ARABIC}"] == QtCore.Qt.LayoutDirection.RightToLeft
    assert directions["HeLa: Noted, your sister lives in Cairo."] != QtCore.Qt.LayoutDirection.RightToLeft


def test_a_label_never_goes_under_the_legend(qtbot, tmp_path):
    """A memory just above the legend had its label written right of it, half under the
    key; the label now goes where it is clear of it (above, here)."""
    view, ids = _graph(qtbot, tmp_path, 12)
    view.fit()
    qtbot.wait(30)
    assert view.legend.isVisible()
    key = view.legend.scene_rect()
    # a memory at the key's top-right corner, nothing else near it
    spot = view.vb.mapSceneToView(QtCore.QPointF(key.right() - 30, key.top() - 4))
    far = view.vb.mapSceneToView(QtCore.QPointF(key.right() + 400, key.top() - 300))
    view.xy[:] = (far.x(), far.y())
    row = view.data.index[ids[0]]
    view.xy[row] = (spot.x(), spot.y())
    view.select(ids[0])
    qtbot.wait(30)
    label = next(t for t in view.memory_labels if t.isVisible())
    assert not label.mapRectToScene(label.boundingRect()).intersects(key)
    # and the key stays in its corner: a drag on it pans the graph instead
    drag = _Ignored()
    view.legend.mouseDragEvent(drag)
    assert drag.ignored and view.legend.scene_rect() == key


class _Ignored:
    """A stand-in drag event: records whether it was ignored."""

    ignored = False

    def ignore(self) -> None:
        self.ignored = True
