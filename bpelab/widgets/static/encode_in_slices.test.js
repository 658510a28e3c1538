// node --test: the slices put back together are the text, and every cut follows a match that does not end in whitespace.
// (Ids equal to tiktoken's over 100 KB in 16 languages: tests/browser/test_explorer_links_and_long_text.py.)
import { test } from "node:test";
import assert from "node:assert/strict";
import { slicesOf } from "./encode_in_slices.js";

// cl100k_base's pattern (tiktoken), its contractions in lower case only (Node 20 has no (?i:...))
const CL100K = "'s|'t|'re|'ve|'m|'ll|'d|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";
const TEXT = "Hello   world!\n\n  It's 2026-11-25;\t\tnaïve e\u0301 👍🏽   東京 \n".repeat(50);

test("slices join to the text and cut only after a match ending in a non-space", () => {
  for (const per of [1, 2, 7, 400]) {
    const slices = [...slicesOf(TEXT, CL100K, per)];
    assert.equal(slices.join(""), TEXT);
    for (const slice of slices.slice(0, -1)) assert.match(slice, /\S$/u);
    if (per === 1) assert.ok(slices.length > 100);
  }
});

test("each slice matched alone gives the whole text's matches", () => {
  const whole = [...TEXT.matchAll(new RegExp(CL100K, "gu"))].map((m) => m[0]);
  const sliced = [...slicesOf(TEXT, CL100K, 3)].flatMap((s) => [...s.matchAll(new RegExp(CL100K, "gu"))].map((m) => m[0]));
  assert.deepEqual(sliced, whole);
});
