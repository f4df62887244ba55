"""Older news in an answer (Qt-free): whether it gives what a newer memory of the user's
replaced (`gives_older`), or, in reply to a correction, the value just corrected
(`repeats_corrected`); and how an answer says yes or no to a yes-or-no question
(`agrees`).  `sources` turns what these find into the lines under an answer."""

from __future__ import annotations

import re
from collections.abc import Set as AbstractSet

from . import facts, superseded, whom
from .doses import medicine_doses
from .food_groups import CARERS
from .language import opens_with_no
from .timewords import DAYS, MONTH, WHEN_SAID
from .words import LIST_MARK

# the words a correction tells that something changed with, not what it changed to
# ("Actually Ines moved to Porto.": the news is Porto; "Ines moved to Lyon." said "moved"
# and went unmarked, QA pass 25)
TELLS_CHANGE = frozenset(facts.stems("actually correction meant misspoke anymore longer "
                                     "instead moved changed switched quit started became "
                                     "left rescheduled postponed delayed shifted pushed "
                                     "lowered raised increased reduced upped"))
# words that put a value in the past ("Tomas was a software engineer, now he cooks"): an
# answer saying them may name the old value beside the new one without giving it as now
TELLS_PAST = frozenset("was were used previously before formerly former earlier originally "
                       "longer anymore from until rather instead not old replaced outdated "
                       "superseded corrected lived worked".split())  # ("The news that she lives in
# Accra is replaced by a more recent one", QA pass 39: marked as older news)
# how an answer agrees with a yes-or-no question: it then says what the question said
_AGREES = ("yes", "yeah", "yep", "correct", "that's right", "that is right", "indeed", "right,")
# … and how it says no, or sets what the question said aside
_DENIES = frozenset("no not nope never n't rather instead actually but".split())
# words, "n't" one of its own ("doesn't" is "does" and "n't": before 0.35 it read as
# "doesn" and "t", so "He doesn't live in Oslo." denied nothing)
WORDS = re.compile(r"[a-z]+(?=n't)|n't|[a-z]+")
_YES_NO = frozenset("is are am was were do does did will would can could has have had "
                    "should".split())


def opens_with_yes(answer: str) -> bool:
    """Does `answer` open with a yes ("Yes.", "Correct, …", "That's right"), after a
    pleasantry or not ("I'm glad you brought it up.\n\nYes, I think the test is on 3
    March…", the old date: QA pass 42b saw no line)?"""
    head = _PLEASANTRY.sub("", answer.strip().lower().replace("’", "'"), count=1)
    head = _ASIDE_BUT.sub("", head, count=1)
    return any(head.startswith(w) and (len(head) == len(w) or not head[len(w)].isalnum())
               for w in _AGREES)


# an aside before a yes: "A bit of a tangent, but yes, my dentist … is on the 3rd." (QA
# pass 43d: the old date, unmarked)
_ASIDE_BUT = re.compile(r"^(?!no\b|not\b|nope\b)[^.!?\n]{0,60}?,?\s*\bbut\s+(?=(?:yes|yeah|yep|correct)\b)")
# a first sentence of thanks or gladness, before the answer itself
_PLEASANTRY = re.compile(r"(?:i'm|i am) (?:so |really )?(?:glad|happy|pleased)\b[^.!?\n]*[.!?]\s*|"
                         r"(?:great|good|what a (?:great|good)) question\b[^.!?\n]*[.!?]\s*|"
                         r"thanks? (?:you )?for (?:asking|bringing)\b[^.!?\n]*[.!?]\s*")


def agrees(message: str, answer: str) -> bool:
    """Does `answer` say yes to the question `message`: it opens with yes ("Yes, your trip
    to Japan is in May."), or the message asks yes or no and the answer says nothing that
    denies it ("Is my trip to Japan in May?" → "I'm glad you're planning a trip to Japan in
    May…", QA pass 27)?"""
    # (or a sentence of it does, after talk: "…So, yes, I'll continue the race on Sunday 20
    # March…" to "Is my race on Sunday 20 March?", QA pass 47c)
    if opens_with_yes(answer) or yes_no_asks(message) and not opens_with_no(answer) and any(
            opens_with_yes(re.sub(r"^(?:so|and|well|then|ok|okay)\s*,?\s*", "", x, flags=re.I))
            for x in facts.sentences(answer)[1:]):
        return True
    head = answer.strip().lower().replace("’", "'")
    said = _denying(head)
    # a sentence of the message asks yes or no ("Is our Lisbon trip in May? Answer in one
    # short sentence.", QA pass 29: the message as a whole did not end with "?")
    asks = yes_no_asks(message)
    if not asks:
        return False
    asked = facts.terms(" ".join(asks))
    if not said:
        # (… when it speaks of what was asked: two thirds of its words; a reply of
        # something else is no yes, "The message is a classic example of a grammatical
        # error: “How old is Erik's daughter Freya?”" to "Is Freya 12?", QA pass 43h, read
        # as giving the old age 12)
        what = asked - _GENERIC - _STILL
        return len(facts.terms(answer) & what) * 3 >= len(what) * 2
    # a clause that says what it asks over again, denying nothing, says yes whatever came
    # before it ("Not at all, Anders still lives in Trondheim." to "Does Anders still live
    # in Trondheim?", QA pass 37; "No, Sarah still works at the Royal Infirmary." to "Is
    # Sarah still at the Royal Infirmary?", QA pass 43d: working there is being there)
    return any(len(c) >= 2 and c <= asked and len(c) * 3 >= len(asked) * 2
               and not _denying(part)
               for part in re.split(r"[,;.!?]|\bbut\b", head)
               if (c := facts.terms(part) - (_GENERIC - asked) - _ACTUALLY))


def _denying(text: str) -> set[str]:
    """The words of `text` (lower case) that deny or set aside what a question said: "no",
    "not", "but"…, and "actually" where it opens a clause ("Actually, it's on the 5th."),
    not where it stresses what is so ("The flight is actually on 3 November.", QA pass 44d:
    read as a no, so the old date went unmarked)."""
    said = set(WORDS.findall(text)) & _DENIES
    return said - {"actually"} | ({"actually"} if _OPENS_ACTUALLY.search(text) else set())


_OPENS_ACTUALLY = re.compile(r"(?:^|[.!?,;:]\s*|\b(?:no|oh|well)\s+)actually\b")


_STILL = frozenset(facts.stems("still"))


def says_yes_or_no(message: str, answer: str) -> bool:
    """Does `answer` only say yes or no to a yes-or-no question of `message`, in the
    question's words and at most one of its own ("No.", "Anders lives in Oslo, so does not
    live on his own." to "Does Anders live in Oslo?")?  Whether it used a memory cannot be
    read from its words then (QA pass 37b: such right answers read "it uses none of the
    memories recalled for it, so it is not from what you told me")."""
    asks = bool(yes_no_asks(message)) or any(s.lower().startswith("yes or no")
                                              for s in facts.sentences(message))
    return asks and len(facts.terms(answer) - facts.terms(message)) <= 1


# what a yes-or-no question asks of someone that a memory need not say in its words
_GENERIC = frozenset(facts.stems("work works working live lives living stay stays"))


def holds_asked(message: str, text: str) -> bool:
    """Does `text` (a memory) say every word of a yes-or-no question of `message`, at least
    two ("Is Abena a pharmacist?" of "My wife Abena is a pharmacist…"; "Does Callum work as
    an engineer?" of "…Callum…; he is an engineer now.") and deny none of them ("Is Pepper
    a tabby?" of "…a ginger cat, not a tabby")?"""
    # (nor a doing it says is not done: "Can I drive to work?" answered "No." read "it says
    # no, and you told me “I don't drive…”", QA pass 55c)
    told = facts.terms(text)
    denied = set(facts.negated(text)) | facts.terms(" ".join(_NOT_DONE.findall(text)))
    # (a medicine named is a medication told: "Is my dad on any medication?" of "My dad
    # Suresh lives in Leicester and takes warfarin.", QA pass 41c saw "No, …")
    told |= _MEDICATION if _ON_MEDICINE.search(text) else set()
    # (the user asking of themselves, of their own memory: "Am I on any medication?" of
    # "I have epilepsy and take lamotrigine.", QA pass 43b probe: "No, you are not…")
    told |= {facts.SELF} if _FIRST.search(text) or _TO_YOU.search(text) else set()
    return any(len(asked) >= 2 and asked <= told and not asked & denied
               for asked in ((facts.terms(a) | ({facts.SELF} if _FIRST.search(a) else set()))
                             - _GENERIC for a in yes_no_asks(message)))


_FIRST = re.compile(r"\b(?:i|i['’](?:m|ve)|me)\b", re.IGNORECASE)  # (not "my wife …")
_NOT_DONE = re.compile(r"\b(?:don['’]t|doesn['’]t|do not|does not|never|can['’]t|cannot|"
                       r"no longer)\s+([a-z]+)", re.IGNORECASE)
_TO_YOU = re.compile(r"\byou(?:['’](?:re|ve))?\b", re.IGNORECASE)  # (an answer's "You swim …")


_MEDICATION = frozenset(facts.stems("medication medicine meds pills tablets drugs"))
# a medicine by its name ("warfarin", "amlodipine", "allopurinol", "lithium")
DRUG = (r"[a-z-]+(?:arin|ine|ide|pril|sartan|statin|xaban|zole|pam|lol|formin|mab|cillin|mycin|"
        r"cycline|olone|sone|purinol|thyroxine|trigine)|insulin|aspirin|lithium")
# someone takes a medicine ("takes warfarin", "is on amlodipine", "uses an inhaler")
_ON_MEDICINE = re.compile(
    r"\b(?:take|takes|taking|(?:is|am|are|['’]s|['’]m)\s+on|prescribed|uses)\s+(?:(?:a|an|some|his|"
    rf"her|my|daily|low-dose)\s+)?(?:(?:{DRUG})\b|medications?|medicines?|tablets|pills|"
    r"inhalers?|blood\s+thinners?)", re.IGNORECASE)


def yes_no_asks(message: str) -> list[str]:
    """The sentences of `message` that ask yes or no ("Is our Lisbon trip in May?")."""
    return [s for s in facts.sentences(message)
            if s.rstrip().endswith("?") and (facts._words(s) or [""])[0] in _YES_NO]


# who a statement is about, not what it says of them: "brother" in "My brother Karel is a
# dentist." is not out of date when "Actually Karel is now a surgeon." (QA pass 30: "…he's a
# doctor who works with his brother…" was marked older news for "brother")
_WHO = whom.WHO
# when a change was made: "last month", "two weeks ago", "yesterday", "recently"
_WHEN_CHANGED = re.compile(
    r"\b(?:last|this past)\s+(?:week|month|year|weekend|night|spring|summer|autumn|fall|"
    r"winter|[a-z]+day)\b|\b(?:a|an|one|two|three|four|five|six|\d+|a few|a couple of)\s+"
    r"(?:days?|weeks?|months?|years?)\s+ago\b|\b(?:yesterday|recently|just)\b", re.IGNORECASE)


def gives_older(message: str, answer: str, old: str, new: str) -> bool:
    """Does `answer` give what the older memory `old` says where the newer `new` replaced
    it?  What is out of date is what the correction says is no longer so, when it says it
    ("…, not May": May, not the trip or Japan, QA pass 26: an answer about Tomas's
    "career in Japan" was marked older news over "Actually the trip is in June, not May."),
    else what only the old memory said, in its sentences on the correction's subject, who
    they are about aside (`superseded.on_subject`, `_WHO`); what is new is what only the newer said, the words
    that tell of a change aside (`TELLS_CHANGE`). The message's own words prove nothing,
    unless the answer says yes to them. The answer gives older news when it says more of
    the outdated than of the new, or the whole outdated value as fully as the new one
    ("…now works as a chef, while also working as a software engineer in Berlin.", QA
    pass 26), unless it says something new and puts something in the past (`TELLS_PAST`:
    "Tomas was a software engineer; now he is a chef.") or tells the change in words of
    its own ("Ines left Lyon for Porto."; "quit" copied from the correction does not
    count)."""
    if _ASKS_BEFORE.search(message):  # (the old value is what was asked: "Where did Hollie
        return False  # live before?" answered "Harrogate", QA pass 41c)
    # (a question put back to the user gives nothing: "…Leafware. Does it have anything to
    # do with your work at Infosys…?", QA pass 50c)
    for asked_back in [s for s in facts.sentences(answer) if s.rstrip().endswith("?")]:
        answer = answer.replace(asked_back, " ")  # (its lines kept: a list's marks, 44b)
    # (not a list's numbering, taken out before the sentences are joined: "6. **Lemon-Ginger
    # Chai**" read as the old age 6, QA pass 44b)
    # (whom the part corrected tells of: "My mum's birthday is on 14 August." beside the
    # flight made "Your flight is on 22 December." of no one of it, QA pass 51b)
    # (a clause of its own that names no one: "…Mr Okafor and the rent is £950 a month."
    # made "Your rent is £950 a month." of Mr Okafor's, QA pass 55c)
    part = superseded.on_subject(old, new).strip()
    answer = _of_others(LIST_MARK.sub(" ", answer), part if _OWN_CLAUSE.match(part) else next(
        (s for s in facts.sentences(old) if part and part in s), old), message)
    yes, asked = agrees(message, answer), facts.terms(message)
    terms = facts.terms(answer)
    said = terms | asked if yes else terms - asked
    was = facts.terms(superseded.on_subject(old, new))
    # (when the change was made is no new value, unless the old memory said a time like it:
    # "Chloe moved to Manchester last month." was no older news of "Chloe lives in
    # Manchester." beside "Chloe moved to York last month.", QA pass 40b)
    value = new if _WHEN_CHANGED.search(old) else _WHEN_CHANGED.sub(" ", new)
    now, denied = _told_over(value, was), set(facts.negated(new)) - facts.still_said(new)
    outdated = (was & denied) or _out_of_date(old, new, was - now - _WHO)
    if was & denied:  # (and the old date's numbers, where the new gives a date of its own:
        # "Today (20 March)…" of "…on Sunday 20 March." after "Actually the race is on
        # Saturday 19 March, not Sunday.", QA pass 47a: only "Sunday" was out of date)
        outdated |= _numbers_when(old) - _numbers_when(new) - now if _numbers_when(new) else set()
    if superseded.of_it_only(new):  # (a new time of "it" outdates the old time alone:
        # "The hospital was kind." gave no older news of "…my hip operation is booked for
        # the 3rd of March." beside "Actually they moved it to 17 March.", QA pass 51a)
        outdated = {w for w in outdated if w[:1].isdigit() or w in superseded.TIME_STEMS}
    if set(medicine_doses(new)) & set(medicine_doses(old)):  # (a new dose outdates the old
        # dose alone: "Yes, aspirin…" to "Can I take aspirin…?" gave older news of "I take
        # warfarin, 3 mg a day." beside "…lowered my warfarin to 2.5 mg…", QA pass 55b)
        outdated = {w for w in outdated if w[:1].isdigit()} or outdated
    # (nor who made the change: "doctor" of "My doctor has lowered my warfarin to 2.5 mg a
    # day." beside "…her doctor." made "…warfarin 3 mg…" no older news, QA pass 55b)
    fresh = now - was - denied - TELLS_CHANGE - _people(old, new) - _CARERS
    # what the answer itself says is not so: "…in March, not April." gives the old value
    # and denies the new (QA pass 35b: unmarked, "not" read as putting March aside), the
    # old value asked or not ("…indeed Freya 12, not 13." to "Is Freya 12?", QA pass 43f)
    no = set(facts.negated(answer))
    if no & fresh and not no & outdated:
        return bool(terms & outdated)
    # (… in a sentence of its own, whatever another denies: "So, it's 3 April at 9:40
    # instead of 7:15." beside "…4:30 instead of 9:40.", QA pass 47d)
    if any(set(facts.negated(x)) & fresh and not set(facts.negated(x)) & outdated
           and facts.terms(x) & outdated for x in facts.sentences(answer)):
        return True
    # a change told to the old value, asked or not: "No, Daniel's doctor did switch him to
    # lisinopril." after "…switched him to amlodipine instead of lisinopril." (QA pass 47c)
    if changed_to_old(answer, outdated, fresh) or _here_in_old(answer, outdated, fresh) \
            or _now_old(answer, outdated, fresh):
        return True
    if not yes:
        outdated, fresh = outdated - asked, fresh - asked
    # (a number of years is no day of a month: "…20 years since I moved…" gives no "20
    # April", QA pass 43c; but "7 years old" is the old age 7, QA pass 43g)
    said -= {d for d in said & outdated if d.isdigit() and re.search(
        rf"\b{d}\s*{_UNIT}", answer, re.IGNORECASE) and re.search(
        rf"\b{d}(?:st|nd|rd|th)?\s+(?:of\s+)?{MONTH}\b|\b{MONTH}\s+{d}\b", old, re.IGNORECASE)}
    if said & outdated and said & outdated <= no:  # (it denies the old value itself: "Ama
        return False  # doesn't live in Accra anymore.")
    if said & outdated <= _GENERIC:  # (no old value but "working": "My job involves working
        return False  # with organizations…" after "I've switched to day shifts", QA 49c)
    told_old, told_new = len(said & outdated), len(said & fresh)
    # a sentence that gives the old value as now, and nothing new, gives it whatever else
    # the answer says ("I'm loving my job as a ward nurse.", QA pass 44: "…a supportive
    # community…" read as the new "community midwife", and "…before moving here" as the
    # change told)
    # (and an old weekday, whatever new one is beside it: "…he's a Monday to Friday night
    # employee." after "Tom has switched to Monday to Thursday nights now.", 55a)
    if told_old and _as_now(answer, said & outdated, fresh - asked) or _as_now(
            answer, said & outdated & _WEEKDAYS, frozenset()):  # (the question's own
        # words are nothing new: "flight" of "Is our flight on 3 November?")
        return True
    # a value denied outright, no change told of it ("Grace is not from Ghana, she is from
    # Nigeria, I mixed that up"), was never so: put in the past, it is still wrong ("She
    # was born in Ghana", QA pass 37c o04); only an answer that denies it says so
    never = _mixed_up(new, was & denied)
    if told_old == 0 or told_new and (
            _in_the_past(answer, outdated, DENIES if never else TELLS_PAST)
            or said & TELLS_CHANGE - now):  # (a change told in its own words: "left Lyon")
        return False  # (the old value put in the past, beside the new one)
    if told_old == told_new and _new_of_subject(answer, outdated, fresh,
                                                (was & now) - outdated - fresh - denied):
        return False
    # as much of each: the old value whole, or a word the correction says is no longer so
    return told_old > told_new or told_old == told_new and (said >= outdated or bool(
        was & denied))


# a move, and the places a memory names: after "Hollie just moved to York.", "My best
# friend Hollie is a vet in Harrogate." is out of date for Harrogate, not for the vet (pass
# 41b's persona: "Hollie is a vet." was marked older news)
_MOVED = re.compile(r"\b(?:moved|relocated)\s+(?:back\s+|away\s+|house\s+)?(?:from\s+"
                    r"(?:[\w'’-]+\s+){1,3})?to\b|\bnow lives?\s+in\b", re.IGNORECASE)
_CLOCK = re.compile(r"\b\d{1,2}(?::\d\d)?\s*(?:am|pm|a\.m\.|p\.m\.|o['’]clock)|\b\d{1,2}:\d\d\b|"
                    r"\bat\s+\d{1,2}\b", re.IGNORECASE)
PLACE = re.compile(r"\b(?:in|at|near|from|to)\s+(?:the\s+)?((?:[A-Z][\w'’.-]*\s*)+)")
_JOB_CHANGE = re.compile(r"\bnow works?\b|\bnew job\b|\bswitched (?:jobs|careers)\b|\bquit\b|"
                         r"\b(?:join|start)(?:ed|ing|s)?\b[^.;!?]{0,40}?\bas (?:a|an)\b|"
                         r"\bhanded in\b[^.;!?]*\bnotice\b|\b(?:became|is now|['’]s now) (?:a|an|head|lead|"
                         r"senior|chief)\b",
                         re.IGNORECASE)
_JOB_PHRASE = re.compile(r"\b(?:a|an|as)\s+((?:[\w-]+\s+){0,2}?[\w-]+)(?=\s+(?:in|at|for|from|"
                         r"near|with)\b|\s*[,.;!?]|\s*$)|\b(?:at|for)\s+((?:[A-Z][\w'’&-]*\s*)+)")
_AGE_NOW = re.compile(r"\b(?:is|['’]s|are)\s+(?:now\s+)?\d{1,3}(?:\s+(?:years?\s+old|now))?\s*(?:now)?"
                     r"[.!]?\s*$|\bturned\s+\d{1,3}\b", re.IGNORECASE)
_ASKS_BEFORE = re.compile(r"\b(?:before|previously|used to|originally|formerly|in the past|"
                          r"(?:old|previous|former|last)\s+(?:job|address|home|house|place|flat|"
                          r"employer|school|city|town))\b", re.IGNORECASE)
_IT = re.compile(r"\b(?:it|it['’]s|its|that['’]s|that is|this is)\b", re.IGNORECASE)


def _new_of_subject(answer: str, outdated: AbstractSet[str], fresh: AbstractSet[str],
                    subject: AbstractSet[str]) -> bool:
    """Does `answer` give the new value of the subject (a clause names both) and the old
    words only in clauses of something else (no word of the subject, no "it" that could be
    it)?  "We're actually in March, but our Krakow trip is in April." (QA pass 35b: marked
    older news for "March")."""
    raw = [c for c in re.split(r"[,;.!?]|\b(?:but|and|while|whereas)\b", answer) if c.strip()]
    clauses = [facts.terms(c) for c in raw]
    return bool(subject) and any(c & fresh and c & subject for c in clauses) and all(
        not c & subject and not _IT.search(r) for c, r in zip(clauses, raw) if c & outdated)


# a change told, and what it is to: "switched him to lisinopril", "moved back to Oslo",
# "changed it to Tuesday", "switching from X to Y" (Y)
_CHANGED_TO = re.compile(
    r"\b(?:switch|swapp?|mov|chang|put|resched)\w*\s+(?:(?:him|her|them|me|us|you|it|back|"
    r"over)\s+){0,2}(?:from\s+[^,.;!?]{1,40}?\s+)?(?:to|onto)\s+(?P<to>(?:[\w'’:-]+\s*){1,3})",
    re.IGNORECASE)
_NOT_BEFORE = re.compile(r"\b(?:not|never|no|didn['’]t|did not|won['’]t|wasn['’]t|"
                         r"hasn['’]t|haven['’]t|isn['’]t)\b[^,;]*$", re.IGNORECASE)


# where someone is now, by the place after it: "…your new life here in Leeds!"
_HERE_IN = re.compile(r"\b(?:here|currently|now|still)\s+(?:living\s+|based\s+)?in\s+"
                      r"((?-i:[A-Z])[\w'’-]+)", re.IGNORECASE)


def _here_in_old(answer: str, outdated: AbstractSet[str], fresh: AbstractSet[str]) -> bool:
    """Does a sentence of `answer` put someone "here in", "now in", "still in" the outdated
    place, nothing fresh beside it and no denial ("I'm really glad you're enjoying your new
    life here in Leeds!" to "Do I still live in Leeds?", after the move to York: QA pass
    48e, no line, Leeds being the question's own word)?"""
    return any(facts.terms(m.group(1)) & outdated and not facts.terms(x) & fresh
               and not _denying(x.lower()) for x in facts.sentences(answer)
               for m in _HERE_IN.finditer(x))


_NOW = re.compile(r"\b(?:now|currently|these days|nowadays)\b", re.IGNORECASE)


def _now_old(answer: str, outdated: AbstractSet[str], fresh: AbstractSet[str]) -> bool:
    """Does a clause of `answer` give the `outdated` value as it is "now", nothing `fresh`
    in it and nothing put in the past or denied ("The deadline was extended to 29 April,
    and it's now 15 April.": no line, the new date being in the sentence, QA pass 54b)?"""
    for x in re.split(r"[,;.!?]|\b(?:but|and|while|whereas)\b", answer):
        words = set(WORDS.findall(x.lower().replace("’", "'")))
        if _NOW.search(x) and facts.terms(x) & outdated and not facts.terms(x) & fresh \
                and not words & (TELLS_PAST | DENIES) and not _denying(x.lower()) \
                and not set(facts.stems(" ".join(words))) & (TELLS_CHANGE - _ACTUALLY):
            return True
    return False


def changed_to_old(answer: str, outdated: AbstractSet[str], fresh: AbstractSet[str]) -> bool:
    """Does `answer` tell a change to the `outdated` value, nothing `fresh` beside it and
    no denial before it ("No, Daniel's doctor did switch him to lisinopril.", "…suggested
    switching to lisinopril", after "…switched him to amlodipine instead of lisinopril.":
    QA pass 47, no line; not "switched him from lisinopril to amlodipine", nor "…didn't
    switch him to lisinopril")?"""
    for m in _CHANGED_TO.finditer(answer):
        to = facts.terms(re.split(r"\b(?:from|instead|rather|and|but)\b", m.group("to"),
                                  flags=re.IGNORECASE)[0])
        if to & outdated and not to & fresh and not _NOT_BEFORE.search(
                answer[:m.start()].split(".")[-1]):
            return True
    return False


def repeats_corrected(correction: str, reply: str, old: str) -> bool:
    """Does the `reply` to a `correction` give the value it replaces of the older statement
    `old`: more of what is out of date (as `gives_older` reads it) than of what is new,
    unless every sentence that names the old value puts it in the past or aside ("Monday 15
    March instead of Friday")?  The new value counts here even as the correction said it:
    the reply should repeat it."""
    was = facts.terms(superseded.on_subject(old, correction))
    # (when it changed is no new value: "last" of "…turned 8 last week." in the reply's "last
    # month" tied with its "7th birthday", QA pass 43e)
    value = correction if _WHEN_CHANGED.search(old) else _WHEN_CHANGED.sub(" ", correction)
    now, denied = _told_over(value, was), set(facts.negated(correction)) - \
        facts.still_said(correction)
    outdated = (was & denied) or _kept_numbers(_out_of_date(old, correction, was - now - _WHO),
                                               correction)
    fresh = now - was - denied - TELLS_CHANGE - _people(old, correction)
    # (a list's own numbering is no date: "3. My own family's wedding…" repeated no "3
    # February", QA pass 43d)
    said = facts.terms(_of_others(LIST_MARK.sub(" ", reply), old))
    # (a reply that denies the new value gives the old: "The correct date is 12 April, not
    # 19 April." to "Actually the Rome trip is on 19 April, not 12 April.", QA pass 38c)
    no = set(facts.negated(reply))
    if no & fresh and not no & outdated:
        return bool(said & outdated)
    # (a place or a word said of what the old memory was about: a sentence that names it
    # names something else of that memory too, or whom; not "…their bakery in Seville?" to
    # "I left the pharmacy in Seville; I'm a hospital pharmacist in Cádiz now.", QA pass
    # 47c; an old age or date says what it is of itself: "…our little girl's 7th birthday")
    about = (facts.terms(old) | _people(old, correction)) - outdated - TELLS_CHANGE
    # (the old in a sentence of its own given as now, of what it was about, whatever else
    # the reply says: "Erik and Maja moved from Stockholm to Uppsala… They've been living
    # with their friends in Stockholm ever since…", QA pass 48b)
    as_now = any(_as_now(x, said & outdated, fresh) and facts.terms(x) & about
                 for x in facts.sentences(reply))
    if outdated and outdated <= no and not as_now:
        return False  # (it says it is over too: "Karim has outgrown his sesame allergy." to
        # the news of it, QA pass 45e)
    if changed_to_old(reply, outdated, fresh):  # (the change told back to front: "…his
        return True  # doctor suggested switching to lisinopril…", QA pass 47c)
    told_old, told_new = len(said & outdated), len(said & fresh)
    return (told_old > told_new or as_now) and not _in_the_past(reply, outdated) and (
        any(w[:1].isdigit() for w in said & outdated) or any(
            facts.terms(x) & outdated and facts.terms(x) & about for x in facts.sentences(reply)))


def _people(old: str, new: str) -> set[str]:
    """Whom `old` and `new` speak of, as terms: no new value ("Erik" of "Erik moved from
    Oslo to Stavanger." once "My son Erik is a doctor in Oslo." is replaced only in its
    town, since 0.36)."""
    return {facts.stem(w) for w in (facts.who(old) | facts.who(new)) - {facts.SELF}}


def changed_by(old: str, new: str) -> set[str]:
    """The terms of the older statement `old` that the newer `new` puts out of date (an
    old age, place or job, as `_out_of_date` reads it; "from Cardiff" in the newer one
    is still the old place)."""
    return _out_of_date(old, new, facts.terms(old) - _WHO)


def _of_others(answer: str, old: str, message: str = "") -> str:
    """`answer` less the sentences in which the model speaks of itself, naming no one `old`
    tells of, when `old` tells of others, not the user ("I actually do live in Oslo now." and
    "…visit me in Oslo" are no older news of "My son Erik is a doctor in Oslo.", QA pass
    43f); asked of someone else (`message`), less every sentence naming none of them nor
    "he" or "she" ("…its capital city Oslo" to "Where do I live?", QA pass 43h)."""
    whom = facts.who(old)
    if facts.SELF in whom or not whom:
        return answer
    named = {facts.stem(w) for w in whom}
    other = bool(message) and not facts.terms(message) & named
    # ("he" is then whom the message names: "Yes, he goes on Tuesdays." to "Does Arjun go
    # to nursery on Tuesdays?" gave no older news of "My carer Joan comes on Tuesdays…",
    # QA pass 54c)
    he_other = other and bool(facts.who(message) - {facts.SELF})
    return " ".join(s for s in facts.sentences(answer)
                    if (not _SPEAKER.search(s) or facts.terms(s) & named) and not (
                        other and not facts.terms(s) & named and (
                            he_other or not _HE_SHE.search(s))))


# a clause with a subject of its own that names no one ("the rent is £950 a month.")
_OWN_CLAUSE = re.compile(r"the\s+[a-z]+\s+(?:is|are|was|were|costs?)\b")
_HE_SHE = re.compile(r"\b(?:he|she|him|her|his|they|them|their)\b", re.IGNORECASE)


_SPEAKER = re.compile(r"\b(?:I|I['’](?:m|ve|d|ll)|(?i:me|my|myself))\b")
_UNIT = r"(?:years?|months?|weeks?|days?|hours?|minutes?|mins?|miles?|km|kg|%|percent)\b"


def _numbers_when(text: str) -> set[str]:
    """The numbers of the dates and times `text` gives ("Sunday 20 March" → {"20"})."""
    return {w for m in re.finditer(WHEN_SAID, text, re.IGNORECASE)
            for w in facts.NUMBER.findall(m.group(0))}


def _out_of_date(old: str, new: str, only_old: set[str]) -> set[str]:
    """Of what only the old memory says (`only_old`), what the newer `new` puts out of
    date: not whom the old one names ("Chloe's son Oscar is 4…" after "Actually Oscar is 5
    now." is no older news of Chloe, nor is "he's allergic to tree nuts": QA pass 41d); for
    an age told anew only the old age, for a move only the old place, for a new job only
    the old job and employer ("Hi, I'm Ben Harper, a postman in Norwich." is still his name
    and home, QA pass 41)."""
    out = only_old - {facts.stem(n) for n in facts.who(old) - {facts.SELF}}
    if _AGE_NOW.search(new):
        kept = {w for w in out if w.isdigit()}
    elif superseded.TIME_CHANGE.search(new):  # (a plan moved: only its old time, not "hospital" of "I
        # have a hospital appointment on 14 January…" after "…moved to 21 January.", QA
        # pass 41e read "…a hospital appointment today!" as repeating the old one)
        # (a clock time only when the new one gives one: "The physio moved to Thursday."
        # keeps "at 15:00")
        clock = bool(_CLOCK.search(new))
        kept = out & facts.terms(" ".join(m.group(0) for m in re.finditer(WHEN_SAID, old,
                                                                          re.IGNORECASE)
                                          if clock or not _CLOCK.search(m.group(0))))
    elif _MOVED.search(new):
        kept = out & facts.terms(" ".join(PLACE.findall(old)))
    elif _JOB_CHANGE.search(new):
        kept = out & facts.terms(" ".join(g for m in _JOB_PHRASE.finditer(old)
                                          for g in m.groups() if g))
    else:
        kept = out
    return kept or out


def _told_over(new: str, was: AbstractSet[str]) -> set[str]:
    """The terms of what `new` tells over the outdated `was`: its parts that share a term
    with it, not the rest of a longer message (QA pass 36: "…my colleague Will is coming
    with me." beside the new date counted as new, so a reply that gave the old date and
    named Will gave as much new as old)."""
    parts = [t for t in map(facts.terms, superseded.told_parts(new)) if t & was]
    return set().union(*parts) if parts else facts.terms(new)


def _kept_numbers(outdated: set[str], correction: str) -> set[str]:
    """What is out of date, less the words of a plan ("appointment") and, when the
    correction gives no time of day, the old one: "The physio moved to Thursday." moves the
    day, and "15:00" still holds (QA pass 33b: a reply that kept it was said to repeat what
    was corrected)."""
    if any(":" in n for n in facts.NUMBER.findall(correction)):
        return outdated - facts.PLAN_WORDS
    times = {w for w in outdated if ":" in w}  # ("15:00", and its "15" and "00")
    return outdated - facts.PLAN_WORDS - times - {p for t in times for p in t.split(":")}


def _in_the_past(answer: str, outdated: AbstractSet[str],
                 past: AbstractSet[str] = TELLS_PAST) -> bool:
    """Does `answer` put the `outdated` value in the past wherever it says it: each of its
    sentences that name it says "was", "used to", "before"… (`past`: `TELLS_PAST`; or
    `DENIES`, for a value that was never so)?  A past word elsewhere proves nothing ("She
    was born in Lyon. She moved to Ghent, where she lives now." gives Ghent as now)."""
    naming = [x for x in facts.sentences(answer) if facts.terms(x) & outdated]
    # ("7 years old" is an age, not "my old job": QA pass 43g, "Zara is 7 years old." after
    # "Zara turned 8 last week." had no line)
    return bool(naming) and all(
        set(re.findall(r"[a-z]+", _AGE_OLD.sub(" ", x.lower()))) & past for x in naming)


def _as_now(answer: str, old: AbstractSet[str], fresh: AbstractSet[str]) -> bool:
    """Does a sentence of `answer` say `old` terms in the present ("I'm", "is", "lives"…),
    with no `fresh` term, nothing that puts it in the past or tells a change, and no
    denial?"""
    for x in facts.sentences(answer):
        words = set(WORDS.findall(x.lower().replace("’", "'")))
        if _PRESENT.search(x) and facts.terms(x) & old and not facts.terms(x) & fresh \
                and not words & (TELLS_PAST | DENIES) and not _denying(x.lower()) \
                and not set(facts.stems(" ".join(words))) & (TELLS_CHANGE - _ACTUALLY) \
                and "?" not in x:  # ("The flight is actually on 3 November.", QA pass 44d)
            return True
    return False


_ACTUALLY = frozenset(facts.stems("actually"))
_CARERS = frozenset(facts.stems(" ".join(CARERS)))
_WEEKDAYS = frozenset(facts.stems(" ".join(DAYS[:-1]))) | frozenset(facts.stems(" ".join(
    f"{d}s" for d in DAYS[:-1])))
_PRESENT = re.compile(r"\b(?:i['’]m|am|is|are|you['’]re|he['’]s|she['’]s|it['’]s|lives|works|"
                      r"loving|still|(?:have|has|['’]ve)\s+been\s+(?:living|working|based))\b",
                      re.IGNORECASE)


_AGE_OLD = re.compile(r"\b(?:years?|months?|weeks?|days?|yrs?)[- ]old\b")


# how an answer denies a value ("is not from Ghana", "isn't", "never")
DENIES = frozenset("not never isn wasn aren weren rather instead".split())


def _mixed_up(new: str, denied: AbstractSet[str]) -> bool:
    """Does the correction `new` deny the `denied` terms outright: no clause that names them
    tells a change ("moved", "no longer", "any more", "instead", `facts.tells_change`)?"""
    # (the sentence's: "The Seville trip is now in June, not May." tells a change, pass
    # 41b's persona: "It was in May, but now it's in June." read as older news)
    naming = [c for c in facts.sentences(new) if facts.terms(c) & denied]
    return bool(naming) and not any(_CHANGED.search(c) for c in naming)


_CHANGED = re.compile(r"\b(?:now|no longer|any ?more|moved|changed|switched|instead|these days|"
                      r"nowadays|rescheduled|postponed|pushed back|brought forward)\b",
                      re.IGNORECASE)


__all__ = ["DENIES", "PLACE", "WORDS", "TELLS_CHANGE", "TELLS_PAST", "agrees", "changed_to_old",
           "gives_older", "opens_with_yes",
           "holds_asked", "repeats_corrected", "says_yes_or_no", "yes_no_asks"]
