"""Lesson 14's prose says what its cells compute: the rules it relies on are stated where it relies on them, and each
figure it names is printed by a cell (nbval then holds the printed figure)."""

import json
import os
from pathlib import Path

LESSON = Path(
    os.environ.get(
        "LESSON14", Path(__file__).resolve().parents[1] / "notebooks" / "14_fairer_merges_bigger_tokens.ipynb"
    )
)


def cells() -> dict[str, tuple[str, str]]:
    """Each cell's source and printed output, by cell id."""
    found = {}
    for cell in json.loads(LESSON.read_text(encoding="utf-8"))["cells"]:
        output = "".join("".join(o.get("text", "")) for o in cell.get("outputs", []))
        found[cell["id"]] = ("".join(cell["source"]), output)
    return found


def test_the_credit_of_a_merge_has_its_tie_rule_stated_and_counted():
    """Several languages can hold a pair equally often: who gets the credit is a rule, said and counted."""
    source, output = cells()["c14b0001"]
    assert "max(held, key=held.get)" in source  # max keeps the first of equal counts: the rule the prose states
    assert "ties:" in output and "merges whose pair two or more languages hold equally often" in output
    prose, _ = cells()["c14b0002"]
    assert "tie rule" in prose and "first of them in the order the languages are listed" in prose


def test_tamils_first_merges_are_not_called_whole_characters():
    """The first merges make the two bytes that begin a Tamil character as often as whole characters."""
    _, output = cells()["861a1de7"]
    assert "make whole characters:" in output and "parts of a character: b'\\xe0\\xae'" in output
    prose, _ = cells()["1ef9a863"]
    assert "into whole characters" not in prose and "only a part of one" in prose
    assert "wait longest" not in prose  # no cell measured how long anyone waits


def test_superbpe_trainer_rules_are_cited_and_counted():
    """The reference trainer refuses tokens of more than four words and tokens holding ': ': said, cited, counted."""
    prose, _ = cells()["c14b0005"]
    assert "tokenizers/src/models/bpe/trainer.rs" in prose and "757f2a5" in prose
    assert "lines 724–728" in prose and "lines 730–735" in prose and "mw4_colon" in prose
    assert "The course follows neither rule" in prose
    _, output = cells()["96a80361"]
    assert "more than four words: " in output and "a colon and a space: " in output


def test_a_check_run_before_its_exercise_says_so(capsys):
    """A check cell run before its exercise cell says what to run, not ``NameError: name 'gini' is not defined``."""
    import re

    checks = [source for source, _ in cells().values() if re.search(r"\bcheck_(gini|parity_next_pair)\(", source)]
    assert len(checks) == 2
    for source in checks:
        name = re.search(r"\bcheck_(\w+)\((\w+)\)", source).group(2)
        namespace: dict[str, object] = {}
        exec("from bpelab.exercises.parity import check_gini, check_parity_next_pair", namespace)
        exec(source, namespace)  # the exercise cell was not run
        assert f"{name} is not defined yet: run the exercise cell above" in capsys.readouterr().out


def test_the_prose_on_the_stage_two_cuts_and_on_superwords_is_printed():
    """The lesson says what the stage-2 class and line-break cut take, and what counts as whitespace, with a cell
    printing each; the recap names the fall in tokens on the English-heavy mix that a cell prints."""
    text = {key: source for key, (source, _) in cells().items()}
    printed = "\n".join(output for _, output in cells().values())
    assert "'लोगों में से': the course's cuts ['लोग', 'ों', ' म', 'ें', ' से']" in printed
    assert "'two line\\rthree\\u2028four': the course's cuts ['two line', '\\r', 'three', '\\u2028', 'four']" in printed
    assert "'Bonjour\\xa0!': True" in printed
    tables = [
        "".join(o.get("data", {}).get("text/plain", ""))
        for cell in json.loads(LESSON.read_text(encoding="utf-8"))["cells"]
        for o in cell.get("outputs", [])
    ]
    assert any("13342" in t and "12046" in t for t in tables) and any("-9.7" in t for t in tables)
    recap = next(source for source in text.values() if "## Recap" in source)
    assert "13,342 to 12,046" in recap and "9.7%" in recap
    assert not any("compares numbers, not their types, and allows for rounding" in s for s in text.values())
    assert not any("as the paper describes" in s for s in text.values())
