// The stretches the side-by-side view marks (cuts.js differingSpans): the bands that draw them and the
// sentences that say them (compare.js lays out the rows and draws; this file decides what a band
// covers and what a stretch's count is).
//
// A stretch's count is the row's tokens that overlap it, each token by its own bytes (cuts.js
// tokensOverlapping; bpelab/cuts.py's docstring defines "overlap"), never by its chip's: a chip holds
// every token that splits one character as you see it, so it can run across two stretches.
//
// A band is drawn around whole chips: a stretch is widened to the edges of the chips (and a word-level
// row's skipped whitespace) it touches in every row, and stretches whose widened ranges overlap share
// one band and one ≠. So no band's edge runs through a chip, and two marks never share columns: the
// stretches inside one character (a conjunct cut at different bytes) are one band, each said on its
// own in the list.

import { showWhitespace } from "./chips.js";
import { tokensOverlapping } from "./cuts.js";

const stretchUtf8 = new TextEncoder();
const stretchText = new TextDecoder("utf-8", { ignoreBOM: true });

/** The bytes of `text` (as `data`) from `start` to `end`, as text (a cut inside a character shows U+FFFD). */
export function bytesText(data, start, end) {
  return stretchText.decode(data.subarray(start, end));
}

/**
 * The bands drawn for `spans`: each widened until no drawn piece of any row ([start, end] byte ranges in
 * `pieces`, one list per row) crosses its edges, overlapping ones joined. Returns [{start, end, spans}].
 */
export function bandsOf(spans, pieces) {
  const all = pieces.flat();
  const bands = [];
  for (const [a, b] of spans) {
    let [start, end] = [a, b];
    let inner = [[a, b]];
    for (let grown = true; grown;) {
      grown = false;
      for (const [x, y] of all) {
        if (x < end && start < y && (x < start || end < y)) {
          [start, end, grown] = [Math.min(start, x), Math.max(end, y), true];
        }
      }
      while (bands.length && start < bands[bands.length - 1].end) { // a band it reaches into joins it
        const last = bands.pop();
        [start, end, inner, grown] = [Math.min(start, last.start), Math.max(end, last.end), [...last.spans, ...inner], true];
      }
    }
    bands.push({ start, end, spans: inner });
  }
  return bands;
}

/** The tokens of each laid-out row that overlap `span`, as [{tokens: positions, shown: their text}]. */
export function tokensInSpan(text, span, layout) {
  const data = stretchUtf8.encode(text);
  return layout.rows.map((row) => {
    const tokens = tokensOverlapping(row.ranges, span[0], span[1]);
    const shown = tokens.map((i) => {
      const [a, b] = row.ranges[i];
      return a === b ? row.wordEnd ?? "" : showWhitespace(bytesText(data, a, b));
    });
    return { tokens, shown };
  });
}

/** One differing span said in words: its text, then each row's tokens overlapping it. */
export function describeSpan(text, span, layout, labels) {
  const [start, end] = span;
  const parts = tokensInSpan(text, span, layout).map(({ tokens, shown }, r) =>
    `${labels[r]}: ${tokens.length} token${tokens.length === 1 ? "" : "s"} (${shown.join(" | ")})`);
  return `“${showWhitespace(bytesText(stretchUtf8.encode(text), start, end))}” (bytes ${start}–${end}): ${parts.join("; ")}`;
}
