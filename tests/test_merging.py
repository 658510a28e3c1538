"""merge_by_rank: the list scan (short pieces) and the heap (long pieces) follow one rule."""

from hypothesis import given, settings
from hypothesis import strategies as st

from bpelab.merging import LONG_PIECE, _merge_by_scanning, _merge_with_heap, merge_by_rank
from bpelab.production import from_tiktoken, load_encoding


def test_lowest_rank_first_and_leftmost_among_equals_by_hand():
    # 1 2 1 2 with (1, 2) -> 10 and (2, 1) -> 5: the middle pair (rank 5) goes first, then nothing
    # else is adjacent to a ranked pair: 1 5 2.
    table = {(1, 2): 10, (2, 1): 5}
    for merge in (_merge_by_scanning, _merge_with_heap):
        assert merge([1, 2, 1, 2], lambda a, b: table.get((a, b)), None) == [1, 5, 2]
    # 3 3 3 with (3, 3) -> 7: the leftmost pair merges first, leaving 7 3.
    for merge in (_merge_by_scanning, _merge_with_heap):
        assert merge([3, 3, 3], lambda a, b: 7 if (a, b) == (3, 3) else None, None) == [7, 3]


@settings(max_examples=300, deadline=None)
@given(
    ids=st.lists(st.integers(0, 3), max_size=60),
    table=st.dictionaries(st.tuples(st.integers(0, 12), st.integers(0, 12)), st.integers(4, 12), max_size=40),
)
def test_scan_and_heap_make_the_same_merges_in_the_same_order(ids, table):
    # Ranks may even be lower than their parts' ranks, as in vocabularies not made by merging.
    rank_of = table.get
    scanned, heaped = [], []
    result = _merge_by_scanning(ids, lambda a, b: rank_of((a, b)), lambda *m: scanned.append(m))
    if len(ids) >= 2:
        assert _merge_with_heap(ids, lambda a, b: rank_of((a, b)), lambda *m: heaped.append(m)) == result
        assert heaped == scanned
    assert merge_by_rank(ids, lambda a, b: rank_of((a, b))) == result


def test_pieces_on_both_sides_of_the_length_threshold_match_tiktoken():
    encoding = load_encoding("cl100k_base")
    ours = from_tiktoken(encoding)
    for n in (LONG_PIECE - 1, LONG_PIECE, 1000):
        for text in ("a" * n, "ab" * (n // 2), "Zq" * (n // 2)):
            assert ours.encode_ordinary(text) == encoding.encode_ordinary(text), (n, text[:10])


# ---- SafeCuts: a long piece cut only where no token can sit across the cut -------------------


def test_safe_cuts_by_hand():
    from bpelab.merging import SafeCuts

    e, a = "é".encode(), "à".encode()  # two bytes each: c3 a9, c3 a0
    cuts = SafeCuts([e + a])  # one token holds "éà": no cut between é and à, but between à and é
    assert cuts.split((e + a) * 3) == [e + a, e + a, e + a]
    assert cuts.split(e * 4) == [e, e, e, e]  # no token joins é to é: cut everywhere
    assert SafeCuts([]).split(b"ab" * 60) == [b"ab" * 60]  # ASCII runs are never cut


def test_long_piece_cut_into_parts_gives_the_ids_of_the_whole():
    from bpelab import BPETokenizer
    from bpelab.byte_level import CUT_PIECES_FROM
    from bpelab.merging import merge_by_rank

    text = "приветмир" * 20 + "миру" * 20 + "的的是" * 30
    tok = BPETokenizer().train(text, 320)
    piece = ("мир" * 100 + "привет" * 60 + "的是" * 80).encode()
    assert len(piece) >= CUT_PIECES_FROM
    assert len(tok.encode_piece(piece)) < len(piece)
    assert tok.encode_piece(piece) == merge_by_rank(list(piece), tok.rank_function())
    assert tok._cuts is not None  # the piece went through the cuts
