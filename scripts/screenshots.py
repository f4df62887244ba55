"""Screenshots of the real window for the README (run by scripts/screenshots.sh under Xvfb).

    python scripts/screenshots.py OUT_DIR

Builds a small demo data folder (real embedder, bundled model), opens the main window,
and saves: the window mid-answer, the memory browser searching by meaning, the settings
dialog (plain, and with Advanced open), and the graph view at 2,000 memories.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

TMP = Path(tempfile.mkdtemp(prefix="hela-shots-"))
os.environ["XDG_CONFIG_HOME"] = str(TMP / "config")  # the user's own settings stay untouched
os.environ.setdefault("HF_HUB_OFFLINE", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

MEMORIES = [
    ("My sister Ana lives in Lisbon and loves sailing on the Tagus.", "Sailing on the Tagus sounds wonderful."),
    ("I am allergic to peanuts, so I avoid satay.", "Good to know; I will keep that in mind."),
    ("Shellfish makes me break out in hives.", "That sounds like an allergic reaction; best avoided."),
    ("My cat is called Miso and he is orange.", "Miso is a great name for an orange cat."),
    ("Miso likes to sleep on the piano.", "Cats love warm, high places."),
    ("I am learning to play the piano, mostly Chopin.", "Chopin's nocturnes are a lovely goal."),
    ("I work as a nurse at the hospital in Porto.", "Nursing is demanding and important work."),
    ("Night shifts at the hospital leave me tired.", "Rest well between shifts."),
    ("Ana and I plan a trip to the Azores in May.", "The Azores are beautiful in spring."),
    ("My favourite food is grilled sardines.", "A classic Portuguese dish."),
    ("I want to learn to sail like Ana.", "A sailing course on the Tagus could be a start."),
    ("My brother Rui plays the cello in Coimbra.", "A musical family!"),
]


def seed(data: Path) -> None:
    from hela_desktop.config import Settings
    from hela_desktop.embedder import Embedder
    from hela_desktop.memory import MemoryEngine, NewEpisode
    from hela_desktop.store import Store

    with Store(data) as st:
        engine = MemoryEngine(st, Embedder(), Settings())
        cid = st.add_conversation("Family and plans")
        now = time.time()
        eps = []
        for i, (u, a) in enumerate(MEMORIES):
            at = now - 3600 * 24 * (len(MEMORIES) - i)
            st.add_message(cid, "user", u, at=at)
            st.add_message(cid, "assistant", a, at=at + 5)
            eps.append(NewEpisode(u, a, conversation_id=cid, created_at=at))
        ids = engine.add_episodes(eps)
        for group in ((ids[0], ids[8], ids[10]), (ids[3], ids[4], ids[5]), (ids[1], ids[2], ids[9])):
            for _ in range(6):
                engine.hebbian_update(group, now=now)


def main(out: Path) -> int:
    from PySide6 import QtCore, QtGui, QtWidgets

    from hela_desktop.config import Settings
    from hela_desktop.ui.main_window import MainWindow
    from hela_desktop.ui.settings_dialog import SettingsDialog
    from hela_desktop.ui.theme import apply_theme

    data = TMP / "data"
    seed(data)
    QtCore.QCoreApplication.setOrganizationName("HeLa")
    QtCore.QCoreApplication.setApplicationName("HeLa Desktop")
    app = QtWidgets.QApplication(sys.argv[:1])
    apply_theme(app, False)
    s = Settings()
    s.max_answer_tokens = 160
    s.temperature = 0.6
    win = MainWindow(data, s, idle_scheduler=False)
    win.resize(1480, 900)
    win.move(0, 0)
    win.show()

    def wait(cond, timeout: float) -> bool:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            app.processEvents(QtCore.QEventLoop.ProcessEventsFlag.AllEvents, 20)
            if cond():
                return True
            time.sleep(0.01)
        return False

    def shoot(widget, name: str) -> None:
        wait(lambda: False, 0.4)  # let it paint
        screen = QtGui.QGuiApplication.primaryScreen()
        pix = screen.grabWindow(widget.winId())
        path = out / name
        pix.save(str(path))
        print(f"saved {path} ({pix.width()}×{pix.height()})")

    if not wait(lambda: win.model_ready and win.embedder_ready, 240):
        print(f"error: the model did not load ({win.model_error})", file=sys.stderr)
        return 1
    win.conversations.list.setCurrentRow(0)
    wait(lambda: False, 1.0)
    win.chat.input.setPlainText("Write a long story about Ana sailing to the Azores.")
    win.chat._submit(win.chat.input.toPlainText())
    key = win.live_key
    wait(lambda: win.chat.view.msgs.get(key, {}).get("n_tokens", 0) >= 14 or not win.is_streaming(), 120)
    shoot(win, "main-window-answering.png")
    wait(lambda: not win.is_streaming(), 120)

    win.right_tabs.setCurrentIndex(1)
    win.browser.search.setText("allergy")
    wait(lambda: "best match first" in win.browser.count_label.text(), 30)
    win.browser.table.selectRow(0)
    shoot(win, "memory-browser.png")

    dlg = SettingsDialog(win.settings, data, win)
    dlg.show()
    wait(lambda: dlg.isVisible(), 5)
    shoot(dlg, "settings.png")
    dlg.advanced_button.click()
    wait(lambda: False, 0.3)
    shoot(dlg, "settings-advanced.png")
    dlg.close()

    # File ▸ Backups…, with three daily backups (made here, dated the days before)
    from hela_desktop.backups import make_backup
    from hela_desktop.store import Store
    from hela_desktop.ui.backups_dialog import BackupsDialog

    with Store(data) as st:
        for days in (3, 2, 1):
            make_backup(st, now=time.time() - days * 86400)
    bdlg = BackupsDialog(data / "memory.sqlite3", win.settings.backup_keep, lambda: None,
                         lambda _p: None, win)
    bdlg.show()
    wait(lambda: bdlg.isVisible(), 5)
    shoot(bdlg, "backups.png")
    bdlg.close()
    win.close()

    # the graph at 2,000 memories (bench gui's synthetic graph), settled and zoomed out
    from hela_desktop.bench.gui import synthetic_graph
    from hela_desktop.ui.graph_view import GraphView
    from hela_desktop.ui.theme import LIGHT

    view = GraphView(colors=LIGHT, threaded=False)
    view.resize(1400, 860)
    view.move(0, 0)
    view.show()
    view.set_snapshot(synthetic_graph(2000), animate=False)
    view.settle(400)
    view.render()
    shoot(view, "graph-2000.png")
    view.shutdown()
    view.close()
    return 0


if __name__ == "__main__":
    target = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/screenshots")
    target.mkdir(parents=True, exist_ok=True)
    raise SystemExit(main(target))
