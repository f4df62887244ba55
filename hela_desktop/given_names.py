"""Names a user gives the people and animals of their life (Qt-free): "my colleague Will",
"my dog Bill" make "will" and "bill" names though they are everyday words (`name_index.NameIndex`;
QA pass 36: "Will" was no name, so nothing about Will was checked or found); and how an
answer calls someone by a name ("Hi Jamie,", "Liam,\n", "Yes, my dear Tobi!": `whom`)."""

from __future__ import annotations

import re
from collections.abc import Iterable

# a name the user gives someone of theirs: "my colleague Will", "my best friend Mark"
_GIVEN_NAME = re.compile(r"\b(?i:my|our)\s+(?:(?!(?i:to|in|at|from|of|with|for|on|and|or|the|a|"
                         r"an|by|near|about)\b)[a-z][\w'’-]*\s+){1,2}([^\W\d_][\w'’-]*)")
_CAPITALISED = re.compile(r"\b([A-Z][a-z'’-]+)\b")
# what follows "Will" or "May" opening a question, not a name ("Will you…", "May the…")
_PRONOUN_NEXT = re.compile(r"\s+(?:i|you|we|he|she|it|they|there|this|that|these|those|the|a|"
                           r"an|my|your|our|his|her|their|i['’]m|i['’]ll)\b", re.IGNORECASE)


def names_given(text: str) -> set[str]:
    """The names `text` gives someone of the user's ("My colleague Will", "My brother
    Dylan's", "my friend Łukasz"), lower case: a word capitalised and then in lower case,
    not "I'm" (`bench personal`: "…my current students I'm…")."""
    out = set()
    for m in _GIVEN_NAME.finditer(text):
        w = re.sub(r"['’]s$", "", m.group(1))
        if len(w) > 1 and w[0].isupper() and w[1:].replace("-", "").isalpha() and w[1:].islower():
            out.add(w.lower())
    return out


def given_in(text: str, given: Iterable[str]) -> set[str]:
    """The names of `given` that `text` writes capitalised, but not opening a question
    ("Will you…", "May the…": `_PRONOUN_NEXT`)."""
    wanted = set(given)
    out = set()
    for m in _CAPITALISED.finditer(text):
        w = m.group(1).lower()
        opens = not text[:m.start()].strip() or text[:m.start()].rstrip()[-1] in ".!?"
        if w in wanted and not (opens and _PRONOUN_NEXT.match(text, m.end())):
            out.add(w)
    return out


# how an answer calls the one it speaks to by a name (`whom.greets_as`)
GREETS = re.compile(r"\s*(?:hi|hello|hey|dear|good (?:morning|afternoon|evening)|welcome back)"
                    r"\s*,?\s+(?!I(?:['’][a-z]+)?\b)((?-i:[A-Z])[\w'’-]+)\b", re.IGNORECASE)


# (or on a line of its own, or before an ellipsis: "Liam,\nLiam, please…", "Liam... I hope
# you have…", QA pass 48c: four answers to Priya unmarked)
# (not a word an apposition follows: "Beer, a specialty of Brew Lab's history…", QA pass
# 54b read "it calls you “Beer”")
OPENS_CALLING = re.compile(r"\s*([A-Z][a-z'’-]+)(?:,\s+(?=[a-z])(?!(?:a|an|the|which|who|that)\s)"
                           r"|,[ \t]*\n|(?:\.\.\.|…)[ \t]*(?=[A-Z]))")
# a word that opens a reply before a comma and is no name ("Sure, …", "Sadly, …"; a name
# ending as an adverb does is one: "Dear Emily," QA pass 49b)
OPENER = re.compile(r"(?i:(?!(?:emily|molly|holly|kelly|sally|polly|lily|lilly|shelly|beverly|"
                    r"billy|carly|dolly|wally|ally|kimberly|kiely|charly)$)[a-z]+ly|h+m+|pardon|excuse|gosh|goodness|ooh|aha|sure|well|yes|yeah|yep|no|nope|okay|ok|sorry|great|right|"
                    r"alright|indeed|hello|hi|hey|thanks|congratulations|congrats|wonderful|"
                    r"perfect|excellent|awesome|fantastic|amazing|lovely|nice|cool|today|"
                    r"tomorrow|yesterday|tonight|also|now|then|so|but|and|however|meanwhile|"
                    r"besides|plus|instead|otherwise|first|second|finally|here|there|oh|ah|"
                    r"wow|hmm|of|in|for|as|if|when|while|after|before|since|because|although|"
                    r"though|unfortunately|anyway|remember|look|listen|please|note|again|"
                    r"basically|honestly|interesting|correct|true|exactly|good|bad|dear)$")
# ("I'm so glad you're happy… Yes, my dear Tobi! It's actually 10 March…", QA pass 49b)
MY_DEAR = re.compile(r"\W*(?:(?:yes|no|oh|well|ah|thanks|thank you)\W+)?my\s+(?:dear(?:est)?|"
                     r"darling|sweet)\s+((?-i:[A-Z])[\w'’-]+)\s*[!,.]", re.IGNORECASE)
CALLED_LAST = re.compile(r"\byou(?:r|['’]re|['’]ll|['’]ve)?\b[^.!?]*,\s+([A-Z][\w'’-]+)\s*[!.?]*\s*$",
                         re.IGNORECASE)


__all__ = ["CALLED_LAST", "GREETS", "MY_DEAR", "OPENER", "OPENS_CALLING", "given_in", "names_given"]
