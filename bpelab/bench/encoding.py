"""Encoding: our tiktoken-exact encoder against tiktoken itself, and merging by rank against
replaying every merge.

tiktoken runs single-threaded here (``encode_ordinary``). Our encoder remembers the pieces it
has met; that memory is emptied before every timed run, so each run starts cold: the memory starts empty, each
distinct piece is merged once, and its repeats are read from the memory. The megabyte raced is the course's English
repeated (``corpus``), so most of its pieces are repeats even cold; a second row races the English once.
"""

from __future__ import annotations

from bpelab.bench.common import Row, against_target, best_of, corpus, kb, note, race, say, seconds, speed
from bpelab.byte_level import BPETokenizer
from bpelab.corpora import read_corpus
from bpelab.patterns import split_text
from bpelab.production import from_tiktoken, load_encoding
from bpelab.words import replace_pair


def encode_by_replaying(tokenizer: BPETokenizer, text: str) -> list[int]:
    """Lesson 05's encoder on bytes: every learned merge, in order, over every piece."""
    ids: list[int] = []
    for piece in split_text(text, tokenizer.pattern, keep_gaps=True):
        symbols = tuple(piece.encode("utf-8"))
        for pair, new_id in tokenizer.merges.items():
            symbols = replace_pair(symbols, pair, new_id)
        ids.extend(symbols)
    return ids


def cold(tokenizer: BPETokenizer, text: str) -> list[int]:
    tokenizer.clear_cache()  # forget the pieces met in an earlier run
    return tokenizer.encode_ordinary(text)


def rows(quick: bool = False) -> list[Row]:
    size = 200_000 if quick else 1_000_000
    repeats = 3 if quick else 11
    text, how = corpus(size, ("english_train", "english_heldout"))
    out = [note(f"encoding text: {how}")]

    say(f"encoding: from_tiktoken('cl100k_base') vs tiktoken on {kb(size)}")
    encoding = load_encoding("cl100k_base")
    ours = from_tiktoken(encoding)
    ours_time, tiktoken_time, ours_ids, tiktoken_ids = race(
        lambda: cold(ours, text), lambda: encoding.encode_ordinary(text), repeats
    )
    assert ours_ids == tiktoken_ids, "from_tiktoken gave other ids than tiktoken"
    split_time, _ = best_of(lambda: split_text(text, ours.pattern, keep_gaps=True), repeats)
    out.append(
        (
            f"encode {kb(size)} of English, cl100k_base: ours vs tiktoken (identical ids)",
            seconds(ours_time),
            seconds(tiktoken_time),
            against_target(ours_time, tiktoken_time, at_most_slower=2),
        )
    )
    out.append(
        (
            "  of which the regex split alone (the regex module) vs tiktoken's whole encode",
            seconds(split_time),
            seconds(tiktoken_time),
            speed(split_time, tiktoken_time),
        )
    )

    fresh = read_corpus("english_train") + read_corpus("english_heldout")
    ours_time, tiktoken_time, ours_ids, tiktoken_ids = race(
        lambda: cold(ours, fresh), lambda: encoding.encode_ordinary(fresh), repeats
    )
    assert ours_ids == tiktoken_ids, "from_tiktoken gave other ids than tiktoken"
    out.append(
        (
            f"encode {kb(len(fresh.encode()))} of English, not repeated (more distinct pieces): ours vs tiktoken",
            seconds(ours_time),
            seconds(tiktoken_time),
            speed(ours_time, tiktoken_time),
        )
    )

    merges = 500 if quick else 3000
    sample = read_corpus("english_heldout")[: 2000 if quick else 5000]
    say(f"encoding: rank-based vs replaying {merges:,} merges on {kb(len(sample.encode()))} (several seconds)")
    train_text, _ = corpus(size)
    tokenizer = BPETokenizer().train(train_text, 256 + merges, pattern="gpt2", method="fast")
    rank_time, replay_time, rank_ids, replay_ids = race(
        lambda: cold(tokenizer, sample), lambda: encode_by_replaying(tokenizer, sample), 1 if quick else 2
    )
    assert rank_ids == replay_ids, "merging by rank and replaying the merges disagree"
    out.append(
        (
            f"encode {kb(len(sample.encode()))} held-out English, {merges:,} merges: by rank vs replaying every merge",
            seconds(rank_time),
            seconds(replay_time),
            speed(rank_time, replay_time),
        )
    )
    return out
