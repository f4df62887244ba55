"""Every formula of the memory engine, in one place.

Symbols follow the papers (see ``docs/spec`` summary in the README):

HeLa-Mem
    Hebbian update      w_ij <- (1 - λ)·w_ij + η·1[v_i, v_j ∈ K_t]      (capped)
                        (a learning rule may replace η by its own Δ_ij, floored at w = 0)
    lazy decay          w(t) = w(t0)·(1 - λ)^(t - t0)   (t counts retrieval steps)
    base activation     S_base(i) = (sim(q,i) + α·kw(q,i)) · exp(-Δt_i / τ)
    spreading           S(j) = S_base(j) + β·Σ_{i: S_base(i) > θ} S_base(i)·w_ij
    similarity          sim = (cos + 1) / 2
    hub degree          D(v) = Σ_j w_vj
    association degree  A(v) = Σ_j w'_vj,  w'_vj = max(0, w_vj - w_temporal) for j right
                        before or after v in its chat, else w_vj (forgetting: links
                        beyond the chat's own chain)

HeLa-Mem, hybrid scale (the ``hela`` profile)
    standardise         z(x) = (x - mean(x)) / std(x)   over the retrievable pool
    relevance           r(i) = z(cos)(i) + α·z(bm25)(i) + σ·1[speaker(i) named in q]
    base activation     S_base(i) = max(r(i), 0) · d(i),   d = f + (1 - f)·exp(-Δt_i/τ)
    context             C(c) = mean of the best n S_base in conversation c;
                        S(j) += γ·z(C)(conv(j))
    BM25 (Okapi)        Σ_t idf(t)·tf·(k1+1) / (tf + k1·(1 - b + b·len/avglen))

streaming-memory
    score               cos(q,m)² · (1 + tanh(Σ_f w_f·f))
    recency             exp(-h / 24), h = hours since last retrieval
    frequency           log1p(n) / log1p(avg + 1)
    association         max(0, cos(q, c̄_m)) · ‖c̄_m‖   (c̄_m: mean of the unit query vectors
                        that retrieved m; its length is the query-specificity factor)
    connection          log1p(count) · exp(-h / 168)
    selection           MMR value v_i = score_i·(1 - μ·max_j cos(i, j∈selected)); the
                        pick is argmax softmax(v / T) (reported as its probability)

Each function is tested on numbers worked out by hand in ``tests/test_formulas.py``.
"""

from __future__ import annotations

import math

import numpy as np

SECONDS_PER_DAY = 86400.0
SECONDS_PER_HOUR = 3600.0


# ---------------------------------------------------------------- HeLa-Mem -----------
def similarity(cos: np.ndarray | float) -> np.ndarray | float:
    """Map cosine similarity from [-1, 1] to [0, 1]: sim = (cos + 1) / 2."""
    return (cos + 1.0) / 2.0


def decayed_weight(w: float | np.ndarray, lam: float, steps: int | np.ndarray):
    """Lazy Hebbian decay: w·(1 - λ)^steps, for an edge last written `steps` updates ago."""
    return w * np.power(1.0 - lam, np.maximum(steps, 0))


def effective_weight(w, prior, steps, lam: float, cap: float):
    """The weight an edge has now: min(cap, prior + w·(1 - λ)^steps) — the structural prior
    plus the lazily decayed Hebbian weight, capped (scalars or arrays)."""
    return np.minimum(cap, prior + decayed_weight(w, lam, steps))


def learned_part(w, prior, steps, lam: float, cap: float):
    """The learned share of an edge's effective weight: effective − prior, never below 0
    (what the Hebbian weight adds on top of the structural prior, after the cap)."""
    return np.maximum(0.0, effective_weight(w, prior, steps, lam, cap) - prior)


def merge_learned(w_a: float, steps_a: int, w_b: float, steps_b: int, lam: float) -> bool:
    """Of two Hebbian weights written `steps_a` and `steps_b` steps ago, is b the stronger
    now (w_b·(1-λ)^steps_b > w_a·(1-λ)^steps_a)?  The merge rule keeps the stronger one."""
    return bool(decayed_weight(w_b, lam, steps_b) > decayed_weight(w_a, lam, steps_a))


def hebbian_update(w_stored: float, lam: float, eta: float, steps_since: int, cap: float) -> float:
    """One co-activation at the current step: min(cap, (1-λ)·w(t-1) + η), never below 0.

    `eta` is the step's change Δ: η for the published rule, or a learning rule's own Δ
    (`coactivation_delta`, `pmi_delta`, `unused_penalty`, which is negative).

    `w_stored` was written `steps_since` steps ago (steps_since >= 1 for an edge last
    written before this step); its value just before this step is
    w_stored·(1-λ)^(steps_since-1), and this step applies (1-λ) once more and adds η.
    """
    before = w_stored * (1.0 - lam) ** max(steps_since - 1, 0)
    return max(0.0, min(cap, (1.0 - lam) * before + eta))


def temporal_decay(delta_seconds: np.ndarray | float, tau_days: float):
    """exp(-Δt/τ) with Δt in seconds and τ in days; Δt < 0 (future) counts as 0."""
    dt_days = np.maximum(np.asarray(delta_seconds, dtype=np.float64), 0.0) / SECONDS_PER_DAY
    return np.exp(-dt_days / tau_days)


def floored_decay(delta_seconds: np.ndarray | float, tau_days: float, floor: float):
    """d = floor + (1 - floor)·exp(-Δt/τ): recency reorders, but never erases, old memories."""
    return floor + (1.0 - floor) * temporal_decay(delta_seconds, tau_days)


def standardize(x: np.ndarray) -> np.ndarray:
    """z(x) = (x - mean) / std; all zeros when x is constant (std = 0)."""
    x = np.asarray(x, dtype=np.float64)
    if len(x) == 0:
        return x.copy()
    sd = float(x.std())
    if sd <= 1e-12:
        return np.zeros_like(x)
    return (x - float(x.mean())) / sd


def hybrid_relevance(z_sim, z_kw, speaker, alpha: float, speaker_weight: float):
    """r = z(cos) + α·z(bm25) + σ·speaker_match."""
    return z_sim + alpha * z_kw + speaker_weight * speaker


def hybrid_base(relevance, decay):
    """S_base = max(r, 0)·d: only better-than-average memories carry activation."""
    return np.maximum(relevance, 0.0) * decay


def context_activation(base_values: np.ndarray, top: int) -> float:
    """C(c): mean of the `top` largest base activations of one conversation."""
    if len(base_values) == 0:
        return 0.0
    v = np.sort(np.asarray(base_values, dtype=np.float64))[::-1][: max(top, 1)]
    return float(v.mean())


def bm25_term(tf: float, idf_t: float, doc_len: float, avg_len: float,
              k1: float = 1.5, b: float = 0.75) -> float:
    """One term's Okapi BM25 contribution: idf·tf·(k1+1) / (tf + k1·(1 - b + b·len/avglen))."""
    if tf <= 0:
        return 0.0
    return idf_t * tf * (k1 + 1.0) / (tf + k1 * (1.0 - b + b * doc_len / max(avg_len, 1e-9)))


def base_activation(sim, kw, decay, alpha: float):
    """S_base = (sim + α·kw) · decay."""
    return (sim + alpha * kw) * decay


def spread_activation(
    base: np.ndarray,
    sources: np.ndarray,
    neighbours: np.ndarray,
    weights: np.ndarray,
    beta: float,
) -> np.ndarray:
    """S(j) = S_base(j) + β·Σ_i S_base(i)·w_ij for the (source i, neighbour j, w_ij) triples.

    `sources`, `neighbours` and `weights` are parallel arrays of edges (row indices into
    `base`); only sources with S_base(i) > θ should be passed.  Returns a new array.
    """
    out = base.astype(np.float64, copy=True)
    if len(sources):
        np.add.at(out, neighbours, beta * base[sources] * weights)
    return out


def keyword_overlap(query_terms: dict[str, float], doc_terms: set[str]) -> float:
    """IDF-weighted share of the query's terms found in the document, in [0, 1]."""
    total = sum(query_terms.values())
    if total <= 0:
        return 0.0
    return sum(w for t, w in query_terms.items() if t in doc_terms) / total


def idf(n_docs: int, df: int) -> float:
    """Okapi-style inverse document frequency, never negative: ln(1 + (N - df + .5)/(df + .5))."""
    return math.log(1.0 + (n_docs - df + 0.5) / (df + 0.5))


def weighted_degree(weights) -> float:
    """Hub degree D(v) = Σ_j w_vj."""
    return float(np.sum(weights))


def beyond_chain(weights, in_chain, temporal: float):
    """w' = max(0, w - w_temporal) where the link joins turns next to each other in a chat
    (`in_chain` true), else w: the association a link carries beyond the temporal link every
    turn has to its chat neighbours.  Summed per memory, the association degree A(v)."""
    w = np.asarray(weights, dtype=np.float64)
    return np.where(np.asarray(in_chain, dtype=bool), np.maximum(w - temporal, 0.0), w)


# --------------------------------------------------------- streaming-memory -----------
def recency(hours_since_retrieval: np.ndarray, never: np.ndarray | None = None, scale: float = 24.0):
    """exp(-h/24); memories never retrieved get 0 (no boost)."""
    r = np.exp(-np.maximum(hours_since_retrieval, 0.0) / scale)
    if never is not None:
        r = np.where(never, 0.0, r)
    return r


def frequency(counts: np.ndarray, mean_count: float) -> np.ndarray:
    """log1p(n) / log1p(avg + 1)."""
    return np.log1p(counts) / math.log1p(mean_count + 1.0)


def association(query: np.ndarray, centroids: np.ndarray) -> np.ndarray:
    """max(0, q·c̄): cos(q, c̄)·‖c̄‖ with q a unit vector and c̄ the mean unit query vector.

    ‖c̄‖ is 1 when one query (or identical queries) recalled the memory and shrinks toward
    0 as ever more different queries recall it — the query-specificity penalty.
    """
    return np.maximum(centroids @ query, 0.0)


def connection(count: float, hours_since: float, scale: float = 168.0) -> float:
    """Co-retrieval strength log1p(count)·exp(-h/168)."""
    return math.log1p(count) * math.exp(-max(hours_since, 0.0) / scale)


def streaming_score(cos: np.ndarray, boost: np.ndarray) -> np.ndarray:
    """cos² · (1 + tanh(boost)); negative cosines gate to 0."""
    c = np.maximum(cos, 0.0)
    return c * c * (1.0 + np.tanh(boost))


def softmax(scores: np.ndarray, temperature: float) -> np.ndarray:
    """Numerically stable softmax(score / T)."""
    if len(scores) == 0:
        return np.asarray(scores, dtype=np.float64)
    z = np.asarray(scores, dtype=np.float64) / max(temperature, 1e-9)
    z = z - z.max()
    e = np.exp(z)
    return e / e.sum()


def mmr_value(score, max_sim_to_selected, diversity: float):
    """MMR-style selection value: score_i · (1 - μ·max_j cos(i, j∈selected)).

    The penalty is relative, so it works at any score scale; selection takes the best value,
    which is also the most probable pick of softmax(value / T).
    """
    return score * (1.0 - diversity * np.maximum(max_sim_to_selected, 0.0))


# ------------------------------------------------------------- shared ---------------
def reciprocal_rank_fusion(rank_lists: list[list[int]], k: int = 60) -> dict[int, float]:
    """RRF: score(d) = Σ_lists 1 / (k + rank(d)), rank starting at 1."""
    out: dict[int, float] = {}
    for ranking in rank_lists:
        for r, doc in enumerate(ranking, start=1):
            out[doc] = out.get(doc, 0.0) + 1.0 / (k + r)
    return out


# ------------------------------------------------------------- memory search --------
def search_score(cos: np.ndarray, bm25: np.ndarray, *, min_cos: float = 0.35,
                 band: float = 0.2, sure_cos: float = 0.4, kw_weight: float = 0.5,
                 in_answer: np.ndarray | None = None) -> np.ndarray:
    """Memory search (browser, graph, `memories search`) by meaning plus keywords.

    score = cos + w·bm25 / max(bm25) — the keyword part is the share of the best keyword
    score, so it is in [0, w].  A memory matches when a keyword occurs in it (bm25 > 0) or
    when its meaning is close: cos ≥ min(max(min_cos, max(cos) − band), sure_cos), i.e.
    near the best match and above a floor (with the MiniLM embedder unrelated texts sit at
    cos 0–0.25), and always from `sure_cos` on: a one-word search sits at cos 0.43–0.49
    from the statements it is about ("allergy" / "I'm allergic to peanuts…"), while a
    question that echoes it sits at 0.7 ("What am I allergic to?"), and a band below the
    best alone had shown the question and hidden the fact.  A memory whose stored answer
    has every keyword (`in_answer`; the keyword index holds the user's words only) matches
    too, at its own score: a search for "4417" finds the answer that repeated a locker
    code.  The others get −inf.
    """
    cos = np.asarray(cos, dtype=np.float64)
    bm25 = np.asarray(bm25, dtype=np.float64)
    if len(cos) == 0:
        return cos.copy()
    top = float(bm25.max())
    kw = bm25 / top if top > 0 else np.zeros_like(bm25)
    near = by_meaning(cos, min_cos=min_cos, band=band, sure_cos=sure_cos)
    if in_answer is not None:
        near = near | np.asarray(in_answer, dtype=bool)
    return np.where(near | (bm25 > 0), cos + kw_weight * kw, -np.inf)


def by_meaning(cos: np.ndarray, *, min_cos: float = 0.35, band: float = 0.2,
               sure_cos: float = 0.4) -> np.ndarray:
    """The rows a memory search matches by meaning alone (`search_score`'s bar):
    cos ≥ min(max(min_cos, max(cos) − band), sure_cos)."""
    cos = np.asarray(cos, dtype=np.float64)
    if len(cos) == 0:
        return np.zeros(0, dtype=bool)
    return cos >= min(max(min_cos, float(cos.max()) - band), sure_cos)


def statements_first(score: np.ndarray, tells: np.ndarray, *, bonus: float = 0.1) -> np.ndarray:
    """A memory search's order: score + bonus·[the user's words state something].  A
    question echoes the search more than the statement it is about ("pet": "What's my
    dog's name?" at cos 0.52, "My dog is called Biscuit." at 0.43); what the user said
    about a thing comes first among matches about as close (−inf stays −inf)."""
    score = np.asarray(score, dtype=np.float64)
    return score + bonus * np.asarray(tells, dtype=np.float64)


def nearest_by_meaning(cos: np.ndarray, *, floor: float = 0.22, band: float = 0.06,
                       k: int = 3) -> np.ndarray:
    """When a memory search matches nothing, the memories nearest in meaning, offered as
    such: the rows with cos ≥ max(floor, max(cos) − band), at most `k`, nearest first.

    A one-word search sits at cos 0.22–0.35 from a statement it is about but does not name
    ("job" / "I work as a physiotherapist…" 0.28, "family" / "My sister Ines lives in
    Lyon." 0.29), under the search's own floor; unrelated statements sit at 0.10–0.21
    ("weather", "money"), so they bring nothing.  Indices into `cos`.
    """
    cos = np.asarray(cos, dtype=np.float64)
    if len(cos) == 0 or k <= 0:
        return np.zeros(0, dtype=np.int64)
    bar = max(floor, float(cos.max()) - band)
    order = np.argsort(-cos, kind="stable")
    return np.asarray([int(i) for i in order if cos[i] >= bar][:k], dtype=np.int64)


# ------------------------------------------------------------ relevance gate ---------
def evidence_bar(personal: bool, best_similarity: float, personal_min: float,
                 general_min: float, relative_margin: float) -> float:
    """The similarity a statement needs to enter the prompt:
    max(absolute floor, best candidate − margin); the floor is `personal_min` for a message
    about the user's own life and `general_min` for any other request."""
    floor = personal_min if personal else general_min
    return max(floor, best_similarity - relative_margin)


def named_bar(best_named: float, named_min: float, general_min: float,
              relative_margin: float) -> float:
    """The bar for a statement that names someone or something the message names: a
    personal question's (`evidence_bar`, floor `named_min`) within the margin of the best
    statement naming the same, and never above that best one: the message is about that
    part of the user's life, so the statement nearest it enters however far the embedder
    puts it (QA pass 50a: "How old is Dev?" and "Our son Dev is 7 and he has coeliac
    disease…" at cosine 0.13, under the floor of 0.15: nothing was recalled)."""
    return min(evidence_bar(True, best_named, named_min, general_min, relative_margin),
               best_named)


def memory_bar(bar: float, statement: bool, keyword_hit: bool, keyword_relief: float,
               named_bar: float | None = None, topic_bar: float | None = None) -> float:
    """The bar for one memory: a memory whose user words state nothing (only a request or a
    question) never enters (∞) — shown as the user's words alone, it would tell the model
    nothing — unless it carries another assistant's imported answer (`topic_bar` given):
    then it is evidence about a topic, not about the user's life, and needs `topic_bar`
    (a task's or general question's bar) whatever the message; a keyword shared with the
    message lowers the bar by `keyword_relief`; a statement that names someone or something
    the message names (`named_bar` given) needs at most `named_bar` (the message is about
    that part of the user's life)."""
    if not statement:
        if topic_bar is None:
            return math.inf
        return topic_bar - keyword_relief if keyword_hit else topic_bar
    need = bar - keyword_relief if keyword_hit else bar
    return need if named_bar is None else min(need, named_bar)


def support_share(claim_words: list[str], source_words: set[str]) -> float:
    """Share of a claim's content words found in its sources' words (0 when it has none)."""
    if not claim_words:
        return 0.0
    return sum(w in source_words for w in claim_words) / len(claim_words)
# ------------------------------------------------------------- measured costs --------
def running_cost(old: float, new: float, up: float = 0.6, down: float = 0.3) -> float:
    """A running measurement of a cost: old + a·(new − old), with a = `up` when the new
    figure is higher (a machine that gets busy is learnt fast) and `down` when lower."""
    return old + (up if new > old else down) * (new - old)


def swap_pause_s(tokens: int, prefill_s: float, prefill_token_s: float, token_s: float,
                 pause_tokens: float) -> float:
    """What a swap is expected to pause an answer for, priced from what things cost now:
    its new tokens at the measured prefill cost per token, scaled by how much slower a token
    is now (token_s) than when that was measured (prefill_token_s), plus the measured fixed
    part (cells copied in, the last token re-run, a shift) in units of token_s."""
    return tokens * prefill_s * token_s / max(prefill_token_s, 1e-9) + pause_tokens * token_s


def bar_share(position: float, this_cost: float, rest_cost: float) -> float:
    """The part of a progress bar a stage gets as it starts: what is left of the bar
    (1 − position) in proportion to the stage's expected cost against that of the stages
    still to come (the whole rest when nothing is expected of them)."""
    left = max(0.0, 1.0 - position)
    total = this_cost + rest_cost
    return left if total <= 0 else left * max(this_cost, 0.0) / total


# ------------------------------------------------------- learning rules (issue #16) ---
# Variants of the Hebbian increment Δ_ij that replaces η in `hebbian_update`, measured by
# `bench locomo`'s lived replay (hela_desktop/bench/lived.py).
def picked_up(memory_words: set[str], message_words: set[str], answer_words: set[str]) -> int:
    """How many content words an answer took from a memory that the message did not hold:
    |(M ∩ A) \\ Q|.  A turn *used* a memory when this is at least 1."""
    return len((memory_words & answer_words) - message_words)


RESTATED_SHARE = 0.75  # of a memory's content words in the message: it asks about that memory
RESTATED_ECHO = 2  # of those words an answer repeats to have used it


def restated(memory_words: set[str], message_words: set[str], answer_words: set[str]) -> bool:
    """A memory the message restates, used by the answer: |M ∩ Q| ≥ ¾·|M| and ≥ 2 (the
    message asks about that very memory, "Does Pixel like long walks?" of "Pixel likes long
    walks."), and |M ∩ A| ≥ 2 (the answer speaks of it).  Such a memory has nearly nothing
    left for `picked_up` to count, however squarely the answer rests on it."""
    shared = len(memory_words & message_words)
    return (shared >= RESTATED_ECHO and shared >= RESTATED_SHARE * len(memory_words)
            and len(memory_words & answer_words) >= RESTATED_ECHO)


def modularity(groups, src, dst, weight) -> float:
    """Weighted modularity of a grouping of a graph's nodes (each edge once, undirected):
    Q = Σ_c [ W_c / W − (D_c / 2W)² ], W the total edge weight, W_c the weight of the edges
    inside group c, D_c the weighted degree of its nodes.  0 for a graph without edges."""
    groups = np.asarray(groups, dtype=np.int64)
    src, dst = np.asarray(src, dtype=np.int64), np.asarray(dst, dtype=np.int64)
    w = np.asarray(weight, dtype=np.float64)
    total = float(w.sum())
    if total <= 0 or not len(groups):
        return 0.0
    inside = np.bincount(groups[src], weights=w * (groups[src] == groups[dst]),
                         minlength=int(groups.max()) + 1)
    degree = np.bincount(groups[src], weights=w, minlength=int(groups.max()) + 1) + \
        np.bincount(groups[dst], weights=w, minlength=int(groups.max()) + 1)
    return float((inside / total - (degree / (2 * total)) ** 2).sum())


def activation_strength(scores) -> np.ndarray:
    """a_i = max(s_i, 0) / max_j s_j over one co-active set, in [0, 1]; every a_i = 1 when
    no score is positive (scores on different scales then say nothing)."""
    s = np.maximum(np.asarray(scores, dtype=np.float64), 0.0)
    top = float(s.max()) if len(s) else 0.0
    if top <= 0:
        return np.ones_like(s)
    return s / top


def coactivation_delta(a_i: float, a_j: float, eta: float) -> float:
    """Reinforcement by co-activation strength: Δ_ij = η·a_i·a_j (a in [0, 1])."""
    return eta * a_i * a_j


def pmi_delta(eta: float, n_i: float, n_j: float, n_mean: float) -> float:
    """PMI-like increment: Δ_ij = η·min(1, n̄ / √(n_i·n_j)), n = how often a memory was active
    (at least 1), n̄ their mean: a pair of memories active more often than the average (hubs)
    learns less per co-activation, never more than η."""
    n = math.sqrt(max(n_i, 1.0) * max(n_j, 1.0))
    return eta * min(1.0, max(n_mean, 1.0) / n)


def unused_penalty(eta: float, rho: float) -> float:
    """Anti-Hebbian change for a pair that was co-active but not used together: Δ = −ρ·η."""
    return -rho * eta



DRIFT_MIN_WORDS = 4  # shorter is not judged (a name, a number, "Oui !", "Lisbon, Portugal.")
DRIFT_PARAGRAPH_WORDS = 12  # a paragraph this long may drift alone (its foreign words)


def drifted(english: float, foreign: float, words: int, user_english: float, *,
            user_foreign: float = 1.0, min_words: int = DRIFT_MIN_WORDS, long_words: int = 12,
            low: float = 0.05, foreign_min: float = 0.3, user_min: float = 0.15,
            some_foreign: float = 0.2, scarce: float = 0.1) -> bool:
    """Did an answer drift out of the user's language?  The user writes English (their
    messages in the chat, pooled, have at least `user_min` English function words, or some
    and no foreign word at all, `user_foreign` = 0: "I'm Marta, a civil engineer in
    Rotterdam." has 1 in 7 and was answered in made-up Dutch, QA pass 28;
    `language.language_shares`) and the answer, of at least `min_words` words, does not:
    at least `foreign_min` of its words are foreign and more than are English, or, from
    `long_words` words on, under `low` are English whatever they are (made-up words, a list
    of names).  The small default model, primed by "Lisbon", answered in made-up Portuguese,
    and every later answer of the chat followed its own example; a user who writes
    Portuguese (English share near 0) is answered as they write.  (Set on the answers of
    two QA passes: the drifted ones had no English word in 12 or more, or 5 foreign words
    of 7 and 7 of 10 ("Eu não em forçá do míro Joana. I, para Joana."); English answers had
    0.17 to 0.54 English and at most one foreign word, a name.)  Or, from `long_words`
    words on, at least `some_foreign` foreign and under `scarce` English: made-up German
    with names, 26.5 % foreign and 5.9 % English over 60 words, passed both bars (QA pass
    34)."""
    writes_english = user_english >= user_min or (user_english > 0 and user_foreign == 0)
    if not writes_english or words < min_words:
        return False
    return (foreign >= foreign_min and foreign > english) or \
        (words >= long_words and (english < low or (foreign >= some_foreign
                                                     and english < scarce)))


def contrast_ratio(rgb_a: tuple[float, float, float], rgb_b: tuple[float, float, float]) -> float:
    """WCAG contrast ratio of two sRGB colours (channels 0..1): (L1 + 0.05) / (L2 + 0.05),
    L = 0.2126·R + 0.7152·G + 0.0722·B of the linearised channels (c/12.92 up to 0.03928,
    else ((c + 0.055)/1.055)^2.4); 1 (the same) to 21 (black on white)."""
    def lum(rgb: tuple[float, float, float]) -> float:
        r, g, b = (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    hi, lo = sorted((lum(rgb_a), lum(rgb_b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def forget_split(sims, *, floor: float = 0.35, tie: float = 0.05, margin: float = 0.1,
                 maybe_floor: float = 0.3, span: float = 0.3) -> tuple[list[int], list[int]]:
    """Which memories a request to forget names, from their cosines to it (best first):
    (sure, maybe), indices into `sims`.

    Sure: the best match and those within `tie` of it, when the best reaches `floor` and
    the group stands clear of the next by at least `margin` (the request says one thing,
    and these are it).  Maybe: the others that reach both `maybe_floor` and best − `span`
    (worth naming, not deleting).  Not separated: nothing is sure.  The constants were set
    on thirteen hand-written requests, not on a benchmark.
    """
    s = [float(x) for x in sims]
    if not s:
        return [], []
    group = [i for i, x in enumerate(s) if x >= s[0] - tie]
    after = [x for i, x in enumerate(s) if i not in group]
    clear = s[0] >= floor and (not after or min(s[i] for i in group) - max(after) >= margin)
    sure = group if clear else []
    bar = max(maybe_floor, s[0] - span)
    return sure, [i for i, x in enumerate(s) if i not in sure and x >= bar]


SUBJECT_PARTS_MOST = 9  # parts that dilute a memory's vector, at most counted


def subject_bar(same_subject_min: float, parts: int) -> float:
    """The cosine a correction needs with an older memory that tells `parts` things
    (`superseded.told_parts`: sentences, and clauses with a subject of their own) to be on
    its subject: ``same_subject_min / sqrt(n)``, n the parts counted up to
    `SUBJECT_PARTS_MOST`.  A memory's vector is about the mean of its parts', so one part
    of n unrelated ones is about 1/sqrt(n) as near to what speaks of it (QA pass 32: "We
    moved house last weekend, we now live in York." was 0.23 near a paragraph of four
    things that said "We live on Harehills Lane in Leeds", under the bar of 0.3).
    0.3 with 1 part: 0.3; with 4: 0.15; with 20: 0.1."""
    n = min(max(int(parts), 1), SUBJECT_PARTS_MOST)
    return float(same_subject_min) / math.sqrt(n)


def repeats(shared: int, told: int) -> bool:
    """Does a stored answer repeat a forgotten statement?  `told`: the statement's content
    words (stems) that the memory's own user words do not have (what the answer would add;
    "What's my locker code?" already names the locker code, so "My locker code is 4417"
    tells it only "4417"); `shared`: how many of those the answer has.  It repeats the
    statement when it has at least min(told, max(2, ⌈told / 3⌉)) of them: the whole of a
    one- or two-word fact, two of three to five, a third of a longer one ("Ana's wedding is
    on 14 June in Lisbon" has 3 of the 7 words "My sister Ana is getting married in Lisbon
    on 14 June 2027" tells beyond "When is Ana's wedding?").  One shared word of a longer
    fact is a topic ("code" in an answer about code editors), not the fact."""
    if told <= 0 or shared <= 0:
        return False
    return shared >= min(told, max(2, -(-told // 3)))
