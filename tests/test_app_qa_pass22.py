"""Twenty-second pass, as a new user: what the window showed that it should not have."""

from __future__ import annotations

import qt_env  # noqa: F401  (before PySide6: offscreen, a throwaway QSettings folder)
from PySide6 import QtCore, QtGui, QtWidgets  # noqa: E402


def _accent_pixels(img: QtGui.QImage, accent: QtGui.QColor) -> int:
    """Pixels of `img` within a few levels of `accent` (the keyboard's mark)."""
    return sum(1 for x in range(img.width()) for y in range(img.height())
               for c in (img.pixelColor(x, y),)
               if abs(c.red() - accent.red()) + abs(c.green() - accent.green())
               + abs(c.blue() - accent.blue()) < 40)


def _painted(pal: QtGui.QPalette, element, option) -> QtGui.QImage:
    """`element` drawn by the app's style on the window colour, 120 × 30."""
    img = QtGui.QImage(120, 30, QtGui.QImage.Format.Format_RGB32)
    img.fill(pal.color(QtGui.QPalette.ColorRole.Window))
    p = QtGui.QPainter(img)
    style = QtWidgets.QApplication.style()
    if isinstance(element, QtWidgets.QStyle.PrimitiveElement):
        style.drawPrimitive(element, option, p)
    else:
        style.drawControl(element, option, p)
    p.end()
    return img


def test_the_keyboard_mark_on_a_tab_and_a_check_box_is_drawn_in_the_accent(qtbot):
    """QA pass 21: with the dark scheme, Tab on the graph / Memories tabs and on "Focus on
    active" left a mark that could hardly be seen (a tab got none at all from Fusion).
    The style draws the mark in the accent (3.2:1 on the dark window, 4.3:1 on the light)
    for a check box's label and for a tab that has the keyboard; not for a tab without it."""
    from hela_desktop.ui.theme import apply_theme

    app = QtWidgets.QApplication.instance()
    palette = app.palette()
    S, CE = QtWidgets.QStyle.StateFlag, QtWidgets.QStyle.ControlElement
    try:
        for dark in (True, False):
            apply_theme(app, dark)
            pal = app.palette()
            accent = pal.color(QtGui.QPalette.ColorRole.Highlight)

            mark = QtWidgets.QStyleOptionFocusRect()
            mark.palette, mark.rect = pal, QtCore.QRect(2, 2, 110, 24)
            img = _painted(pal, QtWidgets.QStyle.PrimitiveElement.PE_FrameFocusRect, mark)
            assert _accent_pixels(img, accent) > 150, dark  # the whole outline, ~2·(110+24)

            tab = QtWidgets.QStyleOptionTab()
            tab.palette, tab.rect, tab.text = pal, QtCore.QRect(0, 0, 120, 30), "Memories"
            tab.state = S.State_Enabled | S.State_Selected
            assert _accent_pixels(_painted(pal, CE.CE_TabBarTabLabel, tab), accent) == 0, dark
            tab.state |= S.State_HasFocus | S.State_KeyboardFocusChange
            assert _accent_pixels(_painted(pal, CE.CE_TabBarTabLabel, tab), accent) > 150, dark
    finally:
        app.setPalette(palette)
