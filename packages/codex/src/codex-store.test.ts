import { promises as fs, readFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import type { Discovered, SkippedFile, Transcript } from "@txcript/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { codexCodec } from "./codex-codec.js";
import { codexSessionId, defaultCodexHome, rolloutRelativePath } from "./codex-paths.js";
import { CodexStore } from "./codex-store.js";

const fixtures = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../../fixtures/codex",
);

const transcript: Transcript = {
  meta: {
    id: "thread-7",
    timestamp: "2026-04-05T06:07:08.000Z",
    cwd: "/home/dev/app",
    title: "Imported from Amp",
  },
  messages: [
    {
      role: "user",
      content: [{ type: "text", text: "hello\nthere" }],
      timestamp: "2026-04-05T06:07:09.000Z",
    },
    {
      role: "assistant",
      content: [{ type: "text", text: "hi" }],
      timestamp: "2026-04-05T06:07:31.250Z",
    },
  ],
};

let home: string;
beforeEach(async () => {
  home = await fs.mkdtemp(path.join(os.tmpdir(), "txcript-codex-store-"));
});
afterEach(async () => {
  await fs.rm(home, { recursive: true, force: true });
});

async function discover(store: CodexStore) {
  const found: Discovered[] = [];
  const skipped: SkippedFile[] = [];
  for await (const entry of store.discover((skip) => skipped.push(skip))) found.push(entry);
  return { found, skipped };
}

describe("CodexStore", () => {
  it("defaults to $CODEX_HOME, else ~/.codex", () => {
    expect(defaultCodexHome({ CODEX_HOME: "/x/codex" })).toBe("/x/codex");
    expect(defaultCodexHome({ HOME: "/home/a" })).toBe(path.join("/home/a", ".codex"));
    expect(new CodexStore({ env: { CODEX_HOME: home } }).root).toBe(home);
  });

  it("saves under sessions/YYYY/MM/DD/rollout-<local time>-<uuid>.jsonl, mtime at the last event, title in session_index", async () => {
    const store = new CodexStore({ root: home });
    const saved = await store.save(codexCodec.fromCommon(transcript));
    const id = codexSessionId("thread-7", transcript.meta.timestamp);
    expect(saved).toEqual({
      id,
      path: path.join(home, rolloutRelativePath(id, transcript.meta.timestamp)),
    });
    expect(path.basename(saved.path)).toMatch(
      /^rollout-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-[0-9a-f-]{36}\.jsonl$/,
    );
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect((await fs.stat(saved.path)).mtime.toISOString()).toBe("2026-04-05T06:07:31.250Z");
    const index = readFileSync(path.join(home, "session_index.jsonl"), "utf8");
    expect(JSON.parse(index)).toEqual({
      id,
      thread_name: "Imported from Amp",
      updated_at: "2026-04-05T06:07:31.250Z",
    });
    const { found, skipped } = await discover(store);
    expect(skipped).toEqual([]);
    expect(found).toEqual([
      {
        harness: "codex",
        id,
        path: saved.path,
        title: "Imported from Amp",
        cwd: "/home/dev/app",
        updatedAt: "2026-04-05T06:07:31.250Z",
      },
    ]);
    const loaded = await store.load(id);
    expect(codexCodec.serialize(loaded)).toBe(readFileSync(saved.path, "utf8"));
  });

  it("never clobbers a session unless asked, and deletes by id", async () => {
    const store = new CodexStore({ root: home });
    const rollout = codexCodec.fromCommon(transcript);
    const saved = await store.save(rollout);
    await expect(store.save(rollout)).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(store.save(rollout, { overwrite: true })).resolves.toEqual(saved);
    await store.delete(saved.id);
    await expect(store.load(saved.id)).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(store.load("../../etc/passwd")).rejects.toMatchObject({ code: "UNSAFE_PATH" });
  });

  it("a delete takes back what the save added: its session_index.jsonl line and the directories it made", async () => {
    const root = path.join(home, "codex-home");
    const store = new CodexStore({ root });
    const saved = await store.save(codexCodec.fromCommon(transcript));
    expect(readFileSync(path.join(root, "session_index.jsonl"), "utf8")).toContain(saved.id);
    await store.delete(saved.id);
    // Nothing of it is left: not the index (it made it), not the dated directories, not the home.
    await expect(fs.readdir(home)).resolves.toEqual([]);

    // A store that was there before: its other lines, later lines and directories stay.
    await fs.mkdir(path.join(root, "sessions"), { recursive: true });
    const theirs = '{"id":"019a93b9-f380-7600-98ff-940e6b99603c","thread_name":"theirs"}\n';
    await fs.writeFile(path.join(root, "session_index.jsonl"), theirs);
    const again = await store.save(codexCodec.fromCommon(transcript));
    const later = '{"id":"019a93b9-f380-7600-98ff-940e6b99603d","thread_name":"later"}\n';
    await fs.appendFile(path.join(root, "session_index.jsonl"), later);
    await store.delete(again.id);
    expect(readFileSync(path.join(root, "session_index.jsonl"), "utf8")).toBe(theirs + later);
    await expect(fs.readdir(path.join(root, "sessions"))).resolves.toEqual([]);
    await expect(fs.readdir(root)).resolves.toEqual(["session_index.jsonl", "sessions"]);

    // A session this store did not save: only its rollout goes.
    const other = await new CodexStore({ root }).save(codexCodec.fromCommon(transcript));
    await store.delete(other.id);
    expect(readFileSync(path.join(root, "session_index.jsonl"), "utf8")).toContain(other.id);
  });

  it("lists from a bounded head: the first prompt as title, the mtime as the last event's time, skips what is not a rollout", async () => {
    const day = path.join(home, "sessions", "2025", "11", "17");
    await fs.mkdir(day, { recursive: true });
    const real = readFileSync(path.join(fixtures, "exec-legacy.jsonl"), "utf8");
    // 4 MiB of lines no head reader parses, then a last event: still listed, with the file's mtime.
    const filler = `${"x".repeat(1023)}\n`.repeat(4096);
    const tail =
      '{"timestamp":"2026-03-02T11:22:33.444Z","type":"event_msg","payload":{"type":"task_complete"}}\n';
    const big = path.join(
      day,
      "rollout-2025-11-17T15-30-28-019cae10-5d58-7c31-9a53-2f4c1e8b7a10.jsonl",
    );
    await fs.writeFile(big, real + filler + tail);
    const appended = new Date("2026-03-02T11:22:33.460Z");
    await fs.utimes(big, appended, appended);
    await fs.writeFile(
      path.join(day, "rollout-2025-11-17T15-30-29-019cae10-5d58-7c31-9a53-2f4c1e8b7a11.jsonl"),
      "not a rollout\n",
    );
    await fs.writeFile(path.join(day, "notes.jsonl"), real);
    const { found, skipped } = await discover(new CodexStore({ root: home }));
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({
      id: "019cae10-5d58-7c31-9a53-2f4c1e8b7a10",
      title: "How many tests are there?",
      cwd: "/home/dev/shop",
      updatedAt: "2026-03-02T11:22:33.460Z",
    });
    expect(skipped.map((skip) => path.basename(skip.path))).toEqual([
      "rollout-2025-11-17T15-30-29-019cae10-5d58-7c31-9a53-2f4c1e8b7a11.jsonl",
    ]);
  });

  it("loads a session with the subagents it spawned, linked to the spawn_agent call", async () => {
    const parentId = "019eddaa-0000-7000-8000-0000000000a1";
    const childId = "019eddaa-3bb4-7da3-8f6f-2bb5e10f4e42";
    const store = new CodexStore({ root: home });
    const parent: Transcript = {
      meta: { id: parentId, timestamp: "2026-06-19T02:15:23.000Z", cwd: "/w" },
      messages: [
        {
          role: "user",
          content: [{ type: "text", text: "delegate it" }],
          timestamp: "2026-06-19T02:15:24.000Z",
        },
        {
          role: "assistant",
          content: [
            {
              type: "tool_use",
              id: "call_spawn",
              tool: {
                name: "Raw",
                toolName: "multi_agent_v1.spawn_agent",
                input: { agent_type: "implementer", message: "write it" },
              },
            },
          ],
          timestamp: "2026-06-19T02:15:25.000Z",
        },
        {
          role: "user",
          content: [
            {
              type: "tool_result",
              toolUseId: "call_spawn",
              content: `{"agent_id":"${childId}","nickname":"Hypatia"}`,
              isError: false,
            },
          ],
          timestamp: "2026-06-19T02:15:26.000Z",
        },
      ],
    };
    await store.save(codexCodec.fromCommon(parent));
    const day = path.join(home, "sessions", "2026", "06", "19");
    const child = [
      JSON.stringify({
        timestamp: "2026-06-19T02:15:27.000Z",
        type: "session_meta",
        payload: {
          id: childId,
          parent_thread_id: parentId,
          timestamp: "2026-06-19T02:15:27.000Z",
          cwd: "/w",
          originator: "codex_exec",
          cli_version: "0.142.0",
          source: {
            subagent: {
              thread_spawn: {
                parent_thread_id: parentId,
                depth: 1,
                agent_nickname: "Hypatia",
                agent_role: "implementer",
              },
            },
          },
        },
      }),
      '{"timestamp":"2026-06-19T02:15:28.000Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"write it"}]}}',
      '{"timestamp":"2026-06-19T02:15:29.000Z","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"PASS"}]}}',
      "",
    ].join("\n");
    // Named a second later than the parent; an unrelated rollout named earlier is never opened as a child.
    await fs.writeFile(path.join(day, `rollout-2026-06-19T02-15-27-${childId}.jsonl`), child);
    const loaded = await store.load(parentId);
    const transcript = codexCodec.toCommon(loaded);
    expect(transcript.subagents).toEqual([
      {
        id: childId,
        toolUseId: "call_spawn",
        title: "Hypatia",
        agentType: "implementer",
        messages: [
          {
            role: "user",
            content: [{ type: "text", text: "write it" }],
            timestamp: "2026-06-19T02:15:28.000Z",
          },
          {
            role: "assistant",
            content: [{ type: "text", text: "PASS" }],
            timestamp: "2026-06-19T02:15:29.000Z",
          },
        ],
      },
    ]);
    // The rollout text is still the parent's own.
    expect(codexCodec.serialize(loaded)).toBe(readFileSync(await store.locate(parentId), "utf8"));
    expect(codexCodec.toCommon(await store.load(childId)).subagents).toBeUndefined();
    // Loaded again by the same store (its children remembered by file): the same subagents; a
    // child rewritten to name another parent is no longer one, and one named again is.
    expect(codexCodec.toCommon(await store.load(parentId)).subagents).toEqual(transcript.subagents);
    const childFile = path.join(day, `rollout-2026-06-19T02-15-27-${childId}.jsonl`);
    const other = "019eddaa-0000-7000-8000-0000000000b2";
    await fs.writeFile(childFile, `${child.replaceAll(parentId, other)}\n`);
    expect(codexCodec.toCommon(await store.load(parentId)).subagents).toBeUndefined();
    await fs.writeFile(childFile, child);
    expect(codexCodec.toCommon(await store.load(parentId)).subagents).toEqual(transcript.subagents);
  });

  it("finds and loads a .jsonl.zst rollout, and prefers the plain file when both exist", async () => {
    const day = path.join(home, "archived_sessions");
    await fs.mkdir(day, { recursive: true });
    const name = "rollout-2026-03-02T10-00-00-019cae10-5d58-7c31-9a53-2f4c1e8b7a10.jsonl";
    await fs.copyFile(path.join(fixtures, "exec-legacy.jsonl.zst"), path.join(day, `${name}.zst`));
    const store = new CodexStore({ root: home });
    const { found } = await discover(store);
    expect(found.map((entry) => [entry.id, entry.title, path.basename(entry.path)])).toEqual([
      ["019cae10-5d58-7c31-9a53-2f4c1e8b7a10", "How many tests are there?", `${name}.zst`],
    ]);
    const text = readFileSync(path.join(fixtures, "exec-legacy.jsonl"), "utf8");
    expect(codexCodec.serialize(await store.load("019cae10-5d58-7c31-9a53-2f4c1e8b7a10"))).toBe(
      text,
    );
    await fs.writeFile(path.join(day, name), text);
    expect((await discover(store)).found.map((entry) => path.basename(entry.path))).toEqual([name]);
    expect(await store.locate("019cae10-5d58-7c31-9a53-2f4c1e8b7a10")).toBe(path.join(day, name));
  });
});
