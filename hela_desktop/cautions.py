"""What the user told HeLa they must not eat or drink, and answers that offer it anyway
(Qt-free).  QA pass 31: a small model does not know a prawn is shellfish; the app does,
and says so under the answer (`doubt.answer_doubt`, kind "caution").

- **What counts as a caution.**  A statement of the user's own ("I …"), or one about
  someone the message asks about ("What could I bake for Aoife?" and "Aoife is
  vegetarian…", QA pass 36): an allergy or intolerance, "I can't / don't / never eat (or
  drink) …", a diet, a condition or a medicine (`medicines`), sober for good.  What it
  names is matched by its own words and, for a group (shellfish, nuts, dairy, gluten…), by
  the group's common foods (`GROUPS`).
- **What an answer must not do.**  Name one of them in a clause that says nothing against
  it ("You can definitely eat prawn paella" is doubted; "Skip the prawns." is not).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from collections.abc import Set as AbstractSet
from typing import NamedTuple

from . import facts, food_groups, kin, medicines
from .food_groups import AGAINST as _AGAINST
from .food_groups import ALIVE as _ALIVE
from .food_groups import DIETS as _DIETS
from .food_groups import DISH_COCKTAIL, GROUPS, REFUSES_IT, SALTY, TURNS, YES_OPENS
from .food_groups import EATS as _EATS
from .food_groups import NAMES as _NAMES
from .food_groups import NOT_IT as _NOT_IT
from .food_groups import NOT_OF_IT as _NOT_OF_IT
from .food_groups import SERVES as _SERVES
from .language import opens_with_no
from .superseded import OTHER_CLAUSE as _OTHER_ONE
from .superseded import told_parts
from .words import folded

# what is avoided, in words of its own ("allergic to kiwi", "I don't eat pork") …
_AVOIDS = re.compile(
    r"\b(?:all?ergic to|(?:an? )?(?:allergy|allergies|intolerance) to|intolerant to|"
    r"(?:can['’]?t|cannot|can not|don['’]?t|do not|never|must not|mustn['’]t|shouldn['’]t|"
    r"should not)\s+(?:eat|drink))\s+(?P<what>[^.,;!?]+)", re.IGNORECASE)
# … or by its name before the allergy ("Kwame has a severe egg allergy", "my nut allergy";
# QA pass 38: the allergy was no caution, and nothing was said under "Can Kwame eat
# scrambled eggs?")
_NAMED_ALLERGY = re.compile(
    r"\b(?!(?:severe|serious|mild|bad|food|nasty|terrible|skin|seasonal|slight|known|an?|the|"
    r"his|her|their|my|our|life-threatening)\b)(?P<what>[a-z]+)[- ](?:allergy|allergies|intolerance)\b",
    re.IGNORECASE)
# … or only by a group's name ("I avoid dairy", "I can't have gluten"; not "I avoid
# mornings", "I can't have my phone at work")
_AVOIDS_GROUP = re.compile(
    r"\b(?:avoid(?:ing)?|stay away from|(?:can['’]?t|cannot|can not|don['’]?t|do not|never)"
    r"\s+(?:have|touch|take)|cut(?:ting)?\s+(?:down|back)\s+on|cut\s+out|"
    # (what was given up: "I gave up caffeine in October.", QA pass 54b: "You can have a
    # latte" had no line)
    # (not "stopped drinking coffee after lunch", a habit: QA pass 48a)
    r"(?:gave|given|giving)\s+up(?!\s+on\b)|quit)"
    r"\s+(?P<what>[^.,;!?]+)",
    re.IGNORECASE)
# (QA pass 33b: "I have been vegetarian since this summer." set no caution)
_DIET = re.compile(r"\b(?:i['’]?m|i am|we['’]?re|we are|(?:i|we)(?:['’]ve| have) been|"
                   r"(?:i|we) (?:went|became|have gone|['’]ve gone))\s+"
                   r"(?:a\s+|strictly\s+|fully\s+|now\s+|mostly\s+)?"
                   r"(?P<diet>vegetarian|vegan|coeliac|celiac|pescatarian|teetotal|teetotaller|"
                   r"diabetic)"
                   r"\b|\b(?P<kind>lactose|gluten)[- ]intolerant\b", re.IGNORECASE)
# another's diet, of a sentence about them ("Aoife is vegetarian", "he's vegan")
_THEIR_DIET = re.compile(r"\b(?:is|['’]s|are|has been|have been|became|went|turned)\s+"
                         # ("Chloe is 34 and vegetarian", QA pass 41d)
                         r"(?:\d{1,3}\s*(?:years?\s+old\s*)?(?:and|,)\s+)?"
                         r"(?:a\s+|strictly\s+|fully\s+|now\s+|mostly\s+)?"
                         r"(?P<diet>vegetarian|vegan|coeliac|celiac|pescatarian|teetotal|"
                         r"teetotaller|diabetic)\b|\b(?P<kind>lactose|gluten)[- ]intolerant\b",
                         re.IGNORECASE)
_DRINK = re.compile(r"\b(?:don['’]?t|do not|never)\s+drink\b(?!\s+\w)", re.IGNORECASE)
# an allergy or diet that is over: "Ole has outgrown his egg allergy." (QA pass 45b: it was
# a caution of its own, and the allergy's stayed), "I'm no longer vegetarian"
_OVER = re.compile(r"\b(?:outgr(?:own|ew)|gr[eo]wn? out of|cured of|no longer\s+(?:\w+\s+)?"
                   r"(?:allergic|intolerant|vegetarian|vegan|pescatarian|teetotal|on|taking)\b|"
                   r"(?:not|n['’]t)\s+(?:\w+\s+)?(?:allergic|intolerant|vegetarian|vegan)\b"
                   r"[^.!?]*\bany\s?more)", re.IGNORECASE)
# (a yes or no set off by a comma is a clause of its own: "The answer is no, Solveig can
# have chicken satay…", QA pass 37; so is what follows "which means" or ", so": "Isla has
# an allergy to eggs, which means she can eat … food that contains eggs…", QA pass 40)
_CLAUSE = re.compile(r"[.;!?\n]+|,?\s+\b(?:but|however|although|though|except|whereas|"
                     r"which means|that means|meaning)\b|,\s+so\b"
                     # ("While Suresh does have a gluten intolerance, he can still take
                     # ibuprofen.", QA pass 41c: the allergy word made the offer a warning)
                     r"|,\s+(?=(?:he|she|they|you|we|it)\s+(?:can|could|may|might|will|should)\b)"
                     r"|(?<=\bno),|(?<=\byes),", re.IGNORECASE)
_WORD = re.compile(r"[a-z]+(?:['’][a-z]+)?")


class Caution(NamedTuple):
    """A statement of the user's of what they must not eat or drink."""

    episode_id: int  # (0: the message being answered, no memory yet)
    text: str  # the user's words
    avoid: frozenset[str]  # the words that name it or a food of it
    theirs: bool = False  # of someone the message asks about (`cautions`'s `about`)
    # of someone only the answer names (`cautions`'s `named`): offered only in a sentence
    # that names them
    within: frozenset[str] = frozenset()


def caution_of(text: str) -> frozenset[str]:
    """The words naming what the user's statement `text` says they must not eat or drink
    (empty: it says no such thing, or it is not of the user themself)."""
    # (each sentence of the user's own: "My daughter called to remind me that Mateo is
    # allergic to cats." is the grandson's allergy, `bench personal`)
    # (or of what they were put on: "My doctor put me on a low-salt diet…", QA pass 49b)
    mine = " ".join(s for s in facts.sentences(text or "") if (facts.self_rank(
        s) == 0 or _PUT_ME_ON.search(s)) and facts.is_statement_sentence(s) and not _OVER.search(s))
    # (its parts not of another: "I'm Grace and my husband Daniel takes lithium.", QA pass 45)
    mine = " ".join(p for k, p in enumerate(told_parts(mine)) if facts.self_rank(p) == 0 or (
        facts.self_rank(p) == 3 and not (k and _ANOTHER.match(p))) or _PUT_ME_ON.search(p)
    ) if _avoided(mine) else ""
    return _avoided(mine) if mine else frozenset()


_ANOTHER = re.compile(r"\s*(?:(?i:he|she|they)\b|(?!I\b|I['’])[A-Z])")
_PUT_ME_ON = re.compile(r"\b(?:put|started|switched|moved)\s+me\s+on(?:to)?\b|\bprescribed\s+me\b|"
                        + food_groups.CARER_SAID + r"\s+(?:that\s+)?(?:i|me|to|no|not|avoid)\b",
                        re.IGNORECASE)


def _avoided(text: str, diets: re.Pattern = _DIET) -> frozenset[str]:
    """`caution_of` for the user's own statements `text` (another's, with `diets` =
    `_THEIR_DIET`)."""
    words: set[str] = set()
    for pattern, own in ((_AVOIDS, True), (_NAMED_ALLERGY, True), (_AVOIDS_GROUP, False),
                         (food_groups.CARER_NO, False)):
        for m in pattern.finditer(text):
            tail = food_groups.LIST_TAIL.match(text, m.end()) if m.end("what") == m.end() else None
            what = food_groups.DOES_NEXT.split((m.group("what") + (tail.group(0) if tail else "")).lower())[0]
            if own:
                words |= {w for w in _WORD.findall(what)
                          if w not in facts.STOPWORDS and len(w) > 2}
            for name, group in _NAMES.items():  # (in order: "red meat" is no "meat" after it)
                if re.search(rf"\b{re.escape(name)}\b", what):
                    words |= GROUPS[group]
                    what = re.sub(rf"\b{re.escape(name)}\b", " ", what)
            # (a food of a group that no group's name took: "…avoid cranberry juice")
            words |= set(_WORD.findall(what)) & food_groups.FOODS
    for m in diets.finditer(text):
        diet = (m.group("diet") or "").lower()
        for group in _DIETS.get(diet, ()):
            words |= GROUPS[group]
        if m.group("kind"):
            words |= GROUPS["dairy" if m.group("kind").lower() == "lactose" else "gluten"]
    words |= medicines.avoided(text)
    if diets is _DIET and _DRINK.search(text) or medicines.SOBER.search(text):
        words |= GROUPS["alcohol"]
    if diets is not _DIET or re.search(r"\bi\b", text, re.I):
        words |= medicines.of_conditions(text)
    return frozenset(words - food_groups.NOT_FOODS)



def caution_of_others(text: str, about: AbstractSet[str]) -> tuple[frozenset[str], str]:
    """What `text` says someone of `about` (names and relation words, lower case: "aoife",
    "sister") must not eat or drink, and the sentences that say it: a sentence naming them,
    or going on about them with "she", "he" or "they" ("Łukasz is a nurse; he's allergic
    to nuts.", "Aoife is vegetarian and can't eat gluten.")."""
    words: set[str] = set()
    said: list[str] = []
    # (not as another's: "Chloe's son Oscar is 4 and he's allergic…" is Oscar's, QA 41d)
    named = re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, sorted(about)))
                       + rf")(?!\w)(?!['’]s\s+(?:{kin.KIN_PET_BREED}|{_ROLES})\b)", re.IGNORECASE) \
        if about else None
    # (one of theirs doing something to them: "Daniel's doctor switched him to…", QA 47a)
    by_theirs = re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, sorted(about)))
                           + rf")['’]s\s+(?:{_ROLES})\b[^.!?]*?\b(?:him|her|them)\b",
                           re.IGNORECASE) if about else None
    before = False
    # (each clause of whom it begins with, `_OTHER_ONE`: QA pass 52a gave Kabir the peanuts)
    for whole, s in ((w, c) for w in facts.sentences(text or "") for c in _OTHER_ONE.split(w)):
        of_them = named is not None and (bool(named.search(s)) or before and bool(_GOES_ON.match(s))
                                         or by_theirs is not None and bool(by_theirs.search(s)))
        before = of_them
        found = _avoided(s, _THEIR_DIET) if of_them and facts.is_statement_sentence(whole) \
            and not _OVER.search(s) else None
        # (the user's own, shared: "I'm vegan, and so is my husband Kenji.", QA pass 47b:
        # "Can Kenji have a cheeseburger?" had no line)
        if of_them and found is not None and not found and _SO_IS.search(s):
            found = _avoided(s)
        if found:
            words |= found
            said += [] if whole in said else [whole]
    return frozenset(words), " ".join(said)


_ROLES = "|".join(sorted(kin.ROLES))
_SO_IS = re.compile(r"\bso\s+(?:is|are|does|do)\s+(?:(?:my|our)\s+[a-z]+\b|(?-i:[A-Z]))", re.IGNORECASE)
_GOES_ON = re.compile(r"\s*(?:she|he|they|her|his|their)\b", re.IGNORECASE)  # ("Her midwife said…", 55e)


def cautions(statements: Iterable[tuple[int, str]],
             about: AbstractSet[str] = frozenset(),
             named: AbstractSet[str] = frozenset(), own: bool = True) -> list[Caution]:
    """The cautions among the user's statements (id, words): theirs, those of the people
    `about` (whom the message asks about: QA pass 36, "What could I bake for Aoife?" was
    answered with a cake, "Aoife is vegetarian and can't eat gluten." told), and those of
    the people only the answer `named`, for its sentences that name them (QA pass 38c:
    "Bake a big cake with peanuts for Zofia" in the reply to "My mum is 70."; not "your
    cheese is sold at the market… your nephew Caleb…", Caleb vegan, `bench personal`).
    `own`: the user's own too (not for a message that asks only of others:
    `of_others_only`)."""
    out = []
    named = frozenset(named) - frozenset(about)
    for eid, text in statements:
        avoid = caution_of(text) if own else frozenset()
        if avoid:  # (quoted by the sentences that say it: QA pass 33 saw "I'm allergic to
            # sesame. What snacks can I take…", an imported question, under an answer)
            said = " ".join(s for s in facts.sentences(text) if caution_of(s)) or text
            out.append(Caution(int(eid), said, avoid))
        theirs, said = caution_of_others(text, about) if about else (frozenset(), "")
        if theirs:
            out.append(Caution(int(eid), said, theirs, theirs=True))
        theirs, said = caution_of_others(text, named) if named else (frozenset(), "")
        if theirs:
            out.append(Caution(int(eid), said, theirs, theirs=True, within=frozenset(
                n for n in named if _names(n, text))))
        if _OVER.search(text):  # (read only where something is said to be over)
            out = [c for c in out if not _lifted(c, text)]
    return out


def _lifted(caution: Caution, text: str) -> bool:
    """Does the later statement `text` say what `caution` names is over for whom it told of
    (`_OVER`: "Ole has outgrown his egg allergy." after "…Ole is 4 and allergic to eggs.";
    the same name, or both the user's own)?"""
    for s in facts.sentences(text):
        if not _OVER.search(s):
            continue
        words = set(_WORD.findall(s.lower()))
        gone = {_key(w) for w in words if _key(w) in _ANY_FOOD_KEYS} | words & (_CONDITIONS | set(_DIETS))
        names = {w for w in re.findall(r"\b[A-Z][\w'’-]+", s) if w.lower() not in facts.STOPWORDS}
        whose = names & set(re.findall(r"\b[A-Z][\w'’-]+", caution.text)) or (
            facts.self_rank(s) == 0 and not caution.theirs)  # ("Since March I'm no longer…")
        if whose and ({_key(a) for a in caution.avoid} & gone
                      or set(_WORD.findall(caution.text.lower())) & gone):
            return True
    return False


def _names(name: str, text: str, own: bool = True) -> bool:
    """Does `text` say `name` (a name or relation word, lower case) as a word (not `own`:
    not only as another's, "Caleb's nephew")?"""
    tail = r"(?!\w)" if own else r"(?!\w)(?!['’]s\s+[a-z])"
    return bool(re.search(rf"(?<!\w){re.escape(name)}{tail}", text, re.IGNORECASE))


def part_naming(caution: Caution, words: Iterable[str]) -> str:
    """The sentences of `caution`'s text that say why `words` (what an answer offered) are
    kept off: those that name one of them, else those that give the caution of one, else the
    text whole (QA pass 53a: "…you told me “I take warfarin for atrial fibrillation, 3 mg a
    day. My doctor says I must avoid…”", cut before the cranberry juice it was about)."""
    keys = {_key(w.lower().split()[-1]) for w in words if w.split()}  # ("St John's wort")
    parts = facts.sentences(caution.text)
    for tells in (lambda s: keys & {_key(w) for w in _WORD.findall(s.lower())},
                  lambda s: keys & {_key(w) for w in _avoided(s)}):
        said = [s for s in parts if tells(s)]
        if said and len(said) < len(parts):
            return " ".join(said)
    return caution.text


def offered(answer: str, caution: Caution, message: str = "") -> list[str]:
    """The words of `caution` that `answer` names in a clause saying nothing against them
    (in the answer's order, each once); a clause that only echoes the user's `message`
    ("We're going to a seafood restaurant tonight.") offers nothing."""
    out: list[str] = []
    if caution.within:  # (only where the answer names them, not only another of theirs:
        # "…and you're selling it to Caleb's nephew", Caleb vegan, `bench personal`)
        answer = " ".join(s for s in facts.sentences(answer)
                          if any(_names(n, s, own=False) for n in caution.within))
    answer = food_groups.GAVE_UP.sub("quit", _avoided_lists_out(folded(answer)))  # ("pâté")
    asked = set(_WORD.findall(message.lower().replace("’", "'")))
    avoid = {_key(a) for a in caution.avoid}
    # (the message's own topic offers nothing: "…that fish tomorrow" to "Is the fishing trip
    # on the 16th?", the user vegan, QA pass 45b)
    topic = set() if asks_for_food(message) else {a for a in avoid for w in asked if w.startswith(
        a) and w[len(a):] in ("ing", "er", "ers", "erman", "ermen", "y")}
    topic |= set(food_groups.FREE_OF.findall(message.lower()))  # ("gluten-free pasta", 50c)
    ask = _asked_to_eat(message)
    may_eat = set(_WORD.findall(ask.lower().replace("’", "'"))) if ask else set()
    if may_eat and _SAYS_YES.match(answer):
        # a yes to "Can Bill eat chicken?" offers the chicken, though the answer never
        # names it (QA pass 36c: "Yes!" went unmarked, Bill being vegetarian)
        # (not of another food: "Yes" to "Can Eric have oat milk?", QA pass 40d)
        asks = _WORD.findall(message.lower().replace("’", "'"))
        out += [w for i, w in enumerate(asks) if _key(w) in avoid and not _other_food(asks, i)]
    # (a question asked of the user offers nothing: "And how does he manage with peanut
    # butter at home?", QA pass 37b; one that suggests does: "Or something with meat?")
    told = " ".join(s for s in facts.sentences(answer) if not s.rstrip().endswith("?")
                    or _SUGGESTS.match(s) or not _ASKS_USER.match(s))
    # (a message of the allergy or the condition itself, "Is Leo coeliac?", "Our son Leo is
    # 9 and he is coeliac.", is answered by what it is: "…gluten, which is found in wheat"
    # offers nothing, a clause that has them eat it does; QA pass 39c)
    of_it = not may_eat and bool(_ASKS_AVOIDED.search(message) or asked & (
        _ALLERGY_WORDS | set(_DIETS) | _CONDITIONS))
    refuses = bool(may_eat) and bool(opens_with_no(answer) or _ENDS_NO.search(answer))
    clauses = _CLAUSE.split(told)
    for k, clause in enumerate(clauses):
        # (a clause that a next one refuses: "…, but I'm not going to recommend it.", 48a)
        if any(REFUSES_IT.search(c) for c in clauses[k + 1:k + 3]):
            continue
        # (that it does no harm reassures, and warns of nothing: "…without having allergic
        # reactions", QA pass 40)
        clause = food_groups.NOT_BAD.sub(" fine ", _NO_HARM.sub(" ", clause))
        words = _WORD.findall(clause.lower().replace("’", "'"))
        # (what it is, unless it denies it, 37; or has others eat it, 46a; an own caution,
        # no one else: "She loves eating sweets", of a cat)
        if not caution.theirs and _THIRD.match(clause):
            continue
        explains = of_it and not any(w in _SERVES and words[i + 1:i + 2] not in (
            ["been"], ["to"], ["up"]) and not set(words[:i]) & _OTHERS and words[i - 1:i] != ["without"]
            for i, w in enumerate(words)) or (
            # (after a no to whether they may have it, a clause that says what is in it
            # gives the reason: "No, carbonara has bacon in it.", QA pass 40c)
            # (or denies it: "No, no. 5 is not the maximum age for Oscar's son to eat tree
            # nuts.", QA pass 42; or says what it is, "No, … Brie is a food that's famous
            # for being high in sugar and fat", QA pass 49a: no clause has them eat it)
            refuses and (not set(words) & _SERVES or bool(_NOT.search(clause))))
        # (a clause that repeats what is asked says they may, unless it asks it again, 37)
        if not words or set(words) <= asked | _ECHO and (
                not set(words) <= may_eat | _ECHO or words[0] in _ASKS):
            continue
        # each mention on its own: what the few words before it say, or "-free" after it
        # ("…eat only shrimp and no other shellfish" offers shrimp, 31b; "I would caution
        # against eating prawn paella" nothing); a clause of the allergy ("allergic to
        # leucine, which is found in eggs", 38b) or an illness (of its own foods: `_ill_keys`)
        # speaks of what they must not have; not one said as an if ("…if she's allergic", 42d)
        cut = next((k for k, w in enumerate(words) if w in _IF), len(words))
        known = explains or bool(set(words[:cut]) & _ALLERGY_WORDS - food_groups.ILL_WORDS) and not \
            _other_allergy(words[:cut], avoid) or bool(avoid & _SALTY_KEYS and SALTY.search(clause))
        ills = food_groups.ill_keys(words[:cut], _key)
        out += [w for i, w in enumerate(words) if _key(w) in avoid - topic
                and not _other_food(words, i)
                # (others' own, for an own caution: "…for people who … have their wedding
                # cake", QA pass 47b, the user vegan)
                and (caution.theirs or not (set(words[:i]) & _OTHERS and set(words[:i]) & _WHO_THEY))
                and (_denies(words[max(0, i - 3):i]) or not known and _key(w) not in ills
                     and not _warned(words[max(0, i - _BEFORE):i])
                     and not food_groups.listed_against(words[:i])
                     and not _refused(words[:i]) and not _example_of_warned(words[:i])
                     and not _warned_after(words[i + 1:i + 1 + _AFTER])
                     and not _group_avoided(words[i + 1:], avoid)
                     and not (i + 1 < len(words) and words[i + 1] in _NAMES_IT))]
    return list(dict.fromkeys(_SHOWN.get(w, w) for w in out))


_OTHERS = frozenset("people others everyone anyone someone folks".split())
_WHO_THEY = frozenset("who they".split())
_THIRD = re.compile(r"\s*(?:(?:and|so|but)\s+)?(?:she|he|they)\s", re.IGNORECASE)
# a word of the lists quoted as a person names it
_SHOWN = {"wort": "St John's wort", "pate": "pâté"}


_IF = frozenset("if unless whether".split())
# what says eating it does no harm: "without having allergic reactions", "with no reaction"
_NO_HARM = re.compile(
    r"\b(?:without|with no|with zero|and no|no)\s+(?:(?:having|getting|any|an|a|causing|"
    r"triggering|suffering|experiencing|her|his|their|bad|serious|negative)\s+){0,3}"
    r"(?:(?:allergic|allergy|adverse|bad)\s+)?(?:reactions?|symptoms?|side[- ]effects?|problems?|"
    r"issues?|trouble)\b", re.IGNORECASE)


# what says what a food holds ("has bacon in it"); an answer that ends with a no
# … or ends with one: "Hummus contains tahini, so no." (QA pass 40e)
_ENDS_NO = re.compile(r"(?:^|[,;:.!—–-]|\bso)\s*(?:so\s+)?(?:the (?:short |simple )?answer is:?\s+)?"
                      r"(?:no|nope|best not|better not|not for (?:her|him|them|you)|(?:(?:best|"
                      r"better|please|just)\s+)?(?:avoid|skip)\s+(?:it|them|that|this))\W*$",
                      re.IGNORECASE)


# a question whether someone may eat or drink something, and an answer that opens with yes
_ASKS_MAY_EAT = re.compile(
    r"\b(?:can|could|may|should|does|do|will|would|is it (?:ok|okay|safe|fine|alright|all right)"
    r"(?: for \w+)? to)\b"
    r"[^.?!]*\b(?:eat|drink|have|try|order|take|share)\b[^.?!]*\?"
    # (or whether a food is all right for them: "Is toast OK for Dev?")
    r"|\b(?:is|are)\s+(?:(?!it\b)[\w'’-]+\s+){1,3}?(?:ok|okay|safe|fine|alright|all right|"
    r"good)\s+for\b[^.?!]*\?", re.IGNORECASE)
def _asked_to_eat(message: str) -> str:
    """The words of `message` that ask whether someone may have a food ("" for none): the
    question, and of one that asks of "it", the sentence before it too (QA pass 53b: "…prawn
    suya from Lagos, can I eat it?" answered evasively had no line of the prawn allergy)."""
    ask = _ASKS_MAY_EAT.search(message)
    if ask is None:
        return ""
    return message[:ask.end()] if food_groups.IT_ASKED.search(ask.group(0)) else ask.group(0)


_SAYS_YES = re.compile(r"\s*(?:the answer is:?\s+)?(?:yes|yeah|yep|sure|of course|absolutely|"
                       r"definitely|certainly|go ahead|by all means)\b(?![^.!?\n]*(?:\bnot\b|"
                       r"n['’]t\b|\bnever\b|\bno\b|\bbut\b|\bwithout\b|\bavoid|\bskip|"
                       r"\binstead\b|\bexcept\b))", re.IGNORECASE)
_ASKS = frozenset("can could may might should would is are does do will".split())


def _denies(before: list[str]) -> bool:
    """Do the words right before a mention deny the allergy to it ("…, not to prawns",
    "you're not allergic to prawns", "aren't intolerant to milk")?  Then it is offered
    (QA pass 32b: "You're allergic to shellfish, not to prawns." went unmarked)."""
    tail = [w for w in before if w not in ("allergic", "intolerant", "sensitive")]
    return len(tail) >= 2 and tail[-1] == "to" and (
        tail[-2] in ("not", "never") or tail[-2].endswith("n't"))


_BEFORE = 5  # words before a mention that may say something against it


def _refused(before: list[str]) -> bool:
    """Does the clause say, before a mention however far back, that they do not eat or
    drink ("…he doesn't eat animal agriculture (meat and dairy)", "she does not need to eat
    any meat or dairy", QA pass 37: "dairy" was marked)?"""
    return any(v in _EATS and any(p in ("not", "never", "no", "cannot") or p.endswith("n't")
                                  for p in before[max(0, j - 3):j])
               # (or that there is none with it: "…there are no recipes that mention
               # “chicken nachtober” or “eggs and chocolate”", QA pass 40d)
               or v == "no" and before[j + 2:j + 3] in (["that"], ["which"], ["with"],
                                                      ["containing"], ["using"])
               for j, v in enumerate(before))


# (QA pass 37c: "A steak with vegetables, maybe some lamb…?" suggests, opening with no
# question word)
_ASKS_USER = re.compile(r"\s*(?:(?:and|so|but|also),?\s+)?(?:how|what|does|do|did|is|are|was|were|"
                        r"has|have|where|when|who|which|will|can)\b", re.IGNORECASE)
_SUGGESTS = re.compile(r"\s*(?:or|how about|what about|why not|maybe|perhaps|would you like|"
                       r"fancy|shall|want|try|could you|you could|you can)\b", re.IGNORECASE)
# a word after a mention that makes it the thing avoided: "peanut allergy", "gluten-free"
_NAMES_IT = frozenset("free allergy allergies allergic intolerance intolerant sensitivity".split())


def _other_allergy(words: list[str], avoid: AbstractSet[str]) -> bool:
    """Does the clause speak only of allergies to other things than the caution's ("She
    has an allergy to onions and … her steak", QA pass 48d, a vegetarian's), not of what
    holds one ("allergic to leucine, which is found in eggs", QA pass 38b)?"""
    at = [k + 2 for k in range(len(words) - 2)
          if words[k] in ("allergy", "allergic", "allergies", "intolerant", "intolerance")
          and words[k + 1] == "to"]
    return bool(at) and not any(_key(words[k]) in avoid or set(words[k + 1:k + 4]) & _IN_IT
                                for k in at)


_IN_IT = frozenset("which that found contains containing contain in".split())


_ALLERGY_WORDS = _NAMES_IT - {"free"} | frozenset(
    "allergen allergens anaphylaxis anaphylactic diabetes diabetic insulin coeliac celiac "
    "reaction reactions react reacts".split())


def _example_of_warned(before: list[str]) -> bool:
    """Is the mention an example of what the clause warned against further back ("avoid
    anything with sesame, like hummus or sesame snaps", QA pass 41)?"""
    warned = [j for j, w in enumerate(before) if w in _WARNS_OF]
    return bool(warned) and bool(set(before[warned[-1]:]) & _EXAMPLES)


_WARNS_OF = frozenset("avoid avoiding skip without no never".split())
_EXAMPLES = frozenset("like including especially particularly such".split())


_LIST_ITEM = re.compile(r"\s*(?:[-*•·]|\d+[.)])\s")


def _avoided_lists_out(answer: str) -> str:
    """`answer` without the list items under a line against them ("The person who should
    avoid eating:\n- Any type of meat … (lamb …)", QA pass 48d: read as offering lamb)."""
    out, against = [], False
    for line in answer.split("\n"):
        if _LIST_ITEM.match(line) and against:
            continue
        against = against and not line.strip() or line.rstrip().endswith(":") and _warned(
            _WORD.findall(line.lower()))
        out.append(line)
    return "\n".join(out)


def _group_avoided(after: list[str], avoid: AbstractSet[str]) -> bool:
    """Does the rest of the clause warn against the mention's whole kind ("…having wine can
    help you have more babies so it's better to avoid alcohol when pregnant", QA pass 49a,
    read "it names “wine” without a word of warning")?"""
    return any(w in _WARNS_OF and _key(x) in avoid and x in food_groups.GROUP_NAMES
               for w, x in zip(after, after[1:]))




def _warned(before: list[str]) -> bool:
    return bool(set(before) & _AGAINST) or any(w.endswith("n't") for w in before)


def _other_food(words: list[str], i: int) -> bool:
    """Is the mention `words[i]` part of another food that is none of it ("oat milk",
    "peanut butter" for a milk allergy, "butter beans", "veggie burgers", "meat substitute";
    QA pass 40c: "peanut butter" read as a milk caution)?"""
    before, after = words[i - 1] if i else "", words[i + 1] if i + 1 < len(words) else ""
    # (or the animal: "he loves playing with chickens", QA pass 43e, pescatarian told)
    # (a dish called a cocktail is no drink: "a prawn cocktail", QA pass 48a)
    return before in _NOT_OF_IT or after in _NOT_IT or bool(set(words[max(0, i - 3):i]) & _ALIVE) \
        or words[i] in ("cocktail", "cocktails") and before in DISH_COCKTAIL or food_groups.free_of(words, i)






def _warned_after(after: list[str]) -> bool:
    """Do the words right after a mention say it is not for them ("No, peanuts are not
    safe for him.", "Aspirin is dangerous with warfarin.")?  Before 0.32 only the words
    before one were read, and such answers were marked as offering it."""
    return bool(set(after) & _AFTER_AGAINST) or bool(_NOT_FOR.search(" ".join(after)))


_AFTER = 8  # words after a mention that may say something against it
_AFTER_AGAINST = frozenset("unsafe dangerous harmful risky bad forbidden avoided banned toxic salty "
                           "off-limits risks inappropriate unsuitable adults adult grown".split())
# … a "not" that says it is not for them ("not safe", "isn't a good idea"; not "not too big")
_NOT_FOR = re.compile(r"(?:\bnot|\bnever|n't)\s+(?:(?:always|necessarily|entirely)\s+)?(?:be\s+)?"
                      # ("…ibuprofen that may not always be as safe for pregnant women", QA
                      # pass 47d)
                      r"(?:(?:as|that|very)\s+)?(?:safe|good|ok|okay|allowed|"
                      r"suitable|recommended|advisable|wise|a good|an option|for|appropriate|"
                      r"right|ideal)\b"
                      # … or that it does harm ("aspirin can increase bleeding")
                      r"|\b(?:cause|causes|increase|increases|raise|raises|trigger|triggers|"
                      r"worsen|worsens)\s+(?:\w+\s+){0,2}?(?:bleeding|reactions?|symptoms?|"
                      r"harm|risk|attacks?|problems?)\b|\binteracts?\s+with\b")


# the words an answer turns a message round with ("We're going…" for "We are going…")
_ECHO = frozenset("we're we are you're you i i'm am is it's".split())


# foods named only in the form written: "sweets", not the "sweet" of "sweet potato soup"
# (QA pass 39b: marked against a diabetes caution)
_AS_WRITTEN = frozenset({"sweets"})


def _key(word: str) -> str:
    """What a food word is matched by: its stem ("peanuts" → "peanut"), or itself for one
    of `_AS_WRITTEN`."""
    return word if word in _AS_WRITTEN else _stem(word)


def _stem(word: str) -> str:
    return word[:-2] if word.endswith("es") and len(word) > 4 else \
        word[:-1] if word.endswith("s") and len(word) > 3 else word


# a question for what someone must not eat or drink ("What is Kwame allergic to?", "Which
# foods can't Efua have?", "What diet is my sister on?", "What should Sam avoid?")
# whether they must avoid anything ("Is Kiran allergic to anything?", "Does Dev have any
# allergies?", QA pass 41c: "No, Kiran is not allergic to anything." had no line); of an
# allergy, not a diet
_ANY_ALLERGY = (r"^\s*(?:is|are|does|do|has|have)\b[^?]*\b(?:allergic|intolerant)\s+to\s+"
                r"(?:anything|any\b)|^\s*(?:does|do|has|have)\b[^?]*\bany\s+(?:\w+\s+)?"
                r"(?:allergies|allergy|intolerances?)\b")


def asks_any_allergy(message: str) -> bool:
    """Does `message` ask whether someone has any allergy ("Does Chloe have any
    allergies?", "Is Zara allergic to anything?")?"""
    return any(re.search(_ANY_ALLERGY, s, re.IGNORECASE) for s in facts.sentences(message))


_ASKS_AVOIDED = re.compile(
    r"^\s*(?:what|which)\b[^?]*\b(?:allergic|allergy|allergies|intoleran\w*|diet|"
    r"(?:can['’]?t|cannot|can not|mustn['’]t|must not|shouldn['’]t|should not|doesn['’]t|"
    r"does not|don['’]t|do not)\s+(?:\w+\s+)?(?:eat|have|drink)|"
    r"(?:should|must|has to|have to|needs? to)\s+(?:\w+\s+){0,3}?(?:avoid|steer clear of|"
    r"stay away from|keep away from))\b|" + _ANY_ALLERGY, re.IGNORECASE)


# whom of the user's life a question may ask about ("my son", "my kid"), not the user
_RELATIONS = "|".join(sorted(map(re.escape, facts.KIN_WORDS | {
    w for also in facts.KIN_ALSO.values() for w in also}), key=len, reverse=True))


def missed(answer: str, caution: Caution, message: str) -> bool:
    """Does `answer` leave out what `caution` says of whom `message` asks about?

    - Asked what they must not eat or drink ("What is Kwame allergic to?"), it names none
      of it (QA pass 38: "…the hazelnut", an egg allergy told), or none of the kind asked.
    - Asked whether they may have something the caution names ("Can Kwame eat scrambled
      eggs?"), it neither says no nor names the allergy (`_warns`; QA pass 38c).

    Only a caution of whom the message asks about counts (`Caution.theirs`), or the user's
    own for a question of theirs ("What am I allergic to?", "Can I eat prawns?")."""
    if caution.within or not caution.theirs and not re.search(
            rf"\b(?:i|me|my)\b(?!\s+(?:\w+\s+)?(?:{_RELATIONS})\b)", message, re.IGNORECASE):
        return False
    if _ASKS_AVOIDED.search(message):
        told_of = set(_WORD.findall(caution.text.lower()))
        if re.search(_ANY_ALLERGY, message, re.IGNORECASE) and not told_of & _ALLERGY_WORDS:
            return False  # (a diet is no allergy: "Does Chloe have any allergies?")
        # (not what it says they are fine with: "…he has no problem with nuts", QA 53a)
        said = {f(w) for w in _WORD.findall(food_groups.FINE_WITH.sub(" ", answer.lower().replace("’", "'")))
                for f in (_stem, lambda x: x.rstrip("s"))}
        # (of the kind asked: "what antibiotic…?" with the diabetes, 52b; a medicine, 55b)
        told = food_groups.of_kind_asked(message, {
            w for w in told_of if w in _NAMES or w in _DIETS or w in _CONDITIONS})
        pick = food_groups.of_kind_asked(message, caution.avoid)
        return bool(pick) and not said & {_stem(w) for w in pick | told}
    return bool(asked_foods(message, caution)) and not _warns(answer, caution, message)


def heeded(answer: str, caution: Caution, message: str) -> bool:
    """Asked whether they may have something `caution` names, does `answer` say no, or
    name the allergy?  (Such an answer rests on the caution, whatever its words: "No.
    Hummus is made from chickpeas and tahini." read "it uses none of the memories recalled
    for it", QA pass 40e.)"""
    return bool(asked_foods(message, caution)) and _warns(answer, caution, message)


def asked_foods(message: str, caution: Caution) -> list[str]:
    """The words of `caution` that `message` asks whether someone may have ("Can Amara
    have a glass of champagne?" → ["champagne"]; not "Can Eric have oat milk?" of a milk
    allergy), each once."""
    ask = _asked_to_eat(folded(message))  # ("pâté" is "pate", QA pass 47d)
    if not ask:
        return []
    avoid = {_key(a) for a in caution.avoid}
    asks = _WORD.findall(ask.lower().replace("’", "'"))
    return list(dict.fromkeys(w for i, w in enumerate(asks)
                              if _key(w) in avoid and not _other_food(asks, i)))


# a condition an answer may name for what it leaves out ("Sam has type 1 diabetes…")
_CONDITIONS = frozenset("diabetes diabetic sober alcoholic coeliac celiac thinner thinners "
                        "anticoagulant anticoagulants antidepressant antidepressants pregnant "
                        "pregnancy kidney kidneys".split()
                        + list(medicines.CUES))


_NOT_WARNINGS = frozenset("pregnant pregnancy expecting".split())
# a no to whether they may have it: "No", "he can't eat…", "avoid", "not safe", "Skip the
# prawns and try the grilled chicken", something else ("Try the grilled chicken.", QA pass
# 31); not "he doesn't have an egg allergy", which denies it
_SAYS_NO = re.compile(
    r"^\W*(?:the (?:short |simple )?answer is:?\s+)?\W*(?:no|nope|best not|absolutely not|"
    r"definitely not|certainly not|not at all)\b|"
    r"(?:^|[.!?]\s+)\W*(?:try|how about|what about|why not|go for|opt for)\b|"
    r"\b(?:(?:can['’]?t|cannot|can not|shouldn['’]?t|should not|mustn['’]?t|must not|"
    r"doesn['’]?t|does not|don['’]?t|do not|never|won['’]?t|will not)\s+(?:\w+\s+){0,2}?"
    r"(?:eat|eats|have|drink|touch|take|consume|try)(?![^.!?]{0,40}\b(?:allerg|intoleran|diabet))|"
    r"avoid\w*|stay away|keep away|"
    r"steer clear|not (?:always |necessarily |entirely )?(?:be )?(?:as |that |very )?"
    r"(?:safe|recommended|a good idea|advisable|suitable)|unsafe|"
    r"dangerous|harmful|life-threatening|skip\w*|instead|without|leave (?:out|off)|too young|under\s*age\w*|not old enough|drinking age|"
    r"hold the|substitut\w*|replac\w*|alternatives?|swap\w*|careful|caution|beware|"
    r"warn\w*|[a-z]+-free|(?:gluten|nut|dairy|egg|lactose|sugar|wheat|peanut|sesame|milk|"
    r"meat|alcohol)free|(?:check|speak|talk)\s+(?:\w+\s+)?(?:with|to)\s+(?:his|her|their|your|a|the)"
    r"\s+(?:doctor|gp|pharmacist|consultant|nurse))\b", re.IGNORECASE)
_NOT = re.compile(r"\b(?:not|no|never|without)\b|n['’]t\b", re.IGNORECASE)


def _warns(answer: str, caution: Caution, message: str = "") -> bool:
    """Does `answer` say no to whether they may have what `caution` names, or name the
    allergy (or diet) in a clause that does not deny it ("Eggs could set off his
    allergy.")?"""
    avoid = {_key(a) for a in caution.avoid}
    # (free of another food is no answer: "Chloe's son Oscar has a gluten-free option." to
    # "Can Oscar have a Bakewell tart?", his nut allergy told, QA pass 42)
    # (nor what the model says of itself: "I don't take any specific medications" to "Can I
    # take amoxicillin?", QA pass 42c)
    if any(not (m.group(0).lower().endswith("free") and (free := _key(re.sub(
            r"-?free$", "", m.group(0).lower()).split("-")[-1])) in _ANY_FOOD_KEYS
                and free not in avoid) and not re.search(r"\b(?:I|[Ww]e)\s*$", answer[:m.start()])
           for m in _SAYS_NO.finditer(answer)) or _ENDS_NO.search(answer) or opens_with_no(answer):
        return True
    # (or the condition: "…as he takes warfarin", pass 41b's persona; not in the user's own
    # words said back, "Hello, I'm Grace and my husband Daniel takes lithium.", QA pass 45)
    said = set(_WORD.findall(caution.text.lower()))
    # (a pregnancy named is no warning: "…I'll need to know a bit more about your pregnancy."
    # to "Can I have some pâté on toast?", QA pass 47d)
    # (nor after a yes that nothing turns: "It's very possible. You're right, my wife is
    # vegetarian…" to "Can Annelie eat a steak?", pass 48's window check)
    # (an illness of no food asked is no warning: "…(and diabetes)" of grapefruit, 52)
    apart = food_groups.ills_apart({_key(w) for w in asked_foods(message, caution)}, _key)
    told = {w for w in said if w in _DIETS or w in _CONDITIONS - _NOT_WARNINGS - apart} if not (
        facts.terms(answer) <= facts.terms(f"{caution.text} {message}")
        or YES_OPENS.match(answer) and not TURNS.search(answer)) else set()
    # (an allergy named, of a caution of one: not of a child's age, "…Arjun has a tree nut
    # allergy…" to "Can Arjun have a beer?", QA pass 46a)
    if said & _ALLERGY_WORDS - apart or {_key(w) for w in said} & avoid:
        told |= _ALLERGY_WORDS - apart
    for clause in _CLAUSE.split(answer):
        words = _WORD.findall(clause.lower().replace("’", "'"))
        # (a "no" after it denies nothing: "He is allergic to milk and has no stomach for
        # it", QA pass 40c, read "it leaves out what you told me"; one before it does, "The
        # article does not provide information about a baby being allergic…")
        # (not another's allergy: "Chloe's son Oscar is allergic to tree nuts." to "Can I
        # have cheese on toast?", the user lactose intolerant, QA pass 42)
        foods = {_key(w) for w in words if _key(w) in _ANY_FOOD_KEYS}
        if foods and not foods & avoid:
            continue
        if any(w in told and not _NOT.search(" ".join(words[:i]))
               for i, w in enumerate(words)):
            return True
    return False


# every food word a caution may name, as matched (`_key`), and as `facts.terms` has it
_ANY_FOOD_KEYS = frozenset(_key(w) for words in GROUPS.values() for w in words)
_SALTY_KEYS = frozenset(_key(w) for w in GROUPS["salt"])  # (of a low-salt diet: `SALTY`)
FOOD_STEMS = frozenset(facts.stem(w) for words in GROUPS.values() for w in words)
# a request or question about food or drink ("Suggest a dinner for the family", "What
# should I bake for Zofia?", "Can Ruby eat prawns?")
_FOOD = re.compile(
    r"\b(?:dinner|dinners|lunch|lunches|breakfast|brunch|supper|meal|meals|recipe|recipes|"
    r"snack|snacks|dish|dishes|menu|cook|cooking|bake|baking|barbecue|bbq|picnic|cake|"
    r"cakes|dessert|desserts|pudding|takeaway|restaurant|food|foods|drink|drinks|eat|"
    r"eating|feed|party food|lunchbox)\b", re.IGNORECASE)
# … for the whole household ("for the family", "for all of us", "the kids")
_HOUSEHOLD = re.compile(
    r"\b(?:(?:the|our|my)\s+(?:whole\s+)?(?:family|household|kids|children|boys|girls|twins)|all of us|"
    r"everyone|everybody|for us|we all|(?:can|could|should|shall)\s+we|"
    # ("Plan a dinner for the four of us.", QA pass 48c: no caution recalled)
    r"(?:the|all)\s+(?:two|three|four|five|six|seven|eight|\d)\s+of\s+us)\b", re.IGNORECASE)
# ("Can we get a kitten?" is the household's, Sarah allergic to cats: QA pass 43d)


# why a caution came in for a message about food (`gate.RelevanceGate._cautions`)
CAUTION_GATE = "what you told me must not be eaten or drunk"


def asks_for_food(message: str) -> bool:
    """Does `message` ask about food or drink ("Suggest a dinner for the family", "Can Ruby
    eat prawns?"), not only tell of it ("We had pizza.")?"""
    # (or names a food or medicine a caution may name: "Pasta ideas for the family
    # tonight?", "Can my dad take ibuprofen?", pass 41b's persona)
    # (an animal only to have one: "Can we get a kitten?", not "What is my dog called?", 50b)
    words = set(_WORD.findall(message.lower()))
    return bool(_FOOD.search(message) or (_ANY_FOOD - food_groups.ANIMALS) & words or words
                & food_groups.ANIMALS and food_groups.GETS_ANIMAL.search(message)) and any(facts.asks(s) for s in facts.sentences(message))


_ANY_FOOD = frozenset().union(*GROUPS.values())


def for_household(message: str) -> bool:
    """Is `message` about the user's whole household ("the family", "all of us")?"""
    return bool(_HOUSEHOLD.search(message))


def of_others_only(message: str, about: AbstractSet[str]) -> bool:
    """Does `message` ask only of others (`about`, whom it names), not of the user nor
    their household ("Can Luca eat satay chicken?", "Can my dad take aspirin?"; not "What
    can I cook for Luca?")?  The user's own cautions are no answer's business then (QA pass
    40b: "He may eat other types of meat such as lamb or beef" was doubted for the user's
    "I am vegetarian.")."""
    # (the household's children as such are others: "Suggest a birthday cake for the
    # twins." read "it names “cake”…", the user coeliac, QA pass 46d)
    return bool(about) and not _FIRST_PERSON.search(message) and (
        not for_household(message) or bool(_CHILDREN_ONLY.search(message)))


_CHILDREN_ONLY = re.compile(r"^(?!.*\b(?:family|household|all of us|everyone)\b).*\b(?:the|our|my)"
                            r"\s+(?:kids|children|boys|girls|twins)\b", re.IGNORECASE | re.DOTALL)


_FIRST_PERSON = re.compile(r"\b(?:i|i['’](?:m|ve|d|ll)|me|myself|we|we['’](?:re|ve|d|ll)|us|"
                           r"ourselves)\b", re.IGNORECASE)


# what an answer's check looks for in the store: the words every caution holds
CUES = ("allergic", "alergic", "allergy", "allergies", "intolerant", "intolerance", "vegetarian",
        "vegan", "coeliac", "celiac", "pescatarian", "teetotal", "diabetes", "diabetic",
        "can't eat", "cannot eat", "don't eat", "never eat", "can't drink", "don't drink",
        "never drink", "can't have", "avoid", "sober", "alcoholic", "thinner", "thinners",
        "anticoagulant", "anticoagulants", "antidepressant", "antidepressants", "gout", "kidney",
        "drinking", "alcohol", "gave up", "given up", "quit", "cut out", "cut down", "cut back",
        "stay away", *food_groups.CARERS, *medicines.CUES)


def asks_avoided(message: str) -> bool:
    """Does `message` ask what someone must not eat or drink ("What is Ole allergic to?",
    "What should Sam avoid?")?"""
    return bool(_ASKS_AVOIDED.search(message))


def their_avoided(text: str) -> frozenset[str]:
    """`caution_of`'s words for what `text` says of anyone ("Noor is allergic to eggs.")."""
    return _avoided(text, _THEIR_DIET)


__all__ = ["CAUTION_GATE", "Caution", "GROUPS", "CUES", "asked_foods", "asks_for_food", "caution_of", "caution_of_others",
           "cautions", "for_household", "missed", "of_others_only", "offered", "asks_avoided", "their_avoided"]
