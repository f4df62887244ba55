"""The Hebbian memory engine (Qt-free): storing episodes, retrieving them, learning edges.

`MemoryEngine` keeps an in-memory index (embedding matrix and statistics) of the episodes
that take part in retrieval, backed by the SQLite `Store`.  Two retrieval profiles:

- ``hela`` (default): HeLa-Mem dual-path retrieval on a hybrid, standardised scale — base
  activation = z(dense cosine) + α·z(BM25) + a speaker-field match, times a floored temporal
  decay relative to the question time; the query is embedded without the participants'
  names (names are matched against the speaker field instead).  Spreading adds the
  activation of the episode's conversation (context) and of its graph neighbours (temporal
  adjacency, semantic priors, Hebbian edges).  The result is the top-k by base activation
  plus up to m nodes that spreading lifted into the top-k ("associative" memories);
  ``hela-nospread`` without spreading.
- ``hela-paper``: the published HeLa-Mem formula and constants: (cos+1)/2 + α·IDF keyword
  overlap, times exp(-Δt/τ), spreading β=0.1 from sources above θ=0.6.
- ``streaming``: streaming-memory scoring — cos² gated boost from recency, frequency, emotion,
  association (with query specificity) and connection, softmax with temperature, MMR.
- ``dense``: plain cosine similarity (a baseline).  Every formula is in `formulas`.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np

from . import edges as G
from . import facts, kin
from . import formulas as F
from . import retrieval as R
from .config import PROFILES, HelaParams, Settings, StreamingParams
from .events import Recall
from .facts import STOPWORDS, keywords  # noqa: F401 - keywords is re-exported
from .memory_index import HALF_PRECISION_FROM, MemoryIndex, topk
from .name_index import NameIndex
from .retrieval import fit_budget
from .store import Episode, IndexRow, Store, key_text, to_blob
from .taken_back import TAKEN_BACK
from .words import printable

__all__ = ["HALF_PRECISION_FROM", "PROFILES", "MemoryEngine", "MemoryIndex", "NewEpisode",
           "fit_budget", "keywords"]

# a repeat (`repeat_of`) is looked for among the few memories nearest in meaning
REPEAT_CANDIDATES = 8
REPEAT_MIN_COS = 0.9  # (cosine) the same words embed to the same vector
NAME_CHECK_BATCH = 400  # memories a name is looked for in at a time (`memories_naming`)


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
            for row in self.store.active_index_rows():
                if row.embedding is None or len(row.embedding) != dim:
                    continue
                self._index_add(idx, row, row.embedding)
                cent = row.query_centroid
                if cent is not None and row.query_count and len(cent) == dim:
                    idx.centroids[row.id] = (cent.copy(), int(row.query_count))
            self.index = idx
            self.name_index = NameIndex()
            self.name_index.learn(self.store.user_texts(), dict(self.store.respelled_as(TAKEN_BACK)))
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
        return (codes, re.sub(r"\s+", " ", self._speaker_re.sub(" ", query)).strip()) \
            if codes else (set(), query)

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
                batch_size=batch_size)
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
                    last_in_conv[conv] = self.store.previous_episode(conv, eid)
                prev = last_in_conv[conv]
                if prev is not None and p.temporal_edge > 0:
                    G.add_link(edges, prev, eid, p.temporal_edge)
                if vec is not None and p.semantic_prior and len(self.index):
                    cos = self.index.view("emb") @ vec
                    kk = min(p.semantic_prior_k, len(cos))
                    top = np.argpartition(-cos, kk - 1)[:kk]
                    for r in top:
                        c = float(cos[r])
                        other = int(self.index.ids[r])
                        if c >= p.semantic_prior_min and other != eid:
                            G.add_link(edges, other, eid, p.semantic_prior_scale * c)
                speaker = self._speaker_code((ep.meta or {}).get("speaker"))
                if vec is not None and p.name_edge > 0:
                    # through a person, place or event: link to the latest that name it
                    for other in self._named_before(ep.user_text, eid, p.name_edge_k):
                        G.add_link(edges, other, eid, p.name_edge)
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
        """The names in a memory's text (see `name_index.NameIndex`), participants' names aside."""
        return {n for n in self.name_index.names(text) if n not in self._speakers}

    def user_names(self) -> frozenset[str]:
        """Every name the user writes in their memories (lower case): no made-up name."""
        with self._lock:
            return frozenset(self.name_index.known)

    def respell(self, text: str) -> tuple[str, list[tuple[str, str]]]:
        """`text`, the user's names it misspells written right (`NameIndex.respell`)."""
        with self._lock:
            return self.name_index.respell(text)

    def people_in(self, text: str) -> set[str]:
        """The names in `text` of the people (and animals) of the user's life: a relation
        ("my mum"), or a name a memory of theirs calls theirs ("My sister Ines lives in
        Lyon.", "with my friend Tomas", "Biscuit is my dog").  A place or a thing they
        name ("Berlin", "Python", "a trip to Japan") is not one."""
        out: set[str] = set()
        for n in self.names_in(text):
            if n.startswith("my "):
                out.add(n)
                continue
            theirs = kin.as_theirs(n)
            texts = self.store.key_texts(self.memories_naming(n, 20))
            if any(theirs.search(t) for t in texts.values()):
                out.add(n)
        return out

    def tells_of(self, relation: str) -> bool:
        """Does a retrievable memory of the user's speak of `relation` ("son"), as "my son" or
        in a looser word (`facts.KIN_ALSO`: "my eight-year-old", "the kids")?"""
        if self.memories_naming("my " + relation, 1) or relation in kin.GRANDCHILD and any(
                kin.tells_grandchild(relation, t) for t in self.store.key_texts([i for r in (
                    "son", "daughter") for i in self.memories_naming("my " + r, 50)]).values()):
            return True  # (a child's child, "…their baby daughter Elsa": `kin.GRANDCHILD`)
        also = facts.KIN_ALSO.get(relation, ())
        hits = self.store.keyword_hits(list(also), limit_per_term=200)
        ids = [i for t in also for i in hits.get(t, []) if i in self.index.pos][:400]
        said = re.compile(r"(?<!\w)(?:" + "|".join(re.escape(w).replace(r"\ ", r"[\s-]")
                                                    for w in also) + r")(?!\w)", re.IGNORECASE)
        return bool(also) and any(said.search(t) for t in self.store.key_texts(ids).values())

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
            return [i for i in ids if relation in facts.kin(texts.get(i, ""))][:limit]
        # the keyword index stems ("Ines" is "in" to it, so every memory saying "in" came
        # in as naming her, QA pass 23): the name itself, as a word, in the user's words
        said = re.compile(rf"(?<!\w){re.escape(name)}(?!\w)", re.IGNORECASE)
        out: list[int] = []
        for at in range(0, len(ids), NAME_CHECK_BATCH):
            chunk = ids[at:at + NAME_CHECK_BATCH]
            texts = self.store.key_texts(chunk)
            out += [i for i in chunk if said.search(texts.get(i, ""))]
            if len(out) >= limit:
                break
        return out[:limit]

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

    def edit_episode(self, episode_id: int, user_text: str, assistant_text: str) -> None:
        """Change an episode's text; it is re-embedded so retrieval follows the edit."""
        user_text, assistant_text = printable(user_text), printable(assistant_text)
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

    def repeat_of(self, text: str, vec: np.ndarray | None = None) -> int | None:
        """The live memory whose words a question, request or small talk repeats (case,
        spacing and punctuation aside; `facts.word_key`), or None.  Asked again, "What is my
        dog's name?" or "thanks" is the same memory, not another copy of it.  Only a message
        that only asks (`facts.only_asks`) can repeat: a statement said again is news again
        (a later "I'm vegan." must count as newer than an "I eat meat now." said in
        between).  `vec`: the message's vector, if known."""
        key = facts.word_key(text)
        if not key or not facts.only_asks(text) or not len(self.index):
            return None
        q = self.embed_query(text) if vec is None or not len(vec) else vec
        with self._lock:
            n = len(self.index)
            if not n:
                return None
            cos = self.index.similarity(np.asarray(q, dtype=np.float32))
            k = min(REPEAT_CANDIDATES, n)
            top = np.argpartition(-cos, k - 1)[:k]
            cands = [int(self.index.ids[i]) for i in top if cos[i] >= REPEAT_MIN_COS]
        texts = self.store.key_texts(cands)
        same = [i for i in cands if facts.word_key(texts.get(i, "")) == key]
        return max(same) if same else None

    def touch(self, episode_id: int, at: float) -> None:
        """The user needed memory `episode_id` again at `at` (they asked it again): it counts
        as used then, for forgetting and for recency, but not as recalled."""
        with self._lock:
            self.store.touch_episode(episode_id, at)
            i = self.index.pos.get(episode_id)
            if i is not None and not (self.index.last[i] >= at):
                self.index.last[i] = at

    def delete_episode(self, episode_id: int, reason: str | None = None) -> None:
        """Soft delete: out of retrieval and the graph, restorable with `restore_episode`
        (`reason`: why, when the user did not delete it by hand)."""
        with self._lock:
            self.store.set_deleted(episode_id, True, reason)
            self.index.remove(episode_id)

    def restore_episode(self, episode_id: int, now: float | None = None) -> None:
        """Undo a soft delete or an archive: back in retrieval with its edges, its last use
        as it was, and brought back `now` (by hand, it is needed: the next idle pass must
        not archive it again as stale; `Store.mark_restored`)."""
        with self._lock, self.store.transaction():
            self.store.set_deleted(episode_id, False)
            self.store.set_archived(episode_id, None)
            self.store.mark_restored([episode_id], time.time() if now is None else now)
        self._reindex_one(episode_id)

    def _reindex_one(self, episode_id: int) -> None:
        row = self.store.index_row(episode_id)
        if row is not None and row.embedding is not None:
            self._index_add(self.index, row, row.embedding)
        self._kw_cache.clear()

    def _index_add(self, idx: MemoryIndex, row: IndexRow, vec: np.ndarray) -> None:
        idx.add(row.id, vec, row.created_at, row.access_count, row.last_access,
                row.importance, row.conversation_id, self._speaker_code(row.speaker))

    # ---- edges ------------------------------------------------------------------------
    def effective_weight(self, weight: float, prior: float, edge_step: int,
                         step: int | None = None) -> float:
        """prior + w·(1-λ)^(steps since written), capped — the weight spreading uses."""
        step = self.store.hebbian_step() if step is None else step
        return G.effective_weight(weight, prior, edge_step, step, self.hela.lam,
                                  self.hela.weight_cap)

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
            deltas = G.coactive_deltas(active, p.eta)
        now = time.time() if now is None else now
        with self._lock, self.store.transaction():
            step = self.store.hebbian_step() + 1
            self.store.set_meta("hebbian_step", str(step))
            if not deltas:
                return step
            existing = self.store.edges_between({i for pair in deltas for i in pair})
            rows = G.hebbian_rows(deltas, existing, step, now, p)
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

    def most_similar(self, query_vec: np.ndarray, k: int) -> list[tuple[int, float]]:
        """The `k` live memories whose key (the user's words) is closest to `query_vec`:
        (episode id, cosine), best first — meaning only, no recency or links."""
        with self._lock:
            sims = self.index.similarity(query_vec)
            return [(int(self.index.ids[i]), float(sims[i])) for i in topk(sims, k)]

    def most_similar_many(self, vecs: Sequence[np.ndarray], k: int
                          ) -> list[list[tuple[int, float]]]:
        """`most_similar` for several vectors in one scan of the index (the gate looks for
        newer news of each memory it lets in: one scan each cost 30–50 ms at 100k)."""
        if not vecs:
            return []
        with self._lock:
            sims = self.index.similarity(np.stack(vecs, axis=1))
            ids = self.index.ids
            return [[(int(ids[i]), float(sims[i, j])) for i in topk(sims[:, j], k)]
                    for j in range(len(vecs))]

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
            if profile in ("hela", "hela-nospread"):  # its own cosine (may re-embed the query)
                res = R.hela_hybrid(self.index, self.hela,
                                    self.hybrid_base(query, q, now, may_embed=own_vec),
                                    k or self.hela.k, excl,
                                    spread=self.hela.spread and profile == "hela",
                                    edge_spread=self._edge_spread)
            else:
                res = self._rank_by_cosine(profile, query, q, k, now, excl)
        if with_text and res:
            eps = self.store.episodes({r.episode_id for r in res}
                                      | {r.spread_from for r in res if r.spread_from is not None})
            for r in res:
                e = eps.get(r.episode_id)
                if e:
                    r.text = e.key
                    self._name_link(r, eps)
        return res

    def _name_link(self, r: Recall, eps: Mapping[int, Episode]) -> None:
        """The names (people, places, pets, events) a recall shares with the memory whose
        link sent it most of its spread, into ``extra["link_names"]`` (the why-recalled
        panel says what a prior link stands for)."""
        src = eps.get(r.spread_from) if r.spread_from is not None else None
        if src is not None and "link" in r.extra:
            shared = self.names_in(r.text) & self.names_in(src.key)
            if shared:
                r.extra["link_names"] = sorted(shared)

    def search(self, query: str, *, limit: int = 200) -> list[Recall]:
        """Memories matching `query` by meaning plus keywords, best first — the memory
        browser, the graph's find box and ``memories search``: `formulas.search_score` over
        the retrievable memories, statements before questions as close
        (`formulas.statements_first`).  Each result carries its score, ``semantic`` (cosine) and
        ``keyword`` (share of the best BM25 score) and its text.  When nothing matches,
        the few nearest in meaning (`formulas.nearest_by_meaning`), with path "nearest";
        path "answer": matched only by its stored answer (`in_answer`)."""
        query = query.strip()
        with self._lock:
            if not len(self.index) or not query:
                return []
            cos = self.index.similarity(self.embed_query(query)).astype(np.float64)
            bm = self.bm25_scores(query)
            pos = self.index.pos
            in_answer = np.zeros(len(cos), dtype=bool)
            wanted = keywords(query)  # (whole words: "May" is not "maybe", QA pass 36b)
            in_answer[[pos[eid] for eid, _u, a in self.store.answers_containing(wanted, every=True)
                       if eid in pos and facts.says_words(a, wanted)]] = True
            score = F.search_score(cos, bm, in_answer=in_answer)
            # the words as written, after every scored match: BM25 drops "Will" as a stopword
            # (QA pass 36: `memories search Will` found nothing, the browser both)
            as_written = np.zeros(len(cos), dtype=bool)
            as_written[[pos[e.id] for e in self.store.list_episodes(search=query, limit=limit)
                        if e.id in pos]] = True
            score[as_written & ~np.isfinite(score)] = 0.0
            top = float(bm.max())
            order = [int(i) for i in np.argsort(-score, kind="stable") if np.isfinite(score[i])]
            order = order[:limit]
            said = dict(self.store.episodes(int(self.index.ids[i]) for i in order))  # read once
            tells = np.array([facts.is_statement(said[e].user_text) if e in said else False
                              for e in (int(self.index.ids[i]) for i in order)], dtype=bool)
            score[order] = F.statements_first(score[order], tells)
            order.sort(key=lambda i: -score[i])  # (stable: ties keep their order)
            words = (bm > 0) | F.by_meaning(cos) | as_written  # the user's own words
            res = [Recall(int(self.index.ids[i]), float(score[i]), semantic=float(cos[i]),
                          keyword=float(bm[i] / top) if top > 0 else 0.0,
                          path="search" if words[i] else "answer",
                          extra={"as_written": True} if as_written[i] and not bm[i] else {})
                   for i in order]
            if not any(words[i] and t for i, t in zip(order, tells)):
                # nothing the user stated matches (at most an answer that has the words, or
                # a question: "job" matched "What does Samir do for a living?" and not "I
                # work as a civil engineer…", QA pass 28): the nearest in meaning too,
                # offered as such; among statements, when a question matched
                have = {r.episode_id for r in res}
                near = self._nearest_said(cos, said, statements=bool(words.any()))
                res += [Recall(int(self.index.ids[i]), float(cos[i]), semantic=float(cos[i]),
                               path="nearest")
                        for i in F.nearest_by_meaning(near, k=min(3, limit))
                        if int(self.index.ids[i]) not in have]
                res = sorted(res, key=lambda r: -r.score)[:limit]
            res = self._with_corrections(res, cos, bm / top if top > 0 else bm)
        said.update(self.store.episodes(r.episode_id for r in res if r.episode_id not in said))
        for r in res:
            e = said.get(r.episode_id)
            r.text = e.text if e else ""
        return res

    def _nearest_said(self, cos: np.ndarray, said: dict, *, statements: bool,
                      pool: int = 50) -> np.ndarray:
        """`cos`, or, with `statements`, `cos` with every memory that is not among the
        `pool` nearest statements set to −1 (`said`: the episodes read so far, by id; the
        others of the pool are read into it)."""
        if not statements:
            return cos
        top = topk(cos, pool)
        ids = [int(self.index.ids[i]) for i in top]
        said.update(self.store.episodes(e for e in ids if e not in said))
        out = np.full(len(cos), -1.0)
        for i, e in zip(top, ids):
            if e in said and facts.is_statement(said[e].user_text):
                out[i] = cos[i]
        return out

    def _with_corrections(self, res: list[Recall], cos: np.ndarray, kw: np.ndarray
                          ) -> list[Recall]:
        """Search results with the later statement that corrects each, right before it,
        as good a match (QA pass 26: "where does my sister live" found "My sister Ines
        lives in Lyon." and not "Actually Ines moved to Porto.", which shares no word of
        it): path "correction" (its own cosine and keyword share, from `cos` and `kw` by
        index row), ``extra["corrects"]`` the memory it came for; one found anyway moves
        up before it.  The corrected one carries ``extra["corrected_by"]``."""
        from .knowledge import corrections

        fixes = corrections(self.store, [r.episode_id for r in res])
        if not fixes:
            return res
        found = {r.episode_id: r for r in res}
        out: list[Recall] = []
        placed: set[int] = set()
        for r in res:
            if r.episode_id in placed:
                continue
            b = fixes.get(r.episode_id)
            if b is not None and b not in placed and b in self.index.pos:
                # found too, further down ("physiotherapist" finds "I no longer work as a
                # physiotherapist…" after "I work as a physiotherapist."): it comes up
                at = self.index.pos[b]
                fix = found.get(b) or Recall(
                    b, r.score, semantic=float(cos[at]), keyword=float(kw[at]),
                    path="nearest" if r.path == "nearest" else "correction")
                fix.extra["corrects"] = r.episode_id
                out.append(fix)
                placed.add(b)
            if b is not None:
                r.extra["corrected_by"] = b
            at_fix = next((k for k, x in enumerate(out) if x.episode_id == b), None) \
                if b is not None else None
            if at_fix is not None and at_fix < len(out) - 1:  # its correction ranked higher,
                out.insert(at_fix + 1, r)  # others between: it follows it (QA pass 27)
            else:
                out.append(r)
            placed.add(r.episode_id)
        return out

    def _rank_by_cosine(self, profile: str, query: str, q: np.ndarray, k: int | None,
                        now: float, excl: list[int]) -> list[Recall]:
        """The profiles ranked on the plain query cosine: dense, streaming, hela-paper."""
        cos = self.index.similarity(q)
        if profile == "dense":
            return R.dense(self.index, cos, k or self.hela.k, excl)
        if profile == "streaming":
            return R.streaming(self.index, self.streaming, self.store, cos, q,
                               k or self.settings.max_memories, now, excl)
        paper = replace(self.hela, theta=self.hela.paper_theta, beta=self.hela.paper_beta)
        return R.hela_paper(self.index, paper, self.base_activation(query, cos, now), cos,
                            k or self.hela.k, excl, spread=self.hela.spread,
                            edge_spread=self._edge_spread)

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
        sim = np.asarray(F.similarity(cos.astype(np.float64)))
        kw, _ = self.keyword_scores(query)
        decay = F.temporal_decay(now - self.index.view("created"), p.tau_days)
        return F.base_activation(sim, kw, decay, p.alpha), sim, kw, decay

    def bm25_scores(self, query: str) -> np.ndarray:
        """Okapi BM25 of `query`'s keywords for every indexed row (SQLite FTS5 ``bm25()``,
        porter-stemmed), 0 where no keyword occurs.  In pools larger than
        ``HelaParams.common_cap``, terms present in more than that many memories are skipped."""
        n = len(self.index)
        out = np.zeros(n, dtype=np.float64)
        terms = [t.replace('"', "") for t in keywords(query)[:24]]
        # terms in more than `common_cap` memories are too common to rank by (low idf), and
        # would make FTS5 score most of a large pool: left out
        cap = self.hela.common_cap
        if n > cap:
            terms = [t for t in terms if self._doc_count(t, cap + 1) <= cap]
        if not terms:
            return out
        rows = self.store.bm25(" OR ".join(f'"{t}"' for t in terms))  # none: FTS5 failed
        pos = self.index.pos
        idx = [(pos[r], -s) for r, s in rows if r in pos]
        if idx:
            ii, vv = zip(*idx, strict=True)
            out[list(ii)] = vv
        return out

    def _doc_count(self, term: str, limit: int) -> int:
        """Memories containing `term`, counted up to `limit` (an unparsable term counts as
        `limit`: skipped), cached until the pool changes."""
        key = "\0df\0" + term
        if key not in self._kw_cache:
            df = self.store.keyword_doc_count(term, limit)
            self._kw_cache[key] = [limit if df is None else df]
        return self._kw_cache[key][0]

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

    def _edge_spread(self, sources: list[int], lam: float, cap: float) -> R.SpreadEdges:
        """The edges leaving `sources` (rows): source and neighbour rows, effective weights,
        their learned parts and co-activation counts."""
        src_ids = {int(self.index.ids[i]): i for i in sources}
        rows = self.store.edges_of(src_ids)
        weights, learned = G.edge_parts(rows, self.store.hebbian_step(), lam, cap)
        pos = self.index.pos
        out: list[tuple[int, int, float, float, int]] = []
        for r, weff, lp in zip(rows, weights, learned, strict=True):
            if weff <= 0:
                continue
            for s_id, nb in ((r.src, r.dst), (r.dst, r.src)):
                if s_id in src_ids and nb in pos:
                    out.append((src_ids[s_id], pos[nb], float(weff), float(lp), r.count))
        cols = list(zip(*out)) or [(), (), (), (), ()]
        return R.SpreadEdges(np.array(cols[0], dtype=np.int64), np.array(cols[1], dtype=np.int64),
                             np.array(cols[2], dtype=np.float64),
                             np.array(cols[3], dtype=np.float64),
                             np.array(cols[4], dtype=np.int64))

    # ---- graph for the view -------------------------------------------------------------
    def graph_snapshot(self, limit: int | None = None) -> dict:
        """Nodes (retrievable episodes; the latest `limit`) and edges with their effective
        weights (above 1e-4), as the dict the view reads (``edges.GraphSnapshot.as_dict``)."""
        with self._lock:
            ids = [int(i) for i in self.index.view("ids")]
        if limit is not None and len(ids) > limit:
            ids = ids[-limit:]
        eps = self.store.episodes(ids)
        return G.graph_snapshot(self.store, lam=self.hela.lam, cap=self.hela.weight_cap,
                                episodes=[eps[i] for i in ids if i in eps],
                                min_weight=1e-4).as_dict()
