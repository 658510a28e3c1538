// The explorer's count line: tokens, chips, bytes and bytes per token, with the notes that explain it
// (why fewer chips than tokens, how many are shown, what "?" among the ids means). Plain text: the
// explorer draws it, and tests/test_js_explorer.py holds it to Python's words.

import { END_OF_WORD } from "./bpe.js";
import { UNKNOWN_ID, isInvisible, isWholeUtf8, makeChips, nameInvisible } from "./chips.js";
import { counted } from "./view_basics.js";

const countUtf8 = new TextEncoder();

/** True when the tokens of a multi-token chip cut a code point's UTF-8 bytes (not only a grapheme). */
function cutsCodePoint(chip, pieces) {
  // checked by hand (chips.js): a strict TextDecoder per token made 100 KB's count line wait half a second
  return chip.tokens.some((i) => typeof pieces[i] !== "string" && !isWholeUtf8(pieces[i]));
}

const noteSegmenter =
  typeof Intl !== "undefined" && Intl.Segmenter ? new Intl.Segmenter(undefined, { granularity: "grapheme" }) : null;
const noteText = new TextDecoder();

/** The first character as you see it (a grapheme) that the chip's tokens split: "é" in a chip "fé" whose tokens
 * are "fe" and U+0301, not the whole chip (Python: explorer.split_character). The chip's text if none is. */
export function splitCharacter(chip, pieces, wordEnd = null) {
  const cuts = [];
  let offset = 0;
  for (const i of chip.tokens.slice(0, -1)) {
    const piece = pieces[i];
    offset += (typeof piece === "string" ? piece : noteText.decode(Uint8Array.from(piece))).length;
    cuts.push(offset);
  }
  const segments = noteSegmenter ? noteSegmenter.segment(chip.text) : Array.from(chip.text, (segment) => ({ segment }));
  let start = 0;
  for (const { segment } of segments) {
    const end = start + segment.length;
    if (cuts.some((cut) => start < cut && cut < end)) return segment;
    start = end;
  }
  const text = chip.text;
  return wordEnd && text.endsWith(wordEnd) ? text.slice(0, -wordEnd.length) : text;
}

/** Why a text has fewer chips than tokens (bpelab.widgets.explorer.why_fewer_chips says the same). */
export function whyFewerChips(chips, pieces, wordEnd = null) {
  const joined = chips.filter((chip) => chip.tokens.length > 1);
  const reasons = [];
  if (joined.some((chip) => cutsCodePoint(chip, pieces))) reasons.push("one character whose UTF-8 bytes they cut");
  const apart = joined.find((chip) => !cutsCodePoint(chip, pieces));
  if (apart) {
    let shown = splitCharacter(apart, pieces, wordEnd); // the character, not its whole chip ("é", not "afé")
    shown = isInvisible(shown) ? nameInvisible(shown) : shown.trim(); // never "such as , whose"
    reasons.push(`one character as you see it, such as ${shown}, whose code points they keep apart`);
  }
  return reasons.length ? "fewer chips than tokens: a chip spanning several tokens holds " + reasons.join(", or ") : "";
}

/** "1 word", "6 words", "1 piece (words and punctuation)": a count and a plural unit whose first word goes to the
 * singular for one (Python: fallback.counted_unit). */
export function countedUnit(n, unit) {
  const space = unit.indexOf(" ");
  const [head, rest] = space < 0 ? [unit, ""] : [unit.slice(0, space), unit.slice(space)];
  return `${n} ${n === 1 && head.endsWith("s") ? head.slice(0, -1) : head}${rest}`;
}

/** The count line's parts, as plain text: [main line, notes...]. */
export function summary(text, ids, pieces, { wordLevel = false, wordUnit = "words", maxTokens = 3000, count = null, chips = null } = {}) {
  const shown = pieces.slice(0, maxTokens);
  const nTokens = count ?? ids.length; // Python sends at most maxTokens ids, and the full count
  const wordEnd = wordLevel ? END_OF_WORD : null;
  chips ??= makeChips(shown, { wordEnd }); // a caller that grouped them already passes them in
  const nBytes = countUtf8.encode(text).length;
  let head = counted(nTokens, "token");
  if (wordLevel) head += ` for ${countedUnit(pieces.filter((p) => p.endsWith(END_OF_WORD)).length, wordUnit)}`;
  const parts = [head, counted(chips.length, "chip"), counted(nBytes, "byte")];
  if (nTokens) parts.push(`${(nBytes / nTokens).toFixed(2)} bytes per token`);
  const notes = [];
  if (chips.length !== shown.length) notes.push(`(${whyFewerChips(chips, shown, wordEnd)})`);
  if (nTokens > maxTokens) notes.push(`(showing the first ${maxTokens} tokens)`);
  if (ids.slice(0, maxTokens).includes(UNKNOWN_ID)) notes.push("(no id, or ? among ids: a character never seen in training has no id in this vocabulary)");
  return [parts.join(" · "), ...notes];
}
