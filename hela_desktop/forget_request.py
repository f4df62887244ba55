""""Forget that …" in the chat: the app does it, the model is not asked (Qt-free).

Asked to forget, a small model says "Sure, I've forgotten" and forgets nothing; worse, the
request itself ("Forget that my PIN is 4821") was stored as a new memory that says the
thing again.  A message that asks HeLa to forget something the user said is therefore
answered by the app itself:

- **What counts.**  A message that starts (after "please", "can you", "HeLa,") with
  *forget*, *stop remembering* or *don't remember*, followed by what to forget ("that my
  sister lives in Lisbon", "my old address", "about Tom", "what I said about my ex"), or
  with *delete / erase / remove* followed by a memory ("the memory about my PIN", "what I
  told you about Tom").  What to forget must be something the user told: in the first
  person ("my …", "that I'm …"), a name alone, or named as what they said or as a memory,
  or a thing named with "the" ("Forget the haircut appointment."; not "Forget the past.").
  "Forget it" / "forget that" alone or before a new clause ("forget that, my cat is
  called Miso": never mind), "don't forget to …" (a reminder),
  "delete this line" (a task), "forget the past and move on" (advice wanted), a question
  ("Forget the past?", unless it asks "can you forget …?") and a message that asks for more
  after it ("forget my troubles, tell me a joke") are not requests to forget.
  "Forget what I just said" means the user's previous message in this chat.
- **What it deletes.**  What to forget that is only a name ("about Ana", "Tom"): every
  memory whose user words name it (more than `NAMED_MOST`: none, they are listed).
  Otherwise the memories of the user's words that match
  it (cosine of the embeddings): the best match when it is clearly the best, with those
  about as good (`formulas.forget_split`); a correction and what it corrects count as one
  memory, the better matched, and go together.  Others that may be meant are named, not deleted.
  When what to forget tells something ("that my cat is called Miso"), only memories that
  tell something are weighed: a question the user asked about it ("What's my cat's
  name?") told nothing, and its likeness to the request made the fact itself unclear.
  A deletion is the ordinary one: out of recall at once, restorable from Memories ▸
  Archive or with ``memories restore``, erased only by Delete for good.
- **Copies in stored answers.**  A memory keeps HeLa's answer beside the user's words, and
  an answer may repeat the fact ("What's my locker code?" → "Your locker code is 4417").
  A question whose stored answer repeats what was deleted (`formulas.repeats`) told nothing
  of its own and is deleted with it; a statement about something else whose answer
  repeats it is named, not deleted (`answer_copies`).
- **What it answers.**  What it deleted and how to undo it, what else may be meant, or that
  nothing matched.  A memory is deleted whole; a part of it that said something else
  (`other_parts`) is kept as a memory of its own (`keep_rest`; one that speaks of the
  forgotten thing by a pronoun goes with it), and named.  "Forget everything" deletes nothing and says how to.
- **What it stores.**  The chat keeps both messages (it is the transcript); the request
  becomes no memory, and no link is learned.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from . import facts, superseded
from . import formulas as F
from .edges import GENERAL_WORDS
from .gate import names_word
from .prompt import shorten
from .words import listed

if TYPE_CHECKING:
    from .memory import MemoryEngine

# what may precede the verb: politeness, the assistant's name, "can you"
_LEAD = (r"^\s*(?:(?:please|pls|ok|okay|hey|hi|so|now|and|hela)\b[\s,!:]*)*"
         r"(?:(?:can|could|would|will)\s+you\s+(?:please\s+)?)?(?:please\s+)?")
_FORGET = re.compile(_LEAD + r"(?:forget|stop\s+remembering|do\s*n[o']?t\s+remember|unlearn)"
                     r"\s+(?P<what>.+)$", re.I | re.S)
_DELETE = re.compile(_LEAD + r"(?:delete|erase|remove|wipe)\s+(?P<what>.+)$", re.I | re.S)
# a deletion must be of a memory, or of what the user said
_MEMORY_OBJECT = re.compile(
    r"^(?:the\s+|that\s+|this\s+|my\s+|your\s+|any\s+|all\s+)?(?:memor(?:y|ies)|"
    r"what\s+i\s+(?:said|told|wrote|mentioned)|everything\s+(?:i|you)\b|"
    r"(?:the\s+)?(?:things?|stuff|facts?)\s+(?:i|about)\b)", re.I)
_NEVER_MIND = re.compile(r"^(?:it|that|this|about\s+it|about\s+that|it\s+all|that\s+one|"
                         r"i\s+asked|i\s+said\s+anything)$", re.I)
_CLAUSE = re.compile(r"\s*[,;:—–.!]\s*|\s+-\s+")  # where a message's first clause ends
_LAST = re.compile(r"^(?:what\s+i\s+(?:just\s+)?(?:said|told\s+you|wrote)|(?:that\s+)?i\s+"
                   r"(?:just\s+)?said\s+(?:that|it|this)|my\s+last\s+message|that\s+last\s+"
                   r"(?:message|one|bit)|the\s+last\s+(?:thing|message)(?:\s+i\s+said)?)$",
                   re.I)
_EVERYTHING = re.compile(r"^(?:about\s+)?(?:everything|all(?:\s+of\s+it)?|all\s+my\s+memories|"
                         r"all\s+(?:about\s+)?me|me|what\s+you\s+know\s+about\s+me|"
                         r"everything\s+(?:i(?:'ve|\s+have)?\s+"
                         r"(?:said|told\s+you)|about\s+me))$", re.I)
# words that introduce what to forget, left out of what is matched
# ("everything about Karel", "all you know about my brother": QA pass 30, the first was
# taken for a message to the model and kept as a memory)
_INTRO = re.compile(r"^(?:(?:the|that|this|any|all|everything|anything)\s+)?"
                    r"(?:(?:that\s+)?(?:you\s+(?:know|remember)|i(?:'ve|\s+have)?\s+(?:said|"
                    r"told\s+you|wrote|mentioned))\s+(?=about\b))?(?:memor(?:y|ies)\s+)?"
                    r"(?:about\s+|of\s+|that\s+|where\s+|what\s+i\s+(?:said|told\s+you|"
                    r"wrote|mentioned)\s+(?:about\s+)?)?", re.I)

_TARGET_WORD = re.compile(r"[^\W\d_][\w'’-]*", re.UNICODE)
_JOINERS = frozenset("and or & about".split())
_NOT_NAMES = frozenset("i i'm i've i'd i'll me everything all".split()) | facts.NOT_NAMES
NAMED_MOST = 10  # a name named by more memories than this: listed, not deleted from the chat
_POLITE = re.compile(_LEAD.replace("(?:(?:can|could|would|will)\\s+you\\s+(?:please\\s+)?)?",
                                   "(?:can|could|would|will)\\s+you\\b"), re.I)
# a second request after what to forget ("…, tell me a joke", "… and let's move on")
_THEN = re.compile(r"(?:[,;:—–]|\s-\s|\band\b)\s*(?:(?:but|so|then|now|and)\s+)?"
                   r"(?:let'?s|let\s+us|" + "|".join(
    sorted(facts.ASKING_WORDS)) + r")\b", re.I)
_FIRST_PERSON = re.compile(r"\b(?:i|i'm|i’m|im|i've|i’ve|i'd|i’d|i'll|me|my|mine|myself|"
                           r"we|our|us)\b", re.I)
_ALL_ABOUT = re.compile(r"^(?:everything|anything)\s+(?:you\s+know\s+)?about\b", re.I)
_INTRO_TOLD = re.compile(r"^(?:what|everything|anything)\s+i\s+(?:said|told|wrote|"
                         r"mentioned)\b", re.I)
LAST = "\x00last"  # forget_target: the user's previous message in this chat
EVERYTHING = "\x00everything"  # forget_target: all of it (the app says how, deletes nothing)


def forget_target(message: str) -> str | None:
    """What `message` asks to forget (`LAST`, `EVERYTHING`, or the words to match), or
    None when it does not ask HeLa to forget anything."""
    text = " ".join(message.split())
    if text.endswith("?") and not _POLITE.match(text):
        return None  # "Forget the past?": a question, not a request
    text = re.sub(r",?\s+please$", "", text.rstrip(" .!?"), flags=re.I)  # ("…, please")
    m = _FORGET.match(text)
    deleting = m is None
    if m is None:
        m = _DELETE.match(text)
    if m is None:
        return None
    what = m.group("what").strip(" ,;:")
    if deleting and not _MEMORY_OBJECT.match(what):
        return None  # "delete this line", "remove the duplicates": a task
    if not deleting and re.match(r"^to\b", what, re.I):
        return None  # "don't remember to …" is not a thing people say to forget
    if _NEVER_MIND.match(what) or _NEVER_MIND.match(_CLAUSE.split(what, 1)[0]):
        return None  # "forget it", and "forget that, my cat is called Miso": never mind
    if _LAST.match(what):
        return LAST
    if _EVERYTHING.match(what):
        return EVERYTHING
    if _THEN.search(what):
        return None  # "forget my troubles, tell me a joke": the message asks for more
    rest = _INTRO.sub("", what, count=1).strip()
    if not re.search(r"\w", rest):
        return None
    # something the user told: in their words ("my", "I'm"), a name alone, or named as
    # what they said or as a memory; "forget the past and move on" is advice wanted
    told = (_FIRST_PERSON.search(rest) or names_only(rest) or _MEMORY_OBJECT.match(what)
            or _INTRO_TOLD.match(what) or _of_someone_named(what)
            # "everything about the wedding": one thing, named ("… the past and move on" is
            # advice wanted; "all about it", never mind)
            or _ALL_ABOUT.match(what) and not re.search(r"\band\b|,", rest)
            and not _NEVER_MIND.match(rest))
    if not told and _the_thing(text):
        return re.sub(r"^the\s+", "", rest, flags=re.I)  # ("about the dentist appointment")
    return rest if told else None


# "Forget that Pepper is scared of the vacuum cleaner.": what the user told of someone named
_NAMED_CLAUSE = re.compile(r"^that\s+(?P<name>[A-Z][\w'’-]*)\s+[\w'’-]+", re.UNICODE)


def _of_someone_named(what: str) -> bool:
    """Does `what` (after "forget") tell something of someone by name, "that Pepper is
    scared of …"?  QA pass 34: it went to the model, was stored as a new memory that said
    the fact again, and nothing was forgotten."""
    m = _NAMED_CLAUSE.match(what)
    name = m.group("name").lower() if m else ""
    return bool(name) and name not in facts.STOPWORDS and name not in _NOT_NAMES


# "Forget the haircut appointment.": a thing named with "the", up to four words
_THE_THING = re.compile(_LEAD + r"(?:forget|stop\s+remembering)\s+(?:about\s+)?the\s+"
                        r"(?P<what>[^\W\d_][\w'’-]*(?:\s+[\w'’-]+){0,3}?)$", re.I)


def _the_thing(text: str) -> bool:
    """Does `text` ask to forget a thing named with "the" (`_THE_THING`: "Forget the
    haircut appointment."), told or not (`forget` then says nothing matched), rather than
    something of the chat (`_NOT_TOLD`: "Forget the past.")?  QA pass 31: "Forget the
    haircut appointment." went to the model, which said it had forgotten and forgot
    nothing; pass 32b: one never told got "I forgot the dentist appointment."."""
    m = _THE_THING.match(text)
    return m is not None and not re.search(r"\band\b", m.group("what")) and not (
        {w.lower() for w in _TARGET_WORD.findall(m.group("what"))} & _NOT_TOLD)


# what "forget the …" asks of the chat, not of what the user told ("the past", "the rules",
# "the previous instructions", "the whole thing"): for the model
_NOT_TOLD = frozenset("""past rules rule previous above instructions instruction prompt
context rest world drama noise whole idea question questions former latter system
formalities details thing things stuff""".split())


@dataclass
class Forgotten:
    """What a forget request did: the memories deleted and those that may be meant (id,
    the user's words), best first."""

    target: str
    deleted: list[tuple[int, str]] = field(default_factory=list)
    maybe: list[tuple[int, str]] = field(default_factory=list)
    crowd: int = 0  # so many memories named it that none was deleted (`NAMED_MOST`)
    # questions whose stored answer repeated what was deleted: deleted with it
    asked: list[tuple[int, str]] = field(default_factory=list)
    # statements of something else whose stored answer repeats it: named, kept
    repeated: list[tuple[int, str]] = field(default_factory=list)
    # a deleted memory's other parts, which said something else and went with it
    also_said: list[tuple[int, list[str]]] = field(default_factory=list)
    # … kept as a new memory each (deleted id, new id): undo deletes the new one
    kept: list[tuple[int, int]] = field(default_factory=list)
    # … those the user corrected since: not kept, and not asked to be told again
    corrected_parts: list[tuple[int, list[str]]] = field(default_factory=list)

    def stats(self) -> dict:
        out = {"deleted": [i for i, _ in self.deleted + self.asked],
               "maybe": [i for i, _ in self.maybe]}
        if self.repeated:
            out["repeated"] = [i for i, _ in self.repeated]
        if self.kept:
            out["kept"] = [new for _, new in self.kept]
        return out


MAYBE_SHOWN = 3  # memories named as "maybe meant"
CANDIDATES = 20  # best matches weighed


def forget(engine: MemoryEngine, target: str, conversation_id: int | None) -> Forgotten:
    """Delete what `target` (a `forget_target`) names, and the questions whose stored answer
    repeats it (`answer_copies`); see the module docstring."""
    out = _forget(engine, target, conversation_id)
    # what is forgotten: a name alone, or what the memories deleted said ("Forget about
    # Pixel" deleted "My sister Ana lives in Lisbon and my dog is called Pixel", and then
    # took "Where does my sister live?", whose answer named Ana and Lisbon, not Pixel:
    # QA pass 21)
    names = names_only(target) if target not in (LAST, EVERYTHING) else []
    out.asked, out.repeated = answer_copies(engine, out.deleted, names or None)
    if target not in (LAST, EVERYTHING):
        out.also_said = [(eid, rest) for eid, text in out.deleted
                         if (rest := other_parts(text, target))]
        said = dict(out.deleted)
        true = _still_true(engine, {eid: said[eid] for eid, _ in out.also_said}) \
            if out.also_said else {}
        for eid, rest in out.also_said:  # what is still true stays, a memory of its own
            still = [p in true.get(eid, rest) for p in rest]
            alone = [p for p, ok in zip(rest, still, strict=True)
                     if ok and not _BY_PRONOUN.match(p)]
            if alone:
                out.kept.append((eid, keep_rest(engine, eid, alone)))
            if not all(still):
                out.corrected_parts.append(
                    (eid, [p for p, ok in zip(rest, still, strict=True) if not ok]))
    for eid, _ in out.asked:
        engine.delete_episode(eid)
    # a statement kept for its own words: its answer, which told the forgotten thing again,
    # is not shown to the model again (it was, in the chat's history)
    engine.store.hide_answers([eid for eid, _ in out.repeated])
    return out


def answer_copies(engine: MemoryEngine, deleted: list[tuple[int, str]],
                  forgotten: list[str] | None = None
                  ) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    """The live memories whose stored answer repeats what was forgotten: `forgotten` (the
    names asked about), else each of the `deleted` (id, user words), by
    `formulas.repeats` on content-word stems (what the fact tells beyond the memory's own
    words, found in its answer), as (questions, statements): a question
    ("What's my locker code?", answered "Your locker code is 4417") told nothing of its
    own, so it goes with the fact; a statement of something else keeps its own words and
    is named, for the user to edit or delete."""
    if not deleted:
        return [], []
    texts = forgotten if forgotten is not None else [text for _, text in deleted]
    told = [(t, engine.names_in(text)) for t, text in
            ((set(facts.stems(text)), text) for text in texts) if t]
    if not told:
        return [], []
    gone = {eid for eid, _ in deleted}
    asked: list[tuple[int, str]] = []
    repeated: list[tuple[int, str]] = []
    for eid, user, stored in engine.store.answers_containing(set().union(*(t for t, _ in told))):
        if eid in gone:
            continue
        own, said, own_names = set(facts.stems(user)), set(facts.stems(stored)), engine.names_in(user)
        # the fact's own words, as `formulas.repeats` counts them; or its name (a value such
        # as "Biscuit", which the message did not say) in the answer: "What's my dog's
        # name?" answered "Your dog's name is Biscuit." says "name" where the fact said
        # "called", and stayed when the fact was forgotten (QA pass 24)
        says_name = [bool(names - own_names) and any(names_word(stored, n) for n in names - own_names)
                     for _, names in told]
        if any(F.repeats(len((t - own) & said), len(t - own)) and _of_what(t - own, said)
               or (bool(own & t) and named)
               for (t, _), named in zip(told, says_name, strict=True)):
            (asked if facts.only_asks(user) else repeated).append((eid, user))
        elif any(says_name) and not facts.only_asks(user):  # only named for the user
            repeated.append((eid, user))
    return asked, repeated


def _of_what(told: set[str], said: set[str]) -> bool:
    """Does an answer that shares `told`'s words (`said`) share a word of what the fact
    is, not only of when or in words of any fact (`_GENERAL`): "…on Thursday at 1 pm."
    repeats nothing of "I have a dentist appointment on Thursday at 1 pm." (QA pass 31b: a
    dog memory was named as repeating the dentist).  A fact that tells only a number or a
    time ("4417") is its own what."""
    what = {w for w in told if w not in facts.TIME_STEMS and w not in _GENERAL
            and not facts.NUMBER.fullmatch(w)}
    return not what or bool(what & said)


# words of any fact, not of what one is about: "I go bouldering every Saturday morning…"
# shares "go" and "every" with "…you can go there every year" (QA pass 34: two questions
# were deleted as repeating it)
_GENERAL = frozenset(facts.stems(" ".join(GENERAL_WORDS) + " every each always usually "
                                 "often sometimes get got gets getting have has had"))


def _forget(engine: MemoryEngine, target: str, conversation_id: int | None) -> Forgotten:
    out = Forgotten(target)
    if target == EVERYTHING:
        return out
    if target == LAST:
        prev = (engine.store.previous_message_episode(conversation_id)
                if conversation_id is not None else None)
        if prev is not None:
            engine.delete_episode(prev)
            out.deleted.append((prev, engine.key_texts([prev]).get(prev, "")))
        return out
    names = names_only(target)
    if names:  # "forget about Ana": every memory that names her, whatever else it says
        hits = naming(engine, names)
        if len(hits) > NAMED_MOST:  # more than one line in a chat should delete at once
            out.maybe, out.crowd = hits, len(hits)
            return out
        for eid, _ in hits:
            engine.delete_episode(eid)
        out.deleted = hits
        return out
    found = engine.most_similar(engine.embed_query(target), CANDIDATES)
    texts = engine.key_texts([eid for eid, _ in found])
    # a thing told: the questions asked about it told nothing; nor, when what to forget
    # is a thing named ("my haircut"), does a question if something told matches it too
    # (QA pass 31b: "Forget my haircut." deleted only "When is my haircut?")
    told_too = [(eid, cos) for eid, cos in found if not facts.only_asks(texts.get(eid, ""))]
    if facts.is_statement(target) or told_too and not _OF_ASKING.search(target):
        found = told_too
        # … nor does a correction that says it is no longer so: forgetting "my marathon is
        # in April" deleted "Correction: the marathon is in October, not April." too, and
        # nothing said October any more (QA pass 28)
        told = set(facts.stems(target))
        found = [(eid, cos) for eid, cos in found
                 if not told & set(facts.negated(texts.get(eid, "")))]
    # a correction and what it corrects are one thing told twice: weighed as the better
    # matched of the two, and forgotten together (QA pass 31: "Forget my dentist
    # appointment." deleted nothing, as the appointment and "Actually the dentist
    # appointment is on Monday 15 March." matched it about as well)
    found, with_ = _told_once(engine, found, target, texts)
    sure, maybe = F.forget_split([cos for _, cos in found])
    gone = [eid for i in sure for eid in (found[i][0], *with_.get(found[i][0], ()))]
    for eid in gone:
        engine.delete_episode(eid)
    out.deleted = [(eid, texts[eid]) for eid in gone]
    out.maybe = [(found[i][0], texts[found[i][0]]) for i in maybe[:MAYBE_SHOWN]]
    return out


# what to forget is what the user asked ("what I asked about my cat")
_OF_ASKING = re.compile(r"\b(?:asked|ask|asking|question|questions)\b", re.IGNORECASE)


def _told_once(engine: MemoryEngine, found: list[tuple[int, float]], target: str,
               texts: dict[int, str]) -> tuple[list[tuple[int, float]], dict[int, list[int]]]:
    """`found` (best first) less the memories a better-matched one of them corrects or is
    corrected by (`knowledge.all_corrections`), and those, by the one kept: a correction of
    what is to be forgotten (the sentence it replaces speaks of `target`), not of another
    part of the same memory (QA pass 32b: "Forget that my brother runs a bakery." took
    "Elsa had her birthday last week, she is seven now." with the paragraph that said
    both)."""
    from .knowledge import all_corrections  # (knowledge reads the gate's settings)

    want = set(facts.stems(target))
    every = all_corrections(engine.store, [eid for eid, _ in found])
    fixed = [(old, new) for old, news in every.items() for new in news
             if set(facts.stems(superseded.on_subject(texts.get(old, ""), texts.get(new, ""))))
             & want]
    rank = {eid: i for i, (eid, _) in enumerate(found)}
    head: dict[int, int] = {}
    for old, new in sorted(fixed):
        if old in rank and new in rank:
            a, b = sorted((old, new), key=rank.__getitem__)
            head[b] = head.get(a, a)
    with_: dict[int, list[int]] = {}
    for eid, h in sorted(head.items(), key=lambda kv: rank[kv[0]]):
        with_.setdefault(head.get(h, h), []).append(eid)
    return [(eid, cos) for eid, cos in found if eid not in head], with_


# a part that speaks of what was forgotten by a pronoun ("My cat is called Miso. She hates
# the rain."): it went with it, as it says nothing alone
_BY_PRONOUN = re.compile(r"^(?:she|he|it|they|her|his|its|their|them|him|this|that|these|"
                         r"those|there)\b", re.I)


def _still_true(engine: MemoryEngine, deleted: dict[int, str]) -> dict[int, list[str]]:
    """Of each memory just deleted (id -> its words) that a later statement of the user's
    corrected, the parts the corrections leave true (`superseded.kept_parts`; QA pass 32b: the
    forget reply asked the user to tell again "We live on Crookes Road", which they had
    corrected to Leeds)."""
    from .knowledge import all_corrections  # (knowledge reads the gate's settings)

    every = all_corrections(engine.store, deleted, texts=deleted)
    news = engine.store.key_texts({b for bs in every.values() for b in bs})
    return {eid: superseded.kept_parts(deleted[eid], [news.get(b, "") for b in bs])
            for eid, bs in every.items()}


def keep_rest(engine: MemoryEngine, eid: int, rest: list[str]) -> int:
    """A new memory of the parts `rest` of the deleted memory `eid` that said something
    else, as it was: the user's words, when and in which chat they said them, pinned or
    not, its answer left out (it may tell the forgotten thing; QA pass 32: "Forget my
    dentist appointment." took a paragraph of five things, and "my mum Grace lives in
    Bradford" with it).  Its id."""
    from .memory import NewEpisode

    ep = engine.store.episode(eid)
    new = engine.add_episodes([NewEpisode(
        superseded.as_said(rest), "", conversation_id=ep.conversation_id if ep else None,
        created_at=ep.created_at if ep else None, importance=ep.importance if ep else 0.0,
        source=ep.source if ep and ep.source else "chat",
        meta={"rest_of": ep.uid} if ep and ep.uid else None)])[0]
    if ep is not None and ep.pinned:
        engine.set_pinned(new, True)
    return new


def other_parts(text: str, target: str) -> list[str]:
    """The parts of a deleted memory's words (`superseded.told_parts`) that share no content-word stem with
    what was to be forgotten: "Forget that my sister lives in Lisbon" deleted "My dog is
    called Pixel and my sister Ana lives in Lisbon", and the dog's name with it, unsaid
    (QA pass 21).  [] for a memory of one part, or when every part speaks of it."""
    want = set(facts.stems(target))
    parts = superseded.told_parts(text)
    if not want or len(parts) < 2:
        return []
    # (each with its subject: "in Utrecht." of "My brother Karel is a dentist in Utrecht."
    # is Karel's, not kept as "In Utrecht." when he is forgotten)
    alone = (superseded.part_alone(parts, k) for k in range(len(parts)))
    return [p for p in alone if (own := set(facts.stems(p))) and not own & want]


def names_only(target: str) -> list[str]:
    """The names `target` consists of ("Ana", "Tom and Ana"), or [] when it says more
    than names ("that Ana lives in Lisbon", "my ex"): written capitalised, not a
    sentence-opening word people capitalise anyway."""
    words = [w for w in _TARGET_WORD.findall(target) if w.lower() not in _JOINERS]
    if not words or not all(w[:1].isupper() and w.lower() not in facts.STOPWORDS
                            and w.lower() not in _NOT_NAMES for w in words):
        return []
    return list(dict.fromkeys(words))


def naming(engine: MemoryEngine, names: list[str]) -> list[tuple[int, str]]:
    """The live memories whose user words name one of `names` (as a whole word), oldest
    first: (id, the user's words)."""
    want = {n.lower() for n in names}
    found: dict[int, str] = {}
    for name in names:
        for e in engine.store.list_episodes(search=name, limit=-1, order="created",
                                            descending=False):
            if want & {w.lower() for w in _TARGET_WORD.findall(e.user_text)}:
                found.setdefault(e.id, e.user_text)
    return sorted(found.items())


LISTED = 10  # memories an answer lists; more are counted


def _listed(items: list[tuple[int, str]]) -> str:
    lines = [f"- #{i} “{shorten(' '.join(t.split()), 80)}”" for i, t in items[:LISTED]]
    if len(items) > LISTED:
        lines.append(f"- and {len(items) - LISTED} more")
    return "\n".join(lines)


def answer(done: Forgotten) -> str:
    """The app's answer to a forget request (plain lines and a list: readable as written in
    the terminal, and as Markdown in the window)."""
    if done.target == EVERYTHING:
        return ("Forgetting everything is more than I do from the chat. To forget all of "
                "it, delete your memories in Memories (Delete for good in its Archive tab "
                "erases them), or quit the app and delete its data folder.")
    if done.crowd:
        names = " or ".join(f"“{n}”" for n in names_only(done.target))
        return (f"{done.crowd} memories name {names}: more than I delete from the chat at "
                f"once, so none was deleted. Search Memories for {names} and delete the "
                f"ones you mean:\n\n{_listed(done.maybe)}")
    parts = []
    if done.deleted:
        one = len(done.deleted) + len(done.asked) == 1
        cmd = (f"hela-desktop memories restore {done.deleted[0][0]}" if one
               else "hela-desktop memories restore ID")
        it = "it" if one else "them"
        few = len(done.deleted) == 1
        parts.append(f"Deleted {'this memory' if few else 'these memories'}, so I won't "
                     f"recall {'it' if few else 'them'} again:\n\n{_listed(done.deleted)}")
        kept, fixed = dict(done.kept), dict(done.corrected_parts)
        for eid, rest in done.also_said:
            if eid in fixed:  # (corrected since: the correction stays, nothing to tell again)
                old = " and ".join(f"“{shorten(r.rstrip('.!'), 80)}”" for r in fixed[eid])
                parts.append(f"What {'it' if few else f'#{eid}'} said that you corrected since "
                             f"({old}) went with it; your corrections stay.")
                rest = [r for r in rest if r not in fixed[eid]]
                if not rest:
                    continue
            # every part, each up to 120 characters (QA pass 32: of four, three were
            # named, at 80 characters each, and "my mum Grace lives in Bradford" went unsaid)
            quoted = [f"“{shorten(r.rstrip('.!'), 120)}”" for r in rest]
            said = listed(quoted)
            its = "It" if few else f"#{eid}"
            parts.append(f"{its} also said {said}: I kept that as memory #{kept[eid]}."
                         if eid in kept and not any(_BY_PRONOUN.match(r) for r in rest)
                         else f"{its} also said {said}, which went with it"
                         + (f" (I kept as memory #{kept[eid]} what says something alone)"
                            if eid in kept else "")
                         + ". To keep that, tell me again, or undo this and edit the memory "
                         "in Memories instead.")
        if done.asked:
            few = len(done.asked) == 1
            parts.append(f"Also deleted {'a question' if few else 'questions'} you asked "
                         f"about it, as my stored answer repeated it:\n\n"
                         f"{_listed(done.asked)}")
        copies = ", ".join(f"#{new}" for _, new in done.kept)
        parts.append(f"To bring {it} back: Edit ▸ Undo, or Memories ▸ Archive ▸ Restore "
                     f"(or `{cmd}`{'' if one else ' for each'}"
                     + (f"; then delete {copies}, which Undo does itself" if copies else "")
                     + f"). Delete for good there erases {it} from the memory file. Chats "
                     "keep their messages: delete a chat to remove what you said there.")
    if done.repeated:
        few = len(done.repeated) == 1
        parts.append(f"{'This memory' if few else 'These memories'} of something else "
                     f"kept my answer, which said it again. I kept "
                     f"{'the memory' if few else 'them'}, and the model is no longer shown "
                     f"that answer (edit or delete {'it' if few else 'them'} in "
                     f"Memories):\n\n{_listed(done.repeated)}")
    if done.maybe:
        one = len(done.maybe) == 1
        parts.append(f"{'Also perhaps meant' if done.deleted else 'Perhaps you meant'} "
                     f"{'this one' if one else 'these'}, not deleted (delete "
                     f"{'it' if one else 'them'} in Memories if so):\n\n{_listed(done.maybe)}")
    if not parts:
        parts.append("Your previous message in this chat left no memory (there was none, "
                     "it was deleted already, or it was not kept), so there was nothing to "
                     "forget." if done.target == LAST
                     else f"Nothing you told me matches “{done.target}”, so there was nothing "
                     "to forget.")
    return "\n\n".join(parts)


__all__ = ["forget_target", "forget", "answer", "Forgotten", "LAST", "EVERYTHING", "other_parts"]
