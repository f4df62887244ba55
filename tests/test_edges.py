"""The Hebbian graph as everyone reads it: effective weights, merge rules, degrees, the
one snapshot — on hand-worked numbers, real SQLite files, no model."""

from __future__ import annotations

import numpy as np
import pytest

from hela_desktop import edges as G
from hela_desktop.config import HelaParams
from hela_desktop.store import EdgeRow, Store


def test_effective_weights_of_stored_rows():
    rows = [EdgeRow(1, 2, 0.5, 0.2, 1, 7, 0.0),   # 0.2 + 0.5·0.9^3 = 0.5645
            EdgeRow(1, 3, 0.5, 0.8, 1, 9, 0.0),   # 0.8 + 0.5·0.9 = 1.25 -> cap 1
            EdgeRow(2, 3, 0.5, 0.0, 1, 12, 0.0)]  # written "after" step 10: no decay
    assert G.effective_weights(rows, 10, 0.1, 1.0) == pytest.approx([0.5645, 1.0, 0.5])
    assert G.effective_weight(0.5, 0.2, 7, 10, 0.1, 1.0) == pytest.approx(0.5645)
    assert len(G.effective_weights([], 10, 0.1, 1.0)) == 0


def test_links_keep_the_larger_prior():
    links: dict = {}
    G.add_link(links, 5, 2, 0.3)
    G.add_link(links, 2, 5, 0.5)
    G.add_link(links, 2, 5, 0.4)
    assert links == {(2, 5): 0.5}


def test_merge_edge_keeps_the_weight_stronger_now():
    # at step 20, λ = 0.1: old 0.5 written at 10 is 0.5·0.9^10 = 0.174; new 0.3 at 19 is 0.27
    old, new = (0.5, 0.2, 3, 10, 100.0), (0.3, 0.1, 5, 19, 50.0)
    assert G.merge_edge(old, new, 20, 0.1) == (0.3, 0.2, 5, 19, 100.0)
    assert G.merge_edge(new, old, 20, 0.1) == (0.3, 0.2, 5, 19, 100.0)


def test_merge_edge_keeps_the_stores_edge_when_it_is_a_later_state_of_the_files():
    # the file's edge moved to the store's clock looks younger (step 19 against 10), but the
    # store's was written later (t 100 against 50), used as often and no weaker a prior
    store_edge, file_edge = (0.5, 0.2, 5, 10, 100.0), (0.5, 0.2, 5, 19, 50.0)
    assert G.merge_edge(store_edge, file_edge, 20, 0.1) == store_edge
    assert G.merge_edge(store_edge, (0.5, 0.2, 5, 19, 100.0), 20, 0.1) == store_edge
    # used more often in the file, or written later there: the strength rule decides
    assert G.merge_edge(store_edge, (0.5, 0.2, 6, 19, 50.0), 20, 0.1) == (0.5, 0.2, 6, 19, 100.0)
    assert G.merge_edge(store_edge, (0.5, 0.2, 5, 19, 101.0), 20, 0.1) == (0.5, 0.2, 5, 19, 101.0)


def test_hebbian_rows_add_eta_and_count():
    p = HelaParams(eta=0.1, lam=0.1, weight_cap=1.0)
    existing = {(1, 2): EdgeRow(1, 2, 0.4, 0.5, 2, 4, 0.0)}
    deltas = G.coactive_deltas([3, 1, 2, 1], p.eta)
    assert deltas == {(1, 2): 0.1, (1, 3): 0.1, (2, 3): 0.1}
    rows = G.hebbian_rows(deltas, existing, 5, 9.0, p)
    # (1,2): 0.9·0.4 + 0.1 = 0.46, prior kept, count 3; new pairs start at η
    assert rows[0][:2] == (1, 2) and rows[0][2] == pytest.approx(0.46)
    assert rows[0][3:] == (0.5, 3, 5, 9.0)
    assert rows[1:] == [(1, 3, 0.1, 0.0, 1, 5, 9.0), (2, 3, 0.1, 0.0, 1, 5, 9.0)]


def test_hebbian_rows_with_a_rules_deltas():
    # λ = 0.1, one step after writing: (1,2) 0.4 → 0.9·0.4 − 0.5 = −0.14, floored at 0 (prior
    # 0.5 kept); a new pair with Δ ≤ 0 writes nothing; a new pair with Δ = 0.3 starts at 0.3
    p = HelaParams(eta=0.1, lam=0.1, weight_cap=1.0)
    existing = {(1, 2): EdgeRow(1, 2, 0.4, 0.5, 2, 4, 0.0)}
    rows = G.hebbian_rows({(1, 2): -0.5, (1, 3): -0.2, (2, 3): 0.3}, existing, 5, 9.0, p)
    assert rows == [(1, 2, 0.0, 0.5, 3, 5, 9.0), (2, 3, 0.3, 0.0, 1, 5, 9.0)]


def test_snapshot_nodes_caps_and_degrees(tmp_path):
    with Store(tmp_path) as s:
        a, b, c = (s.add_episode(t, "answer", np.ones(4)) for t in ("alpha\nbeta", "two", "3"))
        s.upsert_edges([(a, b, 0.0, 0.5, 0, 0, 0.0), (a, c, 0.0, 0.25, 0, 0, 0.0),
                        (b, c, 0.0, 0.0, 0, 0, 0.0)])
        eps = s.episodes([a, b])
        snap = G.graph_snapshot(s, lam=0.1, cap=1.0, episodes=[eps[a], eps[b]])
        assert [n.id for n in snap.nodes] == [a, b] and snap.nodes[0].label == "alpha beta"
        assert snap.edges == [(a, b, 0.5)]  # only edges between the nodes
        every = G.graph_snapshot(s, lam=0.1, cap=1.0, min_weight=None)
        assert len(every.edges) == 3  # the view keeps zero-weight edges
        assert len(G.graph_snapshot(s, lam=0.1, cap=1.0).edges) == 2
        assert len(G.graph_snapshot(s, lam=0.1, cap=1.0, min_weight=0.3).edges) == 1
        deg, nbrs = G.weighted_degrees(s, HelaParams(lam=0.1, weight_cap=1.0))
        assert deg == {a: 0.75, b: 0.5, c: 0.25}
        assert nbrs[a] == [(0.5, b), (0.25, c)]
        d = snap.as_dict()
        assert d["edges"] == [(a, b, 0.5)] and d["nodes"][1]["kind"] == "episode"


def test_snapshot_carries_the_learned_part(tmp_path):
    # λ = 0.1, read at step 10, cap 1:
    #   (a,b) prior 0.2, w 0.5 written at 7: 0.5·0.9^3 = 0.3645 learned, 0.5645 in all
    #   (a,c) prior 0.8, w 0.5 written at 9: 0.8 + 0.45 = 1.25 -> cap 1: learned 0.2
    #   (b,c) prior 0.5, no learned weight: prior-only, not in `learned`
    with Store(tmp_path) as s:
        a, b, c = (s.add_episode(t, "answer", np.ones(4)) for t in ("one", "two", "three"))
        s.upsert_edges([(a, b, 0.5, 0.2, 3, 7, 0.0), (a, c, 0.5, 0.8, 1, 9, 0.0),
                        (b, c, 0.0, 0.5, 0, 0, 0.0)])
        rows = s.all_edges()
        eff, learned = G.edge_parts(rows, 10, 0.1, 1.0)
        by_pair = {(r.src, r.dst): (e, lp) for r, e, lp in zip(rows, eff, learned)}
        assert by_pair[(a, b)] == pytest.approx((0.5645, 0.3645))
        assert by_pair[(a, c)] == pytest.approx((1.0, 0.2))
        assert by_pair[(b, c)] == pytest.approx((0.5, 0.0))
        snap = G.graph_snapshot(s, lam=0.1, cap=1.0, step=10)
        assert snap.learned == pytest.approx({(a, b): 0.3645, (a, c): 0.2})
        assert snap.as_dict()["learned"] == snap.learned
        edges = sorted(snap.edges)
        assert [e[:2] for e in edges] == [(a, b), (a, c), (b, c)]
        assert [e[2] for e in edges] == pytest.approx([0.5645, 1.0, 0.5])
        # an edge left out of the snapshot leaves its learned part out too
        assert set(G.graph_snapshot(s, lam=0.1, cap=1.0, step=10, min_weight=0.9).learned) \
            == {(a, c)}


def test_lift_cause_names_the_part_the_memory_needed():
    from hela_desktop.retrieval import lift_cause

    # score 1.0, the best score left out 0.8: without its learned 0.3 it would be 0.7 < 0.8
    assert lift_cause(1.0, 0.5, 0.3, 0.0, 0.8) == "learned link"
    # learned 0.1 alone is not enough (0.9 > 0.8); the whole link 0.5 is (0.5 < 0.8)
    assert lift_cause(1.0, 0.5, 0.1, 0.0, 0.8) == "link"
    # links 0.1 are not enough, its conversation's 0.4 is
    assert lift_cause(1.0, 0.1, 0.0, 0.4, 0.8) == "context"
    # no single part would have kept it out (links 0.1, context 0.1, bar 0.8)
    assert lift_cause(1.0, 0.1, 0.05, 0.1, 0.8) == ""
