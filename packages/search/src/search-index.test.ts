import { spawn } from "node:child_process";
import { promises as fs } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { commonCodec } from "@txcript/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { defaultIndexFile, indexVersion, SearchIndex } from "./search-index.js";
import { directorySource, session, writeSession } from "./test-support/sources.js";

let root: string;
let file: string;
let sessions: string;

beforeEach(async () => {
  root = await fs.mkdtemp(path.join(tmpdir(), "txcript-search-"));
  file = path.join(root, "cache", "search.sqlite");
  sessions = path.join(root, "sessions");
  await writeSession(
    sessions,
    session("s1", ["how do I fix the flaky upload test?", "Retry the upload with a Café timeout"], {
      title: "Upload",
      cwd: "/work/app",
    }),
  );
  await writeSession(
    sessions,
    session("s2", ["write a README", "Done: README.md written"], { cwd: "/work/docs" }),
  );
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

async function search(query: string, filters = {}) {
  const { index } = await SearchIndex.open(file);
  try {
    await index.refresh([directorySource("common", sessions)]);
    return index.search(query, filters);
  } finally {
    index.close();
  }
}

describe("SearchIndex", () => {
  it("keeps the index, its -wal and -shm to the user (0600) in a directory of theirs (0700)", async () => {
    const { index } = await SearchIndex.open(file);
    try {
      await index.refresh([directorySource("common", sessions)]);
      for (const suffix of ["", "-wal", "-shm"]) {
        const mode = (await fs.stat(`${file}${suffix}`)).mode & 0o777;
        expect(mode.toString(8), `search.sqlite${suffix}`).toBe("600");
      }
      expect(((await fs.stat(path.dirname(file))).mode & 0o777).toString(8)).toBe("700");
    } finally {
      index.close();
    }
  });

  it("makes an index left readable by others (an older txcript's) the user's alone when opened", async () => {
    await search("upload");
    for (const suffix of ["", "-wal", "-shm"])
      await fs.chmod(`${file}${suffix}`, 0o644).catch(() => undefined);
    const index = SearchIndex.openExisting(file);
    expect(index).toBeDefined();
    index?.close();
    expect(((await fs.stat(file)).mode & 0o777).toString(8)).toBe("600");
  });

  it("finds every word in any case, with or without accents, and marks the match", async () => {
    const hits = await search("FLAKY upload");
    expect(hits.map((hit) => [hit.id, hit.ordinal])).toEqual([["s1", 1]]);
    expect(hits[0]?.snippet).toContain("«flaky» «upload»");
    expect(hits[0]?.title).toBe("Upload");
    expect((await search("cafe")).map((hit) => hit.ordinal)).toEqual([2]);
    expect((await search("upload readme")).length).toBe(0);
  });

  it("matches a quoted phrase literally, and takes FTS5 syntax as plain words", async () => {
    expect((await search('"test upload"')).length).toBe(0);
    expect((await search('"upload test"')).length).toBe(1);
    expect((await search('"flaky upload test"')).map((hit) => hit.id)).toEqual(["s1"]);
    expect((await search("README AND")).length).toBe(0);
    expect((await search("readme*")).map((hit) => hit.id)).toEqual(["s2", "s2"]);
    await expect(search("*** ---")).rejects.toThrow(/nothing to search for/);
  });

  it("filters by harness, cwd, time and limit", async () => {
    expect(await search("readme", { from: "amp" })).toEqual([]);
    expect((await search("readme", { cwd: "/work/docs" })).length).toBe(2);
    expect(await search("readme", { cwd: "/work/app" })).toEqual([]);
    expect(await search("readme", { since: "2999-01-01T00:00:00.000Z" })).toEqual([]);
    expect((await search("readme", { until: "2999-01-01T00:00:00.000Z", limit: 1 })).length).toBe(
      1,
    );
  });

  it("follows files appended to, replaced, deleted and made unreadable between searches", async () => {
    expect((await search("banana")).length).toBe(0);
    const grown = session("s2", ["write a README", "Done: README.md written", "now a banana"], {
      cwd: "/work/docs",
    });
    await fs.writeFile(path.join(sessions, "s2.common.json"), commonCodec.serialize(grown));
    expect((await search("banana")).map((hit) => [hit.id, hit.ordinal])).toEqual([["s2", 3]]);
    await fs.writeFile(
      path.join(sessions, "s2.common.json"),
      commonCodec.serialize(session("s2", ["cherry only"])),
    );
    expect(await search("banana")).toEqual([]);
    expect((await search("cherry")).length).toBe(1);
    await fs.rm(path.join(sessions, "s2.common.json"));
    expect(await search("cherry")).toEqual([]);
    await fs.writeFile(path.join(sessions, "s1.common.json"), "{ not json");
    const { index } = await SearchIndex.open(file);
    const stats = await index.refresh([directorySource("common", sessions)]);
    expect(stats.failed.map((failure) => failure.id)).toEqual(["s1"]);
    expect(index.search("flaky")).toEqual([]);
    index.close();
  });

  it("re-reads only what changed", async () => {
    const { index } = await SearchIndex.open(file);
    const source = directorySource("common", sessions);
    expect((await index.refresh([source])).indexed).toBe(2);
    expect((await index.refresh([source])).indexed).toBe(0);
    await writeSession(sessions, session("s3", ["new one"]));
    expect(await index.refresh([source])).toMatchObject({ sessions: 3, indexed: 1, removed: 0 });
    index.close();
  });

  it("makes a new index of 16 KB pages merging 8 segments a level, and keeps an older one's", async () => {
    const Sqlite = (await import("better-sqlite3")).default;
    const settings = (target: string) => {
      const db = new Sqlite(target, { readonly: true });
      try {
        return {
          pageSize: db.pragma("page_size", { simple: true }),
          automerge: (
            db.prepare("SELECT v FROM messages_config WHERE k = 'automerge'").get() as
              | { v: number }
              | undefined
          )?.v,
        };
      } finally {
        db.close();
      }
    };
    await SearchIndex.open(file).then(({ index }) => index.close());
    expect(settings(file)).toEqual({ pageSize: 16_384, automerge: 8 });
    // An index made before (SQLite's 4 KB pages, FTS5's default merging) opens as it is.
    const older = path.join(root, "older.sqlite");
    const db = new Sqlite(older);
    db.pragma("journal_mode = WAL");
    db.exec(`CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      CREATE VIRTUAL TABLE messages USING fts5(text, key UNINDEXED, ordinal UNINDEXED,
        role UNINDEXED, tokenize = "unicode61 remove_diacritics 2");`);
    db.prepare("INSERT INTO meta (key, value) VALUES ('version', ?)").run(indexVersion);
    db.close();
    const opened = await SearchIndex.open(older);
    expect(opened.rebuilt).toBeUndefined();
    await opened.index.refresh([directorySource("common", sessions)]);
    expect(opened.index.search("flaky").length).toBe(1);
    opened.index.close();
    expect(settings(older)).toEqual({ pageSize: 4096, automerge: undefined });
  });

  it("rebuilds an index that is corrupt or from another version", async () => {
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(
      file,
      "this is not a database, just text that fills the header page ".repeat(100),
    );
    const opened = await SearchIndex.open(file);
    expect(opened.rebuilt).toBe("it was not a readable database");
    await opened.index.refresh([directorySource("common", sessions)]);
    expect(opened.index.search("flaky").length).toBe(1);
    opened.index.close();
    const Sqlite = (await import("better-sqlite3")).default;
    const db = new Sqlite(file);
    db.prepare("UPDATE meta SET value = 'old' WHERE key = 'version'").run();
    db.close();
    const again = await SearchIndex.open(file);
    expect(again.rebuilt).toBe("it was built by another version (old)");
    expect(again.index.search("flaky")).toEqual([]);
    again.index.close();
  });

  it("lets two processes build the same index at once", async () => {
    for (let index = 0; index < 60; index += 1)
      await writeSession(
        sessions,
        session(`bulk${index}`, [`bulk text number ${index} ${"filler ".repeat(200)}`]),
      );
    const script = path.join(
      path.dirname(fileURLToPath(import.meta.url)),
      "test-support",
      "refresh-child.ts",
    );
    const child = () =>
      new Promise<{ code: number | null; out: string }>((resolve) => {
        const process_ = spawn(process.execPath, ["--import", "tsx", script, file, sessions], {
          stdio: ["ignore", "pipe", "pipe"],
          cwd: path.dirname(fileURLToPath(import.meta.url)),
        });
        let out = "";
        process_.stdout.on("data", (chunk) => {
          out += chunk;
        });
        process_.stderr.on("data", (chunk) => {
          out += chunk;
        });
        const timer = setTimeout(() => process_.kill("SIGKILL"), 60_000);
        process_.on("exit", (code) => {
          clearTimeout(timer);
          resolve({ code, out });
        });
      });
    const [first, second] = await Promise.all([child(), child()]);
    expect(first.code, first.out).toBe(0);
    expect(second.code, second.out).toBe(0);
    expect(first.out.trim()).toBe("62");
    expect(second.out.trim()).toBe("62");
    expect((await search("bulk")).length).toBe(20);
  });

  it("loads the addon from its own file, without the `bindings` lookup", async () => {
    // A fresh process: this one's module cache may hold bindings from another test's open.
    const script = [
      'import { createRequire } from "node:module";',
      'import { SearchIndex } from "./search-index.ts";',
      `const { index } = await SearchIndex.open(${JSON.stringify(file)});`,
      'index.search("flaky");',
      "index.close();",
      "const loaded = Object.keys(createRequire(import.meta.url).cache);",
      'console.log(JSON.stringify(loaded.map((key) => key.split("node_modules/").at(-1))));',
    ].join("\n");
    const loaded = await new Promise<string[]>((resolve, reject) => {
      const child = spawn(
        process.execPath,
        ["--import", "tsx", "--input-type=module", "-e", script],
        { cwd: path.dirname(fileURLToPath(import.meta.url)), stdio: ["ignore", "pipe", "pipe"] },
      );
      let out = "";
      let err = "";
      child.stdout.on("data", (chunk) => {
        out += chunk;
      });
      child.stderr.on("data", (chunk) => {
        err += chunk;
      });
      child.on("exit", (code) =>
        code === 0 ? resolve(JSON.parse(out) as string[]) : reject(new Error(err)),
      );
    });
    expect(loaded).toContain("better-sqlite3/build/Release/better_sqlite3.node");
    expect(loaded.filter((key) => key.startsWith("bindings/"))).toEqual([]);
  });

  it("lives under the XDG cache directory", () => {
    expect(defaultIndexFile({ XDG_CACHE_HOME: "/c", HOME: "/h" })).toBe("/c/txcript/search.sqlite");
    expect(defaultIndexFile({ HOME: "/h" })).toBe("/h/.cache/txcript/search.sqlite");
    expect(defaultIndexFile({ XDG_CACHE_HOME: "relative", HOME: "/h" })).toBe(
      "/h/.cache/txcript/search.sqlite",
    );
  });
});

// Without a filter, search ranks in FTS5 alone, then reads and joins only the best rows and makes
// their snippets in a temporary table (#bestFirst): the same hits, ranks and snippets as the one
// query joining every match first, which is kept here as the oracle.
describe("SearchIndex without filters, ranked before the join", () => {
  const vocabulary = ["the", "error", "flaky", "upload", "test", "Café", "crème", "timeout"].concat(
    ["retry", "build", "README.md", "naïve", "ÉRROR", "queue", "lint", "cache"],
  );
  let seed = 7;
  const next = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const text = () => {
    const words = Array.from({ length: 3 + Math.floor(next() ** 3 * 400) }, () => {
      return vocabulary[Math.floor(next() * vocabulary.length)] as string;
    });
    return words.join(next() < 0.3 ? "\n  " : " ");
  };

  function oracle(match: string, limit: number) {
    return async () => {
      const Sqlite = (await import("better-sqlite3")).default;
      const db = new Sqlite(file, { readonly: true });
      try {
        const rows = db
          .prepare(
            `SELECT s.harness, s.id, s.title, s.cwd, s.updated_at AS updatedAt, s.path, m.ordinal,
                    m.role, snippet(messages, 0, '«', '»', '…', 16) AS snippet,
                    bm25(messages) AS rank
             FROM messages m JOIN sessions s ON s.key = m.key
             WHERE messages MATCH ? ORDER BY rank LIMIT ?`,
          )
          .all(match, limit) as { id: string; ordinal: number; snippet: string; rank: number }[];
        return rows.map((row) => ({
          ...row,
          ordinal: Number(row.ordinal),
          snippet: row.snippet.replace(/\s+/g, " "),
        }));
      } finally {
        db.close();
      }
    };
  }
  const order = (hits: { rank: number; id: string; ordinal: number }[]) =>
    [...hits].sort((a, b) => a.rank - b.rank || a.id.localeCompare(b.id) || a.ordinal - b.ordinal);

  it("gives the hits, ranks and snippets of one query joining every match", async () => {
    for (let index = 0; index < 40; index += 1)
      await writeSession(
        sessions,
        session(`g${index}`, Array.from({ length: 2 + (index % 5) }, text), { cwd: "/g" }),
      );
    const { index } = await SearchIndex.open(file);
    try {
      await index.refresh([directorySource("common", sessions)]);
      const queries: [string, string][] = [
        ["error", '"error"'],
        ["the error", '"the" "error"'],
        ['"the error"', '"the error"'],
        ["cafe CREME", '"cafe" "CREME"'],
        ['"café crème timeout"', '"café crème timeout"'],
        ["readme.md naive", '"readme.md" "naive"'],
      ];
      for (const [query, match] of queries) {
        const all = await oracle(match, 10_000)();
        expect(all.length, query).toBeGreaterThan(3);
        const hits = index.search(query, { limit: 10_000 });
        expect(order(hits), query).toEqual(order(all));
        // --json prints the fields in this order.
        expect(Object.keys(hits[0] ?? {})).toEqual(Object.keys(all[0] ?? {}));
        const top = index.search(query, { limit: 5 });
        expect(
          top.map((hit) => hit.rank),
          query,
        ).toEqual(all.slice(0, 5).map((hit) => hit.rank));
        expect(
          top.every((hit) => hit.snippet.includes("«")),
          query,
        ).toBe(true);
      }
      expect(index.search("nowhere")).toEqual([]);
    } finally {
      index.close();
    }
  });
});

describe("SearchIndex.openExisting and unchangedSince (the CLI's fast path)", () => {
  it("opens only an index that exists, and says unchanged only while nothing moved", async () => {
    expect(SearchIndex.openExisting(file)).toBeUndefined();
    await search("upload");
    const source = directorySource("common", sessions);
    const stores = [{ harness: "common", root: source.store.root }];
    const index = SearchIndex.openExisting(file);
    expect(index).toBeDefined();
    try {
      expect(index?.unchangedSince(stores)).toBe(true);
      // Controls: another root, an extra store, a store missing from the list.
      expect(index?.unchangedSince([{ harness: "common", root: `${sessions}-other` }])).toBe(false);
      expect(index?.unchangedSince([...stores, { harness: "other", root: sessions }])).toBe(false);
      expect(index?.unchangedSince([])).toBe(false);
      expect(new Set(index?.search("upload").map((hit) => hit.id))).toEqual(new Set(["s1"]));
      await writeSession(sessions, session("s3", ["a new upload"]));
      expect(index?.unchangedSince(stores)).toBe(false);
    } finally {
      index?.close();
    }
    await search("upload");
    const again = SearchIndex.openExisting(file);
    expect(again?.unchangedSince(stores)).toBe(true);
    again?.close();
  });

  it("names the stores that changed, none once refreshed, undefined when not comparable", async () => {
    await search("upload");
    const stores = [{ harness: "common", root: directorySource("common", sessions).store.root }];
    const index = SearchIndex.openExisting(file);
    if (index === undefined) throw new Error("no index");
    try {
      expect(index.changedSince(stores)).toEqual([]);
      // Not comparable (the caller refreshes them all): another root, an extra or missing store.
      expect(
        index.changedSince([{ harness: "common", root: `${sessions}-other` }]),
      ).toBeUndefined();
      expect(index.changedSince([...stores, { harness: "other", root: sessions }])).toBeUndefined();
      expect(index.changedSince([])).toBeUndefined();
      await writeSession(sessions, session("s3", ["a new upload"]));
      expect(index.changedSince(stores)).toEqual(["common"]);
      // The refresh on this connection finds the new session from that comparison, and after it
      // nothing has changed.
      await index.refresh([directorySource("common", sessions)]);
      expect(new Set(index.search("upload").map((hit) => hit.id))).toEqual(new Set(["s1", "s3"]));
      expect(index.changedSince(stores)).toEqual([]);
    } finally {
      index.close();
    }
  });
});

describe("what the CLI's search keeper asks of an index", () => {
  it("takes a vouched store as unchanged, lists a snapshot's directories, and sees other connections' commits", async () => {
    await search("upload");
    const stores = [{ harness: "common", root: directorySource("common", sessions).store.root }];
    const index = SearchIndex.openExisting(file);
    if (index === undefined) throw new Error("no index");
    try {
      const watched = index.snapshotDirectories("common");
      expect(watched).toEqual({ root: stores[0]?.root, missing: false, dirs: [stores[0]?.root] });
      expect(index.snapshotDirectories("nobody")).toBeUndefined();
      await writeSession(sessions, session("s3", ["a new upload"]));
      // Vouched for: not compared (the keeper's watchers say nothing happened); control: compared.
      expect(index.changedSince(stores, new Set(["common"]))).toEqual([]);
      expect(index.changedSince(stores)).toEqual(["common"]);
      // A commit by another connection changes the data version; reading does not.
      const before = index.dataVersion();
      index.search("upload");
      expect(index.dataVersion()).toBe(before);
      await search("upload");
      expect(index.dataVersion()).not.toBe(before);
    } finally {
      index.close();
    }
    // A store whose root is missing is given as missing (its nearest ancestor shows it made).
    await fs.rm(sessions, { recursive: true });
    await search("upload");
    const again = SearchIndex.openExisting(file);
    expect(again?.snapshotDirectories("common")).toMatchObject({ missing: true, dirs: [] });
    again?.close();
  });
});
