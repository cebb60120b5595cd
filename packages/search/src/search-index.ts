// The search index: one SQLite database (FTS5, WAL) under the cache
// directory. `refresh` (refresh.ts) brings it up to date from every store:
// a store whose files did not change since its last discovery is not asked
// to discover again (freshness.ts); otherwise each session's fingerprint
// (its file's size and modification time, and the store's updated time)
// says which are read again, and sessions that are gone leave the index. Two processes may refresh at once:
// each session is replaced in one transaction, so the last writer wins with
// the same rows. A file that is not a database of this version is removed
// and rebuilt. better-sqlite3 is loaded on first use only.
import { chmodSync, closeSync, existsSync, promises as fs, openSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import type { Discovered, LineSource, Store, StreamPart, Transcript } from "@txcript/core";
import { TxcriptError } from "@txcript/core";
import {
  compareStored,
  decodeSnapshot,
  readStored,
  rememberDifference,
  samePaths,
} from "./freshness.js";
import type { WriterTarget } from "./index-writer.js";
import { parseQuery } from "./query.js";

export { defaultIndexFile } from "./index-file.js";

/** Bumped whenever the schema or what is indexed changes: an older index is rebuilt. */
export const indexVersion = "5";

/** A store to index, and how its sessions read into Common. */
export interface IndexSource {
  harness: string;
  store: Store<unknown>;
  read(native: unknown): Transcript;
  /**
   * The harness's load of a discovered session by the path discovery found
   * (HarnessDefinition.loadFile: its side files with it), instead of
   * `store.load(id)`, which looks the id up again. Absent: the store's load.
   */
  loadFile?: (session: Discovered) => Promise<unknown>;
  /**
   * When the session's file reads alone, the read options under which its lines give what
   * `loadFile` gives (HarnessDefinition.readsAlone); undefined when its load reads more.
   * Absent: never read line by line.
   */
  readsAlone?: (session: Discovered) => Promise<StreamOptions | undefined>;
  /**
   * The harness's readStream (with its read options, and `options` over them): with it, a long
   * session file its store loads alone is read line by line (RefreshOptions.streamMinBytes).
   */
  readStream?: (lines: LineSource, options: Record<string, unknown>) => Iterable<StreamPart>;
}

/** Read options for a harness's readStream over one file. */
export type StreamOptions = Record<string, unknown>;

/** Session files this long or longer are read line by line where they can be: 64 MiB, as `convert` streams. */
export const defaultStreamMinBytes = 64 * 2 ** 20;

export interface RefreshOptions {
  /**
   * Session files at least this long are read line by line where the harness can
   * (IndexSource.readStream) and the store loads the session from that file alone; default
   * 64 MiB, as `convert` streams.
   */
  streamMinBytes?: number;
  /**
   * A session file longer than this that is not read line by line is not read, and is
   * reported as failed (TOO_LARGE); default: no limit (the CLI passes TXCRIPT_MAX_INPUT_BYTES).
   */
  maxWholeBytes?: number;
}

export interface RefreshProgress {
  done: number;
  total: number;
  path: string;
  /**
   * While a long session is read line by line: its file's size in bytes, and how much of it
   * this pass has read (characters and line ends; a reader may pass over the file twice).
   */
  size?: number;
  read?: number;
}

export interface RefreshStats {
  sessions: number;
  indexed: number;
  /** Of those indexed, the sessions read line by line. */
  streamed: number;
  removed: number;
  failed: { harness: string; id: string; path: string; reason: string }[];
}

export interface SearchFilters {
  from?: string;
  cwd?: string;
  /** ISO times: sessions updated at or after / before. */
  since?: string;
  until?: string;
  limit?: number;
}

export interface SearchHit {
  harness: string;
  id: string;
  title: string | null;
  cwd: string | null;
  updatedAt: string;
  path: string;
  ordinal: number;
  role: string;
  /** The matching text with each match between « and ». */
  snippet: string;
  /** bm25 rank: lower is better. */
  rank: number;
}

// biome-ignore lint/suspicious/noExplicitAny: better-sqlite3's Database, loaded lazily
type Database = any;

const require = createRequire(import.meta.url);

let addon: string | null | undefined;

/**
 * The addon's file, beside better-sqlite3's package.json as its install builds it: given to it
 * as `nativeBinding`, it skips its `bindings` lookup (a stack trace taken to find the caller,
 * then up to 13 paths probed), ~5 ms of every query; undefined (that lookup then) elsewhere.
 */
function addonFile(): string | undefined {
  if (addon === undefined) {
    try {
      const file = path.join(
        path.dirname(require.resolve("better-sqlite3/package.json")),
        "build",
        "Release",
        "better_sqlite3.node",
      );
      addon = existsSync(file) ? file : null;
    } catch {
      addon = null;
    }
  }
  return addon ?? undefined;
}

const timeout = 15_000;

/** How the writer thread (index-writer.ts) opens the index at `file`: the same addon, the same wait. */
export function writerTarget(file: string): WriterTarget {
  return { file, module: require.resolve("better-sqlite3"), nativeBinding: addonFile(), timeout };
}

/**
 * The page size of a new index: 16 KB pages took ~12 % less CPU to fill with the bench corpus
 * than SQLite's 4 KB (a quarter of the page writes; docs/decisions/0008). It applies when the
 * file is created only: an existing index keeps its own.
 */
const pageSize = 16_384;

/**
 * The index holds every session's text: only its user may read it. The file is made 0600 before
 * SQLite opens it (SQLite gives its -wal and -shm the database file's mode), and an index, -wal
 * or -shm left readable by others (made by an older txcript) is made 0600 too.
 */
function keepPrivate(file: string, create: boolean): void {
  if (create && !existsSync(file)) closeSync(openSync(file, "a", 0o600));
  for (const suffix of ["", "-wal", "-shm"]) {
    const stat = statSync(`${file}${suffix}`, { throwIfNoEntry: false });
    if (stat === undefined || !stat.isFile() || (stat.mode & 0o077) === 0) continue;
    try {
      chmodSync(`${file}${suffix}`, stat.mode & 0o700);
    } catch {
      // Not ours to change (another user's file): opening it says what is wrong, if anything.
    }
  }
}

function openDatabase(file: string, options: { create?: boolean } = {}): Database {
  keepPrivate(file, options.create === true);
  const Sqlite = require("better-sqlite3") as new (file: string, options?: object) => Database;
  const nativeBinding = addonFile();
  const db = new Sqlite(file, {
    timeout,
    ...(nativeBinding === undefined ? {} : { nativeBinding }),
  });
  if (options.create) db.pragma(`page_size = ${pageSize}`);
  // Switching a new file to WAL can meet SQLITE_BUSY at once, without the
  // busy timeout, when another process is opening it too: wait and retry.
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let waited = 0; ; waited += 50) {
    try {
      db.pragma("journal_mode = WAL");
      break;
    } catch (error) {
      if ((error as { code?: string }).code !== "SQLITE_BUSY" || waited >= 15_000) throw error;
      Atomics.wait(pause, 0, 0, 50);
    }
  }
  db.pragma("synchronous = NORMAL");
  return db;
}

const schema = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS sessions (
  key TEXT PRIMARY KEY, harness TEXT NOT NULL, id TEXT NOT NULL, path TEXT NOT NULL,
  title TEXT, cwd TEXT, updated_at TEXT NOT NULL, fingerprint TEXT NOT NULL,
  tracks INTEGER NOT NULL DEFAULT 0, first_row INTEGER, last_row INTEGER
);
CREATE TABLE IF NOT EXISTS snapshots (harness TEXT PRIMARY KEY, data TEXT NOT NULL);
CREATE VIRTUAL TABLE IF NOT EXISTS messages USING fts5(
  text, key UNINDEXED, ordinal UNINDEXED, role UNINDEXED,
  tokenize = "unicode61 remove_diacritics 2"
);
`;

// FTS5's settings for a new index (kept in messages_config). automerge 8 (FTS5's default is 4):
// segments are merged once 8 of a level exist, not 4, so each term's doclists are rewritten
// fewer times as the index grows: filling it with the bench corpus took ~25 % less CPU with
// 16 KB pages, while a rare word's query read ~0.2 ms more (more segments to look in; a common
// word's was no slower). See docs/decisions/0008.
const ftsSettings = "INSERT INTO messages (messages, rank) VALUES ('automerge', 8);";

// Where the best hits' snippets are made (#bestFirst): the index's tokenizer, with positions.
const snippetSchema = `
CREATE VIRTUAL TABLE IF NOT EXISTS temp.hit_snippets USING fts5(
  text, tokenize = "unicode61 remove_diacritics 2"
);
`;

function isCorrupt(error: unknown): boolean {
  const code = (error as { code?: string } | undefined)?.code ?? "";
  return code === "SQLITE_NOTADB" || code === "SQLITE_CORRUPT" || code.startsWith("SQLITE_CORRUPT");
}

export class SearchIndex {
  readonly file: string;
  readonly #db: Database;

  private constructor(file: string, db: Database) {
    this.file = file;
    this.#db = db;
  }

  /** Open (creating) the index at `file`; one that is corrupt or of another version is rebuilt. */
  static async open(file: string): Promise<{ index: SearchIndex; rebuilt?: string }> {
    // Directories made here are the user's alone (an existing one is left as it is).
    await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    let rebuilt: string | undefined;
    for (let attempt = 0; attempt < 2; attempt += 1) {
      let db: Database | undefined;
      try {
        db = openDatabase(file, { create: true });
        db.exec(schema);
        const version = db.prepare("SELECT value FROM meta WHERE key = 'version'").get() as
          | { value: string }
          | undefined;
        if (version === undefined) {
          db.prepare("INSERT OR IGNORE INTO meta (key, value) VALUES ('version', ?)").run(
            indexVersion,
          );
          db.exec(ftsSettings);
        } else if (version.value !== indexVersion) {
          db.close();
          db = undefined;
          rebuilt = `it was built by another version (${version.value})`;
          await SearchIndex.remove(file);
          continue;
        }
        return { index: new SearchIndex(file, db), ...(rebuilt === undefined ? {} : { rebuilt }) };
      } catch (error) {
        db?.close();
        if (!isCorrupt(error) || attempt > 0) throw SearchIndex.#ioError(file, error);
        rebuilt = "it was not a readable database";
        await SearchIndex.remove(file);
      }
    }
    throw new TxcriptError("IO", `cannot open the search index ${file}`);
  }

  /**
   * Open an index that exists and is of this version, creating and rebuilding
   * nothing (the CLI's search fast path); undefined otherwise.
   */
  static openExisting(file: string): SearchIndex | undefined {
    if (!existsSync(file)) return undefined;
    let db: Database | undefined;
    try {
      db = openDatabase(file);
      const version = db.prepare("SELECT value FROM meta WHERE key = 'version'").get() as
        | { value: string }
        | undefined;
      if (version?.value === indexVersion) return new SearchIndex(file, db);
    } catch {
      // Not a readable index: the full path rebuilds it.
    }
    db?.close();
    return undefined;
  }

  /**
   * Whether a refresh over stores with these roots would find nothing to do:
   * every store has a saved snapshot of that root, no other harness has one
   * or has sessions, and nothing changed on disk since (freshness.ts).
   */
  unchangedSince(
    stores: readonly { harness: string; root: string; paths?: readonly string[] }[],
  ): boolean {
    return this.changedSince(stores)?.length === 0;
  }

  /**
   * The stores a refresh over stores with these roots would find changed on
   * disk (none: nothing to do), when every store has a saved snapshot of that
   * root and no other harness has one or has sessions; undefined otherwise
   * (a store added, moved or never snapshotted: the caller refreshes them all).
   * Each comparison is kept for a refresh right after in this process
   * (freshness.ts, rememberDifference), which then makes no stat again.
   * A store in `vouched` is taken as unchanged without a stat: the CLI's search
   * keeper watches its directories, and saw nothing happen in them.
   */
  changedSince(
    stores: readonly { harness: string; root: string; paths?: readonly string[] }[],
    vouched?: ReadonlySet<string>,
  ): string[] | undefined {
    const saved = this.#db.prepare("SELECT harness, data FROM snapshots").all() as {
      harness: string;
      data: string;
    }[];
    if (saved.length !== stores.length) return undefined;
    const byHarness = new Map(saved.map((row) => [row.harness, row.data]));
    const wanted = new Set(stores.map((store) => store.harness));
    const indexed = this.#db.prepare("SELECT DISTINCT harness FROM sessions").all() as {
      harness: string;
    }[];
    if (indexed.some((row) => !wanted.has(row.harness))) return undefined;
    if (stores.some((store) => !byHarness.has(store.harness))) return undefined;
    const snapshots = stores.map((store) => {
      const data = byHarness.get(store.harness) as string;
      return { store, data, snapshot: readStored(data) };
    });
    if (
      snapshots.some(
        ({ store, snapshot }) =>
          snapshot.root !== store.root || !samePaths(snapshot.paths, store.paths),
      )
    )
      return undefined;
    // Every store is compared (not only up to the first change): a refresh of the changed ones
    // then takes the others' comparisons instead of making every stat again.
    const changed: string[] = [];
    for (const { store, data, snapshot } of snapshots) {
      const difference = vouched?.has(store.harness)
        ? ({ kind: "none" } as const)
        : compareStored(snapshot);
      rememberDifference(this.file, store.harness, data, difference);
      if (difference.kind !== "none") changed.push(store.harness);
    }
    return changed;
  }

  /**
   * The directories a store's saved snapshot holds, and those of the files it holds (every one
   * under its root, or under its session paths; a root that is one file: its directory), the
   * ones a change to the store shows up in (freshness.ts), or
   * undefined when the store has no snapshot. A missing root is given as missing: what would
   * show it created is its nearest existing ancestor.
   */
  snapshotDirectories(
    harness: string,
  ): { root: string; missing: boolean; dirs: string[] } | undefined {
    const saved = this.#db.prepare("SELECT data FROM snapshots WHERE harness = ?").get(harness) as
      | { data: string }
      | undefined;
    if (saved === undefined) return undefined;
    const snapshot = decodeSnapshot(saved.data);
    // A file's directory too: one taken over session paths records a named file (or its
    // absence) without its directory's time, and a change to it shows in that directory.
    const dirs = new Set(snapshot.dirs.map((entry) => entry[0]));
    for (const [file] of snapshot.files) if (file !== snapshot.root) dirs.add(path.dirname(file));
    return { root: snapshot.root, missing: snapshot.missing === true, dirs: [...dirs] };
  }

  /**
   * A number that changes whenever another connection commits to the index (SQLite's
   * `data_version`): the CLI's search keeper skips comparing the stores' snapshots again while
   * it stands, and its watchers saw no change.
   */
  dataVersion(): number {
    return this.#db.pragma("data_version", { simple: true }) as number;
  }

  /** Delete an index and its WAL files. */
  static async remove(file: string): Promise<void> {
    for (const suffix of ["", "-wal", "-shm"]) await fs.rm(`${file}${suffix}`, { force: true });
  }

  static #ioError(file: string, cause: unknown): TxcriptError {
    return new TxcriptError("IO", `cannot use the search index: ${(cause as Error).message}`, {
      location: { file },
      hint: "txcript search --reindex rebuilds it",
      cause,
    });
  }

  close(): void {
    this.#db.close();
  }

  /** Bring the index up to date with every source (see refresh.ts, loaded here: a query alone needs none of it). */
  async refresh(
    sources: readonly IndexSource[],
    onProgress?: (progress: RefreshProgress) => void,
    options: RefreshOptions = {},
  ): Promise<RefreshStats> {
    const { refreshIndex } = await import("./refresh.js");
    return refreshIndex(this.#db, sources, onProgress, options);
  }

  /** Ranked hits, best first: one per message that matches. */
  search(query: string, filters: SearchFilters = {}): SearchHit[] {
    const { match } = parseQuery(query);
    const where: string[] = ["messages MATCH ?"];
    const parameters: unknown[] = [match];
    if (filters.from !== undefined) {
      where.push("s.harness = ?");
      parameters.push(filters.from);
    }
    if (filters.cwd !== undefined) {
      where.push("s.cwd = ?");
      parameters.push(filters.cwd);
    }
    if (filters.since !== undefined) {
      where.push("s.updated_at >= ?");
      parameters.push(filters.since);
    }
    if (filters.until !== undefined) {
      where.push("s.updated_at < ?");
      parameters.push(filters.until);
    }
    const limit = filters.limit ?? 20;
    const rows =
      parameters.length === 1
        ? this.#bestFirst(match, limit)
        : (this.#db
            .prepare(
              `SELECT s.harness, s.id, s.title, s.cwd, s.updated_at AS updatedAt, s.path, m.ordinal, m.role,
                      snippet(messages, 0, '«', '»', '…', 16) AS snippet, bm25(messages) AS rank
               FROM messages m JOIN sessions s ON s.key = m.key
               WHERE ${where.join(" AND ")}
               ORDER BY rank LIMIT ?`,
            )
            .all(...parameters, limit) as SearchHit[]);
    return rows.map((row) => ({
      ...row,
      ordinal: Number(row.ordinal),
      snippet: row.snippet.replace(/\s+/g, " "),
    }));
  }

  /**
   * Hits without a filter, in three steps, each reading only what it needs: FTS5 alone ranks the
   * matches (bm25 over the positions it keeps, reading no stored text); only the best `limit`
   * rows are then read and joined to their sessions, by rowid; their snippets come from the same
   * texts put into a temporary FTS5 table with the index's tokenizer (snippet() looks at its one
   * row only, so it marks what the index would). One query joining before the LIMIT read every
   * match's key after its stored text: for a word in 326,686 of the bench corpus's 427,326
   * messages, 1.65 s against ~0.3 s (docs/decisions/0008).
   */
  #bestFirst(match: string, limit: number): SearchHit[] {
    const best = this.#db
      .prepare(
        "SELECT rowid AS row, bm25(messages) AS rank FROM messages WHERE messages MATCH ? ORDER BY rank LIMIT ?",
      )
      .all(match, limit) as { row: number; rank: number }[];
    if (best.length === 0) return [];
    const read = this.#db.prepare(
      `SELECT s.harness, s.id, s.title, s.cwd, s.updated_at AS updatedAt, s.path, m.ordinal, m.role,
              m.text
       FROM messages m JOIN sessions s ON s.key = m.key WHERE m.rowid = ?`,
    );
    const found: { hit: Omit<SearchHit, "snippet" | "rank">; rank: number; text: string }[] = [];
    for (const { row, rank } of best) {
      const entry = read.get(row) as
        | (Omit<SearchHit, "snippet" | "rank"> & { text: string })
        | undefined;
      // A row whose session is gone (another process replacing it) is left out, as the join would.
      if (entry === undefined) continue;
      const { text, ...hit } = entry;
      found.push({ hit, rank, text });
    }
    this.#db.exec(snippetSchema);
    try {
      const insert = this.#db.prepare("INSERT INTO temp.hit_snippets (rowid, text) VALUES (?, ?)");
      for (const [index, entry] of found.entries()) insert.run(index + 1, entry.text);
      const snippets = new Map(
        (
          this.#db
            .prepare(
              `SELECT rowid, snippet(hit_snippets, 0, '«', '»', '…', 16) AS snippet
               FROM temp.hit_snippets WHERE hit_snippets MATCH ?`,
            )
            .all(match) as { rowid: number; snippet: string }[]
        ).map((entry) => [Number(entry.rowid), entry.snippet]),
      );
      // The fields in the order the one query gave them (--json prints them so).
      return found.map((entry, index) => ({
        ...entry.hit,
        snippet: snippets.get(index + 1) ?? entry.text.slice(0, 200),
        rank: entry.rank,
      }));
    } finally {
      this.#db.exec("DROP TABLE temp.hit_snippets");
    }
  }
}
