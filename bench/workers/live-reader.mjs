// Child process: reads stream-json lines from stdin (a pipe) and samples its
// own memory as the stream goes by. `codec` uses @txcript/stream-json's
// readStreamJsonLines; `baseline` is node:readline + JSON.parse per line, the
// plainest bounded reader. Prints the samples as JSON.
import { createInterface } from "node:readline";
import { loadCodecs } from "../lib/packages.mjs";

const mode = process.argv[2];
const every = 64 * 1024 * 1024;
const samples = [];
let bytes = 0;
let lines = 0;
let next = every;
const sample = () => {
  const usage = process.memoryUsage();
  samples.push({ bytes, rss: usage.rss, heapUsed: usage.heapUsed });
};
const started = performance.now();
if (mode === "codec") {
  const { codecs } = await loadCodecs();
  for await (const record of codecs.readStreamJsonLines(process.stdin)) {
    lines++;
    bytes += record.text.length + 1;
    if (bytes >= next) {
      sample();
      next += every;
    }
  }
} else {
  for await (const line of createInterface({
    input: process.stdin,
    crlfDelay: Number.POSITIVE_INFINITY,
  })) {
    if (line === "") continue;
    JSON.parse(line);
    lines++;
    bytes += line.length + 1;
    if (bytes >= next) {
      sample();
      next += every;
    }
  }
}
sample();
process.stdout.write(
  JSON.stringify({ mode, lines, bytes, ms: performance.now() - started, samples }),
);
