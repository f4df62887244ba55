"""Which language a text is written in, roughly, and which words are everyday English
(Qt-free, no model needed).

The small models answer in the user's language most of the time, and drift into another
now and then (a Portuguese reply to an English question).  These plain counts of function
words tell the two apart (`formulas.drifted` decides), and `asks_language` says when
another language was asked for.
"""

from __future__ import annotations

import functools
import re

# English function words that other languages written in Latin letters rarely use as words
# ("a", "do", "no", "me", "in", "so", "an", "die" are words of Portuguese, Spanish, German…)
ENGLISH_MARKERS = frozenset(
    """the and you your yours is are to of it its that with for this i my have has had was
    were be been not what will would can could we they he she at or but if from by about
    there how which just all his her them their our who when where why i'm it's you're don't
    can't i'll i've what's that's there's here's let's he's she's they're we're isn't
    doesn't didn't won't wasn't aren't i'd you'll we'll you'd some any""".split()
)
_LETTER_WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?", re.UNICODE)
_CODE_FENCE = re.compile(r"```.*?(```|$)", re.S)
# Chinese, Japanese kana and Korean: scripts without capitals or spaces between words
CJK_CHAR = r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]"
_CJK = re.compile(CJK_CHAR)


# function words of Portuguese, Spanish, French, Italian, German and Dutch that are not
# English words ("a", "do", "no", "me", "die", "con", "per", "of", "is", "door", "over"
# are, and are left out)
FOREIGN_MARKERS = frozenset(
    """e o os de da das dos em na nas nos um uma para por com não que se mais como mas ele ela
    eu você é são está el la los las y en del es un una pero muy su sus et est le les une
    des du au aux je tu il elle nous vous ils pas ce cette qui di che della sono der das und
    ist nicht ein eine mit ich sie wir auf zu von sich auch
    het een van zijn niet dat voor ook bij naar maar wel nog geen deze dit wordt worden
    hebben heeft jij mijn ons wij ik hij wat aan als zou kan moet waar hoe omdat wanneer
    uit nie""".split()
)


def language_shares(text: str) -> tuple[float, float, int]:
    """(share of `text`'s words that are `ENGLISH_MARKERS`, share that are foreign: one of
    `FOREIGN_MARKERS` or written with a letter English does not use, "míro", "forçá"; how
    many words).  Words are runs of letters (an apostrophe inside kept), fenced code left
    out.  English prose has 0.2 to 0.6 English words and next to no foreign ones.
    ``language_shares("Bossa de Joana. E para o músido!")`` is (0.0, 5/7, 7): "de", "e",
    "para", "o" and "músido"."""
    words = [w.lower() for w in _LETTER_WORD.findall(_CODE_FENCE.sub(" ", text))]
    # Chinese, Japanese and Korean runs have no spaces between words: a run longer than a
    # name ("美咲", "彦開です") counts as one word per two characters, about what the
    # languages average (QA pass 36b N11: a paragraph of Chinese was one "word", too short
    # to tell, and never counted as drift)
    words = [x for w in words for x in (
        [w] if len(_CJK.findall(w)) <= 4 else [w] * ((len(_CJK.findall(w)) + 1) // 2))]
    if not words:
        return 0.0, 0.0, 0
    n = len(words)
    foreign = sum(w in FOREIGN_MARKERS or not w.isascii() for w in words)
    return sum(w in ENGLISH_MARKERS for w in words) / n, foreign / n, n


_ASKS_LANGUAGE = re.compile(
    r"\b(translat\w*|in (?:another|a different|other) language|afrikaans|arabic|bengali|"
    r"catalan|chinese|mandarin|cantonese|croatian|czech|danish|dutch|esperanto|estonian|"
    r"finnish|french|german|greek|hebrew|hindi|hungarian|icelandic|indonesian|irish|"
    r"italian|japanese|korean|latin|latvian|lithuanian|malay|norwegian|persian|farsi|"
    r"polish|portuguese|romanian|russian|serbian|slovak|slovenian|spanish|swahili|swedish|"
    r"tagalog|thai|turkish|ukrainian|urdu|vietnamese|welsh|yiddish)\b", re.I)


def asks_language(text: str) -> bool:
    """Does `text` name a language or ask for a translation ("Say it in Portuguese",
    "Translate this")?  Then an answer in another language is what was asked for."""
    return _ASKS_LANGUAGE.search(text) is not None


# "my", "I", "we", "our" in Spanish, Portuguese, French, Italian, German and Dutch
FOREIGN_FIRST_PERSON = frozenset(
    """mi mis yo nosotros nosotras nuestro nuestra nuestros nuestras meu minha meus minhas eu
    nosso nossa nossos nossas mon ma mes je nous notre nos mio mia miei mie io noi nostro
    nostra nostri nostre mein meine meinen meinem meiner meines ich wir unser unsere unseren
    unserem mijn ik wij ons onze""".split())


def speaks_of_self_abroad(text: str) -> bool:
    """Does `text`, written in another language than English (more foreign words than
    English ones, its first-person words counted as foreign, `language_shares`), speak of the writer ("¿Dónde vive mi hermana?",
    "Wo wohnt meine Schwester?")?  Memories are matched by English words and an English
    embedder, so such a question may recall nothing the user told, and the answer must
    say so (QA pass 31: a Spanish question recalled nothing, and nothing said it)."""
    english, foreign, n = language_shares(text)
    mine = sum(w.lower() in FOREIGN_FIRST_PERSON for w in _LETTER_WORD.findall(text))
    return mine > 0 and (foreign * n + mine) > english * n  # ("meine" is in no other list)



@functools.lru_cache(maxsize=1)
def _common_words() -> frozenset[str]:
    """The whole words of the bundled embedder's vocabulary (all-MiniLM-L6-v2's WordPiece
    list: about 20,000 lower-case words of English text, common first names and places
    among them); empty when it is not installed."""
    from .paths import bundled_embedder_path

    folder = bundled_embedder_path()
    try:
        vocab = (folder / "vocab.txt").read_text(encoding="utf-8").split() if folder else []
    except OSError:
        vocab = []
    return frozenset(w for w in vocab if w.isalpha())


def is_common_word(word: str) -> bool:
    """Is `word` (any case) a word of everyday English text, as it is or without an
    inflection ("Unfortunately", "Swimming", "Rotterdam", "Sarah"), rather than a rare or
    made-up one ("Siamira", "Athabak")?  True when no word list is installed: nothing can
    be told apart then."""
    common = _common_words()
    w = word.lower().replace("’", "'")
    return not common or w in common or w in _INTERJECTIONS or any(
        w.endswith(e) and w[:-len(e)] in common
        for e in ("s", "es", "ed", "d", "ing", "ly", "est")  # ("Warmest wishes", QA
    ) or w.endswith("ies") and w[:-3] + "y" in common  # pass 38; "Puppies", QA pass 36b)


# what opens a sentence in chat and is not in the word list ("Oops, …", "Hola!")
_INTERJECTIONS = frozenset("""
aw aww ahh ahem yay haha hahaha oops ohh yikes gosh ooh hooray yup okey ciao bonjour hola
hmm hmmm umm uhh whew phew ah oh wow hey ha eh uh um er hm hiya heya howdy ugh urgh argh
meh blah ouch eek welp ew eww
""".split())


def is_interjection(word: str) -> bool:
    """Is `word` (any case) an interjection ("Ah", "Oops", "Hola")?  Capitalised after
    "…" in the middle of a sentence, it is still no name (QA pass 30: "“Ah” is in none of
    the memories it was given")."""
    # (a sound drawn out is the same sound: "Aaah, Tomás!", "Ohhh", "Hmmmm", QA pass 51b
    # read "it calls you “Aaah”")
    w = word.lower()
    return w in _INTERJECTIONS or bool(_DRAWN_OUT.fullmatch(w))


_DRAWN_OUT = re.compile(r"a+h+|o+h+|h+m+|u+[hm]+|e+r+m*|w+o+w+|y+a+y+|u+g+h+|a+r+g+h+|o+o+p+s+")

def opens_with_no(text: str) -> bool:
    """Does `text` (an answer) open with a no ("No, …", "Nope.", "The answer is no, Leo is
    only 9", "Not at all", "Best not", "Not Dev: Kiran"; not "Not sure…")?  One reading
    for every check that weighs a no (QA pass 41 left three)."""
    return bool(_OPENS_NO.match(text))


_OPENS_NO = re.compile(r"\W*(?:the (?:short |simple )?answer is:?\s+)?[\"“]?\W*(?:no|nope|not "
                       r"really|not at all|of course not|best not|absolutely not|definitely not|"
                       r"certainly not|not(?=\s+(?-i:[A-Z])))\b"
                       # (after a word said to someone: "Ella, no.", "Tomás, no, she can't",
                       # QA pass 49a; not "Sure, no problem")
                       r"|\W*(?-i:[A-Z])[\w'’-]+,\s+no\s*[.,!;]", re.IGNORECASE)


__all__ = ["CJK_CHAR", "ENGLISH_MARKERS", "FOREIGN_MARKERS", "FOREIGN_FIRST_PERSON", "asks_language",
           "is_common_word", "is_interjection", "language_shares", "opens_with_no",
           "speaks_of_self_abroad"]
