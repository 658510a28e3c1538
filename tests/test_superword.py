"""SuperBPE (bpelab.superword) against a naive two-stage loop written here, and by hand."""

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from bpelab import BPETokenizer, superword
from bpelab.byte_level import count_pretokens
from bpelab.patterns import split_text
from bpelab.superword import SUPERWORD_PATTERN, is_superword, superword_tokens, train_superbpe, with_split
from tests.test_parity import replay


def naive_stage(pieces, merges, num_merges, next_id):
    """Recount every pair after every merge; ties to the pair seen first; stop below 2."""
    learned = []
    for new_id in range(next_id, next_id + num_merges):
        counts = {}
        for piece, n in pieces.items():
            symbols = replay(piece, merges + learned)
            for pair in zip(symbols, symbols[1:]):
                counts[pair] = counts.get(pair, 0) + n
        if not counts or max(counts.values()) < 2:
            break
        top = max(counts.values())
        learned.append((next(p for p, c in counts.items() if c == top), new_id))
    return learned


def naive_superbpe(text, num_merges, transition, pattern="gpt2"):
    stage1 = naive_stage(count_pretokens(text, pattern), [], transition, 256)
    stage2 = naive_stage(count_pretokens(text, SUPERWORD_PATTERN), stage1, num_merges - len(stage1), 256 + len(stage1))
    return stage1 + stage2


# ---- by hand --------------------------------------------------------------------------------


def test_hand_example_learns_a_token_across_a_space():
    # "ab ab ab": stage 1 (GPT-2 split: "ab", " ab", " ab") learns a+b (3 times). Stage 2 sees one piece,
    # ab ␣ ab ␣ ab: (ab, ␣) and (␣, ab) both occur twice, (ab, ␣) first, so "ab " is learned;
    # then every pair occurs once and training stops.
    tok = train_superbpe("ab ab ab", 256 + 3, transition=1)
    a, b, space = map(ord, "ab ")
    assert list(tok.merges) == [(a, b), (256, space)]
    assert tok.vocab[257] == b"ab " and is_superword(b"ab ")
    assert superword_tokens(tok) == [b"ab "]
    assert tok.encode("ab ab ab") == [257, 257, 256]
    # with the transition at the end there is no stage 2: ordinary BPE, " ab" (twice) instead
    plain = train_superbpe("ab ab ab", 256 + 3, transition=3)
    assert list(plain.merges) == list(BPETokenizer().train("ab ab ab", 256 + 3, pattern="gpt2").merges)
    assert superword_tokens(plain) == []


def test_with_split_keeps_the_merges_and_changes_the_cut():
    # merges a+b, then "ab" + " " (see above). As trained, "ab ab" is one piece: ab, space, ab -> "ab " + "ab".
    # Cut at spaces as GPT-2 cuts it ("ab", " ab"), the same merges give ab, then space + ab: "ab " never forms.
    tok = train_superbpe("ab ab ab", 256 + 3, transition=1)
    assert tok.encode("ab ab") == [257, 256]
    split = with_split(tok, "gpt2")
    assert split.encode("ab ab") == [256, ord(" "), 256]
    assert split.merges == tok.merges and split.pattern_name == "gpt2"
    assert tok.encode("ab ab") == [257, 256]  # the original keeps its own split
    assert with_split(tok, None).encode("ab ab") == [257, 256]  # no split at all: one piece, as stage 2 saw it
    with pytest.raises(TypeError, match="BPETokenizer"):
        with_split("ab", "gpt2")  # type: ignore[arg-type]


def test_is_superword():
    assert is_superword(b" of the") and is_superword(b", and") and is_superword(b"the ")
    assert not is_superword(b" the") and not is_superword(b"  ") and not is_superword(b"\n\n")


def test_stage_two_still_cuts_numbers_and_line_breaks():
    tok = train_superbpe("in 1999 it rained\nin 1999 it rained\n", 256 + 40, transition=5)
    for token in superword_tokens(tok):
        assert b"\n" not in token.strip(b" ") or token.strip() == b""
        assert not any(ch in token for ch in b"0123456789")


def test_bad_input_is_named():
    with pytest.raises(ValueError, match="transition"):
        train_superbpe("ab ab", 256 + 2, transition=5)
    with pytest.raises(TypeError, match="transition"):
        train_superbpe("ab ab", 256 + 2, transition=1.5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="text"):
        train_superbpe(b"ab", 258, transition=1)  # type: ignore[arg-type]


# ---- against the naive version on generated text ----------------------------------------------

TEXT = st.text(alphabet="ab c ,.!1 2\n\u200d\u0301éд日டி்", max_size=60)


@settings(max_examples=40, deadline=None)
@given(text=TEXT, num_merges=st.integers(0, 16), data=st.data())
def test_same_merges_as_the_naive_version(text, num_merges, data):
    transition = data.draw(st.integers(0, num_merges))
    tok = train_superbpe(text, 256 + num_merges, transition=transition)
    assert list(tok.merges.items()) == naive_superbpe(text, num_merges, transition)
    assert tok.decode(tok.encode(text)) == text
    # encoding the training text gives the segmentation training ended with
    pieces = count_pretokens(text, SUPERWORD_PATTERN)
    merges = list(tok.merges.items())
    assert len(tok.encode(text)) == sum(len(replay(p, merges)) * n for p, n in pieces.items())


# ---- every line break, and whitespace beyond ASCII (a second read of lesson 14) ----------------------

LINE_BREAKS = regex.findall(
    r"[\p{Line_Break=BK}\p{Line_Break=CR}\p{Line_Break=LF}\p{Line_Break=NL}]", "".join(map(chr, range(0x3000)))
)
"""The characters Unicode's line-breaking algorithm (UAX #14) ends a line at, asked of `regex`'s own tables."""


def test_the_line_breaks_are_the_seven_unicode_names():
    assert LINE_BREAKS == ["\n", "\x0b", "\x0c", "\r", "\x85", "\u2028", "\u2029"]
    assert list(superword.LINE_BREAKS) == LINE_BREAKS


@pytest.mark.parametrize("brk", LINE_BREAKS)
def test_stage_two_cuts_at_every_line_break(brk):
    assert split_text(f"two line{brk}three", SUPERWORD_PATTERN, keep_gaps=True) == ["two line", brk, "three"]
    assert split_text(f"one  {brk} two", SUPERWORD_PATTERN, keep_gaps=True) == ["one", f"  {brk} ", "two"]


def test_no_token_holds_text_from_two_lines_whatever_the_break():
    tok = train_superbpe("the cat sat.\rthe dog ran.\r" * 50, 256 + 60, transition=10)
    assert superword_tokens(tok)  # stage 2 did learn tokens across spaces
    for token in tok.vocab.values():
        text = token.decode("utf-8", "replace")
        assert "\r" not in text or not text.strip(), token


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=["a", " ", "1", ",", ".", "\t", "\u00a0", *LINE_BREAKS], max_size=30))
def test_no_piece_holds_a_line_break_and_text(text):
    for piece in split_text(text, SUPERWORD_PATTERN, keep_gaps=True):
        assert not (set(piece) & set(LINE_BREAKS)) or not piece.strip(), piece


def test_is_superword_counts_whitespace_beyond_ascii():
    assert is_superword("a\u00a0b".encode()) and is_superword("a\u3000b".encode())
    assert is_superword("Bonjour\u00a0!".encode())
    assert not is_superword("\u00a0b".encode()) and not is_superword("\u3000".encode())
    assert not is_superword("é".encode()[:1]) and not is_superword("ä".encode())  # a piece of a character, no space
    assert is_superword(b"\xa0 ")  # a stray byte (shown as a replacement character) before a space
