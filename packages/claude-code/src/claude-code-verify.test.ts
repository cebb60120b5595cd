// The shipped offline check (claude-code-verify.ts) with the pinned Claude
// Code: a session the store saved passes, and the controls fail: the same
// file broken after saving, and an id Claude Code cannot find. The saved
// file itself is never touched by the check.
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { claudeCodeCodec } from "./claude-code-codec.js";
import { ClaudeCodeStore } from "./claude-code-store.js";
import { claudeCodeProgramCheck, resumeCheck } from "./claude-code-verify.js";
import { claudeCodeVersion, ensureClaude, fixtureTranscripts } from "./test-support/interop.js";

let root: string;
let bin: string | undefined;
let skipReason = "";

beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), "txcript-claude-verify-test-"));
  const found = ensureClaude();
  if ("skip" in found) {
    skipReason = found.skip;
    console.warn(`SKIPPED the Claude Code offline check: ${skipReason}`);
  } else bin = found.bin;
});
afterAll(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

async function saveSample(label: string) {
  const cwd = path.join(root, label, "work");
  await fs.mkdir(cwd, { recursive: true });
  const store = new ClaudeCodeStore({ root: path.join(root, label, "projects") });
  const named = fixtureTranscripts(["claude-code"]).find((entry) =>
    entry.name.endsWith("/compaction.common.json"),
  );
  if (named === undefined)
    throw new Error("fixtures/claude-code/compaction.common.json is missing");
  const moved = { ...named.transcript, meta: { ...named.transcript.meta, cwd } };
  const saved = await store.save(claudeCodeCodec.fromCommon(moved), { overwrite: true, cwd });
  return { store, saved, cwd };
}

describe(`claude ${claudeCodeVersion}: claudeCodeProgramCheck`, () => {
  it("passes a session the store saved, and leaves the file as it was", async (context) => {
    if (bin === undefined) return context.skip(skipReason);
    const { store, saved, cwd } = await saveSample("good");
    const before = await fs.readFile(saved.path);
    const result = await claudeCodeProgramCheck.run(saved, {
      bin,
      storeRoot: store.root,
      cwd,
      timeoutMs: 60_000,
    });
    expect(result.detail).toMatch(/^loaded the session and sent \d+ messages/);
    expect(result.ok).toBe(true);
    expect((await fs.readFile(saved.path)).equals(before)).toBe(true);
  }, 90_000);

  it("fails on the same session broken after saving (the control)", async (context) => {
    if (bin === undefined) return context.skip(skipReason);
    const { store, saved, cwd } = await saveSample("broken");
    await fs.writeFile(saved.path, "this is not a session\n");
    const result = await claudeCodeProgramCheck.run(saved, {
      bin,
      storeRoot: store.root,
      cwd,
      timeoutMs: 60_000,
    });
    expect(result.ok).toBe(false);
    expect(result.detail).toMatch(/No conversation found|no turn/);
  }, 90_000);

  it("fails for an id that is not in the copied store (the control)", async (context) => {
    if (bin === undefined) return context.skip(skipReason);
    const { store, saved, cwd } = await saveSample("missing");
    const result = await claudeCodeProgramCheck.run(
      { id: "00000000-0000-4000-8000-000000000000", path: saved.path },
      { bin, storeRoot: store.root, cwd, timeoutMs: 60_000 },
    );
    expect(result.ok).toBe(false);
    expect(result.detail).toContain("No conversation found");
  }, 90_000);

  it("fails when the history sent lacks the session's last text (the control)", async (context) => {
    if (bin === undefined) return context.skip(skipReason);
    const { store, saved, cwd } = await saveSample("other-text");
    const config = path.join(root, "other-text", "config");
    const copy = path.join(config, "projects", path.relative(store.root, saved.path));
    await fs.mkdir(path.dirname(copy), { recursive: true });
    await fs.copyFile(saved.path, copy);
    const expected = await resumeCheck(bin, config, cwd, saved.id, 60_000);
    expect(expected.ok, expected.detail).toBe(true);
    const result = await resumeCheck(
      bin,
      config,
      cwd,
      saved.id,
      60_000,
      "a text this session never had",
    );
    expect(result.ok).toBe(false);
    expect(result.detail).toMatch(/^no turn with the history and the session's last text/);
  }, 120_000);
});
