"""The generated inputs of the mutation test reach the wrong answers a reviewer found accepted in lessons 02 and 08:
the differential run must tell each from the reference, or a mutant making the same mistake would pass as
equivalent."""

from __future__ import annotations

import pytest
import regex

from tests.mutation.harness import first_difference


def _split_with(pattern: str):  # type: ignore[no-untyped-def]
    return lambda text: regex.findall(pattern, text)


def _spelled(words: list[str]) -> dict[tuple[str, ...], int]:
    counts: dict[tuple[str, ...], int] = {}
    for word in words:
        if word:
            counts[(*word, "</w>")] = counts.get((*word, "</w>"), 0) + 1
    return counts


@pytest.mark.slow
@pytest.mark.parametrize(
    "exercise, wrong",
    [
        (  # \p{Cf}, every format character, where \w has the two joiners: the soft hyphen joins a word
            "split_words",
            _split_with(r"[\p{Alphabetic}\p{M}\p{Nd}\p{Pc}\p{Cf}]+|[^\p{Alphabetic}\p{M}\p{Nd}\p{Pc}\p{Cf}\s]+"),
        ),
        (  # _ where \w has every connector: ‿ cuts a word
            "split_words",
            _split_with(
                r"[\p{Alphabetic}\p{M}\p{Nd}_\p{Join_Control}]+|[^\p{Alphabetic}\p{M}\p{Nd}_\p{Join_Control}\s]+"
            ),
        ),
        (  # circled letters listed by hand where \w has Alphabetic: 🅐 is left out
            "split_words",
            _split_with(
                r"[\p{L}\p{Nl}\p{M}\p{Nd}\p{Pc}\p{Join_Control}Ⓐ-ⓩ]+|[^\p{L}\p{Nl}\p{M}\p{Nd}\p{Pc}\p{Join_Control}Ⓐ-ⓩ\s]+"
            ),
        ),
        (  # every circled letter listed by hand, the negative circled ones too: the squared 🄰 and 🅰 are left out
            "split_words",
            _split_with(
                r"[\p{L}\p{M}\p{Nd}\p{Nl}\p{Pc}\p{Join_Control}\u24B6-\u24E9\U0001F150-\U0001F169]+"
                r"|[^\p{L}\p{M}\p{Nd}\p{Nl}\p{Pc}\p{Join_Control}\u24B6-\u24E9\U0001F150-\U0001F169\s]+"
            ),
        ),
        (  # the zero-width space and the byte-order mark taken for whitespace
            "get_word_frequencies",
            lambda text: _spelled(regex.split(r"[\s\x1c-\x1f\u200b\ufeff]+", text)),
        ),
        (  # the vocabulary's size as 256 + merges: the special tokens are left out
            "count_unused",
            lambda tokenizer, text: 256 + len(tokenizer.merges) - len(set(tokenizer.encode(text))),
        ),
        (  # rounded to a whole number
            "bytes_per_token",
            lambda tokenizer, text: round(len(text.encode("utf-8")) / len(tokenizer.encode(text))),
        ),
    ],
)
def test_the_generated_inputs_tell_the_wrong_answer_from_the_reference(exercise, wrong):
    assert first_difference(exercise, wrong) is not None
