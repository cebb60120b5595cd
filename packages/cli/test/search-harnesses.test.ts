// Search over every harness's store: each harness's fixtures, saved by its
// own store into a temporary home, are indexed; the index reads a session
// by the path discovery found through the harness's own load
// (HarnessDefinition.loadFile), which gives the store's load's transcript —
// so the same message ordinals — including a session with subagents; and a
// hit's ordinal is the message `txcript view <id>#<n>` shows, on every harness.
import { promises as fs } from "node:fs";
import * as path from "node:path";
import type { Transcript } from "@txcript/core";
import { defaultRegistry, harnessDirectory } from "@txcript/harnesses";
import { type IndexSource, SearchIndex, sessionTexts } from "@txcript/search";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { loadRegistry } from "../src/harnesses.js";
import type { Io } from "../src/io.js";
import { indexSources } from "../src/search-index.js";
import { fixturesRoot, type Home, txcript, useHome } from "./e2e.js";

// indexSources reads the CLI's registry, which a command loads first (harnesses.ts).
await loadRegistry();

let home: Home;
useHome((made) => {
  home = made;
});

const at = "2026-05-10T10:00:00.000Z";

/** A session whose first message spawned a subagent. */
function withSubagent(id: string): Transcript {
  return {
    meta: { id, timestamp: at, cwd: "/work/sub" },
    messages: [
      {
        role: "user" as const,
        timestamp: at,
        content: [{ type: "text" as const, text: "delegate it" }],
      },
      {
        role: "assistant" as const,
        timestamp: at,
        content: [
          {
            type: "tool_use" as const,
            id: "call_1",
            tool: { name: "Task", input: { prompt: "look" } } as never,
          },
        ],
      },
      {
        role: "user" as const,
        timestamp: at,
        content: [
          {
            type: "tool_result" as const,
            toolUseId: "call_1",
            content: "found it",
            isError: false,
          },
        ],
      },
    ],
    subagents: [
      {
        id: "sub-1",
        toolUseId: "call_1",
        messages: [
          {
            role: "user" as const,
            timestamp: at,
            content: [{ type: "text" as const, text: "look" }],
          },
          {
            role: "assistant" as const,
            timestamp: at,
            content: [{ type: "text" as const, text: "inner subagentword" }],
          },
        ],
      },
    ],
  };
}

/** Save every fixture of every harness with a store (and the subagent session) into the home. */
async function stock(): Promise<Map<string, number>> {
  const saved = new Map<string, number>();
  for (const { harness, store } of defaultRegistry.stores(home.env)) {
    const directory = path.join(fixturesRoot, harnessDirectory(harness.id));
    if (harness.id === "cursor_cli") {
      // A read-only store (txcript never writes one): stocked with the fixture stores, copied in.
      await fs.cp(path.join(directory, "store"), store.root, { recursive: true });
      for await (const _ of store.discover())
        saved.set(harness.id, (saved.get(harness.id) ?? 0) + 1);
      continue;
    }
    const names = await fs.readdir(directory).catch(() => [] as string[]);
    const natives: unknown[] = [];
    for (const name of names.sort()) {
      if (!/\.jsonl?$/.test(name) || name.endsWith(".common.json")) continue;
      try {
        natives.push(
          harness.codec.parse(await fs.readFile(path.join(directory, name), "utf8"), {
            file: name,
          }),
        );
      } catch {}
    }
    try {
      natives.push(
        harness.codec.fromCommon(
          withSubagent("a1b2c3d4-0000-4000-8000-00000000000a"),
          harness.writeOptions?.({ from: "common" }) ?? {},
        ),
      );
    } catch {}
    for (const native of natives) {
      try {
        // A recording that names no project is filed under one, and not judged stale by today's date
        // (options a store does not know are ignored).
        const where = await store.save(native, {
          overwrite: true,
          cwd: "/work/fixture",
          now: new Date("2026-05-11T00:00:00Z"),
        } as never);
        if (!path.relative(home.root, where.path).startsWith(".."))
          saved.set(harness.id, (saved.get(harness.id) ?? 0) + 1);
      } catch {}
    }
  }
  return saved;
}

describe("search over every harness", () => {
  it("reads sessions by path exactly as the store loads them, and hits open in view", async () => {
    const saved = await stock();
    // Every harness whose store saves into the home has sessions to check.
    // OpenCode stages for its import; Crush saves into a project's .crush/crush.db, never its root.
    for (const { harness } of defaultRegistry.stores(home.env))
      if (harness.id !== "opencode" && harness.id !== "crush")
        expect(saved.get(harness.id) ?? 0, harness.id).toBeGreaterThan(0);
    const io = { env: home.env } as unknown as Io;
    const sources = indexSources(io);
    const checked = new Map<string, { direct: number; store: number }>();
    const withSubagents = new Set<string>();
    const probes: { harness: string; id: string; ordinal: number; word: string }[] = [];
    for (const source of sources) {
      for await (const session of source.store.discover()) {
        const loaded = source.read(await source.store.load(session.id));
        const direct = await source.loadFile?.(session);
        const count = checked.get(source.harness) ?? { direct: 0, store: 0 };
        if (direct === undefined) count.store += 1;
        else {
          count.direct += 1;
          expect(source.read(direct), `${source.harness} ${session.path}`).toEqual(loaded);
          if ((loaded.subagents?.length ?? 0) > 0) withSubagents.add(source.harness);
        }
        checked.set(source.harness, count);
        // A word of the session's last indexed message that has one (its own, not a subagent's).
        const texts = sessionTexts(loaded).filter((text) => !text.role.startsWith("subagent"));
        const last = texts.reverse().find((text) => /[A-Za-z]{7,}/.test(text.text));
        const word = last?.text.match(/[A-Za-z]{7,}/)?.[0];
        if (last && word && !probes.some((probe) => probe.harness === source.harness))
          probes.push({ harness: source.harness, id: session.id, ordinal: last.ordinal, word });
      }
    }
    // Every harness with a load of its own was read by path (sessions with subagents too).
    for (const harness of ["pi", "claude_code", "gemini_cli", "codex"])
      expect(checked.get(harness)?.direct ?? 0, harness).toBeGreaterThan(0);
    expect(withSubagents.size).toBeGreaterThan(0);
    const { index } = await SearchIndex.open(path.join(home.root, "index.sqlite"));
    const stats = await index.refresh(sources);
    index.close();
    expect(stats.failed).toEqual([]);
    expect(new Set(probes.map((probe) => probe.harness))).toEqual(
      new Set([...saved.keys()].filter((id) => id !== "opencode")),
    );
    for (const probe of probes) {
      const search = await txcript(home, [
        "search",
        probe.word,
        "--json",
        "--from",
        probe.harness,
        "--limit",
        "200",
      ]);
      expect(search.code, search.stderr).toBe(0);
      const hits = JSON.parse(search.stdout) as { id: string; ordinal: number }[];
      expect(hits, `${probe.harness} ${probe.word}`).toContainEqual(
        expect.objectContaining({ id: probe.id, ordinal: probe.ordinal }),
      );
      const view = await txcript(home, [
        "view",
        `${probe.id}#${probe.ordinal}`,
        "--from",
        probe.harness,
      ]);
      expect(view.code, view.stderr).toBe(0);
      expect(view.stdout.toLowerCase(), `${probe.harness} view`).toContain(
        probe.word.toLowerCase(),
      );
    }
  }, 120_000);

  it("reads a long session file line by line into the rows the whole read gives", async () => {
    await stock();
    const io = { env: home.env } as unknown as Io;
    // A Gemini CLI recording whose own directory is not its project's root: the store's load
    // gives the project root as the cwd, so must the read line by line.
    const gemini = defaultRegistry
      .stores(home.env)
      .find(({ harness }) => harness.id === "gemini_cli");
    if (gemini === undefined) throw new Error("no Gemini CLI store");
    const [head, ...rest] = (
      await fs.readFile(path.join(fixturesRoot, "gemini-cli", "jsonl-records.jsonl"), "utf8")
    ).split("\n");
    const moved = {
      ...JSON.parse(head as string),
      sessionId: "c0ffee00-5e55-4a11-9b2d-7e3f10a2b4c7",
      directories: ["/elsewhere/checkout"],
    };
    await gemini.store.save(
      gemini.harness.codec.parse([JSON.stringify(moved), ...rest].join("\n"), { file: "moved" }),
      {
        overwrite: true,
        cwd: "/work/project-root",
        now: new Date("2026-05-11T00:00:00Z"),
      } as never,
    );
    const rowsOf = (file: string) => {
      const db = new Database(file, { readonly: true });
      try {
        return {
          messages: db
            .prepare("SELECT key, ordinal, role, text FROM messages ORDER BY key, rowid")
            .all(),
          sessions: db
            .prepare(
              "SELECT key, id, path, title, cwd, updated_at, fingerprint, tracks FROM sessions ORDER BY key",
            )
            .all(),
        };
      } finally {
        db.close();
      }
    };
    const indexed = async (source: IndexSource, name: string, streamMinBytes: number) => {
      const file = path.join(home.root, `${name}.sqlite`);
      const { index } = await SearchIndex.open(file);
      try {
        const stats = await index.refresh([source], undefined, { streamMinBytes });
        return { stats, rows: rowsOf(file) };
      } finally {
        index.close();
      }
    };
    const streamedBy = new Map<string, number>();
    for (const source of indexSources(io)) {
      const whole = await indexed(source, `${source.harness}-whole`, Number.POSITIVE_INFINITY);
      // Every file counts as long: each one its store loads alone is read line by line.
      const lines = await indexed(source, `${source.harness}-lines`, 0);
      expect(whole.stats.failed, source.harness).toEqual([]);
      expect(lines.stats.failed, source.harness).toEqual([]);
      expect(whole.stats.streamed, source.harness).toBe(0);
      expect(lines.rows, source.harness).toEqual(whole.rows);
      if (source.harness === "gemini_cli")
        expect(whole.rows.sessions).toContainEqual(
          expect.objectContaining({
            id: "c0ffee00-5e55-4a11-9b2d-7e3f10a2b4c7",
            cwd: "/work/project-root",
          }),
        );
      streamedBy.set(source.harness, lines.stats.streamed);
      // Not every session: the one with subagents beside its file is read through the store.
      if (source.harness === "claude_code")
        expect(lines.stats.streamed).toBeLessThan(lines.stats.indexed);
    }
    // Amp's thread is one JSON document, walked line by line too.
    for (const harness of ["claude_code", "codex", "gemini_cli", "pi", "amp"])
      expect(streamedBy.get(harness) ?? 0, harness).toBeGreaterThan(0);
    // OpenCode's sessions are rows of a database (or a storage tree), read with their store.
    expect(streamedBy.get("opencode") ?? 0).toBe(0);
  }, 120_000);
});
