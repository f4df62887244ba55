"""Every formula of hela_desktop.formulas against numbers worked out by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest

from hela_desktop import formulas as F


def test_similarity_maps_cosine_to_unit_interval():
    # (cos + 1) / 2: -1 -> 0, 0 -> 0.5, 0.6 -> 0.8, 1 -> 1
    assert F.similarity(np.array([-1.0, 0.0, 0.6, 1.0])) == pytest.approx([0.0, 0.5, 0.8, 1.0])


def test_decayed_weight_is_geometric_in_steps():
    # 0.5 · (1 - 0.1)^3 = 0.5 · 0.729 = 0.3645 ; negative steps count as 0
    assert F.decayed_weight(0.5, 0.1, 3) == pytest.approx(0.3645)
    assert F.decayed_weight(0.5, 0.1, -2) == pytest.approx(0.5)


def test_effective_weight_is_prior_plus_decayed_weight_capped():
    # 0.2 + 0.5·0.9^3 = 0.2 + 0.3645 = 0.5645
    assert F.effective_weight(0.5, 0.2, 3, 0.1, 1.0) == pytest.approx(0.5645)
    # 0.8 + 0.5·0.9^1 = 1.25 -> capped at 1
    assert F.effective_weight(0.5, 0.8, 1, 0.1, 1.0) == 1.0
    w = F.effective_weight(np.array([0.5, 0.0]), np.array([0.0, 0.3]), np.array([2, 9]), 0.1, 1.0)
    assert w == pytest.approx([0.405, 0.3])


def test_merge_learned_keeps_the_weight_stronger_now():
    # 0.5 written 10 steps ago (0.5·0.9^10 = 0.1743) vs 0.3 written 1 step ago (0.27)
    assert F.merge_learned(0.5, 10, 0.3, 1, 0.1)
    assert not F.merge_learned(0.3, 1, 0.5, 10, 0.1)


def test_hebbian_update_applies_decay_then_adds_eta():
    # written 1 step ago: before = 0.4 ; (1 - 0.1)·0.4 + 0.05 = 0.36 + 0.05 = 0.41
    assert F.hebbian_update(0.4, 0.1, 0.05, 1, 1.0) == pytest.approx(0.41)
    # written 3 steps ago: before = 0.4·0.9² = 0.324 ; 0.9·0.324 + 0.05 = 0.2916 + 0.05 = 0.3416
    assert F.hebbian_update(0.4, 0.1, 0.05, 3, 1.0) == pytest.approx(0.3416)
    # cap: 0.9·0.99 + 0.2 = 1.091 -> 1.0
    assert F.hebbian_update(0.99, 0.1, 0.2, 1, 1.0) == 1.0


def test_temporal_decay_in_days():
    # Δt = 60 days, τ = 60 days -> e^-1 = 0.367879 ; future (Δt < 0) -> 1
    day = 86400.0
    assert F.temporal_decay(60 * day, 60.0) == pytest.approx(math.exp(-1))
    assert F.temporal_decay(-5 * day, 60.0) == pytest.approx(1.0)


def test_floored_decay():
    # floor 0.5: 0.5 + 0.5·e^-1 = 0.5 + 0.18394 = 0.68394 ; Δt = 0 -> 1 ; Δt = ∞ -> 0.5
    day = 86400.0
    assert F.floored_decay(60 * day, 60.0, 0.5) == pytest.approx(0.5 + 0.5 * math.exp(-1))
    assert F.floored_decay(0.0, 60.0, 0.5) == pytest.approx(1.0)
    assert F.floored_decay(1e12, 60.0, 0.5) == pytest.approx(0.5)


def test_base_activation_paper_form():
    # (sim + α·kw)·decay = (0.8 + 0.5·0.4)·0.5 = (0.8 + 0.2)·0.5 = 0.5
    assert F.base_activation(0.8, 0.4, 0.5, 0.5) == pytest.approx(0.5)


def test_standardize():
    # x = [1, 2, 3]: mean 2, population std sqrt(2/3) = 0.816497 -> [-1.224745, 0, 1.224745]
    z = F.standardize(np.array([1.0, 2.0, 3.0]))
    assert z == pytest.approx([-1.224745, 0.0, 1.224745], abs=1e-6)
    # constant input has no spread: all zeros, not NaN
    assert F.standardize(np.array([4.0, 4.0])) == pytest.approx([0.0, 0.0])
    assert len(F.standardize(np.array([]))) == 0


def test_hybrid_relevance_and_base():
    # r = z_sim + α·z_kw + σ·spk = 1.0 + 0.5·2.0 + 1.0·1 = 3.0 ; and 0.2 + 0.5·(-1) + 0 = -0.3
    r = F.hybrid_relevance(np.array([1.0, 0.2]), np.array([2.0, -1.0]), np.array([1.0, 0.0]),
                           0.5, 1.0)
    assert r == pytest.approx([3.0, -0.3])
    # S_base = max(r, 0)·d = 3.0·0.5 = 1.5 ; max(-0.3, 0)·1 = 0
    assert F.hybrid_base(r, np.array([0.5, 1.0])) == pytest.approx([1.5, 0.0])


def test_context_activation_mean_of_best():
    # best 2 of [0.5, 2.0, 1.0] are 2.0 and 1.0 -> mean 1.5 ; empty -> 0
    assert F.context_activation(np.array([0.5, 2.0, 1.0]), 2) == pytest.approx(1.5)
    assert F.context_activation(np.array([0.5]), 2) == pytest.approx(0.5)
    assert F.context_activation(np.array([]), 2) == 0.0


def test_spread_activation_adds_beta_weighted_sources():
    # S(2) = 0.1 + β·(S(0)·w02 + S(1)·w12) = 0.1 + 0.5·(0.8·0.5 + 0.6·0.25) = 0.1 + 0.5·0.55 = 0.375
    base = np.array([0.8, 0.6, 0.1])
    out = F.spread_activation(base, np.array([0, 1]), np.array([2, 2]), np.array([0.5, 0.25]), 0.5)
    assert out == pytest.approx([0.8, 0.6, 0.375])
    assert base[2] == 0.1  # input untouched


def test_keyword_overlap_and_idf():
    # weights {a: 2, b: 1, c: 1}; doc has a and c -> (2 + 1) / 4 = 0.75
    assert F.keyword_overlap({"a": 2.0, "b": 1.0, "c": 1.0}, {"a", "c"}) == pytest.approx(0.75)
    assert F.keyword_overlap({}, {"a"}) == 0.0
    # idf(N=10, df=1) = ln(1 + (10 - 1 + 0.5)/(1 + 0.5)) = ln(1 + 6.3333) = ln(7.3333) = 1.99243
    assert F.idf(10, 1) == pytest.approx(math.log(1 + 9.5 / 1.5))
    assert F.idf(10, 1) == pytest.approx(1.99243, abs=1e-5)
    # a term in every doc still has a small positive idf: ln(1 + 0.5/10.5) = 0.04652
    assert F.idf(10, 10) == pytest.approx(0.04652, abs=1e-5)


def test_bm25_term():
    # tf=2, idf=1.5, len=10, avg=5, k1=1.5, b=0.75:
    # norm = 1 - 0.75 + 0.75·10/5 = 0.25 + 1.5 = 1.75 ; denom = 2 + 1.5·1.75 = 4.625
    # 1.5·2·2.5 / 4.625 = 7.5 / 4.625 = 1.621622
    assert F.bm25_term(2, 1.5, 10, 5, 1.5, 0.75) == pytest.approx(1.621622, abs=1e-6)
    assert F.bm25_term(0, 1.5, 10, 5) == 0.0


def test_weighted_degree():
    # 0.5 + 0.25 + 0.125 = 0.875
    assert F.weighted_degree([0.5, 0.25, 0.125]) == pytest.approx(0.875)


def test_association_beyond_the_chat_chain():
    # chain links 0.5 (temporal only) -> 0, 0.7 (temporal + 0.2 learned) -> 0.2; a semantic
    # link of 0.35 outside the chain stays 0.35: A = 0 + 0.2 + 0.35 = 0.55
    w = F.beyond_chain([0.5, 0.7, 0.35], [True, True, False], 0.5)
    assert w.tolist() == pytest.approx([0.0, 0.2, 0.35])
    assert F.weighted_degree(w) == pytest.approx(0.55)


def test_recency_and_frequency():
    # exp(-24/24) = e^-1 ; never retrieved -> 0
    r = F.recency(np.array([24.0, 0.0]), never=np.array([False, True]))
    assert r == pytest.approx([math.exp(-1), 0.0])
    # log1p(3)/log1p(1 + 1) = ln 4 / ln 3 = 1.386294 / 1.098612 = 1.261860
    assert F.frequency(np.array([3.0]), 1.0) == pytest.approx([1.261860], abs=1e-6)


def test_association_query_specificity():
    q = np.array([1.0, 0.0])
    # one query recalled it: centroid = q -> 1.0 ; two orthogonal queries: c̄ = (0.5, 0.5) -> 0.5
    # a memory recalled by opposite queries only: c̄ = (-1, 0) -> clipped to 0
    c = np.array([[1.0, 0.0], [0.5, 0.5], [-1.0, 0.0]])
    assert F.association(q, c) == pytest.approx([1.0, 0.5, 0.0])


def test_connection():
    # log1p(3)·exp(-168/168) = 1.386294·0.367879 = 0.509989
    assert F.connection(3, 168.0) == pytest.approx(math.log(4) * math.exp(-1))


def test_streaming_score():
    # cos² (1 + tanh(b)): 0.5²·(1 + tanh 0) = 0.25 ; 0.5²·(1 + tanh 1) = 0.25·1.761594 = 0.440399
    # negative cosine gates to 0
    s = F.streaming_score(np.array([0.5, 0.5, -0.7]), np.array([0.0, 1.0, 3.0]))
    assert s == pytest.approx([0.25, 0.440399, 0.0], abs=1e-6)


def test_softmax_and_mmr():
    # softmax([1, 0]/0.5) = [e², 1]/(e² + 1) = [0.880797, 0.119203]
    assert F.softmax(np.array([1.0, 0.0]), 0.5) == pytest.approx([0.880797, 0.119203], abs=1e-6)
    assert len(F.softmax(np.array([]), 1.0)) == 0
    # MMR: 0.8·(1 - 0.5·0.6) = 0.8·0.7 = 0.56 ; negative similarity counts as 0 -> 0.8
    assert F.mmr_value(np.array([0.8, 0.8]), np.array([0.6, -0.3]), 0.5) == pytest.approx([0.56, 0.8])


def test_reciprocal_rank_fusion():
    # doc 7: 1/(60+1) + 1/(60+2) = 0.016393 + 0.016129 = 0.032522 ; doc 8: 1/61 ; doc 9: 1/62
    out = F.reciprocal_rank_fusion([[7, 9], [8, 7]], 60)
    assert out[7] == pytest.approx(1 / 61 + 1 / 62)
    assert out[8] == pytest.approx(1 / 61)
    assert out[9] == pytest.approx(1 / 62)


def test_statements_first_in_a_memory_search():
    # "pet": the question at 0.52, the statement at 0.43 -> 0.52 and 0.53: the statement
    # first; a statement far below stays below (0.30 + 0.1 = 0.40 < 0.52); -inf stays
    s = F.statements_first(np.array([0.52, 0.43, 0.30, -np.inf]),
                           np.array([False, True, True, True]))
    assert s[:3] == pytest.approx([0.52, 0.53, 0.40]) and s[3] == -np.inf


def test_nearest_by_meaning_when_a_search_matches_nothing():
    # best 0.28: bar = max(0.22, 0.28 - 0.06) = 0.22 -> 0.28, 0.25, 0.24 (0.21 and 0.10
    # under it); nearest first
    cos = np.array([0.10, 0.28, 0.25, 0.21, 0.24])
    assert F.nearest_by_meaning(cos).tolist() == [1, 2, 4]
    assert F.nearest_by_meaning(cos, k=2).tolist() == [1, 2]
    # a best 0.33 raises the bar to 0.27: 0.28 stays, 0.25 goes
    cos = np.array([0.33, 0.28, 0.25])
    assert F.nearest_by_meaning(cos).tolist() == [0, 1]
    # nothing over the floor ("weather" against a life's statements): nothing offered
    assert len(F.nearest_by_meaning(np.array([0.13, 0.21, 0.12]))) == 0
    assert len(F.nearest_by_meaning(np.zeros(0))) == 0


def test_search_score_meaning_plus_keywords():
    cos = np.array([0.44, 0.47, 0.10, 0.30, 0.16])
    bm25 = np.array([0.0, 0.0, 0.0, 2.0, 4.0])
    s = F.search_score(cos, bm25)
    # cut-off: max(0.35, 0.47 - 0.2) = 0.35 -> rows 0 and 1 match by meaning; rows 3 and 4
    # by keyword: 0.30 + 0.5·2/4 = 0.55, 0.16 + 0.5·4/4 = 0.66; row 2 does not match
    assert s[:2] == pytest.approx([0.44, 0.47])
    assert s[3:] == pytest.approx([0.55, 0.66])
    assert s[2] == -np.inf
    # a close best match raises the cut-off: min(max(0.35, 0.66 - 0.2), 0.4) = 0.40 drops
    # cos 0.39 and 0.35, and keeps 0.40 (0.46 without the sure bar, which dropped it too)
    s = F.search_score(np.array([0.66, 0.40, 0.39, 0.35]), np.zeros(4))
    assert s[:2] == pytest.approx([0.66, 0.40]) and np.isinf(s[2:]).all()
    # a best match further from the floor does not raise it past 0.4: "allergy" against a
    # question that echoes it (0.71) and the statements it is about (0.45, 0.435)
    s = F.search_score(np.array([0.71, 0.45, 0.435, 0.17]), np.zeros(4))
    assert s[:3] == pytest.approx([0.71, 0.45, 0.435]) and np.isinf(s[3])
    # a weak best match: max(0.35, 0.37 - 0.2) = 0.35 keeps 0.36, drops 0.34
    s = F.search_score(np.array([0.37, 0.36, 0.34]), np.zeros(3))
    assert s[:2] == pytest.approx([0.37, 0.36]) and np.isinf(s[2])
    # nothing near the floor: no match at all
    assert np.isinf(F.search_score(np.array([0.19, 0.13]), np.zeros(2))).all()
    assert len(F.search_score(np.zeros(0), np.zeros(0))) == 0
    # a stored answer with every keyword matches at its own score (cos 0.13, no bm25)
    s = F.search_score(np.array([0.19, 0.13]), np.zeros(2), in_answer=np.array([False, True]))
    assert np.isinf(s[0]) and s[1] == pytest.approx(0.13)


def test_running_cost_learns_a_busy_machine_fast():
    assert F.running_cost(1.0, 2.0) == pytest.approx(1.6)  # 1 + 0.6·1
    assert F.running_cost(1.0, 0.0) == pytest.approx(0.7)  # 1 − 0.3·1
    assert F.running_cost(0.5, 0.5) == 0.5


def test_swap_pause_priced_from_what_things_cost_now():
    # 40 new tokens at 2 ms each measured when a token took 20 ms; now a token takes 40 ms:
    # 40 · 0.002 · 2 = 0.16 s, plus a fixed part of 1.5 token times = 0.06 s
    assert F.swap_pause_s(40, 0.002, 0.020, 0.040, 1.5) == pytest.approx(0.22)
    # prefetched (no new tokens), a shift measured at 6 token times: 0.24 s
    assert F.swap_pause_s(0, 0.002, 0.020, 0.040, 6.0) == pytest.approx(0.24)


def test_bar_share_splits_what_is_left_of_the_bar_by_expected_cost():
    # at the start, reading expected to take 6 s of 60 s: a tenth of the bar
    assert F.bar_share(0.0, 6.0, 54.0) == pytest.approx(0.1)
    # at 40 %, embedding expected 45 s against 5 s of writing: 0.6 · 45/50 = 0.54
    assert F.bar_share(0.4, 45.0, 5.0) == pytest.approx(0.54)
    # the last stage gets the rest; nothing expected of any: the rest too
    assert F.bar_share(0.7, 3.0, 0.0) == pytest.approx(0.3)
    assert F.bar_share(0.7, 0.0, 0.0) == pytest.approx(0.3)
    assert F.bar_share(1.2, 1.0, 1.0) == 0.0  # never past the end


# ------------------------------------------------------- learning rules (issue #16) ---
def test_hebbian_update_takes_a_rule_delta_and_never_goes_below_zero():
    # Δ = -0.1 on w = 0.4 written 1 step ago: 0.9·0.4 - 0.1 = 0.26
    assert F.hebbian_update(0.4, 0.1, -0.1, 1, 1.0) == pytest.approx(0.26)
    # Δ = -0.5: 0.36 - 0.5 < 0 -> 0
    assert F.hebbian_update(0.4, 0.1, -0.5, 1, 1.0) == 0.0


def test_picked_up_counts_memory_words_the_answer_adds():
    memory = {"adopted", "puppy", "biscuit"}
    message = {"puppy", "walk"}
    answer = {"biscuit", "puppy", "park"}
    # M ∩ A = {biscuit, puppy}; puppy was in the message -> {biscuit}: 1
    assert F.picked_up(memory, message, answer) == 1
    assert F.picked_up(memory, message, {"park"}) == 0


def test_restated_memory_is_used_when_the_answer_speaks_of_it():
    memory = {"pixel", "likes", "long", "walks"}
    message = {"pixel", "long", "walks"}  # "Does Pixel like long walks?"
    # |M ∩ Q| = 3 ≥ 0.75·4 = 3 and ≥ 2; the answer says {pixel, long, walks}: 3 ≥ 2
    assert F.restated(memory, message, {"yes", "pixel", "loves", "long", "walks"})
    # the answer says one of its words: not enough
    assert not F.restated(memory, message, {"pixel", "beatles"})
    # |M ∩ Q| = 2 < 0.75·4 = 3: the message asks about something else
    assert not F.restated(memory, {"pixel", "walks", "vet"}, {"pixel", "walks"})
    # a one-word memory never counts as restated (|M ∩ Q| = 1 < 2)
    assert not F.restated({"pixel"}, {"pixel"}, {"pixel"})
    # and picked_up alone would have said 0: nothing beyond the message ("likes" unsaid)
    assert F.picked_up(memory, message, {"yes", "pixel", "loves", "long", "walks"}) == 0


def test_activation_strength_scales_by_the_best_score():
    # [2, 1, -1] -> [2/2, 1/2, 0/2] = [1, 0.5, 0]
    assert F.activation_strength([2.0, 1.0, -1.0]) == pytest.approx([1.0, 0.5, 0.0])
    # nothing positive: all 1
    assert F.activation_strength([0.0, -1.0]) == pytest.approx([1.0, 1.0])
    assert len(F.activation_strength([])) == 0


def test_coactivation_delta():
    # η·a_i·a_j = 0.02·1·0.5 = 0.01
    assert F.coactivation_delta(1.0, 0.5, 0.02) == pytest.approx(0.01)


def test_pmi_delta_damps_hubs():
    # n_i = 4, n_j = 9, n̄ = 3: √36 = 6 -> 0.02·3/6 = 0.01
    assert F.pmi_delta(0.02, 4, 9, 3.0) == pytest.approx(0.01)
    # rare pair (1, 1) with n̄ = 3: min(1, 3/1) = 1 -> η
    assert F.pmi_delta(0.02, 1, 1, 3.0) == pytest.approx(0.02)
    # n below 1 counts as 1: √(1·4) = 2, n̄ = 1 -> 0.02·1/2 = 0.01
    assert F.pmi_delta(0.02, 0, 4, 1.0) == pytest.approx(0.01)


def test_unused_penalty():
    # -ρ·η = -0.5·0.02 = -0.01
    assert F.unused_penalty(0.02, 0.5) == pytest.approx(-0.01)


def test_contrast_ratio():
    # black on white: (1 + 0.05) / (0 + 0.05) = 21
    assert F.contrast_ratio((1.0, 1.0, 1.0), (0.0, 0.0, 0.0)) == pytest.approx(21.0)
    # mid grey 0x80 = 0.50196: ((0.50196 + 0.055)/1.055)^2.4 = 0.21586 -> 1.05 / 0.26586 = 3.949
    grey = 128 / 255
    assert F.contrast_ratio((grey, grey, grey), (1.0, 1.0, 1.0)) == pytest.approx(3.949, abs=0.001)
    # symmetric, and 1 for a colour against itself
    assert F.contrast_ratio((1.0, 1.0, 1.0), (grey, grey, grey)) == F.contrast_ratio((grey, grey, grey), (1.0, 1.0, 1.0))
    assert F.contrast_ratio((0.2, 0.4, 0.6), (0.2, 0.4, 0.6)) == pytest.approx(1.0)
    # pure blue 0x0000ff: L = 0.0722 -> on black 0.1222 / 0.05 = 2.444
    assert F.contrast_ratio((0.0, 0.0, 1.0), (0.0, 0.0, 0.0)) == pytest.approx(2.444)


def test_forget_split():
    """Numbers from requests to forget, worked by hand (floor 0.35, tie 0.05, margin 0.1,
    maybe: at least 0.3 and best − 0.3)."""
    # "my sister lives in Lisbon": one clear winner; 0.47 < 0.90 − 0.3, not named
    assert F.forget_split([0.90, 0.47, 0.40]) == ([0], [])
    # two memories about as good (0.53 ≥ 0.55 − 0.05), clear of the next (0.53 − 0.14 ≥ 0.1)
    assert F.forget_split([0.55, 0.53, 0.14]) == ([0, 1], [])
    # not clear of the next (0.53 − 0.48 = 0.05 < 0.1): nothing sure, all three named
    assert F.forget_split([0.55, 0.53, 0.48]) == ([], [0, 1, 2])
    # a winner below the floor is only named; 0.2 is below both bars
    assert F.forget_split([0.33, 0.2]) == ([], [0])
    # clear, and the second reaches max(0.3, 0.62 − 0.3) = 0.32: named, not deleted
    assert F.forget_split([0.62, 0.45]) == ([0], [1])
    assert F.forget_split([0.36]) == ([0], [])
    assert F.forget_split([]) == ([], [])


def test_repeats():
    """Does a stored answer repeat a forgotten fact: at least min(told, max(2, ⌈told/3⌉))
    of the words the fact tells beyond the memory's own words, worked by hand."""
    # "What's my locker code?" + "My locker code is 4417": told = {4417}, 1 needed
    assert F.repeats(1, 1) and not F.repeats(0, 1)
    # two words: both (min(2, max(2, 1)) = 2)
    assert F.repeats(2, 2) and not F.repeats(1, 2)
    # "I started at a gym" + the locker fact: told = {locker, code, 4417}, 2 needed
    assert F.repeats(2, 3) and not F.repeats(1, 3)
    # six words: max(2, 2) = 2; seven: ⌈7/3⌉ = 3 (Ana's wedding, answered with 3 of them)
    assert F.repeats(2, 6) and not F.repeats(1, 6)
    assert F.repeats(3, 7) and not F.repeats(2, 7)
    assert F.repeats(4, 10) and not F.repeats(3, 10)
    assert not F.repeats(0, 0) and not F.repeats(3, 0)


def test_modularity_by_hand():
    """Two triangles joined by one edge, every weight 1: W = 7; each triangle holds 3 of it
    and a weighted degree of 2 + 2 + 3 = 7, so Q = 2·(3/7 − (7/14)²) = 0.357142…; all in
    one group: 7/7 − (14/14)² = 0; a graph without edges: 0."""
    from hela_desktop.formulas import modularity

    src, dst = [0, 1, 0, 3, 4, 3, 2], [1, 2, 2, 4, 5, 5, 3]
    assert abs(modularity([0, 0, 0, 1, 1, 1], src, dst, [1] * 7) - 2 * (3 / 7 - 0.25)) < 1e-12
    assert modularity([0] * 6, src, dst, [1] * 7) == 0.0
    assert modularity([0, 1], [], [], []) == 0.0
    # weights count: the bridge at 0.5 and the rest at 1 (W = 6.5; D = 6.5 each side)
    w = [1, 1, 1, 1, 1, 1, 0.5]
    assert abs(modularity([0, 0, 0, 1, 1, 1], src, dst, w) - 2 * (3 / 6.5 - 0.25)) < 1e-12
