"""Session 18 (the window's leftovers and a demanding user's pass under Xvfb): what it got
wrong.  Real widgets on Qt's offscreen platform."""

from __future__ import annotations

import qt_env  # noqa: F401  (before PySide6: offscreen, a throwaway QSettings folder)


def test_a_narrow_stats_line_shows_a_shorter_form_before_it_cuts(qtbot):
    """At 900×600 the graph's line "14 memories · 23 links (4 learned)" was cut to "14 …"
    (/work/exp/s17/qa/s31_small_graph.png).  It now shows the longest shorter form that
    fits ("14 memories · 23 links", "14 memories", "14"), the whole line on hover."""
    from hela_desktop.ui.plain import ElidedLabel

    label = ElidedLabel()
    qtbot.addWidget(label)
    forms = ("14 memories · 23 links (4 learned)", "14 memories · 23 links", "14 memories",
             "14")
    label.setText(*forms)
    fm = label.fontMetrics()
    widths = [fm.horizontalAdvance(f) for f in forms]
    assert label.shown_text(widths[0] + 2) == forms[0]
    assert label.shown_text(widths[0] - 1) == forms[1]
    assert label.shown_text(widths[2]) == forms[2]
    assert label.shown_text(widths[3] + 1) == forms[3]
    assert label.shown_text(1) == forms[3]  # (then cut with "…")
    assert forms[0] in label.toolTip()
    assert label.minimumSizeHint().width() >= widths[3]
    label.setText("plain")  # one form: as before
    assert label.shown_text(1) == "plain" and label.shorter == ()
