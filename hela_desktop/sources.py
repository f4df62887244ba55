"""What an answer drew on (Qt-free): the memories named under it, in the window (the
"From your memories" line, `ui.window_status`) and in the terminal chat."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import NamedTuple

from . import facts, kin, superseded
from .follow_up import PRONOUNS
from .prompt import shorten
from .taken_back import TAKEN_BACK
from .words import listed, one_line


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
# … with what the question points at (QA pass 53a: "Who is Helen Carter?" answered "a
# female character in the story" never said "My boss is Helen Carter.")
UNUSED_TOLD_NOTE = "Check this answer: it uses none of the memories recalled for it, and you told me “{said}”"
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
CAUTION_YES_NOTE = "Check this answer: it says yes to {words}, and you told me “{said}”"
SAYS_OTHERWISE_NOTE = "Check this answer: it says {name} is {a}{said}, and you told me “{quote}”"
CALLED_YOU_NOTE = "Check this answer: it says you are {a}{said}."
ALLERGY_OF_NOTE = ("Check this answer: it says of {name} “{said}”, and you told me that of "
                   "{of}: “{quote}”")
DENIES_TOLD_NOTE = "Check this answer: it says no, and you told me “{said}”"
AFFIRMS_STOPPED_NOTE = "Check this answer: it says yes, and you told me “{said}”"
NAMED_OTHERWISE_NOTE = ("Check this answer: it gives {asked} the name “{name}”, and you told "
                        "me “{said}”")
SAYS_TAKEN_NOTE = ("Check this answer: it says “{name}”, and you took that back: you told me "
                   "“{said}”")
ALLERGY_UNTOLD_NOTE = ("Check this answer: it says {name} has an allergy, and you never told "
                       "me of one.")
ALIVE_AGAIN_NOTE = "Check this answer: it speaks of {name} as living, and you told me “{said}”"
DEATH_UNTOLD_NOTE = "Check this answer: it says {name} died, and you never told me so."
ILL_UNTOLD_NOTE = "Check this answer: it says you {said}, and you never told me so."
NOT_TODAY_NOTE = "Check this answer: it says today is {said}; today is {today}."
OPPOSITE_NOTE = "Check this answer: it says “{words}”, and you told me “{said}”"
NOT_KNOWN_NOTE = "Check this answer: it says it does not know, and you told me “{said}”"
SAYS_NOT_NOTE = "Check this answer: it says {name} {said}, and you told me “{quote}”"
CAUTION_MISSED_NOTE = "Check this answer: it leaves out what you told me: “{said}”"
CAUTION_NOT_DENIED_NOTE = "Check this answer: it does not say no to {words}, and you told me “{said}”"
CALLS_YOU_NOTE = "Check this answer: it calls you “{said}”, and your name is {yours}."
SIGNED_NOTE = "Check this answer: it signs it “{said}”, and your name is {yours}."
MISNAMED_NOTE = "Check this answer: it calls {asked} “{said}”, {whose}."
MISPLACED_NOTE = ("Check this answer: it says {words} of {asked}, and only another memory "
                  "says {it}: “{said}”")
MISATTRIBUTED_NOTE = ("Check this answer: you {asked_or_told} {asked}, and it says of {them} "
                      "what you told me of {whose}: “{said}”")
MISRELATED_NOTE = "Check this answer: it calls {name} your {said}, and {name} is {told}."
AS_USER_NOTE = "Check this answer: it speaks as if it were you (“{said}”)."
AS_THEM_NOTE = "Check this answer: it speaks as if it were {who} (“{said}”)."
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


def _quoted(words: list[str]) -> tuple[str, str, str]:
    """(“A”, “B” and “C”; "is"/"are"; "it"/"them"), at most `MADE_UP_SHOWN` quoted and the
    rest counted (“A”, “B”, “C” and 2 more: QA pass 36 saw a fourth left out unsaid)."""
    q = [f"“{w}”" for w in words[:MADE_UP_SHOWN]]
    if len(words) > MADE_UP_SHOWN:
        q.append(f"{len(words) - MADE_UP_SHOWN} more")
    said = listed(q)
    return said, ("is" if len(words) == 1 else "are"), ("it" if len(words) == 1 else "them")


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
    # (each ended before the next: "…“Chloe's son Oscar is 4” Also: …" lacked its stop,
    # QA pass 41d)
    notes = [n if n is notes[-1] or n.rstrip("”’\"")[-1:] in ".!?…" else n + "."
             for n in notes]
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


def _quote_about(text: str, name: str) -> str:
    """`_quote` of what memory `text` says of `name`: too long for the line, from the clause
    that names them ("…my grandson Cian is 14." of "My best friend is Nuala, … My
    granddaughter Aoife is 9 and my grandson Cian is 14.", QA pass 51a: the line cut before
    Cian)."""
    whole = one_line(text)
    at = re.search(rf"\b{re.escape(name)}\b", whole, re.IGNORECASE) if name else None
    if len(whole) <= NOTE_CHARS or at is None or at.start() < NOTE_CHARS - 20:
        return _quote(whole)
    starts = [0, *(m.end() for m in re.finditer(r"[.!?;]\s+|,\s+|\s+(?:and|but)\s+",
                                               whole[:at.start()]))]
    start = max(starts)
    return "…" + _quote(whole[start:])


def _said(doubt: dict) -> str:
    """A stored doubt's quoted memory, on one line, cut short ("" for none)."""
    said = one_line(str(doubt.get("said") or ""))
    return _quote(said) if said else ""


def _caution_note(doubt: dict, _recalls: list[dict]) -> str:
    words, said = _strs(doubt, "words"), _said(doubt)
    if not words or not said:
        return ""
    also = [_quote(one_line(a)) for a in _strs(doubt, "also_said")][:1]  # (one more at most)
    said = "” and “".join([said, *also])
    return (CAUTION_YES_NOTE if doubt.get("yes") else CAUTION_NOTE).format(
        words=_quoted(words)[0], said=said) + (
        "" if said[-1:] in ".!?…" else ".")


def _caution_missed_note(doubt: dict, recalls: list[dict]) -> str:
    """Asked whether someone may have a food (``words``), the answer said no such thing:
    "it does not say no to “champagne”, and you told me …"; else what it leaves out."""
    words = _strs(doubt, "words")
    if not words:
        return _quoting(CAUTION_MISSED_NOTE)(doubt, recalls)
    return _quoting(CAUTION_NOT_DENIED_NOTE.replace("{words}", _quoted(words)[0]))(doubt, recalls)


def _says_note(doubt: dict, _recalls: list[dict]) -> str:
    """The line of what an answer says someone is (``says_otherwise``: "it says Abena is a
    doctor…", "…your mum is 75…") or does not have (``says_not``: "it says Sam does not
    have a type 1 diabetes…", up to `_SAID_WORDS` of it), and what the user told."""
    name, said = (one_line(str(doubt.get(k) or "")) for k in ("name", "said"))
    # (of another's allergy or diet, the part about them: "…you told me that of Zofia:
    # “…Piotr is 12…”" quoted Piotr's, QA pass 53a)
    quote = _quote_about(str(doubt.get("quote") or ""), one_line(str(
        doubt.get("of") or "")).strip() if doubt.get("kind") == "allergy_of" else name)
    if name == "you" and said and not quote:  # ("Tomás Ruiz is a fantastic dog.", QA 49a)
        return CALLED_YOU_NOTE.format(said=said, a="an " if said[:1] in "aeiou" else "a ")
    if not (name and said and quote):
        return ""
    if doubt.get("kind") == "allergy_of":  # ("it says of Noor “allergic to eggs”, and you
        # told me that of Zain: …", `allergy_of.given_to_another`)
        of = one_line(str(doubt.get("of") or "")).strip()
        note = ALLERGY_OF_NOTE.format(name=name, said=said, of=of or "someone else",
                                      quote=quote)
    elif doubt.get("kind") == "says_not":
        words = said.split()
        said = " ".join(words[:_SAID_WORDS]) + ("…" if len(words) > _SAID_WORDS else "")
        note = SAYS_NOT_NOTE.format(name=name, said=said, quote=quote)
    else:
        # (an age, or what someone studies: "…is studying law")
        a = "" if said.isdigit() or " " in said else "an " if said[:1] in "aeiou" else "a "
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


def _as_them_note(doubt: dict, _recalls: list[dict]) -> str:
    said, who = (one_line(str(doubt.get(k) or "")).strip() for k in ("said", "who"))
    return AS_THEM_NOTE.format(said=said, who=who) if said and who else ""


def _as_user_note(doubt: dict, _recalls: list[dict]) -> str:
    said = one_line(str(doubt.get("said") or "")).strip()
    return AS_USER_NOTE.format(said=said) if said else ""


def _misnamed_note(doubt: dict, _recalls: list[dict]) -> str:
    said, asked = one_line(str(doubt.get("said") or "")), str(doubt.get("asked") or "")
    yours = one_line(str(doubt.get("yours") or ""))
    if yours and said:  # (a name not the user's: "it calls you “Sara”, and your name is…")
        return (SIGNED_NOTE if doubt.get("signed") else CALLS_YOU_NOTE).format(said=said,
                                                                              yours=yours)
    of = str(doubt.get("of") or "").strip() or "someone else you told me of"
    whose = "your own name" if of == "yourself" else f"the name of {of}"
    if doubt.get("card") and not doubt.get("of"):  # (a card that opens on a name never
        whose = "a name you never told me"  # told: "Dear Yuvraj," for Arjun, QA pass 48a)
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
    note = note.format(words=said, verb=verb, them=them)
    told = _said(doubt)  # (what the question points at: QA pass 51b, "When's my flight?")
    return f"{note[:-1]}; you told me “{told}”" if told else note


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
    # (", not 9:40." is part of the clause it denies: "…not 9:40." read as if 9:40 were the
    # new time, QA pass 47b)
    if best[0] and re.match(r"(?:not|rather than|instead of)\b", chunks[best[0]], re.IGNORECASE):
        best.insert(0, best[0] - 1)
    end = best[-1] + 1
    # (and what a semicolon ties to it: "I left the pharmacy in Seville;" was quoted without
    # "I'm a hospital pharmacist in Cádiz now.", what is new, QA pass 47a)
    # (and the rest of its sentence: "…Wednesdays at the food bank, I do Saturdays instead
    # now.", "We've called off Whitby in July, the cottage owner cancelled on us.", QA pass
    # 52b quoted neither what is done now nor where they go instead)
    while end < len(chunks) and (_GOES_ON.match(chunks[end]) or chunks[end - 1].endswith((";", ","))):
        end += 1
    return ("…" if best[0] else "") + " ".join(chunks[best[0]:end])


# (… "we" and "I" too: "Scratch that about Chennai, we cancelled it.", QA pass 52a quoted
# its first clause alone)
_GOES_ON = re.compile(r"(?:she|he|they|it|that|which|who|we|i)\b", re.IGNORECASE)


def _ill_untold_note(doubt: dict, _recalls: list[dict]) -> str:
    """"it says you have diabetes", "… you are diabetic", "… you have gout and asthma"."""
    ills = _strs(doubt, "said")
    if not ills:
        return ""
    said = " and ".join([", ".join(ills[:-1]), ills[-1]] if len(ills) > 1 else ills)
    return ILL_UNTOLD_NOTE.format(said=("are " if said.endswith("ic") else "have ") + said)


_NOTES: dict[str, Callable[[dict, list[dict]], str]] = {
    "caution": _caution_note,
    "caution_missed": _caution_missed_note,
    "left_out": _quoting(CAUTION_MISSED_NOTE),
    "denies_told": _quoting(DENIES_TOLD_NOTE), "not_known": _quoting(NOT_KNOWN_NOTE),
    "affirms_stopped": _quoting(AFFIRMS_STOPPED_NOTE),
    "named_otherwise": lambda d, r: _quoting(NAMED_OTHERWISE_NOTE.replace("{asked}", one_line(
        str(d.get("asked")))).replace("{name}", one_line(str(d.get("name")))))(d, r)
    if d.get("asked") and d.get("name") else "",
    "taken_back": lambda d, r: _quoting(SAYS_TAKEN_NOTE.replace(
        "{name}", one_line(str(d.get("name")))))(d, r) if d.get("name") else "",
    "death_untold": lambda d, _r: DEATH_UNTOLD_NOTE.format(name=one_line(str(d.get("name"))))
    if d.get("name") else "",
    "ill_untold": _ill_untold_note,
    "not_today": lambda d, _r: NOT_TODAY_NOTE.format(said=one_line(str(d.get("said"))), today=one_line(
        str(d.get("today")))) if d.get("said") and d.get("today") else "",
    "opposite": lambda d, r: _quoting(OPPOSITE_NOTE.replace("{words}", one_line(str(d.get(
        "words")))))(d, r) if d.get("words") else "",
    "alive_again": lambda d, _r: ALIVE_AGAIN_NOTE.format(
        name=one_line(str(d.get("name"))), said=_said(d)) if d.get("name") and _said(d) else "",
    "allergy_untold": lambda d, _r: ALLERGY_UNTOLD_NOTE.format(
        name=one_line(str(d.get("name")))) if d.get("name") else "",
    "says_otherwise": _says_note,
    "says_not": _says_note, "allergy_of": _says_note,
    "unused": lambda d, _r: UNUSED_IDEAS_NOTE if d.get("ideas") else _quoting(UNUSED_TOLD_NOTE)(
        d, _r) if _said(d) else UNUSED_NOTE,
    "other_person": _other_person_note, "repeats_corrected": _repeats_corrected_note,
    "misattributed": _misattributed_note, "misnamed": _misnamed_note,
    "misplaced": _misplaced_note, "as_user": _as_user_note, "as_them": _as_them_note, "misrelated": _misrelated_note, "untold": _untold_note, "made_up": _made_up_note,
    "older": _older_note, "passed_over": _passed_over_note, "invented": _invented_note}


def _pronoun(relation: str) -> str:
    """How an answer's warning speaks of a relation: "her" for a sister, "him" for an
    uncle, "them" for a partner or a cousin."""
    relation = kin.KIN.get(relation, relation)  # ("your dad" is a father: QA pass 44, "it
    # says of them what you told me of yourself")
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
    every = [p for p in respelled if isinstance(p, list | tuple) and all(
        isinstance(x, str) and x.strip() for x in p)] if isinstance(respelled, list) else []
    pairs = [(str(p[0]), str(p[1])) for p in every if len(p) == 2]
    # (a "he" read as whom the last message named: `follow_up.refer`)
    names = [(a, b) for a, b in pairs if a.lower() not in PRONOUNS]
    said = [(a, b) for a, b in pairs if a.lower() in PRONOUNS]
    lines = [f"Read {listed([f'“{one_line(a)}” as “{one_line(b)}”' for a, b in ps])}{end}"
             for ps, end in ((names, ", a name you told me." if len(names) == 1 else
                              ", names you told me."), (said, ", from your last message."))
             if ps]
    # (what the message took back as it went: `taken_back.as_meant`, QA pass 46a)
    lines += [TAKEN_BACK_NOTE.format(taken=one_line(p[0]), meant=one_line(p[1]))
              for p in every if len(p) == 3 and p[2] == TAKEN_BACK][:1]
    return " ".join(lines)


# the line for a message read without what it took back as it went
TAKEN_BACK_NOTE = ("Read your message without what you took back (“{taken}”): “{meant}” "
                   "is what I keep.")


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
                    if extra.get("still_true") if "corrected_also" in extra else (
                            texts.get(newer) and superseded.still_true(text, [texts[newer]])):
                        partly.add(int(r["episode_id"]))
    for c in corrects if isinstance(corrects, list) else ():
        # (what the message itself corrects is older news now; in part when what it
        # replaces is a part of the memory, `superseded.on_subject`: QA pass 36c saw one
        # memory "(older news)" under the correction and "(partly older news)" after it)
        if isinstance(c, dict) and type(c.get("episode_id")) is int:
            older.add(c["episode_id"])
            # (what it brings back is no older news: "It's back to 12 May after all.")
            back = c.get("restores")
            older -= set(back) if isinstance(back, list) else set()
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
           "NONE_USED", "OLDER_NEWS", "doubt_note", "UNUSED_NOTE", "OLDER_NOTE",
           "CORRECTION_NOTE", "correction_note", "recalls_of", "stored_sources"]
