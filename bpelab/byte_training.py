"""Training byte-level BPE on counted pre-tokens (lesson 06): count each distinct pre-token once, then
learn merges the readable way, recounting every pair after every merge.

``BPETokenizer.train`` uses both; lesson 12 times ``train_bytes_naive`` beside the incremental trainer
(``bpelab.fast.train_bytes_fast``), which takes the same arguments and learns the same merges.
"""

from __future__ import annotations

from collections.abc import Iterable

from bpelab.fast import ByteMerge
from bpelab.merge_bar import merge_bar
from bpelab.patterns import split_text
from bpelab.special_tokens import special_token_list, split_on_specials
from bpelab.text import utf8_bytes
from bpelab.tie_rules import ByteTieBreak, check_byte_tie_break, hf_byte_order
from bpelab.words import Score, check_merge_count, learn_merges


def count_pretokens(text: str, pattern: str | None, special_tokens: str | Iterable[str] = ()) -> dict[bytes, int]:
    """Each distinct pre-token of ``text`` as UTF-8 bytes, with its count, in first-seen order.

    Special tokens are cut out first, so that they never take part in a merge. The stretches the
    pattern does not match are pre-tokens too (``split_text(..., keep_gaps=True)``): no text is lost.
    """
    utf8_bytes(text)  # a clear error for text UTF-8 cannot encode
    counts: dict[bytes, int] = {}
    for segment in split_on_specials(text, special_token_list(special_tokens)):
        for piece in split_text(segment, pattern, keep_gaps=True):
            key = piece.encode("utf-8")
            counts[key] = counts.get(key, 0) + 1
    return counts


def train_bytes_naive(
    counts: dict[bytes, int], num_merges: int, *, tie_break: ByteTieBreak = "first", progress: bool = False
) -> list[ByteMerge]:
    """Byte-level BPE the readable way: recount every pair after every merge (lesson 06).

    The same arguments and result as ``bpelab.fast.train_bytes_fast``, and the same merges: new ids
    256, 257, ...; ties go by ``tie_break`` (``bpelab.tie_rules``; the pair seen first by default); training
    stops early when the best pair occurs fewer than 2 times. Lesson 12 times the two side by side.
    """
    check_merge_count(num_merges)
    rule = check_byte_tie_break(tie_break)
    word_freq = {tuple(piece): freq for piece, freq in counts.items()}
    vocab = {i: bytes([i]) for i in range(256)}

    def new_symbol(pair: tuple[int, int]) -> int:
        vocab[len(vocab)] = vocab[pair[0]] + vocab[pair[1]]
        return len(vocab) - 1

    steps = learn_merges(word_freq, num_merges, new_symbol=new_symbol, min_count=2, score=_tie_score(rule, vocab))
    merges: list[ByteMerge] = []
    with merge_bar(num_merges, progress) as bar:
        for step in steps:
            merges.append((step.pair, step.new_symbol))
            bar.update()
    return merges


def _tie_score(rule: ByteTieBreak, vocab: dict[int, bytes]) -> Score | None:
    """A reference's tie rule written as what the naive loop maximises: the count, then the rule's preference.

    None for "first": ``learn_merges`` already keeps the first of equal counts. Two tokens with the same bytes
    (two merges can spell one string) fall back to the smaller ids, as the fast trainer's heap does.
    """
    if rule == "tokenizers":
        order = hf_byte_order()

        def hf_id(i: int) -> int:
            return order[i] if i < 256 else i

        return lambda pair_counts, _: {(a, b): (n, -hf_id(a), -hf_id(b)) for (a, b), n in pair_counts.items()}
    if rule == "greatest_bytes":
        return lambda pair_counts, _: {(a, b): (n, vocab[a], vocab[b], -a, -b) for (a, b), n in pair_counts.items()}
    return None
