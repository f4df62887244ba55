"""The main window's columns (chat list, chat, graph side) as the window changes size: the
chat stays readable in a small window, and the split the user chose comes back when it
grows (`ChatKeepsItsWidth`)."""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

CHAT_READABLE = 380  # the chat column's least width while the window can give it that
LIST_WIDTH = 190  # the chat list's width when it comes back


def readable_sizes(sizes: list[int], right_min: int, folded: set[int],
                   keep: int | None = None) -> tuple[list[int], set[int]]:
    """The main splitter's sizes [chat list, chat, graph] with the chat at least
    `CHAT_READABLE` wide where the window allows: the graph side gives way first, down to
    its least (`right_min`), then the chat list folds, then the graph side; `keep`, the
    side pane last asked for (0: the list, 2: the graph side), folds last and never for
    the chat's sake (it was asked for: the chat has the rest).  A pane folded here
    (`folded`) comes back, the graph side first, once the chat keeps its width without it;
    a graph side open but narrower than its least (its least just grew, the splitter has
    yet to widen it) is taken at its least.  Returns (sizes, panes folded now)."""
    lst, chat, right = sizes
    folded = set(folded)
    if 0 < right < right_min:
        chat, right = chat - (right_min - right), right_min
    if chat < CHAT_READABLE:
        give = min(CHAT_READABLE - chat, max(right - right_min, 0))
        right, chat = right - give, chat + give
        for pane in (2,) if keep == 0 else (0,) if keep == 2 else (0, 2):
            if chat < CHAT_READABLE and pane == 0 and lst:
                chat, lst = chat + lst, 0
                folded.add(0)
            elif chat < CHAT_READABLE and pane == 2 and right:
                chat, right = chat + right, 0
                folded.add(2)
        return _list_back([lst, chat, right], folded)
    if 2 in folded and chat - right_min >= CHAT_READABLE:
        right, chat = chat - CHAT_READABLE, CHAT_READABLE
        folded.discard(2)
    if 0 in folded and 2 not in folded and chat + right - right_min - LIST_WIDTH >= CHAT_READABLE:
        take = LIST_WIDTH - min(LIST_WIDTH, chat - CHAT_READABLE)
        lst, chat, right = LIST_WIDTH, chat - (LIST_WIDTH - take), right - take
        folded.discard(0)
    return _list_back([lst, chat, right], folded)


def _list_back(sizes: list[int], folded: set[int]) -> tuple[list[int], set[int]]:
    """With the graph side folded, the chat list folded before it comes back when the chat
    keeps its width beside it (QA pass 24: at 800 × 600 both were folded, the chat 800 px
    wide, where the list and a readable chat fit)."""
    lst, chat, right = sizes
    if {0, 2} <= folded and lst == 0 and right == 0 and chat - LIST_WIDTH >= CHAT_READABLE:
        lst, chat = LIST_WIDTH, chat - LIST_WIDTH
        folded = folded - {0}
    return [lst, chat, right], folded


def spread(wanted: list[int], total: int) -> list[int]:
    """The split `wanted` [chat list, chat, graph] at another width `total`: the chat list
    keeps its width (as far as there is room), the chat and the graph side share the rest
    in the proportion wanted (the chat all of it when both were shut)."""
    lst = min(max(wanted[0], 0), total)
    rest, chat, right = total - lst, max(wanted[1], 0), max(wanted[2], 0)
    if chat + right == 0:
        return [lst, rest, 0]
    chat = round(rest * chat / (chat + right))
    return [lst, chat, rest - chat]


class ChatKeepsItsWidth(QtCore.QObject):
    """Keeps the chat column readable in a small window (`readable_sizes`), each time the
    main splitter is resized or the graph side's least width changes (its counts label
    filled in took 36 px more and squeezed the chat to 346 px).  The split the user chose
    (`wanted`: as the window opened, as a handle was last dragged, with a pane asked for
    open) is what each width starts from, so a window made small and then large again
    looks as it did (QA pass 20: the chat column came back 330 px wide instead of 465); a
    drag of its handles is the user's and is left alone."""

    # (chat list shut, graph side shut), each time either changes: the chat's heading
    # offers them back (`ChatPane.show_shut`; QA pass 31: at 800 × 600 the graph side
    # was gone with no sign where)
    shutChanged = QtCore.Signal(bool, bool)

    def __init__(self, split: QtWidgets.QSplitter):
        super().__init__(split)
        self.split = split
        self._shut: tuple[bool, bool] | None = None
        self.folded: set[int] = set()
        self.wanted: list[int] | None = None  # taken when first laid out
        self.keep: int | None = None  # the side pane asked for last (`readable_sizes`)
        self._busy = False
        self._right_min = self._least_right()
        split.installEventFilter(self)
        split.splitterMoved.connect(self._dragged)
        split.splitterMoved.connect(self.tell_shut)

    def tell_shut(self, *_args) -> None:
        """`shutChanged`, when the chat list or the graph side opened or shut."""
        sizes = self.split.sizes()
        shut = (sizes[0] == 0, sizes[2] == 0) if len(sizes) == 3 else (False, False)
        if shut != self._shut:
            self._shut = shut
            self.shutChanged.emit(*shut)

    def _dragged(self, *_args) -> None:
        if not self._busy:  # the user's own split, from now on
            self.folded.clear()
            self.wanted, self.keep = self.split.sizes(), None

    def reveal(self) -> None:
        """The graph side, folded here, is asked for (Ctrl+1): it opens, at least at its
        least, the chat giving way down to its readable width and then the chat list
        folding (QA pass 21: it left the chat about 300 px wide, the list open)."""
        right = self.split.widget(2)
        if 2 not in self.folded or right is None:
            return
        self._ask(2, right.minimumSizeHint().width())

    def reveal_list(self) -> None:
        """The chat list, folded for a small window (or dragged shut), is asked for (View ▸
        Chat list): it opens at its usual width, the chat giving way down to its readable
        width and then the graph side (QA pass 21: at 800 px it left the chat 140 px wide;
        a folded list could once be brought back only by dragging a handle nobody saw)."""
        if self.split.sizes()[0] > 0:
            return
        self._ask(0, LIST_WIDTH)

    def _ask(self, pane: int, width: int) -> None:
        wanted = list(self.wanted or self.split.sizes())
        wanted[pane] = max(wanted[pane], width)
        self.wanted, self.keep = wanted, pane
        self.folded.discard(pane)
        self.apply()

    def _set_sizes(self, sizes: list[int]) -> None:
        """The splitter's sizes, set here (not a drag of the user's)."""
        self._busy = True
        try:
            self.split.setSizes(sizes)
        finally:
            self._busy = False

    def _least_right(self) -> int:
        right = self.split.widget(2)
        return right.minimumSizeHint().width() if right is not None else 0

    def eventFilter(self, obj, ev) -> bool:  # noqa: N802 (Qt's name)
        kind = ev.type()
        if kind == QtCore.QEvent.Type.Resize or (
                kind == QtCore.QEvent.Type.LayoutRequest and self._least_right() != self._right_min):
            # once the splitter has shared it out (not after it is gone: the window closed)
            QtCore.QTimer.singleShot(0, self, self.apply)
        return False

    def apply(self) -> None:
        s = self.split
        right = s.widget(2)
        if s.count() != 3 or right is None or not s.isVisible():
            return
        right_min = self._right_min = self._least_right()
        now = s.sizes()
        if self.wanted is None or len(self.wanted) != 3:
            self.wanted = now
        sizes, folded = readable_sizes(spread(self.wanted, sum(now)), right_min, set(), self.keep)
        s.setCollapsible(2, bool(2 in folded))  # (the graph side folds only here)
        if sizes != s.sizes():
            self._set_sizes(sizes)
        self.folded = folded
        self.tell_shut()
