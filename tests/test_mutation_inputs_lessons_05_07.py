"""The generated inputs of the mutation test reach the wrong answers a reviewer found accepted in lessons 05 and 07:
the differential run must tell each from the reference, or a mutant making the same mistake would pass as
equivalent."""

from __future__ import annotations

import pytest

from tests.mutation.harness import first_difference
from tests.test_exercises import encode_word_by_rank, encode_word_until_stable
from tests.test_exercises_real_tokenizers import in_dict_order


@pytest.mark.slow
@pytest.mark.parametrize(
    "exercise, wrong",
    [
        ("encode_word", encode_word_by_rank),  # lowest rank first: right only for merges in the order learned
        ("encode_word", encode_word_until_stable),  # the list replayed until nothing changes
        ("find_parents", in_dict_order),  # the dict's order taken for the ranks' order
    ],
)
def test_the_generated_inputs_tell_the_wrong_answer_from_the_reference(exercise, wrong):
    assert first_difference(exercise, wrong) is not None
