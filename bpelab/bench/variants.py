"""Lesson 14's trainers beside standard BPE on the same data: parity-aware BPE and SuperBPE.

Both variants do more work per merge than the standard incremental trainer: parity-aware BPE keeps
one trainer per language and counts each language's tokens after every merge; SuperBPE's second
stage merges inside long pieces (whole stretches of text between the few cuts it keeps), where a
merge rewrites a long sequence. The rows say what that costs, as ratios against standard BPE
trained to the same number of merges on the same text, and what each buys (its own measure).
"""

from __future__ import annotations

from bpelab.analysis.fairness import gini
from bpelab.bench.common import Row, kb, note, race, say, seconds, speed
from bpelab.byte_level import BPETokenizer
from bpelab.corpora import load_parallel, read_corpus
from bpelab.parity import train_parity_aware
from bpelab.superword import train_superbpe

TRAIN_SENTENCES = 24
"""The same split as lessons 09 and 14: the first 24 sentences of every language train, the other 12 are held out."""


def rows(quick: bool = False) -> list[Row]:
    repeats = 1 if quick else 3
    out: list[Row] = []

    parallel = load_parallel()
    train = {code: sentences[:TRAIN_SENTENCES] for code, sentences in parallel.items()}
    held = {code: sentences[TRAIN_SENTENCES:] for code, sentences in parallel.items()}
    joined = "\n".join(s for sentences in train.values() for s in sentences)
    merges = 300 if quick else 1000
    out.append(
        note(
            f"parity-aware: {len(train)} languages x {TRAIN_SENTENCES} sentences ({kb(len(joined.encode()))}), GPT-2 split"
        )
    )
    say(f"variants: parity-aware vs standard BPE, {merges:,} merges")
    parity_time, standard_time, run, standard = race(
        lambda: train_parity_aware(train, merges),
        lambda: BPETokenizer().train(joined, 256 + merges, pattern="gpt2"),
        repeats,
    )
    out.append(
        (
            f"training, {merges:,} merges: parity-aware vs standard BPE",
            seconds(parity_time),
            seconds(standard_time),
            speed(parity_time, standard_time),
        )
    )

    def held_tokens(tokenizer: BPETokenizer) -> list[int]:
        return [sum(len(tokenizer.encode(s)) for s in sentences) for sentences in held.values()]

    ours, theirs = held_tokens(run.tokenizer), held_tokens(standard)
    out.append(
        (
            "held-out Gini across languages (lower is fairer)",
            f"{gini(ours):.3f}",
            f"{gini(theirs):.3f}",
            f"{gini(ours) / gini(theirs):.2f}x",
        )
    )
    out.append(
        (
            "held-out tokens, all languages (lower is better)",
            f"{sum(ours):,}",
            f"{sum(theirs):,}",
            f"{sum(ours) / sum(theirs):.3f}x",
        )
    )

    text = read_corpus("english_train")
    heldout = read_corpus("english_heldout")
    total = 400 if quick else 1000
    transition = total * 3 // 4
    out.append(
        note(f"SuperBPE: english_train.txt ({kb(len(text.encode()))}), {total:,} merges, transition at {transition:,}")
    )
    say(f"variants: SuperBPE vs standard BPE, {total:,} merges")
    super_time, plain_time, superbpe, plain = race(
        lambda: train_superbpe(text, 256 + total, transition=transition),
        lambda: BPETokenizer().train(text, 256 + total, pattern="gpt2"),
        repeats,
    )
    out.append(
        (
            f"training, {total:,} merges: SuperBPE vs standard BPE",
            seconds(super_time),
            seconds(plain_time),
            speed(super_time, plain_time),
        )
    )
    n_super, n_plain = len(superbpe.encode(heldout)), len(plain.encode(heldout))
    out.append(
        (
            "held-out tokens on english_heldout.txt (lower is better)",
            f"{n_super:,}",
            f"{n_plain:,}",
            f"{n_super / n_plain:.3f}x",
        )
    )
    return out
