// GPT-2, GPT-4, GPT-4o, Llama 3 and Mistral 7B's tokenizers in a page without Python (the explorer on the static site).
//
// Mistral 7B is SentencePiece: the course's own encoder (sentencepiece.js) with its pieces script, written by
// `make html` from the course's verified offline model (bpelab/course/sentencepiece_script.py); equal to the
// Python by tests/test_js_sentencepiece.py. The others: the encoder is js-tiktoken's, vendored by `make html` as classic scripts that set globals
// (bpelab/course/tiktoken_scripts.py says why: a file:// page cannot import() or fetch() a file);
// Llama 3's ranks script is written by `make html` from the course's offline data, in the same form.
// This module only loads those scripts when a tokenizer is first chosen, builds the encoder once,
// and asks it for what the explorer draws: ids, and each token's bytes. Ids equal tiktoken's:
// tests/test_js_production.py runs this file under Node over the course's agreement corpus.

import { encodeWithPieces, sentencePieceModel } from "./sentencepiece.js";

export const TIKTOKEN_IN_BROWSER = ["r50k_base", "cl100k_base", "o200k_base", "llama3"];
export const SENTENCEPIECE_IN_BROWSER = ["mistral_v1"];
export const PRODUCTION_IN_BROWSER = [...TIKTOKEN_IN_BROWSER, ...SENTENCEPIECE_IN_BROWSER];
export const TIKTOKEN_SCRIPT = "tiktoken/tiktoken.js";

/** The path (under the site's _static/) of a SentencePiece model's script. */
export function sentencePieceScript(name) {
  if (!SENTENCEPIECE_IN_BROWSER.includes(name)) throw new Error(`no browser SentencePiece model ${name}`);
  return `sentencepiece/${name}.js`;
}

/** The path (under the site's _static/) of one encoding's ranks script. */
export function ranksScript(name) {
  if (!TIKTOKEN_IN_BROWSER.includes(name)) throw new Error(`no browser vocabulary for ${name}`);
  return `tiktoken/ranks/${name}.js`;
}

const encoders = new Map(); // name -> Promise of an encoder: each vocabulary is read once per page

/** Add a classic <script src> once and wait for it (the one way a file:// page loads a sibling file). */
export function loadClassicScript(src, doc = globalThis.document) {
  const existing = doc.querySelector(`script[data-bpe-src="${src}"]`);
  if (existing && existing.dataset.bpeLoaded === "yes") return Promise.resolve();
  return new Promise((resolve, reject) => {
    const script = existing || doc.createElement("script");
    script.addEventListener("load", () => { script.dataset.bpeLoaded = "yes"; resolve(); });
    script.addEventListener("error", () => reject(new Error(`could not load ${src}: was the site built with make html?`)));
    if (!existing) {
      script.src = src;
      script.dataset.bpeSrc = src;
      doc.head.appendChild(script);
    }
  });
}

/** An encoder built from globals the scripts set (Node tests set them by running the same scripts). */
export function encoderFromGlobals(name, scope = globalThis) {
  if (SENTENCEPIECE_IN_BROWSER.includes(name)) {
    const data = scope.bpelabSentencePiece && scope.bpelabSentencePiece[name];
    return data ? { sentencePiece: sentencePieceModel(data) } : null;
  }
  const core = scope.bpelabTiktoken;
  const ranks = scope.bpelabTiktokenRanks && scope.bpelabTiktokenRanks[name];
  if (!core || !ranks) return null;
  return new core.Tiktoken(ranks);
}

/** The encoder for `name`, loading its scripts from `staticBase` (e.g. "_static/") on first use. */
export function productionEncoder(name, staticBase = "_static/", doc = globalThis.document) {
  if (!encoders.has(name)) {
    const ready = (async () => {
      if (SENTENCEPIECE_IN_BROWSER.includes(name)) {
        await loadClassicScript(staticBase + sentencePieceScript(name), doc);
      } else {
        await loadClassicScript(staticBase + TIKTOKEN_SCRIPT, doc);
        await loadClassicScript(staticBase + ranksScript(name), doc);
      }
      const encoder = encoderFromGlobals(name);
      if (!encoder) throw new Error(`the ${name} scripts loaded but set nothing`);
      return encoder;
    })();
    ready.catch(() => encoders.delete(name)); // a failed load may be retried
    encoders.set(name, ready);
  }
  return encoders.get(name);
}

/**
 * Ids and token bytes for `text`, special-token text encoded as ordinary text (tiktoken's
 * encode_ordinary, which the Python explorer uses): no special token allowed, none refused.
 */
export function encodeOrdinary(encoder, text) {
  if (encoder.sentencePiece) return encodeWithPieces(encoder.sentencePiece, text); // SentencePiece has no special tokens
  const ids = encoder.encode(text, [], []);
  // textMap (rank -> bytes) is js-tiktoken's own table; pinned version, checked by the Node test
  const pieces = ids.map((id) => Uint8Array.from(encoder.textMap.get(id)));
  return { ids, pieces };
}
