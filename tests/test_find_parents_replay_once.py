"""Lesson 07's find_parents: replaying the merges below the token's rank once, in rank order (lesson 05's way of
encoding) is wrong where a part is older than its own part: Llama 3's ' температу' gives (' темп', 'ер', 'ату'), not
(' темп', 'ерату') (a fresh reader found it passed all 14 checks)."""

from __future__ import annotations

from bpelab.exercises import check_find_parents


def replay_once(token, ranks):
    limit = ranks[token]
    parts = [bytes([b]) for b in token]
    for merged in sorted((t for t, r in ranks.items() if r < limit and len(t) > 1), key=ranks.get):
        i, out = 0, []
        while i < len(parts):
            if i + 1 < len(parts) and parts[i] + parts[i + 1] == merged:
                out.append(merged)
                i += 2
            else:
                out.append(parts[i])
                i += 1
        parts = out
    return tuple(parts)


def test_replaying_the_merges_once_in_rank_order_is_rejected(capsys):
    assert not check_find_parents(replay_once, record=False)
    assert "температу" in capsys.readouterr().out
