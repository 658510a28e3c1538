"""Fresh read 10 of lessons 05 and 07 (fixW): an encode_word that stops once the word is one symbol plus its marker
passed; split_pieces run on slices of the text passed; a find_parents calling merge_by_rank with its own limit was
refused; a widget given a text that makes tiktoken panic raised."""

from __future__ import annotations

import pytest
import regex

from bpelab.exercises.real_tokenizers import check_find_parents, check_split_pieces
from bpelab.exercises.word_encoding import check_encode_word
from bpelab.merging import merge_by_rank
from bpelab.production import FRIENDLY_NAMES, load_encoding
from bpelab.widgets.compare import CompareView
from bpelab.widgets.explorer import EncodeExplorer
from bpelab.words import merge_symbols
from tests.shown_solutions import shown_solution
from tests.test_read8_fixL import _hint

# ---- finding 1: encode_word stops once the word is whole --------------------------------------------------------


def stops_when_whole(word, merges):
    """The reviewer's answer: stop as soon as the word is one symbol plus '</w>', so ('low', '</w>') never runs."""
    symbols = (*word, "</w>")
    for pair, _new in merges:
        if len(symbols) == 2:
            break
        symbols = merge_symbols(symbols, pair)
    return list(symbols)


def test_stopping_once_the_word_is_one_symbol_plus_its_marker_is_rejected_and_named(capsys) -> None:
    assert not check_encode_word(stops_when_whole, record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert "one symbol plus '</w>'" in hint, hint


def test_the_lessons_shown_encode_word_still_passes() -> None:
    assert check_encode_word(shown_solution("05", "cell-10", "my_encode_word"), record=False).passed


# ---- finding 2: split_pieces run on slices of the text -----------------------------------------------------------


def in_200_character_slices(text, pattern):
    """The reviewer's first answer: the pattern run on each slice of 200 characters."""
    return [piece for i in range(0, len(text), 200) for piece in regex.findall(pattern, text[i : i + 200])]


def in_400000_character_slices(text, pattern):
    """Meta's outer slicing alone: stretches of 400,000 characters."""
    return [piece for i in range(0, len(text), 400_000) for piece in regex.findall(pattern, text[i : i + 400_000])]


def metas_slices(text, pattern):
    """The reviewer's second answer: Meta's Llama 3 slicing (stretches of 400,000 characters, each cut again where a
    run of whitespace or of other characters would pass 25,000), the pattern run on each slice."""

    def runs(stretch, longest=25_000):
        start, run = 0, 0
        for i, ch in enumerate(stretch):
            run = run + 1 if i and ch.isspace() == stretch[i - 1].isspace() else 1
            if run > longest:
                yield stretch[start:i]
                start, run = i, 1
        yield stretch[start:]

    stretches = (text[i : i + 400_000] for i in range(0, len(text), 400_000))
    return [piece for stretch in stretches for part in runs(stretch) for piece in regex.findall(pattern, part)]


@pytest.mark.parametrize(
    "answer", [in_200_character_slices, in_400000_character_slices, metas_slices], ids=["200", "400000", "meta"]
)
def test_splitting_slices_of_the_text_is_rejected_and_named(answer, capsys) -> None:
    assert not check_split_pieces(answer, record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert "slices" in hint and "regex.findall(pattern, text)" in hint, hint


def test_the_lessons_shown_split_pieces_still_passes() -> None:
    assert check_split_pieces(shown_solution("07", "c8d29bdc", "split_pieces"), record=False).passed


# ---- finding 4: find_parents calling merge_by_rank with its own limit ---------------------------------------------


def like_parts_below(token, ranks):
    """Written like lesson 07's parts_below (section 7): the course's lowest-rank loop, merge_by_rank, given the
    learner's own rank function, which allows only ranks below the token's."""
    vocab = {r: t for t, r in ranks.items()}

    def rank_below(a, b):
        rank = ranks.get(vocab[a] + vocab[b])
        return rank if rank is not None and rank < ranks[token] else None

    return tuple(vocab[i] for i in merge_by_rank([ranks[bytes([b])] for b in token], rank_below))


def without_a_limit(token, ranks):
    """merge_by_rank with every rank allowed: it merges all the way back to the token."""
    vocab = {r: t for t, r in ranks.items()}
    return tuple(
        vocab[i] for i in merge_by_rank([ranks[bytes([b])] for b in token], lambda a, b: ranks.get(vocab[a] + vocab[b]))
    )


def test_merge_by_rank_with_the_learners_own_limit_is_accepted(capsys) -> None:
    assert check_find_parents(like_parts_below, record=False).passed, capsys.readouterr().out


def test_merge_by_rank_without_a_limit_still_fails() -> None:
    assert not check_find_parents(without_a_limit, record=False).passed


def test_the_lessons_shown_find_parents_still_passes() -> None:
    assert check_find_parents(shown_solution("07", "d757ddfb", "find_parents"), record=False).passed


# ---- finding 6: a text that makes tiktoken panic, typed into a view -----------------------------------------------

PANICKING_TEXT = " " * 999_999 + "x"  # tiktoken 0.14's regex engine runs out of stack on it (lesson 07, section 8)


def test_the_text_panics_in_tiktoken_itself() -> None:
    """The premise: tiktoken's own call raises a BaseException that is not an Exception."""
    with pytest.raises(BaseException) as raised:
        load_encoding("o200k_base").encode_ordinary(PANICKING_TEXT)
    assert not isinstance(raised.value, Exception)


def test_the_explorer_shows_tiktokens_panic_as_a_message() -> None:
    explorer = EncodeExplorer(production=["o200k_base"], text="hello")
    explorer.text = PANICKING_TEXT
    shown = explorer.render_text()
    assert "could not encode this text" in shown and "tiktoken" in shown and "panicked" in shown, shown
    assert explorer.token_count == 0


def test_the_compare_view_shows_tiktokens_panic_as_a_message() -> None:
    view = CompareView(text="hello", chosen=[FRIENDLY_NAMES["o200k_base"], FRIENDLY_NAMES["cl100k_base"]])
    view.text = PANICKING_TEXT
    assert "panicked" in view.render_text(), view.render_text()


def test_a_keyboard_interrupt_inside_the_encoder_still_stops(monkeypatch) -> None:
    encoding = load_encoding("o200k_base")
    explorer = EncodeExplorer({"gpt4o": encoding}, production=(), text="hello")

    def interrupted(text, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(type(encoding), "encode_ordinary", lambda self, text, **kw: interrupted(text))
    with pytest.raises(KeyboardInterrupt):
        explorer.text = "something else"
