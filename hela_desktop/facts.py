"""What in a user's words is a fact (Qt-free, no model needed).

The user's own words are the source of facts.  This module reads them with a few plain
rules, the same for every conversation:

- **Statements.**  A sentence that tells something ("My sister Ada lives in Lisbon", "She's
  a beagle") is a statement; a question ("Where do I…?") or a request ("Write me a poem",
  "Can you…") asks for something and tells little about the user.  A memory whose user
  words hold no statement is a *request*: it stays in the store as context, but needs much
  stronger evidence to be put in front of the model.
- **Personal questions.**  A message that speaks of the user's own life uses the first
  person ("my dog", "where do I live", "who works for me") — unlike a task in which the
  user is only the one served ("Write me a limerick", "Convert this for me").  Memories
  are recalled for a task only on strong evidence.
- **Names.**  Words the user writes capitalised in the middle of a sentence (people,
  places, pets, events: "my brother Tobias", "at Margot's") are names; once seen, the
  same word counts as a name at the start of a sentence too.  Month and weekday names
  and the pronoun "I" are not.  Memories that share a name are linked (an association
  through a person, place or event).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from collections.abc import Set as AbstractSet

from .about_me import asks_about_whole_user
from .change_words import CHANGES as _CHANGES
from .change_words import NEW_JOB as _NEW_JOB
from .change_words import SCHEDULE as _SCHEDULE
from .change_words import SWAP_VERBS as _SWAP_VERBS
from .fact_words import ACKNOWLEDGE as _ACKNOWLEDGE  # (closed word lists: `fact_words`)
from .fact_words import ASKING as _ASKING
from .fact_words import DOSE_CHANGE_WORDS, OPENERS, SHORT_FOR, WHOSE
from .fact_words import FIRST_PERSON as _FIRST_PERSON
from .fact_words import FIRST_SUBJECT as _FIRST_SUBJECT
from .fact_words import FROM_TO as _FROM_TO
from .fact_words import INSTRUCTS as _INSTRUCTS
from .fact_words import LEADS as _LEADS
from .fact_words import NOT_NAMES as _NOT_NAMES
from .fact_words import SET_TO as _SET_TO
from .fact_words import SMALL_TALK as _SMALL_TALK
from .kin import KIN, KIN_ALSO, KIN_WORDS, PETS, kin, kin_words
from .language import is_common_word, is_interjection
from .timewords import DATE, DAYS, MONTHS, WHEN_TO
from .words import folded

# where a sentence ends: after ".", "!" or "?" and a space (not after a title: "a teacher
# called Mr. Lunde", QA pass 33; nor inside "3.5"), or at a line's end
_TITLES = ("Mr", "Mrs", "Ms", "Mx", "Dr", "Prof", "St", "Mt", "Jr", "Sr", "Fr", "Rev")
SENTENCE_BREAK = "(?:(?<=[.!?])|(?<=[.!?][\"”’)]))" + "".join(rf"(?<!\b{t}\.)" for t in _TITLES) + r"\s+|\s*\n\s*"
_SENTENCE_BREAK = re.compile(SENTENCE_BREAK)
_WORD = re.compile(r"[^\W\d_][\w'’-]*", re.UNICODE)
NAME_WORD = _WORD  # a word as names are written ("Margot's", "Jean-Luc")

ASKING_WORDS = _ASKING  # (what `forget_request` reads as a second request in a message)
SMALL_TALK = _SMALL_TALK  # (what `name_index` reads as no name opening a sentence)
_SHORT_TOKEN = re.compile(r"[\w'’]+", re.UNICODE)  # words and numbers: "I'm 34."
NOT_NAMES = _NOT_NAMES  # capitalised words that are not names (months, weekdays, "Mum")
MONTHS_AND_DAYS = tuple(MONTHS + [d for d in DAYS if d != "weekend"])
_KW_WORD = re.compile(r"[^\W_]+", re.UNICODE)
STOPWORDS = frozenset(
    """a about above after again against all am an and any are as at be because been before
    being below between both but by can could did do does doing down during each few for from
    further had has have having he her here hers herself him himself his how i if in into is it
    its itself just me more most my myself no nor not now of off on once only or other our ours
    ourselves out over own same she should so some such than that the their theirs them
    themselves then there these they this those through to too under until up very was we were
    what when where which while who whom why will with would you your yours yourself yourselves
    also yeah yes oh hey hi ok okay really so thanks thank like just get got im i'm it's that's
    dont don't know think one would could much well good great actually""".split()
    # what is left of a contraction once its apostrophe splits it ("I've" → "i", "ve"):
    # "ve" was a word two memories shared, and brought a day-shift news as newer news of
    # a beagle (`bench personal`, 0.15)
    + "ve ll re didn doesn isn wasn aren weren haven hasn hadn couldn wouldn shouldn".split()
)


def keywords(text: str) -> list[str]:
    """Lower-case content words of `text`, stopwords removed, order kept, no repeats."""
    out: list[str] = []
    seen: set[str] = set()
    for w in _KW_WORD.findall(text.lower()):
        if len(w) < 2 or w in STOPWORDS or w in seen:
            continue
        seen.add(w)
        out.append(w)
    return out


def content_words(text: str, min_len: int = 3) -> list[str]:
    """`text`'s content words as written (case kept: "Pixel"), stopwords and words shorter
    than `min_len` removed, order kept, no repeats."""
    return list(dict.fromkeys(w for w in _KW_WORD.findall(text)
                              if len(w) >= min_len and w.lower() not in STOPWORDS))


def stem(word: str) -> str:
    """A crude stem: a plural "s" off, then one common suffix, then the first five letters
    ("cooks" and "cooking" match, "hiked" and "hiking" too, "mornings" and "morning",
    "glass" and "glasses", "swims" and "swimming")."""
    if word in _AS_IS:
        return word[:5]
    if word.endswith("s") and not word.endswith("ss") and len(word) > 3:
        word = word[:-1]
    for suf in ("ing", "ed", "e"):
        if word.endswith(suf) and len(word) - len(suf) >= 3:
            word = word[: -len(suf)]
            if suf != "e" and word[-1] == word[-2] and word[-1] in _UNDOUBLED:
                word = word[:-1]  # ("swimm", "stopp", "runn")
            break
    return word[:5]


_UNDOUBLED = frozenset("bgmnprt")
# words a suffix off would make another ("quite" is no "quit": QA pass 49a, "…quite
# supportive…" read as telling a change, and the old night shifts went unmarked)
_AS_IS = frozenset({"quite"})


def stems(text: str) -> list[str]:
    """The stems of `text`'s content words (stopwords removed), in order, no repeats."""
    return list(dict.fromkeys(s for w in keywords(text) for s in [stem(w), *(  # (and a
        stem(x) for x in SHORT_FOR.get(w, "").split())]))  # short form's words: "PB")


def sentences(text: str) -> list[str]:
    """`text`'s sentences; a colon before a capital ends one too ("A bit about us: We live
    on Crookes Road…": the lead-in is no part of where they live, QA pass 32b)."""
    return [s.strip() for part in _LEAD_IN.split(text or "")
            for s in _SENTENCE_BREAK.split(part) if s.strip()]


_LEAD_IN = re.compile(r"(?<=:)\s+(?=[A-Z])")


def _words(s: str) -> list[str]:
    return [w.lower().replace("’", "'") for w in _WORD.findall(s)]


_KEY_WORD = re.compile(r"\w+", re.UNICODE)


def says_words(text: str, words: Iterable[str]) -> bool:
    """Does `text` hold each of `words` as a whole word, any case ("May" in "May is here",
    not in "maybe")?"""
    return all(re.search(rf"(?<!\w){re.escape(w)}(?!\w)", text, re.IGNORECASE) for w in words)


def word_key(text: str) -> tuple[str, ...]:
    """`text`'s words and numbers, case, spacing and punctuation aside: two messages with
    the same key say the same thing word for word ("what is my dog's name" and "What is my
    dog's name?"; "5 minutes" and "10 minutes" differ)."""
    return tuple(_KEY_WORD.findall((text or "").casefold().replace("’", "'")))


def _sentence_kind(s: str) -> str:
    """"ask" (a question, or a request to the assistant), "chat" (small talk), "short"
    (under three words, neither, unless two of the first person that are not an
    acknowledgement) or "tell" (it states something)."""
    s = s.strip()
    words = _words(s)
    lead = next((w for w in words if w not in _LEADS), "")  # ("Just give me the name.")
    if s.endswith("?") or (words and words[0] in _ASKING) or lead in _ASKING \
            or lead in _INSTRUCTS:
        return "ask"
    # "Let me know …", "Help me …": an imperative addressed to the assistant
    if len(words) > 1 and words[1] in ("me", "us") and words[0] not in _FIRST_PERSON:
        return "ask"
    if words and words[0] in _SMALL_TALK and len(words) <= 5:  # "Thanks, that helps a lot."
        return "chat"
    if len(words) >= 3:
        return "tell"
    # "I'm vegan.", "We're moving.", "I smoke.": the user says something of themselves, as
    # "I am vegan." does; "I see." and "I agree." only acknowledge
    said = [t.lower().replace("’", "'") for t in _SHORT_TOKEN.findall(s)]
    if len(said) == 2 and said[0] in _FIRST_SUBJECT and said[1] not in _ACKNOWLEDGE:
        return "tell"
    return "short"


def is_statement_sentence(s: str) -> bool:
    """A sentence that tells something: not a question, not a request, not small talk."""
    return _sentence_kind(s) == "tell"


def asks(sentence: str) -> bool:
    """Is `sentence` a question or a request to the assistant ("Where does Anders live?")?"""
    return _sentence_kind(sentence) == "ask"


def only_asks(text: str) -> bool:
    """Does `text` only ask or make small talk: every sentence a question, a request or
    small talk ("What is my dog's name?", "Thanks!"), none that tells or might tell something
    ("I'm vegan." tells; "I see." is too short to be sure of, so neither only asks)."""
    ss = sentences(text)
    return bool(ss) and all(_sentence_kind(x) in ("ask", "chat") for x in ss)


# a statement that says it corrects what was said before ("Actually my dog is a beagle, not
# a terrier.", "Correction: the wedding is on the 4th.", "I no longer work there.")
_CORRECTS = re.compile(
    r"\b(?:actually|correction|i meant|i misspoke|scratch that|to correct|no longer|not any ?more"
    r"|any ?more|got (?:that|it|this) wrong|i was wrong|my mistake|i made a mistake"
    r"|i misremembered|i mixed (?:that|it|this) up|back\s+(?:to|on|at|in)\b[^.;!?]{1,40}\bafter all)\b"
    r"|\bnow\s+instead(?=\s*[.!?]|\s*$)|^\W*(?:oh,?\s+)?(?:sorry|no,?\s+wait|wait)\s*[,:—–-]"  # (54)
    r"|[,;—–-]\s*not\s+(?:a|an|the|in|on|at)\b"
    # (", not 14 March", ", not Tuesday", ", not Lisbon": a date, a number or a name put
    # aside, QA pass 36: "I now fly to Porto on 21 March, not 14 March." was no correction)
    r"|[,;—–-]\s*not\s+(?:\d|(?-i:[A-Z]))"
    # (what holds now, and what not: "Chidi now drives trains, not buses.", QA pass 43e)
    r"|\bnow\b[^.;!?]{1,60}[,;—–-]\s*not\s+(?!sure|yet|really|much|bad|too|so|very|quite|"
    r"that|as|only|just|always)[a-z]", re.IGNORECASE)
# "…in May instead of June", "tea rather than coffee", "quit the buses" (QA pass 32): a
# correction of what said June, coffee or buses only (`corrects_memory`): "I walk to work
# instead of driving." corrects nothing said about work (QA pass 29)
_SWAPS = re.compile(r"\b(?:instead of|rather than|quit|quits|gave up|given up|cancell?ed|called off|stopped"
                    r"(?!\s+(?:by|at|in|for|to|off|over)\b))\s+(?:(?:the|his|her|my|their|our|"
                    r"your)\s+)?([^,;.!?—–]+?)(?=\s+(?:and|but|so|then|because|last|this|"
                    r"yesterday|today|recently)\b|\s+-\s|[,;.!?—–]|$)", re.IGNORECASE)


# what a correction says is no longer so: "…, not May", "— not a terrier", "I no longer
# work at the bakery", "…in May instead of June" (QA pass 29); the words up to the end of
# the clause
_NEGATED = re.compile(
    r"(?:[,;—–-]\s*not|\bno longer|\bnot any ?more)\s+([^,;.!?—–]+)", re.IGNORECASE)
# "moved from Trondheim to Oslo": Trondheim is no longer so (QA pass 37); "switched from
# engineering to medicine" (QA pass 43b)
_LEFT = re.compile(r"\b(?:(?:moved|relocated|moving|switched|changed) (?:away )?from|(?:have|has|"  # (52b)
                   r"['’]ve)\s+gone\s+from|"
                   # ("swapped Lagos for Abuja", `change_words.SWAPPED`)
                   rf"{_SWAP_VERBS}(?=\s+(?-i:[A-Z])[^,;.!?—–]*?\s+for\s+"
                   r"(?-i:[A-Z])))\s+([^,;.!?—–]+?)(?=\s+(?:to|for)\b)", re.IGNORECASE)


# "Grace is not from Ghana, she is from Nigeria": a value denied outright (QA pass 37: her
# old country went unmarked as older news, read as said again); "I'm not sure" denies nothing
# a memory said
# ("It's not happening on Saturday, it will happen on Sunday 20 March!", QA pass 47a: the
# answer's denial of the new day went unread)
_IS_NOT = re.compile(r"(?:\b(?:is|are|was|were)|(?<=\w)['’](?:s|re))(?:\s+not|n['’]t)\s+"
                     r"(?!sure\b|any ?more\b)"
                     r"([^,;.!?—–]+?)(?=\s*(?:[,;.!?—–]|\bbut\b|$))", re.IGNORECASE)
# "… isn't a teacher any more", "… is not 6 anymore" (QA pass 29)
_NOT_ANY_MORE = re.compile(r"(?:n['’]t|\bnot)\s+([^,;.!?—–]+?)\s+any ?more\b", re.IGNORECASE)


# "Handed in my notice at Ledgerly", "resigned from…", "left Lyon for Porto": no longer so
_QUIT_AT = re.compile(r"\b(?:(?:handed|gave|put|handing|giving)\s+in\s+(?:my|his|her|their|our)"
                      r"\s+notice\s+(?:at|to)|resigned\s+from|left\s+(?:my|his|her|their)\s+job\s+at|"
                      r"left(?=\s+(?-i:[A-Z])|\s+the\s+(?:\w+\s+)?(?:bar|pub|restaurant|cafe|café|bakery|shop|"
                      r"firm|company|school|hospital|clinic|bank|hotel|agency|pharmacy|chemist['’]?s?|"
                      r"office|factory|store|studio|lab|laboratory|surgery|garage|salon|library|"
                      r"warehouse|practice|council|university|college|nursery|newspaper)\b))\s+([^,;.!?—–]+?)"
                      r"(?=\s+(?:yesterday|today|last|this|and|but|for|to)\b|[,;.!?—–]|$)", re.IGNORECASE)


# an allergy or illness that is over: "Ole has outgrown his egg allergy." (QA pass 45b: no
# correction, the allergy stayed current beside it)
_OUTGROWN = re.compile(r"\b(?:outgr(?:own|ew)|gr[eo]wn?\s+out\s+of|cured\s+of)\s+([^,;.!?—–]+)",
                       re.IGNORECASE)


# what a correction says it is about, void: "Scratch that about Chennai, …" (QA pass 52a)
_ABOUT = re.compile(r"\b(?:scratch|forget|ignore)\s+(?:that|what\s+i\s+said)\s+(?:about|re|on)\s+"
                    r"(?:the\s+|my\s+|our\s+)?([^,.;:!?—–]{1,40})", re.IGNORECASE)
_DENIALS = (_NEGATED, _NOT_ANY_MORE, _IS_NOT, _SWAPS, _LEFT, _QUIT_AT, _OUTGROWN, _ABOUT, _FROM_TO)


def negated(text: str) -> list[str]:
    """The content-word stems of what a correction says is no longer so ("Actually the trip
    is in June, not May." → ["may"]; "I no longer work at the bakery." → ["work",
    "bakeri"]; "Tom isn't a teacher any more, he became a headteacher." → ["teach"];
    numbers too: "Asha turned 7, so she's not 6 any more." → ["6"]); []
    when it only says what is so now ("Actually Ines moved to Porto.")."""
    text = text or ""
    said = (_WHEN_NOW.sub("", m.group(1)) for rx in _DENIALS for m in rx.finditer(text))
    # (a day said as an ordinal is its number: "…on 5 November, not the 3rd." denies the
    # 3 of "…on 3 November.", QA pass 44b: no correction was found)
    return list(dict.fromkeys(w for g in said for w in [*stems(g), *NUMBER.findall(g)]
                              if not _ORDINAL.fullmatch(w)))


_ORDINAL = re.compile(r"\d+(?:st|nd|rd|th)")


def still_said(text: str) -> set[str]:
    """The terms (`terms`) `text` says outside what it denies: "I now fly on 21 March, not
    14 March." still says "march" (of the new date), so only "14" is out of date (QA pass
    36: an answer giving "21 March" was marked older news for its "March")."""
    text = text or ""
    for rx in _DENIALS:
        text = rx.sub(" ", text)
    return terms(text)


# when the new state holds, closing the clause that denies the old one ("tea rather than
# coffee these days"): not what is denied
_WHEN_NOW = re.compile(r"\s+(?:these days|nowadays|now|from now on|this (?:year|month|week)"
                       r"|any ?more)\s*$", re.IGNORECASE)


# a number as written ("6", "21.1", "10:30"): "she's not 6 any more" denies "6"
NUMBER = re.compile(r"(?<![\w.,])\d+(?:[.,:]\d+)*")


def corrects(text: str) -> bool:
    """Does a statement say it corrects or replaces what was said before: "actually",
    "correction", "I meant", "no longer", "anymore", "I got that wrong", "my mistake", or
    "…, not a terrier"?  Such a statement replaces an older one on the same subject however
    soon after it comes.
    "… instead of June" and "… rather than coffee" are corrections too, of what said
    June or coffee (`corrects_memory`). So is a change ("… moved to Antwerp", "Karel is
    now a surgeon"), of what said the same kind of thing (`_CHANGES`)."""
    return bool(_CORRECTS.search(text) or _SWAPS.search(text) or _LEFT.search(text) or _FROM_TO.search(text)
                or _SET_TO.search(text) or _OUTGROWN.search(text) or any(told.search(text) for told, _ in _CHANGES))


def corrects_memory(old: str, new: str) -> bool:
    """Does the statement `new` say it corrects (`corrects`) and share a content word with
    the older `old` ("Actually the trip is in June, not May." and "I'm planning a trip to
    Japan in May.")?  The caller also asks them to be on the same subject in meaning."""
    if _OUTGROWN.search(new) and not _CORRECTS.search(new):  # (of the same one, and of
        # the same food: "I have outgrown my peanut allergy." is no news of Ole's eggs)
        told, was = who(new), who(old)
        food = set(negated(new)) - set(stems("allergy allergies allergic intolerance intolerant"))
        return is_statement(new) and bool(told & was - KIN_WORDS - {SELF} or (
            SELF in told and SELF in was)) and bool(food & said_words(old))
    return is_statement(new) and not already_says(old, new) and not _others_named(
        old, new) and not puts_aside_else(old, new) and bool(says_over(old, new)
                                                              or changes_memory(old, new))


def puts_aside_else(old: str, new: str) -> bool:
    """Does `new` name what it puts aside, a name or a number ("…moved to Munnar, not
    Kochi."), and `old` say none of it ("Meera's wedding is on 21 August.": QA pass 48a,
    marked older news for a place it never gave)?  Or a move from a place another
    `old` names ("We moved from Leeds to Chorlton…" of "…a developer in Manchester.", 54a)."""
    names = set(_named(new))
    # (said as a contrast, "…, not Kochi", "instead of Friday"; not a workplace left, "I
    # handed in my notice at Royal Mail…", which ends the job "a postman in Norwich" said)
    left = terms(" ".join(m.group(1) for m in _LEFT.finditer(new)))
    contrast = terms(" ".join(m.group(1) for m in _CONTRAST.finditer(new))) | left
    aside = {w for w in negated(new) if w[:1].isdigit() or w in names} & contrast
    aside = {w for w in aside if w[:1].isdigit()} or aside  # (the 19 of "not 19 May", 50b)
    return bool(aside) and not aside & terms(old) and (not left or bool(_named(old)))


_CONTRAST = re.compile(r"\b(?:not|instead\s+of|rather\s+than)\s+((?:[\w'’:-]+\s*){1,4})",
                       re.IGNORECASE)


_NAMED_FIRST = re.compile(r"\s*[A-Z][\w-]*(?:['’]s\b|\s+(?:is|was|has|had|and|moved|lives|works|"
                          r"turned|just|got|will|can)\b)")


def _others_named(old: str, new: str) -> bool:
    """Do `old` and `new` each name others, none the same, not both of the user too?"""
    was, told = who(old), who(new)
    a, b = (who(" ".join(x if _NAMED_FIRST.match(x) else x.split(None, 1)[-1]
                         for x in sentences(t))) - {SELF} - KIN_WORDS for t in (old, new))
    return bool(a and b and not a & b) and not (SELF in was and SELF in told) and not (
        set(stems(" ".join(a))) & terms(new) or set(stems(" ".join(b))) & terms(old))  # (Seville)


def already_says(old: str, new: str) -> bool:
    """Did `old` already put aside what the correction `new` puts aside, for the same new
    date or number ("Actually the Lisbon flight is on 10 June, not 3 June." before "We fly
    to Lisbon on 10 June instead of 3 June.", QA pass 37)?  Then `new` agrees with it."""
    denied = set(negated(new))
    now = {w for w in still_said(new) - denied if w[:1].isdigit() or w in TIME_STEMS}
    # (or, putting nothing aside, gives the very date `old` gave: "Scratch that about the
    # dentist, it's back on Monday the 14th after all." of "My dentist appointment is on
    # Monday the 14th.", QA pass 46a: both were noted as corrected)
    was = {w for w in terms(old) if w[:1].isdigit() or w in TIME_STEMS}
    # (or gives it, and puts aside what it never said: "To be clear about the dentist: it is
    # 12 May, not 19 May." of "…is on 12 May.", QA pass 50b; the number put aside, if any)
    aside = {w for w in denied if w[:1].isdigit()} or denied
    return bool(now and (denied and denied <= set(negated(old)) and now <= terms(old)
                         or not denied and now == was or denied and now <= was and not aside & was)
                ) or _same_move(old, new, denied)


def _same_move(old: str, new: str, denied: set[str]) -> bool:
    """Did `old` already leave the place or name `new` leaves, for the same one `new`
    names ("I left the pharmacy in Seville; I'm a hospital pharmacist in Cádiz now." before
    "…I don't work in Seville any more. I work at the hospital in Cadiz.", QA pass 47a:
    the Cádiz memory was noted as corrected by the message that agrees with it)?"""
    names = set(_named(new))
    left = bool(denied & set(negated(old)) & names) or bool(  # (or moved there: "We've moved to
        _CHANGES[0][0].search(old)) and not denied & terms(old)  # Morningside.", QA pass 55d)
    named = {folded(w) for w in names} - {folded(w) for w in denied}
    return bool(left and named and named <= {folded(w) for w in terms(old)})


def _named(text: str) -> list[str]:
    """The stems of the names in `text`: its capitalised words, not a sentence's first nor
    "I" ("Seville", "Cadiz")."""
    return stems(" ".join(w for s in sentences(text) for w in re.findall(r"[\w'’-]+", s)[1:]
                          if w[:1].isupper() and w not in ("I", "I'm", "I’m")))


def says_over(old: str, new: str) -> bool:
    """Does the correction `new` share with `old` a word of what it is about: not only
    whom or when ("Actually Felix's swimming lessons are on Fridays, not Wednesdays." is
    about swimming lessons: not "Felix turns ten on 14 March." nor "The haircut moved to
    Wednesday.", QA pass 33b), unless it names nothing else ("Actually it's Wednesday,
    not Tuesday."), or it tells a change of the kind `old` said, or says the same kind of
    thing (`same_kind`): "Actually Ines moved to Porto." of "My sister Ines lives in
    Lyon.", "Oh, I got that wrong: Samir works as a paramedic now." of "My partner Samir
    is a nurse."?  Never when each names others: "Actually my brother Jonas lives in
    Hamburg." corrects no "My father Anselm lives in Graz." (QA pass 34)."""
    shared = corrected_words(new) & said_words(old)
    # (a move only told, "We moved from Manchester…", is over what said where someone
    # lives, not "I run the Manchester marathon…", QA pass 43: a place is named for much)
    if not shared or not (_CORRECTS.search(new) or _SWAPS.search(new)) and _CHANGES[0][
            0].search(new) and not _CHANGES[0][1].search(old):
        return False
    if (was := kin(old)) and (told := kin(new)) and not was & told:
        return False  # (each of other relations of the user's: "my father", "my brother")
    if _stopped_else(old, new):
        return False
    # what it says it is about, said by `old`: "Scratch that about Chennai, we cancelled
    # it." of "…a trip to Chennai in April." (QA pass 52a: no correction; a place is a name)
    if (on := _ABOUT.search(new)) and set(stems(on.group(1))) & said_words(old):
        return True
    # it puts aside what `old` says, and shares more with it than that and whom `old` is
    # about: "Actually the Lisbon flight is on 10 June, not 3 June." of "I'm flying to
    # Lisbon on 3 June…" (QA pass 37), not of "Felix has football on Wednesdays." for
    # "Actually Felix's swimming lessons are on Fridays, not Wednesdays."
    denied = set(negated(new))
    if denied and denied <= said_words(old) and shared - denied - {
            stem(w) for w in who(old) - {SELF}} - {  # (the day denied as an ordinal: "3rd")
            w for w in shared if _ORDINAL.fullmatch(w) and w.rstrip("stndrh") in denied}:
        return True
    if not _CORRECTS.search(new) and (_FROM_TO.search(new) or _SET_TO.search(new)):
        # (a dose changed: what it is of, whoever's, "my Lantus", is a name to `who`)
        return any(not w[:1].isdigit() for w in shared)
    people = {stem(w) for w in (who(new) | who(old)) - {SELF}}
    about = {w for w in corrected_words(new) if not w[:1].isdigit()} - people - TIME_STEMS \
        - CHANGE_STEMS - _TELLS_CORRECTION  # (what it denies counts: "not a terrier")
    # (a plan's new time, of that plan only: "Actually, parents' evening has been moved to
    # Thursday the 20th." is no news of "Tom and I moved to Stirling in the summer.", QA
    # pass 44c: a time and "moved" shared)
    return not about or bool(shared & about) or same_kind(old, new) or any(
        told.search(new) and said.search(old) and (k != _SCHEDULE or _same_plan(old, new))
        for k, (told, said) in enumerate(_CHANGES))


def _stopped_else(old: str, new: str) -> bool:
    """Does `new` only stop or swap something (`_SWAPS`, no "actually") whose numbers or
    names `old` does not say ("I've stopped teaching Year 11…" is no news of "I teach
    chemistry at a secondary school in Leicester.", QA pass 52a: noted as a correction)?"""
    if _CORRECTS.search(new):
        return False
    objects = " ".join(m.group(1) for m in _SWAPS.finditer(new))
    specific = {*NUMBER.findall(objects), *(w for w in _named("x " + objects))}
    return bool(specific) and not specific <= said_words(old)


_TELLS_CORRECTION = frozenset(stems("actually correction meant misspoke mistake wrong sorry "
                                    "correct instead wait"))


def changes_memory(old: str, new: str) -> bool:
    """Does `new`, cued only by a change ("moved to …", "is now a …", `_CHANGES`), replace
    the older statement `old`: one that said the same kind of thing of the same person
    (`who`: "Greta", "my mother"; or the user, with a place named for a move)?
    (`corrects_memory`'s other half.)"""
    if _CORRECTS.search(new):
        return False
    kinds = change_kinds(old, new)  # (none for an outright correction, above)
    # (a swap corrects what shares the word it puts aside, `says_over`, unless it tells a
    # change of its own too: "Piotr quit cooking; he teaches history now.", QA pass 46b)
    if _SWAPS.search(new) and not kinds:
        return False
    if _SCHEDULE in kinds and _same_plan(old, new):
        return True
    kinds = [k for k in kinds if k != _SCHEDULE]
    if not kinds:
        return False
    said_of, told_of = who(old), who(new)
    if said_of & told_of - {SELF}:
        return True  # the same person named
    # the user's own change: "We moved to Valencia." replaces "I live in Madrid." (QA pass
    # 31: both were listed as what the user said of themselves); who moved is the user in
    # both, unsaid; the new home a place named ("I moved to the night shift." is no move),
    # a new job sharing a word with the old ("I now work at Voltra.": "work")
    if SELF in said_of and told_of == {SELF}:
        return (kinds[0] == 0 and bool(_TO_PLACE.search(new))) or (
            1 in kinds and bool(_NEW_JOB.search(new))) or bool(
            (set(stems(old)) & set(stems(new))) - CHANGE_STEMS)
    return False


# what names no plan in particular: "My appointment moved to Friday." is of no one plan
# words of when, not of what ("on Thursday at 1 pm")
TIME_STEMS = frozenset(stems(" ".join([
    *"date time day week month year morning afternoon evening tomorrow tonight today next "
     "noon midday later earlier pm am o'clock".split(),
    *DAYS, *(f"{d}s" for d in DAYS), *MONTHS])))
# the words of a plan of any kind, not which plan ("appointment", "meeting")
PLAN_WORDS = frozenset(stems("appointment appointments appt meeting booking session "
                             "reservation plan plans event"))
_PLAN_STEMS = TIME_STEMS | PLAN_WORDS | frozenset(stems(
    "thing following coming back forward rescheduled postponed pushed put brought changed "
    "shifted delayed"))


def _same_plan(old: str, new: str) -> bool:
    """Is the plan whose new time `new` tells ("The haircut moved to Wednesday.") the one
    `old` gave a time to ("I have a haircut appointment on Tuesday at 10 am.")?  They
    share a word that names the plan ("haircut", not "appointment" nor a day), and they
    name no different people ("Kari's party" is not "Ines's party")."""
    # (a plan's word opening a line is no one's name: "Dentist appointment with Dr.
    # Adeyemi on Thursday…" is the dentist of "The dentist moved to Friday.", QA pass 33b)
    lower = set(re.findall(r"\b[a-z][\w'’-]*", f"{old} {new}"))  # (written so: no name)
    said_of, told_of = ({w for w in who(t) - {SELF} if w in KIN_WORDS or w not in lower}
                        for t in (old, new))
    if said_of and told_of and not said_of & told_of:
        return False
    # (an abbreviation is no name: "my GP appointment", QA pass 52b: no correction noted)
    names = {stem(w) for w in said_of | told_of if not re.search(
        rf"\b{re.escape(w.upper())}\b", f"{old} {new}")}
    # (a number is a time, not a plan: "14:15" and "15:00" share "15", QA pass 33b)
    return any(not w[:1].isdigit() for w in set(stems(old)) & set(stems(new))
               - CHANGE_STEMS - _PLAN_STEMS - names)


def news_of_plan(old: str, new: str) -> bool:
    """Is `new`, news of `old`, of when a plan is ("The appointment moved to Friday.")?"""
    return _SCHEDULE in change_kinds(old, new) or bool(set(stems(new)) & PLAN_WORDS)


def change_kinds(old: str, new: str) -> list[int]:
    """The kinds of change (`_CHANGES`: where someone lives, what they are or do, their
    age) that `new` tells and `old` said something of; none when `new` says outright that
    it corrects ("Actually …": what it replaces is what shares its words)."""
    if _CORRECTS.search(new):
        return []
    return [k for k, (told, said) in enumerate(_CHANGES) if told.search(new) and said.search(old)]


def of_another_kind(old: str, new: str, unsaid: bool = False) -> bool:
    """Does `old` say only kinds of thing that change (`_CHANGES`) other than those `new`
    says ("My best friend Chloe is a vet." is no old state of "Chloe moved to York last
    month.": a job, and a home; QA pass 40b)?  `unsaid`: also when `new` says none
    ("Our twins Zofia and Jan are 15." is no old state of "Zofia has grown out of her
    shellfish allergy…", QA pass 46b)."""
    # (what `new` tells as a change, or says: "…it's a brown preventer inhaler now" says
    # no job, QA pass 52a, "…Kabir who's 9" made older news of it)
    kinds = [{k for k, (_, said) in enumerate(_CHANGES) if said.search(old)},
             {k for k, (told, said) in enumerate(_CHANGES) if said.search(new) and (
                 not unsaid or told.search(new))}]
    return bool(kinds[0] and (kinds[1] or unsaid) and not kinds[0] & kinds[1])


def says_kind(kind: int, old: str, new: str) -> bool:
    """Does `old` say the kind of thing (`change_kinds`) that the change `new` tells of: for
    when a plan is, of the same plan (`_same_plan`)?"""
    return bool(_CHANGES[kind][1].search(old)) and (kind != _SCHEDULE or _same_plan(old, new))


# words that tell a change of life ("I'm joining Pinebrook Games", "we've bought a house",
# "we moved our residency to…", "I switched to regional runs"): a newer statement that says
# one may be news of an older one on its subject (`tells_change`)
_CHANGE_WORDS = re.compile(
    # (not "starts wheezing", which made "…Her name is Marmalade" older news: bench personal)
    r"\b(?:mov(?:e|ed|es|ing)|switch(?:ed|es|ing)?|join(?:ed|s|ing)?|start(?:ed|s|ing)"
    r"(?!\s+[a-z]+ing\b(?!\s+(?:at|for|as|with|in|on)\b))|quit"
    r"|left|leaving|leave|no longer|any ?more|bought|sold|sell(?:ing)?|became|become|changed?"
    r"|handed in|notice|retir(?:ed|ing)|promoted|hired|fired|laid off|graduated|new|now"
    r"|these days|nowadays|instead|replaced|upgraded|transferred|relocat(?:ed|ing)"
    r"|divorced|married|engaged|broke up|split up|passed away|died)\b", re.IGNORECASE)


def tells_change(text: str) -> bool:
    """Does a statement tell that something changed (`corrects`, or a word of a change of
    life: "joining", "bought", "moved", "switched", "now", `_CHANGE_WORDS`)?  Only such a
    newer statement makes an older one on its subject "older news": "Solveig and I are
    training for the Bergen half marathon." tells no change of "My wife Solveig is a
    midwife." (QA pass 33)."""
    return corrects(text) or bool(_CHANGE_WORDS.search(text))


def same_kind(old: str, new: str) -> bool:
    """Do two statements both say the kind of thing that changes (`_CHANGES`: where
    someone lives, what they are or do, their age, when a plan is: of the same plan), so
    that the newer may be news of it ("Ines started a job at the hospital." beside "My
    sister Ines works at a bakery.")?  A name shared is not enough: "Solveig and I are
    training for the Bergen half marathon." is no news of "My wife Solveig is a midwife."
    (QA pass 33)."""
    return any(said.search(new) and says_kind(k, old, new) for k, (_, said) in enumerate(_CHANGES))


SELF = "\0self"  # (`who`: the user themself)
# the words of a place, an employer, a time: after these, not who a statement is about
_PLACE_PHRASE = re.compile(r"\b(?:in|to|at|from|near|for|with|of|on|by)\s+(?:the\s+)?"
                           r"(?:[A-Z][\w'’.-]*\s*)+")
# what tells of a change, not of whom
CHANGE_STEMS = frozenset(stems("moved move relocated lives live living based now works work "
                                "working became become switched turned these days nowadays "
                                "job"))


def who(text: str) -> set[str]:
    """Whom the statement `text` speaks of: the names it writes (lower case; not a place,
    an employer or a time after "in", "to", "at"…, nor a common word opening a sentence),
    the relations it names ("mother"), and `SELF` when a sentence has the user as its
    subject ("I …", "We …").  "Kari moved to Oslo." is of Kari, not of "We moved to
    Trondheim." (QA pass 31b: the shared word "moved" made it a correction of the user's
    home)."""
    out: set[str] = set()
    for sentence in sentences(text):
        if self_rank(sentence) == 0:
            out.add(SELF)
        bare = _PLACE_PHRASE.sub(" ", sentence)
        for i, m in enumerate(_WORD.finditer(bare)):
            w = re.sub(r"['’]s$", "", m.group(0)).strip("'’-")
            low = w.lower()
            if low in KIN_WORDS:
                out.add(low)
            elif w[:1].isupper() and len(low) > 1 and not {low, low.removesuffix("s")} & _NOT_NAMES \
                    and _CONTRACTED.sub("", low) not in STOPWORDS and not is_interjection(low) \
                    and not (i == 0 and low in OPENERS) and low not in ("i", "i'm"):
                out.add(low)
    return out


# ("We've moved from Leeds to York…" is of the user, not of "we've": QA pass 48a)
_CONTRACTED = re.compile(r"['’](?:ve|re|d|ll|m)$")


# where a move went, when it names a place ("… moved to Valencia", "… now live in Porto")
_TO_PLACE = re.compile(r"(?i:\bmoved (?:back |from (?:[\w'’-]+ ){1,3})?to|\bnow lives? in|\brelocated to|"
                       r"\b(?:is|are|am|['’]s|['’]m|['’]re) now (?:living |based )?in)"
                       rf"\s+(?!(?i:{WHEN_TO}))(?:the\s+)?[A-Z]")


def corrected_words(new: str) -> frozenset[str]:
    """What an earlier statement must share with `new` for `new` to correct it: the
    content-word stems of `new` when it says it corrects; cued only by "instead of" or
    "rather than", what it replaces ("…in May instead of June": June); by a change, what it
    says is no longer so ("Handed in my notice at Ledgerly…; I'm joining … as a …")."""
    if not _CORRECTS.search(new) and (_FROM_TO.search(new) or _SET_TO.search(new)):
        # a dose or a number changed: what it is of, not whose or who said so (`WHOSE`)
        said = " ".join(x for x in sentences(new) if _FROM_TO.search(x) or _SET_TO.search(x))
        return frozenset([*stems(said), *NUMBER.findall(said)]) - set(stems(" ".join(
            [*WHOSE.findall(said), *KIN_WORDS]))) - _DOSE_WORDS
    if _CORRECTS.search(new):
        return frozenset([*stems(new), *negated(new)])
    return frozenset(w for m in _SWAPS.finditer(new) for w in [*stems(m.group(1)), *NUMBER.findall(
        m.group(1))]) or frozenset(negated(new) if _LEFT.search(new) or _OUTGROWN.search(new)
                                   or any(t.search(new) for t, _ in _CHANGES) else ())


_DOSE_WORDS = frozenset(stems(DOSE_CHANGE_WORDS))


def said_words(old: str) -> frozenset[str]:
    """The words of an earlier statement that a correction is matched on
    (`corrected_words`): its content-word stems and numbers."""
    return frozenset([*stems(old), *NUMBER.findall(old)])


def terms(text: str) -> set[str]:
    """`text`'s content-word stems and numbers ("Asha is 6." → {"asha", "6"}); a day said
    as an ordinal is its number ("the 3rd" → {"3"}: QA pass 44b, "…November 3rd" read as
    saying something new beside the old 3)."""
    return {w for w in stems(text) if not _ORDINAL.fullmatch(w)} | set(NUMBER.findall(text))


def only_tells(text: str) -> bool:
    """Does `text` tell something and ask nothing ("I work as a nurse at the city
    hospital.", "Big news: I'm on day shifts from next month!")?  Such a message asks the
    model for no more than a reply."""
    kinds = [_sentence_kind(s) for s in sentences(text)]
    return "tell" in kinds and "ask" not in kinds


def statements(text: str) -> list[str]:
    """The sentences of `text` that state something."""
    return [s for s in sentences(text) if is_statement_sentence(s)]


def is_statement(text: str) -> bool:
    """Does `text` (a user's message) state anything, or only ask?"""
    return any(is_statement_sentence(s) for s in sentences(text))


_WH = frozenset("what what's whats how how's why when where which who who's whose is are do "
                "does did should was were any".split())




# words that only link a sentence to what came before ("Actually Ines moved…"): its
# subject comes after them (`self_rank`, `knowledge.vouching_words`)
LINK_WORDS = ("actually", "also", "and", "but", "so", "well", "now", "oh", "btw", "anyway",
              "update", "correction", "plus")
# (a greeting opening it too: "Hi, I'm Daniel Mensah, a bus driver." came tenth in "What
# do you know about me?", QA pass 39)
_LINKS = frozenset(LINK_WORDS) | {"then", "hi", "hello", "hey", "hiya", "greetings", "there"}
_PEOPLE = frozenset("friend friends colleague colleagues coworker boss neighbour neighbor "
                    "flatmate roommate teacher doctor".split())


# what of the user is of themselves (QA pass 33 saw "My name is…" ranked as "My tortoise…")
_OWN_ATTRIBUTES = frozenset("name surname nickname job work career profession birthday age "
                            "address diet allergy allergies".split())


def self_rank(text: str) -> int:
    """How much `text` speaks of the user themselves: 0, a sentence with "I" or "we" as
    its subject ("I work as a physiotherapist.", "Actually I'm a nurse now."); 1, one about
    something of theirs that is not a person ("My dog is called Biscuit.", "My hobby is
    bouldering."); 2, any other first person ("My sister Ines has two cats."); 3, none
    ("Tomas is a software engineer."); "My name is Oskar." is 0 (`_OWN_ATTRIBUTES`)."""
    rank = 3
    for s in sentences(text) or [text]:
        words = [w for w in _words(s) if w not in _LINKS] or [""]
        if words[0] in _FIRST_SUBJECT or (words[0] == "my" and words[1:2]
                                          and words[1] in _OWN_ATTRIBUTES):
            return 0
        if words[0] in ("my", "our") and len(words) > 1 and words[1] not in KIN \
                and words[1] not in _PEOPLE:
            rank = min(rank, 1)
        elif any(w in _FIRST_PERSON for w in words):
            rank = min(rank, 2)
    return rank


def is_personal(query: str) -> bool:
    """Does the message speak of the user's own life, not only ask for a task done for
    them?  The first person counts ("my", "I", "we"; "me" unless its sentence is a request
    such as "Write me …" or "… for me"), and so does a date of the user's calendar ("next
    Friday", "the 10th of May")."""
    if DATE.search(query):  # "next Friday", "the 10th of May": the user's own calendar
        return True
    if _OWN_EVENT.search(query):  # "What happened at the vet?": an event only they know
        return True
    for s in sentences(query) or [query]:
        words = _words(s)
        if any(w in _FIRST_PERSON for w in words):
            return True
        if "me" in words and words and words[0] not in _ASKING - _WH:
            return True
        if asks_about_whole_user(s):  # "Summarise what you know about me."
            return True
    return False


# a question about an event of the user's, which only they can have told of: "What
# happened at the vet?" (QA pass 37c: held as a general question, its memory, about the
# dog's check-up among other news, too weak for it), "How was the party?", "How did the
# interview go?"; not "What happened at the Battle of Hastings?", "What happened to the
# dinosaurs?" or "How was the universe made?"
_OWN_EVENT = re.compile(
    r"\b(?i:what happened|what went on)\b[^.?!]{0,12}?\b(?i:at|on) the [a-z]"
    r"|\b(?i:how (?:was|were)) the [a-z][\w-]*\s*\?|\b(?i:how did) the [a-z][\w-]* go\b")


def asks_about_user(text: str, names: Callable[[str], AbstractSet[str]] | None = None) -> bool:
    """Does `text` ask something about the user's own life: a question or request whose
    sentence is personal (`is_personal`), or names someone of the user's life (`names`: a
    sentence -> the people in it, `MemoryEngine.people_in`)?  "What is my
    dog's name?", "Where am I working these days?", "Any ideas for my sister's birthday?"
    and, once the user spoke of Ines, "Where is Ines now?" do; "Write me a limerick" (a
    task in which the user is only the one served), "What is a comet?" and "My dog is
    Pixel." do not.  Such a question with nothing recalled gets an answer the user cannot
    check against anything they said, and the app says so."""
    return any(_asks_about_user(s, names) for s in sentences(text))


def _asks_about_user(sentence: str, names: Callable[[str], AbstractSet[str]] | None) -> bool:
    """One sentence of `asks_about_user`: a question or request that is personal."""
    return _sentence_kind(sentence) == "ask" and (is_personal(sentence)
                                                  or bool(names and names(sentence)))


# what a question asks for when it wants ideas or advice, not something the user told
_ASKS_IDEAS = frozenset("should could would might idea ideas suggest suggestion suggestions "
                        "recommend recommendation tips advice help plan write draft "
                        "create".split())


def asks_user_fact(text: str, names: Callable[[str], AbstractSet[str]] | None = None) -> bool:
    """Does `text` ask for something the user told, as `asks_about_user` reads it, and not
    for ideas or advice?  "Which town do we live in now?" and "What's my dog called?" do;
    "What could I bake for next Friday's fundraiser?", "Any ideas for my sister's
    birthday?" and "Can you help me plan a week of training around Joost's lessons?" do
    not: their answers rightly name what no memory says (QA pass 28: a plan's "1")."""
    return any(_asks_about_user(s, names) and not set(_words(s)) & _ASKS_IDEAS
               for s in sentences(text))


__all__ = ["keywords", "stem", "stems", "STOPWORDS", "sentences", "statements", "is_statement", "corrects",
           "is_statement_sentence", "is_common_word", "is_interjection", "TIME_STEMS", "who", "SELF", "change_kinds", "says_kind", "same_kind", "tells_change", "says_over", "CHANGE_STEMS", "terms", "corrects_memory", "puts_aside_else", "changes_memory", "corrected_words", "said_words", "is_personal", "asks_about_whole_user", "kin", "kin_words", "KIN_WORDS", "KIN_ALSO", "PETS"]
