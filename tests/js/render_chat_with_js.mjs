// Render conversations with the chat view's own JavaScript, under Node (tests/test_js_chat.py).
// usage: node render_chat_with_js.mjs <site _static dir> <cases.json> <out.json>
// cases: [{turns, format}] where format is what chat.py sends ({name, encoding, specials, harmony...}).
// Runs the classic scripts a page loads, then chat.js's chatLayout and encodeLayout on production.js's encoder.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { runInThisContext } from "node:vm";
import { join } from "node:path";
import { pathToFileURL, fileURLToPath } from "node:url";

const [staticDir, casesPath, outPath] = process.argv.slice(2);
globalThis.window = globalThis; // the scripts set window.<global>, as in a page
const here = fileURLToPath(new URL(".", import.meta.url));
const load = (name) => import(pathToFileURL(join(here, "../../bpelab/widgets/static", name)).href);
const production = await load("production.js");
const chat = await load("chat.js");
runInThisContext(readFileSync(join(staticDir, production.TIKTOKEN_SCRIPT), "utf8"));
const encoders = {};
function encoderFor(name) {
  if (!(name in encoders)) {
    let script = null;
    try { script = join(staticDir, production.ranksScript(name)); } catch { script = null; }
    if (script && existsSync(script)) runInThisContext(readFileSync(script, "utf8"));
    try {
      encoders[name] = production.encoderFromGlobals(name);
    } catch {
      encoders[name] = null; // no encoder for it in this build: the layout is still compared
    }
  }
  return encoders[name];
}
const cases = JSON.parse(readFileSync(casesPath, "utf8"));
const out = cases.map(({ turns, format }) => {
  const layout = chat.chatLayout(turns, format);
  const encoder = encoderFor(format.encoding);
  if (!encoder) return { layout, rendering: null };
  const rendering = chat.encodeLayout(layout, (text) => production.encodeOrdinary(encoder, text), format.specials);
  rendering.pieces = rendering.pieces.map((p) => (typeof p === "string" ? p : Array.from(p)));
  return { layout, rendering, summary: chat.chatSummary(rendering, turns) };
});
writeFileSync(outPath, JSON.stringify(out));
