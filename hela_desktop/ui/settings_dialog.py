"""Settings dialog: model, generation, live retrieval, data folder (saved as settings.json)."""

from __future__ import annotations

import copy
import os
from collections.abc import Callable
from pathlib import Path

from PySide6 import QtCore, QtGui, QtWidgets

from ..config import Settings
from ..memory import PROFILES
from ..paths import BUNDLED_NAME, bundled_model_path, models_dirs, scan_models
from . import plain
from .settings_fields import WrapLabel, set_maximum, spin
from .theme import muted, warning_color
from .window_look import frame_margins

PROFILE_NAMES = {  # what a user reads; the data is the profile id (settings.json)
    "hela": "Meaning, words and links (recommended)",
    "hela-nospread": "Meaning and words, without links",
    "hela-paper": "HeLa-Mem as published (for research)",
    "streaming": "Streaming-memory scoring (for research)",
    "dense": "Meaning only (simplest)",
}
PROFILE_HELP = {
    "hela": "Finds memories close in meaning to what is being said or sharing its words, "
            "favours recent ones, and brings in memories linked to them — links grow "
            "between memories an answer uses together.",
    "hela-nospread": "Like the recommended way, but never brings in linked memories.",
    "hela-paper": "The HeLa-Mem paper's formula exactly as published: strongly prefers the "
                  "newest memories (for comparing methods).",
    "streaming": "The streaming-memory project's scoring: meaning, boosted by how recently "
                 "and how often a memory was used (for comparing methods).",
    "dense": "Only closeness in meaning — no words, time or links.",
}


class Background(QtCore.QObject):
    """Work the dialog must not wait for (a server asked, model files read), each job on a
    thread of its own; what it returns (or the exception it raised) comes back through
    `done` on the window's thread. Made a child of the dialog: closed and deleted
    meanwhile, the answer is dropped (Qt cuts the connection; a deleted sender raises
    RuntimeError, caught)."""

    done = QtCore.Signal(object)

    def run(self, job: Callable[[], object], name: str = "hela-settings") -> None:
        import threading

        def work() -> None:
            try:
                result = job()
            except Exception as exc:  # noqa: BLE001 - said in the dialog, never raised there
                result = exc
            try:
                self.done.emit(result)
            except RuntimeError:  # the dialog (and this object) went meanwhile
                pass

        self.job_thread = threading.Thread(target=work, name=name, daemon=True)
        self.job_thread.start()


TEST_TIMEOUT_S = 15.0  # Settings' Test button: a silent server is given up after this


def _test_server(url: str, model: str, key: str) -> tuple[bool, str]:
    """Test's answer: (ok, the line to show)."""
    from ..server_llm import check_server

    try:
        return check_server(url, model, key, timeout=TEST_TIMEOUT_S)
    except Exception as exc:  # noqa: BLE001 - said in the dialog, never raised there
        return False, f"{type(exc).__name__}: {exc}"


LOOKING = "Looking for models in other apps…"


MODEL_MISSING = "file not found"
NOT_A_MODEL = "not a GGUF model file (another kind of file, or damaged at its start)"


def _model_label(m) -> str:
    """A found model's line in the list: its name, its app, and a mark when unusable."""
    return f"{m.name} ({m.app})" + (f" — {m.flag}" if m.flag else "")


class SettingsDialog(QtWidgets.QDialog):
    """Edit a copy of `Settings`; `result_settings()` and `data_dir()` after accept."""

    def __init__(self, settings: Settings, data_dir: Path, parent=None):
        super().__init__(parent)
        self.setWindowTitle("Settings")
        self.setMinimumWidth(620)
        self._settings = copy.deepcopy(settings)
        self._data_dir = Path(data_dir)
        # the form scrolls; OK / Cancel stay below it, always visible (_fit_to_screen)
        outer = QtWidgets.QVBoxLayout(self)
        self.form_scroll = QtWidgets.QScrollArea()
        self.form_scroll.setWidgetResizable(True)
        self.form_scroll.setFrameShape(QtWidgets.QFrame.Shape.NoFrame)
        self.form_scroll.setHorizontalScrollBarPolicy(QtCore.Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.form_scroll.setFocusPolicy(QtCore.Qt.FocusPolicy.NoFocus)  # the first field has it
        self._form = body = QtWidgets.QWidget()
        lay = QtWidgets.QVBoxLayout(body)
        lay.setContentsMargins(0, 0, 0, 0)

        # -- answers
        box = QtWidgets.QGroupBox("Answers")
        self._answers_form = form = QtWidgets.QFormLayout(box)
        # where answers come from: this computer (llama.cpp) or an OpenAI-compatible server
        self.local_backend = QtWidgets.QRadioButton("This computer (llama.cpp)")
        self.server_backend = QtWidgets.QRadioButton("A server (OpenAI-compatible)")
        self.server_backend.setToolTip("llama-server, vLLM, SGLang, Ollama, LM Studio… The "
                                       "prompt, memories included, is sent to that server.")
        (self.server_backend if settings.backend == "server" else self.local_backend).setChecked(True)
        row = QtWidgets.QHBoxLayout()
        row.addWidget(self.local_backend)
        row.addWidget(self.server_backend)
        row.addStretch(1)
        form.addRow("Answers come from:", row)
        self.server_url = QtWidgets.QLineEdit(settings.server_url)
        self.server_url.setPlaceholderText("http://127.0.0.1:8080")
        self.server_model = QtWidgets.QLineEdit(settings.server_model)
        self.server_model.setPlaceholderText("the server's only model")
        self.server_key = QtWidgets.QLineEdit(settings.server_api_key)
        self.server_key.setEchoMode(QtWidgets.QLineEdit.EchoMode.Password)
        self.server_key.setPlaceholderText("optional")
        self.server_warning = WrapLabel("")
        self.server_warning.setWordWrap(True)
        self.server_warning.setStyleSheet(f"color: {warning_color().name()}")
        self.test_button = QtWidgets.QPushButton("Test")
        self.test_button.setToolTip("Ask the server now: is it there, does it list the model, "
                                    "does it stream (a short test prompt; nothing of yours)")
        self.test_button.clicked.connect(self.test_server)
        self.test_result = WrapLabel("")
        self.test_result.setWordWrap(True)
        self._tester = Background(self)
        self._tester.done.connect(self._test_done)  # (a method: cut when the dialog goes)
        self._testing = False
        self._server_rows = [self.server_url, self.server_model, self.server_key]
        url_row = QtWidgets.QHBoxLayout()
        url_row.addWidget(self.server_url, 1)
        url_row.addWidget(self.test_button)
        form.addRow("Server address:", url_row)
        form.addRow("Server model:", self.server_model)
        form.addRow("API key:", self.server_key)
        form.addRow("", self.server_warning)
        form.addRow("", self.test_result)
        form.setRowVisible(self.test_result, False)  # until Test is pressed
        self.server_url.textChanged.connect(self._update_backend)
        self.server_backend.toggled.connect(self._update_backend)
        self.model = QtWidgets.QComboBox()
        self.model.setSizeAdjustPolicy(QtWidgets.QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.model.setMinimumContentsLength(28)
        self._fill_models()
        browse = QtWidgets.QPushButton("Browse…")
        browse.clicked.connect(self._browse_model)
        row = QtWidgets.QHBoxLayout()
        row.addWidget(self.model, 1)
        row.addWidget(browse)
        form.addRow("Language model:", row)
        self._local_rows: list[QtWidgets.QWidget] = [self.model, browse]  # (a server: its own)
        self.model_details = WrapLabel("")
        plain.labels(self.model_details, self.server_warning)  # a model's name, a server's address
        self.model_details.setWordWrap(True)
        form.addRow("", self.model_details)
        self.model.currentIndexChanged.connect(self._show_model_details)
        self._show_model_details()
        self._update_backend()
        self.models_hint = hint = WrapLabel(self._hint_text())
        hint.setWordWrap(True)
        muted(hint)
        plain.labels(hint)  # a folder's name
        hint.setToolTip(plain.tip(str(self._data_dir / "models")))
        form.addRow("", hint)
        self.temperature = spin(0.0, max(2.0, settings.temperature), settings.temperature, step=0.05,
                                 tip="0: the same question always gets the same answer; "
                                     "higher: more varied, more surprising answers (temperature)")
        form.addRow("Creativity:", self.temperature)
        self.max_answer = spin(16, max(16, settings.n_ctx // 2), settings.max_answer_tokens,
                                suffix=" tokens",
                                tip="A token is about three quarters of a word; at most half the "
                                    "context size (Advanced) (max_answer_tokens)")
        form.addRow("Longest answer:", self.max_answer)
        # (QA pass 24: 0.15's main change could be made only in settings.json)
        self.history = spin(-1, 1000, settings.history_exchanges, special="all that fit",
                            tip="Earlier questions and answers of the chat shown to the model "
                                "with a new message. A small model copies its own earlier "
                                "answers; earlier ones still come back as memories when they "
                                "match (history_exchanges)")
        form.addRow("Earlier exchanges shown to the model:", self.history)
        self.system_prompt = QtWidgets.QPlainTextEdit(settings.system_prompt)
        self.system_prompt.setFixedHeight(64)
        self.system_prompt.setTabChangesFocus(True)  # Tab goes on to the next field
        self.system_prompt.setToolTip("Sent first in every conversation; distilled facts about "
                                      "you are added after it (system_prompt)")
        form.addRow("Instructions for HeLa:", self.system_prompt)
        self.about_you = QtWidgets.QCheckBox("Answer “What do you know about me?” by listing "
                                             "your memories")
        self.about_you.setChecked(settings.list_about_you)
        self.about_you.setToolTip("Your own words, dated, newest news first; off: the model "
                                  "answers it from those memories (list_about_you)")
        form.addRow("", self.about_you)
        lay.addWidget(box)

        # -- memory
        box2 = QtWidgets.QGroupBox("Memory")
        f2 = QtWidgets.QFormLayout(box2)
        self.profile = QtWidgets.QComboBox()
        names = list(PROFILES)
        if settings.profile not in names:
            names.append(settings.profile)
        for name in names:
            self.profile.addItem(PROFILE_NAMES.get(name, name), name)
            self.profile.setItemData(self.profile.count() - 1, PROFILE_HELP.get(name, ""),
                                     QtCore.Qt.ItemDataRole.ToolTipRole)
        self.profile.setCurrentIndex(names.index(settings.profile))
        self.profile_help = WrapLabel(PROFILE_HELP.get(settings.profile, ""))
        muted(self.profile_help)
        self.profile_help.setWordWrap(True)
        self.profile_help.setMinimumHeight(3 * self.profile_help.fontMetrics().lineSpacing() + 2)
        # a one-line help at the top of its three lines' room, under its choice (QA pass 35:
        # centred, it had a blank line above it)
        self.profile_help.setAlignment(QtCore.Qt.AlignmentFlag.AlignTop
                                       | QtCore.Qt.AlignmentFlag.AlignLeft)
        self.profile.currentIndexChanged.connect(
            lambda _i: self.profile_help.setText(PROFILE_HELP.get(self.profile.currentData(), "")))
        f2.addRow("How memories are found:", self.profile)
        f2.addRow("", self.profile_help)
        # (at a time: swaps while it writes may bring others in, so an answer can name more
        # in all; QA pass 37 read "at most 5" beside 7 recalled)
        self.max_memories = spin(1, 15, settings.max_memories,
                                  tip="How many memories the model may read at a time; while it "
                                      "writes, HeLa may swap some for others that fit better, so "
                                      "an answer can draw on more in all (max_memories)")
        f2.addRow("Memories at a time, at most:", self.max_memories)
        self.reretrieve = spin(1, 20, settings.reretrieve_every, prefix="every ", suffix=" tokens",
                                tip="While it writes, HeLa looks again for memories that fit what it "
                                    "is saying now, this often (reretrieve_every)")
        f2.addRow("Look for better memories while answering:", self.reretrieve)
        self.idle = spin(0.1, 1440.0, settings.idle_minutes, decimals=1, suffix=" min",
                          tip="When you are away this long, HeLa distils facts from groups of "
                              "related memories and archives stale ones (idle_minutes)")
        f2.addRow("Reflect on memories after being idle for:", self.idle)
        lay.addWidget(box2)

        # -- data folder
        box3 = QtWidgets.QGroupBox("Data")
        f3 = QtWidgets.QFormLayout(box3)
        self.data = QtWidgets.QLineEdit(str(self._data_dir))
        b3 = QtWidgets.QPushButton("Browse…")
        b3.clicked.connect(self._browse_data)
        r3 = QtWidgets.QHBoxLayout()
        r3.addWidget(self.data, 1)
        r3.addWidget(b3)
        f3.addRow("Data folder:", r3)
        h3 = WrapLabel("Memories, chats and settings live here. Changing it opens that "
                              "folder's memories (the current ones stay where they are).")
        muted(h3)
        h3.setWordWrap(True)
        f3.addRow("", h3)
        self.backup_keep = spin(0, 365, settings.backup_keep, suffix=" backups", special="none",
                                 tip="A copy of your memories is made while the app sits idle, "
                                     "once a day; this many are kept (File ▸ Backups… lists "
                                     "and restores them; backup_keep)")
        f3.addRow("Daily backups to keep:", self.backup_keep)
        lay.addWidget(box3)

        # -- advanced, behind a disclosure
        self.advanced_button = QtWidgets.QToolButton()
        self.advanced_button.setText("Advanced")
        self.advanced_button.setCheckable(True)
        self.advanced_button.setToolButtonStyle(QtCore.Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.advanced_button.setArrowType(QtCore.Qt.ArrowType.RightArrow)
        self.advanced_button.setAutoRaise(True)
        lay.addWidget(self.advanced_button)
        self.advanced = QtWidgets.QGroupBox()
        f4 = QtWidgets.QFormLayout(self.advanced)
        # (QA pass 31: "Advanced is still jargon"): what these are, and that they can wait
        note = QtWidgets.QLabel(
            "How the model runs on this computer. The defaults suit most computers; "
            "Restore Defaults puts them back. A token is a word or part of one (about "
            "¾ of a word in English).")
        note.setWordWrap(True)
        note.setForegroundRole(QtGui.QPalette.ColorRole.PlaceholderText)
        f4.addRow(note)
        self.gpu_layers = spin(-1, 999, settings.n_gpu_layers,
                                special="all (when a GPU is available)",
                                tip="Model layers run on the GPU; 0: CPU only (n_gpu_layers)")
        f4.addRow("GPU layers:", self.gpu_layers)
        self.n_ctx = spin(512, 131072, settings.n_ctx, step=512, suffix=" tokens",
                           tip="How much text the model sees at once; larger uses more memory "
                               "and makes memory swaps slower (n_ctx)")
        f4.addRow("Context size:", self.n_ctx)
        # the longest answer is at most half the context (Settings.validate): say so by its
        # range rather than by cutting a larger value down on OK
        self.n_ctx.valueChanged.connect(self._follow_context)
        self.threads = spin(0, 256, settings.n_threads, special="automatic",
                             tip="CPU threads for generating tokens; reading a prompt uses all "
                                 "cores (n_threads)")
        f4.addRow("Generation threads:", self.threads)
        self.lookback = spin(4, 1000, settings.lookback_tokens, suffix=" tokens",
                              tip="The last this-many tokens of the answer form the query when "
                                  "HeLa looks again for memories (lookback_tokens)")
        f4.addRow("Recent answer text used to look again:", self.lookback)
        self.budget = spin(32, max(32, settings.n_ctx // 2), settings.token_budget, step=50,
                           suffix=" tokens",
                           tip="Room the memories may take in the prompt; at most half the "
                               "context size (token_budget)")
        f4.addRow("Room for memories in the prompt:", self.budget)
        self.time_budget = spin(
            0, 100, round(min(1.0, settings.swap_time_budget) * 100),
            suffix=" % of answer time", special="never swap while answering",
            tip="Swapping memories in mid-answer pauses it briefly; the pauses may add up to at "
                "most this share of the time spent writing (swap_time_budget)")
        f4.addRow("Pauses allowed for memory swaps:", self.time_budget)
        self.prefetch = QtWidgets.QCheckBox("Prepare swapped-in memories beside generation")
        self.prefetch.setChecked(settings.swap_prefetch)
        self.prefetch.setToolTip("Evaluates new memory lines on a second model context while "
                                 "the answer goes on; uses more memory (swap_prefetch)")
        f4.addRow("", self.prefetch)
        _one_label_column(form, f2, f3, f4)
        self.advanced.setVisible(False)
        self.advanced_button.toggled.connect(self._show_advanced)
        lay.addWidget(self.advanced)
        lay.addStretch(1)
        self.form_scroll.setWidget(body)
        plain.wheel_scrolls(self.form_scroll)
        outer.addWidget(self.form_scroll, 1)

        self.buttons = bb = QtWidgets.QDialogButtonBox(QtWidgets.QDialogButtonBox.StandardButton.Ok
                                        | QtWidgets.QDialogButtonBox.StandardButton.Cancel
                                        | QtWidgets.QDialogButtonBox.StandardButton.RestoreDefaults)
        bb.accepted.connect(self.accept)
        bb.rejected.connect(self.reject)
        bb.button(QtWidgets.QDialogButtonBox.StandardButton.RestoreDefaults).clicked.connect(self._defaults)
        outer.addWidget(bb)
        self._fitted = False

    def showEvent(self, e: QtGui.QShowEvent) -> None:  # noqa: N802 - Qt API
        super().showEvent(e)
        if not self._fitted:  # once: later the user's own size stays
            self._fitted = True
            self._fit_to_screen(center=True)

    def _show_advanced(self, on: bool) -> None:
        self.advanced.setVisible(on)
        self.advanced_button.setArrowType(QtCore.Qt.ArrowType.DownArrow if on else QtCore.Qt.ArrowType.RightArrow)
        self._fit_to_screen()
        if on:  # once the scroll area has taken the taller form
            QtCore.QTimer.singleShot(0, lambda: self.form_scroll.ensureWidgetVisible(self.advanced))

    def _fit_to_screen(self, center: bool = False) -> None:
        """As tall as the whole form, but never taller than the screen's free area: the form
        scrolls beyond that and OK / Cancel stay in view. (adjustSize() would stop at 2/3 of
        the screen and squeeze the help texts.)"""
        screen = self.screen() or QtGui.QGuiApplication.primaryScreen()
        avail = screen.availableGeometry()
        frame = frame_margins(self)  # (on a laptop, a title bar pushed OK / Cancel off the screen)
        body = self._form
        body_lay = body.layout()
        assert body_lay is not None
        body_lay.activate()
        bar = self.style().pixelMetric(QtWidgets.QStyle.PixelMetric.PM_ScrollBarExtent)
        m = self.contentsMargins() + (self.layout() or body_lay).contentsMargins()
        side = m.left() + m.right()
        width = min(max(self.width() if self._fitted and self.isVisible() else 0, self.minimumWidth(),
                        body.sizeHint().width() + side + bar), avail.width() - frame.left() - frame.right())
        inner = width - side - bar
        form_h = body_lay.heightForWidth(inner) if body_lay.hasHeightForWidth() else -1
        form_h = max(form_h, body.minimumSizeHint().height())
        spacing = max(0, (self.layout() or body_lay).spacing())
        want = form_h + self.buttons.sizeHint().height() + spacing + m.top() + m.bottom()
        height = min(want, avail.height() - frame.top() - frame.bottom())
        self.resize(width, height)
        # keep it on the screen (a taller dialog may have grown past the bottom); the first
        # time, centred over the window again (it was placed for its size before the fit)
        g = self.geometry().marginsAdded(frame)
        now = g.topLeft()
        parent = self.parentWidget()
        if center and parent is not None:
            g.setSize(QtCore.QSize(width, height) + (g.size() - self.size()))
            g.moveCenter(parent.window().frameGeometry().center())
        x = min(max(g.x(), avail.left()), avail.right() - g.width() + 1)
        y = min(max(g.y(), avail.top()), avail.bottom() - g.height() + 1)
        if QtCore.QPoint(x, y) != now:
            self.move(self.pos() + QtCore.QPoint(x, y) - now)

    def _fill_models(self) -> None:
        """The bundled model, the data folder's and the current choice at once; the other
        apps' models (each header read: a tenth of a second for a large vocabulary, more
        on a slow disk) from a thread (`_scanner`), "Looking for models…" meanwhile."""
        from ..model_catalog import find_models

        self._unusable: dict[str, str] = {}  # path -> why it is no model at all
        self.model.clear()
        bundled = bundled_model_path()
        # the name first: where the box is narrow (1.5× scaling) the end is cut (QA pass 23)
        self.model.addItem(f"{BUNDLED_NAME} (bundled default)", "")
        self._found: dict = {}  # path -> FoundModel, as read off the window's thread
        self._describing: set[str] = set()
        for p in scan_models(self._data_dir):
            if bundled is not None and p.resolve() == bundled.resolve():
                continue
            self.model.addItem(p.name, str(p))
        cur = self._settings.model_path
        self._stand_in = ""  # the current choice, listed by its file name until found
        if cur and self.model.findData(cur) < 0:
            self.model.addItem(Path(cur).name, cur)
            self._stand_in = cur
        self.model.setCurrentIndex(max(0, self.model.findData(cur)) if cur else 0)
        self._check_listed([str(self.model.itemData(i)) for i in range(1, self.model.count())])
        self.model.addItem(LOOKING)  # (no data: never a choice)
        self._enable_item(self.model.count() - 1, False)
        self.scanning = True
        self._scanner = Background(self)
        self._scanner.done.connect(self._models_found)
        home = self._home
        self._scanner.run(lambda: find_models(home=home), "hela-model-scan")

    scanning = False  # the other apps' models are being looked for
    _home = None  # where the other apps' model folders are looked for (tests set it)

    def _hint_text(self) -> str:
        """The line under the model list (while the scan runs: that it runs)."""
        where = f"More: put .gguf files in {self._data_dir / 'models'}"
        if self.scanning:
            return f"{LOOKING} (LM Studio, Jan, GPT4All, Ollama). {where}"
        return ("Also listed: GGUF chat models of LM Studio, Jan, GPT4All and Ollama (used in "
                f"place). {where}")

    def _enable_item(self, row: int, on: bool) -> None:
        items = self.model.model()  # (a combo box's own: a QStandardItemModel)
        if isinstance(items, QtGui.QStandardItemModel):
            items.item(row).setEnabled(on)  # seen, not chosen

    def _models_found(self, found) -> None:
        """The scan's answer: LM Studio, Jan, GPT4All and Ollama models into the list (the
        current choice kept; an entry already there, by path, gets the model's name)."""
        self.scanning = False
        self.models_hint.setText(self._hint_text())
        looking = self.model.findText(LOOKING)
        if looking >= 0:
            self.model.removeItem(looking)
        if isinstance(found, BaseException):  # (find_models never raises; a bug: say so)
            self.model.addItem(f"Models in other apps not listed ({found})")
            self._enable_item(self.model.count() - 1, False)
            return
        chosen = self.model_path()
        with QtCore.QSignalBlocker(self.model):  # (the choice is put back below)
            if self._stand_in and any(str(m.path) == self._stand_in for m in found):
                self.model.removeItem(self.model.findData(self._stand_in))  # (listed in its place)
            for m in found:
                self._found[str(m.path)] = m
                i = self.model.findData(str(m.path))
                if i < 0:
                    self.model.addItem("", str(m.path))
                    i = self.model.count() - 1
                self.model.setItemText(i, _model_label(m))
                self.model.setItemData(i, m.describe(), QtCore.Qt.ItemDataRole.ToolTipRole)
                self._enable_item(i, not m.problem)
            self.model.setCurrentIndex(max(0, self.model.findData(chosen)))
        self._show_model_details()
        self._refit()

    def _follow_context(self, n_ctx: int) -> None:
        """The longest answer and the room for memories are at most half the context."""
        set_maximum(self.max_answer, max(16, n_ctx // 2))
        set_maximum(self.budget, max(32, n_ctx // 2))

    def _show_model_details(self) -> None:
        path = self.model_path()
        m = self._found.get(path)
        if (m is None and path and path not in self._describing and not self.scanning
                and path not in self._unusable):
            self._check_listed([path])  # read off the window's thread, shown when read
        text = m.describe() if m is not None else (
            f"{Path(path).name} — {self._unusable[path]}: choose another model, or the "
            "bundled default" if path in self._unusable else "")
        self.model_details.setText(text)
        self._answers_form.setRowVisible(self.model_details, bool(text))  # no empty row
        self.model_details.setToolTip(plain.tip(path) if text else "")

    def _check_listed(self, paths: list[str]) -> None:
        """Read the listed files' headers off the window's thread (`_checked` marks them):
        a text file named .gguf was listed as a model, a damaged one was not greyed, and a
        chosen file since deleted left the details line blank (QA pass 23)."""
        from ..model_catalog import describe

        paths = [p for p in paths if p and p not in self._describing]
        if not paths:
            return
        self._describing.update(paths)

        folders = {d.resolve() for d in models_dirs(self._data_dir)}

        def job():
            out: dict[str, object] = {}
            for path in paths:
                p = Path(path)
                if not p.is_file():
                    out[path] = MODEL_MISSING
                else:  # where it is, as another app's model names its app ("file", QA 23)
                    where = ("in your data folder" if p.parent.resolve() in folders
                             else "a file you chose")
                    out[path] = describe(p, where) or NOT_A_MODEL
            return out

        worker = Background(self)
        worker.done.connect(self._checked)  # (a method: cut when the dialog goes)
        worker.run(job, "hela-model-describe")

    def _checked(self, answer) -> None:
        """Each file read: its line says what it is, and one that cannot be used is marked
        and greyed (the current choice stays choosable: its line says why it fails)."""
        if not isinstance(answer, dict):
            return
        chosen = self.model_path()
        with QtCore.QSignalBlocker(self.model):
            for path, m in answer.items():
                self._describing.discard(path)
                i = self.model.findData(path)
                if isinstance(m, str):
                    self._unusable[path] = m
                    flag = "missing" if m == MODEL_MISSING else "not a model"
                    tip = m
                else:
                    self._found[path] = m
                    flag, tip = m.flag, m.describe()
                if i < 0:
                    continue
                if flag:
                    self.model.setItemText(i, f"{Path(path).name} — {flag}")
                    self._enable_item(i, path == chosen)
                self.model.setItemData(i, tip, QtCore.Qt.ItemDataRole.ToolTipRole)
        self._show_model_details()
        self._refit()

    _fitted = False  # sized to the screen once shown (showEvent)

    def _refit(self) -> None:
        """Taller for a details line or hint that came in after the dialog was sized
        (OK / Cancel stay in view; the form scrolled its last rows out of sight)."""
        if self._fitted and self.isVisible():
            self._fit_to_screen()

    def _update_backend(self, *_) -> None:
        from ..server_llm import privacy_warning

        server = self.server_backend.isChecked()
        for w in self._server_rows:
            w.setEnabled(server)
        for local in self._local_rows:
            local.setEnabled(not server)
        warn = privacy_warning(self.server_url.text().strip()) if server else None
        self.server_warning.setText(f"⚠ {warn}" if warn else "")
        self._answers_form.setRowVisible(self.server_warning, bool(warn))  # no empty row
        self.test_button.setEnabled(server)  # (a press during a test is ignored)
        if not self._testing:  # a result for what the fields held before
            self._answers_form.setRowVisible(self.test_result, False)

    def test_server(self) -> None:
        """Test: the address, model and key as typed, asked now (not saved)."""
        from ..server_llm import api_key

        url = self.server_url.text().strip()
        if not url:
            self._tested(False, "Type the server's address first, e.g. http://127.0.0.1:8080.")
            return
        if self._testing:  # one test at a time: a second press waits for the first
            return
        self._testing = True
        # the button says so and stays enabled: disabled, it gave the keyboard away to the
        # next field ("Server model", QA pass 22), and the keyboard user lost their place
        self.test_button.setText("Testing…")
        self.test_result.setText(f"Asking {url}…")
        muted(self.test_result)
        self._answers_form.setRowVisible(self.test_result, True)
        key = self.server_key.text().strip() or api_key(Settings())  # $HELA_SERVER_API_KEY
        model = self.server_model.text().strip()
        self._tester.run(lambda: _test_server(url, model, key), "hela-server-test")

    def _test_done(self, answer: tuple[bool, str]) -> None:
        self._tested(*answer)

    def _tested(self, ok: bool, line: str) -> None:
        self._testing = False
        self.test_button.setText("Test")
        self.test_button.setEnabled(self.server_backend.isChecked())
        self.test_result.setForegroundRole(QtGui.QPalette.ColorRole.WindowText)
        self.test_result.setStyleSheet("" if ok else f"color: {warning_color().name()}")
        self.test_result.setText(("✓ " if ok else "✗ ") + line)
        self._answers_form.setRowVisible(self.test_result, True)

    def _browse_model(self) -> None:
        start = str(self._data_dir / "models")
        path, _ = QtWidgets.QFileDialog.getOpenFileName(self, "Choose a GGUF model", start,
                                                        "GGUF models (*.gguf);;All files (*)")
        if path:
            i = self.model.findData(path)
            if i < 0:
                self.model.addItem(Path(path).name, path)
                i = self.model.count() - 1
            self.model.setCurrentIndex(i)

    def _browse_data(self) -> None:
        path = QtWidgets.QFileDialog.getExistingDirectory(self, "Choose the data folder", self.data.text())
        if path:
            self.data.setText(path)

    def _defaults(self) -> None:
        d = Settings()
        self.local_backend.setChecked(True)
        self.model.setCurrentIndex(0)
        self.gpu_layers.setValue(d.n_gpu_layers)
        self.n_ctx.setValue(d.n_ctx)
        self.temperature.setValue(d.temperature)
        self.max_answer.setValue(d.max_answer_tokens)
        self.history.setValue(d.history_exchanges)
        self.about_you.setChecked(d.list_about_you)
        self.threads.setValue(d.n_threads)
        self.system_prompt.setPlainText(d.system_prompt)
        self.time_budget.setValue(round(d.swap_time_budget * 100))
        self.prefetch.setChecked(d.swap_prefetch)
        self.idle.setValue(d.idle_minutes)
        self.backup_keep.setValue(d.backup_keep)
        self.reretrieve.setValue(d.reretrieve_every)
        self.lookback.setValue(d.lookback_tokens)
        self.max_memories.setValue(d.max_memories)
        self.budget.setValue(d.token_budget)
        self.profile.setCurrentIndex(max(0, self.profile.findData(d.profile)))

    def model_path(self) -> str:
        """The chosen GGUF path ("" = the bundled default)."""
        data = self.model.currentData()
        return "" if data is None else str(data)

    def result_settings(self) -> Settings:
        s = copy.deepcopy(self._settings)
        s.model_path = self.model_path()
        s.backend = "server" if self.server_backend.isChecked() else "local"
        s.server_url = self.server_url.text().strip()
        s.server_model = self.server_model.text().strip()
        s.server_api_key = self.server_key.text().strip()
        s.n_gpu_layers = self.gpu_layers.value()
        s.n_ctx = self.n_ctx.value()
        s.temperature = float(self.temperature.value())
        s.max_answer_tokens = self.max_answer.value()
        s.history_exchanges = self.history.value()
        s.list_about_you = self.about_you.isChecked()
        s.reretrieve_every = self.reretrieve.value()
        s.lookback_tokens = self.lookback.value()
        s.max_memories = self.max_memories.value()
        s.token_budget = self.budget.value()
        s.profile = self.profile.currentData()
        s.n_threads = self.threads.value()
        s.system_prompt = self.system_prompt.toPlainText().strip() or Settings().system_prompt
        if not (self.time_budget.value() == 100 and s.swap_time_budget > 1.0):
            s.swap_time_budget = self.time_budget.value() / 100.0  # (keep a larger file value)
        s.swap_prefetch = self.prefetch.isChecked()
        s.idle_minutes = float(self.idle.value())
        s.backup_keep = self.backup_keep.value()
        s.validate()
        return s

    def accept(self) -> None:
        """OK: refused, with a message, while the data folder cannot be one (the window would
        fail to switch to it after the dialog had closed, saying nothing)."""
        problem = folder_problem(self.data_dir())
        if problem is None:
            super().accept()
            return
        box = plain.message_box(QtWidgets.QMessageBox.Icon.Warning, "Data folder",
                                f"{self.data_dir()}: {problem}\n\nChoose another folder.",
                                parent=self)
        box.setAttribute(QtCore.Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()  # over the dialog, which stays open
        self.data.setFocus()
        self.data.selectAll()

    def data_dir(self) -> Path:
        return Path(self.data.text().strip() or str(self._data_dir)).expanduser()


def folder_problem(path: Path) -> str | None:
    """Why `path` cannot be the data folder (None: it can, or it can be created)."""
    if path.exists() and not path.is_dir():
        return "this is a file, not a folder"
    existing = next((p for p in (path, *path.parents) if p.exists()), None)
    if existing is None or not existing.is_dir():
        return "its parent is not a folder"
    if not os.access(existing, os.W_OK | os.X_OK):
        return "this folder cannot be written to" if existing == path else \
            f"{existing} cannot be written to, so the folder cannot be made there"
    return None


def model_changed(old: Settings, new: Settings) -> bool:
    """Whether the model must be reloaded for `new`."""
    keys = ("backend", "server_url", "server_model", "server_api_key", "server_timeout",
            "model_path", "n_gpu_layers", "n_ctx", "n_threads")
    return any(getattr(old, k) != getattr(new, k) for k in keys)


def model_advice(settings: Settings) -> str:
    """What to do when the chat model could not be loaded, for the backend chosen."""
    if settings.backend == "server":  # (each message tries the server again)
        return ("To chat, start the model server (or restart it, if it stopped answering): "
                "the next message you send tries it again. Or choose another model in "
                "Settings (Ctrl+,).")
    return "To chat, choose a GGUF model in Settings (Ctrl+,)."


def _one_label_column(*forms: QtWidgets.QFormLayout) -> None:
    """The fields of every section start at one line down the dialog (QA pass 21: Answers'
    at 563 px, Memory's at 675, Data's at 569): each label as wide as the widest."""
    role = QtWidgets.QFormLayout.ItemRole.LabelRole
    labels = [w for f in forms for r in range(f.rowCount())
              if (item := f.itemAt(r, role)) is not None and (w := item.widget()) is not None]
    width = max((w.sizeHint().width() for w in labels), default=0)
    for w in labels:
        w.setMinimumWidth(width)
