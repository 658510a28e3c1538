"""The token-build panel's words (bpelab/widgets/token_build_view.py and static/token_build_view.js) and
the explorer's answer to a clicked chip.

The page and the notebook's text fallback say the same thing, line for line, on the hardest tokens
there are: half characters (not valid UTF-8 alone), whitespace runs, Llama 3's tokens no merge reaches,
and a learner's tokenizer trained on mixed scripts. Known answers are checked against tiktoken itself.
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from bpelab.byte_level import BPETokenizer
from bpelab.production import ENCODING_NAMES, load_encoding, mergeable_ranks
from bpelab.token_build import TokenBuilder, build_from_merges
from bpelab.widgets.explorer import EncodeExplorer
from bpelab.widgets.token_build_view import build_for, build_lines, build_text, made_inside_note, part_text
from tests.agreement_corpus import TRICKY

NODE = shutil.which("node")
DRIVER = Path(__file__).parent / "js" / "token_build_lines.mjs"
PER_VOCABULARY = 150


def lines_in_js(builds: list[tuple[dict[str, object], str]]) -> list[list[str]]:
    if NODE is None:
        pytest.skip("node is not installed")
    run = subprocess.run(
        [NODE, str(DRIVER)], input=json.dumps(builds), capture_output=True, text=True, timeout=300, check=False
    )
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def hard_tokens(name: str) -> list[bytes]:
    """Sampled tokens, weighted to the hard ones: half characters, whitespace, long and unreachable tokens."""
    ranks = mergeable_ranks(name)
    tokens = sorted(ranks, key=ranks.__getitem__)
    rng = random.Random(f"token-build-view-{name}")

    def is_half(t: bytes) -> bool:
        try:
            t.decode("utf-8")
            return False
        except UnicodeDecodeError:
            return True

    half = [t for t in tokens if is_half(t) and len(t) > 1]
    space = [t for t in tokens if t.strip() == b"" and len(t) > 1]
    return rng.sample(tokens, PER_VOCABULARY) + rng.sample(half, 30) + space[:20] + sorted(tokens, key=len)[-5:]


@pytest.mark.parametrize("name", ENCODING_NAMES)
def test_the_page_writes_every_step_as_python_does(name: str) -> None:
    builder = TokenBuilder(mergeable_ranks(name))
    builds = [builder.build(t) for t in hard_tokens(name)]
    if name == "llama3":
        unreachable = [
            b for b in (builder.build(t) for t in list(mergeable_ranks(name))[100_000:103_000]) if not b.reachable
        ]
        assert unreachable, "Llama 3 has tokens no merge reaches: some should be among these 3,000"
        builds += unreachable[:20]
    expected = [build_lines(b, name) for b in builds]
    assert lines_in_js([(b.as_dict(), name) for b in builds]) == expected


def test_a_learners_tokens_are_written_by_merge_number_in_both() -> None:
    text = " ".join(TRICKY) * 3
    tok = BPETokenizer().train(text, 256 + 120, pattern="cl100k")
    builds = [build_from_merges(i, tok) for i in tok.merges.values()]
    assert all("merge " in build_text(b) for b in builds if b.steps)
    assert lines_in_js([(b.as_dict(), "mine") for b in builds]) == [build_lines(b, "mine") for b in builds]


def test_kubernetes_under_gpt4o_steps_to_its_tiktoken_id() -> None:
    enc = load_encoding("o200k_base")
    [token_id] = enc.encode_ordinary(" Kubernetes")  # one token: tiktoken says so
    explorer = EncodeExplorer(text=" Kubernetes", selected="GPT-4o (o200k_base)")
    explorer.build_request = {"label": "GPT-4o (o200k_base)", "text": " Kubernetes", "index": 0, "ticket": 1}
    answer = explorer.token_build
    assert answer["ticket"] == 1 and "error" not in answer
    build = answer["build"]
    assert build["id"] == token_id and build["reachable"] is True
    assert bytes(build["steps"][-1]["after"][0]) == enc.decode_single_token_bytes(token_id)
    n = len(build["steps"])
    assert build_lines(explorer.build_of(0), "GPT-4o")[n + 1].startswith(f"Step {n} of {n}: Merged ⋅K + ")


def test_a_chip_of_a_learners_word_level_tokenizer_is_built_from_its_merge_log() -> None:
    from bpelab.words import train_bpe

    result = train_bpe("low " * 5 + "lower " * 2 + "newest " * 3 + "widest " * 2, 10)  # lesson 03's toy
    explorer = EncodeExplorer({"mine": result}, text="lowest", production=[])
    assert explorer.pieces == ["low", "est</w>"]
    explorer.build_request = {"label": "mine", "text": "lowest", "index": 1, "ticket": 7}
    build = explorer.token_build["build"]
    assert explorer.token_build["ticket"] == 7 and build["leaves"] == "symbols"
    # est</w> by hand: e + s (merge 4), es + t (merge 5), est + </w> (merge 6)
    assert [(bytes(s["left"]), bytes(s["right"]), s["number"]) for s in build["steps"]] == [
        (b"e", b"s", 4),
        (b"es", b"t", 5),
        (b"est", b"</w>", 6),
    ]
    assert build_lines(explorer.build_of(1))[1].startswith("Step 0 of 3: The 4 symbols the word starts as")
    explorer.build_request = {"label": "mine", "text": "changed since", "index": 0, "ticket": 8}
    assert "click the chip again" in explorer.token_build["error"]


def test_a_word_levels_panel_text_is_the_same_in_the_page() -> None:
    from bpelab.token_build import build_from_word_merges
    from bpelab.words import train_bpe

    result = train_bpe(" ".join(TRICKY) * 3, 150)
    builds = [build_from_word_merges(new, result.merges, result.vocabulary) for _, new in result.merges]
    assert lines_in_js([(b.as_dict(), "words") for b in builds]) == [build_lines(b, "words") for b in builds]


def test_half_a_character_is_written_as_its_bytes() -> None:
    enc = load_encoding("r50k_base")
    ids = enc.encode_ordinary("東")  # GPT-2 cuts 東 (E6 9D B1) in two tokens
    first = enc.decode_single_token_bytes(ids[0])
    assert len(ids) == 2 and part_text(first) == "".join(f"<{b:02X}>" for b in first)
    build = build_for(enc, ids[0], first)
    assert build_lines(build)[-1].endswith("(byte)") and "<E6>" in build_text(build)


# ---- review of lesson 07: what the panel says of a Llama 3 token rank-order merging does not reach ----


def test_a_llama3_token_merging_does_not_reach_is_named_as_two_older_tokens_and_tiktokens_lookup() -> None:
    """' việc' (lesson 07, section 7): merging in rank order stops at three parts, yet it is ' v' + 'iệc', two
    tokens of lower rank, and tiktoken returns it whole when a piece of text is exactly it. Nothing is said of how
    Meta added it (not documented)."""
    ranks = mergeable_ranks("llama3")
    token = " việc".encode()
    build = TokenBuilder(ranks).build(token)
    assert not build.reachable
    cuts = [
        (token[:k], token[k:])
        for k in range(1, len(token))
        if ranks.get(token[:k], 1 << 30) < ranks[token] and ranks.get(token[k:], 1 << 30) < ranks[token]
    ]
    assert cuts == [(b" v", "iệc".encode())]
    assert load_encoding("llama3").encode_ordinary(" việc") == [ranks[token]]
    note = build_lines(build, "Llama 3")[1]
    assert note == (
        "Merging in rank order with the tokens older than this one does not reach it: from its bytes, the merges "
        "stop at 3 parts: "
        f"⋅vi | ệ | c. It is two older tokens joined: ⋅v (rank {ranks[b' v']}) + iệc (rank {ranks['iệc'.encode()]}). "
        "tiktoken gives it all the same where a piece of the text is exactly this token: its whole-piece lookup "
        "returns it before any merge."
    )
    assert "added to the vocabulary" not in build_text(build)
    assert lines_in_js([(build.as_dict(), "Llama 3")]) == [build_lines(build, "Llama 3")]
    # the title's merges stop at three parts: it must not read as how the token was built
    assert build_lines(build, "Llama 3")[0] == (
        f"How ⋅việc was built (Llama 3): id {ranks[token]}, {len(build.steps)} merges, which stop at 3 parts: "
        "merging the tokens older than it never builds it"
    )


def test_a_reachable_tokens_panel_has_no_note() -> None:
    build = TokenBuilder(mergeable_ranks("o200k_base")).build(b" Kubernetes")
    assert build.reachable and build.halves == ()
    assert build_lines(build)[1].startswith("Step 0 of")


def test_build_of_on_an_empty_text_says_the_text_is_empty() -> None:
    """Lesson 07: a learner who empties the word and asks for token 0 is told the text is empty, not 'index must be
    0 to -1'."""
    explorer = EncodeExplorer(text="", production=["o200k_base"], selected="GPT-4o (o200k_base)")
    with pytest.raises(ValueError, match="the text is empty") as raised:
        explorer.build_of(0)
    assert "0 to -1" not in str(raised.value)


def test_a_llama3_token_with_a_part_made_inside_it_says_why_a_child_ranks_above_its_parent() -> None:
    """` температу` = ` темп` + `ерату`; `ерату` (102530) has no parents below its rank, and below 104922 BPE makes it
    from `ер` + `ату` (103457): the tree's key says a lower rank was learned earlier, so the panel says why not here."""
    ranks = mergeable_ranks("llama3")
    build = TokenBuilder(ranks).build(" температу".encode())
    assert build.reachable
    erat, at = "ерату".encode(), "ату".encode()
    assert ranks[at] > ranks[erat]  # the child ranks above its parent
    lines = build_lines(build, "Llama 3")
    assert lines[1] == (
        f"ерату (rank {ranks[erat]}) has no parents of its own (lesson 07, section 7): merging below this token's "
        f"rank makes it from ер + ату, and ату (rank {ranks[at]}) ranks above it."
    )
    assert lines_in_js([(build.as_dict(), "Llama 3")]) == [lines]
    assert made_inside_note(TokenBuilder(ranks).build(b" Kubernetes")) == ""
