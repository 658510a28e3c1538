"""Fresh read 22 of lessons 00-04 (fixBR): lesson 04's merge_symbols checker passed a merge that compares symbols
with `is` (every case's symbols were shared literals); merge_pair's and the training loop's checkers gave their
generic hint when the learner's own helper was what was wrong; count_pairs with list keys raised without a word on
it; prose in lessons 00, 01 and 04 said less (or more) than what was computed or cited."""

from __future__ import annotations

import nbformat

from bpelab.exercises import check_count_pairs, check_merge_pair, check_merge_symbols, check_training_loop
from bpelab.words import best_pair, count_pairs, get_word_frequencies
from tests.shown_solutions import shown_solution

LESSON_04 = "04"
SOLUTION_MERGE_SYMBOLS = "cell-12"
SOLUTION_MERGE_PAIR = "cell-18"
SOLUTION_TRAIN = "cell-24"


def _hint(result) -> str:
    return next((line for line in result.message.split("\n") if line.startswith("   hint:")), "")


def _identity_merge_symbols():
    """The lesson's shown solution with == written as `is`, as a learner would."""
    path = nbformat.read("notebooks/04_merging_step_by_step.ipynb", as_version=4)
    cell = next(c for c in path.cells if c.id == SOLUTION_MERGE_SYMBOLS)
    code = cell.source.split("```python\n")[1].split("```")[0]
    code = code.replace(
        "symbols[i] == first and symbols[i + 1] == second", "symbols[i] is first and symbols[i + 1] is second"
    )
    assert " is first" in code
    namespace: dict = {}
    exec(code, namespace)
    return namespace["my_merge_symbols"]


def test_identity_comparison_in_merge_symbols_is_refused_and_named() -> None:
    wrong = _identity_merge_symbols()
    lo = "".join(["l", "o"])
    assert wrong((lo, "w", "</w>"), ("lo", "w")) == ("lo", "w", "</w>")  # the bug is real
    result = check_merge_symbols(wrong, record=False)
    assert not result.passed
    assert "`is`" in _hint(result) and "==" in _hint(result)


def test_shown_merge_symbols_still_passes() -> None:
    assert check_merge_symbols(shown_solution(LESSON_04, SOLUTION_MERGE_SYMBOLS, "my_merge_symbols"), record=False)


def _merge_pair_calling(helper):
    """The lesson's shown merge_pair, calling the learner's my_merge_symbols in place of the course's."""
    namespace = {"my_merge_symbols": helper}
    exec(
        "def my_merge_pair(word_freq, pair):\n"
        "    merged = {}\n"
        "    for word, count in word_freq.items():\n"
        "        new_word = my_merge_symbols(word, pair)\n"
        "        merged[new_word] = merged.get(new_word, 0) + count\n"
        "    return merged\n",
        namespace,
    )
    return namespace["my_merge_pair"]


def _train_calling(merge_pair_fn):
    namespace = {
        "my_merge_pair": merge_pair_fn,
        "get_word_frequencies": get_word_frequencies,
        "count_pairs": count_pairs,
        "best_pair": best_pair,
    }
    exec(
        "def my_train(text, num_merges):\n"
        "    word_freq = get_word_frequencies(text)\n"
        "    merges = []\n"
        "    for _ in range(num_merges):\n"
        "        pairs = count_pairs(word_freq)\n"
        "        if not pairs:\n"
        "            break\n"
        "        pair = best_pair(pairs)\n"
        "        word_freq = my_merge_pair(word_freq, pair)\n"
        "        merges.append((pair, pair[0] + pair[1]))\n"
        "    return merges\n",
        namespace,
    )
    return namespace["my_train"]


def _list_merge_symbols(symbols, pair):
    merged, i = [], 0
    while i < len(symbols):
        if i + 1 < len(symbols) and symbols[i] == pair[0] and symbols[i + 1] == pair[1]:
            merged.append(pair[0] + pair[1])
            i += 2
        else:
            merged.append(symbols[i])
            i += 1
    return merged  # a list, not a tuple


def test_merge_pair_names_a_wrong_helper() -> None:
    for helper, named in ((_identity_merge_symbols(), "`is`"), (_list_merge_symbols, "tuple")):
        result = check_merge_pair(_merge_pair_calling(helper), record=False)
        assert not result.passed
        hint = _hint(result)
        assert "my_merge_symbols" in hint and "check_merge_symbols" in hint and named in hint, hint


def test_training_loop_names_a_wrong_helper() -> None:
    for helper, named in ((_identity_merge_symbols(), "`is`"), (_list_merge_symbols, "tuple")):
        result = check_training_loop(_train_calling(_merge_pair_calling(helper)), record=False)
        assert not result.passed
        hint = _hint(result)
        assert "my_merge_symbols" in hint and named in hint, hint


def test_right_helpers_keep_their_checks_passing() -> None:
    right = shown_solution(LESSON_04, SOLUTION_MERGE_SYMBOLS, "my_merge_symbols")
    assert check_merge_pair(_merge_pair_calling(right), record=False)
    assert check_training_loop(_train_calling(_merge_pair_calling(right)), record=False)


def test_count_pairs_with_list_keys_is_named() -> None:
    def my_count_pairs(word_freq):
        counts = {}
        for word, freq in word_freq.items():
            for i in range(len(word) - 1):
                key = [word[i], word[i + 1]]
                counts[key] = counts.get(key, 0) + freq
        return counts

    result = check_count_pairs(my_count_pairs, record=False)
    assert not result.passed
    assert "tuple, not a list" in _hint(result)


def _cell(path: str, cell_id: str) -> nbformat.NotebookNode:
    return next(c for c in nbformat.read(path, as_version=4).cells if c.id == cell_id)


def check_prose(root: str = "notebooks") -> None:
    intro = _cell(f"{root}/04_merging_step_by_step.ipynb", "cell-00").source
    assert "prevent BPE from merging across character categories" in intro and "exception for" in intro
    plot = _cell(f"{root}/04_merging_step_by_step.ipynb", "cell-49").source
    assert "n_words" not in plot.split("set_title")[1].split("\n")[0] and "real_freq.values()" in plot
    recap = _cell(f"{root}/01_text_is_numbers.ipynb", "afd83ba4").source
    assert "each script's main block" in recap
    blocks = _cell(f"{root}/01_text_is_numbers.ipynb", "letters-by-block").source
    assert "(modern Greek)" not in blocks
    emoji = _cell(f"{root}/01_text_is_numbers.ipynb", "emoji-bytes")
    assert "0%" not in "".join(str(o.get("data", {}).get("text/plain", "")) for o in emoji.outputs)
    start = _cell(f"{root}/00_start_here.ipynb", "b977601e").source
    assert "inside C code" in start and "restart the kernel" in start.lower()


def test_prose_says_what_was_cited_and_computed() -> None:
    check_prose()
