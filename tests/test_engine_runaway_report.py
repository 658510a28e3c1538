"""The clock's report says what happened to a call that waited outside Python (read 19 of lesson 00: for
time.sleep(8) it said 'the check stopped waiting' 8 seconds later, and its hint spoke only of loops)."""

from __future__ import annotations

import time

import pytest

from bpelab.exercises import check_count_characters, runaway


def test_a_sleep_past_the_clock_is_reported_as_stopped_when_it_returned(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(runaway, "MAX_SECONDS", 0.3)

    def count_characters(text: str) -> dict[str, int]:
        time.sleep(0.8)
        return {}

    assert not check_count_characters(count_characters)
    report = capsys.readouterr().out
    assert "stopped waiting" not in report, report
    assert "still running after 0.3 seconds" in report, report
    assert "next line of Python" in report and "time.sleep" in report, report
