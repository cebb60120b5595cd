// Child process (run with --expose-gc): times one conversion direction on one
// file against the floor `JSON.parse(input) + JSON.stringify(output)` of the
// same bytes, interleaved run by run, and prints the times as JSON. With
// `--once` it converts a single time (for peak-RSS measurement under time -v).
import { readFileSync, writeFileSync } from "node:fs";
import { conversionOptions, loadCodecs } from "../lib/packages.mjs";

const config = JSON.parse(process.argv[2]);
const { codecs, harnesses } = await loadCodecs();
const from = codecs[config.from];
const to = codecs[config.to];
const { read, write } = conversionOptions(
  harnesses,
  config.from,
  config.to,
  new Date(config.startTime),
);
const convertOnce = (text) =>
  codecs.convert(text, from, to, { file: config.file, read, write }).text;

if (config.mode === "once") {
  const text = readFileSync(config.file, "utf8");
  // `repeat` > 1 (for --cpu-prof) weights the profile toward the warmed-up steady state.
  for (let run = 1; run < (config.repeat ?? 1); run++) convertOnce(text);
  const output = convertOnce(text);
  if (config.output) writeFileSync(config.output, output);
  process.exit(0);
}
const input = readFileSync(config.file, "utf8");
const output = convertOnce(input);

// How each side is written: a pretty-printed document or JSON lines.
const shape = (text) => {
  try {
    const value = JSON.parse(text);
    return { lines: false, indent: text.startsWith("{\n  ") ? 2 : 0, value };
  } catch {
    const values = text
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line));
    return { lines: true, values };
  }
};
const inputShape = shape(input);
const outputShape = shape(output);
const parseInput = inputShape.lines
  ? () => {
      const values = [];
      let start = 0;
      while (start < input.length) {
        let end = input.indexOf("\n", start);
        if (end === -1) end = input.length;
        if (end > start) values.push(JSON.parse(input.slice(start, end)));
        start = end + 1;
      }
      return values;
    }
  : () => JSON.parse(input);
const stringifyOutput = outputShape.lines
  ? () => `${outputShape.values.map((value) => JSON.stringify(value)).join("\n")}\n`
  : () => JSON.stringify(outputShape.value, null, outputShape.indent);

const floor = [];
const conversion = [];
for (let run = -1; run < config.runs; run++) {
  globalThis.gc?.();
  let started = performance.now();
  const parsed = parseInput();
  const written = stringifyOutput();
  const floorMs = performance.now() - started;
  if (parsed === undefined || written.length === 0) throw new Error("floor did nothing");
  globalThis.gc?.();
  started = performance.now();
  const converted = convertOnce(input);
  const convertMs = performance.now() - started;
  if (converted.length !== output.length) throw new Error("conversion is not deterministic");
  if (run >= 0) {
    floor.push(floorMs);
    conversion.push(convertMs);
  }
}
// Where the time goes: the four legs of convert() timed apart.
const phases = { parse: [], toCommon: [], fromCommon: [], serialize: [] };
for (let run = 0; run < Math.min(3, config.runs); run++) {
  globalThis.gc?.();
  const times = [performance.now()];
  const native = from.parse(input, { file: config.file });
  times.push(performance.now());
  const transcript = from.toCommon(native, { ...read, onWarning: () => {} });
  times.push(performance.now());
  const target = to.fromCommon(transcript, { ...write, onWarning: () => {} });
  times.push(performance.now());
  to.serialize(target);
  times.push(performance.now());
  for (const [index, phase] of Object.keys(phases).entries()) {
    phases[phase].push(times[index + 1] - times[index]);
  }
}
process.stdout.write(
  JSON.stringify({
    inputBytes: Buffer.byteLength(input),
    outputBytes: Buffer.byteLength(output),
    floor,
    conversion,
    phases,
  }),
);
