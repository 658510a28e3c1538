// Reads a JSON list of [build, title] on stdin (Python's TokenBuild.as_dict()) and answers on stdout the
// lines the page's panel writes for each (token_build_view.js's buildLines): tests/test_token_build_view.py
// holds them equal to Python's build_lines, the notebook's text fallback.
import { buildLines } from "../../bpelab/widgets/static/token_build_view.js";

let input = "";
for await (const chunk of process.stdin) input += chunk;
process.stdout.write(JSON.stringify(JSON.parse(input).map(([build, title]) => buildLines(build, title))));
