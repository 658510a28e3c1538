"""Findings of the fifth fresh read of lessons 05 and 07: wrong answers that passed their checkers, and hints that
named the wrong cause."""

from __future__ import annotations

import unicodedata

import pytest
import regex

from bpelab.exercises.decoding import check_decode_words
from bpelab.exercises.real_tokenizers import check_find_parents
from bpelab.exercises.word_encoding import check_encode_word
from bpelab.words import END_OF_WORD, merge_symbols


def _hint(result_text: str) -> str:
    return next(line for line in result_text.splitlines() if line.strip().startswith("hint:"))


# ---- lesson 05, encode_word --------------------------------------------------------------------


def _joined_text_compared(word, merges):
    """Tests a pair by the text it joins to: ('a', 'bc') and ('ab', 'c') both join to 'abc'."""
    symbols = [*word, END_OF_WORD]
    for _pair, new in merges:
        i, merged = 0, []
        while i < len(symbols):
            if i + 1 < len(symbols) and symbols[i] + symbols[i + 1] == new:
                merged.append(new)
                i += 2
            else:
                merged.append(symbols[i])
                i += 1
        symbols = merged
    return symbols


def test_comparing_the_joined_text_instead_of_the_pair_is_rejected(capsys) -> None:
    # by hand: merge ('b','c') first gives a|bc|</w>; ('ab','c') then finds no 'ab', but 'a' + 'bc' joins to 'abc'
    assert _joined_text_compared("abc", [(("b", "c"), "bc"), (("ab", "c"), "abc")]) == ["abc", "</w>"]
    assert not check_encode_word(_joined_text_compared, record=False).passed
    assert "'a' + 'bc'" in _hint(capsys.readouterr().out)


def _marker_after_merging(word, merges):
    symbols = tuple(word)
    for pair, _ in merges:
        symbols = merge_symbols(symbols, pair)
    return [*symbols, END_OF_WORD]


def test_appending_the_marker_after_merging_is_named(capsys) -> None:
    assert not check_encode_word(_marker_after_merging, record=False).passed
    assert "before merging" in _hint(capsys.readouterr().out)


def _padded_replace(word, merges):
    """Merges on ' a b c ' with one str.replace of ' a b ' by ' ab ': neighbouring matches share a space."""
    text = " " + " ".join([*word, END_OF_WORD]) + " "
    for (a, b), new in merges:
        text = text.replace(f" {a} {b} ", f" {new} ")
    return text.split()


def test_a_padded_string_replace_is_told_that_matches_share_a_space(capsys) -> None:
    assert _padded_replace("aaaa", [(("a", "a"), "aa")]) == ["aa", "a", "a", "</w>"]  # by hand: the second match lost
    assert not check_encode_word(_padded_replace, record=False).passed
    assert "share" in _hint(capsys.readouterr().out)


# ---- lesson 05, decode_words -------------------------------------------------------------------


def test_rstrip_without_an_argument_is_rejected(capsys) -> None:
    def decode_words(symbols):
        return "".join(symbols).replace("</w>", " ").rstrip()

    assert decode_words(["record</w>", "\x1e</w>"]) == "record"  # '\x1e' is whitespace to str.rstrip()
    assert not check_decode_words(decode_words, record=False).passed
    assert ".rstrip()" in _hint(capsys.readouterr().out)


# ---- lesson 07, find_parents -------------------------------------------------------------------


def _ranks(*tokens_and_ranks: tuple[bytes, int]) -> dict[bytes, int]:
    return {**dict(tokens_and_ranks), **{bytes([i]): i for i in range(256)}}


def _every_occurrence_at_once(token, ranks):
    """Merges every occurrence of the lowest-ranked pair in one step, left to right without overlaps."""
    parts = [bytes([b]) for b in token]
    limit = ranks[token]
    while len(parts) > 2:
        ranked = [ranks[a + b] for a, b in zip(parts, parts[1:]) if ranks.get(a + b, limit) < limit]
        if not ranked:
            break
        target = next(k for k, r in ranks.items() if r == min(ranked))
        merged, i = [], 0
        while i < len(parts):
            if i + 1 < len(parts) and parts[i] + parts[i + 1] == target:
                merged.append(target)
                i += 2
            else:
                merged.append(parts[i])
                i += 1
        parts = merged
    return tuple(parts)


def test_merging_every_occurrence_at_once_is_rejected(capsys) -> None:
    ranks = _ranks((b"aaa", 256), (b"aa", 257), (b"aaaa", 258))
    # by hand, one merge at a time: a|a|a|a -> aa|a|a (leftmost of the tie) -> aaa|a (rank 256 < 257): (aaa, a)
    assert _every_occurrence_at_once(b"aaaa", ranks) == (b"aa", b"aa")
    assert not check_find_parents(_every_occurrence_at_once, record=False).passed
    assert "one merge at a time" in _hint(capsys.readouterr().out)


def test_max_instead_of_min_is_named(capsys) -> None:
    def find_parents(token, ranks):
        parts = [bytes([b]) for b in token]
        while len(parts) > 2:
            ranked = [
                (ranks[a + b], i)
                for i, (a, b) in enumerate(zip(parts, parts[1:]))
                if ranks.get(a + b, ranks[token]) < ranks[token]
            ]
            if not ranked:
                break
            _, i = max(ranked)
            parts[i : i + 2] = [parts[i] + parts[i + 1]]
        return tuple(parts)

    assert not check_find_parents(find_parents, record=False).passed
    assert "max" in _hint(capsys.readouterr().out)


def test_a_key_error_from_ranks_of_a_pair_is_named(capsys) -> None:
    def find_parents(token, ranks):
        parts = [bytes([b]) for b in token]
        while len(parts) > 2:
            ranked = [(ranks[a + b], i) for i, (a, b) in enumerate(zip(parts, parts[1:]))]
            ranked = [(r, i) for r, i in ranked if r < ranks[token]]
            if not ranked:
                break
            _, i = min(ranked)
            parts[i : i + 2] = [parts[i] + parts[i + 1]]
        return tuple(parts)

    assert not check_find_parents(find_parents, record=False).passed
    out = capsys.readouterr().out
    assert "KeyError" in out and "ranks.get" in _hint(out)


# ---- lesson 05, the explorer's count line ------------------------------------------------------


def test_the_count_line_says_one_piece_in_the_singular() -> None:
    from bpelab.widgets.explorer import EncodeExplorer
    from bpelab.words import train_bpe

    toy = train_bpe("low lower lowest", 5)
    one = EncodeExplorer({"toy": toy}, text="lowest", production=(), word_split=r"\w+|[^\w\s]+")
    assert " for 1 piece (words and punctuation), " in one.render_text()
    two = EncodeExplorer({"toy": toy}, text="low, lowest", production=(), word_split=r"\w+|[^\w\s]+")
    assert " for 3 pieces (words and punctuation), " in two.render_text()
    assert " for 1 word, " in EncodeExplorer({"toy": toy}, text="lowest", production=()).render_text()


# ---- lesson 07: cells that run again after Run All ---------------------------------------------


def test_lesson_07_deletes_only_names_its_own_cell_makes() -> None:
    """A `del` of a name another cell made fails when its cell runs again after Run All (the name is gone): lesson 07
    lets its vocabularies go by setting them to None instead, and `our_tokenizer` makes one again where needed."""
    import ast
    from pathlib import Path

    import nbformat

    lesson = Path(__file__).resolve().parents[1] / "notebooks" / "07_regex_and_real_tokenizers.ipynb"
    for cell in nbformat.read(lesson, as_version=4).cells:
        if cell.cell_type != "code" or "del " not in cell.source:
            continue
        tree = ast.parse("\n".join(line for line in cell.source.splitlines() if not line.startswith(("%", "!"))))
        made = {
            t.id
            for node in ast.walk(tree)
            if isinstance(node, ast.Assign)
            for t in node.targets
            if isinstance(t, ast.Name)
        }
        deleted = {
            t.id
            for node in ast.walk(tree)
            if isinstance(node, ast.Delete)
            for t in node.targets
            if isinstance(t, ast.Name)
        }
        assert deleted <= made, (cell.get("id"), deleted - made)


# ---- fresh read 6 -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "spell",
    [
        lambda word: [*word.lower()],  # lower-cased first
        lambda word: regex.findall(r"\X", word),  # one symbol per grapheme cluster
        lambda word: [*unicodedata.normalize("NFKC", word)],  # normalised first
        lambda word: [chr(b) for b in word.encode("utf-8")],  # one symbol per UTF-8 byte
    ],
    ids=["lower", "graphemes", "nfkc", "bytes"],
)
def test_read6_a_word_spelled_other_than_as_it_is_is_rejected(spell) -> None:
    """All 17 cases were lower-case ASCII, and these four spellings passed them all."""

    def encode_word(word, merges):
        symbols = (*spell(word), END_OF_WORD)
        for pair, _ in merges:
            symbols = merge_symbols(symbols, pair)
        return list(symbols)

    assert not check_encode_word(encode_word, record=False).passed


def test_read6_stripping_whitespace_with_re_is_named(capsys) -> None:
    import re

    def decode_words(symbols):
        return re.sub(r"\s+$", "", "".join(symbols).replace(END_OF_WORD, " "))

    assert not check_decode_words(decode_words, record=False).passed
    assert "\\s+$ with re" in _hint(capsys.readouterr().out)
