// Word-level BPE training in the browser, so that a page without Python can train a learner's text.
//
// A second implementation of bpelab/words.py (get_word_frequencies, count_pairs, best_pair,
// learn_merges, train_bpe), held to the first: tests/test_js_training.py trains hundreds of generated
// texts with both and compares every merge and count. Each choice below mirrors one in Python:
//   - words are split as Python's str.split() does (its whitespace, not JavaScript's \s);
//   - a word is its code points (Array.from, as Python's tuple(word)) plus "</w>";
//   - everything keeps first-seen order (Python dicts do), so "first" ties go to the pair seen first;
//   - "lexicographic" compares strings by code point, as Python does (JavaScript's < compares UTF-16
//     units, which orders emoji before some CJK symbols).

export const END_OF_WORD = "</w>";
export const TIE_BREAKS = ["first", "lexicographic"];

// Python's str.isspace(): Unicode White_Space plus the four "information separators" \x1c-\x1f.
// (JavaScript's \s has U+FEFF too and lacks \x1c-\x1f and \x85.)
const PY_SPACE = /[\t\n\x0b\x0c\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/u;

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

const SEP = "\u0000\u0001"; // joins a pair's two symbols into one Map key (never inside a symbol of text)

/** Every adjacent pair's count, weighted by its word's count: [[left, right, count], ...] first-seen order. */
export function countPairs(corpus) {
  const counts = new Map();
  for (const [word, freq] of corpus) {
    for (let i = 0; i + 1 < word.length; i++) {
      const key = word[i] + SEP + word[i + 1];
      const entry = counts.get(key);
      if (entry) entry[2] += freq;
      else counts.set(key, [word[i], word[i + 1], freq]);
    }
  }
  return [...counts.values()];
}

/** Compare two strings code point by code point, as Python compares str. */
export function compareCodePoints(a, b) {
  const x = Array.from(a, (c) => c.codePointAt(0));
  const y = Array.from(b, (c) => c.codePointAt(0));
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}

/** The pair to merge next: the highest count; ties to the first seen, or to the smallest pair. */
export function bestPair(pairs, tieBreak = "first") {
  if (!TIE_BREAKS.includes(tieBreak)) throw new Error(`tie_break must be one of first, lexicographic, got ${tieBreak}`);
  let best = null;
  for (const pair of pairs) {
    if (best === null || pair[2] > best[2]) best = pair;
    else if (pair[2] === best[2] && tieBreak === "lexicographic") {
      const order = compareCodePoints(pair[0], best[0]) || compareCodePoints(pair[1], best[1]);
      if (order < 0) best = pair;
    }
  }
  return best;
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

/**
 * train_bpe(text, numMerges, {tieBreak}): {merges: [[left, right, merged]], steps, initial, stoppedEarly}.
 * With `splitPunctuation`, the text is first cut with lesson 02's regex (splitPieces), as lesson 04 does.
 * Each step: {number, pairCounts: [[left, right, count]] (before the merge), pair: [left, right],
 * count, corpus (after the merge), newSymbol}. Stops early when no pair is left.
 */
export function trainBpe(text, numMerges, { tieBreak = "first", splitPunctuation = false } = {}) {
  if (typeof text !== "string") throw new TypeError("text must be a string");
  // lesson 04's real text: train_bpe(" ".join(split_text(text, r"\w+|[^\w\s]+")), n)
  if (splitPunctuation) text = splitPieces(text).join(" ");
  if (!Number.isInteger(numMerges) || numMerges < 0) throw new RangeError(`num_merges must be 0 or more, got ${numMerges}`);
  if (!TIE_BREAKS.includes(tieBreak)) throw new RangeError(`tie_break must be one of first, lexicographic, got ${tieBreak}`);
  const initial = getWordFrequencies(text);
  let corpus = initial;
  const steps = [];
  for (let number = 1; number <= numMerges; number++) {
    const pairCounts = countPairs(corpus);
    if (pairCounts.length === 0) break;
    const [left, right, count] = bestPair(pairCounts, tieBreak);
    const newSymbol = left + right;
    corpus = corpus.map(([word, freq]) => [replacePair(word, left, right, newSymbol), freq]);
    steps.push({ number, pairCounts, pair: [left, right], count, corpus, newSymbol });
  }
  return {
    merges: steps.map((s) => [s.pair[0], s.pair[1], s.newSymbol]),
    steps,
    initial,
    tieBreak,
    stoppedEarly: steps.length < numMerges,
  };
}
