"""What a message takes back as it goes ("My sister Divya is a nurse in Manchester, no wait,
she's a midwife, not a nurse."), read as the user meant it (Qt-free).

QA passes 45d and 46a: such a message was kept whole, so the memory said both, and later
answers gave the part taken back ("Ingrid is pregnant") with no line under them.  The turn
reads the message as meant (`as_meant`): recall, the prompt, the checks and the memory see
that; the chat keeps what was written, and the line under the answer says how it was read.

Only where the reading is plain: the cue stands between two parts of the message, and what
follows it is

- a whole clause of its own ("…, no wait, our daughter Sofie is pregnant."), which replaces
  what came before it;
- a clause whose subject is "she", "he" or "they" (or "it", after "is"), which takes the
  subject of what came before ("…, no wait, she's a midwife" → "My sister Divya is a
  midwife");
- or a piece of the same kind as a piece before it — a day, a month, a number, a name, or
  what follows the same small word ("on Monday the 14th, sorry, I mean Wednesday the 16th",
  "lives in Lagos, no wait, Abuja", "allergic to peanuts, I mean tree nuts").

Anything else is left as written ("It was great, I mean really great.")."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import NamedTuple

from .events import Recall
from .facts import sentences
from .superseded import on_subject, still_true
from .timewords import DAYS, MONTHS

# a word or two that takes back what came just before ("no wait", "sorry, I mean"), set off
# from it by a comma, a dash, dots or the end of a sentence
_CUE = re.compile(
    r"(?:\s*[,;:]|\s+[-–—]+|\s*(?:\.\.\.|…)|(?<=[.!?]))\s*(?:(?:oh|er+m?|um+|uh+|hmm+)[,.]?\s+)?"
    r"(?P<cue>no,?\s+wait|wait,?\s+no|no,?\s+sorry|sorry,?\s+I\s+mean[t]?|sorry(?=\s*,)|"
    r"I\s+mean[t]?(?!\s+(?:it|that|to|what|when|how|is)\b)|oops|scratch\s+that|"
    r"I\s+should\s+(?:say|have\s+said)|or\s+rather|correction)\b[\s,:;.!—–-]*",
    re.IGNORECASE)
# a clause of its own: a subject and its verb ("our daughter Sofie is", "I'm", "Tunde works")
_OWN = re.compile(
    r"(?:I|we|my\s+[a-z]+(?:\s+(?-i:[A-Z])[\w'’-]*)?|our\s+[a-z]+(?:\s+(?-i:[A-Z])[\w'’-]*)?"
    r"|(?-i:[A-Z])[\w'’-]*)"
    r"(?:['’](?:m|s|re|ve|ll|d)\b|\s+(?:am|is|are|was|were|has|have|had|lives?|works?|takes?|"
    r"moved|will|does|do|did|can|got|turned|teaches|drives)\b)", re.IGNORECASE)
# a clause of "she", "he", "they" or "it"
_PRONOUN = re.compile(r"(?P<who>she|he|they|it)(?P<verb>['’]s|['’]re|\s+(?:is|was|are|were|has|"
                      r"had|lives|live|works|work|takes|take|will|does|do|did|can))\b",
                      re.IGNORECASE)
# the subject of what came before: up to its first verb
_SUBJECT = re.compile(r"(?:(?:hi|hello|hey|so|and|well|oh|ok|okay)\b[,!]?\s+)*(?P<subj>.+?)"
                      r"(?P<verb>\s+(?:is|was|are|were|has|had|lives|works|takes|will|does|did|"
                      r"can)\b|['’]s\b)", re.IGNORECASE)
_WORD = re.compile(r"[\w'’-]+")
_NAME_IS = re.compile(r"(?:her|his|their|its)\s+name(?:['’]s|\s+is)\s+(?P<name>(?-i:[A-Z])[\w'’-]*)"
                      r"(?:,?\s+not\s+(?-i:[A-Z])[\w'’-]*)?\s*$", re.IGNORECASE)
_NOT_THAT = re.compile(r",?\s+not\s+(?:the\s+)?[\w'’-]+\s*$", re.IGNORECASE)
_DAY = frozenset(d for d in DAYS if d != "weekend")
_MONTH = frozenset(MONTHS)
# the small words after which a piece is replaced by one of its kind ("to peanuts" → "to
# tree nuts", "on Monday" → "on Wednesday", "a nurse" → "a midwife")
_LEADS = frozenset("a an the on in at to of for with from about by".split())
_SENTENCE_END = re.compile(r"[.!?](?=\s|$)")


TAKEN_BACK = "taken back"  # (the third word of such a reading's record: ``stats["respelled"]``)


class Meant(NamedTuple):
    text: str  # the message as meant
    taken: str  # what it took back, in its words


def as_meant(text: str) -> Meant | None:
    """`text` as the user meant it, each part it takes back left out (see the module's
    words); None when it takes nothing back, or not plainly."""
    out, taken = text, []
    for _ in range(3):  # (a message takes back little: a bound all the same)
        step = _one(out)
        if step is None:
            break
        out, gone = step
        taken.append(gone)
    return Meant(out, " … ".join(taken)) if taken else None


def _one(text: str) -> tuple[str, str] | None:
    for m in _CUE.finditer(text):
        start = _sentence_start(text, m.start())
        before = text[start:m.start()].rstrip(" ,;:.!?—–-…")
        end = _SENTENCE_END.search(text, m.end())
        stop = end.start() if end else len(text.rstrip())
        after = text[m.end():stop].strip()
        if not before or not after or text[m.end():].lstrip().startswith("?") \
                or text[stop:stop + 1] == "?":
            continue
        merged = _merge(before, after)
        if merged is None:
            continue
        new, gone = merged
        new = new[:1].upper() + new[1:]
        return text[:start] + new + text[stop:], gone
    return None


def _sentence_start(text: str, at: int) -> int:
    """Where the sentence that ends at or runs through `at` begins (the one before a cue
    that opens a sentence: "… on Thursday. No wait, it's on Tuesday.")."""
    head = text[:at].rstrip()
    head = head[:-1] if head[-1:] in ".!?" else head
    ends = [e.end() for e in _SENTENCE_END.finditer(head)]
    start = ends[-1] if ends else 0
    while start < len(text) and text[start] == " ":
        start += 1
    return start


def _merge(before: str, after: str) -> tuple[str, str] | None:
    """(what `before` and then `after` mean together, what of `before` is taken back)."""
    p = _PRONOUN.match(after)
    if p and not re.match(r"\s*[,;:.!?]", after[p.end():]):  # (not "…, I mean, she was, …")
        s = _SUBJECT.match(before)
        if s is None or p.group("who").lower() == "it" and not re.match(
                r"\s*(?:is|was|['’]s)\b", s.group("verb")):
            return None
        verb = p.group("verb")
        if verb in ("'s", "’s"):
            verb = " has" if re.match(r"\s+(?:been|got)\b", after[p.end():]) else " is"
        elif verb in ("'re", "’re"):
            verb = " are"
        said = s.group("subj") + verb + after[p.end():]
        # (what it does not take back stays: "…is a nurse in Manchester, no wait, she's a
        # midwife" keeps Manchester, QA pass 46c)
        kept = still_true(f"{before}.", [said]).rstrip(".")
        return (f"{said}. {kept}" if kept else said), on_subject(f"{before}.", said).rstrip(".")
    # (a name given anew: "My best friend is Marta. No wait, her name is Marga, not Marta.",
    # QA pass 49a, kept whole, so answers that said "Marta" had no line)
    named = _NAME_IS.match(after)
    if named:
        after = named.group("name")
    elif _OWN.match(after):
        return after, before
    # (a piece, then a clause of its own: "My sister is called Kavya. Sorry, I mean Kavita,
    # Kavya is my cousin.", QA pass 50a, was kept whole)
    elif (two := re.fullmatch(r"(?P<piece>[^,;]+)[,;]\s+(?P<rest>.+)", after)) and _OWN.match(
            two.group("rest")) and (got := _merge(before, two.group("piece"))) is not None:
        rest = two.group("rest")
        return f"{got[0]}. {rest[:1].upper()}{rest[1:]}", got[1]
    after = _NOT_THAT.sub("", after)  # ("…, no wait, Abuja, not Lagos")
    words = list(_WORD.finditer(before))
    # (a piece: a few words, no clause of a pronoun's, "…, I mean, she was, she has…")
    if len(words) < 2 or len(after.split()) > 6 or re.search(r"[,;:]", after) or re.match(
            r"(?:she|he|they|it|i|we|you)\b", after, re.IGNORECASE):
        return None
    head = _WORD.match(after)
    first = head.group(0) if head else ""
    at = _same_kind(words, after, first)
    if at is None:
        return None
    return before[:words[at].start()] + after, before[words[at].start():]


def taken_names(records: Iterable[tuple[str, str]],
                said: Callable[[str], Iterable[str]]) -> list[tuple[str, str]]:
    """(name, the message as meant) of each name a message took back as it was written
    (`records`: (what it took back, the message as meant), `Store.respelled_as`) that the
    message as meant does not give, nor any statement of the user's (`said`: a name -> the
    user's words of their memories that may hold it) still gives: "Kavya" of "My sister is
    called Kavya. Sorry, I mean Kavita, Kavya is my cousin." is still a name in use."""
    out = []
    for gone, meant in records:
        for name in dict.fromkeys(re.findall(r"\b[A-Z][\w'’-]+", gone)):
            if name != "I" and not _states(name, meant) and not any(
                    _states(name, t) for t in said(name)):
                out.append((name, meant))
    return out


def _states(name: str, text: str) -> bool:
    """Does a sentence of `text` that is no question give the word `name`?"""
    return any(re.search(rf"\b{re.escape(name)}\b", s) and not s.rstrip().endswith("?")
               for s in sentences(text))


def says_taken(answer: str, taken: Sequence[tuple[str, str]],
               mems: Sequence[Recall]) -> dict | None:
    """``{"kind": "taken_back", "name": …, "memory": id, "said": …}`` when `answer` gives a
    name the user took back as they wrote (`taken`, `taken_names`), where the message as
    meant was recalled for it, in a clause that does not deny it ("…is Marga, not Marta")
    (QA pass 49e: "Yes, your friend Marta is your best friend." to "Is my best friend
    called Marta?", after "My best friend is Marta. No wait, her name is Marga, not
    Marta.", read only "it uses none of the memories…")."""
    by_text = {r.text: r for r in mems}
    for name, meant in taken:
        r = by_text.get(meant)
        if r is None:
            continue
        for clause in re.split(r"[,;:.!?()]+", answer):
            if re.search(rf"\b{re.escape(name)}\b", clause) and not _DENIES.search(clause):
                return {"kind": "taken_back", "name": name, "memory": int(r.episode_id),
                        "said": r.text}
    return None


# a clause that denies or takes back what it names ("not Marta", "Marta was a slip")
_DENIES = re.compile(r"\b(?:not|no|never|instead|rather|back|slip|mistake|wrong)\b|n['’]t\b",
                     re.IGNORECASE)


def _same_kind(words: list[re.Match], after: str, first: str) -> int | None:
    """The index in `words` (of what came before) from which the piece `after` replaces
    what was said, or None when none is plainly of its kind."""
    low = [w.group(0).lower() for w in words]
    kinds = {w.lower() for w in _WORD.findall(after)}
    for kind in (_DAY, _MONTH):
        if kinds & kind:
            at = _last(low, lambda w, k=kind: w in k)
            return None if at is None else _with_lead(low, at, first)
    if any(c.isdigit() for c in after):
        at = _last(low, lambda w: any(c.isdigit() for c in w))
        return None if at is None else _with_lead(low, at, first)
    if first.lower() in _LEADS:  # ("a plumber, sorry, I mean an electrician")
        leads = {first.lower()} | ({"a", "an"} if first.lower() in ("a", "an") else set())
        return _last(low, lambda w: w in leads, 1)
    if first[:1].isupper() and first != "I":
        return _last([w.group(0) for w in words], lambda w: w[:1].isupper() and w != "I", 1)
    # what follows a small word ("allergic to peanuts" → "to tree nuts"), a few words on
    lead = _last(low, lambda w: w in ("to", "of", "for", "with", "from", "about"))
    if lead is not None and 0 < len(low) - lead - 1 <= 3:
        return lead + 1
    # … or one word for one ("takes warfarin, no wait, apixaban")
    last = words[-1].group(0)
    return len(words) - 1 if re.fullmatch(r"[a-z][\w'’-]*", after) and last.islower() \
        and low[-1] not in _LEADS else None


def _last(words: list[str], test, least: int = 0) -> int | None:
    return next((i for i in range(len(words) - 1, least - 1, -1) if test(words[i])), None)


def _with_lead(low: list[str], at: int, first: str) -> int:
    """`at`, or the word before it when `after` opens with that word ("the 14th" → "the
    16th", "on Monday" → "on Wednesday")."""
    return at - 1 if at > 0 and low[at - 1] == first.lower() else at
