"""Fresh read 8 of lessons 05 and 07: split_pieces run on slices of the text passed all 20 checks (each text was at most
47 characters long); it cuts a word longer than a slice in two."""

from __future__ import annotations

import regex

from bpelab.exercises.real_tokenizers import check_split_pieces


def sliced(text, pattern):
    return [p for i in range(0, len(text), 64) for p in regex.findall(pattern, text[i : i + 64])]


def test_a_split_run_on_slices_of_64_characters_is_rejected_and_named(capsys) -> None:
    result = check_split_pieces(sliced, record=False)
    out = capsys.readouterr().out
    assert not result.passed, out
    assert "slices" in out and "regex.findall(pattern, text)" in out, out


def test_the_lessons_split_still_passes(capsys) -> None:
    assert check_split_pieces(lambda text, pattern: regex.findall(pattern, text), record=False).passed
