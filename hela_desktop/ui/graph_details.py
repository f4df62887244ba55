"""The graph's detail pane: what a chosen memory or knowledge item is, why it was last
recalled, and its neighbours; the links in that pane.

`GraphDetailsMixin` is part of `GraphView` (kept apart to keep each file to one concern);
it reads the view's data and state, declared below for the type checker.
"""

from __future__ import annotations

import html
from collections.abc import Callable

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtWidgets

from ..prompt import shorten
from .explain import graph_help_html, link_html, recall_html, with_still_true
from .graph_model import (
    LEARNED_MIN,
    GraphData,
    edge_near,
    edge_words,
    knowledge_kind_words,
    short_label,
)
from .plain import is_rtl, tip
from .theme import GraphColors, show_html

STILL_LOADING = "The graph is still loading: this memory is shown in it once it is drawn."


def fmt_time(ts: float | None) -> str:
    """A timestamp as local date and time, or a dash."""
    from .explain import when

    return when(ts)


def lines_html(text: str) -> str:
    """A memory's lines ("You: …", "HeLa: …") as paragraphs, each in its own direction: a
    line whose words (after its speaker) are Arabic or Hebrew reads from the right."""
    out = []
    for line in text.split("\n"):
        speaker, sep, words = line.partition(": ")
        rtl = is_rtl(words if sep and len(speaker) <= 12 else line)
        out.append(f"<p style='margin:0'{' dir=rtl' if rtl else ''}>{html.escape(line) or '&nbsp;'}</p>")
    return "<div style='margin-bottom:8px'>" + "".join(out) + "</div>"


ANSWER_SHOWN = 300  # characters of a memory's answer the pane shows (the whole: Memories)


def shown_text(text: str) -> str:
    """A memory's exchange as the pane shows it: your words whole, the answer cut at a word
    after `ANSWER_SHOWN` characters; a 256-token answer pushed "Why it was last recalled"
    below the pane (/work/exp/qa13u/shots/09-node-details.png)."""
    head, sep, answer = text.partition("\nHeLa: ")
    if not sep or len(answer) <= ANSWER_SHOWN:
        return text
    return f"{head}{sep}{shorten(answer, ANSWER_SHOWN)}"


class GraphDetailsMixin:
    """The detail pane of a `GraphView`."""

    # the view's state these methods use (set by GraphView)
    data: GraphData
    colors: GraphColors
    details: QtWidgets.QTextBrowser | None
    selected: int | None
    active: dict[int, float]
    recalls: dict[int, dict]
    recalled_for: dict[int, int]
    recalled_as: dict[int, str]
    outside: dict[int, dict]  # memories the graph does not hold, read to explain them
    loaded: bool  # a snapshot has come
    xy: np.ndarray
    vb: pg.ViewBox
    plot: pg.PlotWidget
    edge_rows: list[np.ndarray]
    nodeHovered: QtCore.SignalInstance
    memory_at: Callable[[QtCore.QPointF], int | None]

    # ---- hovering ---------------------------------------------------------------------
    def _on_scene_move(self, scene_pos) -> None:
        """A memory under the mouse: its words and how often it was recalled; a link: the
        two memories and its weight (QA pass 35: a link said nothing)."""
        nid = self.memory_at(scene_pos)
        edge = self.edge_at(scene_pos) if nid is None else None
        if (nid, edge) == getattr(self, "_hover", (None, None)):
            return
        self._hover, self._hover_id = (nid, edge), nid
        node = self.data.nodes[nid] if nid is not None else {}
        said = (tip(f"#{nid} {node.get('text') or node.get('label', '')}",  # whole, not cut mid-word
                    f"recalled {int(node.get('access_count') or 0)}×") if nid is not None
                else tip(edge_words(self.data, edge)) if edge is not None else "")
        self.plot.setToolTip(said)
        self.nodeHovered.emit(-1 if nid is None else nid)

    def edge_at(self, scene_pos: QtCore.QPointF) -> int | None:
        """The drawn link under a scene position (within 4 pixels): its edge row, or None."""
        rows = [r for r in self.edge_rows if len(r)]
        if not rows or not len(self.xy):
            return None
        p = self.vb.mapSceneToView(scene_pos)
        return edge_near(self.xy, self.data.src, self.data.dst, np.concatenate(rows),
                         (p.x(), p.y()), tuple(self.vb.viewPixelSize()))
    recall_details: bool
    knowledgeAction: QtCore.SignalInstance
    memoriesRequested: QtCore.SignalInstance
    locateRequested: QtCore.SignalInstance
    select: Callable[..., None]  # (node id or None, center=False)

    def label_of(self, node_id: int) -> str:
        """A memory's short label for the timeline, the token tooltips and the why-recalled
        text (each puts "#id" before it): from the graph, else from the answer's recall (a
        memory older than the newest the graph holds, common after a large import), else
        "" — it was "#id", read "#1201 #1201"."""
        n = self.data.nodes.get(int(node_id))
        if n:
            return short_label(n.get("label") or n.get("text", ""), 32)
        r = self.recalls.get(int(node_id)) or {}
        return short_label(str(r.get("text") or ""), 32)

    def show_outside(self, node: dict, quiet: bool = False) -> None:
        """Explain a memory the graph does not hold (older than the newest it draws, often
        an imported one, or any before the graph is drawn): its words and why it was
        recalled, in the pane, with no ring.  `node` is the memory as the graph's nodes
        are (read from the store by the assistant thread: the window's ``locate``);
        `quiet`: read again after a new snapshot (the choice is not announced again)."""
        nid = int(node["id"])
        if nid in self.data.index:  # drawn meanwhile: chosen there
            self.select(nid, center=True)
            return
        if not quiet:
            self.select(None)
        self.outside = {nid: node}  # the one explained now (until the next choice)
        self._show_details(nid)

    def _show_details(self, node_id: int | None) -> None:
        if self.details is None:
            return
        n = None if node_id is None else self.data.nodes.get(node_id) or self.outside.get(node_id)
        if node_id is not None and n is None and not self.loaded:
            show_html(self.details, f"<h3>Memory #{node_id}</h3><p class='muted'>{STILL_LOADING}</p>")
            return
        if node_id is None or n is None:
            show_html(self.details, graph_help_html(self.colors))
            return
        if n.get("kind") == "knowledge":
            kk = knowledge_kind_words(n.get("knowledge_kind"))
            src = ", ".join(f"<a href='node:{e}'>#{e}</a>" for e in n.get("sources", [])) or "—"
            show_html(self.details,
                f"<h3>Knowledge · {html.escape(kk)}</h3>"
                f"<p class='muted'>Distilled {fmt_time(n.get('created_at'))} · updated "
                f"{fmt_time(n.get('last_access'))}</p>"
                f"<p>{html.escape(n.get('text') or '')}</p>"
                f"<h4>Distilled from</h4><p>{src}</p>"
                f"<p><a href='knowledge-edit:{-node_id}'>Edit…</a> · "
                f"<a href='knowledge-delete:{-node_id}'>Delete</a> "
                "<span class='muted'>(undo in Memories ▸ Knowledge)</span></p>")
            return
        kind = "Memory"
        text = lines_html(shown_text(n.get("text") or ""))
        nbrs = self.data.neighbours(node_id)
        n_learned = sum(1 for _, _, lp in nbrs if lp >= LEARNED_MIN)
        nb_html = "".join(
            f"<li><a href='node:{j}'>{'#' + str(j) if j >= 0 else '◆'}</a> "  # ◆: knowledge
            f"{html.escape(self.label_of(j))} "
            f"{link_html(w, lp, self.colors.learned_edge)}</li>" for j, w, lp in nbrs[:12]) + (
            f"<li>and {len(nbrs) - 12} more</li>" if len(nbrs) > 12 else "") or "<li><i>none</i></li>"
        nb_head = f"{len(nbrs)}, {n_learned} learned" if n_learned else f"{len(nbrs)}"
        nb_part = f"<h4>Neighbours ({nb_head})</h4><ul>{nb_html}</ul>"
        if node_id not in self.data.nodes:  # explained from the store: not drawn
            nb_part = ("<p class='muted'>" + (
                "Not drawn in the graph: it shows only the newest memories." if self.loaded
                else STILL_LOADING) + f"</p><p><a href='memories:{node_id}'>Show it in "
                "Memories</a></p>")
        recall = with_still_true(self.recalls.get(node_id) or n.get("last_recall"), self._said)
        mid = self.recalled_for.get(node_id) if node_id in self.recalls else None
        # (the answer whose line was clicked, by its place in the chat: "that answer" went on
        # explaining an older one while the timeline showed the next, QA pass 36)
        told = self.recalled_as.get(node_id, "") if mid is not None else ""
        why = f"Why {told[:1].lower()}{told[1:]} recalled it" if told.startswith("Answer ") \
            else "Why that answer recalled it" if mid is not None else "Why it was last recalled"
        pinned = " · <b>pinned</b>" if n.get("pinned") else ""
        active = " · <b>active now</b>" if node_id in self.active else ""
        show_html(self.details,
            f"<h3>{kind} #{node_id}</h3>"
            f"<p class='muted'>Created {fmt_time(n.get('created_at'))} · recalled "
            f"{int(n.get('access_count') or 0)}× · last used {fmt_time(n.get('last_access'))}{pinned}{active}</p>"
            f"{text}<h4>{why}</h4>"
            f"{recall_html(recall, self.label_of, details=self.recall_details)}"
            f"{nb_part}")

    def _said(self, i: int) -> str:
        """What the user said in memory `i`, whole (a label cut at 60 characters: "")."""
        label = str((self.data.nodes.get(i) or {}).get("label") or "")
        return label if len(label) < 60 else ""

    def open_details_link(self, url: QtCore.QUrl) -> None:
        s = url.toString()
        if s.startswith("node:"):
            nid = int(s[5:])
            if self.loaded and nid not in self.data.index:
                # gone from the graph since the pane was drawn (taken back by Edit and
                # resend, deleted, archived): the window finds where it is and says so; the
                # selection was dropped without a word (QA pass 20)
                self.locateRequested.emit(nid)
                return
            self.select(nid, center=True)
        elif s == "toggle:recall-details":  # the numbers behind "why recalled"
            self.recall_details = not self.recall_details
            shown = self.selected if self.selected is not None else next(iter(self.outside), None)
            self._show_details(shown)
        elif s.startswith("memories:"):
            self.memoriesRequested.emit(int(s[len("memories:"):]))
        elif s.startswith("knowledge-"):
            action, _, kid = s[len("knowledge-"):].partition(":")
            self.knowledgeAction.emit(action, int(kid))
