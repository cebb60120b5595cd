import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import * as path from "node:path";
import type { Transcript } from "@txcript/core";
import { afterEach, describe, expect, it } from "vitest";
import { qwenCodeCodec } from "./qwen-code-codec.js";
import { qwenCodeHarness } from "./qwen-code-harness.js";
import { defaultQwenRoot, qwenProjectDirName } from "./qwen-code-paths.js";
import { QwenCodeStore } from "./qwen-code-store.js";

const roots: string[] = [];
function tempRoot(): string {
  const root = mkdtempSync(path.join(os.tmpdir(), "txcript-qwen-store-"));
  roots.push(root);
  return root;
}
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

const transcript: Transcript = {
  meta: { id: "not a uuid", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/home/dev/my app" },
  messages: [
    {
      role: "user",
      content: [{ type: "text", text: "hello there" }],
      timestamp: "2026-01-01T00:00:00.000Z",
    },
    {
      role: "assistant",
      content: [{ type: "text", text: "hi" }],
      timestamp: "2026-01-01T00:00:01.000Z",
    },
  ],
};

describe("QwenCodeStore", () => {
  it("munges a cwd as Qwen Code does: every character outside [A-Za-z0-9] becomes -", () => {
    expect(qwenProjectDirName("/tmp/qwork/p")).toBe("-tmp-qwork-p");
    expect(qwenProjectDirName("/home/dev/my app_ü")).toBe("-home-dev-my-app--");
  });
  it("takes its root from QWEN_RUNTIME_DIR, then QWEN_HOME, then ~/.qwen", () => {
    expect(defaultQwenRoot({ HOME: "/h" })).toBe("/h/.qwen");
    expect(defaultQwenRoot({ HOME: "/h", QWEN_HOME: "/q" })).toBe("/q");
    expect(defaultQwenRoot({ HOME: "/h", QWEN_HOME: "/q", QWEN_RUNTIME_DIR: "~/r" })).toBe("/h/r");
  });
  it("saves under projects/<cwd>/chats/<uuid>.jsonl, lists, loads, refuses to clobber, deletes", async () => {
    const store = new QwenCodeStore({ root: tempRoot() });
    const session = qwenCodeCodec.fromCommon(transcript);
    const saved = await store.save(session);
    expect(saved.path).toBe(
      path.join(store.root, "projects", "-home-dev-my-app", "chats", `${saved.id}.jsonl`),
    );
    expect(saved.id).toMatch(/^[0-9a-f-]{36}$/);
    const listed = [];
    for await (const found of store.discover()) listed.push(found);
    expect(listed).toMatchObject([{ id: saved.id, cwd: "/home/dev/my app", title: "hello there" }]);
    expect(qwenCodeCodec.serialize(await store.load(saved.id))).toBe(
      readFileSync(saved.path, "utf8"),
    );
    await expect(store.save(session)).rejects.toMatchObject({ code: "CONFLICT" });
    await store.delete(saved.id);
    await expect(store.load(saved.id)).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
  it("refuses an id that cannot name a file, and a session without a cwd", async () => {
    const store = new QwenCodeStore({ root: tempRoot() });
    await expect(store.load("../etc/passwd")).rejects.toMatchObject({ code: "UNSAFE_PATH" });
    const { cwd: _, ...meta } = transcript.meta;
    await expect(
      store.save(qwenCodeCodec.fromCommon({ ...transcript, meta })),
    ).rejects.toMatchObject({ code: "USAGE" });
  });
  it("resumes with the id in the same word as the flag", () => {
    expect(qwenCodeHarness.resumeCommand?.("5f5c417b-55ad-47a6-ad93-dce2ab9d96e2")).toEqual([
      "qwen",
      "--resume=5f5c417b-55ad-47a6-ad93-dce2ab9d96e2",
    ]);
  });
});
