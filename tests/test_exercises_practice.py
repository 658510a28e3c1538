"""The checkers of lessons 09 and 10: right answers pass, stubs say "not yet", typical mistakes get their hint."""

import pytest

from bpelab.exercises.practice import (
    MUST_KEEP,
    WORDY_PROMPT,
    check_bytes_per_char,
    check_estimate_cost,
    check_premium,
    check_room_for_answer,
    check_shorter_prompt,
)


def report(capsys):
    return capsys.readouterr().out


# ---- bytes per character ----------------------------------------------------------------------


def good_bytes_per_char(texts):
    chars = sum(len(t) for t in texts)
    return round(sum(len(t.encode("utf-8")) for t in texts) / chars, 2) if chars else 0.0


def test_bytes_per_char_right_answer_passes(capsys):
    result = check_bytes_per_char(good_bytes_per_char)
    assert result.passed
    assert report(capsys).startswith("✅ bytes_per_char: all")


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
            lambda texts: sum(len(t.encode()) for t in texts) / sum(map(len, texts)) if "".join(texts) else 0.0,
            "round it to 2 places",
        ),
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
        (lambda i, o, pi, po: round((i * pi + o * po) / 1e6, 2), "don't round"),
    ],
)
def test_estimate_cost_mistakes(capsys, wrong, hint):
    assert not check_estimate_cost(wrong).passed
    assert hint in report(capsys)


def test_a_function_that_raises_is_reported(capsys):
    def estimate_cost(i, o, pi, po):
        raise KeyError("oops")

    result = check_estimate_cost(estimate_cost)
    assert not result.passed
    assert "KeyError" in report(capsys)


# ---- shorter prompt ---------------------------------------------------------------------------

GOOD_SHORT = (
    "Summarise the customer review below in French, in at most three sentences, "
    "and say whether it is positive, negative or neutral."
)


def test_a_good_rewrite_passes_and_reports_the_saving(capsys):
    import tiktoken

    enc = tiktoken.get_encoding("o200k_base")
    before, after = len(enc.encode(WORDY_PROMPT)), len(enc.encode(GOOD_SHORT))
    result = check_shorter_prompt(GOOD_SHORT)
    out = report(capsys)
    assert result.passed
    assert f"{before} → {after}; saved {before - after}" in out


def test_shorter_prompt_not_yet_and_failures(capsys):
    assert check_shorter_prompt(...).status == "not yet"
    assert check_shorter_prompt("").status == "not yet"
    assert check_shorter_prompt(WORDY_PROMPT).status == "not yet"
    report(capsys)

    result = check_shorter_prompt("Summarise the review below in three sentences.")
    out = report(capsys)
    assert not result.passed and "french" in out and "positive" in out

    padded = GOOD_SHORT + " Thank you so much, I really appreciate your help with this, have a lovely day!" * 4
    result = check_shorter_prompt(padded)
    assert not result.passed and "now make it shorter" in report(capsys)

    result = check_shorter_prompt(42)
    assert not result.passed and "expected your prompt as a string" in report(capsys)


def test_every_must_keep_item_is_in_the_wordy_prompt():
    lowered = WORDY_PROMPT.lower()
    for options in MUST_KEEP:
        assert any(option in lowered for option in options), options
