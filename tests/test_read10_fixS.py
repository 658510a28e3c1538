"""Lessons 09, 10 and 13's tenth fresh read (fixS): wrong answers their checkers accepted, hints that named another
bug, and a cell that failed when run out of order."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import nbformat

from bpelab.exercises.exporting import check_byte_level_text

NOTEBOOKS = Path(__file__).parent.parent / "notebooks"


def _hint(out: str) -> str:
    """The report's ``hint:`` line (a check prints one when it can name the mistake)."""
    return next(line for line in out.splitlines() if line.strip().startswith("hint:"))


def _shown_solution(lesson: str, cell_id: str, name: str) -> Any:
    """The function that the "Show a solution" cell ``cell_id`` of ``lesson`` defines as ``name``."""
    notebook = next(NOTEBOOKS.glob(f"{lesson}_*.ipynb"))
    cell = next(c for c in nbformat.read(notebook, as_version=4).cells if c.id == cell_id)
    code = cell.source.split("```python\n")[1].split("```")[0]
    namespace: dict = {}
    exec(code, namespace)
    return namespace[name]


# ---- lesson 13, byte_level_text ------------------------------------------------------------------


def _table() -> dict[int, str]:
    printable = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1), *range(ord("®"), ord("ÿ") + 1)]
    table = {b: chr(b) for b in printable}
    others = [b for b in range(256) if b not in table]
    return table | {b: chr(256 + n) for n, b in enumerate(others)}


def _chars_keyed_by_byte(token: bytes) -> str:
    """The reviewer's answer: the characters collected in a dict keyed by byte, so a repeated byte is kept once."""
    table = _table()
    chars = {b: table[b] for b in token}
    return "".join(chars.values())


def _from_keys(token: bytes) -> str:
    table = _table()
    return "".join(table[b] for b in dict.fromkeys(token))


def test_a_byte_that_comes_again_is_written_again(capsys) -> None:
    assert _chars_keyed_by_byte(b"hello") == "helo" and _chars_keyed_by_byte(b"  ") == "Ġ"  # by hand
    for answer in (_chars_keyed_by_byte, _from_keys):
        assert not check_byte_level_text(answer, record=False).passed
        hint = _hint(capsys.readouterr().out)
        assert "comes again" in hint and "repeats included" in hint, hint


def test_the_lesson_s_byte_level_text_passes() -> None:
    assert check_byte_level_text(_shown_solution("13", "b75abb36", "byte_level_text"), record=False).passed


# ---- lesson 10, room_for_answer ------------------------------------------------------------------


def _room(system_count, user_count):
    def room_for_answer(system, user, context_window, count_tokens):
        return max(0, context_window - system_count(system, count_tokens) - user_count(user, count_tokens))

    return room_for_answer


def _whole(text, count):
    return count(text)


def _blank_user_free(text, count):
    return 0 if not text.strip() else count(text)


def _new_lines_stripped(text, count):
    return count(text.strip("\n"))


def _end_new_lines_stripped(text, count):
    return count(text.rstrip("\n"))


def _changed(change):
    return lambda text, count: count(change(text))


def test_a_user_message_of_only_spaces_is_counted(capsys) -> None:
    from bpelab.exercises.practice import check_room_for_answer
    from bpelab.exercises.toy_encoders import count_o200k_tokens

    answer = _room(_whole, _blank_user_free)
    assert answer("Be brief.", "   ", 50, count_o200k_tokens) == 47  # the reviewer's figure; 46 is right
    assert not check_room_for_answer(answer, record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert "user message of only spaces" in hint and "if user.strip()" in hint, hint


def test_new_lines_at_the_ends_of_the_system_prompt_are_counted(capsys) -> None:
    from bpelab.exercises.practice import check_room_for_answer
    from bpelab.exercises.toy_encoders import count_o200k_tokens

    for system_count in (_new_lines_stripped, _end_new_lines_stripped):
        answer = _room(system_count, _whole)
        assert answer("Rules:\n- be brief\n", "Hi", 50, count_o200k_tokens) == 44  # the reviewer's figure; 43 is right
        assert not check_room_for_answer(answer, record=False).passed
        hint = _hint(capsys.readouterr().out)
        assert "new lines at the ends of the system prompt" in hint and "strip('\\n')" in hint, hint


def test_text_changed_before_counting_is_rejected_and_the_change_named(capsys) -> None:
    import unicodedata

    from bpelab.exercises.practice import check_room_for_answer

    changes = {
        ".lower()": str.lower,
        "normalize('NFKC'": lambda t: unicodedata.normalize("NFKC", t),
        ".replace('\\n\\n', '\\n')": lambda t: t.replace("\n\n", "\n"),
        "tabs into spaces": str.expandtabs,
        "tabs into spaces (": lambda t: t.replace("\t", " "),
    }
    for name, change in changes.items():
        for answer in (
            _room(_changed(change), _whole),
            _room(_whole, _changed(change)),
            _room(_changed(change), _changed(change)),
        ):
            assert not check_room_for_answer(answer, record=False).passed, name
            hint = _hint(capsys.readouterr().out)
            assert name in hint and "as it is sent" in hint, (name, hint)


def test_the_lesson_s_room_for_answer_passes() -> None:
    from bpelab.exercises.practice import check_room_for_answer

    assert check_room_for_answer(_room(_whole, _whole), record=False).passed


# ---- lesson 09, bytes_per_char -------------------------------------------------------------------


def _exact_bytes_per_char(texts):
    chars = sum(len(t) for t in texts)
    return sum(len(t.encode("utf-8")) for t in texts) / chars if chars else 0.0


def test_a_near_answer_that_is_not_a_rounding_is_rejected(capsys) -> None:
    from bpelab.exercises.practice import check_bytes_per_char

    for answer in (
        lambda texts: _exact_bytes_per_char(texts) + 0.0049,
        lambda texts: _exact_bytes_per_char(texts) * 1.0004,
    ):
        assert not check_bytes_per_char(answer, record=False).passed
        hint = _hint(capsys.readouterr().out)
        assert "neither it nor it rounded" in hint, hint


def test_the_exact_ratio_and_its_roundings_pass(capsys) -> None:
    from fractions import Fraction

    from bpelab.exercises.practice import check_bytes_per_char

    assert check_bytes_per_char(_shown_solution("09", "2af417a5", "bytes_per_char"), record=False).passed
    for places in (2, 3, 6):
        assert check_bytes_per_char(lambda texts, p=places: round(_exact_bytes_per_char(texts), p), record=False).passed
    exact = lambda texts: Fraction(sum(len(t.encode()) for t in texts), max(1, sum(map(len, texts))))  # noqa: E731
    assert check_bytes_per_char(exact, record=False).passed
