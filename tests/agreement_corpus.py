"""About a megabyte of varied real text for checking our encoder against tiktoken.

Real prose and code (the course's corpora, Python's own standard library source), the parallel
corpus in sixteen languages, and a seeded mix of the things tokenizers trip over: long whitespace
runs, digits, dates, emoji with modifiers and joiners, contractions in any case, URLs, base64.
"""

from __future__ import annotations

import random
import sysconfig
from pathlib import Path

from bpelab.paths import data_dir

TRICKY = [
    "   ",
    "\t\t",
    "\n\n\n",
    " \n ",
    "\r\n",
    "  \t \n",
    " " * 17,
    "\u00a0",
    "\u3000",
    "1234567890",
    "3.14159",
    "2026-11-22",
    "1,000,000",
    "0x7FFF",
    "١٢٣",
    "४२",
    "👍🏽",
    "👨‍👩‍👧",
    "🇫🇷",
    "🤖",
    "é",
    "ñ",
    "\u0301",
    "ﬁ",
    "don't",
    "I'LL",
    "we've",
    "They'Re",
    "'s",
    "it’s",
    "Ελληνικά",
    "עברית",
    "ภาษาไทย",
    "ქართული",
    "မြန်မာ",
    "தமிழ்",
    "አማርኛ",
    "汉字",
    "カタカナ",
    "한국어",
    "camelCaseName",
    "HTTPServerError",
    "snake_case_name",
    "__init__",
    "<|endoftext|>",
    "https://example.org/a/b?c=d&e=f",
    "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo=",
    '{"key": [1, 2]}',
    "...",
    "!!!",
    "—",
    "«»",
    "¿",
    "€",
    "±",
    "∑",
]


def tricky_text(size: int, seed: int = 7) -> str:
    rng = random.Random(seed)
    parts, total = [], 0
    while total < size:
        part = rng.choice(TRICKY) + rng.choice(["", " ", " ", "\n", ""])
        parts.append(part)
        total += len(part.encode())
    return "".join(parts)


def stdlib_source(size: int) -> str:
    root = Path(sysconfig.get_paths()["stdlib"])
    parts, total = [], 0
    for path in sorted(root.glob("*.py")):
        text = path.read_text(encoding="utf-8", errors="replace")
        parts.append(text)
        total += len(text.encode())
        if total >= size:
            break
    return "".join(parts)


def agreement_corpus() -> list[str]:
    """Documents to encode separately; together at least 1 MB of UTF-8."""
    data = data_dir()
    docs = [p.read_text(encoding="utf-8") for p in sorted(data.glob("*.txt"))]
    docs += [p.read_text(encoding="utf-8") for p in sorted((data / "parallel").glob("*.txt"))]
    docs.append(tricky_text(200_000))
    have = sum(len(d.encode()) for d in docs)
    docs.append(stdlib_source(max(0, 1_100_000 - have)))
    return docs
