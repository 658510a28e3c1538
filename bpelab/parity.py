"""Parity-aware BPE (lesson 14): give each merge to the language that is worst off right now.

Standard BPE merges the pair that is most frequent in the whole training text, so the languages
that fill most of that text get most of the merges, and the others are left with long token
sequences (lesson 09's multilingual tax). Foroutan et al. (2025, "Parity-Aware Byte-Pair
Encoding: Improving Cross-lingual Fairness in Tokenization", arXiv:2508.04796) change one line
of the loop: at every merge, find the language whose *parallel* text is currently the worst
compressed, and merge the most frequent pair **of that language's** training text. The merge is
then applied to every language, as usual.

What "worst compressed" means here: the language that needs the **most tokens** for the parallel
measuring text (the same content in every language). On parallel text that is the lowest
compression rate against a common measure of content; it is *not* the fewest bytes per token,
which would flatter scripts whose characters take two or three UTF-8 bytes (lesson 09). Ties
between languages go to the language listed first; ties between pairs go to the pair seen first
in that language's text, the course's default tie rule. If the worst language has no pair
left that occurs twice, the next worst one gets the merge; when no language has one, training
stops early. (A pair seen once would still save one token, but it would spend a vocabulary row
on a token used once; the course's other trainers skip such pairs too.)

The paper's reference code (``parity_aware_bpe/parity_aware_learn_bpe.py`` in
github.com/swiss-ai/parity-aware-bpe, read at commit 9e31091 of its copy cimeister/parity-aware-bpe)
settles two things differently, and ``train_parity_aware`` can do as it does:
``pair_ties="greatest"`` gives a tie between pairs to the greatest pair of token strings, compared
as Python compares the pairs of GPT-2 stand-in strings it stores (``max(stats, key=lambda x:
(stats[x][max_index], x))``, line 729), and ``when_stuck="stop"`` ends training as soon as the
worst language's best pair occurs fewer than twice (lines 743-745), where the course passes the
turn. How soon it stops depends on the split: the reference splits with Hugging Face's ``Whitespace`` then
``ByteLevel(use_regex=False)`` (lines 1006-1015), not GPT-2's pattern, the default here (lesson 14 runs both). Its hybrid variant (``--global-merges``) and moving-window variant (``--variant window``)
are not implemented here.

The loop keeps one ``bpelab.fast.IncrementalTrainer`` per language (training text) and one per
language for the measuring text, so each merge costs only what it touches.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from heapq import heappush
from typing import Literal

from bpelab.byte_level import BPETokenizer, count_pretokens
from bpelab.fast import IncrementalTrainer
from bpelab.merge_bar import merge_bar
from bpelab.merging import check_merge_count
from bpelab.patterns import pattern_name_of, resolve_pattern
from bpelab.tie_rules import greater_first, hf_byte_order
from bpelab.words import MergeStep

Pair = tuple[int, int]
PairTies = Literal["first", "greatest"]
WhenStuck = Literal["pass", "stop"]


@dataclass(frozen=True)
class ParityChoice:
    """One merge of a parity-aware run: who was worst off, who got the merge, and what it was.

    The two languages differ when the worst off has no pair left that occurs twice and passes its turn."""

    language: str
    """The language that got the merge: the worst off, or, when it passed its turn, the next worst language with a
    pair occurring twice in its training text."""
    worst_off: str
    """The language whose measuring text needed the most tokens before this merge (ties: the one listed first)."""
    tokens: dict[str, int]
    """Every language's tokens on the measuring text before this merge."""
    pair: Pair
    count: int
    """How often ``pair`` occurs in ``language``'s training text (not in the whole text)."""
    new_id: int


@dataclass
class ParityRun:
    """What ``train_parity_aware`` returns: the tokenizer, and the reason for each of its merges.

    With ``record=True`` it also carries the fields the merge stepper replays
    (``steps``, ``initial_word_freq``, ``token_bytes``, ``notes``): each step's pair table is the pair counts of
    the language that got the merge (the worst off, unless it passed its turn), since that is where the pair was
    chosen, and each note names the worst-off language, any that passed their turn, and the one that got it.
    """

    tokenizer: BPETokenizer
    choices: list[ParityChoice]
    stopped_early: bool
    steps: list[MergeStep[int]] = field(default_factory=list)
    initial_word_freq: dict[tuple[int, ...], int] = field(default_factory=dict)
    token_bytes: dict[int, bytes] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    tie_break: str = "first"
    languages: list[str] = field(default_factory=list)
    """The languages it was trained on, in the order given (the order that settles ties)."""

    def __repr__(self) -> str:
        early = ", stopped early" if self.stopped_early else ""
        return f"ParityRun({len(self.choices)} merges over {len(self.languages)} languages{early})"


def _check_languages(texts: object, what: str) -> dict[str, str]:
    """Language -> one training text (a list of sentences is joined with newlines), or a clear error."""
    if not isinstance(texts, Mapping) or not texts:
        raise TypeError(
            f"{what} must be a non-empty dict from language code to text (or list of sentences), "
            f"e.g. {{'en': ['A cat.'], 'fr': ['Un chat.']}}; got {type(texts).__name__}"
        )
    joined: dict[str, str] = {}
    for language, value in texts.items():
        if isinstance(value, str):
            joined[language] = value
            continue
        if not isinstance(value, Sequence):
            raise TypeError(
                f"{what}[{language!r}] must be the language's text (a str) or its sentences (a list of str); "
                f"got {type(value).__name__}"
            )
        wrong = next(((k, s) for k, s in enumerate(value) if not isinstance(s, str)), None)
        if wrong is not None:
            k, item = wrong
            raise TypeError(
                f"{what}[{language!r}] must be a list of sentences, each a str; item {k} is "
                f"{type(item).__name__} ({item!r}): make it text, or leave it out"
            )
        joined[language] = "\n".join(value)
    return joined


class _GreatestPair:
    """The reference code's tie rule between pairs as a heap key: the greatest pair of token strings wins.

    The reference stores tokens as GPT-2 stand-in strings (Hugging Face's ``ByteLevel`` alphabet) and takes
    ``max`` over (count, pair), so among equal counts the pair whose first token's string is greatest wins,
    then the greatest second token. Stand-ins sort by code point, which is ``hf_byte_order``; the heap wants
    the smaller key to win, so each token's key is ``greater_first`` of its bytes renumbered in that order.
    """

    def __init__(self) -> None:
        order = hf_byte_order()
        self.order = order
        self.key: dict[int, tuple[int, ...]] = {b: greater_first(bytes([order[b]])) for b in range(256)}

    def add(self, new_id: int, token: bytes) -> None:
        self.key[new_id] = greater_first(bytes(self.order[c] for c in token))

    def __call__(self, pair: Pair) -> tuple[tuple[int, ...], tuple[int, ...]]:
        return self.key[pair[0]], self.key[pair[1]]


class _Language:
    """One language's state: its training words (where pairs are counted) and its measuring words
    (whose token total says how well it is compressed right now)."""

    def __init__(
        self, train_text: str, measure_text: str | None, pattern: str | None, ties: _GreatestPair | None
    ) -> None:
        counts = count_pretokens(train_text, pattern)
        self.train: IncrementalTrainer[int] = IncrementalTrainer(
            [tuple(p) for p in counts], list(counts.values()), tie_break="first" if ties is None else ties
        )
        if measure_text is None:
            self.measure = self.train  # the training text is parallel itself: measure on it
        else:
            measured = count_pretokens(measure_text, pattern)
            self.measure = IncrementalTrainer([tuple(p) for p in measured], list(measured.values()))
        self.tokens = sum(len(w) * f for w, f in zip(self.measure.words, self.measure.freqs))

    def merge(self, pair: Pair, new_id: int) -> None:
        """Apply a merge chosen for any language; keep the token total of the measuring text live."""
        if self.measure is not self.train and pair in self.train.where:
            self.train.merge(pair, new_id)
        trainer = self.measure
        if pair not in trainer.where:
            return  # the pair never occurs in this language: nothing to merge, nothing to count
        touched = list(trainer.where[pair])
        before = sum(len(trainer.words[w]) * trainer.freqs[w] for w in touched)
        trainer.merge(pair, new_id)
        self.tokens -= before - sum(len(trainer.words[w]) * trainer.freqs[w] for w in touched)


def train_parity_aware(
    train_texts: Mapping[str, str | Sequence[str]],
    num_merges: int,
    *,
    measure_texts: Mapping[str, str | Sequence[str]] | None = None,
    pattern: str | None = "gpt2",
    pair_ties: PairTies = "first",
    when_stuck: WhenStuck = "pass",
    record: bool = False,
    progress: bool = False,
) -> ParityRun:
    """Learn ``num_merges`` byte-level merges, each one for the language that is worst off.

    ``train_texts`` maps each language to its training text (a str, or a list of sentences joined
    with newlines). ``measure_texts`` is the *parallel* text on which "worst off" is measured (the
    paper's multi-parallel development set); by default the training texts themselves, which is
    right only when they are parallel. ``pattern`` is the split pattern, as in
    ``BPETokenizer.train``. ``record=True`` keeps every step for the merge stepper (small runs only).

    ``pair_ties`` and ``when_stuck`` choose between the course's rule (``"first"``, ``"pass"``) and the
    reference code's (``"greatest"``, ``"stop"``): see the module docstring.
    """
    check_merge_count(num_merges)
    if pair_ties not in ("first", "greatest"):
        raise ValueError(
            f"pair_ties must be 'first' (the pair seen first, the course's rule) or 'greatest' (the greatest pair "
            f"of token strings, the paper's reference code); got {pair_ties!r}"
        )
    if when_stuck not in ("pass", "stop"):
        raise ValueError(
            f"when_stuck must be 'pass' (the next worst language gets the merge, the course's rule) or 'stop' "
            f"(training ends, the paper's reference code); got {when_stuck!r}"
        )
    if record and pair_ties != "first":
        raise ValueError(
            "record=True is for the merge stepper, which shows tied pairs in the order they were seen: "
            "record a run with pair_ties='first'"
        )
    train = _check_languages(train_texts, "train_texts")
    measure = None if measure_texts is None else _check_languages(measure_texts, "measure_texts")
    if measure is not None and set(measure) != set(train):
        raise ValueError(
            f"measure_texts must have the same languages as train_texts: {sorted(train)} against {sorted(measure)}"
        )
    resolved = resolve_pattern(pattern)
    ties = _GreatestPair() if pair_ties == "greatest" else None
    states = {
        lang: _Language(text, None if measure is None else measure[lang], resolved, ties)
        for lang, text in train.items()
    }

    tokenizer = BPETokenizer()
    tokenizer.pattern, tokenizer.pattern_name = resolved, pattern_name_of(pattern)
    run = ParityRun(tokenizer, [], stopped_early=False, languages=list(train))
    if record:
        run.initial_word_freq = _all_words(states)
    with merge_bar(num_merges, progress) as bar:
        for new_id in range(256, 256 + num_merges):
            tokens = {lang: state.tokens for lang, state in states.items()}
            found = _choose(states, tokens, pass_turn=when_stuck == "pass")
            if found is None:
                run.stopped_early = True
                break
            language, pair, count = found
            table = {p: c for p, c in states[language].train.counts.items() if c > 0} if record else {}
            tokenizer.merges[pair] = new_id
            tokenizer.vocab[new_id] = tokenizer.vocab[pair[0]] + tokenizer.vocab[pair[1]]
            if ties is not None:
                ties.add(new_id, tokenizer.vocab[new_id])  # before the merge pushes pairs that hold the new token
            for state in states.values():
                state.merge(pair, new_id)
            worst_off = worst_first(tokens)[0]
            run.choices.append(ParityChoice(language, worst_off, tokens, pair, count, new_id))
            if record:
                step = len(run.steps) + 1
                run.steps.append(MergeStep(step, table, pair, count, _all_words(states), new_id))
                run.notes.append(_why(states, tokens, language))
            bar.update()
    run.token_bytes = dict(tokenizer.vocab)
    tokenizer.requested_vocab_size = 256 + num_merges
    return run


def worst_first(tokens: Mapping[str, int]) -> list[str]:
    """The languages from worst off (most tokens on the parallel text) to best off; languages with
    equal tokens keep the order they were given in (``sorted`` is stable)."""
    return sorted(tokens, key=lambda language: -tokens[language])


def _choose(states: dict[str, _Language], tokens: dict[str, int], *, pass_turn: bool) -> tuple[str, Pair, int] | None:
    """The worst-off language that still has a pair occurring twice, and its best pair; with
    ``pass_turn=False`` only the worst-off language is asked (the reference code's stop)."""
    for language in worst_first(tokens):
        trainer = states[language].train
        best = trainer.best()
        # a pair seen once would save one token for a vocabulary row used once: skipped, as in train_bytes_fast
        if best is not None and best[1] >= 2:
            return language, *best  # best() popped its entry: fine, the merge takes the pair away
        if best is not None:
            pair, count = best  # put back what best() popped: another language may merge it later
            heappush(trainer.heap, (-count, trainer.tie_key(pair), pair))
        if not pass_turn:
            return None
    return None


def _why(states: dict[str, _Language], tokens: Mapping[str, int], language: str) -> str:
    """The stepper's note for one merge: the worst-off language, each language that passed its turn and why, and the
    language that got the merge (whose pair counts the stepper shows)."""
    order = worst_first(tokens)
    passed = order[: order.index(language)]
    got = f"the pair counts are {language}'s"
    if not passed:
        return f"worst off: {language} ({tokens[language]:,} tokens on the parallel text), so {got}"
    clauses = []
    for k, stuck in enumerate(passed):
        best = max(states[stuck].train.counts.values(), default=0)
        if k == 0:
            clauses.append("its best pair occurs once" if best else "it has no pair")
        elif best:
            clauses.append(f"and the best pair of {stuck} ({tokens[stuck]:,} tokens) occurs once too")
        else:
            clauses.append(f"and {stuck} ({tokens[stuck]:,} tokens) has no pair")
    return (
        f"worst off: {passed[0]} ({tokens[passed[0]]:,} tokens on the parallel text); {', '.join(clauses)}, so the "
        f"merge goes to {language} ({tokens[language]:,} tokens), and {got}"
    )


def _all_words(states: dict[str, _Language]) -> dict[tuple[int, ...], int]:
    """Every language's training words together, as one corpus (what the stepper draws)."""
    corpus: dict[tuple[int, ...], int] = {}
    for state in states.values():
        for word, freq in zip(state.train.words, state.train.freqs):
            corpus[word] = corpus.get(word, 0) + freq
    return corpus


__all__ = ["PairTies", "ParityChoice", "ParityRun", "WhenStuck", "train_parity_aware", "worst_first"]
