// Where tokenizers cut the same text, and where they cut it differently: bpelab/cuts.py for the page.
//
// A row is one tokenizer's token lengths in bytes. Its cut positions are their running sums (0 and
// the end included); a common cut is one every row has; a differing span is the byte range between
// two neighbouring common cuts inside which some row cuts. bpelab/cuts.py's docstring says why that
// is exactly "where the rows cut differently". A stretch's tokens are those whose own bytes overlap it
// (tokenRanges, tokensOverlapping; bpelab/cuts.py defines "overlap"). tests/test_cuts.py holds this
// file equal to Python's.

/** The byte offsets where a row of token lengths cuts the text, 0 and the end included. */
export function cutPositions(lengths) {
  const positions = [0];
  for (const length of lengths) {
    if (!Number.isInteger(length) || length <= 0) throw new Error(`a token's length in bytes must be a positive whole number, got ${length}`);
    positions.push(positions[positions.length - 1] + length);
  }
  return positions;
}

/** Every position where some row cuts, in order (the side-by-side view's column lines). */
export function allCuts(rows) {
  return [...new Set(rows.flatMap(cutPositions))].sort((a, b) => a - b);
}

/** The byte ranges [start, end] cut differently by the rows, in text order. */
export function differingSpans(rows) {
  if (!rows.length) return [];
  const cutSets = rows.map((row) => new Set(cutPositions(row)));
  const ends = new Set(cutSets.map((cuts) => Math.max(...cuts)));
  if (ends.size > 1) throw new Error(`the rows cover texts of different lengths (${[...ends].join(", ")} bytes): encode the same text`);
  const everywhere = allCuts(rows);
  const common = everywhere.filter((p) => cutSets.every((cuts) => cuts.has(p)));
  const inner = everywhere.filter((p) => !cutSets.every((cuts) => cuts.has(p)));
  const spans = [];
  let k = 0; // inner cuts are visited once, in order, as the common cuts advance
  for (let i = 0; i + 1 < common.length; i++) {
    const [start, end] = [common[i], common[i + 1]];
    if (k < inner.length && inner[k] < end) {
      spans.push([start, end]);
      while (k < inner.length && inner[k] < end) k++;
    }
  }
  return spans;
}

const cutsUtf8 = new TextEncoder();

function findBytes(data, needle, from) {
  outer: for (let i = from; i + needle.length <= data.length; i++) {
    for (let j = 0; j < needle.length; j++) if (data[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

/**
 * Each token of `text` and each stretch no token covers, as [length in bytes, token position or null].
 * `pieces`: the tokens' text (strings) or bytes; with `wordEnd` ("</w>") a token's marker is not text.
 */
export function coveringLengths(text, pieces, wordEnd = null) {
  const data = cutsUtf8.encode(text);
  const out = [];
  let at = 0;
  pieces.forEach((piece, position) => {
    let raw;
    if (typeof piece === "string") {
      const shown = wordEnd && piece.endsWith(wordEnd) ? piece.slice(0, -wordEnd.length) : piece;
      raw = cutsUtf8.encode(shown);
    } else {
      raw = Uint8Array.from(piece);
    }
    if (!raw.length) return; // a bare "</w>": it marks the word's end, it covers no text
    const found = findBytes(data, raw, at);
    if (found < 0) throw new Error(`token ${position + 1} is not in the text after byte ${at}: encode the same text`);
    if (found > at) out.push([found - at, null]);
    out.push([raw.length, position]);
    at = found + raw.length;
  });
  if (at < data.length) out.push([data.length - at, null]);
  return out;
}

/** A row as differingSpans compares it: each gap joined to the token after it, a gap at the end to
 * the token before it (bpelab/cuts.py compared_lengths says why). */
export function comparedLengths(covering) {
  const lengths = [];
  let waiting = 0;
  for (const [length, token] of covering) {
    if (token === null) {
      waiting += length;
    } else {
      lengths.push(waiting + length);
      waiting = 0;
    }
  }
  if (waiting) {
    if (lengths.length) lengths[lengths.length - 1] += waiting;
    else lengths.push(waiting);
  }
  return lengths;
}

/** Each token's byte range [start, end] in `text`, one per piece; a bare "</w>" (no bytes) gets the
 * empty range at the end of the token before it (bpelab/cuts.py token_ranges). */
export function tokenRanges(text, pieces, wordEnd = null) {
  const found = new Map();
  let at = 0;
  for (const [length, token] of coveringLengths(text, pieces, wordEnd)) {
    if (token !== null) found.set(token, [at, at + length]);
    at += length;
  }
  const ranges = [];
  pieces.forEach((_piece, position) => {
    const before = ranges.length ? ranges[ranges.length - 1][1] : 0;
    ranges.push(found.get(position) ?? [before, before]);
  });
  return ranges;
}

/** The positions of the tokens that overlap the bytes start..end: sharing a byte with them, or of no
 * bytes at p with start < p <= end (bpelab/cuts.py's docstring says why a chip's range is not used). */
export function tokensOverlapping(ranges, start, end) {
  if (!(Number.isInteger(start) && Number.isInteger(end) && 0 <= start && start < end)) throw new Error(`a stretch is a byte range start < end, got ${start}:${end}`);
  const out = [];
  ranges.forEach(([a, b], position) => {
    if ((a < end && start < b) || (a === b && start < a && a <= end)) out.push(position);
  });
  return out;
}
