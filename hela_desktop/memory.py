"""The Hebbian memory engine (Qt-free): storing episodes, retrieving them, learning edges.

`MemoryEngine` keeps an in-memory index (embedding matrix and statistics) of the episodes
that take part in retrieval, backed by the SQLite `Store`.  Two retrieval profiles:

- ``hela`` (default): HeLa-Mem dual-path retrieval on a hybrid, standardised scale — base
  activation = z(dense cosine) + α·z(BM25) + a speaker-field match, times a floored temporal
  decay relative to the question time; the query is embedded without the participants'
  names (names are matched against the speaker field instead).  Spreading adds the
  activation of the episode's conversation (context) and of its graph neighbours (temporal
  adjacency, semantic priors, Hebbian edges).  The result is the top-k by base activation
  plus up to m nodes that spreading lifted into the top-k ("associative" memories).
  ``hela-nospread`` switches spreading (context and edges) off.
- ``hela-paper``: the published HeLa-Mem formula and constants: (cos+1)/2 + α·IDF keyword
  overlap, times exp(-Δt/τ), spreading β=0.1 from sources above θ=0.6.
- ``streaming``: streaming-memory scoring — cos² gated boost from recency, frequency,
  emotion, association (with query specificity) and connection, softmax with temperature,
  MMR diversity.
- ``dense``: plain cosine similarity (a baseline).

Every formula is in :mod:`hela_desktop.formulas`.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np

from . import facts
from . import formulas as F
from .config import HelaParams, Settings, StreamingParams
from .events import Recall
from .facts import STOPWORDS, NameIndex, keywords  # noqa: F401 - keywords is re-exported
from .store import Store, from_blob, key_text, to_blob


def _meta_speaker(meta: str | None) -> str | None:
    """The ``speaker`` field of an episode's JSON meta, if any."""
    if not meta:
        return None
    try:
        d = json.loads(meta)
    except ValueError:
        return None
    v = d.get("speaker") if isinstance(d, dict) else None
    return v if isinstance(v, str) else None

PROFILES = ("hela", "hela-nospread", "hela-paper", "streaming", "dense")

@dataclass
class NewEpisode:
    """An episode to store: one completed exchange."""

    user_text: str
    assistant_text: str = ""
    conversation_id: int | None = None
    created_at: float | None = None
    importance: float = 0.0
    source: str = "chat"
    meta: dict | None = None
    embedding: np.ndarray | None = None
    uid: str | None = None


HALF_PRECISION_FROM = 20_000  # pools at least this large are scanned in float16


class MemoryIndex:
    """Growable arrays of the retrievable episodes (row i <-> ids[i])."""

    def __init__(self, dim: int):
        self.dim = dim
        self._n = 0
        cap = 1024
        self.ids = np.zeros(cap, dtype=np.int64)
        self.emb = np.zeros((cap, dim), dtype=np.float32)
        self.created = np.zeros(cap, dtype=np.float64)
        self.count = np.zeros(cap, dtype=np.float64)
        self.last = np.full(cap, np.nan, dtype=np.float64)
        self.importance = np.zeros(cap, dtype=np.float64)
        self.conv = np.full(cap, -1, dtype=np.int64)  # conversation id, -1: none
        self.speaker = np.full(cap, -1, dtype=np.int64)  # speaker code, -1: unknown
        self.pos: dict[int, int] = {}
        self.centroids: dict[int, tuple[np.ndarray, int]] = {}
        self._version = 0  # bumped by every change of the embeddings
        self._half = None  # (version, float16 torch copy) for large pools

    def __len__(self) -> int:
        return self._n

    def similarity(self, q: np.ndarray) -> np.ndarray:
        """cos(q, every row) as float32 — q and the rows are unit vectors.

        A full scan is memory-bound (100k × 384 float32 = 150 MB per query), so large pools
        are scanned from a float16 copy with torch (half the bytes; about 2× faster on a
        2-core CPU; the error, ~1e-3 in cosine, does not change rankings in practice).
        """
        n = self._n
        if n < HALF_PRECISION_FROM:
            return self.emb[:n] @ q
        try:
            import torch
        except ImportError:  # pragma: no cover - torch comes with sentence-transformers
            return self.emb[:n] @ q
        if self._half is None or self._half[0] != self._version:
            self._half = (self._version, torch.from_numpy(self.emb[:n]).to(torch.float16))
        qt = torch.from_numpy(np.ascontiguousarray(q, dtype=np.float32)).to(torch.float16)
        return torch.mv(self._half[1], qt).float().numpy()

    def _grow(self, need: int) -> None:
        cap = len(self.ids)
        if need <= cap:
            return
        new = max(need, cap * 2)
        for name in ("ids", "created", "count", "importance"):
            a = getattr(self, name)
            b = np.zeros(new, dtype=a.dtype)
            b[:cap] = a
            setattr(self, name, b)
        last = np.full(new, np.nan)
        last[:cap] = self.last
        self.last = last
        for name in ("conv", "speaker"):
            a = getattr(self, name)
            b = np.full(new, -1, dtype=np.int64)
            b[:cap] = a
            setattr(self, name, b)
        emb = np.zeros((new, self.dim), dtype=np.float32)
        emb[:cap] = self.emb
        self.emb = emb
        self._version += 1

    def add(self, eid: int, vec: np.ndarray, created: float, count: float = 0,
            last: float | None = None, importance: float = 0.0, conv: int | None = None,
            speaker: int = -1) -> None:
        if eid in self.pos:
            i = self.pos[eid]
        else:
            self._grow(self._n + 1)
            i = self._n
            self._n += 1
            self.pos[eid] = i
        self.ids[i] = eid
        self.emb[i] = vec
        self._version += 1
        self.created[i] = created
        self.count[i] = count
        self.last[i] = np.nan if last is None else last
        self.importance[i] = importance
        self.conv[i] = -1 if conv is None else conv
        self.speaker[i] = speaker

    def remove(self, eid: int) -> None:
        i = self.pos.pop(eid, None)
        if i is None:
            return
        j = self._n - 1
        if i != j:  # move the last row into the hole
            moved = int(self.ids[j])
            for name in ("ids", "created", "count", "last", "importance", "conv", "speaker"):
                a = getattr(self, name)
                a[i] = a[j]
            self.emb[i] = self.emb[j]
            self.pos[moved] = i
        self._n -= 1
        self._version += 1
        self.centroids.pop(eid, None)

    # views over the live rows
    def view(self, name: str) -> np.ndarray:
        return getattr(self, name)[: self._n]


class MemoryEngine:
    """Stores episodes, retrieves them with a named profile, and learns Hebbian edges.

    Example::

        engine = MemoryEngine(Store(tmp), Embedder(), Settings())
        engine.add_episode(NewEpisode("My sister Ana lives in Lisbon", "Noted!"))
        [r.text for r in engine.retrieve("Where does Ana live?")]
    """

    def __init__(self, store: Store, embedder, settings: Settings | None = None):
        self.store = store
        self.embedder = embedder
        self.settings = settings or Settings()
        self._lock = threading.RLock()
        self._kw_cache: dict[str, list[int]] = {}
        self._speakers: dict[str, int] = {}  # lower-case speaker name -> code
        self._speaker_re: re.Pattern | None = None
        self.index = MemoryIndex(embedder.dim if embedder is not None else 384)
        self.name_index = NameIndex()
        self.reload_index()

    # ---- parameters -------------------------------------------------------------------
    @property
    def hela(self) -> HelaParams:
        return self.settings.hela

    @property
    def streaming(self) -> StreamingParams:
        return self.settings.streaming

    # ---- index ------------------------------------------------------------------------
    def reload_index(self) -> None:
        """Rebuild the in-memory index from the store (after an import, a restore, ...)."""
        with self._lock:
            if self.store.get_meta("reembed_keys") == "1" and self.embedder is not None:
                self._rekey()
            dim = self.embedder.dim if self.embedder is not None else self.index.dim
            idx = MemoryIndex(dim)
            for eid, emb, created, count, last, imp, cent, qn in self.store.active_index_rows():
                vec = from_blob(emb)
                if vec is None or len(vec) != dim:
                    continue
                idx.add(eid, vec, created, count, last, imp)
                if cent is not None and qn:
                    c = from_blob(cent)
                    if c is not None and len(c) == dim:
                        idx.centroids[eid] = (c.copy(), int(qn))
            for eid, conv, meta in self.store.conn.execute(
                "SELECT id, conversation_id, meta FROM episodes "
                "WHERE deleted_at IS NULL AND archived_at IS NULL AND embedding IS NOT NULL"
            ):
                i = idx.pos.get(eid)
                if i is None:
                    continue
                idx.conv[i] = -1 if conv is None else conv
                idx.speaker[i] = self._speaker_code(_meta_speaker(meta))
            self.index = idx
            self.name_index = NameIndex()
            self.name_index.learn(self.store.user_texts())
            self._kw_cache.clear()

    def _rekey(self, batch: int = 256) -> None:
        """Re-embed episodes whose embedding was made from the whole exchange (stores
        written before the user's words became the key), in one transaction."""
        rows = self.store.episodes_to_rekey()
        with self.store.transaction():
            for start in range(0, len(rows), batch):
                part = rows[start:start + batch]
                keys = [key_text(u) for _, u in part]
                todo = [j for j, k in enumerate(keys) if k]
                vecs = self.embedder.embed([keys[j] for j in todo]) if todo else []
                blobs: list[bytes | None] = [None] * len(part)
                for n, j in enumerate(todo):
                    blobs[j] = to_blob(vecs[n])
                self.store.set_embeddings([(b, eid) for b, (eid, _) in zip(blobs, part,
                                                                            strict=True)])
            self.store.set_meta("reembed_keys", "0")

    def _speaker_code(self, name: str | None) -> int:
        """A small integer per distinct speaker name (case-insensitive); -1 for none."""
        if not name:
            return -1
        key = name.strip().lower()
        if not key:
            return -1
        code = self._speakers.get(key)
        if code is None:
            code = len(self._speakers)
            self._speakers[key] = code
            self._speaker_re = re.compile(
                r"\b(" + "|".join(re.escape(n) for n in sorted(self._speakers, key=len, reverse=True))
                + r")(?:'s|’s)?\b", re.IGNORECASE)
        return code

    def named_speakers(self, query: str) -> tuple[set[int], str]:
        """Speakers the query names (their codes) and the query with those names removed."""
        if self._speaker_re is None:
            return set(), query
        codes = {self._speakers[m.group(1).lower()] for m in self._speaker_re.finditer(query)}
        if not codes:
            return set(), query
        stripped = re.sub(r"\s+", " ", self._speaker_re.sub(" ", query)).strip()
        return codes, stripped

    def __len__(self) -> int:
        return len(self.index)

    # ---- writing ----------------------------------------------------------------------
    def add_episode(self, episode: NewEpisode) -> int:
        """Store one exchange, link it into the graph, and make it retrievable."""
        return self.add_episodes([episode])[0]

    def add_episodes(self, episodes: Sequence[NewEpisode], *, batch_size: int = 64) -> list[int]:
        """Store exchanges in order (one transaction), with temporal and semantic-prior edges.

        Consecutive episodes of the same conversation are linked with the temporal prior
        weight; with ``semantic_prior`` on, each new episode is also linked to its most
        similar earlier episodes (the cold-start fix the HeLa-Mem paper proposes).
        """
        if not episodes:
            return []
        # the user's words are the key; an episode without them is stored, not retrievable
        missing = [i for i, e in enumerate(episodes)
                   if e.embedding is None and key_text(e.user_text, e.assistant_text)]
        if missing:
            vecs = self.embedder.embed(
                [key_text(episodes[i].user_text, episodes[i].assistant_text) for i in missing],
                batch_size=batch_size,
            )
            episodes = list(episodes)
            for j, i in enumerate(missing):
                episodes[i] = replace(episodes[i], embedding=vecs[j])
        p = self.hela
        ids: list[int] = []
        name = getattr(self.embedder, "name", None)
        with self._lock, self.store.transaction():
            step = self.store.hebbian_step()
            last_in_conv: dict[int | None, int | None] = {}
            for ep in episodes:
                now = time.time() if ep.created_at is None else ep.created_at
                vec = (None if ep.embedding is None
                       else np.asarray(ep.embedding, dtype=np.float32))
                eid = self.store.add_episode(
                    ep.user_text, ep.assistant_text, vec, embedder=name,
                    conversation_id=ep.conversation_id, created_at=now,
                    importance=ep.importance, source=ep.source, meta=ep.meta, uid=ep.uid,
                )
                edges: dict[tuple[int, int], float] = {}
                conv = ep.conversation_id
                if conv not in last_in_conv:
                    last_in_conv[conv] = self._previous_episode(conv, eid)
                prev = last_in_conv[conv]
                if prev is not None and p.temporal_edge > 0:
                    edges[(min(prev, eid), max(prev, eid))] = p.temporal_edge
                if vec is not None and p.semantic_prior and len(self.index):
                    cos = self.index.view("emb") @ vec
                    kk = min(p.semantic_prior_k, len(cos))
                    top = np.argpartition(-cos, kk - 1)[:kk]
                    for r in top:
                        c = float(cos[r])
                        other = int(self.index.ids[r])
                        if c >= p.semantic_prior_min and other != eid:
                            key = (min(other, eid), max(other, eid))
                            edges[key] = max(edges.get(key, 0.0), p.semantic_prior_scale * c)
                speaker = self._speaker_code((ep.meta or {}).get("speaker"))
                if vec is not None and p.name_edge > 0:
                    # an association through a person, place or event: link to the latest
                    # memories that name it
                    for other in self._named_before(ep.user_text, eid, p.name_edge_k):
                        key = (min(other, eid), max(other, eid))
                        edges[key] = max(edges.get(key, 0.0), p.name_edge)
                if edges:
                    self.store.upsert_edges(
                        [(a, b, 0.0, min(w, p.weight_cap), 0, step, now) for (a, b), w in edges.items()]
                    )
                if vec is not None:
                    self.index.add(eid, vec, now, 0, None, ep.importance, conv, speaker)
                    self.name_index.learn([ep.user_text])
                last_in_conv[conv] = eid
                ids.append(eid)
            self._kw_cache.clear()
        return ids

    # ---- names (people, places, pets, events) -------------------------------------------
    def names_in(self, text: str) -> set[str]:
        """The names in a memory's text (see `facts.NameIndex`), participants' names aside."""
        return {n for n in self.name_index.names(text) if n not in self._speakers}

    def memories_naming(self, name: str, limit: int = 20) -> list[int]:
        """Retrievable memories whose user words contain `name` (or, for a relation such as
        "my mother", name it), newest first."""
        relation = name[3:] if name.startswith("my ") else None
        terms = facts.kin_words(relation) if relation else [name.replace('"', "")]
        hits = self.store.keyword_hits(terms, limit_per_term=50_000)
        pos = self.index.pos
        ids = sorted({i for t in terms for i in hits.get(t, []) if i in pos}, reverse=True)
        if relation:
            texts = self.store.key_texts(ids[: limit * 4])
            ids = [i for i in ids if relation in facts.kin(texts.get(i, ""))]
        return ids[:limit]

    def _named_before(self, text: str, eid: int, k: int) -> list[int]:
        self.name_index.learn([text])
        out: set[int] = set()
        for name in self.names_in(text):
            out.update([i for i in self.memories_naming(name, k + 1) if i != eid][:k])
        return sorted(out)

    def vector(self, episode_id: int) -> np.ndarray | None:
        i = self.index.pos.get(episode_id)
        return None if i is None else self.index.emb[i]

    def key_texts(self, ids: Sequence[int]) -> dict[int, str]:
        return self.store.key_texts(ids)

    def created_at(self, ids: Sequence[int]) -> dict[int, float]:
        out = {}
        for eid in ids:
            i = self.index.pos.get(eid)
            if i is not None:
                out[eid] = float(self.index.created[i])
        return out

    def _previous_episode(self, conversation_id: int | None, before_id: int) -> int | None:
        if conversation_id is None:
            row = self.store.conn.execute(
                "SELECT id FROM episodes WHERE conversation_id IS NULL AND id < ? "
                "AND deleted_at IS NULL ORDER BY id DESC LIMIT 1", (before_id,)).fetchone()
        else:
            row = self.store.conn.execute(
                "SELECT id FROM episodes WHERE conversation_id = ? AND id < ? "
                "AND deleted_at IS NULL ORDER BY id DESC LIMIT 1",
                (conversation_id, before_id)).fetchone()
        return row[0] if row else None

    def edit_episode(self, episode_id: int, user_text: str, assistant_text: str) -> None:
        """Change an episode's text; it is re-embedded so retrieval follows the edit."""
        key = key_text(user_text, assistant_text)
        vec = self.embedder.embed_one(key) if key else None
        with self._lock, self.store.transaction():
            self.store.update_episode_text(episode_id, user_text, assistant_text, vec)
        ep = self.store.episode(episode_id)
        if vec is None:
            self.index.remove(episode_id)
        elif ep and ep.archived_at is None and ep.deleted_at is None:
            self.index.add(episode_id, vec, ep.created_at, ep.access_count, ep.last_access,
                           ep.importance, ep.conversation_id,
                           self._speaker_code((ep.meta or {}).get("speaker")))
        self._kw_cache.clear()

    def set_pinned(self, episode_id: int, pinned: bool) -> None:
        self.store.set_pinned(episode_id, pinned)

    def delete_episode(self, episode_id: int) -> None:
        """Soft delete: out of retrieval and the graph, restorable with `restore_episode`."""
        with self._lock:
            self.store.set_deleted(episode_id, True)
            self.index.remove(episode_id)

    def restore_episode(self, episode_id: int) -> None:
        """Undo a soft delete or an archive: back in retrieval with its edges."""
        with self._lock, self.store.transaction():
            self.store.set_deleted(episode_id, False)
            self.store.set_archived(episode_id, None)
        self._reindex_one(episode_id)

    def _reindex_one(self, episode_id: int) -> None:
        row = self.store.conn.execute(
            "SELECT embedding, created_at, access_count, last_access, importance, "
            "conversation_id, meta FROM episodes "
            "WHERE id = ? AND deleted_at IS NULL AND archived_at IS NULL", (episode_id,)).fetchone()
        if row and row[0] is not None:
            self.index.add(episode_id, from_blob(row[0]), row[1], row[2], row[3], row[4],
                           row[5], self._speaker_code(_meta_speaker(row[6])))
        self._kw_cache.clear()

    # ---- edges ------------------------------------------------------------------------
    def effective_weight(self, weight: float, prior: float, edge_step: int,
                         step: int | None = None) -> float:
        """prior + w·(1-λ)^(steps since written), capped — the weight spreading uses."""
        step = self.store.hebbian_step() if step is None else step
        p = self.hela
        return float(min(p.weight_cap, prior + F.decayed_weight(weight, p.lam, step - edge_step)))

    def hebbian_update(self, active: Iterable[int], now: float | None = None,
                       deltas: Mapping[tuple[int, int], float] | None = None) -> int:
        """One Hebbian step for the co-activated set K: w ← (1-λ)w + η for every pair in K.

        `deltas`, when given, is a learning rule's own change Δ per pair (a, b), a < b, used
        instead of η for every pair of `active` (see `bench.lived`): a negative Δ weakens a
        learned weight (never below 0, the prior untouched) and creates no edge.  Decay of
        all other edges is lazy (they store the step they were written at), so the cost is
        O(|K|²).  Returns the new step number.
        """
        p = self.hela
        if deltas is None:
            ids = sorted(set(int(i) for i in active))
            deltas = {(a, b): p.eta for a_i, a in enumerate(ids) for b in ids[a_i + 1:]}
        now = time.time() if now is None else now
        with self._lock, self.store.transaction():
            step = self.store.hebbian_step() + 1
            self.store.set_meta("hebbian_step", str(step))
            if not deltas:
                return step
            existing = self.store.edges_between({i for pair in deltas for i in pair})
            rows = []
            for (a, b), d in deltas.items():
                old = existing.get((a, b))
                if old is None:
                    if d <= 0:
                        continue
                    w, prior, count = d, 0.0, 1
                else:
                    _, _, w0, prior, count0, step0, _ = old
                    w = F.hebbian_update(w0, p.lam, d, step - step0, p.weight_cap)
                    count = count0 + 1
                rows.append((a, b, w, prior, count, step, now))
            self.store.upsert_edges(rows)
        return step

    def record_access(self, recalls: Sequence[Recall], query_vec: np.ndarray | None,
                      now: float | None = None) -> None:
        """Count a retrieval for each recalled episode and remember why it was recalled."""
        now = time.time() if now is None else now
        updates = []
        with self._lock:
            for r in recalls:
                if r.kind != "episode":
                    continue
                eid = r.episode_id
                cent, n = self.index.centroids.get(eid, (None, 0))
                if query_vec is not None:
                    q = np.asarray(query_vec, dtype=np.float32)
                    cent = q.copy() if cent is None else (cent * n + q) / (n + 1)
                    n += 1
                    self.index.centroids[eid] = (cent, n)
                i = self.index.pos.get(eid)
                if i is not None:
                    self.index.count[i] += 1
                    self.index.last[i] = now
                why = r.to_dict()
                why.pop("text", None)
                why["at"] = now
                updates.append((eid, now, to_blob(cent), n, json.dumps(why)))
            with self.store.transaction():
                self.store.record_access(updates)

    # ---- retrieval ----------------------------------------------------------------------
    def embed_query(self, text: str) -> np.ndarray:
        return self.embedder.embed_one(text)

    def retrieve(
        self,
        query: str,
        *,
        profile: str | None = None,
        k: int | None = None,
        now: float | None = None,
        query_vec: np.ndarray | None = None,
        exclude: Iterable[int] = (),
        with_text: bool = True,
    ) -> list[Recall]:
        """Memories for `query`, best first, each with its score breakdown.

        `profile`: one of ``PROFILES`` (default: the settings' profile).  `k`: top-k (HeLa:
        plus up to m associative memories; streaming: the memory cap).  `now`: the time the
        question is asked (epoch seconds), for temporal decay.
        """
        profile = profile or self.settings.profile
        if profile not in PROFILES:
            raise ValueError(f"unknown retrieval profile {profile!r}; choose from {PROFILES}")
        with self._lock:
            n = len(self.index)
            if n == 0:
                return []
            own_vec = query_vec is None
            q = self.embed_query(query) if own_vec else np.asarray(query_vec, np.float32)
            now = time.time() if now is None else now
            excl = [self.index.pos[e] for e in exclude if e in self.index.pos]
            # the hela profile computes its own cosine (it may re-embed the query)
            cos = None if profile in ("hela", "hela-nospread") else self.index.similarity(q)
            if profile == "dense":
                res = self._dense(cos, k or self.hela.k, excl)
            elif profile == "streaming":
                res = self._streaming(cos, q, k or self.settings.max_memories, now, excl)
            elif profile == "hela-paper":
                res = self._hela(query, cos, k or self.hela.k, now, excl, spread=self.hela.spread)
            else:
                res = self._hela_hybrid(query, q, k or self.hela.k, now, excl,
                                        spread=self.hela.spread and profile == "hela",
                                        may_embed=own_vec)
        if with_text and res:
            eps = self.store.episodes(r.episode_id for r in res)
            for r in res:
                e = eps.get(r.episode_id)
                if e:
                    r.text = e.key
        return res

    def search(self, query: str, *, limit: int = 200) -> list[Recall]:
        """Memories matching `query` by meaning plus keywords, best first — the memory
        browser, the graph's find box and ``memories search``: `formulas.search_score` over
        the retrievable memories.  Each result carries its score, ``semantic`` (cosine) and
        ``keyword`` (share of the best BM25 score) and its text."""
        query = query.strip()
        with self._lock:
            if not len(self.index) or not query:
                return []
            cos = self.index.similarity(self.embed_query(query)).astype(np.float64)
            bm = self.bm25_scores(query)
            score = F.search_score(cos, bm)
            top = float(bm.max())
            order = [int(i) for i in np.argsort(-score, kind="stable") if np.isfinite(score[i])]
            res = [Recall(int(self.index.ids[i]), float(score[i]), semantic=float(cos[i]),
                          keyword=float(bm[i] / top) if top > 0 else 0.0, path="search")
                   for i in order[:limit]]
        eps = self.store.episodes(r.episode_id for r in res)
        for r in res:
            e = eps.get(r.episode_id)
            r.text = e.text if e else ""
        return res

    def _dense(self, cos: np.ndarray, k: int, excl: list[int]) -> list[Recall]:
        c = cos.astype(np.float64)
        if excl:
            c[excl] = -np.inf
        top = _topk(c, k)
        return [Recall(int(self.index.ids[i]), float(c[i]), semantic=float(c[i])) for i in top]

    def keyword_scores(self, query: str) -> tuple[np.ndarray, dict[str, float]]:
        """kw(q, i) for every indexed row: IDF-weighted share of query keywords in i (FTS5)."""
        n = len(self.index)
        kw = np.zeros(n, dtype=np.float64)
        terms = keywords(query)[:24]
        if not terms:
            return kw, {}
        total_docs = max(n, 1)
        weights: dict[str, float] = {}
        hits: dict[str, list[int]] = {}
        missing = [t for t in terms if t not in self._kw_cache]
        if missing:
            found = self.store.keyword_hits(missing, limit_per_term=max(50_000, n))
            self._kw_cache.update(found)
            if len(self._kw_cache) > 4096:
                self._kw_cache.clear()
                self._kw_cache.update(found)
        for t in terms:
            ids = self._kw_cache.get(t, [])
            hits[t] = ids
            weights[t] = F.idf(total_docs, len(ids))
        wsum = sum(weights.values())
        if wsum <= 0:
            return kw, weights
        pos = self.index.pos
        for t, ids in hits.items():
            if not ids:
                continue
            rows = [pos[e] for e in ids if e in pos]
            if rows:
                kw[rows] += weights[t] / wsum
        return kw, weights

    def base_activation(self, query: str, cos: np.ndarray, now: float) -> tuple[np.ndarray, ...]:
        """(S_base, sim, kw, decay) for every indexed row."""
        p = self.hela
        sim = F.similarity(cos.astype(np.float64))
        kw, _ = self.keyword_scores(query)
        decay = F.temporal_decay(now - self.index.view("created"), p.tau_days)
        return F.base_activation(sim, kw, decay, p.alpha), sim, kw, decay

    def _hela(self, query: str, cos: np.ndarray, k: int, now: float, excl: list[int],
              *, spread: bool) -> list[Recall]:
        """The published HeLa-Mem scoring (profile ``hela-paper``)."""
        p = replace(self.hela, theta=self.hela.paper_theta, beta=self.hela.paper_beta)
        base, sim, kw, decay = self.base_activation(query, cos, now)
        if excl:
            base[excl] = -np.inf
        top_base = _topk(base, k)
        total = base.copy()
        spread_amt: dict[int, float] = {}
        spread_src: dict[int, tuple[float, int]] = {}
        if spread and p.beta > 0:
            cand = _topk(base, p.max_sources)
            sources = [int(i) for i in cand if base[i] > p.theta]
            if sources:
                s_arr, n_arr, w_arr = self._edge_spread(base, sources, p.lam, p.weight_cap)
                if len(s_arr):
                    total = F.spread_activation(base, s_arr, n_arr, w_arr, p.beta)
                    if excl:
                        total[excl] = -np.inf
                    contrib = p.beta * base[s_arr] * w_arr
                    for s_r, n_r, c in zip(s_arr, n_arr, contrib, strict=True):
                        spread_amt[int(n_r)] = spread_amt.get(int(n_r), 0.0) + float(c)
                        best = spread_src.get(int(n_r))
                        if best is None or c > best[0]:
                            spread_src[int(n_r)] = (float(c), int(self.index.ids[s_r]))
        top_total = _topk(total, k)
        base_set = set(int(i) for i in top_base)
        lifted = [int(i) for i in top_total if int(i) not in base_set][: p.m]

        def recall(i: int, path: str) -> Recall:
            src = spread_src.get(i)
            return Recall(
                episode_id=int(self.index.ids[i]), score=float(total[i]),
                semantic=float(sim[i]), keyword=float(kw[i]), recency=float(decay[i]),
                spread=float(spread_amt.get(i, 0.0)), spread_from=src[1] if src else None,
                path=path, extra={"base": float(base[i]), "cos": float(cos[i])},
            )

        out = [recall(int(i), "base") for i in top_base] + [recall(i, "associative") for i in lifted]
        out.sort(key=lambda r: -r.score)
        return out

    def bm25_scores(self, query: str) -> np.ndarray:
        """Okapi BM25 of `query`'s keywords for every indexed row (SQLite FTS5 ``bm25()``,
        porter-stemmed), 0 where no keyword occurs.  In pools larger than
        ``HelaParams.common_cap``, terms present in more than that many memories are skipped."""
        n = len(self.index)
        out = np.zeros(n, dtype=np.float64)
        terms = [t.replace('"', "") for t in keywords(query)[:24]]
        # terms found in more than `common_cap` memories are too common to rank by (their
        # idf is low) and would make FTS5 score most of a large pool: leave them out
        cap = self.hela.common_cap
        if n > cap:
            kept = []
            for t in terms:
                key = "\0df\0" + t  # document frequency (capped), cached until the pool changes
                if key not in self._kw_cache:
                    try:
                        df = self.store.conn.execute(
                            "SELECT count(*) FROM (SELECT rowid FROM episodes_fts "
                            "WHERE episodes_fts MATCH ? LIMIT ?)", (f'"{t}"', cap + 1)
                        ).fetchone()[0]
                    except Exception:  # noqa: BLE001 - an unparsable term is skipped
                        df = cap + 1
                    self._kw_cache[key] = [int(df)]
                if self._kw_cache[key][0] <= cap:
                    kept.append(t)
            terms = kept
        if not terms:
            return out
        match = " OR ".join(f'"{t}"' for t in terms)
        try:
            rows = self.store.conn.execute(
                "SELECT rowid, bm25(episodes_fts) FROM episodes_fts WHERE episodes_fts MATCH ?",
                (match,)).fetchall()
        except Exception:  # noqa: BLE001 - a query FTS5 cannot parse scores 0
            return out
        pos = self.index.pos
        idx = [(pos[r], -s) for r, s in rows if r in pos]
        if idx:
            ii, vv = zip(*idx, strict=True)
            out[list(ii)] = vv
        return out

    def hybrid_base(self, query: str, q: np.ndarray, now: float, *, may_embed: bool = True
                    ) -> dict[str, np.ndarray]:
        """Base activation of the ``hela`` profile for every indexed row, with its parts.

        r = z(cos) + α·z(bm25) + σ·[speaker named in the query];  S_base = max(r, 0)·d,
        d = floor + (1-floor)·exp(-Δt/τ).  When the query names known speakers and the
        engine embeds the query itself (`may_embed`), the dense part uses the query with
        the names removed: names are matched exactly through the speaker field, and would
        otherwise dominate a short question's embedding.
        """
        p = self.hela
        codes, stripped = self.named_speakers(query)
        if codes and p.strip_names and may_embed and stripped and stripped != query:
            q = self.embed_query(stripped)
        cos = self.index.similarity(q).astype(np.float64)
        bm = self.bm25_scores(query)
        spk = np.isin(self.index.view("speaker"), list(codes)).astype(np.float64) if codes \
            else np.zeros(len(cos))
        rel = F.hybrid_relevance(F.standardize(cos), F.standardize(bm), spk, p.alpha,
                                 p.speaker_weight)
        decay = F.floored_decay(now - self.index.view("created"), p.tau_days, p.decay_floor)
        return {"base": F.hybrid_base(rel, decay), "cos": cos, "bm25": bm, "speaker": spk,
                "decay": decay, "relevance": rel}

    def _edge_spread(self, base: np.ndarray, sources: list[int], lam: float, cap: float):
        """(source rows, neighbour rows, effective weights) of the edges leaving `sources`."""
        src_ids = {int(self.index.ids[i]): i for i in sources}
        step = self.store.hebbian_step()
        pos = self.index.pos
        s_rows, n_rows, ws = [], [], []
        for a, b, w, prior, _cnt, st, _upd in self.store.edges_of(src_ids):
            weff = min(cap, prior + w * (1.0 - lam) ** max(step - st, 0))
            if weff <= 0:
                continue
            for s_id, nb in ((a, b), (b, a)):
                if s_id in src_ids and nb in pos:
                    s_rows.append(src_ids[s_id])
                    n_rows.append(pos[nb])
                    ws.append(weff)
        return (np.array(s_rows, dtype=np.int64), np.array(n_rows, dtype=np.int64),
                np.array(ws, dtype=np.float64))

    def _hela_hybrid(self, query: str, q: np.ndarray, k: int, now: float, excl: list[int],
                     *, spread: bool, may_embed: bool) -> list[Recall]:
        """The ``hela`` profile: hybrid base activation, context and edge spreading, dual path."""
        p = self.hela
        parts = self.hybrid_base(query, q, now, may_embed=may_embed)
        base = parts["base"]
        if excl:
            base[excl] = -np.inf
        # one partial sort serves the top-k, the context pool and the spreading sources
        pool = _topk(base, max(p.context_pool, k) if spread else k)
        top_base = pool[:k]
        total = base.copy()
        touched = set(pool)  # rows whose total may differ from base
        ctx_amt: dict[int, float] = {}
        spread_amt: dict[int, float] = {}
        spread_src: dict[int, tuple[float, int]] = {}
        if spread:
            # context: episodes of one conversation share its activation
            if p.context_weight > 0 and pool:
                conv = self.index.view("conv")
                members: dict[int, list[int]] = {}
                for i in pool:
                    c = int(conv[i])
                    if c >= 0:
                        members.setdefault(c, []).append(i)
                if len(members) > 1:
                    groups = list(members)
                    act = np.array([F.context_activation(base[members[g]], p.context_top)
                                    for g in groups])
                    z = F.standardize(act)
                    for g, zg in zip(groups, z, strict=True):
                        for i in members[g]:
                            total[i] += p.context_weight * zg
                            ctx_amt[i] = float(p.context_weight * zg)
            # edges: S(j) += β·Σ_i S_base(i)·w_ij from sources above θ
            if p.beta > 0:
                sources = [i for i in pool[: p.max_sources] if base[i] > p.theta]
                if sources:
                    s_arr, n_arr, w_arr = self._edge_spread(base, sources, p.lam, p.weight_cap)
                    if len(s_arr):
                        contrib = p.beta * base[s_arr] * w_arr
                        np.add.at(total, n_arr, contrib)
                        touched.update(int(i) for i in n_arr)
                        for s_r, n_r, c in zip(s_arr, n_arr, contrib, strict=True):
                            spread_amt[int(n_r)] = spread_amt.get(int(n_r), 0.0) + float(c)
                            best = spread_src.get(int(n_r))
                            if best is None or c > best[0]:
                                spread_src[int(n_r)] = (float(c), int(self.index.ids[s_r]))
            if excl:
                total[excl] = -np.inf
        # rows outside `touched` keep total = base, below every pool row: rank only `touched`
        cand = np.fromiter(touched, dtype=np.int64, count=len(touched))
        top_total = [int(cand[j]) for j in _topk(total[cand], k)] if len(cand) else []
        if len(pool) < len(total) and (len(top_total) < k or
                                       total[top_total[-1]] < base[pool[-1]]):
            top_total = _topk(total, k)  # an outside row could compete: rank them all
        base_set = set(top_base)
        lifted = [i for i in top_total if i not in base_set][: p.m]

        def recall(i: int, path: str) -> Recall:
            src = spread_src.get(i)
            return Recall(
                episode_id=int(self.index.ids[i]), score=float(total[i]),
                semantic=float(parts["cos"][i]), keyword=float(parts["bm25"][i]),
                recency=float(parts["decay"][i]),
                spread=float(spread_amt.get(i, 0.0) + ctx_amt.get(i, 0.0)),
                spread_from=src[1] if src else None, path=path,
                extra={"base": float(base[i]), "relevance": float(parts["relevance"][i]),
                       "speaker": float(parts["speaker"][i]), "context": ctx_amt.get(i, 0.0),
                       "edges": spread_amt.get(i, 0.0), "cos": float(parts["cos"][i])},
            )

        out = [recall(i, "base") for i in top_base] + [recall(i, "associative") for i in lifted]
        out.sort(key=lambda r: -r.score)
        return out

    def _streaming(self, cos: np.ndarray, q: np.ndarray, cap: int, now: float,
                   excl: list[int]) -> list[Recall]:
        sp = self.streaming
        c = cos.astype(np.float64)
        if excl:
            c[excl] = -np.inf
        cand = _topk(c, max(sp.candidates, cap))
        cand = [int(i) for i in cand if np.isfinite(c[i])]
        if not cand:
            return []
        ids = [int(self.index.ids[i]) for i in cand]
        counts = self.index.view("count")
        last = self.index.view("last")[cand]
        hours = (now - np.nan_to_num(last, nan=now)) / F.SECONDS_PER_HOUR
        rec = F.recency(hours, never=np.isnan(last), scale=sp.recency_hours)
        mean_count = float(counts.mean()) if len(counts) else 0.0
        freq = F.frequency(counts[cand], mean_count)
        emo = self.index.view("importance")[cand]
        cents = np.zeros((len(cand), len(q)), dtype=np.float32)
        for j, eid in enumerate(ids):
            ce = self.index.centroids.get(eid)
            if ce is not None:
                cents[j] = ce[0]
        assoc = F.association(q, cents)
        static = (sp.w_recency * rec + sp.w_frequency * freq + sp.w_emotion * emo
                  + sp.w_association * assoc)
        # co-retrieval counts among candidates, for the connection term
        pair: dict[tuple[int, int], tuple[int, float]] = {}
        for (a, b), row in self.store.edges_between(ids).items():
            if row[4] > 0:
                pair[(a, b)] = (row[4], row[6])
        emb = self.index.view("emb")[cand]
        selected: list[int] = []  # positions in cand
        conn = np.zeros(len(cand))
        out: list[Recall] = []
        avail = np.ones(len(cand), dtype=bool)
        max_sim = np.zeros(len(cand))
        while len(selected) < min(cap, len(cand)):
            boost = static + sp.w_connection * conn
            score = F.streaming_score(c[cand], boost)
            value = np.where(avail, F.mmr_value(score, max_sim, sp.diversity), -np.inf)
            prob = F.softmax(value, sp.temperature)
            j = int(np.argmax(prob))
            if not avail[j]:
                break
            avail[j] = False
            selected.append(j)
            out.append(Recall(
                episode_id=ids[j], score=float(score[j]), semantic=float(max(c[cand[j]], 0) ** 2),
                recency=float(rec[j]), spread=float(sp.w_connection * conn[j]),
                extra={"frequency": float(freq[j]), "emotion": float(emo[j]),
                       "association": float(assoc[j]), "connection": float(conn[j]),
                       "probability": float(prob[j]), "cos": float(c[cand[j]])},
            ))
            max_sim = np.maximum(max_sim, emb @ emb[j])
            sel_id = ids[j]
            for jj, other in enumerate(ids):
                key = (min(sel_id, other), max(sel_id, other))
                if key in pair:
                    cnt, upd = pair[key]
                    conn[jj] += F.connection(cnt, (now - upd) / F.SECONDS_PER_HOUR, sp.connection_hours)
        return out

    # ---- graph for the view -------------------------------------------------------------
    def graph_snapshot(self, limit: int | None = None) -> dict:
        """Nodes (retrievable episodes) and edges with their effective weights."""
        with self._lock:
            ids = [int(i) for i in self.index.view("ids")]
        if limit is not None and len(ids) > limit:
            ids = ids[-limit:]
        idset = set(ids)
        eps = self.store.episodes(ids)
        nodes = []
        for eid in ids:
            e = eps.get(eid)
            if e is None:
                continue
            label = (e.user_text or e.assistant_text).strip().replace("\n", " ")
            nodes.append(dict(
                id=eid, kind="episode", label=label[:60], text=e.text, created_at=e.created_at,
                access_count=e.access_count, last_access=e.last_access, pinned=e.pinned,
                last_recall=e.last_recall,
            ))
        step = self.store.hebbian_step()
        edges = []
        for a, b, w, prior, _c, st, _u in self.store.all_edges():
            if a in idset and b in idset:
                weff = self.effective_weight(w, prior, st, step)
                if weff > 1e-4:
                    edges.append((a, b, weff))
        return {"nodes": nodes, "edges": edges}


def _topk(values: np.ndarray, k: int) -> list[int]:
    """Row indices of the k largest finite values, best first."""
    n = len(values)
    if n == 0 or k <= 0:
        return []
    k = min(k, n)
    part = np.argpartition(-values, k - 1)[:k]
    part = part[np.argsort(-values[part], kind="stable")]
    return part[np.isfinite(values[part])].tolist()


def fit_budget(recalls: Sequence[Recall], cap: int, budget: int,
               cost: Callable[[Recall], int]) -> list[Recall]:
    """Keep memories in order while the cap and the token budget allow (skipping ones that
    do not fit, so a long memory does not block shorter ones behind it)."""
    out: list[Recall] = []
    used = 0
    for r in recalls:
        if len(out) >= cap:
            break
        t = cost(r)
        if used + t > budget:
            continue
        r.tokens = t
        used += t
        out.append(r)
    return out
