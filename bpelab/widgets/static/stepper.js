// The merge stepper, drawn in the browser from a training trace (bpelab/widgets/trace.py).
//
// Python computes the trace once; every step is drawn here, so stepping never waits for a kernel
// and a static page (the course's site, opened as file://) steps through all merges. The only thing
// sent back to Python is the step shown (`current_step`), so that `stepper.step` reads it.
// This file is the widget: the model, the buttons, the keys, Play and the training form; what one
// step looks like is stepper_view.js, how it is written stepper_text.js.
// The same module draws the classroom page (site/present.html, `make present`): with
// `trainForm` set (or on a static page, where no Python answers), a form trains typed text here,
// with bpe.js, and the stepper shows that run.

import { CHIP_CSS, ensureCss } from "./chips.js";
import { trainBpeInSlices } from "./bpe_train.js";
import { traceOf } from "./trace.js";
import { announcement } from "./stepper_text.js";
import { STEPPER_CSS, drawView, legendNode, replay, skeleton } from "./stepper_view.js";
import { el, isStatic } from "./view_basics.js";

const PLAY_INTERVAL_MS = 800;
const MOST_MERGES = 500;

// Which stepper the page's keys go to. A page can hold several steppers, each drawn by its OWN copy of
// this module (anywidget loads each widget's module separately), so a module-level variable would not
// be shared: the stepper in use is marked in the DOM, where every copy sees it. A stepper is in use once
// the learner clicks or focuses anything inside it; a click anywhere else gives the page its keys back
// (PageDown, Home, arrows and Space scroll again), and a fresh page has no stepper in use. Only the
// classroom page (pageKeys) takes keys before any click: there the stepper is the whole page.
const IN_USE = "data-bpe-keys";

function useKeys(box) {
  for (const other of document.querySelectorAll(`.bpe-stepper[${IN_USE}]`)) if (other !== box) other.removeAttribute(IN_USE);
  box.setAttribute(IN_USE, "");
}

function inUse(box, pageKeys) {
  if (box.hasAttribute(IN_USE)) return true;
  return pageKeys && !document.querySelector(`.bpe-stepper[${IN_USE}]`) && document.querySelector(".bpe-stepper") === box;
}

// the training form's own layout: the text box takes the form's whole width (a textarea inside a
// shrink-to-fit label otherwise stays about 185 px wide)
const FORM_CSS = `
.bpe-stepper .bpe-train-form .bpe-train-text{flex:1 1 100%;min-width:0}
.bpe-stepper .bpe-train-form .bpe-train-text textarea{width:100%;box-sizing:border-box}
`;

function button(label, css, tip, arrowsBefore, arrowsAfter) {
  const b = el("button", { type: "button", class: css, title: tip });
  if (arrowsBefore) b.append(el("span", { "aria-hidden": "true", text: arrowsBefore + " " }));
  b.append(label);
  if (arrowsAfter) b.append(el("span", { "aria-hidden": "true", text: " " + arrowsAfter }));
  return b;
}

// ---- the widget ----

/** anywidget's entry point: draw the stepper into `el` and keep it in step with the model.
 *  `ownForm: false`: the caller draws the training form (classroom.js, around the stepper); it is then
 *  the page's one stepper and takes the page's keys from the start (`pageKeys`). */
export function renderStepper({ model, el: root }, { ownForm = true, pageKeys = !ownForm } = {}) {
  ensureCss(root, CHIP_CSS);
  ensureCss(root, STEPPER_CSS, "bpe-stepper-css");
  ensureCss(root, FORM_CSS, "bpe-stepper-form-css");
  const box = el("div", { class: "bpe-stepper" });
  root.append(box);
  let trace = model.get("trace");
  let states = replay(trace);
  let rows = new Map(); // drawn word rows, by word and marks (see drawView)
  let step = Math.min(model.get("current_step") ?? 0, trace.merges.length);
  let timer = null;

  const first = button("First", "bpe-first", "back to step 0, before any merge", "◀◀");
  const back = button("Back", "bpe-back", "undo one merge", "◀");
  const next = button("Next", "bpe-next", "make the next merge", null, "▶");
  const last = button("Last", "bpe-last", "jump to the last merge", null, "▶▶");
  const play = el("button", { type: "button", class: "bpe-play", title: "play the merges one by one", "aria-pressed": "false", text: "Play" });
  const input = el("input", { type: "number", min: "0", step: "1" });
  const stepBox = el("label", { class: "bpe-step-box" }, "step ", input);
  const controls = el("div", { class: "bpe-controls" }, first, back, next, last, play, stepBox);
  const live = el("div", { role: "status", "aria-live": "polite", "aria-atomic": "true", class: "bpe-sr-only" });
  const announce = el("div", { class: "bpe-announce" }, live);
  const page = skeleton();
  const views = el("div", { class: "bpe-views" }, page.root);
  const legend = el("div", { class: "bpe-legend-box" });
  const form = ownForm ? trainForm() : null;
  if (form && model.get("train_form")) box.append(form);
  box.append(controls, announce, views, legend);
  if (form && !model.get("train_form")) box.append(form);

  function draw() {
    const n = trace.merges.length;
    input.max = String(n);
    input.value = String(step);
    input.setAttribute("aria-label", `step, 0 to ${n}`);
    first.disabled = back.disabled = step === 0;
    next.disabled = last.disabled = step === n;
    play.disabled = n === 0;
    const projector = !!model.get("projector");
    box.classList.toggle("bpe-projector", projector);
    drawView(trace, states, step, model.get("log_rows") ?? 12, projector, rows, page);
    legend.replaceChildren(...(projector ? [] : [legendNode(trace)])); // a projector has it beside the stats
    live.textContent = announcement(trace, step);
  }

  function go(target, { fromModel = false } = {}) {
    const n = trace.merges.length;
    target = Math.max(0, Math.min(n, Math.trunc(target)));
    if (Number.isNaN(target) || target === step) return;
    step = target;
    draw();
    if (!fromModel) {
      model.set("current_step", step);
      model.save_changes();
    }
  }

  function stopPlaying() {
    if (timer !== null) clearInterval(timer);
    timer = null;
    play.textContent = "Play";
    play.setAttribute("aria-pressed", "false");
  }

  function togglePlay() {
    if (timer !== null) return stopPlaying();
    if (step === trace.merges.length) go(0);
    play.textContent = "Pause";
    play.setAttribute("aria-pressed", "true");
    timer = setInterval(() => {
      go(step + 1);
      if (step === trace.merges.length) stopPlaying();
    }, PLAY_INTERVAL_MS);
  }

  const moves = { first: () => go(0), back: () => go(step - 1), next: () => go(step + 1), last: () => go(trace.merges.length) };
  first.addEventListener("click", moves.first);
  back.addEventListener("click", moves.back);
  next.addEventListener("click", moves.next);
  last.addEventListener("click", moves.last);
  play.addEventListener("click", togglePlay);
  input.addEventListener("change", () => go(Number(input.value)));
  input.addEventListener("input", () => input.value !== "" && go(Number(input.value))); // ↑ / ↓ in the box
  box.addEventListener("pointerdown", () => useKeys(box));
  box.addEventListener("focusin", () => useKeys(box));
  box.addEventListener("keydown", (event) => {
    if (event.target.closest("input, textarea, select")) return; // typing keeps its keys
    if (onKey(event, moves)) event.stopPropagation();
  });
  // keys pressed with no control focused go to the stepper in use, if any: focus on the page itself
  // (after a click on a button that then went disabled) or on a box around the stepper (a click on its
  // words or step label focuses the output area around it, which the widget manager makes focusable).
  // Keys on anything else (a notebook cell, another widget, a text box) are never taken.
  const onPageKey = (event) => {
    if (event.defaultPrevented) return; // the classroom page's own keys already moved it
    const target = event.target;
    const around = target === document.body || target === document.documentElement || (target.contains?.(box) && !target.isContentEditable);
    if (around && inUse(box, pageKeys)) onKey(event, moves);
  };
  const onPagePointer = (event) => {
    if (!event.target.closest?.(".bpe-stepper")) box.removeAttribute(IN_USE); // clicked elsewhere: keys back to the page
  };
  document.addEventListener("pointerdown", onPagePointer, true);
  document.addEventListener("keydown", onPageKey);

  const onModel = () => {
    trace = model.get("trace");
    states = replay(trace);
    rows = new Map();
    step = -1;
    go(model.get("current_step") ?? 0, { fromModel: true });
  };
  const onStep = () => go(model.get("current_step"), { fromModel: true });
  model.on("change:trace", onModel);
  model.on("change:current_step", onStep);
  draw();

  function trainForm() {
    if (!(model.get("train_form") || (isStatic() && !trace.ids && trace.scoreName === "count"))) return null;
    const text = el("textarea", { rows: "3", "aria-label": "text to train on" });
    text.value = model.get("train_text") ?? "";
    text.placeholder = "Type or paste a text: words are cut at spaces, as in lessons 02–04";
    const merges = el("input", { type: "number", min: "1", max: String(MOST_MERGES), value: String(model.get("train_merges") ?? 20) });
    const tie = el("select", {}, el("option", { value: "first", text: "first seen" }), el("option", { value: "lexicographic", text: "smallest pair" }));
    tie.value = trace.tieBreak === "lexicographic" ? "lexicographic" : "first";
    // lesson 04 cuts its real text with lesson 02's regex first; offered here, on by default where the run did
    const split = el("input", { type: "checkbox", class: "bpe-split-punctuation" });
    split.checked = trace.unit.startsWith("pieces (");
    const train = el("button", { type: "button", class: "bpe-train", text: "Train" });
    const message = el("div", { class: "bpe-message", role: "status", "aria-live": "polite" });
    train.addEventListener("click", async () => {
      const problem = formProblem(text.value, merges.value, model.get("max_characters") ?? 50000);
      if (problem) {
        message.textContent = problem;
        return;
      }
      const n = Number(merges.value);
      stopPlaying();
      train.disabled = true;
      message.textContent = `Training in this page: 0 of ${n} merges…`;
      let result;
      try {
        // in slices, so the page stays responsive and the line above counts the merges as they come
        result = await trainBpeInSlices(text.value, n, { tieBreak: tie.value, splitPunctuation: split.checked, topPairs: model.get("top_pairs") ?? 10 }, {
          onProgress: (made) => (message.textContent = `Training in this page: ${made} of ${n} merges…`),
        });
      } finally {
        train.disabled = false;
      }
      trace = traceOf(result, { topWords: model.get("top_words") ?? 40, topPairs: model.get("top_pairs") ?? 10 });
      states = replay(trace);
      rows = new Map();
      step = 0;
      draw();
      message.textContent = trainedMessage(result, trace.wordsTotal);
    });
    const fields = el("div", { class: "bpe-train-form", role: "group", "aria-label": "train on your own text" },
      el("label", { class: "bpe-train-text" }, "Your text", el("br"), text), el("label", {}, "merges ", merges), el("label", {}, "ties ", tie),
      el("label", {}, split, " cut off punctuation first"), train, message);
    if (model.get("train_form")) return fields; // the classroom page: the form is the point
    // a lesson's page: offered, folded, under each stepper of word-level training
    return el("details", { class: "bpe-train-details" }, el("summary", { text: "Train on your own text, in this page" }), fields);
  }

  return () => {
    stopPlaying();
    document.removeEventListener("keydown", onPageKey);
    document.removeEventListener("pointerdown", onPagePointer, true);
    model.off("change:trace", onModel);
    model.off("change:current_step", onStep);
  };
}

function codePoints(text) {
  let n = 0;
  for (const _ of text) n += 1;
  return n;
}

/** What is wrong with the form's input, in words that say what to do; null when it can train. */
export function formProblem(text, mergesTyped, most) {
  const typed = String(mergesTyped).trim();
  const n = Number(typed);
  if (typed === "") return `Type how many merges to learn, from 1 to ${MOST_MERGES}.`;
  if (!Number.isInteger(n) || n < 1 || n > MOST_MERGES) return `Merges must be a whole number from 1 to ${MOST_MERGES}, not ${typed}.`;
  if (!text.trim()) return "Type some text first: training needs words.";
  const characters = codePoints(text); // as Python's len(): an emoji is one character, not two UTF-16 units
  if (characters > most) return `This text has ${characters} characters; this page trains at most ${most}. Paste a shorter part.`;
  return null;
}

/** The line under the form once a run is ready: what was learned, and how to step through it (at least
 *  one merge: formProblem asks for 1 or more, and every word has a pair, its last letter and </w>). */
export function trainedMessage(result, words) {
  const learned = result.merges.length;
  const head = `Trained in this page on ${words} word${words === 1 ? "" : "s"}: ${learned} merge${learned === 1 ? "" : "s"}`;
  return head + (result.stoppedEarly ? ` (stopped early: no pair left after ${learned})` : "") + ". Press Next or →.";
}

export function onKey(event, moves) {
  // PageDown / PageUp: what a presenter's clicker sends
  const which = { ArrowRight: "next", ArrowLeft: "back", PageDown: "next", PageUp: "back", Home: "first", End: "last" }[event.key];
  if (!which || event.altKey || event.ctrlKey || event.metaKey) return false;
  event.preventDefault();
  moves[which]();
  return true;
}

export default { render: renderStepper };
