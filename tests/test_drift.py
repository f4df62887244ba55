"""An answer that drifts out of the user's language is not shown to the model again (0.12):
the bundled model, primed by "Lisbon", answered in made-up Portuguese, and every later
answer of the chat followed its own example."""

from __future__ import annotations

from hela_desktop import facts
from hela_desktop import formulas as F
from hela_desktop.events import DRIFTED_NOTE
from hela_desktop.turn import model_history
from hela_desktop.ui.window_status import answer_footer

# answers the bundled model gave in a QA pass (3 December 2026), cut short
GIBBERISH = ("Ou mão, nao. Naço mais de mesmo. Na criou a larapera de lisbon! E para este e "
             "que ela desafirai? O díziángos só tem 3 olores, já não vai ter 5.")
ENGLISH = ("Biscuit is a sweet little lady. She's 7 years old and loves to play with her "
           "toys, so I'm sure you've got some exciting ideas.")


def test_english_share_by_hand():
    # "My cat is called Biscuit": my, is of 5 words
    assert facts.english_share("My cat is called Biscuit") == (0.4, 5)
    # fenced code is not prose: "Here", "That", "is", "all" are the words; that, is, all mark
    assert facts.english_share("Here:\n```python\nfor x in y: print(x)\n```\nThat is all.") \
        == (0.75, 4)
    share, n = facts.english_share(GIBBERISH)
    assert share == 0.0 and n == 29
    assert facts.english_share("12 34 !!") == (0.0, 0)
    # the English answer, 24 words: is, and, to, with, her, i'm mark it ("she's", "so" and
    # "you've" are not on the list): 6 / 24
    assert facts.english_share(ENGLISH) == (0.25, 24)


def test_drifted_by_hand():
    assert F.drifted(0.0, 29, 0.30)
    assert F.drifted(0.04, 20, 0.15)  # under 5 %, the user at the 15 % floor
    assert not F.drifted(0.05, 20, 0.30)  # 1 word in 20 is English enough
    assert not F.drifted(0.0, 11, 0.30)  # too short to tell
    assert not F.drifted(0.0, 29, 0.14)  # the user does not write English either


def test_asks_language():
    assert facts.asks_language("How do you say good morning in Portuguese?")
    assert facts.asks_language("Translate this, please")
    assert not facts.asks_language("My sister Ana lives in Lisbon and teaches piano.")


def _chat(store, conv, pairs):
    for user, answer, stats in pairs:
        store.add_message(conv, "user", user)
        store.add_message(conv, "assistant", answer, stats=stats)


def test_history_leaves_a_drifted_exchange_out(tmp_path):
    from hela_desktop.store import Store

    store = Store(tmp_path / "m.sqlite3")
    conv = store.add_conversation("c")
    _chat(store, conv, [
        ("My cat is called Biscuit and she is 7 years old.", ENGLISH, {"tokens": 30}),
        ("My sister Ana lives in Lisbon and teaches piano.", GIBBERISH, {"drifted": True}),
        ("I drive a blue 2015 Honda Civic.", "A blue Civic: nice.", {"drifted": "yes"}),
    ])
    shown = [m["content"] for m in model_history(store.messages(conv))]
    assert GIBBERISH not in shown and "My sister Ana lives in Lisbon" not in " ".join(shown)
    assert ENGLISH in shown and "A blue Civic: nice." in shown  # only JSON true counts
    assert "I drive a blue 2015 Honda Civic." in shown
    store.close()


def test_footer_says_so():
    line = answer_footer({"tokens": 40, "swaps": 0, "drifted": True}, False)
    assert line.endswith(DRIFTED_NOTE) and line.startswith("40 tokens")
    assert DRIFTED_NOTE not in answer_footer({"tokens": 40, "swaps": 0}, False)


def test_assistant_marks_and_hides_a_drifted_answer(make_assistant):
    """The real assistant on a real store: its reading of a Portuguese answer in an English
    chat (and not in a Portuguese one, nor when a translation was asked for), and the next
    turn's prompt without the drifted exchange."""
    a = make_assistant()
    en = a.new_conversation()
    _chat(a.store, en, [("My cat is called Biscuit and she is 7 years old.", ENGLISH, None)])
    a.store.add_message(en, "user", "My sister Ana lives in Lisbon and teaches piano.")
    assert a._drifted(en, "My sister Ana lives in Lisbon and teaches piano.", GIBBERISH)
    assert not a._drifted(en, "My sister Ana lives in Lisbon and teaches piano.", ENGLISH)
    assert not a._drifted(en, "Say that in Portuguese, please.", GIBBERISH)
    pt = a.new_conversation()
    _chat(a.store, pt, [("A minha irmã Ana mora em Lisboa e dá aulas de piano.",
                         "Que bom! A Ana é professora de piano em Lisboa.", None)])
    assert not a._drifted(pt, "O meu gato chama-se Biscuit.", GIBBERISH)
    # stored as a turn would store it, the next prompt leaves it out
    a.store.add_message(en, "assistant", GIBBERISH, stats={"drifted": True})
    list(a.chat("What is my cat called?", en))
    prompt = a.llm.detokenize(a.last_turn.first_prompt).decode("utf-8", "ignore")
    assert "Biscuit and she is 7 years old" in prompt
    assert "larapera" not in prompt
    assert "teaches piano" not in prompt  # its message goes with it (no memory was made)
