"""Training: the naive loop against the incremental trainer, then ours against Hugging Face ``tokenizers``.

Both of our trainers start from the same pre-token counts, so the first comparison is the
training loop alone. The comparison with ``tokenizers`` is the whole training, text in,
vocabulary out, with the GPT-2 split on both sides (ours: ``pattern="gpt2"``; theirs: the
ByteLevel pre-tokenizer, which applies GPT-2's regex, fed line by line), 256 byte tokens to
start from, and the same rule that a pair must occur at least twice to be merged. Ties are
settled differently (theirs: the smaller pair of ids), so the vocabularies differ slightly.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from bpelab.bench.common import WALL, Row, against_target, best_of, corpus, kb, note, race, say, seconds, timed
from bpelab.byte_level import BPETokenizer, count_pretokens, train_bytes_naive
from bpelab.corpora import read_corpus
from bpelab.fast import train_bytes_fast
from bpelab.tie_rules import ByteTieBreak


def hf_train(lines: list[str], vocab_size: int) -> Any:  # a tokenizers.Tokenizer
    """A byte-level BPE trained by Hugging Face ``tokenizers``, set up like ours."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    tokenizer.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        min_frequency=2,
        show_progress=False,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
    )
    # Lines, not one long string: tokenizers then spreads the counting over its threads.
    tokenizer.train_from_iterator(lines, trainer=trainer)
    return tokenizer


def bytes_per_token(text: str, n_tokens: int) -> str:
    return f"{len(text.encode('utf-8')) / n_tokens:.3f}"


def rows(quick: bool = False) -> list[Row]:
    size = 200_000 if quick else 1_000_000
    naive_merges = 100 if quick else 5000
    hf_merges = 500 if quick else 5000
    repeats = 1 if quick else 3
    text, how = corpus(size)
    out = [note(f"training corpus: {how}; GPT-2 split")]

    split_time, counts = best_of(lambda: count_pretokens(text, "gpt2"), repeats)
    out.append(
        (f"pre-token counting, shared by both trainers ({len(counts):,} distinct pieces)", seconds(split_time), "", "")
    )

    say(f"training: the naive loop, {naive_merges:,} merges on {kb(size)} (the slow part: half a minute or more)")
    naive_time, naive_merges_learned = timed(lambda: train_bytes_naive(counts, naive_merges, progress=True))
    fast_time, fast_merges_learned = best_of(lambda: train_bytes_fast(counts, naive_merges), repeats)
    assert fast_merges_learned == naive_merges_learned, "the fast trainer learned other merges than the naive loop"
    out.append(
        (
            f"training loop, {naive_merges:,} merges on {kb(size)}: fast vs naive (identical merges)",
            seconds(fast_time),
            seconds(naive_time),
            against_target(fast_time, naive_time, at_least_faster=100),
        )
    )

    rules: tuple[ByteTieBreak, ...] = ("tokenizers", "greatest_bytes")
    for rule in rules:  # a tie rule must not slow the trainer down (lesson 15)
        rule_time, _ = best_of(partial(train_bytes_fast, counts, naive_merges, tie_break=rule), repeats)
        out.append(
            (
                f"training loop, {naive_merges:,} merges: fast with tie_break={rule!r} vs the default 'first'",
                seconds(rule_time),
                seconds(fast_time),
                against_target(rule_time, fast_time, at_most_slower=1.5),
            )
        )

    say(f"training: fast vs tokenizers, {hf_merges:,} merges on {kb(size)}")
    lines = text.splitlines(keepends=True)
    ours_time, hf_time, ours_tok, hf_tok = race(
        lambda: BPETokenizer().train(text, 256 + hf_merges, pattern="gpt2", method="fast"),
        lambda: hf_train(lines, 256 + hf_merges),
        repeats,
        WALL,
    )
    out.append(
        (
            f"whole training, {hf_merges:,} merges on {kb(size)}, wall clock: fast vs tokenizers "
            f"({len(ours_tok.merges):,} vs {hf_tok.get_vocab_size() - 256:,} merges learned)",
            seconds(ours_time),
            seconds(hf_time),
            against_target(ours_time, hf_time, at_most_slower=3),
        )
    )
    heldout = read_corpus("english_heldout")
    ours_bpt = bytes_per_token(heldout, len(ours_tok.encode(heldout)))
    hf_bpt = bytes_per_token(heldout, len(hf_tok.encode(heldout).ids))
    out.append(
        (
            f"held-out compression, bytes per token on english_heldout.txt ({kb(len(heldout.encode()))})",
            ours_bpt,
            hf_bpt,
            f"{float(ours_bpt) / float(hf_bpt):.3f} (higher is better)",
        )
    )
    return out
