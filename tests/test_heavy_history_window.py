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


def test_the_answer_column_shows_an_answers_words_not_its_markup(tmp_path):
    """Every row of a big ChatGPT import showed "Sure! Here's a simple **focacci…" and code
    answers their fence line; the cell shows the words (the tooltip keeps the answer)."""
    from PySide6 import QtCore

    from hela_desktop.ui.memory_browser import EpisodeTableModel

    answer = ("Sure! Here's a simple **focaccia**:\n\n### Ingredients\n- 500 g flour\n\n"
              "```python\nprint('bake')\n```\n" + "Knead well. " * 40)
    with Store(tmp_path) as s:
        eid = s.add_episode("Give me a recipe for focaccia", answer, np.ones(4, "float32"),
                            source="chatgpt")
        ep = s.episodes([eid])[eid]
    model = EpisodeTableModel()
    model.set_episodes([ep])
    cell = model.data(model.index(0, 3), QtCore.Qt.ItemDataRole.DisplayRole)
    assert cell.startswith("Sure! Here's a simple focaccia: Ingredients - 500 g flour")
    assert "**" not in cell and "#" not in cell and "```" not in cell and len(cell) <= 120
    tip = model.data(model.index(0, 3), QtCore.Qt.ItemDataRole.ToolTipRole)
    assert "**focaccia**" in tip
