"""Whether a message asks what is known about the user as a whole ("What do you know
about me?"), and whether it asks only that: the app answers that question itself
(`about_you`), and the gate recalls what matters most for it."""

from __future__ import annotations

import re

# a question about the user as a whole ("What do you know about me?", "Summarise what you
# remember about me.", "Tell me about myself.", "Who am I?")
_ABOUT_ME = re.compile(
    r"\b(?:know|knew|remember|recall|learn(?:ed|t)?|told you|say|said)\b[^.?!]{0,40}\babout me\b"
    r"|\babout myself\b|\bwho am i\b|\bwhat (?:have i|did i) (?:told|tell) you\b",
    re.IGNORECASE)


def asks_about_whole_user(text: str) -> bool:
    """Does `text` ask what is known about the user as a whole ("What do you know about
    me?", "Summarise what you remember about me.", "Who am I?")?  No one memory resembles
    such a question, so the gate recalls the memories that matter most instead."""
    return bool(_ABOUT_ME.search(text))


# the whole message is that question, and nothing more ("What do you know about me?",
# "Tell me everything you remember about me.", "Who am I?"; not "What do you know about me
# and my dog?", nor "What did my sister say about me?")
_LEAD = r"(?:(?:so|and|ok|okay|hey|hi|hello|hela|well|now|then)\b[,!.]?\s*)*"
_ONLY_ABOUT_ME = re.compile(
    "^" + _LEAD
    + r"(?:(?:what (?:else )?(?:do|did|can) you (?:know|remember|recall)"
    r"|what (?:have|did) you (?:learned|learnt|learn|got|remembered|remember)"
    r"|(?:(?:can|could|would) you |please )?(?:tell me|summari[sz]e|list|remind me)"
    r" (?:what|everything|all) you (?:know|remember|recall|have learned|have learnt)"
    r"|do you (?:know|remember) anything)(?: so far)? about me"
    r"|what have i told you(?: about myself)?|who am i"
    r"|(?:(?:can|could|would) you |please )?tell me about myself)"
    r"(?: so far| already| now| yet| then)?(?:,? please)?\s*[?.!]*$",
    re.IGNORECASE)


def asks_only_about_whole_user(text: str) -> bool:
    """Is `text` only the question of what is known about the user as a whole ("What do
    you know about me?", "Summarise what you remember about me.", "Who am I?"), with nothing
    else asked?  The app answers it itself, with the user's own words
    (`hela_desktop.about_you`)."""
    return bool(_ONLY_ABOUT_ME.match(" ".join(text.split())))


__all__ = ["asks_about_whole_user", "asks_only_about_whole_user"]
