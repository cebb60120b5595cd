// The search index reads Codex rollouts through the Codex harness's own load
// of the path discovery found (HarnessDefinition.loadFile): exactly what the
// store's load gives, a parent with its subagent's rollout included; and
// only a rollout its load reads alone — not a parent, not a compressed
// file — is offered for reading line by line (readsAlone).
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { defaultRegistry } from "@txcript/harnesses";
import { describe, expect, it } from "vitest";
import { loadRegistry } from "../src/harnesses.js";
import type { Io } from "../src/io.js";
import { indexSources } from "../src/search-index.js";
import { fixturesRoot, type Home, useHome } from "./e2e.js";

// indexSources reads the CLI's registry, which a command loads first (harnesses.ts).
await loadRegistry();

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

describe("the search index's Codex reads", () => {
  it("read a rollout by path exactly as the store loads it, a parent with its subagent", async () => {
    await stock();
    const source = codexSource();
    let read = 0;
    for await (const session of source.store.discover()) {
      const loaded = source.read(await source.store.load(session.id));
      const native = await source.loadFile?.(session);
      expect(native).toBeDefined();
      expect(source.read(native), session.path).toEqual(loaded);
      read += 1;
    }
    expect(read).toBeGreaterThan(2);
    // The parent's load by path has its subagent.
    const parent = await (async () => {
      for await (const session of source.store.discover())
        if (session.id === parentId) return session;
      throw new Error("no parent");
    })();
    expect(source.read(await source.loadFile?.(parent)).subagents?.length).toBe(1);
  });

  it("offer line by line only a rollout read alone: not a parent, not a compressed one", async () => {
    const root = await stock();
    const source = codexSource();
    const alone = new Map<string, unknown>();
    for await (const session of source.store.discover())
      alone.set(session.id, await source.readsAlone?.(session));
    expect(alone.get(parentId)).toBeUndefined();
    expect(alone.get(childId)).toEqual({});
    const day = path.join(root, "sessions", "2026", "06", "19");
    const zst = path.join(
      day,
      "rollout-2026-06-19T03-00-00-019eddaa-0000-7000-8000-0000000000a3.jsonl.zst",
    );
    await fs.copyFile(path.join(fixturesRoot, "codex", "exec-legacy.jsonl.zst"), zst);
    expect(
      await source.readsAlone?.({
        harness: "codex",
        id: "019eddaa-0000-7000-8000-0000000000a3",
        path: zst,
        updatedAt: "2026-06-19T03:00:00.000Z",
      }),
    ).toBeUndefined();
  });
});
