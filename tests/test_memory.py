"""MemoryEngine on a real SQLite file and the real embedder: decay, spreading, priors, profiles."""

from __future__ import annotations

import math
from dataclasses import replace
from datetime import datetime, timezone

import numpy as np
import pytest

from hela_desktop import formulas as F
from hela_desktop.config import Settings
from hela_desktop.memory import PROFILES, MemoryEngine, NewEpisode, fit_budget
from hela_desktop.store import Store

DAY = 86400.0
T0 = datetime(2024, 1, 1, tzinfo=timezone.utc).timestamp()

FILLER = [
    "The weather was rainy all weekend so we stayed in.",
    "I baked sourdough bread and it came out dense.",
    "My laptop battery dies after two hours now.",
    "We watched a documentary about deep sea creatures.",
    "The train to work was delayed again this morning.",
    "I started learning to play chess online.",
    "Our neighbours are renovating their kitchen, very loud.",
    "I planted tomatoes and basil on the balcony.",
    "The museum had a new exhibit on ancient Egypt.",
    "I need to renew my passport before the summer.",
    "Yoga in the park every Sunday has been relaxing.",
    "The coffee shop downstairs changed its owners.",
]


def make_engine(tmp_path, embedder, **hela) -> MemoryEngine:
    s = Settings()
    s.hela = replace(s.hela, **hela)
    return MemoryEngine(Store(tmp_path / "mem.sqlite3"), embedder, s)


def add(engine: MemoryEngine, texts, *, at=T0, step=60.0, conversation_id=None, speaker=None):
    return engine.add_episodes([
        NewEpisode(t, "", created_at=at + i * step, conversation_id=conversation_id,
                   meta={"speaker": speaker} if speaker else None)
        for i, t in enumerate(texts)])


def test_profiles_listed_and_unknown_rejected(tmp_path, embedder):
    eng = make_engine(tmp_path, embedder)
    add(eng, FILLER[:4])
    for p in PROFILES:
        assert eng.retrieve("bread", profile=p, k=2, now=T0 + DAY), p
    with pytest.raises(ValueError):
        eng.retrieve("bread", profile="nope")


def test_lazy_decay_equals_eager_decay(tmp_path, embedder):
    """Edges store the step they were written at; reading them later must equal applying
    (1-λ) at every step in between, and a later co-activation must add η on top of that."""
    eng = make_engine(tmp_path, embedder, lam=0.1, eta=0.05, semantic_prior=False,
                      temporal_edge=0.0)
    a, b, c, d = add(eng, FILLER[:4])
    eng.hebbian_update([a, b], now=T0)  # step 1: w_ab = η = 0.05
    eager = 0.05
    for _ in range(7):  # steps 2..8 activate only c, d: w_ab decays eagerly by (1-λ) each
        eng.hebbian_update([c, d], now=T0)
        eager *= 1 - 0.1
    row = eng.store.edges_between([a, b])[(min(a, b), max(a, b))]
    _, _, w, prior, count, st, _ = row
    assert (w, prior, count, st) == (pytest.approx(0.05), 0.0, 1, 1)  # untouched since step 1
    # read lazily: 0.05·0.9^7 = 0.05·0.4782969 = 0.02391485
    assert eng.effective_weight(w, prior, st) == pytest.approx(eager)
    assert eager == pytest.approx(0.05 * 0.9 ** 7)
    # co-activate again at step 9: eager value decays once more, then + η
    eng.hebbian_update([a, b], now=T0)
    eager = eager * 0.9 + 0.05
    row = eng.store.edges_between([a, b])[(min(a, b), max(a, b))]
    assert row[2] == pytest.approx(eager) and row[4] == 2 and row[5] == 9
    # and c-d (written every step) matches the same recursion: η, then 0.9·w + η, ...
    w_cd = 0.0
    for _ in range(7):
        w_cd = w_cd * 0.9 + 0.05
    row = eng.store.edges_between([c, d])[(min(c, d), max(c, d))]
    # last written at step 8, read at step 9: one (1-λ)
    assert eng.effective_weight(row[2], row[3], row[5]) == pytest.approx(w_cd * 0.9)


def test_time_decay_changes_ranking_with_real_dates(tmp_path, embedder):
    eng = make_engine(tmp_path, embedder, semantic_prior=False)
    old, new = eng.add_episodes([
        NewEpisode("I adopted a grey cat called Miso.", "", created_at=T0),
        NewEpisode("I adopted a grey cat called Miso!", "", created_at=T0 + 300 * DAY),
    ])
    add(eng, FILLER, at=T0 + 10 * DAY)
    now = T0 + 301 * DAY
    for profile in ("hela", "hela-paper"):
        res = eng.retrieve("Which cat did I adopt?", profile=profile, k=2, now=now)
        assert [r.episode_id for r in res] == [new, old], profile
        rec = {r.episode_id: r.recency for r in res}
        p = eng.hela
        paper = math.exp(-301 / p.tau_days)
        want_old = paper if profile == "hela-paper" else p.decay_floor + (1 - p.decay_floor) * paper
        assert rec[old] == pytest.approx(want_old, rel=1e-6)
    # a memory from the future of `now` (Δt < 0) counts as fresh, never as boosted
    res = eng.retrieve("Which cat did I adopt?", profile="hela-paper", k=2, now=T0 + DAY)
    assert {r.episode_id: r.recency for r in res}[new] == pytest.approx(1.0)


def test_spreading_lifts_an_associated_memory_without_shared_words(tmp_path, embedder):
    eng = make_engine(tmp_path, embedder, semantic_prior=False, temporal_edge=0.0, beta=1.0,
                      context_weight=0.0, m=2)
    ana, job = add(eng, ["My sister Ana lives in Lisbon near the river.",
                         "She works nights as a marine biologist at the aquarium."])
    add(eng, ["My cousin lives in Porto by the sea.", "Where do you live these days?",
              "I live near the old harbour in Hamburg.", "Ana said hello yesterday."] + FILLER,
        at=T0 + DAY)
    for _ in range(40):  # recalled together many times: a strong Hebbian edge
        eng.hebbian_update([ana, job], now=T0)
    q = "Where does Ana live?"
    assert not set(F_words(q)) & set(F_words("She works nights as a marine biologist at the aquarium."))
    plain = eng.retrieve(q, profile="hela-nospread", k=3, now=T0 + 2 * DAY)
    assert job not in [r.episode_id for r in plain]
    res = eng.retrieve(q, profile="hela", k=3, now=T0 + 2 * DAY)
    lifted = [r for r in res if r.episode_id == job]
    assert lifted and lifted[0].path == "associative" and lifted[0].spread_from == ana
    assert res[0].episode_id == ana and res[0].path == "base"


def F_words(text: str) -> list[str]:
    from hela_desktop.memory import keywords

    return keywords(text)


def test_semantic_prior_and_temporal_edges_at_insert(tmp_path, embedder):
    eng = make_engine(tmp_path, embedder)
    conv = eng.store.add_conversation("chat", at=T0)
    a, b = add(eng, ["I love hiking in the mountains on weekends.",
                     "The quarterly tax forms are due next week."], conversation_id=conv)
    (c,) = add(eng, ["Hiking up mountains every weekend is what I love."], at=T0 + DAY)
    edges = {(r[0], r[1]): r for r in eng.store.edges_of([a, b, c])}
    # consecutive episodes of one conversation: the temporal prior
    assert edges[(a, b)][3] == pytest.approx(eng.hela.temporal_edge)
    # c (no conversation) is similar to a: prior = scale·cos
    cos = float(eng.index.emb[eng.index.pos[a]] @ eng.index.emb[eng.index.pos[c]])
    assert cos >= eng.hela.semantic_prior_min
    assert edges[(a, c)][3] == pytest.approx(eng.hela.semantic_prior_scale * cos, rel=1e-5)
    assert (b, c) not in edges  # not similar enough: no edge
    # cold: no learned weight yet, but spreading can already use the priors
    assert edges[(a, c)][2] == 0.0 and edges[(a, c)][4] == 0


def test_soft_delete_and_restore(tmp_path, embedder):
    eng = make_engine(tmp_path, embedder)
    ids = add(eng, ["My passport number ends in 42."] + FILLER[:5])
    pid = ids[0]
    eng.hebbian_update(ids[:2], now=T0)
    assert eng.retrieve("passport", k=1, now=T0)[0].episode_id == pid
    eng.delete_episode(pid)
    assert pid not in [r.episode_id for r in eng.retrieve("passport", k=6, now=T0)]
    assert eng.store.episode(pid).deleted_at is not None
    assert eng.store.edges_between(ids[:2])  # edges kept for a restore
    eng.reload_index()
    assert pid not in eng.index.pos
    used = eng.store.episode(pid).last_access
    eng.restore_episode(pid, now=T0 + 3600)
    assert eng.retrieve("passport", k=1, now=T0)[0].episode_id == pid
    # an undo is not use: the last use stays (pass 29); it is seen then, for the forgetting
    assert eng.store.episode(pid).last_access == used
    assert {c.id: c.seen_at for c in eng.store.forgetting_candidates()}[pid] >= T0 + 3600


def test_speaker_names_are_matched_by_field_and_stripped_from_the_query(tmp_path, embedder):
    eng = make_engine(tmp_path, embedder, semantic_prior=False)
    conv = eng.store.add_conversation("s1", at=T0)
    eng.add_episodes([
        NewEpisode("Caroline: I went to a pottery class yesterday.", "", created_at=T0,
                   conversation_id=conv, meta={"speaker": "Caroline"}),
        NewEpisode("Melanie: I went to a pottery class yesterday.", "", created_at=T0 + 60,
                   conversation_id=conv, meta={"speaker": "Melanie"}),
    ])
    codes, stripped = eng.named_speakers("What did Melanie's kids make at pottery?")
    assert codes == {eng._speakers["melanie"]}
    assert stripped == "What did kids make at pottery?"
    res = eng.retrieve("What class did Melanie take?", profile="hela-nospread", k=2, now=T0 + DAY)
    assert res[0].text.startswith("Melanie:") and res[0].extra["speaker"] == 1.0
    eng.reload_index()  # codes survive a reload (read back from meta)
    res = eng.retrieve("What class did Caroline take?", profile="hela-nospread", k=2, now=T0 + DAY)
    assert res[0].text.startswith("Caroline:")


def test_conversation_context_lifts_the_rest_of_a_relevant_conversation(tmp_path, embedder):
    eng = make_engine(tmp_path, embedder, semantic_prior=False, temporal_edge=0.0, beta=0.0)
    trip = eng.store.add_conversation("trip", at=T0)
    other = eng.store.add_conversation("other", at=T0)
    t = add(eng, ["We flew to Japan for our honeymoon in April.",
                  "Kyoto temples in spring were unforgettable for our honeymoon trip.",
                  "We also ate amazing ramen every single night."], conversation_id=trip)
    add(eng, FILLER[:6], conversation_id=other, at=T0 + DAY)
    add(eng, FILLER[6:], at=T0 + 2 * DAY, conversation_id=eng.store.add_conversation("x"))
    now = T0 + 3 * DAY
    q = "Tell me about the honeymoon"
    plain = eng.retrieve(q, profile="hela-nospread", k=20, now=now)
    ctx = eng.retrieve(q, profile="hela", k=20, now=now)
    rank = lambda res, e: [r.episode_id for r in res].index(e)  # noqa: E731
    assert rank(ctx, t[2]) < rank(plain, t[2])
    assert next(r for r in ctx if r.episode_id == t[2]).extra["context"] > 0


def test_streaming_profile_components(tmp_path, embedder):
    eng = make_engine(tmp_path, embedder, semantic_prior=False)
    ids = add(eng, ["I play the violin in a small orchestra.",
                    "I play the clarinet at jazz nights."] + FILLER[:6])
    vio, cla = ids[0], ids[1]
    now = T0 + DAY
    res = eng.retrieve("music instruments", profile="streaming", k=3, now=now)
    assert all(r.recency == 0.0 and r.extra["frequency"] == 0.0 for r in res)  # never retrieved
    # recalled by one query: association = cos(q, c̄)·‖c̄‖ = 1 for that same query
    q1 = eng.embed_query("Which instrument do I play in an orchestra?")
    rv = next(r for r in eng.retrieve("x", profile="streaming", k=8, now=now, query_vec=q1)
              if r.episode_id == vio)
    eng.record_access([rv], q1, now=now)
    r1 = next(r for r in eng.retrieve("x", profile="streaming", k=8, now=now, query_vec=q1)
              if r.episode_id == vio)
    assert r1.extra["association"] == pytest.approx(1.0, abs=1e-5)
    assert r1.recency == pytest.approx(1.0)  # exp(-0/24)
    # frequency: log1p(1)/log1p(mean+1), mean count = 1/8
    assert r1.extra["frequency"] == pytest.approx(math.log(2) / math.log1p(1 / 8 + 1))
    # query specificity: recalled by a second, different query -> ‖c̄‖ < 1, association drops
    q2 = eng.embed_query("What do I bake at the weekend?")
    eng.record_access([rv], q2, now=now)
    r2 = next(r for r in eng.retrieve("x", profile="streaming", k=8, now=now, query_vec=q1)
              if r.episode_id == vio)
    c = (q1 + q2) / 2
    assert r2.extra["association"] == pytest.approx(max(0.0, float(c @ q1)), abs=1e-5)
    assert r2.extra["association"] < r1.extra["association"] - 0.1
    # recency after 24 h: e^-1
    r3 = next(r for r in eng.retrieve("x", profile="streaming", k=8, now=now + DAY, query_vec=q1)
              if r.episode_id == vio)
    assert r3.recency == pytest.approx(math.exp(-1))
    # connection: co-retrieved with the violin memory 3 times -> log1p(3) when it is selected
    for _ in range(3):
        eng.hebbian_update([vio, cla], now=now)
    res = eng.retrieve("x", profile="streaming", k=8, now=now, query_vec=q1)
    order = [r.episode_id for r in res]
    if order.index(vio) < order.index(cla):
        rc = next(r for r in res if r.episode_id == cla)
        assert rc.extra["connection"] == pytest.approx(math.log1p(3))
    probs = [r.extra["probability"] for r in res]
    assert all(0 < p <= 1 for p in probs)


def test_fit_budget_skips_what_does_not_fit(tmp_path, embedder):
    from hela_desktop.events import Recall

    rs = [Recall(1, 1.0), Recall(2, 0.9), Recall(3, 0.8), Recall(4, 0.7)]
    cost = {1: 50, 2: 80, 3: 30, 4: 10}
    out = fit_budget(rs, 3, 100, lambda r: cost[r.episode_id])
    # 50 fits (50), 80 does not (130), 30 fits (80), 10 fits (90) -> cap 3 reached
    assert [r.episode_id for r in out] == [1, 3, 4] and [r.tokens for r in out] == [50, 30, 10]


def test_standardised_base_is_order_preserving_on_cosine(tmp_path, embedder):
    eng = make_engine(tmp_path, embedder, semantic_prior=False, alpha=0.0, decay_floor=1.0)
    add(eng, FILLER)
    q = eng.embed_query("gardening on the balcony")
    parts = eng.hybrid_base("gardening on the balcony", q, T0)
    z = F.standardize(parts["cos"])
    assert parts["relevance"] == pytest.approx(z)
    assert np.argmax(parts["base"]) == np.argmax(parts["cos"])


def test_large_pools_scan_in_half_precision_with_the_same_ranking():
    from hela_desktop.memory import HALF_PRECISION_FROM, MemoryIndex

    rng = np.random.default_rng(3)
    n = HALF_PRECISION_FROM + 500
    vecs = rng.standard_normal((n, 384)).astype(np.float32)
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    idx = MemoryIndex(384)
    for i, v in enumerate(vecs):
        idx.add(i + 1, v, 0.0)
    q = vecs[7] + 0.3 * vecs[11]
    q /= np.linalg.norm(q)
    exact = vecs @ q
    got = idx.similarity(q)
    assert got.dtype == np.float32 and got.shape == (n,)
    assert np.max(np.abs(got - exact)) < 5e-3
    assert list(np.argsort(-got)[:2]) == list(np.argsort(-exact)[:2]) == [7, 11]
    # several vectors in one scan (the gate's look for newer news): each column as alone
    two = idx.similarity(np.stack([q, vecs[3]], axis=1))
    assert two.shape == (n, 2) and np.max(np.abs(two[:, 0] - got)) < 5e-3
    assert int(np.argmax(two[:, 1])) == 3
    small = MemoryIndex(384)
    for i, v in enumerate(vecs[:50]):
        small.add(i + 1, v, 0.0)
    both = small.similarity(np.stack([q, vecs[3]], axis=1))
    assert both.shape == (50, 2) and np.allclose(both[:, 0], small.similarity(q))
    idx.remove(8)  # a change is seen by the next scan
    assert len(idx.similarity(q)) == n - 1


def test_paper_profile_spreads_along_the_same_edges(tmp_path, embedder):
    eng = make_engine(tmp_path, embedder, semantic_prior=False, temporal_edge=0.0,
                      paper_beta=1.0, m=2)
    ana, job = add(eng, ["My sister Ana lives in Lisbon near the river.",
                         "She works nights as a marine biologist at the aquarium."])
    add(eng, ["My cousin lives in Porto by the sea.", "I live near the old harbour in Hamburg."]
        + FILLER, at=T0 + DAY)
    for _ in range(40):
        eng.hebbian_update([ana, job], now=T0)
    res = eng.retrieve("Where does Ana live?", profile="hela-paper", k=3, now=T0 + 2 * DAY)
    lifted = [r for r in res if r.episode_id == job]
    assert lifted and lifted[0].spread > 0 and lifted[0].spread_from == ana
