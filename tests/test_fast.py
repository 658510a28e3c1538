"""The incremental trainer (bpelab.fast) learns exactly what the naive loop learns.

Known answers are checked by hand; everything else compares the fast trainer with the naive
reference (an independent, much simpler implementation) on random corpora. Small alphabets
such as "ab c" make ties and overlapping pairs ("aaaa") frequent, which is where a fast trainer
goes wrong first.
"""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpelab import BPETokenizer, train_bpe
from bpelab.byte_level import train_bytes_naive
from bpelab.fast import train_bytes_fast
from bpelab.words import get_word_frequencies, train_words_fast
from tests.test_words import CLASSIC, CLASSIC_FIRST_SEEN_MERGES

SPECIALS = ["<|endoftext|>", "<|x|>"]


def joined(merges):
    return [f"{a}+{b}" for (a, b), _ in merges]


# ---- answers checked by hand ----------------------------------------------------------------


def test_classic_corpus_first_seen_ties():
    result = train_bpe(CLASSIC, 10, method="fast")
    assert joined(result.merges) == CLASSIC_FIRST_SEEN_MERGES
    assert result.word_freq == {
        ("low</w>",): 5,
        ("lowe", "r", "</w>"): 2,
        ("newest</w>",): 3,
        ("w", "i", "d", "est</w>"): 2,
    }
    assert result.initial_word_freq == get_word_frequencies(CLASSIC)
    assert result.steps == []  # the fast path records no per-step tables
    assert not result.stopped_early


def test_classic_corpus_lexicographic_ties():
    # After lo+w, low+</w>, e+s, s+t and t+</w> all occur 5 times; ('e', 's') is the smallest.
    result = train_bpe(CLASSIC, 3, tie_break="lexicographic", method="fast")
    assert [pair for pair, _ in result.merges] == [("l", "o"), ("lo", "w"), ("e", "s")]


def test_first_seen_is_judged_in_the_current_corpus():
    # Words: a, cb, cbb. Merge 1 is c+b (twice), which takes b+</w> out of "cb". At merge 4 the
    # ties cb+b and b+</w> both occur once, first in "cbb": cb+b stands left of b+</w>, so it wins,
    # although b+</w> was met earlier (in "cb") before merge 1.
    result = train_bpe("a cb cbb", 5, method="fast")
    assert joined(result.merges) == ["c+b", "a+</w>", "cb+</w>", "cb+b", "cbb+</w>"]


def test_word_level_stops_when_no_pair_is_left():
    result = train_bpe("ab ab a", 10, method="fast")
    assert joined(result.merges) == ["a+b", "ab+</w>", "a+</w>"]
    assert result.stopped_early
    assert result.word_freq == {("ab</w>",): 2, ("a</w>",): 1}
    empty = train_bpe("", 5, method="fast")
    assert (empty.merges, empty.word_freq, empty.stopped_early) == ([], {}, True)
    none = train_bpe(CLASSIC, 0, method="fast")
    assert (none.merges, none.word_freq, none.stopped_early) == ([], get_word_frequencies(CLASSIC), False)


def test_byte_level_ties_go_to_the_pair_seen_first():
    # "cdab abcd" as one piece: c,d and a,b both occur twice; c,d comes first.
    # Then a,b (twice); then every pair occurs once, and training stops.
    a, b, c, d = b"abcd"
    assert train_bytes_fast({b"cdab abcd": 1}, 10) == [((c, d), 256), ((a, b), 257)]


def test_byte_level_overlaps_and_the_stop_at_one_occurrence():
    # "aaaa": a,a occurs 3 times (overlapping), merges into aa,aa; aa,aa occurs once: stop.
    assert train_bytes_fast({b"aaaa": 1}, 5) == [((97, 97), 256)]
    # Counts weigh pieces: "ab" twice is enough for a merge, "ab" once is not.
    assert train_bytes_fast({b"ab": 2}, 5) == [((97, 98), 256)]
    assert train_bytes_fast({b"ab": 1, b"ba": 1}, 5) == []
    assert train_bytes_fast({}, 5) == []
    assert train_bytes_fast({b"aaaa": 1}, 0) == []


def test_tokenizer_fast_method_on_the_cats_sentence():
    text = "the cat sat on the mat the cat ate the rat"
    fast = BPETokenizer().train(text, 266, method="fast")
    assert next(iter(fast.merges)) == (ord("a"), ord("t"))  # "at" occurs 6 times, "th" 4
    assert fast.vocab[256] == b"at"
    assert fast.decode(fast.encode(text)) == text


def test_bad_arguments_are_refused_clearly():
    with pytest.raises(ValueError, match="num_merges"):
        train_words_fast(get_word_frequencies("a b"), -1)
    with pytest.raises(ValueError, match="tie_break"):
        train_words_fast(get_word_frequencies("a b"), 3, tie_break="random")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="num_merges"):
        train_bytes_fast({b"ab": 2}, 2.5)  # type: ignore[arg-type]


# ---- fast == naive on random corpora --------------------------------------------------------

TEXTS = st.one_of(
    st.text(alphabet="ab c", max_size=60),
    st.text(alphabet="aab\n ", max_size=40),
    st.text(alphabet="xyz ", min_size=30, max_size=120),
    st.text(max_size=40),
)


@settings(max_examples=1000, deadline=None)
@given(text=TEXTS, num_merges=st.integers(0, 30), tie_break=st.sampled_from(["first", "lexicographic"]))
def test_word_level_fast_learns_what_naive_learns(text, num_merges, tie_break):
    naive = train_bpe(text, num_merges, tie_break=tie_break, method="naive")
    fast = train_bpe(text, num_merges, tie_break=tie_break, method="fast")
    assert fast.merges == naive.merges
    assert list(fast.word_freq.items()) == list(naive.word_freq.items())
    assert fast.initial_word_freq == naive.initial_word_freq
    assert (fast.stopped_early, fast.tie_break) == (naive.stopped_early, naive.tie_break)


@settings(max_examples=700, deadline=None)
@given(
    text=TEXTS,
    extra=st.integers(0, 40),
    pattern=st.sampled_from([None, "gpt2", "cl100k", r"[a-z]+|\s+|[^a-z\s]+"]),
)
def test_byte_level_fast_learns_what_naive_learns(text, extra, pattern):
    naive = BPETokenizer().train(text, 256 + extra, pattern=pattern, method="naive")
    fast = BPETokenizer().train(text, 256 + extra, pattern=pattern, method="fast")
    assert list(fast.merges.items()) == list(naive.merges.items())
    assert fast.vocab == naive.vocab


@settings(max_examples=300, deadline=None)
@given(
    parts=st.lists(st.one_of(st.text(alphabet="ab c", max_size=12), st.sampled_from(SPECIALS)), max_size=10),
    extra=st.integers(0, 30),
    pattern=st.sampled_from([None, "gpt2"]),
)
def test_byte_level_with_special_tokens(parts, extra, pattern):
    text = "".join(parts)
    naive = BPETokenizer().train(
        text, 256 + len(SPECIALS) + extra, pattern=pattern, special_tokens=SPECIALS, method="naive"
    )
    fast = BPETokenizer().train(
        text, 256 + len(SPECIALS) + extra, pattern=pattern, special_tokens=SPECIALS, method="fast"
    )
    assert list(fast.merges.items()) == list(naive.merges.items())
    assert fast.special_tokens == naive.special_tokens
    assert fast.encode(text, allowed_special="all") == naive.encode(text, allowed_special="all")


@settings(max_examples=700, deadline=None)
@given(
    counts=st.dictionaries(st.lists(st.sampled_from(b"ab "), max_size=10).map(bytes), st.integers(1, 6), max_size=12),
    num_merges=st.integers(0, 25),
)
def test_weighted_pieces_fast_equals_naive(counts, num_merges):
    assert train_bytes_fast(counts, num_merges) == train_bytes_naive(counts, num_merges)


# ---- the algorithm modules import each other without a circle (issue 9, item 10) -------------

ROOT_MODULES = ["text", "patterns", "merging", "fast", "words", "byte_level", "wordpiece", "production"]


def _bpelab_imports(module: str) -> set[str]:
    """The bpelab root modules ``module`` imports anywhere in its file (lazy imports inside functions too)."""
    import ast
    from pathlib import Path

    import bpelab

    tree = ast.parse((Path(bpelab.__file__).parent / f"{module}.py").read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        names = [node.module or ""] if isinstance(node, ast.ImportFrom) else []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        for name in names:
            parts = name.split(".")
            if parts[0] == "bpelab" and len(parts) > 1 and parts[1] in ROOT_MODULES:
                found.add(parts[1])
    return found


def test_fast_imports_nothing_from_words():
    assert "words" not in _bpelab_imports("fast")


def test_the_algorithm_modules_import_each_other_without_a_circle():
    graph = {m: _bpelab_imports(m) for m in ROOT_MODULES}
    done: set[str] = set()

    def visit(module: str, path: list[str]) -> None:
        assert module not in path, f"import circle: {' -> '.join([*path, module])}"
        if module not in done:
            for imported in graph[module]:
                visit(imported, [*path, module])
            done.add(module)

    for module in ROOT_MODULES:
        visit(module, [])


@pytest.mark.parametrize("module", ROOT_MODULES)
def test_each_algorithm_module_imports_first_in_a_fresh_interpreter(module):
    import subprocess
    import sys

    subprocess.run([sys.executable, "-c", f"import bpelab.{module}"], check=True, capture_output=True)


def test_the_old_import_places_still_work():
    from bpelab.words import check_merge_count, replace_pair  # exercises and lessons import them from here

    assert replace_pair(("a", "b", "a", "b"), ("a", "b"), "ab") == ("ab", "ab")
    assert check_merge_count(3) == 3
    assert train_bpe(CLASSIC, 5, method="fast").merges == train_bpe(CLASSIC, 5).merges
