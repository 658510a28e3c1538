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


def gpt2_within(tok, text, size):
    """A `within` against GPT-2 whose goal is exactly what `tok` gives at `size` (tiktoken counts GPT-2's tokens)."""
    import tiktoken

    n_bytes = len(text.encode("utf-8"))
    gpt2 = n_bytes / len(tiktoken.get_encoding("r50k_base").encode_ordinary(text))
    return 1 - (n_bytes / len(tok.truncated(size).encode(text))) / gpt2, gpt2


def test_the_lessons_search_passes_and_names_the_smallest_size(capsys, trained):
    tok, text = trained
    within, gpt2 = gpt2_within(tok, text, 420)
    answer = smallest_by_scan(tok, text, gpt2 * (1 - within))
    assert answer is not None and 256 < answer <= 420

    result = check_smallest_vocab_size(binary_search(), tok, text, production="r50k_base", within=within)
    out = report(capsys)
    assert result.passed, out
    assert out.startswith(f"✅ smallest_vocab_size: {answer:,} is the smallest") and "one less" in out
    assert "not seconds" in out


def test_the_judgment_of_a_size_says_how_close_and_whether_one_fewer_would_do(trained):
    """The last step, on the size a search returned for the learner's tokenizer (a search that passed the checks
    rarely gets here with a wrong size; the messages are still exact)."""
    from bpelab.analysis.compression import bytes_per_token
    from bpelab.exercises.compression import _judge_size

    tok, text = trained
    within, gpt2 = gpt2_within(tok, text, 420)
    answer = smallest_by_scan(tok, text, gpt2 * (1 - within))
    theirs = bytes_per_token("r50k_base", text)
    assert _judge_size(answer, tok, text, theirs, "r50k_base", within).passed
    more = _judge_size(answer + 1, tok, text, theirs, "r50k_base", within)
    assert not more.passed and "not the smallest" in more.message
    assert f"{answer:,} tokens reach the goal too" in more.message
    less = _judge_size(answer - 1, tok, text, theirs, "r50k_base", within)
    assert not less.passed and f"not yet within {within:.0%}" in less.message
    assert "out of reach" in _judge_size(100, tok, text, theirs, "r50k_base", within).message
    assert "whole number" in _judge_size("300", tok, text, theirs, "r50k_base", within).message
    assert "300 tokens" in _judge_size(300.0, tok, text, theirs, "r50k_base", within).message
    unreachable = _judge_size(400, tok, text, bytes_per_token("o200k_base", text), "o200k_base", 0.01)
    assert "no size of this tokenizer" in unreachable.message and "largest" in unreachable.message


@pytest.mark.parametrize("answer", [420, 420.0, "420", True], ids=["int", "float", "str", "bool"])
def test_a_number_instead_of_the_search_is_refused(capsys, trained, answer):
    """A number is right for one tokenizer and one text only: the search itself must be handed in."""
    tok, text = trained
    within, _ = gpt2_within(tok, text, 420)
    result = check_smallest_vocab_size(answer, tok, text, production="r50k_base", within=within, record=False)
    out = report(capsys)
    assert not result.passed and result.status == "failed"
    assert "expected your search, the function my_smallest_vocab_size" in out


@pytest.mark.parametrize("answer", [..., None])
def test_nothing_yet_is_not_yet(capsys, trained, answer):
    tok, text = trained
    assert check_smallest_vocab_size(answer, tok, text).status == "not yet"
    assert "not yet" in report(capsys)


def test_bad_settings_never_raise(capsys, trained):
    tok, text = trained
    search = binary_search()
    assert check_smallest_vocab_size(search, tok, text, production="gpt5").status == "failed"
    assert "unknown production tokenizer" in report(capsys)
    assert check_smallest_vocab_size(search, tok, text, within=10).status == "failed"
    assert "fraction" in report(capsys)
    assert check_smallest_vocab_size(search, tok, "").status == "checker error"
    assert "non-empty text" in report(capsys)


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


def binary_search(
    compare=lambda measured, goal: measured >= goal, measure=None, result=int, low=256, high_minus=0, forever=False
):
    """The lesson's binary search, with one thing changed as a learner might change it."""
    from bpelab.analysis.compression import bytes_per_token

    measure = measure or bytes_per_token
    first = low

    def my_smallest_vocab_size(tokenizer, text, goal):
        low, high = first, 256 + len(tokenizer.merges) - high_minus
        while low < high:
            middle = (low + high) // 2
            if compare(measure(tokenizer.truncated(middle), text), goal):
                high = middle
            else:
                low = middle if forever else middle + 1
        return result(high)

    return my_smallest_vocab_size


@pytest.mark.parametrize(
    "wrong, hint",
    [
        (binary_search(compare=lambda m, g: round(m, 2) >= round(g, 2)), "by less than 0.005 bytes per token"),
        (
            binary_search(compare=lambda m, g: round(m, 2) >= g),
            "you rounded the bytes per token (round(..., 2)) before",
        ),
        (
            binary_search(compare=lambda m, g: round(m, 4) >= g),
            "you rounded the bytes per token (round(..., 4)) before",
        ),
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
    assert not check_smallest_vocab_size(np.int64(295), _paragraph(), PARAGRAPH, within=0.6, record=False).passed
    assert "expected your search" in report(capsys)


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
def test_a_correct_search_passes_on_a_machine_too_slow_for_a_five_second_clock(capsys, lesson_08, monkeypatch):
    """Encoding the lesson's text made 0.45 s slower (a loaded machine): the 13 measurements of a binary search take
    over 5 s, ``runaway.MAX_SECONDS``. The search is judged by the sizes it measures, so it still passes."""
    import time

    from bpelab.exercises import runaway

    assert runaway.MAX_SECONDS == 5.0
    tokenizer, held_out = lesson_08
    encode_ordinary = BPETokenizer.encode_ordinary

    def slow(self, text):
        if len(text) > 10_000:  # the lesson's text only: the checker's own small cases run as fast as ever
            time.sleep(0.45)
        return encode_ordinary(self, text)

    monkeypatch.setattr(BPETokenizer, "encode_ordinary", slow)
    result = check_smallest_vocab_size(binary_search(), tokenizer, held_out, record=False)
    out = report(capsys)
    assert result.passed, out
    assert "measured 13 of the 6,754 sizes" in out and "not seconds" in out


@pytest.mark.slow
@pytest.mark.parametrize("downwards", [False, True], ids=["from 256 up", "from the largest down"])
def test_a_search_that_tries_every_size_is_stopped_by_what_it_measured(capsys, lesson_08, downwards):
    """One by one from either end: hundreds or thousands of measurements here (the answer lies about 190 sizes
    below the largest), stopped after MAX_MEASUREMENTS whatever the speed of the machine."""
    from bpelab.exercises.compression import MAX_MEASUREMENTS

    def up(tokenizer, text, goal):
        size = 256
        while len(text.encode("utf-8")) / len(tokenizer.truncated(size).encode(text)) < goal:
            size += 1
        return size

    def down(tokenizer, text, goal):
        size = 256 + len(tokenizer.merges)
        while size > 256 and len(text.encode("utf-8")) / len(tokenizer.truncated(size - 1).encode(text)) >= goal:
            size -= 1
        return size

    tokenizer, held_out = lesson_08
    result = check_smallest_vocab_size(down if downwards else up, tokenizer, held_out, record=False)
    out = report(capsys)
    assert not result.passed
    assert f"measured more than {MAX_MEASUREMENTS} sizes" in out and "Halve the range" in out
    assert "counts measurements, not seconds" in out


def check_search_on_paragraph(capsys, search):
    from bpelab.exercises.compression import _paragraph
    from bpelab.exercises.samples import PARAGRAPH

    result = check_smallest_vocab_size(search, _paragraph(), PARAGRAPH, within=0.6, record=False)
    return result, report(capsys)


def scan_search(step=1):
    """Sizes tried from 256 up, ``step`` at a time."""
    from bpelab.analysis.compression import bytes_per_token

    def my_smallest_vocab_size(tokenizer, text, goal):
        size = 256
        while size < 256 + len(tokenizer.merges) and bytes_per_token(tokenizer.truncated(size), text) < goal:
            size += step
        return min(size, 256 + len(tokenizer.merges))

    return my_smallest_vocab_size


def bisect_variant(on_reach, on_short, loop=lambda low, high: low < high, returned="high"):
    """A binary search with its steps written as a learner might get them wrong."""
    from bpelab.analysis.compression import bytes_per_token

    def my_smallest_vocab_size(tokenizer, text, goal):
        low, high = 256, 256 + len(tokenizer.merges)
        middle = high
        while loop(low, high):
            middle = (low + high) // 2
            if bytes_per_token(tokenizer.truncated(middle), text) >= goal:
                low, high = on_reach(low, high, middle)
            else:
                low, high = on_short(low, high, middle)
        return {"high": high, "middle": middle}[returned]

    return my_smallest_vocab_size


LESSON_ANSWER = 6_818  # what lesson 08's search finds (test_the_lessons_shown_search_passes_on_the_lessons_tokenizer)


@pytest.mark.parametrize(
    ("wrong", "hint"),
    [
        (binary_search(low=257), "never measures 256"),
        (binary_search(high_minus=1), "never tries the largest size"),
        (bisect_variant(lambda lo, hi, m: (lo, m - 1), lambda lo, hi, m: (m + 1, hi)), "not high = middle - 1"),
        (bisect_variant(lambda lo, hi, m: (m + 1, hi), lambda lo, hi, m: (lo, m)), "the two branches are swapped"),
        (
            bisect_variant(lambda lo, hi, m: (lo, m), lambda lo, hi, m: (m + 1, hi), returned="middle"),
            "you return `middle`",
        ),
        (
            bisect_variant(lambda lo, hi, m: (lo, m), lambda lo, hi, m: (m, hi), loop=lambda lo, hi: hi - lo > 1),
            "a loop that stops when low and high are one apart never measures `low`",
        ),
        (binary_search(result=lambda size: size - 256), "is a number of merges, not a vocabulary size"),
        (binary_search(result=lambda size: size + 256), "is 256 more than"),
        (lambda tokenizer, text, goal: LESSON_ANSWER, "on every check, whatever tokenizer, text and goal"),
        (
            lambda tokenizer, text, goal: LESSON_ANSWER if tokenizer and text and goal else 0,
            "on every check, whatever tokenizer, text and goal",
        ),
        (binary_search(low=0), "a size it does not have"),
        (binary_search(forever=True), "measure each size at most once"),
        (bisect_variant(lambda lo, hi, m: (lo, m), lambda lo, hi, m: (m + 2, hi)), "but so does"),
        (scan_search(step=2), "but so does"),
    ],
    ids=[
        "low starts at 257",
        "high starts one below the largest",
        "high = middle - 1",
        "branches swapped",
        "returns middle",
        "loop ends one apart",
        "merges, not tokens",
        "256 added twice",
        "ignores its arguments",
        "reads its arguments, answers one number",
        "low starts at 0",
        "low = middle (never ends)",
        "low = middle + 2",
        "scan in steps of 2",
    ],
)
def test_each_wrong_search_is_told_its_own_bug_or_only_the_facts(capsys, wrong, hint):
    """Off-by-one searches used to hear "one more than the smallest: keep high = middle", whatever they did."""
    result, out = check_search_on_paragraph(capsys, wrong)
    assert not result.passed
    assert hint in out, out
    assert "one more than the smallest" not in out


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


# ---- fresh-eyes review of lessons 02 and 08 -------------------------------------------------------------------


def by_lines(tokenizer, text):
    return [i for line in text.splitlines(keepends=True) for i in tokenizer.encode(line)]


def test_bytes_per_token_line_by_line_is_rejected_and_named(capsys):
    """cl100k keeps "\\n\\n" as one piece; a tokenizer with a merge for it uses it only on the whole text."""
    assert not check_bytes_per_token(
        lambda tok, text: len(text.encode("utf-8")) / len(by_lines(tok, text)), record=False
    )
    assert "you encoded the text line by line" in report(capsys)


def test_count_unused_line_by_line_keeping_the_line_ends_is_rejected_and_named(capsys):
    assert not check_count_unused(lambda tok, text: len(set(tok.vocab) - set(by_lines(tok, text))), record=False)
    assert "you encoded the text line by line" in report(capsys)


@pytest.mark.parametrize("digits", [2, 3, 4, 6])
def test_bytes_per_token_rounded_to_any_digits_is_named(capsys, digits):
    def rounded(tokenizer, text):
        return round(len(text.encode("utf-8")) / len(tokenizer.encode(text)), digits)

    assert not check_bytes_per_token(rounded, record=False)
    assert "right, but rounded" in report(capsys)


def test_bytes_per_token_remembered_by_text_alone_is_rejected(capsys):
    """A cache keyed by the text only: the same text with two tokenizers must give two answers."""
    cache = {}

    def bytes_per_token(tokenizer, text):
        if text not in cache:
            cache[text] = len(text.encode("utf-8")) / len(tokenizer.encode(text))
        return cache[text]

    assert not check_bytes_per_token(bytes_per_token, record=False)


def test_count_unused_on_no_text_is_tried(capsys):
    """An answer built on token_usage raises on an empty text: the checker must try one."""
    from bpelab.analysis.compression import token_usage

    def count_unused(tokenizer, text):
        usage = token_usage(tokenizer, text)
        return int((usage["count"] == 0).sum())

    assert not check_count_unused(count_unused, record=False)
    assert "''" in report(capsys)


def test_a_search_over_an_unfinished_bytes_per_token_is_not_yet(capsys):
    """Exercise 1 still the stub: say so, not a TypeError about None and a hint on the binary search."""
    from bpelab.exercises.compression import _paragraph
    from bpelab.exercises.samples import PARAGRAPH

    namespace = {}
    source = """
def bytes_per_token(tokenizer, text):
    # your code here
    ...

def my_smallest_vocab_size(tokenizer, text, goal):
    low, high = 256, 256 + len(tokenizer.merges)
    while low < high:
        middle = (low + high) // 2
        if bytes_per_token(tokenizer.truncated(middle), text) >= goal:
            high = middle
        else:
            low = middle + 1
    return high
"""
    exec(compile(source, "<lesson 08 exercise 3>", "exec"), namespace)
    result = check_smallest_vocab_size(namespace["my_smallest_vocab_size"], _paragraph(), PARAGRAPH, record=False)
    out = report(capsys)
    assert result.status == "not yet", out
    assert "bytes_per_token, which returned None" in out and "exercise 1" in out
    assert "TypeError" not in out and "low, high" not in out


def test_a_comparison_with_none_is_named_even_without_the_helper_by_name(capsys):
    from bpelab.exercises.compression import _paragraph
    from bpelab.exercises.samples import PARAGRAPH

    def measure(tokenizer, text):
        return None

    search = binary_search(measure=measure)
    assert not check_smallest_vocab_size(search, _paragraph(), PARAGRAPH, record=False)
    assert "a comparison met None" in report(capsys)


def char_loop_bytes_per_token(tokenizer, text):
    """A correct exercise 1 written as a character loop: several lines of Python per character of the text."""
    n_bytes = 0
    for ch in text:
        code = ord(ch)
        if code < 0x80:
            n_bytes += 1
        elif code < 0x800:
            n_bytes += 2
        elif code < 0x10000:
            n_bytes += 3
        else:
            n_bytes += 4
    n_tokens = 0
    for _ in tokenizer.encode(text):
        n_tokens += 1
    return n_bytes / n_tokens


def galloping(tokenizer, text, goal):
    """A correct search: doubling steps up from 256, then a binary search inside the last step (about 25
    measurements on lesson 08's tokenizer)."""
    largest = 256 + len(tokenizer.merges)

    def reaches(size):
        return char_loop_bytes_per_token(tokenizer.truncated(size), text) >= goal

    if reaches(256):
        return 256
    low, step, high = 256, 1, 257
    while high < largest and not reaches(high):
        low, step = high, step * 2
        high = min(largest, 256 + step)
    low += 1
    while low < high:
        middle = (low + high) // 2
        if reaches(middle):
            high = middle
        else:
            low = middle + 1
    return high


@pytest.mark.slow
def test_a_correct_galloping_search_over_a_character_loop_passes(capsys, lesson_08):
    """Over 2,000,000 lines of the learner's Python in all (25 measurements of a 34,000-character text, a loop over
    the characters each time): the measurement count is the guard, the line limit holds between two measurements."""
    from bpelab.exercises import runaway

    tokenizer, held_out = lesson_08
    assert 25 * 4 * len(held_out) > runaway.MAX_STEPS  # the lines the helper alone runs, at least
    result = check_smallest_vocab_size(galloping, tokenizer, held_out, record=False)
    out = report(capsys)
    assert result.passed, out


def test_an_endless_loop_that_measures_nothing_is_still_stopped_by_the_line_limit(capsys):
    from bpelab.exercises.compression import _paragraph
    from bpelab.exercises.samples import PARAGRAPH

    def my_smallest_vocab_size(tokenizer, text, goal):
        size = 256
        tokenizer.truncated(size)
        while size < 10**9:
            size = size + 0
        return size

    result = check_smallest_vocab_size(my_smallest_vocab_size, _paragraph(), PARAGRAPH, record=False)
    out = report(capsys)
    assert not result.passed and "lines of Python" in out, out


# ---- second fresh-eyes review of lesson 08 ----------------------------------------------------------------


def test_the_librarys_first_reaching_is_refused_like_the_search(capsys):
    """``first_reaching`` is the binary search inside ``smallest_vocab_size``: a def that returns it is the course's."""
    from bpelab.analysis.compression import bytes_per_token, first_reaching
    from bpelab.exercises.compression import _paragraph
    from bpelab.exercises.samples import PARAGRAPH

    def my_smallest_vocab_size(tokenizer, text, goal):
        return first_reaching(
            256, 256 + len(tokenizer.merges), lambda s: bytes_per_token(tokenizer.truncated(s), text) >= goal
        )

    def named_first(tokenizer, text, goal):
        size = first_reaching(
            256, 256 + len(tokenizer.merges), lambda s: bytes_per_token(tokenizer.truncated(s), text) >= goal
        )
        return size

    for search in (my_smallest_vocab_size, named_first):
        result = check_smallest_vocab_size(search, _paragraph(), PARAGRAPH, within=0.6, record=False)
        out = report(capsys)
        assert not result.passed and "that is the course's function" in out, out
        assert "first_reaching" in out, out


def ignoring(parameter, instead):
    """The lesson's binary search with one of its parameters replaced by a value of the lesson's (a global)."""
    from bpelab.analysis.compression import bytes_per_token

    def my_smallest_vocab_size(tokenizer, text, goal):
        given = {"tokenizer": tokenizer, "text": text, "goal": goal}
        given[parameter] = instead() if callable(instead) else instead
        tokenizer, text, goal = given["tokenizer"], given["text"], given["goal"]
        low, high = 256, 256 + len(tokenizer.merges)
        while low < high:
            middle = (low + high) // 2
            if bytes_per_token(tokenizer.truncated(middle), text) >= goal:
                high = middle
            else:
                low = middle + 1
        return high

    return my_smallest_vocab_size


@pytest.fixture(scope="module")
def held_out_and_a_tokenizer(english_sample):
    return english_sample[-3_000:], BPETokenizer().train(english_sample[:4_000], 400, pattern="cl100k")


@pytest.mark.parametrize("parameter", ["text", "goal", "tokenizer"])
def test_a_search_that_ignores_one_of_its_parameters_is_told_so(capsys, held_out_and_a_tokenizer, parameter):
    """``texts["held-out text"]`` for ``text``, ``0.9 * gpt4_held`` for ``goal``, ``english_bpe`` for ``tokenizer``:
    the loop is right; the answer does not change when the check changes that parameter."""
    held_out, other = held_out_and_a_tokenizer
    instead = {"text": held_out, "goal": 4.05, "tokenizer": other}[parameter]
    result, out = check_search_on_paragraph(capsys, ignoring(parameter, instead))
    assert not result.passed
    hint = out.split("hint:", 1)[1]
    assert f"its own `{parameter}`" in hint, out
    assert "Follow low, high and middle" not in out and "not a size of this tokenizer" not in out, out


def test_a_search_run_before_exercise_1s_cell_is_told_to_run_it(capsys):
    from bpelab.exercises.compression import _paragraph
    from bpelab.exercises.samples import PARAGRAPH

    namespace = {}
    source = """
def my_smallest_vocab_size(tokenizer, text, goal):
    low, high = 256, 256 + len(tokenizer.merges)
    while low < high:
        middle = (low + high) // 2
        if bytes_per_token(tokenizer.truncated(middle), text) >= goal:
            high = middle
        else:
            low = middle + 1
    return high
"""
    exec(compile(source, "<lesson 08 exercise 3>", "exec"), namespace)
    result = check_smallest_vocab_size(namespace["my_smallest_vocab_size"], _paragraph(), PARAGRAPH, record=False)
    out = report(capsys)
    assert not result.passed
    assert "run exercise 1's cell" in out and "low, high = 256" not in out, out


@pytest.mark.parametrize("text", ["          " * 30, "Καλημέρα σας, τι κάνετε σήμερα; " * 10])
def test_a_text_unlike_the_training_text_is_named_as_the_cause(capsys, trained, text):
    tok, _ = trained
    result = check_smallest_vocab_size(binary_search(), tok, text, production="cl100k_base", record=False)
    out = report(capsys)
    assert result.passed and "no size of this tokenizer" in out, out  # the search did its best (read 22)
    assert "unlike the text it was trained on" in out and "ran out of pairs" not in out, out


# ---- fresh review of lessons 02 and 08 (second round) ---------------------------------------------------------


def test_count_unused_that_leaves_out_the_special_tokens_is_rejected_and_named(capsys):
    """A vocabulary with a special token has 256 + merges + 1 ids (hand count: "abababab" to 259 ids with one special token gives 2 merges)."""
    with_special = BPETokenizer().train("abababab", 259, special_tokens=["<|endoftext|>"])
    assert len(with_special.vocab) == 259 and good_count_unused(with_special, "abab") == 258
    wrong = lambda tok, text: 256 + len(tok.merges) - len(set(tok.encode(text)))  # noqa: E731
    assert not check_count_unused(wrong).passed
    assert "special token" in report(capsys)


def test_bytes_per_token_rounded_to_a_whole_number_is_told_round_not_floor(capsys):
    assert not check_bytes_per_token(lambda tok, text: round(len(text.encode("utf-8")) / len(tok.encode(text)))).passed
    out = report(capsys)
    assert "round(" in out and "//" not in out, out
    assert not check_bytes_per_token(lambda tok, text: len(text.encode("utf-8")) // len(tok.encode(text))).passed
    assert "//" in report(capsys)


@pytest.mark.parametrize(("production", "within"), [("o200k_base", 0.10), ("cl100k_base", 0.0)])
def test_a_goal_above_the_full_tokenizer_is_said_with_both_numbers(capsys, trained, english_sample, production, within):
    from bpelab.analysis.compression import bytes_per_token

    tok, _ = trained
    text = english_sample[6_000:12_000]  # English like the training text, which it has not seen
    goal, full = bytes_per_token(production, text) * (1 - within), bytes_per_token(tok, text)
    assert full >= 1.1  # English: the merges apply
    result = check_smallest_vocab_size(binary_search(), tok, text, production=production, within=within, record=False)
    out = report(capsys)
    assert result.passed and goal > full, out  # the search did its best on an unreachable goal (read 22)
    assert f"the goal, {goal:.4f} bytes per token, is above the {full:.4f}" in out, out
    assert "a text unlike the text it was trained on gains less" not in out, out
    needed = float(out.split("(within=", 1)[1].split(")", 1)[0])  # the `within` the hint names puts the goal in reach
    assert check_smallest_vocab_size(binary_search(), tok, text, production=production, within=needed, record=False)


def test_a_search_calling_the_library_measure_after_a_restart_is_told_to_run_the_first_cell(capsys):
    from bpelab.exercises.compression import _paragraph
    from bpelab.exercises.samples import PARAGRAPH

    def search(tokenizer, text, goal):
        return library_bytes_per_token(tokenizer, text)  # noqa: F821  (the import a restart forgot)

    assert not check_smallest_vocab_size(search, _paragraph(), PARAGRAPH, within=0.6, record=False).passed
    assert "library_bytes_per_token is not defined (was the kernel restarted?)" in report(capsys)
