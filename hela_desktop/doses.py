"""Doses: a number and its unit ("50 micrograms", "3mg", "18 units"), one name for each unit
however it is written, and which medicine a text gives each dose to ("I take NovoRapid with
meals, about 6 units, and Lantus 18 units at night." gives NovoRapid 6 units and Lantus 18),
for `made_up` to tell a dose told of one medicine and given to another (QA pass 54b: "…the
20 units of NovoRapid…", 20 being the Lantus, had no line)."""

from __future__ import annotations

import re

from . import facts
from .facts import sentences
from .language import is_common_word

# a number and the unit of a dose or a measure: "50 micrograms", "3mg", "1,000 mg", "5 ml"
DOSE_UNITS = r"(mg|milligrams?|mcg|µg|ug|micrograms?|g|grams?|kg|ml|millilit(?:re|er)s?|" \
    r"units?|iu)\b"
DOSED = re.compile(r"(?<![\w.,])(\d+(?:,\d{3})*(?:\.\d+)?)\s?" + DOSE_UNITS, re.IGNORECASE)
DOSE_UNIT = re.compile(r"\s?" + DOSE_UNITS, re.IGNORECASE)
# what of them is a medicine's dose (a gram and a millilitre are also a cook's)
MEDICINE_UNITS = frozenset("mg mcg unit".split())
# a dose with the medicine it is of, as `made_up` quotes it: "20 units of NovoRapid"
_QUOTED = re.compile(r"(?:[\w-]+\s+)?" + DOSED.pattern + r"(?:\s+of\s+[\w-]+)?", re.IGNORECASE)
_OF = re.compile(r"\s+of\s+(?:(?:your|my|his|her|their|the)\s+)?([A-Za-z][\w-]+)")
# where what a dose is of is looked for, back from it: not past a clause's end, or "and"
_CLAUSE_END = re.compile(r"[.;!?\n]|\band\b|\bthen\b", re.IGNORECASE)
_WORD = re.compile(r"[A-Za-z][\w-]*")
_BACK = 6  # words back from a dose that may name its medicine
# words no medicine is, however rare: a unit, a time
_NOT_MEDICINE = frozenset("mg mcg ml iu units unit daily nightly dose doses tablets tablet "
                          "pills pill puffs puff".split())


def no_zero(number: str) -> str:
    """`number` without a leading zero: "09:30" -> "9:30", "007" -> "7"."""
    return number.lstrip("0") or "0"


def unit(word: str) -> str:
    """One name for a unit however it is written: "micrograms", "µg" -> "mcg"."""
    word = word.lower()
    return "mcg" if word in ("µg", "ug") or word.startswith("microgram") else "mg" \
        if word.startswith("milligram") else "g" if word.startswith("gram") else "ml" \
        if word.startswith("millilit") else "unit" if word in ("units", "iu") else word


def is_dose(words: str) -> bool:
    """Whether `words` (as `made_up` quotes them) are a dose: a number and a unit, "50 mg",
    maybe with what it is of, "20 units of NovoRapid", "Lantus 18 units"."""
    return _QUOTED.fullmatch(words) is not None


def _medicine(word: str) -> bool:
    return len(word) > 3 and word.lower() not in _NOT_MEDICINE and (
        not is_common_word(word) or word.lower() == "insulin")


def medicine_at(text: str, start: int, end: int) -> tuple[str, int, int] | None:
    """The medicine the dose at `text[start:end]` is of (lower case, and where it is said):
    the word after "of" ("20 units of NovoRapid"), else the nearest rare word before it in
    its clause ("Lantus 18 units", "I take NovoRapid with meals, about 6 units"); None when
    no word names one."""
    if (m := _OF.match(text, end)) and _medicine(m.group(1)):
        return m.group(1).lower(), m.start(1), m.end(1)
    ends = [c.end() for c in _CLAUSE_END.finditer(text, 0, start)]
    before = list(_WORD.finditer(text, ends[-1] if ends else 0, start))[-_BACK:]
    for w in reversed(before):
        if _medicine(w.group(0)):
            return w.group(0).lower(), w.start(), w.end()
    return None


def dosed(text: str) -> str:
    """The sentences of `text` that give a dose ("" for none)."""
    return " ".join(s for s in sentences(text) if DOSED.search(s))


def medicine_doses(text: str) -> dict[str, set[tuple[str, str]]]:
    """The doses `text` gives each medicine (`medicine_at`): name -> {(number, unit)}."""
    out: dict[str, set[tuple[str, str]]] = {}
    for m in DOSED.finditer(text):
        if (med := medicine_at(text, m.start(), m.end())) is not None:
            out.setdefault(med[0], set()).add((no_zero(m.group(1).replace(",", "")),
                                               unit(m.group(2))))
    return out


# a question for a medicine's dose ("How much Semintra does Biscuit get?"), or for which
# medicines are taken ("What medicine do I take?", "What does Biscuit take?")
_ASKS_HOW_MUCH = re.compile(r"\bhow\s+(?:much|many)\b|\bdos(?:e|age)s?\b", re.IGNORECASE)
_ASKS_WHICH = re.compile(r"\b(?:what|which)\s+(?:medicines?|medications?|meds|tablets?|pills?|"
                         r"drugs?)\b|\bwhat\s+(?:do|does|is|are)\s+(?:[\w'’-]+\s+){1,2}"
                         r"(?:take|taking|on)\s*\??\s*$", re.IGNORECASE)


_OF_SELF = re.compile(r"\b(?:i|me|my|mine)\b", re.IGNORECASE)


def dose_left_out(message: str, answer: str, current: list[tuple[int, str]]) -> dict | None:
    """``{"kind": "left_out", "memory": id, "said": …}`` when asked how much of a medicine
    is taken, `answer` gives no dose at all, and a `current` memory (id, words) of whom
    the message asks gives that medicine one (QA pass 55a: "How much Semintra does Biscuit
    get?" answered with no amount, and no line); or asked which medicines are taken, it
    names none that such a memory gives a dose (QA pass 55c: "What medicine do I take?")."""
    how_much = _ASKS_HOW_MUCH.search(message)
    if not how_much and not _ASKS_WHICH.search(message):
        return None
    asked = {w.lower() for w in _WORD.findall(message)}
    given = [(i, text, medicine_doses(text)) for i, text in current]
    whom = facts.who(message) - {m for _, _, meds in given for m in meds}
    said = answer.lower()
    for i, text, meds in given:
        told_of = facts.who(text)
        # (no dose told, or of someone else than asked: "he" is whoever the memory names)
        if not meds or not (whom - {facts.SELF} <= told_of if whom - {facts.SELF}
                            else facts.SELF in told_of or not _OF_SELF.search(message)):
            continue
        if how_much and set(meds) & asked and not DOSED.search(answer):
            return {"kind": "left_out", "memory": int(i), "said": text}
        if not how_much and not any(re.search(rf"\b{re.escape(m)}\b", said) for m in meds):
            return {"kind": "left_out", "memory": int(i), "said": text}
    return None
