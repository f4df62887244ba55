"""Plain-language words for what the engine reports: why a memory was recalled, what a
reflection (consolidation / forgetting) run did.  Pure functions (no widgets), so the
panel, the Activity tab and the tests share them."""

from __future__ import annotations

import datetime
import html
import time

from ..events import ReflectionEvent
from ..recall_reasons import LOOSE
from ..words import count
from .graph_model import LEARNED_MIN

MEANING_WORDS = ((0.6, "very close in meaning to"), (0.4, "close in meaning to"),
                 (LOOSE, "loosely related to"))


def _f(recall: dict, key: str, default: float = 0.0) -> float:
    try:
        return float(recall.get(key, default) or 0.0)
    except (TypeError, ValueError):
        return default


def _times(n: int) -> str:
    return "once" if n == 1 else "twice" if n == 2 else f"{n} times"


def _links_part(recall: dict) -> float:
    """What its links added to a memory's score: ``extra["edges"]`` where retrieval
    recorded it, else the whole spread (older records).  The spread also holds the
    conversation's part, which can be negative, so it is not the links' part."""
    extra = recall.get("extra") or {}
    return _f(extra, "edges") if "edges" in extra else _f(recall, "spread")


def link_reasons(recall: dict, label_of=None) -> list[str]:
    """What the link that sent a memory most of its spread did, from the numbers retrieval
    recorded (``extra``: ``link`` = its weight, ``link_learned`` = the learned part,
    ``link_count``, ``link_names``, ``lifted_by``): a learned link that lifted it, a prior
    link (made when a memory was written) that did, or a link that only added to a memory
    the message matched itself.  [] when the recall has no such numbers (older records)."""
    extra = recall.get("extra") or {}
    sf = recall.get("spread_from")
    if sf is None or "link" not in extra:
        return []
    link, learned = _f(extra, "link"), _f(extra, "link_learned")
    prior = max(0.0, link - learned)
    name = label_of(sf) if label_of else ""
    ref = f"#{sf}" + (f" “{name}”" if name else "")
    names = [str(n) for n in extra.get("link_names") or []]
    why = []
    if learned > 0:
        why.append(f"they were used together {_times(int(_f(extra, 'link_count')))}")
    if names:
        why.append("they share the name " + ", ".join(f"“{n}”" for n in names[:2]))
    because = (": " + "; ".join(why)) if why else ""
    lifted_by = extra.get("lifted_by")
    if recall.get("path") != "associative":
        if _links_part(recall) <= 0:  # linked, but the link added nothing to it
            return []
        part = (f"learned {learned:.2f}" + (f" + prior {prior:.2f}" if prior > 0 else "")
                if learned > 0 else f"prior {prior:.2f}")
        # (QA pass 43b: "Found on its own score; its link … added to it" read as a
        # contradiction)
        return [f"Matched your message itself; its link to {ref} added a little ({part})."]
    if lifted_by == "learned link":
        also = f", on top of a prior link of {prior:.2f}" if prior > 0 else ""
        return [f"Brought in by a learned link ({learned:.2f}{also}) to {ref}{because}."]
    if lifted_by == "link" and learned > 0:
        return [f"Brought in by its link ({link:.2f}: prior {prior:.2f} + learned "
                f"{learned:.2f}) to {ref}{because}."]
    if lifted_by == "link":
        return [f"Brought in by a link to {ref} made when the memories were written "
                f"(prior {prior:.2f}){because}."]
    if lifted_by == "context":
        return ["Brought in by its conversation: other memories said with it matched well."]
    return [f"Brought in by spreading, not by matching directly: its link to {ref} "
            f"({link:.2f}) and its conversation together lifted it."]


def recall_reasons(recall: dict, label_of=None) -> list[str]:
    """Why a memory was recalled, as short sentences, most important first."""
    extra = recall.get("extra") or {}
    cos = float(extra.get("cos", recall.get("semantic", 0.0)) or 0.0)
    out = []
    meaning = next((w for t, w in MEANING_WORDS if cos >= t), None)
    out.append(f"It is {meaning} what was being said." if meaning
               else "It is not much related in meaning to what was being said.")
    if _f(recall, "keyword") > 0:
        out.append("It shares words with it.")
    if float(extra.get("speaker", 0.0) or 0.0) > 0:
        out.append("It is about a person who was named.")
    links = link_reasons(recall, label_of)
    sf = recall.get("spread_from")
    if links:
        out += links
    elif sf is not None and _links_part(recall) > 0:
        name = label_of(sf) if label_of else ""
        out.append(f"It is linked to memory #{sf}{' (' + name + ')' if name else ''}, "
                   "which was recalled too.")
    context = _f(extra, "context")
    if context > 0 and extra.get("lifted_by") != "context":
        out.append("It comes from a conversation with other good matches.")
    elif context < 0:
        out.append("The other memories of its conversation matched less well than other "
                   "conversations', which counted a little against it.")
    if extra.get("gate") in ("association", "newer news", "about you"):
        pass  # a shared name, or the older memory it updates, brought it (the gate's line below says which), not a link:
        # "through its links" contradicted the empty Links bar (QA pass 22)
    elif recall.get("path") == "associative" and not links:
        out.append("It came in through its links (by association), not by matching directly.")
    elif "base" in extra and float(extra.get("base") or 0.0) <= 0:
        out.append("It was not a strong match: there were few memories to choose from.")
    rec = _f(recall, "recency", 1.0)
    if rec < 0.95:
        out.append("It is older, which counts a little against it.")
    else:  # (the "Recent" bar is full: say why, QA pass 41b)
        out.append("It is recent, which counts a little in its favour.")
    try:  # what the relevance gate decided about it
        from ..recall_reasons import explain as gate_reasons
    except ImportError:  # pragma: no cover - a build without the gate
        return out
    return out + gate_reasons(extra, label_of)


def _bar(name: str, value: float, colour: str) -> str:
    width = int(max(0.0, min(1.0, value)) * 100)
    # nowrap: a narrow pane (a scrollbar appearing) must not break a label mid-word
    return (f"<tr><td nowrap>{html.escape(name)}</td><td width='104'><table cellspacing=0 "
            f"cellpadding=0><tr><td bgcolor='{colour}' width='{max(width, 1)}' height='8'></td>"
            "</tr></table></td></tr>")


def _detail(key: str, value) -> str:
    """One raw number of the details line; a time (``…_at``, ``at``) as a date."""
    if isinstance(value, (int, float)) and (key == "at" or key.endswith("_at")):
        try:
            value = time.strftime("%Y-%m-%d %H:%M", time.localtime(float(value)))
        except (OverflowError, OSError, ValueError):
            pass
    if isinstance(value, float) or (isinstance(value, int) and not isinstance(value, bool)):
        return f"{html.escape(key)} {value:.3f}"
    return f"{html.escape(key)} {html.escape(str(value))}"


def with_still_true(recall: dict | None, text_of) -> dict | None:
    """`recall`, with what of it the newer memory that replaced it leaves true
    (``still_true``, which the panel then tells) where its statistics, stored before 0.34,
    lack it; `text_of`: a memory's words by id ("" if unknown)."""
    extra = (recall or {}).get("extra")
    if recall is not None and isinstance(extra, dict) and extra.get("supersedes") \
            and "supersedes_in_part" not in extra:  # (the newer side, in older stats)
        recall = _in_part(recall, extra, text_of)
        extra = recall["extra"]
    newer = extra.get("superseded_by") if isinstance(extra, dict) else None
    if recall is None or not isinstance(extra, dict) or newer is None or "still_true" in extra:
        return recall
    from ..superseded import still_true

    said = text_of(newer) if isinstance(newer, int) else ""
    rest = still_true(str(recall.get("text") or ""), [said]) if said else ""
    return {**recall, "extra": {**extra, "still_true": rest}} if rest else recall


def _in_part(recall: dict, extra: dict, text_of) -> dict:
    """`recall` (a newer memory), with which of the memories it replaces it corrects only in
    part (``supersedes_in_part``), which statistics stored before QA pass 42 lack."""
    from ..superseded import still_true

    mine = str(recall.get("text") or "")
    part = [i for i in extra["supersedes"] if isinstance(i, int) and (said := text_of(i))
            and still_true(said, [mine])]
    return {**recall, "extra": {**extra, "supersedes_in_part": part}} if part else recall


def recall_html(recall: dict | None, label_of=None, *, details: bool = False) -> str:
    """The "why was this recalled" panel: sentences, a few bars, and the raw numbers behind
    a "Details" link (``toggle:recall-details``)."""
    if not recall:
        return "<p><i>Not recalled yet.</i></p>"
    extra = recall.get("extra") or {}
    cos = float(extra.get("cos", recall.get("semantic", 0.0)) or 0.0)
    kw = _f(recall, "keyword")
    parts = ["<ul style='margin-left:-20px'>" + "".join(
        f"<li>{html.escape(s)}</li>" for s in recall_reasons(recall, label_of)) + "</ul>"]
    sf = recall.get("spread_from")
    links = _links_part(recall)
    if sf is not None and links > 0:
        # (its score lifted through a link from #sf, not what brought #sf in: QA pass 41b
        # read "Linked from #3" backwards)
        parts.append(f"<p>Lifted by its link to <a href='node:{sf}'>#{sf}</a>.</p>")
    bars = [_bar("Meaning", cos, "#4f6bd8"), _bar("Shared words", kw / (kw + 1.0), "#2e9d6a"),
            _bar("Recent", _f(recall, "recency", 1.0), "#a66e00"),
            _bar("Links", min(1.0, links * 2), "#b04fd8")]
    parts.append("<table cellspacing=3>" + "".join(bars) + "</table>")
    if details:
        nums = {"score": recall.get("score"), "semantic": recall.get("semantic"),
                "keyword": recall.get("keyword"), "recency": recall.get("recency"),
                "spread": recall.get("spread"), "path": recall.get("path"), **extra}
        text = ", ".join(_detail(str(k), v) for k, v in nums.items() if v is not None)
        parts.append("<p><a href='toggle:recall-details'>Hide details ▾</a></p>"
                     f"<p class='muted'>{text}</p>")
    else:
        parts.append("<p><a href='toggle:recall-details'>Details ▸</a></p>")
    return "".join(parts)


# ------------------------------------------------------------------ the graph pane ---
def graph_help_html(colors) -> str:
    """The graph's details pane while nothing is selected: what dots, diamonds, lines and
    glows mean, in the palette's colours (`colors`: a `theme.GraphColors`)."""
    return ("<h3>Memory graph</h3><p>Each dot is a memory of one exchange; dots of one "
            "colour are a topic, memories closely linked to each other (in a big graph "
            "seen whole, dense with dots, the largest topics' names are written over "
            "them); "
            f"<span style='color:{colors.knowledge_border}'>◆ diamonds</span> are "
            "distilled knowledge. "
            "Lines link related memories: <b>grey-blue</b> ones were made when a memory "
            "was written (similar meaning, a shared name, the same conversation); "
            f"<span style='color:rgb{colors.learned_edge}'><b>orange</b></span> "
            "ones were learned from use, drawn over the link: after each answer, the "
            "memories it drew on and the new memory are linked to each other (not after "
            "an answer marked “Check this answer”) — the more "
            "often two memories are used together, the thicker and stronger the orange.</p>"
            "<p>While HeLa answers, the memories it is using <b>glow</b>.</p>"
            "<p>Click a memory to see it here. Scroll to zoom, drag to pan.</p>")


def link_html(weight: float, learned: float, learned_rgb: tuple[int, int, int]) -> str:
    """A link's weight and what it is made of: the part made when a memory was written
    (the prior) and the part learned from using the two together, in the learned links'
    colour (`learned_rgb`).  Counted as learned as the graph draws it (`LEARNED_MIN`)."""
    prior = weight - learned
    part = f"<span style='color:rgb{learned_rgb}'>{learned:.2f} learned</span>"
    if learned < LEARNED_MIN:  # as the view draws and counts it: not (or no longer) learned
        what = f"{weight:.2f}, made when written"
    elif prior < 0.005:  # below what two decimals show
        what = f"{part}"
    else:
        what = f"{weight:.2f} = {prior:.2f} when written + {part}"
    return f"<span class='muted'>({what})</span>"


# ------------------------------------------------------------- reflection reports -----

def _count(v) -> int:
    if isinstance(v, (list, tuple, set, dict)):
        return len(v)
    try:
        return int(v or 0)
    except (TypeError, ValueError):
        return 0


def _ids(v, most: int = 6) -> str:
    ids = [int(x) for x in v] if isinstance(v, (list, tuple)) else []
    if not ids:
        return ""
    more = f", … {len(ids) - most} more" if len(ids) > most else ""
    return " (" + ", ".join(f"#{i}" for i in ids[:most]) + more + ")"


def activity_sentence(job: str, summary) -> str:
    """What one reflection run (consolidation or forgetting) did, in a sentence or two."""
    if not isinstance(summary, dict):
        return str(summary)
    if summary.get("error"):
        return f"Stopped by an error: {summary['error']}."
    if job == "consolidate":
        return _consolidation_sentence(summary)
    if job == "forget":
        return _forgetting_sentence(summary)
    if job == "backup":
        return backup_sentence(summary)
    known = ", ".join(f"{k.replace('_', ' ')} {_count(v) if isinstance(v, (list, dict)) else v}"
                      for k, v in summary.items() if v not in (None, "", 0, False))
    return (known[0].upper() + known[1:] + ".") if known else "Nothing to report."


def backup_sentence(made: dict) -> str:
    """What an automatic backup did (`backups`; the scheduler's ``backup`` report or its
    activity entry)."""
    if made.get("error"):
        return f"The automatic backup failed ({made['error']}); your memories are as they were."
    kept = _count(made.get("kept"))
    return (f"Backed up your memories to backups/{made.get('file', '?')}"
            # (the daily ones: QA pass 21 counted two files beside "1 backup kept", the
            # other made before an import)
            + (f" ({count(kept, 'daily backup')} kept)." if kept else "."))


def _distilled(s: dict, reasons: bool = True) -> list[str]:
    """What a consolidation run found (before the failures and the yielding); without
    `reasons`, not why the model's suggestions were set aside (the status bar's short line)."""
    added, stronger = _count(s.get("added")), _count(s.get("strengthened"))
    groups, clusters = _count(s.get("distilled")), _count(s.get("clusters"))
    if added or stronger:
        what = [f"distilled {count(added, 'new fact')}"] if added else []
        if stronger:
            what.append(f"confirmed {count(stronger, 'known fact')}")
        src = f" from {count(groups, 'group')} of related memories" if groups else ""
        out = [(" and ".join(what) + src + ".").capitalize()]
        if _count(s.get("superseded")):
            out.append(f"{count(_count(s['superseded']), 'older fact')} replaced by newer ones.")
        return out
    if groups:
        rejected = _count(s.get("rejected"))
        why = (f" (the model's {count(rejected, 'suggestion')} {'was' if rejected == 1 else 'were'} "
               "set aside: too short, repeated, or not in your own words)") if rejected and reasons else ""
        return [f"Read {count(groups, 'group')} of related memories; nothing new to add{why}."]
    if clusters and _count(s.get("already_done")) >= clusters:
        # (QA pass 27 read "Nothing new" right after eight new statements: what did not
        # change is the groups, not the memories)
        return ["No group of related memories changed since the last reflection."]
    if not clusters:
        return ["No busy group of memories to distil yet."]
    return []


def _consolidation_sentence(s: dict, reasons: bool = True) -> str:
    out = _distilled(s, reasons)
    if _count(s.get("failed")):
        out.append(f"The model's answer for {count(_count(s['failed']), 'group')} could not be used.")
    if s.get("yielded"):
        rest = _count(s.get("remaining"))
        out.append("Stopped early because you started typing"
                   + (f"; {count(rest, 'group')} will be read at the next idle moment." if rest else "."))
    elif not out:
        out.append("Nothing to distil.")
    return " ".join(out)


def _forgetting_sentence(s: dict) -> str:
    out = []
    n = _count(s.get("archived"))
    if n:
        out.append(f"Archived {count(n, 'weak, isolated, stale memory', 'weak, isolated, stale memories')}"
                   f"{_ids(s.get('archived'))} — restore {'it' if n == 1 else 'them'} from the Archive tab.")
    purged = _count(s.get("purged"))
    if purged:
        out.append(f"Deleted {count(purged, 'memory', 'memories')} for good"
                   f"{_ids(s.get('purged'))}"
                   + (f", and {count(_count(s['purged_knowledge']), 'knowledge item')} drawn "
                      f"only from {'it' if purged == 1 else 'them'}"
                      if _count(s.get("purged_knowledge")) else "") + ".")
    if _count(s.get("restored")):
        out.append(f"Restored {count(_count(s['restored']), 'memory', 'memories')}{_ids(s.get('restored'))}.")
    if not out:
        checked = _count(s.get("checked"))
        out.append((f"Checked {count(checked, 'memory', 'memories')}; none" if checked else "No memory")
                   + " was weak, isolated and old enough to archive.")
    if s.get("yielded"):
        out.append("Stopped early because you started typing.")
    return " ".join(out)


# what a run changed: a run with none of these (and no error) changed nothing
CHANGES = {"consolidate": ("added", "strengthened", "superseded"),
           "forget": ("archived", "purged", "restored")}


def changed_nothing(job: str, summary) -> bool:
    """True for a reflection run that changed nothing (an idle pass that found nothing to
    do); a run that failed, or whose job is unknown, is not one."""
    if job not in CHANGES or not isinstance(summary, dict) or summary.get("error"):
        return False
    return not any(_count(summary.get(k)) for k in CHANGES[job])


def _span(first: float, last: float) -> str:
    """"from 14:02 to 16:40" (the dates too when the runs were on different days)."""
    same_day = when(first, "%Y-%m-%d") == when(last, "%Y-%m-%d")
    fmt = "%H:%M" if same_day else "%Y-%m-%d %H:%M"
    return f"from {when(first, fmt)} to {when(last, fmt)}"


def activity_rows(runs: list[dict]) -> list[dict]:
    """The Activity tab's rows from the log's runs (``{"at", "job", "summary"}``, newest
    first): a run that changed something is a row of its own; consecutive runs of a job
    that changed nothing are one row, at the newest, saying how many there were.  A run
    that changed something ends every such stretch, so the rows stay in time order.

    Each row: ``at``, ``job``, ``text`` (what the Activity tab shows), ``runs`` (how many
    it stands for), ``first_at``, ``changed`` and ``lines`` (each run's sentence with its
    time, newest first)."""
    rows: list[dict] = []
    open_rows: dict[str, dict] = {}  # job -> its stretch of runs that changed nothing
    for run in runs:
        job, summary = str(run.get("job")), run.get("summary")
        text = activity_sentence(job, summary)
        line = f"{when(run.get('at'))}: {text}"
        if not changed_nothing(job, summary):
            open_rows.clear()
            rows.append(dict(at=run.get("at"), job=job, text=text, runs=1, first_at=run.get("at"),
                             changed=True, lines=[line]))
            continue
        row = open_rows.get(job)
        if row is None:
            row = open_rows[job] = dict(at=run.get("at"), job=job, text=text, runs=0,
                                        changed=False, lines=[], newest=text)
            rows.append(row)
        row["runs"] += 1
        row["first_at"] = run.get("at")
        row["lines"].append(line)
    for row in rows:
        newest = row.pop("newest", None)
        if row["runs"] > 1:
            row["text"] = (f"{newest} ({row['runs']} runs changed nothing, "
                           f"{_span(row['first_at'], row['at'])}.)")
    return rows


def reflection_sentence(report: ReflectionEvent | dict) -> str:
    """The status-bar line after an idle or manual reflection (both jobs); `report` is the
    scheduler's `ReflectionEvent` (or its ``to_dict()``)."""
    if isinstance(report, ReflectionEvent):
        report = report.to_dict()
    if report.get("error"):
        return f"Reflection failed: {report['error']}"
    c, f = report.get("consolidation"), report.get("forgetting")
    parts = []  # what happened to the memories first; the backup, routine, last (QA pass
    # 22: it came first, and a narrow status bar cut what the reflection did)
    if isinstance(c, dict):
        parts.append(activity_sentence("consolidate", {**c, "archived": None}))
    if isinstance(f, dict):
        fs = dict(f)
        if isinstance(fs.get("archived"), list):
            fs["archived"] = [a.get("episode_id", a) if isinstance(a, dict) else a for a in fs["archived"]]
        parts.append(activity_sentence("forget", fs))
    if isinstance(report.get("backup"), dict):
        parts.append(backup_sentence(report["backup"]))
    said = any(isinstance(r, dict) and r.get("yielded") for r in (c, f))
    if report.get("yielded") and not said:
        parts.append("Stopped early because you started typing.")
    return " ".join(parts) or "Reflection finished."


def reflection_headline(report: ReflectionEvent | dict) -> str:
    """`reflection_sentence` short enough for the status bar to show whole: what the
    model's suggestions lacked, which memories were archived and where the backup went are
    left to the tooltip and the Activity tab ("Reflection: Read 2 groups of related
    memories; nothing new to add (the model's 5 suggestions were set aside: too sh…" was
    cut in a 1280-pixel window, QA pass 28b)."""
    if isinstance(report, ReflectionEvent):
        report = report.to_dict()
    if report.get("error"):
        return reflection_sentence(report)
    c, f, b = report.get("consolidation"), report.get("forgetting"), report.get("backup")
    parts = []
    if isinstance(c, dict):
        parts.append(_consolidation_sentence({**c, "archived": None}, reasons=False)
                     if not c.get("error") else activity_sentence("consolidate", c))
    if isinstance(f, dict):
        n, gone = _count(f.get("archived")), _count(f.get("purged"))
        if f.get("error") or _count(f.get("restored")):
            parts.append(activity_sentence("forget", f))
        elif n or gone:
            parts.append(" ".join(
                ([f"Archived {count(n, 'stale memory', 'stale memories')} (Memories ▸ Archive)."] if n else [])
                + ([f"Deleted {count(gone, 'memory', 'memories')} for good."] if gone else [])))
        else:
            parts.append("Nothing to archive.")
    if isinstance(b, dict):
        parts.append(backup_sentence(b) if b.get("error") else "Backed up your memories.")
    said = any(isinstance(r, dict) and r.get("yielded") for r in (c, f))
    if report.get("yielded") and not said:
        parts.append("Stopped early because you started typing.")
    return " ".join(parts) or "Reflection finished."


def reflection_found_nothing(report: ReflectionEvent | dict) -> bool:
    """Did a pass read no new group of memories, archive nothing, make no backup, and end
    without error or stopping early?  After an idle one the status bar stays as it was:
    with a short idle delay every click brought "While you were away: Nothing new since
    the last reflection." back over what the bar said (QA pass 25); the Activity tab keeps
    every pass."""
    if isinstance(report, ReflectionEvent):
        report = report.to_dict()
    c, f = report.get("consolidation"), report.get("forgetting")
    if report.get("error") or report.get("yielded") or report.get("backup") or not isinstance(c, dict):
        return False
    read = sum(_count(c.get(k)) for k in ("distilled", "failed", "added", "strengthened",
                                          "superseded"))
    archived = f.get("archived") if isinstance(f, dict) else None
    return read == 0 and not archived


def short_when(ts: float | None, now: float | None = None) -> str:
    """A time in the table, short: "today 03:59", "yesterday 21:10", "6 Dec 03:59", "6 Dec
    2025" (the full date is its tooltip).  QA pass 41c: two full dates took the room your
    words and the answer needed, cut to fifteen letters each."""
    if not ts:
        return "—"
    try:
        t, n = time.localtime(ts), time.localtime(time.time() if now is None else now)
        days = (datetime.date(n.tm_year, n.tm_mon, n.tm_mday)
                - datetime.date(t.tm_year, t.tm_mon, t.tm_mday)).days
    except (OverflowError, OSError, ValueError):
        return "?"
    clock = time.strftime("%H:%M", t)
    if days == 0:
        return f"today {clock}"
    if days == 1:
        return f"yesterday {clock}"
    day = f"{t.tm_mday} {time.strftime('%b', t)}"
    return f"{day} {clock}" if t.tm_year == n.tm_year and days > 0 else f"{day} {t.tm_year}"


def when(ts: float | None, fmt: str = "%Y-%m-%d %H:%M") -> str:
    """A timestamp as local time, "—" for none, "?" for one no calendar has (a bad date in
    an older store must not break the window)."""
    if not ts:
        return "—"
    try:
        return time.strftime(fmt, time.localtime(ts))
    except (OverflowError, OSError, ValueError):
        return "?"
