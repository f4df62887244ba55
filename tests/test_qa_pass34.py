"""What the thirty-fourth QA pass (and the items pass 33 left open) found, fixed."""
from __future__ import annotations

from hela_desktop.knowledge import support


def test_a_sentence_about_a_thing_vouches_only_for_an_item_that_names_it():
    """An idle pass distilled "The user moves to Thursday." from "The dentist moved to
    Thursday." (QA pass 33): the move was the dentist's, not the user's."""
    said = ["The dentist moved to Thursday.", "The kids love pizza.",
            "The new job starts in May.", "I love the sea."]
    assert support("The user moves to Thursday.", said) == 0.0
    assert support("The user's dentist moved to Thursday.", said) == 1.0
    assert support("The user loves pizza.", said) == 0.0
    assert support("The user's kids love pizza.", said) == 1.0
    # a word that only says which thing ("new") is passed over to the thing itself
    assert support("The user starts a new job in May.", said) == 1.0
    assert support("The user starts in May.", said) == 0.0
    # "the" inside a sentence about the user changes nothing
    assert support("The user loves the sea.", said) == 1.0
