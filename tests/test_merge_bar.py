"""Training that stops early ends its progress bar full: stopping is the algorithm finishing, not failing."""

from __future__ import annotations

import pytest
from tqdm import notebook

from bpelab import merge_bar as merge_bar_module
from bpelab.byte_level import BPETokenizer
from bpelab.merge_bar import merge_bar
from bpelab.parity import train_parity_aware
from bpelab.wordpiece import train_wordpiece


@pytest.fixture
def notebook_bars(monkeypatch):
    """Every bar the trainers open, as tqdm.notebook draws it in a lesson (its widget kept for the test)."""
    opened: list[notebook.tqdm] = []

    class Recorded(notebook.tqdm):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            opened.append(self)

    monkeypatch.setattr("tqdm.auto.tqdm", Recorded)
    assert merge_bar_module  # the module imports tqdm.auto inside the function: the patch reaches it
    return opened


def drawn(bar: notebook.tqdm) -> tuple[str, int, int]:
    _text, widget, _right = bar.container.children
    return widget.bar_style, widget.value, widget.max


@pytest.mark.parametrize(
    "train",
    [
        lambda: BPETokenizer().train("ab ab ab cd", 300 + 256, method="naive", progress=True),
        lambda: BPETokenizer().train("ab ab ab cd", 300 + 256, method="fast", progress=True),
        lambda: train_wordpiece("ab ab ab cd", 300, progress=True),
        lambda: train_parity_aware({"en": ["ab ab ab"], "fr": ["cd cd cd"]}, 300, progress=True),
    ],
    ids=["naive", "fast", "wordpiece", "parity"],
)
def test_a_training_that_stops_early_ends_with_a_full_green_bar(notebook_bars, train):
    train()
    assert notebook_bars, "the trainer opened no bar"
    style, value, most = drawn(notebook_bars[-1])
    assert style == "success" and value == most and 0 < value < 300


def test_a_loop_stopped_by_an_error_keeps_the_red_bar(notebook_bars):
    with pytest.raises(KeyboardInterrupt), merge_bar(10, progress=True) as bar:
        bar.update()
        raise KeyboardInterrupt
    assert drawn(notebook_bars[-1])[0] == "danger"


def test_a_training_that_makes_every_merge_asked_for_is_unchanged(notebook_bars):
    with merge_bar(3, progress=True) as bar:
        for _ in range(3):
            bar.update()
    assert drawn(notebook_bars[-1]) == ("success", 3, 3)
