"""The settings dialog's fields: number boxes that say their range and refuse what is out
of it, and help text that takes only the height it needs (`settings_dialog`)."""

from __future__ import annotations

from typing import Any

from PySide6 import QtCore, QtGui, QtWidgets


class _SaysItsRange:
    """A spin box that says its range when a key is refused: typing "99" where at most 15
    is allowed left "9" without a word (Qt refuses the key), so the range is shown beside
    the box ("From 1 to 15"); its tooltip ends with the range too."""

    def range_words(self) -> str:
        box: Any = self  # a QSpinBox or a QDoubleSpinBox (the class it is mixed into)
        point = box.locale().decimalPoint()

        def said(value: float) -> str:  # "1440", not "1440.0" (QA pass 35)
            whole, _, decimals = box.textFromValue(value).partition(point)
            return whole + (point + decimals.rstrip("0") if decimals.rstrip("0") else "")

        lo, special = said(box.minimum()), box.specialValueText()
        lo += f" ({special})" if special else ""
        return f"From {lo} to {said(box.maximum())}{box.suffix()}"

    def validate(self, text: str, pos: int) -> Any:  # Qt's override: refused keys end here
        r = super().validate(text, pos)  # type: ignore[misc]
        if (r[0] if isinstance(r, tuple) else r) == QtGui.QValidator.State.Invalid:
            self._say(self.range_words())
        return r

    def _say(self, text: str) -> None:
        box: Any = self
        # shown under the box, over the next field: so it names its own (QA pass 32: the
        # context size's range read as that of "Generation threads", the row below)
        name = self.field_name()
        QtWidgets.QToolTip.showText(box.mapToGlobal(QtCore.QPoint(0, box.height())),
                                    f"{name}: {text}" if name else text, box, QtCore.QRect(),
                                    5000)

    def field_name(self) -> str:
        """The label of the form row this box is in ("Context size"), or ""."""
        box: Any = self
        parent = box.parentWidget()
        form = parent.layout() if parent is not None else None
        label = form.labelForField(box) if isinstance(form, QtWidgets.QFormLayout) else None
        return label.text().rstrip(": ").strip() if isinstance(label, QtWidgets.QLabel) else ""

    def _unfinished(self) -> str:
        """What to say of an entry Qt will not keep ("100" where at least 512 is needed:
        it could still grow into one), else "": left, the box put the old value back
        without a word."""
        box: Any = self
        typed = box.cleanText().strip()
        r = super().validate(box.text(), 0)  # type: ignore[misc]
        if typed and (r[0] if isinstance(r, tuple) else r) == QtGui.QValidator.State.Intermediate:
            return f"{typed}{box.suffix()} is out of range. {self.range_words()}"
        return ""

    def focusOutEvent(self, event: QtGui.QFocusEvent) -> None:  # Qt's override
        why = QtCore.Qt.FocusReason
        # (another window or a menu taking the keyboard leaves the entry as it is)
        away = event.reason() in (why.ActiveWindowFocusReason, why.PopupFocusReason)
        said = "" if away else self._unfinished()
        if said:  # said once the focus has moved: the box taking it would hide the tip
            QtCore.QTimer.singleShot(0, self, lambda: self._say(  # type: ignore[call-overload]
                said.replace(" is out of range.", " is out of range, so it was not kept.")))
        super().focusOutEvent(event)  # type: ignore[misc]

    def keyPressEvent(self, event: QtGui.QKeyEvent) -> None:  # Qt's override
        said = self._unfinished()
        if said and event.key() in (QtCore.Qt.Key.Key_Return, QtCore.Qt.Key.Key_Enter):
            self._say(said)  # and the entry stays to be put right (Enter would press OK,
            event.accept()   # saving the old value)
            return
        super().keyPressEvent(event)  # type: ignore[misc]


class SpinBox(_SaysItsRange, QtWidgets.QSpinBox):
    pass


class DoubleSpinBox(_SaysItsRange, QtWidgets.QDoubleSpinBox):
    pass


def with_range(tip: str, range_words: str) -> str:
    """A number's tooltip with its range on a line of its own, before the settings.json key
    that ends it ("… this often\nFrom 1 to 20 tokens (reretrieve_every)")."""
    head, key = tip, ""
    if tip.endswith(")") and " (" in tip:
        head, key = tip.rsplit(" (", 1)
        key = f" ({key}"
    return f"{head}\n{range_words}{key}" if head else f"{range_words}{key}"


def spin(lo, hi, value, *, step=None, suffix="", special="", tip="", decimals=None, prefix=""):
    """A spin box: a double one when the range is given in floats; it says its range when
    a typed key is refused (`_SaysItsRange`) and in its tooltip."""
    box: SpinBox | DoubleSpinBox = DoubleSpinBox() if isinstance(lo, float) else SpinBox()
    if decimals is not None and isinstance(box, QtWidgets.QDoubleSpinBox):
        box.setDecimals(decimals)
    box.setRange(lo, hi)
    if step is not None:
        box.setSingleStep(step)
    box.setSuffix(suffix)
    box.setPrefix(prefix)
    box.setSpecialValueText(special)
    box.setToolTip(with_range(tip, box.range_words()))
    box.tip = tip  # type: ignore[union-attr]  # (`set_maximum` says the new range in it)
    box.setValue(value)
    return box


def set_maximum(box: SpinBox, hi: int) -> None:
    """A new top of `spin`'s range (one that follows another field), said in its tooltip
    too (QA pass 35: "From 32 to 16000 tokens" for a box that kept at most 2048)."""
    box.setMaximum(hi)
    box.setToolTip(with_range(getattr(box, "tip", ""), box.range_words()))


class WrapLabel(QtWidgets.QLabel):
    """A word-wrapped help text whose preferred height is that of its text at its width.

    QLabel prefers the height of its text wrapped at a narrow width of its own choosing
    (four lines for two), and a form gives it that much: a blank line above and below the
    text. Once laid out, this one asks for what its real width needs."""

    def __init__(self, text: str = "", parent: QtWidgets.QWidget | None = None):
        super().__init__(text, parent)
        self.setWordWrap(True)

    def sizeHint(self) -> QtCore.QSize:  # noqa: N802 - Qt's name
        hint = super().sizeHint()
        width = max(self.width(), hint.width())
        return QtCore.QSize(hint.width(), max(self.heightForWidth(width), self.minimumHeight()))

    def resizeEvent(self, e: QtGui.QResizeEvent) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(e)
        if e.size().width() != e.oldSize().width():
            self.updateGeometry()  # the preferred height follows the width
