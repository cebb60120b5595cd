// The recordings older Qwen Code releases wrote (fixtures/qwen-code/eras/)
// still resume in the pinned Qwen Code: each is put in a temporary store at
// its project's place and `qwen --resume=<id>` runs on it offline through the
// shipped check (qwen-code-verify.ts), which passes only when the model
// receives every recorded prompt, tool call and result. The only edit is the
// project path: the records' cwd `/tmp/qwork/p` becomes a fresh temporary
// directory (Qwen Code resumes a session only in its own project). The
// control: the 0.5.0 file with `parentUuid` renamed fails.
import { promises as fs, readdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { qwenProjectDirName } from "./qwen-code-paths.js";
import { qwenCodeProgramCheck } from "./qwen-code-verify.js";

const programs = (await import(
  new URL("../../../scripts/real-programs.mjs", import.meta.url).href
)) as {
  programBin(name: string): string | undefined;
  programSkipReason(name: string): string | undefined;
};
const skipAll = process.env.TXCRIPT_SKIP_REAL_PROGRAMS === "1";
const bin = skipAll ? undefined : programs.programBin("qwen");
const reason = skipAll
  ? "TXCRIPT_SKIP_REAL_PROGRAMS=1"
  : bin === undefined
    ? (programs.programSkipReason("qwen") ?? "not installed")
    : "";
if (bin === undefined) console.warn(`SKIPPED the Qwen Code eras resume check: ${reason}`);

const directory = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../../fixtures/qwen-code/eras",
);
const eras = readdirSync(directory).filter((name) => name.endsWith(".jsonl"));

let root: string;
beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), "txcript-qwen-eras-"));
});
afterAll(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

async function resume(name: string, edit: (text: string) => string = (text) => text) {
  const label = name.replace(/\.jsonl$/, "");
  const cwd = path.join(root, label, "project");
  const storeRoot = path.join(root, label, "store");
  await fs.mkdir(cwd, { recursive: true });
  const text = (await fs.readFile(path.join(directory, name), "utf8")).replaceAll(
    JSON.stringify("/tmp/qwork/p"),
    JSON.stringify(cwd),
  );
  const id = (JSON.parse(text.slice(0, text.indexOf("\n"))) as { sessionId: string }).sessionId;
  const file = path.join(storeRoot, "projects", qwenProjectDirName(cwd), "chats", `${id}.jsonl`);
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, edit(text));
  return qwenCodeProgramCheck.run(
    { id, path: file },
    { bin: bin as string, storeRoot, cwd, timeoutMs: 90_000 },
  );
}

describe.skipIf(bin === undefined)("older recordings resume in the pinned Qwen Code", () => {
  for (const name of eras)
    it(`${name}: the model receives its whole history`, async () => {
      const result = await resume(name);
      expect(result.detail).toMatch(/^resumed the session/);
      expect(result.ok).toBe(true);
    }, 120_000);
  it("control: qwen-0.5.0.jsonl with parentUuid renamed is not resumed", async () => {
    const result = await resume("qwen-0.5.0.jsonl", (text) =>
      text.replaceAll('"parentUuid":', '"parentId":'),
    );
    expect(result.ok).toBe(false);
  }, 120_000);
});
