"""The course map (lesson 00): every lesson, its exercises, and which ones you have passed.

The passes come from ``bpelab.course.progress`` (a small file in your cache folder that every passing
``check_*`` adds to). ``show_course_map()`` draws the map as an HTML table; ``course_map()`` gives the
same as a DataFrame, for code.
"""

from __future__ import annotations

import html
from dataclasses import dataclass

import pandas as pd

from bpelab.course.progress import passed_exercises, progress_problem


@dataclass(frozen=True)
class Lesson:
    number: str
    title: str
    checkers: tuple[tuple[str, str], ...]
    """Each exercise as (the checker you call, the name its result records)."""


def _checks(*names: str) -> tuple[tuple[str, str], ...]:
    """Checkers whose recorded name is their own name without ``check_`` (all but one)."""
    return tuple((f"check_{n}", n) for n in names)


LESSONS: tuple[Lesson, ...] = (
    Lesson("00", "Start here", _checks("count_characters")),
    Lesson("01", "Text is numbers", _checks("byte_count", "char_tokenizer")),
    Lesson("02", "From text to symbols", _checks("split_words", "get_word_frequencies")),
    Lesson("03", "Counting pairs", _checks("count_pairs", "most_frequent_pairs")),
    Lesson(
        "04",
        "Merging, step by step",
        _checks("merge_symbols", "merge_pair") + (("check_training_loop", "train"),),
    ),
    Lesson("05", "Encoding and decoding", _checks("encode_word", "decode_words")),
    Lesson("06", "Byte-level BPE", _checks("build_vocab", "decode_ids")),
    Lesson("07", "Regex and the real tokenizers", _checks("split_pieces", "find_parents")),
    Lesson("08", "Compression curves", _checks("bytes_per_token", "count_unused", "smallest_vocab_size")),
    Lesson("09", "The multilingual tax", _checks("bytes_per_char", "premium")),
    Lesson("10", "Tokens in practice", _checks("estimate_cost", "room_for_answer", "tokens_saved")),
    Lesson("11", "Beyond BPE", _checks("best_wordpiece_pair", "encode_wordpiece_word")),
    Lesson("12", "Making BPE fast", _checks("pair_count_changes", "merge_lowest_rank")),
    Lesson("13", "Your tokenizer, for real", _checks("byte_level_text")),
    Lesson("14", "Fairer merges, bigger tokens", _checks("parity_next_pair", "gini")),
    Lesson("15", "Numbers, glitches and fair comparisons", _checks("group_digits", "bits_per_byte")),
    Lesson("16", "SentencePiece from scratch", _checks("next_merge", "byte_fallback")),
)


def course_map(passed: set[str] | None = None) -> pd.DataFrame:
    """One row per exercise: lesson, title, checker, done. ``passed`` defaults to what was recorded."""
    done = passed_exercises() if passed is None else passed
    rows = [
        {"lesson": lesson.number, "title": lesson.title, "exercise": checker, "done": recorded in done}
        for lesson in LESSONS
        for checker, recorded in lesson.checkers
    ]
    return pd.DataFrame(rows, columns=["lesson", "title", "exercise", "done"])


def course_map_html(passed: set[str] | None = None) -> str:
    """The map as an HTML table: a row per lesson, each exercise with ✅ (passed) or ⬜ (not yet).

    When the passes come from the progress file and it is damaged, the caption says so (instead of an empty map
    that looks like a fresh start)."""
    table = course_map(passed)
    rows = []
    for (number, title), group in table.groupby(["lesson", "title"], sort=False):
        marks = " &nbsp; ".join(
            f"{'✅' if done else '⬜'} <code>{html.escape(exercise)}</code>"
            for exercise, done in zip(group["exercise"], group["done"])
        )
        count = f"{int(group['done'].sum())}/{len(group)}"
        rows.append(
            f"<tr><td>{number}</td><td style='text-align:left'>{html.escape(str(title))}</td>"
            f"<td style='text-align:left'>{marks}</td><td>{count}</td></tr>"
        )
    total = f"{int(table['done'].sum())} of {len(table)} exercises passed"
    problem = progress_problem() if passed is None else None
    note = f"<br>⚠️ {html.escape(problem)}" if problem else ""
    return (
        "<table class='bpelab-course-map'><caption style='text-align:left'><b>Course map</b>: "
        f"{total} (✅ passed, ⬜ not yet){note}</caption>"
        "<thead><tr><th>lesson</th><th>title</th><th>exercises</th><th>done</th></tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table>"
    )


def show_course_map(passed: set[str] | None = None) -> object:
    """The map, drawn in the notebook (an ``IPython.display.HTML``)."""
    from IPython.display import HTML

    return HTML(course_map_html(passed))
