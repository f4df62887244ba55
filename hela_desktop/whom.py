"""Whom an answer speaks of (Qt-free).  For a question about someone of the user's life
("my brother", "Karel"): another person of it (`other_person`), them with what only the
user or another person was told of (`misattributed`), or them by another person's name
(`misnamed`).  For the reply to a message that tells of someone: a name only another
memory gives (`misplaced`).  For any answer: one that speaks as the user (`as_user`),
greets them by another's name (`greets_as`), or gives them a relation by a name they never
wrote (`invented`).  `doubt.answer_doubt` reads each as a doubt under the answer (which
messages tell of the user's life, and what a reply says of people: `life_news`)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from collections.abc import Set as AbstractSet

from . import facts, kin
from .events import Recall
from .given_names import CALLED_LAST, GREETS, MY_DEAR, OPENER, OPENS_CALLING
from .language import is_common_word, opens_with_no
from .made_up import COUNTRIES, NO_NAMES
from .name_index import misread, spelt_as
from .words import spelled_numbers

NAMES_SHOWN = 3  # the names an "it speaks of … instead" warning quotes
# who a statement is about (relation words, stems), not what it says of them
WHO = frozenset(facts.stems(" ".join(facts.KIN_WORDS)))


# a name set off by commas is said to someone, not of them ("He is a dentist, Ines.")
_VOCATIVE = re.compile(r"\s*(?:[,.!?]|$)")
_BEFORE_VOCATIVE = re.compile(r"(?:^|[,;.!?])\s*$")


def other_person(message: str, answer: str, mems: Sequence[Recall],
                 names: Callable[[str], AbstractSet[str]] | None) -> dict | None:
    """``{"kind": "other_person", "asked": "your brother", "said": ["Ines"]}`` when a
    question about the user's life (the caller checks `facts.asks_about_user`) about someone
    of it ("my brother", "Karel") is answered about
    another person of it (`names`: a text -> those people in it), and never about them
    (QA pass 30: "What does my brother do?" answered "Ines is a dentist in Utrecht.", Ines
    being the user; the name check knew "Ines", and the line under it said the memory was
    used); None otherwise."""
    asked, targets = _asked_about(message, mems, names)
    if names is None or not asked:
        return None
    if _named_words(answer) & targets:
        return None  # it speaks of them (whatever it says: the other checks weigh that)
    if _ASKS_YES_NO.match(message) and opens_with_no(answer) and _WHOM_IT_IS.search(answer[:120]):
        return None  # (a no that says whom it is: "No, it's Kiran who is allergic to
        # peanuts." to "Is Dev allergic to peanuts?", pass 41b's persona; not "The answer is
        # no, Elena cannot have…" to a question of the mother, QA pass 49c)
    people = {n.lower() for n in names(answer) if not n.startswith("my ")}  # (not places)
    others = [w for w in dict.fromkeys(re.sub(r"['’]s$", "", m.group(0))
                                       for m in facts.NAME_WORD.finditer(answer)
                                       if not _VOCATIVE.match(answer[m.end():])
                                       or not _BEFORE_VOCATIVE.search(answer[:m.start()]))
              if w[:1].isupper() and w.lower() in people and w.lower() not in targets]
    if not others:
        return None
    return {"kind": "other_person", "asked": _as_asked(message, asked[0]),
            "said": others[:NAMES_SHOWN]}


_WHOM_IT_IS = re.compile(r"\b(?:it['’]s|it\s+is|that['’]s|that\s+is|only|but|rather)\b|\bwho\b",
                         re.IGNORECASE)
_ASKS_YES_NO = re.compile(r"\s*(?:is|are|was|were|does|do|did|has|have|can|could|will|would|"
                          r"should)\b", re.IGNORECASE)
# "I'm Teodora", "I am Teodora", "My name is Teodora", "call me Teo": who says it is named
_SELF_NAMED = r"\b(?:i['’]m|i am|my name is|my name's|calls? me|i go by)\s+"  # ("everyone calls me Harry")


def own_names(texts: Iterable[str]) -> list[str]:
    """The names the user gives as theirs in `texts` ("Hi, I'm Tom Becker, …" → "Tom",
    "Becker": QA pass 40 read "…dear Tom Becker…" as the user's words given to his dad)."""
    return list(dict.fromkeys(
        w for t in texts
        # (capitals as written: "I'm learning Portuguese", "I'm British" name no one, 42d)
        for m in re.finditer(_SELF_NAMED + r"((?-i:[A-Z])[\w'’-]+(?:[ \t]+(?-i:[A-Z])[\w'’-]+){0,2})",
                             t, re.IGNORECASE)
        for w in m.group(1).split()
        if w.lower() not in facts.STOPWORDS and w.lower() not in NO_NAMES))


_MY_PET = re.compile(rf"\b(?:my|our)\s+({'|'.join(sorted(facts.PETS))})\b", re.IGNORECASE)


def _asked_about(message: str, mems: Sequence[Recall],
                 names: Callable[[str], AbstractSet[str]] | None,
                 pets: bool = False) -> tuple[list[str], set[str]]:
    """Whom `message` asks about of the user's people (`names`: "my brother", "Karel"), and
    the words an answer names them by, lower case: their names, their relation's words,
    and the name a memory gives them ("my brother Karel" makes "karel" one); with `pets`,
    their animals too ("my dog": "My dog Biscuit …" makes "biscuit" one)."""
    asked = sorted(names(message)) if names is not None else []
    if pets:
        asked += sorted({"my " + m.group(1).lower() for m in _MY_PET.finditer(message)})
    targets: set[str] = set()
    for n in asked:
        if not n.startswith("my "):
            targets.add(n.lower())
            continue
        words = facts.kin_words(n[3:]) or [n[3:]]
        targets |= set(words)
        # "my brother Karel", "our cat Biscuit", "a cat called Biscuit" (QA pass 34b); a pet
        # by its kind: "my cats" and "We have two cats, Miso and Tofu." (QA pass 48a)
        targets |= {name for r in mems for name, of in _given_names([r.text]).items()
                    if of in words or of == "best friend" and "friend" in words or any(w in kin.PETS and kin.species(w) == kin.species(of)
                                          for w in words)}
    return asked, targets


def _of_whom(of: str) -> str:
    """"cat" → "your cat"; another's animal ("Łukasz’s beagle") as it is; "" for none."""
    return "" if not of else of if "’" in of else f"your {of}"


def _named_words(text: str) -> set[str]:
    """`text`'s words as names are written, lower case, a possessive dropped ("Karel's" →
    "karel"): what `_asked_about`'s words for someone are matched against."""
    return {re.sub(r"['’]s$", "", w).lower() for w in facts.NAME_WORD.findall(text)}


def _as_asked(message: str, first: str) -> str:
    """How a warning names whom the message asked about: "your brother", in the message's
    own word for them ("my mum" → "your mum", not "your mother"), or the name as the
    message wrote it."""
    if first.startswith("my "):
        words = facts.kin_words(first[3:]) or [first[3:]]
        own = re.search(rf"\b(?:my|our)\s+({'|'.join(map(re.escape, words))})\b", message,
                        re.IGNORECASE)
        return "your " + (own.group(1).lower() if own else first[3:])
    as_said = re.search(rf"(?<!\w){re.escape(first)}(?!\w)", message, re.IGNORECASE)
    return as_said.group(0) if as_said else first


# a memory in which the user speaks of themselves, wherever in it ("Hi! My name is Ingrid
# and I work as a plumber…", QA pass 31b: its job, given to the husband, went unmarked)
_I_SAY = re.compile(r"(?:^|[\s,;:(])(?:I|I['’]m|I['’]ve|I['’]d|I['’]ll|[Ww]e|[Ww]e['’]re)\s")
# what a sentence says of the user, once "your brother" and the like are set aside
_OF_USER = re.compile(r"\b(?:you|you're|you've|you'll|yourself|i|i'm|me|my|mine)\b")


def misattributed(message: str, answer: str, mems: Sequence[Recall],
                  names: Callable[[str], AbstractSet[str]] | None) -> dict | None:
    """``{"kind": "misattributed", "asked": "your husband", "memory": id, "said": "I work
    as a plumber…", "words": [...]}`` when a question about someone of the user's life (the
    caller checks `facts.asks_about_user`) is answered, in a sentence about them and not
    the user, with what a memory of the user's own ("I …") says and no memory of theirs,
    nor the message, does (QA pass 31: "Your husband's job is a plumber for Aquaserv." from
    "I work as a plumber for Aquaserv."); None otherwise.  Also, with ``"of": "your
    brother"``, what only a memory of another of theirs says, in a sentence about them
    alone (QA pass 34: "Where does my father live?" answered with the brother's city)."""
    asked, targets = _asked_about(message, mems, names)
    if not asked:
        return None

    def speaks_of(text: str) -> bool:
        return bool(_named_words(text) & targets)

    # (of the user's own, "yourself"; with whom else it names, "yourself and Søren", 36c;
    # not by their own name, "…and Margaret" to her: QA pass 54c)
    yours = {n.lower() for n in own_names([message, *(r.text for r in mems)])}
    mine = [(r, f"yourself and {whose}" if (whose := _whose(r.text, names)).lower() not in {
        "", *yours} else "") for r in mems if _I_SAY.search(r.text)
            and not speaks_of(r.text) and not _opens_with_name(r.text, names)]
    ours = {r.episode_id for r, _ in mine}
    # (a memory naming someone by name alone is another's only when the question asks by
    # name: asked about "my son", "Finn, my eight-year-old…" may be of him, bench personal)
    by_name = bool(targets - facts.KIN_WORDS - facts.PETS)
    theirs = [(r, of) for r in mems if not speaks_of(r.text) and r.episode_id not in ours
              and (of := _whose(r.text, names)) and (by_name or of.startswith("your "))]
    if not mine and not theirs:
        return None
    # (and the user's own name, said to them, of no one: "Your father, Marisol, a hero.", 34b)
    known = facts.terms(message).union(*(facts.terms(r.text) for r in mems if speaks_of(
        r.text))) | WHO | {facts.stem(n) for n in yours}
    kin = "|".join(map(re.escape, sorted(targets)))
    greets = GREETS.match(answer)  # (a greeting's name is said to the user: `greets_as`)
    last = True  # whom the answer named last is whom it asked about (or no one yet)
    for sentence in facts.sentences(answer[greets.end():] if greets else answer):
        low = sentence.lower().replace("’", "'")  # ("My husband is…": as the user, of him)
        alone = not _others_in(sentence, targets, names)  # (no one else it could be of)
        # ("he" or "she" after them, or first, is of them: "How old is Lucy?" answered
        # "…today she's 6.", 6 being Alfie's age, Lucy's never told: QA pass 40e)
        of_them = speaks_of(sentence) or last and alone and bool(_HE_OR_SHE.search(low))
        last = alone and (of_them or last)
        if not of_them or _OF_USER.search(
                re.sub(rf"\b(?:your|my)\s+(?:\w+\s+)?(?:{kin})(?:'s)?\b", " ", low)):
            continue
        said = facts.terms(sentence) - known
        # (a memory of the user's own that tells of another of theirs, "We have a cat
        # called Biscuit.", only for a sentence of no one else: "Biscuit is your cat; your
        # sister is Renata." says the cat's name of the cat)
        for r, of in [m for m in mine if alone or not _whose(m[0].text, names)] + (
                theirs if alone else []):
            # (what it tells, not asks, QA 53a; not a country: a family shares one, QA 37)
            took = said & facts.terms(" ".join(facts.statements(r.text))) - _COUNTRY_STEMS
            # (nor a lower-case "may": "he may take…" is no "9 May" of Ahmed's, QA 42e)
            took -= set() if re.search(r"\b(?:May|March)\b", sentence) else _MONTH_VERBS
            # (nor a common word only within a title: "(Children of the Papa)", QA 49a)
            took -= {facts.stem(m.group(0).lower()) for m in _CAPITAL.finditer(sentence.strip())
                     if m.start() and is_common_word(m.group(0).lower())
                     and m.group(0) not in r.text}  # (the memory's own capital: "9 May")
            words = [w for w in dict.fromkeys(re.findall(r"[\w'’-]+", sentence))
                     if facts.stem(w.lower()) in took or w in took]
            # (everyday words are no fact: "she loves to work outdoors", QA pass 35b; a name
            # or number is: "…lives in Leipzig")
            named = any(w[:1].isupper() or w[:1].isdigit() for w in words
                        if not sentence.lstrip().startswith(w))
            # (a number only as an age: "4 days late", "the 4th of May", "5-23 Harker St."
            # are no age of Oscar's given to Chloe, QA pass 41e)
            if took and all(w.isdigit() for w in took) and not any(
                    re.search(rf"\b(?:is|['’]s|are|turned|turns|aged?|now)\s+(?:now\s+|only\s+|"
                              rf"just\s+|almost\s+)?{w}\b(?![-–:/.,]?\d)(?!\s*(?:st|nd|rd|th|days?|"
                              rf"weeks?|months?|hours?|minutes?|am|pm|%)\b)|\b{w}[- ]years?[- ]old\b",
                              sentence, re.IGNORECASE)
                    for w in took):
                continue
            if took - _EVERYDAY or took and named:
                # (quoted without the everyday words beside a telling one: "works")
                words = [w for w in words if facts.stem(w.lower()) not in _EVERYDAY] or words
                return {"kind": "misattributed", "asked": _as_asked(message, asked[0]),
                        "memory": int(r.episode_id), "said": r.text, "words": words,
                        **({"of": of} if of else {})}
    return None


_MONTH_VERBS = frozenset(facts.stems("may march"))
_CAPITAL = re.compile(r"\b(?-i:[A-Z])[a-z]+\b")
_HE_OR_SHE = re.compile(r"\b(?:he|she)(?:'s)?\b")
_COUNTRY_STEMS = frozenset(facts.stems(" ".join(COUNTRIES)))
# words too everyday to be what was told of someone ("years": QA pass 54c)
_EVERYDAY = frozenset(facts.stems("work works working job jobs live lives living love loves like "
                                  "likes go goes make help helps time day days home people family "
                                  "life called named call name year years month months week old"))


def _opens_with_name(text: str, names: Callable[[str], AbstractSet[str]] | None) -> bool:
    """Does `text` open with the name of someone of the user's life, its subject ("Kwame
    has a severe egg allergy, so we have to be careful…" is of Kwame, not of the user: QA
    pass 38b read it as the user's own)?"""
    m = re.match(r"\s*([A-Z][\w'’-]*)", text)
    return bool(m and names is not None
                and m.group(1).lower() in {n.lower() for n in names(text)})


def _whose(text: str, names: Callable[[str], AbstractSet[str]] | None) -> str:
    """Whom of the user's life a memory speaks of, as a warning names them ("your
    brother", "Jonas"); "" for none."""
    m = re.search(rf"\b(?:my|our)\s+({'|'.join(sorted(facts.KIN_WORDS | facts.PETS))})\b",
                  text, re.IGNORECASE)
    if m:
        return "your " + m.group(1).lower()
    given = _given_names([text])  # ("We have a cat called Biscuit.")
    if given:
        return _of_whom(next(iter(given.values())))
    # (as the memory writes it: `names` gives them lower case, "Actually Alfie is 6 now.")
    for n in sorted(names(text) if names is not None else ()):
        said = re.search(rf"\b{re.escape(n)}\b", text, re.IGNORECASE)
        if said and said.group(0)[:1].isupper():
            return said.group(0)
    return ""


def _others_in(sentence: str, targets: set[str],
               names: Callable[[str], AbstractSet[str]] | None) -> bool:
    """Does `sentence` name someone of the user's life besides `targets` (a relation, a
    pet, a person's name)?"""
    words = _named_words(sentence)
    if words & (facts.KIN_WORDS | facts.PETS) - targets:
        return True
    return bool({n.lower() for n in (names(sentence) if names is not None else ())
                 if not n.startswith("my ")} - targets)


# a question for what someone is called ("What is my dog called?", "What's my sister's
# name?", "Who is my boss?")
_ASKS_NAME = re.compile(r"\b(?:called|names?|named|who(?:'s|’s| is| was| are)?)\b", re.IGNORECASE)


def misnamed(message: str, answer: str, mems: Sequence[Recall],
             names: Callable[[str], AbstractSet[str]] | None) -> dict | None:
    """``{"kind": "misnamed", "asked": "your dog", "said": "Felix", "of": "your son"}`` when
    a question for the name of someone of the user's life (the caller checks
    `facts.asks_about_user`) is answered, in a sentence that speaks of them, with the name
    of another person of it and never with a name of theirs (QA pass 33b: "What is my dog
    called?" answered "The correct title of your dog's name is Felix.", Felix being the
    son, with the dog's memory listed as used and nothing marked).  ``of`` is whom a
    recalled memory gives that name ("My son Felix …" → "your son"), "" when none does;
    None otherwise."""
    if names is None or not _ASKS_NAME.search(message):
        return None
    asked, targets = _asked_about(message, mems, names, pets=True)
    if not asked:
        return None
    relation_words = set(facts.KIN_WORDS) | {n[3:] for n in asked if n.startswith("my ")}
    their_names = targets - relation_words
    given = _given_names([message, *(r.text for r in mems)])
    # it gives one of their names, whatever else it says, unless it ends on another as them
    # ("…a friend of yours, Marga. … Elena is your best friend.", QA pass 49c)
    rel = "|".join(sorted(re.escape(n[3:]) for n in asked if n.startswith("my "))) or "(?!)"
    last = [m.group(1) or m.group(2) for m in re.finditer(
        rf"\byour\s+(?:\w+\s+)?(?:{rel})\s+is\s+(?:actually\s+)?([A-Z][\w'’-]+)|"
        rf"\b([A-Z][\w'’-]+)\s+is\s+your\s+(?:\w+\s+)?(?:{rel})\b",
        answer)]
    if _named_words(answer) & their_names and not (last and last[-1].lower() in set(given) - targets):
        return None
    yours = own_names([message, *(r.text for r in mems)])
    before = False  # (the sentence before spoke of them)
    for k, sentence in enumerate(facts.sentences(answer)):
        bare = _BARE_NAME.match(sentence) if k == 0 else None
        if bare and bare.group(1) in yours and bare.group(2) == ",":
            bare = None  # (the user's own name set off by a comma is said to them)
        # ("Your sister is a very special one. She's a cat named Pip.": QA pass 35b)
        of_them = bool(_named_words(sentence) & targets) or before and bool(_PRONOUN.match(sentence))
        before = of_them
        if not of_them and not bare:
            continue
        people = {n.lower() for n in names(sentence) if not n.startswith("my ")} | set(given)
        # (not whose it is: "Søren's cat is called Whiskers." calls the cat no "Søren",
        # QA pass 36c; nor "Søren has a cat called…")
        owners = {m.group(1) or m.group(2) for m in _OWNS.finditer(sentence)}
        other = next((w for w in dict.fromkeys(re.sub(r"['’]s$", "", w)
                                               for w in facts.NAME_WORD.findall(sentence))
                      if w[:1].isupper() and w.lower() in people - targets
                      and w not in owners), None)
        if other is None:
            continue
        theirs = re.compile(rf"\b(?i:my|our)\s+([a-z][\w'’-]*)\s+{re.escape(other)}\b")
        of = given.get(other.lower()) or next(
            (m.group(1) for r in mems for m in theirs.finditer(r.text)), "")
        if of.lower() in relation_words & targets or any(
                _kind_of(of.lower(), a[3:]) for a in asked if a.startswith("my ")):
            continue  # (their own name, found another way; "a tabby called Pepper" is the
            # cat's, QA pass 38b: "it calls your cat “Pepper”, the name of your tabby")
        # (whom the sentence speaks of, of those asked about: "Tomasz - a dog." to "What are
        # the names of our dog and our daughter?" calls the dog Tomasz, QA pass 37c N13)
        meant = next((a for a in asked if a.startswith("my ") and re.search(
            rf"\b(?:{'|'.join(map(re.escape, facts.kin_words(a[3:]) or [a[3:]]))})\b",
            sentence, re.IGNORECASE)), asked[0])
        return {"kind": "misnamed", "asked": _as_asked(message, meant), "said": other,
                "of": "yourself" if other in yours else _of_whom(of)}
    return None


# whose someone or something is: "Søren's cat", "Søren has a cat", "the cat of Søren"
_OWNS = re.compile(rf"\b([A-Z][\w'’-]*?)(?:['’]s?\s+[\w-]+|\s+(?:has|had|owns|owned|adopted|"
                   rf"got)\s+(?:a|an)\s+(?i:{kin.KIN_PET_BREED})\b)|\bof\s+([A-Z][\w'’-]*)")
# a sentence that goes on about whom the one before spoke of
_PRONOUN = re.compile(r"\s*(?:she|he|they|her|his|their)(?:['’]s|['’]re)?\b", re.IGNORECASE)
# an answer that opens with a name alone ("Biscuit.", "Biscuit, my cat.", "It's Biscuit!"):
# to a question for a name, the name given
_BARE_NAME = re.compile(r"\s*(?:(?:it|that)(?:['’]s| is)\s+)?([A-Z][\w'’-]+)\s*([,.!]|$)",
                        re.IGNORECASE)


_KIN_OR_PET = "|".join(sorted(facts.KIN_WORDS | facts.PETS))
_ROLE_WORDS = "|".join(sorted(kin.ROLES))
# "my son Felix", "a cat called Biscuit", "a beagle called Pepper", "My cat is called Miso",
# "my dog's name is Rex" (QA pass 36: Miso and Pepper were no names of the user's life)
_GIVEN = re.compile(rf"\b(?i:(?:my|our)\s+({_KIN_OR_PET}))\s+([A-Z][\w'’-]+)"
                    rf"|\b(?i:(?:a|an|my|our)\s+{kin.BEFORE_KIN}({kin.KIN_PET_BREED}),?\s+(?:called|named))"
                    rf"\s+([A-Z][\w'’-]+)"
                    rf"|\b(?i:(?:my|our)\s+{kin.BEFORE_KIN}({_KIN_OR_PET})(?:['’]s\s+name\s+is(?:\s+spel(?:led|t))?|"  # (55b: "…late husband was called")
                    rf"\s+(?:is|was)\s+(?:called|named)|['’]s\s+(?:called|named)))\s+([A-Z][\w'’-]+)"
                    # another's: "My brother Tomás and his daughter Inès…" (QA pass 36b)
                    rf"|\b(?i:(?:his|her|their)\s+({_KIN_OR_PET}))\s+([A-Z][\w'’-]+)"
                    # "we have a daughter, Solveig", "my closest colleague is Grace" (QA 37)
                    rf"|\b(?i:(?:a|an|my|our)\s+{kin.BEFORE_KIN}({kin.KIN_PET_BREED}),)\s*([A-Z][\w'’-]+)"
                    rf"|\b(?i:(?:my|our)\s+{kin.BEFORE_KIN}({kin.KIN_PET_BREED}|{_ROLE_WORDS})\s+(?:is|was))"
                    rf"\s+([A-Z][\w'’-]+)"
                    # "I adopted a ginger cat … Her name is Marmalade" (`bench personal`)
                    rf"|\b(?i:(?:a|an|my|our)\s+{kin.BEFORE_KIN}({kin.PET_BREED}))\b[^.!?]{{0,80}}"
                    rf"[.!?]\s+(?i:(?:her|his|its)\s+name\s+is)\s+([A-Z][\w'’-]+)"
                    # "Kevin is my younger brother" (QA pass 53d: "…it speaks of “Kevin” instead")
                    rf"|\b(?=[A-Z][\w'’-]+\s+(?i:is|was)\s+(?i:my|our)\s+{kin.BEFORE_KIN}({_KIN_OR_PET})\b)"
                    rf"([A-Z][\w'’-]+)")


_HAS = re.compile(r"\b(?:has|have|had|owns|own|owned|got)\s+$", re.IGNORECASE)
_NOT_OWNER = frozenset("i we my our the a an".split())


def _owner(before: str, has: bool = True) -> str | None:
    """Whose animal "a beagle called Pepper" is, from its sentence up to there: the name
    the sentence opens with when it says someone "has" it ("My best friend Łukasz is a
    nurse and has a beagle called Pepper." → "Łukasz"); None for the user's own ("We have
    a cat called Biscuit.") or when no one is said to have it.  Without `has`, whose
    "his daughter Inès" is ("My brother Tomás and his daughter…" → "your brother")."""
    if has and not _HAS.search(before):
        return None
    sentence = re.split(r"(?<=[.!?])\s+", before)[-1]
    prev = ""
    for w in re.findall(r"[^\W\d_][\w'’-]*", sentence):
        low = w.lower()
        if low in ("i", "we"):
            return None
        if (low in facts.KIN_WORDS or low[:-1] in facts.KIN_WORDS) and prev in ("my", "our"):
            return f"your {low}"  # ("My sister has a cat called Pip.", "our neighbours")
        if w[:1].isupper() and low not in _NOT_OWNER | facts.KIN_WORDS:
            return re.sub(r"['’]s$", "", w)
        prev = low
    return None


def names_of(relations: AbstractSet[str], texts: Iterable[str]) -> set[str]:
    """The names `texts` give the people or animals of `relations` ("sister" → "aoife"
    from "My sister Aoife lives in Cork."), lower case."""
    return {n for n, of in _given_names(list(texts)).items() if of in relations}


def _given_names(texts: Sequence[str]) -> dict[str, str]:
    """The names `texts` give to people and animals of the user's life, lower case, with
    the relation or animal each names ("My son Felix is nine." → {"felix": "son"}, "We have
    a cat called Biscuit." → {"biscuit": "cat"}): a pet's name, which `people_in` does not
    read as a person's, given to the sister (QA pass 34b: "Biscuit, my cat.")."""
    out: dict[str, str] = {}
    for t in texts:
        for m in _GIVEN.finditer(t):
            of, name = next((a, b) for a, b in zip(m.groups()[::2], m.groups()[1::2]) if b)
            if re.search(r"\b(?:best|closest)\s+friend\b", m.group(0), re.IGNORECASE):
                of = "best friend"  # (one person: `kin.KIN`)
            owner = _owner(t[:m.start()]) if m.group(3) else \
                _owner(t[:m.start()], has=False) or "someone" if m.group(7) else None
            if name.lower() not in facts.STOPWORDS:
                mark = "’" if owner and owner.startswith("your ") and owner.endswith("s") else "’s"
                out.setdefault(name.lower(), f"{owner}{mark} {of.lower()}" if owner else of.lower())
        # ("We have two cats, Miso and Tofu.": QA pass 48a, "…your brother, Miso" unmarked)
        for m in _SEVERAL.finditer(t):
            for name in re.findall(r"[A-Z][\w'’-]+", m.group("names")):
                kind = m.group("kind").lower()
                out.setdefault(name.lower(), kin.KIN.get(kind.removesuffix("s"), kin.species(kind)))
    return out


_SEVERAL = re.compile(rf"\b(?:two|three|four|both|\d)\s+(?P<kind>(?i:{kin.KIN_PET_BREED})s?),?\s+"
                      r"(?:(?:called|named)\s+)?(?P<names>[A-Z][\w'’-]+(?:,\s*[A-Z][\w'’-]+)*,?"
                      r"\s+and\s+[A-Z][\w'’-]+)")


def _names_within(text: str) -> set[str]:
    """The words `text` writes capitalised within a sentence, lower case, a possessive
    dropped ("My brother Tom lives in Leeds." → {"tom", "leeds"}): its names."""
    out: set[str] = set()
    for s in facts.sentences(text):
        for m in facts.NAME_WORD.finditer(s):
            w = m.group(0)
            if m.start() > 0 and w[:1].isupper() and w not in facts.NOT_NAMES \
                    and not _I.match(w):
                out.add(re.sub(r"['’]s$", "", w).lower())
    return out


# "I", "I'm", "I've": the speaker, no name (QA pass 40c: "it says “I'm” of your mum, and
# only another memory says it: “Hi, I'm Sam Okafor…”")
_I = re.compile(r"I(?:['’][a-z]+)?$")


def misplaced(message: str, reply: str, mems: Sequence[Recall],
              names: Callable[[str], AbstractSet[str]] | None) -> dict | None:
    """``{"kind": "misplaced", "asked": "your mum", "memory": id, "said": "My brother Tom
    lives in Leeds.", "words": ["Leeds"]}`` when the reply to a message that tells of
    someone of the user's life ("My mum Grace lives in Bradford.") says of them, in a
    sentence about them alone, a name that neither the message nor a memory of theirs
    says, and a memory of someone or something else does ("Your mum Grace is in Leeds."
    beside "My brother Tom lives in Leeds.": a known name, so the made-up check let it
    pass); None otherwise.  The caller checks that the message only tells
    (`life_news.tells_of_life`)."""
    told, targets = _asked_about(message, mems, names, pets=True)
    if names is None or not told:
        return None

    def speaks_of(text: str) -> bool:
        return bool(_named_words(text) & targets)

    others = [r for r in mems if not speaks_of(r.text)]
    theirs = _names_within(message) | _named_words(message) | targets
    for r in mems:
        if speaks_of(r.text):
            theirs |= _named_words(r.text)
    for sentence in facts.sentences(reply):
        words = _named_words(sentence)
        if not words & targets or words & (facts.KIN_WORDS | facts.PETS) - targets:
            continue  # (about them, and no other relation of the user's)
        people = {n.lower() for n in names(sentence) if not n.startswith("my ")}
        if people - targets:
            continue  # (another person of theirs: the name may be put with them)
        found = [w for w in dict.fromkeys(re.sub(r"['’]s$", "", m.group(0))
                                          for m in facts.NAME_WORD.finditer(sentence))
                 if w[:1].isupper() and w not in facts.NOT_NAMES and not _I.match(w)
                 and w.lower() not in theirs]
        for r in others:
            took = [w for w in found if w.lower() in _names_within(r.text)]
            if took:
                first = next((n for n in told if n.startswith("my ")), told[0])
                return {"kind": "misplaced", "asked": _as_asked(message, first),
                        "memory": int(r.episode_id), "said": r.text, "words": took}
    return None




def as_user(message: str, reply: str, mems: Sequence[Recall],
            yours: Sequence[str] = ()) -> dict | None:
    """``{"kind": "as_user", "said": "I am Teodora"}`` when the reply speaks as the user,
    calling itself by the name the user gave as theirs in the message, a memory, or any
    statement (`yours`: QA pass 41e, "Hi there, I'm Marcus, …" with no memory of his name
    recalled) (QA pass 34: "I'm Teodora and I work as a pharmacist…" was answered "I am
    Teodora, a pharmacist who runs Bremen's pharmacy. I've just completed my training…",
    nothing under it); None otherwise."""
    unquoted = _QUOTED.sub(" ", reply)  # (not in quotes: '"Hello, I'm Jonas…"', QA 48d)
    mine = {*own_names([message, *(r.text for r in mems)]), *yours}
    for name in sorted(mine):
        m = re.search(_SELF_NAMED + re.escape(name) + r"\b", unquoted, re.IGNORECASE)
        if m:
            return {"kind": "as_user", "said": m.group(0)}
    # or saying as its own what the user told of themselves, a name or number with it (QA
    # pass 36: "I'm 5 years old and live in Leeds"; not "I love baking too!", no name);
    # the message's own too ("We have a daughter, Solveig, who is 8.", QA pass 37 P18), and
    # a clause of a sentence: "When I was flying to Lisbon on 3 June, I wanted…"
    own = [s for t in (message, *(r.text for r in mems)) for s in facts.sentences(t)
           if _FIRST.match(s) or _WE.match(s)]
    # (not the user's words quoted as theirs: "As for things you've told me before: • I
    # play bowls at the club every Thursday afternoon", QA pass 44b; nor within quotes)
    quoting = _QUOTING.search(reply)
    reply = _QUOTED.sub(" ", reply[:quoting.start()] if quoting else reply)
    for x in facts.sentences(reply):
        s = next((c for c in re.split(r"(?<=,)\s+", x) if (_FIRST.match(c) or _WHEN_I.match(c))
                  and not _TALK.match(c)), "")
        # (the clause itself, not what the sentence goes on to say: "I played football on
        # Tuesdays, but that's not the only way you can play football.", QA pass 40)
        s = _NEXT_CLAUSE.split(x[x.index(s):], maxsplit=1)[0] if s else ""
        if not s or _TO_YOU.search(s) or (n := _MY_NAME_IS.search(x)) and n.group(1) not in mine:
            continue  # ("I see you live in Leeds."; "My name is Emeka…", another's, 49d)
        said = facts.terms(s)
        for t in own:
            shared = said & facts.terms(t)
            if len(shared) >= 2 and shared & _specifics(t):
                s = re.sub(r"^\s*(?:[-*•·]\s*|\d+[.)]\s+)?", "", s).strip()
                return {"kind": "as_user",
                        "said": s if len(s) <= 60 else s[:s.rfind(" ", 0, 60)] + "…"}
    return None


_QUOTING = re.compile(r"\byou(?:['’]ve|\s+have)?\s+(?:told|said|mentioned|shared|written|wrote)"
                      r"\b[^.!?\n]{0,40}:", re.IGNORECASE)
_QUOTED = re.compile(r"“[^”]*”|\"[^\"\n]*\"")


def as_them(message: str, reply: str, mems: Sequence[Recall],
            names: Callable[[str], AbstractSet[str]] | None) -> dict | None:
    """``{"kind": "as_them", "who": "Lucy", "said": "I am a solicitor"}`` when, asked about
    someone of the user's life, the reply says in the first person what a recalled memory
    says of them (QA pass 40e: "Is Lucy a nurse?" answered "…In this time period, I am a
    solicitor.", Lucy being the solicitor, with nothing under it); None otherwise."""
    asked, targets = _asked_about(message, mems, names)
    if not asked:
        return None
    # (what a memory says of the user in the first person is theirs, not the one asked
    # about: "Hello, I'm Grace and my husband Daniel takes lithium." parroted read "it speaks
    # as if it were Daniel (“I'm Grace and”)", QA pass 45)
    told = set().union(*(facts.terms(r.text) - _said_of_self(r.text) for r in mems
                         if _named_words(r.text) & targets)) - facts.terms(message) - WHO - _EVERYDAY
    # (by name, "My name is Meera…"; no apology, "I'm sorry for…" of "Sorry, …", QA 48e)
    named = _MY_NAME_IS.search(reply)
    if named and named.group(1).lower() in targets:
        return {"kind": "as_them", "who": _as_asked(message, asked[0]), "said": named.group(0)}
    told -= _FEELING
    for m in _I_AM.finditer(reply):
        if facts.terms(m.group(1)) & told:
            return {"kind": "as_them", "who": _as_asked(message, asked[0]),
                    "said": m.group(0).strip()}
    return None


_MY_NAME_IS = re.compile(r"\bmy name is\s+([A-Z][\w'’-]+)", re.IGNORECASE)
_FEELING = frozenset(facts.terms("sorry glad happy afraid sure pleased excited thrilled"))


def _said_of_self(text: str) -> set[str]:
    """The terms `text` says of the one speaking ("I'm Grace" → grace)."""
    return set().union(*(facts.terms(m.group(1)) for m in _I_AM.finditer(text)))


# "I am a solicitor", "I'm now a firefighter": what the reply says it is
_I_AM = re.compile(r"\bI(?:['’]m| am)\s+(?:(?:a|an|the|now|also|still|actually|really)\s+)*"
                   r"([\w-]+(?:\s+[\w-]+)?)")
_TO_YOU = re.compile(r"\b(?:you|your|you['’](?:re|ve|ll|d))\b", re.IGNORECASE)
_NEXT_CLAUSE = re.compile(r",?\s+\b(?:but|so|because|although|though|whereas)\b|;|:(?!\d)",
                          re.IGNORECASE)  # (not a time's colon, "at 10:30": QA pass 48b)
# a clause of the first person after a word that makes it part of a sentence ("When I was
# flying to Lisbon on 3 June, …")
_WHEN_I = re.compile(r"\s*(?:when|while|since|as|because|after|before|once)\s+(?:i|my)\b",
                     re.IGNORECASE)
# what the user says of their household ("We have a daughter…", "Our dog is…")
_WE = re.compile(r"\s*(?:we|we['’](?:re|ve)|our)\b", re.IGNORECASE)
# how an assistant speaks in the first person of itself, not as the user ("I'm sorry to
# hear…", "I hope…", "I'd suggest…")
_TALK = re.compile(r"\s*(?:[-*•·]\s*)?(?:(?:and|so|also|oh|well),?\s+)?i(?:['’]m|\s+am)?\s+"
                   r"(?:so\s+|very\s+|really\s+|truly\s+)?(?:sorry|glad|happy|delighted|here|"
                   r"afraid|not sure|sure|certain|hope|understand|see|think|believe|recommend|suggest|can|"
                   r"could|would|will|['’]d|['’]ll|don['’]t know|do not know|remember|know|"
                   # (its feeling, hearsay: "I just love how he's…", "I've also heard…", 49b)
                   r"(?:just\s+|really\s+)?love\s+(?:how|that|the way))\b|\s*i(?:['’]ve|\s+have)\s+"
                   r"(?:also\s+)?(?:heard|read|noticed|learned|seen)\b"
                   # ("I'd like to share a bit more about it, but…", QA pass 39c)
                   r"|\s*(?:(?:and|so|also|oh|well),?\s+)?i['’](?:d|ll)\s+(?:(?:also|really|"
                   r"just)\s+)?(?:like|love|be happy|be glad|be here|be there|be around|say|"
                   r"suggest|recommend|make sure|"
                   r"try|help|add|note|mention|clarify|explain|point out)\b"
                   # (of its own reply: "I must clarify that my response…", "I'll add…", 47)
                   r"|\s*(?:(?:and|so|also|oh|well),?\s+)?i\s+(?:must|should|need to|want to|"
                   r"have to)\s+(?:add|note|mention|clarify|explain|point out)\b", re.IGNORECASE)
_FIRST = re.compile(r"\s*(?:[-*•·]\s*|\d+[.)]\s+)?(?:(?:and|so|also|oh|well),?\s+)?"
                    r"(?:i|i['’]m|i['’]ve|i['’]ll|my)\b", re.IGNORECASE)  # ("- My best friend…")


def _specifics(text: str) -> set[str]:
    """The terms (`facts.terms`) of `text`'s names and numbers: what makes a statement
    someone's own ("Leeds", "14"), not what anyone may say ("love", "baking")."""
    named = " ".join(w for i, w in enumerate(re.findall(r"[\w'’-]+", text))
                     if i > 0 and w[:1].isupper() or any(c.isdigit() for c in w)
                     or spelled_numbers(w.lower()))  # ("three years ago", QA pass 49e)
    return facts.terms(named)


# "your Japanese teacher, Aoife", "Aoife, your sister": a relation an answer gives a name
# (set off on both sides: "Dear Pip, your dog is called Rox." speaks to Pip, QA pass 36b)
_CALLS = re.compile(r"\b(?i:your)\s+((?:[\w'’-]+\s+){0,2}?([a-z]+)),?\s+([A-Z][\w'’-]+)"
                    r"|\b([A-Z][\w'’-]+)(?:,|\s+(?i:is|was))\s+your\s+((?:[\w'’-]+\s+){0,2}?"
                    r"([a-z]+))(?=\s*(?:[,.;:!?]|$))")  # ("Suresh is your brother.", QA pass 41)
_MINE = re.compile(r"\b(?:I\s+have|I['’]ve\s+got)\s+(?:a|an)\s+((?:[\w'’-]+\s+)?([a-z]+)),?\s+"
                   r"(?:(?:named|called)\s+)?([A-Z][\w'’-]+)")
# what an answer may call someone of the user's life that says who they are to the user
_ROLES = facts.KIN_WORDS | facts.PETS | kin.BREEDS | frozenset(
    "teacher colleague coworker doctor dentist vet tutor coach student classmate".split())


# what kind of animal a breed is (the rest of `kin.BREEDS` are dogs')
def _kind_of(breed: str, word: str) -> bool:
    """Is the animal `breed` of the kind `word` says ("tabby", "cat": QA pass 38 read "your
    cat Pepper" as misrelated, Pepper told as "a tabby"), or any pet at all ("pet")?"""
    return breed in kin.BREEDS and word in kin.PETS and (
        word in ("pet", "pets") or kin.species(breed) == kin.species(word))


def misrelated(answer: str, mems: Sequence[Recall]) -> dict | None:
    """``{"kind": "misrelated", "name": "Aoife", "said": "Japanese teacher", "told":
    "your sister"}`` when an answer calls someone the memories name by relation ("My sister
    Aoife…") by another ("…your Japanese teacher, Aoife.", QA pass 36, the teacher being
    美咲), or as the user's own what is another's ("your daughter Inès" of "My brother
    Tomás and his daughter Inès…"); None otherwise.  A friend is anyone's: no relation is
    read from "friend"."""
    told = _given_names([r.text for r in mems])
    for m in _CALLS.finditer(answer):
        said, word, name = (m.group(1), m.group(2), m.group(3)) if m.group(3) else \
            (m.group(5), m.group(6), m.group(4))
        name = re.sub(r"['’]s?$", "", name)  # ("…your nephew Tobi's table", QA pass 49d)
        was = told.get(name.lower(), "")
        if word not in _ROLES or not was:
            continue
        if "’" in was:  # another's: "your daughter Inès" of "his daughter Inès" (QA pass 36b)
            wrong = facts.KIN.get(word, word) == facts.KIN.get(was.split()[-1], was.split()[-1])
        else:
            wrong = facts.KIN.get(word, word) != facts.KIN.get(was, was) \
                and not _kind_of(word, was) and not _kind_of(was, word)
        if wrong:
            return {"kind": "misrelated", "name": name, "said": said.strip(),
                    "told": _of_whom(was)}
    return None



def invented(answer: str, known: str, names: AbstractSet[str]) -> dict | None:
    """``{"kind": "invented", "said": "your friend Sarah", "name": "Sarah"}`` when an answer
    gives the user a relation, friend or pet by a name they never wrote: not in `known`
    (the message and the chat's earlier messages), nor among `names` (every name their
    memories hold, lower case).  QA pass 39c: "Plan a party for Jamie's birthday" was
    answered "…with your friend Sarah and me.", no Sarah ever told, and a request for
    ideas has no made-up check.  A name spelt another way is no new one ("your wife Hana"
    of Hannah).  None otherwise."""
    said = {re.sub(r"['’]s$", "", w).lower() for w in facts.NAME_WORD.findall(known)} | set(names)
    # (or, speaking as the user, "I have a son Nkruma", QA pass 42d)
    for m in [*_CALLS.finditer(answer), *_MINE.finditer(answer)]:
        words, word, name = (m.group(1), m.group(2), m.group(3)) if m.group(3) else \
            (m.group(5), m.group(6), m.group(4))
        name = re.sub(r"['’]s?$", "", name)  # ("your husband Tobias' gift")
        key = name.lower()
        if (word in _ROLES or word in kin.ROLES) and not spelt_as(key, said) \
                and key not in facts.STOPWORDS and key not in facts.NOT_NAMES \
                and key not in _TITLES:  # ("your friend Chef Tunde", QA pass 40c)
            called = m.group(0) if m.re is _MINE else f"your {words.strip()} {name}" \
                if m.group(3) else f"{name}, your {words}"
            return {"kind": "invented", "said": called.rstrip(",. "), "name": name}
    return None


# a title before a name, no name itself
_TITLES = frozenset("chef captain doctor dr mr mrs ms miss mx professor prof uncle aunt auntie "
                    "nurse officer sir lady lord coach architect pastor reverend rev saint st "
                    "judge general major sergeant".split())
# an answer's greeting to the user: "Hi Jamie,", "Dear Jamie" (not "Hello, I'm glad…", 43b)


def greets_as(message: str, answer: str, mems: Sequence[Recall],
              names: Callable[[str], AbstractSet[str]] | None = None,
              yours: Sequence[str] = ()) -> dict | None:
    """``{"kind": "misnamed", "asked": "you", "said": "Jamie", "of": "your brother"}`` when
    an answer greets the user by the name a recalled memory gives another person or animal
    of theirs, and not their own (QA passes 39c and 40: "Hi Jamie," to Tom, Jamie being his
    brother, again and again with nothing under it); not when `message` names them ("Write
    a birthday card for Jamie": "Dear Jamie, …" is the card).  Knowing the user's own
    names (`yours`), by any other name (``"yours"``: QA pass 42b, "Sara, welcome to your
    unit." to "Hi, I'm Sofia Alvarez…"); not a name of theirs misread (`misread`).  Else None."""
    yours = list(dict.fromkeys([*yours, *own_names([message])]))  # (the message's own too)
    m = GREETS.match(answer) or (OPENS_CALLING.match(answer) if yours else None) or next(
        (c for s in facts.sentences(answer) if (c := MY_DEAR.match(s))), None) or next(
        filter(None, (
        # (or calls them by it at a sentence's end: "…have a great day on your birthday,
        # Dan!" to "Thanks!", QA pass 41; not "…with your brother, Dan.", who he is)
        c for s in facts.sentences(answer) if (c := CALLED_LAST.search(s)) and not re.search(
            rf"\b(?:{kin.KIN_PET_BREED}|{'|'.join(sorted(kin.ROLES))})s?\s*$",
            s[:c.start(1)].rstrip(" ,"), re.IGNORECASE) and not _said_of_one(s, c.group(1), mems)
        )), None)
    if m is None or not m.group(1)[:1].isupper():
        return None
    # (nor an interjection or a place: "Aw, …", "…in Leeds, England!", QA pass 42f)
    texts, name = [r.text for r in mems], m.group(1)
    if yours and name not in yours and name.lower() not in message.lower() and not (
            OPENER.match(name) or facts.is_interjection(name) or names and names(name)
            or misread(name, [*_given_names([*texts, message]), *(names(message) if names else ()),
                              *map(str.lower, yours)])  # ("Tommy" for Tom too, QA pass 43b)
    ) and name.lower() not in COUNTRIES | NO_NAMES:
        return {"kind": "misnamed", "asked": "you", "said": name, "yours": " ".join(yours)}
    of = _given_names(texts).get(name.lower(), "")
    # (a possessive is the name: "Write a card for Lucy's birthday", QA pass 41)
    asked = set(re.findall(r"[\w-]+", re.sub(r"['’]s\b", "", message.lower())))
    # (nothing recalled that gives the name: someone of the user's life all the same, by
    # `names`: "Thanks!" answered "…on your birthday, Dan!", QA pass 41)
    someone = not of and names is not None and name.lower() in names(name)
    if not (of or someone) or name.lower() in {n.lower() for n in own_names(texts)} \
            or name.lower() in asked or of and of.split()[-1] in asked:
        return None
    return {"kind": "misnamed", "asked": "you", "said": name,
            **({"of": _of_whom(of)} if of else {})}


def _said_of_one(sentence: str, name: str, mems: Sequence[Recall]) -> bool:
    """Is `name` at `sentence`'s end one of the user's it speaks of ("You've got a cat that
    you're proud of, Miso.", Miso a cat told of: QA pass 48a, "it calls you “Miso”")?"""
    return any(re.search(rf"\b{re.escape(name)}\b", r.text) for r in mems) and bool(re.search(
        rf"\b(?:{kin.KIN_PET_BREED})s?\b", sentence, re.IGNORECASE))


def same_one(via: str, news: str, source: str) -> bool:
    """Is the newer `news` of whom the name `via` names, as far as the `source` memory
    tells: it names them, or names no one, or calls them by the relation `source` gives
    them ("Actually my sister moved to Porto." of Ines, "My sister Ines lives in Lyon.";
    not "Actually Oscar is 5 now." of Chloe, "Chloe's son Oscar is 4…")?"""
    told = facts.who(news) - {facts.SELF}
    return not told or via in told or any(
        re.search(rf"\b(?:my|our)\s+{re.escape(k)}\s+{re.escape(via)}\b", source, re.IGNORECASE)
        for k in told & facts.KIN_WORDS)


# a question for a name: "What is my dog called?", "What's my sister's name?", "Who is my
# boss?"
_ASKS_FOR_NAME = re.compile(r"\b(?:what(?:['’]s| is| was)|who(?:['’]s| is| was))\b[^?]*\b(?:called|"
                            r"named|names?)\b|\bwho(?:['’]s| is| was)\s+(?:my|our)\s+\w+\s*\?",
                            re.IGNORECASE)


def name_left_out(message: str, answer: str, mems: Sequence[Recall],
                  names: Callable[[str], AbstractSet[str]] | None) -> dict | None:
    """``{"kind": "left_out", "memory": id, "said": …}`` when `message` asks the name of
    someone or an animal of the user's ("What's my pet called?", "What is my sister's
    name?") that a recalled memory gives ("…adopted a ginger cat… called Marmalade"), and
    `answer` never says it (`bench personal`: "Your pet's name is a ginger cat." had no
    line); another's name is `misnamed`'s.  None otherwise."""
    if names is None or not _ASKS_FOR_NAME.search(message):
        return None
    asked, _ = _asked_about(message, mems, names, pets=True)
    words = {w for n in asked if n.startswith("my ")  # ("my best friend" is a friend, 50e)
             for w in facts.kin_words(n[3:]) or [n[3:], n[3:].split()[-1]]}
    said = _named_words(answer)
    for r in mems:
        given = {n for n, of in _given_names([r.text]).items() if of in words
                 or of in facts.PETS | kin.BREEDS and words & {"pet", "pets"}
                 or any(kin.species(of) == kin.species(w) for w in words & facts.PETS)}
        if given and not given & said:
            # (quoted from the sentence that names the animal or relation to the name's:
            # "…a ginger cat from the Humane Society on Saturday. Her name is Marmalade…")
            parts = facts.sentences(r.text)
            last = next((i for i, p in enumerate(parts) if _named_words(p) & given), 0)
            first = next((i for i in range(last, -1, -1)
                          if set(re.findall(r"[a-z]+", parts[i].lower())) & (words | facts.PETS)),
                         last)
            return {"kind": "left_out", "memory": int(r.episode_id),
                    "said": " ".join(parts[first:last + 1]) or r.text}
    return None
