"""``hela-desktop bench locomo FILE``: evidence recall on LoCoMo, every profile and baseline.

LoCoMo (Maharana et al., "Evaluating Very Long-Term Conversational Memory of LLM Agents",
ACL 2024; data CC BY-NC 4.0) is a set of long two-person conversations, each split into
dated sessions, with questions whose ``evidence`` lists the turns (``D<session>:<turn>``)
that hold the answer.  This benchmark needs no LLM judge: for every question it measures
which evidence turns each retrieval method put into the prompt.

How a run works, per conversation:

1. Every turn becomes one memory, stored through the app's own path
   (`MemoryEngine.add_episodes` with `NewEpisode`): text ``"<speaker>: <text>"`` plus
   ``" [shares a photo: <blip_caption>]"`` for images, one conversation row per session,
   ``created_at`` = the session's date-time (parsed) plus the turn's position, and
   ``meta = {"dia_ids": [...], "speaker": ..., "session": N}``.  (``--granularity pair``
   stores two consecutive turns per memory instead; it then covers both dia_ids and
   costs both turns' tokens.)
2. Questions are asked in their original order at a time just after the last session.
   Methods that learn (the HeLa-Mem profiles and the streaming profile) each get their own
   copy of the store, so their Hebbian edges and access statistics accumulate over the
   conversation's questions (as in the HeLa-Mem paper's evaluation) without contaminating
   one another; ``hela-cold`` uses the ``hela`` profile on a store that never learns.
   ``hela-reference`` is ``hela-paper`` as the public reference code behaved (time decay
   1.0, only consecutive-turn priors).  The ``hela-lived*`` methods first play the
   conversation turn by turn through the app's turn path (`bench.lived`), each with one
   learning rule, then answer the questions on the graph that built (without learning).
3. Fair budget: each question's context-token budget is what the dense baseline's top-k
   uses for that question; every method fills its ranking into that same budget
   (`memory.fit_budget`: in order, skipping a memory that does not fit).  Tokens are
   counted with the embedder's WordPiece tokenizer (all-MiniLM-L6-v2 by default).
4. Evidence recall = share of the question's evidence turns contained in the selected
   memories; all-evidence hit = every evidence turn contained.  Categories 1-4 make the
   overall figure; 5 (adversarial) is reported apart.  ``cross-session``: the multi-hop
   questions whose evidence turns lie in different sessions (where association matters).

Embeddings and token counts are cached in ``<data-dir>/.bench-cache`` keyed by
sha1(embedder name + text), so a rerun does not embed again.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import sqlite3
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import numpy as np

from .. import formulas as F
from ..config import Settings
from ..events import Recall
from ..memory import MemoryEngine, NewEpisode, fit_budget
from ..store import Store
from . import lived

CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}
SCORED = (1, 2, 3, 4)
BASELINES = ("dense", "bm25", "dense+bm25-rrf")
METHODS = BASELINES + ("hela", "hela-nospread", "hela-cold", "hela-paper", "hela-reference",
                       "streaming") + lived.LIVED
LEARNING = ("hela", "hela-nospread", "hela-paper", "hela-reference", "streaming")
PROFILE_OF = {"hela-reference": "hela-paper", **{m: "hela" for m in lived.LIVED}}
JSON_COLUMNS = ("overall", "multi-hop", "temporal", "open-domain", "single-hop",
                "cross-session", "tokens")
RRF_K = 60
CANDIDATES = 40  # ranking depth each method hands to the budget filler

_DIA = re.compile(r"D:?\s*(\d+)\s*:\s*(\d+)")


# ----------------------------------------------------------------- data -----------------
def normalize_evidence(evidence: Sequence) -> list[str]:
    """Evidence ids as clean ``D<session>:<turn>`` strings, in order, without repeats.

    Repairs the malformed ids of the original data: ``'D8:6; D9:17'`` (two ids in one),
    ``'D:11:26'`` (extra colon), ``'D30:05'`` (leading zero), space/comma-joined lists;
    a bare ``'D'`` carries no turn and is skipped (the question itself is kept).
    """
    out: list[str] = []
    for raw in evidence or []:
        for m in _DIA.finditer(str(raw)):
            out.append(f"D{int(m.group(1))}:{int(m.group(2))}")
    return list(dict.fromkeys(out))


def parse_session_time(text: str) -> float:
    """'1:56 pm on 8 May, 2023' -> epoch seconds (UTC)."""
    t = " ".join(str(text).replace(",", ", ").split())
    for fmt in ("%I:%M %p on %d %B, %Y", "%I:%M %p on %d %b, %Y", "%H:%M on %d %B, %Y"):
        try:
            dt = datetime.strptime(t.replace(" ,", ","), fmt)
            return dt.replace(tzinfo=timezone.utc).timestamp()
        except ValueError:
            continue
    raise ValueError(f"cannot parse session date-time {text!r}")


@dataclass
class Turn:
    dia_id: str
    speaker: str
    text: str  # as stored: "<speaker>: <text>[ [shares a photo: ...]]"
    session: int
    at: float


def conversation_turns(sample: dict) -> list[Turn]:
    """All turns of a LoCoMo sample in order, with parsed session times."""
    conv = sample["conversation"]
    keys = sorted((k for k in conv if re.fullmatch(r"session_\d+", k)),
                  key=lambda k: int(k.split("_")[1]))
    turns: list[Turn] = []
    for key in keys:
        session = int(key.split("_")[1])
        at = parse_session_time(conv[f"{key}_date_time"])
        for i, t in enumerate(conv[key] or []):
            text = f"{t.get('speaker', '?')}: {t.get('text', '')}".rstrip()
            if t.get("blip_caption"):
                text += f" [shares a photo: {t['blip_caption']}]"
            dia = normalize_evidence([t.get("dia_id", "")])
            turns.append(Turn(dia[0] if dia else f"D{session}:{i + 1}", t.get("speaker", ""),
                              text, session, at + 30.0 * i))
    return turns


def build_episodes(turns: Sequence[Turn], granularity: str = "turn"
                   ) -> list[tuple[int, NewEpisode]]:
    """(session, NewEpisode) per memory; ``pair`` joins two consecutive turns of a session."""
    out: list[tuple[int, NewEpisode]] = []
    if granularity == "turn":
        for t in turns:
            out.append((t.session, NewEpisode(
                t.text, "", created_at=t.at, source="locomo",
                meta={"dia_ids": [t.dia_id], "speaker": t.speaker, "session": t.session})))
        return out
    if granularity != "pair":
        raise ValueError(f"granularity must be 'turn' or 'pair', not {granularity!r}")
    i = 0
    while i < len(turns):
        group = [turns[i]]
        if i + 1 < len(turns) and turns[i + 1].session == turns[i].session:
            group.append(turns[i + 1])
        speakers = {t.speaker for t in group}
        out.append((group[0].session, NewEpisode(
            "\n".join(t.text for t in group), "", created_at=group[0].at, source="locomo",
            meta={"dia_ids": [t.dia_id for t in group],
                  "speaker": group[0].speaker if len(speakers) == 1 else None,
                  "session": group[0].session})))
        i += len(group)
    return out


# ------------------------------------------------------------ embeddings ---------------
class CachedEmbedder:
    """Wraps the app's `Embedder` with an on-disk cache of vectors and token counts."""

    def __init__(self, cache_dir: Path | None, factory: Callable[[], object] | None = None,
                 name: str | None = None):
        from ..paths import DEFAULT_EMBEDDER_NAME

        self._factory = factory
        self._inner: Any = None
        self.name = name or DEFAULT_EMBEDDER_NAME
        self.dim = 384
        self.cache_dir = cache_dir
        self._vec: dict[str, np.ndarray] = {}
        self._tok: dict[str, int] = {}
        self._dirty = False
        if cache_dir is not None:
            self._load()

    @property
    def inner(self):
        if self._inner is None:
            if self._factory is None:
                from ..embedder import Embedder

                self._inner = Embedder()
            else:
                self._inner = self._factory()
            self.dim = int(self._inner.dim)
        return self._inner

    def _key(self, text: str) -> str:
        return hashlib.sha1(f"{self.name}\0{text}".encode()).hexdigest()

    def _file(self) -> Path:
        safe = re.sub(r"[^A-Za-z0-9_.-]+", "_", self.name)
        return Path(self.cache_dir or ".") / f"emb-{safe}.npz"

    def _load(self) -> None:
        f = self._file()
        if not f.exists():
            return
        try:
            with np.load(f) as z:
                keys, vecs, toks = z["keys"], z["vecs"], z["tokens"]
        except (OSError, ValueError, KeyError):
            return
        for k, v, n in zip(keys, vecs, toks, strict=True):
            self._vec[str(k)] = v
            if n >= 0:
                self._tok[str(k)] = int(n)
        if len(vecs):
            self.dim = int(vecs.shape[1])

    def save(self) -> None:
        """Write the cache (atomically) if anything new was computed."""
        if self.cache_dir is None or not self._dirty:
            return
        Path(self.cache_dir).mkdir(parents=True, exist_ok=True)
        keys = list(self._vec)
        vecs = np.stack([self._vec[k] for k in keys]).astype(np.float32)
        toks = np.array([self._tok.get(k, -1) for k in keys], dtype=np.int64)
        tmp = self._file().with_suffix(".tmp.npz")
        np.savez(tmp, keys=np.array(keys), vecs=vecs, tokens=toks)
        tmp.replace(self._file())
        self._dirty = False

    def embed(self, texts: list[str], batch_size: int = 64, progress: bool = False) -> np.ndarray:
        keys = [self._key(t) for t in texts]
        missing = list(dict.fromkeys(t for t, k in zip(texts, keys, strict=True)
                                     if k not in self._vec))
        if missing:
            vecs = self.inner.embed(missing, batch_size=batch_size)
            for t, v in zip(missing, vecs, strict=True):
                self._vec[self._key(t)] = np.asarray(v, dtype=np.float32)
            self._dirty = True
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.stack([self._vec[k] for k in keys])

    def embed_one(self, text: str) -> np.ndarray:
        return self.embed([text])[0]

    def count_tokens(self, text: str) -> int:
        k = self._key(text)
        n = self._tok.get(k)
        if n is None:
            n = int(self.inner.count_tokens(text))
            self._tok[k] = n
            self._dirty = True
        return n


# ------------------------------------------------------------------ BM25 ----------------
_TOKEN = re.compile(r"\w+")


def word_tokens(text: str) -> list[str]:
    """Lower-case word tokens (the BM25 baseline's tokenizer)."""
    return _TOKEN.findall(text.lower())


class BM25:
    """Okapi BM25 (k1=1.5, b=0.75) over lower-case word tokens; the BM25 baseline."""

    def __init__(self, docs: Sequence[str], k1: float = 1.5, b: float = 0.75):
        self.k1, self.b = k1, b
        tfs = [Counter(word_tokens(d)) for d in docs]
        self.lens = np.array([sum(c.values()) for c in tfs], dtype=np.float64)
        self.avg = float(self.lens.mean()) if len(docs) else 0.0
        df: Counter = Counter()
        for c in tfs:
            df.update(c.keys())
        self.idf = {t: F.idf(len(docs), n) for t, n in df.items()}
        self.postings: dict[str, list[tuple[int, int]]] = {}
        for i, c in enumerate(tfs):
            for t, f in c.items():
                self.postings.setdefault(t, []).append((i, f))

    def scores(self, query: str) -> np.ndarray:
        out = np.zeros(len(self.lens))
        for t in set(word_tokens(query)):
            for i, f in self.postings.get(t, ()):
                out[i] += F.bm25_term(f, self.idf[t], self.lens[i], self.avg, self.k1, self.b)
        return out


# ---------------------------------------------------------------- scoring ---------------
def evidence_recall(evidence: Sequence[str], covered: set[str]) -> tuple[float, bool]:
    """(share of evidence turns covered, all covered).  Empty evidence: (0.0, False)."""
    ev = list(dict.fromkeys(evidence))
    if not ev:
        return 0.0, False
    got = sum(1 for e in ev if e in covered)
    return got / len(ev), got == len(ev)


@dataclass
class Tally:
    """Per-method sums by category."""

    recall: dict[int, list[float]] = field(default_factory=lambda: {c: [] for c in CATEGORIES})
    hit: dict[int, list[float]] = field(default_factory=lambda: {c: [] for c in CATEGORIES})
    tokens: list[int] = field(default_factory=list)
    memories: list[int] = field(default_factory=list)
    f1: dict[int, list[float]] = field(default_factory=lambda: {c: [] for c in CATEGORIES})
    cross: list[float] = field(default_factory=list)  # recall of cross-session multi-hop

    def add(self, category: int, recall: float, hit: bool, tokens: int, memories: int,
            *, cross_session: bool = False) -> None:
        if cross_session:
            self.cross.append(recall)
        self.recall.setdefault(category, []).append(recall)
        self.hit.setdefault(category, []).append(float(hit))
        if category in SCORED:
            self.tokens.append(tokens)
            self.memories.append(memories)

    def summary(self) -> dict:
        scored_r = [x for c in SCORED for x in self.recall.get(c, [])]
        scored_h = [x for c in SCORED for x in self.hit.get(c, [])]
        out: dict[str, Any] = {"overall": _pct(scored_r)}
        for c in SCORED:
            out[CATEGORIES[c]] = _pct(self.recall.get(c, []))
        out["tokens"] = round(float(np.mean(self.tokens)), 1) if self.tokens else 0.0
        out["all-evidence"] = _pct(scored_h)
        out["adversarial"] = _pct(self.recall.get(5, []))
        out["memories"] = round(float(np.mean(self.memories)), 2) if self.memories else 0.0
        out["questions"] = len(scored_r)
        out["cross-session"] = _pct(self.cross)
        out["cross-session-questions"] = len(self.cross)
        f1s = [x for c in SCORED for x in self.f1.get(c, [])]
        if f1s:
            out["f1"] = {"overall": _pct(f1s)}
            for c in SCORED:
                out["f1"][CATEGORIES[c]] = _pct(self.f1.get(c, []))
        return out


def _pct(xs: Sequence[float]) -> float:
    return round(100.0 * float(np.mean(xs)), 1) if len(xs) else 0.0


def split_by_category(qa: Sequence[dict]) -> dict[int, list[dict]]:
    """Questions grouped by their category number (1-5)."""
    out: dict[int, list[dict]] = {c: [] for c in CATEGORIES}
    for q in qa:
        out.setdefault(int(q.get("category", 0)), []).append(q)
    return out


# ------------------------------------------------------------------- run ----------------
def _copy_store(src: Store, path: Path) -> Store:
    dst = sqlite3.connect(str(path))
    src.conn.backup(dst)
    dst.close()
    return Store(path)


def _progress(done: int, total: int, label: str, t0: float) -> None:
    """A one-line bar on stderr when it is a terminal; one line per conversation otherwise."""
    if not sys.stderr.isatty():
        if done >= total:
            sys.stderr.write(f"{label}: {total} questions in {time.time() - t0:.0f}s\n")
        return
    width = 28
    frac = done / max(total, 1)
    bar = "█" * int(frac * width) + "░" * (width - int(frac * width))
    el = time.time() - t0
    sys.stderr.write(f"\r{label:10s} {bar} {done}/{total} questions  {el:5.0f}s")
    if done >= total:
        sys.stderr.write("\n")
    sys.stderr.flush()


def reference_settings(settings: Settings) -> Settings:
    """``hela-reference``: the published formula as the public reference code behaved — its
    time decay evaluated to 1.0 (τ = ∞ here) and its only prior edges link consecutive
    turns (no semantic or name priors)."""
    return replace(settings, hela=replace(settings.hela, tau_days=math.inf,
                                          semantic_prior=False, name_edge=0.0))


@dataclass
class Conversation:
    """One conversation ingested for every method: stores, engines and lookups."""

    sid: str
    now: float  # when the questions are asked
    base: MemoryEngine  # never learns: dense, hela-cold
    ids: list[int]
    dia_of: dict[int, list[str]]
    text_of: dict[int, str]
    cost: dict[int, int]
    bm25: BM25
    engines: dict[str, MemoryEngine] = field(default_factory=dict)  # method -> own store
    retriever: object | None = None  # hela-consolidated


def ingest(si: int, sample: dict, tmp: Path, emb, settings: Settings, methods: Sequence[str],
            granularity: str, consolidate_llm, k: int) -> Conversation:
    """Store a conversation once, then give each learning method its own copy (lived
    methods replay it turn by turn; `hela-reference` ingests with its own priors)."""
    sid = str(sample.get("sample_id", f"sample-{si}"))
    turns = conversation_turns(sample)
    eps = build_episodes(turns, granularity)
    store = Store(tmp / f"{si}-base.sqlite3")
    episodes = lived.with_conversations(store, sid, eps)
    base = MemoryEngine(store, emb, settings)
    ids = base.add_episodes(episodes)
    text_of = {eid: ep.user_text for eid, ep in zip(ids, episodes, strict=True)}
    conv = Conversation(sid, max(t.at for t in turns) + 86400.0, base, ids,
                 {eid: (ep.meta or {})["dia_ids"] for eid, ep in zip(ids, episodes, strict=True)},
                 text_of, {eid: emb.count_tokens(text_of[eid]) for eid in ids},
                 BM25([text_of[e] for e in ids]))
    for m in LEARNING:
        if m in methods and m != "hela-reference":
            conv.engines[m] = MemoryEngine(_copy_store(store, tmp / f"{si}-{m}.sqlite3"), emb,
                                           settings)
    if "hela-reference" in methods:
        ref = MemoryEngine(Store(tmp / f"{si}-reference.sqlite3"), emb,
                           reference_settings(settings))
        ref.add_episodes(lived.with_conversations(ref.store, sid, eps))
        conv.engines["hela-reference"] = ref
    conv.engines.update(lived.replay_methods(methods, ids, sid, eps, emb, settings,
                                             lambda rule: tmp / f"{si}-{rule}.sqlite3"))
    if consolidate_llm is not None:
        from ..consolidate import ConsolidationParams, consolidated_variant

        c_engine = MemoryEngine(_copy_store(store, tmp / f"{si}-consolidated.sqlite3"), emb,
                                settings)
        conv.engines["hela-consolidated"] = c_engine
        conv.retriever = consolidated_variant(c_engine, consolidate_llm, k=k,
                                              params=ConsolidationParams(max_clusters=None))
    return conv


def _rank(conv: Conversation, m: str, question: str, t_q: float, dense: list[Recall]) -> list[Recall]:
    """Method `m`'s ranking (at most CANDIDATES) for one question."""
    if m == "dense":
        return dense
    if m == "bm25":
        return _ranked(conv.bm25.scores(question), conv.ids)
    if m == "dense+bm25-rrf":
        fused = F.reciprocal_rank_fusion(
            [[r.episode_id for r in dense],
             [r.episode_id for r in _ranked(conv.bm25.scores(question), conv.ids)]], RRF_K)
        order = sorted(fused, key=lambda e: -fused[e])[:CANDIDATES]
        return [Recall(e, fused[e]) for e in order]
    if m == "hela-consolidated":
        return conv.retriever.retrieve(question, now=t_q, k=CANDIDATES)  # type: ignore[attr-defined]
    if m == "hela-cold":
        return conv.base.retrieve(question, profile="hela", k=CANDIDATES, now=t_q,
                                  with_text=False)
    profile = PROFILE_OF.get(m, m)
    return conv.engines[m].retrieve(question, profile=profile, k=CANDIDATES, now=t_q,
                                    with_text=False)


def question_time(conv: Conversation, qi: int) -> float:
    """When question `qi` of a conversation is asked: a day after its last turn, a minute
    apart."""
    return conv.now + 60.0 * qi


def question_budget(conv: Conversation, question: str, qv: np.ndarray, k: int
                    ) -> tuple[list[Recall], int]:
    """(the dense baseline's ranking, the question's token budget): every method gets the
    tokens the dense top-k uses."""
    dense = conv.base.retrieve(question, profile="dense", k=CANDIDATES, query_vec=qv,
                               with_text=False)
    return dense, sum(conv.cost[r.episode_id] for r in dense[:k])


def cross_session(category: int, evidence: Sequence[str]) -> bool:
    """Multi-hop (category 1) with evidence from different sessions: #16's association test."""
    return category == 1 and len({e.split(":")[0] for e in evidence}) >= 2


@dataclass
class _Run:
    """What one `run_locomo` call accumulates across conversations."""

    emb: object
    methods: Sequence[str]
    tallies: dict[str, Tally]
    dump: Callable[[dict], object] | None = None
    answerer: Callable[[str, list[str]], str] | None = None
    max_answer_questions: int | None = None
    answered: int = 0


def _ask(run: _Run, conv: Conversation, qi: int, qa: dict, qv: np.ndarray, k: int) -> None:
    """One question for every method: rank, fill the budget, score, learn (learning methods)."""
    emb = run.emb
    question = str(qa.get("question", ""))
    cat = int(qa.get("category", 0))
    evidence = normalize_evidence(qa.get("evidence", []))
    xs = cross_session(cat, evidence)
    t_q = question_time(conv, qi)
    dense, budget = question_budget(conv, question, qv, k)

    def token_cost(r: Recall) -> int:
        if r.kind == "knowledge":
            return emb.count_tokens(r.text)  # type: ignore[attr-defined]
        return conv.cost[r.episode_id]

    def covers(r: Recall) -> list[str]:
        if r.kind == "knowledge":  # a knowledge item covers its sources' turns
            return [d for e in r.extra.get("sources", []) for d in conv.dia_of.get(e, [])]
        return conv.dia_of[r.episode_id]

    answering = run.answerer is not None and cat in SCORED and (
        run.max_answer_questions is None or run.answered < run.max_answer_questions)
    for m in run.methods:
        chosen = fit_budget([Recall(r.episode_id, r.score, kind=r.kind, text=r.text,
                                    extra=r.extra) for r in _rank(conv, m, question, t_q, dense)],
                            10 ** 6, budget, token_cost)
        if m in LEARNING and m in conv.engines:  # co-activation and access, as the app does
            conv.engines[m].hebbian_update([r.episode_id for r in chosen if r.kind == "episode"],
                                           now=t_q)
            conv.engines[m].record_access(chosen, qv, now=t_q)
        retrieved = [d for r in chosen for d in covers(r)]
        rec, hit = evidence_recall(evidence, set(retrieved))
        tok = sum(token_cost(r) for r in chosen)
        run.tallies[m].add(cat, rec, hit, tok, len(chosen), cross_session=xs)
        if answering and run.answerer is not None:
            pred = run.answerer(question, [r.text if r.kind == "knowledge"
                                           else conv.text_of[r.episode_id] for r in chosen])
            run.tallies[m].f1[cat].append(token_f1(pred, str(qa.get("answer", ""))))
        if run.dump is not None:
            run.dump({"sample_id": conv.sid, "question": question, "category": cat,
                      "method": m, "retrieved_dia_ids": retrieved, "tokens": tok,
                      "evidence": evidence, "recall": rec})
    if answering:
        run.answered += 1


def run_locomo(
    samples: Sequence[dict],
    *,
    k: int = 10,
    embedder=None,
    settings: Settings | None = None,
    methods: Sequence[str] = METHODS,
    granularity: str = "turn",
    dump: Callable[[dict], object] | None = None,
    answerer: Callable[[str, list[str]], str] | None = None,
    max_answer_questions: int | None = None,
    progress: bool = True,
    workdir: Path | None = None,
    consolidate_llm=None,
) -> dict:
    """Run every method on every sample; returns ``{"k", "default_profile", "methods", ...}``.

    Each question's token budget is what the dense baseline's top-k uses for it.
    With `consolidate_llm` (a LocalLLM), the method ``hela-consolidated`` is added: each
    conversation is ingested, consolidated completely by that model, then asked; a knowledge
    item costs its own tokens and covers the evidence turns of its source episodes.
    """
    if consolidate_llm is not None and "hela-consolidated" not in methods:
        methods = tuple(methods) + ("hela-consolidated",)
    settings = settings or Settings()
    emb = embedder or CachedEmbedder(None)
    run = _Run(emb, methods, {m: Tally() for m in methods}, dump, answerer,
               max_answer_questions)
    t_start = time.time()
    with tempfile.TemporaryDirectory(dir=workdir) as tmp:
        for si, sample in enumerate(samples):
            conv = ingest(si, sample, Path(tmp), emb, settings, methods, granularity,
                           consolidate_llm, k)
            questions = list(sample.get("qa", []))
            qvecs = emb.embed([str(q.get("question", "")) for q in questions])
            t0 = time.time()
            for qi, (qa, qv) in enumerate(zip(questions, qvecs, strict=True)):
                _ask(run, conv, qi, qa, qv, k)
                if progress:
                    _progress(qi + 1, len(questions), conv.sid, t0)
            for e in {id(e): e for e in [conv.base, *conv.engines.values()]}.values():
                e.store.close()
            save = getattr(emb, "save", None)
            if callable(save):
                save()
    return {
        "k": k,
        "default_profile": settings.profile,
        "methods": {m: run.tallies[m].summary() for m in methods},
        "budget": "per question: the tokens of the dense baseline's top-k",
        "tokenizer": getattr(emb, "name", "embedder") + " WordPiece",
        "granularity": granularity,
        "lived_default": lived.DEFAULT_RULE,
        "samples": [str(s.get("sample_id")) for s in samples],
        "seconds": round(time.time() - t_start, 1),
    }


def _ranked(scores: np.ndarray, ids: Sequence[int]) -> list[Recall]:
    order = np.argsort(-scores, kind="stable")[:CANDIDATES]
    return [Recall(int(ids[i]), float(scores[i])) for i in order if scores[i] > 0]


# -------------------------------------------------------------- answers -----------------
_ARTICLES = re.compile(r"\b(a|an|the|and)\b")


def _norm_answer(s: str) -> list[str]:
    s = str(s).lower().replace(",", "")
    s = re.sub(r"[^\w\s]", " ", s)
    s = _ARTICLES.sub(" ", s)
    return s.split()


def token_f1(prediction: str, answer: str) -> float:
    """Token-level F1 between prediction and gold answer (normalised as in LoCoMo's eval)."""
    p, g = _norm_answer(prediction), _norm_answer(answer)
    if not p or not g:
        return float(p == g)
    common = Counter(p) & Counter(g)
    same = sum(common.values())
    if same == 0:
        return 0.0
    prec, rec = same / len(p), same / len(g)
    return 2 * prec * rec / (prec + rec)


def make_answerer(model_path: str | None, n_ctx: int = 2048) -> Callable[[str, list[str]], str]:
    """A short-answer generator over the local GGUF model (llama.cpp), greedy."""
    from llama_cpp import Llama

    from ..paths import bundled_model_path

    path = model_path or bundled_model_path()
    if path is None:
        raise FileNotFoundError("no local model: pass --model PATH")
    llm = Llama(model_path=str(path), n_ctx=n_ctx, verbose=False)

    def answer(question: str, memories: list[str]) -> str:
        ctx = "\n".join(f"- {m}" for m in memories)
        msgs: Any = [
            {"role": "system", "content": "Answer the question in a few words using the memories."},
            {"role": "user", "content": f"Memories:\n{ctx}\n\nQuestion: {question}\nShort answer:"},
        ]
        out: Any = llm.create_chat_completion(messages=msgs, max_tokens=24, temperature=0.0)
        return str(out["choices"][0]["message"]["content"]).strip()

    return answer


# --------------------------------------------------------------- report -----------------
def _bar(value: float, scale: float = 100.0, width: int = 30) -> str:
    n = value / scale * width
    full = int(n)
    part = " ▏▎▍▌▋▊▉"[int((n - full) * 8)]
    return ("█" * full + (part if full < width else "")).rstrip()


def markdown_report(result: dict, title: str = "LoCoMo evidence recall") -> str:
    """The results table and a Unicode bar chart, as markdown."""
    ms = result["methods"]
    cols = ["overall", "multi-hop", "temporal", "open-domain", "single-hop"]
    lines = [f"## {title}", "",
             f"k={result['k']}, budget: {result.get('budget', '')}; tokens: "
             f"{result.get('tokenizer', '')}; memory granularity: {result.get('granularity')}; "
             f"samples: {', '.join(result.get('samples', []))}; default profile: "
             f"`{result['default_profile']}`.", "",
             "| method | " + " | ".join(cols) + " | cross-session | all-evidence | "
             "adversarial (5) | tokens | memories |",
             "|---" * (len(cols) + 6) + "|"]
    for m, r in ms.items():
        lines.append(f"| {m} | " + " | ".join(f"{r[c]:.1f}" for c in cols)
                     + f" | {r.get('cross-session', 0):.1f}"
                     + f" | {r.get('all-evidence', 0):.1f} | {r.get('adversarial', 0):.1f}"
                     f" | {r['tokens']:.0f} | {r.get('memories', 0):.1f} |")
    if any("f1" in r for r in ms.values()):
        lines += ["", "Answer token-F1 (%), local model:", "",
                  "| method | " + " | ".join(cols) + " |", "|---" * (len(cols) + 1) + "|"]
        for m, r in ms.items():
            if "f1" in r:
                lines.append(f"| {m} | " + " | ".join(f"{r['f1'].get(c, 0):.1f}" for c in cols) + " |")
    width = max(len(m) for m in ms)
    for col in ("overall", "multi-hop"):
        lines += ["", f"Evidence recall, {col} (%):", "", "```"]
        for m, r in ms.items():
            lines.append(f"{m:<{width}} {_bar(r[col])} {r[col]:.1f}")
        lines.append("```")
    return "\n".join(lines) + "\n"


def load_samples(path: Path, conversations: int | None = None,
                 samples: str | None = None) -> list[dict]:
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    if isinstance(data, dict):
        data = [data]
    if samples:
        want = {s.strip() for s in samples.split(",") if s.strip()}
        data = [d for d in data if str(d.get("sample_id")) in want]
    if conversations:
        data = data[:conversations]
    return data
