"""The benchmark's plumbing (no timing is asserted: timings belong in the benchmark's own output)."""

import pytest

from bpelab.bench import __main__ as bench
from bpelab.bench.common import against_target, corpus, note, speed
from bpelab.bench.encoding import encode_by_replaying
from bpelab.bench.hostile import base64_blob
from bpelab.byte_level import BPETokenizer


def test_corpus_reaches_the_size_by_repeating_and_says_so():
    text, how = corpus(300_000)
    assert 299_990 <= len(text.encode("utf-8")) <= 300_000
    assert "repeated" in how and "english_train.txt" in how
    small, how_small = corpus(1_000)
    assert len(small.encode("utf-8")) <= 1_000 and "first 1 KB" in how_small


def test_ratios_are_written_in_words():
    assert speed(1.0, 10.0) == "10.0x faster"
    assert speed(3.0, 2.0) == "1.50x slower"
    assert against_target(1.0, 150.0, at_least_faster=100) == "150.0x faster (target >= 100x faster: met)"
    assert against_target(3.0, 1.0, at_most_slower=2).endswith("NOT MET)")


def test_table_aligns_columns_and_spreads_notes():
    table = bench.format_table([note("a note that is longer than any column"), ("x", "1 s", "2 s", "2.0x faster")])
    lines = table.splitlines()
    assert lines[0].split() == ["what", "ours", "peer", "ratio"]
    assert "a note that is longer than any column" in lines
    assert lines[-1].index("1 s") == lines[0].index("ours")


def test_every_section_is_listed_once_and_a_missing_one_is_skipped():
    assert len(set(bench.SECTIONS)) == len(bench.SECTIONS)
    assert bench.load_section("no_such_section") is None
    for name in ("training", "encoding", "scaling", "hostile"):
        assert callable(bench.load_section(name).rows)


def test_replaying_every_merge_gives_the_rank_based_ids():
    text = "the cat sat on the mat; the cat ate the rat. " * 5
    tokenizer = BPETokenizer().train(text, 290, pattern="gpt2")
    assert encode_by_replaying(tokenizer, text) == tokenizer.encode(text)


def test_base64_blob_is_fixed_and_of_the_size_asked():
    blob = base64_blob(1000)
    assert len(blob) == 1000 and blob == base64_blob(1000)
    assert set(blob) <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")


def test_hostile_section_has_the_emoji_and_chinese_single_pieces():
    from bpelab.bench.hostile import cases
    from bpelab.patterns import PATTERNS, split_text

    texts = dict(cases(1000))
    emoji = next(text for label, text in texts.items() if "emoji" in label)
    chinese = next(text for label, text in texts.items() if "'的'" in label)
    assert len(emoji.encode()) == 200_000 and len(chinese.encode()) == 99_999
    for name in PATTERNS:  # one piece under every pattern: the encoder meets it whole
        assert len(split_text(emoji, name)) == 1 and len(split_text(chinese, name)) == 1


def test_the_drawing_row_skips_with_a_reason_without_chromium(monkeypatch):
    pytest.importorskip("playwright.sync_api", reason="without Playwright the row names Playwright instead")
    from bpelab.bench import drawing

    monkeypatch.setattr(drawing, "chromium_path", lambda: None)
    (row,) = drawing.rows(quick=True)
    assert row[1:] == ("", "", "") and "skipped" in row[0] and "Chromium is not installed" in row[0]
    assert "drawing" in bench.SECTIONS


def test_the_drawing_page_holds_the_stepper_module_and_lesson_04s_real_text_trace():
    from bpelab.bench.drawing import bench_page, percentile

    page = bench_page(5)
    assert "export default { render: renderStepper }" in page and "renderStepper({ model" in page
    assert '"merges": [' in page or '"merges":[' in page
    assert percentile([5.0, 1.0, 3.0, 2.0, 4.0], 0.5) == 3.0 and percentile([1.0, 2.0], 0.95) == 2.0
