"""What a fourth fresh reader of lessons 00, 03, 04, 08 and 11 found: check cells run before their exercise cell,
an encoder that caps its pieces at 20 characters, a pair counter that skips the end-of-word marker, a `return` indented
inside the loop, and three sentences made exact (a top-down learner's prefix counts, which encoders chose WordPiece,
subword-nmt's tie rule)."""

from __future__ import annotations

import re

import nbformat
import pytest

from bpelab.exercises import check_count_pairs, check_merge_pair, check_training_loop
from bpelab.exercises.beyond_bpe import check_encode_wordpiece_word
from bpelab.exercises.pair_counts import CLASSIC_WORD_FREQ
from bpelab.words import count_pairs, get_word_frequencies, merge_pair, merge_symbols

UNK = "[UNK]"


def hint_of(out: str) -> str:
    return next((line for line in out.splitlines() if line.lstrip().startswith("hint:")), out)


def cell_source(lesson: str, index: int) -> str:
    return nbformat.read(f"notebooks/{lesson}", as_version=4).cells[index].source


def cell_output(lesson: str, index: int) -> str:
    cell = nbformat.read(f"notebooks/{lesson}", as_version=4).cells[index]
    return "".join(output.get("text", "") for output in cell.outputs)


# ---- finding 1: a check cell run before its exercise cell -------------------------------------------------------


CHECK_CELLS = [
    ("00_start_here.ipynb", 18, "count_characters"),
    ("04_merging_step_by_step.ipynb", 11, "my_merge_symbols"),
    ("04_merging_step_by_step.ipynb", 17, "my_merge_pair"),
    ("04_merging_step_by_step.ipynb", 23, "my_train"),
    ("11_beyond_bpe.ipynb", 15, "best_wordpiece_pair"),
    ("11_beyond_bpe.ipynb", 40, "encode_wordpiece_word"),
]


@pytest.mark.parametrize("lesson, cell, name", CHECK_CELLS)
def test_a_check_cell_run_first_says_to_run_the_exercise_cell(lesson, cell, name, capsys):
    source = cell_source(lesson, cell)
    assert f"({name})" in source, source  # the cell checks that function
    exec(source, {})  # a fresh kernel: the exercise cell has not run (a NameError here fails the test)
    out = capsys.readouterr().out
    assert f"{name} is not defined yet: run the exercise cell above (def {name} ...) first" in out, out


@pytest.mark.parametrize("lesson, cell, name", CHECK_CELLS)
def test_a_check_cell_run_after_its_exercise_cell_still_checks(lesson, cell, name, capsys):
    namespace: dict = {}
    exec(f"def {name}(*args):\n    ...\n", namespace)  # the stub as the lesson gives it
    exec(cell_source(lesson, cell), namespace)
    assert "not yet" in capsys.readouterr().out


# ---- finding 2: an encoder that never tries a piece longer than a fixed cap --------------------------------------


def capped_encoder(cap: int):
    def encode_wordpiece_word(word, vocab):
        pieces, start = [], 0
        while start < len(word):
            prefix = "##" if start > 0 else ""
            for end in range(min(len(word), start + cap), start, -1):
                if prefix + word[start:end] in vocab:
                    pieces.append(prefix + word[start:end])
                    start = end
                    break
            else:
                return [UNK]
        return pieces

    encode_wordpiece_word.__name__ = "encode_wordpiece_word"
    return encode_wordpiece_word


@pytest.mark.parametrize("cap", [20, 21, 30, 50, 64])
def test_an_encoder_with_a_cap_on_the_piece_length_is_rejected_and_told_so(cap, capsys):
    result = check_encode_wordpiece_word(capped_encoder(cap), record=False)
    out = capsys.readouterr().out
    assert not result.passed, out
    assert "a cap on the piece length" in hint_of(out), out


def test_an_encoder_without_a_cap_passes(capsys):
    assert check_encode_wordpiece_word(capped_encoder(10**6), record=False).passed, capsys.readouterr().out


def test_the_long_pieces_are_real_words_of_the_stated_lengths():
    from bpelab.exercises.beyond_bpe import ENCODE_WORD

    longest = {len(word): word for (word, _vocab) in (case.args for case in ENCODE_WORD.build_cases())}
    assert longest[22] == "counterrevolutionaries"
    assert longest[85].startswith("Taumatawhakatangihanga") and longest[85].endswith("kitanatahu")
    assert max(longest) == 100  # the lesson says the checker's longest word has exactly 100 characters


# ---- finding 4: count_pairs that skips the pairs with '</w>' ----------------------------------------------------


def skips_marker_pairs(word_freq):
    counts = {}
    for word, freq in word_freq.items():
        for i in range(len(word) - 1):
            pair = (word[i], word[i + 1])
            if "</w>" in pair:
                continue
            counts[pair] = counts.get(pair, 0) + freq
    return counts


def stops_one_early(word_freq):
    counts = {}
    for word, freq in word_freq.items():
        for i in range(len(word) - 2):
            counts[(word[i], word[i + 1])] = counts.get((word[i], word[i + 1]), 0) + freq
    return counts


def test_count_pairs_that_skips_the_marker_is_told_so(capsys):
    assert skips_marker_pairs(CLASSIC_WORD_FREQ) == stops_one_early(CLASSIC_WORD_FREQ)  # the same on plain words
    assert not check_count_pairs(skips_marker_pairs, record=False).passed
    hint = hint_of(capsys.readouterr().out)
    assert "'</w>'" in hint and "one pair early" not in hint, hint


def skips_symbols_ending_in_the_marker(word_freq):
    """The marker tested inside the symbol: on words that end in '</w>' (all of them here), stopping one pair early."""
    counts = {}
    for word, freq in word_freq.items():
        for pair in zip(word, word[1:]):
            if not pair[1].endswith("</w>"):
                counts[pair] = counts.get(pair, 0) + freq
    return counts


@pytest.mark.parametrize("wrong", [stops_one_early, skips_symbols_ending_in_the_marker], ids=lambda f: f.__name__)
def test_count_pairs_that_drops_each_word_s_last_pair_is_told_both_ways(wrong, capsys):
    assert not check_count_pairs(wrong, record=False).passed
    hint = hint_of(capsys.readouterr().out)
    assert "stops one pair early" in hint and "ends in '</w>'" in hint, hint


# ---- finding 5: `return` indented inside the loop ----------------------------------------------------------------


def merge_pair_returning_inside(word_freq, pair):
    new = {}
    for word, freq in word_freq.items():
        new[merge_symbols(word, pair)] = freq
        return new


def train_returning_inside(text, num_merges):
    word_freq = get_word_frequencies(text)
    merges = []
    for _ in range(num_merges):
        counts = count_pairs(word_freq)
        if not counts:
            break
        pair = max(counts, key=counts.get)
        merges.append((pair, pair[0] + pair[1]))
        word_freq = merge_pair(word_freq, pair)
        return merges


def train_returning_inside_and_after(text, num_merges):
    return train_returning_inside(text, num_merges) or []


@pytest.mark.parametrize(
    "check, wrong",
    [
        (check_merge_pair, merge_pair_returning_inside),
        (check_training_loop, train_returning_inside),
        (check_training_loop, train_returning_inside_and_after),
    ],
    ids=["merge_pair", "train", "train, a return after the loop too"],
)
def test_a_return_inside_the_loop_is_named(check, wrong, capsys):
    assert not check(wrong, record=False).passed
    hint = hint_of(capsys.readouterr().out)
    assert "is your `return` indented inside the loop" in hint, hint


# ---- findings 3, 6, 7, 8: the prose ---------------------------------------------------------------------------------


def test_lesson_00_says_the_slow_call_is_reported_as_slow_or_endless(capsys):
    import time

    from bpelab.exercises import runaway
    from bpelab.exercises.warmup import check_count_characters

    def sleeps(text):
        time.sleep(runaway.MAX_SECONDS + 0.5)
        return {}

    assert not check_count_characters(sleeps, record=False).passed
    assert "an endless loop, or a method far slower than needed" in capsys.readouterr().out
    prose = " ".join(cell_source("00_start_here.ipynb", 16).split())
    assert "an endless loop or a method far slower than needed" in prose, prose


def test_lesson_11_says_every_substring_is_taken_off_its_prefixes():
    prose = " ".join(cell_source("11_beyond_bpe.ipynb", 4).split())
    assert "takes each one's count off its shorter prefixes" not in prose
    assert "kept or not" in prose and "lines 319–334" in prose


def test_lesson_11_names_the_encoders_with_sources():
    prose = " ".join(cell_source("11_beyond_bpe.ipynb", 78).split())
    assert "the encoder models that copied its recipe" not in prose
    for source in ["arXiv:1907.11692", "google-research/electra", "google-research/albert"]:
        assert source in prose, source


def test_lesson_03_computes_subword_nmt_s_tie_rule():
    classic = count_pairs(CLASSIC_WORD_FREQ)
    largest = max(classic, key=lambda x: (classic[x], x))  # learn_bpe.py's expression, on this lesson's counts
    assert largest == ("o", "w")
    assert "learn_bpe.py" in cell_source("03_counting_pairs.ipynb", 18)
    assert re.search(r"largest pair.*\('o', 'w'\)", cell_output("03_counting_pairs.ipynb", 20)), cell_output(
        "03_counting_pairs.ipynb", 20
    )  # cell 19 prints the code-point order (read 19)
    assert re.search(r"largest pair.*\('s', 't'\)", cell_output("03_counting_pairs.ipynb", 22))
