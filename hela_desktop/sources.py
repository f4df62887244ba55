"""What an answer drew on (Qt-free): the memories named under it, in the window (the
"From your memories" line, `ui.window_status`) and in the terminal chat."""

from __future__ import annotations

import functools
import re
import time
from collections.abc import Callable, Iterable, Sequence
from collections.abc import Set as AbstractSet
from typing import NamedTuple

from . import facts, superseded
from .cautions import CAUTION_GATE, Caution, missed, offered
from .events import Recall
from .follow_up import PRONOUNS
from .made_up import made_up
from .older_news import (
    agrees,
    gives_older,
    holds_asked,
    opens_with_yes,
    repeats_corrected,
    says_yes_or_no,
    yes_no_asks,
)
from .passed_over import passed_over
from .prompt import said_when, shorten
from .says_of import called_animal, first_named, leaves_out, says_not, says_otherwise, you_are
from .whom import (
    as_user,
    greets_as,
    invented,
    misattributed,
    misnamed,
    misplaced,
    misrelated,
    name_left_out,
    of_people,
    other_person,
    tells_of_life,
)
from .words import listed, one_line
from .your_own import tells_own


class Sources(NamedTuple):
    """What an answer drew on, for the lines under it (`answer_sources`)."""

    shown: list[tuple[int, str, str]]  # (episode id, the user's words cut short, whole)
    more: int = 0  # memories drawn on beyond those shown
    # the message asked about the user's own life and nothing they said was recalled for it
    unrecalled: bool = False
    # the memories the answer used (`edges.used_by_answer`, stored as ``stats["drew_on"]``);
    # None for an answer stored before 0.12, which did not say
    used: frozenset[int] | None = None
    # those the prompt showed as older news (a newer memory said otherwise, `gate`): the
    # line says so, or the old value read as the current one (QA pass 23)
    older: frozenset[int] = frozenset()
    # why a person should check this answer before relying on it (`doubt_note`; "": none)
    doubt: str = ""
    # the message corrected what the user said before (`correction_note`; "": it did not)
    noted: str = ""
    # of `older`, those a newer memory corrects only in part ("I fly to Kraków on 9 April…
    # My Mandarin teacher is 王芳…", the date corrected: the teacher is still so)
    partly: frozenset[int] = frozenset()
    # the message misspelt names of the user's life, read as theirs (`respelled_note`; "":
    # none)
    read_as: str = ""

    def lines(self) -> bool:
        """Is there a line to show under the answer: a memory, a warning, a note?"""
        return bool(self.shown or self.unrecalled or self.doubt or self.noted or self.read_as)

    def older_label(self, eid: int) -> str:
        """" (older news)", " (partly older news)" or "" after memory `eid`'s quote."""
        return "" if eid not in self.older else f" ({PARTLY_OLDER_NEWS})" \
            if eid in self.partly else f" ({OLDER_NEWS})"


NO_SOURCES = Sources([])
# under an answer `answer_doubt` doubts (the window and the terminal alike)
CHECK = "Check this answer: "  # (each note's start; a second says "Also: " instead)
UNUSED_NOTE = ("Check this answer: it uses none of the memories recalled for it, so it "
               "is not from what you told me.")
# the same, under a request for ideas or advice: its answer may rightly say what no
# memory does, but not pass over what was told ("…anything my skin reacts badly to that I
# should list?" beside "I'm allergic to latex.")
UNUSED_IDEAS_NOTE = ("Check this answer: it uses none of the memories recalled for it; what "
                     "you told me may matter here.")
OLDER_NOTE = "Check this answer: it may give older news — “{newer}” is newer."
CORRECTION_NOTE = "Noted as a correction of {old}: {it} kept, marked as older news."
MADE_UP_NOTE = ("Check this answer: {words} {verb} in none of the memories it was given, "
                "so the model may have made {them} up.")
MADE_UP_UNGIVEN_NOTE = ("Check this answer: no memory was given to it, so {words} {verb} not "
                        "from anything you told me: the model may have made {them} up.")
PASSED_OVER_NOTE = ("Check this answer: only “{said}” speaks of {asked}, and it answers "
                    "from “{other}” instead.")
YES_MADE_UP_NOTE = ("Check this answer: it says yes to {words}, and none of the memories it "
                    "was given says so.")
UNUSED_MADE_UP_NOTE = ("Check this answer: it uses none of the memories recalled for it, and "
                       "{words} {verb} in none of them: the model may have made {them} up.")
UNTOLD_NOTE = ("Check this answer: you have not told me about your {who}, so what it says "
               "of {them} is not from your memories.")
OTHER_PERSON_NOTE = ("Check this answer: you asked about {asked}, and it speaks of {said} "
                     "instead.")
CAUTION_NOTE = ("Check this answer: it names {words} without a word of warning, and you "
                "told me “{said}”")
SAYS_OTHERWISE_NOTE = "Check this answer: it says {name} is {a}{said}, and you told me “{quote}”"
DENIES_TOLD_NOTE = "Check this answer: it says no, and you told me “{said}”"
SAYS_NOT_NOTE = "Check this answer: it says {name} {said}, and you told me “{quote}”"
CAUTION_MISSED_NOTE = "Check this answer: it leaves out what you told me: “{said}”"
MISNAMED_NOTE = "Check this answer: it calls {asked} “{said}”, {whose}."
MISPLACED_NOTE = ("Check this answer: it says {words} of {asked}, and only another memory "
                  "says {it}: “{said}”")
MISATTRIBUTED_NOTE = ("Check this answer: you {asked_or_told} {asked}, and it says of {them} "
                      "what you told me of {whose}: “{said}”")
MISRELATED_NOTE = "Check this answer: it calls {name} your {said}, and {name} is {told}."
AS_USER_NOTE = "Check this answer: it speaks as if it were you (“{said}”)."
INVENTED_NOTE = "Check this answer: it speaks of “{said}”, and you never told me of {name}."
REPEATS_CORRECTED_NOTE = ("Check this answer: it repeats what you have just corrected — "
                          "“{said}”")
MADE_UP_SHOWN = 3  # names and numbers quoted in the note; the rest are counted
SOURCES_SHOWN = 4  # memories named under an answer; more are counted
SOURCE_CHARS = 48  # each is cut at a word near here
WHOLE_SOURCE_CHARS = 120  # in the terminal, each on its own line, cut only when longer
# a memory quoted in a line under an answer, which wraps: long enough for the clause that
# matters (QA pass 37: "“…Grace is not from Ghana, she is…”" stopped before "Nigeria")
NOTE_CHARS = 90


# a question for when something is: "Which month is our Lisbon trip?", "When is …?"
_ASKS_WHEN = re.compile(r"\b(?:when|month|weekday|date|day|night|week|year|time)\b", re.IGNORECASE)


def _quoted(words: list[str]) -> tuple[str, str, str]:
    """(“A”, “B” and “C”; "is"/"are"; "it"/"them"), at most `MADE_UP_SHOWN` quoted and the
    rest counted (“A”, “B”, “C” and 2 more: QA pass 36 saw a fourth left out unsaid)."""
    q = [f"“{w}”" for w in words[:MADE_UP_SHOWN]]
    if len(words) > MADE_UP_SHOWN:
        q.append(f"{len(words) - MADE_UP_SHOWN} more")
    said = listed(q)
    return said, ("is" if len(words) == 1 else "are"), ("it" if len(words) == 1 else "them")


def answer_doubt(message: str, answer: str, recalled: Iterable[Recall],
                 drew_on: AbstractSet[int],
                 names: Callable[[str], AbstractSet[str]] | None = None,
                 known: str = "", now: float | None = None, stopped: bool = False,
                 user_names: AbstractSet[str] = frozenset(),
                 untold: Sequence[str] = (), cautions: Sequence[Caution] = (),
                 unrecalled: bool = False,
                 corrected: Sequence[tuple[int, str]] = (), cut: bool = False) -> dict | None:
    """Why an answer should be checked before it is relied on, from what it says and what
    its prompt held (None: nothing says so):

    - ``{"kind": "caution", "memory": id, "said": …, "words": [...]}``: it names what one
      of the user's `cautions` says they must not eat or drink, in a clause that says
      nothing against it (`cautions.offered`: "You can definitely eat prawn paella" after
      "I'm allergic to shellfish.", QA pass 31); checked even when nothing was recalled
      (`unrecalled`: then the only check); ``{"kind": "caution_missed", "memory": id,
      "said": …}``: asked what someone must not eat, it names none of it, or asked whether
      they may have something it names, it neither says no nor names the allergy
      (`cautions.missed`);
    - ``{"kind": "repeats_corrected", "older": id, "said": …}``: `message` corrects what the
      user said before (`corrected`), and the reply gives the old value all the same
      (`repeats_corrected`: "…your dentist appointment on Friday 12 March at 9:15." to
      "Actually the dentist appointment is on Monday 15 March.", QA pass 31);
    - ``{"kind": "older", "newer": id, "older": id}``: it gives what a memory the gate marked as
      replaced said where the memory that replaced it says otherwise (`gives_older`): the
      old value ("Ines lives in Lyon." or "Ines moved to Lyon." after "Actually Ines moved
      to Porto.", both in the prompt, the newer first; QA passes 24 to 26);
    - ``{"kind": "made_up", "words": [...], "unused": bool}``: a question for something
      the user told (`facts.asks_user_fact`; not a request for ideas) answered with names
      or numbers that neither the message, nor the memories in the prompt (with their
      dates), nor `known` (the user's earlier messages of the chat), nor `user_names`
      (every name the user writes) say (`made_up`: "Which
      town do we live in now?" → "We live in the town of Ponsonby, which is a suburb of
      Manchester.", `bench personal`); ``unused`` when the answer also used none of them;
    - ``{"kind": "untold", "who": [...]}``: a question about the user's own life that asks
      about relations (`untold`: "my sister", "my uncle") no memory of theirs names (QA pass
      30: "What is my sister's name?", no sister ever told, was answered "Ines is my
      sister's name." with the user's own name, and only "Netherlands" was doubted);
    - ``{"kind": "other_person", ...}``: a question about someone of the user's life
      answered about another person they named (`whom.other_person`), or, asked what
      they are called, by another one's name (``"misnamed"``, `whom.misnamed`), or with
      what the user said of themselves (``"misattributed"``, `whom.misattributed`);
    - ``{"kind": "says_otherwise", "name": …, "said": …, "memory": id, "quote": …}``: it
      says someone of the user's life is what a recalled memory says they are not, of a
      closed kind (a job, a diet, a pet's kind, an age: `says_of.says_otherwise`); of the
      reply to a message that tells of someone, what the message itself says counts too
      (memory 0, ``"told"``);
    - ``{"kind": "says_not", "name": …, "said": …, "memory": id, "quote": …}``: it says
      someone does not have, or is not, what a recalled memory naming them says in its
      every content word ("he does not have a type 1 diabetes": `says_of.says_not`);
    - ``{"kind": "denies_told", "memory": id, "said": …}``: a flat no to a yes-or-no
      question a recalled memory says yes to in its every word (`_denies_told`);
    - ``{"kind": "left_out", …}``: asked a job, age or pet's kind, it never gives what a
      memory tells (`says_of.leaves_out`); ``"invented"``: "your friend Sarah", never told;
    - ``{"kind": "passed_over", ...}``: a question for something the user told, answered
      from another memory than the only one that holds the question's own words
      (`passed_over.passed_over`), when nothing else was found;
    - ``{"kind": "unused"}``: a question about the user's own life (`names`: a text -> the
      people of the user's life in it, `MemoryEngine.people_in`: "Where is Ines now?" asks about it too,
      `facts.asks_about_user`) whose answer used none of the memories recalled for it
      ("What is my dog called?" answered "The dog is a Greyhawk." beside two memories of a
      sister, QA pass 24).

    Content-word stems, the message's own left out (what the answer could take from the
    message proves nothing).  Of an answer `cut` at the longest answer's limit, the last
    word may be a part of one: it is not read as a name ("Tob", QA pass 32).  Of an answer the user `stopped` only the old value counts:
    what it did not get to say proves nothing (QA pass 28: "…the marathon in April of
    this year" went unmarked when stopped)."""
    if not answer.strip():
        return None
    if names is not None:  # (each check reads the people of the same texts: once each)
        names = functools.lru_cache(maxsize=64)(names)
    # every sign, the first the strongest (`doubt_note` says all): what the user must not
    # eat or drink, named without a word against it, first of all, recalled or not
    # (each memory's: QA pass 39b, "Suggest a dessert for the family" offered peanut butter
    # beside Dev's nut allergy, and only Sam's sugar caution was said)
    found: list[dict] = list({c.episode_id: {
        "kind": "caution", "memory": c.episode_id, "said": c.text, "words": words}
        for c in reversed(cautions) if (words := offered(answer, c, message))}.values())[::-1]
    # … or, asked what someone must not eat, left out ("What is Kwame allergic to?" →
    # "…the hazelnut", the egg allergy told: QA pass 38)
    found += [{"kind": "caution_missed", "memory": c.episode_id, "said": c.text}
              for c in cautions if not found and c.episode_id and missed(answer, c, message)
              ][:1]
    # the reply to a correction gives what it corrects (`corrected`: id, words)
    found += [{"kind": "repeats_corrected", "older": int(i), "said": t}
              for i, t in corrected if repeats_corrected(message, answer, t)][:1]
    recalled = list(recalled)
    mems = [r for r in recalled if r.kind == "episode" and r.text]
    if unrecalled:  # ("Not from your memories" says it)
        return _with_also(found)
    by_id = {r.episode_id: r for r in mems}
    for r in mems:
        # replaced (the same thing the message asks about), or older than a statement that
        # says it corrects ("Actually Ines moved to Porto."); a memory only older than a
        # looser kin (a name shared) was right beside such a mark ("Your kid is learning the
        # trumpet.", `bench personal`)
        newer = r.extra.get("superseded_by")
        # (or one that says what it said is no longer so: "Handed in my notice at Ledgerly
        # yesterday!" of "…the backend person at Ledgerly…", `bench personal`)
        if newer is None and r.extra.get("older_than") in by_id and (
                facts.corrects(told := by_id[r.extra["older_than"]].text)
                or set(facts.negated(told)) & facts.terms(r.text)):
            newer = r.extra["older_than"]
        # each correction of it, the newest first (a paragraph's haircut, dentist and home,
        # each corrected: QA pass 32)
        given = next((b for b in (newer, *(r.extra.get("corrected_also") or ()))
                      if b in by_id and gives_older(message, answer, r.text, by_id[b].text)),
                     None) if newer is not None else None
        if given is not None:
            found.append({"kind": "older", "newer": int(given), "older": int(r.episode_id)})
            break
    if stopped:
        return _with_also(found)
    about_user = facts.asks_about_user(message, names)  # (once: `names` reads the store)
    # (the reply to a message telling of someone, against the message too: "Leah is
    # actually a hairstylist" to "My sister Leah is a nurse.", QA passes 38 and 39c; it is
    # no memory yet, memory 0)
    found += _contradicted(message, answer, mems, found) if about_user else \
        _contradicted(message, answer, mems, found, told=True) \
        if tells_of_life(message, names) else []
    if untold and about_user:
        found.append({"kind": "untold", "who": [str(w) for w in untold]})
    else:
        # (a question for a name: the name given says most, QA pass 36: "It's Biscuit!"
        # read as speaking of another once a pet became someone of the user's life)
        # (a card or letter asked for is written in the user's voice, of their life: "My
        # brother Dan, the bravest firefighter in Norwich: happy birthday! Love, Ben", QA
        # pass 40e, read as speaking as the user, and as giving Dan the user's city)
        writes = bool(_WRITE_FOR_ME.search(message))
        swapped = (misnamed(message, answer, mems, names)
                   or other_person(message, answer, mems, names)
                   or (None if writes else misattributed(message, answer, mems, names))) \
            if about_user else (misplaced(message, answer, mems, names)
                                or _told(misattributed(message, answer, mems, names))) \
            if tells_of_life(message, names) else None
        swapped = swapped or (None if writes else as_user(message, answer, mems)) \
            or misrelated(answer, mems) or greets_as(message, answer, mems)
        if swapped is not None:
            found.append(swapped)
    asks_fact = about_user and facts.asks_user_fact(message, names)
    whole = re.sub(r"[\w'’-]+$", "", answer) if cut else answer  # (a word cut short)
    # none used, and no name or number the user said earlier in this chat taken either
    # (QA pass 36c: "Your mum lives in Braga.", told two messages before, read "it is not
    # from what you told me")
    # (a request about food that brought in what must not be eaten is about the user's
    # life too: "Suggest a dinner for the family" → "We're having a dinner for the family
    # today.", both children's cautions recalled, had no line)
    cautioned = any(r.extra.get("gate") == CAUTION_GATE for r in mems)
    unused = bool(mems) and not drew_on and (about_user or cautioned) and not (
        known and len(made_up(whole, message)) > len(made_up(whole, f"{message} {known}"))
    ) and not says_yes_or_no(message, whole) and not (
        # (a yes to what a memory says in the question's every word rests on it: "Yes,
        # Callum does work as an engineer. …" was "not from what you told me", QA pass 38b)
        (_YES_WORD.search(whole) or holds_asked(message, whole))
        and any(holds_asked(message, r.text) for r in mems))
    # a question for what the user told; a message that tells of their life, or corrects
    # what they told (QA pass 32: "The haircut moved to Wednesday at 4 pm." names no one,
    # and its reply's "…tomorrow morning at 2:30 pm!" went unchecked), recalled or not
    checked = whole if asks_fact else \
        of_people(whole) if corrected or tells_of_life(message, names) else ""
    if checked:
        at = time.time() if now is None else now
        dated = [f"{r.text} {said_when(r.extra.get('created_at'), at)}"  # (knowledge too)
                 for r in recalled if r.text]
        # (a yes to what the question itself says proves nothing: "Is Solveig 10 years
        # old?" answered "Yes, Solveig is 10 years old.", she being 8, QA pass 37)
        says_yes = agrees(message, whole)
        asked = "" if says_yes else message
        words = made_up(checked, " ".join([asked, known, *dated]), user_names,
                        dates=asks_fact and bool(_ASKS_WHEN.search(message)))
        # a yes takes on what the question says: "Is my mum 75?" answered "Yes.", she being
        # 72, went unmarked (QA pass 37c r17); what no memory says, it says
        yes = not words and says_yes and opens_with_yes(whole)
        if yes:
            words = made_up(" ".join(yes_no_asks(message)), " ".join([known, *dated]),
                            user_names)
        # (not what another sign says already: "it says your mum is 75, and you told me…")
        words = [w for w in words if not any(d.get("said") == w for d in found)]
        if words:
            found.append({"kind": "made_up", "words": words, "unused": unused,
                          **({"yes": True} if yes else {})})
    found += _invented(whole, f"{message} {known}", user_names, found)
    if not found:  # (a subtler fault: only when nothing else was found)
        found += _subtler(message, whole, mems, about_user, asks_fact, names)
    if unused and not found:  # (softly for ideas: QA pass 35, "suggest a snack …")
        found.append({"kind": "unused", **({} if asks_fact else {"ideas": True})})
    return _with_also(found)


# (QA pass 39c: "It seems so, 71 is a special day… You've got it right!" to "Is my dad 71?"
# read "it uses none of the memories")
_YES_WORD = re.compile(r"\b(?:yes|(?:it )?seems so|i think so|got it right|you(?:['’]re| are) "
                       r"right|that['’]s (?:right|correct))\b", re.IGNORECASE)
# a request to write something in the user's own voice
_WRITE_FOR_ME = re.compile(r"\b(?:write|draft|compose|pen|help me (?:write|word))\b[^.?!]*\b(?:card|"
                           r"letter|note|message|email|e-mail|toast|speech|post|text|invitation|"
                           r"invite|reply|poem|tribute|eulogy|caption)s?\b", re.IGNORECASE)
# an answer that opens with a no
# ("The answer is no, Leo is only 9 years old." to "Is he 9?", QA pass 40)
_SAYS_NO = re.compile(r"\s*(?:the (?:short |simple )?answer is:?\s+)?[\"“]?(?:no|nope|not really|"
                      r"not at all|of course not)\b", re.IGNORECASE)
def _denies_told(message: str, answer: str, mems: Sequence[Recall]) -> dict | None:
    """``{"kind": "denies_told", "memory": id, "said": …}`` when `answer` says no to a
    yes-or-no question of `message` whose every word a recalled memory, not older news,
    says and does not deny (QA pass 38: "Is Abena a pharmacist?" answered "No, I'm sorry.",
    "My wife Abena is a pharmacist…" told, read only as "it uses none of the memories")."""
    if not _SAYS_NO.match(answer):
        return None
    return next(({"kind": "denies_told", "memory": int(r.episode_id), "said": r.text}
                 for r in mems if r.extra.get("superseded_by") is None  # (not older news)
                 and r.extra.get("older_than") is None and holds_asked(message, r.text)),
                None)


def _contradicted(message: str, answer: str, mems: Sequence[Recall],
                  found: list[dict], told: bool = False) -> list[dict]:
    """What the answer says someone is against what a recalled memory, not older news, says
    (`says_of.says_otherwise`: "she is an amazing doctor" of Abena the pharmacist, QA pass
    38); not when it gives older news (`found`): that says why.  `told`: `message` tells
    (not asks), and is read first, as memory 0."""
    if any(d.get("kind") == "older" for d in found):
        return []
    current = [(0, message)] * told + [
        (r.episode_id, r.text) for r in mems if r.extra.get("superseded_by") is None
        and r.extra.get("older_than") is None]
    # (and what a memory replaced in part still says: "My sister Ama lives in Accra and she
    # is a nurse." after "Ama moved from Accra to London.", QA pass 39b: "Ama is not a
    # nurse" had no line)
    texts = {r.episode_id: r.text for r in mems}
    parts = {r.episode_id: rest for r in mems if (newer := r.extra.get("superseded_by",
                                                                         r.extra.get("older_than")))
             is not None and newer in texts
             and (rest := superseded.still_true(r.text, [texts[newer]]))}
    asked = first_named(message)
    got = (says_otherwise(answer, current, asked, message) or called_animal(answer, current)
           or says_not(answer, current + [(i, texts[i]) for i in parts], asked, message,
                       parts)
           or you_are(answer, [(i, t) for i, t in current if tells_own(t, "job")])) \
        if current or parts else None
    return [{**got, "told": True} if told else got] if got else []


def _invented(answer: str, known: str, names: AbstractSet[str], found: list[dict]) -> list[dict]:
    """A relation or friend by a name the user never wrote (`whom.invented`: "…with your
    friend Sarah and me.", QA pass 39c), unless another sign names it already."""
    new = invented(answer, known, names)
    return [new] if new and not any(new["name"] in _strs(d, "words") for d in found) else []


def _subtler(message: str, answer: str, mems: Sequence[Recall], about_user: bool,
             asks_fact: bool, names: Callable[[str], AbstractSet[str]] | None) -> list[dict]:
    """The subtler faults of an answer in which nothing else was found: a flat no to what
    the user told (`_denies_told`), or, to a question for what they told, a job, age,
    pet's kind or name a memory gives and the answer does not (`says_of.leaves_out`,
    `whom.name_left_out`), or an answer
    from another memory than the only one that holds the question's words
    (`passed_over`)."""
    got = _denies_told(message, answer, mems) if about_user else None
    if got is None and asks_fact:  # (a job, an age, a pet's kind or a name asked, not given)
        current = [r for r in mems if r.extra.get("superseded_by") is None
                   and r.extra.get("older_than") is None]
        got = leaves_out(message, answer, [(r.episode_id, r.text) for r in current]) \
            or name_left_out(message, answer, current, names) \
            or passed_over(message, answer, mems)
    return [got] if got else []


def _told(doubt: dict | None) -> dict | None:
    """A doubt of the reply to a message that tells (not asks) of someone: its note says
    "you told me of", not "you asked about"."""
    return {**doubt, "told": True} if doubt is not None else None


def _with_also(found: list[dict]) -> dict | None:
    """The first of an answer's doubts, the others under ``"also"`` (QA pass 30: a made-up
    surname went unnamed beside the older-news warning); None for none.  A caution left
    out or named, of a memory the answer denies, is said once, as denied ("it says Sam does
    not have a type 1 diabetes, and you told me…"; "Eric is not allergic to milk" read
    "it names “milk” without a word of warning" too, QA pass 40c)."""
    denied = {d.get("memory") for d in found if d["kind"] in ("says_not", "denies_told")}
    found = [d for d in found if d["kind"] not in ("caution_missed", "caution")
             or d["memory"] not in denied]
    if not found:
        return None
    return {**found[0], "also": found[1:]} if len(found) > 1 else found[0]


def doubt_note(doubt, recalls: Iterable[dict]) -> str:
    """The warning under an answer for its `answer_doubt` (as stored: any JSON), naming
    the newer memory from the answer's recalls, and each further doubt after it ("… Also:
    “Bregaad” is in none of …"); "" for none."""
    if not isinstance(doubt, dict):
        return ""
    recalls = list(recalls)
    also = doubt.get("also")
    notes = [n for n in [_one_note(doubt, recalls)] + [
        _one_note(d, recalls) for d in (also if isinstance(also, list) else [])] if n]
    return " ".join([notes[0]] + ["Also: " + n.removeprefix(CHECK) for n in notes[1:]]) \
        if notes else ""


def _one_note(doubt, recalls: list[dict]) -> str:
    """`doubt_note` for one doubt (its ``also`` aside): its kind's note, "" for a doubt
    stored without what its note needs."""
    if not isinstance(doubt, dict):
        return ""
    note = _NOTES.get(str(doubt.get("kind")))
    return note(doubt, recalls) if note is not None else ""


def _strs(doubt: dict, key: str) -> list[str]:
    """A stored doubt's list of words (any JSON), the empty ones left out."""
    got = doubt.get(key)
    return [str(w) for w in got if str(w).strip()] if isinstance(got, list) else []


def _quote(text: str) -> str:
    """A memory as a line under an answer quotes it: on one line, cut after `NOTE_CHARS`
    at a word; cut after a sentence's end, "… the garden. …", not "the garden.…" (QA pass
    38b)."""
    cut = shorten(one_line(text), NOTE_CHARS)
    return re.sub(r"([.!?])…$", r"\1 …", cut)


def _said(doubt: dict) -> str:
    """A stored doubt's quoted memory, on one line, cut short ("" for none)."""
    said = one_line(str(doubt.get("said") or ""))
    return _quote(said) if said else ""


def _caution_note(doubt: dict, _recalls: list[dict]) -> str:
    words, said = _strs(doubt, "words"), _said(doubt)
    if not words or not said:
        return ""
    return CAUTION_NOTE.format(words=_quoted(words)[0], said=said) + (
        "" if said[-1:] in ".!?…" else ".")


def _says_note(doubt: dict, _recalls: list[dict]) -> str:
    """The line of what an answer says someone is (``says_otherwise``: "it says Abena is a
    doctor…", "…your mum is 75…") or does not have (``says_not``: "it says Sam does not
    have a type 1 diabetes…", up to `_SAID_WORDS` of it), and what the user told."""
    name, said = (one_line(str(doubt.get(k) or "")) for k in ("name", "said"))
    quote = _quote(str(doubt.get("quote") or ""))
    if not (name and said and quote):
        return ""
    if doubt.get("kind") == "says_not":
        words = said.split()
        said = " ".join(words[:_SAID_WORDS]) + ("…" if len(words) > _SAID_WORDS else "")
        note = SAYS_NOT_NOTE.format(name=name, said=said, quote=quote)
    else:
        a = "" if said.isdigit() else "an " if said[:1] in "aeiou" else "a "  # (an age)
        note = SAYS_OTHERWISE_NOTE.format(name=name, said=said, quote=quote, a=a)
        if name == "you":  # ("it says you are a solicitor…", `says_of.you_are`)
            note = note.replace("it says you is ", "it says you are ", 1)
    return note + ("" if quote[-1:] in ".!?…" else ".")


_SAID_WORDS = 10  # of what an answer denies, the words a note quotes


def _quoting(note: str) -> Callable[[dict, list[dict]], str]:
    """The note of a doubt that quotes one memory (``said``), a stop after it."""
    def one(doubt: dict, _recalls: list[dict]) -> str:
        said = _said(doubt)
        return note.format(said=said) + ("" if said[-1:] in ".!?…" else ".") if said else ""
    return one


def _other_person_note(doubt: dict, _recalls: list[dict]) -> str:
    spoken, asked = _strs(doubt, "said"), str(doubt.get("asked") or "")
    return OTHER_PERSON_NOTE.format(asked=asked, said=_quoted(spoken)[0]) \
        if spoken and asked.strip() else ""


def _repeats_corrected_note(doubt: dict, _recalls: list[dict]) -> str:
    said = _said(doubt)
    return REPEATS_CORRECTED_NOTE.format(said=said) if said else ""


def _misattributed_note(doubt: dict, _recalls: list[dict]) -> str:
    said, asked = _said(doubt), str(doubt.get("asked") or "")
    if not said or not asked.strip():
        return ""
    them = _pronoun(asked[5:]) if asked.startswith("your ") else asked
    whose = one_line(str(doubt.get("of") or "")).strip() or "yourself"
    words = _strs(doubt, "words")
    if words:  # (what it took, not only whence: QA pass 36b read the whole memory as said)
        whose += f" ({_quoted(words)[0]})"
    return MISATTRIBUTED_NOTE.format(
        asked_or_told="told me of" if doubt.get("told") else "asked about", asked=asked,
        them=them, whose=whose, said=said)


def _as_user_note(doubt: dict, _recalls: list[dict]) -> str:
    said = one_line(str(doubt.get("said") or "")).strip()
    return AS_USER_NOTE.format(said=said) if said else ""


def _misnamed_note(doubt: dict, _recalls: list[dict]) -> str:
    said, asked = one_line(str(doubt.get("said") or "")), str(doubt.get("asked") or "")
    of = str(doubt.get("of") or "").strip() or "someone else you told me of"
    whose = "your own name" if of == "yourself" else f"the name of {of}"
    return MISNAMED_NOTE.format(asked=asked, said=said, whose=whose) \
        if said and asked.strip() else ""


def _misrelated_note(doubt: dict, _recalls: list[dict]) -> str:
    name, said, told = (one_line(str(doubt.get(k) or "")) for k in ("name", "said", "told"))
    return MISRELATED_NOTE.format(name=name, said=said, told=told) \
        if name and said and told else ""


def _misplaced_note(doubt: dict, _recalls: list[dict]) -> str:
    words, said, asked = _strs(doubt, "words"), _said(doubt), str(doubt.get("asked") or "")
    if not words or not said or not asked.strip():
        return ""
    quoted, _verb, it = _quoted(words)
    return MISPLACED_NOTE.format(words=quoted, asked=asked, it=it, said=said) + (
        "" if said[-1:] in ".!?…" else ".")


def _invented_note(doubt: dict, _recalls: list[dict]) -> str:
    said, name = (one_line(str(doubt.get(k) or "")) for k in ("said", "name"))
    return INVENTED_NOTE.format(said=said, name=name) if said and name else ""


def _untold_note(doubt: dict, _recalls: list[dict]) -> str:
    who = _strs(doubt, "who")
    return UNTOLD_NOTE.format(who=" or your ".join(who), them="them" if len(who) > 1
                              else _pronoun(who[0])) if who else ""


def _made_up_note(doubt: dict, recalls: list[dict]) -> str:
    words = _strs(doubt, "words")
    if not words:
        return ""
    said, verb, them = _quoted(words)
    # (QA pass 35: "in none of the memories it was given" when none was)
    note = YES_MADE_UP_NOTE if doubt.get("yes") and recalls else UNUSED_MADE_UP_NOTE \
        if doubt.get("unused") else MADE_UP_NOTE if recalls else MADE_UP_UNGIVEN_NOTE
    return note.format(words=said, verb=verb, them=them)


def _passed_over_note(doubt: dict, _recalls: list[dict]) -> str:
    asked, said = _strs(doubt, "asked"), _said(doubt)
    other = _quote(str(doubt.get("other") or ""))
    return PASSED_OVER_NOTE.format(said=said, asked=_quoted(asked)[0], other=other) \
        if asked and said and other else ""


def _older_note(doubt: dict, recalls: list[dict]) -> str:
    texts = {r.get("episode_id"): str(r.get("text") or "") for r in recalls}
    text, old = texts.get(doubt.get("newer"), ""), texts.get(doubt.get("older"), "")
    # (of a newer memory that tells several things, the part about the older one: QA pass
    # 37 quoted "“Busy day today: Fenris had his check-up at the…”" for Grace's country)
    return OLDER_NOTE.format(newer=_quote(_part_about(text, old))) if text else ""


def _part_about(text: str, old: str) -> str:
    """The clauses of `text` (cut at commas and stops) that share most words with `old`,
    with those that go on about it ("…, she is from Nigeria."), "…" before when others
    came first; `text` whole when none shares a word."""
    chunks = re.split(r"(?<=[,;.!?])\s+", one_line(text))
    shared = [len(facts.terms(c) & facts.terms(old)) for c in chunks]
    if not old or max(shared, default=0) == 0:
        return one_line(text)
    best = [k for k, n in enumerate(shared) if n == max(shared)]
    end = best[-1] + 1
    while end < len(chunks) and _GOES_ON.match(chunks[end]):
        end += 1
    return ("…" if best[0] else "") + " ".join(chunks[best[0]:end])


_GOES_ON = re.compile(r"(?:she|he|they|it|that|which|who)\b", re.IGNORECASE)


_NOTES: dict[str, Callable[[dict, list[dict]], str]] = {
    "caution": _caution_note, "caution_missed": _quoting(CAUTION_MISSED_NOTE),
    "left_out": _quoting(CAUTION_MISSED_NOTE),
    "denies_told": _quoting(DENIES_TOLD_NOTE), "says_otherwise": _says_note,
    "says_not": _says_note,
    "unused": lambda d, _r: UNUSED_IDEAS_NOTE if d.get("ideas") else UNUSED_NOTE,
    "other_person": _other_person_note, "repeats_corrected": _repeats_corrected_note,
    "misattributed": _misattributed_note, "misnamed": _misnamed_note,
    "misplaced": _misplaced_note, "as_user": _as_user_note, "misrelated": _misrelated_note, "untold": _untold_note, "made_up": _made_up_note,
    "older": _older_note, "passed_over": _passed_over_note, "invented": _invented_note}


def _pronoun(relation: str) -> str:
    """How an answer's warning speaks of a relation: "her" for a sister, "him" for an
    uncle, "them" for a partner or a cousin."""
    return "her" if relation in _SHE else "him" if relation in _HE else "them"


_SHE = frozenset("mother wife fiancée girlfriend sister daughter granddaughter grandmother "
                 "niece aunt".split())
_HE = frozenset("father husband fiancé boyfriend brother son grandson grandfather nephew "
                "uncle".split())


def correction_note(corrects) -> str:
    """The line under the answer to a message that corrects what the user said before
    (``stats["corrects"]``, as stored: any JSON): "Noted as a correction of “My partner
    Samir is a nurse.”: …"; "" for none.  Whatever the model made of it, the user sees
    that the correction was taken (QA pass 28)."""
    said = [_quote(str(c.get("text") or ""))
            for c in corrects if isinstance(c, dict) and str(c.get("text") or "").strip()
            ] if isinstance(corrects, list) else []
    if not said:
        return ""
    return CORRECTION_NOTE.format(old=_quoted(said)[0],
                                  it="it is" if len(said) == 1 else "they are")


def respelled_note(respelled) -> str:
    """The line under the answer to a message that misspelt names of the user's life
    (``stats["respelled"]``, as stored: any JSON): "Read “Andres” as “Anders”, a name you
    told me."; "" for none.  The user sees whom the answer is about, and can say otherwise."""
    pairs = [(str(p[0]), str(p[1])) for p in respelled if isinstance(p, list | tuple)
             and len(p) == 2 and all(isinstance(x, str) and x.strip() for x in p)
             ] if isinstance(respelled, list) else []
    # (a "he" read as whom the last message named: `follow_up.refer`)
    names = [(a, b) for a, b in pairs if a.lower() not in PRONOUNS]
    said = [(a, b) for a, b in pairs if a.lower() in PRONOUNS]
    lines = [f"Read {listed([f'“{one_line(a)}” as “{one_line(b)}”' for a, b in ps])}{end}"
             for ps, end in ((names, ", a name you told me." if len(names) == 1 else
                              ", names you told me."), (said, ", from your last message."))
             if ps]
    return " ".join(lines)


def answer_sources(recalls: Iterable[dict], unrecalled: bool = False,
                   used: Iterable[int] | None = None, doubt=None, corrects=None,
                   respelled=None, limit: int | None = SOURCES_SHOWN) -> Sources:
    """What an answer drew on, for the lines under it: the memories (episode id, the user's
    words cut short, whole) from the recalls that were in its prompt (``stats["memories"]``,
    or the live answer's), in order, each memory once, and how many more; `unrecalled` (the
    turn's own finding) holds only when there are none.  Distilled knowledge is left out: it
    restates memories in other words, and the line is about the user's own.  Memories of
    the same words (a statement said twice is two memories) are named once, by the first:
    the line read "“My sister Ana lives in Lisbon” · “My sister Ana lives in Lisbon”".
    `used`: the memories the answer used; they come first (QA pass 20: the line named every
    memory recalled as "drew on", while the graph linked only those used)."""
    recalls = list(recalls)
    seen: dict[int, str] = {}
    words: set[str] = set()
    older: set[int] = set()
    texts = {r.get("episode_id"): str(r.get("text") or "") for r in recalls}
    partly: set[int] = set()
    for r in recalls:
        if r.get("kind", "episode") == "episode" and r.get("text"):
            text = one_line(str(r["text"]))
            if r["episode_id"] not in seen and text.casefold() not in words:
                seen[r["episode_id"]] = text
                words.add(text.casefold())
                extra = r.get("extra")
                extra = extra if isinstance(extra, dict) else {}
                newer = extra.get("superseded_by")
                newer = extra.get("older_than") if newer is None else newer
                if newer is not None:
                    older.add(int(r["episode_id"]))
                    # (QA pass 36b: the whole two-fact memory read as out of date)
                    if texts.get(newer) and superseded.still_true(text, [texts[newer]]):
                        partly.add(int(r["episode_id"]))
    for c in corrects if isinstance(corrects, list) else ():
        # (what the message itself corrects is older news now; in part when what it
        # replaces is a part of the memory, `superseded.on_subject`: QA pass 36c saw one
        # memory "(older news)" under the correction and "(partly older news)" after it)
        if isinstance(c, dict) and type(c.get("episode_id")) is int:
            older.add(c["episode_id"])
            whole = one_line(texts.get(c["episode_id"]) or "")
            if whole and one_line(str(c.get("text") or "")) not in ("", whole):
                partly.add(c["episode_id"])
    items = [(i, shorten(t, SOURCE_CHARS), t) for i, t in seen.items()]
    took = None if used is None else frozenset(int(i) for i in used)
    if took is not None:
        items.sort(key=lambda it: it[0] not in took)  # (stable: recall order within each)
    limit = len(items) if limit is None else limit  # (None: all, as an exported chat)
    return Sources(items[:limit], max(0, len(items) - limit),
                   unrecalled and not items, took, frozenset(older), doubt_note(doubt, recalls),
                   correction_note(corrects), frozenset(partly), respelled_note(respelled))


def recalls_of(stats: dict) -> list[dict]:
    """The memories a message's statistics say were in its prompt (``memories``): those that
    name a memory of this store by id."""
    mems = stats.get("memories")
    return [r for r in mems if isinstance(r, dict) and type(r.get("episode_id")) is int] \
        if isinstance(mems, list) else []


def stored_sources(stats, limit: int | None = SOURCES_SHOWN) -> Sources:
    """`answer_sources` for a stored answer, from its statistics as stored (any JSON): the
    window's lines under it, and a chat's Markdown export (`limit` None: every memory, the
    file having no timeline to show the rest in, QA pass 38)."""
    st = stats if isinstance(stats, dict) else {}
    drew_on = st.get("drew_on")
    return answer_sources(
        recalls_of(st), st.get("unrecalled") is True,
        [i for i in drew_on if type(i) is int] if isinstance(drew_on, list) else None,
        st.get("doubt"), st.get("corrects"), st.get("respelled"), limit)


# the heads of the groups under an answer (`source_groups`)
FROM_MEMORIES = "From your memories"  # an answer stored before 0.12: used or not, unknown
USED = "Used from your memories"
ALSO = "also recalled"
NONE_USED = "Recalled, not used in the answer"
OLDER_NEWS = "older news"  # after a memory a newer one said otherwise about
PARTLY_OLDER_NEWS = "partly older news"  # … about a part of it, the rest still so


def source_groups(sources: Sources) -> list[tuple[str, list[tuple[int, str, str]]]]:
    """The memories named under an answer, in groups with their heads: those the answer
    used ("Used from your memories"), then the others recalled for it ("also recalled");
    "Recalled, not used in the answer" when it used none; "From your memories" when the
    answer's statistics do not say."""
    if sources.used is None:
        return [(FROM_MEMORIES, list(sources.shown))] if sources.shown else []
    took = [s for s in sources.shown if s[0] in sources.used]
    rest = [s for s in sources.shown if s[0] not in sources.used]
    out = [(USED, took)] if took else []
    if rest:
        out.append((ALSO if took else NONE_USED, rest))
    return out


def source_lines(sources: Sources) -> list[tuple[str, list[str]]]:
    """The memories named under an answer as the terminal prints them (`source_groups`,
    heads in lower case), in the user's words, each whole up to `WHOLE_SOURCE_CHARS`
    (``#12 “My sister Ana lives in Lisbon.”``), and "and 2 more" in the last group.  The
    window's line cuts each at `SOURCE_CHARS` and shows it whole on hover; a terminal has
    no hover, and the cut often fell on the very words that answer ("“My sister Ana is
    getting married in June in…”")."""
    out = [(head[0].lower() + head[1:],
            [f"#{eid} “{shorten(whole, WHOLE_SOURCE_CHARS)}”"
             + sources.older_label(eid) for eid, _, whole in group])
           for head, group in source_groups(sources)]
    if sources.more and out:
        out[-1][1].append(f"and {sources.more} more")
    return out


__all__ = ["Sources", "NO_SOURCES", "SOURCES_SHOWN", "SOURCE_CHARS", "WHOLE_SOURCE_CHARS",
           "answer_sources", "source_groups", "source_lines", "FROM_MEMORIES", "USED", "ALSO",
           "NONE_USED", "OLDER_NEWS", "answer_doubt", "doubt_note", "UNUSED_NOTE", "OLDER_NOTE",
           "CORRECTION_NOTE", "correction_note", "recalls_of", "stored_sources"]
