"""The main window's panes kept in step: a memory chosen in the graph, the Memories tab,
the timeline or under an answer is shown in the others (or found where it is, when the
graph does not hold it), and the side panes come into view when asked for.

`WindowPanes` is the part of `MainWindow` that does this (kept apart to keep each file to
one concern); `MainWindow` derives from it.
"""

from __future__ import annotations

from . import window_status as ws
from .window_chats import WindowChats
from .window_linking import TokenLinks
from .worker import GRAPH_LIMIT


class WindowPanes(WindowChats):
    """The graph, Memories and timeline of the main window, kept on one memory."""

    # the window's state these methods use (set by MainWindow)
    _relocating: set[int]  # memories explained beyond the graph, read again
    links: TokenLinks  # hover and click on tokens, the chat's and the timeline's

    def on_node_selected(self, nid: int) -> None:
        """A memory chosen in the graph: its recall details, the browser row, the timeline."""
        if nid >= 0 and nid in self._recalls and nid not in self.graph.recalls:
            self.graph.recalls[nid] = self._recalls[nid]
            self.graph.select(nid)
            return
        if nid >= 0 and self.right_tabs.currentIndex() == 1:
            self.browser.select_id(nid, emit=False)
        if nid >= 0 and self._timeline_of_memory(nid):
            self.graph.select(nid)  # explained as that answer recalled it
            return
        self.timeline.set_highlight_ids([nid] if nid >= 0 else [])

    def _answer_key(self, message_id) -> int | None:
        """The chat entry of stored answer `message_id`, if the open chat shows it."""
        return next((k for k, m in self.chat.view.msgs.items()
                     if message_id is not None and m.get("message_id") == message_id), None)

    def show_answer_timeline(self, key: int) -> None:
        """The timeline of the answer shown in the chat as entry `key` (a memory named under
        it, or its "and 2 more", was clicked: the timeline went on showing the latest
        answer, QA pass 41e); the one being written keeps it while it is written."""
        if self.is_streaming() or key == self.timeline.message_key:
            return
        shown = self.chat.view.msgs.get(key)
        mid = None if shown is None else shown.get("message_id")
        m = next((m for m in self.session.messages
                  if mid is not None and m["role"] == "assistant" and m.get("id") == mid), None)
        if m is not None:
            self._show_timeline_of(m, key)
        elif shown is not None:
            self.links.show_message_timeline(key)

    def _timeline_of_memory(self, nid: int) -> bool:
        """A memory chosen in the graph: the timeline shows the answer its pane explains
        (one whose line was clicked), else, when the shown answer did not use it, the open
        chat's latest answer that did, and the pane explains that answer's recall.  True
        when the pane is to be drawn again for it."""
        if self.is_streaming():
            return False
        tied = self._answer_key(self.graph.recalled_for.get(nid))
        if tied is not None:
            self.show_answer_timeline(tied)
            return False
        if nid in self.timeline.rows:
            return False
        view = self.chat.view
        for e in reversed(view.entries):
            m = view.msgs.get(e["key"]) if e["role"] == "assistant" else None
            if m and m.get("message_id") is not None \
                    and any(nid in ids for _, _, ids in m["spans"]):
                self._recall_of_answer(nid, m["message_id"])
                if self.graph.recalled_for.get(nid) != m["message_id"]:
                    return False  # (no stored recall: explained as before)
                self.show_answer_timeline(e["key"])
                return True
        return False

    def _on_right_tab(self, index: int) -> None:
        if index == 1:
            self.browser.refresh()
            if self.graph.selected is not None:
                self.browser.select_id(self.graph.selected, emit=False)

    def _on_knowledge_action(self, action: str, knowledge_id: int) -> None:
        """Edit or delete a knowledge item from the graph's diamond (the Knowledge tab
        opens on it, so the change and its undo are in view)."""
        self.show_right(1)
        self.browser.select_knowledge(knowledge_id)
        node = self.graph.data.nodes.get(-int(knowledge_id), {})
        item = {"id": int(knowledge_id), "text": node.get("text", "")}
        if action == "edit":
            self.browser.edit_knowledge(item)
        elif action == "delete":
            self.browser.delete_knowledge(item)

    def _recall_of_answer(self, nid: int, message_id) -> None:
        """A memory clicked under an answer: explained as that answer recalled it."""
        r = ws.recall_in(self.session.messages, message_id, int(nid))
        if r is not None:
            self.graph.recalls[int(nid)] = r
            self.graph.recalled_for[int(nid)] = int(message_id)
            view = self.chat.view
            key = next((k for k, m in view.msgs.items() if m.get("message_id") == message_id),
                       None)
            self.graph.recalled_as[int(nid)] = ws.answer_title(view, key)

    def _show_in_graph(self, nid: int) -> None:
        """A memory named under an answer or in the timeline: selected in the graph, or,
        when the graph does not hold it (deleted, archived, beyond its newest
        `GRAPH_LIMIT`), found where it is (`_located`)."""
        if int(nid) not in self.graph.data.index:
            self.run_op("locate", int(nid))
            return
        self.show_right(0)
        self.graph.unfold_details()  # its text and why it was recalled, not only a ring
        self.graph.select(nid, center=True)

    def _located(self, found: dict) -> None:
        """Where a memory outside the graph is: one in recall is explained beside the graph
        (its words, why it was recalled); one archived or deleted is shown in Memories."""
        nid, node = int(found["id"]), found.get("node")
        if nid in self._relocating:  # read again after a new snapshot: the pane follows
            self._relocating.discard(nid)
            if nid == self.graph.explained_id():
                if found["state"] == "kept" and node:
                    self.graph.show_outside(node, quiet=True)
                else:
                    self.graph.drop_outside()
            return
        if found["state"] == "kept" and node:
            self.show_right(0)
            self.graph.unfold_details()
            if nid in self._recalls:  # why this answer recalled it, not only the last time
                self.graph.recalls.setdefault(nid, self._recalls[nid])
            self.graph.show_outside(node)
        elif found["state"] != "gone":
            self._show_in_memories(nid, removed=found["state"] != "kept")
        shown = sum(1 for i in self.graph.data.index if i >= 0)  # knowledge: below 0
        self.statusBar().showMessage(ws.located_message(found, shown, GRAPH_LIMIT), 10000)

    def _show_in_memories(self, eid: int, removed: bool = False) -> None:
        """Memory `eid` alone in the Memories tab (in its Archive when `removed`)."""
        self.show_right(1)
        self.browser.show_memory(int(eid), removed=removed)

    def _on_browser_selected(self, eid: int) -> None:
        self.graph.select(eid, center=True)

    # ---- the side panes in view ---------------------------------------------------------
    def show_right(self, tab: int) -> None:
        """The graph (0) or Memories (1) in view: a graph side folded for a small window
        opens again, at its least, since it is asked for."""
        self.right_tabs.setCurrentIndex(tab)
        self.chat_width.reveal()

    def show_chat_list(self) -> None:
        """The chat list in view (opened again if a small window folded it), keyboard on it."""
        self.chat_width.reveal_list()
        self.conversations.list.setFocus()

    def search_memories(self) -> None:
        self.show_right(1)
        self.browser.focus_search()

    def find_in_graph(self) -> None:
        self.show_right(0)
        self.graph.search.setFocus()
        self.graph.search.selectAll()
