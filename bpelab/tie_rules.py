"""The references' tie rules for byte-level training (lesson 15): which of two equally frequent pairs merges first.

Every reference trainer takes the most frequent pair; they differ only when several pairs share the top count,
and a tie early in training changes every merge after it. To reproduce a reference's merges exactly, a learner
needs its rule:

- ``"first"`` (the course's default): the pair whose first occurrence in the text comes first, as Karpathy's
  minbpe and tiktoken's educational trainer get it by counting pairs in text order and keeping the first of
  equal counts (``max(stats, key=stats.get)``).
- ``"tokenizers"``: Hugging Face ``tokenizers`` (``BpeTrainer``, ``src/models/bpe/trainer.rs``) keeps its
  candidates in a heap ordered by count, then by the pair of ids, smaller first. Its ids are not byte values:
  a byte-level model's starting alphabet is GPT-2's printable stand-in characters (``Ġ`` for the space), sorted
  by code point, so the space, the newline and the other control bytes come after every printable byte.
  Merged tokens get the next ids in order of creation, after every byte.
- ``"greatest_bytes"``: the lexicographically greatest pair of byte strings, as Stanford CS336's first
  assignment asks (``max`` over pairs such as ``(b"BA", b"A")``), whatever the ids are.

The rule is a key that says which of two tied pairs wins (the smaller key): the fast trainer keeps it inside its
heap entries (``bpelab.fast``), and the naive loop (``bpelab.byte_training.train_bytes_naive``) writes the same
rule as a score to maximise, so the two are held to each other by the tests.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Literal

ByteTieBreak = Literal["first", "tokenizers", "greatest_bytes"]
BYTE_TIE_BREAKS: tuple[str, ...] = ("first", "tokenizers", "greatest_bytes")
WHO_USES: dict[str, str] = {
    "first": "the pair seen first: minbpe, tiktoken's educational trainer (the course's default)",
    "tokenizers": "the smaller pair of Hugging Face ids: tokenizers' BpeTrainer",
    "greatest_bytes": "the lexicographically greatest pair of bytes: Stanford CS336, assignment 1",
}


def check_byte_tie_break(tie_break: object) -> ByteTieBreak:
    """``tie_break`` as one of ``BYTE_TIE_BREAKS``, or a ``ValueError`` that lists them and who uses each."""
    if tie_break in BYTE_TIE_BREAKS:
        return tie_break  # type: ignore[return-value]
    choices = "; ".join(f"{name!r} ({who})" for name, who in WHO_USES.items())
    extra = ""
    if tie_break == "lexicographic":
        extra = (
            " 'lexicographic' (the smallest pair) is word-level training's rule (train_bpe, lesson 04); the "
            "lexicographic rule a byte-level reference uses is 'greatest_bytes'."
        )
    raise ValueError(f"tie_break must be one of: {choices}; got {tie_break!r}.{extra}")


@lru_cache(maxsize=1)
def hf_byte_order() -> tuple[int, ...]:
    """For each byte value, its place in ``tokenizers``' starting alphabet (GPT-2's stand-ins by code point)."""
    from bpelab.hugging_face import byte_to_char

    stand_in = byte_to_char()
    by_code_point = sorted(range(256), key=lambda b: ord(stand_in[b]))
    order = [0] * 256
    for place, b in enumerate(by_code_point):
        order[b] = place
    return tuple(order)


def greater_first(token: bytes) -> tuple[int, ...]:
    """A key that sorts byte strings in reverse: the greatest string gets the smallest key.

    Each byte ``c`` becomes ``255 - c``, and a final 256 makes a string come after its own extensions
    (``b"B" < b"BA"``, so the key of ``b"BA"`` must be the smaller one).
    """
    return (*(255 - c for c in token), 256)


class TieKeys:
    """The tie key of a pair of ids under one of the static rules: the smaller key wins among equal counts.

    ``add(new_id, pair)`` must be told of each merge as it is made, so that the key knows the new token
    (its bytes, for ``"greatest_bytes"``).
    """

    def __init__(self, tie_break: Literal["tokenizers", "greatest_bytes"]) -> None:
        self.tie_break = tie_break
        if tie_break == "tokenizers":
            self.of: dict[int, object] = dict(enumerate(hf_byte_order()))
        elif tie_break == "greatest_bytes":
            self.bytes_of = {i: bytes([i]) for i in range(256)}
            self.of = {i: greater_first(t) for i, t in self.bytes_of.items()}
        else:
            raise ValueError(f"TieKeys is for the rules 'tokenizers' and 'greatest_bytes', got {tie_break!r}")

    def add(self, new_id: int, pair: tuple[int, int]) -> None:
        if self.tie_break == "tokenizers":
            self.of[new_id] = new_id  # merged tokens come after all 256 bytes, in order of creation
        else:
            self.bytes_of[new_id] = token = self.bytes_of[pair[0]] + self.bytes_of[pair[1]]
            self.of[new_id] = greater_first(token)

    def __call__(self, pair: tuple[int, int]) -> tuple[object, object]:
        of = self.of
        return of[pair[0]], of[pair[1]]
