// Writing read sessions into the index, on this thread or on a second one.
// A first build spends about half its CPU in SQLite (FTS5 tokenizing each
// message and merging segments, and the commits) and the rest reading,
// parsing and turning sessions into Common on the main thread: with a
// writer thread the two run at once on two cores. The thread opens its own
// connection to the same file and writes the same rows, a batch per
// transaction, as the in-thread writer does (one function, `rowWriter`,
// serves both). Its code is handed to the Worker as a string (`eval`), so
// nothing has to be found on disk at run time: it runs the same from this
// package's source, its dist and the CLI's bundle. better-sqlite3 is
// required there by the absolute path this thread resolved.
import { Worker } from "node:worker_threads";
import type { IndexedMessage } from "./session-text.js";

/** A session read and ready to write: plain data, cloned as it is to the writer thread. */
export interface WriteItem {
  key: string;
  harness: string;
  id: string;
  path: string;
  title: string | null;
  cwd: string | null;
  updatedAt: string;
  fingerprint: string;
  tracks: number;
  texts: IndexedMessage[];
}

/** A session whose rows could not be written, with SQLite's reason. */
export interface WriteFailure {
  key: string;
  reason: string;
}

// biome-ignore lint/suspicious/noExplicitAny: better-sqlite3's Database, loaded lazily
type Database = any;

/** A session's row in the sessions table: a WriteItem without its texts. */
export type SessionHead = Omit<WriteItem, "texts">;

/** What rowWriter does, on this thread or the writer thread. */
export interface RowWriter {
  /** Writes whole sessions in one transaction; returns those that failed. */
  write(items: WriteItem[]): WriteFailure[];
  /**
   * Starts replacing one session whose texts come in pieces (a file read line by line): its
   * transaction stays open, and the write lock held, until `end` or `cancel`.
   */
  begin(key: string, harness: string): void;
  /** The next messages of the session begun. */
  rows(texts: IndexedMessage[]): void;
  /** Writes the session's row and commits; returns the session if anything of it failed. */
  end(head: SessionHead): WriteFailure[];
  /** Drops what was written since `begin` (its reading failed). */
  cancel(): void;
}

/**
 * Writes sessions through `db`: a batch of whole sessions in one `BEGIN IMMEDIATE` transaction,
 * or one session in pieces (begin, rows, end) in one; each session replaced whole (its old
 * rows, found by their rowid range, deleted first), its store's snapshot dropped. A batch that
 * fails is written again one session at a time, and the sessions that still fail are returned.
 * Self-contained (it uses nothing but `db`): its text is also the writer thread's code.
 */
export function rowWriter(db: Database): RowWriter {
  // A session's messages are the rowids from first_row to last_row (inserted in one
  // transaction, so no other session's rows lie between), deleted one rowid at a time: FTS5
  // plans `rowid = ?` as a lookup, but a BETWEEN, or the unindexed key column, as a scan.
  const rangeOf = db.prepare("SELECT first_row, last_row FROM sessions WHERE key = ?");
  const deleteRow = db.prepare("DELETE FROM messages WHERE rowid = ?");
  const dropSnapshot = db.prepare("DELETE FROM snapshots WHERE harness = ?");
  const insertSession = db.prepare(
    "INSERT OR REPLACE INTO sessions (key, harness, id, path, title, cwd, updated_at, fingerprint, tracks, first_row, last_row) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
  );
  const insertMessage = db.prepare(
    "INSERT INTO messages (text, key, ordinal, role) VALUES (?, ?, ?, ?)",
  );
  const clear = (key: string, harness: string) => {
    const range = rangeOf.get(key) as
      | { first_row: number | null; last_row: number | null }
      | undefined;
    if (range?.first_row != null && range.last_row != null)
      for (let row = range.first_row; row <= range.last_row; row += 1) deleteRow.run(row);
    dropSnapshot.run(harness);
  };
  // The rowids of the session being written: the first, and the last so far.
  const span: { first: number | null; last: number | null } = { first: null, last: null };
  const insert = (key: string, texts: IndexedMessage[]) => {
    for (const message of texts) {
      const row = Number(
        insertMessage.run(message.text, key, message.ordinal, message.role).lastInsertRowid,
      );
      span.first ??= row;
      span.last = row;
    }
  };
  const finish = (head: SessionHead) => {
    insertSession.run(
      head.key,
      head.harness,
      head.id,
      head.path,
      head.title,
      head.cwd,
      head.updatedAt,
      head.fingerprint,
      head.tracks,
      span.first,
      span.last,
    );
  };
  const writeItem = (item: WriteItem) => {
    clear(item.key, item.harness);
    span.first = null;
    span.last = null;
    insert(item.key, item.texts);
    finish(item);
  };
  const writeBatch = db.transaction((items: WriteItem[]) => {
    for (const item of items) writeItem(item);
  });
  const writeOne = db.transaction((item: WriteItem) => writeItem(item));
  const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
  // The session being written in pieces, why it failed once it has, and the page cache's size
  // before: a smaller one while it is written (16 MB instead of the 64 a batch is written
  // with), since all its pages stay in one transaction; measured over a generated 1 GB Claude
  // Code session, 50 MB less peak RSS in the same time (docs/decisions/0008).
  let piece: { key: string; failure?: string; cacheSize: number } | undefined;
  const pieceCacheSize = -16_384;
  const rollBack = () => {
    if (db.inTransaction) db.exec("ROLLBACK");
  };
  const restoreCache = (current: { cacheSize: number }) =>
    db.pragma(`cache_size = ${Number(current.cacheSize)}`);
  const failPiece = (error: unknown) => {
    if (piece !== undefined && piece.failure === undefined) piece.failure = reasonOf(error);
    rollBack();
  };
  return {
    write(items) {
      const failures: WriteFailure[] = [];
      try {
        writeBatch.immediate(items);
      } catch {
        // One at a time then, so a failure is that session's alone.
        for (const item of items)
          try {
            writeOne.immediate(item);
          } catch (error) {
            failures.push({ key: item.key, reason: reasonOf(error) });
          }
      }
      return failures;
    },
    begin(key, harness) {
      rollBack();
      if (piece !== undefined) restoreCache(piece);
      piece = { key, cacheSize: db.pragma("cache_size", { simple: true }) as number };
      db.pragma(`cache_size = ${pieceCacheSize}`);
      span.first = null;
      span.last = null;
      try {
        db.exec("BEGIN IMMEDIATE");
        clear(key, harness);
      } catch (error) {
        failPiece(error);
      }
    },
    rows(texts) {
      if (piece === undefined || piece.failure !== undefined) return;
      try {
        insert(piece.key, texts);
      } catch (error) {
        failPiece(error);
      }
    },
    end(head) {
      const current = piece;
      piece = undefined;
      if (current === undefined) return [{ key: head.key, reason: "the session was not begun" }];
      restoreCache(current);
      if (current.failure !== undefined) return [{ key: head.key, reason: current.failure }];
      try {
        finish(head);
        db.exec("COMMIT");
        return [];
      } catch (error) {
        rollBack();
        return [{ key: head.key, reason: reasonOf(error) }];
      }
    },
    cancel() {
      rollBack();
      if (piece !== undefined) restoreCache(piece);
      piece = undefined;
    },
  };
}

/** Where the writer thread finds better-sqlite3, and how the index file is opened. */
export interface WriterTarget {
  file: string;
  /** better-sqlite3's main module, an absolute path. */
  module: string;
  nativeBinding: string | undefined;
  timeout: number;
}

/** What the writer thread is sent: a batch, or a piece of one session written in pieces. */
type WriterMessage =
  | WriteItem[]
  | { begin: { key: string; harness: string } }
  | { rows: IndexedMessage[] }
  | { end: SessionHead }
  | { cancel: true };

/**
 * The writer thread's main: opens the index, then does what each message posted to it says
 * (answering `{ failures }` to each) until it is sent `null`, and closes. While it writes: no fsync
 * at each WAL checkpoint (the index is a cache, rebuilt when unreadable) and a 64 MB page cache,
 * this connection's alone. Self-contained, like rowWriter: it runs from its text.
 */
function writerMain(
  require: (id: string) => unknown,
  writerOf: typeof rowWriter,
  target: WriterTarget,
): void {
  const { parentPort } = require("node:worker_threads") as typeof import("node:worker_threads");
  const Sqlite = require(target.module) as new (file: string, options?: object) => Database;
  const db = new Sqlite(target.file, {
    timeout: target.timeout,
    ...(target.nativeBinding === undefined ? {} : { nativeBinding: target.nativeBinding }),
  });
  db.pragma("synchronous = OFF");
  db.pragma("cache_size = -65536");
  const writer = writerOf(db);
  if (parentPort === null) return;
  parentPort.on("message", (message: WriterMessage | null) => {
    if (message === null) {
      writer.cancel();
      db.close();
      parentPort.close();
      return;
    }
    let failures: WriteFailure[] = [];
    if (Array.isArray(message)) failures = writer.write(message);
    else if ("begin" in message) writer.begin(message.begin.key, message.begin.harness);
    else if ("rows" in message) writer.rows(message.rows);
    else if ("end" in message) failures = writer.end(message.end);
    else writer.cancel();
    parentPort.postMessage({ failures });
  });
}

// `__name`: what a bundler keeping function names (esbuild's keepNames, as tsx runs it) wraps
// named arrow functions in; the thread's code has no bundle around it to define it.
const writerSource = (target: WriterTarget) =>
  `"use strict"; var __name = (f) => f;
(${writerMain.toString()})(require, ${rowWriter.toString()}, ${JSON.stringify(target)});`;

/** The batches (or pieces) a writer thread may hold before the reader waits for it: the memory bound. */
const inFlightBatches = 2;

export interface ThreadWriter {
  /** Hands a batch to the thread; resolves once fewer than two batches wait there. */
  write(items: WriteItem[]): Promise<void>;
  /** RowWriter's begin, rows, end and cancel, on the thread (end's failures come from finish). */
  begin(key: string, harness: string): Promise<void>;
  rows(texts: IndexedMessage[]): Promise<void>;
  end(head: SessionHead): Promise<void>;
  cancel(): Promise<void>;
  /** Waits for every batch, closes the thread's connection, and says which sessions failed. */
  finish(): Promise<WriteFailure[]>;
  /** Stops the thread at once (the refresh failed). */
  abort(): Promise<void>;
}

/** Starts a writer thread on the index at `target.file`. */
export function startWriterThread(target: WriterTarget): ThreadWriter {
  const worker = new Worker(writerSource(target), { eval: true });
  const failures: WriteFailure[] = [];
  let pending = 0;
  let failed: Error | undefined;
  let wake: (() => void) | undefined;
  const exited = new Promise<number>((resolve) => worker.once("exit", resolve));
  const notify = () => {
    const resume = wake;
    wake = undefined;
    resume?.();
  };
  worker.on("message", (message: { failures: WriteFailure[] }) => {
    pending -= 1;
    failures.push(...message.failures);
    notify();
  });
  worker.on("error", (error) => {
    failed = error;
    notify();
  });
  void exited.then((code) => {
    if (pending > 0 && failed === undefined)
      failed = new Error(`the index writer thread stopped (exit code ${code})`);
    notify();
  });
  const until = async (ready: () => boolean) => {
    while (!ready() && failed === undefined) await new Promise<void>((resolve) => (wake = resolve));
    if (failed !== undefined) throw failed;
  };
  const post = async (message: WriterMessage) => {
    if (failed !== undefined) throw failed;
    pending += 1;
    worker.postMessage(message);
    await until(() => pending < inFlightBatches);
  };
  return {
    write: (items) => post(items),
    begin: (key, harness) => post({ begin: { key, harness } }),
    rows: (texts) => post({ rows: texts }),
    end: (head) => post({ end: head }),
    cancel: () => post({ cancel: true }),
    async finish() {
      await until(() => pending === 0);
      worker.postMessage(null);
      await exited;
      if (failed !== undefined) throw failed;
      return failures;
    },
    async abort() {
      await worker.terminate();
    },
  };
}
