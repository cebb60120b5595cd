// Child process: fuzz throughput of one parser. Builds a seeded set of cases
// (mutations of a valid document: truncations, deleted and duplicated spans,
// hostile tokens, plus fast-check strings and JSON values), then times
// `codec.parse` over all of them against `JSON.parse` over the same cases,
// interleaved. Anything but a TxcriptError escaping parse is counted.
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { loadCodecs, repoRoot } from "../lib/packages.mjs";
import { seeded } from "../lib/random.mjs";

const config = JSON.parse(process.argv[2]);
const { codecs } = await loadCodecs();
const { TxcriptError } = await import(`${repoRoot}/packages/core/dist/index.js`);
const codec = codecs[config.codec];
const seedText = readFileSync(config.seedFile, "utf8");
const random = seeded(config.seed);
const tokens = [
  "{",
  "}",
  "[",
  "]",
  '"',
  ",",
  ":",
  "null",
  "\n",
  "\\u0000",
  "1e999",
  "-0",
  "\ud800",
  '"__proto__"',
  '"constructor"',
  '{"__proto__":{"polluted":1}}',
  '"messages":',
  '"type":"user"',
  "true",
];

function mutate(text) {
  let out = text;
  const steps = random.int(1, 3);
  for (let step = 0; step < steps; step++) {
    const at = random.int(0, out.length);
    const span = random.int(1, 64);
    switch (random.int(0, 4)) {
      case 0:
        out = out.slice(0, at);
        break;
      case 1:
        out = out.slice(0, at) + out.slice(at + span);
        break;
      case 2:
        out = out.slice(0, at) + random.pick(tokens) + out.slice(at);
        break;
      case 3:
        out = out.slice(0, at) + String.fromCharCode(random.int(0, 127)) + out.slice(at + 1);
        break;
      default:
        out = out.slice(0, at) + out.slice(at, at + span) + out.slice(at);
    }
  }
  return out;
}

const cases = [];
for (let index = 0; index < config.mutations; index++) cases.push(mutate(seedText));
cases.push(
  ...fc.sample(fc.string({ unit: "binary", maxLength: 200 }), {
    seed: config.seed,
    numRuns: config.generated,
  }),
);
cases.push(
  ...fc.sample(fc.json({ maxDepth: 4 }), { seed: config.seed + 1, numRuns: config.generated }),
);
const bytes = cases.reduce((total, text) => total + text.length, 0);

const jsonl = config.layout === "jsonl";
const baseline = (text) => {
  if (!jsonl) return JSON.parse(text);
  for (const line of text.split("\n")) if (line.trim() !== "") JSON.parse(line);
};

let escapes = 0;
let firstEscape;
let accepted = 0;
const runParser = () => {
  for (const text of cases) {
    try {
      codec.parse(text);
      accepted++;
    } catch (error) {
      if (!TxcriptError.isInstance(error)) {
        escapes++;
        firstEscape ??= `${error?.name}: ${String(error?.message).slice(0, 120)}`;
      }
    }
  }
};
const runBaseline = () => {
  for (const text of cases) {
    try {
      baseline(text);
    } catch {}
  }
};
const parser = [];
const json = [];
for (let run = -1; run < config.runs; run++) {
  globalThis.gc?.();
  let started = performance.now();
  runBaseline();
  const baselineMs = performance.now() - started;
  globalThis.gc?.();
  started = performance.now();
  runParser();
  const parserMs = performance.now() - started;
  if (run >= 0) {
    json.push(baselineMs);
    parser.push(parserMs);
  }
}
process.stdout.write(
  JSON.stringify({
    cases: cases.length,
    bytes,
    parser,
    json,
    escapes: escapes / (config.runs + 1),
    firstEscape,
    acceptedPerRun: accepted / (config.runs + 1),
  }),
);
