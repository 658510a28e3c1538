"""Read 20 (lessons 09 and 10): the rounding hint fired whenever a wrong answer happened to be whole. An answer that
equals the exact value on another case whose exact value has more decimals was not rounded to fewer places."""

from __future__ import annotations

from bpelab.exercises.multilingual_tax import check_bytes_per_char
from bpelab.exercises.number_answers import rounded_places


def ratio(texts: list[str]) -> float:
    """A learner's own bytes_per_char (the course's own is refused as not the learner's)."""
    chars = sum(len(t) for t in texts)
    return sum(len(t.encode("utf-8")) for t in texts) / chars if chars else 0.0


def test_an_answer_exact_elsewhere_was_not_rounded() -> None:
    # 2.0 is 1.8 rounded to 0 places, but the answer 1.25 on another case (exact 1.25) was not rounded to 0 places
    assert rounded_places(2.0, 1.8, [(1.25, 1.25)]) is None
    # a true rounding to 0 places explains every case
    assert rounded_places(2.0, 1.8, [(1.0, 1.25), (3.0, 3.0)]) == 0


def test_collapsed_double_spaces_are_not_called_rounding(capsys) -> None:
    def collapsing(texts: list[str]) -> float:
        return ratio([t.replace("  ", " ") for t in texts])

    assert not check_bytes_per_char(collapsing, record=False).passed
    out = capsys.readouterr().out
    assert "decimal place" not in out, out


def test_a_rounded_answer_still_gets_the_rounding_hint(capsys) -> None:
    assert not check_bytes_per_char(lambda texts: round(ratio(texts), 1), record=False).passed
    out = capsys.readouterr().out
    assert "rounded too far" in out, out
