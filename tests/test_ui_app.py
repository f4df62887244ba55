"""Desktop app tests (pytest-qt, offscreen): widgets on synthetic data and a real Store,
then the whole window with the real embedder and the real default GGUF model."""

from __future__ import annotations

import os
import time
from pathlib import Path

import numpy as np
import pytest  # noqa: E402
import qt_env  # noqa: F401  (before PySide6: offscreen, a throwaway QSettings folder)

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")

from PySide6 import QtCore, QtWidgets  # noqa: E402

from hela_desktop.config import Settings  # noqa: E402
from hela_desktop.store import Store  # noqa: E402

pytestmark = pytest.mark.gui

ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"

SEED = [
    ("My sister Ana lives in Lisbon.", "Nice, Lisbon is a lovely city."),
    ("Ana loves sailing on the Tagus every weekend.", "Sailing sounds like fun."),
    ("I work as a nurse at the hospital in Porto.", "Nursing is demanding work."),
    ("My cat is called Miso and he is orange.", "Miso is a great name for a cat."),
    ("I am learning to play the piano.", "Practice a little every day."),
    ("My favourite food is grilled sardines.", "A classic Portuguese dish."),
]


def fill_store(store: Store, n: int = 30, seed: int = 0) -> list[int]:
    """Episodes and edges written directly (no embedder needed)."""
    rng = np.random.default_rng(seed)
    ids = [store.add_episode(f"question {i} about topic {i % 4}", f"answer {i}",
                             rng.normal(size=8).astype(np.float32), created_at=1.7e9 + i * 60)
           for i in range(n)]
    rows = []
    for a, b in zip(ids, ids[1:]):
        rows.append((a, b, 0.0, 0.5, 0, 0, 1.7e9))
    for i in range(n):
        j = (i + 4) % n
        if ids[i] != ids[j]:
            a, b = sorted((ids[i], ids[j]))
            rows.append((a, b, 0.3, 0.0, 2, 0, 1.7e9))
    store.upsert_edges(rows)
    return ids


def graph_on(qtbot, store: Store, settle: int):
    """An unthreaded graph view, 900×600, shown with `store`'s graph and laid out for
    `settle` steps."""
    from hela_desktop.ui.graph_model import snapshot_from_store
    from hela_desktop.ui.graph_view import GraphView

    view = GraphView(threaded=False)
    qtbot.addWidget(view)
    view.resize(900, 600)
    view.show()
    view.set_snapshot(snapshot_from_store(store), animate=False)
    view.settle(settle)
    return view


# ------------------------------------------------------------------ pure parts ------
def test_layout_uses_cutoff_pairs_and_spreads_nodes():
    from hela_desktop.ui.layout import ForceLayout, _grid_pairs

    rng = np.random.default_rng(1)
    n = 800
    lay = ForceLayout()
    lay.set_graph(range(n), [(i, (i + 1) % n, 0.5) for i in range(n)]
                  + [(int(a), int(b), 0.2) for a, b in rng.integers(0, n, (2 * n, 2))])
    lay.run(40)
    assert lay.pair_count <= lay.max_pairs_per_node * n  # bounded, never all pairs
    assert lay.pair_count < n * (n - 1) / 2 / 10
    d = lay.pos[:, None, :] - lay.pos[None, :, :]
    dist = np.sqrt((d ** 2).sum(-1)) + np.eye(n) * 1e9
    assert np.median(dist.min(axis=1)) > 0.2 * lay.k  # nodes do not collapse
    pairs = {tuple(p) for p in _grid_pairs(lay.pos, 2.5)}
    brute = {(i, j) for i in range(n) for j in range(i + 1, n) if dist[i, j] < 2.5}
    assert {tuple(sorted(p)) for p in pairs} == brute
    # settles: the temperature cools and the largest move shrinks
    lay.run(200)
    assert lay.settled and lay.last_move < 0.01


def test_markdown_stream_keeps_token_indices():
    from hela_desktop.ui.markdown_stream import format_all

    text = "# Plan\nUse **bold** and `code`.\n- one\n* two\n```py\nx = 1\n```\n2*3"
    pieces = [(text[i:i + 2], i // 2) for i in range(0, len(text), 2)]
    out = format_all(pieces)
    plain = "".join(t for t, _, _ in out)
    assert plain == "Plan\nUse bold and code.\n• one\n• two\nx = 1\n2*3"
    assert "".join(t for t, s, _ in out if s.bold) == "bold"
    assert "".join(t for t, s, _ in out if s.code) == "code"
    assert any(s.block for _, s, _ in out) and any(s.heading == 1 for _, s, _ in out)
    toks = [k for _, _, k in out]
    assert toks == sorted(toks) and max(toks) == len(pieces) - 1


def test_markdown_fence_closes_only_at_its_own_length():
    """A Markdown document Claude wrote in an artifact comes in as a ```` block holding its
    own ``` blocks: the first inner fence closed the block, and the rest of the document
    (and the answer after it) were shown inside out."""
    from hela_desktop.ui.markdown_stream import format_all

    text = "````markdown\n# Plan\n```sh\nrun\n```\n````\nDone."
    out = format_all([(text, 0)])
    assert "".join(t for t, s, _ in out if s.block) == "# Plan\n```sh\nrun\n```\n"
    assert "".join(t for t, s, _ in out if not s.block) == "Done."
    assert {s.lang for _, s, _ in out if s.block} == {"markdown"}


def test_markdown_reads_the_html_tags_small_models_write():
    """SmolLM2 wrote a birthday card as a web page, "<strong>Dear Zofie</strong><br>…" with
    a style attribute of nonsense fonts, and the chat showed the tags (QA pass 46d): the
    few formatting tags are read as bold and line breaks, their attributes dropped; any
    other "<" stays as written, and in code every tag stays."""
    from hela_desktop.ui.markdown_stream import format_all

    def shown(text: str, step: int = 1) -> tuple[str, str]:
        out = format_all([(text[i:i + step], i) for i in range(0, len(text), step)])
        return "".join(t for t, _, _ in out), "".join(t for t, s, _ in out if s.bold)

    card = ('<strong>Dear Zofie</strong><br> Happy <span style="font-family:"Capsicum '
            'Bibimbap, iTunes">birthday</span>!')
    for step in (1, 3, len(card)):  # (however the tokens split the tags)
        assert shown(card, step) == ("Dear Zofie\n Happy birthday!", "Dear Zofie")
    assert shown("<p>Hello</p><p>World</p>")[0] == "Hello\nWorld\n"
    assert shown("<b>1</b> <em>2</em> <br/>3")[0] == "1 2 \n3"
    for plain in ("a < b and 2<3, x<y z>w", "List<int> and <html> and <a href=x>link</a>",
                  "<3 you", "<<<", "trailing <stro"):
        assert shown(plain) == (plain, "")
    assert shown("use `<br>` here")[0] == "use <br> here"
    assert shown("```html\n<p>x</p>\n```\n")[0] == "<p>x</p>\n"
    assert shown("<<strong>x</strong>") == ("<x", "x")


def test_markdown_of_an_imported_megabyte_answer_is_formatted_in_linear_time():
    """An imported answer has no token spans: it is one piece, and each character was added
    to one string (a 1,200,000-character artifact: 44 s on the GUI thread; now 5 s)."""
    import time

    from hela_desktop.ui.markdown_stream import format_all

    def timed(lines: int) -> float:
        text = "```python\n" + "x = [f.strip() for f in line]\n" * lines + "```\n"
        t0 = time.perf_counter()
        out = format_all([(text, 0)])
        took = time.perf_counter() - t0
        assert out == [(text[10:-4], out[0][1], 0)] and out[0][1].lang == "python"
        return took

    # four times the text: about four times the time (quadratic: sixteen; 11 s for the
    # larger one here, unloaded), a ratio within one run, not a time limit
    small = min(timed(5_000) for _ in range(2))
    assert timed(20_000) < 9 * max(small, 0.01)


# ------------------------------------------------------------------ widgets ---------
def test_graph_view_glow_strengthen_select_search_focus(qtbot, tmp_path):
    from hela_desktop.ui.graph_model import snapshot_from_store
    from hela_desktop.ui.graph_view import GraphView

    store = Store(tmp_path)
    ids = fill_store(store)
    now = time.time()
    kid = store.conn.execute(
        "INSERT INTO knowledge(uid, kind, text, created_at, updated_at, strength) "
        "VALUES ('k1', 'fact', 'Topic 1 questions recur', ?, ?, 1.0)", (now, now)).lastrowid
    store.conn.executemany("INSERT INTO knowledge_sources(knowledge_id, episode_id) VALUES (?, ?)",
                           [(kid, ids[1]), (kid, ids[5])])
    view = GraphView(threaded=False)
    qtbot.addWidget(view)
    view.resize(900, 600)
    view.show()
    view.set_snapshot(snapshot_from_store(store), animate=False)
    assert len(view.data) == len(ids) + 1 and len(view.data.src) >= len(ids)
    # distilled knowledge: a diamond node linked to its source episodes
    assert len(view.kind_rows["knowledge"]) == 1
    view.select(-kid)
    assert "Knowledge · fact" in view.details.toPlainText() and f"#{ids[5]}" in view.details.toPlainText()
    assert {j for j, *_ in view.data.neighbours(-kid)} == {ids[1], ids[5]}
    view.layout_engine.run(30)
    view.set_positions(view.layout_engine.ids, view.layout_engine.positions())

    view.set_active(ids[:3], {ids[0]: {"score": 0.9, "semantic": 0.8, "keyword": 0.5, "recency": 1.0,
                                       "spread": 0.1, "spread_from": ids[5], "path": "associative"}})
    assert set(view.active) == set(ids[:3])
    assert len(view.glow.spots) >= 3  # glow spots drawn for the active memories
    view.set_active(ids[1:4])
    assert ids[0] in view.leaving and ids[3] in view.active

    # a Hebbian update strengthens edges among co-active memories -> they flash thick
    a, b = sorted(ids[1:3])
    store.upsert_edges([(a, b, 0.9, 0.5, 5, store.hebbian_step(), time.time())])
    view.set_snapshot(snapshot_from_store(store))
    assert view.hot and len(view.hot[-1][1]) >= 1
    assert view.hot_edges.getData()[0] is not None and len(view.hot_edges.getData()[0]) >= 2

    with qtbot.waitSignal(view.nodeSelected) as sig:
        view.select(ids[0])
    assert sig.args == [ids[0]]
    details = view.details.toPlainText()
    assert "question 0" in details and "Neighbours" in details
    assert "association" in details and f"#{ids[5]}" in details  # why recalled + spread_from

    view.search.setText("topic 3")
    assert len(view.search_rows) == len([i for i in range(len(ids)) if i % 4 == 3])
    view.search.setText("")
    view.set_focus_mode(True)
    assert view.visible_mask is not None and 0 < view.visible_mask.sum() < len(ids)
    view.set_focus_mode(False)
    assert view.visible_mask is None
    store.close()


def test_timeline_rows_swaps_and_hover(qtbot):
    from hela_desktop.ui.timeline import TimelineView

    tl = TimelineView()
    qtbot.addWidget(tl)
    tl.resize(700, 200)
    tl.show()
    tl.begin_live([1, 2], key=7)
    for i in range(10):
        tl.live_token(i)
    tl.live_swap(10, [2, 3])
    for i in range(10, 25):
        tl.live_token(i)
    assert tl.n_tokens == 25 and tl.swaps == [10] and tl.rows == [1, 2, 3]
    assert tl.active_at(3) == [1, 2] and tl.active_at(12) == [2, 3]
    x = int(tl.x_of(12.5))
    y = int(tl.plot_rect().top() + 5)
    with qtbot.waitSignal(tl.tokenHovered) as sig:
        qtbot.mouseMove(tl, QtCore.QPoint(x, y))
    assert sig.args == [12]
    img = tl.grab().toImage()
    assert not img.isNull()


def test_settings_dialog_round_trip(qtbot, tmp_path):
    from hela_desktop.ui.settings_dialog import SettingsDialog, model_changed

    s = Settings()
    dlg = SettingsDialog(s, tmp_path)
    qtbot.addWidget(dlg)
    dlg.reretrieve.setValue(7)
    dlg.max_memories.setValue(12)
    dlg.profile.setCurrentIndex(dlg.profile.findData("streaming"))
    dlg.n_ctx.setValue(2048)
    dlg.time_budget.setValue(25)
    dlg.prefetch.setChecked(False)
    dlg.idle.setValue(5.0)
    dlg.system_prompt.setPlainText("  ")  # an empty prompt falls back to the default
    new = dlg.result_settings()
    assert (new.reretrieve_every, new.max_memories, new.profile, new.n_ctx) == (7, 12, "streaming", 2048)
    assert (new.swap_time_budget, new.swap_prefetch, new.idle_minutes) == (0.25, False, 5.0)
    assert new.system_prompt == Settings().system_prompt
    assert model_changed(s, new) and not model_changed(new, new)
    new.save(tmp_path)
    assert Settings.load(tmp_path).reretrieve_every == 7
    assert dlg.data_dir() == tmp_path


def test_bench_gui_small():
    from hela_desktop.bench.gui import bench_gui

    res = bench_gui(sizes=(300,), frames=3, width=600, height=400)
    r = res["sizes"][300]
    assert r["frame_ms"] > 0 and r["fps"] > 0 and r["edges"] > 300
    # `bench gui` prints a table, JSON with --json (it printed JSON either way)
    from hela_desktop.bench.gui import format_gui_report

    table = format_gui_report(res).splitlines()
    row = next(x for x in table if x.startswith("| 300 |"))
    assert f"| {r['frame_ms']} / {r['frame_ms_p90']} |" in row and f"| {r['fps']} |" in row
    assert "not measured (no 2,000-node size)" in table[-2]


# --------------------------------------------------------- the real window ----------
def _wait(qtbot, cond, timeout_s: float) -> None:
    qtbot.waitUntil(cond, timeout=int(timeout_s * 1000))


def give_keys(qtbot, widget, timeout_s: float = 10) -> None:
    """Give `widget` the keyboard, and wait until it has it: a key bound to it alone (the
    Memories table's Delete) fires only then.  A CI run hung at such a Delete (session 28):
    the window was not the active one, the key went nowhere, and nothing came to wait for."""
    window = widget.window()
    window.raise_()
    window.activateWindow()
    widget.setFocus()
    qtbot.waitUntil(lambda: QtWidgets.QApplication.focusWidget() is widget,
                    timeout=int(timeout_s * 1000))


def op_done(qtbot, w, name: str, timeout_s: float = 60):
    """Wait for the worker to finish op `name`, not any op: a browse or search the window
    asked for a moment earlier finishes first on a busy machine, and a test that took its
    opDone read the store before the op had landed (CI, sessions 26 and 27)."""
    return qtbot.waitSignal(w.client.worker.opDone, timeout=int(timeout_s * 1000),
                            check_params_cb=lambda op, *_: op == name)


@pytest.fixture
def seeded_dir(seed_dir):
    return seed_dir(SEED)


def _ui_settings() -> Settings:
    s = Settings()
    s.temperature = 0.0
    s.max_answer_tokens = 24
    s.reretrieve_every = 4
    s.max_memories = 3
    return s


def test_missing_model_dialog_browsing_history_files_and_reload(qtbot, seeded_dir, embedder, tmp_path):
    from hela_desktop.events import ModelStatusEvent
    from hela_desktop.ui.main_window import MainWindow

    # a stored chat with a timeline, written directly
    with Store(seeded_dir) as st:
        cid = st.add_conversation("Sister chat")
        st.add_message(cid, "user", "Where does Ana live?")
        mid = st.add_message(cid, "assistant", "Ana lives in **Lisbon**, by the river.",
                             stats={"tokens": 10, "swaps": 1, "elapsed_s": 1.0})
        st.save_timeline(mid, [(0, 5, [1, 2]), (5, 10, [1, 3])])

    s = _ui_settings()
    s.model_path = str(seeded_dir / "missing.gguf")
    w = MainWindow(seeded_dir, s, assistant_kwargs={"embedder": embedder})
    qtbot.addWidget(w)
    w.show()
    _wait(qtbot, lambda: w.model_error is not None and w.embedder_ready, 60)
    assert "missing.gguf" in w.model_error and "model file not found" in w.model_error
    assert "Settings" in w.last_message[1]
    assert w.status.model.text() == "Model: not loaded"
    # sending without a model explains what to do instead of failing silently
    w.send("hello?")
    assert w.last_message[0] == "No language model" and not w.is_streaming()
    from PySide6 import QtWidgets

    # one box about the model, not the load failure's and this one stacked (QA pass 18)
    qtbot.waitUntil(lambda: [b.windowTitle() for b in w.findChildren(QtWidgets.QMessageBox)
                             if b.isVisible()] == ["No language model"], timeout=5000)

    # browsing works without the chat model (the rows come from the assistant thread)
    reader = Store(seeded_dir)  # the test's own look at the database
    w.right_tabs.setCurrentIndex(1)
    _wait(qtbot, lambda: w.browser.model.rowCount() == len(SEED), 20)
    w.browser.search.setText("sailing")
    w.browser.refresh()
    _wait(qtbot, lambda: w.browser.model.rowCount() == 1, 20)
    assert len(w.graph.data) == len(SEED)

    # the Archive tab lists what forgetting archived; Restore brings it back
    with Store(seeded_dir) as st:
        st.set_archived(6, "stale")
    w.browser.tabs.setCurrentIndex(2)
    _wait(qtbot, lambda: [e.id for e in w.browser.archive_model.episodes] == [6], 20)
    w.browser.archive.selectRow(0)
    w.browser.restore_selected()
    _wait(qtbot, lambda: reader.episode(6).archived_at is None, 20)
    w.browser.tabs.setCurrentIndex(0)

    # a stored conversation renders with formatting and hoverable tokens + its timeline
    _wait(qtbot, lambda: len(w.conversations.chats()) == 1, 20)
    w.conversations.list.setCurrentIndex(w.conversations.list.model().index(0, 0))
    view = w.chat.view
    _wait(qtbot, lambda: "Ana lives in Lisbon, by the river." in view.toPlainText(), 20)
    key = view.key_for_message(mid)
    assert w.timeline.message_key == key and w.timeline.rows == [1, 2, 3] and w.timeline.swaps == [5]
    assert w.links.active_for(key, 7) == [1, 3]
    assert "#3" in w.links.token_tooltip(key, 7)
    w.links.chat_token_hovered(key, 7)
    assert w.graph.highlighted == {1, 3} and w.timeline.ext_tok == 7

    # rename and delete go through the assistant thread
    w.run_op("rename_conv", (cid, "Family"))
    _wait(qtbot, lambda: w.conversations.shown()[0]["title"] == "Family", 20)

    # export and import (memfile), with the progress dialog and a summary
    out = tmp_path / "mem.hela"
    w.files.start_progress("Exporting memories…")
    w.run_op("export", str(out))
    _wait(qtbot, lambda: (w.last_message or ("",))[0] == "Export finished", 60)
    assert out.exists() and out.stat().st_size > 0
    notes = tmp_path / "notes.txt"
    notes.write_text("My brother Rui plays the cello.\n\nRui lives in Coimbra.\n", encoding="utf-8")
    w.files.start_progress("Importing memories…")
    w.run_op("import", str(notes))
    _wait(qtbot, lambda: w.last_message[0] == "Import finished", 60)
    assert reader.count_episodes() == len(SEED) + 2
    _wait(qtbot, lambda: len(w.graph.data) == len(SEED) + 2, 20)

    w.run_op("delete_conv", cid)
    _wait(qtbot, lambda: len(w.conversations.chats()) == 0, 20)

    # "Reflect now" runs the idle consolidation in the background; without a model it
    # reports the problem instead of crashing
    w.consolidate_now()
    _wait(qtbot, lambda: getattr(w, "last_reflection", None) is not None, 60)
    assert "missing.gguf" in (w.last_reflection.error or "")
    assert "reflection failed" in w.statusBar().currentMessage().lower()

    # choosing a working model in Settings reloads it (status bar shows progress)
    good = _ui_settings()
    seen_progress = []
    w.client.worker.update.connect(
        lambda ev: seen_progress.append(ev.message) if isinstance(ev, ModelStatusEvent) else None)
    w.apply_settings(good)
    _wait(qtbot, lambda: w.model_ready, 120)
    assert any("language model" in t for t in seen_progress)
    assert w.status.model.text().startswith("Model: ") and "not loaded" not in w.status.model.text()
    assert Settings.load(seeded_dir).model_path == ""
    w.close()
    reader.close()


def test_real_exchange_streams_into_chat_timeline_graph_browser(qtbot, seeded_dir, llm, embedder):
    from hela_desktop.events import TokenEvent
    from hela_desktop.ui.main_window import MainWindow

    w = MainWindow(seeded_dir, _ui_settings(), assistant_kwargs={"llm": llm, "embedder": embedder})
    reader = Store(seeded_dir)  # the test's own look at the database
    qtbot.addWidget(w)
    w.resize(1480, 900)
    w.show()
    _wait(qtbot, lambda: w.model_ready and w.embedder_ready, 120)

    seen: dict = {"tokens": 0, "glow": set(), "first_token_at": None, "texts": []}
    gaps: list[float] = []

    def on_event(ev):
        if isinstance(ev, TokenEvent):
            seen["tokens"] += 1
            seen["texts"].append(ev.text)
            seen["first_token_at"] = seen["first_token_at"] or time.perf_counter()

    # what the graph was told to light up while the answer streamed (sampling graph.active
    # on a timer missed it on a loaded machine, where the timers fired after the answer)
    set_active = w.graph.set_active

    def glow(ids, *args, **kw):
        seen["glow"].update(int(i) for i in ids)
        return set_active(ids, *args, **kw)

    w.graph.set_active = glow
    w.client.worker.stream.connect(on_event)
    probe = QtCore.QTimer()
    probe.setInterval(10)
    last = [time.perf_counter()]

    def tick():
        now = time.perf_counter()
        gaps.append(now - last[0])
        last[0] = now

    probe.timeout.connect(tick)
    probe.start()
    qtbot.wait(1000)  # idle baseline of the same probe on this (shared) machine
    idle = np.array(gaps[3:]) * 1000
    gaps.clear()
    # time our own GUI-thread handlers too: they must never be the stall
    handler_ms: list[float] = []  # wall time
    handler_cpu_ms: list[float] = []  # CPU time of the GUI thread (immune to preemption)

    def timed(fn):
        def wrapper(*a, **k):
            t0, c0 = time.perf_counter(), time.thread_time()
            try:
                return fn(*a, **k)
            finally:
                handler_ms.append((time.perf_counter() - t0) * 1000)
                handler_cpu_ms.append((time.thread_time() - c0) * 1000)
        return wrapper

    w.flush_events = timed(w.flush_events)
    w.graph.render = timed(w.graph.render)
    w.show_snapshot = timed(w.show_snapshot)
    w.chat.input.setPlainText("Where does my sister Ana live?")
    qtbot.keyClick(w.chat.input, QtCore.Qt.Key.Key_Return)
    assert w.is_streaming()
    _wait(qtbot, lambda: w.session.last_done is not None, 150)
    probe.stop()
    done = w.session.last_done
    assert done.tokens > 0 and seen["tokens"] == done.tokens and not done.interrupted

    # the GUI thread kept up: event-loop latency probe, 10 ms timer
    stream_gaps = np.array(gaps[5:]) * 1000
    ARTIFACTS.mkdir(exist_ok=True)
    load = os.getloadavg()[0] / (os.cpu_count() or 1)
    (ARTIFACTS / "latency.txt").write_text(
        f"streaming: max {stream_gaps.max():.1f} ms, p99 {np.percentile(stream_gaps, 99):.1f} ms, "
        f"median {np.median(stream_gaps):.1f} ms over {len(stream_gaps)} ticks of a 10 ms timer\n"
        f"idle baseline: max {idle.max():.1f} ms, p99 {np.percentile(idle, 99):.1f} ms\n"
        f"GUI handlers: max {max(handler_ms):.1f} ms wall, {max(handler_cpu_ms):.1f} ms CPU "
        f"over {len(handler_ms)} calls\n"
        f"load average per core: {load:.2f}\n")
    assert max(handler_cpu_ms) < 50  # our own work on the GUI thread never blocks 50 ms
    # The event loop kept up: p99 of the 10 ms probe under 50 ms.  On an overloaded shared
    # machine (more runnable threads than cores) the OS itself delays our thread no matter
    # what it does, so the allowance grows with the load and with the idle baseline.
    allowed = max(50.0, 50.0 * load, 50 + max(0.0, np.percentile(idle, 99) - 15) * 3)
    assert np.percentile(stream_gaps, 99) < allowed, (stream_gaps.max(), allowed)

    # chat: every token is a hoverable anchor
    view = w.chat.view
    key = view.key_for_message(done.message_id)
    # (a token whose text the answer filter cleaned away, a leading "A:" say, has none:
    # every token that wrote something is one)
    shown = sum(1 for t in seen["texts"] if t)
    assert key is not None and len(view.msgs[key]["ranges"]) >= shown - 1, (seen["texts"], done.text)
    assert done.text.split()[0][:3] in view.toPlainText()

    # timeline filled with the answer's memories
    assert w.timeline.n_tokens == done.tokens and w.timeline.rows
    assert w.timeline.message_key == key
    # graph: the recalled memories glowed while the answer streamed
    assert seen["glow"] and seen["glow"] <= set(int(i) for i in w.graph.data.ids) | {done.episode_id}
    # hover a timeline column: the chat token and the graph nodes light up
    tok = next(i for i, t in enumerate(seen["texts"]) if t.strip())  # one that wrote text
    w.links.timeline_token_hovered(tok)
    assert view.extraSelections()
    assert w.graph.highlighted == set(w.timeline.active_at(tok))
    w.links.chat_token_hovered(key, 2)
    assert w.timeline.ext_tok == 2

    # the new memory: in the graph (snapshot after the Hebbian update) and the browser
    _wait(qtbot, lambda: done.episode_id in w.graph.data.index, 30)
    w.right_tabs.setCurrentIndex(1)
    w.browser.refresh()
    _wait(qtbot, lambda: any(e.id == done.episode_id for e in w.browser.model.episodes), 20)
    assert w.status.memories.text() == f"{len(SEED) + 1} memories"
    w.right_tabs.setCurrentIndex(0)
    w.graph.select(done.episode_id)

    # screenshot of the whole window after a real exchange
    qtbot.wait(700)
    img = w.grab().toImage()
    path = ARTIFACTS / "window.png"
    img.save(str(path))
    small = img.scaled(300, 200)
    colours = {small.pixel(x, y) for x in range(300) for y in range(200)}
    assert len(colours) > 150, len(colours)

    # memory browser actions go through the engine: pin, delete with undo
    w.right_tabs.setCurrentIndex(1)
    w.browser.select_id(done.episode_id)
    # (each waits for its own op: another op's opDone, a graph refresh after the answer,
    # once let the test read the store before the pin had landed)
    with op_done(qtbot, w, "pin"):
        w.browser.toggle_pin()
    assert reader.episode(done.episode_id).pinned
    with op_done(qtbot, w, "delete"):
        w.browser.delete_selected()
    assert reader.episode(done.episode_id).deleted_at is not None
    with op_done(qtbot, w, "restore"):
        w.browser.undo_delete()
    assert reader.episode(done.episode_id).deleted_at is None
    # edit re-embeds through the engine; the graph label follows
    w.run_op("edit", (done.episode_id, "Where does my sister Ana live now?", "In Lisbon."))
    _wait(qtbot, lambda: w.graph.data.nodes.get(done.episode_id, {}).get("label", "").endswith("now?"), 30)
    assert reader.episode(done.episode_id).assistant_text == "In Lisbon."

    # Stop (Esc) ends the answer early and keeps the partial answer
    w.session.last_done = None
    w.send("Tell me everything about sailing in Lisbon.")
    _wait(qtbot, lambda: view.msgs[w.live_key]["n_tokens"] >= 2 or w.session.last_done is not None, 60)
    w.act_stop.trigger()
    _wait(qtbot, lambda: w.session.last_done is not None, 60)
    assert w.session.last_done.interrupted
    msgs = reader.messages(w.current_conv)
    assert msgs[-1]["role"] == "assistant" and msgs[-1]["interrupted"]

    # closing mid-answer stops cleanly and stores the partial answer
    w.session.last_done = None
    n_before = len(reader.messages(w.current_conv))
    conv = w.current_conv
    w.send("Write a long, detailed story about my cat and the sea.")
    _wait(qtbot, lambda: view.msgs[w.live_key]["n_tokens"] >= 1, 60)
    # the tiny model may finish a reply in a few tokens; only a close that really lands
    # mid-answer must leave an interrupted answer (either way both messages are stored)
    mid_answer = w.is_streaming()
    w.close()
    with Store(seeded_dir) as st:
        msgs = st.messages(conv)
    assert len(msgs) == n_before + 2 and msgs[-1]["role"] == "assistant"
    assert msgs[-1]["interrupted"] or not mid_answer
    reader.close()


def test_run_app_opens_window_and_exits_cleanly(qtbot, tmp_path):
    """What plain ``hela-desktop`` runs: the window opens on the data folder and quits."""
    from hela_desktop.ui.app import run_app
    from hela_desktop.ui.main_window import MainWindow

    seen = {}
    # the application's own exec() runs once per process: after it returns, threads that
    # later windows start get no events (so every GUI test after this one would hang).
    # run_app's exec() runs a local event loop here instead, and quitting is what the app
    # does when it quits (aboutToQuit, then the loop ends).
    app = QtWidgets.QApplication.instance()
    loop = QtCore.QEventLoop()
    app.exec = loop.exec

    def poke():
        wins = [w for w in QtWidgets.QApplication.topLevelWidgets() if isinstance(w, MainWindow)]
        if wins and wins[0].isVisible() and wins[0].model_error:
            seen["title"] = wins[0].windowTitle()
            seen["error"] = wins[0].model_error
            seen["icon"] = not wins[0].windowIcon().isNull()
            wins[0].close()
            app.aboutToQuit.emit()
            loop.quit()
        else:
            QtCore.QTimer.singleShot(100, poke)

    QtCore.QTimer.singleShot(100, poke)
    # keep the remembered window layout out of the real user's config
    QtCore.QSettings.setPath(QtCore.QSettings.Format.NativeFormat, QtCore.QSettings.Scope.UserScope,
                             str(tmp_path / "config"))
    try:
        rc = run_app(tmp_path / "data", {"model_path": str(tmp_path / "none.gguf"), "n_ctx": 1024})
    finally:
        del app.exec
    assert rc == 0
    # (titled by the open chat, a new one here: the folder's name, "data", said nothing
    # to its user, QA pass 28b)
    assert seen["title"] == "New chat — HeLa Desktop" and "none.gguf" in seen["error"] and seen["icon"]
    assert (tmp_path / "data" / "memory.sqlite3").exists()
    assert list((tmp_path / "config").rglob("*.conf"))  # window layout remembered


def test_activity_tab_lists_background_runs(qtbot, tmp_path):
    from hela_desktop.store import Store
    from hela_desktop.ui.memory_browser import MemoryBrowser

    store = Store(tmp_path / "act")
    store.log_activity("forget", {"archived": 3, "reason": "weak, isolated, stale"})
    store.log_activity("consolidate", {"clusters": 2, "added": 1})
    browser = MemoryBrowser(store)
    qtbot.addWidget(browser)
    browser.tabs.setCurrentIndex(browser.tabs.indexOf(browser.activity_tab))
    assert browser.activity.rowCount() == 2
    assert browser.activity.item(0, 1).text() == "Distilling"  # newest first
    assert browser.activity.item(0, 2).text() == "Distilled 1 new fact."
    assert browser.activity.item(1, 2).text().startswith("Archived 3 weak, isolated, stale memories")
    store.close()


def test_knowledge_tab_edit_delete_undo_restore(qtbot, tmp_path, embedder, monkeypatch):
    """Memories ▸ Knowledge: the user deletes (with undo), restores and edits distilled
    knowledge; an unsupported item is shown as not used.  Ops run as the worker runs them."""
    from hela_desktop import knowledge as K
    from hela_desktop.store import Store
    from hela_desktop.ui.memory_browser import MemoryBrowser

    store = Store(tmp_path / "kn")
    ep = store.add_episode("I go sailing with my sister every weekend.", "",
                           embedder.embed_one("I go sailing with my sister every weekend."),
                           created_at=1.7e9)
    with store.transaction():
        for uid, text in (("a", "The user goes sailing with their sister every weekend."),
                          ("b", "The user is sorry for any confusion, I can only guess.")):
            cur = store.conn.execute(
                "INSERT INTO knowledge(uid, kind, text, created_at, updated_at) "
                "VALUES (?, 'user_model', ?, 0, 0)", (uid, text))
            store.conn.execute("INSERT INTO knowledge_sources VALUES (?, ?)", (cur.lastrowid, ep))
    browser = MemoryBrowser(store)
    qtbot.addWidget(browser)
    ops = []

    def run(name, arg):  # what the worker does with the browser's requests
        ops.append((name, arg))
        {"knowledge_delete": lambda: K.delete_item(store, arg),
         "knowledge_restore": lambda: K.restore_item(store, arg),
         "knowledge_edit": lambda: K.edit_item(store, embedder, *arg)}[name]()
        browser.refresh()

    browser.op.connect(run)
    browser.tabs.setCurrentIndex(1)
    status = {browser.knowledge.item(r, 1).text(): browser.knowledge.item(r, 2).text()
              for r in range(browser.knowledge.rowCount())}
    assert status["The user goes sailing with their sister every weekend."] == "in use"
    assert status["The user is sorry for any confusion, I can only guess."] == "not supported"
    # the kind in words: a user-model item is "about you"
    assert {browser.knowledge.item(r, 0).text() for r in range(browser.knowledge.rowCount())} \
        == {"about you"}
    browser.select_knowledge(1)
    assert browser.kdelete_button.isEnabled() and not browser.krestore_button.isEnabled()
    browser.delete_knowledge()
    assert ops[-1] == ("knowledge_delete", 1) and browser.kundo_bar.isVisibleTo(browser)
    assert K.trusted_user_model(store) == []
    browser.undo_knowledge_delete()
    assert ops[-1] == ("knowledge_restore", 1) and not browser.kundo_bar.isVisibleTo(browser)
    assert [k.id for k in K.trusted_user_model(store)] == [1]
    browser.select_knowledge(2)
    from hela_desktop.ui import text_dialog

    monkeypatch.setattr(text_dialog, "ask_text",
                        lambda *a, **k: ("The user sails with their sister.", True))
    browser.edit_knowledge()
    assert ops[-1] == ("knowledge_edit", (2, "The user sails with their sister."))
    assert {k.id for k in K.trusted_user_model(store)} == {1, 2}  # edited: used as written
    store.close()


def test_a_date_no_calendar_has_does_not_break_the_window():
    """Issue #12: a bad date left in an older store is shown as "?", never an exception."""
    from hela_desktop.ui.explain import when
    from hela_desktop.ui.graph_details import fmt_time

    assert when(1e300) == "?" and fmt_time(-1e300) == "?" and when(None) == "—"
    assert when(1_700_000_000.0, "%Y") == "2023"


# ------------------------------------------------------- learned links apart from priors --
def test_graph_view_colours_learned_links_apart_from_priors(qtbot, tmp_path):
    from hela_desktop.ui.graph_model import snapshot_from_store
    from hela_desktop.ui.graph_view import GraphView
    from hela_desktop.ui.theme import DARK, LIGHT

    store = Store(tmp_path)
    a, b, c, e = (store.add_episode(f"memory {i}", "answer", np.ones(8, np.float32))
                  for i in range(4))
    # (a,b): prior 0.5 only; (b,c): learned 0.4 on no prior; (a,c): prior 0.3 + learned
    # 0.2; (c,e): one co-activation, 0.02 learned; (a,e): a strong prior with one
    # co-activation on it (0.50 + 0.02); (b,e): a strong prior whose learned part has
    # decayed to 0.005, under LEARNED_MIN (0.01): no longer learned
    store.upsert_edges([(a, b, 0.0, 0.5, 0, 0, 0.0), (b, c, 0.4, 0.0, 20, 0, 0.0),
                        (a, c, 0.2, 0.3, 10, 0, 0.0), (c, e, 0.02, 0.0, 1, 0, 0.0),
                        (a, e, 0.02, 0.5, 1, 0, 0.0), (b, e, 0.005, 0.5, 1, 0, 0.0)])
    view = GraphView(threaded=False, colors=LIGHT)
    qtbot.addWidget(view)
    view.resize(700, 400)
    view.show()
    view.set_snapshot(snapshot_from_store(store, lam=0.0), animate=False)
    d = view.data
    row = {tuple(sorted((int(d.ids[s]), int(d.ids[t])))): r
           for r, (s, t) in enumerate(zip(d.src, d.dst))}
    assert d.learned_share()[[row[(a, b)], row[(b, c)], row[(a, c)]]] == pytest.approx([0, 1, 0.4])
    classes: dict[int, list[int]] = {}
    for n, rows in enumerate(view.edge_rows):
        for r in rows:
            classes.setdefault(int(r), []).append(n)
    # every link in its class by weight (0, 1, 2: < 0.2, < 0.5, ≥ 0.5), and a learned one
    # once more, drawn over it, in a learned class by how much was learned (3, 4, 5: < 0.1,
    # < 0.3, ≥ 0.3): a link thickens as it is learned and keeps its own strength
    assert classes[row[(a, b)]] == [2] and classes[row[(b, e)]] == [2]
    assert classes[row[(a, c)]] == [2, 4] and classes[row[(b, c)]] == [1, 5]
    assert classes[row[(c, e)]] == [0, 3] and classes[row[(a, e)]] == [2, 3]
    prior_pen = view.edge_items[2].opts["pen"].color()
    learned_pen = view.learned_items[2].opts["pen"].color()
    assert prior_pen.name() != learned_pen.name()
    assert learned_pen.red() > learned_pen.blue() and prior_pen.blue() > prior_pen.red()  # warm vs grey-blue
    # the weakest learned overlay is wider than the strongest link under it
    assert view.learned_items[0].opts["pen"].widthF() > view.edge_items[2].opts["pen"].widthF()
    assert len(view.learned_items[2].getData()[0]) == 2  # (b,c) drawn by the learned item
    assert "4 learned" in view.stats_label.text()
    # the details pane counts as the view draws, and splits each link into what was
    # written and what was learned
    view.select(c)
    text = view.details.toPlainText()
    assert "Neighbours (3, 3 learned)" in text and "(0.02 learned)" in text
    assert "(0.50 = 0.30 when written + 0.20 learned)" in text and "(0.40 learned)" in text
    view.select(e)
    text = view.details.toPlainText()
    assert "Neighbours (3, 2 learned)" in text
    assert "(0.52 = 0.50 when written + 0.02 learned)" in text
    assert "learned)" not in text.split(f"#{b}")[-1].split("\n")[0]  # (b,e): decayed away
    view.select(b)
    assert "Neighbours (3, 1 learned)" in view.details.toPlainText()
    assert "(0.50, made when written)" in view.details.toPlainText()
    # no memory's own colour (its glow) takes the learned links' hue,
    from PySide6 import QtGui

    from hela_desktop.ui.graph_labels import TOPIC_COLOURS
    from hela_desktop.ui.theme import MEMORY_COLORS

    for pal in (LIGHT, DARK):  # nor does a topic's (its nodes' colour)
        hue = QtGui.QColor(*pal.learned_edge).hslHue()
        for name in (*MEMORY_COLORS, *TOPIC_COLOURS):
            col = QtGui.QColor(name)
            if col.hslSaturation() > 60 and col.lightness() < 230:
                assert min(abs(col.hslHue() - hue), 360 - abs(col.hslHue() - hue)) > 12, name
        pink = QtGui.QColor(pal.active_edge).hslHue()  # nor the pink of the links in use
        for name in TOPIC_COLOURS:
            h = QtGui.QColor(name).hslHue()
            assert min(abs(h - pink), 360 - abs(h - pink)) > 25, name
    # the legend names both, in the palette's colours, light and dark
    assert view.legend.isVisible()
    labels = [label.text for _, label in view.legend.items]
    assert labels == ["link made when written", "learned, weak", "learned, strong",
                      "in use by the answer"]
    assert view.legend._samples[3].opts["pen"].color().name() == QtGui.QColor(
        LIGHT.active_edge).name()  # the pink of the links among the memories in use
    light_bg = view.legend.opts["brush"].color().name()
    view.apply_colors(DARK)
    assert view.legend.opts["brush"].color().name() != light_bg
    assert view.learned_items[2].opts["pen"].color().name() != learned_pen.name()
    store.close()


def test_why_recalled_says_which_link_brought_a_memory_in():
    from hela_desktop.ui.explain import recall_html, recall_reasons

    label = {7: "My dog is called Pixel"}.get
    learned = {"score": 1.1, "semantic": 0.3, "spread": 0.2, "spread_from": 7,
               "path": "associative",
               "extra": {"cos": 0.3, "edges": 0.2, "link": 0.34, "link_learned": 0.34,
                         "link_count": 5, "learned": 0.2, "lifted_by": "learned link",
                         "entry": 1.0}}
    reasons = recall_reasons(learned, label)
    assert ("Brought in by a learned link (0.34) to #7 “My dog is called Pixel”: they were "
            "used together 5 times.") in reasons
    assert not any("by association" in r for r in reasons)
    assert "learned link" in recall_html(learned, label)
    # a prior link (made when the memory was written) that shares a name
    prior = {**learned, "extra": {"cos": 0.3, "edges": 0.2, "link": 0.5, "link_learned": 0.0,
                                  "link_count": 0, "link_names": ["pixel"],
                                  "lifted_by": "link", "entry": 1.0}}
    assert ("Brought in by a link to #7 “My dog is called Pixel” made when the memories were "
            "written (prior 0.50): they share the name “pixel”.") in recall_reasons(prior, label)
    # a link with both parts, where only the whole link was enough
    both = {**learned, "extra": {**learned["extra"], "link": 0.62, "link_learned": 0.12,
                                 "lifted_by": "link"}}
    assert ("Brought in by its link (0.62: prior 0.50 + learned 0.12) to #7 “My dog is called "
            "Pixel”: they were used together 5 times.") in recall_reasons(both, label)
    # matched the message itself: the link only added to it
    own = {**learned, "path": "base", "extra": {**learned["extra"], "lifted_by": None}}
    assert ("Matched your message itself; its link to #7 “My dog is called Pixel” added a "
            "little (learned 0.34).") in recall_reasons(own, label)
    # the links added 0.268 while its conversation took 0.382 away (spread −0.114): the
    # Links bar shows what the links added, and the panel says what the conversation did
    mixed = {**own, "spread": -0.114,
             "extra": {**own["extra"], "edges": 0.268, "context": -0.382,
                       "created_at": 1796129924.366}}
    reasons = recall_reasons(mixed, label)
    assert any(r.startswith("Matched your message itself; its link to #7") for r in reasons)
    assert any("counted a little against it" in r for r in reasons)
    page = recall_html(mixed, label, details=True)
    assert "width='53'" in page  # Links bar: min(1, 0.268 × 2) = 0.536 of 100 px
    assert "1796129924" not in page and "created_at 2026-" in page
    # a link that added nothing is not said to have added to it
    none = {**mixed, "extra": {**mixed["extra"], "edges": 0.0}}
    assert not any("added to it" in r for r in recall_reasons(none, label))
    assert "Lifted by its link" not in recall_html(none, label)
    assert "Lifted by its link to <a href='node:7'>#7</a>." in page


def test_a_learned_link_lifts_a_memory_and_the_panel_says_so(tmp_path, embedder):
    from hela_desktop.memory import MemoryEngine, NewEpisode
    from hela_desktop.ui.explain import recall_reasons

    s = Settings()
    from dataclasses import replace

    s.hela = replace(s.hela, semantic_prior=False, temporal_edge=0.0, name_edge=0.0, beta=1.0,
                     context_weight=0.0, m=2)
    eng = MemoryEngine(Store(tmp_path / "mem.sqlite3"), embedder, s)
    ana, job = eng.add_episodes([NewEpisode(t, "ok", created_at=1.7e9) for t in (
        "My sister Ana lives in Lisbon near the river.",
        "She works nights as a marine biologist at the aquarium.")])
    eng.add_episodes([NewEpisode(t, "ok", created_at=1.7e9 + 86400) for t in (
        "My cousin lives in Porto by the sea.", "Where do you live these days?",
        "I live near the old harbour in Hamburg.", "Ana said hello yesterday.",
        "I went hiking in the mountains last summer.", "My phone screen cracked on Tuesday.",
        "We adopted a rescue dog from the shelter.", "The library closes early on Fridays.",
        "I am reading a novel about whales.", "Our team won the football match.",
        "The bakery downstairs sells great croissants.", "My knee hurts after running.")])
    for _ in range(40):  # recalled together many times: a learned link, no prior
        eng.hebbian_update([ana, job], now=1.7e9)
    res = eng.retrieve("Where does Ana live?", profile="hela", k=3, now=1.7e9 + 2 * 86400)
    lifted = next(r for r in res if r.episode_id == job)
    assert lifted.path == "associative" and lifted.spread_from == ana
    x = lifted.extra
    assert x["lifted_by"] == "learned link" and x["link_count"] == 40
    assert x["link_learned"] == pytest.approx(x["link"]) and x["link"] > 0.3  # no prior
    reasons = recall_reasons(lifted.to_dict(), {ana: "My sister Ana lives in Lisbon"}.get)
    assert any(r.startswith(f"Brought in by a learned link ({x['link']:.2f}) to #{ana}")
               and "used together 40 times" in r for r in reasons)
    top = next(r for r in res if r.episode_id == ana)
    assert top.path == "base" and "lifted_by" not in top.extra
    eng.store.close()
