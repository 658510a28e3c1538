"""Read 20 of lesson 16 (fix BF): what a fresh reviewer found, each fix held by a test.

- Section 1 cited sentencepiece's README at commit 2734490 by line numbers that did not say what the sentence said
  ("Overview", line 49, is only a heading; the '▁' escape is at line 79; "raw sentences" at lines 17 and 66).
- Section 3 said that only a hand-edited model holds +0.0 and -0.0 scores; every trained model holds both (the
  first learned piece scores -0.0, meta pieces +0.0): what only a hand-edited model holds is a normal piece at +0.0
  that can tie with a -0.0 one.
- Section 4 called commit 2734490 "the commit after v0.2.0"; it is 64 commits after it.
- The stepper's table of single merges gave "at symbol" in a list where the emoji counted as its four byte pieces;
  SentencePiece (and Exercise 1's next_merge) merges over a list where it is one symbol.
"""

from __future__ import annotations

import nbformat
import pandas as pd

from bpelab.analysis.sentencepiece_replay import replay_sentencepiece
from bpelab.sentencepiece import load_sentencepiece
from tests.lesson16_solutions import LESSON, shown_solution


def _cell(cell_id: str) -> nbformat.NotebookNode:
    return next(c for c in nbformat.read(LESSON, as_version=4).cells if c.id == cell_id)


# ---- 1. the README's line numbers --------------------------------------------------------------------------


def test_the_readme_is_cited_by_lines_that_say_what_the_sentence_says():
    """Seen in ``git show 2734490:README.md | cat -n`` (google/sentencepiece): line 17 "direct training from raw
    sentences", 21 "## Technical highlights", 23 "is not always required", 30 "NFKC-based normalization", 49
    "## Overview", 64 "#### Trains from raw sentences", 66 "train the model from raw sentences", 68 "#### Whitespace
    is treated as a basic symbol", 79 'a meta symbol "▁" (U+2581)'."""
    source = _cell("a16e0002").source
    assert '"Overview", line 49)' not in source
    assert '"direct training from raw sentences", line 17' in source
    assert (
        '"Trains from raw sentences", line 64' in source and '"train the model from raw sentences", line 66' in source
    )
    assert '`▁` (U+2581) (line 79, in the\nsubsection "Whitespace is treated as a basic symbol", line 68)' in source
    assert '"Overview", which starts at line 49' in source
    assert '"is not always required" (line 23, in\n"Technical highlights", lines 21–30)' in source
    assert '("NFKC-based normalization", line 30)' in source


# ---- 2. the two zeros ----------------------------------------------------------------------------------------


def test_the_zeros_are_not_said_to_be_only_in_hand_edited_models():
    source = " ".join(_cell("a16e000f").source.split())
    assert "two kinds of score that only a hand-edited model holds" not in source
    assert "+0.0 counts above −0.0" in source
    assert "A model SentencePieceTrainer makes holds both zeros" in source
    assert (  # read 21 (fixBL) said "edited after training"; read 23 (fixBV): the file shows only that the public
        # trainer did not write those scores
        "only a model whose scores did not come from the public trainer as released (as Mistral's −1,000,000,000 "
        "did not: section 2) can hold a normal piece at +0.0 that ties with one at −0.0" in source
    )


def test_the_lesson_computes_that_a_trained_model_holds_both_zeros():
    cell = _cell("a16e0f02")
    printed = "".join(o.get("text", "") for o in cell.outputs)
    assert "scores -0.0" in printed
    assert "pieces scoring +0.0: ['<unk>', '<s>', '</s>']" in printed


# ---- 3. commit 2734490 is not "the commit after v0.2.0" ----------------------------------------------------


def test_commit_2734490_is_said_to_be_64_commits_after_v020():
    source = _cell("a16e001eb").source
    assert "the commit after v0.2.0" not in source
    assert "64 commits after v0.2.0" in source


# ---- 4. "at symbol" is SentencePiece's own index -------------------------------------------------------------


def _merges_by_next_merge(symbols: list[str], scores: dict[str, float]) -> list[int]:
    next_merge = shown_solution("a16e0c01", "next_merge")
    places = []
    while (i := next_merge(symbols, scores)) is not None:
        places.append(i)
        symbols[i : i + 2] = [symbols[i] + symbols[i + 1]]
    return places


def _table_cell_run(text: str) -> pd.DataFrame:
    notebook = nbformat.read(LESSON, as_version=4)
    table = next(c.source for c in notebook.cells if c.cell_type == "code" and "replay.single_steps" in c.source)
    mistral = load_sentencepiece("mistral_v1")
    # what the table cell reads: the setup cell's names and the stepper cell's replay (display: the table unshown)
    namespace = {
        "display": lambda *_: None,
        "mistral": mistral,
        "pd": pd,
        "replay": replay_sentencepiece(mistral, text),
    }
    exec(table, namespace)
    return namespace["singles"]


def test_the_tables_index_is_next_merges_on_the_normalised_symbols():
    mistral = load_sentencepiece("mistral_v1")
    example = "The robot 🤖 sat on the mat, and the cat sat on the robot."
    scores = {piece: mistral.scores[i] for piece, i in mistral.mergeable.items()}
    expected = _merges_by_next_merge(list(mistral.normalize(example)), scores)
    assert expected[:4] == [19, 31, 45, 27]
    singles = _table_cell_run(example)
    assert list(singles["at symbol"]) == expected


def test_the_replay_gives_sentencepieces_index_for_every_merge_and_the_end_note_uses_it():
    mistral = load_sentencepiece("mistral_v1")
    scores = {piece: mistral.scores[i] for piece, i in mistral.mergeable.items()}
    for text in ["🤖🤖 a b", "x 東 y ⅷ 🤖 the cat", "🤖     return x", "a     b 🤖"]:
        replay = replay_sentencepiece(mistral, text)
        assert replay.sentencepiece_at == _merges_by_next_merge(list(mistral.normalize(text)), scores), text
    replay = replay_sentencepiece(mistral, "🤖     return x")  # ▁ 🤖 and five ▁: SentencePiece's index 2
    assert replay.stepper_stops_at is not None
    at = replay.sentencepiece_at[replay.stepper_stops_at]
    assert at == 2 and replay.single_steps[replay.stepper_stops_at][2] == 5
    assert f"SentencePiece joins ▁ + ▁ at symbol {at}," in replay.end_note


def test_the_prose_says_the_emoji_is_one_symbol_in_the_index():
    source = _cell("a16e0011").source
    assert "the emoji counts as its four byte pieces" not in source
    assert "next_merge" in source
