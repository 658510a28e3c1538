"""The warm-up checker of lesson 00: right answers pass, typical wrong ones get the hint meant for them."""

from __future__ import annotations

from collections import Counter

from bpelab.exercises.warmup import check_count_characters, count_characters


def test_reference_on_hand_checked_examples():
    assert count_characters("banana") == {"b": 1, "a": 3, "n": 2}
    assert list(count_characters("banana")) == ["b", "a", "n"], "first-seen order"
    assert count_characters("") == {}
    assert count_characters("a a") == {"a": 2, " ": 1}
    assert count_characters("🙂🙂") == {"🙂": 2}


def test_a_correct_learner_function_passes(capsys):
    def learner(text):
        out = {}
        for ch in text:
            out[ch] = out.get(ch, 0) + 1
        return out

    assert check_count_characters(learner)
    assert check_count_characters(lambda text: Counter(text)), "a Counter is a dict: accepted"
    assert capsys.readouterr().out.count("✅ count_characters: all 6 checks passed.") == 2


def test_the_stub_is_not_yet(capsys):
    def stub(text):
        # your code here
        ...

    result = check_count_characters(stub)
    assert not result and result.status == "not yet"
    assert capsys.readouterr().out.startswith("⏳ count_characters: not yet")


def _report(fn, capsys) -> str:
    result = check_count_characters(fn)
    assert not result
    return capsys.readouterr().out


def test_typical_mistakes_get_their_own_hint(capsys):
    def always_one(text):
        return {ch: 1 for ch in text}

    def no_spaces(text):
        return dict(Counter(text.replace(" ", "")))

    def lower_case(text):
        return dict(Counter(text.lower()))

    def one_short(text):
        return {ch: n - 1 for ch, n in Counter(text).items()}

    assert "add one to the count each time" in _report(always_one, capsys)
    assert "spaces are characters too" in _report(no_spaces, capsys)
    assert "'A' and 'a' are different" in _report(lower_case, capsys)
    assert "one short" in _report(one_short, capsys)


def test_a_crashing_function_is_reported_not_raised(capsys):
    def crashes(text):
        return {ch: text.count() for ch in text}  # count() needs an argument: TypeError

    report = _report(crashes, capsys)
    assert "TypeError" in report and "count_characters('banana')" in report


def test_the_order_is_checked_and_the_wrong_order_is_named(capsys):
    """The prose asks for first-appearance order (issue 9 item 14): sorted, most_common and set orders fail."""

    def alphabetical(text):
        return dict(sorted(Counter(text).items()))

    def most_common(text):
        return dict(Counter(text).most_common())

    def through_a_set(text):
        return {ch: text.count(ch) for ch in set(text)}

    def backwards(text):  # an order that is neither sorted nor by count: the general hint
        return dict(reversed(Counter(text).items()))

    assert "in alphabetical order" in _report(alphabetical, capsys)
    assert "most frequent character first" in _report(most_common, capsys)
    assert "not in the order the characters first appear" in _report(backwards, capsys)
    # A set's order depends on string hashing; across the six cases it matches first-seen order only by a fluke
    # far rarer than one in a million.
    assert "first appear" in _report(through_a_set, capsys)


def test_skipping_the_last_character_is_named(capsys):
    """range(len(text) - 1) stops one character early: the hint names the missing last character."""

    def skips_last(text):
        counts = {}
        for i in range(len(text) - 1):
            counts[text[i]] = counts.get(text[i], 0) + 1
        return counts

    assert "the last character of the text is never counted" in _report(skips_last, capsys)
