// node --test: the explorer's own encoding and count line (held to Python over 600 texts by
// tests/test_js_explorer.py; here, hand-checked cases), and production.js's loading rules.
import { test } from "node:test";
import assert from "node:assert/strict";
import { modelsNote } from "./explorer.js";
import { encodeWord, encodeWordLevel, cutWords } from "./word_level.js";
import { countedUnit, summary } from "./count_line.js";
import { encoderFromGlobals, loadClassicScript, ranksScript } from "./production.js";

const MERGES = [["l", "o", "lo"], ["lo", "w", "low"], ["e", "s", "es"], ["es", "t", "est"], ["est", "</w>", "est</w>"]];

test("a word is its code points plus </w>, merges replayed in order", () => {
  assert.deepEqual(encodeWord("lowest", MERGES), ["low", "est</w>"]);
  assert.deepEqual(encodeWord("👍🏽", MERGES), ["👍", "🏽", "</w>"]); // code points, not UTF-16 halves
  assert.deepEqual(encodeWord("slow", MERGES.slice(1)), ["s", "l", "o", "w", "</w>"]); // order matters
});

test("words are cut as Python's str.split or the split Python wrote for JavaScript", () => {
  assert.deepEqual(cutWords("a  b\u3000c\ufeffd", null), ["a", "b", "c\ufeffd"]);
  const words = "[\\p{Alphabetic}\\p{M}\\p{Nd}\\p{Pc}\\p{Join_Control}]+|[^\\p{Alphabetic}\\p{M}\\p{Nd}\\p{Pc}\\p{Join_Control}\\s]+";
  assert.deepEqual(cutWords("low, lower.", words), ["low", ",", "lower", "."]);
});

test("ids are vocabulary positions, ? for a symbol never seen", () => {
  const tokenizer = { vocabulary: ["</w>", "e", "l", "o", "s", "t", "w", "lo", "low", "es", "est", "est</w>"], merges: MERGES, split: null };
  const { ids, pieces } = encodeWordLevel(tokenizer, "lowest lox");
  assert.deepEqual(pieces, ["low", "est</w>", "lo", "x", "</w>"]);
  assert.deepEqual(ids, [8, 11, 7, "?", 0]);
});

test("the count line counts tokens, words, chips and bytes, and says why chips are fewer", () => {
  const [head, ...notes] = summary("low 👍🏽", [1, 2, 3, 4, 5], ["low</w>", "👍", "🏽", "</w>"], { wordLevel: true });
  assert.equal(head, "5 tokens for 2 words · 3 chips · 12 bytes · 2.40 bytes per token");
  assert.match(notes[0], /one character as you see it, such as 👍🏽, whose code points they keep apart/);
  const thumbs = [...new TextEncoder().encode("👍")];
  const [, cut] = summary("👍", [1, 2], [thumbs.slice(0, 2), thumbs.slice(2)]);
  assert.match(cut, /UTF-8 bytes they cut/);
  assert.deepEqual(summary("", [], []), ["0 tokens · 0 chips · 0 bytes"]);
  assert.equal(summary("a", [64], ["a"])[0], "1 token · 1 chip · 1 byte · 1.00 bytes per token");
});

test("FE0F + ZWJ under a word-level tokenizer: the note names them and says they have no id", () => {
  // issue 21: the note read "such as , whose" (an invisible character in the sentence)
  const tokenizer = { vocabulary: ["</w>", "a"], merges: [], split: null };
  const { ids, pieces } = encodeWordLevel(tokenizer, "\ufe0f\u200d");
  assert.deepEqual(ids, ["?", "?", 0]);
  const [head, ...notes] = summary("\ufe0f\u200d", ids, pieces, { wordLevel: true });
  assert.equal(head, "3 tokens for 1 word · 2 chips · 6 bytes · 2.00 bytes per token");
  assert.match(notes[0], /such as U\+FE0F VARIATION SELECTOR-16 \+ U\+200D ZERO WIDTH JOINER, whose code points/);
  assert.match(notes[1], /no id in this vocabulary/);
});

test("production encodings: the four with browser ranks, Llama 3 included; nothing until its scripts ran", () => {
  assert.equal(ranksScript("o200k_base"), "tiktoken/ranks/o200k_base.js");
  assert.equal(ranksScript("llama3"), "tiktoken/ranks/llama3.js");
  assert.throws(() => ranksScript("o200k_harmony"), /no browser vocabulary/);
  assert.equal(encoderFromGlobals("cl100k_base", {}), null);
});

test("the models note joins the clauses Python wrote, and is empty without them", () => {
  const note = modelsNote([{ label: "mine" }, { label: "GPT-4o", models: "o200k_base: gpt-5" }, { models: "llama3: Meta's" }]);
  assert.equal(note, " Models by encoding, from tiktoken's model table: o200k_base: gpt-5. llama3: Meta's.");
  assert.equal(modelsNote([{ label: "mine" }]), "");
});

test("a classic script is added once and its load awaited", async () => {
  const added = [];
  const fakeScript = () => {
    const handlers = { load: [], error: [] };
    return { dataset: {}, addEventListener: (kind, fn) => handlers[kind].push(fn), fire: (kind) => handlers[kind].forEach((fn) => fn()) };
  };
  const doc = {
    querySelector: (selector) => added.find((s) => selector.includes(`"${s.dataset.bpeSrc}"`)) || null,
    createElement: () => fakeScript(),
    head: { appendChild: (s) => added.push(s) },
  };
  const first = loadClassicScript("_static/a.js", doc);
  const second = loadClassicScript("_static/a.js", doc);
  assert.equal(added.length, 1);
  added[0].fire("load");
  await Promise.all([first, second]);
  assert.equal(added[0].dataset.bpeLoaded, "yes");
  await loadClassicScript("_static/a.js", doc); // already loaded: resolves at once
  const failing = loadClassicScript("_static/missing.js", doc);
  added[1].fire("error");
  await assert.rejects(failing, /make html/);
});

test("countedUnit puts the first word of a unit in the singular for one, as Python's counted_unit", () => {
  assert.equal(countedUnit(1, "pieces (words and punctuation)"), "1 piece (words and punctuation)");
  assert.equal(countedUnit(8, "pieces (words and punctuation)"), "8 pieces (words and punctuation)");
  assert.equal(countedUnit(1, "words"), "1 word");
  assert.equal(countedUnit(0, "words"), "0 words");
});

test("the note quotes the character the tokens split, not its whole chip (Python: split_character)", () => {
  const [, cafe] = summary("cafe\u0301", [1, 2, 3, 4], ["ca", "fe", "\u0301", "</w>"], { wordLevel: true });
  assert.match(cafe, /such as e\u0301, whose code points/);
  const family = ["hi👩", "\u200d", "👧", "</w>"];
  const [, zwj] = summary("hi👩\u200d👧", [1, 2, 3, 4], family, { wordLevel: true });
  assert.match(zwj, /such as 👩\u200d👧, whose code points/);
});
