// Reads JSON cases on stdin, trains each with the browser's bpe.js and answers on stdout
// (tests/test_js_training.py compares with train_bpe). A case: {text, merges, tieBreak, splitPunctuation, stopAtSingle}.
import { splitPieces, splitWords } from "../../bpelab/widgets/static/bpe.js";
import { trainBpe } from "../../bpelab/widgets/static/bpe_train.js";
import { punctuationOnly, traceOf } from "../../bpelab/widgets/static/trace.js";

let input = "";
for await (const chunk of process.stdin) input += chunk;
const answers = JSON.parse(input).map(({ text, merges, tieBreak, splitPunctuation, stopAtSingle = false }) => {
  const result = trainBpe(text, merges, { tieBreak, splitPunctuation, minCount: stopAtSingle ? 2 : 1 });
  const words = splitWords(text);
  return {
    words,
    pieces: splitPieces(text),
    punctuationOnly: words.map(punctuationOnly),
    merges: result.steps.map((s) => [s.pair[0], s.pair[1], s.count]),
    stoppedEarly: result.stoppedEarly,
    trace: traceOf(result, { topWords: 40, topPairs: 10 }),
    resultSize: JSON.stringify(result).length, // what the page holds while the learner steps
  };
});
process.stdout.write(JSON.stringify(answers));
