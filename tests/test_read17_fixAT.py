"""Read 17 of lessons 09, 10 and 13 (fix AT): what a fresh reviewer found, each fix held by a test.

- room_for_answer accepted prompts cleaned before counting (\\r\\n made \\n, \\r dropped, U+200D dropped): now
  refused with lesson 09's hint for the same clean-ups.
- tokens_saved accepted both texts NFC-normalised, \\r\\n made \\n, expandtabs(), U+200B dropped: now refused, named.
- bytes_per_char: a hand-written byte counter off by one at ONE range edge, dropping combining marks, any epsilon
  added to the divisor, a cut (floor/ceil) at 3 or more places: each named.
- premium and tokens_saved: a tiny number added to the divisor is named; tokens_saved's near-answer hint no longer
  says "compared exactly".
- Lesson prose: lesson 10's price table, Meta's 400,000-character windows; lesson 09's vocabulary sizes say what the
  vocabularies show (every multi-byte token is two lower-ranked tokens), computed; lesson 13 says what make bench
  measures.
"""

from __future__ import annotations

import math
import re
import sys
import unicodedata

import nbformat

from bpelab.exercises.multilingual_tax import check_bytes_per_char, check_premium
from bpelab.exercises.practice import check_room_for_answer, check_tokens_saved
from bpelab.production import load_encoding
from tests.shown_solutions import lesson_path


def _cell(lesson: str, cell_id: str) -> nbformat.NotebookNode:
    return next(c for c in nbformat.read(lesson_path(lesson), as_version=4).cells if c.id == cell_id)


def _hint(out: str) -> str:
    return out.split("hint:", 1)[1] if "hint:" in out else out


def _refused(check, answer, capsys) -> str:
    result = check(answer, record=False)
    out = capsys.readouterr().out
    assert not result.passed, out
    return _hint(out)


# ---- 1. room_for_answer: prompts cleaned before counting -----------------------------------------------------------


def room_crlf(system, user, context_window, count_tokens):
    system, user = system.replace("\r\n", "\n"), user.replace("\r\n", "\n")
    return max(0, context_window - count_tokens(system) - count_tokens(user))


def room_no_cr(system, user, context_window, count_tokens):
    return max(0, context_window - count_tokens(system.replace("\r", "")) - count_tokens(user.replace("\r", "")))


def room_crlf_and_zwj(system, user, context_window, count_tokens):
    def clean(text):
        return text.replace("\r\n", "\n").replace("\u200d", "")

    return max(0, context_window - count_tokens(clean(system)) - count_tokens(clean(user)))


def test_room_for_answer_refuses_a_windows_line_end_made_one(capsys):
    for answer in (room_crlf, room_no_cr):
        hint = _refused(check_room_for_answer, answer, capsys)
        assert "\\r" in hint and "count the text as it is" in hint, hint


def test_room_for_answer_refuses_joiners_dropped(capsys):
    hint = _refused(check_room_for_answer, room_crlf_and_zwj, capsys)
    assert "U+200D" in hint and "count the text as it is" in hint, hint


# ---- 2. tokens_saved: texts cleaned before counting ----------------------------------------------------------------


def _saved_after(change):
    def tokens_saved(original, rewrite, encoding_name):
        encoding = load_encoding(encoding_name)
        before = len(encoding.encode_ordinary(change(original)))
        after = len(encoding.encode_ordinary(change(rewrite)))
        return (before - after) / before

    return tokens_saved


def test_tokens_saved_refuses_nfc(capsys):
    hint = _refused(check_tokens_saved, _saved_after(lambda t: unicodedata.normalize("NFC", t)), capsys)
    assert "NFC" in hint, hint


def test_tokens_saved_refuses_crlf_made_lf(capsys):
    hint = _refused(check_tokens_saved, _saved_after(lambda t: t.replace("\r\n", "\n")), capsys)
    assert "\\r" in hint, hint


def test_tokens_saved_refuses_expandtabs(capsys):
    hint = _refused(check_tokens_saved, _saved_after(str.expandtabs), capsys)
    assert "tab" in hint, hint


def test_tokens_saved_refuses_zero_width_space_dropped(capsys):
    hint = _refused(check_tokens_saved, _saved_after(lambda t: t.replace("\u200b", "")), capsys)
    assert "U+200B" in hint, hint


# ---- 3. bytes_per_char: one range edge off by one; combining marks dropped -----------------------------------------


def _by_hand(first, second, third):
    """Bytes read off the code point with the three limits given (o < limit means fewer bytes)."""

    def bytes_per_char(texts):
        chars = sum(len(t) for t in texts)
        if not chars:
            return 0.0
        total = 0
        for t in texts:
            for ch in t:
                o = ord(ch)
                total += 1 if o < first else 2 if o < second else 3 if o < third else 4
        return total / chars

    return bytes_per_char


def test_one_edge_off_by_one_is_named(capsys):
    right = (0x80, 0x800, 0x10000)
    edges = ("U+007F", "U+07FF", "U+FFFF")
    for i in range(3):
        for off in (-1, 1):
            limits = list(right)
            limits[i] += off
            hint = _refused(check_bytes_per_char, _by_hand(*limits), capsys)
            assert "decimal place" not in hint, (limits, hint)
            assert edges[i] in hint and "edge" in hint, (limits, hint)


def bytes_per_char_no_marks(texts):
    texts = ["".join(ch for ch in t if not unicodedata.combining(ch)) for t in texts]
    chars = sum(len(t) for t in texts)
    return sum(len(t.encode("utf-8")) for t in texts) / chars if chars else 0.0


def test_combining_marks_dropped_is_named(capsys):
    hint = _refused(check_bytes_per_char, bytes_per_char_no_marks, capsys)
    assert "decimal place" not in hint, hint
    assert "combining" in hint, hint


# ---- 4. bytes_per_char: any epsilon added to the divisor -----------------------------------------------------------


def _nudged_divisor(eps):
    def bytes_per_char(texts):
        chars = sum(len(t) for t in texts)
        if not texts:
            return 0.0
        return sum(len(t.encode("utf-8")) for t in texts) / (chars + eps)

    return bytes_per_char


def test_any_epsilon_in_the_divisor_is_named(capsys):
    for eps in (sys.float_info.epsilon, 1e-15, 1e-5):
        hint = _refused(check_bytes_per_char, _nudged_divisor(eps), capsys)
        assert "tiny number added to the divisor" in hint, (eps, hint)


# ---- 5. premium and tokens_saved: epsilon in the divisor; the near-answer hint's wording ----------------------------


def _premium_eps(eps):
    def premium(texts_by_language, encode, language, reference="en"):
        ours = sum(len(encode(t)) for t in texts_by_language[language])
        return ours / (sum(len(encode(t)) for t in texts_by_language[reference]) + eps)

    return premium


def _saved_eps(eps):
    def tokens_saved(original, rewrite, encoding_name):
        encoding = load_encoding(encoding_name)
        before = len(encoding.encode_ordinary(original))
        after = len(encoding.encode_ordinary(rewrite))
        return (before - after) / (before + eps)

    return tokens_saved


def test_premium_epsilon_in_the_divisor_is_named(capsys):
    for eps in (1e-9, 1e-12):
        hint = _refused(check_premium, _premium_eps(eps), capsys)
        assert "tiny number added to the divisor" in hint and "1 / n" not in hint, (eps, hint)


def test_tokens_saved_epsilon_in_the_divisor_is_named(capsys):
    for eps in (1e-9, 1e-12):
        hint = _refused(check_tokens_saved, _saved_eps(eps), capsys)
        assert "tiny number added to the divisor" in hint and "1 / n" not in hint, (eps, hint)


def saved_in_a_loop(original, rewrite, encoding_name):
    encoding = load_encoding(encoding_name)
    before = len(encoding.encode_ordinary(original))
    after = len(encoding.encode_ordinary(rewrite))
    share = 0.0
    for _ in range(abs(before - after)):
        share += 1 / before
    return share if before >= after else -share


def test_tokens_saved_near_answer_hint_says_how_it_is_compared(capsys):
    hint = _refused(check_tokens_saved, saved_in_a_loop, capsys)
    assert "compared exactly" not in hint, hint
    assert "4 units in the last place" in hint and "in a loop" in hint, hint


# ---- 7. bytes_per_char: a cut at 3 or more places -----------------------------------------------------------------


def bytes_per_char_cut_3(texts):
    chars = sum(len(t) for t in texts)
    return int(sum(len(t.encode("utf-8")) for t in texts) / chars * 1000) / 1000 if chars else 0.0


def bytes_per_char_ceil_4(texts):
    chars = sum(len(t) for t in texts)
    return math.ceil(sum(len(t.encode("utf-8")) for t in texts) / chars * 1e4) / 1e4 if chars else 0.0


def test_a_cut_at_3_or_4_places_is_named(capsys):
    hint = _refused(check_bytes_per_char, bytes_per_char_cut_3, capsys)
    assert "cut off at 3 places" in hint, hint
    hint = _refused(check_bytes_per_char, bytes_per_char_ceil_4, capsys)
    assert "UP at 4 places" in hint, hint


# ---- 8–11. lesson prose ---------------------------------------------------------------------------------------------


def test_lesson_10_price_table_sentence_is_true():
    text = _cell("10", "dde1ff4e").source
    assert "output costs more:" not in text
    assert "example-open-weights" in text


def test_lesson_10_names_meta_windows():
    text = _cell("10", "0d04101c").source
    assert "400,000" in text and "TIKTOKEN_MAX_ENCODE_CHARS" in text and "131–133" in text


def test_lesson_09_says_what_the_vocabularies_show():
    prose = _cell("09", "18450053").source
    assert "a token learned by merging" not in prose
    assert "lower-ranked" in prose and "lesson 07" in prose
    cells = nbformat.read(lesson_path("09"), as_version=4).cells
    sizes = next(c for c in cells if c.cell_type == "code" and "mergeable_ranks(encoding)" in c.source)
    out = "".join(o.get("text", "") for o in sizes.outputs)
    found = re.findall(r"([\d,]+) of its ([\d,]+) multi-byte tokens are two lower-ranked tokens joined", out)
    assert len(found) == 4 and all(joined == longer for joined, longer in found), out


def test_lesson_13_says_what_make_bench_measures():
    text = _cell("13", "0f283834").source
    assert "cold" in text and "from_tiktoken" in text
