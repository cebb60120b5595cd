// The shipped offline check (gemini-cli-verify.ts) with the pinned Gemini
// CLI: a session the store saved passes, and the controls fail: the same
// file broken after saving, and an id Gemini CLI cannot find. The check runs
// on a copy: the saved file is left as it was.
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { geminiCliCodec } from "./gemini-cli-codec.js";
import { GeminiCliStore } from "./gemini-cli-store.js";
import { geminiCliProgramCheck } from "./gemini-cli-verify.js";
import { fixtureTranscripts, geminiBin, geminiVersion } from "./test-support/interop.js";

const found = geminiBin();
const bin = "bin" in found ? found.bin : undefined;
const reason = "skip" in found ? found.skip : "";
if (bin === undefined) console.warn(`SKIPPED the Gemini CLI offline check: ${reason}`);

let root: string;
beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), "txcript-gemini-verify-test-"));
});
afterAll(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

async function saveSample(label: string) {
  const cwd = path.join(root, label, "work");
  await fs.mkdir(cwd, { recursive: true });
  const store = new GeminiCliStore({ root: path.join(root, label, "home", ".gemini") });
  const named = fixtureTranscripts(["gemini-cli"])[0];
  if (named === undefined) throw new Error("no fixtures/gemini-cli/*.common.json");
  const moved = { ...named.transcript, meta: { ...named.transcript.meta, cwd } };
  const saved = await store.save(geminiCliCodec.fromCommon(moved));
  return { store, saved, cwd };
}

describe.skipIf(bin === undefined)(
  `gemini ${geminiVersion}: geminiCliProgramCheck${bin === undefined ? ` (skipped: ${reason})` : ""}`,
  () => {
    it("passes a session the store saved, and leaves the file as it was", async () => {
      const { store, saved, cwd } = await saveSample("good");
      const before = await fs.readFile(saved.path);
      const result = await geminiCliProgramCheck.run(saved, {
        bin: bin as string,
        storeRoot: store.root,
        cwd,
        timeoutMs: 90_000,
      });
      expect(result.detail).toMatch(/^listed the session and resumed it/);
      expect(result.ok).toBe(true);
      expect((await fs.readFile(saved.path)).equals(before)).toBe(true);
    }, 200_000);

    it("fails on the same session broken after saving (the control)", async () => {
      const { store, saved, cwd } = await saveSample("broken");
      await fs.writeFile(saved.path, "this is not a recording\n");
      const result = await geminiCliProgramCheck.run(saved, {
        bin: bin as string,
        storeRoot: store.root,
        cwd,
        timeoutMs: 90_000,
      });
      expect(result.ok).toBe(false);
      expect(result.detail).toMatch(/^not listed/);
    }, 200_000);

    it("fails for an id that is not in the copied store (the control)", async () => {
      const { store, saved, cwd } = await saveSample("missing");
      const result = await geminiCliProgramCheck.run(
        { id: "00000000-0000-4000-8000-000000000000", path: saved.path },
        { bin: bin as string, storeRoot: store.root, cwd, timeoutMs: 90_000 },
      );
      expect(result.ok).toBe(false);
    }, 200_000);
  },
);
