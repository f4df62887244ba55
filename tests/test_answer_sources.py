"""Under each answer, the memories it drew on, in the user's words, each a link to the
memory in the graph: a person can check an answer against what they said, whatever the
model made of it.

pytest-qt offscreen, the real window on a real data folder, no model loaded."""

from __future__ import annotations

import pytest
import qt_env  # noqa: F401  (before PySide6: offscreen, a throwaway QSettings folder)

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")

from PySide6 import QtCore  # noqa: E402
from test_app_polish import _formats, _window  # noqa: E402
from test_ui_app import _wait, fill_store  # noqa: E402

from hela_desktop.events import DoneEvent  # noqa: E402
from hela_desktop.store import Store  # noqa: E402
from hela_desktop.ui.window_status import answer_sources, done_lines  # noqa: E402

pytestmark = pytest.mark.gui

DOG = "My dog is called Pixel and my sister Ana lives in Lisbon, near the river."


def test_sources_in_order_once_each_cut_at_a_word_without_knowledge():
    recalls = [{"episode_id": 4, "text": DOG, "kind": "episode"},
               {"episode_id": -2, "text": "The user has a dog.", "kind": "knowledge"},
               {"episode_id": 9, "text": "I teach  Spanish.", "kind": "episode"},
               {"episode_id": 4, "text": DOG, "kind": "episode"}]
    shown, more, unrecalled, *_ = answer_sources(recalls)
    assert [i for i, _, _ in shown] == [4, 9] and more == 0 and not unrecalled
    # 48 characters, cut at a word, with "…"; the whole text kept for the tooltip
    assert shown[0][1] == "My dog is called Pixel and my sister Ana lives…"
    assert shown[0][2] == DOG and shown[1][1] == "I teach Spanish."
    six = [{"episode_id": i, "text": f"memory {i}"} for i in range(6)]
    shown, more, *_ = answer_sources(six)
    assert len(shown) == 4 and more == 2
    assert answer_sources([]) == ([], 0, False, None, frozenset(), "", "", frozenset(), "")
    # "nothing recalled" holds only where nothing was: memories named contradict it
    assert answer_sources([], unrecalled=True) == ([], 0, True, None, frozenset(), "", "", frozenset(), "")
    assert answer_sources(recalls, unrecalled=True).unrecalled is False
    # a live answer: the turn's finding travels in its DoneEvent
    ev = DoneEvent(conversation_id=1, message_id=2, episode_id=3, tokens=4, swaps=0,
                   prefill_tokens=0, tokens_per_s=1.0, elapsed_s=1.0, unrecalled=True)
    assert done_lines(ev, {})[1] == ([], 0, True, frozenset(), frozenset(), "", "", frozenset(), "")
    # the speed shown (window, terminal): from the first token on, not the whole time a
    # process's first turn took with the model loading (it read "0.5 tok/s")
    from dataclasses import replace

    assert replace(ev, tokens=10, generation_s=2.0, elapsed_s=20.0).speed == 5.0
    assert replace(ev, tokens=10, generation_s=0.0, elapsed_s=20.0).speed == 0.5
    assert replace(ev, tokens=10, generation_s=0.0, elapsed_s=0.0).speed == 0.0


def test_the_memories_an_answer_used_come_first_under_their_own_head():
    """QA pass 20: the line under an answer said "From your memories" for every memory
    recalled, while the graph linked only those the answer used (0.12): a user comparing
    the two thought the links were missing.  The line now says which were used."""
    from hela_desktop.sources import source_groups, source_lines

    recalls = [{"episode_id": i, "text": f"memory {i}"} for i in (5, 6, 7)]
    src = answer_sources(recalls, used=[7])
    assert [i for i, _, _ in src.shown] == [7, 5, 6]
    assert [(h, [i for i, _, _ in g]) for h, g in source_groups(src)] == [
        ("Used from your memories", [7]), ("also recalled", [5, 6])]
    assert [h for h, _ in source_groups(answer_sources(recalls, used=[]))] == [
        "Recalled, not used in the answer"]
    assert [h for h, _ in source_groups(answer_sources(recalls, used=[5, 6, 7]))] == [
        "Used from your memories"]
    assert [h for h, _ in source_groups(answer_sources(recalls))] == ["From your memories"]
    six = [{"episode_id": i, "text": f"memory {i}"} for i in range(6)]
    assert source_lines(answer_sources(six, used=[5])) == [
        ("used from your memories", ["#5 “memory 5”"]),
        ("also recalled", ["#0 “memory 0”", "#1 “memory 1”", "#2 “memory 2”", "and 2 more"])]


def test_an_answer_names_the_memories_it_drew_on_and_links_to_them(qtbot, tmp_path):
    data_dir = tmp_path / "data"
    with Store(data_dir) as store:
        ids = fill_store(store, 6)
        cid = store.add_conversation("Pixel")
        store.add_message(cid, "user", "What is my dog's name?")
        used = [{"episode_id": ids[2], "text": DOG, "kind": "episode"},
                {"episode_id": ids[4], "text": "question 4 about topic 0", "kind": "episode"}]
        store.add_message(cid, "assistant", "Pixel is a Spanish word.",
                          stats={"tokens": 6, "swaps": 0, "elapsed_s": 1.0, "memories": used})
        store.add_message(cid, "user", "Write a haiku about rain.")
        store.add_message(cid, "assistant", "Rain on the window.",
                          stats={"tokens": 5, "swaps": 0, "elapsed_s": 1.0, "memories": []})
        cid2 = store.add_conversation("Pixel again")
        store.add_message(cid2, "user", "And my dog?")
        store.add_message(cid2, "assistant", "Pixel, as you said.",
                          stats={"tokens": 5, "swaps": 0, "elapsed_s": 1.0, "memories": used,
                                 "drew_on": [ids[2]]})
    w = _window(qtbot, data_dir)
    view = w.chat.view
    w.open_conversation(cid)
    _wait(qtbot, lambda: "Rain on the window." in view.toPlainText(), 20)
    text = view.toPlainText()
    assert ("From your memories: “My dog is called Pixel and my sister Ana lives…” · "
            "“question 4 about topic 0”") in text
    # only under the answer that drew on memories: the haiku's answer names none
    assert text.count("From your memories:") == 1
    assert text.index("From your memories:") < text.index("Write a haiku")
    # the timeline shows the last answer: it recalled nothing, and says so (it said "Send a
    # message…", as for an empty chat, since a stored answer's timeline has no spans)
    assert w.timeline.empty_hint().startswith("No memories were recalled for this answer")
    # "m:<memory>:<the answer's key>": the link knows which answer it is under
    hrefs = {f.anchorHref().rpartition(":")[0]: f.anchorHref()
             for _, f in _formats(view.document())
             if f.isAnchor() and f.anchorHref().startswith("m:")}
    links = {f.anchorHref().rpartition(":")[0]: (frag, f.toolTip())
             for frag, f in _formats(view.document())
             if f.isAnchor() and f.anchorHref().startswith("m:")}
    assert set(links) == {f"m:{ids[2]}", f"m:{ids[4]}"}
    assert DOG in links[f"m:{ids[2]}"][1]  # the whole memory in the tooltip
    # a click shows the memory in the graph, explained as this answer recalled it (QA 18:
    # the panel explained its latest recall, for another message)
    _wait(qtbot, lambda: len(w.graph.data) >= len(ids), 20)
    w.right_tabs.setCurrentIndex(1)
    w.graph.recalls[ids[2]] = {"episode_id": ids[2], "text": "a later answer's recall"}
    with qtbot.waitSignal(view.memoryClicked, timeout=2000) as sig:
        view.anchorClicked.emit(QtCore.QUrl(hrefs[f"m:{ids[2]}"]))
    assert sig.args == [ids[2]]
    assert w.right_tabs.currentIndex() == 0 and w.graph.selected == ids[2]
    assert w.graph.recalls[ids[2]] == used[0]
    # (by its place in the chat: "that answer" read as the one the timeline showed, QA 36)
    assert "Why answer 1 of this chat recalled it" in w.graph.details.toPlainText()
    # an answer that says which it used (0.12) names them first, then the others
    w.open_conversation(cid2)
    _wait(qtbot, lambda: "Pixel, as you said." in view.toPlainText(), 20)
    assert ("Used from your memories: “My dog is called Pixel and my sister Ana lives…” — "
            "also recalled: “question 4 about topic 0”") in view.toPlainText()
    w.close()


def _open_chat(qtbot, tmp_path, messages):
    """The window on a chat of stored (role, text, stats) messages, and its text once the
    last one is drawn."""
    data_dir = tmp_path / "data"
    with Store(data_dir) as store:
        cid = store.add_conversation("Imported")
        for role, text, stats in messages:
            store.add_message(cid, role, text, stats=stats)
    w = _window(qtbot, data_dir)
    w.open_conversation(cid)
    _wait(qtbot, lambda: messages[-1][1] in w.chat.view.toPlainText(), 20)
    return w, w.chat.view.toPlainText()


@pytest.mark.parametrize("stats", [[1, 2], "text", {"memories": "x", "tokens": "abc"},
                                   {"memories": [7, {"episode_id": "3", "text": "t"}],
                                    "tokens": float("nan"), "limit": [1]}])
def test_any_statistics_an_imported_file_carries_leave_the_chat_readable(qtbot, tmp_path, stats):
    """A memory file may carry any JSON in a message's statistics; the chat still opens,
    with no footer and no memories line where they make no sense."""
    w, text = _open_chat(qtbot, tmp_path, [("user", "Hello there", None),
                                           ("assistant", "Hi! How can I help?", stats),
                                           ("user", "Still here?", None)])
    assert "Hi! How can I help?" in text and "From your memories" not in text
    assert "tokens" not in text and "Not from your memories" not in text
    w.close()


def test_an_answer_about_the_user_with_nothing_recalled_says_it_is_not_from_memories(
        qtbot, tmp_path):
    """The stored flag (`Assistant` sets it: see test_hygiene) becomes a plain warning under
    that answer only; a value that is not JSON true (an imported file's) shows nothing."""
    st = {"tokens": 7, "swaps": 0, "elapsed_s": 1.0, "memories": []}
    w, text = _open_chat(qtbot, tmp_path, [
        ("user", "What is my dog's name?", None),
        ("assistant", "Your dog's name is Luna.", {**st, "unrecalled": True}),
        ("user", "And my cat's?", None),
        ("assistant", "Your cat is Tom.", {**st, "unrecalled": "yes"}),
        ("user", "Write a haiku about rain.", None)])
    view = w.chat.view
    warning = "Not from your memories: no memory was recalled for this question"
    assert text.count(warning) == 1
    assert text.index("Luna") < text.index(warning) < text.index("And my cat's?")
    # in the text colour, not the footer's grey: it is the one thing to notice
    colours = {f.foreground().color().name() for frag, f in _formats(view.document())
               if frag.startswith("Not from your memories")}
    assert colours == {view.palette().color(view.palette().ColorRole.Text).name()}
    w.close()


def test_a_memory_shown_as_older_news_is_said_to_be_under_the_answer(qtbot, tmp_path):
    """QA pass 23: under "Tell me about my sister Ines." the line read "Used from your
    memories: “My sister Ines lives in Lyon…” — also recalled: “Actually my sister moved to
    Porto.”", with nothing to say that the prompt had marked Lyon as older news.  The line
    says so now, in the window and in the terminal's lines."""
    from hela_desktop.sources import source_lines

    lyon = {"episode_id": 2, "text": "My sister Ines lives in Lyon.", "kind": "episode",
            "extra": {"older_than": 15, "gate": "evidence"}}
    porto = {"episode_id": 15, "text": "Actually my sister moved to Porto.", "kind": "episode",
             "extra": {"gate": "newer news", "newer_than": 2}}
    stats = {"tokens": 9, "swaps": 0, "elapsed_s": 1.0, "memories": [porto, lyon],
             "drew_on": [2]}
    w, text = _open_chat(qtbot, tmp_path, [("user", "Tell me about my sister Ines.", None),
                                           ("assistant", "Ines lives in Lyon.", stats)])
    assert ("Used from your memories: “My sister Ines lives in Lyon.” (older news) — also "
            "recalled: “Actually my sister moved to Porto.”") in text
    drew = answer_sources([porto, lyon], used=[2])
    assert drew.older == {2}
    assert source_lines(drew) == [
        ("used from your memories", ["#2 “My sister Ines lives in Lyon.” (older news)"]),
        ("also recalled", ["#15 “Actually my sister moved to Porto.”"])]
    w.close()
