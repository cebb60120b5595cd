import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import type { Discovered, SkippedFile, Transcript } from "@txcript/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { geminiCliCodec } from "./gemini-cli-codec.js";
import { geminiProjectHash } from "./gemini-cli-paths.js";
import { GeminiCliStore } from "./gemini-cli-store.js";

const fixtureStore = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../../fixtures/gemini-cli/store",
);
const now = new Date("2026-12-01T12:00:00.000Z");

let root: string;
beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), "txcript-gemini-store-"));
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

function transcript(id: string, cwd: string, text = "hello"): Transcript {
  return {
    meta: { id, timestamp: "2026-11-30T10:20:00.000Z", cwd },
    messages: [
      { role: "user", content: [{ type: "text", text }], timestamp: "2026-11-30T10:20:01.000Z" },
      {
        role: "assistant",
        content: [{ type: "text", text: "hi" }],
        timestamp: "2026-11-30T10:20:02.000Z",
      },
    ],
  };
}

const written = (t: Transcript) => geminiCliCodec.fromCommon(t, { now });
const projects = async (gemini: string) =>
  JSON.parse(await fs.readFile(path.join(gemini, "projects.json"), "utf8"));

async function listAll(store: GeminiCliStore) {
  const found: Discovered[] = [];
  const skipped: SkippedFile[] = [];
  for await (const session of store.discover((entry) => skipped.push(entry))) found.push(session);
  return { found, skipped };
}

describe("GeminiCliStore over a .gemini directory (fixtures/gemini-cli/store)", () => {
  const store = new GeminiCliStore({ root: fixtureStore });
  it("lists main recordings of both directory eras with their project roots, never subagents", async () => {
    const { found } = await listAll(store);
    expect(
      found
        .map(({ id, cwd, title }) => ({ id, cwd, title }))
        .sort((a, b) => a.id.localeCompare(b.id)),
    ).toEqual([
      { id: "0ld5e551-0000-4000-8000-000000000028", cwd: "/home/dev/old", title: "list the TODOs" },
      {
        id: "aa11bb22-3c4d-4e5f-8a6b-7c8d9e0f1a2b",
        cwd: "/home/dev/shop",
        title: "Where is the checkout total computed?",
      },
    ]);
  });
  it("loads a session with its subagent recording, linked by the call's agentId", async () => {
    const session = await store.load("aa11bb22-3c4d-4e5f-8a6b-7c8d9e0f1a2b");
    const common = geminiCliCodec.toCommon(session);
    expect(common.meta.cwd).toBe("/home/dev/shop");
    expect(common.subagents?.map(({ id, toolUseId }) => ({ id, toolUseId }))).toEqual([
      { id: "5b0a6e1d-2f3c-4d5e-9f60-718293a4b5c6", toolUseId: "call-inv-1" },
    ]);
  });
  it("says NOT_FOUND, and UNSAFE_PATH for an id that is no file name", async () => {
    await expect(store.load("99999999-0000-4000-8000-000000000000")).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await expect(store.load("../../etc/passwd")).rejects.toMatchObject({ code: "UNSAFE_PATH" });
  });
});

describe("GeminiCliStore.save", () => {
  it("names the file -<id8>.jsonl under the project's slug and registers the project, keeping other entries", async () => {
    const gemini = path.join(root, ".gemini");
    await fs.mkdir(gemini, { recursive: true });
    await fs.writeFile(
      path.join(gemini, "projects.json"),
      JSON.stringify({ projects: { "/elsewhere/app": "app" } }, null, 2),
    );
    const store = new GeminiCliStore({ root: gemini });
    const saved = await store.save(
      written(transcript("3f0e9a1c-1111-4222-8333-444455556666", "/work/my App")),
      { now },
    );
    expect(path.basename(saved.path)).toBe("session-2026-11-30T10-20-3f0e9a1c.jsonl");
    expect(path.relative(gemini, saved.path)).toBe(
      path.join("tmp", "my-app", "chats", path.basename(saved.path)),
    );
    expect(await projects(gemini)).toEqual({
      projects: { "/elsewhere/app": "app", "/work/my App": "my-app" },
    });
    expect(await fs.readFile(path.join(gemini, "tmp", "my-app", ".project_root"), "utf8")).toBe(
      "/work/my App",
    );
    const head = JSON.parse((await fs.readFile(saved.path, "utf8")).split("\n")[0] as string);
    expect(head).toMatchObject({
      projectHash: geminiProjectHash("/work/my App"),
      lastUpdated: now.toISOString(),
    });
    const { found } = await listAll(store);
    expect(found).toMatchObject([{ id: saved.id, cwd: "/work/my App", title: "hello" }]);
  });
  it("takes the next slug when another project owns the basename", async () => {
    const gemini = path.join(root, ".gemini");
    const store = new GeminiCliStore({ root: gemini });
    await store.save(written(transcript("aaaaaaaa-1111-4222-8333-444455556666", "/one/app")), {
      now,
    });
    const second = await store.save(
      written(transcript("bbbbbbbb-1111-4222-8333-444455556666", "/two/app")),
      { now },
    );
    expect(second.path).toContain(`${path.sep}app-1${path.sep}`);
    expect(await projects(gemini)).toEqual({
      projects: { "/one/app": "app", "/two/app": "app-1" },
    });
  });
  it("refuses a projects.json it cannot read, leaving it as it was", async () => {
    const gemini = path.join(root, ".gemini");
    await fs.mkdir(gemini, { recursive: true });
    await fs.writeFile(path.join(gemini, "projects.json"), "{ not json");
    const store = new GeminiCliStore({ root: gemini });
    await expect(
      store.save(written(transcript("cccccccc-1111-4222-8333-444455556666", "/p")), { now }),
    ).rejects.toMatchObject({
      code: "INVALID_JSON",
    });
    expect(await fs.readFile(path.join(gemini, "projects.json"), "utf8")).toBe("{ not json");
  });
  it("waits out Gemini CLI's projects.json lock, and takes over a stale one", async () => {
    const gemini = path.join(root, ".gemini");
    await fs.mkdir(path.join(gemini, "projects.json.lock"), { recursive: true });
    const old = new Date(Date.now() - 60_000);
    await fs.utimes(path.join(gemini, "projects.json.lock"), old, old);
    const store = new GeminiCliStore({ root: gemini });
    await store.save(written(transcript("dddddddd-1111-4222-8333-444455556666", "/q")), { now });
    expect(await projects(gemini)).toEqual({ projects: { "/q": "q" } });
    await expect(fs.stat(path.join(gemini, "projects.json.lock"))).rejects.toThrow();
  });
  it("refuses what Gemini CLI's cleanup would delete: a stale lastUpdated, or nothing resumable", async () => {
    const store = new GeminiCliStore({ root: path.join(root, ".gemini") });
    const stale = geminiCliCodec.fromCommon(
      transcript("eeeeeeee-1111-4222-8333-444455556666", "/r"),
      {
        now: new Date("2026-10-01T00:00:00.000Z"),
      },
    );
    await expect(store.save(stale, { now })).rejects.toMatchObject({ code: "REFUSED" });
    // A recording whose only record is a /command (Gemini CLI skips it, so its cleanup
    // deletes the file). The writer never makes one (gemini_cli.command-like): by hand.
    const [header, prompt] = geminiCliCodec
      .serialize(written(transcript("ffffffff-1111-4222-8333-444455556666", "/r", "/help")))
      .split("\n");
    const record = JSON.parse(prompt as string);
    expect(record.type).toBe("user");
    const commandOnly = geminiCliCodec.parse(
      `${header}\n${JSON.stringify({ ...record, content: [{ text: "/help" }] })}\n`,
    );
    await expect(store.save(commandOnly, { now })).rejects.toMatchObject({ code: "REFUSED" });
    // The control: the same record with a prompt Gemini CLI sends is saved.
    const prompted = geminiCliCodec.parse(
      `${header}\n${JSON.stringify({ ...record, content: [{ text: "help me" }] })}\n`,
    );
    await expect(store.save(prompted, { now })).resolves.toMatchObject({
      id: "ffffffff-1111-4222-8333-444455556666",
    });
  });
  it("will not write a second copy of a session unless asked, and saves subagents beside it", async () => {
    const store = new GeminiCliStore({ root: path.join(root, ".gemini") });
    const base = transcript("12121212-1111-4222-8333-444455556666", "/s");
    const withSubagent: Transcript = {
      ...base,
      subagents: [{ id: "34343434-1111-4222-8333-444455556666", messages: base.messages }],
    };
    const saved = await store.save(written(withSubagent), { now });
    const later = {
      ...withSubagent,
      meta: { ...withSubagent.meta, timestamp: "2026-11-30T11:00:00.000Z" },
    };
    await expect(store.save(written(later), { now })).rejects.toMatchObject({ code: "CONFLICT" });
    const subagentFile = path.join(
      path.dirname(saved.path),
      saved.id,
      "34343434-1111-4222-8333-444455556666.jsonl",
    );
    expect(
      JSON.parse((await fs.readFile(subagentFile, "utf8")).split("\n")[0] as string),
    ).toMatchObject({ kind: "subagent" });
    const loaded = geminiCliCodec.toCommon(await store.load(saved.id));
    expect(loaded.subagents?.map((subagent) => subagent.id)).toEqual([
      "34343434-1111-4222-8333-444455556666",
    ]);
    const { found } = await listAll(store);
    expect(found.map((session) => session.id)).toEqual([saved.id]);
  });
  it("deletes a session with its subagents' recordings, nested ones too; another session's stay", async () => {
    const store = new GeminiCliStore({ root: path.join(root, ".gemini") });
    const base = transcript("78787878-1111-4222-8333-444455556666", "/d");
    const nested = "9a9a9a9a-1111-4222-8333-444455556666";
    const withSubagents = (id: string, child: string, grandchild: string): Transcript => ({
      ...base,
      meta: { ...base.meta, id },
      subagents: [
        {
          id: child,
          messages: base.messages,
          subagents: [{ id: grandchild, messages: base.messages }],
        },
      ],
    });
    const saved = await store.save(
      written(withSubagents(base.meta.id, "34343434-aaaa-4222-8333-444455556666", nested)),
      { now },
    );
    const other = await store.save(
      written(
        withSubagents(
          "bcbcbcbc-1111-4222-8333-444455556666",
          "cdcdcdcd-1111-4222-8333-444455556666",
          "dededede-1111-4222-8333-444455556666",
        ),
      ),
      { now },
    );
    const chats = path.dirname(saved.path);
    const before = (await fs.readdir(chats)).sort();
    // Control: both sessions' subagent directories, the nested one's included, were written.
    expect(before).toEqual(
      expect.arrayContaining([
        saved.id,
        "34343434-aaaa-4222-8333-444455556666",
        other.id,
        "cdcdcdcd-1111-4222-8333-444455556666",
      ]),
    );
    await store.delete(saved.id);
    expect((await fs.readdir(chats)).sort()).toEqual(
      before.filter(
        (name) =>
          name !== path.basename(saved.path) &&
          name !== saved.id &&
          name !== "34343434-aaaa-4222-8333-444455556666",
      ),
    );
    const kept = geminiCliCodec.toCommon(await store.load(other.id));
    expect(kept.subagents?.[0]?.subagents?.map((subagent) => subagent.id)).toEqual([
      "dededede-1111-4222-8333-444455556666",
    ]);
  });
  it("needs a project directory", async () => {
    const store = new GeminiCliStore({ root: path.join(root, ".gemini") });
    const { cwd: _, ...meta } = transcript("56565656-1111-4222-8333-444455556666", "/t").meta;
    const session = written({ ...transcript("56565656-1111-4222-8333-444455556666", "/t"), meta });
    await expect(store.save(session, { now })).rejects.toMatchObject({ code: "USAGE" });
    const saved = await store.save(session, { now, cwd: "/t" });
    expect(saved.path).toContain(`${path.sep}t${path.sep}chats${path.sep}`);
  });
  it("lists one file per session id, the latest update winning, and skips files that are not recordings", async () => {
    const gemini = path.join(root, ".gemini");
    const store = new GeminiCliStore({ root: gemini });
    const saved = await store.save(
      written(transcript("78787878-1111-4222-8333-444455556666", "/u")),
      { now },
    );
    const chats = path.dirname(saved.path);
    const newer = (await fs.readFile(saved.path, "utf8")).replace("hello", "hello again");
    await fs.writeFile(
      path.join(chats, "session-2026-12-01T12-00-78787878.jsonl"),
      `${newer}{"$set":{"lastUpdated":"2026-12-01T12:30:00.000Z"}}\n`,
    );
    await fs.writeFile(path.join(chats, "session-broken.jsonl"), "not json\n");
    const { found, skipped } = await listAll(store);
    expect(found).toHaveLength(1);
    expect(found[0]?.path).toBe(path.join(chats, "session-2026-12-01T12-00-78787878.jsonl"));
    expect(found[0]?.updatedAt).toBe("2026-12-01T12:30:00.000Z");
    expect(skipped.map((entry) => path.basename(entry.path))).toEqual(["session-broken.jsonl"]);
    await store.delete(saved.id);
    expect((await listAll(store)).found.map((session) => path.basename(session.path))).toEqual([
      path.basename(saved.path),
    ]);
  });
});
