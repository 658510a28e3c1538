"""Lessons 05 and 07, thirteenth fresh read (fixAD): wrong answers the checkers passed or misnamed, and prose."""

from __future__ import annotations

import json
from pathlib import Path

import regex

from bpelab.exercises.real_tokenizers import check_split_pieces
from bpelab.exercises.word_encoding import check_encode_word
from bpelab.words import END_OF_WORD, encode_word


def _hint(result) -> str:
    return next(line for line in result.message.splitlines() if line.strip().startswith("hint:"))


# ---- finding 1: '</w>' typed inside a word is four characters, not the marker ---------------------------------


def encode_word_marker_by_regex(word, merges):
    """The learner's: the word plus '</w>' cut with a pattern that reads every '</w>' as the marker."""
    symbols = regex.findall(r"</w>|.", word + "</w>", flags=regex.DOTALL)  # '.' takes a line break too
    for (a, b), new in merges:
        merged, i = [], 0
        while i < len(symbols):
            if i + 1 < len(symbols) and symbols[i] == a and symbols[i + 1] == b:
                merged.append(new)
                i += 2
            else:
                merged.append(symbols[i])
                i += 1
        symbols = merged
    return symbols


def test_reference_spells_a_typed_marker_as_characters():
    assert encode_word("a</w>b", []) == ["a", "<", "/", "w", ">", "b", END_OF_WORD]
    assert encode_word_marker_by_regex("a</w>b", []) == ["a", END_OF_WORD, "b", END_OF_WORD]


def test_marker_read_inside_the_word_fails_with_its_hint():
    result = check_encode_word(encode_word_marker_by_regex, record=False)
    assert not result.passed, result.message
    hint = _hint(result)
    assert "inside the word" in hint and "'<', '/', 'w', '>'" in hint, hint


# ---- finding 2: a merge applied only at its first occurrence gets its own hint ---------------------------------


def encode_word_first_occurrence(word, merges):
    symbols = list(word) + ["</w>"]
    for (a, b), new in merges:
        for i in range(len(symbols) - 1):
            if symbols[i] == a and symbols[i + 1] == b:
                symbols[i : i + 2] = [new]
                break
    return symbols


def test_first_occurrence_only_is_told_so():
    result = check_encode_word(encode_word_first_occurrence, record=False)
    assert not result.passed
    hint = _hint(result)
    assert "first occurrence" in hint, hint
    assert "i += 2" not in hint, hint


def encode_word_in_place_two_steps(word, merges):
    symbols = list(word) + ["</w>"]
    for (a, b), new in merges:
        i = 0
        while i < len(symbols) - 1:
            if symbols[i] == a and symbols[i + 1] == b:
                symbols[i : i + 2] = [new]
                i += 2
            else:
                i += 1
    return symbols


def test_in_place_two_steps_keeps_its_hint():
    result = check_encode_word(encode_word_in_place_two_steps, record=False)
    assert not result.passed
    assert "i += 2" in _hint(result), _hint(result)


# ---- finding 5: merges involving '</w>' skipped --------------------------------------------------------------


def encode_word_skipping_marker_merges(word, merges):
    symbols = list(word) + ["</w>"]
    for (a, b), new in merges:
        if "</w>" in a or "</w>" in b:
            continue
        merged, i = [], 0
        while i < len(symbols):
            if i + 1 < len(symbols) and (symbols[i], symbols[i + 1]) == (a, b):
                merged.append(new)
                i += 2
            else:
                merged.append(symbols[i])
                i += 1
        symbols = merged
    return symbols


def test_skipping_marker_merges_is_told_so():
    result = check_encode_word(encode_word_skipping_marker_merges, record=False)
    assert not result.passed
    hint = _hint(result)
    # its output equals that of appending '</w>' after merging, or of a loop one pair short, on every input: the
    # hint names all three causes, this one among them (before, it named only the other two)
    assert "you skipped the merges that involve '</w>'" in hint, hint


# ---- finding 4: split_pieces cut at whitespace first ---------------------------------------------------------


def split_pieces_at_whitespace_first(text, pattern):
    pieces = []
    for part in regex.split(r"(\s+)", text):
        pieces.extend(regex.findall(pattern, part))
    return pieces


def test_cut_at_whitespace_is_named():
    result = check_split_pieces(split_pieces_at_whitespace_first, record=False)
    assert not result.passed
    hint = _hint(result)
    assert "whitespace" in hint and "' stop'" in hint, hint
    assert "slices" not in hint, hint


def split_pieces_in_slices(text, pattern, size=1000):
    return [p for i in range(0, len(text), size) for p in regex.findall(pattern, text[i : i + size])]


def test_slices_keep_the_slice_hint():
    result = check_split_pieces(split_pieces_in_slices, record=False)
    assert not result.passed
    hint = _hint(result)
    assert "slices" in hint, hint


# ---- finding 9: one stretch, singular ------------------------------------------------------------------------


def test_compare_view_says_one_stretch():
    from bpelab.widgets.compare import CompareView

    view = CompareView(text="   ")
    assert len(view.differing_spans) == 1, view.differing_spans
    first = view.render_text().splitlines()[0]
    assert first.endswith(" 1 stretch cut differently"), first


# ---- findings 6, 7, 8: lesson 07's prose ---------------------------------------------------------------------

LESSON_07 = Path(__file__).resolve().parent.parent / "notebooks" / "07_regex_and_real_tokenizers.ipynb"


def _cell(cell_id: str) -> str:
    cells = json.loads(LESSON_07.read_text(encoding="utf-8"))["cells"]
    return " ".join(next("".join(c["source"]) for c in cells if c.get("id") == cell_id).split())


def test_cell_78_does_not_settle_what_31_and_44_leave_open():
    text = _cell("long-run-md")
    assert "stopped that crash by adding possessive marks" not in text, text


def test_cell_44_names_the_backtrack_limit_and_its_removal():
    text = _cell("tiktoken-history-md")
    assert "backtrack_limit(10_000)" in text and "05e66e8" in text, text


def test_cell_44_counts_four_encodings_and_gpt2s_contractions():
    text = _cell("tiktoken-history-md")
    assert "`gpt2`" in text, text
    assert "'(?:[sdmt]|ll|ve|re)" in text, text


def test_cell_84_says_the_lookahead_sends_the_pattern_to_the_vm():
    text = _cell("7ba78969")
    assert "may number them differently" not in text, text
    assert "whatever the rule around" not in text, text
    assert (
        "their patterns all hold `\\s+(?!\\S)`, and the lookahead `(?!\\S)` sends them to the backtracking VM" in text
    )
    assert "`\\s+` and `\\s+|a`, with no lookaround, take all four runs: regex-automata" in text, text


def test_recap_says_the_lookahead_not_any_whitespace_run():
    text = _cell("9dc74c43")
    assert "fancy-regex gives up once a match would keep more than 1,000,000 places to backtrack to, and" not in text
    assert "a lookaround sends a pattern to fancy-regex's own backtracking VM" in text, text
    assert "goes to regex-automata (the engine under Rust's `regex` crate)" in text, text


# ---- finding 3: find_parents without its stop loops forever; the generic runaway hint names a counter ----------


def find_parents_without_a_stop(token, ranks):
    """The learner's: no `break` when no pair below the token's rank is left, so the while loop never ends there."""
    parts = [bytes([b]) for b in token]
    while len(parts) > 2:
        best = None
        for i in range(len(parts) - 1):
            rank = ranks.get(parts[i] + parts[i + 1])
            if rank is not None and rank < ranks[token] and (best is None or rank < best[0]):
                best = (rank, i)
        if best is not None:
            i = best[1]
            parts[i : i + 2] = [parts[i] + parts[i + 1]]
    return tuple(parts)


def test_find_parents_without_a_stop_runs_away_on_check_10():
    from bpelab.exercises.real_tokenizers import check_find_parents

    result = check_find_parents(find_parents_without_a_stop, record=False)
    assert result.failed_case == 10 and "did not finish" in result.message, result.message


def test_find_parents_runaway_hint_names_the_missing_stop():
    from bpelab.exercises.real_tokenizers import check_find_parents

    hint = _hint(check_find_parents(find_parents_without_a_stop, record=False))
    assert "no adjacent pair has a rank below ranks[token]" in hint and "break" in hint, hint
