"""What of an older statement a newer one supersedes: the things a statement tells
(`told_parts`: sentences, and clauses with a subject of their own), which of them a
correction or change replaces (`on_subject`), and what the corrections of a statement
leave true (`still_true`), for the list of what the user told, the note under a
correction, the checks under answers and what a forget keeps."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from .doses import medicine_doses
from .facts import (
    CHANGE_STEMS,
    SELF,
    SENTENCE_BREAK,
    TIME_STEMS,
    change_kinds,
    negated,
    news_of_plan,
    of_another_kind,
    says_kind,
    stems,
    terms,
    who,
)
from .timewords import DAY, MONTH, WHEN_SAID, WHEN_TO
from .words import one_line

# where a statement parts into the things it tells: sentence ends, a colon before a capital,
# semicolons, and "and" or "but" before a subject of the user's own ("… in Leeds, and my mum
# Grace lives in Bradford"; not "salt and pepper", nor "… and she hates the rain", which
# speaks of what came before), or before "he is" and the like, what someone is ("My brother
# Tomek lives in Krakow and he is vegetarian.": a move leaves the diet true, QA pass 38c)
# (and a second thing said of the same subject: "My sister Ngozi lives in Lagos and works
# as a doctor." after "Ngozi moved from Lagos to Accra." still says she is a doctor, QA
# pass 42d)
# what is said of a subject named before ("… and works as a doctor", "… and teaches at a
# primary school", QA pass 42g: a move made the teaching older news too)
# (and an allergy or a diet, QA pass 44b: "Arjun turned 7 last week." made "Our grandson
# Arjun is 6 and has a tree nut allergy." older news whole, the allergy still so)
# what someone is, said bare after "and": "…is 7 and allergic to peanuts"
_STATE = r"(?:allergic|intolerant|vegetarian|vegan|coeliac|celiac|pescatarian)"
_PREDICATE = (r"(?:(?:works?|worked|is|was)\s+(?:as|a|an|at|for)|teach(?:es)?|runs?\s+(?:a|an|the)|"
              # (a home after a job: "…is a pilot and lives in Lagos", QA pass 45: it was cut
              # at "in Lagos", "…is a pilot and lives." still holding)
              r"lives\s+in|"
              # (a medicine after a condition: "…has high blood pressure and takes
              # lisinopril", QA pass 47a: the switch of the medicine replaced it whole)
              # ("…on a renal diet and takes a tablet called Semintra", QA pass 55a)
              r"takes\s+(?!(?:part|care|place|time|after)\b|(?:a|an|the)\s+(?!(?:tablet|"
              r"pill|capsule|medicine|dose)\b))|"
              r"studies|(?:has|have)\s+(?:(?:a|an)\s+)?(?:[\w-]+\s+){0,3}?(?:allergy|intolerance|"
              r"diabetes|disease|epilepsy|asthma)|"
              # (bare after an age: "Our daughter Amara is 7 and allergic to peanuts", QA
              # pass 45: "Amara turned 8 yesterday." replaced the allergy too)
              rf"(?:(?:is|are)\s+)?{_STATE})\b")
# another one going on in the same sentence: ", and Kabir has asthma", " - he uses…" (QA
# pass 52a: "…Meera … allergic to peanuts, and Kabir has asthma - he uses a blue inhaler"
# was one thing, replaced whole by Kabir's new inhaler, Meera's allergy with it)
_DOSE = r"\d+(?:\.\d+)?\s*(?:mg|mcg|µg|micrograms?|milligrams?|units?|ml)"
OTHER_ONE = (r"(?-i:[A-Z])[\w'’-]+\s+(?:has|is|uses|takes|plays|can|does|eats|loves|hates|gets|"
             r"was|had|works|lives)\b")
# where a sentence goes on to another one: "Meera … is allergic to peanuts, and Kabir has
# asthma - he uses…", "; she…" (`cautions.caution_of_others`)
OTHER_CLAUSE = re.compile(rf",\s*(?:and|but)\s+(?={OTHER_ONE})|\s+[-–—]\s+|\s*;\s*")
_PARTS = re.compile(rf"{SENTENCE_BREAK}|(?<=:)\s+(?-i:(?=[A-Z]))|\s*;\s*|,?\s+(?:and|but)\s+"
                    r"(?=(?:my|i|i'm|i’m|we|we're|we’re|our)\b|(?:he|she|they)(?:\s+(?:is|are|"
                    rf"was|were)|['’](?:s|re))\b|{_PREDICATE})|,\s*(?:and|but)\s+(?={OTHER_ONE})"
                    rf"|\s+[-–—]\s+(?=(?:he|she|they|i|we|my|our)\b|{OTHER_ONE})"
                    # (one medicine and its dose after another's: "I take NovoRapid with meals,
                    # about 6 units, and Lantus 18 units at night.", QA pass 54b: the Lantus
                    # raised made the NovoRapid older news)
                    rf"|,\s*(?:and|but)\s+(?=(?:(?-i:[A-Z])[\w'’-]+\s+)?{_DOSE}\b)"
                    # (a thing of its own after: "My landlord is called Mr Okafor and the rent
                    # is £950 a month.", QA pass 55c: the rent raised replaced the landlord)
                    r"|,?\s+(?:and|but)\s+(?=the\s+[a-z]+\s+(?:is|was|costs?)\b)", re.I)


# a self-introduction tells who, what and where: "Hi, I'm Priya Nair, a software engineer
# in Manchester." (QA pass 43: a move replaced the name and the job with the city)
_NAME = r"(?-i:[A-Z])[\w'’-]*"
_INTRO = re.compile(rf"(?:.*?\b(?:i['’]m|i am|my name is|my name['’]s)\s+{_NAME}(?:\s+{_NAME}){{0,2}})"
                    r"(,\s+(?:a|an)\s+[^,.;!?]+?)??(,?\s+(?:(?:living|based)\s+)?in\s+"
                    rf"(?!{MONTH}\b){_NAME}(?:\s+{_NAME})*)?\s*[.!?]?", re.I)
# … and so does a job said with its town: "Our daughter Anjali is a dentist in Birmingham."
# (QA pass 44: a move made it older news whole, and "Anjali is a teacher." went unmarked)
_JOB_IN = re.compile(rf".*?\b(?:is|works\s+as)\s+(?:a|an)\s+(?:(?!\b(?:at|for|and|lives)\b)[^,.;!?])+?(\s+(?:(?:living|based)\s+)?"
                     rf"in\s+(?!{MONTH}\b){_NAME}(?:\s+{_NAME})*)\s*[.!?]?", re.I)
_AT_WORK = re.compile(r"\b(?:at|for)\s", re.I)
# what the parts of an introduction say, read as statements of their own
_READ_AS = ((re.compile(r"(?=(?:a|an)\s)", re.I), "I am "), (re.compile(
    r"(?:(?:living|based)\s+)?(?=in\s)", re.I), "I live "))


def _part_spans(text: str) -> list[tuple[int, int]]:
    """Where each of `text`'s parts (`_PARTS`, `told_parts`) starts and ends in it; an
    introduction's name, job and home each one (`_INTRO`)."""
    spans, at = [], 0
    for m in [*_PARTS.finditer(text), None]:
        end = m.start() if m else len(text)
        a, b = at, end
        while a < b and text[a] in " ,;":
            a += 1
        while b > a and text[b - 1] in " ,;":
            b -= 1
        if a < b and text[b - 1] != ":":  # (a lead-in: "A bit about us:")
            intro = _INTRO.fullmatch(text, a, b)
            job_in = None if intro else _JOB_IN.fullmatch(text, a, b)
            # (a town after a workplace is the workplace's: "…, a ward nurse at St James's
            # hospital in Leeds." tells no home, QA pass 44: a move read "I live in Leeds.")
            at_work = bool(intro and intro.group(1) and _AT_WORK.search(intro.group(1)))
            cuts = sorted({a, b, *(intro.start(g) for g in (1, 2) if intro and intro.group(g)
                                   and not (g == 2 and at_work)),
                           *([job_in.start(1)] if job_in else [])})
            spans += [(x + len(text[x:y]) - len(text[x:y].lstrip(" ,")), y)
                      for x, y in zip(cuts, cuts[1:], strict=False)]
        at = m.end() if m else at
    # (a subject of its own is no part: "Tom and I moved to Stirling…" is one thing, QA
    # pass 44c quoted "I moved to Stirling in the summer.")
    for k in range(len(spans) - 2, -1, -1):
        if _BARE_SUBJECT.fullmatch(text, *spans[k]):
            spans[k:k + 2] = [(spans[k][0], spans[k + 1][1])]
    return spans


_BARE_SUBJECT = re.compile(r"(?:(?:my|our)\s+[a-z]+\s+)?(?-i:[A-Z])[\w'’-]*|(?:my|our)\s+[a-z]+",
                           re.I)


def _reading(part: str, before: str = "") -> str:
    """`part` as a statement of its own: an introduction's "a software engineer" reads "I
    am a software engineer", its "in Manchester" "I live in Manchester"; after a part
    `before` of someone else's ("Our daughter Anjali is a dentist"), "in Birmingham"
    reads "Our daughter Anjali lives in Birmingham"."""
    who = _SUBJECT.match(before) if before and not _INTRO.match(before) else None
    return next((f"{say if who is None else who.group(1) + (' is ' if say == 'I am ' else ' lives ')}"
                 f"{rx.sub('', part, count=1)}" for rx, say in _READ_AS if rx.match(part)),
                part)


def told_parts(text: str) -> list[str]:
    """The things `text` tells, in order (`_PARTS`), a lead-in ("A bit about us:") left
    out."""
    text = one_line(text or "")  # (a note's heading: "Felix — Felix turns ten…")
    return [text[a:b] for a, b in _part_spans(text)]


def as_said(parts: Iterable[str]) -> str:
    """`parts` (of `told_parts`) as sentences of their own: "my mum Grace lives in
    Bradford" -> "My mum Grace lives in Bradford."."""
    return " ".join(p[:1].upper() + p[1:] + ("" if p.endswith((".", "!", "?", "…")) else ".")
                    for p in (p.strip() for p in parts) if p)


def _replaced(old: str, new: str) -> list[bool]:
    """For each part of `old` (`told_parts`), whether the correction `new` replaces it: for
    a change of a kind (`change_kinds`: "Kari moved to Oslo."), the parts that said that
    kind of thing ("She lives in Tromso…", not "My sister Kari is a lawyer."; QA pass 31b;
    "We live in Leeds", not "and my mum Grace lives in Bradford" beside it, pass 32b);
    else those that share a word with `new`."""
    parts = told_parts(old)
    kinds = change_kinds(old, new)
    if kinds:
        return [any(says_kind(k, _reading(x), new) for k in kinds) and not _of_others(x, new)
                for x in parts]
    # what the correction says is no longer so, where a part says it ("…, not 3 July":
    # the dentist's sentence, not the haircut's "10 am", QA pass 32)
    denied = set(negated(new))
    hits = [bool(terms(x) & denied) for x in parts]
    if any(hits):
        return hits
    # (a new dose, of the parts naming that medicine: "The vet has put Biscuit's Semintra
    # up to 1.5 ml daily." replaced "My cat Biscuit has kidney disease." too, QA pass 55a)
    dosed = set(medicine_doses(new))
    if dosed and any(dosed & set(medicine_doses(x)) for x in parts):
        return [bool(dosed & set(medicine_doses(x))) for x in parts]
    now = terms(new) - UNIT_TERMS  # (a dose's unit is no subject: "…20 units.", 54b)
    # (nor a clock time's parts: "…my PB is now 3:19…" is no news of "…on 19 April.", 55e)
    now -= {p for t in now if ":" in t for p in t.split(":")}
    return [bool(terms(x) & now) for x in parts]


UNIT_TERMS = terms("mg mcg µg micrograms milligrams units unit ml dose doses")


def _of_others(part: str, new: str) -> bool:
    """Is `part` about others than the change `new` tells, one of them the user and the
    other not ("…, and my mum Grace lives in Bradford" is no home of "We now live in
    York.")?"""
    said_of, told_of = who(part), who(new)
    return bool(said_of and told_of and not said_of & told_of
                and (SELF in said_of) != (SELF in told_of))


def on_subject(old: str, new: str, shown: bool = False) -> str:
    """The parts of the older statement `old` that the newer `new` replaces (`_replaced`:
    "Hi! My name is Ines." is not replaced by "Actually Karel is now a surgeon."), in the
    user's words (parts next to each other as one, others joined by " … "); `old` whole
    when none is.  `shown`: as a note quotes it, a part of an introduction after whose it
    is ("Hi, I'm Priya Nair … in Manchester.", not "in Manchester.", QA pass 43c)."""
    said = one_line(old or "")
    spans = _part_spans(said)
    runs: list[list[int]] = []  # [start, end, index of the last part]
    for k, ((a, b), hit) in enumerate(zip(spans, _replaced(old, new))):
        if hit and runs and runs[-1][2] == k - 1:
            runs[-1][1:] = [b, k]
        elif hit:
            runs.append([a, b, k])
    if shown and runs and runs[0][0] != spans[0][0] and _reading(said[runs[0][0]:runs[0][1]]) \
            != said[runs[0][0]:runs[0][1]]:
        runs.insert(0, [*spans[0], 0])
    # (a part that goes on from its subject is quoted from the start of its sentence:
    # "Noted as a correction of “takes lisinopril.”", QA pass 47c)
    # (… or from the part before it that names whom: "Kabir has asthma - he uses a blue
    # inhaler", not Meera's allergy before it, QA pass 52a)
    if shown and runs and said[runs[0][0]:runs[0][0] + 1].islower():
        a = runs[0][0]
        start = max([0, *(said.rfind(p, 0, a) + len(p) for p in (". ", "! ", "? ")
                          if said.rfind(p, 0, a) >= 0)])
        runs[0][0] = max([start, *(x for x, _ in spans if start < x < a and said[x].isupper())])
    return " … ".join(said[a:b] for a, b, _ in runs) if runs else old


def off_subject(old: str, new: str) -> str:
    """What of `old` the correction `new` leaves true: its parts it does not replace
    (`_replaced`), when it replaces some other ("Hi! My name is Ines." of "Hi! My name is
    Ines. My brother Karel is a dentist." after "Actually Karel is now a surgeon."); ""
    when the correction is about all of it."""
    return still_true(old, [new])


def kept_parts(old: str, news: Iterable[str]) -> list[str]:
    """The parts of `old` (`told_parts`) the corrections `news` leave true, each replacing
    its own parts (QA pass 32: of a paragraph whose haircut, dentist and home were each
    corrected, only the newest correction was weighed); [] when one is about all of it."""
    parts = told_parts(old)
    hit = [False] * len(parts)
    for new in news:
        replaced = _replaced(old, new)
        if not any(replaced):
            return []  # (of all of it)
        hit = [a or b for a, b in zip(hit, replaced, strict=True)]
    # (what is said of the same subject after "and" is kept with its subject: "My sister
    # Ngozi works as a doctor.", not "Works as a doctor."; an introduction's parts with the
    # one before them: "Hi, I'm Priya Nair, a software engineer.", or read as said alone:
    # "Hi, I'm Priya Nair. I live in Manchester.")
    kept: list[str] = []
    spans, text = _part_spans(one_line(old or "")), one_line(old or "")
    for k, (x, h) in enumerate(zip(parts, hit, strict=True)):
        if h:
            continue
        if k and kept and not hit[k - 1] and _reading(x) == x and _NO_SUBJECT.match(x):
            # (both kept: as they were said, "Our daughter Chloe is 34 and vegetarian.")
            kept[-1] += text[spans[k - 1][1]:spans[k][1]]
        elif k and _reading(x) != x and kept and not hit[k - 1]:
            kept[-1] = f"{kept[-1].rstrip('.')}{',' if x[:1] in 'aA' else ''} {x}"
        else:
            kept.append(part_alone(parts, k))
    return kept


def part_alone(parts: Sequence[str], k: int) -> str:
    """`parts[k]` (of `told_parts`) as a statement of its own, its subject said: "in
    Utrecht." after "My brother Karel is a dentist" reads "My brother Karel lives in
    Utrecht."; "works as a doctor." after "My sister Ngozi lives in Lagos" reads "My sister
    Ngozi works as a doctor."."""
    x = parts[k]
    if _reading(x) != x:
        return _reading(x, parts[k - 1] if k else "")
    return _with_subject(x, parts[k - 1]) if k and _NO_SUBJECT.match(x) else x


_NO_SUBJECT = re.compile(_PREDICATE, re.I)
_SUBJECT = re.compile(r"\s*((?:(?:my|our)\s+[a-z]+\s+)?(?-i:[A-Z])[\w'’-]*|i|we)\b", re.I)


def _with_subject(part: str, before: str) -> str:
    """`part` with the subject of the part `before` it ("works as a doctor." after "My
    sister Ngozi lives in Lagos" → "My sister Ngozi works as a doctor.")."""
    m = _SUBJECT.match(before)
    if not m:
        return part
    who = m.group(1)
    if not _BARE.match(part):
        return f"{who} {part}"
    who = re.sub(r"['’](?:m|re)$", "", who)  # ("I'm 30 and allergic to nuts")
    return f"{who} {({'i': 'am', 'we': 'are'}).get(who.lower(), 'is')} {part}"


# a part that says what its subject is without "is": "allergic to peanuts"
_BARE = re.compile(rf"\s*{_STATE}\b", re.I)


def still_true(old: str, news: Iterable[str]) -> str:
    """What of `old` the corrections `news` leave true (`kept_parts`), as sentences; ""
    when one is about all of it, or nothing is left."""
    kept = kept_parts(old, news)
    return as_said(kept) if kept and len(kept) < len(told_parts(old)) else ""


def still_part(old: str, news: Sequence[str]) -> dict[str, str]:
    """``{"still_true": …}``: what of memory `old` the newer memories that replace it
    (`news`: the one it is shown after, and every other correction of it) leave true, when
    they correct only a part of it (the why-recalled panel tells it); else {}.  QA pass
    42g: "…lives in London and teaches at a primary school." was still "partly" true after
    a move and a new post, each of its own part."""
    rest = still_true(old, news) if news else ""
    return {"still_true": rest} if rest else {}


def replaced_line(newer: int, rest: str | None) -> str:
    """The why-recalled panel's line for a memory the newer memory #`newer` replaces, in
    part when `rest` (what still holds) is given.  QA pass 41e: "Replaced by the newer memory
    #14: shown after it" of one the lists called "(partly older news)", listed before #14."""
    if rest:
        stop = "" if rest.rstrip()[-1:] in (".", "!", "?") else "."
        return (f"Corrected in part by the newer memory #{newer}; the rest still holds: "
                f"“{rest}”{stop} The model is given it after that one, marked as partly older "
                "news.")
    return (f"Replaced by the newer memory #{newer}: the model is given it after that one, "
            "marked as older news.")


def newer_line(ids: list[int], in_part: Iterable[int] = ()) -> str:
    """The why-recalled panel's line for a memory newer than the memories `ids` it replaces
    (those in `in_part` only in part), in the chat's words: the older one is kept, shown after
    it, marked as older news (QA pass 42c/42d: "this one wins and the older one is marked as
    replaced", and "Newer than #11, #12, which says …")."""
    part = set(in_part) & set(ids)
    one = len(ids) == 1
    what = "partly older news" if part == set(ids) else "older news"
    if part and part != set(ids):
        what += f" ({_names(sorted(part))} only in part)"
    return (f"Newer than {_names(ids)}, which {'says' if one else 'say'} something else about "
            f"the same thing: the model is given this one first and "
            f"{'that one' if one else 'those'} right after it, kept and marked as {what}.")


def _names(ids: list[int]) -> str:
    """``#11``, ``#11 and #12``, ``#3, #11 and #12``."""
    tags = [f"#{i}" for i in ids]
    return tags[0] if len(tags) == 1 else ", ".join(tags[:-1]) + " and " + tags[-1]


def lasting(old: str, new: str) -> bool:
    """Is `old` no old state of what the news `new` changed: it says other kinds of thing
    that change (`facts.of_another_kind`: a job is no old state of a move), or what a move
    or a new job leaves as it was, an allergy, a diet, a condition, a medicine, a birthday
    ("Tom is allergic to shellfish." was marked older news beside "Tom left the tapas bar,
    he's now head chef…", QA pass 42c)?"""
    return of_another_kind(old, new) or bool(_LASTING.search(old))


_LASTING = re.compile(r"\b(?:allerg\w*|intoleran\w*|coeliac|celiac|vegan|vegetarian|pescatarian|"
                      r"diabet\w*|teetotal\w*|medication|medicine|warfarin|insulin|birthday|"
                      r"born)\b", re.IGNORECASE)


def untimed(old: str, new: str) -> bool:
    """Is `new` news of when a plan is, and `old` says no time at all ("I'm learning
    Portuguese for the trip." is no old date of "The Lisbon trip is now in September, not
    August.": QA pass 42d saw it greyed as replaced)?"""
    return bool(news_of_plan(old, new) or TIME_CHANGE.search(new)) and not re.search(
        WHEN_SAID, old, re.IGNORECASE)


# a plan's time changed: "… is now in September, not August.", "… moved to Friday", "…
# moved to 21 January" (`older_news` reads only the old time as out of date then)
# (a few words between, no place: "They moved it again, to Friday.", QA pass 52 read its
# kept "3pm" as older news)
_MOVED_VERB = (r"(?:moved|postponed|rescheduled|changed|pushed|delayed|shifted|brought|switched|extended|"
               r"put(?:\s+(?:it|that|them))?\s+off)")  # ("I've switched my food bank day to…", 53c)
TIME_CHANGE = re.compile(
    rf"\b(?:(?:is\s+now|['’]s\s+now|now)\s+|{_MOVED_VERB}\s+)(?:back\s+|forward\s+)?(?:to\s+|on\s+|in\s+|"
    rf"until\s+|for\s+|at\s+)?{WHEN_TO}"
    # (a few words between, then to what: not "We moved house last weekend, …", a move's day)
    rf"|\b{_MOVED_VERB}\s+(?:(?!(?:to|from|in|into|out|last|this|next)\b)[\w'’-]+,?\s+){{1,4}}?"
    rf"(?:back\s+|forward\s+)?(?:to|on|until|till|for|at)\s+{WHEN_TO}"
    rf"|\bnot\s+(?:on\s+|in\s+)?(?:{MONTH}|{DAY})\b", re.IGNORECASE)


def of_it_only(text: str) -> bool:
    """Does the correction `text` give a new time or number of "it" and name nothing it is
    about ("Actually they rang again, it's back to 12 May after all.", "Actually it's on
    Friday now.")?  Then it is of what the user said just before (QA pass 50b: it
    corrected nothing, and "12 May" read as older news of "The dentist moved it to 19
    May.")."""
    # (or whoever moved "it": "The salon moved it to 11 June.", QA pass 50e)
    moved = _MOVED_IT.search(text)
    said = terms(text[moved.end():] if moved else text)
    return bool(moved or _OF_IT.search(text)) and any(
        w[:1].isdigit() or w in TIME_STEMS for w in said) and not {
        w for w in said - TIME_STEMS - CHANGE_STEMS - _UNSAID if not w[:1].isdigit()}


def of_it_after(kept: dict[int, list[int]], a: int, b: int, old: str, new: str) -> bool:
    """Is memory `b` (words `new`) a correction of "it" recorded after memory `a` (words
    `old`), directly or through the ones between (`kept`: `Store.recorded_corrections`),
    and not one that brings back what `a` said (`restores`)?  "They moved it again, to
    Friday." after "Actually it's been moved to Thursday." replaces "…on Tuesday at 3pm."
    too (QA pass 52: the Tuesday memory was listed unmarked beside it)."""
    seen, todo = set(), list(kept.get(a, ()))
    while todo and b not in seen:
        c = todo.pop()
        if c not in seen:
            seen.add(c)
            todo.extend(kept.get(c, ()))
    return b in kept.get(a, ()) or b in seen and not restores(new, old)


def restores(text: str, old: str) -> bool:
    """Does the correction `text` bring back what the older statement `old` said: every
    time or number it gives is `old`'s ("It's back to 12 May after all." and "My hip
    operation is on 12 May.", after "…moved it to 11 June.": QA pass 51 saw the 12 May
    memory listed "(older news)" under the very message that restored it)?"""
    said = {w for w in terms(text) - _UNSAID if w[:1].isdigit() or w in TIME_STEMS}
    return bool(said) and said <= terms(old)


def mark_restored(message: str, corrects: list[dict], recalls: list[dict]) -> None:
    """Add to each correction of `corrects` (``stats["corrects"]``) the recalled memories
    (``stats["memories"]``) it had replaced and `message` brings back (`restores`), as
    ``"restores"``: no older news under its reply (`sources.answer_sources`)."""
    for c in corrects:
        back = [r["episode_id"] for r in recalls if r.get("extra", {}).get("superseded_by")
                == c["episode_id"] and restores(message, r["text"])]
        if back:
            c["restores"] = back


_OF_IT = re.compile(r"\bit(?:['’]s|\s+(?:is|was|has been|will be|moved|got (?:moved|pushed|"
                    r"delayed|postponed|changed|rescheduled|shifted|brought|put)))\b",
                    re.IGNORECASE)
_MOVED_IT = re.compile(r"\b(?:moved|changed|pushed|put|brought|rescheduled|shifted)\s+it\b",
                       re.IGNORECASE)
# the words of such a correction that say what it is, not what it is about
_UNSAID = frozenset(stems("actually correction meant sorry scratch rang rung called phoned "
                          "texted emailed back again after all said told moved changed "
                          "pushed delayed postponed rescheduled shifted brought forward put "
                          "off"))
