"""How a token was built, as text: what the panel (``static/token_build_view.js``) says, written in Python.

The explorer opens the panel when a chip is clicked; where widgets cannot draw (a terminal, nbval's
text, a screen reader reading the notebook's text) ``build_text`` says the same thing, line for
line: every step "Step k of n" with the two parts it joined and its rank (tiktoken's family), merge
number (a learner's tokenizer) or score (a SentencePiece model, Mistral 7B: the highest joins first), then
the whole build as an indented tree, and what a kind of token needs said besides (``TokenBuild.note``: a
byte piece, a score other pieces share). A part that is half a character (not valid UTF-8 alone) is
written as its bytes, ``<E6><9D>``. tests/test_token_build_view.py and tests/test_sentencepiece_views.py
hold these lines equal to the page's ``buildLines``.

``build_for`` is what the explorer answers a clicked chip with: the right builder for each kind of
tokenizer (the production ranks, a learner's merge log, or a SentencePiece model's scores).
"""

from __future__ import annotations

import tiktoken

from bpelab.byte_level import BPETokenizer
from bpelab.production import rank_in_core
from bpelab.sentencepiece import SentencePieceBPE
from bpelab.sentencepiece_build import build_piece
from bpelab.token_build import BuildNode, TokenBuild, TokenBuilder, build_from_merges, build_from_word_merges
from bpelab.widgets.chips import chip_label
from bpelab.wording import a_or_an
from bpelab.words import TrainingResult


def part_text(part: bytes) -> str:
    """A part's text with whitespace drawn (``⋅Kub``), or its bytes (``<E6><9D>``) when it is half a character; a
    part of invisible characters only is named as the explorer's chips name it (``U+200D ZERO WIDTH JOINER``)."""
    try:
        return chip_label(part.decode("utf-8"))
    except UnicodeDecodeError:
        return "".join(f"<{b:02X}>" for b in part)


def _number_text(build: TokenBuild, number: int) -> str:
    return f"{build.numbering if build.numbering in ('merge', 'score') else 'rank'} {number}"


def leaf_word(build: TokenBuild) -> str:
    """What the tree calls a part no merge made."""
    return {"symbols": "symbol", "characters": "character"}.get(build.leaves, "byte")


def step_line(build: TokenBuild, k: int) -> str:
    """What step ``k`` did (0: where it starts)."""
    if k == 0 and build.leaves == "symbols":
        start = len(build.steps[0].before) if build.steps else 1
        return f"The {start} symbols the word starts as (its characters, and </w> at a word's end), before any merge."
    if k == 0 and build.leaves == "characters":
        start = len(build.steps[0].before) if build.steps else 1
        single = "" if build.steps else " (a single character needs none)"
        return f"The {start} character{'s' * (start != 1)} of the piece (▁ is a space), before any merge{single}."
    if k == 0:
        single = "" if build.steps else " (a single byte needs none)"
        return f"The {len(build.token)} bytes of the token, before any merge{single}."
    s = build.steps[k - 1]
    joined = part_text(s.left + s.right)
    return f"Merged {part_text(s.left)} + {part_text(s.right)} → {joined} ({_number_text(build, s.number)})."


def reach_note(build: TokenBuild) -> str:
    """A token merging in rank order does not reach: where the merges stop, the two older tokens it joins, and how
    tiktoken gives it all the same (lesson 07, section 7). Nothing about how it entered the vocabulary: for Llama 3's
    tokens that is not documented."""
    if build.reachable:
        return ""
    if build.numbering == "score":
        return (
            "Merging in score order does not reach this piece: from its characters, joining pairs that form pieces "
            f"scoring at least its own stops at {len(build.parts)} parts: {' | '.join(map(part_text, build.parts))}. "
            "SentencePiece's encoder never gives it."
        )
    stop = (
        "Merging in rank order with the tokens older than this one does not reach it: from its bytes, the merges stop at "
        f"{len(build.parts)} parts: {' | '.join(map(part_text, build.parts))}."
    )
    if build.halves:
        cuts = " or ".join(
            f"{part_text(h.left)} (rank {h.left_id}) + {part_text(h.right)} (rank {h.right_id})" for h in build.halves
        )
        joined = f" It is two older tokens joined: {cuts}."
    else:
        joined = " No two older tokens join to make it."
    return (
        stop + joined + " tiktoken gives it all the same where a piece of the text is exactly this token: its "
        "whole-piece lookup returns it before any merge."
    )


def made_inside_note(build: TokenBuild) -> str:
    """For a tree with a node ranked below one of its children: that node has no parents of its own and was made
    inside this token (Llama 3's `ерату` in ` температу`), which the key's "lower = earlier" would not explain."""
    found: list[str] = []
    seen: set[bytes] = set()

    def walk(node: BuildNode) -> None:
        later = [c for c in node.children if c.id > node.id]
        if build.numbering == "rank" and later and node.token not in seen:
            seen.add(node.token)
            left, right = node.children
            found.append(
                f"{part_text(node.token)} (rank {node.id}) has no parents of its own (lesson 07, section 7): "
                f"merging below this token's rank makes it from {part_text(left.token)} + {part_text(right.token)}, "
                f"and {' and '.join(f'{part_text(c.token)} (rank {c.id})' for c in later)} ranks above it."
            )
        for child in node.children:
            walk(child)

    if build.tree is not None:
        walk(build.tree)
    return " ".join(found)


def tree_lines(build: TokenBuild) -> list[str]:
    """The tree, two spaces deeper per level: each token with its rank or merge number, bytes as ``(byte)``."""
    numbers = {s.id: s.number for s in build.steps}
    lines: list[str] = []

    def walk(node: BuildNode, depth: int) -> None:
        what = _number_text(build, numbers.get(node.id, node.id)) if node.children else leaf_word(build)
        lines.append(f"{'  ' * depth}{part_text(node.token)} ({what})")
        for child in node.children:
            walk(child, depth + 1)

    if build.tree is not None:
        walk(build.tree, 0)
    return lines


def merges_text(build: TokenBuild) -> str:
    """The title's count of merges; for a token they never build, where they stop, so the count is not read as a
    recipe for it."""
    n = len(build.steps)
    merges = f"{n} merge" if n == 1 else f"{n} merges"
    if build.reachable:
        return merges
    if build.numbering == "score":
        return f"{merges}, which {'stops' if n == 1 else 'stop'} at {len(build.parts)} parts: score-order merging never builds it"
    return f"{merges}, which {'stops' if n == 1 else 'stop'} at {len(build.parts)} parts: merging the tokens older than it never builds it"


def build_lines(build: TokenBuild, title: str = "") -> list[str]:
    """The panel as text lines: the title, every step's label and line, the tree."""
    n = len(build.steps)
    lines = [
        f"How {part_text(build.token)} was built{f' ({title})' if title else ''}: id {build.id}, {merges_text(build)}"
    ]
    if note := reach_note(build):
        lines.append(note)
    if inside := made_inside_note(build):
        lines.append(inside)
    if build.note:
        lines.append(build.note)
    lines += [f"Step {k} of {n}: {step_line(build, k)}" for k in range(n + 1)]
    return lines + tree_lines(build)


def build_text(build: TokenBuild, title: str = "") -> str:
    """The panel's text fallback: ``print(build_text(build))``."""
    return "\n".join(build_lines(build, title))


def build_for(tokenizer: object, token_id: int, token: bytes | str) -> TokenBuild:
    """How token ``token_id`` (its bytes ``token``) of ``tokenizer`` was built.

    A production encoding: the merges recovered from its ranks, read from tiktoken's core (no table kept);
    a learner's ``BPETokenizer`` or word-level ``TrainingResult``: its merge log; a SentencePiece model
    (Mistral 7B): its encoder's merges on the piece's characters, by score (``bpelab.sentencepiece_build``).
    Anything else has no merges to show.
    """
    if isinstance(tokenizer, tiktoken.Encoding) and isinstance(token, bytes):
        return TokenBuilder(rank_in_core(tokenizer)).build(token)
    if isinstance(tokenizer, BPETokenizer):
        return build_from_merges(token_id, tokenizer)
    if isinstance(tokenizer, SentencePieceBPE):
        return build_piece(tokenizer, token_id)
    if isinstance(tokenizer, TrainingResult) and isinstance(token, str):
        return build_from_word_merges(token, tokenizer.merges, tokenizer.vocabulary)
    raise ValueError(
        f"{a_or_an(type(tokenizer).__name__)} has no merge log to step through: "
        "the panel builds tokens of GPT-2, GPT-4, GPT-4o, Llama 3, SentencePiece models (Mistral 7B) and of your own "
        "tokenizers (BPETokenizer, train_bpe)"
    )


__all__ = [
    "build_for",
    "build_lines",
    "build_text",
    "leaf_word",
    "made_inside_note",
    "part_text",
    "reach_note",
    "step_line",
    "tree_lines",
]
