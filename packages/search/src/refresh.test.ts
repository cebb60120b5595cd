// The refresh's freshness path: a store whose files did not change is not
// asked to discover; files written in place are read again alone; anything
// else, or a store not dated by file times, is discovered again; a session
// that failed is tried again; a file that was not a session when
// discovered is found once it becomes one.
import { promises as fs } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { commonCodec, type Discovered, type Store } from "@txcript/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { writerThread } from "./refresh.js";
import { type IndexSource, SearchIndex } from "./search-index.js";
import { DirectoryStore, directorySource, session, writeSession } from "./test-support/sources.js";

let root: string;
let file: string;
let sessions: string;

beforeEach(async () => {
  root = await fs.mkdtemp(path.join(tmpdir(), "txcript-refresh-"));
  file = path.join(root, "cache", "search.sqlite");
  sessions = path.join(root, "sessions");
  await writeSession(sessions, session("s1", ["alpha one", "alpha two"]));
  await writeSession(sessions, session("s2", ["beta one"]));
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

/** A directory store that counts discoveries and loads, optionally dated not by file time. */
function counted(options: { datedByContent?: boolean } = {}) {
  const store = new DirectoryStore("common", sessions);
  const counts = { discover: 0, load: 0 };
  const wrapped: Store<unknown> = {
    harness: store.harness,
    root: store.root,
    async *discover() {
      counts.discover += 1;
      for await (const found of store.discover())
        yield (
          options.datedByContent ? { ...found, updatedAt: "2026-03-01T10:00:00.000Z" } : found
        ) as Discovered;
    },
    load: async (id) => {
      counts.load += 1;
      return store.load(id);
    },
    save: (native) => store.save(native as never),
    delete: (id) => store.delete(id),
  };
  const source: IndexSource = {
    harness: "common",
    store: wrapped,
    read: (native) => commonCodec.toCommon(native as never),
  };
  return { source, counts };
}

async function withIndex<T>(run: (index: SearchIndex) => Promise<T>): Promise<T> {
  const { index } = await SearchIndex.open(file);
  try {
    return await run(index);
  } finally {
    index.close();
  }
}

describe("refresh", () => {
  it("does not ask a store that did not change to discover", async () => {
    const { source, counts } = counted();
    await withIndex((index) => index.refresh([source]));
    expect(counts).toEqual({ discover: 1, load: 2 });
    const stats = await withIndex((index) => index.refresh([source]));
    expect(stats).toEqual({ sessions: 2, indexed: 0, streamed: 0, removed: 0, failed: [] });
    expect(counts).toEqual({ discover: 1, load: 2 });
    expect(await withIndex(async (index) => index.search("alpha").length)).toBe(2);
  });

  it("reads a file written in place again alone, and discovers when a file comes or goes", async () => {
    const { source, counts } = counted();
    await withIndex((index) => index.refresh([source]));
    await fs.appendFile(path.join(sessions, "s2.common.json"), "\n");
    await writeSession(sessions, session("s2", ["beta one", "gamma grown"]));
    const grown = await withIndex(async (index) => ({
      stats: await index.refresh([source]),
      hits: index.search("gamma").map((hit) => [hit.id, hit.ordinal]),
      // The other session's rows are untouched, and the replaced one's old rows are gone.
      others: index.search("alpha").length,
      beta: index.search("beta").map((hit) => [hit.id, hit.ordinal]),
    }));
    expect(grown).toEqual({
      stats: { sessions: 2, indexed: 1, streamed: 0, removed: 0, failed: [] },
      hits: [["s2", 2]],
      others: 2,
      beta: [["s2", 1]],
    });
    expect(counts).toEqual({ discover: 1, load: 3 });
    await writeSession(sessions, session("s3", ["delta new"]));
    expect(await withIndex(async (index) => (await index.refresh([source])).indexed)).toBe(1);
    expect(counts.discover).toBe(2);
    await fs.rm(path.join(sessions, "s1.common.json"));
    expect(await withIndex(async (index) => (await index.refresh([source])).removed)).toBe(1);
    expect(counts.discover).toBe(3);
  });

  it("discovers again when a store's sessions are not dated by their file's time", async () => {
    const { source, counts } = counted({ datedByContent: true });
    await withIndex((index) => index.refresh([source]));
    await withIndex((index) => index.refresh([source]));
    expect(counts.discover).toBe(1);
    await writeSession(sessions, session("s2", ["beta one", "gamma grown"]));
    expect(await withIndex(async (index) => (await index.refresh([source])).indexed)).toBe(1);
    expect(counts.discover).toBe(2);
  });

  it("tries a session that failed again on every refresh, and finds it once it reads", async () => {
    const { source } = counted();
    await withIndex((index) => index.refresh([source]));
    await fs.writeFile(path.join(sessions, "s1.common.json"), "{ not json");
    for (let round = 0; round < 2; round += 1) {
      const stats = await withIndex((index) => index.refresh([source]));
      expect(stats.failed.map((failure) => failure.id)).toEqual(["s1"]);
    }
    await writeSession(sessions, session("s1", ["alpha back"]));
    const back = await withIndex(async (index) => ({
      stats: await index.refresh([source]),
      hits: index.search("alpha").length,
    }));
    expect(back).toEqual({
      stats: { sessions: 2, indexed: 1, streamed: 0, removed: 0, failed: [] },
      hits: 1,
    });
  });

  it("finds a file that was not a session when discovered once it is written into one", async () => {
    // The store lists only files that parse as Common documents; this one starts empty.
    const store = new DirectoryStore("common", sessions);
    const strict: Store<unknown> = {
      ...store,
      harness: store.harness,
      root: store.root,
      async *discover() {
        for await (const found of store.discover()) {
          const text = await fs.readFile(found.path, "utf8");
          if (text.trim() !== "") yield found;
        }
      },
      load: (id) => store.load(id),
      save: (native) => store.save(native as never),
      delete: (id) => store.delete(id),
    };
    const source: IndexSource = {
      harness: "common",
      store: strict,
      read: (native) => commonCodec.toCommon(native as never),
    };
    await fs.writeFile(path.join(sessions, "s9.common.json"), "");
    expect(await withIndex(async (index) => (await index.refresh([source])).sessions)).toBe(2);
    await fs.writeFile(
      path.join(sessions, "s9.common.json"),
      commonCodec.serialize(session("s9", ["epsilon late"])),
    );
    const hits = await withIndex(async (index) => {
      await index.refresh([source]);
      return index.search("epsilon").map((hit) => hit.id);
    });
    expect(hits).toEqual(["s9"]);
  });

  it("writes many sessions a batch at a time, each whole, a failed one apart", async () => {
    // More sessions than one batch holds (200), with one that does not read among them.
    for (let n = 3; n <= 450; n += 1)
      await writeSession(sessions, session(`s${n}`, [`zeta ${n}`, `omega common ${n}`]));
    await fs.writeFile(path.join(sessions, "s300.common.json"), "{ not json");
    const { source, counts } = counted();
    const built = await withIndex(async (index) => ({
      stats: await index.refresh([source]),
      zeta: index.search("zeta", { limit: 1000 }).length,
      omega: index.search("omega", { limit: 1000 }).map((hit) => hit.ordinal),
      one: index.search("zeta 417").map((hit) => [hit.id, hit.ordinal]),
    }));
    expect(built.stats.sessions).toBe(450);
    expect(built.stats.indexed).toBe(449);
    expect(built.stats.failed.map((failure) => failure.id)).toEqual(["s300"]);
    expect(built.zeta).toBe(447);
    expect(new Set(built.omega)).toEqual(new Set([2]));
    expect(built.one).toEqual([["s417", 1]]);
    expect(counts.load).toBe(450);
    // Nothing changed but the failed one: it alone is tried again.
    await writeSession(sessions, session("s300", ["zeta back"]));
    const again = await withIndex(async (index) => ({
      stats: await index.refresh([source]),
      zeta: index.search("zeta", { limit: 1000 }).length,
    }));
    expect(again).toEqual({
      stats: { sessions: 450, indexed: 1, streamed: 0, removed: 0, failed: [] },
      zeta: 448,
    });
  });

  // The CLI's search fast path compares every store (unchangedSince) before it falls back to the
  // full command, whose refresh then takes those comparisons (freshness.ts, recallDifference).
  it("saves a file written after the fast path compared as unread, so the next refresh reads it", async () => {
    const { source, counts } = counted();
    const stores = [{ harness: "common", root: sessions }];
    await withIndex((index) => index.refresh([source]));
    await writeSession(sessions, session("s1", ["alpha one", "kappa first"]));
    const first = await withIndex(async (index) => {
      const unchanged = index.unchangedSince(stores);
      // Written after that comparison (which named s1 only), before the refresh.
      await writeSession(sessions, session("s2", ["beta one", "lambda second"]));
      return {
        unchanged,
        indexed: (await index.refresh([source])).indexed,
        kappa: index.search("kappa").map((hit) => hit.id),
      };
    });
    expect(first).toEqual({ unchanged: false, indexed: 1, kappa: ["s1"] });
    const second = await withIndex(async (index) => ({
      unchanged: index.unchangedSince(stores),
      indexed: (await index.refresh([source])).indexed,
      lambda: index.search("lambda").map((hit) => hit.id),
    }));
    expect(second).toEqual({ unchanged: false, indexed: 1, lambda: ["s2"] });
    expect(await withIndex(async (index) => index.unchangedSince(stores))).toBe(true);
    expect(counts.discover).toBe(1);
  });

  it("takes the fast path's comparison of a store it found unchanged, once", async () => {
    const { source, counts } = counted();
    const others = path.join(root, "others");
    await writeSession(others, session("o1", ["omicron one"]));
    const other = directorySource("other", others);
    const stores = [
      { harness: "common", root: sessions },
      { harness: "other", root: others },
    ];
    await withIndex((index) => index.refresh([source, other]));
    await writeSession(sessions, session("s1", ["alpha one", "kappa first"]));
    const first = await withIndex(async (index) => {
      const unchanged = index.unchangedSince(stores);
      // After the comparison: this refresh answers as of it; the next one reads it.
      await writeSession(others, session("o1", ["omicron one", "sigma late"]));
      return {
        unchanged,
        indexed: (await index.refresh([source, other])).indexed,
        sigma: index.search("sigma").length,
      };
    });
    expect(first).toEqual({ unchanged: false, indexed: 1, sigma: 0 });
    const second = await withIndex(async (index) => ({
      indexed: (await index.refresh([source, other])).indexed,
      sigma: index.search("sigma").map((hit) => hit.id),
    }));
    expect(second).toEqual({ indexed: 1, sigma: ["o1"] });
    expect(counts.discover).toBe(1);
  });

  it("writes many sessions from a second thread into the same rows as from this one", async () => {
    for (let n = 3; n <= 60; n += 1)
      await writeSession(
        sessions,
        session(`s${n}`, [`eta ${n} Café crème`, `theta ${"filler ".repeat(n)}`, `iota ${n}`]),
      );
    await fs.writeFile(path.join(sessions, "s33.common.json"), "{ not json");
    const threads = { ...writerThread };
    const build = async (target: string, minSessions: number) => {
      Object.assign(writerThread, { minSessions, minBytes: Number.POSITIVE_INFINITY });
      const started = writerThread.started;
      const { index } = await SearchIndex.open(target);
      try {
        const stats = await index.refresh([directorySource("common", sessions)]);
        const hits = ["eta", "cafe creme", '"theta filler"', "iota 41"].map((query) =>
          index.search(query, { limit: 100 }),
        );
        return { stats, hits, threads: writerThread.started - started };
      } finally {
        index.close();
        Object.assign(writerThread, threads, { started: writerThread.started });
      }
    };
    const rowsOf = async (target: string) => {
      const Sqlite = (await import("better-sqlite3")).default;
      const db = new Sqlite(target, { readonly: true });
      try {
        return {
          sessions: db.prepare("SELECT * FROM sessions ORDER BY key").all(),
          messages: db.prepare("SELECT rowid, * FROM messages ORDER BY rowid").all(),
        };
      } finally {
        db.close();
      }
    };
    const here = await build(path.join(root, "here.sqlite"), Number.POSITIVE_INFINITY);
    const thread = await build(path.join(root, "thread.sqlite"), 1);
    expect(here.threads).toBe(0);
    expect(thread.threads).toBe(1);
    expect(thread.stats).toEqual(here.stats);
    expect(thread.stats.indexed).toBe(59);
    expect(thread.stats.failed.map((failure) => failure.id)).toEqual(["s33"]);
    expect(thread.hits).toEqual(here.hits);
    expect(thread.hits[0]?.length).toBe(57);
    const written = await rowsOf(path.join(root, "thread.sqlite"));
    expect(written).toEqual(await rowsOf(path.join(root, "here.sqlite")));
    expect(written.messages.length).toBe(2 + 1 + 57 * 3);
  });

  it("stops the writer thread when a refresh fails, leaving the index usable", async () => {
    for (let n = 3; n <= 40; n += 1) await writeSession(sessions, session(`s${n}`, [`kappa ${n}`]));
    const threads = { ...writerThread };
    Object.assign(writerThread, { minSessions: 1 });
    try {
      const started = writerThread.started;
      const failing = withIndex((index) =>
        index.refresh([directorySource("common", sessions)], (progress) => {
          if (progress.done === 20) throw new Error("stopped at 20");
        }),
      );
      await expect(failing).rejects.toThrow("stopped at 20");
      expect(writerThread.started - started).toBe(1);
      const again = await withIndex(async (index) => ({
        stats: await index.refresh([directorySource("common", sessions)]),
        kappa: index.search("kappa", { limit: 100 }).length,
      }));
      expect(again.stats.failed).toEqual([]);
      expect(again.kappa).toBe(38);
    } finally {
      Object.assign(writerThread, threads, { started: writerThread.started });
    }
  });

  it("reads and writes a store's sessions while the next store discovers", async () => {
    const { source, counts } = counted();
    const others = path.join(root, "others");
    await writeSession(others, session("o1", ["omicron one"]));
    const other = directorySource("other", others);
    // The second store's discovery waits (10 s at most) for the first store's first load.
    let loadedFirst = false;
    const waiting: IndexSource = {
      ...other,
      store: {
        ...other.store,
        harness: other.store.harness,
        root: other.store.root,
        async *discover() {
          for (let waited = 0; counts.load === 0 && waited < 10_000; waited += 10)
            await new Promise((resolve) => setTimeout(resolve, 10));
          loadedFirst = counts.load > 0;
          yield* other.store.discover();
        },
        load: (id) => other.store.load(id),
      },
    };
    const threads = { ...writerThread };
    Object.assign(writerThread, { minSessions: 1 });
    try {
      const built = await withIndex(async (index) => ({
        stats: await index.refresh([source, waiting]),
        hits: index.search("one").map((hit) => hit.id),
      }));
      expect(loadedFirst).toBe(true);
      expect(built.stats).toEqual({ sessions: 3, indexed: 3, streamed: 0, removed: 0, failed: [] });
      expect(new Set(built.hits)).toEqual(new Set(["s1", "s2", "o1"]));
    } finally {
      Object.assign(writerThread, threads, { started: writerThread.started });
    }
  });
});
