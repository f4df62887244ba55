"""The words a statement that corrects an earlier one holds (Qt-free): `facts.corrects`
finds none without one of them, so the store can look for candidates by keyword
(`Store.said_after(containing=…)`) before the patterns read them."""

from __future__ import annotations

from .timewords import AGE_WORDS

# a word every statement `corrects` finds holds (to look for them in a store quickly)
CORRECTION_CUES = ("actually", "correction", "meant", "misspoke", "scratch that", "correct",
                   "longer", "anymore", "any more", "not", "wrong", "mistake", "misremembered",
                   "mixed", "instead", "rather", "quit", "gave up", "given up", "stopped",
                   "moved", "relocated", "became", "switched", "swapped", "swapping", "traded",
                   "exchanged", "left", "outgrown", "outgrew", "grew out", "grown out", "cured",
                   # (phrases, not "now": the keyword index would hand over every "now")
                   "now a", "now an", "now in", "now live", "now living", "now based",
                   "now work", "works at", "work at", "works as", "work as", "works for",
                   "work for", "turned", "these days", "nowadays", "now on", "now at", "now the",
                   "rescheduled", "postponed", "pushed", "put off", "brought", "changed",
                   "shifted", "delayed", "extended",
                   # a dose changed ("…lowered my warfarin to 2.5 mg", "…went up to 20 units",
                   # "…put her dose up to 20 mg"), a message opening "Sorry," or "Wait,"
                   # (`facts.corrects` since 0.46: QA pass 55b, not found in the store)
                   "increased", "raised", "reduced", "lowered", "upped", "doubled", "halved",
                   "up to", "down to", "sorry", "wait",
                   *(f"now {w}*" for w in ("head", "lead", "chief", "senior")),
                   # a job got or done now ("I got the deputy head job…", "…teaches history
                   # now", `change_words.GOT_JOB`)
                   "job", "post", "position", "teach", "teaches", "drives",
                   "coaches", "manages",
                   # an age ("… is now 9", "… is now nine"): "*" ends a word's beginning
                   *(f"now {d}*" for d in range(1, 10)),
                   *(f"now {w}" for w in AGE_WORDS),
                   # ("she is seven now", "I'm 40 now")
                   *(f"{w} now" for w in AGE_WORDS), *(f"{n} now" for n in range(1, 100)))

__all__ = ["CORRECTION_CUES"]
