// js-tiktoken's encoding of a long text in slices, the page answering between them (100 KB pasted).
//
// encoder.encode(100 KB) is one task of seconds: the page could not scroll, type or even repaint. tiktoken
// cuts a text with its regex and encodes each match alone, so a text cut between two matches encodes to
// the same ids, piece by piece, PROVIDED the cut does not change the matches around it. The patterns'
// only look-ahead is `\s+(?!\S)` (a whitespace run), and they look at nothing before a match; so we cut
// only after a match that ends with a character that is not whitespace: there the next match starts
// where it did in the whole text, and the last match of a slice cannot grow nor, ending in a letter or a
// sign, be taken by the look-ahead. Held equal to tiktoken on 100 KB in 16 languages, for every encoding
// the page runs, by tests/browser/test_explorer_links_and_long_text.py.

export const SLICES_FROM_CHARS = 5_000; // shorter texts encode in one go (a few ms): no flicker of progress
export const SLICE_MS = 25; // run this long, then let the page answer (a frame is 16 ms; 50 ms is a "long task")
const MATCHES_PER_CALL = 400; // each call compiles tiktoken's regex again: not too many calls
const ENDS_IN_SPACE = /\s$/u;

/** The text's slices: about `matchesPerSlice` regex matches each, cut only after a match not ending in whitespace. */
export function* slicesOf(text, pattern, matchesPerSlice = MATCHES_PER_CALL) {
  let start = 0;
  let count = 0;
  for (const match of text.matchAll(new RegExp(pattern, "gu"))) {
    count += 1;
    const end = match.index + match[0].length;
    if (count >= matchesPerSlice && !ENDS_IN_SPACE.test(match[0])) {
      yield text.slice(start, end);
      start = end;
      count = 0;
    }
  }
  if (start < text.length) yield text.slice(start);
}

const nextTurn = () => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * encodeOrdinary(encoder, text)'s {ids, pieces}, computed in slices of about SLICE_MS with a turn for the
 * page between them. `onProgress(done, total)` is told the characters done; `cancelled()` true stops it
 * (the reader typed on): then the result is null.
 */
export async function encodeOrdinaryInSlices(encoder, text, { cancelled = () => false, onProgress = () => {} } = {}) {
  const ids = [];
  const pieces = []; // js-tiktoken's own bytes of each token (read only): copying 45,000 of them was a long task
  let done = 0;
  let since = performance.now();
  for (const slice of slicesOf(text, encoder.patStr)) {
    for (const id of encoder.encode(slice, [], [])) {
      ids.push(id);
      pieces.push(encoder.textMap.get(id));
    }
    done += slice.length;
    if (performance.now() - since > SLICE_MS) {
      onProgress(done, text.length);
      await nextTurn();
      if (cancelled()) return null;
      since = performance.now();
    }
  }
  return { ids, pieces };
}
