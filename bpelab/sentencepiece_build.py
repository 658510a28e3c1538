"""How a SentencePiece piece is built: the merges its encoder makes on the piece's characters, in score order.

A SentencePiece BPE model has no merge list: encoding joins, again and again, the adjacent pair whose joined
string is the piece of the highest score, the leftmost of equal scores (``bpelab.sentencepiece``; lesson 16). So a
piece's build is that rule run on its own characters with the pieces that score at least as high as it does. It is
exactly what the encoder does inside the piece wherever the piece comes out of encoding: merges are made from the
highest score down, so every merge inside the piece scores at least the piece's own, and none crosses its edges (a
symbol only grows, so one that crossed would be in the way of the piece for good). ``build_piece`` returns it in
the shape of ``bpelab.token_build.TokenBuild``, which the explorer's panel draws: steps numbered by score, the
tree read from the merges themselves, leaves the piece's characters (``▁`` for a space).

Two kinds of pieces are not built by merges, and the build says so in words (``TokenBuild.note``): a byte piece
``<0xNN>`` (byte fallback: a character that is no piece is written as its UTF-8 bytes), and a single character.
Where several pieces share a piece's score (Mistral 7B's pieces made of ``▁`` alone), the note says that their
order is the leftmost-first tie rule, not a score. ``static/sentencepiece_build.js`` is the same for the page;
tests/test_js_sentencepiece.py holds the two equal on every piece of Mistral 7B's model.
"""

from __future__ import annotations

from bpelab.sentencepiece import SentencePieceBPE
from bpelab.sentencepiece_model import PieceType
from bpelab.token_build import BuildNode, MergeStep, TokenBuild
from bpelab.wording import a_or_an

BUILT_KINDS = (PieceType.NORMAL, PieceType.USER_DEFINED, PieceType.UNUSED)


def byte_note(piece: str) -> str:
    """What the panel says of a byte piece."""
    return (
        f"{piece} is a byte piece (byte fallback): a character that is no piece of the vocabulary is written as "
        "its UTF-8 bytes, one byte piece each. No merge builds a byte piece or joins it to another."
    )


def tie_note(model: SentencePieceBPE, piece_id: int) -> str:
    """What the panel says of a piece whose score other pieces share: their order is the tie rule's, not a score's."""
    score = model.scores[piece_id]
    sharing = sum(1 for s, kind in zip(model.scores, model.types) if s == score and kind in BUILT_KINDS)
    if sharing < 2:
        return ""
    lowest = all(s >= score for s, kind in zip(model.scores, model.types) if kind in BUILT_KINDS)
    where = ", the lowest of all" if lowest else ""
    return (
        f"{sharing} pieces of this model share this score, {_number(score)}{where}: among them SentencePiece joins "
        "the leftmost pair first, so this build is the order its encoder takes, not an order the scores give."
    )


def _number(score: float) -> int:
    """A BPE model's score as the whole number it is (SentencePiece's BPE trainer gives −1, −2, …)."""
    if not float(score).is_integer():
        raise ValueError(f"a BPE piece's score is a whole number; this one is {score}: is this a Unigram model?")
    return int(score)


def build_piece(model: SentencePieceBPE, piece_id: int) -> TokenBuild:
    """How piece ``piece_id`` of ``model`` is built from its characters, merge by merge, in score order."""
    if not isinstance(model, SentencePieceBPE):
        raise TypeError(f"build_piece needs a SentencePieceBPE (load_sentencepiece), got {type(model).__name__}")
    if not (type(piece_id) is int and 0 <= piece_id < len(model)):
        raise ValueError(f"{piece_id!r} is not an id of this model (ids are ints from 0 to {len(model) - 1})")
    piece, kind = model.pieces[piece_id], model.types[piece_id]
    if kind == PieceType.BYTE:
        token = bytes([int(piece[3:5], 16)])
        return TokenBuild(
            token, piece_id, "score", True, (), (token,), BuildNode(token, piece_id), note=byte_note(piece)
        )
    if kind not in BUILT_KINDS:
        raise ValueError(
            f"{piece} (id {piece_id}) is {a_or_an(kind.name.lower())} piece: encoding never builds it by merges "
            "(pick a chip of ordinary text)"
        )
    limit = model.scores[piece_id]
    nodes = [BuildNode(ch.encode("utf-8"), model.piece_to_id.get(ch, model.unk_id)) for ch in piece]
    steps: list[MergeStep] = []
    while True:
        best: tuple[float, int, int] | None = None  # (score, position, id): the highest score, then the leftmost
        for i in range(len(nodes) - 1):
            joined = model.mergeable.get((nodes[i].token + nodes[i + 1].token).decode("utf-8"))
            if (
                joined is not None
                and model.scores[joined] >= limit
                and (best is None or model.scores[joined] > best[0])
            ):
                best = (model.scores[joined], i, joined)
        if best is None:
            break
        score, i, joined = best
        left, right = nodes[i], nodes[i + 1]
        before = tuple(n.token for n in nodes)
        nodes[i : i + 2] = [BuildNode(left.token + right.token, joined, (left, right))]
        steps.append(
            MergeStep(before, i, left.token, right.token, joined, _number(score), tuple(n.token for n in nodes))
        )
    parts = tuple(n.token for n in nodes)
    reachable = len(nodes) == 1
    notes = [tie_note(model, piece_id)] if reachable and steps else []
    tree = nodes[0] if reachable else None
    return TokenBuild(
        piece.encode("utf-8"),
        piece_id,
        "score",
        reachable,
        tuple(steps),
        parts,
        tree,
        "characters",
        note=" ".join(notes),
    )


__all__ = ["build_piece", "byte_note", "tie_note"]
