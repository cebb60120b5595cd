import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { type Transcript, TxcriptError } from "@txcript/core";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { commonToCrush } from "./common-to-crush.js";
import { CrushStore } from "./crush-store.js";
import { crushToCommon } from "./crush-to-common.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const fixture = (name: string) => path.join(repoRoot, "fixtures/crush", name);

/** A project directory holding a copy of `name` as its .crush/crush.db. */
function project(name?: string): { directory: string; database: string } {
  const directory = mkdtempSync(path.join(os.tmpdir(), "crush-store-"));
  mkdirSync(path.join(directory, ".crush"));
  const database = path.join(directory, ".crush", "crush.db");
  if (name !== undefined) copyFileSync(fixture(name), database);
  return { directory, database };
}

async function all<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

async function errorOf(run: () => Promise<unknown>): Promise<TxcriptError> {
  try {
    await run();
  } catch (error) {
    if (TxcriptError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected a TxcriptError");
}

const transcript: Transcript = {
  meta: { id: "s-1", timestamp: "2026-01-02T03:04:05.000Z", title: "Hello" },
  messages: [
    {
      role: "user",
      content: [{ type: "text", text: "list files" }],
      timestamp: "2026-01-02T03:04:05.000Z",
    },
    {
      role: "assistant",
      content: [{ type: "tool_use", id: "call-1", tool: { name: "LS", input: { path: "." } } }],
      timestamp: "2026-01-02T03:04:06.000Z",
      stopReason: "tool_use",
      model: "m",
    },
    {
      role: "user",
      content: [{ type: "tool_result", toolUseId: "call-1", content: "a\nb", isError: false }],
      timestamp: "2026-01-02T03:04:07.000Z",
    },
  ],
  subagents: [
    {
      id: "sub",
      toolUseId: "call-1",
      title: "child",
      messages: [
        {
          role: "user",
          content: [{ type: "text", text: "go" }],
          timestamp: "2026-01-02T03:04:06.000Z",
        },
      ],
    },
  ],
};

describe("CrushStore", () => {
  it("lists the project's sessions (not child sessions) and loads one with its children", async () => {
    const { directory, database } = project("nano-bot.crush.db");
    const store = new CrushStore({ root: database });
    const found = await all(store.discover());
    expect(found.map((entry) => entry.id).sort()).toEqual([
      "699482e0-e429-49ba-b59f-57032f89133b",
      "b6a951bc-f110-4a3f-b89a-d5e8cf0cf2d3",
      "d7afa2d9-4820-42ae-9c1a-65609181ed73",
      "ea3c2a5a-84fb-4e95-816f-5824feb71519",
    ]);
    expect(found.every((entry) => entry.cwd === directory && entry.path === database)).toBe(true);
    const loaded = await store.load("ea3c2a5a-84fb-4e95-816f-5824feb71519");
    const common = crushToCommon(loaded);
    expect(common.subagents?.map((subagent) => [subagent.id, subagent.toolUseId])).toEqual([
      ["toolu_01FWjmXT7vf9cQVUDRLhXH8h", "toolu_01FWjmXT7vf9cQVUDRLhXH8h"],
    ]);
    expect(common.meta.cwd).toBe(directory);
  });

  it("saves into a new database with the migrations' schema and loads back what it saved", async () => {
    const { database } = project();
    const store = new CrushStore({ root: database });
    const saved = await store.save(commonToCrush(transcript));
    expect(saved).toEqual({ id: "s-1", path: database });
    const back = crushToCommon(await store.load("s-1"));
    expect(back.messages.map((message) => message.content.map((block) => block.type))).toEqual([
      ["text"],
      ["tool_use"],
      ["tool_result"],
    ]);
    expect(back.subagents?.[0]?.toolUseId).toBe("call-1");
    // Rows as Crush's queries read them: counts and times, not the time of writing.
    const raw = new Database(database, { readonly: true });
    expect(
      raw
        .prepare("SELECT message_count, updated_at, created_at FROM sessions WHERE id = 's-1'")
        .get(),
    ).toEqual({ message_count: 3, updated_at: 1767323047, created_at: 1767323045 });
    expect(raw.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(raw.pragma("foreign_key_check")).toEqual([]);
    // A second save is a conflict; --force replaces.
    expect((await errorOf(() => store.save(commonToCrush(transcript)))).code).toBe("CONFLICT");
    await store.save(commonToCrush(transcript), { overwrite: true });
    await store.delete("s-1");
    expect((await errorOf(() => store.load("s-1"))).code).toBe("NOT_FOUND");
  });

  it("saves a session with a project directory into that project's .crush/crush.db, and nowhere else", async () => {
    const { directory } = project();
    const global = mkdtempSync(path.join(os.tmpdir(), "crush-global-"));
    const store = new CrushStore({ env: { CRUSH_GLOBAL_DATA: global } });
    expect(store.root).toBe(global);
    const saved = await store.save(
      commonToCrush({ ...transcript, meta: { ...transcript.meta, cwd: directory } }),
    );
    expect(saved.path).toBe(path.join(directory, ".crush", "crush.db"));
    expect(crushToCommon(await store.load("s-1")).meta.cwd).toBe(directory);
    // Control: a project directory that does not exist is refused, and nothing is created.
    const missing = path.join(directory, "not-here");
    const refused = await errorOf(() =>
      store.save(commonToCrush({ ...transcript, meta: { ...transcript.meta, cwd: missing } })),
    );
    expect(refused.code).toBe("UNSUPPORTED");
    expect(existsSync(missing)).toBe(false);
    expect((await errorOf(() => store.save(commonToCrush(transcript)))).code).toBe("UNSUPPORTED");
  });

  it("lists every project Crush registered in projects.json, each from its own database", async () => {
    const first = project("nano-bot.crush.db");
    const second = project("cisco-auto.crush.db");
    const global = mkdtempSync(path.join(os.tmpdir(), "crush-global-"));
    writeFileSync(
      path.join(global, "projects.json"),
      JSON.stringify({
        projects: [
          {
            path: first.directory,
            data_dir: path.join(first.directory, ".crush"),
            last_accessed: "2026-01-01T00:00:00Z",
          },
          {
            path: second.directory,
            data_dir: path.join(second.directory, ".crush"),
            last_accessed: "2026-01-01T00:00:00Z",
          },
          { path: "/nowhere", data_dir: "/nowhere/.crush", last_accessed: "2026-01-01T00:00:00Z" },
          { path: "x", data_dir: "relative/.crush" },
        ],
      }),
    );
    const store = new CrushStore({ env: { XDG_DATA_HOME: "/unused" }, root: global });
    const found = await all(store.discover());
    expect(found).toHaveLength(5);
    expect(new Set(found.map((entry) => entry.cwd))).toEqual(
      new Set([first.directory, second.directory]),
    );
    expect((await store.load("05193330-a419-4f38-a955-8ea6c72cccc2")).projectDirectory).toBe(
      second.directory,
    );
    // A registry that is not JSON is skipped with its reason.
    writeFileSync(path.join(global, "projects.json"), "{");
    const skipped: string[] = [];
    expect(await all(store.discover((skip) => skipped.push(skip.path)))).toEqual([]);
    expect(skipped).toEqual([path.join(global, "projects.json")]);
  });

  it("refuses to write into a database of an older era (Crush migrates it first)", async () => {
    const { database } = project("swift-kdl.crush.db");
    const before = readFileSync(database);
    expect(
      (await errorOf(() => new CrushStore({ root: database }).save(commonToCrush(transcript))))
        .code,
    ).toBe("UNSUPPORTED");
    expect(readFileSync(database).equals(before)).toBe(true);
  });

  it("sees rows still only in the -wal file, and does not checkpoint them", async () => {
    const { database } = project();
    await new CrushStore({ root: database }).save(commonToCrush(transcript));
    const writer = new Database(database);
    writer.pragma("wal_autocheckpoint = 0");
    writer.prepare("UPDATE sessions SET title = 'renamed' WHERE id = 's-1'").run();
    try {
      const found = await all(new CrushStore({ root: database }).discover());
      expect(found[0]?.title).toBe("renamed");
    } finally {
      writer.close();
    }
  });

  it("reports hostile databases as TxcriptErrors, never a crash", async () => {
    const garbage = project();
    writeFileSync(garbage.database, "not a database at all");
    const skipped: string[] = [];
    expect(
      await all(
        new CrushStore({ root: garbage.database }).discover((skip) => skipped.push(skip.reason)),
      ),
    ).toEqual([]);
    expect(skipped).toHaveLength(1);
    expect((await errorOf(() => new CrushStore({ root: garbage.database }).load("x"))).code).toBe(
      "IO",
    );

    const truncated = project();
    writeFileSync(
      truncated.database,
      readFileSync(fixture("cisco-auto.crush.db")).subarray(0, 8192),
    );
    expect(
      TxcriptError.isInstance(
        await errorOf(() =>
          new CrushStore({ root: truncated.database }).load("05193330-a419-4f38-a955-8ea6c72cccc2"),
        ),
      ),
    ).toBe(true);

    const linked = project();
    symlinkSync(fixture("nano-bot.crush.db"), linked.database);
    expect(
      (
        await errorOf(() =>
          new CrushStore({ root: linked.database }).load("ea3c2a5a-84fb-4e95-816f-5824feb71519"),
        )
      ).code,
    ).toBe("UNSAFE_PATH");

    const corrupt = project();
    await new CrushStore({ root: corrupt.database }).save(commonToCrush(transcript));
    const writer = new Database(corrupt.database);
    writer.prepare('UPDATE messages SET parts = \'[{"type":"video","data":{}}]\'').run();
    const broken = await new CrushStore({ root: corrupt.database }).load("s-1");
    let parts: unknown;
    try {
      crushToCommon(broken);
    } catch (error) {
      parts = error;
    }
    expect(TxcriptError.isInstance(parts) && parts.code).toBe("INVALID_DOCUMENT");
    writer.prepare("UPDATE sessions SET title = x'00ff' WHERE parent_session_id = 's-1'").run();
    writer.close();
    expect((await errorOf(() => new CrushStore({ root: corrupt.database }).load("s-1"))).code).toBe(
      "INVALID_DOCUMENT",
    );
  });
});
