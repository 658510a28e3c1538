// node --test: the page's SentencePiece encoder and piece builds on a toy model checked by hand (the whole of
// Mistral 7B against the Python and the sentencepiece library is tests/test_js_sentencepiece.py).
import { test } from "node:test";
import assert from "node:assert/strict";
import { SPACE, encodeIds, encodeWithPieces, mergePart, normalizeText, sentencePieceModel, tokenBytes } from "./sentencepiece.js";
import { buildPiece } from "./sentencepiece_build.js";

const S = SPACE;
const BYTES = Array.from({ length: 256 }, (_, b) => `<0x${b.toString(16).toUpperCase().padStart(2, "0")}>`);
// ids: 0 <unk>, 1 <s>, 2 </s>, 3..258 bytes, then merged pieces by score, then characters
const MERGED = [[`${S}a`, -1], ["ab", -2], ["bc", -2], [`${S}ab`, -3], ["abcd", -4], [`${S}${S}`, -9], ["a", -10], ["b", -11],
  ["c", -12], ["d", -13], [S, -14]];
const TOY = {
  pieces: ["<unk>", "<s>", "</s>", ...BYTES, ...MERGED.map(([p]) => p)],
  scores: [[259, 0, 0], ...MERGED.map(([, s]) => [1, s, 0])],
  types: "ucc" + "b".repeat(256) + "n".repeat(MERGED.length),
  addDummyPrefix: true,
  byteFallback: true,
};
const model = () => sentencePieceModel(TOY);
const pieces = (m, ids) => ids.map((i) => m.pieces[i]);

test("spaces become ▁ and a ▁ goes in front; an empty text stays empty", () => {
  assert.equal(normalizeText(model(), "a b"), `${S}a${S}b`);
  assert.equal(normalizeText(model(), ""), "");
});

test("the best score joins first; of equal scores, the leftmost", () => {
  // "abc": ab (-2) and bc (-2) tie: the leftmost, ab, wins, and c stays alone
  assert.deepEqual(mergePart(model(), "abc"), ["ab", "c"]);
  // "▁ab": ▁a (-1) beats ab (-2), then ▁a + b forms ▁ab (-3)
  assert.deepEqual(mergePart(model(), `${S}ab`), [`${S}ab`]);
  // "abcd": ab, then neither abc nor cd is a piece: abcd is never reached
  assert.deepEqual(mergePart(model(), "abcd"), ["ab", "c", "d"]);
});

test("a character that is no piece falls back to its UTF-8 bytes, and the bytes stand for it in the chips", () => {
  const m = model();
  const ids = encodeIds(m, "aé");
  assert.deepEqual(pieces(m, ids), [`${S}a`, "<0xC3>", "<0xA9>"]);
  assert.deepEqual(tokenBytes(m, ids, "aé").map((b) => [...b]), [[0x61], [0xc3], [0xa9]]);
});

test("the dummy prefix alone covers no byte of the text; a typed ▁ stays a ▁", () => {
  const m = model();
  const { ids, pieces: bytes } = encodeWithPieces(m, "c");
  assert.deepEqual(pieces(m, ids), [S, "c"]);
  assert.deepEqual(bytes.map((b) => b.length), [0, 1]);
  const typed = encodeWithPieces(m, `a${S}a`);
  assert.equal(Buffer.concat(typed.pieces.map((b) => Buffer.from(b))).toString(), `a${S}a`);
});

test("a lone surrogate is refused, naming the problem", () => {
  assert.throws(() => encodeIds(model(), "a\ud800"), /lone surrogate/);
});

test("a piece is built by its encoder's merges, scored, leftmost first among ties", () => {
  const m = model();
  const build = buildPiece(m, m.pieceToId.get(`${S}${S}`));
  assert.deepEqual(build.steps.map((s) => s.number), [-9]);
  assert.equal(build.leaves, "characters");
  const ab = buildPiece(m, m.pieceToId.get(`${S}ab`));
  assert.deepEqual(ab.steps.map((s) => [Buffer.from(s.left).toString(), Buffer.from(s.right).toString(), s.number]), [[S, "a", -1], [`${S}a`, "b", -3]]);
  assert.equal(ab.tree.children.length, 2);
  const abcd = buildPiece(m, m.pieceToId.get("abcd"));
  assert.equal(abcd.reachable, false);
  assert.deepEqual(abcd.parts.map((p) => Buffer.from(p).toString()), ["ab", "c", "d"]);
  const byte = buildPiece(m, 3 + 0xc3);
  assert.deepEqual(byte.token, [0xc3]);
  assert.match(byte.note, /byte fallback/);
  assert.throws(() => buildPiece(m, 1), /not built by merges/);
});
