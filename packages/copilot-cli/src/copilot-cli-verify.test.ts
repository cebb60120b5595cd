// The shipped offline check (copilot-cli-verify.ts) with the pinned Copilot
// CLI: a session the store saved passes, and the controls fail: the same
// file broken after saving, and an id the copied store does not hold. The
// check runs on a copy: the saved file is left as it was.
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copilotCliCodec } from "./copilot-cli-codec.js";
import { CopilotCliStore } from "./copilot-cli-store.js";
import {
  copilotCliProgramCheck,
  expectedInRequest,
  missingFromRequest,
} from "./copilot-cli-verify.js";
import { copilotBin, copilotVersion, exchange } from "./test-support/interop.js";

const found = copilotBin();
const bin = "bin" in found ? found.bin : undefined;
const reason = "skip" in found ? found.skip : "";
if (bin === undefined) console.warn(`SKIPPED the Copilot CLI offline check: ${reason}`);

let root: string;
beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), "txcript-copilot-verify-test-"));
});
afterAll(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

const id = "9e5b0c1d-2f3a-4b6c-8d7e-0f1a2b3c4d5e";

async function saveSample(label: string) {
  const cwd = path.join(root, label, "work");
  await fs.mkdir(cwd, { recursive: true });
  const store = new CopilotCliStore({ root: path.join(root, label, "copilot") });
  const saved = await store.save(copilotCliCodec.fromCommon(exchange(id, cwd)));
  return { store, saved, cwd };
}

describe("expectedInRequest and missingFromRequest", () => {
  const log = [
    '{"type":"session.start","data":{"sessionId":"x"}}',
    '{"type":"user.message","data":{"content":"before"}}',
    '{"type":"session.compaction_complete","data":{"success":true,"summaryContent":"S"}}',
    '{"type":"user.message","data":{"content":"first"}}',
    '{"type":"user.message","agentId":"a1","data":{"content":"inner"}}',
    '{"type":"assistant.message","data":{"content":"","toolRequests":[{"toolCallId":"c1","name":"bash"}]}}',
    '{"type":"tool.execution_complete","data":{"toolCallId":"c1","success":true}}',
    "not json",
    "",
  ].join("\n");
  it("keeps what follows the last compaction of the main conversation, and its summary", () => {
    expect(expectedInRequest(log)).toEqual({
      prompts: ["first"],
      calls: ["c1"],
      results: ["c1"],
      summary: "S",
    });
  });
  it("names what a request lacks, and nothing when it carries all", () => {
    const expected = expectedInRequest(log);
    const full = {
      messages: [
        { role: "user", content: "summary: S" },
        { role: "user", content: "first" },
        { role: "assistant", content: null, tool_calls: [{ id: "c1" }] },
        { role: "tool", tool_call_id: "c1", content: "" },
      ],
    };
    expect(missingFromRequest(expected, full)).toBeUndefined();
    expect(missingFromRequest(expected, { messages: full.messages.slice(1, 2) })).toBe(
      "the model request lacks the compaction summary; tool calls c1; results of c1",
    );
  });
});

describe.skipIf(bin === undefined)(
  `copilot ${copilotVersion}: copilotCliProgramCheck${bin === undefined ? ` (skipped: ${reason})` : ""}`,
  () => {
    it("passes a session the store saved, and leaves the file as it was", async () => {
      const { store, saved, cwd } = await saveSample("good");
      const before = await fs.readFile(saved.path);
      const result = await copilotCliProgramCheck.run(saved, {
        bin: bin as string,
        storeRoot: store.root,
        cwd,
        timeoutMs: 120_000,
      });
      expect(result.detail).toBe(
        "resumed the session and sent its 1 prompts, 1 tool calls and 1 results in 6 messages",
      );
      expect(result.ok).toBe(true);
      expect((await fs.readFile(saved.path)).equals(before)).toBe(true);
    }, 200_000);

    it("fails on the same session broken after saving (the control)", async () => {
      const { store, saved, cwd } = await saveSample("broken");
      await fs.writeFile(saved.path, "this is not an event log\n");
      const result = await copilotCliProgramCheck.run(saved, {
        bin: bin as string,
        storeRoot: store.root,
        cwd,
        timeoutMs: 120_000,
      });
      expect(result.ok).toBe(false);
      expect(result.detail).toMatch(/^resume: exit 1: .*(could not be loaded|corrupted)/);
    }, 200_000);

    it("fails for an id that is not in the copied store (the control)", async () => {
      const { store, saved, cwd } = await saveSample("missing");
      const result = await copilotCliProgramCheck.run(
        { id: "00000000-0000-4000-8000-000000000000", path: saved.path },
        { bin: bin as string, storeRoot: store.root, cwd, timeoutMs: 120_000 },
      );
      expect(result.ok).toBe(false);
      expect(result.detail).toMatch(/^resume: exit 1/);
    }, 200_000);
  },
);
