"""The explorer's note on which models use which encoding comes from tiktoken's own model table."""

from __future__ import annotations

import pytest
import tiktoken
import tiktoken.model

from bpelab.model_table import HARMONY, models_sentence, models_using
from bpelab.widgets.explorer import EncodeExplorer

# The table is tiktoken's, so what it says depends on the tiktoken installed: the course allows 0.8, which
# predates gpt-5, gpt-oss and o200k_harmony. The pinned tiktoken (make test) checks them; older ones are
# checked for what they do list.
KNOWS_HARMONY = HARMONY in tiktoken.list_encoding_names()
needs_harmony = pytest.mark.skipif(
    not KNOWS_HARMONY, reason=f"tiktoken {tiktoken.__version__} predates o200k_harmony (the pinned one has it)"
)


def test_every_listed_model_maps_to_its_encoding_in_tiktoken() -> None:
    for encoding in ("r50k_base", "cl100k_base", "o200k_base", *([HARMONY] if KNOWS_HARMONY else [])):
        names = models_using(encoding)
        assert names, encoding
        for name in names:  # a prefix without its "-" still resolves: "gpt-oss" -> "gpt-oss-120b"
            probe = name if name in tiktoken.model.MODEL_TO_ENCODING else f"{name}-x"
            assert tiktoken.encoding_name_for_model(probe) == encoding, name


@needs_harmony
def test_gpt5_is_o200k_base_and_gpt_oss_harmony_as_tiktoken_says() -> None:
    assert tiktoken.encoding_name_for_model("gpt-5") == "o200k_base"
    assert "gpt-5" in models_using("o200k_base") and "gpt-4o" in models_using("o200k_base")
    assert "gpt-4" in models_using("cl100k_base") and "gpt-4o" not in models_using("cl100k_base")
    assert models_using(HARMONY) == ["gpt-oss"]
    sentence = models_sentence("o200k_base")
    assert sentence.startswith("o200k_base: ") and "gpt-5" in sentence
    assert "gpt-oss uses o200k_harmony, the same ranks with harmony's special tokens" in sentence


@needs_harmony
def test_o200k_harmony_is_o200k_bases_ranks_and_pattern_with_more_special_tokens() -> None:
    """What the note says of gpt-oss's encoding, checked in tiktoken itself (offline: the same file)."""
    base, harmony = tiktoken.get_encoding("o200k_base"), tiktoken.get_encoding(HARMONY)
    assert harmony._mergeable_ranks == base._mergeable_ranks
    assert harmony._pat_str == base._pat_str
    assert base.special_tokens_set < harmony.special_tokens_set
    text = "Kubernetes can't 東京 2024 👍🏽"
    assert harmony.encode_ordinary(text) == base.encode_ordinary(text)


def test_an_older_tiktoken_gets_no_claim_it_cannot_back() -> None:
    """Without o200k_harmony in the table, the note names no gpt-oss: every clause is the table's own."""
    if KNOWS_HARMONY:
        assert "gpt-oss" in models_sentence("o200k_base")
    else:
        assert models_using(HARMONY) == [] and "gpt-oss" not in models_sentence("o200k_base")


def test_a_long_list_is_cut_with_how_many_more() -> None:
    full = models_using("r50k_base")
    assert len(full) > 8
    assert models_sentence("r50k_base").endswith(f" and {len(full) - 8} more")


def test_the_explorer_sends_each_production_clause_and_runs_llama3_in_the_page() -> None:
    described = {t["encoding"]: t for t in EncodeExplorer(text="hi").tokenizers if t["kind"] == "tiktoken"}
    assert {name: t["browser"] for name, t in described.items()} == dict.fromkeys(described, True)
    assert described["llama3"]["browser"] is True
    for name, t in described.items():
        assert t["models"] == models_sentence(name)
