"""Lesson 13 as a learner runs it: the exercise's answer is never handed over under the exercise's name."""

import ast
import json
import warnings
from pathlib import Path

LESSON = Path(__file__).resolve().parents[1] / "notebooks" / "13_your_tokenizer_for_real.ipynb"


def code_cells() -> list[ast.Module]:
    cells = json.loads(LESSON.read_text(encoding="utf-8"))["cells"]
    return [ast.parse("".join(c["source"])) for c in cells if c["cell_type"] == "code"]


def names_bound_by_imports(tree: ast.Module) -> set[str]:
    return {
        (alias.asname or alias.name).split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in node.names
    }


def test_the_exercise_name_is_only_the_learners():
    """Imported as byte_level_text, bpelab's answer would pass the checker before the learner writes a line, and
    a cell that called it would break (TypeError) once the learner's stub replaced it."""
    cells = code_cells()
    stub = next(
        i
        for i, tree in enumerate(cells)
        if any(isinstance(node, ast.FunctionDef) and node.name == "byte_level_text" for node in tree.body)
    )
    assert all("byte_level_text" not in names_bound_by_imports(tree) for tree in cells)
    for i, tree in enumerate(cells):
        if i in (stub, stub + 1):
            continue  # the stub, and its checker
        bare = [n for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id == "byte_level_text"]
        assert not bare, f"code cell {i} uses the learner's byte_level_text; use hugging_face.byte_level_text"


def test_the_lesson_hands_off_to_lesson_14():
    text = LESSON.read_text(encoding="utf-8")
    assert "(14_fairer_merges_bigger_tokens.ipynb)" in text and "Fairer merges, bigger tokens" in text


def cell_sources() -> list[str]:
    cells = json.loads(LESSON.read_text(encoding="utf-8"))["cells"]
    return ["".join(c["source"]) for c in cells if c["cell_type"] == "code"]


def run_sections_1_and_2(train: str, capsys) -> str:
    """The lesson's own cells up to the tie replay, on a learner's text, in one namespace (as a kernel would)."""
    sources = cell_sources()
    upto = next(i for i, s in enumerate(sources) if s.startswith("ties = []"))
    namespace: dict = {}
    learners_choice = f"TRAIN_NAME = 'mine'\nTRAIN = {train!r}\nHELD_OUT = TRAIN[-2:]\n"
    with warnings.catch_warnings():  # the lesson's own warning filter stays inside this test
        for i, source in enumerate(sources[: upto + 1]):
            if source.startswith("TRAIN_NAME"):
                source = learners_choice + source[source.index("UNLIKE") :]
            exec(compile(source, f"cell {i}", "exec"), namespace)
    return capsys.readouterr().out


def test_the_tie_cells_run_on_a_text_without_a_tie_and_name_the_parting_one(capsys):
    """No merge differs: no IndexError, a sentence instead. One tie: the merge where the trainers part, named."""
    out = run_sections_1_and_2("aaaa", capsys)
    assert "no merge differs" in out and "nothing to replay" in out and "STOPPED EARLY: 258 ids" in out
    out = run_sections_1_and_2("the cat sat on the mat. " * 50, capsys)
    assert "where they part: 2 pairs occur" in out


def test_the_digit_figures_in_the_prose_are_the_ones_the_cell_printed():
    """Section 3 quotes how many numbers keep GPT-4's ids through tokenizers; a re-run with other libraries that
    changed the printed counts must not leave the old ones in the sentence below them."""
    import re

    cells = json.loads(LESSON.read_text(encoding="utf-8"))["cells"]
    at = next(i for i, c in enumerate(cells) if c.get("id") == "digits-in-tokenizers")
    printed = "".join("".join(o.get("text", "")) for o in cells[at]["outputs"])
    prose = "".join(cells[at + 1]["source"]).replace("\n", " ")
    counts = re.findall(r"for ([\d,]+) of ([\d,]+) numbers with the pattern as written, for ([\d,]+) written", printed)
    assert len(counts) == 2, printed  # four digits, five digits
    for same, total, _ in counts:
        assert f"{same} of the {total}" in prose, (same, total)
    rewritten = sum(int(n.replace(",", "")) for _, _, n in counts)
    everything = sum(int(total.replace(",", "")) for _, total, _ in counts)
    assert rewritten == everything and f"every one of the {everything:,} numbers" in prose


def run_lesson_on(choice: str, capsys, *, until: str) -> str:
    """The lesson's cells up to the one starting with ``until``, section 1's text chosen by ``choice`` (Python source
    that sets TRAIN_NAME, TRAIN and HELD_OUT), in one namespace; section 3's 99,000 numbers are left out (slow)."""
    sources = cell_sources()
    upto = next(i for i, s in enumerate(sources) if s.startswith(until))
    namespace: dict = {}
    with warnings.catch_warnings():
        for i, source in enumerate(sources[: upto + 1]):
            if source.startswith("gpt4_ranks = "):
                continue
            if source.startswith("TRAIN_NAME"):
                source = choice + source[source.index("UNLIKE") :]
            exec(compile(source, f"cell {i}", "exec"), namespace)
    return capsys.readouterr().out


def test_a_text_with_special_tokens_between_documents_runs_and_trains_alike(capsys):
    """Essays joined by <|endoftext|>, a common layout for a training file: Hugging Face's trainer, handed the text
    whole, learns merges from the token's bytes; the lesson cuts the text at it, so the tokenizers tie rule gives the
    identical merge list, and the held-out text, which holds the token too, encodes to the same ids everywhere."""
    choice = (
        "TRAIN_NAME = 'essays with separators'\n"
        "_paragraphs = [p for p in read_corpus('english_train')[:60_000].split('\\n\\n') if p.strip()]\n"
        "TRAIN = '<|endoftext|>'.join(_paragraphs)\n"
        "HELD_OUT = '<|endoftext|>'.join(read_corpus('english_heldout')[:8_000].split('\\n\\n'))\n"
    )
    out = run_lesson_on(choice, capsys, until="ranks_file = ")
    assert "the text whole: the same merges as bpelab: False" in out, out
    assert "the text cut at the special tokens: the same merges as bpelab: True" in out, out
    assert "special tokens in the training text: " in out and "special tokens in the training text: 0 " not in out
    assert "identical lists" in out, out
    assert "tiktoken gives the same ids: True" in out and "tokenizers gives the same ids: True" in out
    assert "both decode back to the text: True" in out
    assert "read back, the same ids on the held-out text: True" in out


def test_python_code_as_the_lessons_suggests_gives_the_same_merge_count(capsys):
    """The course's code stops training early (no pair occurs twice); Hugging Face's trainer must be asked for the
    same vocabulary size, not for as many merges as the first-rule model happened to learn."""
    choice = (
        "TRAIN_NAME, TEXT = 'Python code', read_corpus('code')\n"
        "cut = len(TEXT) * 9 // 10; TRAIN, HELD_OUT = TEXT[:cut], TEXT[cut:]\n"
    )
    out = run_lesson_on(choice, capsys, until="hf_rule = ")
    assert "STOPPED EARLY" in out
    assert "identical lists" in out, out


def test_an_empty_held_out_text_is_refused_in_section_1_with_what_to_do(capsys):
    import pytest

    with pytest.raises(ValueError, match="HELD_OUT is empty .* keep part of your text aside"):
        run_lesson_on("TRAIN_NAME = 'mine'\nTRAIN = 'some text ' * 50\nHELD_OUT = ''\n", capsys, until="TRAIN_NAME")
