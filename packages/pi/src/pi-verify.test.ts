// The shipped offline check (pi-verify.ts) with the pinned pi: a session the
// store saved passes, in the per-directory and the flat layout, and the
// controls fail: the same file broken after saving, and an id pi cannot
// find. The check runs on a copy: the saved file is left as it was.
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { piCodec } from "./pi-codec.js";
import { PiStore } from "./pi-store.js";
import { piProgramCheck } from "./pi-verify.js";
import { fixtureTranscripts } from "./test-support/pi-rpc.js";

const programs = (await import(
  new URL("../../../scripts/real-programs.mjs", import.meta.url).href
)) as {
  programBin(name: string): string | undefined;
  programSkipReason(name: string): string | undefined;
  realPrograms: Record<string, { version: string }>;
};
const bin = programs.programBin("pi");
const reason = bin === undefined ? (programs.programSkipReason("pi") ?? "not installed") : "";
if (bin === undefined) console.warn(`SKIPPED the pi offline check: ${reason}`);

let root: string;
beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), "txcript-pi-verify-test-"));
});
afterAll(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

async function saveSample(label: string, flat = false) {
  const cwd = path.join(root, label, "project");
  await fs.mkdir(cwd, { recursive: true });
  const store = new PiStore({ root: path.join(root, label, "sessions"), flat });
  const named = fixtureTranscripts().find((entry) => entry.name.startsWith("pi/"));
  if (named === undefined) throw new Error("no fixtures/pi/*.common.json");
  const saved = await store.save(piCodec.fromCommon(named.transcript, { cwd }));
  return { store, saved, cwd };
}

describe.skipIf(bin === undefined)(
  `pi ${programs.realPrograms.pi?.version}: piProgramCheck${bin === undefined ? ` (skipped: ${reason})` : ""}`,
  () => {
    for (const flat of [false, true])
      it(`passes a session the store saved (${flat ? "flat" : "per-directory"} store)`, async () => {
        const { store, saved, cwd } = await saveSample(flat ? "flat" : "good", flat);
        const before = await fs.readFile(saved.path);
        const result = await piProgramCheck.run(saved, {
          bin: bin as string,
          storeRoot: store.root,
          cwd,
          timeoutMs: 60_000,
        });
        expect(result.detail).toMatch(/^opened the session with \d+ messages/);
        expect(result.ok).toBe(true);
        expect((await fs.readFile(saved.path)).equals(before)).toBe(true);
      }, 90_000);

    it("fails on the same session broken after saving (the control)", async () => {
      const { store, saved, cwd } = await saveSample("broken");
      const text = await fs.readFile(saved.path, "utf8");
      // The header stays; every message line loses its parent link.
      const broken = text
        .split("\n")
        .map((line, index) =>
          index === 0 ? line : line.replace(/"parentId":"[^"]*"/, '"parentId":"nowhere"'),
        )
        .join("\n");
      await fs.writeFile(saved.path, broken);
      const result = await piProgramCheck.run(saved, {
        bin: bin as string,
        storeRoot: store.root,
        cwd,
        timeoutMs: 60_000,
      });
      expect(result.ok, result.detail).toBe(false);
    }, 90_000);

    it("fails for an id that is not in the copied store (the control)", async () => {
      const { store, saved, cwd } = await saveSample("missing");
      const result = await piProgramCheck.run(
        { id: "00000000-0000-4000-8000-000000000000", path: saved.path },
        { bin: bin as string, storeRoot: store.root, cwd, timeoutMs: 60_000 },
      );
      expect(result.ok).toBe(false);
    }, 90_000);
  },
);
