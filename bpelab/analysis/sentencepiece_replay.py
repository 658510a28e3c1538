"""SentencePiece's encoding of one text, merge by merge, shaped for the merge stepper (lesson 16).

SentencePiece's BPE merges over the whole normalized text at once (no split pattern): at each step the adjacent
pair whose joined string is the piece of the highest score, the leftmost of equal scores (``bpe_model.cc``,
``Model::SampleEncode``). ``replay_sentencepiece`` records every step with a plain scan, which a sentence affords,
and checks that it ends where the model's own encoder (``SentencePieceBPE.merge_pieces``, a heap) ends.

The stepper's pair table shows the pair that wins first at the top. Its encoder mode ranks pairs lowest first, and
a SentencePiece BPE model's scores are minus the order its pieces were learned in, so the replay gives each pair
its ``−score`` (a rank: in Mistral 7B's model the piece with id ``259 + r`` scores ``−r``, "▁t", id 261, scores
−2; only the fifteen pieces made of ``▁`` alone score −1e9). A character outside the vocabulary joins no piece of Mistral's models (checked: no piece holds
it), so it is shown from the start as the byte pieces ``<0xNN>`` it ends as; a model where such a character sits
inside a piece is refused.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bpelab.sentencepiece import SentencePieceBPE
from bpelab.sentencepiece_text import byte_piece
from bpelab.words import MergeStep, merge_symbols


@dataclass
class SentencePieceReplay:
    """How a SentencePiece BPE model encodes one text, merge by merge (a ``TrainingResult`` in shape)."""

    text: str
    initial_word_freq: dict[tuple[str, ...], int]
    """The whole normalized text as one row of symbols: SentencePiece has no pre-tokenization."""
    steps: list[MergeStep[str]]
    """One step per pair: SentencePiece merges a pair at one place at a time, leftmost first; where it merges the
    same pair again at once, the stepper's one step merges it everywhere (``merges_at_once`` says how many)."""
    merges_at_once: list[int]
    single_steps: list[tuple[tuple[str, str], float | int, int]]
    """Every single merge SentencePiece makes: the pair, its −score, the position of its left symbol."""
    pieces: list[str]
    """What the model's own ``encode_as_pieces`` gives."""
    name: str = ""
    score_name: str = field(default="−score")
    lower_wins: bool = field(default=True)

    @property
    def merges(self) -> list[tuple[tuple[str, str], str]]:
        return [(step.pair, step.new_symbol) for step in self.steps]


def _rank(score: float) -> float | int:
    """``−score``, as an int when it is one (Mistral's scores are whole numbers)."""
    return int(-score) if float(score).is_integer() else -score


def replay_sentencepiece(model: SentencePieceBPE, text: str, name: str = "") -> SentencePieceReplay:
    """Every merge ``model`` makes on ``text``, in order, for ``MergeStepper(replay_sentencepiece(model, text))``."""
    if not isinstance(model, SentencePieceBPE):
        raise TypeError(
            f"replay_sentencepiece needs a SentencePieceBPE (load_sentencepiece), got {type(model).__name__}"
        )
    if model.user_defined or model.has_unused:
        raise ValueError("this replay shows plain merges; the model has user-defined or unused pieces")
    normalized = model.normalize(text)
    inside = {char for piece in model.mergeable for char in piece}
    symbols: list[str] = []
    fallen: set[int] = set()  # positions of byte pieces: they never merge
    for char in normalized:
        if char in model.mergeable or not model.byte_fallback:
            symbols.append(char)
            continue
        if char in inside:
            raise ValueError(f"{char!r} is no piece but sits inside one: showing its bytes from the start would lie")
        fallen.update(range(len(symbols), len(symbols) + len(char.encode("utf-8"))))
        symbols += [byte_piece(b) for b in char.encode("utf-8")]
    frozen = [i in fallen for i in range(len(symbols))]
    initial = tuple(symbols)
    singles: list[tuple[tuple[str, str], float | int, int]] = []
    tables: list[dict[tuple[str, str], float | int]] = []
    states: list[tuple[str, ...]] = [initial]
    while True:
        ranks: dict[tuple[str, str], float | int] = {}
        best: int | None = None
        for i in range(len(symbols) - 1):
            piece_id = None if frozen[i] or frozen[i + 1] else model.mergeable.get(symbols[i] + symbols[i + 1])
            if piece_id is None:
                continue
            ranks.setdefault((symbols[i], symbols[i + 1]), _rank(model.scores[piece_id]))
            if (
                best is None
                or model.scores[piece_id] > model.scores[model.mergeable[symbols[best] + symbols[best + 1]]]
            ):
                best = i
        if best is None:
            break
        pair = (symbols[best], symbols[best + 1])
        singles.append((pair, ranks[pair], best))
        tables.append(ranks)
        symbols[best : best + 2] = [pair[0] + pair[1]]
        frozen[best : best + 2] = [False]
        states.append(tuple(symbols))
    pieces = model.encode_as_pieces(text)
    if symbols != pieces:
        raise AssertionError(f"the replay ends with {symbols[:8]}..., the encoder with {pieces[:8]}...")
    steps, at_once = _grouped(singles, tables, states)
    return SentencePieceReplay(text, {initial: 1}, steps, at_once, singles, pieces, name or repr(model))


def _grouped(
    singles: list[tuple[tuple[str, str], float | int, int]],
    tables: list[dict[tuple[str, str], float | int]],
    states: list[tuple[str, ...]],
) -> tuple[list[MergeStep[str]], list[int]]:
    """Runs of single merges of one pair as one stepper step each, checked to be what the stepper draws."""
    steps: list[MergeStep[str]] = []
    at_once: list[int] = []
    k = 0
    while k < len(singles):
        pair, rank, _ = singles[k]
        end = k + 1
        while end < len(singles) and singles[end][0] == pair:
            end += 1
        if merge_symbols(states[k], pair) != states[end]:
            raise ValueError(
                f"merging {pair} everywhere at once differs from SentencePiece's one-at-a-time merges here: "
                "show this text's single_steps as a table instead"
            )
        word = {states[end]: 1}
        steps.append(MergeStep(len(steps) + 1, tables[k], pair, rank, word, pair[0] + pair[1]))  # type: ignore[arg-type]
        at_once.append(end - k)
        k = end
    return steps, at_once
