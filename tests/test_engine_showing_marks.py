"""A report writes a text that is not in NFC with its combining marks escaped (read 19 of lesson 15: the case
'e\\u0301' printed as 'é', like the precomposed letter its note contrasts it with), and leaves NFC text as it is."""

from bpelab.exercises.showing import short


def test_a_decomposed_accent_is_shown_escaped() -> None:
    assert short("e\u0301") == "'e\\u0301'"
    assert short("a\u0301" * 200).startswith("'" + "a\\u0301" * 5)


def test_text_in_nfc_keeps_its_marks() -> None:
    assert short("नमस्ते") == "'नमस्ते'"
    assert short("café") == "'café'"
