"""QA passes 42c and 42d (/work/exp/s42/qa3/NOTES.md, /work/exp/s42/qa4/NOTES.md): window
polish.

- The why-recalled panel of a newer memory said "this one wins and the older one is marked
  as replaced", where the chat says "(older news)" and "it is kept, marked as older news";
  with two older memories it read "Newer than #11, #12, which says …".
- Graph labels: most were questions ("Can Zara have a…", "Where does Ngozi live?"), some
  stubs that say nothing ("Ahmed's…", "Is Zara…"), two alike side by side ("Can Oscar
  eat…" twice), one between two dots ("Tom left the…").
- Fit: the key took a strip below the graph while the corner beside it lay empty; a dot
  was half cut off at the left edge while the graph unfolded.

pytest-qt offscreen where a widget is needed, no model."""

from __future__ import annotations

import numpy as np
import pytest

# what QA pass 42d's user told (15 statements) and asked (36 questions), as written
TOLD = ["Hi, I'm Daniel Okafor, I'm a software developer in Manchester.",
        "My husband Ahmed has type 1 diabetes.",
        "Our daughter Zara is 6 and she's allergic to eggs.", "I'm coeliac.",
        "My sister Ngozi lives in Lagos and works as a doctor.",
        "We have a beagle called Biscuit.",
        "My grandad passed away last spring, I still miss him.",
        "I play five-a-side football on Thursday evenings.", "Ahmed's birthday is on 9 May.",
        "My dad Emeka takes metformin.", "We're going to Lisbon for a week in August.",
        "I'm learning Portuguese for the trip.",
        "The Lisbon trip is now in September, not August.", "Ngozi moved from Lagos to Accra.",
        "Zara turned 7 last week."]
ASKED = ["What do I do for a living?", "Where do I live?", "Can Zara have a pancake?",
         "Can I have a bagel?", "Can Ahmed have a fizzy drink?",
         "Dinner ideas for the three of us?", "Is Zara allergic to anything?",
         "How old is Zara?", "Is Zara 6?", "Where does Ngozi live?",
         "Where did Ngozi live before?", "What does Ngozi do?", "When is the Lisbon trip?",
         "Is the trip in August?", "What language am I learning?",
         "What kind of dog is Biscuit?", "Is Biscuit a cat?", "Is my dad on any medication?",
         "Can my dad take ibuprofen?", "When is Ahmed's birthday?",
         "Write a short birthday message for Ahmed", "Who is Emeka?",
         "What do you know about my family?", "What day is football?",
         "Is my grandad still alive?", "Suggest a snack for Zara", "Can Zara eat mayonnaise?",
         "Thanks, bye", "Can I have a pint of lager?", "Can Zara have a brownie?",
         "What should I feed Biscuit?", "Does my sister still live in Lagos?",
         "Is Ngozi still a doctor?", "Is my grandad coming to Lisbon with us?",
         "Can Ahmed have a milkshake?", "Can Zara have scrambled eggs?"]


# ------------------------------------------------------ the why-recalled panel ------
def test_the_newer_memorys_panel_speaks_of_older_news_as_the_chat_does():
    from hela_desktop.gate import explain

    lines = explain({"gate": "evidence", "supersedes": [8]})
    assert ("Newer than #8, which says something else about the same thing: the model is "
            "given this one first and that one right after it, kept and marked as older "
            "news.") in lines
    assert not any("replaced" in s or "wins" in s for s in lines)
    two = " ".join(explain({"supersedes": [11, 12]}))
    assert "Newer than #11 and #12, which say something else" in two
    assert "those right after it, kept and marked as older news." in two
    part = " ".join(explain({"supersedes": [5], "supersedes_in_part": [5]}))
    assert "kept and marked as partly older news." in part
    mixed = " ".join(explain({"supersedes": [3, 5], "supersedes_in_part": [5]}))
    assert "marked as older news (#5 only in part)." in mixed


def test_the_gate_and_the_panel_know_a_newer_memory_corrects_only_in_part():
    """The gate records which of the memories it replaces the newer one corrects only in
    part; the panel works it out for statistics stored without it."""
    from test_gui_pass42 import place_oscar

    from hela_desktop.ui.explain import recall_reasons, with_still_true

    old, new, _gone = place_oscar()
    assert new.extra["supersedes"] == [5] and new.extra["supersedes_in_part"] == [5]
    stored = {"episode_id": 14, "text": new.text, "extra": {"supersedes": [5]}}
    lines = recall_reasons(with_still_true(stored, {5: old.text}.get))
    assert any(s.endswith("kept and marked as partly older news.") for s in lines)
    whole = {"episode_id": 13, "text": "My driving test moved to 10 March.",
             "extra": {"supersedes": [8]}}
    said = {8: "My driving test is on 3 March."}.get
    assert any(s.endswith("kept and marked as older news.")
               for s in recall_reasons(with_still_true(whole, said)))


# ------------------------------------------------------------------ graph labels ------
def test_a_label_cut_short_must_still_say_something():
    from hela_desktop.ui.graph_model import says_something

    for stub in ("Ahmed's…", "Is Zara…", "I have a…", "What do you…", "My driving…",
                 "I'm training…", "Can Zara have a…", "We're going to…", "Our daughter…"):
        assert not says_something(stub), stub
    for fine in ("Is Zara 6?", "I'm coeliac.", "My driving test…", "Tom left the tapas…",
                 "My sister Ngozi lives in…", "Can Ahmed have a fizzy…", "Tom is allergic to…",
                 "私は東京に住んでいて…"):
        assert says_something(fine), fine


def test_what_was_told_comes_before_what_was_asked():
    from hela_desktop.ui.graph_model import told_first

    texts = ["Is Zara 6?", "Zara turned 7 last week.", "Thanks, bye", "Where does Ngozi live?",
             "I'm coeliac.", "How old is Zara?"]
    assert told_first(list(range(6)), texts.__getitem__, 2) == [1, 4, 0, 3]
    assert told_first(list(range(6)), texts.__getitem__, 1) == [1, 0]
    assert told_first(list(range(3)), texts.__getitem__, 3) == [1, 0, 2]  # (small talk last)


def _qa_graph(qtbot, tmp_path, texts, size=(432, 545), seed=42):
    """The graph pane of QA pass 42d's window (Details open: 432 × 545 for the graph):
    `texts` as memories, linked about as densely (124 links for 51), laid out and fitted."""
    from test_ui_app import fill_store

    from hela_desktop.store import Store
    from hela_desktop.ui.graph_model import snapshot_from_store
    from hela_desktop.ui.graph_view import GraphView

    store = Store(tmp_path)
    ids = fill_store(store, len(texts))
    for i, text in zip(ids, texts):
        store.conn.execute("UPDATE episodes SET user_text = ? WHERE id = ?", (text, i))
    store.conn.commit()
    rng = np.random.default_rng(seed)
    pairs = {tuple(sorted(rng.choice(ids, 2, replace=False).tolist())) for _ in range(len(ids))}
    store.upsert_edges([(int(a), int(b), 0.4, 0.2, 1, 0, 1.7e9) for a, b in pairs])
    view = GraphView(threaded=False)
    qtbot.addWidget(view)
    view.details_button.setChecked(False)
    view._toggle_details(False)
    view.resize(*size)
    view.show()
    qtbot.waitExposed(view)
    view.set_snapshot(snapshot_from_store(store), animate=False)
    store.close()
    view.settle(300)
    view.fit()
    qtbot.wait(50)
    view._update_labels()
    return view, ids


def _shown(view) -> list[tuple[int, str]]:
    return [(t._hela_id, t._hela_text) for t in view.memory_labels if t.isVisible()]


@pytest.mark.parametrize("size,least", [((432, 545), 4), ((672, 545), 4), ((360, 420), 2)])
def test_idle_labels_name_what_was_told_first_and_say_something(qtbot, tmp_path, size, least):
    """QA pass 42d (g1.png): of eight labels, five were questions and two stubs."""
    from hela_desktop.ui.graph_model import says_something

    view, ids = _qa_graph(qtbot, tmp_path, TOLD + ASKED, size)
    told = set(ids[:len(TOLD)])
    shown = _shown(view)
    assert len(shown) >= least, shown
    assert all(says_something(text) for _, text in shown), shown
    assert len({text for _, text in shown}) == len(shown), shown
    n_told = sum(i in told for i, _ in shown)
    assert n_told >= len(shown) - n_told, shown  # statements first: most of the names
    assert view.important[:len(TOLD)] == [i for i in view.important if i in told][:len(TOLD)]


def test_two_labels_alike_are_never_shown_side_by_side(qtbot, tmp_path):
    """"Can Oscar eat…" twice: two memories whose labels cut to the same words."""
    texts = ["Can Oscar eat peanut butter on toast today?",
             "Can Oscar eat peanut butter cookies at school?",
             "Chloe's son Oscar is 4.", "Oscar is allergic to tree nuts."]
    view, ids = _qa_graph(qtbot, tmp_path, texts, (600, 500))
    shown = [text for _, text in _shown(view)]
    assert len(shown) == len({t.casefold() for t in shown}), shown
    # two that must be shown (chosen, and pointed at) are written longer rather than alike
    view.select(ids[0])
    view.highlight([ids[1]])
    view._update_labels()
    mine = dict(_shown(view))
    assert ids[0] in mine and ids[1] in mine, mine
    assert mine[ids[0]] != mine[ids[1]], mine


# -------------------------------------------------------------------------- Fit ------
def _clear_of_edges_and_key(view) -> None:
    from hela_desktop.ui.graph_pan import EDGE_PX

    dots = view._dots_in_scene()
    shown = view._view_rect()
    r = view.node_size / 2 + EDGE_PX - 0.5
    assert dots[:, 0].min() - r >= shown.left() and dots[:, 0].max() + r <= shown.right()
    assert dots[:, 1].min() - r >= shown.top() and dots[:, 1].max() + r <= shown.bottom()
    if view.legend.isVisible():
        key = view.legend.key_rect().adjusted(-r, -r, r, r)
        assert not any(key.contains(_point(x, y)) for x, y, _ in dots)


def _point(x, y):
    from PySide6 import QtCore

    return QtCore.QPointF(float(x), float(y))


@pytest.mark.parametrize("size", [(432, 545), (672, 545), (300, 380), (900, 400)])
def test_fit_keeps_every_dot_whole_and_off_the_key(qtbot, tmp_path, size):
    view, _ = _qa_graph(qtbot, tmp_path, TOLD + ASKED, size)
    view.fit()
    qtbot.wait(50)
    _clear_of_edges_and_key(view)
    assert view.dots_clear(key=True)


def test_fit_lays_the_key_over_an_empty_corner_of_the_graph(qtbot, tmp_path):
    """Dots on a ring leave the corners of the graph empty: the key opens in the lower-left
    one, no dot under it, and the graph takes the plot's height (it used to leave a strip
    below it for the key)."""
    texts = [f"My friend number {k} lives in a town by the sea." for k in range(24)]
    view, _ = _qa_graph(qtbot, tmp_path, texts, (900, 480))
    a = np.linspace(0, 2 * np.pi, len(view.xy), endpoint=False)
    view.xy[:] = np.column_stack([10 * np.cos(a), 10 * np.sin(a)])
    view.fit()
    qtbot.wait(50)
    assert view.legend.isVisible()
    _clear_of_edges_and_key(view)
    dots = view._dots_in_scene()
    key = view.legend.key_rect()
    assert dots[:, 1].max() > key.top()  # beside the key, not all above it


def test_a_dot_past_the_edge_while_the_graph_unfolds_brings_a_fit(qtbot, tmp_path):
    """QA pass 42c (39.png): a dot half cut off at the left edge: its middle was still in
    view, so the view did not fit again."""
    view, _ = _qa_graph(qtbot, tmp_path, TOLD + ASKED, (432, 545))
    left = view.vb.viewRect().left()
    px = view.vb.viewPixelSize()[0]
    xy = view.xy.copy()
    k = int(np.argmin(xy[:, 0]))
    xy[k, 0] = left + 2 * px  # its middle 2 pixels inside: half of it past the edge
    view.set_positions(view.data.ids, xy)
    qtbot.wait(50)
    _clear_of_edges_and_key(view)
