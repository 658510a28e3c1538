"""The memory budget (issue 30): a lesson's kernel holds at most 300 MB resident after Run All.

A hub limits the memory of all of a learner's kernels together, and each open lesson keeps its kernel; the
budget lets a learner keep three lessons open in 1 GB (TEACHING.md). Lessons 04 and 07 were the heaviest
(427 MB and 472 MB before the budget): 04 kept every step's whole corpus and pair counts, 07 a Python copy of
four vocabularies beside tiktoken's own (and, per tokenizer, dicts of its ids and recovered merges). ``make bench`` prints the figure for every lesson.
"""

import pytest

from bpelab.bench.memory import BUDGET_MB, KernelMemory, budget_row, lesson_memory
from bpelab.course.lessons import lesson_paths


def test_a_row_names_the_lesson_its_memory_and_the_budget():
    within = budget_row("04", KernelMemory(rss=250_000_000, uss=230_000_000, peak_rss=260_000_000))
    assert within == (
        "lesson 04: kernel after Run All, resident",
        "250 MB (USS 230 MB)",
        "300 MB budget",
        "0.83x the budget (met)",
    )
    over = budget_row("07", KernelMemory(rss=472_000_000, uss=None, peak_rss=472_000_000))
    assert over[1] == "472 MB" and over[3] == "1.57x the budget (NOT MET)"


@pytest.mark.slow
@pytest.mark.parametrize(
    "lesson",
    [
        "04",
        pytest.param(
            "07",
            marks=pytest.mark.xfail(
                strict=True,
                reason="about 315 MB after Run All (430 MB before the lesson let go of what no later cell uses): "
                "four tiktoken cores (~118 MB; the side-by-side view shows all four), the token builders "
                "bpelab.widgets.token_build_view._builder keeps for GPT-4o and Llama 3 to the kernel's end (~19 MB), "
                "the side-by-side view's fifth tokenizer (~11 MB) and GPT-4's tokenizer of ours (~9 MB); strict, so "
                "the day it fits this mark must go",
            ),
        ),
    ],
)
def test_the_lesson_stays_within_the_budget_after_run_all(lesson):
    (path,) = lesson_paths([lesson])
    memory = lesson_memory(path)
    assert memory.rss <= BUDGET_MB * 1_000_000, (
        f"{path.name}'s kernel holds {memory.rss / 1e6:.0f} MB after Run All; the budget is {BUDGET_MB} MB "
        f"(make bench prints every lesson's figure)"
    )
