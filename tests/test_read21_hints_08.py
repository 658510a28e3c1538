"""Read 21 of lessons 08, 11 and 12, hints left by stop 43: a `256 + len(merges)` count of unused tokens was told it
remembers its counts (a tokenizer with a special token gives the count another check's tokenizer gives), and a
search whose bytes_per_token divides by the distinct ids was told its helper remembers answers."""

from __future__ import annotations

from bpelab import BPETokenizer
from bpelab.exercises.compression import check_count_unused, check_smallest_vocab_size
from bpelab.exercises.samples import PARAGRAPH


def _hint(out: str) -> str:
    return next(line for line in out.splitlines() if line.strip().startswith("hint:"))


def test_count_unused_from_256_plus_merges_is_named_not_remembered(capsys):
    def count_unused(tokenizer, text):
        return 256 + len(tokenizer.merges) - len(set(tokenizer.encode(text)))

    assert not check_count_unused(count_unused, record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert "special tokens" in hint and "remember" not in hint, hint


def test_count_unused_that_remembers_by_text_is_still_told_so(capsys):
    kept: dict = {}

    def count_unused(tokenizer, text):
        if text not in kept:
            kept[text] = len(set(tokenizer.vocab) - set(tokenizer.encode(text)))
        return kept[text]

    assert not check_count_unused(count_unused, record=False).passed
    assert "remember" in _hint(capsys.readouterr().out)


def _search_with(helper_body: str):
    namespace: dict = {}
    exec(
        "def bytes_per_token(tokenizer, text):\n"
        f"{helper_body}"
        "\n"
        "def my_smallest_vocab_size(tokenizer, text, goal):\n"
        "    low, high = 256, 256 + len(tokenizer.merges)\n"
        "    while low < high:\n"
        "        middle = (low + high) // 2\n"
        "        if bytes_per_token(tokenizer.truncated(middle), text) >= goal:\n"
        "            high = middle\n"
        "        else:\n"
        "            low = middle + 1\n"
        "    return high\n",
        namespace,
    )
    return namespace["my_smallest_vocab_size"]


def test_search_with_a_helper_over_distinct_ids_is_not_called_remembering(capsys):
    search = _search_with("    ids = tokenizer.encode(text)\n    return len(text.encode('utf-8')) / len(set(ids))\n")
    tokenizer = BPETokenizer().train(PARAGRAPH, 300, pattern="cl100k")
    assert not check_smallest_vocab_size(search, tokenizer, PARAGRAPH, record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert "bytes_per_token" in hint and "remember" not in hint, hint


def test_search_with_a_remembering_helper_is_still_told_so(capsys):
    search = _search_with(
        "    key = (text, len(tokenizer.merges))\n"
        "    if key not in KEPT:\n"
        "        KEPT[key] = len(text.encode('utf-8')) / len(tokenizer.encode(text))\n"
        "    return KEPT[key]\n"
        "KEPT = {}\n"
    )
    tokenizer = BPETokenizer().train(PARAGRAPH, 300, pattern="cl100k")
    result = check_smallest_vocab_size(search, tokenizer, PARAGRAPH, record=False)
    out = capsys.readouterr().out
    assert not result.passed, out
    assert "remember" in _hint(out) or "shared between calls" in _hint(out), out


def test_merge_lowest_rank_with_min_over_pairs_is_named(capsys):
    from bpelab.exercises.speed import check_merge_lowest_rank

    def merge_lowest_rank(ids, merges):
        ids = list(ids)
        while True:
            pairs = [pair for pair in zip(ids, ids[1:]) if pair in merges]
            if not pairs:
                return ids
            pair = min(pairs)
            i = next(i for i in range(len(ids) - 1) if (ids[i], ids[i + 1]) == pair)
            ids[i : i + 2] = [merges[pair]]

    assert not check_merge_lowest_rank(merge_lowest_rank, record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert "min(pairs)" in hint and "key=" in hint, hint


def test_merge_lowest_rank_replaying_sorted_merges_is_still_named(capsys):
    from bpelab.exercises.speed import check_merge_lowest_rank

    def merge_lowest_rank(ids, merges):
        ids = list(ids)
        for (a, b), new in sorted(merges.items()):
            i, out = 0, []
            while i < len(ids):
                if i + 1 < len(ids) and (ids[i], ids[i + 1]) == (a, b):
                    out.append(new)
                    i += 2
                else:
                    out.append(ids[i])
                    i += 1
            ids = out
        return ids

    assert not check_merge_lowest_rank(merge_lowest_rank, record=False).passed
    hint = _hint(capsys.readouterr().out)
    assert "sorted(merges.items())" in hint, hint
