"""Memory browser: searchable table of memories (edit, pin, soft delete with undo),
plus Knowledge, Archive (archived and deleted memories: restore, delete for good;
`archive_tab`) and Activity tabs.

Reads are asked for as a `BrowseQuery` (``fetch``; in the app the assistant thread runs
`hela_desktop.session.browse` and the rows come back to `show_result`), so the GUI thread
never reads the database; every change is requested from the assistant thread (``op``
signal), which owns the engine.  A browser given a `Store` reads it directly (tests).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6 import QtCore, QtGui, QtWidgets

from ..prompt import answer_excerpt
from ..session import MATCH_ORDER, BrowseQuery, browse
from ..store import REPLACED, answered_by
from ..words import count, memory_ref, one_line
from . import text_dialog
from .archive_tab import LAST_USED_FROM, ArchiveTab, fit_memory_columns
from .explain import activity_rows, short_when
from .graph_model import knowledge_kind_words, short_label
from .memory_edit import EditMemoryDialog
from .plain import BidiDelegate, find_keys, tip, undo_bar
from .theme import muted
from .undo_history import KNOWLEDGE, MEMORY, Step, UndoHistory

JOB_NAMES = {"consolidate": "Distilling", "forget": "Forgetting", "backup": "Backup"}
TABS = ("memories", "knowledge", "archive", "activity")  # in the order of the tabs

_ROOT = QtCore.QModelIndex()
# "Answer": an imported memory's was written by another assistant (its tooltip says which)
COLUMNS = ("★", "Created", "You", "Answer", "Recalled", "Last used")
# "Last used", not "Last recalled": asking a question again word for word uses it without
# recalling it (a row read "0" recalls and a time last recalled)
COLUMN_TIPS = {0: "★ pinned · ↻ corrected by a later memory of yours · ✕ deleted",
               4: "How many answers recalled this memory",
               5: "When this memory was last recalled, or asked again word for word"}
# what each column sorts by (`BrowseQuery.order`): the store sorts, so a big store sorts
# all of its memories, not only the rows shown
COLUMN_ORDERS = ("pinned", "created", "user", "assistant", "recalled", "last")



def _fmt(ts: float | None) -> str:
    from .explain import when

    return when(ts)


def _one_line(text: str, n: int = 120) -> str:
    """A memory's text on one line, cut after a whole word and without a stop before the
    "…" (as the graph's labels: it read "walks.…", the verification pass of 0.15)."""
    t = one_line(text)
    return t if len(t) <= n else short_label(t, n)


class EpisodeTableModel(QtCore.QAbstractTableModel):
    """Episodes as rows (id in UserRole)."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.episodes: list = []
        self.reasons: dict[int, str | None] = {}  # archived ones: why (the Archive tab)
        # id -> (its correction, the words, what it leaves true: "" for none)
        self.corrected: dict[int, tuple] = {}
        self.matched: dict[int, str] = {}

    def set_episodes(self, episodes: list, reasons: dict[int, str | None] | None = None,
                     corrected: dict[int, tuple] | None = None,
                     matched: dict[int, str] | None = None) -> None:
        """`matched`: how a search found a memory when not by its words ("near in meaning",
        "in HeLa's answer"; QA pass 29: no row said which were only near)."""
        self.beginResetModel()
        self.episodes = list(episodes)
        self.reasons = dict(reasons or {})
        self.corrected = dict(corrected or {})
        self.matched = dict(matched or {})
        self.endResetModel()

    def rowCount(self, parent=_ROOT) -> int:  # noqa: N802
        return 0 if parent.isValid() else len(self.episodes)

    def columnCount(self, parent=_ROOT) -> int:  # noqa: N802
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section, orientation, role=QtCore.Qt.ItemDataRole.DisplayRole):  # noqa: N802
        if orientation == QtCore.Qt.Orientation.Horizontal and role == QtCore.Qt.ItemDataRole.DisplayRole:
            return COLUMNS[section]
        if orientation == QtCore.Qt.Orientation.Horizontal and \
                role == QtCore.Qt.ItemDataRole.InitialSortOrderRole:  # first click: words A–Z,
            asc = QtCore.Qt.SortOrder.AscendingOrder  # pins, dates and counts most first
            return asc if section in (2, 3) else QtCore.Qt.SortOrder.DescendingOrder
        if orientation == QtCore.Qt.Orientation.Horizontal and role == QtCore.Qt.ItemDataRole.ToolTipRole:
            return COLUMN_TIPS.get(section)
        return None

    def data(self, index, role=QtCore.Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        e = self.episodes[index.row()]
        col = index.column()
        if role == QtCore.Qt.ItemDataRole.UserRole:
            return e.id
        fix = self.corrected.get(e.id)
        if role == QtCore.Qt.ItemDataRole.DisplayRole:
            return (
                "✕" if e.deleted_at is not None else "★" * e.pinned + "↻" * bool(fix),
                short_when(e.created_at),
                (f"({self.matched[e.id]}) " if e.id in self.matched else "")  # (first: a
                + _one_line(e.user_text)  # narrow column cut the tag, QA pass 29b)
                + (f"  · corrected {_in_part(fix)}later (#{fix[0]})" if fix else ""),
                answer_excerpt(e.assistant_text, 120),  # the words, not their markup
                str(e.access_count), short_when(e.last_access),
            )[col]
        if role == QtCore.Qt.ItemDataRole.ToolTipRole and e.deleted_at is not None:
            if self.reasons.get(e.id) == REPLACED:
                return tip(f"{e.text}\n\nReplaced by a new answer {_fmt(e.deleted_at)} "
                           "(Regenerate, or Edit and resend).")
            return tip(f"{e.text}\n\nDeleted by you {_fmt(e.deleted_at)}.")
        if role == QtCore.Qt.ItemDataRole.ToolTipRole and e.archived_at is not None:
            why = self.reasons.get(e.id)
            return tip(f"{e.text}\n\nArchived {_fmt(e.archived_at)}" + (f": {why}" if why else ""))
        if role == QtCore.Qt.ItemDataRole.FontRole and e.deleted_at is not None:
            font = QtGui.QFont()
            font.setItalic(True)
            return font
        if role == QtCore.Qt.ItemDataRole.ToolTipRole and col == 3 and e.assistant_text:
            return tip(f"{answered_by(e.source)} answered:\n{e.assistant_text}")
        if role == QtCore.Qt.ItemDataRole.ToolTipRole and (col in (2, 3) or col == 0 and fix):
            # (the correction first: a long exchange before it cut it off, QA pass 37c)
            return tip((f"Corrected {_in_part(fix)}later, by #{fix[0]}: “{fix[1]}”"
                        + (f"\nStill so: “{fix[2]}”" if _in_part(fix) else "") + "\n\n"
                        if fix else "") + e.text)
        if role == QtCore.Qt.ItemDataRole.ToolTipRole and col in (1, 4, 5):  # (the whole date)
            return f"Created {_fmt(e.created_at)}" if col == 1 else _use_tip(e.access_count,
                                                                              e.last_access)
        if role == QtCore.Qt.ItemDataRole.ForegroundRole and col == 5 and not e.access_count:
            # (a time beside "0" recalls: used another way, QA pass 36b N13)
            return QtWidgets.QApplication.palette().color(QtGui.QPalette.ColorRole.PlaceholderText)
        if role == QtCore.Qt.ItemDataRole.ForegroundRole and col == 2 and fix and not _in_part(fix):
            return QtWidgets.QApplication.palette().color(QtGui.QPalette.ColorRole.PlaceholderText)
        if role == QtCore.Qt.ItemDataRole.TextAlignmentRole and col in (0, 4):
            return int(QtCore.Qt.AlignmentFlag.AlignCenter)
        if role == QtCore.Qt.ItemDataRole.ForegroundRole and col == 0:
            return QtGui.QColor("#d62f7a")
        return None

    def episode_at(self, row: int):
        return self.episodes[row] if 0 <= row < len(self.episodes) else None


def _in_part(fix: tuple) -> str:
    """"in part " when a memory's correction leaves some of it true (its words are then not
    greyed: QA pass 37, "He is vegan…" beside the move it corrects), else ""."""
    return "in part " if len(fix) > 2 and fix[2] else ""


def _use_tip(recalled: int, last: float | None) -> str:
    """A memory's "Recalled" and "Last used" cells on hover: how many answers recalled it,
    and what its last use was when no answer recalled it (QA pass 36b N13: "0" beside a
    time read as a contradiction)."""
    times = f"Recalled by {recalled} answer{'' if recalled == 1 else 's'}"
    if last is None:
        return f"{times}; never used yet."
    if not recalled:
        return f"{times}. Last used {_fmt(last)}: the same question asked again word for word."
    return f"{times}; last used {_fmt(last)}."


def _hint(text: str) -> QtWidgets.QLabel:
    """A tab's grey, wrapped explanation above its table."""
    label = QtWidgets.QLabel(text)
    label.setWordWrap(True)
    muted(label)
    return label


class MemoryBrowser(QtWidgets.QWidget):
    """Tabs: Memories (search/edit/pin/delete), Knowledge, Archive (restore, delete for good),
    Activity."""

    op = QtCore.Signal(str, object)  # forwarded to the assistant thread
    memorySelected = QtCore.Signal(int)
    undoChanged = QtCore.Signal(bool)  # whether a deleted memory can be brought back
    tookBack = QtCore.Signal(object)  # an undo history `Step` that Undo took back

    def __init__(self, store=None, parent=None):
        super().__init__(parent)
        # asks for a tab's rows; the answer comes to show_result (the window routes both
        # through the assistant thread)
        self.fetch: Callable[[BrowseQuery], None] | None = None
        self._want_knowledge: int | None = None  # select it when the Knowledge rows come
        self._want_memory: tuple[str, int] | None = None  # (tab, id): select when its rows come
        # (chosen row, row to choose instead) once the rows come back after Delete or Undo
        self._next_choice: tuple[int | None, int | None] | None = None
        self._kept_choice: int | None = None  # see `_show_memories`
        self._quiet = False  # choosing a row without telling the graph (`select_id`)
        # deletions Undo can take back, in the order they happened (`undo_history`)
        self.history = UndoHistory()
        # search by meaning plus keywords: callable(text) that asks the engine (the window
        # sets it once the embedder is ready); its answer comes to set_search_results
        self.semantic_search: Callable[[str], None] | None = None
        self._ranked: tuple[str, list] | None = None  # (text, [(id, score)]) best first
        self._asked = ""
        lay = QtWidgets.QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.tabs = QtWidgets.QTabWidget()
        lay.addWidget(self.tabs)

        # -- Memories
        mem = QtWidgets.QWidget()
        ml = QtWidgets.QVBoxLayout(mem)
        top = QtWidgets.QHBoxLayout()
        self.search = QtWidgets.QLineEdit()
        self.search.setPlaceholderText("Search memories (Ctrl+F)…")
        self.search.setClearButtonEnabled(True)
        self._search_timer = QtCore.QTimer(self, singleShot=True, interval=200)
        self._search_timer.timeout.connect(self.refresh)
        self.search.textChanged.connect(self._search_edited)
        self.count_label = QtWidgets.QLabel("")
        muted(self.count_label)
        top.addWidget(self.search, 1)
        top.addWidget(self.count_label)
        ml.addLayout(top)
        self.model = EpisodeTableModel(self)
        self.table = QtWidgets.QTableView()
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QtWidgets.QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QtWidgets.QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setAlternatingRowColors(True)
        self.table.verticalHeader().setVisible(False)
        self.table.setWordWrap(False)
        hh = self.table.horizontalHeader()
        hh.setSectionResizeMode(QtWidgets.QHeaderView.ResizeMode.Interactive)
        hh.setStretchLastSection(False)
        hh.setSortIndicatorShown(True)
        for col, w in enumerate((28, 104, 200, 240, 66, 104)):
            # room for the heading and its sort arrow, with a gap between them ("Recalled"
            # and its arrow touched, QA pass 21), at any font size
            need = hh.sectionSizeFromContents(col).width() + hh.fontMetrics().averageCharWidth()
            self.table.setColumnWidth(col, max(w, need))
        # your words and the answer share what is left, so a narrow window keeps the
        # recall columns in view; narrower still, the answer (context, not the memory), then
        # when it was last used, are left out of the table (`eventFilter`) so your words
        # stay readable
        hh.setSectionResizeMode(2, QtWidgets.QHeaderView.ResizeMode.Stretch)
        hh.setSectionResizeMode(3, QtWidgets.QHeaderView.ResizeMode.Stretch)
        hh.setSectionsClickable(True)  # a click sorts by that column, again the other way
        hh.setSortIndicator(1, QtCore.Qt.SortOrder.DescendingOrder)  # newest first
        hh.sortIndicatorChanged.connect(lambda *_: self.refresh())
        # a search by meaning lists the best match first, with no column's arrow shown (it
        # stood on Created, which was not the order); a click on a column sorts the
        # matches by it
        self._by_match = True
        hh.sectionClicked.connect(self._sort_matches)
        self.table.viewport().installEventFilter(self)
        self.table.installEventFilter(self)  # Enter edits, as a double-click does
        self.table.doubleClicked.connect(lambda _i: self.edit_selected())
        self.table.selectionModel().currentRowChanged.connect(self._on_row)
        ml.addWidget(self.table, 1)
        self.undo_bar, self.undo_label, self.undo_button = undo_bar(self.undo_memory_delete)
        ml.addWidget(self.undo_bar)
        row = QtWidgets.QHBoxLayout()
        self.edit_button = QtWidgets.QPushButton("Edit…")
        self.pin_button = QtWidgets.QPushButton("Pin")
        self.delete_button = QtWidgets.QPushButton("Delete")
        self.edit_button.clicked.connect(self.edit_selected)
        self.pin_button.clicked.connect(self.toggle_pin)
        self.delete_button.clicked.connect(self.delete_selected)
        for b in (self.edit_button, self.pin_button, self.delete_button):
            row.addWidget(b)
        row.addStretch(1)
        ml.addLayout(row)
        self.tabs.addTab(mem, "Memories")

        # -- Knowledge (distilled; the user can correct it)
        kn = QtWidgets.QWidget()
        kl = QtWidgets.QVBoxLayout(kn)
        self.knowledge = QtWidgets.QTableWidget(0, 4)
        self.knowledge.setHorizontalHeaderLabels(["Kind", "Knowledge", "Status", "From memories"])
        kh = self.knowledge.horizontalHeader()
        kh.setSectionResizeMode(1, QtWidgets.QHeaderView.ResizeMode.Stretch)
        # the knowledge takes the room: kind and status as wide as their words, the source
        # list a heading's width (all of it on hover), left out of a narrow tab (the
        # verification pass of 0.14: 115 px for the text at 900 px, "From memories" cut)
        for c in (0, 2):
            kh.setSectionResizeMode(c, QtWidgets.QHeaderView.ResizeMode.ResizeToContents)
        self.knowledge.setColumnWidth(
            3, kh.sectionSizeFromContents(3).width() + kh.fontMetrics().averageCharWidth())
        self.knowledge.viewport().installEventFilter(self)
        self.knowledge.verticalHeader().setVisible(False)
        self.knowledge.setEditTriggers(QtWidgets.QAbstractItemView.EditTrigger.NoEditTriggers)
        self.knowledge.setSelectionBehavior(QtWidgets.QAbstractItemView.SelectionBehavior.SelectRows)
        self.knowledge.setSelectionMode(QtWidgets.QAbstractItemView.SelectionMode.SingleSelection)
        self.knowledge.itemSelectionChanged.connect(self._update_knowledge_buttons)
        self.knowledge.doubleClicked.connect(lambda _i: self.edit_knowledge())
        self.knowledge.installEventFilter(self)
        self.knowledge_hint = _hint(
            "Knowledge distilled from groups of related memories (about you, facts, about "
            "HeLa) appears here when HeLa reflects: after the app has been idle, or with "
            "Edit ▸ Reflect now. Only what your own words support is used.")
        kl.addWidget(self.knowledge_hint)
        kl.addWidget(self.knowledge, 1)
        self.kundo_bar, self.kundo_label, self.kundo_button = undo_bar(self.undo_knowledge_delete)
        kl.addWidget(self.kundo_bar)
        krow = QtWidgets.QHBoxLayout()
        self.kedit_button = QtWidgets.QPushButton("Edit…")
        self.kdelete_button = QtWidgets.QPushButton("Delete")
        self.krestore_button = QtWidgets.QPushButton("Restore")
        self.kedit_button.clicked.connect(self.edit_knowledge)
        self.kdelete_button.clicked.connect(self.delete_knowledge)
        self.krestore_button.clicked.connect(self.restore_knowledge)
        for b in (self.kedit_button, self.kdelete_button, self.krestore_button):
            krow.addWidget(b)
        krow.addStretch(1)
        kl.addLayout(krow)
        self._kitems: list = []
        self.tabs.addTab(kn, "Knowledge")

        # -- Archive: archived and deleted memories (`archive_tab`)
        self.archive_model = EpisodeTableModel(self)
        self.archive_tab = ArchiveTab(self.archive_model)
        self.archive, self.restore_button = self.archive_tab.table, self.archive_tab.restore_button
        self.purge_button = self.archive_tab.purge_button
        self.archive_tab.restoreRequested.connect(self._restore)
        self.archive_tab.purgeRequested.connect(self._purge)
        self.tabs.addTab(self.archive_tab, "Archive")

        # -- Activity: what each consolidation / forgetting run did
        self.activity_tab = QtWidgets.QWidget()
        acl = QtWidgets.QVBoxLayout(self.activity_tab)
        self.activity_hint = _hint(
            "What HeLa did with your memories on its own appears here: each time it reflects "
            "(after the app has been idle, or Edit ▸ Reflect now) it distils facts from groups "
            "of related memories and archives stale ones, and says so in a line.")
        acl.addWidget(self.activity_hint)
        self.activity = QtWidgets.QTableWidget(0, 3)
        self.activity.setHorizontalHeaderLabels(["When", "Job", "What it did"])
        self.activity.horizontalHeader().setSectionResizeMode(
            2, QtWidgets.QHeaderView.ResizeMode.Stretch)
        self.activity.verticalHeader().setVisible(False)
        self.activity.setEditTriggers(QtWidgets.QAbstractItemView.EditTrigger.NoEditTriggers)
        self.activity.setColumnWidth(0, 130)
        self.activity.setColumnWidth(1, 110)
        # each sentence is read whole: rows grow to their wrapped text (also when a column
        # or the pane is resized), and every cell's tooltip holds the full line
        self.activity.setWordWrap(True)
        self.activity.setTextElideMode(QtCore.Qt.TextElideMode.ElideNone)
        self.activity.verticalHeader().setSectionResizeMode(
            QtWidgets.QHeaderView.ResizeMode.ResizeToContents)
        self.activity.horizontalHeader().sectionResized.connect(
            lambda *_: self.activity.resizeRowsToContents())
        self.activity.cellDoubleClicked.connect(self._open_activity)
        self.activity.installEventFilter(self)
        acl.addWidget(self.activity, 1)
        self.tabs.addTab(self.activity_tab, "Activity")
        self.tabs.currentChanged.connect(lambda _i: self.refresh())
        for t in (self.table, self.knowledge, self.archive, self.activity):
            t.setTabKeyNavigation(False)  # Tab leaves the table (it went cell by cell); arrows move
            t.setItemDelegate(BidiDelegate(t))  # Arabic, Hebrew rows read from the right
        find_keys(self.search, self._to_first_row)
        self._update_buttons()
        if store is not None:
            self.set_store(store)

    def _to_first_row(self) -> None:
        """Down in the search box: to the best match, the first row."""
        if self.model.rowCount() and not self.table.currentIndex().isValid():
            self.table.selectRow(0)
        self.table.setFocus()

    # ---- data -----------------------------------------------------------------------

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt's name
        if obj is self.table.viewport() and event.type() == QtCore.QEvent.Type.Resize:
            fit_memory_columns(self.table)
        know = getattr(self, "knowledge", None)  # (events come while the tabs are built)
        if know is not None and obj is know.viewport() \
                and event.type() == QtCore.QEvent.Type.Resize:
            know.setColumnHidden(3, know.viewport().width() < LAST_USED_FROM)
        if (event.type() == QtCore.QEvent.Type.KeyPress
                and event.key() in (QtCore.Qt.Key.Key_Return, QtCore.Qt.Key.Key_Enter)
                and obj in (self.table, self.knowledge, self.activity)):
            # Enter on a row does what a double-click does: edit it, or open what it changed
            if obj is self.table:
                self.edit_selected()
            elif obj is self.knowledge:
                self.edit_knowledge()
            elif self.activity.currentRow() >= 0:
                self._open_activity(self.activity.currentRow(), 0)
            return True
        return super().eventFilter(obj, event)

    def set_store(self, store) -> None:
        """Read `store` directly, on this thread (widget tests; the app uses `fetch`)."""
        self.fetch = None if store is None else (lambda q: self.show_result(q, browse(store, q)))
        self.refresh()

    def refresh(self) -> None:
        """Ask for the current tab's rows (cheap: one indexed query)."""
        if self.fetch is None:
            return
        tab = TABS[self.tabs.currentIndex()]
        if tab != "memories":
            self.fetch(BrowseQuery(tab))
            return
        q = self.search.text().strip()
        ranked, nearest = None, 0
        if q and self.semantic_search is not None and memory_ref(q) is None:
            if self._ranked is not None and self._ranked[0] == q:
                ranked = tuple(int(i) for i, *_ in self._ranked[1])
                nearest = sum(1 for t in self._ranked[1] if len(t) > 2 and t[2] == "nearest")
            elif self._asked != q:
                self._asked = q
                self.semantic_search(q)
        hh = self.table.horizontalHeader()
        matching = self._matching()
        hh.setSortIndicatorShown(not matching)
        self.fetch(BrowseQuery(tab, q, ranked,
                               MATCH_ORDER if matching else COLUMN_ORDERS[hh.sortIndicatorSection()],
                               hh.sortIndicatorOrder() == QtCore.Qt.SortOrder.DescendingOrder,
                               nearest))

    def _matching(self) -> bool:
        """The Memories tab lists a search's matches best first (not by a column)."""
        q = self.search.text().strip()
        return (self._by_match and bool(q) and self.semantic_search is not None
                and memory_ref(q) is None)

    def _search_edited(self, _text: str) -> None:
        self._by_match = True  # a new search: its best match first
        self._search_timer.start()

    def _sort_matches(self, section: int) -> None:
        """A column clicked while the matches were listed best first: by that column now
        (the newest, the most recalled… first; a second click turns it round)."""
        if not self._matching():
            return
        self._by_match = False
        hh = self.table.horizontalHeader()
        first = QtCore.Qt.SortOrder.AscendingOrder if COLUMN_ORDERS[section] in ("user", "assistant") \
            else QtCore.Qt.SortOrder.DescendingOrder
        if (hh.sortIndicatorSection(), hh.sortIndicatorOrder()) == (section, first):
            self.refresh()  # (no change for the header to report)
        else:
            hh.setSortIndicator(section, first)  # which asks for the rows

    def show_result(self, query: BrowseQuery, result: dict) -> None:
        """Rows for `query`; dropped if the browser moved on (another tab or search)."""
        if TABS[self.tabs.currentIndex()] != query.tab:
            return
        if query.tab == "memories":
            if query.search != self.search.text().strip():
                return
            self._show_memories(query, result["episodes"], int(result["total"]),
                                result.get("corrected"))
        elif query.tab == "knowledge":
            self._show_knowledge(result["knowledge"])
        elif query.tab == "activity":
            self._show_activity(result["activity"])
        else:
            self.archive_tab.show_rows(result["episodes"], result.get("reasons"))
        if self._want_memory is not None and self._want_memory[0] == query.tab:
            eid = self._want_memory[1]
            self._want_memory = None
            (self.select_id if query.tab == "memories" else self.archive_tab.select_id)(eid)
        self._update_buttons()

    def show_memory(self, eid: int, *, removed: bool) -> None:
        """Bring memory `eid` into view and select it: in the Archive tab when it is
        archived or deleted (`removed`), else alone in the Memories tab (searched as "#12")."""
        tab = "archive" if removed else "memories"
        self._want_memory = (tab, int(eid))
        if not removed:
            self.search.setText(f"#{int(eid)}")
            self._search_timer.stop()
        if self.tabs.currentIndex() != TABS.index(tab):
            self.tabs.setCurrentIndex(TABS.index(tab))  # which asks for its rows
        else:
            self.refresh()

    def _show_memories(self, query: BrowseQuery, eps: list, total: int,
                       corrected: dict[int, tuple] | None = None) -> None:
        current = self.selected_id()
        if self._next_choice is not None:  # after Delete or Undo (the graph is not told)
            replaced, chosen = self._next_choice
            self._next_choice = None
            if current in (None, replaced):
                current = chosen
        if current is None:  # chosen before a search asked again by meaning (an edit)
            current = self._kept_choice
        self._kept_choice = None
        if (current is not None and query.search and query.ranked is None
                and self.semantic_search is not None and all(e.id != current for e in eps)):
            self._kept_choice = current  # not among the rows by words: chosen again once
            # the rows by meaning come back (not the rows meanwhile: they may lack it)
        how = ""
        if query.search and self.semantic_search is not None and memory_ref(query.search) is None:
            how = " · searching by meaning…" if query.ranked is None else \
                " · best match first" if query.order == MATCH_ORDER else ""
        found = self._ranked[1] if self._ranked and self._ranked[0] == query.search else []
        self.model.set_episodes(eps, corrected=corrected, matched={
            int(t[0]): "near in meaning" if t[2] == "nearest" else "by meaning" if t[2]
            else "in HeLa's answer"
            for t in found if len(t) > 3 and (t[2] or t[3])})
        if query.search:
            # (QA pass 21: "0 of 8 · best match first" over an empty table read as a fault)
            said = f"“{one_line(query.search)}”"
            if query.nearest and query.nearest < len(eps):  # some only near in meaning
                how += f" · {query.nearest} only near in meaning"
            self.count_label.setText(
                f"No memory matches {said} · the nearest in meaning"
                if eps and query.nearest == len(eps)
                else f"{len(eps)} of {total}{how}" if eps or query.ranked is None
                else f"No memory matches {said}")
        elif len(eps) < total:  # the first rows only: say so, and how to reach the others
            self.count_label.setText(f"{len(eps):,} of {total:,} shown · search or sort "
                                     "for the rest")
        else:
            self.count_label.setText(count(total, "memory", "memories"))
        if current is not None:
            self.select_id(current, emit=False)

    def reset(self) -> None:
        """Forget the shown folder: its undo history, rankings and rows."""
        self.history.clear()
        self._next_choice = self._kept_choice = None
        self._undo_changed()
        self.set_search_results("", None)
        self.model.set_episodes([])
        self.archive_tab.show_rows([], None)
        self.knowledge.setRowCount(0)
        self.activity.setRowCount(0)

    def set_search_results(self, text: str, results: list | None) -> None:
        """The engine's ranked matches for `text` (by meaning plus keywords); None forgets
        the last ranking (memories changed)."""
        self._ranked = None if results is None else (text, list(results))
        self._asked = ""
        if results is not None and text == self.search.text().strip() and self.tabs.currentIndex() == 0:
            self.refresh()

    def _show_knowledge(self, rows: list[dict]) -> None:
        current = self.selected_knowledge()
        want = self._want_knowledge if self._want_knowledge is not None else (
            current["id"] if current is not None else None)
        self._want_knowledge = None
        self._kitems = rows
        self.knowledge.setRowCount(len(rows))
        for r, k in enumerate(rows):
            status = k["status"]
            cells = (knowledge_kind_words(k["kind"]), k["text"], status,
                     ", ".join(f"#{s}" for s in k["sources"]) or "—")
            for c, v in enumerate(cells):
                item = QtWidgets.QTableWidgetItem(v)
                if k["state"] == "deleted" or not k["trusted"]:
                    item.setForeground(QtGui.QColor("gray"))
                if c == 2:
                    item.setToolTip(tip(k["why"]))
                elif c == 3 and k["sources"]:
                    item.setToolTip(tip(f"Distilled from memories {v}"))
                self.knowledge.setItem(r, c, item)
            if k["id"] == want:
                self.knowledge.selectRow(r)
        self.knowledge_hint.setVisible(not rows)
        self._update_knowledge_buttons()

    def selected_knowledge(self) -> dict | None:
        rows = self.knowledge.selectionModel().selectedRows() if self.knowledge.selectionModel() else []
        if not rows or rows[0].row() >= len(self._kitems):
            return None
        return self._kitems[rows[0].row()]

    def select_knowledge(self, knowledge_id: int) -> None:
        """Show the Knowledge tab with one item selected (from the graph's diamond)."""
        self._want_knowledge = int(knowledge_id)
        if self.tabs.currentIndex() != 1:
            self.tabs.setCurrentIndex(1)  # its rows are asked for, and selected on arrival
        else:
            self.refresh()

    def _update_knowledge_buttons(self) -> None:
        k = self.selected_knowledge()
        self.kedit_button.setEnabled(k is not None)
        self.kdelete_button.setEnabled(k is not None and k["state"] == "in use")
        self.krestore_button.setEnabled(k is not None and k["state"] == "deleted")

    def edit_knowledge(self, item: dict | None = None) -> None:
        """Edit `item` (``{"id", "text"}``; default: the selected row)."""
        k = item or self.selected_knowledge()
        if k is None:
            return
        text, ok = text_dialog.ask_text(
            self, "Edit knowledge", "What should be remembered (it is used as you write it):",
            k["text"], "Save")
        if ok and text.strip() and text.strip() != k["text"]:
            self.op.emit("knowledge_edit", (k["id"], text.strip()))

    def delete_knowledge(self, item: dict | None = None) -> None:
        k = item or self.selected_knowledge()
        if k is None:
            return
        self.history.push(KNOWLEDGE, [k["id"]])
        self.op.emit("knowledge_delete", k["id"])
        self._undo_changed()

    def undo_knowledge_delete(self) -> None:
        """The Knowledge tab's strip: bring back the knowledge deleted last."""
        self._take_back(self.history.pop(KNOWLEDGE))

    def restore_knowledge(self) -> None:
        k = self.selected_knowledge()
        if k is not None:
            self.history.drop(KNOWLEDGE, [k["id"]])
            self.op.emit("knowledge_restore", k["id"])
            self._undo_changed()

    def _show_activity(self, runs: list[dict]) -> None:
        # runs that changed nothing (an idle pass with nothing to do) are one row a stretch
        rows = activity_rows(runs)
        self.activity_hint.setVisible(not rows)
        self.activity.setRowCount(len(rows))
        for r, a in enumerate(rows):
            text, job = a["text"], JOB_NAMES.get(a["job"], a["job"])
            if a["runs"] > 1:
                said = (f"{job}: {a['runs']} runs that changed nothing, newest first:\n"
                        + "\n".join(a["lines"][:12]) + ("\n…" if len(a["lines"]) > 12 else ""))
            else:
                said = f"{job}, {_fmt(a['at'])}: {text}"
            if a["changed"]:
                said += "\n\nDouble-click to see what changed."
            for c, v in enumerate((_fmt(a["at"]), job, text)):
                item = QtWidgets.QTableWidgetItem(v)
                item.setData(QtCore.Qt.ItemDataRole.UserRole, a["job"])
                item.setToolTip(tip(said))
                self.activity.setItem(r, c, item)
        self.activity.resizeRowsToContents()

    def _open_activity(self, row: int, _col: int) -> None:
        """What a reflection run changed: distilled knowledge, or the archive."""
        item = self.activity.item(row, 0)
        job = item.data(QtCore.Qt.ItemDataRole.UserRole) if item is not None else None
        target = {"consolidate": 1, "forget": 2}.get(str(job))
        if target is not None:
            self.tabs.setCurrentIndex(target)

    def selected_id(self) -> int | None:
        idx = self.table.currentIndex()
        e = self.model.episode_at(idx.row()) if idx.isValid() else None
        return None if e is None else e.id

    def select_id(self, eid: int, emit: bool = True) -> None:
        """Choose memory `eid`'s row; `emit` False: without telling the graph (the row
        change comes from the selection model, which blocking the table's signals left
        to say it)."""
        for row, e in enumerate(self.model.episodes):
            if e.id == eid:
                self._quiet = not emit
                try:
                    self.table.selectRow(row)
                finally:
                    self._quiet = False
                self.table.scrollTo(self.model.index(row, 0))
                break
        self._update_buttons()

    def _on_row(self, cur, _prev) -> None:
        self._update_buttons()
        e = self.model.episode_at(cur.row())
        if e is not None and not self._quiet:
            self.memorySelected.emit(e.id)

    def _update_buttons(self) -> None:
        e = self.model.episode_at(self.table.currentIndex().row())
        for b in (self.edit_button, self.pin_button, self.delete_button):
            b.setEnabled(e is not None)
        self.pin_button.setText("Unpin" if e is not None and e.pinned else "Pin")
        self.archive_tab.update_buttons()

    # ---- actions --------------------------------------------------------------------
    def edit_selected(self) -> None:
        e = self.model.episode_at(self.table.currentIndex().row())
        if e is None:
            return
        dlg = EditMemoryDialog(e, self)
        if dlg.exec() == QtWidgets.QDialog.DialogCode.Accepted:
            user, answer = dlg.values()
            if user or answer:
                self.op.emit("edit", (e.id, user, answer))

    def toggle_pin(self) -> None:
        e = self.model.episode_at(self.table.currentIndex().row())
        if e is not None:
            self.op.emit("pin", (e.id, not e.pinned))

    def delete_selected(self) -> None:
        row = self.table.currentIndex().row()
        e = self.model.episode_at(row)
        if e is None:
            return
        # the row that takes its place is chosen once the rows come back, so that Delete
        # can be pressed again and Edit / Pin / Delete stay usable; the keyboard goes to
        # the list (left on the Delete button, which greys while no row is chosen, it went
        # on to the chat's "+ New", where Enter opened a new chat: QA pass 28b)
        after = self.model.episode_at(row + 1) or self.model.episode_at(row - 1)
        self._next_choice = (e.id, after.id if after is not None else None)
        focus = QtWidgets.QApplication.focusWidget()
        if focus is not None and self.isAncestorOf(focus):
            self.table.setFocus()
        self.history.push(MEMORY, [e.id])
        self.op.emit("delete", e.id)
        self._undo_changed()

    def forgotten(self, ids: list[int], request: str, chat: int | None = None,
                  added: list[int] | None = None) -> None:
        """The chat forgot these memories ("Forget that …"): one step of the undo history
        (`added`: the memories it kept of their other parts, which Undo deletes)."""
        said = [e.user_text for e in self.model.episodes if len(ids) == 1 and e.id == ids[0]]
        if self.history.push(MEMORY, ids, request or "Forget", chat, "".join(said),
                             added or ()) is not None:
            self._undo_changed()

    def undo_delete(self) -> None:
        """Undo (Ctrl+Z, Edit ▸ Undo): take back the latest deletion, whichever it was."""
        self._take_back(self.history.pop())

    def undo_memory_delete(self) -> None:
        """The Memories tab's strip: bring back the memories deleted last."""
        self._take_back(self.history.pop(MEMORY))

    def _take_back(self, step: Step | None) -> None:
        if step is None:
            return
        self.tookBack.emit(step)
        if step.kind == KNOWLEDGE:
            for kid in step.ids:
                self.op.emit("knowledge_restore", kid)
        else:
            self._next_choice = (self.selected_id(), step.ids[0])  # chosen once it is back
            self.op.emit("restore", list(step.ids))  # one op: one status line for all
            for new in step.added:  # (what it kept of their other parts: back in them)
                self.op.emit("delete", new)
        self._undo_changed()

    def undo_text(self) -> str:
        """What Undo would take back, as the Edit menu says it ("" when nothing)."""
        step = self.history.last()
        return "" if step is None else step.undo_text()

    def _undo_changed(self) -> None:
        """The two undo strips (each its own kind's latest step) and Edit ▸ Undo (the
        latest of all) follow the undo history."""
        for kind, bar, label in ((MEMORY, self.undo_bar, self.undo_label),
                                 (KNOWLEDGE, self.kundo_bar, self.kundo_label)):
            step = self.history.last(kind)
            if step is not None:
                label.setText(step.done())
            bar.setVisible(step is not None)
        self.undoChanged.emit(bool(self.history.steps))

    def restore_selected(self) -> None:
        """Restore the memories chosen in the Archive tab."""
        self.archive_tab.restore_selected()

    def _restore(self, ids: list[int]) -> None:
        """Restore these (Archive tab): Undo no longer offers to bring them back."""
        self.history.drop(MEMORY, ids)
        self.op.emit("restore", list(ids))
        self._undo_changed()

    def _purge(self, ids: list[int]) -> None:
        """Delete these for good (confirmed): Undo can no longer bring them back."""
        self.history.drop(MEMORY, ids)
        self.op.emit("purge", list(ids))
        self._undo_changed()

    def ranked_text(self) -> str | None:
        """The search text whose ranking by meaning the browser holds (None: none)."""
        return None if self._ranked is None else self._ranked[0]

    def undo_ids(self) -> list[int]:
        """Memories deleted here that Undo would bring back, most recent last."""
        return self.history.ids(MEMORY)

    def focus_search(self) -> None:
        self.tabs.setCurrentIndex(0)
        self.search.setFocus()
        self.search.selectAll()
