"""Parity-aware BPE (bpelab.parity) against a naive version written here, and by hand.

The naive version recomputes everything from scratch before every merge: each language's tokens
on the measuring text (replaying every merge so far on every piece), and the worst language's pair
counts. It shares no code with the trainer but the pre-token counting.
"""

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bpelab
from bpelab import BPETokenizer
from bpelab.analysis.fairness import gini
from bpelab.byte_level import count_pretokens
from bpelab.parity import train_parity_aware, worst_first
from bpelab.patterns import split_text


def replay(piece, merges):
    symbols = list(piece)
    for (a, b), new in merges:
        out, i = [], 0
        while i < len(symbols):
            if i + 1 < len(symbols) and symbols[i] == a and symbols[i + 1] == b:
                out.append(new)
                i += 2
            else:
                out.append(symbols[i])
                i += 1
        symbols = out
    return symbols


def gpt2_stand_ins():
    """GPT-2's byte -> printable character table (openai/gpt-2 src/encoder.py, bytes_to_unicode), written again."""
    keep = [*range(33, 127), *range(161, 173), *range(174, 256)]
    table = {b: chr(b) for b in keep}
    for n, b in enumerate(b for b in range(256) if b not in table):
        table[b] = chr(256 + n)
    return table


STAND_IN = gpt2_stand_ins()


def naive_parity(train, num_merges, measure=None, pattern="gpt2", pair_ties="first", when_stuck="pass"):
    """[(language, tokens before the merge, pair, count), ...], each merge recomputed from nothing.

    pair_ties="greatest" and when_stuck="stop" are written as the reference code writes them: the pair is
    max(stats, key=(count, pair)) over pairs of stand-in strings, and a worst language whose best pair occurs
    fewer than twice ends training.
    """
    words = {lang: count_pretokens(text, pattern) for lang, text in train.items()}
    measured = words if measure is None else {lang: count_pretokens(t, pattern) for lang, t in measure.items()}
    vocab = {i: bytes([i]) for i in range(256)}
    merges, out = [], []
    for new_id in range(256, 256 + num_merges):
        tokens = {lang: sum(len(replay(p, merges)) * n for p, n in measured[lang].items()) for lang in train}
        order = sorted(train, key=lambda lang: -tokens[lang])
        chosen = None
        for lang in order:
            counts = {}
            for piece, n in words[lang].items():
                symbols = replay(piece, merges)
                for pair in zip(symbols, symbols[1:]):
                    counts[pair] = counts.get(pair, 0) + n
            if counts:
                top = max(counts.values())
                if pair_ties == "first":
                    pair = next(p for p, c in counts.items() if c == top)  # first seen among the best
                else:
                    text = {i: "".join(STAND_IN[c] for c in vocab[i]) for pair in counts for i in pair}
                    pair = max(counts, key=lambda p: (counts[p], (text[p[0]], text[p[1]])))
                if top >= 2:
                    chosen = (lang, dict(tokens), pair, top)
                    break
            if when_stuck == "stop":
                break
        if chosen is None:
            break
        vocab[new_id] = vocab[chosen[2][0]] + vocab[chosen[2][1]]
        out.append(chosen)
        merges.append((chosen[2], new_id))
    return out


def as_tuples(run):
    return [(c.language, c.tokens, c.pair, c.count) for c in run.choices]


# ---- by hand --------------------------------------------------------------------------------


def test_hand_example_alternates_between_languages():
    # en "abababab": 8 tokens, xx "cdcdcd": 6. Merge 1 goes to en (worst): a+b (4 times) -> 4 tokens.
    # Merge 2: xx is worst (6 > 4): c+d (3 times) -> 3 tokens. Merge 3: en (4 > 3): ab+ab (3) -> 2 tokens.
    # Merge 4: xx (3 > 2): cd+cd (2) -> 2 tokens.
    run = train_parity_aware({"en": "abababab", "xx": "cdcdcd"}, 4, pattern=None)
    a, b, c, d = map(ord, "abcd")
    assert [(ch.language, ch.pair, ch.count) for ch in run.choices] == [
        ("en", (a, b), 4),
        ("xx", (c, d), 3),
        ("en", (256, 256), 3),
        ("xx", (257, 257), 2),
    ]
    assert [ch.tokens for ch in run.choices] == [
        {"en": 8, "xx": 6},
        {"en": 4, "xx": 6},
        {"en": 4, "xx": 3},
        {"en": 2, "xx": 3},
    ]
    tok = run.tokenizer
    assert tok.vocab[258] == b"abab" and tok.vocab[259] == b"cdcd"
    assert len(tok.encode("abababab")) == 2 and len(tok.encode("cdcdcd")) == 2
    # standard BPE on both texts together spends its second merge on ab+ab (3, seen before c+d's 3)
    standard = BPETokenizer().train("abababab\ncdcdcd", 258)
    assert list(standard.merges)[1] == (256, 256)


def test_ties_between_languages_go_to_the_one_listed_first():
    assert worst_first({"am": 70, "ta": 70, "en": 20}) == ["am", "ta", "en"]
    run = train_parity_aware({"yy": "cdcd", "xx": "abab"}, 1, pattern=None)
    assert run.choices[0].language == "yy"  # both need 4 tokens


def test_stops_when_no_language_has_a_pair_seen_twice():
    run = train_parity_aware({"en": "ab", "xx": "cd"}, 5, pattern=None)
    assert run.choices == [] and run.stopped_early


def test_a_language_without_pairs_passes_its_turn():
    # xx is worst (10 tokens, en 8) but its pairs all occur once; en gets every merge.
    run = train_parity_aware({"en": "aaaaaaaa", "xx": "vwxyzpqrst"}, 2, pattern=None)
    assert [(ch.worst_off, ch.language) for ch in run.choices] == [("xx", "en"), ("xx", "en")]
    assert [ch.tokens for ch in run.choices] == [{"en": 8, "xx": 10}, {"en": 4, "xx": 10}]


def test_a_passed_turn_names_the_worst_off_and_the_language_that_got_the_merge():
    # xx is worst (5 tokens, en 4) and its pairs all occur once: it is the worst off, en gets the merge (a+a, 3 times)
    run = train_parity_aware({"en": "aaaa", "xx": "vwxyz"}, 1, pattern=None, record=True)
    (choice,) = run.choices
    assert (choice.worst_off, choice.language, choice.count) == ("xx", "en", 3)
    assert run.notes == [
        "worst off: xx (5 tokens on the parallel text); its best pair occurs once, so the merge goes to en "
        "(4 tokens), and the pair counts are en's"
    ]
    # cut into single characters, xx (10 tokens) has no pair at all
    run = train_parity_aware({"en": "a a a a", "xx": "vwxyzvwxyz"}, 1, pattern=r" ?\S", record=True)
    assert (run.choices[0].worst_off, run.choices[0].language) == ("xx", "en")
    assert run.notes[0] == (
        "worst off: xx (10 tokens on the parallel text); it has no pair, so the merge goes to en (7 tokens), "
        "and the pair counts are en's"
    )
    # when the worst off gets the merge, the note says only that
    run = train_parity_aware({"en": "abababab", "xx": "cdcdcd"}, 1, pattern=None, record=True)
    assert run.choices[0].worst_off == run.choices[0].language == "en"
    assert run.notes == ["worst off: en (8 tokens on the parallel text), so the pair counts are en's"]
    # the worst off and the next worst both stuck: both named, the merge goes to the third
    run = train_parity_aware({"xx": "vwxyz", "yy": "pqrs", "en": "aaa"}, 1, pattern=None, record=True)
    assert (run.choices[0].worst_off, run.choices[0].language) == ("xx", "en")
    assert run.notes[0] == (
        "worst off: xx (5 tokens on the parallel text); its best pair occurs once, and the best pair of yy "
        "(4 tokens) occurs once too, so the merge goes to en (3 tokens), and the pair counts are en's"
    )


def test_the_lessons_small_run_at_its_first_passed_turn():
    """Lesson 14's stepper with 100 merges: at merge 61 Tamil is the worst off and Amharic gets the merge."""
    parallel = bpelab.load_parallel()
    few = {
        name: parallel[code][:3]
        for name, code in [("English", "en"), ("Tamil", "ta"), ("Amharic", "am"), ("Chinese", "zh")]
    }
    run = train_parity_aware(few, 100, record=True)
    assert all(c.worst_off == worst_first(c.tokens)[0] for c in run.choices)
    passed = [k for k, c in enumerate(run.choices, start=1) if c.language != c.worst_off]
    assert passed[0] == 61
    choice = run.choices[60]
    assert (choice.worst_off, choice.language) == ("Tamil", "Amharic")
    # independently: Tamil's training text cut by the tokenizer of the first 60 merges has no pair seen twice
    before = run.tokenizer.truncated(256 + 60)
    pairs = Counter(
        pair
        for piece in split_text("\n".join(few["Tamil"]), "gpt2")
        for ids in [before.encode(piece)]
        for pair in zip(ids, ids[1:])
    )
    assert max(pairs.values()) == 1
    tokens = {lang: len(before.encode("\n".join(s))) for lang, s in few.items()}
    assert choice.tokens == tokens and tokens["Tamil"] > tokens["Amharic"] == max(
        n for lang, n in tokens.items() if lang != "Tamil"
    )
    assert run.notes[60] == (
        f"worst off: Tamil ({tokens['Tamil']} tokens on the parallel text); its best pair occurs once, so the merge "
        f"goes to Amharic ({tokens['Amharic']} tokens), and the pair counts are Amharic's"
    )


def test_bad_input_is_named():
    with pytest.raises(TypeError, match="train_texts"):
        train_parity_aware("not a dict", 3)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="same languages"):
        train_parity_aware({"en": "ab"}, 3, measure_texts={"fr": "ab"})
    with pytest.raises(TypeError, match=r"train_texts\['en'\]"):
        train_parity_aware({"en": 5}, 3)  # type: ignore[dict-item]
    # a list with something else than text in it: the message names the item, not just "list"
    with pytest.raises(TypeError, match=r"train_texts\['en'\].*item 1 is int \(3\)"):
        train_parity_aware({"en": ["ok", 3]}, 3)  # type: ignore[list-item]
    with pytest.raises(TypeError, match=r"measure_texts\['fr'\].*item 0 is bytes"):
        train_parity_aware({"fr": "ab"}, 3, measure_texts={"fr": [b"ab"]})  # type: ignore[list-item]
    with pytest.raises(ValueError, match="pair_ties"):
        train_parity_aware({"en": "ab"}, 3, pair_ties="last")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="when_stuck"):
        train_parity_aware({"en": "ab"}, 3, when_stuck="wait")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="record"):
        train_parity_aware({"en": "ab"}, 3, pair_ties="greatest", record=True)


def test_repr_counts_the_languages_even_without_merges():
    assert repr(train_parity_aware({"en": "ab", "fr": "cd", "de": "ef"}, 0)) == "ParityRun(0 merges over 3 languages)"
    stuck = train_parity_aware({"en": "ab", "fr": "cd"}, 4, pattern=None)
    assert repr(stuck) == "ParityRun(0 merges over 2 languages, stopped early)"


def test_the_reference_rules_by_hand():
    # "ababxbcbc" as one piece: a+b and b+c both occur twice. The course takes a+b (seen first); the
    # reference takes the greatest pair of strings, ("b", "c") > ("a", "b").
    a, b, c = map(ord, "abc")
    course = train_parity_aware({"en": "ababxbcbc"}, 1, pattern=None)
    reference = train_parity_aware({"en": "ababxbcbc"}, 1, pattern=None, pair_ties="greatest")
    assert course.choices[0].pair == (a, b) and reference.choices[0].pair == (b, c)
    # "zz zz  a  a": z+z, z+space, space+space and space+a occur twice each. Compared as raw bytes z+z would be
    # greatest; the reference compares GPT-2 stand-ins, where the space is "Ġ" (U+0120), after every ASCII letter.
    z, space = ord("z"), ord(" ")
    assert train_parity_aware({"en": "zz zz  a  a"}, 1, pattern=None).choices[0].pair == (z, z)
    greatest = train_parity_aware({"en": "zz zz  a  a"}, 1, pattern=None, pair_ties="greatest")
    assert greatest.choices[0].pair == (space, space)
    # the worst language (xx: 5 tokens) has only pairs seen once: the course passes the turn, the reference stops
    texts = {"en": "aaaa", "xx": "vwxyz"}
    assert [ch.language for ch in train_parity_aware(texts, 1, pattern=None).choices] == ["en"]
    stopped = train_parity_aware(texts, 1, pattern=None, when_stuck="stop")
    assert stopped.choices == [] and stopped.stopped_early


def test_the_tokens_it_tracks_are_what_its_tokenizer_encodes():
    texts = {
        "en": ["the cat sat", "on the mat"],
        "de": ["die Katze saß", "auf der Matte"],
        "hi": ["बिल्ली बैठी", "चटाई पर"],
    }
    run = train_parity_aware(texts, 12)
    assert len(run.choices) >= 5
    for k, choice in enumerate(run.choices):  # the tokens before merge k: the tokenizer of the first k merges
        tokenizer = run.tokenizer.truncated(256 + k)
        assert choice.tokens == {lang: len(tokenizer.encode("\n".join(s))) for lang, s in texts.items()}


# ---- against the naive version on generated text ----------------------------------------------

ALPHABET = "ab c1 2\u200d\u0301éд日本டி்\n"  # Latin, Cyrillic, CJK, Tamil, digits, ZWJ, a combining mark
TEXT = st.text(alphabet=ALPHABET, max_size=40)


@settings(max_examples=40, deadline=None)
@given(
    texts=st.lists(TEXT, min_size=1, max_size=4),
    num_merges=st.integers(0, 12),
    pattern=st.sampled_from([None, "gpt2", "o200k"]),
)
def test_same_choices_as_the_naive_version(texts, num_merges, pattern):
    train = {f"l{i}": t for i, t in enumerate(texts)}
    run = train_parity_aware(train, num_merges, pattern=pattern)
    assert as_tuples(run) == naive_parity(train, num_merges, pattern=pattern)


@settings(max_examples=40, deadline=None)
@given(
    texts=st.lists(TEXT, min_size=1, max_size=4),
    num_merges=st.integers(0, 12),
    pair_ties=st.sampled_from(["first", "greatest"]),
    when_stuck=st.sampled_from(["pass", "stop"]),
)
def test_the_reference_rules_against_the_naive_version(texts, num_merges, pair_ties, when_stuck):
    train = {f"l{i}": t for i, t in enumerate(texts)}
    run = train_parity_aware(train, num_merges, pair_ties=pair_ties, when_stuck=when_stuck)
    assert as_tuples(run) == naive_parity(train, num_merges, pair_ties=pair_ties, when_stuck=when_stuck)


@settings(max_examples=40, deadline=None)
@given(pairs=st.lists(st.tuples(TEXT, TEXT), min_size=1, max_size=3), num_merges=st.integers(0, 10))
def test_same_choices_with_a_separate_measuring_text(pairs, num_merges):
    train = {f"l{i}": t for i, (t, _m) in enumerate(pairs)}
    measure = {f"l{i}": m for i, (_t, m) in enumerate(pairs)}
    run = train_parity_aware(train, num_merges, measure_texts=measure)
    assert as_tuples(run) == naive_parity(train, num_merges, measure=measure)


# ---- the Gini coefficient -----------------------------------------------------------------------


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 1000), max_size=20))
def test_gini_is_the_mean_absolute_difference_over_twice_the_mean(values):
    n, total = len(values), sum(values)
    expected = sum(abs(a - b) for a in values for b in values) / (2 * n * total) if n and total else 0.0
    assert gini(values) == pytest.approx(expected)


def test_gini_by_hand():
    assert gini([5, 5]) == 0.0
    assert gini([0, 0, 0, 12]) == 0.75
    assert gini([1, 3]) == pytest.approx(0.25)
    with pytest.raises(ValueError, match="negative"):
        gini([1, -1])


# ---- the merge stepper replays a parity-aware run -------------------------------------------------


def test_the_stepper_replays_a_recorded_run_with_why_each_merge_was_chosen():
    from bpelab.widgets.stepper import MergeStepper

    run = train_parity_aware({"English": "abababab", "Tamil": "cdcdcd"}, 4, pattern=None, record=True)
    stepper = MergeStepper(run)
    assert stepper.num_steps == 4
    assert stepper.trace["notes"] == [
        "worst off: English (8 tokens on the parallel text), so the pair counts are English's",
        "worst off: Tamil (6 tokens on the parallel text), so the pair counts are Tamil's",
        "worst off: English (4 tokens on the parallel text), so the pair counts are English's",
        "worst off: Tamil (3 tokens on the parallel text), so the pair counts are Tamil's",
    ]
    # step 1's pair table is Tamil's counts (the language the next merge is for): c+d 3, d+c 2
    c, d = stepper.trace["symbols"].index(list(b"c")), stepper.trace["symbols"].index(list(b"d"))
    assert stepper.trace["pairs"][1]["rows"][:2] == [[c, d, "3", 120], [d, c, "2", 80]]
    stepper.step = 1
    assert stepper.render_text().endswith(
        "why: worst off: Tamil (6 tokens on the parallel text), so the pair counts are Tamil's"
    )
    # after the last merge the table shows the pairs left (each occurs once), not an encoder's ranks
    assert stepper.trace["pairs"][4]["winner"] == -1 and stepper.trace["pairs"][4]["total"] == 2
    # an ordinary run has no notes in its trace
    from bpelab import train_bpe

    assert "notes" not in MergeStepper(train_bpe("low lower", 2)).trace
