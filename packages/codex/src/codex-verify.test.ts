// The shipped offline check (codex-verify.ts) with the pinned Codex: a
// rollout the store saved passes, and the controls fail: the same file broken
// after saving, and an id Codex cannot find. The check runs on a copy: the
// saved file is left as it was (Codex itself appends to what it resumes).
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { codexCodec } from "./codex-codec.js";
import { codexHarness } from "./codex-harness.js";
import { CodexStore } from "./codex-store.js";
import { codexProgramCheck } from "./codex-verify.js";
import { fixtureTranscripts } from "./test-support/codex-programs.js";

const programs = (await import(
  new URL("../../../scripts/real-programs.mjs", import.meta.url).href
)) as {
  programBin(name: string): string | undefined;
  programSkipReason(name: string): string | undefined;
  realPrograms: Record<string, { version: string }>;
};

const bin = programs.programBin("codex");
const reason = bin === undefined ? (programs.programSkipReason("codex") ?? "not installed") : "";
if (bin === undefined) console.warn(`SKIPPED the Codex offline check: ${reason}`);

let root: string;
beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), "txcript-codex-verify-test-"));
});
afterAll(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

async function saveSample(label: string) {
  const cwd = path.join(root, label, "work");
  await fs.mkdir(cwd, { recursive: true });
  const store = new CodexStore({ root: path.join(root, label, "home") });
  const named = fixtureTranscripts().find((entry) => entry.name.startsWith("codex/"));
  if (named === undefined) throw new Error("no fixtures/codex/*.common.json");
  const moved = { ...named.transcript, meta: { ...named.transcript.meta, cwd } };
  const options = codexHarness.writeOptions?.({ from: "common" }) ?? {};
  const saved = await store.save(codexCodec.fromCommon(moved, options), { overwrite: true });
  return { store, saved, cwd };
}

describe.skipIf(bin === undefined)(
  `codex ${programs.realPrograms.codex?.version}: codexProgramCheck${bin === undefined ? ` (skipped: ${reason})` : ""}`,
  () => {
    it("passes a rollout the store saved, and leaves the file as it was", async () => {
      const { store, saved, cwd } = await saveSample("good");
      const before = await fs.readFile(saved.path);
      const result = await codexProgramCheck.run(saved, {
        bin: bin as string,
        storeRoot: store.root,
        cwd,
        timeoutMs: 60_000,
      });
      expect(result.detail).toBe("opened the session and sent its turn to the stub");
      expect(result.ok).toBe(true);
      expect((await fs.readFile(saved.path)).equals(before)).toBe(true);
    }, 90_000);

    it("fails on the same rollout broken after saving (the control)", async () => {
      const { store, saved, cwd } = await saveSample("broken");
      await fs.writeFile(saved.path, "this is not a rollout\n");
      const result = await codexProgramCheck.run(saved, {
        bin: bin as string,
        storeRoot: store.root,
        cwd,
        timeoutMs: 60_000,
      });
      expect(result.ok).toBe(false);
      expect(result.detail).toMatch(/^not opened/);
    }, 90_000);

    it("fails for an id that is not in the copied home (the control)", async () => {
      const { store, saved, cwd } = await saveSample("missing");
      const result = await codexProgramCheck.run(
        { id: "00000000-0000-4000-8000-000000000000", path: saved.path },
        { bin: bin as string, storeRoot: store.root, cwd, timeoutMs: 60_000 },
      );
      expect(result.ok).toBe(false);
    }, 90_000);
  },
);
