// The shipped offline check (opencode-verify.ts) with the pinned OpenCode:
// a session the store saved passes, and the controls fail: the same file
// broken after saving (not JSON, and a part that no longer reads back the
// same). The check imports a copy into a temporary home: the saved file is
// left as it was.
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { commonCodec } from "@txcript/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { opencodeCodec } from "./opencode-codec.js";
import { OpencodeStore } from "./opencode-store.js";
import { opencodeProgramCheck } from "./opencode-verify.js";
import { opencodeBin, opencodeSkipReason } from "./test-support/opencode-sandbox.js";

const repoRoot = path.resolve(import.meta.dirname, "../../..");
const reason = opencodeSkipReason ?? "not installed";
if (opencodeBin === undefined) console.warn(`SKIPPED the OpenCode offline check: ${reason}`);

let root: string;
beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), "txcript-opencode-verify-test-"));
});
afterAll(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

async function saveSample(label: string) {
  const fixtures = path.join(repoRoot, "fixtures/opencode");
  const name = (await fs.readdir(fixtures)).find((entry) => entry.endsWith(".common.json"));
  if (name === undefined) throw new Error("no fixtures/opencode/*.common.json");
  const transcript = commonCodec.toCommon(
    commonCodec.parse(await fs.readFile(path.join(fixtures, name), "utf8")),
  );
  const store = new OpencodeStore({
    root: path.join(root, label, "data", "opencode"),
    staging: path.join(root, label, "staging"),
  });
  const saved = await store.save(opencodeCodec.fromCommon(transcript));
  return { store, saved, cwd: path.join(root, label) };
}

describe.skipIf(opencodeBin === undefined)(
  `opencodeProgramCheck${opencodeBin === undefined ? ` (skipped: ${reason})` : ""}`,
  () => {
    it("passes a session the store saved, and leaves the file as it was", async () => {
      const { store, saved, cwd } = await saveSample("good");
      const before = await fs.readFile(saved.path);
      const result = await opencodeProgramCheck.run(saved, {
        bin: opencodeBin as string,
        storeRoot: store.root,
        cwd,
        timeoutMs: 90_000,
      });
      expect(result.detail).toMatch(/^imported the session and exported it back/);
      expect(result.ok).toBe(true);
      expect((await fs.readFile(saved.path)).equals(before)).toBe(true);
    }, 200_000);

    it("fails on the same session broken after saving (the control)", async () => {
      const { store, saved, cwd } = await saveSample("broken");
      // Still an export txcript reads, but a creation time OpenCode's import refuses.
      const document = JSON.parse(await fs.readFile(saved.path, "utf8"));
      document.info.time.created = "yesterday";
      await fs.writeFile(saved.path, JSON.stringify(document));
      const result = await opencodeProgramCheck.run(saved, {
        bin: opencodeBin as string,
        storeRoot: store.root,
        cwd,
        timeoutMs: 90_000,
      });
      expect(result.ok).toBe(false);
      expect(result.detail).toMatch(/^import exited [1-9]/);
    }, 200_000);

    it("fails on a file that is not an export at all (the control)", async () => {
      const { store, saved, cwd } = await saveSample("garbage");
      await fs.writeFile(saved.path, "this is not an export\n");
      const result = await opencodeProgramCheck.run(saved, {
        bin: opencodeBin as string,
        storeRoot: store.root,
        cwd,
        timeoutMs: 90_000,
      });
      expect(result.ok).toBe(false);
    }, 200_000);
  },
);
