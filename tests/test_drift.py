"""An answer that drifts out of the user's language is not shown to the model again (0.12):
the bundled model, primed by "Lisbon", answered in made-up Portuguese, and every later
answer of the chat followed its own example."""

from __future__ import annotations

from hela_desktop import formulas as F
from hela_desktop.events import DRIFTED_NOTE
from hela_desktop.language import asks_language, language_shares
from hela_desktop.turn import model_history
from hela_desktop.ui.window_status import answer_footer

# answers the bundled model gave in a QA pass (3 December 2026), cut short
GIBBERISH = ("Ou mão, nao. Naço mais de mesmo. Na criou a larapera de lisbon! E para este e "
             "que ela desafirai? O díziángos só tem 3 olores, já não vai ter 5.")
ENGLISH = ("Biscuit is a sweet little lady. She's 7 years old and loves to play with her "
           "toys, so I'm sure you've got some exciting ideas.")


def test_language_shares_by_hand():
    # "My cat is called Biscuit": my, is of 5 words English; none foreign
    assert language_shares("My cat is called Biscuit") == (0.4, 0.0, 5)
    # fenced code is not prose: "Here", "That", "is", "all" are the words; that, is, all mark
    assert language_shares("Here:\n```python\nfor x in y: print(x)\n```\nThat is all.") \
        == (0.75, 0.0, 4)
    # the short drifted answers of QA pass 20: de, e, para, o and "músido" (a letter English
    # does not use) are 5 foreign words of 7; "Eu não em forçá do míro Joana. I, para
    # Joana.": eu, não, em, forçá, míro, para are 6 of 10 ("do" is English too), "I" 1 of 10
    assert language_shares("Bossa de Joana. E para o músido!") == (0.0, 5 / 7, 7)
    assert language_shares("Eu não em forçá do míro Joana. I, para Joana.") \
        == (0.1, 0.6, 10)
    english, foreign, n = language_shares(GIBBERISH)
    assert english == 0.0 and n == 29 and foreign > 0.3
    assert language_shares("12 34 !!") == (0.0, 0.0, 0)
    # the English answer, 24 words: is, and, to, with, her, she's, i'm, some mark it ("so"
    # and "you've" are not on the list): 8 / 24
    assert language_shares(ENGLISH) == (8 / 24, 0.0, 24)


def test_drifted_by_hand():
    assert F.drifted(0.0, 0.44, 29, 0.30)  # foreign words
    assert F.drifted(0.0, 0.0, 14, 0.30)  # no English word in 12 or more (made-up words)
    assert F.drifted(0.04, 0.0, 20, 0.15)  # under 5 % English, the user at the 15 % floor
    assert F.drifted(0.1, 0.6, 10, 0.30)  # short, but 6 foreign words to 1 English
    assert F.drifted(0.0, 0.3, 4, 0.30)  # at both floors
    assert not F.drifted(0.0, 0.67, 3, 0.30)  # "São João, Lisbon.": too short to tell
    assert not F.drifted(0.05, 0.0, 20, 0.30)  # 1 English word in 20, nothing foreign
    assert not F.drifted(0.0, 0.0, 11, 0.30)  # short and not foreign ("Biscuit, seven.")
    assert not F.drifted(0.3, 0.3, 10, 0.30)  # as English as foreign: not drifted
    assert not F.drifted(0.38, 0.25, 8, 0.30)  # "São José (Lisbon) is the capital of …"
    assert not F.drifted(0.0, 0.44, 29, 0.14)  # the user does not write English either


def test_short_english_is_not_drifted():
    """English answers the model gave in QA passes, and the one LoCoMo dev turn (of 2,760)
    an earlier marker list misread ("What's" was not on it; docs/benchmarks.md)."""
    for text in ("Hey Joanna! Long time no see! What's up? Anything fun going on?",
                 "I drive a blue Honda Civic.", "Biscuit is a cat, named Biscuett.",
                 "São José (Lisbon) is the capital of Portugal.", "Your dentist is Dr Okafor.",
                 "Café au lait with a croissant, every morning at eight."):
        assert not F.drifted(*language_shares(text), 0.3), text


def test_asks_language():
    assert asks_language("How do you say good morning in Portuguese?")
    assert asks_language("Translate this, please")
    assert not asks_language("My sister Ana lives in Lisbon and teaches piano.")


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


# QA pass 28: "I'm Marta, a civil engineer in Rotterdam." (1 English function word in 7)
# was answered in made-up Dutch, unmarked, and the next four answers followed it
DUTCH = ("Zijn deze onderdachde zinke omstreeken, hierdie ziek naar een of het geen "
         "gespraekken in Rotterdam is. En beroos dat zou nogzetten van moort je in de stad.")


def test_made_up_dutch_after_a_short_english_message_is_drifted():
    english, foreign, n = language_shares(DUTCH)
    # zijn, deze, naar, een, het, geen, en, dat, zou, van, je, de are foreign; of, is English
    assert (english, foreign, n) == (2 / 27, 12 / 27, 27)
    user_english, user_foreign, _ = language_shares(
        "I'm Marta, a civil engineer in Rotterdam.")
    assert (user_english, user_foreign) == (1 / 7, 0.0)
    # under the 15 % floor, but some English and nothing foreign: the user writes English
    assert F.drifted(english, foreign, n, user_english, user_foreign=user_foreign)
    assert not F.drifted(english, foreign, n, user_english)  # (the foreign share unknown)
    # a user who writes Dutch is answered in Dutch
    dutch_user = language_shares("Ik woon in Rotterdam en ik ben ingenieur.")
    assert dutch_user[1] > 0
    assert not F.drifted(english, foreign, n, dutch_user[0], user_foreign=dutch_user[1])


MIXED = ("Zwilter, een gehe heeft deze onderhandelde van het Nederlandse Wetz. Ik heb zijn "
         "deze beroos ook in dem Nederlandse Wetenschappersken voor het Nedermid nemen.\n"
         "Namely, I am a professional engineer gaan dus als een zonder hebruigt.\n"
         "Zwilter, you are a civil engineer in Rotterdam, and your work is about building "
         "bridges.")
LIST = ("Here is what you need for the cake:\n"
        "Flour, sugar, eggs, butter, vanilla, baking powder, salt, milk, chocolate chips, "
        "walnuts, cinnamon, nutmeg\nMix them and bake for 30 minutes.")


def test_a_paragraph_of_foreign_words_drifts_the_answer(make_assistant):
    """QA pass 28: a first paragraph of made-up Dutch, then English (26 % foreign words in
    all, under the 30 % floor), was not marked, and the model would have seen it again."""
    a = make_assistant()
    cid = a.new_conversation()
    said = "I'm Marta, a civil engineer in Rotterdam."
    a.store.add_message(cid, "user", said)
    english, foreign, n = language_shares(MIXED)
    assert foreign < 0.3 and not F.drifted(english, foreign, n, 1 / 7, user_foreign=0.0)
    assert a._drifted(cid, said, MIXED)
    # a long line with no English function word is no drift unless its words are foreign
    assert not a._drifted(cid, said, LIST)
    assert not a._drifted(cid, said, ENGLISH)
