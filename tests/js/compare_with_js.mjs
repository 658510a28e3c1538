// Reads [{text, rows: [{pieces, wordEnd}], labels}] as JSON on stdin and answers what the side-by-side view
// lays out (bpelab/widgets/static/compare.js compareLayout): the marked spans, the bands drawn for them,
// each row's chips as [first token, last token, start byte, end byte], each span said in words
// (compare_stretches.js describeSpan), and the text's characters as the page's Intl.Segmenter sees them
// (its Unicode may be another than Python's regex module's). tests/test_compare.py compares.
import { compareLayout } from "../../bpelab/widgets/static/compare.js";
import { describeSpan } from "../../bpelab/widgets/static/compare_stretches.js";

let input = "";
for await (const chunk of process.stdin) input += chunk;
const answers = JSON.parse(input).map(({ text, rows, labels }) => {
  const layout = compareLayout(text, rows);
  return {
    graphemes: [...new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(text)].map((s) => s.segment),
    spans: layout.spans,
    bands: layout.bands,
    chips: layout.rows.map((row) => row.chips.map((c) => [c.tokens[0], c.tokens[c.tokens.length - 1], c.start, c.end])),
    described: layout.spans.map((span) => describeSpan(text, span, layout, labels ?? rows.map((_row, r) => `row ${r}`))),
  };
});
process.stdout.write(JSON.stringify(answers));
