// Word-level BPE training in the browser, incremental, so that a page trains 50,000 characters and 500
// merges in a blink and without holding the corpus once per step.
//
// The same merges as Python's train_bpe (bpelab/words.py), held to it by tests/test_js_training.py; the
// same three ideas as Python's fast trainer (bpelab/fast.py, whose docstring explains why they are exact):
//   1. each distinct word once, with its count;
//   2. an index from each pair to the words that contain it: a merge visits only those words;
//   3. a max-heap of (count, tie key, pair) with lazy re-validation: a popped entry whose count or tie
//      key is out of date goes back in with the live values; only an up-to-date top entry wins.
// Ties: "first" goes to the pair whose first place in the current corpus comes first (lowest word
// index, then leftmost place, measured in starting characters so a merge elsewhere does not move it);
// "lexicographic" to the smallest pair, compared by code point as Python compares str.
//
// What the stepper needs of each step is kept, and nothing more: the merge, its count, the top rows of
// the pair table before it (in the order the trace shows them, which is the heap's own order: the
// merge is the table's first row) and the token total. Training runs in
// slices (`advance`), so a page can yield to the browser between them and show progress.

import { TIE_BREAKS, compareCodePoints, getWordFrequencies, replacePair, splitPieces } from "./bpe.js";

export const TABLE_ROWS = 10; // pair-table rows kept per step unless asked for more (the trace shows 10)
const SHIFT = 2 ** 21; // a pair of symbol ids as one number: left * SHIFT + right (ids stay below 2^21)

/** A binary heap ordered by `before(a, b)` (true when a comes out first). */
class Heap {
  constructor(items, before) {
    this.items = items;
    this.before = before;
    for (let i = (items.length >> 1) - 1; i >= 0; i--) this.down(i);
  }
  get size() {
    return this.items.length;
  }
  push(item) {
    const a = this.items;
    a.push(item);
    let i = a.length - 1;
    while (i > 0) {
      const up = (i - 1) >> 1;
      if (!this.before(a[i], a[up])) break;
      [a[i], a[up]] = [a[up], a[i]];
      i = up;
    }
  }
  pop() {
    const a = this.items;
    const top = a[0];
    const end = a.pop();
    if (a.length > 0) {
      a[0] = end;
      this.down(0);
    }
    return top;
  }
  down(i) {
    const a = this.items;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let best = i;
      if (l < a.length && this.before(a[l], a[best])) best = l;
      if (r < a.length && this.before(a[r], a[best])) best = r;
      if (best === i) return;
      [a[i], a[best]] = [a[best], a[i]];
      i = best;
    }
  }
}

/** One training run, advanced a slice at a time; `result()` once `done`. */
export class BpeTraining {
  constructor(text, numMerges, { tieBreak = "first", splitPunctuation = false, topPairs = TABLE_ROWS, minCount = 1 } = {}) {
    if (typeof text !== "string") throw new TypeError("text must be a string");
    if (!Number.isInteger(numMerges) || numMerges < 0) throw new RangeError(`num_merges must be 0 or more, got ${numMerges}`);
    if (!TIE_BREAKS.includes(tieBreak)) throw new RangeError(`tie_break must be one of first, lexicographic, got ${tieBreak}`);
    if (!Number.isInteger(topPairs) || topPairs < 1) throw new RangeError(`topPairs must be 1 or more, got ${topPairs}`);
    if (!Number.isInteger(minCount) || minCount < 1) throw new RangeError(`minCount must be 1 or more, got ${minCount}`);
    // lesson 04's real text: train_bpe(" ".join(split_text(text, r"\w+|[^\w\s]+")), n)
    if (splitPunctuation) text = splitPieces(text).join(" ");
    this.numMerges = numMerges;
    this.tieBreak = tieBreak;
    this.topPairs = topPairs;
    this.minCount = minCount; // stop once the best pair occurs fewer times (Python: learn_merges' min_count)
    this.initial = getWordFrequencies(text);
    this.names = []; // symbol id -> its text
    this.ids = new Map(); // its text -> id (two merges that spell the same text make one symbol, as in Python)
    this.sizes = []; // how many starting symbols each symbol spans
    this.words = this.initial.map(([word]) => word.map((s) => this.intern(s, 1)));
    this.freqs = this.initial.map(([, n]) => n);
    this.counts = new Map(); // pair -> live count, weighted by word counts (gone at 0)
    this.where = new Map(); // pair -> indices of the words that contain it (and maybe a few that no longer do)
    this.tokens = 0;
    const entries = [];
    this.words.forEach((word, w) => {
      this.tokens += word.length * this.freqs[w];
      for (let i = 0; i + 1 < word.length; i++) {
        const pair = word[i] * SHIFT + word[i + 1];
        const count = this.counts.get(pair);
        if (count === undefined) {
          this.counts.set(pair, this.freqs[w]);
          this.where.set(pair, new Set([w]));
          entries.push({ count: 0, w, offset: i, pair });
        } else {
          this.counts.set(pair, count + this.freqs[w]);
          this.where.get(pair).add(w);
        }
      }
    });
    for (const entry of entries) entry.count = this.counts.get(entry.pair);
    const lexicographic = tieBreak === "lexicographic";
    this.heap = new Heap(entries, (a, b) => a.count > b.count || (a.count === b.count && (lexicographic ? this.comparePairs(a.pair, b.pair) < 0 : a.w < b.w || (a.w === b.w && a.offset < b.offset))));
    this.steps = [];
    this.tables = [];
    this.tokenTotals = [];
    this.done = false;
  }

  intern(name, size) {
    let id = this.ids.get(name);
    if (id === undefined) {
      id = this.names.length;
      this.ids.set(name, id);
      this.names.push(name);
      this.sizes.push(size);
    } else if (size !== undefined) this.sizes[id] = size;
    return id;
  }

  comparePairs(p, q) {
    const n = this.names;
    return compareCodePoints(n[Math.floor(p / SHIFT)], n[Math.floor(q / SHIFT)]) || compareCodePoints(n[p % SHIFT], n[q % SHIFT]);
  }

  /** Where a pair first occurs in the current corpus: [word index, place in starting symbols]. */
  firstPlace(pair) {
    const left = Math.floor(pair / SHIFT);
    const right = pair % SHIFT;
    const candidates = this.where.get(pair);
    for (;;) {
      let w = Infinity;
      for (const c of candidates) if (c < w) w = c;
      const word = this.words[w];
      let offset = 0;
      for (let i = 0; i + 1 < word.length; i++) {
        if (word[i] === left && word[i + 1] === right) return [w, offset];
        offset += this.sizes[word[i]];
      }
      candidates.delete(w); // an earlier merge took the pair out of this word
    }
  }

  add(pair, amount) {
    const count = (this.counts.get(pair) ?? 0) + amount;
    if (count === 0) this.counts.delete(pair);
    else this.counts.set(pair, count);
  }

  /** Merge `pair` in the words that contain it; update counts, index, heap and the token total. */
  merge(pair, merged) {
    const left = Math.floor(pair / SHIFT);
    const right = pair % SHIFT;
    const gained = new Set();
    for (const w of this.where.get(pair)) {
      const old = this.words[w];
      const word = replacePair(old, left, right, merged);
      if (word.length === old.length) continue; // an earlier merge already took the pair out of it
      this.words[w] = word;
      const freq = this.freqs[w];
      this.tokens -= (old.length - word.length) * freq;
      for (let i = 0; i + 1 < old.length; i++) this.add(old[i] * SHIFT + old[i + 1], -freq); // its pairs go out ...
      for (let i = 0; i + 1 < word.length; i++) {
        const p = word[i] * SHIFT + word[i + 1]; // ... and come back in
        this.add(p, freq);
        if (word[i] === merged || word[i + 1] === merged) {
          gained.add(p); // only pairs with the new symbol can be new to this word
          if (!this.where.has(p)) this.where.set(p, new Set());
          this.where.get(p).add(w);
        }
      }
    }
    this.where.delete(pair);
    for (const p of gained) {
      const count = this.counts.get(p);
      if (count === undefined) continue;
      const [w, offset] = this.tieBreak === "first" ? this.firstPlace(p) : [0, 0];
      this.heap.push({ count, w, offset, pair: p });
    }
  }

  /** The pair table now, best first: the top rows [left, right, count] in the order training ranks them
   *  (count, then the tie rule), and how many pairs there are. The heap already holds that order: pop
   *  until `topPairs` up-to-date entries are found (a stale one goes back in with its live values, a
   *  second entry of a pair already taken is dropped), then push those back. Row 0 is the next merge. */
  table() {
    const { heap, counts } = this;
    const taken = [];
    const seen = new Set();
    while (taken.length < this.topPairs && heap.size > 0) {
      const entry = heap.pop();
      const count = counts.get(entry.pair);
      if (count === undefined || seen.has(entry.pair)) continue; // gone, or already in the table
      if (count !== entry.count) {
        heap.push({ ...entry, count }); // stale count: back in with the live one
        continue;
      }
      if (this.tieBreak === "first") {
        const [w, offset] = this.firstPlace(entry.pair);
        if (w !== entry.w || offset !== entry.offset) {
          heap.push({ count, w, offset, pair: entry.pair }); // its first place was merged away
          continue;
        }
      }
      seen.add(entry.pair);
      taken.push(entry);
    }
    for (const entry of taken) heap.push(entry);
    const rows = taken.map(({ pair, count }) => [this.names[Math.floor(pair / SHIFT)], this.names[pair % SHIFT], count]);
    return { rows, total: counts.size, best: taken.length > 0 ? [taken[0].pair, taken[0].count] : null };
  }

  /** Up to `most` more merges; returns how many were made. */
  advance(most = Infinity) {
    let made = 0;
    while (!this.done && made < most) {
      const { rows, total, best } = this.table();
      this.tables.push({ rows, total });
      this.tokenTotals.push(this.tokens);
      const found = this.steps.length < this.numMerges && best !== null && best[1] >= this.minCount ? best : null;
      if (found === null) {
        this.done = true;
        break;
      }
      const [pair, count] = found;
      const left = this.names[Math.floor(pair / SHIFT)];
      const right = this.names[pair % SHIFT];
      const merged = this.intern(left + right, this.sizes[Math.floor(pair / SHIFT)] + this.sizes[pair % SHIFT]);
      this.merge(pair, merged);
      this.steps.push({ number: this.steps.length + 1, pair: [left, right], count, newSymbol: this.names[merged] });
      made += 1;
    }
    return made;
  }

  /** What the run learned: merges, steps, and per step (0 to the last) its pair table and token total. */
  result() {
    if (!this.done) throw new Error("training is not finished: call advance() until done");
    return {
      merges: this.steps.map((s) => [s.pair[0], s.pair[1], s.newSymbol]),
      steps: this.steps,
      tables: this.tables,
      tokens: this.tokenTotals,
      topPairs: this.topPairs,
      initial: this.initial,
      tieBreak: this.tieBreak,
      minCount: this.minCount,
      stoppedEarly: this.steps.length < this.numMerges,
    };
  }
}

/**
 * train_bpe(text, numMerges, {tieBreak, splitPunctuation, minCount}) at once: {merges: [[left, right, merged]],
 * steps: [{number, pair, count, newSymbol}], tables, tokens, initial, tieBreak, minCount, stoppedEarly}.
 * With `splitPunctuation`, the text is first cut with lesson 02's regex, as lesson 04 does; with `minCount: 2`,
 * training stops when no pair occurs twice (Python: bpelab.widgets.form_training.train_for_form).
 */
export function trainBpe(text, numMerges, options = {}) {
  const run = new BpeTraining(text, numMerges, options);
  run.advance();
  return run.result();
}

/** The same, in slices of about `sliceMs`, yielding to the browser between them (the page stays
 *  responsive); `onProgress(merges made, merges asked)` after each slice. Resolves to the result. */
export async function trainBpeInSlices(text, numMerges, options = {}, { onProgress = () => {}, sliceMs = 40 } = {}) {
  const run = new BpeTraining(text, numMerges, options);
  while (!run.done) {
    const start = performance.now();
    do run.advance(5);
    while (!run.done && performance.now() - start < sliceMs);
    onProgress(run.steps.length, numMerges);
    if (!run.done) await new Promise((resolve) => setTimeout(resolve, 0));
  }
  return run.result();
}

