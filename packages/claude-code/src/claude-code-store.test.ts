import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import type { Discovered, SkippedFile, Transcript } from "@txcript/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { claudeCodeCodec } from "./claude-code-codec.js";
import { claudeResumeCommand, mungeClaudeProjectDir } from "./claude-code-paths.js";
import { ClaudeCodeStore } from "./claude-code-store.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const fixture = (name: string) =>
  fs.readFile(path.join(repoRoot, "fixtures/claude-code", name), "utf8");

let root: string;
beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), "txcript-claude-store-"));
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

async function all(store: ClaudeCodeStore, onSkip?: (skipped: SkippedFile) => void) {
  const found: Discovered[] = [];
  for await (const item of store.discover(onSkip)) found.push(item);
  return found.sort((left, right) => left.id.localeCompare(right.id));
}

const transcript: Transcript = {
  meta: {
    id: "T-0199aaaa-bbbb-7ccc-8ddd-eeeeffff0001",
    timestamp: "2026-01-01T00:00:00.000Z",
    cwd: "/Users/alice/src/app",
    title: "from amp",
  },
  messages: [
    {
      role: "user",
      content: [{ type: "text", text: "hi" }],
      timestamp: "2026-01-01T00:00:01.000Z",
    },
  ],
};

describe("mungeClaudeProjectDir", () => {
  it("replaces every character but ASCII letters and digits with -", () => {
    expect(mungeClaudeProjectDir("/Users/alice/src/app")).toBe("-Users-alice-src-app");
    expect(mungeClaudeProjectDir("C:\\Users\\bob\\my.proj")).toBe("C--Users-bob-my-proj");
    expect(mungeClaudeProjectDir("/tmp/work dir/ü_x")).toBe("-tmp-work-dir---x");
  });
  it("cuts a long name at 200 characters and adds a hash of the cwd", () => {
    const long = `/${"a".repeat(300)}`;
    const munged = mungeClaudeProjectDir(long);
    expect(munged.startsWith(`-${"a".repeat(199)}-`)).toBe(true);
    expect(munged).toMatch(/^.{200}-[0-9a-z]+$/);
    expect(mungeClaudeProjectDir(`${long}b`)).not.toBe(munged);
  });
});

describe("ClaudeCodeStore", () => {
  it("defaults to $CLAUDE_CONFIG_DIR/projects, else ~/.claude/projects", () => {
    expect(ClaudeCodeStore.defaultRoot({ CLAUDE_CONFIG_DIR: "/cfg", HOME: "/home/a" })).toBe(
      path.join("/cfg", "projects"),
    );
    expect(ClaudeCodeStore.defaultRoot({ HOME: "/home/a" })).toBe(
      path.join("/home/a", ".claude", "projects"),
    );
    expect(new ClaudeCodeStore({ env: { CLAUDE_CONFIG_DIR: root } }).root).toBe(
      path.join(root, "projects"),
    );
  });

  it("saves under the munged cwd, named by session id, and loads it back", async () => {
    const store = new ClaudeCodeStore({ root });
    const native = claudeCodeCodec.fromCommon(transcript);
    const saved = await store.save(native);
    expect(saved.path).toBe(path.join(root, "-Users-alice-src-app", `${saved.id}.jsonl`));
    const loaded = await store.load(saved.id);
    expect(claudeCodeCodec.serialize(loaded)).toBe(claudeCodeCodec.serialize(native));
    expect(claudeResumeCommand(saved.id).argv).toEqual(["claude", `--resume=${saved.id}`]);
  });

  it("never clobbers unless asked", async () => {
    const store = new ClaudeCodeStore({ root });
    const native = claudeCodeCodec.fromCommon(transcript);
    await store.save(native);
    await expect(store.save(native)).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(store.save(native, { overwrite: true })).resolves.toMatchObject({});
    const moved = claudeCodeCodec.fromCommon({
      ...transcript,
      meta: { ...transcript.meta, cwd: "/elsewhere" },
    });
    await expect(store.save(moved)).rejects.toMatchObject({ code: "CONFLICT" });
  });

  it("refuses a session with no cwd unless told where, and one without a UUID id", async () => {
    const store = new ClaudeCodeStore({ root });
    const { cwd: _, ...meta } = transcript.meta;
    const native = claudeCodeCodec.fromCommon({ ...transcript, meta });
    await expect(store.save(native)).rejects.toMatchObject({ code: "USAGE" });
    const saved = await store.save(native, { cwd: "/srv/x" });
    expect(path.dirname(saved.path)).toBe(path.join(root, "-srv-x"));
    const foreign = claudeCodeCodec.parse('{"type":"user","sessionId":"../../etc","cwd":"/x"}\n');
    await expect(store.save(foreign)).rejects.toMatchObject({ code: "USAGE" });
  });

  it("discovers sessions shallowly with titles, skipping side files and foreign files", async () => {
    const project = path.join(root, "-Users-alice-src-app");
    await fs.mkdir(path.join(project, "5e551011-0000-4000-8000-000000000004", "subagents"), {
      recursive: true,
    });
    await fs.writeFile(
      path.join(project, "5e551011-0000-4000-8000-000000000004.jsonl"),
      await fixture("custom-title.jsonl"),
    );
    await fs.writeFile(
      path.join(project, "5e551011-0000-4000-8000-000000000001.jsonl"),
      await fixture("split-messages.jsonl"),
    );
    await fs.writeFile(
      path.join(project, "5e551011-0000-4000-8000-000000000004", "subagents", "agent-1.jsonl"),
      await fixture("thinking.jsonl"),
    );
    await fs.writeFile(path.join(project, "notes.jsonl"), '{"hello":"world"}\n');
    await fs.writeFile(path.join(project, "readme.txt"), "not a session");
    const skipped: SkippedFile[] = [];
    const found = await all(new ClaudeCodeStore({ root }), (skip) => skipped.push(skip));
    expect(found.map((item) => [item.id, item.title, item.cwd])).toEqual([
      [
        "5e551011-0000-4000-8000-000000000001",
        "list the files and count the lines of README.md",
        "/Users/alice/src/app",
      ],
      ["5e551011-0000-4000-8000-000000000004", "retry helper — notes", "/Users/alice/src/app"],
    ]);
    expect(
      found.every((item) => item.harness === "claude_code" && item.updatedAt.endsWith("Z")),
    ).toBe(true);
    expect(skipped.map((skip) => path.basename(skip.path))).toEqual(["notes.jsonl"]);
  });

  it("finds a title written at the end of a large file", async () => {
    const project = path.join(root, "-p");
    await fs.mkdir(project, { recursive: true });
    const filler = `${'{"type":"progress","uuid":"u","parentUuid":null,"sessionId":"s","data":"'}${"x".repeat(1000)}"}\n`;
    await fs.writeFile(
      path.join(project, "big.jsonl"),
      `${(await fixture("images.jsonl")) + filler.repeat(200)}{"type":"custom-title","customTitle":"late title","sessionId":"s"}\n`,
    );
    const found = await all(new ClaudeCodeStore({ root }));
    expect(found[0]?.title).toBe("late title");
  });

  it("loads and deletes by id, refusing ids that could escape the store", async () => {
    const store = new ClaudeCodeStore({ root });
    const saved = await store.save(claudeCodeCodec.fromCommon(transcript));
    await expect(store.load("../etc/passwd")).rejects.toMatchObject({ code: "UNSAFE_PATH" });
    await expect(store.load("00000000-0000-4000-8000-000000000000")).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await store.delete(saved.id);
    await expect(store.load(saved.id)).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("reports a session present in two projects as ambiguous", async () => {
    const store = new ClaudeCodeStore({ root });
    const saved = await store.save(claudeCodeCodec.fromCommon(transcript));
    await fs.mkdir(path.join(root, "-other"), { recursive: true });
    await fs.copyFile(saved.path, path.join(root, "-other", `${saved.id}.jsonl`));
    await expect(store.load(saved.id)).rejects.toMatchObject({ code: "AMBIGUOUS" });
  });

  it("lists nothing when the root does not exist", async () => {
    expect(await all(new ClaudeCodeStore({ root: path.join(root, "missing") }))).toEqual([]);
  });
});
