"""What an answer says someone is, against what the user told (Qt-free): "Abena is an amazing
doctor" where the user said "My wife Abena is a pharmacist", "Efua is a vegetarian" where
"She is pescatarian", "Fenris is a poodle" where "…a springer spaniel called Fenris" (QA
passes 37 and 38: such answers went unmarked, or were marked only for a side word).

Only what someone *is* is read, in a few closed kinds where two words cannot both hold:
a job, a diet, a kind of pet, an age ("Your mum is 75 years old." where "My mum is 70.",
QA pass 38c: marked only as a number no memory says).  "Abena works with doctors" says no job of hers."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from collections.abc import Set as AbstractSet

from . import facts, kin
from .cautions import FOOD_STEMS, caution_of, caution_of_others
from .language import is_common_word
from .medicines import names_illness
from .older_news import opens_with_yes
from .timewords import DATE
from .whom import names_of
from .words import spelled_numbers

# the kinds, each a closed set of words; a person told to be one of a kind and said to be
# another of it is said something the user did not tell
_KINDS = {
    "job": frozenset("""doctor nurse pharmacist engineer teacher midwife carpenter dentist vet
        veterinarian lawyer solicitor accountant chef cook plumber electrician architect
        programmer developer designer journalist firefighter pilot farmer scientist chemist
        physicist biologist baker butcher librarian musician artist writer author painter
        surgeon paramedic therapist physiotherapist psychologist mechanic builder cleaner
        waiter waitress barista banker cashier translator professor lecturer researcher
        photographer hairdresser gardener driver postman policeman officer soldier hygienist
        receptionist stylist hairstylist adjuster secretary nanny optician optometrist
        surveyor clerk carer childminder pharmacologist radiographer physio trucker captain
        fisherman welder plasterer tailor""".split()),  # ("a retired ferry captain", QA 48b)
    "diet": frozenset("vegetarian vegan pescatarian carnivore".split()),
    # (a breed, or the animal: "Mango is a cat" of "a labrador called Mango", QA pass 39b)
    "pet": frozenset(kin.BREEDS - {"cockatiel", "canary"} | kin.PETS - {"pet", "pets"}),
}
_KIND_OF = {w: k for k, ws in _KINDS.items() for w in ws}
JOBS = _KINDS["job"]  # (what `your_own` reads as a job the user told of themself)
_WORDS = "|".join(sorted(_KIND_OF, key=len, reverse=True))
# "Abena is a pharmacist", "he is an engineer now", "she's an amazing doctor", "works as
# a nurse", "Fenris is a poodle"; at most two words between ("a very good doctor")
_IS = re.compile(
    r"(?P<who>\b[A-Z][\w'’-]*?|\b(?i:she|he)|\b(?i:your)\s+[a-z]+)(?:\s+(?:(?i:is|was|works as|"
    r"worked as|became|is now|has become))\s+(?:(?i:now|still|also|actually|really|just)\s+)?"
    r"(?:(?i:a|an|the)\s+)?|"
    # ("She's a beagle", "Pepper's a beagle"; not "Pepper's dog": `bench personal`)
    r"(?i:['’]s)\s+(?:(?i:now|still|also|actually|really|just)\s+)?(?i:a|an)\s+)"
    # (no "not" among them: "No, Skye is not a cat." was read as "Skye is a cat", QA 40c)
    r"(?:(?!(?i:not|no|never)\b)[A-Za-z-]+\s+){0,2}?(?P<what>(?i:" + _WORDS + r"))s?\b")
# "… and is a pilot", "… and works as a nurse": what the sentence's subject is too
_AND_IS = re.compile(
    # (or after a comma: "He's 41, works as a plumber in Bristol", QA pass 53c)
    r"(?:\b(?:and|but)\s+(?:is|['’]s|was|works as|worked as|became|is now)|,\s+(?:works|worked)\s+"
    r"as)\s+(?:(?i:now|still|"
    r"also|actually)\s+)?(?:(?i:a|an)\s+)?(?:(?!(?i:not|no|never)\b)[A-Za-z-]+\s+){0,2}?"
    r"(?P<what>(?i:" + _WORDS + r"))s?\b")
# … and after an age, "Chloe is 34 and vegetarian" (QA pass 42: her diet was never read,
# so "Chloe has a vegan diet." went unmarked); a diet someone has, "has a vegan diet"
_AGE_AND = re.compile(r"\b(?:is|['’]s)\s+\d{1,3}(?:\s+years?\s+old)?\s*(?:,\s*|\s+)and\s+"
                      r"(?:(?i:a|an)\s+)?(?P<what>(?i:" + _WORDS + r"))s?\b")
_HAS_DIET = re.compile(r"(?P<who>\b[A-Z][\w'’-]*?|\b(?i:she|he))\s+(?i:has|follows|is on|keeps|eats)"
                       r"\s+(?i:a|an)\s+(?:(?i:strict|strictly|mostly|fully)\s+)?(?P<what>(?i:"
                       r"vegan|vegetarian|pescatarian))\s+(?i:diet)\b")
# what someone studies: "Lucía studies medicine", "she's studying law", "he is doing a
# degree in history" (QA pass 51b: "She studies law." of a medicine student had no line)
_SUBJECTS = frozenset("""medicine law engineering history chemistry physics biology maths
    mathematics economics nursing architecture music philosophy psychology geography
    accounting dentistry pharmacy physiotherapy sociology politics linguistics journalism
    computing anthropology theology classics midwifery""".split())
_STUDIES = re.compile(
    r"(?P<who>\b[A-Z][\w'’-]*?|\b(?i:she|he)|\b(?i:your)\s+[a-z]+)(?:\s+(?i:studies|studied|"
    r"is studying|was studying|is doing a degree in|is training in)|(?i:['’]s\s+studying))\s+"
    r"(?P<what>(?i:" + "|".join(sorted(_SUBJECTS)) + r"))\b(?!\s+(?i:books?|at home|for fun))")
# … said after another thing of them ("Zofia is 19 and studies medicine"), or as a student
# of it ("she's a pharmacy student": QA pass 53a, of a medicine student, had no line)
_SUBJECT = r"(?P<what>(?i:" + "|".join(sorted(_SUBJECTS)) + r"))\b"
_AND_STUDIES = re.compile(r"\b(?:and|but)\s+(?i:studies|studied|is studying|is doing a degree in|"
                          r"is training in)\s+" + _SUBJECT)
_STUDENT = re.compile(r"(?P<who>\b[A-Z][\w'’-]*?|\b(?i:she|he))(?:\s+(?i:is|was)|(?i:['’]s))\s+"
                      r"(?i:a|an)\s+" + _SUBJECT + r"\s+(?i:student|undergraduate)\b")
# an age: "Sam is 7", "our son Kwame is 6", "My mum is 70", "she's 72 years old", "your
# dad is 70"; a kin word stands for the relation ("mum": "mother"); not "is 7 minutes
# away", "is 10:30", "is 5k"
_AGE = re.compile(
    r"(?P<who>\b[A-Z][\w’-]*?|\b(?i:she|he)|\b(?i:my|our|your)\s+(?P<kin>[a-z]+))"
    r"(?:\s+(?i:is|turned|has turned|just turned|is now)|(?i:['’]s))\s+"
    r"(?:(?i:now|only|just|currently|still|already|actually)\s+)?"
    r"(?P<n>\d{1,3})(?![\w%]|[:.,]\d|\s*(?i:%|[ap]\.?m\b|o['’]clock|k\b|km|mi\b|miles?|"
    r"minutes?|mins?|hours?|hrs?|seconds?|days?|weeks?|months?|inch|inches|in\b|cm|m\b|mm|"
    r"kg|kilos?|lbs?|pounds?|stone|feet|foot|ft|metres?|meters?|times|percent|per\b|"
    r"euros?|dollars?|quid|pence|p\b|points?|goals?|of\b|out of|or\b|to\b|-))")
# "a springer spaniel called Fenris", "our tabby, Pepper": a pet's kind told before its name
_CALLED = re.compile(r"\b(?P<what>" + "|".join(sorted(_KINDS["pet"])) +
                     r")\s*,?\s+(?:called|named)?\s*(?P<who>[A-Z][\w'’-]*)")


def _kind(what: str) -> str:
    """The kind of a word `_said_of` found: a job, a diet, a pet's kind, or an age."""
    return "age" if what.isdigit() else "study" if what in _SUBJECTS else _KIND_OF[what]


def _called(who: str, quote: str) -> str:
    """How a note names `who` (lower case: a name, or a relation, "mother") as the user's
    `quote` does: "Abena", "your mum"."""
    return next((m.group(0) for m in facts.NAME_WORD.finditer(quote)
                 if m.group(0).lower() == who and m.group(0)[:1].isupper()), "") or next(
        (f"your {w.lower()}" for w in [*facts.NAME_WORD.findall(quote),
                                       *(m.group(1) for m in _MY_KIN.finditer(quote))]
         if kin.KIN.get(w.lower()) == who), who.title())


def _agrees(said: AbstractSet[str], was: AbstractSet[str]) -> bool:
    """Does what an answer `said` someone is agree with what the user told (`was`): a word
    of it, or the animal a breed told is ("Mango is a dog" of a labrador)?"""
    return bool(said & was) or any((w in kin.PETS or v in kin.PETS)
                                   and kin.species(w) == kin.species(v)
                                   or _SAME_JOB.get(w, w) == _SAME_JOB.get(v, v)
                                   for w in said for v in was)


# jobs said two ways ("She's a lawyer." of a solicitor, "Dan is a fireman." of a
# firefighter: QA pass 40e read them as other jobs)
_SAME_JOB = {w: ws.split()[0] for ws in (
    "lawyer solicitor attorney barrister", "firefighter fireman", "doctor physician gp",
    "vet veterinarian", "chef cook", "physio physiotherapist", "postman postwoman",
    "policeman officer", "nanny childminder", "stylist hairstylist hairdresser",
    "driver trucker") for w in ws.split()}


def told(texts: Iterable[str]) -> dict[str, dict[str, set[str]]]:
    """name (lower case) -> kind -> the words `texts` say they are ("abena": {"job":
    {"pharmacist"}}); "she" and "he" are whom the sentence, or the one before, named first
    ("My friend Callum and I met at university in Sheffield; he is an engineer now.").
    A word a text denies ("…a ginger cat, not a tabby") is not told."""
    out: dict[str, dict[str, set[str]]] = {}
    for text in texts:
        denied = set(facts.negated(text))
        last = ""
        for s in facts.sentences(text):
            for who, what in _said_of(s, last):
                if facts.stem(what) not in denied:
                    out.setdefault(who, {}).setdefault(_kind(what), set()).add(what)
            last = first_named(s) or last
    return out


def _relations(texts: Iterable[str]) -> dict[str, str]:
    """relation -> the name `texts` give it ("Our daughter Anjali…": {"daughter":
    "anjali"}), lower case."""
    return {r: m.group(2).lower() for t in texts for m in _MY_KIN.finditer(t)
            if (r := kin.KIN.get(m.group(1).lower()))}


_MY_KIN = re.compile(r"\b(?i:my|our)\s+([a-z]+)\s+([A-Z][\w'’-]*)")


def _said_of(sentence: str, last: str) -> list[tuple[str, str]]:
    """(whom, what) of each "X is a …" in `sentence`, "she"/"he" read as the first name
    before them in the sentence, else `last`."""
    got = []
    for m in [*_IS.finditer(sentence), *_STUDIES.finditer(sentence), *_STUDENT.finditer(sentence)]:
        who = m.group("who")
        if who.lower() in ("she", "he"):
            who = first_named(sentence[:m.start()]) or last
        elif who.lower().startswith("your"):  # ("Your sister is a vegetarian.")
            who = last if who.split()[-1].lower() in facts.KIN_WORDS else ""
        elif who.lower() in facts.STOPWORDS or who.lower() in facts.NOT_NAMES:
            continue
        if who:
            got.append((who.lower(), m.group("what").lower()))
    # (the subject said once for two things: "My brother Marco lives in Lagos and is a
    # pilot.", QA pass 40c)
    for m in [*_AND_IS.finditer(sentence), *_AGE_AND.finditer(sentence),
              *_AND_STUDIES.finditer(sentence)]:
        if (who := first_named(sentence[:m.start()]) or last):
            got.append((who.lower(), m.group("what").lower()))
    for m in _HAS_DIET.finditer(sentence):
        who = m.group("who")
        who = first_named(sentence[:m.start()]) or last if who.lower() in ("she", "he") else who
        if who and who.lower() not in facts.STOPWORDS:
            got.append((who.lower(), m.group("what").lower()))
    got += [(m.group("who").lower(), m.group("what").lower()) for m in _CALLED.finditer(sentence)
            if m.group("who").lower() not in facts.STOPWORDS]
    # (two told at once: "We have twin boys, Kiran and Dev, who are 7.", pass 41b)
    got += [(w.lower(), m.group("n")) for m in _BOTH_AGE.finditer(sentence)
            for w in (m.group("a"), m.group("b"))]
    # (an age set beside the name: "Dev (12 years old)", "Dev, who is 12,", "Dev, aged 12")
    got += [(m.group("who").lower(), m.group("p") or m.group("c") or m.group("s"))
            for m in _AGE_ASIDE.finditer(sentence)
            if m.group("who").lower() not in facts.STOPWORDS | facts.NOT_NAMES]
    for m in _AGE.finditer(sentence):
        who = m.group("who")
        if m.group("kin"):
            who = kin.KIN.get(m.group("kin").lower(), "")
        elif who.lower() in ("she", "he"):
            who = first_named(sentence[:m.start()]) or last
        elif who.lower() in facts.STOPWORDS or who.lower() in facts.NOT_NAMES:
            continue
        if who:
            got.append((who.lower(), m.group("n")))
    return got


_BOTH_AGE = re.compile(r"\b(?P<a>[A-Z][\w’-]*),?\s+and\s+(?P<b>[A-Z][\w’-]*),?\s+(?:who\s+)?"
                       r"(?i:are)\s+(?:(?i:both|now|only)\s+)?(?P<n>\d{1,2})\b"
                       r"(?!\s*(?:and|or|-|–|to)\s*\d)(?!\s*(?i:years?|yrs?)?\s*(?i:apart|between))")
_AGE_ASIDE = re.compile(r"\b(?P<who>[A-Z][\w’-]*)\s*(?:\(\s*(?:(?i:aged|age)\s+)?(?P<p>\d{1,3})"
                        r"(?:\s*(?i:years?\s+old|yrs?|y/?o))?\s*\)|(?:,\s*|\s+)(?i:who\s+is\s+|who['’]s\s+|aged\s+)"
                        r"(?P<c>\d{1,3})(?:\s*(?i:years?\s+old))?(?=\s*[,.;)]|\s*$|\s+(?i:and|now)\b)"
                        # (set off by commas: "My brother, Tunde, is 29 years old.", "Tunde, my
                        # brother, is 29.", QA pass 53b: only "29" was marked, 35 told)
                        r"|,\s*(?:(?i:my|your|our)\s+[a-z]+\s*,\s*)?(?i:is|is now|turned)\s+"
                        r"(?P<s>\d{1,3})(?:\s*(?i:years?\s+old))?(?=\s*[,.;!)]|\s*$|\s+(?i:and|now)\b))")
_ASKS_IS = re.compile(r"^\s*(?:is|was)\s+(?P<who>(?:my|our)\s+[a-z]+|[A-Z][\w'’-]*)\s+",
                      re.IGNORECASE)


def first_named(text: str) -> str:
    """The first name in `text` (a capitalised word, not "I" nor an everyday word opening
    it: "Quick update on the cat: Pepper is…" names Pepper)."""
    for i, m in enumerate(facts.NAME_WORD.finditer(text)):
        w = re.sub(r"['’]s$", "", m.group(0))
        if w[:1].isupper() and w != "I" and w.lower() not in facts.STOPWORDS \
                and w.lower() not in facts.NOT_NAMES and (i or not facts.is_common_word(w)
                                                          or _MINE_AFTER.match(text, m.end())):
            return w
    return ""


# what makes a sentence's first word a name of the user's life: "Kevin is my younger brother,
# he's 33…" (QA pass 53d: "Kevin", an everyday word to the embedder, was no one)
_MINE_AFTER = re.compile(r"\s+(?:is|was)\s+(?:my|our)\b|,\s+(?:my|our)\b", re.IGNORECASE)


# a sentence giving an age at another time: "next year he's 10", "when she is 18"
_AGE_THEN = re.compile(r"\b(?:next|last|ago|will|would|when|until|since|once|if|birthday|"
                       r"turns?|years? old when|used to)\b", re.IGNORECASE)


def says_otherwise(answer: str, texts: list[tuple[int, str]], asked: str = "",
                   asking: str = "") -> dict | None:
    """``{"kind": "says_otherwise", "name": "Abena", "said": "doctor", "memory": id, "quote":
    …}`` when `answer` says someone is one thing of a kind (a job, a diet, a pet's kind,
    what they study: "said" is then "studying law")
    and a memory of `texts` (id, words) says they are another of it, and the answer never
    says what the memory does; `asked`: whom the message `asking` asks about, for an
    answer's "she" that names no one before it; a yes to "Is Abena a doctor?" says she is
    one.  None otherwise."""
    theirs = told(t for _, t in texts)
    if not asked and len(relations := kin.kin(asking)) == 1:  # ("Is my dad 70?" → "He is…")
        asked = next(iter(relations))
    # (a yes says what the question does: "Is Abena a doctor?" → "Yes.")
    if opens_with_yes(answer):
        answer += " " + " ".join(_ASKS_IS.sub(r"\g<who> is ", q) for q in facts.sentences(asking)
                                 if _ASKS_IS.match(q))
    said: dict[str, dict[str, set[str]]] = {}
    now: dict[str, set[str]] = {}  # whom an age is given as it is now, those ages
    last = asked.lower()  # ("she" after another named is hers: "…a lovely cat named Daisy.
    # She's a cat…" is not Bramble's, QA pass 40e)
    for s in facts.sentences(answer):
        for who, what in _said_of(s, last):
            said.setdefault(who, {}).setdefault(_kind(what), set()).add(what)
            if what.isdigit() and not _AGE_THEN.search(s):
                now.setdefault(who, set()).add(what)
        last = (first_named(s) or last).lower()
    low = answer.lower()
    alias = _relations(t for _, t in texts)
    for who, kinds in said.items():
        called_as = who
        # (said of them by relation: "Your daughter is a teacher." of "Our daughter Anjali
        # is a dentist.", QA pass 44, read "uses none"; not with a word another memory
        # says, which tells whose it is: `whom.misattributed`)
        if who not in theirs and who in alias and not any(
                re.search(rf"\b{re.escape(w)}", t, re.IGNORECASE)
                for ws in kinds.values() for w in ws for _, t in texts):
            who = alias[who]
        for kind, words in kinds.items():
            was = theirs.get(who, {}).get(kind, set())
            if kind == "age":  # (one number, now: "The answer is 9. Leo is 10.")
                words = now.get(who, set()) - was
                # (no age told, a day of theirs given as one: "Tom is 18" of "Tom's birthday
                # is on 18 February.", QA pass 42c)
                dated = next(((i, t) for i, t in texts if not was and re.search(rf"\b{re.escape(who)}\b", t, re.I) and any(
                    w in re.findall(r"\d+", d.group(0)) for w in kinds["age"]
                    for d in DATE.finditer(t))),
                    None)
                if dated:
                    return {"kind": "says_otherwise", "name": _called(who, dated[1]),
                            "said": sorted(kinds["age"])[0], "memory": int(dated[0]),
                            "quote": dated[1]}
                if not was or not words:
                    continue
            elif kind == "pet":  # (one animal: "Skye is actually a cat named Luna… Skye is
                # actually a dog", QA pass 40)
                # (nor a breed other than the one told: "Yes, Churro is a Labrador." of
                # "my dog Churro is a beagle" agreed as a dog, QA pass 51b)
                breeds = {v for v in was if v not in kin.PETS}
                words = {w for w in words if not _agrees({w}, was) or breeds and w not in
                         kin.PETS | breeds and not any(re.search(rf"\b{w}", t, re.I)
                                                       for _, t in texts)}
                if not was or not words:
                    continue
            elif not was or _agrees(words, was) or any(re.search(rf"\b{w}", low)
                                                       for w in was):
                continue
            eid, quote = next((i, t) for i, t in texts
                              if told([t]).get(who, {}).get(kind, set()) & was)
            word = sorted(words)[0]
            return {"kind": "says_otherwise", "name": _called(called_as, quote), "said":
                    f"studying {word}" if kind == "study" else word, "memory": int(eid),
                    "quote": quote}
    return None


# an answer calling someone an animal: "Ama is a cat", "Zofia, a wonderful pet.", "Tomek, a
# wonderful and brave dog." (QA passes 38c and 39), '"Chloe" is a cat' (QA pass 40b); the
# animal word ends the phrase ("a cat lover" is no cat)
_ANIMALS = "|".join(sorted(kin.PETS | kin.BREEDS | {"animal", "animals"}))
_AN_ANIMAL = re.compile(
    r"(?P<who>\b[A-Z][\w'’-]*?)[\"”’']?(?:\s+(?:is|was|['’]s)(?:\s+(?i:also|really|actually|indeed|"
    r"definitely|certainly|still|now))?\s+|"
    r"\s*,\s*)(?i:a|an|the|our|your|my)\s+(?:[\w-]+\s+){0,3}?(?P<what>(?i:" + _ANIMALS + r"))"
    r"(?=\s*(?:[.,;:!?)]|$)|\s+(?i:named|called|who|that|and|with|from|in|of|at|for)\b)")
# a person of the user's life, as a memory tells it: "my sister Ama", "Ama is my sister"
_PERSON = "|".join(sorted((kin.KIN_WORDS | kin.ROLES) - {"vet"}))


def called_animal(answer: str, texts: list[tuple[int, str]],
                  yours: Iterable[str] = ()) -> dict | None:
    """``{"kind": "says_otherwise", "name": "Ama", "said": "cat", "memory": id, "quote": …}``
    when `answer` calls someone an animal whom a memory of `texts` (id, words) tells of as
    a person of the user's life ("My sister Ama lives in Accra…"; QA pass 39: "Is Ama a
    nurse?" answered "Ama is a cat… named Biscuit" was marked only as older news), or the
    user by a name of `yours` ("Tomás Ruiz is a fantastic dog.", QA pass 49a, ``"name":
    "you"``); None otherwise."""
    for m in _AN_ANIMAL.finditer(answer):
        who = m.group("who")
        if who.lower() in facts.STOPWORDS or who.lower() in facts.NOT_NAMES:
            continue
        if who in yours:  # (quoting where they named themselves, if it was recalled)
            eid, text = next(((i, t) for i, t in texts if re.search(rf"\b{re.escape(who)}\b", t)),
                             (0, ""))
            return {"kind": "says_otherwise", "name": "you", "said": m.group("what").lower(),
                    "memory": int(eid), "quote": text}
        n = re.escape(who)
        person = re.compile(rf"\b(?:my|our)\s+(?:[\w-]+\s+)?(?:{_PERSON})\s+{n}\b|"
                            rf"\b{n},?\s+(?:is\s+)?(?:my|our)\s+(?:[\w-]+\s+)?(?:{_PERSON})\b",
                            re.IGNORECASE)
        for eid, text in texts:
            if person.search(text):
                return {"kind": "says_otherwise", "name": who, "said": m.group("what").lower(),
                        "memory": int(eid), "quote": text}
    return None


# what an answer says someone does not have or is not: "he does not have a type 1
# diabetes", "Sam is not diagnosed with type 1 diabetes", "she doesn't have any allergies"
_NOT = re.compile(
    r"(?P<who>\b(?i:my|our|your)\s+[a-z]+|\b[A-Z][\w'’-]*|\b(?i:she|he))\s+"
    r"(?P<no>(?i:does not|doesn['’]t|did not|didn['’]t|is not|isn['’]t|was not|wasn['’]t|"
    r"has not|hasn['’]t|has no|never|(?:does|is|has) no longer))\s+"
    # (up to a "but": "…he doesn't have an allergy to shellfish but can be allergic to other
    # types of seafood", QA pass 48a, denied more than the memory said and went unmarked)
    r"(?P<what>(?:(?!\b(?i:but|although|though|whereas)\b)[^,.;:!?])+)")
# the user denied what they are or have, by the answer or by the model speaking as them
_SELF_NOT = re.compile(
    r"\b(?:you(?:['’]re|\s+are)?|i['’]m|i\s+am|i)\s+(?P<no>not|aren['’]t|don['’]t\s+have|"
    r"do\s+not\s+have|have\s+no)\s+(?P<what>[^,.;:!?]+)", re.IGNORECASE)
_OWN = re.compile(r"\s+(?:myself|yourself)\b", re.IGNORECASE)
_SELF_NO = {"not": "are not", "don't have": "do not have", "do not have": "do not have",
            "have no": "have no", "aren't": "are not"}
# words of the denial that say nothing of what is denied
_EMPTY = frozenset("have has had any diagnos diagnosed been real really actually "
                   "suffer suffering from with".split())


def says_not(answer: str, texts: list[tuple[int, str]], asked: str = "",
             asking: str = "", parts: dict[int, str] | None = None) -> dict | None:
    """``{"kind": "says_not", "name": "Sam", "said": "does not have a type 1 diabetes",
    "memory": id, "quote": …}`` when `answer` says someone does not have, or is not, what a
    memory of `texts` (id, words) naming them says in its every content word, and does not
    deny itself (QA pass 39: "Sam can have a large quantity of sweets… he does not have a
    type 1 diabetes", after "Our son Sam is 7 and has type 1 diabetes.", had no line);
    `asked`: whom the message `asking` asks about, for a "he" or "she" naming no one
    before it; `parts`: of a memory replaced in part, what still holds (what it says is
    read there, whom it names in the whole).  None otherwise."""
    if not asked and len(relations := kin.kin(asking)) == 1:
        asked = next(iter(relations))
    last, parts = asked.lower(), parts or {}
    for sentence in facts.sentences(answer):
        # of the user ("You're not lactose intolerant", or, speaking as them, "I'm not
        # lactose intolerant myself" to "What should I avoid eating?": QA pass 41e), what
        # they told of themselves alone
        for m in _SELF_NOT.finditer(sentence):
            what = facts.terms(m.group("what")) - {facts.stem(w) for w in _EMPTY}
            for eid, text in texts:
                holds = parts.get(eid, text)
                if what and facts.who(text) == {facts.SELF} and (
                        what <= facts.terms(holds) and not _denies_itself(holds, what)
                        or _of_health(m.group("what")) and names_illness(holds)):
                    no = _SELF_NO.get(re.sub(r"\s+", " ", m.group("no").lower().replace("’", "'")),
                                     "are not")
                    return {"kind": "says_not", "name": "you",
                            "said": f"{no} {_OWN.sub('', m.group('what')).strip()}",
                            "memory": int(eid), "quote": text}
        for m in _NOT.finditer(sentence):
            who = _whom(m.group("who"), sentence[:m.start()], last)
            what = facts.terms(m.group("what")) - {facts.stem(w) for w in _EMPTY}
            if not who or not what:
                continue
            for eid, text in texts:
                holds = parts.get(eid, text)
                # (or no health problems, an illness told: "Yes, my dad has no health
                # problems." of "My dad Ravi … has type 2 diabetes.", QA pass 48c)
                if _names_of(text, who) and (_of_allergy(what, text, who) <= facts.terms(holds)
                                             and not _denies_itself(holds, what)
                                             or _of_health(m.group("what")) and names_illness(holds)
                                             or _of_medicine(m.group("what")) and _on_medicine(holds)):
                    return {"kind": "says_not", "name": _called(who, text),
                            "said": f"{m.group('no')} {m.group('what').strip()}",
                            "memory": int(eid), "quote": text}
        last = first_named(sentence).lower() or last
    return None


def _of_allergy(what: set[str], text: str, who: str) -> set[str]:
    """`what` an answer denies, without its food words when one is what `text` (a memory
    of `who`) says they must avoid: "has no allergies to almond milk" denies the allergy
    of "…he's allergic to tree nuts." (QA pass 42: "No, Oscar has no allergies to almond
    milk." had no line)."""
    avoid = caution_of(text) | caution_of_others(text, {who})[0]
    if not what & {facts.stem(w) for w in avoid}:
        return what
    # (not a food only: "No, Omar does not take ibuprofen.", his lithium told, denies no
    # word of it, QA pass 45e)
    rest = what - FOOD_STEMS
    return rest if rest - _TAKING else what


def _of_medicine(what: str) -> bool:
    """Does a denial's `what` deny taking any medicine ("take any medicines", "on any
    medication": QA pass 53b, "He does not take any medicines." of Daniel, on lamotrigine)?"""
    words = set(re.findall(r"[a-z]+", what.lower()))
    return bool(words & _MEDICINE) and words <= _MEDICINE | {"take", "taking", "any", "on", "regular"}


_MEDICINE = frozenset("medicine medicines medication medications tablets pills drugs".split())
# a medicine someone takes: the word after "takes" no everyday English ("takes lamotrigine";
# not "takes the bus")
_TAKES_ONE = re.compile(r"\b(?:takes|taking|is on|was prescribed)\s+([a-z]{5,})\b", re.IGNORECASE)


def _on_medicine(text: str) -> bool:
    """Does `text` say someone takes a medicine?"""
    return any(not is_common_word(m.group(1).lower()) or m.group(1).lower() in _MEDICINE
               for m in _TAKES_ONE.finditer(text))


def _of_health(what: str) -> bool:
    """Does a denial's `what` deny any health problem ("health problems", "known medical
    conditions that affect his health…": up to a "that" or "which")?"""
    head = {w for w in re.findall(r"[a-z]+", re.split(r"\b(?:that|which|who|because|so|and)\b",
                                                     what.lower())[0]) if w not in facts.STOPWORDS}
    return bool(head & _ILLS) and head <= _HEALTH | _ILLS


# (words, not stems: "medical" and "medication" share one, QA pass 43's "you are not on any
# medication" is a no to the medicine told, not to an illness)
_ILLS = frozenset("problems problem issues issue conditions condition illnesses illness "
                  "diseases disease".split())
_HEALTH = frozenset("health medical known serious major significant any".split())
_TAKING = frozenset(facts.stem(w) for w in "take takes taking eat eats eating drink drinks "
                    "drinking use uses using consume consumes".split())


def _whom(who: str, before: str, last: str) -> str:
    """Whom a subject of an answer's sentence names (lower case; a kin word as its
    relation, "mother"): "she" or "he" is the first name before it, else `last`."""
    low = who.lower()
    if low.split()[0] in ("my", "our", "your"):
        return kin.KIN.get(low.split()[-1], "")
    if low in ("she", "he"):
        return first_named(before).lower() or last
    return "" if low in facts.STOPWORDS or low in facts.NOT_NAMES else low


_NEGATION = re.compile(r"\b(?:not|no|never|nor|without)\b|n['’]t\b", re.IGNORECASE)


def _denies_itself(text: str, what: AbstractSet[str]) -> bool:
    """Does a clause of `text` holding `what` deny it ("My dad is 66 and doesn't eat
    pork.")?"""
    return any(facts.terms(c) & what and _NEGATION.search(c)
               for c in re.split(r"[,;.!?]|\b(?:and|but|while)\b", text))


def _names_of(text: str, who: str) -> bool:
    """Does `text` name `who` (a name, or a relation its kin words name)?"""
    words = [w.lower() for w in facts.NAME_WORD.findall(text)]
    return who in words or any(kin.KIN.get(w) == who for w in words)


__all__ = ["called_animal", "first_named", "says_not", "says_otherwise", "told"]


# a question for one thing of a closed kind about someone: "What does Hannah do?", "What is
# Hannah's job?", "How old is my dad?", "What is Mochi?", "What kind of dog is Skye?"
_WHO = r"((?:my|our)\s+[a-z]+|[A-Z][\w’-]*?)"
_ASKS_KIND = (
    ("job", re.compile(rf"\bwhat\s+(?:does|did)\s+{_WHO}\s+do(?:\s+for\s+(?:a\s+living|work))?"
                       rf"\s*\?|\bwhat\s+(?:is|was)\s+{_WHO}['’]s\s+(?:job|work|profession)\b|"
                       rf"\bwhat\s+(?:job|work)\s+does\s+{_WHO}\s+do\b", re.IGNORECASE)),
    ("age", re.compile(rf"\b(?:how\s+old|what\s+age)\s+(?:is|was)\s+{_WHO}\b", re.IGNORECASE)),
    ("pet", re.compile(rf"\bwhat\s+(?:is|['’]s)\s+{_WHO}\s*\?|\bwhat\s+(?:kind|sort|type|breed)"
                       rf"(?:\s+of\s+(?:animal|pet|dog|cat))?\s+is\s+{_WHO}\b", re.IGNORECASE)),
)


def _whose(who: str, theirs: dict[str, dict[str, set[str]]]) -> str:
    """Whom a question's `who` ("Hannah", "my dad", "my pooch") is among what the user
    `told`: a name, a relation ("father"), or the one pet told of that kind of animal."""
    if " " not in who:
        return who.lower()
    word = who.split()[-1].lower()
    if word not in kin.PETS:
        return kin.KIN.get(word, "")
    kind = kin.species(word)
    pets = [n for n, kinds in theirs.items() if word in ("pet", "pets") and kinds.get("pet")
            or any(kin.species(w) == kind for w in kinds.get("pet", ()))]
    return pets[0] if len(pets) == 1 else ""


_ASKS_PET = re.compile(rf"\bis\s+([A-Z][\w’-]*)\s+(?:a|an)\s+(?:{'|'.join(sorted(kin.PETS))})s?\s*\?",
                       re.IGNORECASE)


def leaves_out(message: str, answer: str, texts: list[tuple[int, str]]) -> dict | None:
    """``{"kind": "left_out", "memory": id, "said": …}`` when `message` asks for someone's
    job, age or pet's kind, a memory of `texts` (id, words) tells it, and `answer` never
    says it (QA pass 40: "What does Hannah do?" answered "…Hannah's birthday is indeed 2
    May…", "My wife Hannah is a midwife." told, was listed as used and had no line).  None
    otherwise."""
    asked = False
    for who, kind, was, given in _asked_told(message, answer, texts):
        if not given:
            return next(({"kind": "left_out", "memory": int(i), "said": t} for i, t in texts
                         if told([t]).get(who, {}).get(kind, set()) & was), None)
        asked = True
    return None if asked else _does_left_out(message, answer, texts)


def _does_left_out(message: str, answer: str, texts: list[tuple[int, str]]) -> dict | None:
    """`leaves_out` of a job told by what someone does, not by its name ("My brother Lars
    runs a boat yard in Tromsø."): asked what they do, the answer says none of it (QA pass
    43f: "What does Lars do?" answered with his town only had no line)."""
    asks = _ASKS_KIND[0][1].search(message)
    if asks is None:
        return None
    who, said = _whose(next(g for g in asks.groups() if g), {}), facts.terms(answer)
    for i, t in texts:
        for s in facts.sentences(t):
            for m in _DOES.finditer(s):
                name = m.group("who")
                if name.lower() in ("she", "he"):
                    name = first_named(s[:m.start()])
                kin_word = re.search(r"\b(?:my|our)\s+([a-z]+)\s+$", s[:m.start("who")], re.I)
                whom = {name.lower(), kin.KIN.get(kin_word.group(1).lower(), "") if kin_word
                        else ""} - {""}
                what = facts.terms(m.group("what"))
                # (the verb names the job too: "teaches" is a teacher, "manages" a manager)
                verb = m.group("verb").lower()[:5]
                if who in whom and what and not what & said and (
                        verb.startswith("work") or not any(w.startswith(verb) for w in said)):
                    return {"kind": "left_out", "memory": int(i), "said": t}
    return None


# a job told by what someone does: "Lars runs a boat yard in Tromsø", "she teaches at the
# primary school", "Dan works for Aquaserv" (what: up to a place or time)
_DOES = re.compile(
    r"(?P<who>\b[A-Z][\w'’-]*|\b(?i:she|he))\s+(?:(?i:now|still|also)\s+)?(?P<verb>(?i:runs|owns|"
    r"co-owns|manages|(?:teaches|coaches|lectures)(?:\s+(?:at|in))?|works\s+(?:at|for|in|on)))\s+"
    r"(?P<what>(?:(?!(?i:in|at|near|with|and|but|since|for|from|on|to|every|each|who|which|"
    r"where)\b)[\w'’-]+\s*){1,4})")


def gives_asked(message: str, answer: str, texts: list[tuple[int, str]]) -> bool:
    """Does `answer` give the job, age or pet's kind `message` asks of someone, as a memory
    of `texts` tells it, in its words or others ("She's a lawyer." of "My partner Lucy is a
    solicitor.", "He is six.": QA pass 41 read them as using none of the memories)?"""
    if any(given for *_, given in _asked_told(message, answer, texts)):
        return True
    # a pet's kind by a yes or no, the right animal given: "Is Biscuit a cat?" → "No, … a
    # dog called Biscuit." (read as using none of the memories, QA pass 42d)
    pet = _ASKS_PET.search(message)
    was = told(t for _, t in texts).get(pet.group(1).lower(), {}).get("pet", set()) if pet \
        else set()
    if was and _agrees({w for w in kin.PETS | kin.BREEDS if re.search(rf"\b{w}\b",
                                                                     answer.lower())}, was):
        return True
    # who someone is, by relation in other words: "Your father." of "My dad Suresh…"
    m = re.search(r"\b(?i:who\s+(?:is|was|['’]s))\s+([A-Z][\w'’-]+)", message)
    said = {kin.KIN[w] for w in re.findall(r"[a-z]+", answer.lower()) if w in kin.KIN}
    return m is not None and bool(said) and any(
        kin.KIN.get(r.group(1).lower()) in said for _, t in texts
        for r in re.finditer(rf"\b(?:my|our)\s+(\w+)\s+{re.escape(m.group(1))}\b", t,
                             re.IGNORECASE))


def kind_told(message: str, texts: list[tuple[int, str]]) -> set[str]:
    """The terms of the job, age or pet's kind `message` asks of someone, as the memories
    of `texts` tell it ("How old is Chloe?" of "Our daughter Chloe is 34…": {"34"})."""
    return facts.terms(" ".join(w for *_, was, _given in _asked_told(message, "", texts)
                                for w in was))


def _asked_told(message: str, answer: str, texts: list[tuple[int, str]]
                ) -> Iterator[tuple[str, str, set[str], bool]]:
    """(whom, kind, what the memories tell, whether `answer` gives it) for each job, age or
    pet's kind `message` asks of someone that a memory of `texts` tells."""
    theirs = told(t for _, t in texts)
    low = answer.lower()
    said = set(re.findall(r"\d+", low)) | spelled_numbers(low)
    for kind, asks in _ASKS_KIND:
        for m in asks.finditer(message):
            who = _whose(next(g for g in m.groups() if g), theirs)
            was = theirs.get(who, {}).get(kind, set())
            # (asked the breed, the animal is no answer: "what breed is my pooch?")
            breed = bool(re.search(r"\bbreed|\bkind\s+of\s+(?:dog|cat)", m.group(0), re.I))
            if was:
                yield who, kind, was, bool(was & said if kind == "age" else any(
                    re.search(rf"\b{re.escape(w)}", low) for w in was | {
                        j for j, k in _SAME_JOB.items() if k in {_SAME_JOB.get(v) for v in was}})
                    or not breed and _agrees(
                    {w for w in kin.PETS | kin.BREEDS if re.search(rf"\b{w}\b", low)}, was))


# … and the model saying it as the user, to a question for their job
# (or was: "I used to be…", "My job was as a supply clerk…", QA pass 49b, a retired
# pharmacist's job given as another)
_I_AM = re.compile(r"\b(?:i['’]m|i\s+am|i\s+work\s+as|i\s+was|i\s+used\s+to\s+be|i\s+worked\s+as|"
                   r"my\s+job\s+(?:is|was)(?:\s+as)?)\s+(?:(?:now|still|also|actually|"
                   r"really)\s+)?(?:(?:an?|the)\s+)?(?:(?!(?:not|no|never)\b)[A-Za-z-]+\s+){0,2}?"
                   r"(?P<what>" + "|".join(sorted(JOBS)) + r")s?\b", re.IGNORECASE)
# an answer telling the user what they do: "You're a solicitor", "you are now a nurse"
_PAST = re.compile(r"\b(?:was|were|used|worked)\b", re.IGNORECASE)
_YOU_ARE = re.compile(r"\b(?:you(?:['’]re|\s+are|\s+work\s+as|\s+were|\s+used\s+to\s+be|\s+worked\s+as)|"
                      r"your\s+job\s+(?:is|was)(?:\s+as)?)\s+(?:(?:now|still|also|actually|"
                      r"really)\s+)?(?:an?\s+)?(?:(?!(?:not|no|never)\b)[A-Za-z-]+\s+){0,2}?"
                      r"(?P<what>" + "|".join(sorted(JOBS)) + r")s?\b", re.IGNORECASE)


def named_otherwise(message: str, answer: str, mems: Iterable) -> dict | None:
    """``{"kind": "named_otherwise", "asked": "your sister", "name": "Kavya", "memory": id,
    "said": …}`` when `message` asks whether someone of the user's is called a name ("Is
    my sister called Kavya?", "Is Kavya my sister?"), a recalled memory gives them another
    ("My sister is called Kavita."), and `answer` says yes to it, or that they are (QA pass
    50c: "Yes, dear friend. Kavya is your cousin." and "It's possible your sister is Kavya."
    had no line)."""
    m = _IS_CALLED.search(message) or _IS_THEIR.search(message)
    if m is None:
        return None
    whom, name = m.group("rel").lower(), m.group("name")
    rel = whom.split()[-1]
    said = re.search(rf"\byour\s+(?:\w+\s+)?{re.escape(rel)}\s+(?:is|['’]s|might be|may be|could "
                     rf"be)\s+(?:called\s+|named\s+)?{re.escape(name)}\b", answer, re.IGNORECASE)
    if not (opens_with_yes(answer) or said and not re.search(
            r"\b(?:not|no)\b|n['’]t\b", answer[max(0, said.start() - 20):said.end()], re.I)):
        return None
    for r in mems:
        given = names_of({rel}, [r.text])
        if given and name.lower() not in given:
            return {"kind": "named_otherwise", "asked": f"your {whom}", "name": name,
                    "memory": int(r.episode_id), "said": r.text}
    return None


_IS_CALLED = re.compile(r"\b(?:is|are)\s+(?:my|our)\s+(?P<rel>[a-z]+(?:\s+[a-z]+)?)\s+(?:called|"
                        r"named)\s+(?P<name>(?-i:[A-Z])[\w'’-]*)", re.IGNORECASE)
_IS_THEIR = re.compile(r"\bis\s+(?P<name>(?-i:[A-Z])[\w'’-]*)\s+(?:my|our)\s+(?P<rel>[a-z]+(?:\s+"
                       r"[a-z]+)?)\s*\?", re.IGNORECASE)


def jobs_said(text: str) -> set[str]:
    """The job words of `text` not said of another's ("the doctor told me…", "my GP"; QA
    pass 50b: "I have gout, so the doctor told me to cut down…" told the user's job)."""
    return {m.group(1).lower() for m in _JOB_WORD.finditer(text)}


_JOB_WORD = re.compile(r"(?<!\bthe )(?<!\bmy )(?<!\bour )(?<!\bhis )(?<!\bher )(?<!\btheir )"
                       r"(?<!\byour )\b(" + "|".join(sorted(JOBS)) + r")s?\b", re.IGNORECASE)


def you_are(answer: str, own: list[tuple[int, str]], as_them: bool = False,
            before: Iterable[str] = ()) -> dict | None:
    """``{"kind": "says_otherwise", "name": "you", "said": "solicitor", "memory": id,
    "quote": …}`` when `answer` tells the user they do a job, and their own statements
    that tell their job (`own`: id, words; `your_own.tells_own`) name none like it (QA
    pass 40e: "You're a solicitor who lives in Cromer." to a postman turned mechanic was
    marked only for a made-up word); `as_them` (the message asks the user's job), said
    in the first person too, the model speaking as them (QA pass 42b: "What's my job?" → "I'm
    the head chef at a popular pub called Crumb…", the partner's job).  A job said in the
    past ("You were a ward nurse; now…") may be one `before` (older memories) tells.  None
    otherwise."""
    jobs = {w: (i, t) for i, t in own for w in jobs_said(t)}
    if not jobs:
        return None
    said = [*_YOU_ARE.finditer(answer), *(_I_AM.finditer(answer) if as_them else ())]
    was = {w for t in before for w in jobs_said(t)}
    for m in said:
        what = m.group("what").lower()
        if not _agrees({what}, set(jobs) | (was if _PAST.search(m.group(0)) else set())):
            i, t = max(jobs.values())  # (the newest: ids grow as memories are made)
            return {"kind": "says_otherwise", "name": "you", "said": what, "memory": int(i),
                    "quote": t}
    return None
