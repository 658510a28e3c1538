// A training run as the data the stepper draws, built from the browser's own training (bpe.js).
//
// The same shape, and the same numbers, as bpelab/widgets/trace.py builds from train_bpe in Python:
// tests/test_js_training.py compares the two on generated texts. Only word-level training happens
// in the browser, so there are no byte ids and the score is always a count.

import { END_OF_WORD, WORD_CLASS, compareCodePoints, countPairs } from "./bpe.js";

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

/** The trace of trainBpe(...)'s result; `topWords` words and `topPairs` pair rows per step, as in Python. */
export function traceOf(result, { topWords = 40, topPairs = 10 } = {}) {
  const { steps, initial } = result;
  const corpora = [initial, ...steps.map((s) => s.corpus)];
  const number = new Map();
  for (const [word] of initial) for (const s of word) if (!number.has(s)) number.set(s, number.size);
  for (const s of steps) if (!number.has(s.newSymbol)) number.set(s.newSymbol, number.size);
  const counts = initial.map(([, n]) => n);
  const visible = counts
    .map((n, i) => i)
    .sort((i, j) => counts[j] - counts[i] || i - j)
    .slice(0, topWords);
  const lexicographic = result.tieBreak === "lexicographic";
  const order = (x, y) =>
    y.pair[2] - x.pair[2] ||
    (lexicographic ? compareCodePoints(x.pair[0], y.pair[0]) || compareCodePoints(x.pair[1], y.pair[1]) : x.index - y.index);

  const pairTable = (step) => {
    const scores = step < steps.length ? steps[step].pairCounts : countPairs(corpora[step]);
    const winner = step < steps.length ? steps[step].pair : null;
    const top = scores
      .map((pair, index) => ({ pair, index }))
      .sort(order)
      .slice(0, topPairs);
    const biggest = top.reduce((m, t) => Math.max(m, t.pair[2]), 0);
    const rows = top.map(({ pair: [a, b, score] }) => [number.get(a), number.get(b), String(score), biggest ? Math.trunc((BAR_WIDTH * score) / biggest) : 0]);
    const at = winner === null ? -1 : top.findIndex(({ pair }) => pair[0] === winner[0] && pair[1] === winner[1]);
    return { rows, total: scores.length, winner: at };
  };

  return {
    symbols: [...number.keys()],
    ids: null,
    words: visible.map((i) => initial[i][0].map((s) => number.get(s))),
    counts: visible.map((i) => counts[i]),
    distinct: initial.length,
    merges: steps.map((s) => [number.get(s.pair[0]), number.get(s.pair[1]), number.get(s.newSymbol), String(s.count)]),
    pairs: corpora.map((_, step) => pairTable(step)),
    tokens: corpora.map((corpus) => corpus.reduce((sum, [word, n]) => sum + word.length * n, 0)),
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
