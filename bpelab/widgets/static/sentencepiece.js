// SentencePiece's BPE in the browser: Mistral 7B's tokenizer on a page without Python (the explorer, side by side).
//
// The same rules as bpelab/sentencepiece.py (itself equal to the sentencepiece library, lesson 16), for the models
// a page runs (bpelab/course/sentencepiece_script.py writes them and refuses others): the 'identity' normalizer,
// each space a ▁ and a ▁ in front (the dummy prefix); then, again and again, join the adjacent pair whose joined
// string is the piece of the highest score, the leftmost of equal scores; a piece the vocabulary lacks becomes the
// byte pieces <0xNN> of its UTF-8 (byte fallback). Held equal to the Python by tests/test_js_sentencepiece.py.
//
// The text is cut where no merge can cross (before a ▁, between two characters no piece holds side by side), as
// the Python does, and each part, most of them repeated words, is merged once and remembered.

export const SPACE = "\u2581";
const pieceUtf8 = new TextEncoder();

/** A model from the data of a page script (window.bpelabSentencePiece[name]). */
export function sentencePieceModel(data) {
  const { pieces, types } = data;
  const scores = new Float64Array(pieces.length);
  let id = 0;
  for (const [count, first, step] of data.scores) for (let k = 0; k < count; k += 1) scores[id++] = first + k * step;
  if (id !== pieces.length || types.length !== pieces.length) throw new Error("the SentencePiece script is damaged: pieces, scores and types differ in number");
  const mergeable = new Map();
  const pieceToId = new Map();
  const byteIds = new Array(256).fill(-1);
  const byteValue = new Int16Array(pieces.length).fill(-1);
  let unkId = -1;
  pieces.forEach((piece, i) => {
    if (types[i] === "n") mergeable.set(piece, i);
    else if (types[i] === "b") {
      byteValue[i] = parseInt(piece.slice(3, 5), 16);
      byteIds[byteValue[i]] = i;
    } else if (types[i] === "u") unkId = i;
    if (types[i] !== "n" || !pieceToId.has(piece)) pieceToId.set(piece, i); // reserved pieces first, as PieceToId
  });
  const innerPairs = new Set();
  for (const piece of mergeable.keys()) {
    const chars = Array.from(piece);
    for (let k = 0; k + 1 < chars.length; k += 1) innerPairs.add(chars[k] + chars[k + 1]);
  }
  return { pieces, scores, types, mergeable, pieceToId, byteIds, byteValue, unkId, innerPairs,
    addDummyPrefix: data.addDummyPrefix, byteFallback: data.byteFallback, known: new Map() };
}

/** The text as the model sees it: each space a ▁, a ▁ in front (the 'identity' normalizer keeps all else). */
export function normalizeText(model, text) {
  if (!text) return "";
  return (model.addDummyPrefix ? SPACE : "") + text.replaceAll(" ", SPACE);
}

/** Merge one part: the pair forming the best-scoring piece first, leftmost of equal scores (a heap, as the Python). */
export function mergePart(model, part) {
  const symbols = Array.from(part);
  const n = symbols.length;
  const after = Array.from({ length: n }, (_, i) => (i + 1 < n ? i + 1 : -1));
  const before = Array.from({ length: n }, (_, i) => i - 1);
  const heap = []; // [score, left, right, size]: the highest score, then the leftmost left, on top
  const above = (a, b) => a[0] !== b[0] ? a[0] > b[0] : a[1] !== b[1] ? a[1] < b[1] : a[2] !== b[2] ? a[2] < b[2] : a[3] < b[3];
  const push = (left, right) => {
    if (left < 0 || right < 0) return;
    const joined = symbols[left] + symbols[right];
    const id = model.mergeable.get(joined);
    if (id === undefined) return;
    const entry = [model.scores[id], left, right, joined.length];
    heap.push(entry);
    for (let i = heap.length - 1; i > 0;) {
      const up = (i - 1) >> 1;
      if (!above(heap[i], heap[up])) break;
      [heap[i], heap[up]] = [heap[up], heap[i]];
      i = up;
    }
  };
  const pop = () => {
    const top = heap[0];
    const last = heap.pop();
    if (heap.length) {
      heap[0] = last;
      for (let i = 0; ;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let best = i;
        if (l < heap.length && above(heap[l], heap[best])) best = l;
        if (r < heap.length && above(heap[r], heap[best])) best = r;
        if (best === i) break;
        [heap[i], heap[best]] = [heap[best], heap[i]];
        i = best;
      }
    }
    return top;
  };
  for (let i = 1; i < n; i += 1) push(i - 1, i);
  while (heap.length) {
    const [, left, right, size] = pop();
    // an entry is out of date when one of its symbols was absorbed or has grown since (sizes in UTF-16 units)
    if (!symbols[left] || !symbols[right] || symbols[left].length + symbols[right].length !== size) continue;
    symbols[left] += symbols[right];
    symbols[right] = "";
    after[left] = after[right];
    if (after[right] >= 0) before[after[right]] = left;
    push(before[left], left);
    push(left, after[left]);
  }
  return symbols.filter((s) => s);
}

/** The pieces of a normalized text, merged part by part between the points no merge crosses. */
export function mergePieces(model, normalized) {
  const chars = Array.from(normalized);
  const pieces = [];
  let part = "";
  for (let k = 0; k < chars.length; k += 1) {
    if (k > 0 && chars[k] === SPACE && chars[k - 1] !== SPACE && !model.innerPairs.has(chars[k - 1] + SPACE)) {
      pieces.push(...mergedOnce(model, part));
      part = "";
    }
    part += chars[k];
  }
  if (part) pieces.push(...mergedOnce(model, part));
  return pieces;
}

function mergedOnce(model, part) {
  let merged = model.known.get(part);
  if (merged === undefined) {
    merged = mergePart(model, part);
    if (model.known.size > 200_000) model.known.clear();
    model.known.set(part, merged);
  }
  return merged;
}

const LONE_SURROGATE = /\p{Surrogate}/u;

/** The ids SentencePiece gives for `text` (no <s>, as its encode by default). */
export function encodeIds(model, text) {
  const lone = text.match(LONE_SURROGATE);
  if (lone) {
    throw new Error(`the text holds a lone surrogate at ${lone.index}, which is no character and has no UTF-8 form: pair it or remove it`);
  }
  const ids = [];
  let previousUnknown = false;
  for (const piece of mergePieces(model, normalizeText(model, text))) {
    const id = model.pieceToId.get(piece) ?? model.unkId;
    const unknown = id === model.unkId;
    if (unknown && model.byteFallback) for (const b of pieceUtf8.encode(piece)) ids.push(model.byteIds[b]);
    else if (!(unknown && previousUnknown)) ids.push(id); // a run of unknown pieces is one <unk>
    previousUnknown = unknown;
  }
  return ids;
}

/**
 * Each token of `text` as the bytes of the text it stands for (bpelab.widgets.encoders.sentencepiece_token_bytes):
 * a piece's characters read back from the text in order (a ▁ is the space, or the ▁, it came from), a byte piece
 * one byte of its character, and the dummy prefix's ▁ no character at all. Joined, they are the text's UTF-8.
 */
export function tokenBytes(model, ids, text) {
  const chars = [...(model.addDummyPrefix && text ? [""] : []), ...Array.from(text)];
  let at = 0;
  let rest = new Uint8Array(0); // the bytes left of a character written as byte pieces
  return ids.map((id) => {
    if (model.byteValue[id] >= 0) {
      if (!rest.length) rest = pieceUtf8.encode(chars[at++]);
      const one = rest.slice(0, 1);
      rest = rest.slice(1);
      return one;
    }
    if (model.types[id] === "c") return new Uint8Array(0);
    const n = Array.from(model.pieces[id]).length;
    const covered = chars.slice(at, at + n).join("");
    at += n;
    return pieceUtf8.encode(covered);
  });
}

/** What the explorer draws: ids, and each token's bytes. */
export function encodeWithPieces(model, text) {
  const ids = encodeIds(model, text);
  return { ids, pieces: tokenBytes(model, ids, text) };
}
