"""What an answer drew on, as the terminal prints it (`sources.source_lines`; Qt-free)."""

from __future__ import annotations

from hela_desktop.sources import WHOLE_SOURCE_CHARS, answer_sources, source_lines

WEDDING = "My sister Ana is getting married in June in Porto."


def test_the_terminal_names_each_memory_whole_one_to_a_line():
    """Pass 15: the terminal cut each memory as the window's line does (48 characters), and
    under "When is Ana's wedding?" it read “My sister Ana is getting married in June in…”:
    the cut fell on the very word that answers, and a terminal has no hover to show the
    rest."""
    one = answer_sources([{"episode_id": 1, "text": WEDDING}])
    assert one.shown[0][1].endswith("…")  # the window's label is still cut
    assert source_lines(one) == [("from your memories", [f"#1 “{WEDDING}”"])]
    long = "word " * 40  # 200 characters: cut at a word near the limit, with "…"
    many = answer_sources([{"episode_id": i, "text": t} for i, t in
                           enumerate([WEDDING, "Actually the wedding moved to September.", long,
                                      "a", "b", "c"], start=1)])
    [(head, lines)] = source_lines(many)
    assert head == "from your memories"
    assert lines[:2] == [f"#1 “{WEDDING}”", "#2 “Actually the wedding moved to September.”"]
    assert lines[2].startswith("#3 “word word") and lines[2].endswith("…”")
    assert len(lines[2]) <= len("#3 “”") + WHOLE_SOURCE_CHARS
    assert lines[4] == "and 2 more" and len(lines) == 5
    assert source_lines(answer_sources([])) == []


def test_the_terminal_prints_more_than_one_memory_one_to_a_line(capsys):
    from dataclasses import replace

    from hela_desktop.cli.chat import print_event
    from hela_desktop.events import DoneEvent

    recalls = {1: {"episode_id": 1, "text": WEDDING},
               9: {"episode_id": 9, "text": "Actually the wedding moved to September."}}
    ev = DoneEvent(conversation_id=1, message_id=2, episode_id=3, tokens=4, swaps=0,
                   prefill_tokens=0, tokens_per_s=1.0, elapsed_s=1.0,
                   timeline=[(0, 4, [9, 1])], drew_on=[9, 1])
    print_event(ev, recalls)
    out = capsys.readouterr().out
    assert out.endswith("  used from your memories:\n"
                        "    #9 “Actually the wedding moved to September.”\n"
                        f"    #1 “{WEDDING}”\n")
    # the one it used first, on its own line, then the other under its own head
    print_event(replace(ev, drew_on=[1]), recalls)
    assert capsys.readouterr().out.endswith(
        f"  used from your memories: #1 “{WEDDING}”\n"
        "  also recalled: #9 “Actually the wedding moved to September.”\n")
