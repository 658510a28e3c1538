"""Lesson 13's fresh read, finding 5 (fixAE): what Hugging Face's trainer does with a special token.

Since tokenizers 0.21.2 (PR #1617, commit 5c475db), ``Tokenizer.train`` first cuts out of each text the added
tokens the tokenizer holds (``added_vocabulary.extract_and_normalize``, tokenizers/src/tokenizer/mod.rs) and the
pre-tokenizer passes over them, so each reaches the BPE trainer as one whole word, past the split pattern; the
trainer still counts the pairs inside it. A special token given only to the trainer's ``special_tokens`` goes into
the vocabulary first and nothing more: the text is cut by the split pattern as usual. The lesson used to say the
trainer merges the token's bytes "like any others", told or not."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import nbformat
from tokenizers import Tokenizer, models, trainers

from bpelab import BPETokenizer, hugging_face
from bpelab.special_tokens import split_on_specials

NOTEBOOK = Path(__file__).parent.parent / "notebooks" / "13_your_tokenizer_for_real.ipynb"
SPECIAL = "<|endoftext|>"


def _cells() -> list:
    return nbformat.read(NOTEBOOK, as_version=4).cells


def _output(cell) -> str:
    return "".join(o.get("text", "") for o in cell.get("outputs", []) if o.get("output_type") == "stream")


# ---- the lesson ------------------------------------------------------------------------------------------------


def test_the_lesson_no_longer_says_the_trainer_merges_a_special_token_like_any_other_text():
    text = "\n".join(c.source for c in _cells() if c.cell_type == "markdown")
    assert "Told the special tokens or not" not in text
    assert "like any others that repeat often enough" not in text
    assert "learns from every byte it is handed, special tokens included, even when told them" not in text


def test_the_lesson_prints_the_merges_of_the_three_runs_and_cites_the_source():
    cells = _cells()
    runs = next(c for c in cells if c.cell_type == "code" and "cut = merges_of(" in c.source)
    out = _output(runs)
    assert "tokenizers 0.23.3" in out, out
    assert f"the split pattern cuts {SPECIAL} into ['<|', 'endoftext', '|>']" in out, out
    holding = next(line for line in out.splitlines() if "the tokenizer holding it" in line)
    # the whole token reaches the trainer as one word: merges across the pattern's pieces, up to the token itself
    assert "('<|', 'endofte')" in holding and "('<|endofte', 'xt|>')" in holding, holding
    assert f"a learned token equal to {SPECIAL}: True" in out, out
    told = next(line for line in out.splitlines() if "only the trainer told it" in line)
    assert "('endofte', 'xt')" in told and "('.', '<|')" in told and "'xt|>'" not in told, told
    assert f"a learned token equal to {SPECIAL}: False" in out, out
    assert "the text cut at the special tokens: []" in out, out
    # read 16 (fixAQ): the filter finds the merges of the special token's own pieces, not code's '->'
    assert f"merges of the pieces of {SPECIAL} (inside it, or a piece of it joined to more):" in out, out
    assert "'->'" not in out and "('-', '>')" not in out, out
    assert (
        "across the pattern's pieces, the text whole, the tokenizer holding it: ['xt|>', '<|endofte', '<|endoftext|>']"
        in out
    ), out
    assert "across the pattern's pieces, the text whole, only the trainer told it: []" in out, out
    prose = " ".join(next(cells[i + 1].source for i, c in enumerate(cells) if c is runs).split())
    for cited in ("tokenizers/src/tokenizer/mod.rs", "extract_and_normalize", "#1617", "5c475db", "trainer.rs"):
        assert cited in prose, cited
    assert "cut at your special tokens" in prose
    recap = " ".join(next(c.source for c in cells if c.source.startswith("## Recap")).split())
    assert "one whole word" in recap and "cut by the split pattern" in recap, recap


# ---- the pinned tokenizers ----------------------------------------------------------------------------------------


def _train(texts: list[str], *, holds: bool, told: bool) -> list[str]:
    """The texts of the tokens Hugging Face's trainer learns (its merges, joined), behind bpelab's exported
    tokenizer.json (GPT-4o's split pattern), the tokenizer holding the special token as an added token or not."""
    tokenizer = BPETokenizer().train("a tiny text to export " * 4, 260, pattern="o200k", special_tokens=[SPECIAL])
    with tempfile.TemporaryDirectory() as folder:
        hf = Tokenizer.from_file(str(tokenizer.save_hf(Path(folder) / "tokenizer.json")))
    if not holds:
        exported = json.loads(hf.to_str())
        exported["added_tokens"] = []
        hf = Tokenizer.from_str(json.dumps(exported))
    hf.model = models.BPE()
    hf.train_from_iterator(
        texts,
        trainers.BpeTrainer(
            vocab_size=256 + 1 + 300,  # more than the text has pairs seen twice: every one is merged
            min_frequency=2,
            special_tokens=[SPECIAL] if told else [],
            initial_alphabet=[hugging_face.byte_level_text(bytes([b])) for b in range(256)],
            show_progress=False,
        ),
    )
    return ["".join(m) for m in hugging_face.merge_pairs(json.loads(hf.to_str())["model"]["merges"])]


DOCUMENTS = ["the cat sat on the mat", "a dog ate the hat", "my bird sang a song"] * 5
PIECES = ["<|", "endoftext", "|>"]  # GPT-4o's split pattern on <|endoftext|>


def _of_special(learned: list[str]) -> list[str]:
    return [t for t in learned if any(c in t for c in "<|>")]


def test_a_held_special_token_reaches_the_trainer_whole_and_is_merged_across_the_patterns_pieces():
    for told in (True, False):
        learned = _train([SPECIAL.join(DOCUMENTS)], holds=True, told=told)
        assert SPECIAL in learned, (told, learned)  # merged into one learned token
        assert any(t in SPECIAL and not any(t in p for p in PIECES) for t in learned), learned
        # nothing is joined to it from the text around it: it is a word of its own
        assert all(t in SPECIAL for t in _of_special(learned)), learned


def test_a_special_token_only_the_trainer_is_told_is_cut_by_the_split_pattern():
    learned = _train([SPECIAL.join(DOCUMENTS)], holds=False, told=True)
    assert set(PIECES) <= set(learned), learned
    assert SPECIAL not in learned
    assert all(any(t in p for p in PIECES) for t in _of_special(learned)), learned


def test_the_text_cut_at_the_special_tokens_gives_no_merge_of_them():
    for holds in (True, False):
        learned = _train(split_on_specials(SPECIAL.join(DOCUMENTS), [SPECIAL]), holds=holds, told=True)
        assert _of_special(learned) == [] and not any("endoftext" in t for t in learned), learned
