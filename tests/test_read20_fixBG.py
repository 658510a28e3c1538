"""Fresh read 20 of lessons 08, 11 and 12 (fixBG): count_unused passed a text normalised first; best_wordpiece_pair
passed pairs counted without overlap and ties taken position by position across the words; count_unused's hints
for words encoded one by one, a stripped end and duplicate lines dropped named other bugs; an upside-down
bytes_per_token was called a remembering one by exercise 3's checker; exercise 2's task text said nothing of the
clock; the empty text's hint fit no answer but 0.0; lesson 12 said "a little less" of half and "about doubles" of
1.7, compared the incremental trainer without its first count, and imported copy in the middle; lesson 11 stated a
duration."""

from __future__ import annotations

import math
import unicodedata

import nbformat
import pytest

from bpelab.exercises.beyond_bpe import check_best_wordpiece_pair
from bpelab.exercises.cleaned_text import empty_text_answered
from bpelab.exercises.compression import check_count_unused, check_smallest_vocab_size
from bpelab.words import count_pairs

LESSON_08 = "notebooks/08_compression_curves.ipynb"
LESSON_11 = "notebooks/11_beyond_bpe.ipynb"
LESSON_12 = "notebooks/12_making_bpe_fast.ipynb"


def _hint(out: str) -> str:
    return next(line for line in out.splitlines() if line.strip().startswith("hint:"))


def _refused(capsys, result) -> str:
    out = capsys.readouterr().out
    assert not result.passed, out
    return out


def _cell(path: str, cell_id: str) -> str:
    return next(c for c in nbformat.read(path, as_version=4).cells if c.id == cell_id).source


# ---- finding 1: count_unused on a text normalised first -------------------------------------------------------------


def test_count_unused_refuses_a_normalised_text(capsys):
    def count_unused(tokenizer, text):
        text = unicodedata.normalize("NFC", text)
        return len(set(tokenizer.vocab) - set(tokenizer.encode(text)))

    hint = _hint(_refused(capsys, check_count_unused(count_unused, record=False)))
    assert "normalize('NFC'" in hint and "as it is" in hint, hint


# ---- findings 2 and 3: best_wordpiece_pair, pairs counted without overlap, ties position by position ----------------


def _best_from(pairs, word_freq):
    singles = {}
    for word, freq in word_freq.items():
        for symbol in word:
            singles[symbol] = singles.get(symbol, 0) + freq
    best, best_score = None, None
    for (a, b), n in pairs.items():
        if best is None or n * best_score[1] > best_score[0] * singles[a] * singles[b]:
            best, best_score = (a, b), (n, singles[a] * singles[b])
    return best


def test_best_wordpiece_pair_refuses_pairs_counted_without_overlap(capsys):
    def best_wordpiece_pair(word_freq):
        pairs = {}
        for word, freq in word_freq.items():
            i = 0
            while i < len(word) - 1:
                pair = (word[i], word[i + 1])
                pairs[pair] = pairs.get(pair, 0) + freq
                i += 2 if word[i] == word[i + 1] else 1
        return _best_from(pairs, word_freq)

    hint = _hint(_refused(capsys, check_best_wordpiece_pair(best_wordpiece_pair, record=False)))
    assert "overlap" in hint, hint


def test_best_wordpiece_pair_refuses_ties_taken_position_by_position(capsys):
    def best_wordpiece_pair(word_freq):
        pairs = {}
        longest = max(len(word) for word in word_freq)
        for position in range(longest - 1):
            for word, freq in word_freq.items():
                if position < len(word) - 1:
                    pair = (word[position], word[position + 1])
                    pairs[pair] = pairs.get(pair, 0) + freq
        return _best_from(pairs, word_freq)

    hint = _hint(_refused(capsys, check_best_wordpiece_pair(best_wordpiece_pair, record=False)))
    assert "position" in hint and "each left to right" in hint, hint


def test_the_right_answer_with_count_pairs_still_passes(capsys):
    def best_wordpiece_pair(word_freq):
        return _best_from(count_pairs(word_freq), word_freq)

    assert check_best_wordpiece_pair(best_wordpiece_pair, record=False).passed, capsys.readouterr().out


# ---- finding 4: count_unused, each of three bugs named as itself -----------------------------------------------------


def test_count_unused_names_words_encoded_one_by_one(capsys):
    def count_unused(tokenizer, text):
        used = set()
        for word in text.split():
            used |= set(tokenizer.encode(word))
        return len(set(tokenizer.vocab) - used)

    hint = _hint(_refused(capsys, check_count_unused(count_unused, record=False)))
    assert "text.split()" in hint and "remember" not in hint, hint


@pytest.mark.parametrize("strip", [lambda text: text.rstrip(), lambda text: text.rstrip("\n")])
def test_count_unused_names_a_stripped_end(capsys, strip):
    def count_unused(tokenizer, text):
        return len(set(tokenizer.vocab) - set(tokenizer.encode(strip(text))))

    hint = _hint(_refused(capsys, check_count_unused(count_unused, record=False)))
    assert "rstrip" in hint and "one character" not in hint, hint


def test_count_unused_names_duplicate_lines_dropped(capsys):
    def count_unused(tokenizer, text):
        text = "\n".join(dict.fromkeys(text.split("\n")))
        return len(set(tokenizer.vocab) - set(tokenizer.encode(text)))

    hint = _hint(_refused(capsys, check_count_unused(count_unused, record=False)))
    assert "duplicate" in hint and "one character" not in hint, hint


# ---- finding 5: exercise 3's checker names an upside-down bytes_per_token -----------------------------------------


def test_search_names_an_upside_down_bytes_per_token(capsys):
    from bpelab import BPETokenizer
    from bpelab.exercises.samples import PARAGRAPH

    namespace = {}
    exec(
        "def bytes_per_token(tokenizer, text):\n"
        "    return len(tokenizer.encode(text)) / len(text.encode('utf-8'))\n"
        "\n"
        "def my_smallest_vocab_size(tokenizer, text, goal):\n"
        "    low, high = 256, 256 + len(tokenizer.merges)\n"
        "    while low < high:\n"
        "        middle = (low + high) // 2\n"
        "        if bytes_per_token(tokenizer.truncated(middle), text) >= goal:\n"
        "            high = middle\n"
        "        else:\n"
        "            low = middle + 1\n"
        "    return high\n",
        namespace,
    )
    tokenizer = BPETokenizer().train(PARAGRAPH, 300, pattern="cl100k")
    result = check_smallest_vocab_size(namespace["my_smallest_vocab_size"], tokenizer, PARAGRAPH, record=False)
    out = _refused(capsys, result)
    hint = _hint(out)
    assert "bytes_per_token" in hint and "upside down" in hint and "remember" not in hint, hint


# ---- finding 6: exercise 2's task text announces the clock ---------------------------------------------------------


def test_exercise_2_task_says_the_checker_times_each_call():
    text = _cell(LESSON_08, "91ef5209")
    assert "seconds" in text and "once" in text, text


# ---- finding 7: the empty text's hint fits what came back -----------------------------------------------------------


@pytest.mark.parametrize(
    ("answer", "words"),
    [(1.0, "1.0"), (None, "None"), (math.inf, "inf"), (-1.0, "negative"), (0.0, "below the floor")],
)
def test_empty_text_hint_fits_the_answer(answer, words):
    def bytes_per_token(tokenizer, text):
        if not text:
            return answer
        return len(text.encode("utf-8")) / len(tokenizer.encode(text))

    message = empty_text_answered(bytes_per_token, 20)
    hint = _hint(message)
    assert words in hint, hint
    if answer is None or answer == 1.0 or answer < 0:
        assert "below the floor" not in hint, hint


# ---- findings 8 to 10: lesson 12 ------------------------------------------------------------------------------------


def test_lesson_12_says_what_it_counts_of_m_times_n():
    nb = nbformat.read(LESSON_12, as_version=4)
    prose = _cell(LESSON_12, "941abd14")
    assert "a little less, since" not in prose and "about doubles" not in prose, prose
    assert "half" in prose and "a little less than in proportion" in prose, prose
    computed = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
    assert "MERGES * " in computed or "MERGES *" in computed, "the share of M × N is computed in the lesson"
    objectives = _cell(LESSON_12, "2c41afe6")
    assert "costs about *merges ×" not in objectives, objectives
    recap = _cell(LESSON_12, "deb6b101")
    assert "work ≈ merges ×" not in recap, recap


def test_lesson_12_compares_like_for_like():
    nb = nbformat.read(LESSON_12, as_version=4)
    cell = next(c for c in nb.cells if c.id == "296d8094")
    assert "first count" in cell.source, cell.source
    shown = "".join(o.get("data", {}).get("text/plain", "") for o in cell.outputs)
    assert "116.0" not in shown and "44.9" not in shown, shown


def test_lesson_12_imports_copy_before_the_cells_that_use_it():
    nb = nbformat.read(LESSON_12, as_version=4)
    first = nb.cells[1]
    assert "import copy" in first.source, first.source
    assert "import copy" not in _cell(LESSON_12, "d868e1a3")


# ---- finding 11: lesson 11 states no duration ----------------------------------------------------------------------


def test_lesson_11_states_no_duration_for_the_wordpiece_trainer():
    text = _cell(LESSON_11, "c246af50")
    assert "few seconds" not in text and "seconds" not in text, text
