// Classroom mode (make present, site/present.html): the merge stepper with a form around it.
//
// One widget, one drawing path: Voilà and the static page both draw this form and the stepper
// (stepper.js) inside it. The form offers the lessons' corpora (synced from Python as data), a text
// box, the number of merges, both tie rules and Train. With a kernel, Train asks Python to train
// (the `train_request` traitlet; Python answers with a new trace and a message); on a page with no
// kernel (globalThis.bpelabStatic, the stepper's own rule) the form trains here with bpe.js.

import { splitWords } from "./bpe.js";
import { trainBpe } from "./bpe_train.js";
import { traceOf } from "./trace.js";
import { TIE_RULE_NAMES } from "./stepper_text.js";
import { el, isStatic } from "./view_basics.js";
import { renderStepper } from "./stepper.js";

export const OWN_TEXT = "your own text";

const CLASSROOM_CSS = `
.bpe-classroom{font-size:clamp(18px,min(1.45vw,2.6vh),34px);color:#000;background:#fff}
.bpe-classroom .bpe-sr-only{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;
  clip:rect(0,0,0,0);white-space:nowrap;border:0}
.bpe-classroom .bpe-row{display:flex;flex-wrap:wrap;align-items:center;gap:4px 16px;margin:2px 0}
.bpe-classroom select,.bpe-classroom input,.bpe-classroom textarea,.bpe-classroom button{font:inherit;color:#000}
.bpe-classroom .bpe-form-button{padding:2px 12px;border:1px solid #767676;border-radius:3px;background:#f0f0f0;cursor:pointer}
.bpe-classroom .bpe-form-button[aria-pressed="true"]{background:#1a5fb4;color:#fff;border-color:#1a5fb4}
.bpe-classroom .bpe-train{font-weight:bold}
.bpe-classroom .bpe-merges input{width:4.5em}
.bpe-classroom .bpe-corpus-choice select{max-width:24em}
.bpe-classroom .bpe-tie-rule{display:flex;align-items:center;gap:4px}
.bpe-classroom .bpe-corpus-input{display:flex;gap:8px;align-items:center}
.bpe-classroom .bpe-corpus-input textarea{flex:1 1 auto;min-width:0;font-family:var(--bpe-text-fonts,monospace);height:2.6em;resize:vertical}
.bpe-classroom .bpe-message{margin:2px 0}
.bpe-classroom .bpe-message:empty{display:none}
/* the keys and Hide the corpus share the stepper's button row: one line less on a 720-pixel screen */
.bpe-classroom .bpe-keys{color:#333;margin-left:auto}
.bpe-classroom .bpe-controls .bpe-hide-settings{margin-left:.6em}
.bpe-classroom :focus-visible{outline:2px solid #1a5fb4;outline-offset:1px}
`;

// ---- pure helpers (node --test checks them; Python holds the same sentences) ----

/** Which stepper button a key presses: → / PageDown next, ← / PageUp back (a presenter's clicker
 *  sends PageDown and PageUp); N / B only where the page owns its letters (not in JupyterLab,
 *  where N and B edit the notebook). */
export function keyAction(key, { letters = false } = {}) {
  const arrows = { ArrowRight: "next", PageDown: "next", ArrowLeft: "back", PageUp: "back" };
  if (arrows[key]) return arrows[key];
  if (letters) return { n: "next", N: "next", b: "back", B: "back" }[key] ?? null;
  return null;
}

const thousands = (n) => n.toLocaleString("en-US");

/** Why there is nothing sensible to train (the sentences of Python's classroom._problem_with), or null. */
export function problemWith(text, merges, { maxMerges = 500, maxCharacters = 50000 } = {}) {
  if (!Number.isInteger(merges) || merges < 1 || merges > maxMerges) {
    return `Classroom mode learns from 1 to ${maxMerges} merges; you asked for ${Number.isNaN(merges) ? "no number" : merges}. ` +
      "Change the number of merges, then press Train.";
  }
  if (splitWords(text).length === 0) {
    return "There is no text to train on yet: choose a corpus above, or type a few words, then press Train.";
  }
  const length = Array.from(text).length; // code points, as Python's len()
  if (length > maxCharacters) {
    return `This text has ${thousands(length)} characters; classroom mode trains at most ${thousands(maxCharacters)} ` +
      "(stepping through more is slow and hard to read). Paste a shorter part, then press Train.";
  }
  return null;
}

/** What a training run made, in one line (Python's classroom._summary); `where` says who trained it. */
export function runSummary({ made, words, distinct, tieBreak, stoppedEarly, asked }, where = "") {
  const head = `Trained${where} ${made} merge${made === 1 ? "" : "s"} on ${words} words (${distinct} different), ` +
    `ties: ${TIE_RULE_NAMES[tieBreak]}.`;
  if (stoppedEarly) return `${head} You asked for ${asked}, but after ${made} every word is a single symbol: nothing is left to merge.`;
  return `${head} Step with Next ▶.`;
}

// ---- the widget ----

function ensureStyle(root) {
  if (root.querySelector('style[data-bpe="bpe-classroom-css"]')) return;
  const style = el("style", { "data-bpe": "bpe-classroom-css" });
  style.textContent = CLASSROOM_CSS;
  root.prepend(style);
}

/** anywidget's entry point: the form, the message line, then the stepper (drawn by stepper.js). */
export function renderClassroom({ model, el: root }) {
  ensureStyle(root);
  const noKernel = isStatic(); // the stepper's rule: a static page has no Python
  const letters = noKernel || document.body?.hasAttribute("data-voila") === true;
  const corpora = model.get("corpora") ?? [];
  const limits = { maxMerges: model.get("max_merges") ?? 500, maxCharacters: model.get("max_characters") ?? 50000 };

  const choice = el("select", {}, ...[...corpora.map((c) => c.label), OWN_TEXT].map((label) => el("option", { value: label, text: label })));
  const merges = el("input", { type: "number", min: "1", max: String(limits.maxMerges), step: "1" });
  const ties = Object.entries(TIE_RULE_NAMES).map(([value, label]) =>
    el("button", { type: "button", class: "bpe-form-button", "data-tie": value, "aria-pressed": "false", text: label }));
  const train = el("button", { type: "button", class: "bpe-form-button bpe-train", title: "learn the merges of the text in the box", text: "Train" });
  const text = el("textarea", { rows: "2", placeholder: "Type or paste a text here: words are cut at spaces, as in lessons 02–04" });
  const settings = el("div", { class: "bpe-settings bpe-train-form", role: "group", "aria-label": "the text to train on" },
    el("div", { class: "bpe-row" },
      el("label", { class: "bpe-corpus-choice" }, "corpus ", choice),
      el("label", { class: "bpe-merges" }, "merges ", merges),
      el("div", { class: "bpe-tie-rule", role: "group", "aria-label": "ties" }, el("span", { "aria-hidden": "true", text: "ties" }), ...ties),
      train),
    el("label", { class: "bpe-corpus-input" }, el("span", { text: "text" }), text));
  const hide = el("button", { type: "button", class: "bpe-form-button bpe-hide-settings", "aria-expanded": "true", text: "Hide the corpus" });
  const message = el("div", { class: "bpe-message", role: "status", "aria-live": "polite" });
  const keys = el("div", { class: "bpe-keys", text: `Keys: → ${letters ? "/ N " : ""}next · ← ${letters ? "/ B " : ""}back (a clicker too) · F11 full screen` });
  const area = el("div", { class: "bpe-stepper-area" });
  const app = el("div", { class: "bpe-classroom" }, settings, message, area);
  root.append(app);

  let trained = { text: model.get("train_text"), merges: model.get("train_merges"), tie: model.get("tie_break") };
  let trainedMessage = model.get("message");

  let storing = false; // while the form writes the model, the model's echoes must not rewrite the form
  const store = (values) => {
    storing = true;
    try {
      for (const [name, value] of Object.entries(values)) model.set(name, value);
    } finally {
      storing = false;
    }
    model.save_changes();
  };
  const tell = (sentence) => {
    store({ message: sentence });
    showMessage(); // anywidget's model tells no listener of a change made here
  };
  const fill = () => {
    if (storing) return;
    // what Python (or the page) holds, into the form; a field the teacher is typing in keeps its text
    if (choice.value !== model.get("corpus_label")) choice.value = model.get("corpus_label");
    if (text.value !== model.get("train_text")) text.value = model.get("train_text") ?? "";
    if (document.activeElement !== merges) merges.value = String(model.get("train_merges"));
    for (const button of ties) button.setAttribute("aria-pressed", String(button.dataset.tie === model.get("tie_break")));
  };
  const showMessage = () => {
    message.textContent = model.get("message") ?? "";
    if (message.textContent.startsWith("Trained")) {
      // a run just arrived (from Python or from this page): what it was trained on is current
      trained = { text: model.get("train_text"), merges: model.get("train_merges"), tie: model.get("tie_break") };
      trainedMessage = message.textContent;
    }
  };
  const settingsChanged = () => {
    const same = text.value === trained.text && Number(merges.value) === trained.merges && model.get("tie_break") === trained.tie;
    tell(same ? trainedMessage : "The text or the settings changed: press Train to learn its merges.");
  };

  function trainHere({ tie, keepStep }) {
    const asked = Number(merges.value === "" ? NaN : merges.value);
    const problem = problemWith(text.value, asked, limits);
    if (problem) return tell(problem);
    const result = trainBpe(text.value, asked, { tieBreak: tie });
    const trace = traceOf(result, { topWords: model.get("top_words") ?? 30, topPairs: model.get("top_pairs") ?? 6 });
    const step = keepStep ? Math.min(model.get("current_step") ?? 0, trace.merges.length) : 0;
    model.set("trace", trace); // the stepper redraws, then moves to the step
    model.set("current_step", step);
    store({ train_text: text.value, train_merges: asked, tie_break: tie });
    tell(runSummary({ made: result.merges.length, words: trace.wordsTotal, distinct: trace.distinct, tieBreak: tie,
      stoppedEarly: result.stoppedEarly, asked }, " in this page:"));
    fill();
  }

  function askPython({ tie, keepStep }) {
    const asked = merges.value === "" ? 0 : Number(merges.value);
    const n = (model.get("train_request")?.n ?? 0) + 1; // a new request each press, even with the same text
    store({ train_request: { text: text.value, merges: asked, tie_break: tie, keep_step: keepStep, n } });
  }

  const request = (options) => (noKernel ? trainHere(options) : askPython(options));
  train.addEventListener("click", () => request({ tie: model.get("tie_break"), keepStep: false }));
  for (const button of ties) {
    button.addEventListener("click", () => {
      if (button.dataset.tie === model.get("tie_break")) return;
      const hasRun = (model.get("trace")?.words ?? []).length > 0;
      if (hasRun) return request({ tie: button.dataset.tie, keepStep: true }); // the same moment, under the other rule
      store({ tie_break: button.dataset.tie });
      fill();
    });
  }
  choice.addEventListener("change", () => {
    const corpus = corpora.find((c) => c.label === choice.value);
    text.value = corpus ? corpus.text : "";
    if (corpus) merges.value = String(corpus.merges);
    store({ corpus_label: choice.value, train_text: text.value, ...(corpus ? { train_merges: corpus.merges } : {}) });
    settingsChanged();
  });
  text.addEventListener("input", () => {
    const preset = corpora.find((c) => c.label === choice.value);
    if (preset && text.value !== preset.text) choice.value = OWN_TEXT; // the class's own text now
    store({ corpus_label: choice.value, train_text: text.value });
    settingsChanged();
  });
  merges.addEventListener("change", () => {
    const asked = Number(merges.value === "" ? NaN : merges.value);
    const problem = problemWith("-", asked, limits); // says so as soon as the number is typed
    if (problem) return tell(problem);
    store({ train_merges: asked });
    settingsChanged();
  });
  hide.addEventListener("click", () => {
    const hidden = !settings.hidden;
    settings.hidden = hidden;
    hide.textContent = hidden ? "Show the corpus" : "Hide the corpus";
    hide.setAttribute("aria-expanded", String(!hidden));
  });

  // → / ← on the form's buttons (outside the stepper) press the stepper's; the stepper handles its own
  // keys, and keys typed in a text box belong to the box
  const onKey = (event) => {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
    const target = event.target;
    if (!target?.closest || target.closest("input, textarea, select")) return;
    const onPage = target === document.body || target === document.documentElement;
    if (!onPage && !app.contains(target)) return;
    const which = keyAction(event.key, { letters });
    if (!which) return;
    const arrow = keyAction(event.key) !== null;
    if (arrow && (onPage || target.closest(".bpe-stepper"))) return; // stepper.js moved it already
    const button = area.querySelector(`.bpe-stepper button.bpe-${which}`);
    if (!button) return;
    event.preventDefault();
    if (!button.disabled) button.click();
  };
  document.addEventListener("keydown", onKey);

  const fields = ["corpus_label", "train_text", "train_merges", "tie_break"];
  for (const name of fields) model.on(`change:${name}`, fill);
  model.on("change:message", showMessage);
  fill();
  showMessage();
  const stopStepper = renderStepper({ model, el: area }, { ownForm: false });
  area.querySelector(".bpe-controls")?.append(hide, keys); // beside First … Play (stepper.js draws that row)
  return () => {
    stopStepper();
    document.removeEventListener("keydown", onKey);
    for (const name of fields) model.off(`change:${name}`, fill);
    model.off("change:message", showMessage);
  };
}

export default { render: renderClassroom };
