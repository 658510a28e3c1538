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
import { trainBpe } from "./bpe.js";
import { traceOf } from "./trace.js";
import { announcement } from "./stepper_text.js";
import { STEPPER_CSS, drawView, el, legendNode, replay, skeleton } from "./stepper_view.js";

const PLAY_INTERVAL_MS = 800;
let lastUsed = null; // the stepper last clicked in: keys pressed on the page itself go to it

function button(label, css, tip, arrowsBefore, arrowsAfter) {
  const b = el("button", { type: "button", class: css, title: tip });
  if (arrowsBefore) b.append(el("span", { "aria-hidden": "true", text: arrowsBefore + " " }));
  b.append(label);
  if (arrowsAfter) b.append(el("span", { "aria-hidden": "true", text: " " + arrowsAfter }));
  return b;
}

// ---- the widget ----

function isStatic() {
  return globalThis.bpelabStatic === true;
}

/** anywidget's entry point: draw the stepper into `el` and keep it in step with the model.
 *  `ownForm: false`: the caller draws the training form (classroom.js, around the stepper). */
export function renderStepper({ model, el: root }, { ownForm = true } = {}) {
  ensureCss(root, CHIP_CSS);
  ensureCss(root, STEPPER_CSS, "bpe-stepper-css");
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
  box.addEventListener("pointerdown", () => (lastUsed = box));
  box.addEventListener("focusin", () => (lastUsed = box));
  box.addEventListener("keydown", (event) => {
    if (event.target.closest("input, textarea, select")) return; // typing keeps its keys
    if (onKey(event, moves)) event.stopPropagation();
  });
  const onPageKey = (event) => {
    if (event.defaultPrevented) return; // the classroom page's own keys already moved it
    const target = event.target;
    if (target !== document.body && target !== document.documentElement) return;
    if (lastUsed !== box && !(lastUsed === null && document.querySelector(".bpe-stepper") === box)) return;
    onKey(event, moves);
  };
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
    const merges = el("input", { type: "number", min: "0", max: "500", value: String(model.get("train_merges") ?? 20) });
    const tie = el("select", {}, el("option", { value: "first", text: "first seen" }), el("option", { value: "lexicographic", text: "smallest pair" }));
    tie.value = trace.tieBreak === "lexicographic" ? "lexicographic" : "first";
    // lesson 04 cuts its real text with lesson 02's regex first; offered here, on by default where the run did
    const split = el("input", { type: "checkbox", class: "bpe-split-punctuation" });
    split.checked = trace.unit.startsWith("pieces (");
    const train = el("button", { type: "button", class: "bpe-train", text: "Train" });
    const message = el("div", { class: "bpe-message", role: "status", "aria-live": "polite" });
    train.addEventListener("click", () => {
      const n = Number(merges.value);
      if (!Number.isInteger(n) || n < 0 || n > 500) {
        message.textContent = "Merges must be a whole number from 0 to 500.";
        return;
      }
      if (!text.value.trim()) {
        message.textContent = "Type some text first: training needs words.";
        return;
      }
      const most = model.get("max_characters") ?? 50000;
      if (text.value.length > most) {
        message.textContent = `This text has ${text.value.length} characters; this page trains at most ${most}. Paste a shorter part.`;
        return;
      }
      const result = trainBpe(text.value, n, { tieBreak: tie.value, splitPunctuation: split.checked });
      stopPlaying();
      trace = traceOf(result, { topWords: model.get("top_words") ?? 40, topPairs: model.get("top_pairs") ?? 10 });
      states = replay(trace);
      rows = new Map();
      step = 0;
      draw();
      const learned = result.merges.length;
      message.textContent = `Trained in this page on ${trace.wordsTotal} words: ${learned} merge${learned === 1 ? "" : "s"}` +
        (result.stoppedEarly ? ` (stopped early: no pair left after ${learned})` : "") + ". Press Next or →.";
    });
    const fields = el("div", { class: "bpe-train-form", role: "group", "aria-label": "train on your own text" },
      el("label", {}, "Your text", el("br"), text), el("label", {}, "merges ", merges), el("label", {}, "ties ", tie),
      el("label", {}, split, " cut off punctuation first"), train, message);
    if (model.get("train_form")) return fields; // the classroom page: the form is the point
    // a lesson's page: offered, folded, under each stepper of word-level training
    return el("details", { class: "bpe-train-details" }, el("summary", { text: "Train on your own text, in this page" }), fields);
  }

  return () => {
    stopPlaying();
    document.removeEventListener("keydown", onPageKey);
    model.off("change:trace", onModel);
    model.off("change:current_step", onStep);
  };
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
