"""Colours and palettes: light and dark, following the system colour scheme."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6 import QtCore, QtGui, QtWidgets

from ..formulas import contrast_ratio

# Distinct, colour-blind-friendly-ish hues for active memories (graph glow, timeline bars,
# token tooltips).  A memory keeps its colour everywhere: ``memory_color(episode_id)``.
# No orange or brown: that hue means a learned link (``GraphColors.learned_edge``,
# ``hot_edge``).
MEMORY_COLORS = [
    "#e6194b", "#3cb44b", "#4363d8", "#808000", "#911eb4", "#42d4f4", "#f032e6",
    "#469990", "#bfef45", "#dcbeff", "#800000", "#ffe119", "#000075",
    "#fabed4", "#aaffc3",
]


def memory_color(episode_id: int) -> QtGui.QColor:
    """The colour that marks this memory in the graph, the timeline and the chat, made
    visible on the scheme's background (see `visible_on`)."""
    app = QtGui.QGuiApplication.instance()
    dark = isinstance(app, QtGui.QGuiApplication) and (
        app.palette().color(QtGui.QPalette.ColorRole.Base).lightness() < 128)
    bg = QtGui.QColor((DARK if dark else LIGHT).background)
    return visible_on(QtGui.QColor(MEMORY_COLORS[(int(episode_id) * 7) % len(MEMORY_COLORS)]), bg)


def visible_on(colour: QtGui.QColor, background: QtGui.QColor, ratio: float = 3.0) -> QtGui.QColor:
    """`colour`, blended towards white (on a dark background) or black (on a light one)
    just enough to stand at `ratio`:1 against `background`: navy and maroon vanished on
    the dark scheme (1.3:1), yellow and mint on the light one (1.2:1)."""
    def rgb(c: QtGui.QColor) -> tuple[float, float, float]:
        return c.redF(), c.greenF(), c.blueF()

    towards = 1.0 if background.lightness() < 128 else 0.0
    out = QtGui.QColor(colour)
    for step in range(1, 11):
        if contrast_ratio(rgb(out), rgb(background)) >= ratio:
            break
        t = step / 10
        out = QtGui.QColor.fromRgbF(*(c + (towards - c) * t for c in rgb(colour)))
    return out


@dataclass
class GraphColors:
    """Colours of the graph and timeline views for one palette."""

    background: str
    edge: tuple[int, int, int]  # a link made when a memory was written (prior): neutral
    learned_edge: tuple[int, int, int]  # a learned (Hebbian) link: warm
    episode: str
    episode_border: str
    knowledge: str
    knowledge_border: str
    pinned: str
    hot_edge: str
    active_edge: str
    selection: str
    search: str
    text: str
    muted_text: str
    grid: str


LIGHT = GraphColors(
    background="#fbfbfd",
    edge=(90, 100, 130),
    learned_edge=(221, 107, 18),
    episode="#8fa8d8",
    episode_border="#4a5f8f",
    knowledge="#f5d63d",  # yellow, not orange: orange means a learned link
    knowledge_border="#857000",
    pinned="#d62f7a",
    hot_edge="#ff7b00",
    active_edge="#e0508a",
    selection="#111111",
    search="#00a07a",
    text="#1d1f24",
    muted_text="#6b7080",
    grid="#e4e6ee",
)

DARK = GraphColors(
    background="#16181d",
    edge=(150, 165, 200),
    learned_edge=(255, 158, 60),
    episode="#5d7bb8",
    episode_border="#a9c0ef",
    knowledge="#e6cf3a",
    knowledge_border="#fff3a8",
    pinned="#ff5fa2",
    hot_edge="#ffa040",
    active_edge="#ff78b0",
    selection="#ffffff",
    search="#3ee0b0",
    text="#e8eaf0",
    muted_text="#9aa0b0",
    grid="#2a2e38",
)


def system_is_dark() -> bool:
    """True when the desktop asks for a dark colour scheme."""
    app = QtGui.QGuiApplication.instance()
    if not isinstance(app, QtGui.QGuiApplication):
        return False
    hints = app.styleHints()
    scheme = getattr(hints, "colorScheme", None)
    if scheme is not None:
        value = scheme()
        if value == QtCore.Qt.ColorScheme.Dark:
            return True
        if value == QtCore.Qt.ColorScheme.Light:
            return False
    if _PLATFORM_DARK:  # (the platform's own palette, before the app set its own)
        return _PLATFORM_DARK[0]
    return app.palette().color(QtGui.QPalette.ColorRole.Window).lightness() < 128


# whether the platform's palette was dark, read before `apply_theme` first replaced it: where
# the desktop names no colour scheme, the app's palette is its own choice since (QA pass
# 35: Dark, then Follow the system, stayed dark on a light desktop)
_PLATFORM_DARK: list[bool] = []


def graph_colors(dark: bool | None = None) -> GraphColors:
    """The graph colours for the current (or the given) scheme."""
    if dark is None:
        dark = system_is_dark()
    return DARK if dark else LIGHT


def make_palette(dark: bool) -> QtGui.QPalette:
    """A calm Fusion palette; accent colour shared by both schemes."""
    P = QtGui.QPalette
    p = QtGui.QPalette()
    accent = QtGui.QColor("#4f6bd8")
    if dark:
        base, window, text = QtGui.QColor("#1b1d23"), QtGui.QColor("#23262e"), QtGui.QColor("#e8eaf0")
        alt, button, mid = QtGui.QColor("#20232a"), QtGui.QColor("#2c3039"), QtGui.QColor("#3a3f4b")
        disabled = QtGui.QColor("#6d7280")
        tooltip_base, link = QtGui.QColor("#2c3039"), QtGui.QColor("#8fa8ff")
        muted = QtGui.QColor("#9aa0b0")
    else:
        base, window, text = QtGui.QColor("#ffffff"), QtGui.QColor("#f3f4f8"), QtGui.QColor("#1d1f24")
        alt, button, mid = QtGui.QColor("#f7f8fb"), QtGui.QColor("#eceef4"), QtGui.QColor("#c9ccd6")
        disabled = QtGui.QColor("#9a9ea9")
        tooltip_base, link = QtGui.QColor("#ffffee"), QtGui.QColor("#3450c0")
        muted = QtGui.QColor("#646978")
    p.setColor(P.ColorRole.Window, window)
    p.setColor(P.ColorRole.WindowText, text)
    p.setColor(P.ColorRole.Base, base)
    p.setColor(P.ColorRole.AlternateBase, alt)
    p.setColor(P.ColorRole.Text, text)
    p.setColor(P.ColorRole.Button, button)
    p.setColor(P.ColorRole.ButtonText, text)
    p.setColor(P.ColorRole.Mid, mid)
    p.setColor(P.ColorRole.Highlight, accent)
    p.setColor(P.ColorRole.HighlightedText, QtGui.QColor("#ffffff"))
    p.setColor(P.ColorRole.ToolTipBase, tooltip_base)
    p.setColor(P.ColorRole.ToolTipText, text)
    p.setColor(P.ColorRole.Link, link)
    # hints and the small print (placeholders, the lines under an answer, times): grey,
    # yet readable, at least 4.5:1 on every background they sit on (the grey of disabled
    # text was 2.7:1 on white)
    p.setColor(P.ColorRole.PlaceholderText, muted)
    for role in (P.ColorRole.Text, P.ColorRole.WindowText, P.ColorRole.ButtonText):
        p.setColor(P.ColorGroup.Disabled, role, disabled)
    return p


def sort_arrow_as_shown(option: QtWidgets.QStyleOptionHeader) -> QtWidgets.QStyleOptionHeader:
    """A column's sort arrow pointing the way its values run down the list: ▼ for
    newest (most, Z–A) first, ▲ for oldest (fewest, A–Z) first.  Qt hands Fusion "SortUp"
    for a descending order, and it drew ▲ over a list running newest first (QA pass 41e)."""
    H = QtWidgets.QStyleOptionHeader.SortIndicator
    flipped = {H.SortUp: H.SortDown, H.SortDown: H.SortUp}.get(option.sortIndicator)
    if flipped is None:
        return option
    out = QtWidgets.QStyleOptionHeader(option)
    out.sortIndicator = flipped
    return out


class EdgedIndicators(QtWidgets.QProxyStyle):
    """Fusion, with the box of a check box and the ring of a radio button edged in the
    palette's grey for hints: Fusion edges them in the window colour darkened, which on
    the dark scheme's base (#1b1d23) is all but black on black — "This computer" and "A
    model server" in Settings could not be told apart (QA pass 19) — and 2:1 on the light
    one, under the 3:1 a control's parts need."""

    def drawPrimitive(self, element, option, painter, widget=None):  # Qt's override
        PE = QtWidgets.QStyle.PrimitiveElement
        if element == PE.PE_FrameFocusRect:
            self._focus_rect(option, painter)
            return
        if element == PE.PE_IndicatorHeaderArrow and isinstance(option, QtWidgets.QStyleOptionHeader):
            option = sort_arrow_as_shown(option)
        super().drawPrimitive(element, option, painter, widget)
        if element not in (PE.PE_IndicatorRadioButton, PE.PE_IndicatorCheckBox):
            return
        pal = option.palette
        enabled = bool(option.state & QtWidgets.QStyle.StateFlag.State_Enabled)
        edge = pal.color(QtGui.QPalette.ColorRole.PlaceholderText) if enabled else \
            pal.color(QtGui.QPalette.ColorGroup.Disabled, QtGui.QPalette.ColorRole.Text)
        painter.save()
        painter.setRenderHint(QtGui.QPainter.RenderHint.Antialiasing)
        painter.setPen(QtGui.QPen(edge, 1.0))
        painter.setBrush(QtCore.Qt.BrushStyle.NoBrush)
        r = QtCore.QRectF(option.rect).adjusted(0.5, 0.5, -1.5, -1.5)
        if element == PE.PE_IndicatorRadioButton:
            painter.drawEllipse(r)
        else:
            painter.drawRoundedRect(r, 1.5, 1.5)
        painter.restore()

    def drawControl(self, element, option, painter, widget=None):  # Qt's override
        """A tab with the keyboard on it is marked (`_focus_rect`): Fusion marks none, so
        Tab reaching the graph / Memories tabs seemed to land nowhere."""
        super().drawControl(element, option, painter, widget)
        S = QtWidgets.QStyle.StateFlag
        if (element == QtWidgets.QStyle.ControlElement.CE_TabBarTabLabel
                and option.state & S.State_HasFocus and option.state & S.State_KeyboardFocusChange):
            mark = QtWidgets.QStyleOptionFocusRect()
            mark.palette, mark.rect = option.palette, option.rect.adjusted(3, 3, -3, -3)
            self._focus_rect(mark, painter)

    @staticmethod
    def _focus_rect(option, painter) -> None:
        """The keyboard's mark (a tab, a check box's label, a list's row): a solid line in
        the accent, at least 3:1 on both schemes' windows.  Fusion's, the accent darkened
        and half transparent, was all but lost on the dark scheme (QA pass 21)."""
        painter.save()
        painter.setRenderHint(QtGui.QPainter.RenderHint.Antialiasing)
        painter.setPen(QtGui.QPen(option.palette.color(QtGui.QPalette.ColorRole.Highlight), 1.5))
        painter.setBrush(QtCore.Qt.BrushStyle.NoBrush)
        painter.drawRoundedRect(QtCore.QRectF(option.rect).adjusted(0.75, 0.75, -0.75, -0.75),
                                2.0, 2.0)
        painter.restore()


def apply_theme(app: QtWidgets.QApplication, dark: bool | None = None) -> bool:
    """Fusion style (`EdgedIndicators`) with a light or dark palette (the system's when
    `dark` is None)."""
    if not _PLATFORM_DARK:
        _PLATFORM_DARK.append(app.palette().color(QtGui.QPalette.ColorRole.Window).lightness() < 128)
    if dark is None:
        dark = system_is_dark()
    set_style(app)
    app.setPalette(make_palette(dark))
    return dark


def set_style(app: QtWidgets.QApplication) -> None:
    """The app's style, set once, before any window opens (`run_app`): a new QStyle for
    every change of scheme deleted the old one under widgets with style sheets (a rare
    crash inside setStyle when a window opened), and so did a first setStyle while
    windows with style sheets were open (a test suite's windows: a segmentation fault
    inside setStyle at a test's Dark switch)."""
    if not isinstance(app.style(), EdgedIndicators):
        app.setStyle(EdgedIndicators("Fusion"))


def checked_button_style(palette: QtGui.QPalette) -> str:
    """A style sheet for a checkable tool button (the graph's Details) whose checked state
    can be seen in both schemes: Fusion draws it barely darker, and in the dark palette not
    at all.  Checked, it is filled with the accent over the button colour and edged in the
    accent; unchecked, it keeps the style's own look.  With the keyboard on it (checked or
    not), its edge is the scheme's text colour, 2 pixels wide: Fusion's focus mark did not
    show on the checked fill, so Tab seemed to land nowhere."""
    role = QtGui.QPalette.ColorRole
    button, accent = palette.color(role.Button), palette.color(role.Highlight)
    t = 0.45 if button.lightness() < 128 else 0.3
    fill = QtGui.QColor.fromRgbF(*(b * (1 - t) + a * t for b, a in zip(
        (button.redF(), button.greenF(), button.blueF()),
        (accent.redF(), accent.greenF(), accent.blueF()), strict=True)))
    text = palette.color(role.ButtonText)
    return (f"QToolButton:checked {{ background-color: {fill.name()}; "
            f"border: 1px solid {accent.name()}; border-radius: 3px; }}"
            f"QToolButton:focus {{ border: 2px solid {text.name()}; border-radius: 3px; }}")


def focus_frame_style(palette: QtGui.QPalette, *classes: str) -> str:
    """A style sheet that edges these text areas in the accent while they have the
    keyboard (Fusion shows no focus on a text area: a keyboard user could not see that
    Tab had reached the chat or the message box), and in the style's grey otherwise."""
    role = QtGui.QPalette.ColorRole
    mid, accent = palette.color(role.Mid).name(), palette.color(role.Highlight).name()
    return "".join(f"{c} {{ border: 1px solid {mid}; }} {c}:focus {{ border: 1px solid {accent}; }}"
                   for c in classes)


def button_focus_style(palette: QtGui.QPalette) -> str:
    """A style sheet that edges a push button in the scheme's text colour while it has the
    keyboard: the chat's Send, drawn as the default button, wears the accent rim always, so
    Tab reaching it looked like nothing (QA pass 20)."""
    text = palette.color(QtGui.QPalette.ColorRole.ButtonText).name()
    button = palette.color(QtGui.QPalette.ColorRole.Button).name()
    return (f"QPushButton:focus {{ border: 2px solid {text}; border-radius: 3px; "
            f"background-color: {button}; padding: 3px 8px; }}")


def warning_color(palette: QtGui.QPalette | None = None) -> QtGui.QColor:
    """The red of a warning or refusal, readable on the scheme's backgrounds (the light
    scheme's red was 2.8:1 on the dark window)."""
    pal = palette or QtWidgets.QApplication.palette()
    dark = pal.color(QtGui.QPalette.ColorRole.Base).lightness() < 128
    return QtGui.QColor("#ff6b5b" if dark else "#c0392b")


def muted(*widgets: QtWidgets.QWidget) -> None:
    """Draw these hints in the palette's readable grey (PlaceholderText, at least 4.5:1),
    following the scheme ("gray" was 3.6:1 on the light window)."""
    for w in widgets:
        w.setForegroundRole(QtGui.QPalette.ColorRole.PlaceholderText)


def hint_with_count(lay: QtWidgets.QBoxLayout, text: str) -> QtWidgets.QLabel:
    """A wrapped hint over a list, and under it the list's count line (returned, empty),
    both in the readable grey, added to `lay`."""
    hint = QtWidgets.QLabel(text)
    hint.setWordWrap(True)
    count_label = QtWidgets.QLabel("")
    muted(hint, count_label)
    lay.addWidget(hint)
    lay.addWidget(count_label)
    return count_label


def show_html(view: QtWidgets.QTextEdit, text: str) -> None:
    """Show `text` (rich text) in `view`, its ``class='muted'`` small print in the palette's
    readable grey (HTML's "gray" was 3.95:1 on white and 4.3:1 on the dark scheme)."""
    grey = view.palette().color(QtGui.QPalette.ColorRole.PlaceholderText).name()
    view.document().setDefaultStyleSheet(f".muted {{ color: {grey}; }}")
    view.setHtml(text)
