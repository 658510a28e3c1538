// node --test: a view survives the address unchanged, whatever its text; widgets keep their own parts.
import { test } from "node:test";
import assert from "node:assert/strict";
import { AT_KEY, MAX_LINK_CHARS, decodeView, encodeView, keepInAddress, linkedKey, readFragment, viewInAddress, withPart } from "./page_address.js";

const HARD_TEXTS = [
  "",
  "plain ascii",
  "👨‍👩‍👧‍👦 family (ZWJ), 👍🏽 skin tone, 🏳️‍🌈 flag",
  "e\u0301 n\u0303 a\u0308\u0304 combining marks, Z\u0335\u0321\u0322 stacked",
  "עברית مرحبا بالعالم \u200f mixed RTL \u202e override \u202c",
  "lines\nand\r\nwindows\rends\t\ttabs   spaces\u3000ideographic",
  "lone \ud800 high, lone \udfff low, swapped \udc00\ud800, and a pair \ud83d\ude00",
  "\u0000 nul, \ufeff bom, \uffff noncharacter, & = # % + ? / characters an address treats specially",
  "東京 naïve 2024-11-24 don't <|endoftext|>",
];

/** A random JavaScript string of UTF-16 code units (so lone surrogates too), reproducible from `seed`. */
function randomText(seed, length) {
  let state = seed >>> 0; // mulberry32: every bit random, so the text hardly compresses
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t ^= t + Math.imul(t ^ (t >>> 7), 61 | t);
    return (t ^ (t >>> 14)) >>> 0;
  };
  const units = [];
  for (let i = 0; i < length; i++) {
    const pick = next() % 4;
    units.push(pick === 0 ? next() % 0x80 : pick === 1 ? 0xd800 + (next() % 0x800) : next() % 0x10000);
  }
  return String.fromCharCode(...units);
}

test("every text, compressed or not, comes back exactly (emoji, ZWJ, combining, RTL, newlines, lone surrogates)", async () => {
  const texts = [...HARD_TEXTS, ...Array.from({ length: 40 }, (_, i) => randomText(i + 1, 1 + ((i * 37) % 300)))];
  for (const compress of [true, false]) {
    for (const text of texts) {
      const view = { tokenizer: "GPT-4o (o200k_base)", text };
      const value = await encodeView(view, { compress });
      assert.match(value, /^[zu][A-Za-z0-9_-]*$/, "only characters an address keeps as they are");
      assert.deepEqual(await decodeView(value), view);
    }
  }
});

test("long repetitive text is compressed well below its length", async () => {
  const text = "The quick brown fox jumps over the lazy dog. ".repeat(2000); // 90,000 characters
  const value = await encodeView({ tokenizer: "GPT-2", text });
  assert.ok(value.length < 2000, `${value.length} characters`);
  assert.equal((await decodeView(value)).text, text);
});

test("a damaged or foreign value says what is wrong", async () => {
  const good = await encodeView({ tokenizer: "GPT-2", text: "hello" });
  await assert.rejects(decodeView(good.slice(0, -6)), /damaged.*whole link/);
  await assert.rejects(decodeView("x" + good.slice(1)), /not z or u/);
  await assert.rejects(decodeView("z%%%"), /base64url/);
  await assert.rejects(decodeView("u" + Buffer.from("{not json").toString("base64url")), /damaged/);
});

test("each widget owns its own part of the fragment; plain anchors are dropped", () => {
  let hash = withPart("#Recap", "bpe-w0", "zAAA");
  assert.equal(hash, "#bpe-w0=zAAA");
  hash = withPart(hash, "bpe-w3", "uBBB");
  hash = withPart(hash, "bpe-w0", "zCCC");
  assert.deepEqual([...readFragment(hash)], [["bpe-w0", "zCCC"], ["bpe-w3", "uBBB"]]);
  assert.equal(withPart(withPart(hash, "bpe-w0", null), "bpe-w3", null), "");
});

function fakeWindow(href) {
  const where = { href, get hash() { return this.href.includes("#") ? "#" + this.href.split("#")[1] : ""; } };
  const history = { state: null, calls: 0, replaceState(_state, _title, url) { this.calls += 1; where.href = url; } };
  return { where, history };
}

test("keepInAddress replaces the address (no new history step) and two widgets do not clobber each other", async () => {
  const { where, history } = fakeWindow("file:///site/05_encoding.html");
  const first = { tokenizer: "GPT-4", text: "first 👍🏽\n" };
  const second = { tokenizer: "GPT-2", text: "second \ud800" };
  const kept = await keepInAddress("bpe-w1", first, where, history);
  await keepInAddress("bpe-w4", second, where, history);
  assert.equal(history.calls, 2);
  assert.ok(kept.url.startsWith("file:///site/05_encoding.html#bpe-w1="));
  assert.deepEqual(await viewInAddress("bpe-w1", where), first);
  assert.deepEqual(await viewInAddress("bpe-w4", where), second);
  assert.equal(await viewInAddress("bpe-w2", where), null);
});

test("a view too long for a link is not kept, and an older one under the same key is removed", async () => {
  const { where, history } = fakeWindow("file:///site/page.html");
  await keepInAddress("bpe-w0", { tokenizer: "GPT-2", text: "short" }, where, history);
  const noise = randomText(7, MAX_LINK_CHARS); // random code units hardly compress
  const result = await keepInAddress("bpe-w0", { tokenizer: "GPT-2", text: noise }, where, history);
  assert.equal(result.url, null);
  assert.ok(result.tooLong > MAX_LINK_CHARS);
  assert.equal(await viewInAddress("bpe-w0", where), null);
});

test("the address names the one widget to scroll to: the last one changed or copied from", async () => {
  const { where, history } = fakeWindow("file:///site/05_encoding.html#Recap");
  assert.equal(linkedKey(where), null); // a plain anchor holds no view
  await keepInAddress("bpe-w4", { tokenizer: "GPT-2", text: "below" }, where, history);
  await keepInAddress("bpe-w1", { tokenizer: "GPT-4", text: "above" }, where, history);
  assert.equal(linkedKey(where), "bpe-w1");
  assert.deepEqual([...readFragment(where.hash).keys()], ["bpe-w4", "bpe-w1", AT_KEY]); // named last, once
  await keepInAddress("bpe-w4", { tokenizer: "GPT-2", text: "below, changed" }, where, history);
  assert.equal(linkedKey(where), "bpe-w4");
  assert.deepEqual([...readFragment(where.hash).keys()], ["bpe-w4", "bpe-w1", AT_KEY]);
  // the view named can no longer be linked (too long): the page scrolls to the first widget with a view
  await keepInAddress("bpe-w4", { tokenizer: "GPT-2", text: randomText(11, MAX_LINK_CHARS) }, where, history);
  assert.equal(readFragment(where.hash).has(AT_KEY), false);
  assert.equal(linkedKey(where), "bpe-w1");
});

test("a link made before the bpe-at part scrolls to the first widget on the page with a view", () => {
  assert.equal(linkedKey({ hash: "#bpe-w12=zAAA&bpe-w3=zBBB" }), "bpe-w3"); // page order, not address order
  assert.equal(linkedKey({ hash: "#bpe-w12=zAAA&bpe-at=bpe-w12&bpe-w3=zBBB" }), "bpe-w12");
  assert.equal(linkedKey({ hash: "#bpe-w3=zBBB&bpe-at=bpe-w9" }), "bpe-w3"); // names a widget with no view
  assert.equal(linkedKey({ hash: "#bpe-wx=zAAA" }), null);
});
