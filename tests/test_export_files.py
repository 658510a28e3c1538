"""The exports as files: written whole or not at all, where a learner expects them, and read back to the same ids."""

import hashlib
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import tiktoken
import tiktoken.load
from hypothesis import given, settings
from hypothesis import strategies as st
from tiktoken.load import load_tiktoken_bpe
from tokenizers import Tokenizer

from bpelab import BPETokenizer
from bpelab.export import ExportError
from bpelab.paths import data_dir
from bpelab.tiktoken_file import load_tiktoken

SPECIALS = ["<|endoftext|>", "<|pad|>"]


@pytest.fixture(scope="module")
def tok():
    text = (data_dir() / "english_train.txt").read_text(encoding="utf-8")[:30_000]
    return BPETokenizer().train(text + " 1920 $12.50 " * 20, 500, pattern="cl100k", special_tokens=SPECIALS)


# ---- written whole, or not at all ----------------------------------------------------------------

FAIL_MIDWAY = """
import resource, signal, sys
from bpelab import BPETokenizer
tok = BPETokenizer().train(open(sys.argv[2], encoding="utf-8").read()[:30000], 800, pattern="gpt2")
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit then fails with EFBIG, as on a full disk
resource.setrlimit(resource.RLIMIT_FSIZE, (20_000, 20_000))  # smaller than the new file
try:
    getattr(tok, sys.argv[3])(sys.argv[1])
except OSError as err:
    print("failed midway:", err.strerror)
"""


@pytest.mark.skipif(sys.platform == "win32", reason="RLIMIT_FSIZE is POSIX")
@pytest.mark.parametrize("method", ["save_hf", "save"])
def test_a_save_that_fails_midway_leaves_the_good_file(tmp_path, method):
    """A size limit stops the write after 20,000 bytes: the earlier, good file must survive, and no litter."""
    small = BPETokenizer().train("the cat sat on the mat " * 10, 270, pattern="gpt2")
    path = tmp_path / ("tokenizer.json" if method == "save_hf" else "tokenizer.bpe")
    getattr(small, method)(path)
    before = path.read_bytes()
    assert len(before) < 20_000
    run = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(FAIL_MIDWAY), str(path), str(data_dir() / "english_train.txt"), method],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert "failed midway: File too large" in run.stdout, run.stderr[-2000:]
    assert path.read_bytes() == before
    if method == "save_hf":
        assert Tokenizer.from_file(str(path)).encode("the cat").ids == small.encode("the cat")
    else:
        assert BPETokenizer.load(path).merges == small.merges
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name]


def test_a_failed_write_removes_its_temporary_file(tmp_path, monkeypatch, tok):
    import bpelab.files

    path = tok.save_hf(tmp_path / "tokenizer.json")
    before = path.read_bytes()

    def fail(*_args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(bpelab.files.os, "fsync", fail)  # after the text went out, before the rename
    with pytest.raises(OSError, match="No space"):
        tok.save_hf(tmp_path / "tokenizer.json")
    assert path.read_bytes() == before and [p.name for p in tmp_path.iterdir()] == ["tokenizer.json"]


# ---- where the file goes, and bad arguments ----------------------------------------------------


def test_a_folder_gets_tokenizer_json_and_the_transformers_config(tmp_path, tok):
    for given_path in [f"{tmp_path}/newdir/", tmp_path / "other", str(tmp_path / "third")]:
        written = tok.save_hf(given_path)
        assert written.name == "tokenizer.json" and written.parent.is_dir()
        config = json.loads((written.parent / "tokenizer_config.json").read_text(encoding="utf-8"))
        assert config["eos_token"] == config["pad_token"] == "<|endoftext|>"
    assert not (tmp_path / "newdir").is_file()
    file = tok.save_hf(tmp_path / "deep" / "mine.json")  # a .json name is the file; its folder is made
    assert file == tmp_path / "deep" / "mine.json" and sorted(p.name for p in file.parent.iterdir()) == ["mine.json"]


def test_the_roles_can_be_chosen_and_must_be_special_tokens(tmp_path, tok):
    tok.save_hf(tmp_path, padding="<|pad|>")
    config = json.loads((tmp_path / "tokenizer_config.json").read_text(encoding="utf-8"))
    assert (config["eos_token"], config["pad_token"]) == ("<|endoftext|>", "<|pad|>")
    with pytest.raises(ExportError, match=r"'<\|eos\|>': it is not one of this tokenizer's special tokens"):
        tok.save_hf(tmp_path / "x", end_of_text="<|eos|>")
    plain = BPETokenizer().train("the cat sat on the mat " * 10, 270)
    plain.save_hf(tmp_path / "plain")
    assert "eos_token" not in json.loads((tmp_path / "plain" / "tokenizer_config.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("bad", ["", None, 3])
def test_save_hf_without_a_path_says_what_to_give(tok, bad):
    with pytest.raises(ValueError, match="save_hf needs a folder or a .json file name"):
        tok.save_hf(bad)


def test_exporting_no_tokenizer_says_to_train_one():
    from bpelab import export

    with pytest.raises(TypeError, match=r"expected a BPETokenizer, got NoneType\. Train one first"):
        export.to_tiktoken(None)
    with pytest.raises(TypeError, match="expected a BPETokenizer"):
        export.save_hf(None, "tokenizer.json")


def test_a_special_token_that_is_not_text_is_named():
    tok = BPETokenizer().train("the cat sat on the mat " * 10, 270)
    tok.special_tokens[7] = 270  # type: ignore[index]
    with pytest.raises(ExportError, match=r"the special token 7 is not a non-empty str"):
        tok.to_tiktoken()
    with pytest.raises(ExportError, match=r"the special token 7 is not a non-empty str"):
        tok.save_hf("unused.json")


# ---- prefix special tokens ----------------------------------------------------------------------


def test_special_tokens_where_one_begins_another_are_refused_by_tiktoken(tmp_path):
    """tiktoken may find "<|a" inside "<|a|>": its special-token regex is joined in hash-map order."""
    tok = BPETokenizer().train("the cat sat on the mat " * 10, 270, special_tokens=["<|a", "<|a|>"])
    with pytest.raises(ExportError, match=r"'<\|a' is the start of another, '<\|a\|>'.*no fixed order"):
        tok.to_tiktoken()
    with pytest.raises(ExportError, match="is the start of another"):
        tok.save_tiktoken(tmp_path / "x.tiktoken")
    hf = Tokenizer.from_file(str(tok.save_hf(tmp_path / "tokenizer.json")))  # tokenizers takes the longest
    assert hf.encode("<|a|>").ids == tok.encode("<|a|>", allowed_special="all") == [tok.special_tokens["<|a|>"]]


# ---- the .tiktoken file --------------------------------------------------------------------------

texts = st.lists(
    st.one_of(st.text(max_size=8), st.sampled_from(["1920", "$12.50", "👨\u200d👩\u200d👧", "e\u0301", "\r\n", "   "])),
    max_size=8,
).map("".join)


@pytest.fixture(scope="module")
def saved(tok, tmp_path_factory):
    folder = tmp_path_factory.mktemp("tiktoken")
    return tok.save_tiktoken(folder / "mine", name="mine"), folder


def local_files_without_blobfile() -> bool:
    """Whether this tiktoken's ``load_tiktoken_bpe`` opens a local file by itself (0.12 on)."""
    try:
        tiktoken.load.read_file(__file__)
    except ImportError:  # "blobfile is not installed"
        return False
    return True


def test_the_tiktoken_file_is_read_by_tiktoken_itself(tok, saved, monkeypatch, tmp_path):
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path))  # load_tiktoken_bpe keeps a copy in its cache
    path, folder = saved
    assert path.name == "mine.tiktoken" and sorted(p.name for p in folder.iterdir()) == ["mine.json", "mine.tiktoken"]
    if not local_files_without_blobfile():
        # tiktoken before 0.12 opens a local file only through the optional blobfile package; its own parser
        # (the rest of load_tiktoken_bpe) is what this test is about, so hand it the bytes as blobfile would
        monkeypatch.setattr(tiktoken.load, "read_file", lambda blobpath: Path(blobpath).read_bytes())
    ranks = load_tiktoken_bpe(str(path))
    assert ranks == {tok.vocab[i]: i for i in range(256 + len(tok.merges))}
    about = json.loads((folder / "mine.json").read_text(encoding="utf-8"))
    assert about["special_tokens"] == tok.special_tokens and about["name"] == "mine"


@settings(max_examples=80, deadline=None)
@given(texts)
def test_the_encoding_read_back_gives_the_same_ids(tok, saved, text):
    encoding = load_tiktoken(saved[0])
    assert isinstance(encoding, tiktoken.Encoding) and encoding.name == "mine"
    assert encoding.encode(text, allowed_special="all") == tok.encode(text, allowed_special="all")
    assert load_tiktoken(saved[1] / "mine.json").encode(text, disallowed_special=()) == tok.encode(
        text, disallowed_special=()
    )


def test_a_changed_or_lonely_tiktoken_file_is_named(tok, tmp_path):
    path = tok.save_tiktoken(tmp_path / "mine.tiktoken")
    lines = path.read_text(encoding="ascii").splitlines()
    path.write_text("\n".join(lines[:-1]) + "\n", encoding="ascii")
    with pytest.raises(ExportError, match="changed or damaged"):
        load_tiktoken(path)
    (tmp_path / "mine.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(ExportError, match="not the JSON save_tiktoken writes"):
        load_tiktoken(path)
    (tmp_path / "mine.json").unlink()
    with pytest.raises(FileNotFoundError, match="Keep the two files"):
        load_tiktoken(path)


def test_a_damaged_ranks_line_says_to_save_again_not_to_fetch_the_course_data(tok, tmp_path):
    """A file whose JSON was edited to match its broken ranks: the learner's own file, so no "make data"."""
    path = tok.save_tiktoken(tmp_path / "mine.tiktoken")
    path.write_bytes(path.read_bytes() + b"not-a-rank\n")
    about = json.loads((tmp_path / "mine.json").read_text(encoding="utf-8"))
    about["ranks_sha256"] = hashlib.sha256(path.read_bytes()).hexdigest()
    (tmp_path / "mine.json").write_text(json.dumps(about), encoding="utf-8")
    with pytest.raises(ValueError, match="mine.tiktoken, line .*save the tokenizer again") as caught:
        load_tiktoken(path)
    assert "make data" not in str(caught.value)


# ---- transformers --------------------------------------------------------------------------------


TRANSFORMERS = "transformers==5.24.0"
"""Not in the course's pins (its releases need a newer ``regex`` than the one that splits as tiktoken does), so the
test installs it into a venv of its own: the real library, never skipped. No PyTorch: the tokenizer needs none."""

LOAD_WITH_TRANSFORMERS = """
import json, sys
from transformers import PreTrainedTokenizerFast
fast = PreTrainedTokenizerFast.from_pretrained(sys.argv[1])
texts = json.loads(sys.argv[2])
print(json.dumps({
    "ids": [fast(text)["input_ids"] for text in texts],
    "eos": fast.eos_token_id,
    "pad": fast.pad_token_id,
    "padded": fast(["a", "the cat sat"], padding=True)["input_ids"],
}))
"""


def test_transformers_loads_the_folder_with_its_roles(tok, tmp_path):
    from tests.installing import clean_env, run, uv

    env = clean_env(tmp_path / "home")
    venv = tmp_path / "transformers-venv"
    run([uv(), "venv", "--quiet", "--python", sys.executable, str(venv)], cwd=tmp_path, env=env)
    python = venv / "bin" / "python"
    run([uv(), "pip", "install", "--quiet", "--python", str(python), TRANSFORMERS], cwd=tmp_path, env=env)

    folder = tok.save_hf(tmp_path / "mine").parent
    texts = ["In 1920, the cat sat.<|endoftext|>", "Prices: $12.50, 1234567 and 👩\u200d💻 café", "two  spaces\r\n"]
    script = tmp_path / "load.py"
    script.write_text(LOAD_WITH_TRANSFORMERS, encoding="utf-8")
    got = json.loads(run([str(python), str(script), str(folder), json.dumps(texts)], cwd=tmp_path, env=env).stdout)

    assert got["ids"] == [tok.encode(text, allowed_special="all") for text in texts]
    assert got["eos"] == got["pad"] == tok.special_tokens["<|endoftext|>"]
    short, long = got["padded"]
    assert len(short) == len(long) and short[-1] == tok.special_tokens["<|endoftext|>"]
