// The merge stepper, drawn in the browser from a training trace (bpelab/widgets/trace.py).
//
// Python computes the trace once; every step is drawn here, so stepping never waits for a kernel
// and a static page (the course's site, opened as file://) steps through all merges. The only thing
// sent back to Python is the step shown (`current_step`), so that `stepper.step` reads it.
// This file is the widget: the model, the buttons, the keys and Play; what one step looks like is
// stepper_view.js, how it is written stepper_text.js, the "train on your own text" form train_form.js
// (Python trains where a kernel answers, the page where none does).
// The same keys everywhere (lesson pages, JupyterLab, Voilà, classroom mode): → or N next, ← or B back,
// Home, End (PageDown / PageUp: a presenter's clicker). A key the stepper takes never reaches the page
// around it: in JupyterLab, B on a focused stepper must not insert a cell below.

import { CHIP_CSS, ensureCss } from "./chips.js";
import { announcement } from "./stepper_text.js";
import { STEPPER_CSS, drawView, legendNode, replay, skeleton } from "./stepper_view.js";
import { trainForm } from "./train_form.js";
import { el } from "./view_basics.js";

/** Play's speeds: seconds between two merges (the select's choices; 0.8 s unless the teacher picks another). */
export const PLAY_SECONDS = [3, 2, 1.5, 0.8, 0.5, 0.25];
const PLAY_DEFAULT = 0.8;

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
  const box = el("div", { class: "bpe-stepper", tabindex: "-1" }); // focusable by a click, not by Tab
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
  const speed = el("select", {}, ...PLAY_SECONDS.map((s) => el("option", { value: String(s), text: `${s} s` })));
  speed.value = String(PLAY_DEFAULT);
  const speedBox = el("label", { class: "bpe-speed", title: "how long Play shows each merge" }, "one merge every ", speed);
  const controls = el("div", { class: "bpe-controls" }, first, back, next, last, play, speedBox, stepBox);
  const live = el("div", { role: "status", "aria-live": "polite", "aria-atomic": "true", class: "bpe-sr-only" });
  const announce = el("div", { class: "bpe-announce" }, live);
  const page = skeleton();
  const views = el("div", { class: "bpe-views" }, page.root);
  const legend = el("div", { class: "bpe-legend-box" });
  const { node: form, cleanup: stopForm } = ownForm ? trainForm(model, trace, { show: showRun, stop: () => stopPlaying() })
    : { node: null, cleanup: () => {} };
  if (form && model.get("train_form")) box.append(form);
  box.append(controls, announce, views, legend);
  if (form && !model.get("train_form")) box.append(form);

  function draw(at = step) {
    const n = trace.merges.length;
    input.max = String(n);
    input.value = String(step);
    input.setAttribute("aria-label", `step, 0 to ${n}`);
    first.disabled = back.disabled = step === 0;
    next.disabled = last.disabled = step === n;
    play.disabled = n === 0;
    const projector = !!model.get("projector");
    box.classList.toggle("bpe-projector", projector);
    drawView(trace, states, at, model.get("log_rows") ?? 12, projector, rows, page);
    legend.replaceChildren(...(projector ? [] : [legendNode(trace)])); // a projector has it beside the stats
    if (at === step) live.textContent = announcement(trace, step);
  }

  /** A run trained in this page (the form), shown from step 0; the model keeps Python's. */
  function showRun(made) {
    trace = made;
    states = replay(trace);
    rows = new Map();
    step = 0;
    draw();
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

  function startTimer() {
    clearInterval(timer);
    timer = setInterval(() => {
      go(step + 1);
      if (step === trace.merges.length) stopPlaying();
    }, Number(speed.value) * 1000);
  }

  function togglePlay() {
    if (timer !== null) return stopPlaying();
    if (step === trace.merges.length) go(0);
    play.textContent = "Pause";
    play.setAttribute("aria-pressed", "true");
    startTimer();
  }

  const moves = { first: () => go(0), back: () => go(step - 1), next: () => go(step + 1), last: () => go(trace.merges.length) };
  first.addEventListener("click", moves.first);
  back.addEventListener("click", moves.back);
  next.addEventListener("click", moves.next);
  last.addEventListener("click", moves.last);
  play.addEventListener("click", togglePlay);
  speed.addEventListener("change", () => timer !== null && startTimer()); // a new speed takes effect at once
  input.addEventListener("change", () => go(Number(input.value)));
  input.addEventListener("input", () => input.value !== "" && go(Number(input.value))); // ↑ / ↓ in the box
  box.addEventListener("pointerdown", (event) => {
    useKeys(box);
    // a click on the words, a chip or a table focuses the stepper itself, so the keys that follow come here:
    // left alone, JupyterLab focuses the cell around it and takes → and N, and B inserts a cell below
    if (!focusableWithin(event.target, box)) box.focus({ preventScroll: true });
  });
  box.addEventListener("focusin", () => useKeys(box));
  box.addEventListener("keydown", (event) => {
    if (event.target.closest("input, textarea, select")) return; // typing keeps its keys
    if (onKey(event, moves)) event.stopPropagation(); // JupyterLab listens on the document: it never sees it
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

  const cleanup = () => {
    stopPlaying();
    stopForm();
    document.removeEventListener("keydown", onPageKey);
    document.removeEventListener("pointerdown", onPagePointer, true);
    model.off("change:trace", onModel);
    model.off("change:current_step", onStep);
  };
  // classroom mode measures the page at a few steps before it settles on a type size (classroom_fit.js)
  cleanup.preview = (at) => draw(Math.max(0, Math.min(trace.merges.length, at ?? step)));
  cleanup.steps = () => trace.merges.length;
  cleanup.trace = () => trace;
  return cleanup;
}

/** What a click on `target` focuses by itself, inside `box`: a control (a button, a text box, the form's
 *  summary, a link) or anything given a tabindex; null where the browser would focus nothing of the
 *  stepper but the stepper, which then takes the focus (a disabled button takes none: Back at step 0). Elements are matched by name and attributes, so
 *  that this runs on the page and in node's tests alike. */
export function focusableWithin(target, box) {
  for (let node = target; node && node !== box; node = node.parentElement) {
    const tag = (node.tagName ?? "").toLowerCase();
    if (["button", "input", "select", "textarea", "summary", "option"].includes(tag)) return node.disabled ? null : node;
    if (tag === "a" && node.hasAttribute?.("href")) return node;
    if (node.hasAttribute?.("tabindex") || node.isContentEditable) return node;
  }
  return null;
}

/** The stepper's keys, the same in every front end: → or N next, ← or B back, Home, End; PageDown and
 *  PageUp are what a presenter's clicker sends. */
export const STEPPER_KEYS = {
  ArrowRight: "next", n: "next", N: "next", PageDown: "next",
  ArrowLeft: "back", b: "back", B: "back", PageUp: "back",
  Home: "first", End: "last",
};

export function onKey(event, moves) {
  const which = STEPPER_KEYS[event.key];
  if (!which || event.altKey || event.ctrlKey || event.metaKey) return false;
  event.preventDefault();
  moves[which]();
  return true;
}

export default { render: renderStepper };
