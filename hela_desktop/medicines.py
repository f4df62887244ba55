"""Medicines, conditions and a pregnancy, as cautions: what someone who takes a medicine,
has a condition (diabetes, coeliac disease, gout, kidney disease), keeps to a low-salt diet,
has stopped drinking or is pregnant must not take or have (Qt-free; `cautions` reads them).

Each is named as the NHS's page for it names it: a blood thinner (painkillers like aspirin
and ibuprofen; for warfarin, or one not named, alcohol, cranberry and grapefruit), an SSRI or SNRI antidepressant (St
John's wort, tramadol, sumatriptan, painkillers), lithium or methotrexate (painkillers), an
ACE inhibitor or ARB for blood pressure (painkillers), amlodipine and the like or a statin
(grapefruit), a pregnancy (alcohol, painkillers like ibuprofen, soft mould-ripened cheese,
pâté, liver, shark, swordfish and marlin).
"""

from __future__ import annotations

import re

from . import facts
from .food_groups import GROUPS

# a blood thinner someone takes ("takes warfarin", "is on blood thinners"); warfarin's NHS
# page warns of alcohol, cranberry and grapefruit too, the newer ones' only of painkillers
# ("You can drink alcohol while taking apixaban", QA pass 49b: a pharmacist on apixaban
# was warned of cranberry juice and a glass of wine)
_DOACS = "apixaban eliquis rivaroxaban xarelto dabigatran pradaxa edoxaban lixiana".split()
THINNERS = ["warfarin", "coumadin", *_DOACS]
# an SSRI or SNRI antidepressant ("I take sertraline every morning"): St John's wort and
# tramadol with it risk serotonin syndrome, and painkillers like ibuprofen bleeding (the
# NHS's sertraline page; QA pass 43: "You can definitely take St John's wort." had no line)
SSRIS = ("sertraline lustral zoloft fluoxetine prozac citalopram cipramil escitalopram "
         "cipralex paroxetine seroxat venlafaxine effexor duloxetine cymbalta").split()
# (or was moved onto it: "Daniel's doctor switched him to amlodipine instead of
# lisinopril.", QA pass 47a)
_TAKES = (r"\b(?:takes?|taking|on|prescribed|(?:switched|moved|changed|started|put)\s+"
          r"(?:(?:him|her|them|me|us)\s+)?(?:on(?:to)?|to))\s+(?:(?:a|the|his|her|my|their)\s+)?"
          # (or named after another in the list: "She takes metformin 500 mg for her
          # diabetes and amlodipine for blood pressure.", QA pass 52a: no grapefruit caution)
          r"(?:[^.;!?]{0,80}?(?:\band\b|\bplus\b|\bas well as\b|,)\s+(?:(?:also|a|the|his|her|"
          r"my|their)\s+)?)?")
_THINNER = re.compile(rf"{_TAKES}(?:{'|'.join(THINNERS)}|blood[- ]thinners?|anticoagulants?)\b",
                      re.IGNORECASE)
_DOAC = re.compile(rf"{_TAKES}(?:{'|'.join(_DOACS)})\b", re.IGNORECASE)
_SSRI = re.compile(rf"{_TAKES}(?:{'|'.join(SSRIS)}|antidepressants?)\b", re.IGNORECASE)
# lithium: ibuprofen and the like raise its level in the blood (the NHS's lithium page;
# QA pass 45: "Can Daniel take ibuprofen?", his lithium told, had no caution); so they do
# methotrexate's (the NHS's methotrexate page; QA pass 46b: "…she takes both methotrexate
# for her arthritis and ibuprofen", no line)
_LITHIUM = re.compile(rf"{_TAKES}(?:lithium|priadel|camcolit|liskonum|methotrexate|metoject|"
                      r"maxtrex)\b", re.IGNORECASE)
# a blood pressure medicine of the kinds ibuprofen and the like work against and can harm
# the kidneys with (ACE inhibitors and ARBs: the NHS's lisinopril and ramipril pages say to
# ask a doctor before taking ibuprofen; QA pass 47a, "Can Daniel take ibuprofen…?", his
# lisinopril told)
_BP_DRUGS = ("lisinopril ramipril enalapril perindopril captopril losartan candesartan "
             "valsartan irbesartan olmesartan telmisartan").split()
_BP_DRUG = re.compile(rf"{_TAKES}(?:{'|'.join(_BP_DRUGS)})\b", re.IGNORECASE)
# a medicine grapefruit raises the level of (the NHS's amlodipine, felodipine and statin
# pages; QA pass 47a: "…you can have a glass of grapefruit juice with breakfast.")
_GRAPEFRUIT_DRUGS = ("amlodipine felodipine nifedipine simvastatin atorvastatin ciclosporin "
                     "cyclosporine").split()
_GRAPEFRUIT_DRUG = re.compile(rf"{_TAKES}(?:{'|'.join(_GRAPEFRUIT_DRUGS)})\b", re.IGNORECASE)
# a pregnancy ("I'm 24 weeks pregnant", "my wife Ingrid is pregnant", "we're expecting our
# first baby"), not one denied or over ("not pregnant", "no longer pregnant")
_PREGNANT = re.compile(r"(?<!\bnot )(?<!\blonger )(?<!n['’]t )\b(?:\d+\s+(?:weeks?|months?)\s+)?"
                       r"pregnant\b|\bexpecting\s+(?:a|our|my|their|her|his)\s+(?:\w+\s+)?"
                       r"(?:baby|child)\b", re.IGNORECASE)
# a diet low in salt ("My doctor put me on a low-salt diet for my blood pressure.", QA pass
# 49b: "Is a bag of crisps a good snack for me?" had no caution)
_LOW_SALT = re.compile(r"\blow[- ](?:salt|sodium)\b|\b(?:cut(?:ting)?\s+(?:down\s+)?on|"
                       r"avoid(?:ing)?|no\s+added)\s+salt\b", re.IGNORECASE)
PREGNANCY_WEEKS = 42  # a pregnancy told longer ago than this is over

# a condition said as something someone has ("Sam has type 1 diabetes", "I have diabetes",
# "I have coeliac disease": QA pass 44, no caution was set by it, only by "I'm coeliac";
# "I have gout": the NHS's gout page says to avoid alcohol, beer most of all; "I have
# chronic kidney disease": the NHS's ibuprofen page says to ask a doctor first with kidney
# problems, QA pass 48b; "I take allopurinol for my gout" tells the gout)
_HAS_CONDITION = re.compile(r"\b(?:has|have|had|with|got|['’]ve got|diagnosed with|"
                            r"for\s+(?:my|his|her|their|your))\s+"
                            r"(?:(?:type\s+(?:[12]|one|two)\s+)?(?P<diabetes>diabetes)|"
                            r"(?P<coeliac>co?eliac|celiac)\s+disease|(?P<gout>gout)|"
                            r"(?:(?:chronic|severe|stage\s+\d)\s+)?(?P<kidney>kidney\s+"
                            r"(?:disease|failure|problems?)|ckd))\b", re.IGNORECASE)
_CONDITION_GROUPS = {"diabetes": "sugar", "coeliac": "gluten", "gout": "alcohol",
                     "kidney": "painkillers"}

# sober for good, not for tonight ("Dylan hit two years sober", "I've been sober since
# 2019", "a recovering alcoholic"; `bench personal`'s stag do went unmarked)
SOBER = re.compile(r"\b(?:(?:\d+|a|one|two|three|four|five|six|seven|eight|nine|ten|"
                   r"twelve|eighteen)\s+(?:years?|months?)\s+sober|(?:been|stay(?:s|ed|ing)?|"
                   r"got|gone|went)\s+sober|sober\s+(?:for|since)\b|recovering alcoholic|"
                   # (QA pass 48a: "Sam stopped drinking alcohol two years ago." was no caution)
                   r"(?:stopped|quit|gave up|given up|giving up)\s+(?:drinking(?!\s+(?:coffee|"
                   r"tea|milk|soda|pop|cola|coke|juice|water|fizzy|energy|caffeine|decaf|"
                   r"lemonade|sugary|smoothies))|alcohol|the drink|booze))\b",
                   re.IGNORECASE)


# illnesses an answer may say the user has ("You've been diagnosed with diabetes", QA pass
# 48b: made up, with no line), each with the start of the words a memory of it holds
ILLNESSES = {"diabetes": "diabet", "diabetic": "diabet", "asthma": "asthma", "asthmatic": "asthma",
             "epilepsy": "epilep", "epileptic": "epilep", "cancer": "cancer",
             "arthritis": "arthrit", "gout": "gout", "coeliac disease": "coeliac",
             "celiac disease": "celiac", "kidney disease": "kidney", "heart disease": "heart",
             "high blood pressure": "blood", "hypertension": "hypertens", "depression": "depress",
             "dementia": "dementia", "copd": "copd", "lupus": "lupus",
             "multiple sclerosis": "sclerosis", "parkinson's": "parkinson", "crohn's": "crohn",
             "anaemia": "anaemi", "anemia": "anemi", "osteoporosis": "osteopor",
             "migraines": "migraine", "hiv": "hiv"}
_ILL = "|".join(sorted(map(re.escape, ILLNESSES), key=len, reverse=True))
_YOU_HAVE = re.compile(
    r"\byou(?:['’]ve|\s+have)\s+(?:also\s+)?(?:(?:been\s+)?diagnosed\s+with\s+|got\s+)?"
    r"|\byou\s+(?:also\s+)?suffer\s+from\s+|\byou(?:['’]re|\s+are)\s+(?:also\s+)?(?:living\s+with\s+)?",
    re.IGNORECASE)
_ILL_SAID = re.compile(rf"(?:{_YOU_HAVE.pattern})(?:(?:type\s+(?:[12]|one|two)|chronic|mild|severe|"
                       rf"early[- ]onset)\s+)*(?P<ill>{_ILL})\b", re.IGNORECASE)
_IF_YOU = re.compile(r"\b(?:if|unless|whether|when|once|in case|people who|anyone who|those "
                     r"who|someone who)\b[^.!?]*$", re.IGNORECASE)


_ILL_NAMED = re.compile(rf"\b(?:{_ILL})\b", re.IGNORECASE)


def names_illness(text: str) -> bool:
    """Does `text` name an illness of `ILLNESSES` ("…has type 2 diabetes.")?"""
    return bool(_ILL_NAMED.search(text))


def ills_said(answer: str) -> list[str]:
    """The illnesses `answer` says the user has ("You've been diagnosed with diabetes",
    "you're asthmatic"), lower case, as `ILLNESSES` names them; not an if ("If you have
    diabetes…"), a question, or one denied ("you don't have diabetes")."""
    out = []
    for x in facts.sentences(answer):
        if x.rstrip().endswith("?"):
            continue
        for m in _ILL_SAID.finditer(x):
            if not _IF_YOU.search(re.split(r"[;,]", x[:m.start()])[-1]):
                out.append(m.group("ill").lower().replace("’", "'"))
    return list(dict.fromkeys(out))


# the words a statement of one of them holds (for the store to look for), and that name one
# in an answer (a condition it may give as its reason)
CUES = ("lithium", "methotrexate", "pregnant", "expecting", *THINNERS, *SSRIS, *_BP_DRUGS,
        *_GRAPEFRUIT_DRUGS, "salt", "sodium")  # (QA pass 49d: a low-salt diet never recalled)


def avoided(text: str) -> frozenset[str]:
    """What the medicines `text` says someone takes (or their pregnancy) rule out: the
    words of `GROUPS` naming it (empty: none)."""
    words: set[str] = set()
    if _THINNER.search(_DOAC.sub(" ", text)):
        words |= GROUPS["painkillers"] | GROUPS["alcohol"] | GROUPS["thinner juices"]
    elif _DOAC.search(text):
        words |= GROUPS["painkillers"]
    if _SSRI.search(text):
        words |= GROUPS["serotonin"] | GROUPS["painkillers"]
    if _LITHIUM.search(text) or _BP_DRUG.search(text):
        words |= GROUPS["painkillers"]
    if _GRAPEFRUIT_DRUG.search(text):
        words |= GROUPS["grapefruit"]
    if _LOW_SALT.search(text):
        words |= GROUPS["salt"]
    if _PREGNANT.search(text):
        words |= GROUPS["pregnancy"] | GROUPS["alcohol"]
    return frozenset(words)


def of_conditions(text: str) -> frozenset[str]:
    """What the conditions `text` says someone has rule out (`_HAS_CONDITION`: diabetes,
    coeliac disease, gout, kidney disease): the words of `GROUPS` naming it."""
    return frozenset(w for m in _HAS_CONDITION.finditer(text)
                     for k, g in _CONDITION_GROUPS.items() if m.group(k) for w in GROUPS[g])


def as_of(text: str, created_at: float, now: float) -> str:
    """`text` as a caution reads it at `now`: a pregnancy told more than `PREGNANCY_WEEKS`
    weeks before it is over, its sentences left out (the baby born)."""
    if now - created_at <= PREGNANCY_WEEKS * 7 * 86400 or not _PREGNANT.search(text):
        return text
    return " ".join(s for s in facts.sentences(text) if not _PREGNANT.search(s))


__all__ = ["CUES", "ILLNESSES", "PREGNANCY_WEEKS", "SOBER", "SSRIS", "THINNERS", "as_of",
           "avoided", "ills_said", "names_illness", "of_conditions"]
