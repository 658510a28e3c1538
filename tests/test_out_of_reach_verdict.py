"""Read 22 (lesson 08, exercise 3, finding 4): on a learner's own text that no size of the tokenizer brings within
the goal (Russian, only spaces, an emoji family), a right search was reported "❌ ... your search cannot do better"
and counted as failed. A search that answers as well as it can (None, as the library does, or the largest size, as
the lesson's loop does) passes with the reason; any other size is still refused."""

from __future__ import annotations

import pytest

from bpelab import BPETokenizer
from bpelab.exercises.compression import check_smallest_vocab_size
from bpelab.exercises.samples import PARAGRAPH

RUSSIAN = "Привет, как дела? Сегодня хорошая погода, и мы идём гулять в парк." * 3


def lessons_loop(tokenizer, text, goal):
    low, high = 256, 256 + len(tokenizer.merges)
    while low < high:
        middle = (low + high) // 2
        from bpelab.analysis.compression import bytes_per_token

        if bytes_per_token(tokenizer.truncated(middle), text) >= goal:
            high = middle
        else:
            low = middle + 1
    return high


def none_when_out_of_reach(tokenizer, text, goal):
    from bpelab.analysis.compression import bytes_per_token

    largest = 256 + len(tokenizer.merges)
    if bytes_per_token(tokenizer.truncated(largest), text) < goal:
        return None
    return lessons_loop(tokenizer, text, goal)


@pytest.fixture(scope="module")
def tokenizer():
    return BPETokenizer().train(PARAGRAPH, 320, pattern="cl100k")


@pytest.mark.parametrize(
    "search", [lessons_loop, none_when_out_of_reach], ids=["the lesson's loop", "None, as the library does"]
)
@pytest.mark.parametrize("text", [RUSSIAN, " " * 200, "👩\u200d👩\u200d👧" * 40], ids=["Russian", "spaces", "emoji"])
def test_a_right_search_on_an_unreachable_goal_passes_with_the_reason(capsys, tokenizer, search, text):
    result = check_smallest_vocab_size(search, tokenizer, text, record=False)
    out = capsys.readouterr().out
    assert result.passed, out
    assert out.startswith("✅") and "no size of this tokenizer gets within" in out and "the best it can do" in out, out


def test_another_size_on_an_unreachable_goal_is_still_refused(capsys, tokenizer):
    def stops_early(tokenizer, text, goal):
        return lessons_loop(tokenizer, text, goal) if len(text) < 1000 and "П" not in text else 300

    result = check_smallest_vocab_size(stops_early, tokenizer, RUSSIAN, record=False)
    out = capsys.readouterr().out
    assert not result.passed and out.startswith("❌"), out
