// Encode documents, or build pieces, with the page's SentencePiece encoder under Node (tests/test_js_sentencepiece.py).
// usage: node encode_with_js_sentencepiece.mjs <site _static dir> <model name> encode|build <in.json> <out.json>
// Runs the classic script a page loads, then production.js's encodeOrdinary (which calls sentencepiece.js) or
// sentencepiece_build.js's buildPiece, as the explorer does.
import { readFileSync, writeFileSync } from "node:fs";
import { runInThisContext } from "node:vm";
import { join } from "node:path";
import { pathToFileURL, fileURLToPath } from "node:url";

const [staticDir, name, mode, inPath, outPath] = process.argv.slice(2);
globalThis.window = globalThis; // the script sets window.bpelabSentencePiece, as in a page
const here = fileURLToPath(new URL(".", import.meta.url));
const load = (file) => import(pathToFileURL(join(here, "../../bpelab/widgets/static", file)).href);
const production = await load("production.js");
const { buildPiece } = await load("sentencepiece_build.js");
runInThisContext(readFileSync(join(staticDir, production.sentencePieceScript(name)), "utf8"));
const encoder = production.encoderFromGlobals(name);
const input = JSON.parse(readFileSync(inPath, "utf8"));
let out;
if (mode === "encode") {
  out = input.map((text) => {
    const { ids, pieces } = production.encodeOrdinary(encoder, text);
    return { ids, pieces: pieces.map((p) => Buffer.from(p).toString("hex")) };
  });
} else {
  out = input.map((id) => {
    try {
      return buildPiece(encoder.sentencePiece, id);
    } catch (err) {
      return { error: err.message };
    }
  });
}
writeFileSync(outPath, JSON.stringify(out));
