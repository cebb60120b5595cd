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
import { copilotCliProgramCheck, savedPrompts } from "./copilot-cli-verify.js";
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

describe("savedPrompts", () => {
  it("lists the main conversation's prompts, not a subagent's nor other events", () => {
    const text = [
      '{"type":"session.start","data":{"sessionId":"x"}}',
      '{"type":"user.message","data":{"content":"first"}}',
      '{"type":"user.message","agentId":"a1","data":{"content":"inner"}}',
      '{"type":"assistant.message","data":{"content":"not a prompt"}}',
      "not json",
      '{"type":"user.message","data":{"content":"second"}}',
      "",
    ].join("\n");
    expect(savedPrompts(text)).toEqual(["first", "second"]);
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
      expect(result.detail).toBe("resumed the session and sent its 1 prompts in 6 messages");
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
