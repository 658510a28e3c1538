"""The progress bar of a training loop, which ends full when training stops early.

Training asks for up to N merges and stops sooner when no pair is left to merge or worth merging: that
is the algorithm finishing, not failing. tqdm's notebook bar is drawn red ("danger") when it closes
below its total, and a lesson saves that red bar with its outputs; so a loop that ends normally
shortens the bar's total to the merges made. A loop stopped by an error or Ctrl-C keeps tqdm's own
way of saying so.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


@contextmanager
def merge_bar(total: int, progress: bool, desc: str = "merges") -> Iterator[Any]:
    """A tqdm bar (hidden unless ``progress``) for up to ``total`` merges; call ``bar.update()`` per merge."""
    from tqdm.auto import tqdm

    bar = tqdm(total=total, disable=not progress, desc=desc)
    ended_normally = False
    try:
        yield bar
        ended_normally = True
    except GeneratorExit:  # the caller took the merges it wanted from a generator: also a normal end
        ended_normally = True
        raise
    finally:
        if ended_normally and not bar.disable and bar.total is not None and bar.n < bar.total:
            bar.total = bar.n
            drawn = getattr(bar, "container", None)  # tqdm.notebook's widget keeps its own maximum
            if drawn is not None:
                drawn.children[1].max = max(bar.n, 1)
            bar.refresh()
        bar.close()
