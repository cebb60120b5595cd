// The streaming baseline of issue 34: node:readline over a JSON-lines file,
// JSON.parse and JSON.stringify of every line, written to a file as it goes
// (waiting for the stream to drain) — what a line-by-line conversion cannot
// beat. Usage: node readline-pipe.mjs <input> <output>
import { once } from "node:events";
import { createReadStream, createWriteStream } from "node:fs";
import { createInterface } from "node:readline";
import { finished } from "node:stream/promises";

const [input, output] = process.argv.slice(2);
const out = createWriteStream(output);
const lines = createInterface({ input: createReadStream(input), crlfDelay: Infinity });
let count = 0;
for await (const line of lines) {
  if (line === "") continue;
  count += 1;
  if (!out.write(`${JSON.stringify(JSON.parse(line))}\n`)) await once(out, "drain");
}
out.end();
await finished(out);
if (count === 0) throw new Error(`no lines in ${input}`);
