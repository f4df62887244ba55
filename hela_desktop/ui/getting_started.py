"""Help ▸ Getting started: what a new user needs to know to rely on HeLa's answers (QA pass
30: the Help menu had only the shortcuts and About, and nothing said what the lines under an
answer mean, how to correct a memory or how to make HeLa forget one)."""

from __future__ import annotations

from PySide6 import QtWidgets

from ..events import NOT_FROM_MEMORIES
from ..sources import NONE_USED, OLDER_NEWS, USED
from .window_look import side_window

# (the names of the lines under an answer are the ones the window writes: `sources`)
GUIDE = f"""
<h3>Getting started with HeLa</h3>
<p>HeLa runs on this computer only. What you tell it stays in your data folder; nothing is
sent anywhere unless you choose a model server in Settings.</p>

<h4>1. Tell it about your life</h4>
<p>Each message you send becomes a memory: your own words, with the time you said them.
“My brother Karel is a dentist in Utrecht.” or “We fly to Lisbon on 14 March.” are good
memories: one fact, said plainly. The dots in the graph on the right are your memories; a
line between two dots is a link, made when a memory was written (said close together, or
alike) or learned because an answer used both. The key in the graph's corner tells them
apart.</p>

<h4>2. Ask, and read the lines under the answer</h4>
<p>When you ask something, HeLa recalls the memories that fit and the model answers with
them. Under the answer:</p>
<ul>
<li><b>{USED}</b>: the memories the answer drew on; click one to see why it was recalled.</li>
<li><b>{NONE_USED}</b>: they were recalled, but the answer says nothing of them.</li>
<li><b>Check this answer: …</b>: something in the answer goes against what you told me: a food
you said you must not eat (“I'm allergic to shellfish.”) offered without a warning, a name or
number you never said, another person than the one you asked about, what you said of
yourself given to someone else, a relative you never mentioned, or an old value you have
since corrected. Every reason found is named, the most serious first.</li>
<li><b>{NOT_FROM_MEMORIES.split(":")[0]}</b>: no memory was recalled for it.</li>
</ul>
<p>The default model is very small and often wrong: trust the lines under an answer more
than the answer. A bigger model file or a model server (Settings ▸ Answers) answers better.
Hover a word of an answer to see which memories were active when it was written.</p>

<h4>3. Correct, and forget</h4>
<ul>
<li>Say what changed: “Actually Karel is now a surgeon.”, “My mother moved to Antwerp.”,
“We fly in May instead of March.” The old memory is kept, marked <i>{OLDER_NEWS}</i>
(↻ in Memories), and the line under the answer says the correction was noted.</li>
<li>“Forget that I have a cat.” or “Forget everything about Karel.” deletes the matching
memories at once; Edit ▸ Undo brings them back.</li>
<li>“What do you know about me?” lists what you told me, in your own words, pinned memories
first. The model is not asked.</li>
</ul>

<h4>4. Your memories, by hand</h4>
<p>The <b>Memories</b> tab (Ctrl+2) lists them all: search, pin (★: always kept; click the
first column's heading to list them first), edit or delete, with Undo; the Archive tab
beside it brings a deleted memory back. File ▸ Export memories… writes one file you can
keep or move to another computer (your memories, their links, knowledge and chats; not
your settings or the window's look: copy <tt>settings.json</tt> from the data folder for
those), and File ▸ Import memories… reads it back, or another assistant's chat export. A
backup of your memories is made each day the app is used (File ▸ Backups…).</p>

<h4>5. While the app sits idle</h4>
<p>HeLa reflects: it distils what you said often into knowledge (the Knowledge tab) and
archives old small talk nothing links to (never a pinned memory). Archived memories are
not deleted: the Archive tab beside Memories brings them back. Edit ▸ Reflect now does it at once and says what it did.</p>

<p>Help ▸ Keyboard shortcuts (F1) lists every key. The README has everything else.</p>
"""


def getting_started(w: QtWidgets.QMainWindow) -> QtWidgets.QDialog:
    """Help ▸ Getting started: the guide in a window that may stay open beside the app
    (made once, raised again)."""

    def guide(dlg: QtWidgets.QDialog) -> QtWidgets.QWidget:
        text = QtWidgets.QTextBrowser(dlg)
        text.setHtml(GUIDE)
        dlg.text = text  # type: ignore[attr-defined]  # (for tests)
        return text

    return side_window(w, "guide_dialog", "Getting started", guide, (640, 620))


__all__ = ["GUIDE", "getting_started"]
