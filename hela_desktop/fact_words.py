"""Closed word lists `facts` reads a message by (Qt-free data): the words that open a
request, an instruction about the answer, small talk, the first person, acknowledgements,
and capitalised words that are no names."""

from __future__ import annotations

import re

# the first word of a sentence that asks for something rather than telling it
ASKING = frozenset("""
can could would will please write give tell explain suggest recommend help make draft list
show describe summarise summarize convert translate settle remind find compose create plan
brainstorm rewrite fix check compare calculate define name any what what's whats how how's
why when where which who who's whose is are do does did should shall was were may might
""".split())
# an instruction about the answer, not news ("Answer in one short sentence.", "Start your
# reply with my name.", "Keep it short."; QA pass 29: such requests were listed among what
# the user had told), and the words that may come before it ("Just give me the name.")
INSTRUCTS = frozenset("""
answer reply respond start begin keep use say include avoid limit format end mention focus
skip ignore repeat add put forget delete erase remove unlearn""".split())
LEADS = frozenset("just only also now then and so but".split())
# short replies that carry nothing to remember
SMALL_TALK = frozenset("""
ok okay thanks thank cheers ha haha lol great perfect cool nice hi hello hey morning
brilliant lovely awesome sure yes yeah no nope right fine wow oh
""".split())
FIRST_PERSON = frozenset("""
i i'm im i've ive i'd i'll my mine myself we we're we've we'd we'll our ours ourselves us
""".split())
# the first person as the subject of a sentence ("I'm vegan"), and the verbs that make a
# two-word sentence of it an acknowledgement, not news ("I see", "I agree")
FIRST_SUBJECT = frozenset("i i'm im i've ive i'd i'll we we're we've we'd we'll".split())
ACKNOWLEDGE = frozenset("""
see know agree understand guess think suppose bet mean wonder disagree do did will would
can could am was promise hope fine back here sorry ok okay good great done ready alright
glad well listening
""".split())
NOT_NAMES = frozenset("""
i i'm i've i'd i'll january february march april may june july august september october
november december monday tuesday wednesday thursday friday saturday sunday mum mom dad
ok okay mr mrs ms dr mon tue tues wed thu thur thurs fri sat sun feb mar apr jun jul aug
sep sept oct nov dec
""".split())

# a number changed, the first no longer so: "…put her levothyroxine up from 50 to 75" (52b)
FROM_TO = re.compile(r"\b(?:up|down|increased|raised|reduced|lowered|upped|cut|dropped|changed|"
                     r"doubled|halved)\b[^.;!?]{0,30}?\bfrom\s+(\d+(?:\.\d+)?)(?:\s*[a-z]+)?\s+to"
                     r"\s+\d", re.IGNORECASE)
# … or a dose set to a new one, the old unsaid: "my doctor raised my sertraline to 100 mg"
# (QA pass 53d: no correction of "I take sertraline 50 mg every morning.")
SET_TO = re.compile(r"\b(?:increased|raised|reduced|lowered|upped|doubled|halved|changed|"
                    # (QA pass 54b: "Sorry, my Lantus went up to 20 units." left the 18)
                    r"(?:went|gone|goes|came|come)\s+(?:back\s+)?(?:up|down)|"
                    r"put\s+(?:[\w'’-]+\s+){1,3}(?:up|down))\b[^.;!?]{0,40}?\bto\s+\d+(?:\.\d+)?\s*"
                    r"(?:mg|mcg|µg|micrograms?|milligrams?|units?|ml)\b"
                    # … or a sum of one's own: "My rent went up to £1,020." (QA pass 55c: the
                    # £950 stayed current; not "The price went up to 20 pounds.")
                    r"|\b(?:my|our)\s+(?:(?!(?:and|but|so)\b)[\w'’-]+\s+){1,3}?(?:(?:has|have|just)\s+)?"
                    r"(?:increased|doubled|(?:went|gone|goes|come|came)\s+(?:back\s+)?(?:up|down))"
                    r"\s+to\s+[£$€]\s?\d|\b(?:increased|raised|reduced|lowered|put\s+up|upped)\s+"
                    r"(?:my|our|the)\s+(?:[\w'’-]+\s+){1,3}?to\s+[£$€]\s?\d"
                    # ("The landlord put the rent up to £3,500.", QA pass 55g)
                    r"|\bput\s+(?:my|our|the)\s+(?:[\w'’-]+\s+){1,2}?(?:up|down)\s+to\s+[£$€]\s?\d",
                    re.IGNORECASE)
# what a dose changed is not of: whose it is ("Luis's doctor raised his allopurinol to 200
# mg.", not "my Lantus"), who said so, the change's own words (QA pass 54d: it corrected
# "He has gout, so his doctor told him to avoid red meat…", on "Luis" and "doctor")
WHOSE = re.compile(r"\b([A-Z][\w-]*)['’]s?\b(?!\s+(?:is|was|has|been|gone|going)\b)")
DOSE_CHANGE_WORDS = ("doctor gp nurse consultant pharmacist specialist dose doses mg mcg micrograms "
                     "milligrams units unit ml went gone goes came come up down back increased "
                     "raised reduced lowered upped doubled halved changed put cut dropped sorry "
                     "oh also just today now week month")
# words that open a sentence capitalised and name no one ("Kari moved…" names Kari; the
# embedder's word list holds many names, so it cannot tell them apart)
OPENERS = frozenset(
    "actually also and but so well now oh btw anyway update correction plus then "
    "hi hello hey yes no yeah ok okay today yesterday tomorrow tonight last next this that "
    "these those there here everyone someone nobody everybody sadly luckily finally "
    "recently lately soon guess news big great good bad work life".split())


# a short form people write for a thing of their life, read as its words too ("PB": a
# personal best; QA pass 55e: "Actually my PB is now 3:19…" corrected nothing said of "My
# personal best is 3:24.")
SHORT_FOR = {"pb": "personal best", "pbs": "personal best", "bday": "birthday",
             "appt": "appointment", "uni": "university", "bf": "boyfriend", "gf": "girlfriend"}
