// The stepper's "train on your own text" form, and the sentences it (and classroom mode) says.
//
// One form in every front end. With a kernel (JupyterLab, Voilà) Train asks Python: the form sets the
// `train_request` traitlet and bpelab/widgets/stepper.py trains with train_bpe (through
// bpelab/widgets/form_training.py) and answers with a new trace and a `message`. A static page has no
// kernel (globalThis.bpelabStatic), and a saved notebook whose kernel never answers is the same: the form
// then trains here, with bpe_train.js, which tests/test_js_training.py holds equal to train_bpe.

import { splitWords } from "./bpe.js";
import { trainBpeInSlices } from "./bpe_train.js";
import { traceOf } from "./trace.js";
import { KERNEL_WAIT_MS, el, isStatic } from "./view_basics.js";

export const MOST_MERGES = 500;

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
  // no word as Python's text.split() finds them (stepper.py refuses not text.strip(), the same test): JavaScript's
  // trim() would strip U+FEFF, which Python keeps as a word, and keep U+001C–U+001F, which Python cuts at
  if (splitWords(text).length === 0) return "Type some text first: training needs words.";
  const characters = codePoints(text); // as Python's len(): an emoji is one character, not two UTF-16 units
  if (characters > most) return `This text has ${characters} characters; this page trains at most ${most}. Paste a shorter part.`;
  return null;
}

/** Why a run holds fewer merges than asked (Python: form_training.stop_reason); "" when it holds them all.
 *  `pairsLeft`: whether any pair was left where it stopped (then it stopped because none occurs twice). */
export function stopReason(made, asked, pairsLeft) {
  if (made >= asked) return "";
  if (pairsLeft) {
    return `Stopped after ${made} merge${made === 1 ? "" : "s"} of the ${asked} asked for: no pair occurs twice any more ` +
      "(merging a pair seen once would shorten the text by one token and add one vocabulary entry).";
  }
  return `You asked for ${asked}, but after ${made} every word is a single symbol: nothing is left to merge.`;
}

/** True when the run's last pair table still had pairs (bpe_train.js keeps one table per step). */
export function pairsLeftAtEnd(result) {
  const tables = result.tables ?? [];
  return tables.length > 0 && tables[tables.length - 1].total > 0;
}

/** The line under the form once a run is ready (Python: MergeStepper's answer says the same, "in Python"). */
export function trainedMessage(result, words, asked = result.merges.length, where = "in this page") {
  const learned = result.merges.length;
  const head = `Trained ${where} on ${words} word${words === 1 ? "" : "s"}: ${learned} merge${learned === 1 ? "" : "s"}.`;
  const why = result.stoppedEarly ? stopReason(learned, asked, pairsLeftAtEnd(result)) : "";
  return `${head}${why ? " " + why : ""} Press Next or →.`;
}

/** The form, drawn for `model`; `show(trace)` puts a run trained here on screen, `stop()` stops Play.
 *  Returns {node, cleanup}; `node` is null when this stepper offers no form. */
export function trainForm(model, trace, { show, stop }) {
  if (!(model.get("train_form") || (!trace.ids && trace.scoreName === "count"))) return { node: null, cleanup: () => {} };
  const text = el("textarea", { rows: "3", "aria-label": "text to train on" });
  text.value = model.get("train_text") ?? "";
  text.placeholder = "Type or paste a text: words are cut at spaces, as in lessons 02–04";
  const merges = el("input", { type: "number", min: "1", max: String(MOST_MERGES), value: String(model.get("train_merges") ?? 20) });
  const tie = el("select", {}, el("option", { value: "first", text: "first seen" }), el("option", { value: "lexicographic", text: "smallest pair" }));
  tie.value = trace.tieBreak === "lexicographic" ? "lexicographic" : "first";
  // lesson 04 cuts its real text with lesson 02's regex first; offered here, on by default where the run did
  const split = el("input", { type: "checkbox", class: "bpe-split-punctuation" });
  split.checked = trace.unit.startsWith("pieces (");
  const single = el("input", { type: "checkbox", class: "bpe-stop-single" });
  single.checked = !!model.get("projector");
  const train = el("button", { type: "button", class: "bpe-train", text: "Train" });
  const message = el("div", { class: "bpe-message", role: "status", "aria-live": "polite" });
  let waiting = null; // the timer that trains here when no kernel answers

  async function trainHere(options) {
    const n = options.merges;
    train.disabled = true;
    message.textContent = `Training in this page: 0 of ${n} merges…`;
    let result;
    try {
      // in slices, so the page stays responsive and the line above counts the merges as they come
      result = await trainBpeInSlices(options.text, n, { tieBreak: options.tieBreak, splitPunctuation: options.splitPunctuation,
        minCount: options.stopAtSingle ? 2 : 1, topPairs: model.get("top_pairs") ?? 10 }, {
        onProgress: (made) => (message.textContent = `Training in this page: ${made} of ${n} merges…`),
      });
    } finally {
      train.disabled = false;
    }
    const made = traceOf(result, { topWords: model.get("top_words") ?? 40, topPairs: model.get("top_pairs") ?? 10 });
    show(made);
    message.textContent = trainedMessage(result, made.wordsTotal, n);
  }

  const answered = () => {
    if (waiting === null) return;
    clearTimeout(waiting);
    waiting = null;
    message.textContent = model.get("message") ?? "";
  };
  const onMessage = () => {
    if (waiting !== null) answered();
    else if (model.get("message")) message.textContent = model.get("message");
  };
  model.on("change:message", onMessage);
  model.on("change:trace", answered);

  train.addEventListener("click", () => {
    const problem = formProblem(text.value, merges.value, model.get("max_characters") ?? 50000);
    if (problem) {
      message.textContent = problem;
      return;
    }
    stop();
    const options = { text: text.value, merges: Number(merges.value), tieBreak: tie.value, splitPunctuation: split.checked,
      stopAtSingle: single.checked };
    if (isStatic()) return trainHere(options);
    // ask Python; a kernel that does not answer (a saved notebook, never run) leaves it to this page
    message.textContent = "Training in Python…";
    const n = (model.get("train_request")?.n ?? 0) + 1;
    model.set("train_request", { text: options.text, merges: options.merges, tie_break: options.tieBreak,
      split_punctuation: options.splitPunctuation, stop_at_single: options.stopAtSingle, n });
    clearTimeout(waiting);
    waiting = setTimeout(() => {
      waiting = null;
      trainHere(options);
    }, KERNEL_WAIT_MS);
    try {
      model.save_changes();
    } catch {
      // no kernel to send to: the timer above trains here
    }
  });
  const fields = el("div", { class: "bpe-train-form", role: "group", "aria-label": "train on your own text" },
    el("label", { class: "bpe-train-text" }, "Your text", el("br"), text), el("label", {}, "merges ", merges), el("label", {}, "ties ", tie),
    el("label", {}, split, " cut off punctuation first"), el("label", {}, single, " stop when no pair occurs twice"), train, message);
  const cleanup = () => {
    clearTimeout(waiting);
    model.off("change:message", onMessage);
    model.off("change:trace", answered);
  };
  if (model.get("train_form")) return { node: fields, cleanup }; // the classroom page: the form is the point
  // a lesson's page: offered, folded, under each stepper of word-level training
  const where = isStatic() ? "in this page" : "with Python";
  return { node: el("details", { class: "bpe-train-details" }, el("summary", { text: `Train on your own text, ${where}` }), fields), cleanup };
}
