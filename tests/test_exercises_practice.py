"""The checkers of lessons 09 and 10: right answers pass, stubs say "not yet", typical mistakes get their hint."""

import math
import unicodedata

import pytest

from bpelab.exercises.practice import (
    check_bytes_per_char,
    check_estimate_cost,
    check_premium,
    check_room_for_answer,
    check_tokens_saved,
)


def report(capsys):
    return capsys.readouterr().out


# ---- bytes per character ----------------------------------------------------------------------


def good_bytes_per_char(texts):
    chars = sum(len(t) for t in texts)
    return sum(len(t.encode("utf-8")) for t in texts) / chars if chars else 0.0


def rounded_bytes_per_char(texts):
    return round(good_bytes_per_char(texts), 2)


@pytest.mark.parametrize("answer", [good_bytes_per_char, rounded_bytes_per_char], ids=["exact", "two places"])
def test_bytes_per_char_exact_and_two_place_answers_both_pass(capsys, answer):
    """Round only when you show a number: the exact ratio passes, and so does the same rounded to 2 places."""
    result = check_bytes_per_char(answer)
    assert result.passed
    assert report(capsys).startswith("✅ bytes_per_char: all")


def test_bytes_per_char_one_place_is_too_far(capsys):
    """4 bytes / 3 characters = 1.333...: 1.33 is within 0.005, 1.3 is not."""
    result = check_bytes_per_char(lambda texts: round(good_bytes_per_char(texts), 1))
    out = report(capsys)
    assert not result.passed
    assert "bytes_per_char(['añb'])" in out and "got:      1.3\n" in out
    assert "rounded too far: return the exact ratio" in out


def test_bytes_per_char_keeps_the_learners_line_numbers(capsys):
    """The tolerance wrapper must not hide where the learner's function failed."""

    def bytes_per_char(texts):
        n_bytes = sum(len(t.encode()) for t in texts)
        return n_bytes / sum(len(t) for t in texts)

    assert not check_bytes_per_char(bytes_per_char).passed
    assert "ZeroDivisionError: division by zero (line 3 of your function)" in report(capsys)


def test_bytes_per_char_stub_is_not_yet(capsys):
    def bytes_per_char(texts):
        # your code here
        ...

    result = check_bytes_per_char(bytes_per_char)
    assert result.status == "not yet"
    assert "not yet" in report(capsys)


@pytest.mark.parametrize(
    "wrong, hint",
    [
        (
            lambda texts: round(
                sum(len(t.encode()) / len(t) for t in texts if t) / max(1, sum(1 for t in texts if t)), 2
            ),
            "averaged each text's ratio",
        ),
        (
            lambda texts: (
                round(sum(map(len, texts)) / sum(len(t.encode()) for t in texts), 2) if "".join(texts) else 0.0
            ),
            "upside down",
        ),
        (
            lambda texts: sum(len(t.encode()) / len(t) for t in texts if t) / max(1, sum(1 for t in texts if t)),
            "averaged each text's ratio",
        ),
        (lambda texts: int(good_bytes_per_char(texts)), "// (and int()) round down to a whole number"),
        (lambda texts: round(good_bytes_per_char(texts), 1), "rounded too far"),
        (lambda texts: 1.0 if "".join(texts) else 0.0, "len(text.encode('utf-8'))"),
    ],
)
def test_bytes_per_char_mistakes_get_their_hint(capsys, wrong, hint):
    result = check_bytes_per_char(wrong)
    assert not result.passed
    assert hint in report(capsys)


def test_bytes_per_char_division_by_zero_is_reported_not_raised(capsys):
    result = check_bytes_per_char(lambda texts: round(sum(len(t.encode()) for t in texts) / sum(map(len, texts)), 2))
    assert not result.passed
    out = report(capsys)
    assert "ZeroDivisionError" in out and "no texts at all" in out


# ---- premium ----------------------------------------------------------------------------------


def good_premium(texts_by_language, encode, language, reference="en"):
    tokens = sum(len(encode(t)) for t in texts_by_language[language])
    return tokens / sum(len(encode(t)) for t in texts_by_language[reference])


def test_premium_right_answer_passes(capsys):
    assert check_premium(good_premium).passed
    assert report(capsys).startswith("✅ premium: all")


@pytest.mark.parametrize(
    "wrong, hint",
    [
        (lambda t, encode, language, reference="en": good_premium(t, encode, reference, language), "upside down"),
        (
            lambda t, encode, language, reference="en": (
                sum(len(encode(a)) / len(encode(b)) for a, b in zip(t[language], t[reference])) / len(t[language])
            ),
            "averaged the premium of each sentence",
        ),
        (
            lambda t, encode, language, reference="en": (
                len(encode("".join(t[language]))) / len(encode("".join(t[reference])))
            ),
            "joined the sentences",
        ),
        (lambda t, encode, language, reference="en": good_premium(t, encode, language), "use the `reference` argument"),
        (
            lambda t, encode, language, reference="en": sum(map(len, t[language])) / sum(map(len, t[reference])),
            "counted characters",
        ),
    ],
)
def test_premium_mistakes_get_their_hint(capsys, wrong, hint):
    assert not check_premium(wrong).passed
    assert hint in report(capsys)


def test_premium_wrong_signature_is_explained(capsys):
    assert not check_premium(lambda texts: 1.0).passed
    assert "def premium(texts_by_language, encode, language, reference):" in report(capsys)


# ---- room for the answer ----------------------------------------------------------------------


def good_room(system, user, context_window, count_tokens):
    return max(0, context_window - count_tokens(system) - count_tokens(user))


def test_room_for_answer(capsys):
    assert check_room_for_answer(good_room).passed
    assert report(capsys).startswith("✅ room_for_answer")


@pytest.mark.parametrize(
    "wrong, hint",
    [
        (lambda s, u, w, count: w - count(s) - count(u), "never a negative number"),
        (lambda s, u, w, count: max(0, w - len(s) - len(u)), "len(text) counts characters"),
        (lambda s, u, w, count: max(0, w - count(u)), "the system prompt takes room too"),
    ],
)
def test_room_for_answer_mistakes(capsys, wrong, hint):
    assert not check_room_for_answer(wrong).passed
    assert hint in report(capsys)


@pytest.mark.parametrize(
    "as_float",
    [
        lambda s, u, w, count: float(max(0, w - count(s) - count(u))),
        lambda s, u, w, count: max(0.0, w - count(s) / 1 - count(u)),
    ],
)
def test_room_for_answer_refuses_a_float(capsys, as_float):
    """95.0 is not a number of tokens: the engine alone would count it equal to 95."""
    result = check_room_for_answer(as_float)
    out = report(capsys)
    assert not result.passed
    assert "got:      95.0 (a float)" in out
    assert "tokens are counted in whole numbers: return an int, not a float" in out


# ---- cost -------------------------------------------------------------------------------------


def test_estimate_cost(capsys):
    assert check_estimate_cost(lambda i, o, pi, po: (i * pi + o * po) / 1e6).passed
    assert report(capsys).startswith("✅ estimate_cost")


@pytest.mark.parametrize(
    "wrong, hint",
    [
        (lambda i, o, pi, po: i * pi + o * po, "divide by 1,000,000"),
        (lambda i, o, pi, po: (i * po + o * pi) / 1e6, "the prices are swapped"),
        (lambda i, o, pi, po: (i + o) * pi / 1e6, "output tokens have their own"),
        (lambda i, o, pi, po: round((i * pi + o * po) / 1e6, 2), "rounded to 2 decimal places: don't round"),
    ],
)
def test_estimate_cost_mistakes(capsys, wrong, hint):
    assert not check_estimate_cost(wrong).passed
    assert hint in report(capsys)


def test_estimate_cost_floor_division_is_named_not_called_rounding(capsys):
    """`//` gives 0.0 for 0.004: that is floor division, not rounding to 2 places."""
    assert not check_estimate_cost(lambda i, o, pi, po: (i * pi + o * po) // 1_000_000).passed
    out = report(capsys)
    assert "// divides and rounds down to a whole number" in out, out
    assert "decimal place" not in out, out


@pytest.mark.parametrize(
    "whole, said",
    [
        (lambda i, o, pi, po: round((i * pi + o * po) / 1e6), "round() with no number of places rounds to the nearest"),
        (
            lambda i, o, pi, po: int((i * pi + o * po) / 1e6),
            "int() and math.floor() cut off everything after the point",
        ),
        (lambda i, o, pi, po: math.floor((i * pi + o * po) / 1e6), "int() and math.floor() cut off everything"),
    ],
    ids=["round()", "int()", "math.floor()"],
)
def test_estimate_cost_names_the_rounding_the_learner_wrote(capsys, whole, said):
    """round(), int() and math.floor() were all told "// divides and rounds down", though none wrote //."""
    assert not check_estimate_cost(whole).passed
    out = report(capsys)
    assert said in out, out
    assert "//" not in out, out


@pytest.mark.parametrize("places", [3, 4, 6])
def test_estimate_cost_names_rounding_at_any_number_of_places(capsys, places):
    """(12,345 × 0.5 + 678 × 1.5) / 1,000,000 = 0.0071895: rounded to 4 places it is 0.0072, not a new mistake."""
    result = check_estimate_cost(lambda i, o, pi, po: round((i * pi + o * po) / 1e6, places))
    out = report(capsys)
    assert not result.passed
    assert f"the exact cost rounded to {places} decimal places: don't round" in out


def test_a_function_that_raises_is_reported(capsys):
    def estimate_cost(i, o, pi, po):
        raise KeyError("oops")

    result = check_estimate_cost(estimate_cost)
    assert not result.passed
    assert "KeyError" in report(capsys)


@pytest.mark.parametrize("name", ["bytes_per_char", "premium", "room_for_answer", "estimate_cost", "tokens_saved"])
def test_every_hand_written_answer_agrees_with_the_reference(name):
    from bpelab.exercises.core import COMPUTED, EXERCISES

    exercise = EXERCISES[name]
    for case in exercise.cases():
        if case.expected is not COMPUTED:
            assert exercise.reference(*case.args) == pytest.approx(case.expected, abs=1e-12), case.note


@pytest.mark.parametrize(
    "wrong, hint",
    [
        (
            lambda t, encode, language, reference="en": (
                sum(len(encode(x)) for x in t[language]) // sum(len(encode(x)) for x in t[reference])
            ),
            "// rounds down to a whole number; use / for the exact ratio",
        ),
        (
            lambda t, encode, language, reference="en": round(good_premium(t, encode, language, reference), 2),
            "the exact premium rounded to 2 decimal places: don't round",
        ),
    ],
    ids=["floor division", "rounded"],
)
def test_premium_floor_division_and_rounding_get_their_hints(capsys, wrong, hint):
    assert not check_premium(wrong).passed
    assert hint in report(capsys)


def test_the_adjusting_checkers_keep_the_engines_messages_about_parameters(capsys):
    """bytes_per_char and room_for_answer wrap the learner's function; a method without self must still be
    told so, and a float from a method that fits is still refused."""

    class Forgot:
        def room_for_answer(system, user, context_window, count_tokens):
            return 0

    assert not check_room_for_answer(Forgot().room_for_answer).passed
    assert "a method needs `self` first" in report(capsys)

    class Floats:
        def room_for_answer(self, system, user, context_window, count_tokens):
            return float(good_room(system, user, context_window, count_tokens))

    assert not check_room_for_answer(Floats().room_for_answer).passed
    assert "95.0 (a float)" in report(capsys)

    assert not check_bytes_per_char(lambda texts, extra: 1.0).passed
    assert "make its first line `def bytes_per_char(texts):`" in report(capsys)


def test_not_yet_messages_say_which_cells_to_run(capsys):
    """The learner edits one cell and checks in the next: a "not yet" must say to run both, not "this cell"."""

    def tokens_saved(original, rewrite, encoding_name): ...

    check_tokens_saved(tokens_saved)
    out = report(capsys)
    assert "run this cell again" not in out and "then run this check again" in out, out


# ---- leaks and wrong hints found by a fresh read (issue 29) ------------------------------------------------


def bytes_by_the_table(texts):
    """Section 2's table taken as the whole rule: 1, 2 or 3 bytes by code point, so an emoji counts as 3."""
    chars = sum(len(t) for t in texts)
    n_bytes = sum(1 if ord(ch) < 0x80 else 2 if ord(ch) < 0x800 else 3 for t in texts for ch in t)
    return n_bytes / chars if chars else 0.0


def test_bytes_per_char_an_emoji_counted_as_three_bytes_is_named(capsys):
    """['👍a'] gives 2.0 for 2.5: once told "rounded too far", though nothing was rounded."""
    assert not check_bytes_per_char(bytes_by_the_table).passed
    out = report(capsys)
    assert "4 bytes" in out and "U+FFFF" in out, out
    assert "rounded too far" not in out, out


def test_bytes_per_char_floor_division_is_named_not_called_rounding(capsys):
    def floor_divides(texts):
        chars = sum(len(t) for t in texts)
        return sum(len(t.encode("utf-8")) for t in texts) // chars if chars else 0.0

    assert not check_bytes_per_char(floor_divides).passed
    out = report(capsys)
    assert "// " in out and "whole number" in out, out
    assert "rounded too far" not in out, out


def test_bytes_per_char_round_with_no_places_is_named(capsys):
    assert not check_bytes_per_char(lambda texts: round(good_bytes_per_char(texts))).passed
    assert "round() with no number of places" in report(capsys)


def test_bytes_per_char_stripped_texts_are_rejected_and_named(capsys):
    def strips(texts):
        chars = sum(len(t.strip()) for t in texts)
        return sum(len(t.strip().encode("utf-8")) for t in texts) / chars if chars else 0.0

    assert not check_bytes_per_char(strips).passed
    out = report(capsys)
    assert "strip()" in out, out


def test_bytes_per_char_an_exact_fraction_passes(capsys):
    """ "Return the exact ratio": a Fraction is exactly that, and was refused as "a Fraction, expected a float"."""
    from fractions import Fraction

    def exact(texts):
        chars = sum(len(t) for t in texts)
        return Fraction(sum(len(t.encode("utf-8")) for t in texts), chars) if chars else Fraction(0)

    assert check_bytes_per_char(exact).passed, report(capsys)


def test_premium_an_exact_fraction_passes(capsys):
    from fractions import Fraction

    def exact(t, encode, language, reference="en"):
        return Fraction(sum(len(encode(x)) for x in t[language]), sum(len(encode(x)) for x in t[reference]))

    assert check_premium(exact).passed, report(capsys)


def joined_room(separator):
    def room(system, user, context_window, count_tokens):
        return max(0, context_window - count_tokens(system + separator + user))

    return room


@pytest.mark.parametrize("separator", ["\n", " ", ""], ids=["new line", "space", "nothing"])
def test_room_for_answer_counting_the_prompts_joined_is_rejected_and_named(capsys, separator):
    """GPT-4o: "Answer in French" + "\\n" + "Hello there" is 6 tokens, 5 counted apart; "Be brief:" + " " +
    "2024-03-15" is 10 against 9 (tiktoken's own counts, in the test below)."""
    assert not check_room_for_answer(joined_room(separator)).passed
    out = report(capsys)
    assert "count each prompt on its own" in out, out


def test_the_joined_prompts_count_differently_with_tiktoken():
    import tiktoken

    enc = tiktoken.get_encoding("o200k_base")
    n = lambda text: len(enc.encode_ordinary(text))  # noqa: E731
    assert (n("Answer in French") + n("Hello there"), n("Answer in French\nHello there")) == (5, 6)
    assert (n("Be brief:") + n("2024-03-15"), n("Be brief: 2024-03-15")) == (9, 10)
    assert (n("Be brief.") + n("What is BPE?"), n("Be brief.What is BPE?")) == (8, 7)
    # the checker's notes give each prompt's own count
    assert [
        n(t) for t in ("Answer in French", "Hello there", "Be brief:", "2024-03-15", "Be brief.", "What is BPE?")
    ] == [3, 2, 3, 6, 3, 5]


@pytest.mark.parametrize("places", [5, 7, 8])
def test_estimate_cost_rounding_is_named_at_the_places_written(capsys, places):
    """round(x, 7) and round(x, 8) passed (every case's cost had at most 7 places), and round(x, 5) was told
    "6 places" (0.00719 is also 0.0071895 rounded to 6). $0.0375 per million makes 123 tokens cost $0.0000046125."""
    result = check_estimate_cost(lambda i, o, pi, po: round((i * pi + o * po) / 1e6, places))
    out = report(capsys)
    assert not result.passed
    assert f"the exact cost rounded to {places} decimal places: don't round" in out, out


def test_estimate_cost_an_exact_decimal_passes(capsys):
    from decimal import Decimal

    def in_decimals(i, o, pi, po):
        return (Decimal(i) * Decimal(str(pi)) + Decimal(o) * Decimal(str(po))) / Decimal(1_000_000)

    assert check_estimate_cost(in_decimals).passed, report(capsys)


# ---- leaks found by a second fresh read of lessons 09 and 10 -----------------------------------------------


def test_bytes_per_char_grapheme_clusters_are_rejected_and_named(capsys):
    """len() counts code points; counting what you see (\\X) made Tamil 4.25 bytes a character instead of 2.73."""
    import regex

    def by_graphemes(texts):
        chars = sum(len(regex.findall(r"\X", t)) for t in texts)
        return sum(len(t.encode("utf-8")) for t in texts) / chars if chars else 0.0

    assert not check_bytes_per_char(by_graphemes).passed
    assert "combining" in report(capsys)


def test_bytes_per_char_cut_to_two_places_is_named(capsys):
    """The prose accepts answers rounded to 2 places; one cut off there can be 0.01 away, and is told so."""
    assert not check_bytes_per_char(lambda texts: int(good_bytes_per_char(texts) * 100) / 100).passed
    assert "cut off at 2 places" in report(capsys)


def _lowercased(t, encode, language, reference="en"):
    return good_premium({k: [s.lower() for s in v] for k, v in t.items()}, encode, language, reference)


def _nfkc(t, encode, language, reference="en"):
    return good_premium(
        {k: [unicodedata.normalize("NFKC", s) for s in v] for k, v in t.items()}, encode, language, reference
    )


def _through_a_set(t, encode, language, reference="en"):
    return sum(len(encode(s)) for s in set(t[language])) / sum(len(encode(s)) for s in set(t[reference]))


@pytest.mark.parametrize(
    "wrong, hint",
    [
        (_lowercased, "lower()"),
        (_nfkc, "normalize"),
        (_through_a_set, "set(texts)"),
    ],
    ids=["lowercased", "NFKC", "set of sentences"],
)
def test_premium_leaks_are_rejected_and_named(capsys, wrong, hint):
    assert not check_premium(wrong).passed
    out = report(capsys)
    assert hint in out and "rounded" not in out, out


def test_room_for_answer_stripped_prompts_are_rejected_and_named(capsys):
    assert not check_room_for_answer(lambda s, u, w, count: max(0, w - count(s.strip()) - count(u.strip()))).passed
    assert "strip()" in report(capsys)
