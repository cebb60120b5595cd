// A maintenance tool, not a test: how long CodexStore.discover takes per file
// over N rollouts of a small and of a large size (the bound: 2,000
// rollouts of 1 MB cost no more per file than 2 KB ones). Writes into a
// temporary CODEX_HOME and removes it. Usage: tsx scripts/measure-discover.mts [N]
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { CodexStore } from "../src/codex-store.ts";

const count = Number(process.argv[2] ?? 2000);

function rollout(index: number, bytes: number): string {
  const id = `019b0000-0000-7000-8000-${String(index).padStart(12, "0")}`;
  const head = [
    JSON.stringify({
      timestamp: "2026-01-01T00:00:00.000Z",
      type: "session_meta",
      payload: {
        id,
        timestamp: "2026-01-01T00:00:00.000Z",
        cwd: "/w",
        originator: "x",
        cli_version: "0.171.0",
        source: "cli",
        model_provider: "openai",
      },
    }),
    JSON.stringify({
      timestamp: "2026-01-01T00:00:01.000Z",
      type: "event_msg",
      payload: { type: "user_message", message: `prompt ${index}`, images: [] },
    }),
  ].join("\n");
  const line = JSON.stringify({
    timestamp: "2026-01-01T00:00:02.000Z",
    type: "response_item",
    payload: {
      type: "message",
      role: "assistant",
      content: [{ type: "output_text", text: "y".repeat(900) }],
    },
  });
  let text = `${head}\n`;
  while (text.length < bytes) text += `${line}\n`;
  return text;
}

async function measure(bytes: number): Promise<number> {
  const home = await fs.mkdtemp(path.join(os.tmpdir(), "txcript-codex-bench-"));
  try {
    const day = path.join(home, "sessions", "2026", "01", "01");
    await fs.mkdir(day, { recursive: true });
    for (let index = 0; index < count; index += 1) {
      const text = rollout(index, bytes);
      const id = `019b0000-0000-7000-8000-${String(index).padStart(12, "0")}`;
      await fs.writeFile(path.join(day, `rollout-2026-01-01T00-00-00-${id}.jsonl`), text);
    }
    const store = new CodexStore({ root: home });
    const start = process.hrtime.bigint();
    let found = 0;
    for await (const _ of store.discover()) found += 1;
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (found !== count) throw new Error(`found ${found} of ${count}`);
    return ms;
  } finally {
    await fs.rm(home, { recursive: true, force: true });
  }
}

for (const bytes of [2_048, 1_048_576]) {
  const ms = await measure(bytes);
  console.log(
    `${count} rollouts of ${bytes} bytes: ${ms.toFixed(0)} ms, ${((ms * 1000) / count).toFixed(0)} µs per file`,
  );
}
