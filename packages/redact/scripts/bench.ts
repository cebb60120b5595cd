// Redaction throughput on a generated session of about 100 MB (Common JSON
// size): a maintenance measurement, not a test. Run from packages/redact:
//   ../../node_modules/.bin/tsx --conditions=@txcript/source scripts/bench.ts [megabytes]
// It prints the session size, the time redactTranscript took, MB/s, and the
// count of redacted secrets against the count seeded.
import type { Message, Transcript } from "@txcript/core";
import { redactTranscript } from "../src/index.js";
import { fakeSecrets, seeded } from "../src/test-support.js";

const targetBytes = Number(process.argv[2] ?? 100) * 1024 * 1024;
const random = seeded(42);
const words =
  "the build step reads config from env and writes dist files then runs vitest on each package".split(
    " ",
  );
const line = (n: number) =>
  `${String(n).padStart(6, "0")} ${Array.from({ length: 12 }, () => words[Math.floor(random() * words.length)]).join(" ")}`;

const messages: Message[] = [];
let bytes = 0;
let seededSecrets = 0;
let turn = 0;
while (bytes < targetBytes) {
  const id = `toolu_${turn}`;
  const time = new Date(Date.UTC(2026, 2, 1) + turn * 1000).toISOString();
  const output = Array.from({ length: 100 }, (_, n) => line(n));
  if (turn % 50 === 0) {
    output[40] = `OPENAI_API_KEY=${fakeSecrets(turn).openai}`;
    output[70] = `remote: ${fakeSecrets(turn).githubClassic}`;
    seededSecrets += 2;
  }
  const pair: Message[] = [
    {
      role: "assistant",
      timestamp: time,
      content: [
        { type: "text", text: `Step ${turn}: ${line(turn)}` },
        {
          type: "tool_use",
          id,
          tool: { name: "Bash", input: { command: `pnpm run build --filter pkg-${turn % 40}` } },
        },
      ],
    },
    {
      role: "user",
      timestamp: time,
      content: [{ type: "tool_result", toolUseId: id, isError: false, content: output.join("\n") }],
    },
  ];
  for (const message of pair) bytes += JSON.stringify(message).length;
  messages.push(...pair);
  turn += 1;
}
const transcript: Transcript = {
  meta: { id: "bench", timestamp: "2026-03-01T00:00:00.000Z" },
  messages,
};
const size = Buffer.byteLength(JSON.stringify(transcript));
const started = performance.now();
const { report } = await redactTranscript(transcript);
const seconds = (performance.now() - started) / 1000;
const megabytes = size / 1024 / 1024;
console.log(
  JSON.stringify({
    sessionMB: Number(megabytes.toFixed(1)),
    messages: messages.length,
    seconds: Number(seconds.toFixed(2)),
    mbPerSecond: Number((megabytes / seconds).toFixed(1)),
    redacted: report.total,
    seeded: seededSecrets,
    node: process.version,
  }),
);
