// Classroom mode's type size: as large as the screen allows, with everything in view at every step.
//
// The page is the app (site/present.html, `make present`): its words, pair table and merge log must be read
// from the back of a room, and none may fall below the fold, at any browser zoom (125 %, 150 % zoom leave
// 1024×576 and 853×480 CSS pixels of a 1280×720 projector). So the size is measured, not guessed: for each
// layout (the pair table and the merge log beside the words or under them, the words in 1 to 3 columns as wide
// as the widest word row, so that a word's chips and its </w> never wrap apart), the largest font size that
// fits is found by bisection, drawn at the steps that need the most room (step 0, where words are widest, the
// last step, and the step whose symbols are longest); the layout that allows the largest size wins. Between
// fits (a new run, a new window size, the corpus shown or hidden), a step that would not fit shrinks the type.

import { symbolWriter } from "./stepper_text.js";

// Room is spent on type, not on space between things (issue 30: a class's twelve long words got 20.75 px, where
// rows 1.6em apart, the pair table's column names, its 120 px bars and "★ next" made long pairs and merge lines
// wrap): word rows 1.3em apart (a chip's dashed "next" underline takes no height of its own), no column names
// on screen (screen readers keep them), bars at most 2.5em, the winner marked ★ in bold, lines 1.2em apart
// beside the words, the merged pair at the text's size. A pair wraps at its " + ", never inside a symbol.
export const FIT_CSS = `
.bpe-stepper.bpe-fitted{--bpe-bar-max:2.5em}
.bpe-stepper.bpe-fitted .bpe-word-table{grid-template-columns:repeat(var(--bpe-word-cols,1),var(--bpe-word-col,12em))}
.bpe-stepper.bpe-fitted .bpe-word-row{padding:0}
.bpe-stepper.bpe-fitted .bpe-word-row td,.bpe-stepper.bpe-fitted .bpe-word-row .bpe-chips{line-height:1.15}
.bpe-stepper.bpe-fitted .bpe-word-row .bpe-chips{white-space:nowrap}
.bpe-stepper.bpe-fitted .bpe-chip{margin:.07em .02em;padding:0 .08em;line-height:1.15}
.bpe-stepper.bpe-fitted .bpe-chip-next{margin-bottom:calc(.07em - 3px)}
.bpe-stepper.bpe-fitted .bpe-pair,.bpe-stepper.bpe-fitted .bpe-next-pair{font-size:1em}
.bpe-stepper.bpe-fitted .bpe-pair-table td{white-space:normal;overflow-wrap:break-word;line-height:1.2;padding:0 .35em 0 0}
.bpe-stepper.bpe-fitted .bpe-pair-table td:last-child{white-space:nowrap}
.bpe-stepper.bpe-fitted .bpe-pair-table th{padding:0;line-height:0}
.bpe-stepper.bpe-fitted .bpe-pair-table .bpe-col-name{position:absolute;width:1px;height:1px;margin:-1px;overflow:hidden;
  clip:rect(0,0,0,0);white-space:nowrap}
.bpe-stepper.bpe-fitted .bpe-star-word{display:none}
.bpe-stepper.bpe-fitted .bpe-log div{line-height:1.2}
.bpe-stepper.bpe-fitted.bpe-side .bpe-columns{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:.2em 1em}
.bpe-stepper.bpe-fitted.bpe-side .bpe-left{width:auto}
.bpe-stepper.bpe-fitted.bpe-side .bpe-right{display:flex;flex-direction:column;flex-wrap:nowrap;gap:.3em}
.bpe-stepper.bpe-fitted.bpe-side .bpe-right>*{flex:none}
.bpe-stepper.bpe-fitted:not(.bpe-side) .bpe-right{display:grid;grid-template-columns:minmax(0,1.2fr) minmax(0,1fr);gap:.2em 1.5em}
`;

export const SMALLEST_PX = 10;
export const LARGEST_PX = 64;
const PRECISION_PX = 0.25;

/** The layouts tried: pairs and log beside the words (side) or under them, the words in `columns` columns. */
export function layouts(rows) {
  const out = [];
  for (const side of [true, false]) for (let columns = 1; columns <= Math.min(3, Math.max(1, rows)); columns++) out.push({ side, columns });
  return out;
}

/** The steps to measure a run at: 0 (the widest words), the last, and the step whose shown text is longest
 *  (its merged pair, the next one, its widest pair-table row and merge-log line). */
export function probeSteps(trace, logRows) {
  const n = trace.merges.length;
  const w = symbolWriter(trace);
  const pairLength = (a, b) => w.text(a).length + w.text(b).length;
  const mergeLength = (k) => (k >= 1 && k <= n ? pairLength(trace.merges[k - 1][0], trace.merges[k - 1][1]) + w.text(trace.merges[k - 1][2]).length : 0);
  let best = 0;
  let longest = -1;
  for (let step = 0; step <= n; step++) {
    let length = mergeLength(step) + (step < n ? pairLength(trace.merges[step][0], trace.merges[step][1]) : 0);
    const table = trace.pairs[step];
    if (table) length += Math.max(0, ...table.rows.map(([a, b]) => pairLength(a, b)));
    let log = 0;
    for (let k = Math.max(1, step - logRows + 1); k <= step; k++) log = Math.max(log, mergeLength(k));
    length += log;
    if (length > longest) [best, longest] = [step, length];
  }
  return [...new Set([0, n, best])];
}

/** The largest size in [low, high] for which `fits(size)` holds (it is assumed to hold for smaller sizes);
 *  `low` when none does. */
export function largestFitting(fits, low = SMALLEST_PX, high = LARGEST_PX) {
  if (!fits(low)) return low;
  if (fits(high)) return high;
  while (high - low > PRECISION_PX) {
    const middle = (low + high) / 2;
    if (fits(middle)) low = middle;
    else high = middle;
  }
  return Math.floor(low * 4) / 4;
}

/** Fit `app` (the classroom's root, whose font size everything inherits) to the window. `stepper` is what
 *  renderStepper returned (preview(step) draws a step without moving to it); `resized()` is called after each
 *  change of size (the text box grows or shrinks with its text). */
export function makeFitter(app, stepper, { logRows, resized = () => {} }) {
  const box = () => app.querySelector(".bpe-stepper");
  const overflows = () => {
    const room = app.getBoundingClientRect();
    if (room.bottom + window.scrollY > window.innerHeight - 2) return true;
    if (app.scrollWidth > app.clientWidth + 1 || document.documentElement.scrollWidth > document.documentElement.clientWidth + 1) return true;
    for (const row of app.querySelectorAll(".bpe-word-row")) {
      const cell = row.lastElementChild;
      if (cell && cell.scrollWidth > cell.clientWidth + 1) return true; // a word wider than its column
    }
    return false;
  };
  const setSize = (px) => {
    app.style.fontSize = `${px}px`;
    resized();
  };
  const setLayout = ({ side, columns }) => {
    box()?.classList.toggle("bpe-side", side);
    box()?.style.setProperty("--bpe-word-cols", String(columns));
  };

  /** Choose the layout and size anew (a new run, a new window, the corpus shown or hidden). */
  function fit() {
    const stepperBox = box();
    if (!stepperBox) return;
    if (window.innerWidth <= 640) {
      // a phone: the page scrolls, and the projector's own CSS wraps the words
      stepperBox.classList.remove("bpe-fitted", "bpe-side");
      app.style.fontSize = "";
      resized();
      return;
    }
    stepperBox.classList.add("bpe-fitted");
    const trace = stepper.trace();
    const steps = probeSteps(trace, logRows);
    const rows = trace.words.length;
    let best = null;
    for (const layout of layouts(rows)) {
      setLayout(layout);
      const fits = (px) => {
        setSize(px);
        return steps.every((step) => {
          stepper.preview(step);
          return !overflows();
        });
      };
      if (best && !fits(best.px + PRECISION_PX)) continue; // cannot beat the best so far
      const px = largestFitting(fits, best ? best.px : SMALLEST_PX);
      if (!best || px > best.px) best = { layout, px };
    }
    setLayout(best.layout);
    setSize(best.px);
    stepper.preview();
  }

  /** After a step: shrink if this step does not fit (the probes missed it); never grow between fits. */
  function keepInView() {
    if (!box()?.classList.contains("bpe-fitted")) return;
    let px = parseFloat(app.style.fontSize) || SMALLEST_PX;
    while (overflows() && px > SMALLEST_PX) {
      px = Math.max(SMALLEST_PX, px - 0.5);
      setSize(px);
    }
  }

  return { fit, keepInView };
}
