"""Names and numbers an answer states that no memory given to it says (Qt-free): the
made-up check under an answer (`doubt.answer_doubt`, "Check this answer: “Doris” is in
none of the memories it was given…")."""

from __future__ import annotations

import re
from collections.abc import Sequence
from collections.abc import Set as AbstractSet

from . import facts, kin
from .doses import (
    DOSE_UNIT,
    DOSED,
    MEDICINE_UNITS,
    medicine_at,
    medicine_doses,
    no_zero,
    unit,
)
from .language import CJK_CHAR, is_common_word, language_shares
from .timewords import MONTH
from .words import LIST_MARK, one_slip, spelled_numbers
from .words import folded as _fold

_NUMBER = facts.NUMBER
_PART = re.compile(r"[-'’]")
# capitalised mid-sentence, and names nothing: the app, the model's talk of itself, a
# language, a faith, a region's people or ways ("Nordic", "Scandinavian": QA pass 43f called
# them made up), a medicine sold everywhere, a public body or a feast ("NHS", "Diwali":
# QA passes 44b to 44d)
# words of other languages a reply may slip into, no names ("Gracias a la gran dulce!",
# "Mio amigo!", "Dear Madre,": QA pass 49a, read as made-up names), and relations and
# endearments among them a card may open on
_FOREIGN_KIN = frozenset("madre padre mamá mami mamma papá papi abuela abuelo abuelita "
                         "abuelito nonna nonno oma opa mutti vati maman mère père tía tío "
                         "hermano hermana querida querido cariño amor amigo amiga".split())
_FOREIGN_WORDS = _FOREIGN_KIN | frozenset(
    "gracias hola adiós adios mio mío mía amigos amigas señor señora señorita buenos buenas "
    "días dias noches tardes bueno buena bien muy sí nada también ciao grazie prego merci "
    "bonjour bonsoir chère cher danke bitte hallo liebe lieber obrigado obrigada olá "
    # (greetings: "Namaste, my dear." read "it calls you “Namaste”", QA pass 50a)
    "namaste namaskar namaskaram vanakkam salaam salam shalom konnichiwa jambo aloha "
    "sawubona habibi habibti shukriya dhanyavad servus salut hej".split())
_NOT_MADE_UP = frozenset("ai hela assistant tbd tba asap fyi eta am pm".split()) | frozenset(
    # languages, as in "English language writing" (QA pass 35b): no name of anyone's life
    # (a people's word, "Danish", is one too: `_LAND`, QA pass 36c)
    "latin arabic hebrew hindi urdu swahili tamil telugu kannada malayalam marathi gujarati "
    "bengali punjabi sanskrit farsi yoruba igbo hausa amharic tagalog cantonese mandarin "
    "allah".split()) | \
    frozenset("buddhist christian muslim jewish hindu catholic protestant sikh islam islamic "
              "christianity judaism hinduism buddhism sikhism catholicism orthodox anglican "
              "methodist baptist quaker mormon jain".split()) | \
    frozenset("nordic scandinavian european african asian american mediterranean caribbean "
              "baltic balkan celtic slavic latino hispanic arab".split()) | \
    frozenset("paracetamol acetaminophen tylenol calpol aspirin ibuprofen nurofen advil "
              "codeine antihistamine antihistamines piriton insulin nsaid nsaids".split()) | \
    frozenset("scots nhs fda cdc mhra ema eu un gp bbc god christmas easter diwali eid hanukkah ramadan "
              "halloween thanksgiving".split()) | _FOREIGN_WORDS
# months and weekdays: no names, but what a question for a date asks for (`made_up`'s
# `dates`); "May" only as a month ("in May", "May 3"), not "May I…"
_DATE_NAMES = frozenset(facts.MONTHS_AND_DAYS)
_COMPASS = frozenset("north south east west northern southern eastern western central".split())


def _next_word(text: str, at: int) -> str:
    """The word after `at` in `text`, lower case ("" for none)."""
    m = re.match(r"[\s-]+([\w'’]+)", text[at:])
    return m.group(1).lower() if m else ""
_AS_MONTH = re.compile(r"(?i:\b(?:in|of|on|by|until|till|since|from|early|late|mid|end)\s+)$")


def made_up(answer: str, known: str, names: AbstractSet[str] = frozenset(),
            dates: bool = False) -> list[str]:
    """The names and numbers `answer` states that `known` never says, as the answer writes
    them, in the answer's order: a word capitalised in the middle of a sentence ("…the town
    of Ponsonby, which is a suburb of Manchester.") none of whose parts `known` has, as it
    is or inflected (`_known_part`), and a number it does not hold ("100 Elm Street"), a
    list's own numbering aside.  Months, weekdays and the like are not names
    (`facts.NOT_NAMES`).  A sentence's first word is capitalised whatever it is, so there
    it counts only when it is no common English word either (`facts.is_common_word`:
    "Siamira is a fictional character…", QA pass 28).  Names written one after another,
    or joined by "of", "the" and the like, are quoted as one ("King of the Piano").  In an
    answer that does not read as English no word is taken for a name (German writes every
    noun capitalised).  `names`: the names the user writes (lower case,
    `MemoryEngine.user_names`), known wherever they said them (QA pass 29: the user's own
    name, "Priya", was marked made up in a chat whose memories did not say it).  `dates`:
    the question asks when, so a month or weekday `known` never says counts too (QA pass
    35: "Which month is our Lisbon trip?" answered "…to Lisbon in June.", May told).  In
    an English answer, a run of Chinese, Japanese or Korean characters that `known` does
    not hold, nor holds a run of, counts too (QA pass 36: "Your Japanese teacher is
    彦開です", the teacher being 美咲, went unmarked)."""
    low = known.lower().replace("’", "'")
    words = set(re.findall(r"[^\W\d_]+", low)) | set(names)
    words |= {_fold(w) for w in words}
    # (a leading zero aside: "9:30" is "09:30")
    numbers = {no_zero(n) for n in _NUMBER.findall(low)} | spelled_numbers(low)
    text = LIST_MARK.sub(lambda m: " " * len(m.group(0)), answer)  # (positions kept)
    # (a template's blank is no name: "Yours faithfully, [Your Name]", QA pass 43h)
    text = _BLANK.sub(lambda m: " " * len(m.group(0)), text)
    found: list[tuple[int, int]] = []  # (start, end) in `text`
    # (read without its Chinese, Japanese or Korean: they are no sign of German nouns)
    english, foreign, _ = language_shares(_CASELESS.sub(" ", text))
    # (a script without capitals: any run of it is name-like beside English, not in a
    # text of its own; added after the names, as no name joins it)
    caseless = [m.span() for m in _CASELESS.finditer(text) if m.group(0) not in known
                and not any(w in m.group(0) for w in _CASELESS.findall(known))] \
        if english >= foreign and english > 0 else []
    at = 0
    for s in facts.sentences(text) if english >= foreign else []:
        base = text.find(s, at)
        at = base + len(s)
        for i, m in enumerate(facts.NAME_WORD.finditer(s)):
            w = re.sub(r"['’]s$", "", m.group(0)).strip("'’-")
            parts = [p.lower() for p in _PART.split(w) if p]
            # a common word capitalised as a sentence's, a line's or a list item's first
            # ("…: Last …"), quoted alone ('I added "Unfortunately"…', QA pass 49d), or as
            # part of a known name ("York City"; QA pass 32)
            before = s[:m.start()]
            prev = _PREV_WORD.search(before)
            common_ok = i == 0 and not _TITLE.search(text[max(0, base + m.start() - 12):
                                                          base + m.start()]) \
                and not _signs(text, base + m.start()) \
                and not _NAMED_AS.match(s, m.end()) \
                or before.rstrip().endswith(_OPENS) or _ASIDE.fullmatch(before) \
                or before.endswith(('"', '“')) and s[m.end():m.end() + 1] in ('"', '”') \
                or prev is not None \
                and prev.group(1)[:1].isupper() and (_known_part(prev.group(1).lower(), words)
                                                     or prev.group(1).lower() in _NOT_MADE_UP) \
                or _BEFORE_LANGUAGE.match(s, m.end()) is not None  # ("Old English", QA 41)
            asked = dates and (parts[0] in _DATE_NAMES or parts[0][:-1] in _DATE_NAMES) and len(parts) == 1 and (
                parts[0] != "may" or bool(_AS_MONTH.search(before))
                or bool(re.match(r"\s*\d", s[m.end():])))
            if not w[:1].isupper() or len(w) < 2 or not parts or any(  # ("P.S.")
                    _known_part(p, words) or _dated(p) and not asked
                    or p in facts.STOPWORDS and not asked
                    or p in _NOT_MADE_UP or p in _LAND or facts.is_interjection(p)
                    # (a compass word before a people's: "West African", QA pass 49d; not
                    # "North America", a name of its own)
                    or p in _COMPASS and (_next_word(s, m.end()) in _NOT_MADE_UP or _next_word(s, m.end()) in _LAND)
                    or common_ok and facts.is_common_word(p)
                    for p in parts):
                continue
            start = base + m.start() + m.group(0).index(w)
            if _spelled_out(w, text[:start], text[start + len(w):]):
                continue
            if found and _JOINS.fullmatch(text[found[-1][1]:start]):
                found[-1] = (found[-1][0], start + len(w))  # one name of several words
            else:
                found.append((start, start + len(w)))
    found += caseless
    # a medicine written in lower case, no name by its capital: "You take levitax every
    # morning." (QA passes 43b and 43d: "levitax", "mabuwa", never told, went unmarked)
    found += [m.span(1) for m in _TAKEN.finditer(text) if english >= foreign
              and not _known_part(m.group(1), words) and not is_common_word(m.group(1))
              # (nor a word of common parts: "a non-selective vasoactive agent", 49c)
              and not all(is_common_word(p) or p == "non" for p in m.group(1).split("-"))]
    # an age is no date: "12 years old" where the memories say "12" only as "12 June"
    # (QA pass 32: "Sunniva is currently 12 years old." went unmarked)
    dated = {m.group(1) for m in _AS_DATE.finditer(low)} - {
        m.group(0) for m in _NUMBER.finditer(low) if not _AS_DATE.match(low, m.start())}
    # a date is a day of a month: "12 March" where the memories say 12 (an age) and March
    # (another date), but never the 12th of March (QA pass 33: "…scheduled for 12 March at
    # 09:35", the appointment being on 11 December, had only "09:35" marked)
    days = {day for _, day in _dates(low)}
    doses = {(no_zero(n.replace(",", "")), unit(u)) for n, u in DOSED.findall(low)}
    of = medicine_doses(known)
    taken = [span for span, day in _dates(text) if day not in days]
    found += taken
    for m in _NUMBER.finditer(text):
        age = _AS_AGE.match(text, m.end()) if m.group(0) in dated else None
        if any(a <= m.start() < b for a, b in taken) or _PUT_ASIDE.search(text[:m.start()]):
            continue  # (the day of a date marked whole; a number put aside, "16, not 20")
        if _MEASURE.match(text, m.end()):  # (a recipe's "200g pasta", QA pass 50a)
            found += [span for span in [_dose_off(text, m, doses, of)] if span]
            continue
        if no_zero(m.group(0)) not in numbers or age is not None:  # ("“12 years” …")
            found.append((m.start(), age.end() if age is not None else m.end()))
    # (words written apart that the memories write as one: "Head Teacher" of "headteacher",
    # QA pass 53c)
    return list(dict.fromkeys(text[a:b] for a, b in sorted(found)
                              if re.sub(r"[\s-]+", "", text[a:b]).lower() not in words))


# the word after "take(s)", "taking", "prescribed": a medicine, where it is none of English
# (ending in a letter: "omega-3" is "omega", not "omega-", which no memory says; pass 53)
_TAKEN = re.compile(r"\b(?:take|takes|taking|took|prescribed)\s+(?:(?:a|an|some|your|his|her|"
                    r"their|my|daily|low-dose|the|dose|of)\s+)*([a-z][a-z-]{2,}[a-z])\b")
# what puts the number after it aside: "Lily is 16, not 20." claims no 20 (QA pass 43b)
_PUT_ASIDE = re.compile(r"\d\s*(?:years?(?:\s+old)?)?\s*[,;—–-]\s*(?:and\s+)?not\s+$")
# a cook's measure after a number: an amount of a recipe, no fact of anyone's life
_MEASURE = re.compile(r"\s?(?:g|kg|mg|mcg|µg|micrograms?|milligrams?|units?|iu|ml|l|oz|lbs?|grams?|kilos?|tbsp|tsp|tablespoons?|"
                      r"teaspoons?|cups?|litres?|liters?|ounces?|pinch(?:es)?|cloves?|"
                      r"slices?|servings?|portions?|mins?|minutes)\b(?:\s+of)?", re.IGNORECASE)
def _dose_off(text: str, number: re.Match, doses: AbstractSet[tuple[str, str]],
              of: dict[str, set[tuple[str, str]]]) -> tuple[int, int] | None:
    """The span of a dose `text` gives at `number` that `doses` (of the memories: number,
    unit) do not hold: a number told with another unit ("50 mg" where "50 micrograms" was
    told, a thousandfold apart), or a medicine's dose never told ("5 mg" of warfarin, 3
    mg told: a recipe's amounts were let be, QA pass 50a, and a wrong dose with them, pass
    53), or told of another medicine than the one `text` gives it to (`of`: medicine ->
    doses; "…20 units of NovoRapid", 20 the Lantus's, 6 the NovoRapid's: QA pass 54b);
    None for a cook's amount, or a dose told."""
    m = DOSE_UNIT.match(text, number.end())
    if m is None:
        return None
    said = (no_zero(number.group(0).replace(",", "")), unit(m.group(1)))
    if said in doses:  # (told: of the medicine the answer gives it to?)
        med = medicine_at(text, number.start(), m.end())
        return (min(med[1], number.start()), max(med[2], m.end())) if med is not None and (
            med[0] in of and said not in of[med[0]]) else None
    if any(n == said[0] for n, _ in doses) or said[1] in MEDICINE_UNITS:
        return number.start(), m.end()
    return None


_BLANK = re.compile(r"\[(?:your|my|the|their|his|her)?\s*[A-Za-z' ]{1,25}\]")
# Chinese, Japanese kana and Korean: scripts with no capitals to tell a name by
_CASELESS = re.compile(CJK_CHAR + "{2,}")


def death_untold(answer: str, known: str, names: AbstractSet[str], you: str = "you"
                 ) -> dict | None:
    """``{"kind": "death_untold", "name": "Oscar"}`` when `answer` says someone of the
    user's life died (one of `names`, lower case, or "your dad"), and `known` (the memories
    and the message) tells of no death of theirs (QA pass 41e: "Chloe's son Oscar (who died
    last month) was 4." was marked only for his age; a grandad's death told is not
    Oscar's; "you", said to the user or, in a card, to `you`: "…since you passed away" in
    a birthday message for Ama); None otherwise."""
    gone = {w.lower() for line in known.splitlines() for s in facts.sentences(line)
            for c in _clauses(s)
            if _DIED.search(c) or re.search(r"\b(?:die|death)\b", c, re.IGNORECASE)
            for w in re.findall(r"[\w'’-]+", re.sub(r"['’]s?\b", "", c))}
    gone |= {kin.KIN[w] for w in gone if w in kin.KIN}
    last = ""  # (whom "he" or "she" is: the last named, "Ngozi … He died when I was 14")
    for sentence in facts.sentences(answer):
        for m in _DIED.finditer(sentence):
            before = sentence[:m.start()]
            said: tuple[int, str] | None
            if re.search(r"\b(?:her|his|their|its|whose)\s+(?:[a-z]+\s+){1,2}(?:who\s+)?$", before):
                said = None  # (another's relation: "Sofie has moved to Bergen after her
                # husband died", QA pass 45d, read "it says Bergen died")
            elif re.search(r"\byou\s+(?:have\s+|had\s+)?$", before, re.IGNORECASE):
                said = (0, you)  # ("…since you passed away")
            elif m.group("whose"):  # ("Tom's death": Tom's, or no one's: "his parents' death")
                last = re.sub(r"['’]s?$", "", m.group("whose")).lower()
                said = (0, re.sub(r"['’]s?$", "", m.group("whose"))) if last in names else \
                    (0, f"your {last}") if last in kin.KIN and re.search(  # ("your
                        r"\b(?:your|my)\s+$", before, re.IGNORECASE) else None  # daughter's")
            else:
                # (not a name said in an aside before it: "Piotr, the legendary chef who
                # once lived in Warsaw, has passed away" read "it says Warsaw died", 46d)
                # (but a name set off so is who it is: "Kenji's son, Yuki, passed away"
                # is Yuki, the cat, not Kenji, QA pass 47b)
                aside = re.search(r",([^,]*),\s*(?:(?:has|had|have|is|was)\s+)?$", before)
                named_aside = [w for w in facts.NAME_WORD.findall(aside.group(1))
                               if re.sub(r"['’]s$", "", w).lower() in names] \
                    if aside and re.fullmatch(r"\s*(?:[A-Z][\w'’-]*\s*){1,2}", aside.group(1)) else []
                before = re.sub(r",[^,]*,\s*((?:has|had|have|is|was)\s+)?$", r" \1", before)
                who = named_aside or [w for w in facts.NAME_WORD.findall(before)
                                      if re.sub(r"['’]s$", "", w).lower() in names]
                # (someone's relation is not them: "Kenji's son passed away")
                if not named_aside and re.search(r"['’]s\s+[a-z]+\s*$", before):
                    who = []
                # (or "my dad", the model speaking as the user: "My dad was in … when he
                # died", QA pass 43d read it as Jack, named sentences before)
                kin_said = re.findall(rf"\b(?:your|my)\s+({'|'.join(sorted(kin.KIN))})\b",
                                      before, re.IGNORECASE)
                # (the nearest before it: "Chloe's son Oscar (who died…)" is Oscar)
                said = max([(before.rfind(w), re.sub(r"['’]s$", "", w)) for w in who]
                           + [(max(before.lower().rfind(f"your {k.lower()}"), before.lower().rfind(
                               f"my {k.lower()}")), f"your {k.lower()}") for k in kin_said],
                           default=None)
                if said is None and last and re.search(r"\b(?:he|she)\s+(?:has\s+|had\s+)?$",
                                                       before, re.IGNORECASE):
                    said = (0, last)
            if said is None:
                continue
            whom = said[1].lower().removeprefix("your ")
            if whom in gone or kin.KIN.get(whom, whom) in gone:
                continue
            return {"kind": "death_untold", "name": said[1]}
        # (the last named, or "your father": "Dear Tomás, … Your father was a pharmacist…
        # He passed away last year" read "it says you died", QA pass 47a)
        named = [(m.start(), re.sub(r"['’]s$", "", m.group(0)))
                 for m in facts.NAME_WORD.finditer(sentence)
                 if re.sub(r"['’]s$", "", m.group(0)).lower() in names]
        named += [(m.start(), f"your {m.group(1).lower()}") for m in re.finditer(
            rf"\b(?:your|my)\s+({'|'.join(sorted(kin.KIN))})\b", sentence, re.IGNORECASE)]
        last = max(named)[1] if named else last
    return None


def alive_again(answer: str, texts: list[tuple[int, str]], names: AbstractSet[str],
                you: str = "you") -> dict | None:
    """``{"kind": "alive_again", "name": "Kwame", "memory": id, "said": …}`` when a memory
    of `texts` (id, words) tells of a death of someone of the user's life ("My husband
    Kwame passed away two years ago."), and a sentence of `answer` naming them (or "your
    husband") speaks of them as living: coming, a birthday, a move (QA pass 42g: "A few
    days ago, we celebrated Kwame's 25th birthday." to "When did Kwame die?"); None
    otherwise."""
    for eid, text in texts:
        for s in (c for x in facts.sentences(text) for c in _clauses(x) if _DIED.search(c)):
            # (a person, not a place named: "…lived in Hamburg; he died in 2019." is no
            # death of Hamburg's, QA pass 43d)
            who = {w.lower() for w in re.findall(r"(?<!\bin )(?<!\bto )(?<!\bfrom )(?<!\bat )"
                                                 r"[\w'’-]+", re.sub(r"['’]s?\b", "", s))
                   if w.lower() in names} | {k.lower() for k in re.findall(
                       rf"\b(?:my|our)\s+({'|'.join(sorted(kin.KIN))})\b", s, re.IGNORECASE)}
            # whom "he" or "she" opening a sentence is: the one the sentence before named
            # ("Your brother Vikram has been a wonderful friend… He lives in…", QA pass
            # 44b); no one after the answer tells the death itself ("…passed away last
            # year. He loves you still." is said in their memory)
            last: str | None = None
            mourned = False
            for sentence in facts.sentences(answer):
                low = sentence.lower()
                # (them, not another of theirs: "Jack, your dad's son, lives in Aberdeen",
                # QA pass 43d)
                # (or "my husband", the model speaking as the user: "So yes, my husband is
                # still alive.", QA pass 49e)
                said = next((w for w in sorted(who) if re.search(
                    rf"\b(?:your\s+)?{re.escape(w)}\b{_NOT_KINS}", low) and (w in names or re.search(
                        rf"\b(?:your|my)\s+{re.escape(w)}\b{_NOT_KINS}", low))), None)
                if said is None and last is not None and _HE_SHE.match(sentence):
                    said = last
                # (or within it, from there on: "I just love how he's now 30 years old…"
                # after "…proud of your husband", QA pass 49b, the husband dead)
                elif said is None and last is not None and (h := _HE_SHE_IN.search(sentence)):
                    said, sentence = last, sentence[h.start():]
                # (a card written to them: its "you" is them, "…celebrate your 25th
                # birthday", QA pass 44d)
                if said is None and you.lower() in who and re.search(r"\byour?\b", low):
                    said = you.lower()
                died = bool(_DIED.search(sentence))
                if said and not died and (_ALIVE.search(sentence) or _LIVING.search(sentence)):
                    called = re.search(rf"\b{re.escape(said)}\b", answer, re.IGNORECASE)
                    return {"kind": "alive_again", "memory": int(eid), "said": text,
                            "name": called.group(0) if said in names and called else
                            you if said == you.lower() else f"your {said}"}
                mourned = mourned or died and said is not None
                last = said if said and not mourned else None
    return None


_HE_SHE = re.compile(r"\s*(?:he|she)\b", re.IGNORECASE)
_HE_SHE_IN = re.compile(r"\b(?:how|that|when|because|as|and)\s+(?:he|she)\b", re.IGNORECASE)


def _clauses(sentence: str) -> list[str]:
    """`sentence` cut where another of the user's people becomes its subject: "My mum Rosa
    lives in Cork and my dad passed away last year." tells the dad's death, not Rosa's (QA
    pass 44: "it speaks of your mum as living" under every answer that spoke of her)."""
    return _NEW_SUBJECT.split(sentence)


_NEW_SUBJECT = re.compile(r"[,;]?\s+(?:and|but|while|whereas)\s+(?=(?:my|our)\s+\w+)",
                          re.IGNORECASE)
# … or in the present, of what they do now: "Vikram is enjoying a successful career", "Vikram
# loves to eat prawns" (QA pass 44b: a brother who died in 2019)
_LIVING = re.compile(r"\b(?:is|are)\s+(?:enjoying|planning|working|living|looking forward|"
                     r"hoping|doing)\b|\b(?:enjoys|loves|likes|plans|works|hopes|continues)\b|"
                     # ("…your husband has continued in his profession.", QA pass 49e)
                     r"\bhas\s+been\s+\w+ing\b|\bhas\s+continued\b", re.IGNORECASE)


# not another of theirs: "your dad's son" (but "Kwame's birthday" is his)
_NOT_KINS = rf"(?!['’]s\s+(?:{'|'.join(sorted(kin.KIN))})\b)"
# what speaks of someone as living: coming, going to, a birthday, a move; said in the
# present ("your dad is a great guy", "he can answer"), or someone to call or visit (QA
# pass 43b: "…send an email to your dad and he can answer any questions", the dad dead)
_ALIVE = re.compile(r"\b(?:(?:will|['’]ll)(?!\s+(?:always\s+|forever\s+|never\s+)?(?:be\s+)?(?:"
                    # (said in their memory: "He will always be remembered", QA pass 45)
                    r"remembered|missed|loved|cherished|forgotten|honou?red|mourned|"
                    r"in\s+(?:your|our|my)\s+hearts?|with\s+(?:you|us)|live\s+on|stay\s+with))|"
                    r"is coming|are coming|coming|going to|celebrat\w*|"
                    # ("Nils Berg and his family have gone on to raise…", QA pass 48b)
                    r"(?:has|have)\s+gone\s+on\s+to|"
                    # ("No, Miso and Tofu are still alive.", QA pass 48e)
                    r"(?:is|are|['’]s|['’]re)\s+(?:still\s+)?(?:alive|living)(?!\s+(?:on\s+)?in\s+(?:our|your|"
                    r"my|his|her|their)\s+(?:hearts?|memor\w+|thoughts))|alive\s+and\s+well|"
                    r"birthday|turns?|turned|is doing|is now|lives(?!\s+on\b)|relocated|moved|visiting|"
                    r"(?:is|he['’]s|she['’]s)\s+(?:a|an|so|very|still|always|well|fine|happy|"
                    r"now(?!\s+(?:at\s+peace|in\s+heaven|with\s+god|resting|gone)))|"
                    r"(?:he|she)\s+(?:can|could|wants|says|has|does|loves|likes)|(?:call|phone|"
                    r"ring|e-?mail|text|visit|ask|tell|message)(?:s|ing)?\s+(?:to\s+)?(?:your|him|"
                    r"her)\b"
                    # (a pet had now: "You have two cats, Miso and Tofu…", Tofu dead, QA pass 48c)
                    rf"|\byou\s+(?:have|own|['’]ve\s+got)\s+(?:a|an|one|two|three|four|five|\d+)\s+"
                    rf"(?:{kin.KIN_PET_BREED})s?\b)\b", re.IGNORECASE)


# a death ("died", "passed away", "is dead", "Tom's death"), not "dyed" nor "dead tired"
_DIED = re.compile(r"(?P<whose>\b[\w-]+(?:['’]s|s['’]))\s+(?:sudden\s+|recent\s+)?death\b|"
                   # (not "nearly died": "Marcus tried one and nearly died.", `bench personal`
                   # read him as dead in 0.36's first run)
                   r"\b(?<!nearly )(?<!almost )(?<!practically )(?:died|dies|passed\s+away|"
                   r"passed\s+on|(?:is|was|are)\s+dead\b(?!\s+"
                   r"(?:tired|set|easy|right))|(?:was|were)\s+killed|death\s+of|funeral|"
                   r"late\s+(?:husband|wife|father|mother|dad|mum|mom|son|daughter|brother|"
                   r"sister|grandad|granddad|grandfather|grandmother|grandma|gran|nan)"
                   # ("I lost my husband Geoffrey in 2019.", QA pass 54c: "it says Geoffrey
                   # died, and you never told me so")
                   r"|(?:lost|losing)\s+(?:my|our|his|her|their)\s+(?:husband|wife|father|"
                   r"mother|dad|mum|mom|son|daughter|brother|sister|partner|grandad|"
                   r"grandfather|grandmother|grandma|gran|nan|twin|baby)\b(?!\s+(?:in|at)\s+"
                   r"the\s+(?:crowd|shop|supermarket|park|mall)))\b",
                   re.IGNORECASE)


def _dated(part: str) -> bool:
    """Is `part` a month, a weekday or another word no name is (`facts.NOT_NAMES`), or a
    weekday in the plural ("Wednesdays", QA pass 36b)?"""
    return part in facts.NOT_NAMES or part.endswith("s") and part[:-1] in _DATE_NAMES


# a date, day first or month first: "12 March", "the 3rd of May", "March 12th"
_DATE = re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?({MONTH})\b"
                   rf"|\b({MONTH})\s+(\d{{1,2}})(?:st|nd|rd|th)?\b(?!\s*[:.]\d)", re.IGNORECASE)


def _dates(text: str) -> list[tuple[tuple[int, int], tuple[int, str]]]:
    """(where, (day, month)) of each date in `text`, in order (the month by its first
    three letters, lower case)."""
    out = []
    for m in _DATE.finditer(text):
        day, month = (m.group(1), m.group(2)) if m.group(1) else (m.group(4), m.group(3))
        out.append((m.span(), (int(day), month[:3].lower())))
    return out


# a title whose full stop the sentences were cut at: what follows is a name ("Dr. Nana",
# QA pass 32: read as a sentence's first word, a common one)
_TITLE = re.compile(r"\b(?:Dr|Mr|Mrs|Ms|Mx|Prof|St|Sr|Jr)\.\s*$")
# a word said to be someone of the user's life, or their pet, is a name however common:
# "Elsa is your daughter.", "Elsa, your daughter, …" (QA pass 36c: "Elsa", opening a
# sentence, is in the word list as every common first name is)
# (not "Second, your nephew Caleb…": the relation names Caleb, `bench personal`)
_NAMED_AS = re.compile(rf"\s*(?:is|was|['’]s|,)\s+(?:your|my|our)\s+(?:(?:little|older|"
                       rf"younger|big|elder|baby|best)\s+)?(?i:{kin.KIN_PET_BREED})\b(?!['’])"
                       rf"(?!\s+[A-Z])"
                       # ("Ajax is a very popular name…" to "What's my brother's name?", QA
                       # pass 41: the wrong name itself went unsaid)
                       rf"|\s+(?:is|was)\s+(?:a|an|the)\s+(?:[\w-]+\s+){{0,3}}?name\b")
_BEFORE_LANGUAGE = re.compile(r"[ \t]+(?:English|French|Spanish|German|Italian|Greek|Norse|"
                              r"Chinese|Japanese|Arabic|Latin|Irish|Welsh|Scots)\b")
_PREV_WORD = re.compile(r"([^\W\d_][\w'’-]*)[ \t]+$")
# a letter's sign-off: the name under it is a name, however common ("Yours truly,\nDoris",
# QA pass 35: the model signed as someone no memory names, and nothing marked it)
_SIGNS_OFF = re.compile(r"(?:^|[\n.!?]\s*)(?:yours(?:\s+(?:truly|sincerely|faithfully|ever))?|"
                        r"sincerely|(?:best |kind |warm )?regards|(?:best |warm )?wishes|cheers|"
                        r"(?:with )?love|warmly|best|thanks|thank you),\s*$", re.IGNORECASE)
_SIGNATURE = re.compile(r"[A-Z][\w'’.-]*(?:[ \t]+[A-Z][\w'’.-]*)*[.!]?\s*")


def _signs(text: str, at: int) -> bool:
    """Does the word at `at` sign a letter: it follows a sign-off ("Yours truly,") and only
    names follow it on its line ("Doris Miller")?"""
    end = text.find("\n", at)
    return bool(_SIGNS_OFF.search(text[max(0, at - 40):at])) and bool(
        _SIGNATURE.fullmatch(text[at:end if end >= 0 else len(text)]))


_ASIDE = re.compile(r"\s*\([^()]*\)\s*")  # "(finally) Happy new days" (QA pass 37)
_OPENS = (":", "•", "*")  # (what a line or an item opens with; not a quote: "King of the …")
_AS_DATE = re.compile(rf"(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?{MONTH}\b", re.IGNORECASE)
_AS_AGE = re.compile(r"[\s-]*(?:years?|yrs?)[\s-]*old\b|[\s-]*(?:years?|yrs?)\b(?!\s+(?:ago|later|"
                     r"before|after|from))", re.IGNORECASE)


_INITIAL_SKIPS = frozenset("of and the for in on to a an & or".split())


def _spelled_out(word: str, before: str, after: str) -> bool:
    """Is `word` an acronym of the words written right before or right after it
    ("…chronic obstructive pulmonary disease (COPD)", "COPD (chronic obstructive
    pulmonary disease)"), small words such as "of" left out or not?  Then it is no name of
    its own (bench personal: "COPD" was marked made up)."""
    if not (2 <= len(word) <= 8 and word.isupper() and word.isalpha()):
        return False
    want, n = word.lower(), 2 * len(word)
    ahead = re.findall(r"[^\W\d_]+", before)[-n:]
    behind = re.findall(r"[^\W\d_]+", after)[:n]
    for words, ends in ((ahead, True), (behind, False)):
        for kept in (words, [w for w in words if w.lower() not in _INITIAL_SKIPS]):
            initials = "".join(w[0].lower() for w in kept)
            if initials.endswith(want) if ends else initials.startswith(want):
                return True
    return False


# what joins the words of one name ("North America", "King of the Piano", "Hotel de Ville")
_JOINS = re.compile(r"\s+(?:(?:of|the|de|du|des|la|le|van|von|der|den|del|da|di)\s+)*")
# the endings by which a name's other forms differ from it ("Japan" / "Japanese", "Paris"
# / "Parisian", "Joost" / "Joost's"); not any shared beginning ("Samir" / "Samira")
_NAME_ENDINGS = ("s", "es", "n", "an", "ian", "ese", "ish", "i", "ns", "ans", "ians", "y")


def _known_part(part: str, words: AbstractSet[str]) -> bool:
    """Is `part` (lower case) one of `words` (accents aside: "Krakow" where "Kraków" was
    said), or one of them with or without a name's ending (`_NAME_ENDINGS`), or the
    country of a people's word or the other way round ("Poland" where "Polish" was said,
    QA pass 36b), or of a city (`_COUNTRY_OF`), or one of them with its last letter cut
    ("Efu" for "Efua": QA pass 38, the model's token stopped short)?"""
    part = _fold(part)
    return part in words or any(
        part.endswith(e) and part[:-len(e)] in words or part + e in words
        for e in _NAME_ENDINGS) or _PEOPLE.get(part, "") in words \
        or len(part) >= _TYPO_LEN - 1 and any(_one_slip(part, w) for w in words) \
        or any(part in _COUNTRY_OF.get(w, ()) for w in words) \
        or len(part) >= 3 and any(len(w) == len(part) + 1 and w.startswith(part) for w in words)


# a name this long, one letter off a known one, is that name mistyped ("Ljubljan" where
# "Ljubljana" was said, QA pass 36c), not another name; shorter ones often are another
# ("Samir" / "Samira", "Anna" / "Anne")
_TYPO_LEN = 7


def _one_slip(a: str, b: str) -> bool:
    """Are `a` and `b` (`b` at least `_TYPO_LEN` letters) one slip apart (`words.one_slip`:
    "Adeymi" of "Adeyemi", a letter left out, QA pass 50e)?"""
    return len(b) >= _TYPO_LEN and one_slip(a, b)


# a country and its people's word: one said, the other is no made-up name
_PEOPLE = {k: v for k, v in (pair.split(":") for pair in """
poland:polish sweden:swedish denmark:danish finland:finnish britain:british england:english
spain:spanish turkey:turkish ireland:irish scotland:scottish portugal:portuguese
china:chinese japan:japanese netherlands:dutch holland:dutch france:french germany:german
greece:greek switzerland:swiss wales:welsh norway:norwegian italy:italian brazil:brazilian
russia:russian ukraine:ukrainian vietnam:vietnamese korea:korean india:indian mexico:mexican
canada:canadian australia:australian america:american iceland:icelandic thailand:thai
philippines:filipino peru:peruvian egypt:egyptian austria:austrian belgium:belgian
hungary:hungarian romania:romanian czechia:czech argentina:argentinian chile:chilean
colombia:colombian morocco:moroccan nigeria:nigerian kenya:kenyan israel:israeli
iran:iranian iraq:iraqi pakistan:pakistani croatia:croatian serbia:serbian
belarus:belarusian lithuania:lithuanian latvia:latvian estonia:estonian slovakia:slovak
slovenia:slovenian bulgaria:bulgarian ghana:ghanaian ethiopia:ethiopian jamaica:jamaican
lebanon:lebanese syria:syrian somalia:somali bangladesh:bangladeshi nepal:nepali""".split())}
_LAND = {v: k for k, v in _PEOPLE.items()}
COUNTRIES = frozenset(_PEOPLE) | {"uk", "usa", "us"}  # (lower case)
# what "I'm …" may be that is no name: a people's word, a language, a faith (lower case)
NO_NAMES = frozenset(_LAND) | _NOT_MADE_UP | frozenset("english british scottish welsh irish "
                                                        "portuguese".split())
# a city and its country, and the country's people: a memory that names the city names
# them too ("Portugal" in an answer about the user's trip to Lisbon is no made-up name, QA
# pass 37), accents folded (`_known_part`)
def _by_city(table: str) -> dict[str, tuple[str, ...]]:
    """city -> (its country, the country's other names and people's words), from lines
    "country people…: city city…" (a line without a colon goes on with the last one's)."""
    out: dict[str, tuple[str, ...]] = {}
    names: tuple[str, ...] = ()
    for line in table.strip().splitlines():
        if ":" in line:
            head, line = line.split(":")
            names = tuple(head.split())
        out.update(dict.fromkeys(line.split(), names))
    return out


_COUNTRY_OF = _by_city("""
england britain british english uk: london manchester leeds bristol liverpool birmingham
  sheffield newcastle nottingham oxford cambridge brighton york
scotland scottish britain british uk: edinburgh glasgow aberdeen
wales welsh britain british uk: cardiff swansea
ireland irish: dublin cork galway
france french: paris lyon marseille nice toulouse bordeaux lille nantes strasbourg
germany german: berlin munich hamburg cologne frankfurt stuttgart dresden leipzig
spain spanish: madrid barcelona seville valencia bilbao malaga granada
portugal portuguese: lisbon porto faro
italy italian: rome milan naples florence venice turin bologna
netherlands holland dutch: amsterdam rotterdam utrecht eindhoven groningen
belgium belgian: brussels antwerp ghent bruges
austria austrian: vienna salzburg innsbruck
switzerland swiss: zurich geneva bern basel lausanne
norway norwegian: oslo bergen trondheim stavanger tromso alesund
sweden swedish: stockholm gothenburg malmo uppsala
denmark danish: copenhagen aarhus odense
finland finnish: helsinki tampere turku
iceland icelandic: reykjavik
poland polish: warsaw krakow gdansk wroclaw poznan
czechia czech: prague brno
hungary hungarian: budapest
greece greek: athens thessaloniki
turkey turkish: istanbul ankara izmir
russia russian: moscow
ukraine ukrainian: kyiv kiev lviv odesa odessa
croatia croatian: zagreb split dubrovnik
serbia serbian: belgrade
romania romanian: bucharest
slovenia slovenian: ljubljana
japan japanese: tokyo osaka kyoto
china chinese: beijing shanghai
korea korean: seoul busan
india indian: mumbai delhi bangalore chennai kolkata
australia australian: sydney melbourne brisbane perth adelaide
canada canadian: toronto vancouver montreal ottawa calgary
america american usa us: chicago boston seattle houston
ghana ghanaian: accra kumasi
nigeria nigerian: lagos abuja
kenya kenyan: nairobi mombasa
egypt egyptian: cairo alexandria
morocco moroccan: marrakech casablanca rabat
brazil brazilian: rio salvador
argentina argentinian: buenos
peru peruvian: lima cusco
colombia colombian: bogota medellin
chile chilean: santiago
mexico mexican: guadalajara cancun
vietnam vietnamese: hanoi
thailand thai: bangkok
philippines filipino: manila
israel israeli: jerusalem
iran iranian: tehran
iraq iraqi: baghdad
pakistan pakistani: karachi lahore islamabad""")


# a letter's closing and the name signed under it ("Best regards,\nAlex")
# (on the same line too, and with a place: "Best regards, Elena", "Warm regards, / Sarah
# from Edinburgh", QA pass 44c: neither was marked)
_SIGNED = re.compile(r"(?:(?:^|\n)[ \t]*(?:[\w]+[ \t]+){0,2}?(?:regards|love|wishes|yours(?:\s+(?:truly|sincerely|always))?|cheers|"
                     # ("Warm regards to all,", "God bless you,": QA pass 47a)
                     r"warmly|sincerely|hugs|xx+|bless you)(?:[ \t]+to[ \t]+(?:all|you|everyone))?"
                     r"[,!.]?[ \t]*(?:\n+\s*|(?<=,)[ \t]*)"
                     # (a line of wishes, the name on the next: "Wishing for a nice day
                     # together at work,\nKaren", QA pass 47b; not "Wishing you…, Kenji.")
                     r"|(?:^|\n)[ \t]*wishing\b[^\n,.!?]{0,50}[,!.]?[ \t]*\n+\s*)"
                     # (a surname after it: "Kyōhei Nakamura", QA pass 47d; a title before
                     # it: "Mr. Arjun Sharma", QA pass 48c)
                     r"(?:(?:mr|mrs|ms|miss|dr|prof)\.?[ \t]+)?"
                     r"((?-i:[A-Z])[\w'’-]+)(?:[ \t]+(?-i:[A-Z])[\w'’-]+)?"
                     r"(?:\s+from\s+[A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+)?)?[\s.!,]*$",
                     re.IGNORECASE)


def signed_as(answer: str, yours: Sequence[str]) -> dict | None:
    """``{"kind": "misnamed", "asked": "you", "said": "Alex", "yours": …, "signed": True}``
    when a letter or card written for the user is signed with a name not theirs (QA pass
    42b: "…Best regards,\nAlex" for Sofia); None otherwise."""
    # (or naming the writer in it, "Dear God, My name is Emma…" to Sofia, QA pass 44: it
    # calls her Emma)
    signed = _SIGNED.search(_signed_end(answer))
    m = signed or _MY_NAME.search(answer)
    return {"kind": "misnamed", "asked": "you", "said": m.group(1), "yours": " ".join(yours),
            **({"signed": True} if signed else {})} \
        if m and yours and m.group(1) not in yours else None


_MY_NAME = re.compile(r"\b(?i:my name is|my name['’]s)\s+([A-Z][\w'’-]+)")
# what may follow a signature: a placeholder ("[Your Name]") or a title of a few words
# ("Dedicated Hearts", "NMC cardiology specialist": QA pass 47a, both cards unmarked)
_AFTER_SIGNED = re.compile(r"\n[ \t]*(?:\[[^\]\n]{1,30}\]|[^\s.!?\[][^\n.!?]{0,40})[ \t]*$")


def _signed_end(answer: str) -> str:
    """`answer` up to its signature: up to three placeholder or title lines after it left
    out, or a few short lines of anything (at most `_AFTER_LINES`, `_AFTER_CHARS` in all:
    "…Takahisa Takatsuki\nThe Japanese Ambassador…\n\nPlease let me know a way you can
    assist…", QA pass 47d)."""
    text = answer.rstrip()
    for _ in range(3):
        if _SIGNED.search(text) or not _AFTER_SIGNED.search(text):
            break
        text = _AFTER_SIGNED.sub("", text).rstrip()
    if _SIGNED.search(text):
        return text
    lines = text.split("\n")
    for k in range(len(lines) - 1, max(0, len(lines) - 1 - _AFTER_LINES) - 1, -1):
        head = "\n".join(lines[:k]).rstrip()
        if len(text) - len(head) > _AFTER_CHARS:
            break
        if _SIGNED.search(head):
            return head
    return text


_AFTER_LINES, _AFTER_CHARS = 6, 240


# a card or letter's greeting: "Dear Yuvraj,", "Hi Arjun!", "Happy birthday, Arjun!"
_GREETING = re.compile(r"\A\s*(?:[*#_]+[^\n]*\n+\s*)?(?:(?:(?:my\s+)?(?:dear(?:est)?|hi|hello|hey)"
                       r"|happy\s+birthday,?)\s+((?-i:[A-Z])[\w'’-]+)\s*[,!:\n]"
                       # (a name on a line of its own: "Liam,\nPray for…", QA pass 48c)
                       r"|((?-i:[A-Z])[\w'’-]+)[ \t]*,?[ \t]*\n)", re.IGNORECASE)
# who a card is for, by the name the message writes: "…a birthday card for Arjun", "…a letter
# to my dad Ravi", "Write Arjun a card"
_FOR_NAMED = re.compile(r"\b(?:for|to)\s+(?:(?:my|our)\s+[a-z]+\s+)?((?-i:[A-Z])[\w'’-]+)|"
                        r"\b(?:write|send)\s+((?-i:[A-Z])[\w'’-]+)\s+an?\b", re.IGNORECASE)


def addressed_as(message: str, answer: str, known: AbstractSet[str]) -> dict | None:
    """``{"kind": "misnamed", "asked": "Arjun", "said": "Yuvraj", "card": True}`` when a
    card or letter the user asked for someone they named opens on another name ("Dear
    Yuvraj," to "Write a short birthday card for Arjun.": QA pass 48a, no line); not a
    title, a relation, a short form or the name misspelt ("Dear Dad,", "Dear Mrs Patel,",
    "Hi Arj!", "Dear Arjn,").  `known`: the user's names, lower case (one of them: the
    line says it is another's)."""
    greets, wants = _GREETING.match(answer), _FOR_NAMED.search(message)
    if not greets or not wants:
        return None
    said, asked = greets.group(1) or greets.group(2), wants.group(1) or wants.group(2)
    low = said.lower()
    if low == asked.lower() or low in facts.STOPWORDS or low in kin.KIN or low in _TITLES \
            or low in _FOREIGN_KIN \
            or greets.group(2) and (low in _OPENINGS or facts.is_interjection(low)) \
            or asked.lower() not in known or low.startswith(asked.lower()[:3]) \
            or re.search(rf"\b{re.escape(said)}\b", message) \
            or one_slip(_fold(low), _fold(asked.lower())):
        return None
    return {"kind": "misnamed", "asked": asked, "said": said, "card": True,
            **({"of": "someone else you told me of"} if low in known else {})}


# a first line that is no name ("Congratulations,", "Greetings")
_OPENINGS = frozenset("congratulations congrats greetings hello hi hey dear dearest happy "
                      "cheers welcome thanks sorry note card message letter subject".split())
_TITLES = frozenset("mr mrs ms miss dr doctor sir madam madame friend friends all everyone "
                    "team family folks guys son daughter sweetheart darling love buddy pal "
                    "birthday boy girl".split())
