// Token chips for a long text, drawn as they scroll into view (the explorer with 100 KB pasted).
//
// 30,000 chips are some 150,000 DOM nodes: drawing them at once froze the page for seconds, so the
// explorer used to stop at 3,000. Here the chips are cut into pages of about CHIPS_PER_PAGE; the first
// page is drawn at once, every other page is a placeholder of about its height, and an
// IntersectionObserver on the scrolling box draws a page when its placeholder comes near the view.
// Why this and not idle-time batches: batches would still build every node (memory, and a long text
// keeps the page busy for seconds after each keystroke); drawing what is seen costs the same for
// 1 KB and 1 MB. A page ends after a new-line chip where one is near, so a placeholder that turns
// into chips never breaks a line of text in two; colours run on across pages (the palette by the
// chip's place in the whole text), so a page boundary is invisible.

import { PALETTE, drawChips, makeChips } from "./chips.js";

export const CHIPS_PER_PAGE = 400;
const GROUP_MS = 25; // group chips this long, then let the page answer
const TOKENS_PER_RUN = 200;
const NEAR_VIEW = "800px 0px"; // draw a page a little before it is seen, so scrolling shows no gaps
const GUESS_PX_PER_CHIP = 3; // a placeholder's height before a page has been measured (a 700px box)

/**
 * Where each page of chips starts: pages of about `size` chips; a page ends just after a chip that
 * ends a line when one lies in its second half (so pages join without breaking a line).
 */
export function pageStarts(chips, size = CHIPS_PER_PAGE) {
  const starts = [0];
  let at = 0;
  while (at + size < chips.length) {
    let end = at + size;
    for (let k = at + size - 1; k >= at + size / 2; k--) {
      if (chips[k].text.endsWith("\n")) {
        end = k + 1;
        break;
      }
    }
    starts.push(end);
    at = end;
  }
  return starts;
}

/** The colours of chips `start` to `end`, continuing the palette of the whole text. */
export function pageColours(start, end) {
  return Array.from({ length: end - start }, (_, j) => PALETTE[(start + j) % PALETTE.length]);
}

function endsLine(piece, wordEnd) {
  if (typeof piece === "string") return piece.endsWith("\n") || (!!wordEnd && piece.endsWith(wordEnd));
  return piece[piece.length - 1] === 0x0a;
}

/**
 * makeChips(pieces, {wordEnd})'s chips, grouped in runs that end after a line feed (or a word's end):
 * makeChips never joins tokens across those, so the runs give the same chips, and the page answers
 * between runs. null when `cancelled()` turns true (the reader typed on).
 */
export async function makeChipsInSlices(pieces, { wordEnd = null, cancelled = () => false } = {}) {
  const chips = [];
  let start = 0;
  let since = performance.now();
  for (let i = 0; i < pieces.length; i++) {
    const last = i === pieces.length - 1;
    if (!last && (i + 1 - start < TOKENS_PER_RUN || !endsLine(pieces[i], wordEnd))) continue;
    for (const chip of makeChips(pieces.slice(start, i + 1), { wordEnd })) {
      chips.push({ tokens: chip.tokens.map((position) => position + start), text: chip.text });
    }
    start = i + 1;
    if (!last && performance.now() - since > GROUP_MS) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      if (cancelled()) return null;
      since = performance.now();
    }
  }
  return chips;
}

/**
 * Draw `pieces` as chips into `box` (the scrolling element), page by page as they come into view.
 * Options are drawChips's (ids, showIds, breakLines, wordEnd, chips). Returns a handle whose stop()
 * forgets the observer (call it before drawing other chips into the same box).
 */
export function drawChipsInView(box, pieces, options = {}) {
  const chips = options.chips ?? makeChips(pieces, { wordEnd: options.wordEnd ?? null });
  const starts = pageStarts(chips);
  const ends = [...starts.slice(1), chips.length];
  const drawPage = (p) => {
    const slice = chips.slice(starts[p], ends[p]);
    const list = drawChips(pieces, { ...options, chips: slice, colours: pageColours(starts[p], ends[p]), firstChip: starts[p] });
    list.dataset.bpePage = String(p);
    return list;
  };
  const first = drawPage(0);
  box.replaceChildren(first);
  if (starts.length === 1) return { pages: 1, stop() {} };
  if (typeof IntersectionObserver !== "function") {
    box.append(...starts.slice(1).map((_, k) => drawPage(k + 1))); // an old browser: everything, as before
    return { pages: starts.length, stop() {} };
  }
  const measured = first.getBoundingClientRect().height;
  const perChip = measured > 0 ? measured / ends[0] : GUESS_PX_PER_CHIP;
  const observer = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (!entry.isIntersecting) continue;
      observer.unobserve(entry.target);
      entry.target.replaceWith(drawPage(Number(entry.target.dataset.bpePage)));
    }
  }, { root: box, rootMargin: NEAR_VIEW });
  for (let p = 1; p < starts.length; p++) {
    const later = document.createElement("span");
    later.className = "bpe-chips-later";
    later.dataset.bpePage = String(p);
    later.setAttribute("aria-hidden", "true"); // nothing to read yet: the count line says how many tokens
    later.style.display = "block";
    later.style.height = `${Math.max(20, Math.round((ends[p] - starts[p]) * perChip))}px`;
    box.append(later);
    observer.observe(later);
  }
  return { pages: starts.length, stop: () => observer.disconnect() };
}
