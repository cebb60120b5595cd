// The whole-process floor of issue 34 item 1: a node process that reads a
// session file, JSON.parse's it (each line of JSON lines, or the one
// document) and writes JSON.stringify of the same values back (one line
// each, or the document in its own indentation) — what any conversion of
// those bytes must at least do, start-up included; the memory suite takes
// its peak RSS too. It imports nothing of txcript's.
// Usage: node floor-process.mjs <input> <output>
import { readFileSync, writeFileSync } from "node:fs";

const [input, output] = process.argv.slice(2);
const text = readFileSync(input, "utf8");
const document = text.startsWith("{\n");
let out;
if (document) {
  const indent = text.startsWith("{\n\t") ? "\t" : text.startsWith("{\n  ") ? 2 : 0;
  out = JSON.stringify(JSON.parse(text), null, indent);
} else {
  const lines = [];
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf("\n", start);
    if (end === -1) end = text.length;
    if (end > start) lines.push(JSON.stringify(JSON.parse(text.slice(start, end))));
    start = end + 1;
  }
  if (lines.length === 0) throw new Error(`no JSON lines in ${input}`);
  out = `${lines.join("\n")}\n`;
}
writeFileSync(output, out);
