// Reads {rows: [[lengths...]...] per case, covering: [{text, pieces, wordEnd}]} as JSON on stdin and
// answers what bpelab/widgets/static/cuts.js computes (spans, coverings, token ranges) (tests/test_cuts.py compares with bpelab.cuts).
import { comparedLengths, coveringLengths, differingSpans, tokenRanges } from "../../bpelab/widgets/static/cuts.js";

let input = "";
for await (const chunk of process.stdin) input += chunk;
const { cases, covering } = JSON.parse(input);
const spans = cases.map((rows) => differingSpans(rows));
const covered = covering.map(({ text, pieces, wordEnd }) => coveringLengths(text, pieces, wordEnd));
const compared = covered.map(comparedLengths);
const ranges = covering.map(({ text, pieces, wordEnd }) => tokenRanges(text, pieces, wordEnd));
process.stdout.write(JSON.stringify({ spans, covered, compared, ranges }));
