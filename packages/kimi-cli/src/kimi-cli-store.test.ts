// The store: where Kimi CLI keeps a session (the share dir, the md5 of the
// work dir, the session directory), what kimi.json must hold for
// `kimi --session` to find it, and what hostile or broken stores do.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import * as path from "node:path";
import { loadSessionFile, type SkippedFile, type Transcript, type Warning } from "@txcript/core";
import { afterEach, describe, expect, it } from "vitest";
import { kimiCliCodec } from "./kimi-cli-codec.js";
import { kimiCliHarness } from "./kimi-cli-harness.js";
import { kimiSessionId, kimiWorkDirHash } from "./kimi-cli-paths.js";
import { KimiCliStore } from "./kimi-cli-store.js";
import { defaultKimiRoot } from "./kimi-cli-store-root.js";

const roots: string[] = [];
function tempRoot(): string {
  const root = mkdtempSync(path.join(os.tmpdir(), "txcript-kimi-store-"));
  roots.push(root);
  return root;
}
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

const transcript: Transcript = {
  meta: {
    id: "not a uuid",
    timestamp: "2026-01-01T00:00:00.000Z",
    cwd: "/home/dev/my app",
    title: "Say hello",
  },
  messages: [
    {
      role: "user",
      content: [{ type: "text", text: "hello there" }],
      timestamp: "2026-01-01T00:00:00.000Z",
    },
    {
      role: "assistant",
      content: [{ type: "text", text: "hi" }],
      timestamp: "2026-01-01T00:00:00.001Z",
    },
  ],
};

async function listAll(store: KimiCliStore, skipped: SkippedFile[] = []) {
  const found = [];
  for await (const entry of store.discover((skip) => skipped.push(skip))) found.push(entry);
  return found;
}

function context(root: string, workDir: string, id: string, text: string): string {
  const directory = path.join(root, "sessions", kimiWorkDirHash(workDir), id);
  mkdirSync(directory, { recursive: true });
  writeFileSync(path.join(directory, "context.jsonl"), text);
  return path.join(directory, "context.jsonl");
}

const oneMessage = '{"role":"user","content":"hi"}\n';

describe("KimiCliStore", () => {
  it("hashes a work dir as Kimi CLI does (md5 of the path's UTF-8), checked against md5sum", () => {
    for (const workDir of ["/home/dev/hello", "/tmp/é ü"]) {
      const expected = execFileSync("md5sum", { input: Buffer.from(workDir, "utf8") })
        .toString()
        .split(" ")[0];
      expect(kimiWorkDirHash(workDir)).toBe(expected);
    }
    expect(kimiWorkDirHash("/home/dev/hello")).not.toBe(kimiWorkDirHash("/home/dev/hello/"));
  });
  it("takes its root from KIMI_SHARE_DIR, else ~/.kimi", () => {
    expect(defaultKimiRoot({ HOME: "/h" })).toBe("/h/.kimi");
    expect(defaultKimiRoot({ HOME: "/h", KIMI_SHARE_DIR: "/s" })).toBe("/s");
    expect(defaultKimiRoot({ HOME: "/h", KIMI_SHARE_DIR: "" })).toBe("/h/.kimi");
  });
  it("saves under sessions/<md5 of the work dir>/<uuid>/context.jsonl, registers the work dir, lists, loads, refuses to clobber, deletes", async () => {
    const store = new KimiCliStore({ root: tempRoot() });
    const warnings: Warning[] = [];
    const session = kimiCliCodec.fromCommon(transcript, { onWarning: (w) => warnings.push(w) });
    expect(warnings.map((warning) => warning.code)).toContain("kimi_cli.session-id");
    const saved = await store.save(session);
    expect(saved.id).toBe(kimiSessionId("not a uuid"));
    expect(saved.path).toBe(
      path.join(
        store.root,
        "sessions",
        kimiWorkDirHash("/home/dev/my app"),
        saved.id,
        "context.jsonl",
      ),
    );
    // Session.find looks the work dir up in kimi.json: without the entry Kimi CLI would make a new, empty session.
    const metadata = JSON.parse(readFileSync(path.join(store.root, "kimi.json"), "utf8"));
    expect(metadata).toEqual({
      work_dirs: [{ path: "/home/dev/my app", kaos: "local", last_session_id: null }],
    });
    expect(
      JSON.parse(readFileSync(path.join(path.dirname(saved.path), "state.json"), "utf8")),
    ).toEqual({
      custom_title: "Say hello",
    });
    const listed = await listAll(store);
    expect(listed).toMatchObject([{ id: saved.id, cwd: "/home/dev/my app", title: "Say hello" }]);
    const loaded = await store.load(saved.id);
    expect(kimiCliCodec.serialize(loaded)).toBe(readFileSync(saved.path, "utf8"));
    const back = kimiCliCodec.toCommon(loaded);
    expect(back.meta).toMatchObject({ id: saved.id, cwd: "/home/dev/my app", title: "Say hello" });
    expect(back.messages.map((message) => message.content)).toEqual(
      transcript.messages.map((message) => message.content),
    );
    await expect(store.save(session)).rejects.toMatchObject({ code: "CONFLICT" });
    // A second session in the same work dir adds no second kimi.json entry.
    await store.save(
      kimiCliCodec.fromCommon({ ...transcript, meta: { ...transcript.meta, id: "other" } }),
    );
    expect(
      JSON.parse(readFileSync(path.join(store.root, "kimi.json"), "utf8")).work_dirs,
    ).toHaveLength(1);
    await store.delete(saved.id);
    await expect(store.load(saved.id)).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
  it("keeps what else kimi.json holds, and refuses to rewrite a kimi.json that is not Kimi CLI's", async () => {
    const root = tempRoot();
    const store = new KimiCliStore({ root });
    writeFileSync(
      path.join(root, "kimi.json"),
      JSON.stringify({
        work_dirs: [{ path: "/elsewhere", kaos: "local", last_session_id: "x" }],
        extra: 1,
      }),
    );
    await store.save(kimiCliCodec.fromCommon(transcript));
    const metadata = JSON.parse(readFileSync(path.join(root, "kimi.json"), "utf8"));
    expect(metadata.extra).toBe(1);
    expect(metadata.work_dirs.map((entry: { path: string }) => entry.path)).toEqual([
      "/elsewhere",
      "/home/dev/my app",
    ]);
    const broken = tempRoot();
    writeFileSync(path.join(broken, "kimi.json"), "{not json");
    await expect(
      new KimiCliStore({ root: broken }).save(kimiCliCodec.fromCommon(transcript)),
    ).rejects.toMatchObject({
      code: "INVALID_DOCUMENT",
    });
    expect(readFileSync(path.join(broken, "kimi.json"), "utf8")).toBe("{not json");
  });
  it("refuses an id that cannot name a directory, and a session without a work dir", async () => {
    const store = new KimiCliStore({ root: tempRoot() });
    for (const id of ["../etc/passwd", ".", "..", "a/b", ""])
      await expect(store.load(id)).rejects.toMatchObject({ code: "UNSAFE_PATH" });
    const { cwd: _, ...meta } = transcript.meta;
    await expect(
      store.save(kimiCliCodec.fromCommon({ ...transcript, meta })),
    ).rejects.toMatchObject({
      code: "USAGE",
    });
    // Control: the same session saves when given a work dir.
    await expect(
      store.save(kimiCliCodec.fromCommon({ ...transcript, meta }), { cwd: "/w" }),
    ).resolves.toMatchObject({ id: kimiSessionId("not a uuid") });
  });
  it("finds legacy <id>.jsonl sessions, and a session id in two work dirs is AMBIGUOUS", async () => {
    const root = tempRoot();
    const store = new KimiCliStore({ root });
    const legacy = path.join(root, "sessions", kimiWorkDirHash("/a"));
    mkdirSync(legacy, { recursive: true });
    writeFileSync(path.join(legacy, "s1.jsonl"), oneMessage);
    expect(await store.locate("s1")).toBe(path.join(legacy, "s1.jsonl"));
    expect((await listAll(store)).map((entry) => entry.id)).toEqual(["s1"]);
    context(root, "/b", "s1", oneMessage);
    await expect(store.load("s1")).rejects.toMatchObject({ code: "AMBIGUOUS" });
  });
  it("lists no empty session, as Kimi CLI lists none, and reports none as unreadable", async () => {
    const root = tempRoot();
    context(root, "/a", "empty", "");
    context(root, "/a", "bookkeeping", '{"role": "_checkpoint", "id": 0}\n');
    context(root, "/a", "real", oneMessage);
    const skipped: SkippedFile[] = [];
    expect((await listAll(new KimiCliStore({ root }), skipped)).map((entry) => entry.id)).toEqual([
      "real",
    ]);
    expect(skipped).toEqual([]);
    // Control: a context file with a line that is not JSON is listed (as Kimi CLI lists it), and its load names the line.
    context(root, "/a", "broken", "{not json\n");
    const store = new KimiCliStore({ root });
    expect((await listAll(store)).map((entry) => entry.id).sort()).toEqual(["broken", "real"]);
    await expect(store.load("broken")).rejects.toMatchObject({
      code: "INVALID_JSON",
      location: { line: 1 },
    });
  });
  it("follows no link out of the store and reads no FIFO", async () => {
    const root = tempRoot();
    const outside = tempRoot();
    writeFileSync(path.join(outside, "context.jsonl"), oneMessage);
    const hash = path.join(root, "sessions", kimiWorkDirHash("/a"));
    mkdirSync(path.join(hash, "linked-file"), { recursive: true });
    symlinkSync(
      path.join(outside, "context.jsonl"),
      path.join(hash, "linked-file", "context.jsonl"),
    );
    symlinkSync(outside, path.join(hash, "linked-dir"));
    symlinkSync(path.join(outside, "context.jsonl"), path.join(hash, "linked-legacy.jsonl"));
    mkdirSync(path.join(hash, "fifo"));
    execFileSync("mkfifo", [path.join(hash, "fifo", "context.jsonl")]);
    // kimi.json as a link out of the store is not read either.
    writeFileSync(path.join(outside, "kimi.json"), JSON.stringify({ work_dirs: [{ path: "/a" }] }));
    symlinkSync(path.join(outside, "kimi.json"), path.join(root, "kimi.json"));
    context(root, "/a", "real", oneMessage);
    const store = new KimiCliStore({ root });
    const listed = await listAll(store);
    expect(listed.map((entry) => entry.id)).toEqual(["real"]);
    expect(listed[0]?.cwd).toBeUndefined();
    for (const id of ["linked-file", "linked-dir", "linked-legacy", "fifo"])
      await expect(store.load(id)).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(store.load("real")).resolves.toBeDefined();
  });
  it("names corrupt files: a bad line is INVALID_JSON with its line, a corrupt kimi.json or state.json only loses the cwd or title", async () => {
    const root = tempRoot();
    writeFileSync(
      path.join(root, "kimi.json"),
      '{"work_dirs": [{"path": 7}, "x", {"path": "/a"}]}',
    );
    const file = context(root, "/a", "s", `${oneMessage}{"role":"assistant","content":"cut`);
    writeFileSync(path.join(path.dirname(file), "state.json"), "[1,");
    writeFileSync(
      path.join(path.dirname(file), "wire.jsonl"),
      '{"timestamp": "soon"}\n{"timestamp": 1e300}\n',
    );
    const store = new KimiCliStore({ root });
    const listed = await listAll(store);
    expect(listed).toMatchObject([{ id: "s", cwd: "/a", title: "hi" }]);
    await expect(store.load("s")).rejects.toMatchObject({
      code: "INVALID_JSON",
      location: { file, line: 2 },
    });
    writeFileSync(file, oneMessage);
    const back = kimiCliCodec.toCommon(await store.load("s"));
    expect(back.meta).toEqual({ id: "s", timestamp: "1970-01-01T00:00:00.000Z", cwd: "/a" });
  });
  it("a deep line reads or is a TxcriptError, never a crash", () => {
    const deep = `{"role":"user","content":${"[".repeat(200_000)}${"]".repeat(200_000)}}\n`;
    const skipped: Warning[] = [];
    const read = kimiCliCodec.toCommon(kimiCliCodec.parse(deep), {
      onWarning: (w) => skipped.push(w),
    });
    // A part that is a list is not a kosong part: the line is skipped, as Kimi CLI skips it.
    expect(read.messages).toEqual([]);
    expect(skipped.map((w) => w.code)).toContain("kimi_cli.skipped-line");
    // A cut line is INVALID_JSON naming its line.
    expect(() => kimiCliCodec.parse(`${deep}{"role":"user","content":[[[`)).toThrow(
      expect.objectContaining({
        code: "INVALID_JSON",
        location: expect.objectContaining({ line: 2 }),
      }),
    );
    const nested = "[".repeat(200_000) + "]".repeat(200_000);
    const args = `{"role":"assistant","content":[],"tool_calls":[{"type":"function","id":"c","function":{"name":"x","arguments":${JSON.stringify(nested)}}}]}\n`;
    const back = kimiCliCodec.toCommon(kimiCliCodec.parse(args));
    expect(back.messages).toHaveLength(1);
    // Written back, the deep input is TOO_LARGE, not a stack overflow.
    expect(() => kimiCliCodec.fromCommon(back)).toThrow(
      expect.objectContaining({ code: "TOO_LARGE" }),
    );
  });
  it("names the earlier context files it does not read, through the load", async () => {
    const root = tempRoot();
    const file = context(root, "/a", "s", oneMessage);
    writeFileSync(path.join(path.dirname(file), "context_1.jsonl"), oneMessage);
    const warnings: Warning[] = [];
    await loadSessionFile(kimiCliHarness, file, {
      environment: {},
      onWarning: (warning) => warnings.push(warning),
    });
    expect(warnings.map((warning) => warning.code)).toEqual(["kimi_cli.rotated-context"]);
    // Control: without context_1.jsonl nothing is named.
    rmSync(path.join(path.dirname(file), "context_1.jsonl"));
    const none: Warning[] = [];
    await loadSessionFile(kimiCliHarness, file, {
      environment: {},
      onWarning: (w) => none.push(w),
    });
    expect(none).toEqual([]);
  });
  it("a subagent's context file is a side file of its session's", async () => {
    const store = path.join(
      path.dirname(new URL(import.meta.url).pathname),
      "../../../fixtures/kimi-cli/store/sessions/b216f7884bab85e7e338b6168f52c09d/4d0f3a5e-1c2b-4e8f-9a6d-7b5c3e1f2a90",
    );
    expect(
      await kimiCliHarness.sideFileOf?.(path.join(store, "subagents/a1b2c3d4/context.jsonl")),
    ).toBe(path.join(store, "context.jsonl"));
    // Controls: the session's own file and a rotated one are no side files.
    expect(await kimiCliHarness.sideFileOf?.(path.join(store, "context.jsonl"))).toBeUndefined();
    expect(await kimiCliHarness.sideFileOf?.(path.join(store, "context_1.jsonl"))).toBeUndefined();
  });
  it("resumes with the id in the same word as the flag", () => {
    expect(kimiCliHarness.resumeCommand?.("4d0f3a5e-1c2b-4e8f-9a6d-7b5c3e1f2a90")).toEqual([
      "kimi",
      "--session=4d0f3a5e-1c2b-4e8f-9a6d-7b5c3e1f2a90",
    ]);
  });
});
