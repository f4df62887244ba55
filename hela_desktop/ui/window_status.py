"""The main window's status bar: model, device, memory count, and what is busy."""

from __future__ import annotations

import math
import time

from PySide6 import QtCore, QtWidgets

from ..assistant import model_label
from ..events import DRIFTED_NOTE, FORGET_FOOTER, LISTED_FOOTER, cut_short
from ..importers.base import author_of
from ..prompt import shorten
from ..sources import Sources, answer_sources, recalls_of, stored_sources
from ..words import count, one_line, printable
from . import plain

REFLECTING = "Reflecting on memories…"


class StatusBar(QtWidgets.QStatusBar):
    """A status bar whose passing message ends in "…" where the widgets on the right would
    cut it (Qt cuts it mid-letter: "… not in your own words). C"); the whole of it is
    `full_message`, shown on hover.  A resize fits it again for the time it has left."""

    def __init__(self, parent: QtWidgets.QWidget | None = None):
        super().__init__(parent)
        self.full_message = ""
        self.detail = ""  # a longer account of the message, shown on hover instead
        self._shown = ""  # what was put up for it
        self._until: float | None = None  # when the message goes (None: it stays)
        self._refit_timer = QtCore.QTimer(self)
        self._refit_timer.setSingleShot(True)
        self._refit_timer.setInterval(0)
        self._refit_timer.timeout.connect(self._refit)
        # a message Qt puts up itself (an action's status tip) is its own whole text
        self.messageChanged.connect(self._changed)

    def _changed(self, text: str) -> None:
        if text != self._shown:
            self.full_message = self._shown = text
            self.detail = ""

    def showMessage(self, text: str, timeout: int | None = 0, detail: str = "") -> None:  # noqa: N802 (Qt's)
        timeout = timeout or 0
        self.full_message, self.detail = text, detail
        self._until = time.monotonic() + timeout / 1000 if timeout > 0 else None
        self._shown = self.fitted(text)
        super().showMessage(self._shown, timeout)

    def room(self) -> int:
        """The width the message may take: up to the first widget on the right."""
        right = [w.x() for w in self.findChildren(QtWidgets.QWidget,
                                                  options=QtCore.Qt.FindChildOption.FindDirectChildrenOnly)
                 if w.isVisible() and not isinstance(w, QtWidgets.QSizeGrip) and w.x() > 0]
        return (min(right) if right else self.width()) - 12  # the message's own margins

    def fitted(self, text: str) -> str:
        return self.fontMetrics().elidedText(text, QtCore.Qt.TextElideMode.ElideRight,
                                             max(40, self.room()))

    def addPermanentWidget(self, widget: QtWidgets.QWidget, stretch: int | None = 0) -> None:  # noqa: N802 (Qt's)
        super().addPermanentWidget(widget, stretch or 0)
        # when a widget on the right moves, shows or hides (a "Reflecting…" label clears),
        # the message is fitted again to the room it leaves
        widget.installEventFilter(self)

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 (Qt's name)
        if event.type() in (QtCore.QEvent.Type.Move, QtCore.QEvent.Type.Show,
                            QtCore.QEvent.Type.Hide, QtCore.QEvent.Type.Resize):
            self._refit_later()
        return False

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        super().resizeEvent(event)
        self._refit_later()

    def _refit_later(self) -> None:
        if self.full_message and self.currentMessage():
            self._refit_timer.start()  # once laid out (many moves: one fit)

    def _refit(self) -> None:
        if not (self.currentMessage() and self.full_message):
            return
        left = 0 if self._until is None else int((self._until - time.monotonic()) * 1000)
        shown = self.fitted(self.full_message)
        if shown != self._shown and (self._until is None or left > 0):
            self._shown = shown
            super().showMessage(shown, left)


class WindowStatus:
    """The permanent widgets on the right of a status bar, and what they say."""

    def __init__(self, bar: QtWidgets.QStatusBar):
        self.bar = bar
        self.model = QtWidgets.QLabel("Model: —")
        self.device = QtWidgets.QLabel("—")
        self.memories = QtWidgets.QLabel("0 memories")
        self.busy = QtWidgets.QProgressBar()
        self.busy.setRange(0, 0)
        self.busy.setMaximumWidth(120)
        self.busy.setTextVisible(False)
        self.busy.hide()
        self.busy_label = QtWidgets.QLabel("")
        plain.labels(self.model, self.device, self.busy_label)  # names of files and servers
        for w in (self.busy_label, self.busy, self.memories, self.device, self.model):
            bar.addPermanentWidget(w)
        # a long line is cut where the widgets on the right begin: hovering shows it whole
        bar.messageChanged.connect(lambda text: bar.setToolTip(
            plain.tip(str(getattr(bar, "detail", "") or getattr(bar, "full_message", text)) if text else "")))

    def show_memories(self, n: int) -> None:
        self.memories.setText(f"{n} memor{'y' if n == 1 else 'ies'}")

    def show_loading(self, text: str) -> None:
        """What is loading now ("" when done)."""
        self.busy.setVisible(bool(text))
        self.busy_label.setText(text)

    def show_reflecting(self, on: bool) -> None:
        """A reflection pass runs (shown unless something else is already shown)."""
        if on and not self.busy_label.text():
            self.show_loading(REFLECTING)
        elif not on and self.busy_label.text() == REFLECTING:
            self.show_loading("")

    def show_model_failed(self, msg: str, server_url: str = "") -> None:
        """The model could not be loaded, or the model server (`server_url`) not reached:
        the status bar names which, the reason on hover."""
        self.model.setText("Model server: not reachable" if server_url else "Model: not loaded")
        self.model.setToolTip(plain.tip(f"{server_url}\n{msg}" if server_url else msg))
        self.device.setText("—")

    def show_model(self, info: dict, load_model: bool) -> None:
        """The model's name, where answers come from, and the device."""
        if not info.get("name"):  # not loaded yet
            self.model.setText("Model: loading…" if load_model else "Model: not loaded")
            self.model.setToolTip(plain.tip(str(info.get("path") or "")))
            self.device.setText("")
            return
        self.model.setText(f"Model: {model_label(info)}")
        self.model.setToolTip(plain.tip(model_tip(info)))
        if info.get("server_url"):  # answers come from a model server: say which, always
            from ..server_llm import privacy_warning, where_answers_come_from

            url = info["server_url"]
            warn = privacy_warning(url)
            self.model.setText(where_answers_come_from(url, info["name"])
                               + (" ⚠ unencrypted" if warn else ""))
            self.model.setToolTip(plain.tip(warn or f"Prompts, memories included, go to {url} "
                                            "and nowhere else."))
            self.device.setText(f"server · context {info.get('n_ctx', '?')}")
            return
        dev = info.get("device") or "CPU"
        gpu = f" ({info['n_gpu_layers']} layers)" if dev == "GPU" and info.get("n_gpu_layers", -1) > 0 else ""
        self.device.setText(f"{dev}{gpu} · context {info.get('n_ctx', '?')}")



def model_tip(info: dict) -> str:
    """The status bar's model tooltip: the file, and for the bundled model which copy of
    its weights answers (`hela_desktop.model_f16`)."""
    tip = str(info.get("path") or "")
    if info.get("run_path"):
        tip += ("\nAnswers from a 16-bit copy of its weights (a 4-bit model this small "
                f"answers worse at 4 bits): {info['run_path']}")
    elif info.get("f16_problem"):
        tip += ("\nAnswers from the 4-bit file: its 16-bit copy could not be used "
                f"({info['f16_problem']})")
    return tip


def op_message(name: str, arg, result=None) -> tuple[str, int] | None:
    """The status-bar line after a memory edit (and how long it stays, ms)."""
    if name == "edit":
        return f"Memory #{arg[0]} saved and re-embedded.", 4000
    if name == "pin":
        return f"Memory #{arg[0]} {'pinned' if arg[1] else 'unpinned'}.", 4000
    if name == "restore":
        from .worker_ops import restore_ids

        ids = restore_ids(arg)
        what = f"Memory #{ids[0]}" if len(ids) == 1 else count(len(ids), "memory", "memories")
        return f"{what} restored.", 4000
    if name == "delete_conv_memories":  # (`result`: the memories deleted)
        n = len(result) if isinstance(result, list) else None
        if n == 0:
            return "Chat deleted; its memories were all pinned, so they stay.", 6000
        what = ("the memories formed in it, pinned ones aside" if n is None
                else "the memory formed in it" if n == 1
                else f"the {n:,} memories formed in it")  # (the question said which stay)
        return (f"Chat deleted with {what} (Memories ▸ Archive restores "
                f"{'it' if n == 1 else 'them'}).", 6000)
    if name == "delete_conv":  # (it said nothing: the chat just went; `result`: the
        # memories it had formed — "keeps what you said" after "No memories were formed")
        if result == 0:
            return "Chat deleted.", 4000
        return "Chat deleted. The memory graph keeps what you said in it.", 6000
    if name == "purge":
        what = f"Memory #{arg[0]}" if len(arg) == 1 else count(len(arg), "memory", "memories")
        return f"{what} deleted for good.", 5000
    if name.startswith("knowledge_"):
        kid = arg[0] if isinstance(arg, tuple) else arg
        what = {"knowledge_edit": "saved; it is used as you wrote it",
                "knowledge_delete": "deleted (Undo in the Knowledge tab)",
                "knowledge_restore": "restored"}.get(name, "changed")
        return f"Knowledge #{kid} {what}.", 5000
    return None


def located_message(found: dict, shown: int, graph_limit: int) -> str:
    """What the status bar says when a memory named under an answer (or in the timeline)
    is not in the graph: `found` is the ``locate`` op's answer, `shown` how many memories
    the graph holds, at most `graph_limit`."""
    from .explain import when

    eid, state = found["id"], found["state"]
    if state == "gone":
        return f"Memory #{eid} was deleted for good: nothing of it is left to show."
    if state == "deleted":
        return (f"Memory #{eid} was deleted by you on {when(found['at'])}; it is shown in "
                "Memories ▸ Archive, where Restore brings it back.")
    if state == "archived":
        return (f"Memory #{eid} was archived by forgetting on {when(found['at'])}; it is "
                "shown in Memories ▸ Archive, where Restore brings it back.")
    if shown >= graph_limit:
        return (f"Memory #{eid} is older than the {graph_limit:,} newest memories the graph "
                "shows; why it was recalled is shown beside the graph.")
    return f"Memory #{eid} is not in the graph yet; why it was recalled is shown beside the graph."


def _num(v) -> float:
    """A number from stored statistics, 0 for anything else (an imported file may hold any
    JSON there)."""
    return float(v) if type(v) in (int, float) and math.isfinite(v) else 0.0


MODEL_CHARS = 60  # a model's name in an answer's footer, cut at a word near here

def answer_footer(stats: dict, interrupted: bool) -> str:
    """The line under an answer: tokens, swaps, speed (from the first token on; older answers
    stored only the whole time, prompt reading included), and why it ended if not by itself."""
    if isinstance(stats.get("forget"), dict):  # a request to forget (`forget_request`)
        return FORGET_FOOTER
    if isinstance(stats.get("listed"), list):  # "What do you know about me?" (`about_you`)
        return LISTED_FOOTER
    tokens = int(_num(stats.get("tokens")))
    if tokens <= 0:
        return "stopped early" if interrupted else ""
    swaps = int(_num(stats.get("swaps")))
    parts = [f"{tokens} tokens", f"{swaps} memory swap{'s' if swaps != 1 else ''}"]
    gen, elapsed = _num(stats.get("generation_s")), _num(stats.get("elapsed_s"))
    if gen > 0:
        parts.append(f"{tokens / gen:.1f} tokens/s")
    elif elapsed > 0:
        parts.append(f"{tokens / elapsed:.1f} tokens/s, prompt reading included")
    model = stats.get("model")
    if isinstance(model, str) and model.strip():  # which model wrote it (0.14 on)
        parts.append(f"by {shorten(one_line(printable(model)), MODEL_CHARS)}")
    if _num(stats.get("repeat_of")) > 0:  # no new memory: the message repeated this one
        parts.append(f"asked before: memory #{int(stats['repeat_of'])}")
    if stats.get("drifted") is True:  # `formulas.drifted`; `turn.model_history` skips it
        parts.append(DRIFTED_NOTE)
    text = " · ".join(parts)
    if interrupted and stats.get("failed") is True:
        return f"cut short: {cut_short(str(stats.get('failed_by') or ''))} — " + text
    if interrupted:
        return "stopped — " + text
    if _num(stats.get("limit")) > 0:
        return f"stopped at the {int(stats['limit'])}-token limit (Settings ▸ Longest answer) — " + text
    return text


def stats_of(m: dict) -> dict:
    """A stored message's statistics as a dict ({} when there are none, or an imported
    file put something else there)."""
    st = m.get("stats")
    return st if isinstance(st, dict) else {}


def stored_tokens(m: dict) -> int:
    """How many tokens a stored answer has (0 when its statistics do not say)."""
    return max(0, int(_num(stats_of(m).get("tokens"))))


def recall_in(messages: list[dict], message_id: int | None, eid: int) -> dict | None:
    """Why answer `message_id` recalled memory `eid` (its stored recall), or None: what the
    why-recalled panel explains for a memory clicked under that answer (it explained the
    memory's latest recall, for another message)."""
    m = next((m for m in messages if message_id is not None and m.get("id") == message_id),
             None)
    return None if m is None else next(
        (r for r in recalls_of(stats_of(m)) if r["episode_id"] == eid), None)




def done_lines(ev, recalls: dict[int, dict]) -> tuple[str, Sources]:
    """The footer and the memories drawn on, for an answer that has just ended (a
    `DoneEvent`); `recalls`: what the turn's events said of each memory, by id."""
    footer = answer_footer({"tokens": ev.tokens, "swaps": ev.swaps_shown, "elapsed_s": ev.elapsed_s,
                            "generation_s": ev.generation_s, "limit": ev.limit,
                            "repeat_of": ev.episode_id if ev.repeated else None,
                            "failed": ev.failed, "failed_by": ev.failed_by,
                            "forget": ev.forget, "listed": ev.listed,
                            "drifted": ev.drifted, "model": ev.model},
                           ev.interrupted)
    used = dict.fromkeys(i for _, _, ids in ev.timeline for i in ids)
    return footer, answer_sources((recalls[i] for i in used if i in recalls), ev.unrecalled,
                                  ev.drew_on, ev.doubt, ev.corrects, ev.respelled)


def stored_lines(m: dict) -> tuple[str, Sources]:
    """The same for a stored answer (a message of `Store.messages`); an imported one a
    newer export shows on another branch of its chat is said to be an older version."""
    st = stats_of(m)
    footer = off_branch_footer(m) if m.get("off_branch") else \
        answer_footer(st, m["interrupted"])
    return footer, stored_sources(st)


def off_branch_footer(m: dict) -> str:
    """The line under an imported answer whose exchange a newer export of the chat shows on
    another branch (a question edited there): it stays in the transcript, but the model is
    not shown it when the chat goes on (`turn.model_history`)."""
    where = author_of(m.get("uid") or "") or "the app it came from"
    return (f"on an older version of this chat (edited in {where} since); the chat goes on "
            "here from the newer one")


def listed_line(listed: list[int]) -> str:
    """The status-bar line after "What do you know about me?" (`DoneEvent.listed`)."""
    if not listed:
        return "No memories to list yet: what you tell me about yourself becomes one."
    n = len(listed)
    return (f"Listed the {n} memor{'y' if n == 1 else 'ies'} that matter most, in your words; "
            "the model was not asked.")


def forget_line(forget: dict) -> str:
    """The status-bar line after a request to forget (`DoneEvent.forget`): what was
    deleted, not the "0 tokens at 0.0/s" of an answer the model did not give."""
    ids = [i for i in forget.get("deleted") or [] if isinstance(i, int)]
    if not ids:
        return ("Nothing deleted: the answer names memories that may be meant."
                if forget.get("maybe") else "Nothing deleted: no memory matched.")
    what = f"Memory #{ids[0]}" if len(ids) == 1 else count(len(ids), "memory", "memories")
    return f"{what} deleted (Edit ▸ Undo brings {'it' if len(ids) == 1 else 'them'} back)."


def done_line(tokens: int, tps: float, swaps: int, interrupted: bool, kept: bool = True,
              failed: bool = False, failed_by: str = "") -> str:
    """The status-bar line when an answer ends (`kept`: something of it was stored;
    `failed`: a failure ended it, not Stop: `failed_by` "error" for one of the model's or
    the app's own, else a model server's)."""
    why = cut_short(failed_by)
    if interrupted and not kept:  # as the chat says: stopped before its first token
        return (f"{why[:1].upper()}{why[1:]} before the answer began — no answer was kept."
                if failed else "Stopped before the answer began — no answer, no memory made.")
    msg = f"{tokens} tokens at {tps:.1f}/s · {swaps} memory swap{'' if swaps == 1 else 's'}"
    if interrupted:
        return (f"Cut short: {why} — partial answer kept. " if failed
                else "Stopped — partial answer kept. ") + msg
    return msg


def answer_title(view, key: int | None) -> str:
    """The timeline's heading for the answer shown in the chat `view` as entry `key`: its
    place in the chat ("Answer 3 of this chat"; QA pass 26 read "Answer · message #28", the
    store's number, in a chat of 10 messages)."""
    keys = [e["key"] for e in view.entries if e["role"] == "assistant"]
    return f"Answer {keys.index(key) + 1} of this chat" if key is not None and key in keys \
        else "Answer"
