// A training run as the data the stepper draws, built from the browser's own training (bpe_train.js).
//
// The same shape, and the same numbers, as bpelab/widgets/trace.py builds from train_bpe in Python:
// tests/test_js_training.py compares the two on generated texts. Only word-level training happens
// in the browser, so there are no byte ids and the score is always a count.

import { END_OF_WORD, WORD_CLASS } from "./bpe.js";

export const BAR_WIDTH = 120;

// Python: regex `^[^\w\s]+$`, with \w as Unicode's word class (bpe.js explains WORD_CLASS)
const PUNCTUATION_ONLY = new RegExp(`^[^${WORD_CLASS}\\p{White_Space}]+$`, "u");

/** True when `text` is punctuation or symbols only (Python: regex `^[^\w\s]+$`). */
export function punctuationOnly(text) {
  return PUNCTUATION_ONLY.test(text);
}

function unitName(corpus) {
  for (const [word] of corpus) {
    if (punctuationOnly(word.filter((s) => s !== END_OF_WORD).join(""))) return "pieces (words and punctuation)";
  }
  return "words";
}

function characters(word) {
  return word.filter((s) => s !== END_OF_WORD).length;
}

/** The trace of trainBpe(...)'s result; `topWords` words and `topPairs` pair rows per step, as in Python.
 *  The trainer kept each step's top pair rows, already in the order Python's trace sorts them. */
export function traceOf(result, { topWords = 40, topPairs = 10 } = {}) {
  const { steps, initial } = result;
  if (topPairs > result.topPairs) throw new RangeError(`the training kept ${result.topPairs} pair rows per step, not ${topPairs}`);
  const number = new Map();
  for (const [word] of initial) for (const s of word) if (!number.has(s)) number.set(s, number.size);
  for (const s of steps) if (!number.has(s.newSymbol)) number.set(s.newSymbol, number.size);
  const counts = initial.map(([, n]) => n);
  const visible = counts
    .map((n, i) => i)
    .sort((i, j) => counts[j] - counts[i] || i - j)
    .slice(0, topWords);

  const pairTable = ({ rows: kept, total }, step) => {
    const top = kept.slice(0, topPairs);
    const winner = step < steps.length ? steps[step].pair : null;
    const biggest = top.reduce((m, [, , score]) => Math.max(m, score), 0);
    const rows = top.map(([a, b, score]) => [number.get(a), number.get(b), String(score), biggest ? Math.trunc((BAR_WIDTH * score) / biggest) : 0]);
    const at = winner === null ? -1 : top.findIndex(([a, b]) => a === winner[0] && b === winner[1]);
    return { rows, total, winner: at };
  };

  return {
    symbols: [...number.keys()],
    ids: null,
    words: visible.map((i) => initial[i][0].map((s) => number.get(s))),
    counts: visible.map((i) => counts[i]),
    distinct: initial.length,
    merges: steps.map((s) => [number.get(s.pair[0]), number.get(s.pair[1]), number.get(s.newSymbol), String(s.count)]),
    pairs: result.tables.map(pairTable),
    tokens: result.tokens,
    wordsTotal: counts.reduce((a, b) => a + b, 0),
    characters: initial.reduce((sum, [word, n]) => sum + characters(word) * n, 0),
    startVocab: new Set(initial.flatMap(([word]) => word)).size,
    bytes: null,
    hasMarker: initial.some(([word]) => word.includes(END_OF_WORD)),
    unit: unitName(initial),
    scoreName: "count",
    lowerWins: false,
    tieBreak: result.tieBreak,
  };
}
