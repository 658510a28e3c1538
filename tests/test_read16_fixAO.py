"""Lessons 00, 02, 03 and 04, sixteenth fresh read (fixAO): wrong answers that passed, hints that named the wrong
bug, sentences that said more than their cells show, and a page that called empty what Python does not.

Each wrong answer is written as a learner would write it; the test asserts the checker refuses it and that its hint
names the real bug. Expected answers come from the lessons' shown solutions (tests/shown_solutions.py)."""

from __future__ import annotations

import importlib.util
import json
import shutil
import string
import subprocess

import nbformat
import pytest
import regex

from bpelab.exercises import check_get_word_frequencies
from bpelab.exercises.pair_merging import MERGE_PAIR, check_merge_pair
from bpelab.exercises.training_loop import TRAIN, check_training_loop
from bpelab.exercises.warmup import check_count_characters
from bpelab.exercises.word_frequencies import GET_WORD_FREQUENCIES
from bpelab.paths import REPO_ROOT
from bpelab.patterns import split_text
from bpelab.words import best_pair, count_pairs, merge_pair, merge_symbols, train_bpe
from tests.shown_solutions import lesson_path, shown_solution


def hint_of(out: str) -> str:
    """The report, its lines joined (the report wraps long hints)."""
    return " ".join(out.split())


def _cells(lesson):
    return nbformat.read(lesson_path(lesson), as_version=4).cells


def _cell(lesson, cell_id):
    return next(c for c in _cells(lesson) if c.id == cell_id)


# ---- finding 1: words without a letter are words too -------------------------------------------------------------


def skip_punctuation(text):
    counts = {}
    for word in text.split():
        if word in string.punctuation:
            continue
        symbols = tuple(word) + ("</w>",)
        counts[symbols] = counts.get(symbols, 0) + 1
    return counts


def skip_numbers(text):
    counts = {}
    for word in text.split():
        if word.isdigit():
            continue
        symbols = tuple(word) + ("</w>",)
        counts[symbols] = counts.get(symbols, 0) + 1
    return counts


def strip_leading_zeros(text):
    counts = {}
    for word in text.split():
        word = word.lstrip("0") or word
        symbols = tuple(word) + ("</w>",)
        counts[symbols] = counts.get(symbols, 0) + 1
    return counts


def test_the_shown_solution_passes_get_word_frequencies():
    solution = shown_solution("02", "c797b8c4", "get_word_frequencies")
    assert check_get_word_frequencies(solution, record=False).passed


@pytest.mark.parametrize("wrong", [skip_punctuation, skip_numbers])
def test_words_without_a_letter_are_counted(wrong, capsys):
    assert not check_get_word_frequencies(wrong, record=False).passed
    out = hint_of(capsys.readouterr().out)
    assert "every word of text.split() counts, digits and punctuation too" in out, out


def test_leading_zeros_are_kept(capsys):
    assert not check_get_word_frequencies(strip_leading_zeros, record=False).passed
    out = hint_of(capsys.readouterr().out)
    assert "'0070' is spelled as it is" in out, out


def test_the_new_case_holds_digit_and_punctuation_words():
    solution = shown_solution("02", "c797b8c4", "get_word_frequencies")
    texts = [case.args[0] for case in GET_WORD_FREQUENCIES.cases()]
    words = {w for text in texts for w in solution(text) if not any(ch.isalpha() for ch in w[:-1])}
    assert any(all(ch.isdigit() for ch in w[:-1]) and w[0] == "0" for w in words), words
    assert any(len(w) == 2 and w[0] in string.punctuation for w in words), words
    assert any(len(w) > 2 and all(ch in string.punctuation for ch in w[:-1]) for w in words), words


# ---- finding 2: a word of one symbol stays in the table ----------------------------------------------------------


def skip_single_symbols(word_freq, pair):
    merged = {}
    for word, count in word_freq.items():
        new_word = merge_symbols(word, pair)
        if len(new_word) > 1:
            merged[new_word] = merged.get(new_word, 0) + count
    return merged


def test_the_shown_solution_passes_merge_pair():
    solution = shown_solution("04", "cell-18", "my_merge_pair", merge_symbols=merge_symbols)
    assert check_merge_pair(solution, record=False).passed


def test_a_word_of_one_symbol_is_kept(capsys):
    assert not check_merge_pair(skip_single_symbols, record=False).passed
    out = hint_of(capsys.readouterr().out)
    assert "every word keeps its count" in out and "a word of one symbol stays in the table" in out, out


def test_merge_pair_cases_hold_words_of_one_symbol():
    cases = MERGE_PAIR.cases()
    already = [c for c in cases if any(len(word) == 1 for word in c.args[0])]
    becomes = [
        c for c in cases if any(len(word) > 1 and len(merge_symbols(word, c.args[1])) == 1 for word in c.args[0])
    ]
    assert already and becomes


# ---- finding 3: the training loop meets such words too -----------------------------------------------------------


def _train_from(table):
    """Lesson 04's shown my_train, on a table built by ``table`` (the learner's get_word_frequencies)."""
    return shown_solution(
        "04",
        "cell-24",
        "my_train",
        get_word_frequencies=table,
        count_pairs=count_pairs,
        best_pair=best_pair,
        merge_pair=merge_pair,
    )


def test_the_shown_solution_passes_the_training_loop():
    from bpelab.words import get_word_frequencies

    assert check_training_loop(_train_from(get_word_frequencies), record=False).passed


@pytest.mark.parametrize("table", [skip_punctuation, skip_numbers, strip_leading_zeros])
def test_a_table_without_digit_or_punctuation_words_trains_wrong(table, capsys):
    assert not check_training_loop(_train_from(table), record=False).passed
    out = hint_of(capsys.readouterr().out)
    assert "get_word_frequencies" in out and "digits and punctuation too" in out, out


def test_the_training_cases_hold_digit_punctuation_and_one_symbol_words():
    from bpelab.words import get_word_frequencies

    texts = [case.args[0] for case in TRAIN.cases()]
    words = [w for t in texts for w in get_word_frequencies(t)]
    assert any(all(ch.isdigit() for ch in w[:-1]) for w in words)
    assert any(all(ch in string.punctuation for ch in w[:-1]) for w in words)
    # a word that becomes one symbol: every symbol of some word merged into one
    assert any(
        any(merged == "".join(word) for _, merged in train_bpe(t, n).merges)
        for t, n in (case.args for case in TRAIN.cases())
        for word in get_word_frequencies(t)
    )


# ---- finding 4: a name the imports cell defines wins over a stub helper ---------------------------------------------


_STUB_AND_TRAIN = "def my_merge_pair(word_freq, pair):\n    # your code here\n    ...\n\n\n" + _cell(
    "04", "cell-24"
).source.split("```python\n")[1].split("```")[0].replace("merge_pair(", "my_merge_pair(")
"""Lesson 04's my_merge_pair still the stub, and its shown my_train calling it."""


def _learners_cells(tmp_path, **defined):
    """The learner's cells as a module of their own (a file, so that its functions have source), with ``defined``
    the names the cells run before them gave it."""
    path = tmp_path / "learners_cells.py"
    path.write_text(_STUB_AND_TRAIN)
    spec = importlib.util.spec_from_file_location("learners_cells", path)
    module = importlib.util.module_from_spec(spec)
    module.__dict__.update(defined)
    spec.loader.exec_module(module)
    return module


def test_a_missing_import_is_named_before_a_stub_helper(tmp_path, capsys):
    cells = _learners_cells(tmp_path)  # the imports cell skipped
    assert not check_training_loop(cells.my_train, record=False).passed
    out = hint_of(capsys.readouterr().out)
    assert "NameError: name 'get_word_frequencies' is not defined" in out, out
    assert "run the lesson's first cell" in out, out
    assert "finish my_merge_pair first" not in out, out


def test_a_stub_helper_is_still_named_when_every_name_is_defined(tmp_path, capsys):
    from bpelab.words import get_word_frequencies

    cells = _learners_cells(
        tmp_path, get_word_frequencies=get_word_frequencies, count_pairs=count_pairs, best_pair=best_pair
    )
    assert not check_training_loop(cells.my_train, record=False).passed
    assert "finish my_merge_pair first" in hint_of(capsys.readouterr().out)


# ---- finding 5: check 1's tie is one the smallest-pair rule breaks the other way ------------------------------------


def test_the_first_check_is_a_tie_the_smallest_pair_rule_breaks_differently(capsys):
    first = TRAIN.cases()[0]
    text, n = first.args
    from bpelab.words import get_word_frequencies

    counts = count_pairs(get_word_frequencies(text))
    top = max(counts.values())
    tied = [p for p in counts if counts[p] == top]
    assert len(tied) > 1
    assert train_bpe(text, n).merges != train_bpe(text, n, tie_break="lexicographic").merges
    assert train_bpe(text, n).merges[0][0] == tied[0] != min(tied)
    assert repr(tied[0]) in first.note and repr(min(tied)) in first.note, first.note

    from bpelab.words import get_word_frequencies

    def smallest_pair_train(text, num_merges):
        word_freq = get_word_frequencies(text)
        merges = []
        for _ in range(num_merges):
            pairs = count_pairs(word_freq)
            if not pairs:
                break
            pair = min(pairs, key=lambda p: (-pairs[p], p))  # the most frequent; ties to the smallest pair
            word_freq = merge_pair(word_freq, pair)
            merges.append((pair, pair[0] + pair[1]))
        return merges

    assert not check_training_loop(smallest_pair_train, record=False).passed
    out = hint_of(capsys.readouterr().out)
    assert "check 1 of" in out and "alphabetically smallest pair" in out, out


# ---- finding 6: count_characters' two near misses have hints of their own -----------------------------------------


def plus_equals_on_a_missing_key(text):
    counts = {}
    for ch in text:
        counts[ch] += 1
    return counts


def get_defaults_to_one(text):
    counts = {}
    for ch in text:
        counts[ch] = counts.get(ch, 1) + 1
    return counts


def test_plus_equals_on_a_new_key_is_named(capsys):
    assert not check_count_characters(plus_equals_on_a_missing_key, record=False).passed
    out = hint_of(capsys.readouterr().out)
    assert "KeyError" in out and "a key must exist before +=" in out and "counts.get(ch, 0) + 1" in out, out


def test_get_default_of_one_is_named(capsys):
    assert not check_count_characters(get_defaults_to_one, record=False).passed
    out = hint_of(capsys.readouterr().out)
    assert "one too many" in out and "get's default is the count before this character: 0" in out, out


# ---- findings 7 and 8: lesson 02 says what the regex does with U+001C–U+001F ---------------------------------------


WORDS_AND_PUNCTUATION = r"\w+|[^\w\s]+"


def test_lesson_02_says_the_separators_join_neighbouring_punctuation():
    assert split_text("a\x1c.b", WORDS_AND_PUNCTUATION) == ["a", "\x1c.", "b"]
    assert split_text("field\x1f\x1evalue", WORDS_AND_PUNCTUATION) == ["field", "\x1f\x1e", "value"]
    text = " ".join(_cell("02", "a7c0e8d2").source.split())
    assert "becomes a piece of its own" not in text, text
    assert "[^\\w\\s]+" in text and "neighbouring punctuation" in text, text
    sources = "\n".join(c.source for c in _cells("02") if c.cell_type == "code")
    assert "a\\x1c.b" in sources and "field\\x1f\\x1evalue" in sources


def test_lesson_02_says_a_joined_piece_can_vanish_or_be_cut_in_two():
    pieces = split_text("x!\x1c?y", WORDS_AND_PUNCTUATION)
    assert "!\x1c?" in pieces and " ".join(pieces).split() == ["x", "!", "?", "y"]
    text = " ".join(_cell("02", "bc6cbdc2").source.split())
    assert "cut in two" in text, text
    example = _cell("02", "f7a8b9c0")
    assert "x!\\x1c?y" in example.source
    shown = "".join(o.get("text", "") for o in example.outputs)
    assert "'!\\x1c?'" in shown and "'!'" in shown and "'?'" in shown, shown


# ---- finding 9: different rules CAN train different vocabularies --------------------------------------------------


def test_lesson_04_says_different_rules_can_train_different_vocabularies():
    assert train_bpe("ab ab", 5).merges == train_bpe("ab ab", 5, tie_break="lexicographic").merges
    for cell_id in ("cell-44", "cell-50"):
        text = " ".join(_cell("04", cell_id).source.split())
        assert "rules train different vocabularies" not in text, text
        assert "can train different vocabularies" in text, text


# ---- finding 10: the page's "no text" is Python's ---------------------------------------------------------------


EMPTY_OR_NOT = ["", "  ", "\x1c", "\x1c\x1d\x1e\x1f", "\x85", "\u3000\u2028", "\ufeff", "\u200b", "\u180e", "a"]


def test_the_form_calls_empty_exactly_what_python_does():
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is needed for the JavaScript tests (Node 20: apt-get install nodejs)")
    script = (
        "import { formProblem } from './train_form.js';\n"
        f"const texts = {json.dumps(EMPTY_OR_NOT)};\n"
        "console.log(JSON.stringify(texts.map((t) => /Type some text first/.test(formProblem(t, '10', 50000) ?? ''))));\n"
    )
    run = subprocess.run(
        [node, "--input-type=module", "-e", script],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
        cwd=REPO_ROOT / "bpelab" / "widgets" / "static",
    )
    page_says_empty = json.loads(run.stdout)
    python_says_empty = [not text.split() for text in EMPTY_OR_NOT]
    assert python_says_empty == [not text.strip() for text in EMPTY_OR_NOT]  # stepper.py's own test
    assert page_says_empty == python_says_empty, list(zip(map(ascii, EMPTY_OR_NOT), page_says_empty))
    assert regex  # the regex module's \s differs (U+001C–U+001F): the page follows str.split, not it
