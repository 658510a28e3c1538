"""Lesson 14's second fresh read: a tie between languages is not broken by the length of their names, a check cell
works in a kernel where the imports cell was skipped, and the prose on the stage-2 cuts says what the pattern does."""

import re
import sys

import pytest

from bpelab.exercises.parity import check_gini, check_parity_next_pair
from tests.test_lesson14 import cells


def report(capsys):
    return capsys.readouterr().out


def by_name_length(*, shorter_first: bool):
    """The parity-aware choice with ties between languages broken by the length of their names: right whenever the
    tied names are equally long, as two-letter codes are."""

    def parity_next_pair(tokens, pair_counts):
        sign = 1 if shorter_first else -1
        for language in sorted(tokens, key=lambda lang: (-tokens[lang], sign * len(lang))):
            counts = pair_counts[language]
            if counts:
                pair = max(counts, key=counts.get)
                if counts[pair] >= 2:
                    return language, pair
        return None

    return parity_next_pair


@pytest.mark.parametrize("shorter_first, word", [(True, "shortest"), (False, "longest")])
def test_next_pair_a_tie_broken_by_the_length_of_the_names_is_rejected_and_named(capsys, shorter_first, word):
    assert not check_parity_next_pair(by_name_length(shorter_first=shorter_first)).passed
    out = report(capsys)
    assert "length of their names" in out and word in out


def test_next_pair_cases_tie_languages_whose_names_differ_in_length():
    """The hand-made cases hold a tie among names of different lengths where the first listed is neither the
    shortest nor the longest, so no rule on length can pass them by chance."""
    from bpelab.exercises.parity import PARITY_NEXT_PAIR

    found = False
    for case in PARITY_NEXT_PAIR.build_cases():
        tokens = case.args[0]
        top = max(tokens.values(), default=None)
        tied = [name for name in tokens if tokens[name] == top]
        lengths = [len(name) for name in tied]
        if len(set(lengths)) >= 3 and min(lengths) < len(tied[0]) < max(lengths):
            found = True
    assert found


def check_cell_sources() -> list[str]:
    return [source for source, _ in cells().values() if re.search(r"\bcheck_(gini|parity_next_pair)\(", source)]


def test_a_check_cell_runs_in_a_kernel_where_the_imports_cell_was_skipped(capsys):
    """Each check cell imports its own checker: run alone in an empty namespace it says what to run, and with the
    learner's function defined it checks it, never ``NameError: name 'check_gini' is not defined``."""
    sources = check_cell_sources()
    assert len(sources) == 2
    for source in sources:
        name = re.search(r"\bcheck_(\w+)\((\w+)\)", source).group(2)
        exec(source, {})  # neither cell 1 nor the exercise cell was run
        assert f"{name} is not defined yet: run the exercise cell above" in report(capsys)


def test_a_check_cell_checks_the_function_when_only_the_exercise_cell_was_run(capsys):
    from tests.test_exercises_parity import good_gini, good_next_pair

    for source in check_cell_sources():
        name = re.search(r"\bcheck_(\w+)\((\w+)\)", source).group(2)
        exec(source, {name: {"gini": good_gini, "parity_next_pair": good_next_pair}[name]})
        assert report(capsys).startswith(f"✅ {name}: all")


def test_gini_rebound_to_its_own_result_is_told_to_run_the_defining_cell_again(capsys, monkeypatch):
    from tests.test_exercises_parity import good_gini

    gini = good_gini([1, 3])  # the learner's `gini = gini([1, 3])`: the name now holds a float
    monkeypatch.setattr(sys.modules["__main__"], "gini", gini, raising=False)  # a notebook's names live in __main__
    assert not check_gini(gini).passed
    out = report(capsys)
    assert "gini now holds a number" in out and "Run the cell that defines the function again" in out
    assert "not check_gini(gini(...))" not in out


def test_the_stage_two_cuts_of_devanagari_are_said_as_computed():
    """The pattern cuts only runs of two or more marks: the prose says so, and a cell prints the three examples."""
    prose = " ".join(cells()["c14b0005"][0].split())
    assert "so that `लोगों में से` is cut at its vowel signs" not in prose
    assert "two or more" in prose and "`से` keeps its vowel sign" in prose
    printed = "\n".join(output for _, output in cells().values())
    assert "'नमस्ते दुनिया': the course's cuts ['नमस्ते दुनिया']" in printed
    assert "'पढ़ो': the course's cuts ['पढ', '़ो']" in printed
    assert "the 36 Hindi sentences: 229 of their 885 combining marks are cut off their letters" in printed
    assert "229 of the 885 combining marks are cut off their letters" in prose


def test_the_published_tokenizers_are_counted_exactly():
    prose = " ".join(cells()["c14b0005"][0].split())
    assert "the tokenizers the repository publishes carry `mw4_colon`" not in prose
    assert "10 of the 11 folders under `tokenizer_json/`" in prose
    assert "olmo2_p99_truncate_pretok_10G_200K" in prose


def test_the_superword_docstring_says_which_marks_are_cut():
    import bpelab.superword

    doc = bpelab.superword.__doc__ or ""
    assert "combining marks such as Hindi's vowel signs)" not in doc
    assert "two or more" in doc and "one mark alone" in doc
