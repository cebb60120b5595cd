// The store over a WAL-mode database built here with OpenCode's own table
// layout (measured from a 1.18.33 database), and over the real pre-1.2
// storage tree read in place. The real-program test covers a database the
// real OpenCode wrote.
import { existsSync, promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { type Discovered, TxcriptError } from "@txcript/core";
import { txcriptErrorOf } from "@txcript/core/testing";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { opencodeCodec } from "./opencode-codec.js";
import { opencodeDatabasePath, opencodeStagingDir, opencodeStorageDir } from "./opencode-paths.js";
import { OpencodeStore } from "./opencode-store.js";
import { realSkipReason, realStorage } from "./test-support.js";

const schema = `
CREATE TABLE project (id text PRIMARY KEY, worktree text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL, sandboxes text NOT NULL);
CREATE TABLE session (id text PRIMARY KEY, project_id text NOT NULL, workspace_id text, parent_id text, slug text NOT NULL,
  directory text NOT NULL, path text, title text NOT NULL, version text NOT NULL, share_url text, summary_additions integer,
  summary_deletions integer, summary_files integer, summary_diffs text, metadata text, cost real DEFAULT 0 NOT NULL,
  tokens_input integer DEFAULT 0 NOT NULL, tokens_output integer DEFAULT 0 NOT NULL, tokens_reasoning integer DEFAULT 0 NOT NULL,
  tokens_cache_read integer DEFAULT 0 NOT NULL, tokens_cache_write integer DEFAULT 0 NOT NULL, revert text, permission text,
  agent text, model text, time_created integer NOT NULL, time_updated integer NOT NULL, time_compacting integer, time_archived integer);
CREATE TABLE message (id text PRIMARY KEY, session_id text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
CREATE TABLE part (id text PRIMARY KEY, message_id text NOT NULL, session_id text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
`;

let directory: string;
let file: string;
let writer: Database.Database;

function addSession(id: string, parent: string | null, title: string, at: number): void {
  writer
    .prepare(
      "INSERT INTO session (id, project_id, parent_id, slug, directory, title, version, time_created, time_updated) VALUES (?, 'global', ?, 'calm-sea', '/work/app', ?, '1.18.33', ?, ?)",
    )
    .run(id, parent, title, at, at + 5000);
}

function addMessage(
  session: string,
  id: string,
  at: number,
  data: object,
  parts: [string, object][],
): void {
  writer
    .prepare("INSERT INTO message VALUES (?, ?, ?, ?, ?)")
    .run(id, session, at, at, JSON.stringify(data));
  for (const [partId, part] of parts)
    writer
      .prepare("INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)")
      .run(partId, id, session, at, at, JSON.stringify(part));
}

const user = (created: number) => ({
  role: "user",
  time: { created },
  agent: "build",
  model: { providerID: "anthropic", modelID: "claude-sonnet-4-5" },
});
const assistant = (created: number, parentID: string) => ({
  role: "assistant",
  time: { created, completed: created + 10 },
  parentID,
  modelID: "claude-sonnet-4-5",
  providerID: "anthropic",
  mode: "build",
  agent: "build",
  path: { cwd: "/work/app", root: "/work/app" },
  cost: 0,
  tokens: { input: 1, output: 2, reasoning: 0, cache: { read: 0, write: 0 } },
  finish: "tool-calls",
});

const parent = "ses_2f0000000000ParentSession1";
const child = "ses_2effffffffffChildSession01";

beforeAll(async () => {
  directory = await fs.mkdtemp(path.join(os.tmpdir(), "txcript-opencode-store-"));
  file = path.join(directory, "opencode.db");
  writer = new Database(file);
  writer.pragma("journal_mode = WAL");
  writer.pragma("wal_autocheckpoint = 0");
  writer.exec(schema);
  addSession(parent, null, "parent", 1_796_000_000_000);
  addMessage(parent, "msg_a0000000001UserMessage001", 1_796_000_000_100, user(1_796_000_000_100), [
    ["prt_a0000000001PartText000001", { type: "text", text: "delegate it" }],
  ]);
  addMessage(
    parent,
    "msg_a0000000002Assistant00001",
    1_796_000_000_200,
    assistant(1_796_000_000_200, "msg_a0000000001UserMessage001"),
    [
      ["prt_a0000000002PartStart00001", { type: "step-start" }],
      [
        "prt_a0000000003PartTask000001",
        {
          type: "tool",
          callID: "toolu_task_1",
          tool: "task",
          state: {
            status: "completed",
            input: { description: "look", prompt: "look around", subagent_type: "general" },
            output: "done",
            title: "look",
            metadata: { sessionId: child },
            time: { start: 1_796_000_000_210, end: 1_796_000_000_900 },
          },
        },
      ],
    ],
  );
  addSession(child, parent, "look (@general subagent)", 1_796_000_000_300);
  addMessage(child, "msg_a0000000010ChildUser00001", 1_796_000_000_300, user(1_796_000_000_300), [
    ["prt_a0000000010ChildText00001", { type: "text", text: "inside the subagent" }],
  ]);
  // The writer stays open and never checkpoints: every row above is only in -wal.
});

afterAll(async () => {
  writer?.close();
  await fs.rm(directory, { recursive: true, force: true });
});

async function discover(store: OpencodeStore, skipped: string[] = []): Promise<Discovered[]> {
  const found: Discovered[] = [];
  for await (const item of store.discover((skip) => skipped.push(`${skip.path}: ${skip.reason}`)))
    found.push(item);
  return found;
}

describe("OpencodeStore over a live WAL database", () => {
  it("sees rows that are only in the -wal file, while OpenCode's own connection stays open", async () => {
    const size = (await fs.stat(file)).size;
    const wal = (await fs.stat(`${file}-wal`)).size;
    expect(wal).toBeGreaterThan(0);
    const store = new OpencodeStore({ root: file, storage: path.join(directory, "none") });
    const found = await discover(store);
    expect(found.map((item) => [item.id, item.title, item.messageCount])).toEqual([
      [child, "look (@general subagent)", 1],
      [parent, "parent", 2],
    ]);
    expect((await fs.stat(file)).size).toBe(size);
    // The writer is not locked out by the reader.
    writer.prepare("UPDATE session SET title = 'parent, renamed' WHERE id = ?").run(parent);
    expect((await discover(store)).find((item) => item.id === parent)?.title).toBe(
      "parent, renamed",
    );
  });

  it("loads a session with its subagent sessions, linked to the task call that spawned them", async () => {
    const store = new OpencodeStore({ root: file, storage: path.join(directory, "none") });
    const transcript = opencodeCodec.toCommon(await store.load(parent));
    expect(transcript.messages.map((message) => message.role)).toEqual([
      "user",
      "assistant",
      "user",
    ]);
    expect(transcript.subagents).toEqual([
      {
        id: child,
        toolUseId: "toolu_task_1",
        agentType: "general",
        title: "look (@general subagent)",
        messages: [
          {
            role: "user",
            content: [{ type: "text", text: "inside the subagent" }],
            timestamp: new Date(1_796_000_000_300).toISOString(),
          },
        ],
      },
    ]);
    // What `opencode export` prints has no children: the text is the session alone.
    expect(opencodeCodec.serialize(await store.load(parent))).not.toContain("inside the subagent");
  });

  it("reports an unknown id as NOT_FOUND and refuses to delete", async () => {
    const store = new OpencodeStore({ root: file, storage: path.join(directory, "none") });
    await expect(store.load("ses_nothere")).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(store.delete(parent)).rejects.toMatchObject({ code: "REFUSED" });
  });

  it("stages an export file on save (never the database), refusing a session the database holds", async () => {
    const store = new OpencodeStore({ root: file, staging: path.join(directory, "staging") });
    const native = await store.load(parent);
    const before = await fs.readFile(file);
    // `opencode import` would replace it: refused, checked against the database itself.
    await expect(store.save(native)).rejects.toMatchObject({
      code: "CONFLICT",
      location: { file },
    });
    expect(existsSync(path.join(directory, "staging", `${parent}.json`))).toBe(false);
    const saved = await store.save(native, { overwrite: true });
    expect(saved).toEqual({ id: parent, path: path.join(directory, "staging", `${parent}.json`) });
    expect(await fs.readFile(saved.path, "utf8")).toBe(opencodeCodec.serialize(native));
    expect(await fs.readFile(file)).toEqual(before);
    // A staged file is a hand-over only: delete removes it (the database is never written).
    await store.delete(parent);
    expect(existsSync(saved.path)).toBe(false);
    await expect(store.delete(parent)).rejects.toMatchObject({ code: "REFUSED" });
    // What save returns, load finds, before any import (from the staging directory).
    const foreign = opencodeCodec.fromCommon({
      meta: { id: "from-claude", timestamp: "2026-01-01T00:00:00.000Z" },
      messages: [],
    });
    const staged = await store.save(foreign);
    expect(opencodeCodec.serialize(await store.load(staged.id))).toBe(
      opencodeCodec.serialize(foreign),
    );
    const unsafe = {
      ...native,
      document: { ...native.document, info: { ...native.document.info, id: "ses/../x" } },
    };
    await expect(store.save(unsafe)).rejects.toMatchObject({ code: "UNSAFE_PATH" });
  });

  it("skips a file that is not a database, reporting it", async () => {
    const bad = path.join(directory, "bad.db");
    await fs.writeFile(
      bad,
      "not sqlite at all, just text long enough to have a header.................",
    );
    const skipped: string[] = [];
    expect(
      await discover(
        new OpencodeStore({ root: bad, storage: path.join(directory, "none") }),
        skipped,
      ),
    ).toEqual([]);
    expect(skipped.length).toBe(1);
    expect(skipped[0]).toContain("cannot read the OpenCode database");
  });
});

describe("OpenCode's paths", () => {
  it("follows XDG_DATA_HOME, OPENCODE_DB and release channels", () => {
    expect(opencodeDatabasePath({ HOME: "/h" })).toBe("/h/.local/share/opencode/opencode.db");
    expect(opencodeDatabasePath({ XDG_DATA_HOME: "/x" })).toBe("/x/opencode/opencode.db");
    expect(opencodeDatabasePath({ XDG_DATA_HOME: "/x", OPENCODE_DB: "other.db" })).toBe(
      "/x/opencode/other.db",
    );
    expect(opencodeDatabasePath({ OPENCODE_DB: "/abs/o.db" })).toBe("/abs/o.db");
    expect(opencodeDatabasePath({ OPENCODE_DB: ":memory:" })).toBeUndefined();
    expect(opencodeDatabasePath({ XDG_DATA_HOME: "/x" }, "dev")).toBe(
      "/x/opencode/opencode-dev.db",
    );
    expect(opencodeStorageDir({ XDG_DATA_HOME: "/x" })).toBe("/x/opencode/storage");
  });

  it("stages saves in the user's own cache, created 0700, never a shared temporary path", async () => {
    expect(opencodeStagingDir({ HOME: "/h" })).toBe("/h/.cache/txcript/opencode-import");
    expect(opencodeStagingDir({ HOME: "/h", XDG_CACHE_HOME: "/c" })).toBe(
      "/c/txcript/opencode-import",
    );
    // A relative XDG_CACHE_HOME is ignored, as the XDG spec says.
    expect(opencodeStagingDir({ HOME: "/h", XDG_CACHE_HOME: "rel" })).toBe(
      "/h/.cache/txcript/opencode-import",
    );
    const home = await fs.mkdtemp(path.join(os.tmpdir(), "txcript-opencode-staging-"));
    try {
      const store = new OpencodeStore({ env: { HOME: home }, root: path.join(home, "none.db") });
      expect(store.staging.startsWith(home)).toBe(true);
      const saved = await store.save(
        opencodeCodec.fromCommon({
          meta: { id: "staged", timestamp: "2026-01-01T00:00:00.000Z" },
          messages: [],
        }),
      );
      expect(path.dirname(saved.path)).toBe(
        path.join(home, ".cache", "txcript", "opencode-import"),
      );
      expect((await fs.stat(path.dirname(saved.path))).mode & 0o777).toBe(0o700);
    } finally {
      await fs.rm(home, { recursive: true, force: true });
    }
  });
});

describe.skipIf(realSkipReason !== undefined)(
  `the pre-1.2 storage tree${realSkipReason ? ` (skipped: ${realSkipReason})` : ""}`,
  () => {
    it("lists and converts a session OpenCode 0.6.5 stored as JSON files", async () => {
      const store = new OpencodeStore({
        root: path.join(realStorage, "no.db"),
        storage: realStorage,
      });
      const found = await discover(store);
      expect(found.map((item) => [item.id, item.title, item.cwd, item.messageCount])).toEqual([
        [
          "ses_6d9b4aaecffet33kjFOiHfRk8H",
          "Building Linux proprietary software scanner CLI",
          "/home/noah",
          2,
        ],
      ]);
      const transcript = opencodeCodec.toCommon(await store.load("ses_6d9b4aaecffet33kjFOiHfRk8H"));
      expect(transcript.meta.cliVersion).toBe("0.6.5");
      expect(
        transcript.messages.map((message) => [
          message.role,
          message.content.map((block) => block.type),
        ]),
      ).toEqual([
        ["user", ["text"]],
        ["assistant", ["text", "thinking", "tool_use"]],
        ["user", ["tool_result"]],
      ]);
      const tool = transcript.messages[1]?.content[2];
      expect(tool?.type === "tool_use" && tool.tool.name).toBe("TodoWrite");
      expect(transcript.messages[1]?.model).toBe("z-ai/glm-4.5");
    });
  },
);

it("txcriptErrorOf is the only helper used here from core/testing", () => {
  expect(
    txcriptErrorOf(() => {
      throw new TxcriptError("IO", "x");
    }).code,
  ).toBe("IO");
});
