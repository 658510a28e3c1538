// Words and symbols for word-level BPE in the browser, so that a page without Python can train a learner's text.
//
// What word-level training starts from, as bpelab/words.py has it (get_word_frequencies, replace_pair):
// the trainer itself is bpe_train.js, and tests/test_js_training.py trains hundreds of generated texts
// with it and with Python's train_bpe and compares every merge and count. Each choice below mirrors
// one in Python:
//   - words are split as Python's str.split() does (its whitespace, not JavaScript's \s);
//   - a word is its code points (Array.from, as Python's tuple(word)) plus "</w>";
//   - everything keeps first-seen order (Python dicts do), so "first" ties go to the pair seen first;
//   - "lexicographic" compares strings by code point, as Python does (JavaScript's < compares UTF-16
//     units, which orders emoji before some CJK symbols).

export const END_OF_WORD = "</w>";
export const TIE_BREAKS = ["first", "lexicographic"];

// Python's str.isspace(): Unicode White_Space plus the four "information separators" \x1c-\x1f.
// (JavaScript's \s has U+FEFF too and lacks \x1c-\x1f and \x85.)
export const PY_SPACE = /[\t\n\x0b\x0c\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/u;

// Python's `regex` \w is Unicode's word class (UTS #18 Annex C): letters (Alphabetic), marks, decimal
// digits, connector punctuation and the join controls; its \s is White_Space. JavaScript's \w is ASCII.
export const WORD_CLASS = "\\p{Alphabetic}\\p{M}\\p{Nd}\\p{Pc}\\p{Join_Control}";
const PIECES = new RegExp(`[${WORD_CLASS}]+|[^${WORD_CLASS}\\p{White_Space}]+`, "gu");

/** Lesson 02's split, split_text(text, r"\w+|[^\w\s]+"): runs of word characters and runs of punctuation. */
export function splitPieces(text) {
  return text.match(PIECES) ?? [];
}

/** The words of `text` as Python's text.split() gives them. */
export function splitWords(text) {
  return text.split(PY_SPACE).filter((word) => word.length > 0);
}

/** [[symbols, count], ...] in first-seen order: each word spelled as code points plus "</w>". */
export function getWordFrequencies(text) {
  const index = new Map();
  const corpus = [];
  for (const word of splitWords(text)) {
    const at = index.get(word);
    if (at === undefined) {
      index.set(word, corpus.length);
      corpus.push([[...Array.from(word), END_OF_WORD], 1]);
    } else {
      corpus[at][1] += 1;
    }
  }
  return corpus;
}

/** Compare two strings code point by code point, as Python compares str. JavaScript's < compares UTF-16
 *  units, which puts an astral character (a surrogate pair, D800-DFFF) before U+E000-U+FFFF; at the
 *  first unit that differs, moving the surrogates above that range gives code point order. */
export function compareCodePoints(a, b) {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}

function codePointRank(unit) {
  if (unit >= 0xe000) return unit - 0x800;
  if (unit >= 0xd800) return unit + 0x2000;
  return unit;
}

/** Replace every occurrence of (left, right) in `symbols`, left to right, without overlaps. */
export function replacePair(symbols, left, right, merged) {
  const out = [];
  for (let i = 0; i < symbols.length; i++) {
    if (i + 1 < symbols.length && symbols[i] === left && symbols[i + 1] === right) {
      out.push(merged);
      i += 1;
    } else {
      out.push(symbols[i]);
    }
  }
  return out;
}
