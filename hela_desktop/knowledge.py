"""Distilled semantic knowledge as its own retrievable node type (Qt-free).

Reflective consolidation (:mod:`hela_desktop.consolidate`) writes knowledge items to the
``knowledge`` table, each linked to the episodes it came from (``knowledge_sources``).
Only *live* items (neither superseded nor archived) take part in retrieval.

`KnowledgeIndex` keeps their embeddings in a matrix and answers top-k cosine queries; it
notices any change of the table (another thread, another process, an import) through a
cheap fingerprint query and reloads itself.  `retrieve_knowledge` is the one-call API::

    recalls = retrieve_knowledge(engine, engine.embed_query("what does the user like?"), k=3)
    [(r.episode_id, r.text, r.extra["sources"]) for r in recalls]   # episode_id = knowledge id

A knowledge recall is a :class:`~hela_desktop.events.Recall` with ``kind="knowledge"``;
its ``episode_id`` is the *knowledge* id, ``score``/``semantic`` the cosine similarity, and
``extra`` holds ``knowledge_kind`` (user_model / fact / persona), ``strength`` and
``sources`` (the provenance episode ids).
"""

from __future__ import annotations

import functools
import re
import threading
import weakref
from collections.abc import Iterable

import numpy as np

from . import facts, superseded
from . import formulas as F
from .config import GateParams
from .correction_cues import CORRECTION_CUES
from .doses import medicine_doses
from .events import Recall
from .name_index import NameIndex
from .prompt import shorten
from .store import AUTHORS, KnowledgeItem, Store
from .words import printable

__all__ = ["KINDS", "KnowledgeIndex", "KnowledgeItem", "list_knowledge", "retrieve_knowledge"]

KINDS = ("user_model", "fact", "persona")

def _store_of(engine_or_store) -> Store:
    return engine_or_store if isinstance(engine_or_store, Store) else engine_or_store.store


def sources_of(store: Store, knowledge_ids: Iterable[int]) -> dict[int, list[int]]:
    """Provenance: knowledge id -> the episode ids it was distilled from (sorted)."""
    return store.knowledge_sources(knowledge_ids)


def list_knowledge(store: Store, *, include_superseded: bool = False,
                   kind: str | None = None) -> list[KnowledgeItem]:
    """Knowledge items for a browser tab, strongest first, with their source episodes."""
    return store.list_knowledge(include_superseded=include_superseded, kind=kind)


# ---- grounding: is a distilled item supported by the user's own words? ----------------
GROUNDED_MIN = 0.6  # share of an item's content words found in its sources' user words
# words that link what an item claims, not claims (stems: "likes" is "lik"; until 0.19
# only the words as written were left out, so "likes" and "loves" counted as claims)
_GENERIC = frozenset(facts.stems("user assistant the likes like loves love enjoys enjoy wants "
                                 "want person someone named called name"))
_OTHER_VOICE = frozenset("i i'm im i've ive i'd i'll me my mine myself you you're youre "
                         "you've your yours yourself sorry apologize apologise".split())
_PREFIXES = ("The user ", "The assistant ")


def claim_words(text: str) -> list[str]:
    """The content words (stems) an item claims, its "The user …" prefix aside."""
    for pre in _PREFIXES:
        if text.startswith(pre):
            text = text[len(pre):]
            break
    return [w for w in facts.stems(text) if w not in _GENERIC]


def speaks_as_assistant(text: str) -> bool:
    """Knowledge is about the user, in the third person; "I", "you", "sorry" mean the text
    is the assistant talking (an apology distilled into a "fact")."""
    words = {w.lower().replace("’", "'") for w in facts._WORD.findall(text)}
    return bool(words & _OTHER_VOICE)


# "The user is a dog named Biscuit …": what the user is, said of the user
_IDENTITY = re.compile(r"^the user is (?:a|an) ([\w' -]+)", re.IGNORECASE)
_NOUN_ENDS = frozenset("named called who whose that which and or but in at on with from of for "
                       "to by since".split())


def identity_noun(text: str) -> str | None:
    """What an item says the user is: "The user is a paediatric nurse in Porto." -> "nurse",
    "The user is a dog named Biscuit." -> "dog"; None for any other item ("The user is
    vegan.", "The user has a dog.")."""
    m = _IDENTITY.match(text.strip())
    if not m:
        return None
    words: list[str] = []
    for w in m.group(1).split():
        if w.lower() in _NOUN_ENDS or len(words) == 3:
            break
        words.append(w)
    return words[-1] if words else None


def says_who_they_are(noun: str, user_texts: Iterable[str]) -> bool:
    """Did the user say they are `noun` ("I'm a paediatric nurse", "I am vegan", "I work as
    a nurse"), rather than only speak of their `noun` ("my dog")?"""
    said = re.compile(r"\b(?:i'?m|i am|i was|i've been|i have been|as)\s+(?:(?:a|an|the)\s+)?"
                      rf"(?:[\w'-]+\s+){{0,2}}?{re.escape(noun)}", re.IGNORECASE)
    return any(said.search(t.replace("’", "'")) for t in user_texts)


# a sentence about someone or some animal of the user's ("My sister Ana lives in Lisbon")
_THEIRS = re.compile(r"^\W*(?:and\s+|but\s+|so\s+|also\s+)?(?:my|our)\s+([\w'’-]+)", re.IGNORECASE)
# the first word of a sentence, after a word that only links it ("Actually Ines moved to
# Porto." -> "Ines"): when it is a name the sentence tells of that one, not of the user
_SUBJECT = re.compile(rf"^\W*(?:(?:{'|'.join(facts.LINK_WORDS)})\b[\s,:;—–-]*)*([\w'’-]+)",
                      re.IGNORECASE)
# a sentence about a thing ("The dentist moved to Thursday.", "The haircut appointment is
# on Friday.", "The new job starts in May."): the word after "the", past a word that only
# says which, names the thing an item must name
_BEFORE_THING = frozenset("new old next last first second other same whole main big little "
                          "best worst usual".split())
_THING = re.compile(r"^\W*(?:(?:and|but|so|also|actually|now|oh|update|well)\b[\s,:;—–-]*)*"
                    r"the\s+([a-z][\w'’-]*)(?:\s+([a-z][\w'’-]*))?", re.IGNORECASE)
_ANIMALS = facts.PETS


def names_used(user_texts: Iterable[str]) -> set[str]:
    """The names (lower case) the user uses in `user_texts` (`name_index.NameIndex`)."""
    people = NameIndex()
    people.learn(user_texts)
    return people.known


def vouching_words(text: str, user_texts: Iterable[str],
                   names: set[str] | None = None) -> set[str]:
    """The words (stems) of the user's sentences that can vouch for the item `text`: only
    sentences that tell (asking "Where does my sister live?" or "Write a story about a
    pharmacist in Leeds" says nothing true of the user), and a sentence about someone or
    some animal of theirs only for an item that names them: "My sister Ana lives in
    Lisbon." vouches for "The user's sister lives in Lisbon", never for "The user lives in
    Lisbon." (an idle pass distilled that, and answers used it).  Likewise a sentence
    whose subject is a name the user uses (`name_index.NameIndex`) vouches only for an item that
    names them: "Actually Ines moved to Porto." never for "The user moves to Porto.".  And
    a sentence about a thing ("The dentist moved to Thursday.") vouches only for an item
    that names it (`_THING`): an idle pass distilled "The user moves to Thursday." from it
    (QA pass 33)."""
    named = {facts.KIN.get(w, w) for w in facts._words(text)}
    stems_named = set(facts.stems(text))
    user_texts = list(user_texts)
    names = names_used(user_texts) if names is None else names
    out: set[str] = set()
    for t in user_texts:
        for s in facts.sentences(t):
            if not facts.is_statement_sentence(s):
                continue
            m = _THEIRS.match(s)
            who = m.group(1).lower().replace("’", "'").removesuffix("'s") if m else ""
            if (who in facts.KIN or who in _ANIMALS) and facts.KIN.get(who, who) not in named:
                continue
            m = _SUBJECT.match(s)
            who = m.group(1).lower().replace("’", "'").removesuffix("'s") if m else ""
            if who in names and who not in named:
                continue
            m = _THING.match(s)
            thing = m and (m.group(2) if m.group(1).lower() in _BEFORE_THING else m.group(1))
            if thing and facts.stem(thing) not in stems_named:
                continue
            out.update(facts.stems(s))
    return out


def support(text: str, user_texts: Iterable[str]) -> float:
    """How well the user's own words support an item: the share of its content words they
    contain (``formulas.support_share``); 0 for an item in the assistant's voice, and for
    one that says what the user is ("The user is a dog named Biscuit") when the user never
    said they are that (a reflection had read "My dog is called Biscuit" as who the user
    is, and every later prompt said so).  An item of several sentences is as well
    supported as its least supported one: "The user has two cats. Ines has two cats. Ines
    is a nurse at a hospital in Porto." passed on the nurse's words, from "My sister Ines
    has two cats." (QA pass 26).  In an item that says something of the user ("The user
    …"), the names in it are not counted as claimed words, when it claims any other."""
    if speaks_as_assistant(text):
        return 0.0
    user_texts = list(user_texts)
    parts = facts.sentences(text)
    if len(parts) > 1:
        return min(support(s, user_texts) for s in parts)
    noun = identity_noun(text)
    if noun and not says_who_they_are(noun, user_texts):
        return 0.0
    names = names_used(user_texts)
    claim = claim_words(text)
    if text.startswith("The user "):  # what it claims of the user, not the names in it:
        # "The user has a fond memory of Ines moving to Porto." passed at 60 % on "Ines",
        # "moving" and "Porto" from "Actually Ines moved to Porto." (QA pass 26)
        claim = [w for w in claim if w not in {facts.stem(n) for n in names}] or claim
    return F.support_share(claim, vouching_words(text, user_texts, names))


def vouchers(text: str, sources: dict[int, str]) -> list[int]:
    """Of the memories (id -> the user's words) an item was distilled from, those whose
    words vouch for it (`vouching_words`: a word it claims); all of them when none does
    alone (QA pass 33: "The user has been vegetarian since this summer." listed five
    sources, four of them questions about a sister and a tortoise)."""
    claim = set(claim_words(text))
    # (a word of change alone vouches for nothing: "The dentist moved to Friday." is no
    # source of "The user has moved to Truro.", QA pass 33b)
    claim = claim - facts.CHANGE_STEMS or claim
    names = names_used(sources.values())
    out = [i for i, t in sources.items() if claim & vouching_words(text, [t], names)]
    return out or list(sources)


def is_grounded(text: str, user_texts: Iterable[str]) -> bool:
    return support(text, user_texts) >= GROUNDED_MIN


def item_support(store: Store, item: KnowledgeItem) -> float:
    """Support of a stored item by the user words of its source episodes, those the user
    deleted left out: what they took back no longer vouches for anything."""
    return support(item.text, store.kept_key_texts(item.sources).values())


# ---- what the user corrected later ----------------------------------------------------
SAME_SUBJECT = GateParams().same_subject_min  # the gate's bar for "the same subject"


def corrections(store: Store, ids: Iterable[int], *,
                min_similarity: float = SAME_SUBJECT) -> dict[int, int]:
    """Episode id -> the newest later statement of the user's that corrects it: one that
    says it corrects and shares a content word with it (`facts.corrects_memory`: "Actually
    the trip is in June, not May." for "I'm planning a trip to Japan in May …"), on the
    same subject (cosine ≥ `min_similarity`); a correction corrected in turn ("Actually
    the trip moved to July.") hands on to its own.  Only statements are corrected, and, as
    in the gate's newer news, only by the user's words here, not by an imported assistant
    chat; a correction the user deleted corrects nothing."""
    wanted = set(ids)
    out = _newest(_direct_corrections(store, wanted, min_similarity))
    looked = set(wanted)
    todo = set(out.values()) - looked
    for _ in range(8):  # chains are short; a bound all the same
        if not todo:
            break
        looked |= todo
        more = _newest(_direct_corrections(store, todo, min_similarity))
        out.update(more)
        todo = set(more.values()) - looked
    for a in list(out):
        b, seen = out[a], {a}
        while b in out and b not in seen:
            seen.add(b)
            b = out[b]
        out[a] = b
    return {a: b for a, b in out.items() if a in wanted}


def shown_corrections(store: Store, ids: Iterable[int]) -> dict[int, int]:
    """`corrections`, and for a memory it finds none of, the newest correction an answer's
    line confirmed to the user ("Noted as a correction of …: it is kept, marked as older
    news.", `Store.recorded_corrections`), followed on to its own: what the Memories tab
    and `memories show` say (QA pass 53a: "…my warfarin dose went up from 3 mg to 4 mg."
    was noted as correcting "…3 mg a day." in the chat, and the tab said nothing)."""
    wanted = set(ids)
    out = corrections(store, wanted)
    confirmed = store.recorded_corrections(every=True)
    for a in wanted - set(out):
        news = confirmed.get(a, [])
        kept = store.kept_key_texts(news) if news else {}
        newest = next((b for b in news if b in kept), None)
        if newest is not None:
            out[a] = corrections(store, [newest]).get(newest, newest)
    return out


def _newest(every: dict[int, list[int]]) -> dict[int, int]:
    return {a: bs[0] for a, bs in every.items()}


def all_corrections(store: Store, ids: Iterable[int], *,
                    min_similarity: float = SAME_SUBJECT,
                    texts: dict[int, str] | None = None) -> dict[int, list[int]]:
    """Episode id -> every later statement of the user's that corrects it, the newest
    first (`corrections`' test, no chains): of a memory that said several things, each
    may correct its own part ("The haircut moved to Wednesday.", "We now live in York."
    of a paragraph that said both, QA pass 32).  `texts`: the memories' words, given (one
    just deleted is no longer among those kept)."""
    return _direct_corrections(store, set(ids), min_similarity, texts)


_HE = frozenset({"he", "she", "they"})


def standing_cautions(store: Store, said: Iterable[tuple[int, str]],
                      fixed: dict[int, str] | None = None, **whom) -> list:
    """The cautions of the user's statements `said` (id, words; `cautions.cautions`,
    `whom`: its about, named and own), less those a later correction takes back: what
    still holds of the statement after every correction the store knows of it
    (`all_corrections`), and `fixed` (id -> the words of the message that has just
    corrected it), sets none (QA pass 46a: "Sam has started eating fish, so he's
    pescatarian now rather than vegetarian." was answered under "it names “fish” without a
    word of warning, and you told me “My partner Sam is vegetarian.”"; "Karim turned 7."
    leaves "…is 6 and allergic to sesame." its allergy)."""
    from .cautions import cautions  # (cautions is read per turn; knowledge at start-up)

    texts = dict(said)
    found = cautions(texts.items(), **whom)
    ids = {c.episode_id for c in found if c.episode_id}
    every = all_corrections(store, ids) if ids else {}
    news = store.key_texts({b for bs in every.values() for b in bs})
    gone = set()
    # (what still holds may say it of "he": "He's allergic to shellfish." of "Our son Arjun
    # is 6 and he's allergic to shellfish." once "Arjun just turned 7.", QA pass 48a)
    again: dict = {k: frozenset(v) | _HE if k in ("about", "named") and v else v
                   for k, v in whom.items()}
    told_of: dict[int, list[tuple[int, str]]] = {}
    for i in ids:
        told_of[i] = [(b, news[b]) for b in every.get(i, []) if b in news] + (
            [(0, fixed[i])] if fixed and i in fixed else [])
        told = [t for _, t in told_of[i]]
        rest = superseded.still_true(texts[i], told) if told else texts[i]
        if not rest or not cautions([(i, rest)], **again):
            gone.add(i)
    # (only where a correction names what makes it a caution: "…it's 1000 mg now instead of
    # 500" of "She takes metformin 500 mg … and amlodipine for blood pressure." leaves the
    # amlodipine's, QA pass 52a: no grapefruit caution)
    return [_as_dosed_anew(c, told_of[c.episode_id], texts[c.episode_id])
            if c.episode_id in gone else c for c in found if c.episode_id not in gone
            or not _names_cause([t for _, t in told_of[c.episode_id]], texts[c.episode_id], c, whom)]


def _as_dosed_anew(caution, told: list[tuple[int, str]], said: str):
    """`caution`, of the statement `said`, quoted from the newest memory of `told` that
    gives its medicine a new dose: the medicine still taken, as now ("you told me “My
    doctor has lowered my warfarin to 2.5 mg a day.”", not the 3 mg it replaced: QA pass
    55b)."""
    taken = set(medicine_doses(said))
    return next((caution._replace(episode_id=b, text=t) for b, t in told
                 if b and taken & set(medicine_doses(t))), caution)


def _names_cause(told: list[str], said: str, caution, whom: dict) -> bool:
    """Does a correction of `told` name a word of the statement `said` without which the
    words of its `caution` are not all found (the food, the diet, the medicine; a dose or
    a day is none)?"""
    from .cautions import cautions

    fixed = set().union(*(facts.terms(t) for t in told)) if told else set()
    # (not a medicine given a new dose: it is still taken, "My doctor has lowered my
    # warfarin to 2.5 mg a day.", QA pass 55b)
    fixed -= {facts.stem(m) for t in told for m in medicine_doses(t)}
    for m in re.finditer(r"[\w'’-]+", said):
        if facts.stem(m.group(0).lower()) in fixed and m.group(0).lower() not in facts.STOPWORDS:
            blank = said[:m.start()] + "x" + said[m.end():]
            left = set().union(*(c.avoid for c in cautions([(0, blank)], **whom)))
            if not caution.avoid <= left:
                return True
    return False


def corrected_by(store: Store, text: str, near: Iterable[tuple[int, float]], at: float, *,
                 min_similarity: float = SAME_SUBJECT) -> dict[int, str]:
    """The user's earlier statements that their new message `text` corrects, by
    `corrections`' test (`facts.corrects_memory`, on the same subject: cosine ≥
    `min_similarity`), among `near` (memory id and its cosine to `text`,
    `MemoryEngine.most_similar`), said before `at`, nearest first, with their words: what
    the chat confirms under the answer ("Noted as a correction of …", QA pass 28: a
    correction was answered "You can't have Samir as a paramedic, he's now a nurse." and
    nothing said it was taken)."""
    if not facts.corrects(text):
        return {}
    near = list(near)
    olds = store.kept_key_texts([i for i, _ in near])
    # (a memory of several parts: its one on the subject counts, `formulas.subject_bar`)
    close = [i for i, c in near if i in olds
             and c >= F.subject_bar(min_similarity, len(superseded.told_parts(olds[i])))]
    when = store.created_times(olds)
    return {i: olds[i] for i in close if i in olds and when.get(i, at) < at
            and facts.is_statement(olds[i]) and facts.corrects_memory(olds[i], text)}


@functools.lru_cache(maxsize=1 << 16)
def _correcting(text: str) -> bool:
    """Is `text` a statement that says it corrects (`facts.corrects`)?  Read once a text:
    every turn looks (the gate's newer news and what still holds: 74 ms of a 111 ms gate
    call on 400 LoCoMo turns, most of it these patterns over the same rows)."""
    return facts.corrects(text) and facts.is_statement(text)


def _direct_corrections(store: Store, ids: Iterable[int], min_similarity: float,
                        texts: dict[int, str] | None = None) -> dict[int, list[int]]:
    """`_corrections_of`, each memory's read once while the store is unchanged (the gate
    asks for the same memories at every re-retrieval of an answer; the store writes
    between turns, `sqlite3.Connection.total_changes`, `Store.data_version`)."""
    if texts is not None:
        return _corrections_of(store, ids, min_similarity, texts)
    # (this connection's writes, and another's: the idle reflection writes through its own)
    key = (store.conn.total_changes, store.data_version(), min_similarity)
    memo = getattr(store, "_corrections_seen", None)  # (kept with the store it reads)
    if memo is None or memo[0] != key:
        memo = (key, {})
        store._corrections_seen = memo  # type: ignore[attr-defined]
    seen: dict[int, list[int]] = memo[1]
    ids = set(ids)
    todo = ids - set(seen)
    if todo:
        found = _corrections_of(store, todo, min_similarity)
        seen.update({i: found.get(i, []) for i in todo})
    return {i: seen[i] for i in ids if seen.get(i)}


def _corrections_of(store: Store, ids: Iterable[int], min_similarity: float,
                    texts: dict[int, str] | None = None) -> dict[int, list[int]]:
    """`corrections` one step, every correction of each, the newest first:
    `facts.corrects_memory`'s test, with each text's stems
    worked out once and the cosines of all candidates at once (a store of 50,000
    memories, one in 50 saying "actually", took 4 s a call when each pair was compared
    in turn)."""
    texts = store.kept_key_texts(ids) if texts is None else texts
    olds = {i: t for i, t in texts.items() if facts.is_statement(t)}
    if not olds:
        return {}
    # (what the user corrected by what they had just said: the store recorded it)
    out: dict[int, list[int]] = {}
    recorded = store.recorded_corrections()
    for a in set(olds) & set(recorded):
        kept = store.kept_key_texts(recorded[a])
        out[a] = [b for b in recorded[a] if b in kept]
    when = store.created_times(olds)
    later = [(b, t, c) for b, t, c in store.said_after(
        min(when.values()), skip_sources=AUTHORS, containing=CORRECTION_CUES)
        if _correcting(t)]
    vecs = store.embeddings([*olds, *(b for b, _, _ in later)])
    dim = next((v.shape for v in vecs.values()), None)
    later = [x for x in later if x[0] in vecs and vecs[x[0]].shape == dim]
    if not later:
        return _newest_first(store, out)
    mat = np.vstack([vecs[b] for b, _, _ in later])
    made = np.array([c for _, _, c in later])
    stems: dict[int, frozenset[str]] = {}
    for a, text in olds.items():
        va = vecs.get(a)
        if va is None or va.shape != dim:
            continue
        bar = F.subject_bar(min_similarity, len(superseded.told_parts(text)))
        near = np.nonzero((made > when[a]) & (mat @ va >= bar))[0]
        words = facts.said_words(text) if len(near) else frozenset()
        for j in near[::-1]:  # the newest first
            b, new, _ = later[j]
            # (news of a plan's time corrects nothing that gives none: "I'm learning
            # Portuguese for the trip." was greyed by the trip's new month, QA pass 42e)
            # (nor what names a value put aside that it never gave: "…moved to Munnar, not
            # Kochi." of "Meera's wedding is on 21 August.", QA pass 48c)
            if b != a and not facts.already_says(text, new) and not superseded.untimed(
                    text, new) and not facts.puts_aside_else(text, new) and (
                    words & stems.setdefault(j, facts.corrected_words(new))
                    and facts.says_over(text, new) or facts.changes_memory(text, new)):
                out.setdefault(a, []).append(b)
    return _newest_first(store, out)


def _newest_first(store: Store, out: dict[int, list[int]]) -> dict[int, list[int]]:
    """Each memory's corrections once, the newest first (those the store recorded among
    them, `Store.recorded_corrections`)."""
    made = store.created_times({b for bs in out.values() for b in bs})
    return {a: sorted(dict.fromkeys(bs), key=lambda b: -made.get(b, 0.0)) for a, bs in out.items()}


def outdated(store: Store, items: Iterable[KnowledgeItem]) -> dict[int, tuple[int, int]]:
    """Knowledge id -> (source, correction) for each item drawn from a memory the user
    corrected later, when the item shares a content word with that memory (it may carry
    the old fact: "The user is planning a trip to Japan in May." from "I'm planning a
    trip to Japan in May …" after "Actually the trip is in June, not May.").  Such an item
    is not used until a reflection distils its memories again (consolidation shows the
    model the correction in place of the memory it corrects) or the user edits it."""
    items = list(items)
    corr = corrections(store, {s for k in items for s in k.sources})
    if not corr:
        return {}
    said = store.key_texts(corr)
    out: dict[int, tuple[int, int]] = {}
    for k in items:
        claims = set(claim_words(k.text))
        for s in k.sources:
            if s in corr and claims & set(facts.stems(said[s])):
                out[k.id] = (s, corr[s])
                break
    return out


def trusted_items(store: Store, kind: str | None = None) -> list[KnowledgeItem]:
    """Live items the user wrote or edited, or that their sources' user words support
    and no later correction of one of them makes `outdated`."""
    out = []
    edited = store.knowledge_edited_ids()
    items = list_knowledge(store, kind=kind)
    old = outdated(store, (k for k in items if k.id not in edited))
    for k in items:
        if k.id in edited or (k.id not in old and item_support(store, k) >= GROUNDED_MIN):
            out.append(k)
    return out


def trusted_user_model(store: Store) -> list[KnowledgeItem]:
    """The user model that may enter the system prompt: trusted ``user_model`` items."""
    return trusted_items(store, "user_model")


def trusted_ids(store: Store) -> set[int]:
    return {k.id for k in trusted_items(store)}


def knowledge_rows(store: Store) -> list[dict]:
    """Every item with its state ("in use", "deleted", "superseded"), support and whether it
    is trusted: what the Knowledge tab and ``knowledge list`` show."""
    edited = store.knowledge_edited_ids()
    out = []
    items = list_knowledge(store, include_superseded=True)
    old = outdated(store, (k for k in items if k.id not in edited and not k.superseded_by and not k.archived_at))
    said = store.key_texts({i for pair in old.values() for i in pair})
    for k in items:
        sup = item_support(store, k)
        state = "deleted" if k.archived_at else "superseded" if k.superseded_by else "in use"
        trusted = k.id in edited or (sup >= GROUNDED_MIN and k.id not in old)
        if k.id in edited:
            why = "You wrote or edited it: used as written."
        elif k.id in old:
            src, fix = old[k.id]
            why = (f"Drawn from “{shorten(said[src], 80)}”, which you corrected later "
                   f"(“{shorten(said[fix], 80)}”): not used until the next reflection "
                   "draws it again with the correction, or you edit it.")
        elif trusted:
            why = f"{sup:.0%} of its words are in what you said in its source memories."
        elif k.sources and not store.kept_key_texts(k.sources):
            why = ("You deleted the memories it was drawn from: not used until you "
                   "restore them (Memories ▸ Archive) or edit it.")
        elif len(parts := facts.sentences(k.text)) > 1:  # (its weakest sentence says why)
            said_k = list(store.kept_key_texts(k.sources).values())
            weak = min(parts, key=lambda p: support(p, said_k))
            why = (f"“{weak}” is not what you said (only {support(weak, said_k):.0%} of its "
                   "words are in your words): not used until you edit it.")
        else:
            why = (f"Only {sup:.0%} of its words are in what you said: not used until you "
                   "edit it.")
        status = state if state != "in use" else ("in use" if trusted else "outdated"
                                                   if k.id in old else "not supported")
        out.append({**k.to_dict(), "support": round(sup, 3), "state": state,
                    "edited": k.id in edited, "trusted": trusted, "why": why,
                    "status": status})
    return out


# ---- the user corrects knowledge ----------------------------------------------------
def get_item(store: Store, knowledge_id: int) -> KnowledgeItem | None:
    for k in list_knowledge(store, include_superseded=True):
        if k.id == knowledge_id:
            return k
    return None


def edit_item(store: Store, embedder, knowledge_id: int, text: str) -> KnowledgeItem:
    """Replace an item's text (re-embedded); an edited item is the user's own word and is
    trusted from then on.  ValueError for an unknown id or an empty text."""
    text = " ".join(printable(text or "").split())
    if not text:
        raise ValueError("empty text: write what should be remembered, or delete the item")
    if get_item(store, knowledge_id) is None:
        raise ValueError(f"no knowledge item #{knowledge_id}")
    vec = embedder.embed_one(text) if embedder is not None else None
    with store.transaction():
        store.edit_knowledge(knowledge_id, text, vec, getattr(embedder, "name", None))
    item = get_item(store, knowledge_id)
    if item is None:  # removed meanwhile (another process)
        raise ValueError(f"no knowledge item #{knowledge_id}")
    return item


def delete_item(store: Store, knowledge_id: int) -> None:
    """Take an item out of use (undo with `restore_item`); its provenance is kept."""
    if get_item(store, knowledge_id) is None:
        raise ValueError(f"no knowledge item #{knowledge_id}")
    with store.transaction():
        store.set_knowledge_archived(knowledge_id, True)


def restore_item(store: Store, knowledge_id: int) -> None:
    """Bring a deleted (archived) item back."""
    if get_item(store, knowledge_id) is None:
        raise ValueError(f"no knowledge item #{knowledge_id}")
    with store.transaction():
        store.set_knowledge_archived(knowledge_id, False)


def fingerprint(store: Store) -> tuple:
    """Changes whenever a knowledge row is added, edited, strengthened, superseded or removed."""
    return store.knowledge_fingerprint()


class KnowledgeIndex:
    """Top-k cosine retrieval over the live knowledge items of one store."""

    def __init__(self, store: Store, dim: int | None = None):
        self.store = store
        self.dim = dim
        self._lock = threading.Lock()
        self._fp: tuple | None = None
        self.ids = np.zeros(0, dtype=np.int64)
        self.emb = np.zeros((0, dim or 0), dtype=np.float32)
        self.meta: dict[int, tuple[str, str, float]] = {}

    def __len__(self) -> int:
        self.refresh()
        return len(self.ids)

    def refresh(self, force: bool = False) -> None:
        """Reload from the store if the knowledge table changed since the last load."""
        with self._lock:
            fp = fingerprint(self.store)
            if not force and fp == self._fp:
                return
            ids, vecs, meta = [], [], {}
            for k in self.store.live_knowledge():
                if self.dim and len(k.embedding) != self.dim:
                    continue
                ids.append(k.id)
                vecs.append(k.embedding)
                meta[k.id] = (k.kind, k.text, k.strength)
            dim = self.dim or (len(vecs[0]) if vecs else 0)
            self.ids = np.asarray(ids, dtype=np.int64)
            self.emb = (np.vstack(vecs).astype(np.float32) if vecs
                        else np.zeros((0, dim), dtype=np.float32))
            self.meta = meta
            self._fp = fp

    def search(self, query_vec: np.ndarray, k: int = 3, *, min_score: float = 0.0,
               kinds: Iterable[str] | None = None) -> list[Recall]:
        """The `k` live items most similar to `query_vec` (cosine ≥ `min_score`), best first."""
        self.refresh()
        if k <= 0 or len(self.ids) == 0:
            return []
        q = np.asarray(query_vec, dtype=np.float32)
        if q.shape[-1] != self.emb.shape[1]:
            return []
        cos = (self.emb @ q).astype(np.float64)
        if kinds is not None:
            allowed = set(kinds)
            mask = np.array([self.meta[int(i)][0] in allowed for i in self.ids])
            cos = np.where(mask, cos, -np.inf)
        order = np.argsort(-cos, kind="stable")[:k]
        chosen = [int(i) for i in order if np.isfinite(cos[i]) and cos[i] >= min_score]
        if not chosen:
            return []
        kids = [int(self.ids[i]) for i in chosen]
        src = sources_of(self.store, kids)
        out = []
        for i, kid in zip(chosen, kids):
            kind, text, strength = self.meta[kid]
            out.append(Recall(
                episode_id=kid, score=float(cos[i]), text=text, semantic=float(cos[i]),
                kind="knowledge", path="knowledge",
                extra={"knowledge_kind": kind, "strength": strength, "sources": src[kid]},
            ))
        return out

    def record_access(self, knowledge_ids: Iterable[int], now: float | None = None) -> None:
        """Count a use of each item (access_count, last_access)."""
        ids = [int(i) for i in knowledge_ids]
        if ids:
            with self.store.transaction():
                self.store.record_knowledge_access(ids, now)


_INDEXES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_INDEXES_LOCK = threading.Lock()


def knowledge_index(engine_or_store) -> KnowledgeIndex:
    """The cached `KnowledgeIndex` of a store (or of an engine's store)."""
    store = _store_of(engine_or_store)
    with _INDEXES_LOCK:
        idx = _INDEXES.get(store)
        if idx is None:
            emb = getattr(engine_or_store, "embedder", None)
            idx = KnowledgeIndex(store, getattr(emb, "dim", None))
            _INDEXES[store] = idx
        return idx


def retrieve_knowledge(engine_or_store, query_vec: np.ndarray, k: int = 3, *,
                       min_score: float = 0.0,
                       kinds: Iterable[str] | None = None) -> list[Recall]:
    """Top-k live knowledge items for a query vector, as ``Recall(kind="knowledge")``.

    `engine_or_store`: a `MemoryEngine` or a `Store`.  `query_vec`: a unit vector from the
    same embedder that embedded the knowledge (``engine.embed_query(text)``).  Knowledge has
    its own top-k, separate from the episodes' k.
    """
    return knowledge_index(engine_or_store).search(query_vec, k, min_score=min_score, kinds=kinds)
