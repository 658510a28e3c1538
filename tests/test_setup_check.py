"""The environment check of lesson 00: it reports every problem with its fix and never raises."""

from __future__ import annotations

import importlib.metadata
import re
import sys

import tiktoken

from bpelab.course import setup_check
from bpelab.course.setup_check import (
    MIN_PYTHON,
    OK,
    PROBLEM,
    WARNING,
    WIDGET_FALLBACK,
    CheckResult,
    check_environment,
    check_packages,
    check_python,
    check_tokenizers,
    check_widgets,
    format_report,
    pinned_versions,
    widget_probe,
)
from bpelab.course.versions import Declared
from bpelab.paths import REPO_ROOT
from bpelab.vocab_files import FIX_COMMAND, tiktoken_cache_path


def _point_data_at(tmp_path, monkeypatch):
    """Make the course look for its vocabularies in an empty folder, as on a fresh clone."""
    monkeypatch.setenv("BPELAB_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path / "cache"))


def test_real_tokenizers_load_offline_and_round_trip():
    rows = check_tokenizers()
    assert [r.status for r in rows] == [OK] * 4, rows
    gpt4 = rows[1]
    assert gpt4.item == "GPT-4 (cl100k_base)"
    # The numbers in the row are tiktoken's own, computed independently here.
    reference = tiktoken.get_encoding("cl100k_base")
    assert f"n_vocab {reference.n_vocab:,};" in gpt4.detail  # n_vocab, not a token count (lesson 07)
    assert f"sample = {len(reference.encode(setup_check.SAMPLE_TEXT))} tokens" in gpt4.detail


def test_missing_vocabularies_are_problems_that_say_make_data(tmp_path, monkeypatch):
    _point_data_at(tmp_path, monkeypatch)
    rows = check_tokenizers()
    assert [r.status for r in rows] == [PROBLEM] * 4
    assert all(r.fix == FIX_COMMAND and "missing" in r.detail for r in rows)
    assert all(str(tmp_path) not in r.detail for r in rows), "paths mean little to a learner"
    report = format_report(rows)
    assert report.count("make data") == 1, "one fix, listed once"
    assert "4 problem(s)" in report


def test_a_damaged_vocabulary_is_reported_as_corrupted(tmp_path, monkeypatch):
    _point_data_at(tmp_path, monkeypatch)
    damaged = tiktoken_cache_path("cl100k_base")
    damaged.parent.mkdir(parents=True)
    damaged.write_bytes(b"not a vocabulary\n")
    rows = {r.item: r for r in check_tokenizers(("cl100k_base",))}
    assert rows["GPT-4 (cl100k_base)"].status == PROBLEM
    assert "corrupted" in rows["GPT-4 (cl100k_base)"].detail


def test_a_tokenizer_that_fails_to_load_is_a_row_not_an_exception(monkeypatch):
    def broken(name):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(setup_check, "load_encoding", broken)
    (row,) = check_tokenizers(("r50k_base",))
    assert row.status == PROBLEM and "disk on fire" in row.detail and row.fix == FIX_COMMAND


def test_package_versions_against_the_pins():
    installed = importlib.metadata.version("tiktoken")
    rows = check_packages([Declared("tiktoken", ">=0.7", installed)], pins={"tiktoken": installed})
    assert rows == [CheckResult("tiktoken", OK, installed)]
    (drifted,) = check_packages([Declared("tiktoken", ">=0.7", installed)], pins={"tiktoken": "0.7.0"})
    assert drifted.status == WARNING and "0.7.0" in drifted.detail and installed in drifted.detail


def test_an_out_of_range_package_is_a_problem_with_the_pip_command_that_fixes_it():
    old_widgets = [Declared("ipywidgets", ">=7.7.2", "7.7.1")]
    (row,) = check_packages(old_widgets, pins={})
    assert row.status == PROBLEM and "7.7.1" in row.detail and ">=7.7.2" in row.detail
    assert row.fix == 'pip install "ipywidgets>=7.7.2"'
    # ... and the widget row does not say ✅ (before 7.7.2, JupyterLab may not draw its controls)
    widgets = check_widgets(old_widgets)
    assert widgets.status == PROBLEM and "7.7.1" in widgets.detail and widgets.fix == row.fix
    report = format_report([row, widgets])
    assert report.count('pip install "ipywidgets>=7.7.2"') == 1


def test_a_missing_package_is_a_row_and_a_missing_front_end_is_none():
    rows = check_packages(
        [Declared("no-such-package-bpelab", ">=1", None), Declared("jupyterlab", ">=4.0", None, extra="course")],
        pins={},
    )
    assert rows == [
        CheckResult("no-such-package-bpelab", PROBLEM, "not installed", 'pip install "no-such-package-bpelab>=1"')
    ]


def test_the_real_environment_check_lists_the_lessons_packages_in_range():
    rows = {r.item: r for r in check_packages()}
    assert {"ipywidgets", "matplotlib", "pandas", "regex", "tiktoken", "tokenizers", "sentencepiece"} <= set(rows)
    # In range everywhere; a version other than the pin is a warning (make test-compat runs this with other versions).
    assert all(r.status == OK or (r.status == WARNING and "the course was run with" in r.detail) for r in rows.values())


def test_pins_are_read_from_requirements_with_comments_and_underscores(tmp_path):
    requirements = tmp_path / "requirements.txt"
    requirements.write_text("# a comment\nJupyter_Core==5.9.1  # why\nregex==2026.11.15\nloose>=1\n", encoding="utf-8")
    assert pinned_versions(requirements) == {"jupyter-core": "5.9.1", "regex": "2026.11.15"}
    assert pinned_versions(tmp_path / "absent.txt") == {}


def test_python_version():
    assert check_python((3, 0)).status == OK
    too_old = check_python((99, 0), requires=(99, 0))
    assert too_old.status == PROBLEM and "99.0" in too_old.fix
    below_the_pins = check_python((99, 0))  # bpelab installs (requires-python), the exact pins do not: a warning
    assert below_the_pins.status == WARNING and "99.0" in below_the_pins.fix
    shown = check_python().detail
    assert shown == ".".join(map(str, sys.version_info[:3])), "the patch level is part of what is checked"


def test_python_is_accepted_exactly_as_the_makefile_accepts_it():
    makefile = (REPO_ROOT / "Makefile").read_text(encoding="utf-8")
    (wanted,) = re.findall(r"^MIN_PYTHON\s*:=\s*(\S+)", makefile, re.MULTILINE)
    assert ".".join(map(str, MIN_PYTHON)) == wanted
    # 3.11.4 < 3.11.5: pip installs bpelab (requires-python >= 3.11) but not every pin
    assert check_python((*sys.version_info[:2], sys.version_info[2] + 1)).status == WARNING


def test_report_says_ready_only_when_all_is_well():
    fine = [CheckResult("a", OK, "1"), CheckResult("bb", OK, "2")]
    assert format_report(fine).endswith("Everything is ready. On to lesson 01!")
    mixed = fine + [CheckResult("c", WARNING, "old", "fix-w"), CheckResult("d", PROBLEM, "gone", "fix-p")]
    report = format_report(mixed)
    assert "Everything is ready" not in report
    assert "1 problem(s), 1 warning(s)" in report
    assert report.index("fix-w") < report.index("fix-p")
    # Rows stay aligned: the detail column starts at the same place on every line.
    first_two = report.splitlines()[:2]
    assert first_two[0].index("1") == first_two[1].index("2")


def test_check_environment_prints_only_when_asked(capsys):
    rows = check_environment(show=False)
    assert capsys.readouterr().out == ""
    items = [r.item for r in rows]
    assert items[0] == "Python" and "ipywidgets" in items and "Llama 3" in items
    check_environment()
    assert "GPT-4o (o200k_base)" in capsys.readouterr().out


def test_widget_probe_renders_as_a_widget_and_falls_back_to_advice():
    probe = widget_probe()
    # ipywidgets 8 shows a widget through _repr_mimebundle_; 7.x through _ipython_display_, whose text is repr()
    if hasattr(probe, "_repr_mimebundle_"):
        bundle = probe._repr_mimebundle_()
        assert "application/vnd.jupyter.widget-view+json" in bundle
        assert bundle["text/plain"] == WIDGET_FALLBACK, "the fallback must be stable and whole"
    assert repr(probe) == WIDGET_FALLBACK
    assert len(WIDGET_FALLBACK) <= 110, "ipywidgets cuts text/plain at 110 characters"
    assert "widgets render" in probe.value
