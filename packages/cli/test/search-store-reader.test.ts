// The search index's Codex reader (storeReader of @txcript/search): a
// rollout read by the path discovery found gives exactly what the store's
// load gives, and every session the store's load would read more for — a
// parent whose subagent rollouts name it, an id in two files — is left to
// the store; a compressed rollout anywhere leaves every session to it.
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { defaultRegistry } from "@txcript/harnesses";
import { storeReader, takeSnapshot } from "@txcript/search";
import { describe, expect, it } from "vitest";
import type { Io } from "../src/io.js";
import { indexSources } from "../src/search-index.js";
import { fixturesRoot, type Home, useHome } from "./e2e.js";

let home: Home;
useHome((made) => {
  home = made;
});

const parentId = "019eddaa-0000-7000-8000-0000000000a1";
const childId = "019eddaa-0000-7000-8000-0000000000a2";

/** Every Codex fixture, a parent that spawned a subagent and that subagent's own rollout. */
async function stock(): Promise<string> {
  const entry = defaultRegistry.stores(home.env).find(({ harness }) => harness.id === "codex");
  if (entry === undefined) throw new Error("no Codex store");
  const { harness, store } = entry;
  const directory = path.join(fixturesRoot, "codex");
  for (const name of (await fs.readdir(directory)).sort()) {
    if (!name.endsWith(".jsonl")) continue;
    const native = harness.codec.parse(await fs.readFile(path.join(directory, name), "utf8"), {
      file: name,
    });
    // A fixture the store cannot save (no session_meta: an early rollout) is left out.
    await store.save(native, { overwrite: true }).catch(() => undefined);
  }
  const at = "2026-06-19T02:15:24.000Z";
  await store.save(
    harness.codec.fromCommon({
      meta: { id: parentId, timestamp: at, cwd: "/w" },
      messages: [
        { role: "user", timestamp: at, content: [{ type: "text", text: "delegate" }] },
        {
          role: "assistant",
          timestamp: "2026-06-19T02:15:25.000Z",
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
        },
        {
          role: "user",
          timestamp: "2026-06-19T02:15:26.000Z",
          content: [
            {
              type: "tool_result",
              toolUseId: "call_spawn",
              content: `{"agent_id":"${childId}","nickname":"Hypatia"}`,
              isError: false,
            },
          ],
        },
      ],
    } as never),
    { overwrite: true },
  );
  const day = path.join(store.root, "sessions", "2026", "06", "19");
  const child = [
    JSON.stringify({
      timestamp: "2026-06-19T02:15:27.000Z",
      type: "session_meta",
      payload: {
        id: childId,
        timestamp: "2026-06-19T02:15:27.000Z",
        cwd: "/w",
        originator: "codex_exec",
        cli_version: "0.142.0",
        source: { subagent: { thread_spawn: { parent_thread_id: parentId, depth: 1 } } },
      },
    }),
    '{"timestamp":"2026-06-19T02:15:28.000Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"write it"}]}}',
    '{"timestamp":"2026-06-19T02:15:29.000Z","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"PASS"}]}}',
    "",
  ].join("\n");
  await fs.writeFile(path.join(day, `rollout-2026-06-19T02-15-27-${childId}.jsonl`), child);
  return store.root;
}

function codexSource() {
  const source = indexSources({ env: home.env } as unknown as Io).find(
    (candidate) => candidate.harness === "codex",
  );
  if (source === undefined) throw new Error("no Codex source");
  return source;
}

const filesUnder = (root: string) => takeSnapshot(root)?.files.map((entry) => entry[0]) ?? [];

describe("the search index's Codex reader", () => {
  it("reads a rollout by path exactly as the store loads it, and leaves a parent to the store", async () => {
    const root = await stock();
    const source = codexSource();
    const read = storeReader("codex", filesUnder(root), source.parse);
    expect(read).toBeDefined();
    const direct: string[] = [];
    const byStore: string[] = [];
    for await (const session of source.store.discover()) {
      const loaded = source.read(await source.store.load(session.id));
      const native = await read?.(session);
      if (native === undefined) byStore.push(session.id);
      else {
        direct.push(session.id);
        expect(source.read(native), session.path).toEqual(loaded);
      }
    }
    expect(byStore).toEqual([parentId]);
    expect(direct).toContain(childId);
    // The parent's load has the subagent the direct read would have missed.
    expect(source.read(await source.store.load(parentId)).subagents?.length).toBe(1);
  });

  it("leaves an id in two files, and every session beside a compressed rollout, to the store", async () => {
    const root = await stock();
    const source = codexSource();
    const sessions = [];
    for await (const session of source.store.discover()) sessions.push(session);
    const some = sessions.find((session) => session.id !== parentId && session.id !== childId);
    if (some === undefined) throw new Error("no fixture session");
    const copy = path.join(root, "archived_sessions", path.basename(some.path));
    await fs.mkdir(path.dirname(copy), { recursive: true });
    await fs.copyFile(some.path, copy);
    const read = storeReader("codex", filesUnder(root), source.parse);
    expect(await read?.(some)).toBeUndefined();
    const other = sessions.find((session) => session !== some && session.id !== parentId);
    expect(other).toBeDefined();
    expect(await read?.(other as never)).toBeDefined();
    await fs.rm(copy);
    await fs.copyFile(
      path.join(fixturesRoot, "codex", "exec-legacy.jsonl.zst"),
      path.join(
        path.dirname(some.path),
        path.basename(some.path).replace(/\.jsonl$/, ".jsonl.zst"),
      ),
    );
    expect(storeReader("codex", filesUnder(root), source.parse)).toBeUndefined();
  });
});
