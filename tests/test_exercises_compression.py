"""Lesson 08's checkers: right answers pass, stubs say "not yet", typical mistakes get their hint."""

import pytest

from bpelab import BPETokenizer
from bpelab.exercises.compression import (
    check_bytes_per_token,
    check_count_unused,
    check_smallest_vocab_size,
)


def report(capsys):
    return capsys.readouterr().out


# ---- bytes per token --------------------------------------------------------------------------


def good_bytes_per_token(tokenizer, text):
    return len(text.encode("utf-8")) / len(tokenizer.encode(text))


def test_bytes_per_token_right_answer_passes(capsys):
    assert check_bytes_per_token(good_bytes_per_token).passed
    assert report(capsys).startswith("✅ bytes_per_token: all")


def test_bytes_per_token_stub_is_not_yet(capsys):
    def bytes_per_token(tokenizer, text):
        # your code here
        ...

    result = check_bytes_per_token(bytes_per_token)
    assert result.status == "not yet"
    assert "not yet" in report(capsys)


@pytest.mark.parametrize(
    "wrong, hint",
    [
        (lambda tok, text: len(tok.encode(text)) / len(text.encode("utf-8")), "upside down"),
        (lambda tok, text: len(text) / len(tok.encode(text)), "len(text) counts characters"),
        (lambda tok, text: len(text.encode("utf-8")) / len(set(tok.encode(text))), "DIFFERENT tokens"),
        (lambda tok, text: len(text.encode("utf-8")) // len(tok.encode(text)), "//"),
        (lambda tok, text: round(len(text.encode("utf-8")) / len(tok.encode(text)), 2), "rounded"),
    ],
)
def test_bytes_per_token_mistakes_get_their_hint(capsys, wrong, hint):
    assert not check_bytes_per_token(wrong).passed
    assert hint in report(capsys)


# ---- unused tokens ----------------------------------------------------------------------------


def good_count_unused(tokenizer, text):
    used = set(tokenizer.encode(text))
    return sum(1 for i in tokenizer.vocab if i not in used)


def test_count_unused_right_answer_passes(capsys):
    assert check_count_unused(good_count_unused).passed
    assert report(capsys).startswith("✅ count_unused: all")


def _with_parts(tokenizer, text):
    parents = {new: pair for pair, new in tokenizer.merges.items()}
    used = set()
    stack = list(tokenizer.encode(text))
    while stack:
        i = stack.pop()
        used.add(i)
        stack.extend(parents.get(i, ()))
    return len(tokenizer.vocab) - len(used)


@pytest.mark.parametrize(
    "wrong, hint",
    [
        (lambda tok, text: len(set(tok.encode(text))), "number of tokens USED"),
        (lambda tok, text: len(tok.vocab) - len(tok.encode(text)), "still one used token"),
        (lambda tok, text: len(tok.merges) - len({i for i in tok.encode(text) if i >= 256}), "256 byte tokens"),
        (_with_parts, "only if encode emits it"),
    ],
)
def test_count_unused_mistakes_get_their_hint(capsys, wrong, hint):
    assert not check_count_unused(wrong).passed
    assert hint in report(capsys)


# ---- choosing a vocabulary size ---------------------------------------------------------------


@pytest.fixture(scope="module")
def trained(english_sample):
    text = english_sample[:6_000]
    return BPETokenizer().train(text, 500, pattern="cl100k"), text


def smallest_by_scan(tok, text, goal):
    """An independent answer: try every size from the bottom."""
    n_bytes = len(text.encode("utf-8"))
    for size in range(256, 256 + len(tok.merges) + 1):
        if n_bytes / len(tok.truncated(size).encode(text)) >= goal:
            return size
    return None


def test_smallest_size_passes_and_one_more_does_not(capsys, trained):
    import tiktoken

    tok, text = trained
    n_bytes = len(text.encode("utf-8"))
    gpt2 = n_bytes / len(tiktoken.get_encoding("r50k_base").encode_ordinary(text))
    best = n_bytes / len(tok.encode(text))
    within = round(1 - 0.9 * best / gpt2, 2)  # a goal this tokenizer reaches well before its last merge
    answer = smallest_by_scan(tok, text, gpt2 * (1 - within))
    assert answer is not None and answer > 256

    result = check_smallest_vocab_size(answer, tok, text, production="r50k_base", within=within)
    out = report(capsys)
    assert result.passed, out
    assert out.startswith(f"✅ smallest_vocab_size: {answer:,} is the smallest") and "one less" in out

    result = check_smallest_vocab_size(answer + 1, tok, text, production="r50k_base", within=within)
    out = report(capsys)
    assert not result.passed and "not the smallest" in out and f"{answer:,} tokens reach the goal too" in out

    result = check_smallest_vocab_size(answer - 1, tok, text, production="r50k_base", within=within)
    out = report(capsys)
    assert not result.passed and f"not yet within {within:.0%}" in out and "try a larger size" in out


def test_unreachable_goal_is_explained(capsys, trained):
    tok, text = trained
    result = check_smallest_vocab_size(400, tok, text, production="o200k_base", within=0.01)
    out = report(capsys)
    assert not result.passed and "no size of this tokenizer" in out and "largest" in out


@pytest.mark.parametrize(
    "answer, phrase, status",
    [
        (..., "not yet", "not yet"),
        (None, "not yet", "not yet"),
        ("1000", "whole number", "failed"),
        (True, "whole number", "failed"),
        (100, "out of reach", "failed"),
        (501, "out of reach", "failed"),
    ],
)
def test_bad_answers_get_messages_not_errors(capsys, trained, answer, phrase, status):
    tok, text = trained
    result = check_smallest_vocab_size(answer, tok, text)
    assert result.status == status and not result.passed
    assert phrase in report(capsys)


def test_whole_floats_are_accepted(capsys, trained):
    tok, text = trained
    check_smallest_vocab_size(300.0, tok, text, production="r50k_base")
    assert "300 tokens" in report(capsys)


def test_bad_settings_never_raise(capsys, trained):
    tok, text = trained
    assert check_smallest_vocab_size(300, tok, text, production="gpt5").status == "failed"
    assert "unknown production tokenizer" in report(capsys)
    assert check_smallest_vocab_size(300, tok, text, within=10).status == "failed"
    assert "fraction" in report(capsys)
    assert check_smallest_vocab_size(300, tok, "").status == "checker error"
    assert "non-empty text" in report(capsys)


# ---- an answer counted in merges instead of tokens --------------------------------------------


@pytest.fixture(scope="module")
def bigger(english_sample):
    """A tokenizer with more than 512 merges, so that a number of merges can itself look like a size."""
    return BPETokenizer().train(english_sample, 1_200, pattern="cl100k"), english_sample[:8_000]


def goal_near(tok, text, size):
    """A `within` against GPT-2 whose goal is this tokenizer's bytes per token at `size`, and the
    smallest size that reaches it (found by scanning, independently of the checker)."""
    import tiktoken

    n_bytes = len(text.encode("utf-8"))
    gpt2 = n_bytes / len(tiktoken.get_encoding("r50k_base").encode_ordinary(text))
    ours = n_bytes / len(tok.truncated(size).encode(text))
    within = 1 - ours / gpt2
    return within, smallest_by_scan(tok, text, gpt2 * (1 - within))


@pytest.mark.parametrize("size", [900, 400])  # 644 merges is a size too; 144 merges is below 256
def test_an_answer_in_merges_is_recognised(capsys, bigger, size):
    tok, text = bigger
    within, answer = goal_near(tok, text, size)
    assert answer is not None and answer > 300

    result = check_smallest_vocab_size(answer - 256, tok, text, production="r50k_base", within=within)
    out = report(capsys)
    assert not result.passed and result.status == "failed"
    assert f"{answer - 256:,} is a number of merges" in out and f"{answer:,} tokens" in out
    assert "256 byte tokens" in out


def test_256_added_twice_is_recognised(capsys, bigger):
    tok, text = bigger
    within, answer = goal_near(tok, text, 600)
    assert answer is not None and answer + 256 <= tok.vocab_size

    result = check_smallest_vocab_size(answer + 256, tok, text, production="r50k_base", within=within)
    out = report(capsys)
    assert not result.passed and result.status == "failed"
    assert f"256 more than {answer:,}" in out


def test_the_right_answer_still_passes_with_the_merge_hint_in_place(capsys, bigger):
    tok, text = bigger
    within, answer = goal_near(tok, text, 900)
    assert check_smallest_vocab_size(answer, tok, text, production="r50k_base", within=within).passed
    assert "number of merges" not in report(capsys)


# ---- review of lessons 02 and 08: leaks and a rejected right answer ----------------------------


def test_bytes_per_token_stripping_the_text_is_rejected_and_named(capsys):
    def bytes_per_token(tokenizer, text):
        return len(text.encode()) / len(tokenizer.encode(text.strip()))

    assert not check_bytes_per_token(bytes_per_token, record=False).passed
    assert "you encoded text.strip()" in report(capsys)


def test_count_unused_that_deletes_from_the_tokenizer_is_rejected(capsys):
    """BPETokenizer has no __eq__: the engine compares its public attributes before and after the call."""

    def count_unused(tokenizer, text):
        vocab = tokenizer.vocab
        for i in set(tokenizer.encode(text)):
            del vocab[i]
        return len(vocab)

    assert not check_count_unused(count_unused, record=False).passed
    out = report(capsys)
    assert "(right)" in out and "changed its input: tokenizer is now" in out


def binary_search(compare=lambda measured, goal: measured >= goal, measure=None, result=int):
    """The lesson's binary search, with one thing changed as a learner might change it."""
    from bpelab.analysis.compression import bytes_per_token

    measure = measure or bytes_per_token

    def my_smallest_vocab_size(tokenizer, text, goal):
        low, high = 256, 256 + len(tokenizer.merges)
        while low < high:
            middle = (low + high) // 2
            if compare(measure(tokenizer.truncated(middle), text), goal):
                high = middle
            else:
                low = middle + 1
        return result(high)

    return my_smallest_vocab_size


@pytest.mark.parametrize(
    "wrong, hint",
    [
        (binary_search(compare=lambda m, g: round(m, 2) >= round(g, 2)), "by less than 0.005 bytes per token"),
        (binary_search(compare=lambda m, g: m >= g - 0.005), "by less than 0.005 bytes per token"),
        (binary_search(measure=lambda tok, text: len(text) / len(tok.encode(text))), "characters per token"),
    ],
)
def test_searches_that_round_or_measure_characters_are_rejected_and_named(capsys, wrong, hint):
    from bpelab.exercises.compression import _paragraph
    from bpelab.exercises.samples import PARAGRAPH

    assert not check_smallest_vocab_size(wrong, _paragraph(), PARAGRAPH, within=0.6, record=False).passed
    out = report(capsys)
    assert hint in out and "not the smallest" not in out


def test_a_search_returning_a_numpy_integer_passes(capsys):
    import numpy as np

    from bpelab.exercises.compression import _paragraph
    from bpelab.exercises.samples import PARAGRAPH

    search = binary_search(result=np.int64)
    assert check_smallest_vocab_size(search, _paragraph(), PARAGRAPH, within=0.6, record=False).passed
    assert check_smallest_vocab_size(np.int64(295), _paragraph(), PARAGRAPH, within=0.6, record=False).passed


@pytest.fixture(scope="module")
def lesson_08():
    """The tokenizer of lesson 08 (7,009 tokens, trained on the lesson's text) and the held-out text."""
    import bpelab

    text = bpelab.read_corpus("english_train") + "\n" + bpelab.read_corpus("english_more")
    with pytest.warns(UserWarning, match="stopped"):
        tokenizer = BPETokenizer().train(text, 10_000, pattern="cl100k")
    return tokenizer, bpelab.read_corpus("english_heldout")


def test_the_lessons_shown_search_passes_on_the_lessons_tokenizer(capsys, lesson_08):
    """The solution lesson 08 shows runs millions of lines inside bpelab's encode: they are not the learner's."""
    from bpelab.analysis.compression import bytes_per_token
    from tests.mutation.shown import solution_blocks

    (source,) = [code for code in solution_blocks("08_compression_curves.ipynb").values() if "def my_smallest" in code]
    namespace = {"bytes_per_token": bytes_per_token}
    exec(compile(source, "<lesson 08, shown solution>", "exec"), namespace)
    tokenizer, held_out = lesson_08
    assert tokenizer.vocab_size > 7_000
    result = check_smallest_vocab_size(
        namespace["my_smallest_vocab_size"], tokenizer, held_out, production="cl100k_base", within=0.10, record=False
    )
    out = report(capsys)
    assert result.passed, out
    # independent: the size it names reaches GPT-4's goal and one fewer does not (tiktoken counts GPT-4's tokens)
    import tiktoken

    size = int(out.split("✅ smallest_vocab_size: ")[1].split(" ")[0].replace(",", ""))
    goal = 0.9 * len(held_out.encode("utf-8")) / len(tiktoken.get_encoding("cl100k_base").encode_ordinary(held_out))
    n_bytes = len(held_out.encode("utf-8"))
    assert n_bytes / len(tokenizer.truncated(size).encode(held_out)) >= goal
    assert n_bytes / len(tokenizer.truncated(size - 1).encode(held_out)) < goal


@pytest.mark.slow
def test_a_search_that_tries_every_size_is_told_to_halve_the_range(capsys, lesson_08):
    def my_smallest_vocab_size(tokenizer, text, goal):
        size = 256
        while len(text.encode("utf-8")) / len(tokenizer.truncated(size).encode(text)) < goal:
            size += 1
        return size

    tokenizer, held_out = lesson_08
    result = check_smallest_vocab_size(my_smallest_vocab_size, tokenizer, held_out, record=False)
    out = report(capsys)
    assert not result.passed
    assert "did not finish" in out and "Halve the range" in out


@pytest.mark.parametrize(
    ("encoded", "named"),
    [(lambda text: text.strip(), "text.strip()"), (lambda text: "".join(text.splitlines()), "line by line")],
    ids=["strip", "line by line"],
)
def test_count_unused_on_a_changed_text_is_rejected_and_named(capsys, encoded, named):
    def count_unused(tokenizer, text):
        return len(tokenizer.vocab) - len(set(tokenizer.encode(encoded(text))))

    assert not check_count_unused(count_unused, record=False)
    assert named in capsys.readouterr().out
