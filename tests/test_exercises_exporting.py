"""The checker of lesson 13: right answers pass, stubs say "not yet", typical mistakes get their hint, nothing crashes."""

import pytest

from bpelab.exercises.exporting import check_byte_level_text


def report(capsys):
    return capsys.readouterr().out


def good(token):
    printable = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1), *range(ord("®"), ord("ÿ") + 1)]
    table = {b: chr(b) for b in printable}
    n = 0
    for b in range(256):
        if b not in table:
            table[b] = chr(256 + n)
            n += 1
    return "".join(table[b] for b in token)


def test_a_right_answer_passes(capsys):
    assert check_byte_level_text(good).passed
    assert report(capsys).startswith("✅ byte_level_text: all 12 checks passed")


def test_the_right_answer_is_what_hugging_faces_byte_level_step_writes():
    """An independent implementation: the ByteLevel pre-tokenizer of the `tokenizers` library, on text."""
    from tokenizers.pre_tokenizers import ByteLevel

    step = ByteLevel(add_prefix_space=False, use_regex=False)
    for text in [" the", "中文 x\n", "café 😀\r\n", "".join(chr(c) for c in range(1, 0x250))]:
        assert good(text.encode()) == "".join(piece for piece, _ in step.pre_tokenize_str(text))
    assert set(ByteLevel.alphabet()) == {good(bytes([b])) for b in range(256)}


def test_a_stub_is_not_yet(capsys):
    def byte_level_text(token):
        # your code here
        ...

    result = check_byte_level_text(byte_level_text)
    assert result.status == "not yet" and not result.passed


@pytest.mark.parametrize(
    ("wrong", "hint"),
    [
        (lambda token: token.decode("latin-1"), "decoding as Latin-1"),
        (lambda token: token.decode("utf-8", errors="replace"), "do not decode the UTF-8"),
        (
            lambda token: "".join(
                chr(b) if 33 <= b <= 126 or (161 <= b <= 255 and b != 173) else chr(256 + b) for b in token
            ),
            "not chr(256 + byte)",
        ),
        (lambda token: [good(bytes([b])) for b in token], "return one string"),
    ],
    ids=["latin-1", "utf-8", "by byte value", "a list"],
)
def test_typical_mistakes_get_their_hint(capsys, wrong, hint):
    result = check_byte_level_text(wrong)
    assert not result.passed
    assert hint in report(capsys)


def test_the_soft_hyphen_mistake_is_named(capsys):
    def soft_hyphen_printable(token):
        printable = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("ÿ") + 1)]
        table = {b: chr(b) for b in printable}
        others = [b for b in range(256) if b not in table]
        table.update({b: chr(256 + n) for n, b in enumerate(others)})
        return "".join(table[b] for b in token)

    assert not check_byte_level_text(soft_hyphen_printable).passed
    assert "0xAD (soft hyphen) does not print" in report(capsys)


@pytest.mark.parametrize(
    "odd",
    [None, 42, lambda: "x", lambda token: 1 / 0, lambda token: None, lambda token: token, lambda token: b"x"],
    ids=["None", "int", "no parameter", "raises", "returns None", "returns bytes", "wrong bytes"],
)
def test_odd_answers_never_crash(capsys, odd):
    result = check_byte_level_text(odd)
    assert not result.passed and result.status in ("failed", "not yet")
    assert report(capsys).strip()


def test_the_solution_shows_how_the_table_is_built(capsys):
    """Not only a call to byte_to_char(): the printable ranges and the n-th stand-in from U+0100."""
    from bpelab.exercises.solutions import show_solution

    show_solution("byte_level_text")
    shown = capsys.readouterr().out
    assert "def byte_to_char" in shown and "chr(256 + n)" in shown and "def byte_level_text" in shown


def test_answers_built_on_the_course_table_are_refused(capsys):
    from bpelab import hugging_face

    for handed in (
        lambda token: "".join(map(hugging_face.byte_to_char().__getitem__, token)),
        hugging_face.byte_to_char,
    ):
        result = check_byte_level_text(handed)
        assert not result.passed
        assert "that is the course's function" in report(capsys)


def test_a_comprehension_over_the_course_table_is_refused(capsys):
    from bpelab import hugging_face
    from bpelab.hugging_face import gpt2_byte_table

    for handed in (
        lambda t: "".join(hugging_face.byte_to_char()[b] for b in t),
        lambda t: "".join({v: k for k, v in gpt2_byte_table().items()}[b] for b in t),
    ):
        result = check_byte_level_text(handed)
        assert not result.passed
        assert "that is the course's function" in report(capsys)
