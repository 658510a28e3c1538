/*
 * The merge stepper in a page WITHOUT a kernel (the course's static site, `make html`).
 *
 * Every step's view is already in the page (a Stack of precomputed views, see
 * bpelab/widgets/stepper.py), and the step box, the Stack and the Play timer are linked in the
 * browser. What a kernel would do on a click is done here instead: Next / Back / First / Last and
 * the page's → / ← keys set the stepper's step box, which the links carry to the view. The script
 * also keeps the buttons' enabled state, the Play button's label and the screen-reader
 * announcement in step with the view shown. The site writer adds it only to static pages, so in a
 * notebook with a kernel a click never moves twice.
 */
(function () {
  'use strict';
  if (window.__bpeStepperStatic) { return; }
  window.__bpeStepperStatic = true;

  var MOVES = { 'bpe-first': 'first', 'bpe-back': 'back', 'bpe-next': 'next', 'bpe-last': 'last' };
  var lastUsed = null;  // the stepper the reader last clicked in or focused: page keys go to it

  function stepBox(stepper) { return stepper.querySelector('.bpe-step-box input'); }

  function shownPage(stepper) { return stepper.querySelector('.bpe-views .bpe-page'); }

  function setStep(stepper, value) {
    var input = stepBox(stepper);
    if (!input) { return; }
    var low = Number(input.min || 0), high = Number(input.max || 0);
    value = Math.max(low, Math.min(high, value));
    if (Number(input.value) === value) { return; }
    input.value = String(value);
    // the number box's own view reads the new value on "change" and sets the model; the links
    // then select the Stack's view for that step (and keep the Play timer in step)
    input.dispatchEvent(new Event('change', { bubbles: true }));
  }

  function move(stepper, how) {
    var input = stepBox(stepper);
    if (!input) { return; }
    var now = Number(input.value), high = Number(input.max || 0);
    var target = { first: 0, back: now - 1, next: now + 1, last: high }[how];
    setStep(stepper, target);
  }

  function refresh(stepper) {
    var input = stepBox(stepper);
    if (!input) { return; }
    var step = Number(input.value), high = Number(input.max || 0);
    var at = function (css) { return stepper.querySelector('button.' + css); };
    [['bpe-first', step === 0], ['bpe-back', step === 0], ['bpe-next', step === high], ['bpe-last', step === high]]
      .forEach(function (pair) { var b = at(pair[0]); if (b && b.disabled !== pair[1]) { b.disabled = pair[1]; } });
    var play = at('bpe-play');
    if (play) {
      var label = play.classList.contains('mod-active') ? 'Pause' : 'Play';
      if (play.textContent !== label) { play.textContent = label; }
    }
    var page = shownPage(stepper), status = stepper.querySelector('.bpe-announce [role="status"]');
    if (page && page.closest('.bpe-live-view') && page.getAttribute('data-step') !== String(step)) {
      // the one child shared by the steps past the stored ones holds the step the notebook was
      // saved at: here, without a kernel, it can only say that this step needs one
      page.outerHTML = "<div class='bpe-page bpe-beyond' data-step='" + step + "' data-announce='Step " + step +
        " needs a running kernel'><p><b>Step " + step + ' needs a running kernel.</b> Open the notebook and ' +
        'run it to see it.</p></div>';
      page = shownPage(stepper);
    }
    if (page && status) {
      var said = page.getAttribute('data-announce') || '';
      if (status.textContent !== said) { status.textContent = said; }
    }
  }

  function refreshAll() {
    document.querySelectorAll('.bpe-stepper').forEach(refresh);
  }

  document.addEventListener('click', function (event) {
    var target = event.target;
    var stepper = target && target.closest ? target.closest('.bpe-stepper') : null;
    if (!stepper) { return; }
    lastUsed = stepper;
    var button = target.closest('button');
    if (!button) { return; }
    for (var css in MOVES) {
      if (button.classList.contains(css)) { move(stepper, MOVES[css]); return; }
    }
  });

  document.addEventListener('focusin', function (event) {
    var stepper = event.target && event.target.closest ? event.target.closest('.bpe-stepper') : null;
    if (stepper) { lastUsed = stepper; }
  });

  document.addEventListener('keydown', function (event) {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) { return; }
    var how = { ArrowRight: 'next', ArrowLeft: 'back' }[event.key];
    if (!how) { return; }
    var target = event.target;
    if (target && (target.isContentEditable || (target.closest && target.closest('input, textarea, select')))) {
      return;  // the caret, or the number box's own keys
    }
    var inside = target && target.closest ? target.closest('.bpe-stepper') : null;
    var stepper = inside || (lastUsed && document.contains(lastUsed) ? lastUsed : null);
    if (!stepper) { return; }  // the reader has not used a stepper: the keys scroll the page
    event.preventDefault();
    move(stepper, how);
  });

  // the views are drawn (and swapped) by the widget manager: follow them as they change
  new MutationObserver(refreshAll).observe(document.documentElement, {
    childList: true, subtree: true, attributes: true, attributeFilter: ['class']
  });
  document.addEventListener('change', refreshAll);
})();
