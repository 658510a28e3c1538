"""SentencePiece: our ``SentencePieceBPE`` and ``train_sentencepiece_bpe`` against the ``sentencepiece`` library.

``sentencepiece`` encodes one string on one thread (``encode(text)``, not a batch) and trains on one thread
(``num_threads=1``). Our encoder remembers the parts it has merged; that memory is emptied before every timed
run, so each run starts cold.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
from pathlib import Path

import sentencepiece as spm

from bpelab.bench.common import Row, corpus, kb, note, race, say, seconds, speed
from bpelab.corpora import load_parallel, read_corpus
from bpelab.course.sentencepiece_script import install_sentencepiece_scripts, model_script
from bpelab.sentencepiece import SentencePieceBPE, load_sentencepiece
from bpelab.sentencepiece_model import read_model_file
from bpelab.sentencepiece_training import train_sentencepiece_bpe
from bpelab.vocab_files import require_sentencepiece
from bpelab.widgets.esm import STATIC_DIR


def cold(model: SentencePieceBPE, text: str) -> list[int]:
    model.clear_cache()
    return model.encode(text)


def encode_row(what: str, ours: SentencePieceBPE, theirs: spm.SentencePieceProcessor, text: str, repeats: int) -> Row:
    ours_time, their_time, ours_ids, their_ids = race(lambda: cold(ours, text), lambda: theirs.encode(text), repeats)
    assert ours_ids == their_ids, "SentencePieceBPE gave other ids than sentencepiece"
    return (what, seconds(ours_time), seconds(their_time), speed(ours_time, their_time))


def rows(quick: bool = False) -> list[Row]:
    size = 200_000 if quick else 1_000_000
    repeats = 3 if quick else 7
    text, how = corpus(size, ("english_train", "english_heldout"))
    parallel = "\n".join(line for lines in load_parallel().values() for line in lines)
    out = [note(f"SentencePiece text: {how}; and the 16-language parallel corpus ({kb(len(parallel.encode()))})")]

    say(f"sentencepiece: SentencePieceBPE('mistral_v1') vs sentencepiece on {kb(size)}")
    ours = load_sentencepiece("mistral_v1")
    theirs = spm.SentencePieceProcessor(model_file=str(require_sentencepiece("mistral_v1")))
    for label, sample in ((f"{kb(size)} of English", text), ("the 16-language parallel corpus", parallel)):
        what = f"encode {label}, Mistral v1: ours vs sentencepiece (identical ids)"
        out.append(encode_row(what, ours, theirs, sample, repeats))
    ids = theirs.encode(text)
    ours_time, their_time, ours_text, their_text = race(lambda: ours.decode(ids), lambda: theirs.decode(ids), repeats)
    assert ours_text == their_text, "SentencePieceBPE decoded other text than sentencepiece"
    out.append(
        (
            f"decode {len(ids):,} ids, Mistral v1: ours vs sentencepiece (identical text)",
            seconds(ours_time),
            seconds(their_time),
            speed(ours_time, their_time),
        )
    )
    out.append(page_row(ours, text, repeats))
    out.append(training_row(1000, 1 if quick else 3))
    return out


PAGE_BENCH_JS = """
import { readFileSync, writeFileSync } from "node:fs";
import { runInThisContext } from "node:vm";
const [script, module, textPath, repeats, outPath] = process.argv.slice(1);
globalThis.window = globalThis;
runInThisContext(readFileSync(script, "utf8"));
const { encodeIds, sentencePieceModel } = await import(module);
const text = readFileSync(textPath, "utf8");
let best = Infinity, ids = [];
for (let k = 0; k < Number(repeats); k += 1) {
  const model = sentencePieceModel(globalThis.bpelabSentencePiece.mistral_v1); // cold: nothing merged yet
  const start = process.cpuUsage();
  ids = encodeIds(model, text);
  const used = process.cpuUsage(start);
  best = Math.min(best, (used.user + used.system) / 1e6);
}
writeFileSync(outPath, JSON.stringify({ seconds: best, ids }));
"""
"""Times the page's encoder (``static/sentencepiece.js``) under Node, CPU time, best of the repeats, each cold."""


def page_row(ours: SentencePieceBPE, text: str, repeats: int) -> Row:
    """The static pages' SentencePiece encoder (JavaScript, under Node) against ours in Python, identical ids."""
    what = (
        f"encode {kb(len(text.encode()))} of English, Mistral v1: the page's sentencepiece.js (Node) vs ours (Python)"
    )
    node = shutil.which("node")
    if node is None:
        return note(f"{what}: skipped, Node.js is not installed")
    say("sentencepiece: the page's encoder under Node vs SentencePieceBPE")
    with tempfile.TemporaryDirectory() as folder:
        static = Path(folder)
        install_sentencepiece_scripts(static)
        (static / "text.txt").write_text(text, encoding="utf-8")
        args = [str(static / model_script("mistral_v1")), (STATIC_DIR / "sentencepiece.js").as_uri()]
        args += [str(static / "text.txt"), str(repeats), str(static / "out.json")]
        run = subprocess.run(
            [node, "--input-type=module", "-e", PAGE_BENCH_JS, *args], capture_output=True, text=True, check=False
        )
        if run.returncode != 0:
            raise RuntimeError(f"the page's encoder failed under Node: {run.stderr[-1000:]}")
        page = json.loads((static / "out.json").read_text(encoding="utf-8"))
    ours_time, _, ours_ids, _ = race(lambda: cold(ours, text), lambda: None, repeats)
    assert page["ids"] == ours_ids, "the page's sentencepiece.js gave other ids than SentencePieceBPE"
    return (what, seconds(page["seconds"]), seconds(ours_time), speed(page["seconds"], ours_time))


def training_row(vocab_size: int, repeats: int) -> Row:
    text = read_corpus("english_train")
    say(f"sentencepiece: train_sentencepiece_bpe vs SentencePieceTrainer, {vocab_size:,} pieces")
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "input.txt"
        source.write_text(text, encoding="utf-8")

        def theirs() -> list[str]:
            spm.SentencePieceTrainer.train(
                input=str(source),
                model_prefix=str(Path(folder) / "m"),
                model_type="bpe",
                vocab_size=vocab_size,
                normalization_rule_name="identity",
                num_threads=1,
                minloglevel=2,
                byte_fallback=True,
                character_coverage=1.0,
            )
            return [p.piece for p in read_model_file(Path(folder) / "m.model").pieces]

        ours_time, their_time, ours_model, their_pieces = race(
            lambda: train_sentencepiece_bpe(text, vocab_size, byte_fallback=True, character_coverage=1.0),
            theirs,
            repeats,
        )
    assert ours_model.pieces == their_pieces, "train_sentencepiece_bpe made other pieces than sentencepiece"
    return (
        f"train {vocab_size:,} pieces on english_train.txt ({kb(len(text.encode()))}): ours vs sentencepiece "
        "(same pieces, same order)",
        seconds(ours_time),
        seconds(their_time),
        speed(ours_time, their_time),
    )
