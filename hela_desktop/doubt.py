"""Why an answer should be checked before it is relied on (Qt-free): `answer_doubt` reads
an answer against its message, the memories in its prompt and the user's cautions, and
says what it found; `sources.doubt_note` words it for the line under the answer."""

from __future__ import annotations

import functools
import re
import time
from collections.abc import Callable, Iterable, Sequence
from collections.abc import Set as AbstractSet

from . import facts, food_groups, superseded
from .allergy_of import as_claim, given_to_another, kind_said
from .cautions import (
    CAUTION_GATE,
    Caution,
    asked_foods,
    asks_any_allergy,
    asks_for_food,
    caution_of_others,
    for_household,
    heeded,
    missed,
    offered,
    part_naming,
)
from .doses import dose_left_out, dosed, is_dose
from .events import Recall
from .gave_up import ASKING, affirms_stopped, gave_up
from .gave_up import current as _current
from .language import opens_with_no
from .life_news import of_people, tells_of_life
from .made_up import addressed_as, alive_again, death_untold, made_up, signed_as
from .older_news import (
    DENIES,
    DRUG,
    PLACE,
    TELLS_CHANGE,
    WORDS,
    agrees,
    changed_by,
    gives_older,
    holds_asked,
    opens_with_yes,
    repeats_corrected,
    says_yes_or_no,
    yes_no_asks,
)
from .opposites import opposite
from .passed_over import days_told, dose_told, naming_part, own_told, passed_over, pointed_part
from .places_of import place_of_another
from .prompt import said_when
from .says_of import (
    called_animal,
    first_named,
    gives_asked,
    jobs_said,
    kind_told,
    leaves_out,
    named_otherwise,
    says_not,
    says_otherwise,
    you_are,
)
from .taken_back import says_taken
from .timewords import DATE_NAME, WHEN_SAID, days_of_months, wrong_today
from .whom import (
    as_them,
    as_user,
    greets_as,
    invented,
    misattributed,
    misnamed,
    misplaced,
    misrelated,
    name_left_out,
    other_person,
)
from .words import folded
from .your_own import asks_own, tells_own

# a question for when something is: "Which month is our Lisbon trip?", "When is …?"
# a question of how much of something, asked where a memory gives a dose: the doses an
# advice's answer gives are checked too ("How many puffs of the blue one should I take?"
# answered "Use 100 micrograms of adrenaline in each puff.", QA pass 54a)
_ASKS_DOSE = re.compile(r"\bhow\s+(?:much|many)\b|\bdos(?:e|age)s?\b", re.IGNORECASE)
_DOSE_ASKING = frozenset(facts.stems("how much many dose doses dosage take should can could "
                                     "may need day daily"))
_ASKS_WHEN = re.compile(r"\b(?:when|months?|weekdays?|dates?|days?|nights?|week|year|time|"
                        # (QA pass 54a: "What days does Arjun go to nursery?", "Does he go on
                        # Tuesday?": a weekday never told went unmarked)
                        r"(?:mon|tues|wednes|thurs|fri|satur|sun)days?)\b", re.IGNORECASE)


def answer_doubt(message: str, answer: str, recalled: Iterable[Recall],
                 drew_on: AbstractSet[int],
                 names: Callable[[str], AbstractSet[str]] | None = None,
                 known: str = "", now: float | None = None, stopped: bool = False,
                 user_names: AbstractSet[str] = frozenset(),
                 untold: Sequence[str] = (), cautions: Sequence[Caution] = (),
                 unrecalled: bool = False,
                 corrected: Sequence[tuple[int, str]] = (), cut: bool = False,
                 own_names: Sequence[str] = (), ills: Sequence[str] = (),
                 taken: Sequence[tuple[str, str]] = (),
                 replaced: Sequence[tuple[int, str, int]] = ()) -> dict | None:
    """Why an answer should be checked before it is relied on, from what it says and what
    its prompt held (None: nothing says so):

    - ``{"kind": "caution", "memory": id, "said": …, "words": [...]}`` (and
      ``"also_memory"``, ``"also_said"``: the others against the same words): it names what one
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
      to Porto.", both in the prompt, the newer first; QA passes 24 to 26), or one
      `replaced` (old id, its words, the newer id) not recalled (pass 51: "11 June" of
      "The dentist moved it to 11 June." after "It's back to 12 May after all.");
    - ``{"kind": "made_up", "words": [...], "unused": bool}`` (and ``"memory"``, ``"said"``:
      the statement the question points at, `passed_over.pointed_part`): a question for something
      the user told (`facts.asks_user_fact`; not a request for ideas) answered with names
      or numbers that neither the message, nor the memories in the prompt (with their
      dates), nor `known` (the user's earlier messages of the chat), nor `user_names`
      (every name the user writes) say (`made_up`: "Which
      town do we live in now?" → "We live in the town of Ponsonby, which is a suburb of
      Manchester.", `bench personal`); ``unused`` when the answer also used none of them;
    - ``{"kind": "ill_untold", "said": [...]}``: it says the user has an illness no memory
      of theirs tells (`ills`, `medicines.ills_said`: "You've been diagnosed with diabetes").
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
    - ``{"kind": "taken_back", "name": …, "memory": id, "said": …}``: it gives a name the
      user took back as they wrote (`taken`: (name, the message as meant),
      `taken_back.says_taken`);
    - ``{"kind": "affirms_stopped", "memory": id, "said": …}``: a yes to whether they do
      what a recalled memory says they gave up ("Do I smoke?", "I quit smoking…");
    - ``{"kind": "denies_told", "memory": id, "said": …}``: a flat no to a yes-or-no
      question a recalled memory says yes to in its every word (`_denies_told`);
    - ``{"kind": "not_known", "memory": id, "said": …}``: it says it does not know what a
      recalled memory tells (`_not_known`);
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
    this year" went unmarked when stopped).  `own_names`: the names the user gave as
    theirs in any statement (an answer calling itself by one speaks as them)."""
    if not answer.strip():
        return None
    if names is not None:  # (each check reads the people of the same texts: once each)
        names = functools.lru_cache(maxsize=64)(names)
    # every sign, the first the strongest (`doubt_note` says all): what the user must not
    # eat or drink, named without a word against it, first of all, recalled or not
    # (each memory's: QA pass 39b, "Suggest a dessert for the family" offered peanut butter
    # beside Dev's nut allergy, and only Sam's sugar caution was said)
    found = _offered(answer, cautions, message, names)
    # … or, asked what someone must not eat, left out ("What is Kwame allergic to?" →
    # "…the hazelnut", QA pass 38); asked whether they may have it, what was asked ("it
    # does not say no to “champagne”", QA pass 45c)
    # (of what was asked, the sentence that says why: "…ramipril 5 mg…, and I'm allergic to
    # penicillin." was cut before the penicillin, QA pass 53c)
    found += [{"kind": "caution_missed", "memory": c.episode_id, "said": part_naming(
        c._replace(text=kind_said(c, message)), w) if (w := asked_foods(message, c))
        else kind_said(c, message), **({"words": w} if w else {})}
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
        # (that of the part asked about first: "Is Piotr a chef?" read "“Piotr moved to
        # Warsaw in the summer.” is newer", "Piotr quit cooking…" told, QA pass 46d)
        asked_terms = facts.terms(message)
        news = sorted((b for b in (newer, *(r.extra.get("corrected_also") or ())) if b in by_id),
                      key=lambda b: not facts.terms(superseded.on_subject(
                          r.text, by_id[b].text)) & asked_terms)
        given = next((b for b in news if gives_older(message, answer, r.text, by_id[b].text)),
                     None) if newer is not None else None
        # (not older than what the message has just corrected: "…is newer" beside "it
        # repeats what you have just corrected" of the same memory, QA pass 45d; "Scratch
        # that…, it's back on Monday the 14th after all." answered "…it's Monday the 14th
        # after all." read "“…moved it to Wednesday the 16th.” is newer", QA pass 46a)
        if given is not None and given not in {int(i) for i, _ in corrected}:
            found.append({"kind": "older", "newer": int(given), "older": int(r.episode_id)})
            break
    found += [{"kind": "older", "newer": n, "older": o} for o, t, n in replaced
              if n in by_id and not any(d["kind"] == "older" for d in found)
              and gives_older(message, answer, t, by_id[n].text)][:1]
    if stopped:
        return _with_also(found)
    # (once: `names` reads the store; or of their household or a thing of theirs a memory
    # tells, "How old are the boys?", "When is the Seville trip?": QA pass 41c, "It's in
    # July." had no line, the trip told in June)
    own = _of_theirs(message, mems)
    about_user = facts.asks_about_user(message, names) or own
    # (the reply to a message telling of someone, against the message too: "Leah is
    # actually a hairstylist" to "My sister Leah is a nurse.", QA passes 38 and 39c; it is
    # no memory yet, memory 0)
    found += _contradicted(message, answer, mems, found, yours=own_names) if about_user else \
        _contradicted(message, answer, mems, found, told=True, yours=own_names) \
        if tells_of_life(message, names) else []
    # one person's allergy or diet given to another ("Noor … is allergic to eggs.", the
    # egg allergy Zain's: QA pass 40d), first of all (QA pass 41d), of what still holds (an
    # allergy outgrown is none: QA pass 46d)
    held = [(r.episode_id, r.extra.get("still_true") or (
        "" if "superseded_by" in r.extra else r.text)) for r in mems]
    given = (given_to_another(as_claim(message, answer, names), [(i, t) for i, t in held if t], names)
             or _allergy_untold(message, answer, mems, names)) \
        if names is not None and not any(d["kind"] == "caution" for d in found) else None
    found[:0] = [given] if given else []
    if ills:  # (an illness of the user's no memory tells: "You've been diagnosed with
        # diabetes", QA pass 48b, `medicines.ills_said`)
        found.append({"kind": "ill_untold", "said": [str(w) for w in ills]})
    if untold and about_user:
        found.append({"kind": "untold", "who": [str(w) for w in untold]})
    else:
        # (a question for a name: the name given says most, QA pass 36: "It's Biscuit!"
        # read as speaking of another once a pet became someone of the user's life)
        # (a card or letter asked for is written in the user's voice, of their life: "My
        # brother Dan, the bravest firefighter in Norwich: happy birthday! Love, Ben", QA
        # pass 40e, read as speaking as the user, and as giving Dan the user's city)
        writes = bool(_WRITE_FOR_ME.search(message))
        swapped = (misnamed(message, answer, mems, names) or named_otherwise(message, answer, mems)
                   or other_person(message, answer, mems, names)
                   or (None if writes else misattributed(message, answer, mems, names)
                       or (place_of_another(message, answer, mems, names) if names else None)
                       or as_them(message, answer, mems, names))) \
            if about_user else (misplaced(message, answer, mems, names)
                                or _told(misattributed(message, answer, mems, names))) \
            if tells_of_life(message, names) else None
        # (speaking as the user is said beside another sign, not hidden by it: QA pass 44,
        # "I'm Sofia Marchetti from Leeds. I was just talking with your dad…" read only
        # "it says of him what you told me of yourself")
        speaks = None if writes else as_user(message, answer, mems, own_names)
        # (a card opening on another's name: "Dear Yuvraj," for Arjun, QA passes 48a, 49b)
        card = addressed_as(message, answer, user_names) if writes else None
        swapped = swapped or (signed_as(answer, own_names) if writes else None) or misrelated(
            answer, mems) or (None if writes else greets_as(message, answer, mems, names, own_names))
        found += [d for d in (swapped, card, speaks) if d is not None]
    back = [d for d in [says_taken(answer, taken, mems)] if d]  # (said once, as taken back)
    found = [d for d in found if not any(d.get("name") == b["name"] for b in back)] + back
    # (first, beside any other sign: "…nothing wrong with smoking. …bacon…", QA pass 49e)
    found[:0] = [t] if about_user and (t := affirms_stopped(message, answer, mems)) else []
    asks_fact = about_user and facts.asks_user_fact(message, (lambda _s: {"_"}) if own
                                                    else names)  # (any ask, not for ideas)
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
        and any(holds_asked(message, r.text) for r in mems)) and not (
        # (an answer that says it was never told is honest where no memory speaks of what
        # was asked: "I don't know how old Lucy is.", no age told for her, QA pass 40e)
        _NOT_TOLD.search(whole) and not _tells_asked(message, mems, names)) and not (
        # (a no to whether they do what they gave up rests on it: "No, I don't smoke.", 49c)
        opens_with_no(whole) and gave_up(message, mems)) and not any(
        # (a no to a food a caution names, or its "gluten-free", rests on it, QA pass 50e)
        c.episode_id in by_id and (heeded(whole, c, message) or set(food_groups.KEPT_OUT.findall(
            whole.lower())) & c.avoid) for c in cautions) and not (
        # (the job, age or pet's kind asked, given in other words: "She's a lawyer.")
        # (older news too: a move leaves the job told with it, "Hollie is a veterinarian.")
        gives_asked(message, whole, [(r.episode_id, r.text) for r in mems]))
    # a question for what the user told; a message that tells of their life, or corrects
    # what they told (QA pass 32: "The haircut moved to Wednesday at 4 pm." names no one,
    # and its reply's "…tomorrow morning at 2:30 pm!" went unchecked), recalled or not
    checked = whole if asks_fact else \
        of_people(whole) if corrected or tells_of_life(message, names) else \
        dosed(whole) if _ASKS_DOSE.search(message) and any(facts.terms(dosed(
            r.text)) & facts.terms(message) - _DOSE_ASKING for r in mems) else ""
    if checked:
        at = time.time() if now is None else now
        dated = [f"{r.text} {said_when(r.extra.get('created_at'), at)}"  # (knowledge too)
                 for r in recalled if r.text]
        # (a yes to what the question itself says proves nothing: "Is Solveig 10 years
        # old?" answered "Yes, Solveig is 10 years old.", she being 8, QA pass 37)
        # (not to whether someone may have a food: "Snickers" of "Can Kofi have a Snickers
        # bar?" is no fact to prove, QA pass 42f read it as made up; the cautions weigh it)
        says_yes = agrees(message, whole) and not asks_for_food(message)
        # (its words written in lower case are no names: "Hummus is made from chickpeas."
        # to "Can Rosie have hummus?", QA pass 40e)
        asked = " ".join(re.findall(r"(?<![\w'’])[a-z][\w'’-]*", message)) if says_yes \
            else message
        words = made_up(checked, " ".join([asked, known, *dated]), user_names,
                        dates=asks_fact and bool(_ASKS_WHEN.search(message)))
        # a yes takes on what the question says: "Is my mum 75?" answered "Yes.", she being
        # 72, went unmarked (QA pass 37c r17); what no memory says, it says
        yes = not words and says_yes and opens_with_yes(whole)
        if yes:
            words = made_up(" ".join(yes_no_asks(message)), " ".join([known, *dated]),
                            user_names)
        # (not what another sign says already: "it says your mum is 75, and you told me…")
        words = [w for w in words if not any(w in (d.get("said"), d.get("name")) for d in found)]
        # (what was told, not given; or given with a wrong dose: "50 mg" of "…50 micrograms")
        # (or a day, of whom it asks: "Tuesday" of "…nursery on Mondays, Wednesdays…", 54a)
        day = any(map(DATE_NAME.fullmatch, words))
        point = next((t for t in [pointed_part(message, mems) or (
            days_told(naming_part(message, mems), mems) if day else None) or own_told(
            message, mems) or (dose_told(message, mems, _DOSE_ASKING) if any(
                map(is_dose, words)) else None)] if t and (
            t[0] not in drew_on and not any(map(is_dose, words)) or day or any(map(
            is_dose, words)) and facts.terms(t[1]) & facts.terms(message) - _DOSE_ASKING)), None) \
            if words and (asks_fact or _ASKS_DOSE.search(message)) else None
        if words:
            found.append({"kind": "made_up", "words": words, "unused": unused,
                          **({"yes": True} if yes else {}),
                          **({"memory": point[0], "said": point[1]} if point else {})})
    # (the message's own death too, told right now: "Magnus is celebrating his 30th
    # birthday" in the reply to "My best friend Magnus died in 2021.", QA pass 45b)
    found = _invented(whole, f"{message}\n{known}", user_names | (
        names(whole) if names is not None else set()), found, _addressee(message),
        [*([(0, message)] if facts.is_statement(message) else []),
         *((r.episode_id, r.text) for r in mems)])
    # (the user by their own name is "you": "it says Nowak died" of Marek Nowak, 46d)
    own_words = {w.lower() for n in own_names for w in n.split()}
    found = [{**d, "name": "you"} if d["kind"] == "death_untold"
             and str(d.get("name", "")).lower() in own_words else d for d in found]
    # (a day it says today is, and is not: "Today, 3 March.", the due date, QA pass 53b)
    found += [t] if (t := wrong_today(whole, now)) else []
    # (open where it was told closed, of the same day: "We're open on Mondays.", QA pass 54d;
    # a yes says what the question does)
    found += [o] if (o := opposite(f"{message} {whole}" if opens_with_yes(whole) else whole, [
        (r.episode_id, r.text) for r in mems if r.extra.get("superseded_by") is None])) else []
    if not found:  # (a subtler fault: only when nothing else was found)
        found += _subtler(message, whole, mems, about_user, asks_fact, names)
    # (softly for ideas: QA pass 35, "suggest a snack …"; not for a card or letter asked
    # for, whose words are the user's to choose: "Dear Lucy, happy birthday! Love, Ben",
    # QA pass 41)
    if unused and not found and (asks_fact or not _WRITE_FOR_ME.search(message)):
        point = pointed_part(message, mems) or naming_part(message, mems) if asks_fact else None
        found.append({"kind": "unused", **({} if asks_fact else {"ideas": True}),
                      **({"memory": point[0], "said": point[1]} if point else {})})
    return _with_also(found)


# (QA pass 39c: "It seems so, 71 is a special day… You've got it right!" to "Is my dad 71?"
# read "it uses none of the memories")
_YES_WORD = re.compile(r"\b(?:yes|(?:it )?seems so|i think so|got it right|you(?:['’]re| are) "
                       r"right|that['’]s (?:right|correct))\b", re.IGNORECASE)
# an answer that says it does not know, or was never told
# ("…we're still waiting to know if Oscar's allergic to tree nuts. In fact, we don't have
# any information about his allergy yet.", QA pass 41e)
# (not "I'm not sure I'd recommend it", QA pass 42g: a doubt of its own, no "I don't know")
_NOT_TOLD = re.compile(r"\b(?:i (?:don['’]t|do not|didn['’]t|can['’]t) (?:know|say|tell)|"
                       # ("Hello, I'm not familiar with your midwife.", QA pass 47b)
                       r"i(?:['’]m| am) not (?:familiar with|aware of)|i(?:['’]m| am) "
                       r"not sure(?=\s*(?:[.,;:!?]|$|what|when|where|who|which|how|if|whether|"
                       r"about|of)\b|\s*[.,;:!?]|\s*$)|no idea|(?:haven['’]t|have not|never|didn['’]t|did not) "
                       r"(?:told|mentioned|said|shared)|(?:i|we) (?:don['’]t|do not) have "
                       r"(?:that|this|any|the|enough) (?:information|detail|record)|"
                       r"\bno (?:information|details?|record)\b|(?:still )?waiting to (?:know|"
                       r"find out|hear)\b)", re.IGNORECASE)


def _tells_asked(message: str, mems: Sequence[Recall],
                 names: Callable[[str], AbstractSet[str]] | None) -> bool:
    """Does a memory of `mems` say a word `message` asks, besides whom it asks about
    ("Where does Lucy work?" of "Lucy works at Hale & Co."; not "How old is Lucy?" of "My
    partner Lucy is a solicitor.")?"""
    who = facts.terms(" ".join(names(message) if names is not None else ()))
    asked = facts.terms(message) - who - facts.terms(" ".join(facts.KIN_WORDS))
    return any(asked & facts.terms(r.text) for r in mems)


# a request to write something in the user's own voice
_WRITE_FOR_ME = re.compile(r"\b(?:write|draft|compose|pen|help me (?:write|word))\b[^.?!]*\b(?:card|"
                           r"letter|note|message|email|e-mail|toast|speech|post|text|invitation|"
                           r"invite|reply|poem|tribute|eulogy|caption)s?\b", re.IGNORECASE)


def _of_theirs(message: str, mems: Sequence[Recall]) -> bool:
    """Does a question of `message` ask about the user's household ("the boys", "the
    family") or about a thing of theirs that a recalled statement tells, two words or more
    of it with a name ("the Seville trip" of "The Seville trip is now in June, not May."),
    or when it is, the statement giving a time ("When is parents evening?", QA pass 52a)?"""
    asks = [q for q in facts.sentences(message) if q.rstrip().endswith("?")]
    told = [(facts.terms(r.text), r.text) for r in mems if r.extra.get("statement")]
    # (or "the baby": "When is the baby due?", QA pass 49a, "…the baby is due in March.")
    return any(for_household(q) or len(t := facts.terms(q) - ASKING) >= 2 and any(t <= m and (
        bool(re.search(r"(?<!^)(?<![.!?]\s)\b[A-Z]|\bthe\s+baby\b", q.strip())) or re.match(
            _OPENS_WHEN, q, re.I) and re.search(WHEN_SAID, x, re.I)) for m, x in told) for q in asks)


_OPENS_WHEN = r"\s*(?:when|(?:what|which)(?:['’]s|\s+is)?\s+(?:the\s+)?(?:day|date|time|month)s?)\b"


def _denies_told(message: str, answer: str, mems: Sequence[Recall]) -> dict | None:
    """``{"kind": "denies_told", "memory": id, "said": …}`` when `answer` says no to a
    yes-or-no question of `message` whose every word a recalled memory, not older news,
    says in one sentence and does not deny (QA pass 38: "Is Abena a pharmacist?" answered
    "No, I'm sorry.", "My wife Abena is a pharmacist…" told, read only as "it uses none of
    the memories"; 50c: "My sister is called Kavita. Kavya is my cousin." says no Kavya
    is a sister)."""
    if not opens_with_no(answer):
        return None
    return next(({"kind": "denies_told", "memory": int(r.episode_id), "said": r.text}
                 for r in _current(mems) if any(  # (not of the other state: "…closed on
                     # Mondays." to "Are we open on Mondays?", QA pass 54d)
                     holds_asked(message, s) and not opposite(message, [(0, s)])
                     for s in facts.sentences(r.text))), None)


def _not_known(message: str, answer: str, mems: Sequence[Recall],
               names: Callable[[str], AbstractSet[str]] | None) -> dict | None:
    """``{"kind": "not_known", "memory": id, "said": …}`` when `answer` says it does not
    know, or was never told, what a recalled memory tells: every word of a yes-or-no
    question ("Is Oscar allergic to tree nuts?" answered "…we don't have any information
    about his allergy yet", QA pass 41e), or the job, age or pet's kind asked, or every
    word asked of someone that memory names ("How old is Chloe?" → "I don't know how old
    Chloe is.", "Our daughter Chloe is 34…" told).  Older news is no such memory, except
    where what it says asked is not what changed (the allergy beside an age told anew)."""
    if not _NOT_TOLD.search(answer):
        return None
    by_id = {r.episode_id: r for r in mems}
    who = facts.terms(" ".join(names(message) if names is not None else ()))
    asked = facts.terms(message) - who - facts.terms(" ".join(facts.KIN_WORDS)) - ASKING
    yes_no = bool(yes_no_asks(message))
    for r in mems:
        told = facts.terms(r.text)
        holds = yes_no and holds_asked(message, r.text)
        kind = kind_told(message, [(r.episode_id, r.text)])
        if not (holds or kind or not yes_no and asked and asked <= told and (
                not who or bool(who & told))):
            continue
        if r.extra.get("superseded_by") is not None:
            newer = by_id.get(r.extra["superseded_by"])
            changed = changed_by(r.text, newer.text) if newer is not None else told
            if not (holds and not asked & changed or kind and not kind & changed):
                continue
        return {"kind": "not_known", "memory": int(r.episode_id), "said": r.text}
    return None


def _offered(answer: str, cautions: Sequence[Caution], message: str,
             names: Callable[[str], AbstractSet[str]] | None) -> list[dict]:
    """A caution line for each statement whose food `answer` offers (`cautions.offered`),
    once for one statement however often it was said (QA pass 42 saw "I'm lactose
    intolerant myself." quoted three times), with ``"yes"`` when the words are the
    question's only ("Yes, …" to "Can Oscar eat pesto?", not "it names “pesto”", QA pass
    41e); not the name of a person or animal of the user's life written as one (`names`,
    or one the message calls so: "Biscuit! … Biscuits are a popular breed", the beagle,
    read as biscuits for a coeliac: QA pass 42d; a food the user wrote with a capital,
    "Snickers", is still a food, QA pass 42f)."""
    named = {facts.stem(n.lower()) for n in [*(names(answer) if names is not None else ()),
                                     *(names(message) if names is not None else ()),
                                     *_CALLED.findall(message)]}
    out: dict[str, dict] = {}
    for c in reversed(cautions):
        words = [w for w in offered(answer, c, message) if facts.stem(w) not in named or re.search(
            rf"(?<!\w)(?-i:{re.escape(w.lower())})(?!\w)", answer)]
        if words:
            out[" ".join(c.text.split()).lower()] = {
                "kind": "caution", "memory": c.episode_id, "said": part_naming(c, words),
                "words": words,
                **({} if any(re.search(rf"(?<!\w){re.escape(w)}(?!\w)", answer, re.IGNORECASE)
                             for w in words) else {"yes": True})}
    # (two memories against the same words, one line quoting both: "…“wine”…, and you told
    # me “…on warfarin…” and “Sam stopped drinking alcohol two years ago.”", QA pass 48c)
    merged: dict[tuple[str, ...], dict] = {}
    for d in list(out.values())[::-1]:
        key = tuple(d["words"]) + (("yes",) if d.get("yes") else ())
        if key in merged:
            merged[key].setdefault("also_said", []).append(d["said"])
            merged[key].setdefault("also_memory", []).append(d["memory"])
        else:
            merged[key] = d
    return list(merged.values())


_CALLED = re.compile(r"\b(?:called|named)\s+([A-Z][\w'’-]+)")


def _allergy_untold(message: str, answer: str, mems: Sequence[Recall],
                    names: Callable[[str], AbstractSet[str]]) -> dict | None:
    """``{"kind": "allergy_untold", "name": "Chloe"}`` when asked whether someone of the
    user's life has any allergy, `answer` says yes, and no recalled memory tells of one of
    theirs (QA pass 42: "Does Chloe have any allergies?" → "Yes, Chloe does have some
    allergies…", the nut allergy her son Oscar's)."""
    who = names(message)
    if len(who) != 1 or not asks_any_allergy(message) or not opens_with_yes(answer):
        return None
    name = next(iter(who))
    # (a diet is no allergy: "Chloe is 34 and vegetarian")
    if any(c[0] and re.search(r"allerg|intoleran|coeliac|celiac", c[1], re.IGNORECASE)
           for r in mems if (c := caution_of_others(r.text, {name}))):
        return None
    said = re.search(rf"\b{re.escape(name)}\b", message, re.IGNORECASE)
    called = said.group(0) if said else name
    return {"kind": "allergy_untold", "name": f"your {called[3:]}" if called.lower().startswith(
        "my ") else called}


def _contradicted(message: str, answer: str, mems: Sequence[Recall],
                  found: list[dict], told: bool = False, yours: Sequence[str] = ()) -> list[dict]:
    """What the answer says someone is against what a recalled memory, not older news, says
    (`says_of.says_otherwise`: "she is an amazing doctor" of Abena the pharmacist, QA pass
    38); not when it gives older news (`found`): that says why.  `told`: `message` tells
    (not asks), and is read first, as memory 0."""
    if any(d.get("kind") == "older" for d in found):
        return []
    current = [(0, message)] * told + [(r.episode_id, r.text) for r in _current(mems)]
    # (and what a memory replaced in part still says: "My sister Ama lives in Accra and she
    # is a nurse." after "Ama moved from Accra to London.", QA pass 39b: "Ama is not a
    # nurse" had no line)
    texts = {r.episode_id: r.text for r in mems}
    parts = {r.episode_id: rest for r in mems if (newer := r.extra.get("superseded_by",
                                                                         r.extra.get("older_than")))
             is not None and newer in texts
             and (rest := r.extra.get("still_true", "") if "corrected_also" in r.extra
                  else superseded.still_true(r.text, [texts[newer]]))}
    asked = first_named(message)
    got = (says_otherwise(answer, current + [(i, parts[i]) for i in parts], asked, message)
           or called_animal(answer, current, yours)
           or says_not(answer, current + [(i, texts[i]) for i in parts], asked, message,
                       parts)
           or you_are(answer, [(i, t) for i, t in current if tells_own(t, "job")],
                      asks_own(message) == "job",
                      [t for t in texts.values() if tells_own(t, "job")])) \
        if current or parts else None
    return [{**got, "told": True} if told else got] if got else []


def _addressee(message: str) -> str:
    """Whom "you" is in the answer: the one a card or letter asked for is written to
    ("Write a short birthday message for Ama": "Ama"), else the user ("you")."""
    # (or to "my brother Vikram": QA pass 44d, a birthday card to a brother who died)
    m = re.search(r"\b(?:for|to)\s+(?:(?i:my|our)\s+[a-z]+\s+)?([A-Z][\w'’-]+)", message) \
        if _WRITE_FOR_ME.search(message) else None
    return re.sub(r"['’]s$", "", m.group(1)) if m else "you"


def _invented(answer: str, known: str, names: AbstractSet[str], found: list[dict],
              you: str = "you", texts: Sequence[tuple[int, str]] = ()) -> list[dict]:
    """`found`, with a relation or friend by a name the user never wrote (`whom.invented`:
    "…with your friend Sarah and me.", QA pass 39c), unless another sign names it already,
    and a death no memory tells, first after what must not be eaten: graver than what else
    the answer gets wrong (`made_up.death_untold`: "Chloe's son Oscar (who died last month)
    was 4.", QA pass 41e)."""
    new = invented(answer, known, names)
    found = found + ([new] if new and not any(new["name"] in (d.get("words") or ())
                                              for d in found) else [])
    # (or one told of spoken of as living: "…we celebrated Kwame's 25th birthday.", QA
    # pass 42g, Kwame having passed away)
    # (the memories given count as told, not only the prompt's text: "When was Kwame died?"
    # to "When did Kwame die?", his death recalled, read "you never told me so" in the
    # window)
    died = death_untold(answer, "\n".join([known, *(t for _, t in texts)]), names, you) \
        or alive_again(answer, list(texts), names, you)
    if died:
        found.insert(sum(1 for d in found if d["kind"] == "caution"), died)
    return found


def _subtler(message: str, answer: str, mems: Sequence[Recall], about_user: bool,
             asks_fact: bool, names: Callable[[str], AbstractSet[str]] | None) -> list[dict]:
    """The subtler faults of an answer in which nothing else was found: a flat no to what
    the user told (`_denies_told`), or, to a question for what they told, a job, age,
    pet's kind or name a memory gives and the answer does not (`says_of.leaves_out`,
    `whom.name_left_out`), or an answer
    from another memory than the only one that holds the question's words
    (`passed_over`)."""
    got = (_denies_told(message, answer, mems) or _not_known(message, answer, mems, names)) \
        if about_user else None
    got = got or _news_left_out(message, answer, mems)
    if got is None and asks_fact:  # (a job, an age, a pet's kind or a name asked, not given)
        current = _current(mems)
        pairs = [(r.episode_id, r.text) for r in current]
        got = leaves_out(message, answer, pairs) or dose_left_out(message, answer, pairs) \
            or name_left_out(message, answer, current, names) \
            or _date_left_out(message, answer, current) \
            or _place_left_out(message, answer, current) \
            or _own_left_out(message, answer, current) \
            or passed_over(message, answer, mems)
    if got is None and not asks_fact:  # ("What day is choir?" names no one of the user's
        # life, and a memory holds its every word: "I sing in the church choir every Sunday.")
        got = _date_left_out(message, answer, _current(mems)) \
            or _place_left_out(message, answer, _current(mems)) or dose_left_out(
                message, answer, [(r.episode_id, r.text) for r in _current(mems)])
    return [got] if got else []


_BEFORE = re.compile(r"\b(?:before|used to|previously|originally|grew up|born|last year)\b", re.I)
_OF_SELF = re.compile(r"\b(?:i|we|my|our|me|us)\b", re.IGNORECASE)
def _place_left_out(message: str, answer: str, current: Sequence[Recall]) -> dict | None:
    """``{"kind": "left_out", …}`` when asked where someone or something is, `answer`
    names none of the places a current memory holding every word asked gives (QA pass
    43: "Where does my mum live?" answered "Lakshmi, the wife of the family's leader",
    "My mum Lakshmi lives in Kochi." told, had no line)."""
    if not re.match(r"\s*where\b", message, re.IGNORECASE) or _BEFORE.search(message):
        return None  # (where someone lived before is no current memory's)
    asked, said = facts.terms(message) - ASKING, answer.lower()
    # (of whom it asks: "Where do I live?" is not "My mum … lives in Kochi.")
    whom = facts.who(message) or ({facts.SELF} if _OF_SELF.search(message) else set())
    # (a move tells where one lives, and "Dan and I" is the user: QA pass 44, "Where do I
    # live?" answered with a link, "Dan and I moved to Harrogate last month." told)
    return next(({"kind": "left_out", "memory": int(r.episode_id), "said": r.text}
                 for r in current if asked and asked <= facts.terms(r.text) | (
                     _LIVE if _MOVED_TO.search(r.text) else set())
                 and whom <= facts.who(r.text) | ({facts.SELF} if _I_WE.search(r.text) else set())
                 and (places := [p for x in PLACE.findall(r.text)
                                 if (p := x.strip(" .")).lower() not in facts.NOT_NAMES])
                 and not any(p.lower() in said for p in places)), None)


def _news_left_out(message: str, answer: str, mems: Sequence[Recall]) -> dict | None:
    """``{"kind": "left_out", …}`` of the newer memory when asked yes or no of what it
    replaced (the older one holds every word asked: `holds_asked`), `answer` says neither
    yes nor no, and nothing of what is new (QA pass 43h: "Is Freya 12?" answered "The
    message is a classic example of a grammatical error…", "Freya is 13 now." told, read
    as older news, a reply of nothing taken for a yes)."""
    # (a no in a sentence of what was asked, or a short one: not "…many have never heard
    # before" beside "He is a true hero…" to "Is Arjun 12?", QA pass 46a)
    asked = facts.terms(" ".join(asks := yes_no_asks(message)))
    if not asks or agrees(message, answer) or opens_with_no(answer) or any(
            set(WORDS.findall(s.lower())) & (DENIES | {"n't"})
            for s in facts.sentences(answer) if facts.terms(s) & asked or len(s.split()) <= 4):
        return None
    by_id, said = {r.episode_id: r for r in mems}, facts.terms(answer)
    for r in mems:
        news = [n for b in (r.extra.get("superseded_by"), *(r.extra.get("corrected_also") or ()))
                if (n := by_id.get(b)) is not None]
        if not news or not holds_asked(message, r.text):
            continue
        # of several corrections, the one of the part asked about (QA pass 45e: "Is Karim
        # 6?" read "it leaves out …: “Good news: Karim has outgrown his sesame allergy.”",
        # "Karim turned 7 on Saturday." told too)
        new = next((n for n in news if holds_asked(message, superseded.on_subject(r.text, n.text))),
                   news[0])
        if not said & (facts.terms(new.text) - facts.terms(r.text) - TELLS_CHANGE):
            return {"kind": "left_out", "memory": int(new.episode_id), "said": new.text}
    return None


_LIVE = frozenset(facts.stems("live"))
_MOVED_TO = re.compile(r"\b(?:moved|relocated)\s+(?:back\s+|house\s+)?to\b", re.IGNORECASE)
_I_WE = re.compile(r"\b(?:I|[Ww]e)\b")


def _own_left_out(message: str, answer: str, current: Sequence[Recall]) -> dict | None:
    """``{"kind": "left_out", …}`` when asked their own job ("What did I do for a
    living?") or medicine ("What medicine do I take?"), `answer` names none of what a
    current memory of theirs tells (QA pass 44b: "…I'm enjoying life in Leicester…" to
    the retired accountant, and "…your brother Vikram is well." to the one on
    allopurinol, had no line)."""
    said = facts.terms(answer)
    if asks_own(message) == "job":
        told = [(r, jobs_said(r.text))
                for r in current if tells_own(r.text, "job")]
    elif _ASKS_MEDICINE.search(message):
        told = [(r, {m.group("drug").lower() for m in _ON_MEDICINE.finditer(r.text)})
                for r in current if _FIRST_PERSON.search(r.text)]
    else:
        return None
    # (any of them given is no job left out; else the newest is quoted: "You are a mechanic
    # now." of Ben, a postman joining a bike shop as a mechanic, test_qa_pass40)
    told = [(r, words) for r, words in told if words]
    if not told or any(set(facts.stems(" ".join(words))) & said for _, words in told):
        return None
    # (asked where, the place of work given is no job left out: "Where do I work?" answered
    # "Cádiz, a very busy city in Spain…", "…I'm a hospital pharmacist in Cádiz now."
    # told, QA pass 47a)
    if re.match(r"\s*where\b", message, re.IGNORECASE) and any(
            folded(p.strip(" .").lower()) in folded(answer.lower())
            for r, _ in told for p in PLACE.findall(r.text)):
        return None
    r = max(told, key=lambda t: t[0].episode_id)[0]
    return {"kind": "left_out", "memory": int(r.episode_id), "said": r.text}


_ASKS_MEDICINE = re.compile(r"\bwhat\s+(?:medicines?|medications?|meds|pills|tablets|drugs?)\s+"
                            r"(?:do|did|am|should)\s+i\s+(?:take|taking|on|have)\b", re.IGNORECASE)
# a medicine someone takes, by its name ("take allopurinol", "on sertraline")
_ON_MEDICINE = re.compile(r"\b(?:take|takes|taking|on|prescribed)\s+(?:(?:a|an|some|my|daily|"
                          rf"low-dose)\s+)?(?P<drug>{DRUG})\b", re.IGNORECASE)
_FIRST_PERSON = re.compile(r"\b(?:i|i['’]m|i['’]ve|me|my)\b", re.IGNORECASE)


def _date_left_out(message: str, answer: str, current: Sequence[Recall]) -> dict | None:
    """``{"kind": "left_out", …}`` when asked when something is, `answer` gives no day,
    date or time at all, and a current memory holding every word asked gives one (QA pass
    42c: "When is Tom's birthday?" answered with no date, "Tom's birthday is on 18
    February." told, had no line; "What day is choir?" too, QA pass 42g).  One naming
    only days or months that memory does not is ``{"kind": "made_up", …}`` ("What day is
    badminton?" answered "Today is Monday.", "I play badminton on Thursdays." told, QA
    pass 43c)."""
    if not re.match(_OPENS_WHEN, message, re.IGNORECASE):
        return None
    days = [d for d in DATE_NAME.findall(answer) if d[:1].isupper() or d not in ("may", "march")]
    if days and not re.search(r"\d", answer):
        asked = facts.terms(message) - ASKING
        # (every memory of it: "…in April." and "Actually … in May, not April.")
        told = " ".join(r.text.lower() for r in current if asked and asked <= facts.terms(r.text)
                        and DATE_NAME.search(r.text))
        return {"kind": "made_up", "words": list(dict.fromkeys(days)), "unused": False} if told \
            and not any(re.match(rf"{d.lower().rstrip('s')}s?\b", w.lower()) for d in days
                        for w in DATE_NAME.findall(told)) else None
    # (a number of hours or miles is no day: "…not available for a 24-hour reminder. What's
    # the date…?" to "When is my dad's birthday?", QA pass 47b, had no line)
    asked = facts.terms(message) - ASKING
    if re.search(WHEN_SAID, answer, re.IGNORECASE) or re.search(
            r"\d(?![\d.,:]*[\s-]*(?:years?|months?|weeks?|hours?|minutes?|mins?|miles?|km|kg|%|"
            r"percent)\b)", answer):
        # (only another plan's dates: "On 17 December, you're due…", the appointment's, to
        # "When am I due?", "Due on 3 March." told; QA pass 53b had only made-up numbers)
        gives = days_of_months(answer)
        holding = [(r, dated) for r in current if asked and asked <= facts.terms(r.text)
                   and (dated := days_of_months(r.text))]
        return {"kind": "left_out", "memory": int(holding[0][0].episode_id),
                "said": holding[0][0].text} \
            if gives and len(holding) == 1 and not gives & holding[0][1] else None
    return next(({"kind": "left_out", "memory": int(r.episode_id), "said": r.text}
                 for r in current if asked and asked <= facts.terms(r.text)
                 and re.search(WHEN_SAID, r.text, re.IGNORECASE)), None)


def _told(doubt: dict | None) -> dict | None:
    """A doubt of the reply to a message that tells (not asks) of someone: its note says
    "you told me of", not "you asked about"."""
    return {**doubt, "told": True} if doubt is not None else None


def _with_also(found: list[dict]) -> dict | None:
    """The first of an answer's doubts, the others under ``"also"`` (QA pass 30: a made-up
    surname went unnamed beside the older-news warning); None for none.  A caution left
    out or named, of a memory the answer denies, is said once, as denied ("it says Sam does
    not have a type 1 diabetes…"; "Eric is not allergic to milk", QA pass 40c)."""
    # (and "it says yes, and you told me “I gave up drinking whisky…”" once, not as a caution too)
    denied = {d.get("memory") for d in found
              if d["kind"] in ("says_not", "denies_told", "affirms_stopped")}
    found = [d for d in found if d["kind"] not in ("caution_missed", "caution")
             or d["memory"] not in denied]
    # (one person's allergy given to another is said once: "it says of Jan “allergic to
    # shellfish”…" and "…it says of Jan what you told me of Zofia…", QA pass 46b)
    given = {d.get("memory") for d in found if d["kind"] == "allergy_of"}
    found = [d for d in found if d["kind"] != "misattributed" or d.get("memory") not in given]
    if not found:
        return None
    return {**found[0], "also": found[1:]} if len(found) > 1 else found[0]
