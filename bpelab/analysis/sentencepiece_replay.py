"""SentencePiece's encoding of one text, merge by merge, shaped for the merge stepper (lesson 16).

SentencePiece's BPE merges over the whole normalized text at once (no split pattern): at each step the adjacent
pair whose joined string is the piece of the highest score, the leftmost of equal scores (``bpe_model.cc``,
``Model::SampleEncode``). ``replay_sentencepiece`` records every single merge, keeping each pair's score up to date
as merges change its neighbours and taking the leftmost best with one scan, and checks that it ends where the
model's own encoder (``SentencePieceBPE.merge_pieces``, a heap) ends. It refuses texts longer than
``MAX_CHARACTERS``: the stepper keeps the whole text at every step.

The stepper draws a step as "join this pair everywhere". Runs of single merges of one pair become one step where
that draws the same text; where it does not (a run of ``▁``: Mistral's ``▁`` pieces all score −1e9 and join leftmost
first), the steps end there, ``stepper_stops_at`` says at which single merge, ``single_steps`` holds them all, and
``end_note`` says in words what the stepper's last step is: SentencePiece's end, or an early stop, where and why.

The stepper's pair table shows the pair that wins first at the top. Its encoder mode ranks pairs lowest first, so
the replay gives each pair its ``−score`` (in Mistral 7B's model the piece with id ``259 + r`` scores ``−r``: "▁t",
id 261, scores −2; only the fifteen pieces made of ``▁`` alone score −1e9). A character outside the vocabulary
joins no piece of Mistral's models (checked: no piece holds it), so it is shown from the start as the byte pieces
``<0xNN>`` it ends as; a model where such a character sits inside a piece is refused.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

from bpelab.sentencepiece import SentencePieceBPE
from bpelab.sentencepiece_text import byte_piece
from bpelab.wording import a_or_an
from bpelab.words import MergeStep, merge_symbols

MAX_CHARACTERS = 2_000
"""The longest text replayed: every merge looks for the best score over the whole text, and every stepper step keeps
the whole text and its pair table, so time and memory grow with the square of the length; the stepper is for a
sentence or a paragraph."""


@dataclass
class SentencePieceReplay:
    """How a SentencePiece BPE model encodes one text, merge by merge (a ``TrainingResult`` in shape)."""

    text: str
    initial_word_freq: dict[tuple[str, ...], int]
    """The whole normalized text as one row of symbols: SentencePiece has no pre-tokenization."""
    steps: list[MergeStep[str]]
    """One step per pair: SentencePiece merges a pair at one place at a time, leftmost first; where it merges the
    same pair again at once, the stepper's one step merges it everywhere (``merges_at_once`` says how many). Only
    the steps the stepper draws as SentencePiece merges: they end early where ``stepper_stops_at`` says."""
    merges_at_once: list[int]
    single_steps: list[tuple[tuple[str, str], float | int, int]]
    """Every single merge SentencePiece makes: the pair, its −score, the index of its left symbol in the list of
    symbols the stepper draws, as it stands just before that merge (a character shown as byte pieces counts as
    each of them)."""
    pieces: list[str]
    """What the model's own ``encode_as_pieces`` gives."""
    sentencepiece_at: list[int] = field(default_factory=list)
    """For each single merge, the index of its left symbol in SentencePiece's own list as it stands just before that
    merge: a character the vocabulary lacks is one symbol there, as SentencePiece holds it until the merges end and
    only then writes it as byte pieces (``bpe_model.cc``); what ``next_merge`` of lesson 16 returns on the
    normalized characters. It differs from the index in ``single_steps`` only after such a character."""
    stepper_stops_at: int | None = None
    """``None`` when ``steps`` draw every merge; else the index in ``single_steps`` of the first merge they cannot
    draw (joining that pair everywhere at once gives another text, as on a run of '▁' pieces, which all score -1e9
    in Mistral's models and so join leftmost first). ``end_note`` says it in words, for the stepper's last step."""
    name: str = ""
    score_name: str = field(default="−score")
    lower_wins: bool = field(default=True)

    @property
    def merges(self) -> list[tuple[tuple[str, str], str]]:
        return [(step.pair, step.new_symbol) for step in self.steps]

    @property
    def end_note(self) -> str:
        """What the stepper's last step should say: that SentencePiece's merges end there, or that the steps stop
        early, before which single merge and why (the merges that follow, from ``single_steps``)."""
        if self.stepper_stops_at is None:
            return "no merges left: no two neighbouring symbols form a piece"
        first = self.stepper_stops_at
        (a, b), rank, _ = self.single_steps[first]
        at = self.sentencepiece_at[first]  # SentencePiece's own index, as the lesson's table of single merges
        after = first + 1
        while after < len(self.single_steps) and self.single_steps[after][0] == (a, b):
            after += 1
        run = after - first
        left = len(self.single_steps) - first
        head = f"the stepper stops early, before single merge {first + 1} of {len(self.single_steps)}: "
        step = f"a step would join {a} + {b} at every place at once"
        tail = f"; the {left} single merge{'s' * (left != 1)} left are in single_steps"
        if after == len(self.single_steps):
            merges = f"{run} single merge{'s' * (run != 1)}"
            return head + step + f", which gives another text than SentencePiece's {merges}" + tail
        (c, d), then, _ = self.single_steps[after]
        tie = ", the same score: of equal scores the leftmost first" if then == rank else ""
        places = f"at symbol {at}" if run == 1 else f"at {run} places, leftmost first"
        return (
            head + f"SentencePiece joins {a} + {b} {places}, then {c} + {d} ({self.score_name} {then:,}{tie}), "
            f"while {step}" + tail
        )

    def summary(self) -> str:
        """One line: how many single merges, how many stepper steps, and where and why the stepper stops, if it
        does."""
        merges, steps = len(self.single_steps), len(self.steps)
        line = f"{merges} single merge{'s' * (merges != 1)}, drawn as {steps} stepper step{'s' * (steps != 1)}"
        return line if self.stepper_stops_at is None else f"{line}; {self.end_note}"


def _rank(score: float) -> float | int:
    """``−score``, as an int when it is one (Mistral's scores are whole numbers)."""
    return int(-score) if float(score).is_integer() else -score


def _unknown_runs_joined(symbols: list[str], model: SentencePieceBPE) -> list[str]:
    """``symbols`` with each run of pieces the model does not have joined into one, as its encoder shows them."""
    joined: list[str] = []
    previous_unknown = False
    for symbol in symbols:
        unknown = symbol not in model.piece_to_id or model.piece_to_id[symbol] == model.unk_id
        if unknown and previous_unknown:
            joined[-1] += symbol
        else:
            joined.append(symbol)
        previous_unknown = unknown
    return joined


def replay_sentencepiece(model: SentencePieceBPE, text: str, name: str = "") -> SentencePieceReplay:
    """Every merge ``model`` makes on ``text``, in order, for ``MergeStepper(replay_sentencepiece(model, text))``."""
    if not isinstance(model, SentencePieceBPE):
        raise TypeError(
            f"replay_sentencepiece needs a SentencePieceBPE (load_sentencepiece), got {type(model).__name__}"
        )
    if not isinstance(text, str):
        how = ": decode it first, text.decode('utf-8')" if isinstance(text, bytes | bytearray) else ""
        raise TypeError(f"replay_sentencepiece replays a text (a str); this is {a_or_an(type(text).__name__)}{how}")
    if model.user_defined or model.has_unused:
        kinds = []
        if model.user_defined:
            kinds.append(f"{len(model.frozen)} user-defined pieces ({min(model.frozen)}, ...), cut out whole first")
        if model.has_unused:
            kinds.append("unused pieces, which SentencePiece splits again")
        raise ValueError(
            f"replay_sentencepiece draws plain merges only, and this model has {' and '.join(kinds)}: replay a model "
            "without them (load_sentencepiece('mistral_v1')), or see this one's pieces with model.encode_as_pieces"
        )
    if len(text) > MAX_CHARACTERS:
        raise ValueError(
            f"replay_sentencepiece replays at most {MAX_CHARACTERS:,} characters (this text has {len(text):,}): "
            "every merge rescans the whole text; replay a sentence or a paragraph of it, and encode the whole "
            "with model.encode_as_pieces"
        )
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as err:  # its own message counts in the piece that failed, not in the text
        raise ValueError(
            f"the text holds {text[err.start]!r} at position {err.start}, a lone surrogate, which is no character "
            "and has no UTF-8 form; SentencePiece takes UTF-8: pair it or remove it first"
        ) from None
    normalized = model.normalize(text)
    inside = {char for piece in model.mergeable for char in piece}
    symbols: list[str] = []
    fallen: set[int] = set()  # positions of byte pieces: they never merge
    trailing: set[int] = set()  # those after a character's first byte: SentencePiece holds the character as one
    for char in normalized:
        if char in model.mergeable or not model.byte_fallback:
            symbols.append(char)
            continue
        if char in inside:
            raise ValueError(f"{char!r} is no piece but sits inside one: showing its bytes from the start would lie")
        fallen.update(range(len(symbols), len(symbols) + len(char.encode("utf-8"))))
        trailing.update(range(len(symbols) + 1, len(symbols) + len(char.encode("utf-8"))))
        symbols += [byte_piece(b) for b in char.encode("utf-8")]
    frozen = [i in fallen for i in range(len(symbols))]
    one = [i not in trailing for i in range(len(symbols))]  # a symbol SentencePiece holds: all but later bytes
    initial = tuple(symbols)

    def score_at(i: int) -> float:
        """The score of the piece ``symbols[i] + symbols[i + 1]`` forms; -inf when it forms none."""
        piece_id = None if frozen[i] or frozen[i + 1] else model.mergeable.get(symbols[i] + symbols[i + 1])
        return -math.inf if piece_id is None else model.scores[piece_id]

    def ranks() -> dict[tuple[str, str], float | int]:
        """The stepper's pair table: every pair that forms a piece, with its −score, in the order met."""
        table: dict[tuple[str, str], float | int] = {}
        for i, score in enumerate(scores):
            if score != -math.inf:
                table.setdefault((symbols[i], symbols[i + 1]), _rank(score))
        return table

    scores = [score_at(i) for i in range(len(symbols) - 1)]  # kept up to date: a merge changes two entries
    drawing = _Drawing()
    sentencepiece_at: list[int] = []
    while scores and (top := max(scores)) != -math.inf:
        best = scores.index(top)  # the leftmost of the best
        pair = (symbols[best], symbols[best + 1])
        drawing.merging(pair, ranks, symbols)
        drawing.singles.append((pair, _rank(top), best))
        sentencepiece_at.append(sum(one[:best]))
        symbols[best : best + 2] = [pair[0] + pair[1]]
        frozen[best : best + 2] = [False]
        one[best : best + 2] = [True]
        del scores[best]
        for i in (best - 1, best):
            if 0 <= i < len(scores):
                scores[i] = score_at(i)
    drawing.close(symbols)
    pieces = model.encode_as_pieces(text)
    if not model.byte_fallback:  # the encoder shows a run of unknown pieces as one (a single <unk> id)
        symbols = _unknown_runs_joined(symbols, model)
    if symbols != pieces:
        raise AssertionError(f"the replay ends with {symbols[:8]}..., the encoder with {pieces[:8]}...")
    return SentencePieceReplay(
        text,
        {initial: 1},
        drawing.steps,
        drawing.at_once,
        drawing.singles,
        pieces,
        sentencepiece_at,
        drawing.stops_at,
        name or repr(model),
    )


@dataclass
class _Drawing:
    """The stepper's steps, built as the merges come: a run of single merges of one pair becomes one step when
    joining the pair everywhere at once (``merge_symbols``, what the stepper draws) gives the same text. Only the
    text at the start of the current run is kept, besides what each step records."""

    singles: list[tuple[tuple[str, str], float | int, int]] = field(default_factory=list)
    steps: list[MergeStep[str]] = field(default_factory=list)
    at_once: list[int] = field(default_factory=list)
    stops_at: int | None = None
    _pair: tuple[str, str] | None = None
    _table: dict[tuple[str, str], float | int] = field(default_factory=dict)
    _before: tuple[str, ...] = ()
    _first: int = 0

    def merging(
        self, pair: tuple[str, str], ranks: Callable[[], dict[tuple[str, str], float | int]], symbols: list[str]
    ) -> None:
        """Called before each single merge, with the text as it stands (``ranks`` is asked only when a run starts)."""
        if pair == self._pair or self.stops_at is not None:
            return
        self.close(symbols)
        self._pair, self._table, self._before, self._first = pair, ranks(), tuple(symbols), len(self.singles)

    def close(self, symbols: list[str]) -> None:
        """End the current run: one step if the stepper draws it as SentencePiece made it, else stop the steps."""
        if self._pair is None or self.stops_at is not None:
            return
        after = tuple(symbols)
        if merge_symbols(self._before, self._pair) != after:
            self.stops_at = self._first
            return
        rank = self._table[self._pair]
        joined = self._pair[0] + self._pair[1]
        self.steps.append(MergeStep(len(self.steps) + 1, self._table, self._pair, rank, {after: 1}, joined))
        self.at_once.append(len(self.singles) - self._first)
        self._pair = None
