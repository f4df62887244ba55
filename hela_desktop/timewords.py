"""Words of time and age as patterns (Qt-free): when a plan is ("on Tuesday at 10 am",
"the 12th of May"), where it moved to ("… to Wednesday"), and an age ("9", "nine",
"twenty-one").  `facts` reads corrections and personal questions with them."""

from __future__ import annotations

import re
import time

from .words import TENS, UNITS

# an age, in figures or words ("9", "nine", "twenty-one"; `words`' number words)
_ONES = "|".join(UNITS[1:10])
AGE = (rf"(?:\d{{1,3}}|(?:{'|'.join(TENS)})(?:[- ](?:{_ONES}))?"
       rf"|{'|'.join(sorted(UNITS[1:], key=len, reverse=True))})")
AGE_WORDS = [*UNITS[1:], *TENS]
# a month's or a weekday's name
MONTH = (r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
         r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)")
DAYS = "monday tuesday wednesday thursday friday saturday sunday weekend".split()
MONTHS = ("january february march april may june july august september october november "
          "december").split()
DAY = rf"(?:{'|'.join(DAYS)})"
# a month or a weekday, one or many: "May", "Tuesday", "Wednesdays"
DATE_NAME = re.compile(rf"\b(?:{'|'.join(MONTHS + DAYS[:-1])})s?\b", re.IGNORECASE)
DATE = re.compile(
    rf"\b(?:\d{{1,2}}(?:st|nd|rd|th)\b|{MONTH}\s+\d{{1,2}}\b|\d{{1,2}}\s+(?:of\s+)?{MONTH}\b|"
    rf"(?:next|this|last|on)\s+{DAY}\b|{DAY}'s\b)", re.IGNORECASE)
# where a plan moved to ("… to Wednesday", "… to the 12th", "… to next week", "… to 4 pm")
WHEN_TO = (rf"(?:the\s+)?(?:next\s+|this\s+|following\s+|coming\s+)?(?:{DAY}s?\b|{MONTH}\b"
           rf"|\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{MONTH}\b"  # ("21 January", QA pass 41d)
           r"|\d{1,2}(?:st|nd|rd|th)\b|\d{1,2}(?::\d\d)?\s*(?:am|pm|a\.m\.|p\.m\.|o['’]clock)"
           # (whole words: "…moved to Morningside." was a plan moved to a morning, QA 55d)
           r"|\d{1,2}:\d\d|(?:tomorrow|tonight|noon|midday|mornings?|afternoons?|evenings?)\b"
           r"|week\b|month\b"
           r"|later\b|earlier\b)")
# a plan said with its time ("… on Tuesday at 10 am", "… on March 3rd", "… in May")
WHEN_SAID = (rf"{DATE.pattern}|\b{DAY}s?\b|\b(?:in|on|at|by|from|until)\s+{MONTH}\b"
             r"|\b\d{1,2}(?::\d\d)?\s*(?:am|pm|a\.m\.|p\.m\.|o['’]clock)|\bat\s+\d{1,2}\b"
             r"|\btomorrow\b|\bnext (?:week|month)\b")

# a day of a month: "3 March", "the 3rd of March", "March 3rd"
_DAY_MONTH = (rf"(?:(?P<d1>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<m1>{MONTH})\b|"
              rf"(?P<m2>{MONTH})\s+(?P<d2>\d{{1,2}})(?:st|nd|rd|th)?\b)")
DAY_MONTH = re.compile(r"\b" + _DAY_MONTH, re.IGNORECASE)
# what an answer says today is: "Today, 3 March.", "Today is Monday the 3rd", "today's date is
# March 3"
_TODAY = re.compile(rf"\btoday(?:['’]s date)?(?:\s+is|['’]s|,)?\s+(?:(?:the|a)\s+)?(?:(?P<day>{DAY}"
                    rf")\b[\s,]*(?:the\s+)?)?{_DAY_MONTH}?", re.IGNORECASE)


def days_of_months(text: str) -> set[tuple[int, str]]:
    """(day, month's first three letters) of each date `text` gives ("3 March": (3, "mar"))."""
    return {(int(m.group("d1") or m.group("d2")), (m.group("m1") or m.group("m2"))[:3].lower())
            for m in DAY_MONTH.finditer(text)}


def wrong_today(answer: str, now: float | None = None) -> dict | None:
    """``{"kind": "not_today", "said": "3 March", "today": "Monday 7 December"}`` when
    `answer` says today is a day or date today (`now`, local time) is not (QA pass 53b:
    "Today, 3 March. …", 3 March the user's due date, opened answer after answer, and
    "Today, 10 December." the appointment moved from that day); None otherwise."""
    t = time.localtime(time.time() if now is None else now)
    for m in _TODAY.finditer(answer):
        day, month = m.group("d1") or m.group("d2"), m.group("m1") or m.group("m2")
        weekday = m.group("day")
        wrong = bool(day and month) and (int(day), month[:3].lower()) != (
            t.tm_mday, time.strftime("%b", t).lower()) or bool(weekday) and weekday.lower() \
            not in (time.strftime("%A", t).lower(), "weekend")
        if wrong:
            start = min(m.start(g) for g in ("day", "d1", "m2") if m.group(g))
            return {"kind": "not_today", "said": answer[start:m.end()].strip(" ,"),
                    "today": f"{time.strftime('%A', t)} {t.tm_mday} {time.strftime('%B', t)}"}
    return None


__all__ = ["AGE", "AGE_WORDS", "DATE", "DAY", "DAYS", "MONTH", "MONTHS", "WHEN_SAID", "WHEN_TO",
           "days_of_months", "wrong_today"]
