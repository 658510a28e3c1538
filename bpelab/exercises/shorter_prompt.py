"""Lesson 10's shortening exercise: ``check_shorter_prompt`` checks a piece of text, not a function.

It measures how many tokens a rewritten prompt saves and whether the rewrite still MENTIONS everything the
original asked for, each item by one of its words standing whole (``MUST_KEEP``): a keyword check, and every
report says so.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence

from bpelab.exercises.core import CheckResult, recording
from bpelab.exercises.showing import kind, short
from bpelab.exercises.toy_encoders import encoding_named, encodings_let_go_after
from bpelab.production import ENCODING_NAMES

WORDY_PROMPT = (
    "Hello there! I hope you are having a really good day today. I was wondering whether you might "
    "possibly be able to help me out with a little task, if it is not too much trouble for you. What I "
    "would really like you to do, if at all possible, is to read the customer review that I am going to "
    "paste in below this message very carefully, and then, once you have read it, write a short summary "
    "of it for me. Please make absolutely sure that the summary is not any longer than three sentences in "
    "total. It would also be really great if you could tell me whether the overall feeling of the review "
    "is positive, negative, or somewhere in between, which is to say neutral. And one more thing: could "
    "you please write the summary in French, because the team who will read it works in our office in "
    "Lyon? Thank you so much in advance for all of your help, I really do appreciate it a lot!"
)
"""A prompt that says a few things in many words (lesson 10's shortening exercise)."""

MUST_KEEP: dict[str, tuple[str, ...]] = {
    "a summary": (
        "summary",
        "summaries",
        "summarise",
        "summarises",
        "summarize",
        "summarizes",
        "summarising",
        "summarizing",
        "summarised",
        "summarized",
        "summarisation",
        "summarization",
        "résumé",
        "résumés",
        "résumer",
        "résumez",
        "synthèse",
        "synthétiser",
        "synthétise",
        "synthétisez",
        "sum up",
        "sums up",
        "summing up",
        "recap",
        "recaps",
        "in short",
        "TL;DR",
        "TLDR",
        "en bref",
        "récapitule",
        "récapitulez",
    ),
    "of the review": ("review", "reviews", "avis", "critique", "critiques", "commentaire", "commentaires"),
    "three": ("three", "trois", "3"),
    "sentences": ("sentence", "sentences", "phrase", "phrases"),
    "in French": ("French", "français", "française"),
    "positive": ("positive", "positives", "positif", "positifs"),
    "negative": ("negative", "negatives", "négatif", "négatifs", "négative", "négatives"),
    "neutral": ("neutral", "neutre", "neutres"),
}
"""What the short prompt must still mention: each item with the words that count (English or French), a few of
them phrases a learner writes for the same thing ('sum up', 'TL;DR'). A word or phrase counts only whole, standing between non-word characters, with capitals and accents ignored ('Résumez' is
'resumez'); a number also not inside a longer one (the 3 of '13', '2023' or '3,5' does not count). Only mentions
are checked, not meaning: see ``check_shorter_prompt``."""

KEYWORDS_ONLY = (
    "This checker only looks for the words of each item (in English or French); it cannot read what your prompt "
    "asks for: 'not in French' mentions French too. Read your prompt once more yourself."
)


def _folded(text: str) -> str:
    """Lower case without accents, so that 'Résumé' and 'FRANÇAIS' match 'resume' and 'francais'."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def _whole(word: str) -> re.Pattern[str]:
    """``word`` standing alone: no word character (a letter or digit of any script, or _) touches it, nor a digit
    behind a decimal point or comma ('3' is not in '13', '3rd', '3,5' or '2.3')."""
    return re.compile(rf"(?<!\w)(?<!\d[.,]){re.escape(_folded(word))}(?!\w)(?![.,]\d)")


def mentions(text: str, words: Sequence[str]) -> bool:
    """Does ``text`` hold one of ``words`` as a whole word (capitals and accents ignored)?"""
    folded = _folded(text)
    return any(_whole(word).search(folded) for word in words)


def _missing(text: str, must_keep: Mapping[str, Sequence[str]]) -> list[str]:
    return [item for item, words in must_keep.items() if not mentions(text, words)]


def check_shorter_prompt(
    short_prompt: object,
    *,
    original: str = WORDY_PROMPT,
    must_keep: Mapping[str, Sequence[str]] = MUST_KEEP,
    encoding: str = "o200k_base",
    target: float = 0.5,
    record: bool = True,
) -> CheckResult:
    """Measure a rewritten prompt: tokens before and after, the saving, and whether it still MENTIONS every
    item of ``must_keep``. Passes when nothing is missing and at least ``target`` (a fraction) of the tokens
    are saved. A keyword check, said so in every report: it does not understand the prompt, so a prompt that
    mentions an item to contradict it ("not in French") passes too. Prints the report and returns the
    result; never raises. ``record=False``: a pass does not tick the course map (a lesson showing what the
    checker says about an example of its own)."""
    with recording(record), encodings_let_go_after():  # it loads the encoding itself, once the name is checked
        return _check_shorter_prompt(short_prompt, original, must_keep, encoding, target)


def _check_shorter_prompt(
    short_prompt: object, original: str, must_keep: Mapping[str, Sequence[str]], encoding: str, target: float
) -> CheckResult:
    name = "shorter_prompt"
    try:
        if (
            short_prompt is None
            or short_prompt is Ellipsis
            or (isinstance(short_prompt, str) and not short_prompt.strip())
        ):
            return _report(
                False,
                name,
                "not yet",
                f"⏳ {name}: not yet — write your shorter prompt as a string in `short_prompt` and run its cell, "
                "then run this check again.",
            )
        if not isinstance(short_prompt, str):
            return _report(
                False,
                name,
                "failed",
                f"❌ {name}: expected your prompt as a string (str), got {kind(short_prompt)} {short(short_prompt)}.",
            )
        if encoding not in ENCODING_NAMES:
            return _report(
                False,
                name,
                "failed",
                f"❌ {name}: unknown encoding {encoding!r}; choose from {', '.join(ENCODING_NAMES)}.",
            )
        count = lambda text: len(encoding_named(encoding).encode_ordinary(text))  # noqa: E731
        before, after = count(original), count(short_prompt)
        saved = before - after
        share = saved / before if before else 0.0
        lines = [f"   tokens ({encoding}): {before} → {after}; saved {saved} ({share:.0%})"]
        if short_prompt.strip() == original.strip():
            return _report(
                False,
                name,
                "not yet",
                f"⏳ {name}: not yet — `short_prompt` is still the original prompt. Rewrite it and run its cell, "
                "then run this check again.\n" + lines[0],
            )
        missing = _missing(short_prompt, must_keep)
        if missing:
            lines.append(f"   missing:  your prompt no longer mentions: {', '.join(missing)}")
            for item in missing:
                lines.append(f"   words:    {item}: one of {', '.join(repr(word) for word in must_keep[item])}")
            lines.append(
                "   hint:     keep every instruction and cut the politeness and repetition; this check looks for the "
                "words above, so if you kept an item in other words, use one of them"
            )
            length = (
                "shorter, but" if saved > 0 else "no shorter, and" if saved == 0 else "longer than the original, and"
            )
            return _report(
                False, name, "failed", f"❌ {name}: {length} something the task needs is gone.\n" + "\n".join(lines)
            )
        if share < target:
            lines.append(f"   goal:     save at least {target:.0%} (at most {int(before * (1 - target))} tokens)")
            lines.append(
                "   hint:     greetings, thanks and 'I was wondering whether you could possibly' carry no instruction"
            )
            return _report(
                False,
                name,
                "failed",
                f"❌ {name}: everything is still mentioned; now make it shorter.\n" + "\n".join(lines),
            )
        return _report(
            True,
            name,
            "passed",
            f"✅ {name}: every item is still mentioned ({', '.join(must_keep)}), in {share:.0%} fewer tokens.\n"
            + lines[0]
            + f"\n   note:     {KEYWORDS_ONLY}",
        )
    except Exception as err:  # never raise on a learner's input
        return _report(
            False,
            name,
            "checker error",
            f"⚠️ {name}: the checker itself failed ({type(err).__name__}: {err}). This is a bug in bpelab; please report it.",
        )


def _report(passed: bool, name: str, status: str, message: str) -> CheckResult:
    print(message)
    return CheckResult(passed, name, None if passed else 1, 1, status, message)
