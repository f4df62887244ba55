"""How long one reflective-consolidation pass takes over a realistic memory pool.

`bench_consolidation(n=1000)` builds a temporary store of `n` synthetic exchanges with
repeated themes (hobbies, work, family, food, health, travel, ...), written as a person
would chat over weeks: conversations of 6-12 turns that mix two or three themes.  Themed
questions are then asked and their retrieved sets co-activated (Hebbian updates, as the
chat loop does), so hubs exist.  Only the consolidation pass is timed, with the default
model and the default `ConsolidationParams` (a pass distils at most ``max_clusters``
clusters; the rest waits for the next idle pass).

``hela-desktop bench speed`` calls it; alone::

    python -m hela_desktop.cli.consolidation_speed --n 1000
"""

from __future__ import annotations

import random
import tempfile
import time
from pathlib import Path

from ..config import Settings
from ..consolidate import ConsolidationParams, consolidate, plan_clusters

DAY = 86400.0

THEMES: dict[str, dict] = {
    "hiking": {
        "user": ["I went hiking at {place} with {friend} last {day}.",
                 "Hiking up {place} took us {n} hours, the views were amazing.",
                 "I bought new hiking boots for the trail to {place}.",
                 "My knees hurt after the long hike at {place}."],
        "slots": {"place": ["Mount Rainier", "the Cascades", "Mount Baker", "Lake Serene"],
                  "friend": ["my dog Max", "Anna", "my brother Tom"]},
        "q": ["Where did I go hiking?", "Who do I hike with?"],
    },
    "cooking": {
        "user": ["I cooked {dish} for dinner tonight.", "I'm trying a new recipe for {dish}.",
                 "As a vegetarian I love making {dish} on {day}s.",
                 "My {dish} burned again, I need a better pan."],
        "slots": {"dish": ["chickpea curry", "spinach lasagna", "mushroom risotto", "dal"]},
        "q": ["What do I like to cook?", "What vegetarian dishes have I made?"],
    },
    "work": {
        "user": ["Work at the hospital was exhausting, I had a {n}-hour shift.",
                 "My manager {friend} asked me to cover another night shift.",
                 "We are short of nurses on the {place} ward.",
                 "I'm thinking about asking for a raise at the hospital."],
        "slots": {"friend": ["Linda", "Dr. Patel", "Mark"],
                  "place": ["cardiology", "emergency", "pediatric"]},
        "q": ["How is my job at the hospital?", "Who is my manager at work?"],
    },
    "family": {
        "user": ["My sister {friend} called from {place} today.",
                 "{friend} is visiting us next {day} with the kids.",
                 "My mom's birthday is coming up, I want to get her {dish}.",
                 "I miss my family in {place}."],
        "slots": {"friend": ["Sofia", "Maria"], "place": ["Lisbon", "Porto", "Madrid"],
                  "dish": ["flowers", "a cookbook", "a scarf"]},
        "q": ["Where does my sister live?", "When is my family visiting?"],
    },
    "running": {
        "user": ["I ran {n} kilometres this morning along the river.",
                 "Training for the {place} half marathon is going well.",
                 "My running time improved by {n} minutes.",
                 "I need new running shoes before the {place} race."],
        "slots": {"place": ["Seattle", "Portland", "Vancouver"]},
        "q": ["What race am I training for?", "How far did I run?"],
    },
    "reading": {
        "user": ["I'm reading {dish} and I can't put it down.",
                 "My book club meets on {day} to discuss {dish}.",
                 "I finished {dish} last night, what a great ending.",
                 "Can you recommend a book like {dish}?"],
        "slots": {"dish": ["Dune", "The Left Hand of Darkness", "Piranesi", "Circe"]},
        "q": ["What book am I reading?", "When does my book club meet?"],
    },
    "garden": {
        "user": ["The tomatoes in my garden are finally ripe.",
                 "I planted {dish} in the backyard this {day}.",
                 "Slugs ate my {dish} again.",
                 "My garden needs watering every day in this heat."],
        "slots": {"dish": ["basil", "lettuce", "zucchini", "strawberries"]},
        "q": ["What do I grow in my garden?", "What pests are in my garden?"],
    },
    "music": {
        "user": ["I practised guitar for {n} hours today.", "I'm learning {dish} on the guitar.",
                 "My guitar teacher {friend} says my chords are improving.",
                 "I want to play {dish} at my sister's wedding."],
        "slots": {"dish": ["Blackbird", "Wonderwall", "a Bach prelude"],
                  "friend": ["Carlos", "Jenny"]},
        "q": ["What song am I learning on guitar?", "Who is my guitar teacher?"],
    },
    "health": {
        "user": ["My allergies are bad this {day}, I keep sneezing.",
                 "The doctor said my blood pressure is a bit high.",
                 "I started taking vitamin D every morning.",
                 "I've been sleeping badly, only {n} hours a night."],
        "slots": {},
        "q": ["What did the doctor say about my health?", "How am I sleeping?"],
    },
    "travel": {
        "user": ["I'm planning a trip to {place} in the autumn.",
                 "Flights to {place} are expensive this year.",
                 "I want to visit the museums in {place}.",
                 "My passport expires before the {place} trip, I need to renew it."],
        "slots": {"place": ["Japan", "Iceland", "Peru", "Morocco"]},
        "q": ["Where am I travelling?", "What do I need before my trip?"],
    },
}
COMMON = {"day": ["Monday", "Saturday", "Sunday", "weekend", "Friday"],
          "n": ["two", "three", "five", "eight", "twelve"]}
REPLIES = ["That sounds great!", "Thanks for telling me.", "How did that feel?",
           "Good luck with it!", "I'll remember that.", "That must have been tiring.",
           "Nice, tell me more next time."]
SMALL_TALK = ["What's the weather like?", "Tell me a joke.", "What time is it in Tokyo?",
              "Thanks!", "Good morning!", "How are you today?"]


def synthetic_conversations(n: int, seed: int = 0) -> list[list[tuple[str, str]]]:
    """`n` exchanges in conversations of 6-12 turns, each about two or three themes."""
    rng = random.Random(seed)
    names = list(THEMES)
    convs: list[list[tuple[str, str]]] = []
    total = 0
    while total < n:
        themes = rng.sample(names, rng.choice([2, 3]))
        turns = []
        for _ in range(min(rng.randint(6, 12), n - total)):
            if rng.random() < 0.08:
                turns.append((rng.choice(SMALL_TALK), rng.choice(REPLIES)))
                continue
            th = THEMES[rng.choice(themes)]
            template = rng.choice(th["user"])
            slots = {**COMMON, **th["slots"]}
            text = template.format(**{k: rng.choice(v) for k, v in slots.items()})
            turns.append((text, rng.choice(REPLIES)))
        total += len(turns)
        convs.append(turns)
    return convs


def build_pool(engine, n: int, *, queries: int = 300, seed: int = 0,
               now: float | None = None) -> dict:
    """Ingest `n` synthetic exchanges (spread over ~90 days) and run `queries` themed
    retrievals with Hebbian co-activation.  Returns timing of the setup."""
    from ..memory import NewEpisode

    rng = random.Random(seed + 1)
    now = time.time() if now is None else now
    t0 = time.perf_counter()
    convs = synthetic_conversations(n, seed)
    t = now - 90 * DAY
    step = 90 * DAY / max(n, 1)
    batch = []
    for turns in convs:
        conv = engine.store.add_conversation("bench", at=t)
        for u, a in turns:
            t += step
            batch.append(NewEpisode(u, a, conversation_id=conv, created_at=t))
    engine.add_episodes(batch)
    ingest_s = time.perf_counter() - t0
    t1 = time.perf_counter()
    qs = [q for th in THEMES.values() for q in th["q"]]
    for _ in range(queries):
        rec = engine.retrieve(rng.choice(qs), k=6, now=now, with_text=False)
        engine.hebbian_update([r.episode_id for r in rec], now=now)
    return {"ingest_s": round(ingest_s, 2), "hebbian_s": round(time.perf_counter() - t1, 2)}


def bench_consolidation(n: int = 1000, *, queries: int = 300,
                        max_clusters: int | None = 16, llm=None, embedder=None,
                        seed: int = 0) -> dict:
    """Time one consolidation pass over `n` synthetic memories with the default model.

    `max_clusters`: the pass's cluster budget (the default of ``ConsolidationParams``;
    None distils every cluster).  `llm` / `embedder`: reuse loaded ones (default: load the
    bundled model and embedder).  Returns a dict: n, hubs, clusters, distilled, failed,
    items added/strengthened, pass_s (the timed pass), model_s, s_per_cluster,
    all_clusters_est_s (s_per_cluster × clusters), setup times, model name and device.
    """
    from ..embedder import Embedder
    from ..llm import LocalLLM
    from ..memory import MemoryEngine
    from ..store import Store

    own_llm = llm is None
    embedder = embedder or Embedder()
    llm = llm or LocalLLM.from_settings(Settings(), n_ctx=2048)
    try:
        with tempfile.TemporaryDirectory(prefix="hela-bench-consolidation-") as tmp:
            store = Store(Path(tmp))
            engine = MemoryEngine(store, embedder)
            setup = build_pool(engine, n, queries=queries, seed=seed)
            params = ConsolidationParams(max_clusters=max_clusters)
            clusters, hubs, _ = plan_clusters(store, engine.hela, params)
            t0 = time.perf_counter()
            rep = consolidate(engine, llm, params=params)
            pass_s = time.perf_counter() - t0
            done = rep.distilled + rep.failed
            per = pass_s / done if done else 0.0
            items = store.count_knowledge()
            sources = store.count_knowledge_sources()
            store.close()
        return {
            "n": n, "queries": queries, "hubs": hubs, "clusters": len(clusters),
            "distilled": rep.distilled, "failed": rep.failed, "remaining": rep.remaining,
            "added": rep.added, "strengthened": rep.strengthened, "rejected": rep.rejected,
            "knowledge_items": items, "episodes_covered": sources,
            "pass_s": round(pass_s, 2), "model_s": round(rep.model_seconds, 2),
            "s_per_cluster": round(per, 2),
            "all_clusters_est_s": round(per * len(clusters), 1),
            "max_clusters": max_clusters, "hub_degree": params.hub_degree,
            "model": getattr(llm, "name", "?"), "device": getattr(llm, "device", "?"),
            **setup,
        }
    finally:
        if own_llm:
            llm.close()


def bench_locomo_consolidated(path: str | Path, *, sample: int = 0, k: int = 10,
                              k_knowledge: int = 3, max_clusters: int | None = 30,
                              llm=None, embedder=None) -> dict:
    """Evidence recall on one LoCoMo conversation: HeLa retrieval vs. the same after
    consolidation (knowledge items cover their source turns), k slots each.

    Uses the public helpers of :mod:`hela_desktop.bench.locomo` (turn episodes, evidence
    normalisation, recall) without its learning loop: both methods retrieve cold, with the
    same engine, so the difference is the knowledge alone.  `max_clusters`: consolidation
    budget (None: every cluster).  Reports recall by category and the mean number of
    episodes each method covers (a knowledge item covers up to ``cluster_size`` turns).
    """
    import numpy as np

    from ..consolidate import consolidated_variant
    from ..embedder import Embedder
    from ..llm import LocalLLM
    from ..memory import MemoryEngine, NewEpisode
    from ..store import Store
    from .locomo import (
        CATEGORIES,
        SCORED,
        build_episodes,
        conversation_turns,
        evidence_recall,
        load_samples,
        normalize_evidence,
    )

    data = load_samples(Path(path))[sample]
    embedder = embedder or Embedder()
    own_llm = llm is None
    llm = llm or LocalLLM.from_settings(Settings(), n_ctx=2048)
    res: dict = {"sample_id": data.get("sample_id"), "k": k, "k_knowledge": k_knowledge}
    try:
        with tempfile.TemporaryDirectory(prefix="hela-locomo-consolidated-") as tmp:
            store = Store(Path(tmp))
            engine = MemoryEngine(store, embedder)
            turns = conversation_turns(data)
            eps = build_episodes(turns, "turn")
            convs: dict[int, int] = {}
            for s, e in eps:
                if s not in convs:
                    convs[s] = store.add_conversation(f"session {s}", at=e.created_at)
            batch = [NewEpisode(**{**e.__dict__, "conversation_id": convs[s]}) for s, e in eps]
            ids = engine.add_episodes(batch)
            dia_of = {eid: (ep.meta or {})["dia_ids"] for eid, ep in zip(ids, batch)}
            now = max(t.at for t in turns) + 86400.0
            qa = [q for q in data.get("qa", []) if int(q.get("category", 0)) in SCORED]

            def score(retrieve) -> dict:
                by_cat: dict[int, list[float]] = {c: [] for c in SCORED}
                covered_n = []
                for qi, q in enumerate(qa):
                    covered_eps = retrieve(str(q["question"]), now + 60.0 * qi)
                    covered_n.append(len(covered_eps))
                    covered = {d for e in covered_eps for d in dia_of.get(e, [])}
                    r, _ = evidence_recall(normalize_evidence(q.get("evidence", [])), covered)
                    by_cat[int(q["category"])].append(r)
                allr = [x for v in by_cat.values() for x in v]
                out = {"overall": round(100 * float(np.mean(allr)), 1)}
                for c, v in by_cat.items():
                    out[CATEGORIES[c]] = round(100 * float(np.mean(v)), 1) if v else 0.0
                out["episodes_covered"] = round(float(np.mean(covered_n)), 2)
                return out

            def hela(question: str, t: float) -> list[int]:
                return [r.episode_id for r in engine.retrieve(question, profile="hela", k=k,
                                                              now=t, with_text=False)]

            res["questions"] = len(qa)
            res["memories"] = len(ids)
            res["hela"] = score(hela)
            t0 = time.perf_counter()
            retr = consolidated_variant(
                engine, llm, k=k, k_knowledge=k_knowledge, profile="hela", max_passes=1,
                params=ConsolidationParams(max_clusters=max_clusters))
            res["consolidation_s"] = round(time.perf_counter() - t0, 1)
            rep = retr.report
            res["consolidation"] = {n: getattr(rep, n) for n in (
                "hubs", "clusters", "distilled", "failed", "added", "strengthened",
                "superseded", "rejected", "remaining")}
            res["knowledge_items"] = store.count_knowledge(live=True)
            res["hela+knowledge"] = score(retr)
            store.close()
    finally:
        if own_llm:
            llm.close()
    return res

