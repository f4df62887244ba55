"""The people and animals of a user's life named by relation (Qt-free): "my mum" is
always the same person, "my dog" the same animal (`kin`, `kin_words`, `KIN_WORDS`,
`PETS`).  `facts` reads names with these tables; `whom` and the gate tell people apart by
them."""

from __future__ import annotations

import re

_WORD = re.compile(r"[^\W\d_][\w'’-]*", re.UNICODE)  # (as `facts` reads words)

# the people of a user's life they name by relation: "my mum" is always the same person
KIN = {
    "mum": "mother", "mom": "mother", "mother": "mother", "dad": "father", "father": "father",
    "wife": "wife", "husband": "husband", "partner": "partner", "fiancée": "fiancé",
    "fiancee": "fiancé", "fiancé": "fiancé", "fiance": "fiancé", "boyfriend": "boyfriend",
    "girlfriend": "girlfriend", "brother": "brother", "sister": "sister", "son": "son",
    "daughter": "daughter", "grandson": "grandson", "granddaughter": "granddaughter",
    "grandma": "grandmother", "grandmother": "grandmother", "grandpa": "grandfather",
    "grandfather": "grandfather", "nephew": "nephew", "niece": "niece", "aunt": "aunt",
    "uncle": "uncle", "cousin": "cousin", "boss": "boss", "manager": "manager",
    "roommate": "roommate", "flatmate": "flatmate", "neighbour": "neighbour",
    "neighbor": "neighbour",
    # (one friend above the others is one person: "Your best friend is Seamus." to "Who is
    # my best friend?" was no one's answer, QA pass 51a; "my friend" may be any of them)
    "best friend": "best friend", "bestie": "best friend", "closest friend": "best friend",
}


PETS = frozenset("dog dogs cat cats puppy kitten pet pets horse pony parrot parakeet budgie "
                 "rabbit bunny hamster tortoise turtle ferret goldfish pooch pup doggy doggo "
                 "moggy kitty".split())  # "my dog", "my pooch"
KIN_WORDS = frozenset(KIN)  # every word that names a relation ("mum", "brother", "boss")
# what a pet is called by its kind: "a beagle called Pepper" names an animal of the user's
# life as "a dog called Pepper" does (QA pass 36)
BREEDS = frozenset("beagle labrador spaniel terrier poodle collie retriever dachshund husky "
                   "pug greyhound whippet schnauzer corgi lurcher sheepdog alsatian tabby "
                   "siamese persian cockatiel canary shepherd dalmatian rottweiler chihuahua "
                   "bulldog doberman pomeranian macaw cockatoo lovebird conure lorikeet basset "
                   "hound".split()
                   ) | {"african grey"}  # (QA pass 40c: "Kiwi is an African grey.")

# the animal a breed or a word for a pet is ("tabby": a cat; a breed not named here: a dog)
_SPECIES = {"tabby": "cat", "siamese": "cat", "persian": "cat", "cockatiel": "bird",
            "canary": "bird", "dogs": "dog", "puppy": "dog", "cats": "cat", "kitten": "cat",
            "parrot": "bird", "parakeet": "bird", "budgie": "bird", "bunny": "rabbit",
            "macaw": "bird", "cockatoo": "bird", "lovebird": "bird", "conure": "bird",
            "lorikeet": "bird", "african grey": "bird", "pooch": "dog", "pup": "dog",
            "doggy": "dog", "doggo": "dog", "moggy": "cat", "kitty": "cat"}


def species(word: str) -> str:
    """The animal `word` (a breed or a pet word, lower case) is: "tabby" → "cat", "beagle"
    → "dog", "kitten" → "cat", "rabbit" → "rabbit"."""
    return _SPECIES.get(word, "dog" if word in BREEDS else word.removesuffix("s")
                        if word.endswith("s") and word[:-1] in PETS else word)


# looser words for a relation: a user who wrote "Finn, my eight-year-old" or "the kids" has
# told of a son (`MemoryEngine.tells_of`; `bench personal`: "What's my son completely
# obsessed with?" would have been answered "you have not told me about your son")
_CHILD = ("kid", "kids", "child", "children", "boy", "boys", "girl", "girls", "eldest",
          "youngest", "oldest", "toddler", "baby", "year old")
KIN_ALSO = {"son": _CHILD, "daughter": _CHILD, "brother": ("sibling", "siblings"),
            "sister": ("sibling", "siblings"), "husband": ("spouse", "partner"),
            "wife": ("spouse", "partner"), "partner": ("spouse", "husband", "wife",
                                                       "boyfriend", "girlfriend"),
            "mother": ("parents",), "father": ("parents",)}


def kin_words(relation: str) -> list[str]:
    """The words that name a relation ("mother" -> mum, mom, mother)."""
    return [w for w, r in KIN.items() if r == relation]


# a grandchild told as a child's child: "Our son Erik lives … with his wife Maja and their
# baby daughter Elsa." (QA pass 48b: "you have not told me about your granddaughter")
GRANDCHILD = {"granddaughter": "daughter|girl|baby|child|children|kids",
              "grandson": "son|boy|baby|child|children|kids"}


def tells_grandchild(relation: str, text: str) -> bool:
    """Does `text`, which names a son or daughter of the user's, name their child of the
    kind `relation` ("granddaughter") is: "their baby daughter", "his son", "her kids"?"""
    return bool(relation in GRANDCHILD and re.search(
        rf"\b(?:his|her|their)\s+(?:(?:baby|little|newborn|new|infant|young|[\w-]+-year-old)\s+)?"
        rf"(?:{GRANDCHILD[relation]})\b(?!\s+(?:daughter|son|girl|boy)s?\b)", text,
        re.IGNORECASE))


_PARENTS = frozenset("mum mom dad".split())  # used like names: "a video call with mum"


def kin(text: str) -> set[str]:
    """The relations a text names: "my mum" -> "mother", also a bare "mum" or "dad"."""
    # ("my sister's name" names her too: QA pass 30)
    words = [w.lower().replace("’", "'").removesuffix("'s") for w in _WORD.findall(text)]
    out = {KIN[w] for p, w in zip(words, words[1:], strict=False)
           if p in ("my", "our") and w in KIN}
    out |= {KIN[f"{b} {f}"] for p, b, f in zip(words, words[1:], words[2:], strict=False)
            if p in ("my", "our") and f"{b} {f}" in KIN}
    # ("Kevin is my younger brother", QA pass 53d: "you have not told me about your brother")
    out |= {KIN[f] for p, b, f in zip(words, words[1:], words[2:], strict=False)
            if p in ("my", "our") and b in _ELDER_YOUNGER and f in KIN}
    out |= {KIN[w] for p, w in zip([""] + words, words, strict=False)
            if w in _PARENTS and p not in ("a", "the", "your", "his", "her", "their")}
    # "we have a daughter, Solveig", "I have two sons" (QA pass 37b: "you have not told me
    # about your daughter")
    out |= {KIN[w if w in KIN else w[:-1]] for s, h, a, w in zip(
                words, words[1:], words[2:], words[3:], strict=False)
            if s in ("i", "we") and h in ("have", "had") and a in _HOW_MANY
            and (w in KIN or w.endswith("s") and w[:-1] in KIN)}
    return out


_HOW_MANY = frozenset("a an one two three four five".split())
_ELDER_YOUNGER = frozenset("younger older little big elder eldest youngest oldest baby twin "
                           "kid step half late new adopted".split())  # ("my late husband
# Dafydd": "you have not told me about your husband", QA pass 55b)
# children told of as a household's, their names after: "We have twin boys, Kiran and
# Dev", "I've got two kids, Mia and Leo"
_CHILDREN = (r"\b(?:(?:we|i)(?:\s+have|\s+had|['’]ve)(?:\s+got)?|my|our)\s+(?:[\w-]+\s+){0,2}"
             r"(?:kids|children|boys|girls|twins|sons|daughters)\b")
HAS_CHILDREN = re.compile(_CHILDREN, re.IGNORECASE)
# … or someone's of theirs: "my son Gareth … has two kids: Ffion, who is 9, and Dylan" (QA
# pass 53c: neither grandchild was anyone of the user's life)
_ANY_CHILDREN = (r"\b(?:(?:we|i)(?:\s+have|\s+had|['’]ve)(?:\s+got)?|my|our|has|have)\s+"
                 r"(?:[\w-]+\s+){0,2}(?:kids|children|boys|girls|twins|sons|daughters|"
                 r"grandchildren|grandkids)\b")


# words that link a noun to what follows it, not a name to the one it names ("my trip to
# Japan" is no person of the user's; "my friend Tomas" is)
_LINKS = "(?:to|in|at|from|of|with|for|on|and|or|the|a|an|by|near|about)"
# a name given in other words (QA pass 36: Miso, Cian and Pepper were no one of the user's
# life): "My cat is called Miso", "my dog's name is Rex", "her son Cian", "a beagle called
# Pepper"
# the words that name someone of a user's life by relation, kind or breed, as a pattern
KIN_PET_BREED = "|".join(sorted(KIN_WORDS | PETS | BREEDS))
PET_BREED = "|".join(sorted(PETS | BREEDS))  # (an animal of the user's, by kind)
# others of a user's life named by what they are to them ("my closest colleague is Grace")
ROLES = frozenset("friend colleague coworker co-worker classmate teacher tutor doctor "
                  "dentist mentor therapist coach vet housemate bestie buddy".split())
# (up to two words before the relation: "a springer spaniel called Fenris", "my closest
# colleague is Grace", QA pass 37)
BEFORE_KIN = rf"(?:(?!{_LINKS}\b)[\w'’-]+\s+){{0,2}}"
_NAMED = (rf"(?:\b(?:my|our)\s+(?:(?!{_LINKS}\b)[\w'’-]+\s+){{1,2}}(?:called|named)\s+"
          rf"|\b(?:my|our)\s+[\w-]+['’]s\s+name\s+is\s+"
          # ("…and their baby daughter Elsa", QA pass 48b: "Elsa is a Norwegian child, and
          # her name is Kjerke." was checked as of no one of the user's)
          rf"|\b(?:his|her|their)\s+(?:(?:baby|little|young|newborn|new|infant|eldest|"
          rf"youngest|older|younger)\s+)?(?:{KIN_PET_BREED})\s+"
          # "Chloe's son Oscar" (QA pass 41d: a grandson's nut allergy was no one's)
          rf"|\b[A-Z][\w’-]*['’]s\s+(?:{KIN_PET_BREED})\s+"
          rf"|\b(?:a|an)\s+{BEFORE_KIN}(?:{KIN_PET_BREED}),?\s+(?:called|named)\s+"
          # "we have a daughter, Solveig, who is 8", "our dog, Rex" (QA pass 37)
          rf"|\b(?:a|an|my|our)\s+{BEFORE_KIN}(?:{KIN_PET_BREED}),\s*"
          # "my closest colleague is Grace", "Solveig's best friend is Maja"
          rf"|\b(?:my|our|[\w'’-]+['’]s)\s+{BEFORE_KIN}(?:{KIN_PET_BREED}|{'|'.join(sorted(ROLES))})"
          rf"\s+(?:is|was)\s+(?:called\s+|named\s+)?)")


def as_theirs(name: str) -> re.Pattern:
    """What, in a memory, makes `name` someone (or an animal) of the user's life: "my
    sister Ines", "with my friend Tomas", "Biscuit is my dog", "My cat is called Miso",
    "her son Cian", "a beagle called Pepper" (`MemoryEngine.people_in`)."""
    n = re.escape(name)
    return re.compile(rf"\b(?:my|our)\s+(?:(?!{_LINKS}\b)[\w'’-]+\s+){{1,2}}{n}\b"
                      rf"|\b{n}(?:,\s*|\s+(?:is|was)\s+)(?:my|our)\b|{_NAMED}{n}\b"
                      # "We have twin boys, Kiran and Dev" (pass 41b's persona)
                      rf"|{_ANY_CHILDREN},?\s+(?:(?:are\s+)?(?:called|named)\s+)?"
                      # (an age told beside each: "…two kids, Meera who is 15 and Kabir who's
                      # 9", QA pass 52a: Kabir was no one of theirs)
                      rf"(?:[\w'’-]+(?:,?\s+(?:who\s+is|who['’]s|aged?)\s+\d{{1,2}}|\s*\(\d{{1,2}}\))?"
                      rf"(?:,\s*(?:and\s+)?|\s+and\s+)){{0,3}}{n}\b"
                      # (a sentence of each after a colon: "We have two kids: Zofia is 19 and
                      # studies medicine… Piotr is 12, …", QA pass 53a)
                      rf"|{_ANY_CHILDREN}:\s+(?:[^.!?:]*[.!?]\s+){{0,3}}{n}\b", re.IGNORECASE)


__all__ = ["BEFORE_KIN", "BREEDS", "GRANDCHILD", "KIN_PET_BREED", "ROLES", "KIN", "KIN_ALSO", "KIN_WORDS", "PETS", "as_theirs", "kin", "kin_words", "species", "tells_grandchild"]
