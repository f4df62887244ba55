"""What a change of someone's life looks like in words (Qt-free data `facts` reads): a move,
a new job, a new age, a plan's new time (`CHANGES`, each with what an older statement must
say for the change to replace it), a place left for another, a job got."""

from __future__ import annotations

import re

from .timewords import AGE, MONTH, WHEN_SAID, WHEN_TO

# "… these days", "… nowadays" later in the clause: what holds now, said as news
THESE_DAYS = r"[^.!?;]{1,40}?\b(?:these days|nowadays)\b"
DAYS_FIRST = r"\b(?:these days|nowadays),?\s+[^.!?;]{0,40}?"  # ("These days Tomas is a …")
# one place left for another: "swapped Lagos for Abuja", "left London for Bristol"
SWAP_VERBS = r"(?:swapped|swapping|traded|exchanged|left)"
SWAPPED = rf"\b{SWAP_VERBS}\s+((?-i:[A-Z])[\w'’-]*(?:\s+(?-i:[A-Z])[\w'’-]*)?)"

# a change told without saying it corrects (QA pass 30: "My mother Greta moved to Antwerp
# last month." left "My mother Greta lives in Ghent." current, the answer "Ghent" unmarked):
# each with what an older statement must say for the change to replace it (where someone
# lives; what someone is or does), so "Karel moved in with Ana." replaces no job
# a job got ("I got the deputy head job at…", "landed a job as a nurse": QA pass 46a, the new
# job left "…a chemistry teacher at a secondary school in Leeds." current); not a promotion,
# which leaves the old job as true as it was ("Kenji has just been promoted to team leader
# at the ambulance station." is still a paramedic, QA pass 47b)
GOT_JOB = (r"\b(?:got|landed|accepted|(?:was|been|got) offered|(?:was|been|got) given)\s+"
            r"(?:the|a|an|my)\s+(?:new\s+)?(?:[\w-]+\s+){0,3}?(?:job|post|position)\b")
CHANGES = (
    (re.compile(rf"(?:\bmoved (?:back |from (?:[\w'’-]+ ){{1,3}})?to|\bnow lives? in|\b(?:is|are|am|['’]s|['’]m|['’]re) "
                rf"now (?:living |based )?in)\b(?!\s+{WHEN_TO})|\brelocated to\b"
                rf"|\blives? in\b{THESE_DAYS}|{DAYS_FIRST}\blives? in\b"
                # (the clause ending in "now": "…he lives alone in Kyoto now.", QA pass 47b)
                r"|\b(?:lives?|living|based)\s+(?:[\w'’-]+\s+){0,3}?in\s+(?-i:[A-Z])[^.;!?]{0,40}?"
                r"\bnow\b(?=\W*(?:[.;!?]|$))"
                # (one town for another: "Chidi has swapped Lagos for Abuja.", QA pass 45)
                rf"|{SWAPPED}\s+for\s+(?-i:[A-Z])", re.IGNORECASE),
     # (not a plan moved to a day: "…has been moved to Thursday the 20th.", QA pass 44c)
     re.compile(rf"\b(?:lives?|living|based|moved|relocated|resides?)\s+(?:in|to|at|on)\b(?!\s+{WHEN_TO})"
                # (a town after a workplace is the workplace's: "…job at a school in York!" is
                # no home, QA pass 46a: "We moved to York last month." replaced the job)
                rf"|(?<!\bat )(?<!\bfor )\b(?:a|an) [\w-]+(?: [\w-]+)? in (?-i:[A-Z])(?!{MONTH})",
                re.IGNORECASE)),
    (re.compile(r"\b(?:is|are|am|['’]s|['’]m|['’]re) now (?:a|an|(?:the )?(?:head|lead|senior|chief|deputy)[\w-]*)\b(?!\s+(?:year|month|week|day|"
                r"bit|lot|little|few)s?\b)|\bnow works? (?:as|at|for)\b|\bworks? (?:as|at|for)\b[^.;!?]{0,50}?\bnow\W*$"
                r"|\bbecame (?:a|an)\b|\bswitched (?:jobs|careers) to\b|\b(?:join|start)(?:ed|ing|s)?\b[^.;!?]{0,40}?\bas (?:a|an)\b"
                # (QA pass 31: "Tomas is a firefighter these days." left him a paramedic)
                rf"|\b(?:is|are|am|['’]s|['’]m|['’]re) (?:a|an)\b{THESE_DAYS}"
                rf"|{DAYS_FIRST}\b(?:is|are|am|['’]s|['’]m|['’]re) (?:a|an)\b"
                rf"|\bworks? (?:as|at|for)\b{THESE_DAYS}|{GOT_JOB}"
                # (the clause ending in "now": "I'm a hospital pharmacist in Cádiz now.", QA
                # pass 47a: it left "…I work as a pharmacist in Seville." current)
                # (of a person: not "It's a lovely day now.")
                r"|(?:\bI['’]m|\bI am|\b(?:he|she)(?:['’]s| is)|\bthey(?:['’]re| are)|(?-i:\b(?!(?:It|That|"
                r"This|There|Here|What|Today|Life)\b)[A-Z][\w-]+)(?: is|['’]s)) (?:a|an)\b"
                r"(?!\s+(?:bit|lot|little|few)\b)[^.;!?]{0,50}?\bnow\b(?=\W*(?:[.;!?]|$))"
                # (QA pass 46b: "Piotr quit cooking; he teaches history now." left him a chef)
                r"|\bquit(?:s)?\s+(?:(?:his|her|their|my)\s+)?(?:job|work|teaching|cooking|"
                r"nursing|driving|coaching|farming|acting|model?ling|lecturing|consulting|banking|"
                r"accounting|engineering|plumbing|catering|baking|the\s+(?:restaurant|army|police|"
                r"navy|force|firm|practice|school|hospital))\b"
                # (QA pass 50a: "I've left Infosys and joined a startup called Leafware." left
                # "I work at Infosys." current)
                r"|\b(?:left|quit)\s+(?-i:[A-Z])[\w'’&.-]*(?:\s+(?-i:[A-Z])[\w'’&.-]*){0,3}\s+"
                r"(?:and|to)\s+(?:join|start|work|go)|\bjoined\s+(?:a|an|the)\s+(?:[\w-]+\s+){0,2}?"
                r"(?:startup|start-up|company|firm|agency|bank|practice|consultancy)\b"
                # ("Fiona retired from the post office last month.", QA pass 50b)
                r"|\bretired\s+(?:from|as)\b|\b(?:has|have|had)\s+(?:just\s+)?retired\b"
                r"|\b(?:teach(?:es)?|drives?|coach(?:es)?|manages?)\b[^.;!?]{0,40}?\bnow\W*$"
                r"|\bnow (?:teach(?:es)?|drives?|coach(?:es)?|manages?)\b", re.IGNORECASE),
     # (QA pass 32: "…drives a bus for First Leeds." was no job, and "he now works as a
     # train conductor" left it current)
     re.compile(r"\b(?:is|are|am|['’]s|['’]m|['’]re|was|were)(?: (?-i:[A-Z])[\w'’-]*){0,2},? (?:a|an)\b"
                r"|\bworks? (?:as|at|for)\b"
                # ("I teach maths at a secondary school in Leeds.", QA pass 48a: "We've moved
                # from Leeds to York and I teach at a school there now." replaced nothing)
                r"|\bjob\b|\b(?:manages?|runs?) (?:a|an|the)\b|\bteach(?:es)? (?:[\w-]+ ){0,2}?(?:at|in)\b|\b(?:drives?|teach(?:es)?|runs?|cleans?|"
                r"cooks?|nurses?|serves?)\b[^.;!?]{0,40}?\b(?:for|at) (?:the )?(?-i:[A-Z])", re.I)),
    # how old someone is (QA pass 31: "Bruno turned nine last week." left "Our son Bruno
    # is eight …" current)
    (re.compile(rf"\bturned\s+{AGE}\b|\b(?:is|are|am|['’]s|['’]m|['’]re) now {AGE}\b"
                # ("she is seven now", QA pass 32)
                rf"|\b(?:is|are|am|['’]s|['’]m|['’]re) {AGE}(?: years? old)? now\b"
                r"(?!\s*(?:%|percent|kg|km|miles|euros?|dollars|pounds|minutes|hours|days|"
                r"degrees|o['’]clock))", re.IGNORECASE),
     re.compile(rf"\b(?:is|are|am|['’]s|['’]m|['’]re|was|were|turned|turns)\s+{AGE}\b"
                r"|\byears? old\b|\baged?\s+\d", re.IGNORECASE)),
    # when a plan is (QA pass 31: "The haircut moved to Wednesday at 4 pm." left the
    # Tuesday haircut current); of the same plan only (`_same_plan`)
    # (QA pass 52: "Now it's been moved again, to 1 July.", "They rescheduled it for 1
    # July.", "They've put it off until March.", "It's on Friday now." were no corrections)
    # (QA pass 53c: "I've switched my food bank day to Thursdays now." was none)
    # (QA pass 54b: "…my dissertation deadline got extended to 29 April." was none)
    (re.compile(r"\b(?:moved|rescheduled|postponed|pushed|put(?:\s+(?:it|that|them))?\s+off|"
                r"brought|changed|shifted|delayed|switched|extended)\s+(?:[\w'’-]+,?\s+){0,4}?(?:back\s+|"
                rf"forward\s+)?(?:to|until|till|(?<=rescheduled )for|(?<=it )for)\s+{WHEN_TO}"
                rf"|\b(?:is|are|['’]s|['’]re)\s+now\s+(?:on|at|in)\s+{WHEN_TO}"
                rf"|\b(?:now,?\s+)(?:it|that)(?:['’]s|\s+is)\s+(?:on|at|in)\s+{WHEN_TO}"
                rf"|\b(?:it|that)(?:['’]s|\s+is)\s+(?:on|at|in)\s+{WHEN_TO}[^.;!?,]{{0,24}}\bnow\b"
                # ("…has moved my cataract operation again, it's on 17 March now.", QA pass
                # 49d: no correction noted)
                r"|\b(?:moved|rescheduled|postponed|pushed|put off|brought|changed|shifted|"
                rf"delayed|extended)\b[^.;!?]{{0,60}}?[,;:—–-]\s*(?:it|that)(?:['’]s|\s+is)\s+(?:now\s+)?"
                rf"(?:on|at|in|for)\s+{WHEN_TO}",
                re.IGNORECASE),
     re.compile(WHEN_SAID, re.IGNORECASE)),
)
SCHEDULE = 3  # (`CHANGES`' kind for when a plan is)

# the user's own new job, said as such ("I now work at Voltra."; not "I'm now a dad.")
NEW_JOB = re.compile(r"\bnow work(?:s|ing)? (?:as|at|for)\b|\bswitched (?:jobs|careers)\b"
                      r"|\bnew job\b|\b(?:join|start)(?:ed|ing|s)?\b[^.;!?]{0,40}?\bas (?:a|an)\b"
                      rf"|{GOT_JOB}", re.I)
