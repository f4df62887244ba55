"""A heavy user's window: years of another assistant's chats imported, most memories older
than the newest the graph holds.  A recalled one outside the graph is still named by its
words in the answer's timeline and tooltips, not by its number twice."""

from __future__ import annotations

import numpy as np
import pytest
import qt_env  # noqa: F401  (before PySide6: offscreen, a throwaway QSettings folder)

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")

from hela_desktop.store import Store  # noqa: E402
from hela_desktop.ui.graph_model import snapshot_from_store  # noqa: E402

pytestmark = pytest.mark.gui


def test_a_recalled_memory_outside_the_graph_is_named_by_its_words(qtbot, tmp_path):
    from hela_desktop.ui.graph_view import GraphView

    store = Store(tmp_path)
    shown = store.add_episode("My dog is called Pixel.", "", np.ones(8, "float32"))
    view = GraphView(threaded=False)
    qtbot.addWidget(view)
    view.set_snapshot(snapshot_from_store(store), animate=False)
    old = shown + 1200  # recalled, but older than the newest the graph holds
    view.set_active([shown, old], {old: {"text": "My sourdough starter smells like nail "
                                             "polish remover, is it dead?", "extra": {}}})
    assert old not in view.data.nodes
    assert view.label_of(old) == "My sourdough starter smells…"
    assert view.label_of(shown) == "My dog is called Pixel."
    assert view.label_of(old + 1) == ""  # nothing known of it: the "#id" before it says all
    store.close()
