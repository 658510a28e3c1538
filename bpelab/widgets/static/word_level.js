// The lesson's word-level tokenizers, encoded in a page without Python (the static site).
//
// Cut the text into words as Python did (whitespace, or the training split Python wrote as a JavaScript
// regex), spell each word as its code points plus "</w>", and replay the merges in the order learned
// (bpe.js's replacePair). Held to Python by tests/test_js_explorer.py.

import { END_OF_WORD, replacePair, splitWords } from "./bpe.js";
import { UNKNOWN_ID } from "./chips.js";

/** A word spelled as its code points plus "</w>", then the merges replayed in the order learned. */
export function encodeWord(word, merges) {
  let symbols = [...Array.from(word), END_OF_WORD];
  for (const [left, right, merged] of merges) symbols = replacePair(symbols, left, right, merged);
  return symbols;
}

/** The pieces Python's split_text(text, pattern) gives, for a pattern Python wrote for JavaScript. */
export function cutWords(text, jsPattern) {
  if (jsPattern === null || jsPattern === undefined) return splitWords(text);
  const pieces = [];
  for (const match of text.matchAll(new RegExp(jsPattern, "gu"))) if (match[0].length) pieces.push(match[0]);
  return pieces;
}

/** Ids and pieces of `text` under a word-level tokenizer description (what explorer.py sends). */
export function encodeWordLevel(tokenizer, text) {
  const vocab = new Map(tokenizer.vocabulary.map((symbol, i) => [symbol, i]).reverse()); // first id wins
  const pieces = cutWords(text, tokenizer.split).flatMap((word) => encodeWord(word, tokenizer.merges));
  return { ids: pieces.map((p) => (vocab.has(p) ? vocab.get(p) : UNKNOWN_ID)), pieces };
}
