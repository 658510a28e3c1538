// Encode documents with the browser's production encoder, under Node (tests/test_js_production.py).
// usage: node encode_with_js_tiktoken.mjs <site _static dir> <encoding> <docs.json> <out.json>
// Runs the same classic scripts a page loads, then bpelab/widgets/static/production.js's encodeOrdinary.
import { readFileSync, writeFileSync } from "node:fs";
import { runInThisContext } from "node:vm";
import { join } from "node:path";
import { pathToFileURL, fileURLToPath } from "node:url";

const [staticDir, name, docsPath, outPath] = process.argv.slice(2);
globalThis.window = globalThis; // the scripts set window.<global>, as in a page
const here = fileURLToPath(new URL(".", import.meta.url));
const production = await import(pathToFileURL(join(here, "../../bpelab/widgets/static/production.js")).href);
runInThisContext(readFileSync(join(staticDir, production.TIKTOKEN_SCRIPT), "utf8"));
runInThisContext(readFileSync(join(staticDir, production.ranksScript(name)), "utf8"));
const encoder = production.encoderFromGlobals(name);
const docs = JSON.parse(readFileSync(docsPath, "utf8"));
const out = docs.map((text) => {
  const { ids, pieces } = production.encodeOrdinary(encoder, text);
  // the pieces' bytes, joined, must be the text's UTF-8 bytes: report whether they are
  const joined = Buffer.concat(pieces.map((p) => Buffer.from(p)));
  // and the pieces the encoding's split pattern cuts the text into, as the encoder's RegExp does
  const cuts = [...text.matchAll(new RegExp(globalThis.bpelabTiktokenRanks[name].pat_str, "ug"))].map((m) => m[0]);
  return { ids, bytesRoundTrip: joined.equals(Buffer.from(text, "utf8")), cuts };
});
writeFileSync(outPath, JSON.stringify(out));
