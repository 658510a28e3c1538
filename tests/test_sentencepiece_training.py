"""SentencePiece's BPE training reproduced: the same pieces, in the same order, with the same scores."""

from __future__ import annotations

from pathlib import Path

import pytest
import sentencepiece as spm
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bpelab.corpora import load_parallel, read_corpus
from bpelab.sentencepiece_model import PieceType, read_model_file
from bpelab.sentencepiece_scripts import sentencepiece_script
from bpelab.sentencepiece_training import Rules, is_valid_piece, train_sentencepiece_bpe


def train_with_sentencepiece(text: str, folder: Path, vocab_size: int, **options: object) -> tuple[list, Path]:
    """(pieces as (piece, score, type), model path) from ``SentencePieceTrainer.train`` on ``text``."""
    (folder / "input.txt").write_text(text, encoding="utf-8")
    spm.SentencePieceTrainer.train(
        input=str(folder / "input.txt"),
        model_prefix=str(folder / "reference"),
        model_type="bpe",
        vocab_size=vocab_size,
        normalization_rule_name="identity",
        num_threads=1,
        minloglevel=2,
        **options,
    )
    path = folder / "reference.model"
    return [(p.piece, p.score, p.type) for p in read_model_file(path).pieces], path


def ours(text: str, vocab_size: int, **options) -> list:
    model = train_sentencepiece_bpe(text, vocab_size, **options)
    return list(zip(model.pieces, model.scores, model.types))


def test_a_small_case_by_hand(tmp_path):
    # words: "▁ab" three times, "▁ac" once; characters: a 4, ▁ 4, b 3, c 1 (a before ▁: equal counts, smaller first)
    text = "ab ab ab ac"
    expected = [
        ("<unk>", 0.0, PieceType.UNKNOWN),
        ("<s>", 0.0, PieceType.CONTROL),
        ("</s>", 0.0, PieceType.CONTROL),
        ("▁a", -0.0, PieceType.NORMAL),  # 4 times
        ("▁ab", -1.0, PieceType.NORMAL),  # 3 times
        ("a", -2.0, PieceType.NORMAL),
        ("▁", -3.0, PieceType.NORMAL),
        ("b", -4.0, PieceType.NORMAL),
        ("c", -5.0, PieceType.NORMAL),
    ]
    assert ours(text, 9, character_coverage=1.0) == expected
    assert train_with_sentencepiece(text, tmp_path, 9, character_coverage=1.0)[0] == expected


def test_equal_counts_go_to_the_shorter_piece_then_the_smaller_string(tmp_path):
    # every pair occurs once: "ab" < "cd" < "▁a" (U+2581 sorts after letters); then "▁ab" and "▁cd" (3 characters)
    text = "ab cd"
    merged = [piece for piece, _, kind in ours(text, 12, character_coverage=1.0)[3:7]]
    assert merged == ["ab", "cd", "▁ab", "▁cd"]
    assert (
        ours(text, 12, character_coverage=1.0)
        == train_with_sentencepiece(text, tmp_path, 12, character_coverage=1.0)[0]
    )


def test_pieces_sentencepiece_forbids():
    rules = Rules()
    assert is_valid_piece("▁ab", rules) and not is_valid_piece("a▁b", rules), "▁ only at the start"
    assert not is_valid_piece("a1", rules), "Latin and a digit (Common) are two scripts"
    assert is_valid_piece("12", rules) and not is_valid_piece("12", Rules(split_digits=True))
    assert is_valid_piece("カナ漢字", rules), "kana count as Han"
    assert is_valid_piece("é", rules) and is_valid_piece("e\u0301", rules), "a combining mark takes its base's script"
    assert not is_valid_piece("aα", rules) and is_valid_piece("aα", Rules(split_by_unicode_script=False))
    assert not is_valid_piece("a" * 17, rules)


@pytest.mark.parametrize("vocab_size", [500, 1000])
def test_same_pieces_as_sentencepiece_on_english(tmp_path, vocab_size):
    text = read_corpus("english_train")
    options = {"byte_fallback": True, "character_coverage": 1.0}
    assert ours(text, vocab_size, **options) == train_with_sentencepiece(text, tmp_path, vocab_size, **options)[0]


@pytest.mark.parametrize("vocab_size", [2000, 3000])
def test_same_pieces_as_sentencepiece_on_sixteen_languages(tmp_path, vocab_size):
    text = "\n".join(line for lines in load_parallel().values() for line in lines)
    options = {"byte_fallback": True, "character_coverage": 1.0}
    expected, path = train_with_sentencepiece(text, tmp_path, vocab_size, **options)
    model = train_sentencepiece_bpe(text, vocab_size, **options)
    assert list(zip(model.pieces, model.scores, model.types)) == expected
    reference = spm.SentencePieceProcessor(model_file=str(path))
    sample = text[:5000]
    assert model.encode(sample) == reference.encode(sample), "and the trained model encodes as sentencepiece's"


def test_characters_outside_the_coverage_are_left_out_as_sentencepiece_leaves_them(tmp_path):
    text = "\n".join(line for lines in load_parallel().values() for line in lines)
    expected, _ = train_with_sentencepiece(text, tmp_path, 1500, character_coverage=0.9995)
    assert ours(text, 1500, character_coverage=0.9995) == expected
    assert len(expected) == 1500


def test_sizes_it_cannot_make_are_refused():
    with pytest.raises(ValueError, match="smaller than the 259 meta pieces"):
        train_sentencepiece_bpe("ab ab", 260, byte_fallback=True)
    with pytest.raises(ValueError, match="too large for this text"):
        train_sentencepiece_bpe("ab ab", 50)
    with pytest.raises(ValueError, match="no line to train on"):
        train_sentencepiece_bpe("\n   \n", 50)


def test_runs_of_one_letter_count_overlaps_and_drop_a_piece_made_twice(tmp_path):
    """ "aaa" holds "aa" twice but merges once; "aaaa" can be reached as "aa"+"aa" and as "aaa"+"a"."""
    text = "\n".join(["aaa aaaa aaaaa aaaaaa aaaaaaa", "ba aab aaab aaaab"] * 3)
    for vocab_size in (12, 14, 16):
        expected, _ = train_with_sentencepiece(text, tmp_path, vocab_size, character_coverage=1.0)
        assert ours(text, vocab_size, character_coverage=1.0) == expected, vocab_size


def largest_size(text: str, folder: Path, **options: object) -> int:
    """The largest vocab_size SentencePieceTrainer accepts for ``text`` (its error message names it)."""
    try:
        train_with_sentencepiece(text, folder, 100_000, **options)
    except RuntimeError as error:
        return int(str(error).split("<= ")[1].rstrip("."))
    return 100_000


QUEUE_TRAINER = tuple(int(part) for part in spm.__version__.split(".")[:3]) >= (0, 2, 3)
"""The course trains as sentencepiece 0.2.3 (the pinned version) does; 0.2.0 and 0.2.1 searched an active window."""


@pytest.mark.skipif(not QUEUE_TRAINER, reason=f"sentencepiece {spm.__version__} trains with the older active window")
def test_the_pinned_trainer_searches_every_pair_not_an_active_window(tmp_path):
    """Releases up to 0.2.1 looked for the best pair among the 1,000 most frequent pairs, chosen again every 100
    merges; 0.2.3 keeps in a priority queue every pair whose joined piece IsValidSentencePiece allows
    (bpe_model_trainer.cc lines 140-143 of 0.2.3). Here 1,040 pairs occur 10 times and 'ΩΨ' 9 times: the old
    window leaves 'ΩΨ' out until its next refresh (the course's former trainer learnt 'à' at piece 325), the
    queue takes it as soon as the pairs counted 10 are spent."""
    letters = "abcdefghijklmnopqrstuvwxyz"
    words = [letter + chr(mark) + "β" for letter in letters for mark in range(0x300, 0x328)]
    text = "\n".join([" ".join(words[i : i + 40]) for i in range(0, len(words), 40)] * 10 + ["ΩΨ"] * 9)
    options = {"byte_fallback": True, "character_coverage": 1.0}
    size = largest_size(text, tmp_path, **options)
    expected = train_with_sentencepiece(text, tmp_path, size, **options)[0]
    assert [p for p, _, _ in expected[323:328]] == ["\u0326β", "\u0327β", "ΩΨ", "▁ΩΨ", "a\u0300"]
    assert ours(text, size, **options) == expected


@pytest.mark.parametrize("vocab_size", [320, 340])
def test_scripts_as_sentencepiece_s_own_table_has_them(tmp_path, vocab_size):
    """Georgian capitals (Mtavruli, U+1C90–U+1CBF) are Georgian to Unicode 11 and later, Common to SentencePiece's
    table: so 'Ი,' and 'Ი!' are pieces SentencePiece may make, and 'ᲘᲡ' too."""
    text = "\n".join(["ᲗᲑᲘᲚᲘᲡᲘ, ᲑᲐᲗᲣᲛᲘ! თბილისი არის ქალაქი."] * 300)
    options = {"byte_fallback": True, "character_coverage": 1.0}
    expected = train_with_sentencepiece(text, tmp_path, vocab_size, **options)[0]
    assert "Ი," in [p for p, _, _ in expected]
    assert ours(text, vocab_size, **options) == expected


def read_script_header(path: Path) -> dict[int, str]:
    """The code points ``unicode_script_map.h`` names, read statement by statement (a later one wins)."""
    table: dict[int, str] = {}
    text = " ".join(path.read_text(encoding="utf-8").split())
    text = text.replace("; c <= ", " c <= ").replace("; ++c)", " ++c)")  # a for loop's header is not a statement
    for statement in text.split(";"):
        if "(*smap)" not in statement or "= U_" not in statement:
            continue
        name = statement.split("= U_")[1].strip()
        if "for (" in statement:  # for (char32_t c = 0xA; c <= 0xB; ++c) (*smap)[c] = U_X
            first = int(statement.split("c = ")[1].split()[0], 16)
            last = int(statement.split("c <= ")[1].split()[0], 16)
        else:  # (*smap)[0xA] = U_X
            first = last = int(statement.split("(*smap)[")[1].split("]")[0], 16)
        for code_point in range(first, last + 1):
            table[code_point] = name
    return table


def test_every_code_point_has_the_script_sentencepiece_s_table_gives_it():
    header = Path(__file__).parent / "data" / "sentencepiece" / "unicode_script_map.h"
    table = read_script_header(header)
    assert len(table) > 100_000
    wrong = [hex(c) for c in range(0x110000) if sentencepiece_script(chr(c)) != table.get(c, "Common")]
    assert wrong == []
    assert sentencepiece_script("\u1c98") == "Common" and sentencepiece_script("\u10d7") == "Georgian"


def test_each_rule_of_valid_pieces_as_sentencepiece_applies_it(tmp_path):
    """Kana and 'ー' join Han; a combining mark takes the script before it; no piece longer than 16 characters;
    a digit joins no letter; ▁ only first."""
    lines = ["ひらがな漢字 カタカナ漢字 ラーメン屋 日本ー", "café naïve e\u0301te\u0301", "abc123 a1b2 ", "x" * 40]
    text = "\n".join(lines * 20)
    options = {"character_coverage": 1.0}
    size = largest_size(text, tmp_path, **options)
    expected = train_with_sentencepiece(text, tmp_path, size, **options)[0]
    assert ours(text, size, **options) == expected
    pieces = [p for p, _, _ in expected]
    assert "▁ひらがな漢字" in pieces and "▁ラーメン屋" in pieces, "kana, ー and Han in one piece"
    assert "e\u0301te\u0301" in pieces or "▁e\u0301te\u0301" in pieces, "a mark joins the letter before it"
    assert max(len(p) for p in pieces) == 16 and "x" * 16 in pieces and "x" * 17 not in pieces
    assert not any(c.isdigit() and not p.isdigit() for p in pieces for c in p if p not in ("▁",)), "digits alone"
    assert not any("▁" in p[1:] for p in pieces)


TRAINING_ALPHABET = "aab▁ 漢カー\u0301Ი1\n"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.text(alphabet=TRAINING_ALPHABET.replace("▁", ""), min_size=1, max_size=120).filter(lambda t: t.strip()),
    st.integers(0, 30),
)
def test_generated_texts_give_the_pieces_sentencepiece_gives(tmp_path, text, extra):
    """Runs of one letter, kana beside Han, a combining mark, Georgian capitals, digits, empty lines: any size up
    to the largest SentencePieceTrainer accepts."""
    options = {"character_coverage": 1.0}
    largest = largest_size(text, tmp_path, **options)
    size = min(largest, 3 + len({c for c in text if c not in "\n "} | {"▁"}) + extra)
    expected = train_with_sentencepiece(text, tmp_path, size, **options)[0]
    assert ours(text, size, **options) == expected


@pytest.mark.skipif(not QUEUE_TRAINER, reason=f"sentencepiece {spm.__version__} may use another boundary character")
@pytest.mark.parametrize(
    ("text", "vocab_size", "tab_piece"),
    [("a\tb a\tb" * 20, 264, True), ("a\x1fb a\x1fb " * 20 + "a\x1fb", 263, False)],
)
def test_the_pretokenization_boundary_is_u001f_not_tab(tmp_path, text, vocab_size, tab_piece):
    """0.2.3's kPretokenizationBoundaryChar is U+001F (trainer_interface.cc line 72): a tab is an ordinary
    character that gets its own piece; U+001F never becomes a piece and never joins its neighbours."""
    options = {"byte_fallback": True, "character_coverage": 1.0}
    expected = train_with_sentencepiece(text, tmp_path, vocab_size, **options)[0]
    pieces = [p for p, _, _ in expected]
    assert ("\t" in pieces) == tab_piece
    assert not any("\x1f" in p for p in pieces)
    assert ours(text, vocab_size, **options) == expected
