// Bringing the index up to date with every source. Per source, its
// snapshot (freshness.ts) says what changed on disk since it was last
// discovered:
// - nothing: its sessions stand as indexed, and its store is not asked to
//   discover (the common case: one stat per file and directory);
// - only files already indexed, written in place, of a store whose
//   sessions are dated by their file's modification time: those sessions
//   are read again, nothing else;
// - anything else (a file or directory added, removed or renamed, a file
//   that is not a session, a store dated otherwise, no snapshot yet): the
//   store discovers its sessions and each is compared by its fingerprint
//   (its file's size and modification time, and its updated time).
// Sessions are read outside any transaction, then replaced a batch at a
// time in one transaction (BEGIN IMMEDIATE: it reads before it writes, and
// a deferred one could not wait for another writer), so each session's rows
// change at once; the transaction also drops its source's snapshot; a new snapshot is saved at the end only if every
// session still has the fingerprint this refresh gave it (so two processes
// refreshing at once never leave a snapshot newer than the rows). A session
// that cannot be read is dropped and marked in the snapshot, so it is tried
// again next time.
import { promises as fs } from "node:fs";
import {
  type Discovered,
  fileLineSource,
  linesOrBlocks,
  type Meta,
  TxcriptError,
} from "@txcript/core";
import {
  compareSnapshot,
  decodeSnapshot,
  encodeSnapshot,
  recallDifference,
  type Snapshot,
  samePaths,
  takeSnapshot,
} from "./freshness.js";
import {
  type RowWriter,
  rowWriter,
  type SessionHead,
  startWriterThread,
  type WriteFailure,
  type WriteItem,
} from "./index-writer.js";
import {
  defaultStreamMinBytes,
  type IndexSource,
  type RefreshOptions,
  type RefreshProgress,
  type RefreshStats,
  type StreamOptions,
  writerTarget,
} from "./search-index.js";
import { type IndexedMessage, PartTexts, sessionTexts } from "./session-text.js";

// biome-ignore lint/suspicious/noExplicitAny: better-sqlite3's Database, loaded lazily
type Database = any;

interface Found {
  source: IndexSource;
  session: Discovered;
  fingerprint: string;
  /** Dated by its own file's modification time, alone in that file. */
  tracks: boolean;
  /** Its file's size when it is alone in it (what reading it ahead holds), else 0. */
  bytes: number;
}

interface Row {
  key: string;
  harness: string;
  id: string;
  path: string;
  title: string | null;
  cwd: string | null;
  updated_at: string;
  fingerprint: string;
  tracks: number;
}

/** A batch is written once it holds this many sessions or this much text (UTF-16 units). */
const batchSessions = 200;
const batchTextChars = 4_000_000;
/**
 * Sessions read ahead of the one being written: at most this many, and no more than this many
 * file bytes beyond the next one (which is always read, whatever its size), so memory stays
 * bounded while the reads wait on the disk and the thread pool instead of the main thread.
 */
const aheadSessions = 8;
const aheadBytes = 8_000_000;

/**
 * A refresh with this many sessions to read, or this many file bytes, writes them from a second
 * thread (starting one costs a few tens of milliseconds; one changed session is written here).
 * Settable for tests, which also read how many threads were started.
 */
export const writerThread = { minSessions: 32, minBytes: 16_000_000, started: 0 };

/**
 * A session file at least RefreshOptions.streamMinBytes long, of a harness that reads line by
 * line, whose store loads it from that file alone (readsAlone), is read line by line and its
 * rows written as they come, in pieces of about `pieceChars` of text: never one string, nor one
 * Transcript, so memory does not grow with the file. Settable for tests.
 */
export const streamPieces: { pieceChars: number; progressChars: number; onPiece?: () => void } = {
  pieceChars: 4_000_000,
  /** How much of a long file is read between two progress reports. */
  progressChars: 16 * 2 ** 20,
};

const keyOf = (harness: string, id: string) => `${harness}\u0000${id}`;

function fingerprintOf(size: number, mtimeMs: number, updatedAt: string): string {
  return `${size}|${mtimeMs}|${updatedAt}`;
}

/** Discover a source's sessions and fingerprint each. */
async function discoverAll(source: IndexSource): Promise<Found[]> {
  const sessions: Discovered[] = [];
  for await (const session of source.store.discover()) sessions.push(session);
  const shared = new Map<string, number>();
  for (const session of sessions) shared.set(session.path, (shared.get(session.path) ?? 0) + 1);
  const found: Found[] = [];
  for (const session of sessions) {
    const stat = await fs.stat(session.path).catch(() => undefined);
    // Sessions that share one file (a database) change one by one: their own time says.
    const alone = (shared.get(session.path) ?? 0) <= 1 && stat !== undefined;
    const fingerprint = alone
      ? fingerprintOf(stat.size, stat.mtimeMs, session.updatedAt)
      : `${session.updatedAt}|${session.messageCount ?? ""}`;
    const tracks = alone && stat.mtime.toISOString() === session.updatedAt;
    found.push({ source, session, fingerprint, tracks, bytes: alone ? stat.size : 0 });
  }
  return found;
}

/** The sessions of changed files, from their rows; undefined when a file is not one tracked session. */
async function reread(
  source: IndexSource,
  rows: Row[],
  files: string[],
): Promise<Found[] | undefined> {
  const byPath = new Map<string, Row[]>();
  for (const row of rows) {
    const list = byPath.get(row.path);
    if (list === undefined) byPath.set(row.path, [row]);
    else list.push(row);
  }
  const found: Found[] = [];
  for (const file of files) {
    const [row, ...others] = byPath.get(file) ?? [];
    if (row === undefined || others.length > 0 || row.tracks !== 1) return undefined;
    const stat = await fs.stat(file).catch(() => undefined);
    if (stat === undefined) return undefined;
    const updatedAt = stat.mtime.toISOString();
    const session: Discovered = {
      harness: source.harness,
      id: row.id,
      path: row.path,
      updatedAt,
      ...(row.title === null ? {} : { title: row.title }),
      ...(row.cwd === null ? {} : { cwd: row.cwd }),
    };
    found.push({
      source,
      session,
      fingerprint: fingerprintOf(stat.size, stat.mtimeMs, updatedAt),
      tracks: true,
      bytes: stat.size,
    });
  }
  return found;
}

export async function refreshIndex(
  db: Database,
  sources: readonly IndexSource[],
  onProgress?: (progress: RefreshProgress) => void,
  options: RefreshOptions = {},
): Promise<RefreshStats> {
  const streamMinBytes = options.streamMinBytes ?? defaultStreamMinBytes;
  /** Whether a session might be read line by line (its file long enough, its harness able). */
  const mayStream = (source: IndexSource, bytes: number) =>
    source.readStream !== undefined && bytes >= streamMinBytes;
  const rows = db
    .prepare(
      "SELECT key, harness, id, path, title, cwd, updated_at, fingerprint, tracks FROM sessions",
    )
    .all() as Row[];
  const rowsOf = new Map<string, Row[]>();
  for (const row of rows) {
    const list = rowsOf.get(row.harness);
    if (list === undefined) rowsOf.set(row.harness, [row]);
    else list.push(row);
  }
  const known = new Map(rows.map((row) => [row.key, row.fingerprint]));
  const snapshotOf = db.prepare("SELECT data FROM snapshots WHERE harness = ?");
  const stale: Found[] = [];
  const present = new Set<string>();
  // Per source: the sessions this refresh vouches for (fingerprint by key), and its new snapshot.
  const plans: {
    source: IndexSource;
    expected: Map<string, string>;
    snapshot?: Snapshot;
    unchanged?: true;
  }[] = [];
  let sessionCount = 0;
  // Sources are planned (compared, discovered) while the stale sessions found so far are read and
  // written below: the writer thread starts on the first store's sessions while the next stores
  // discover (a first build spent ~3 s discovering before writing anything).
  let planned = false;
  let planError: { error: unknown } | undefined;
  // Read through a call: set by the planning, which runs between this function's awaits.
  const planFailure = () => planError;
  let wakeReader: (() => void) | undefined;
  const wake = () => {
    const resume = wakeReader;
    wakeReader = undefined;
    resume?.();
  };
  const nextPlanned = () => new Promise<void>((resolve) => (wakeReader = resolve));
  const planAll = async () => {
    for (const source of sources) {
      const own = rowsOf.get(source.harness) ?? [];
      const saved = snapshotOf.get(source.harness) as { data: string } | undefined;
      const prior = saved === undefined ? undefined : decodeSnapshot(saved.data);
      // A comparison the search fast path made of this very snapshot moments ago stands for one now.
      const recalled =
        saved === undefined ? undefined : recallDifference(db.name, source.harness, saved.data);
      const difference =
        prior === undefined ||
        prior.root !== source.store.root ||
        !samePaths(prior.paths, source.store.sessionPaths)
          ? ({ kind: "more" } as const)
          : (recalled ?? compareSnapshot(prior));
      const expected = new Map(own.map((row) => [row.key, row.fingerprint]));
      if (difference.kind === "none" && prior !== undefined) {
        for (const row of own) present.add(row.key);
        sessionCount += own.length;
        plans.push({ source, expected, snapshot: prior, unchanged: true });
        continue;
      }
      if (difference.kind === "files" && prior !== undefined) {
        // Saved as the comparison statted them, before the files are read again (freshness.ts).
        const next = difference.snapshot;
        const changed = await reread(source, own, difference.files);
        if (changed !== undefined) {
          for (const row of own) present.add(row.key);
          sessionCount += own.length;
          for (const entry of changed) {
            stale.push(entry);
            expected.set(keyOf(source.harness, entry.session.id), entry.fingerprint);
          }
          plans.push({ source, expected, snapshot: next });
          wake();
          continue;
        }
      }
      const next = takeSnapshot(source.store.root, undefined, source.store.sessionPaths);
      const found = await discoverAll(source);
      sessionCount += found.length;
      expected.clear();
      const staleHere: Found[] = [];
      for (const entry of found) {
        const key = keyOf(source.harness, entry.session.id);
        present.add(key);
        expected.set(key, entry.fingerprint);
        if (known.get(key) !== entry.fingerprint) staleHere.push(entry);
      }
      stale.push(...staleHere);
      plans.push({ source, expected, ...(next === undefined ? {} : { snapshot: next }) });
      wake();
    }
  };
  const planning = planAll().then(
    () => {
      planned = true;
      wake();
    },
    (error: unknown) => {
      planError = { error };
      planned = true;
      wake();
    },
  );

  // A session's messages are the rowids from first_row to last_row (inserted in one
  // transaction, so no other session's rows lie between): deleting by rowid range, not by the
  // unindexed key column, which FTS5 could only find by reading every row.
  const rangeOf = db.prepare("SELECT first_row, last_row FROM sessions WHERE key = ?");
  // One rowid at a time: FTS5 plans `rowid = ?` as a lookup, but a BETWEEN as a scan (measured:
  // 0.9 s to delete a 100 KB session's rows from the 1.27 GB corpus's index).
  const deleteRow = db.prepare("DELETE FROM messages WHERE rowid = ?");
  const deleteMessages = {
    run(key: string) {
      const range = rangeOf.get(key) as
        | { first_row: number | null; last_row: number | null }
        | undefined;
      if (range?.first_row != null && range.last_row != null)
        for (let row = range.first_row; row <= range.last_row; row += 1) deleteRow.run(row);
    },
  };
  const deleteSession = db.prepare("DELETE FROM sessions WHERE key = ?");
  const dropSnapshot = db.prepare("DELETE FROM snapshots WHERE harness = ?");
  const drop = db.transaction((key: string, harness: string) => {
    deleteMessages.run(key);
    deleteSession.run(key);
    dropSnapshot.run(harness);
  });
  const failed: RefreshStats["failed"] = [];
  const failedPaths = new Set<string>();
  const failedKeys = new Set<string>();
  const fail = (key: string, entry: Found, error: unknown) => {
    const { source, session } = entry;
    // Unreadable now: no stale hits from it, and it is tried again next time.
    drop.immediate(key, source.harness);
    failedPaths.add(session.path);
    failedKeys.add(key);
    failed.push({
      harness: source.harness,
      id: session.id,
      path: session.path,
      reason: error instanceof Error ? error.message : String(error),
    });
  };
  // Sessions are written a batch at a time, each batch in one transaction (read outside it, so
  // the write lock is held only while rows go in): FTS5 flushes its pending terms into a new
  // segment at every commit, and a commit per session spent more time merging those small
  // segments than inserting (see docs/decisions/0008). Many sessions are written by a second
  // thread (index-writer.ts) while this one reads and parses the next ones; a few, here.
  const enough = () =>
    stale.length >= writerThread.minSessions ||
    stale.reduce((total, entry) => total + entry.bytes, 0) >= writerThread.minBytes;
  while (!planned && !enough()) await nextPlanned();
  const early = planFailure();
  if (early !== undefined) throw early.error;
  const threaded = enough();
  const writer = threaded ? startWriterThread(writerTarget(db.name)) : undefined;
  if (writer !== undefined) writerThread.started += 1;
  const here = threaded ? undefined : rowWriter(db);
  // Sessions that failed to write, and those that failed to read (in order), dropped at the end:
  // the writer thread may hold the write lock until then.
  const writeFailures: WriteFailure[] = [];
  const readFailures: { key: string; entry: Found; error: unknown }[] = [];
  let batch: WriteItem[] = [];
  let batchChars = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    const items = batch;
    batch = [];
    batchChars = 0;
    if (writer !== undefined) await writer.write(items);
    else writeFailures.push(...(here as RowWriter).write(items));
  };
  // While sessions go in here: no fsync at each WAL checkpoint (the index is a cache, rebuilt
  // when it is not a readable database; measured at twice the insert rate), and a larger page
  // cache for FTS5's segment merges. Both are this connection's only, set back after (the
  // writer thread sets its own).
  const synchronous = db.pragma("synchronous", { simple: true }) as number;
  const cacheSize = db.pragma("cache_size", { simple: true }) as number;
  if (here !== undefined && stale.length > 0) {
    db.pragma("synchronous = OFF");
    db.pragma("cache_size = -65536");
  }
  // Read, parsed and turned into texts ahead (in order), while earlier sessions are written; a
  // long file read line by line is not read ahead, but when its turn comes (streamSession).
  type Loaded = { item: WriteItem } | { error: unknown } | { stream: StreamOptions };
  const load = async (entry: Found): Promise<Loaded> => {
    const { source, session } = entry;
    const key = keyOf(source.harness, session.id);
    try {
      if (mayStream(source, entry.bytes)) {
        const stream = await source.readsAlone?.(session);
        if (stream !== undefined) return { stream };
      }
      if (options.maxWholeBytes !== undefined && entry.bytes > options.maxWholeBytes)
        throw new TxcriptError(
          "TOO_LARGE",
          `file is ${entry.bytes} bytes, past the limit of ${options.maxWholeBytes} for a session read whole`,
          { harness: source.harness, location: { file: session.path } },
        );
      // The harness's own load of the file discovery found (its side files with it), not
      // store.load(id), which would look the id up again.
      const native =
        source.loadFile === undefined
          ? await source.store.load(session.id)
          : await source.loadFile(session);
      const transcript = source.read(native);
      const texts = sessionTexts(transcript);
      return {
        item: {
          key,
          harness: source.harness,
          id: session.id,
          path: session.path,
          title: transcript.meta.title ?? session.title ?? null,
          cwd: transcript.meta.cwd ?? session.cwd ?? null,
          updatedAt: session.updatedAt,
          fingerprint: entry.fingerprint,
          tracks: entry.tracks ? 1 : 0,
          texts,
        },
      };
    } catch (error) {
      return { error };
    }
  };
  // One session's rows in pieces, through the writer thread or this connection: its transaction
  // stays open from begin to end (or cancel).
  const inThread = here as RowWriter;
  const pieces = writer ?? {
    begin: async (key: string, harness: string) => inThread.begin(key, harness),
    rows: async (texts: IndexedMessage[]) => inThread.rows(texts),
    end: async (head: SessionHead) => {
      writeFailures.push(...inThread.end(head));
    },
    cancel: async () => inThread.cancel(),
  };
  const streamedKeys = new Set<string>();
  /** Reads a session's file line by line, writing its rows as they come; the error, if it fails. */
  const streamSession = async (entry: Found, options: StreamOptions): Promise<unknown> => {
    const { source, session } = entry;
    const read = source.readStream;
    if (read === undefined) return new Error(`${source.harness} is not read line by line`);
    const key = keyOf(source.harness, session.id);
    await pieces.begin(key, source.harness);
    try {
      const texts = new PartTexts();
      let meta: Meta | undefined;
      let piece: IndexedMessage[] = [];
      let pieceChars = 0;
      const progress = { done, total: stale.length, path: session.path, size: entry.bytes };
      // Lines, or blocks of them for a reader that takes blocks (linesOrBlocks), with progress.
      const counted = function* (texts: Iterable<string>) {
        let read = 0;
        let shown = 0;
        onProgress?.({ ...progress, read });
        for (const text of texts) {
          read += text.length + 1;
          if (read - shown >= streamPieces.progressChars) {
            shown = read;
            onProgress?.({ ...progress, read });
          }
          yield text;
        }
      };
      const file = fileLineSource(session.path, { harness: source.harness });
      const lines = Object.assign(() => counted(file()), {
        blocks: () => counted(linesOrBlocks(file)),
      });
      for (const part of read(lines, options)) {
        if (part.kind === "meta") meta = part.meta;
        for (const message of texts.add(part)) {
          piece.push(message);
          pieceChars += message.text.length;
        }
        if (pieceChars >= streamPieces.pieceChars) {
          await pieces.rows(piece);
          streamPieces.onPiece?.();
          piece = [];
          pieceChars = 0;
        }
      }
      if (piece.length > 0) await pieces.rows(piece);
      await pieces.end({
        key,
        harness: source.harness,
        id: session.id,
        path: session.path,
        title: meta?.title ?? session.title ?? null,
        cwd: meta?.cwd ?? session.cwd ?? null,
        updatedAt: session.updatedAt,
        fingerprint: entry.fingerprint,
        tracks: entry.tracks ? 1 : 0,
      });
      streamedKeys.add(key);
      return undefined;
    } catch (error) {
      await pieces.cancel();
      return error;
    }
  };
  const ahead: { entry: Found; loaded: Promise<Loaded> }[] = [];
  let aheadHeld = 0;
  let next = 0;
  const fill = () => {
    while (next < stale.length && ahead.length < aheadSessions) {
      const entry = stale[next] as Found;
      if (ahead.length > 0 && aheadHeld + entry.bytes > aheadBytes) break;
      ahead.push({ entry, loaded: load(entry) });
      aheadHeld += entry.bytes;
      next += 1;
    }
  };
  let done = 0;
  let finished = false;
  try {
    fill();
    while (ahead.length > 0 || !planned) {
      if (ahead.length === 0) {
        await nextPlanned();
        fill();
        continue;
      }
      const { entry, loaded } = ahead.shift() as (typeof ahead)[number];
      const { source, session } = entry;
      onProgress?.({ done, total: stale.length, path: session.path });
      const result = await loaded;
      aheadHeld -= entry.bytes;
      fill();
      if ("item" in result) {
        batch.push(result.item);
        for (const message of result.item.texts) batchChars += message.text.length;
        if (batch.length >= batchSessions || batchChars >= batchTextChars) await flush();
      } else {
        const error = "stream" in result ? await streamSession(entry, result.stream) : result.error;
        if (error !== undefined)
          readFailures.push({ key: keyOf(source.harness, session.id), entry, error });
      }
      done += 1;
    }
    await flush();
    if (writer !== undefined) writeFailures.push(...(await writer.finish()));
    finished = true;
  } finally {
    if (writer !== undefined && !finished) await writer.abort();
    if (here !== undefined && stale.length > 0) {
      db.pragma(`synchronous = ${Number(synchronous)}`);
      db.pragma(`cache_size = ${Number(cacheSize)}`);
    }
  }
  await planning;
  const failure = planFailure();
  if (failure !== undefined) throw failure.error;
  // Sessions gone from their store leave the index (once every store is planned).
  let removed = 0;
  for (const row of rows)
    if (!present.has(row.key)) {
      drop.immediate(row.key, row.harness);
      removed += 1;
    }
  for (const { key, entry, error } of readFailures) fail(key, entry, error);
  if (writeFailures.length > 0) {
    const byKey = new Map(
      stale.map((entry) => [keyOf(entry.source.harness, entry.session.id), entry]),
    );
    for (const { key, reason } of writeFailures)
      fail(key, byKey.get(key) as Found, new Error(reason));
  }
  onProgress?.({ done, total: stale.length, path: "" });

  const fingerprints = db.prepare("SELECT key, fingerprint FROM sessions WHERE harness = ?");
  const saveSnapshot = db.prepare("INSERT OR REPLACE INTO snapshots (harness, data) VALUES (?, ?)");
  const settle = db.transaction((plan: (typeof plans)[number]) => {
    const stored = fingerprints.all(plan.source.harness) as { key: string; fingerprint: string }[];
    const storedKeys = new Set(stored.map((row) => row.key));
    const agrees =
      stored.every((row) => plan.expected.get(row.key) === row.fingerprint) &&
      [...plan.expected.keys()].every((key) => storedKeys.has(key) || failedKeys.has(key));
    if (plan.snapshot === undefined || !agrees) {
      dropSnapshot.run(plan.source.harness);
      return;
    }
    // A file that failed is marked changed, so the next refresh reads it again.
    const snapshot: Snapshot = {
      ...plan.snapshot,
      files: plan.snapshot.files.map((entry) =>
        failedPaths.has(entry[0]) ? [entry[0], -2, -2] : entry,
      ),
    };
    saveSnapshot.run(plan.source.harness, encodeSnapshot(snapshot));
  });
  // A store found unchanged keeps its snapshot, unless a session of it was dropped just now.
  for (const plan of plans) if (!plan.unchanged || removed > 0) settle.immediate(plan);
  return {
    sessions: sessionCount,
    indexed: stale.length - failed.length,
    streamed: [...streamedKeys].filter((key) => !failedKeys.has(key)).length,
    removed,
    failed,
  };
}
