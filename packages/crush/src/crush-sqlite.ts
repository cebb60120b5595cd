// Crush's `.crush/crush.db` through better-sqlite3 (loaded on first use).
// Reading opens the file read-only (query_only; rows still only in the
// `-wal` file are seen, nothing is checkpointed) and assembles a session's
// rows as Crush's queries return them (messages by created_at). Writing
// creates the migrations' schema in a new database, or inserts into an
// existing one at the newest era, in one transaction.
import { existsSync, lstatSync, mkdirSync } from "node:fs";
import * as path from "node:path";
import {
  type Json,
  type JsonObject,
  type SqliteDatabase,
  sqliteBinding,
  TxcriptError,
} from "@txcript/core";
import { crushMigrations, crushSchemaStatements, gooseVersionRows } from "./crush-ddl.js";
import {
  type CrushSession,
  checkMessageRow,
  checkSessionRow,
  harness,
  maxDepth,
} from "./crush-schema.js";

/** An open database (the better-sqlite3 calls core's SqliteDatabase names). */
export type Database = SqliteDatabase;

/** better-sqlite3, imported the first time a database is opened. */
const binding = sqliteBinding(() => import("better-sqlite3"), harness);

function ioError(file: string, what: string, cause: unknown): TxcriptError {
  return new TxcriptError("IO", `cannot ${what} the Crush database ${file}: ${String(cause)}`, {
    harness,
    location: { file },
    cause,
    hint: "expected Crush's .crush/crush.db",
  });
}

/** A regular file, not a link: the store reads nothing a link points at. */
function regularFile(file: string): void {
  const stat = lstatSync(file, { throwIfNoEntry: false });
  if (stat === undefined)
    throw new TxcriptError("NOT_FOUND", `no Crush database at ${file}`, {
      harness,
      location: { file },
    });
  if (!stat.isFile())
    throw new TxcriptError("UNSAFE_PATH", `${file} is not a regular file`, {
      harness,
      location: { file },
      hint: "the store reads a database file itself, never through a link",
    });
}

export async function openReadOnly(file: string): Promise<Database> {
  regularFile(file);
  const Database = await binding();
  try {
    const database = new Database(file, { readonly: true, fileMustExist: true, timeout: 5000 });
    database.pragma("query_only = ON");
    database.prepare("SELECT count(*) AS n FROM sessions").get();
    return database;
  } catch (cause) {
    throw ioError(file, "read", cause);
  }
}

function jsonRow(row: Record<string, unknown>, where: string): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(row)) {
    if (value !== null && typeof value !== "string" && typeof value !== "number")
      throw new TxcriptError(
        "INVALID_DOCUMENT",
        `${where}.${key} is a ${typeof value}, not text or a number`,
        {
          harness,
          location: { path: `${where}.${key}` },
        },
      );
    Object.defineProperty(out, key, {
      value: value as Json,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

export interface SessionListing {
  id: string;
  title: string;
  updatedAt: number;
  messageCount: number;
}

/** The sessions Crush lists (no parent), newest first, with their message rows counted. */
export function listSessions(database: Database): SessionListing[] {
  return database
    .prepare(
      `SELECT s.id, s.title, s.updated_at,
              (SELECT count(*) FROM messages m WHERE m.session_id = s.id) AS messages
         FROM sessions s WHERE s.parent_session_id IS NULL ORDER BY s.updated_at DESC, s.rowid`,
    )
    .all()
    .map((row) => ({
      id: String(row.id),
      title: String(row.title ?? ""),
      updatedAt: Number(row.updated_at ?? 0),
      messageCount: Number(row.messages ?? 0),
    }));
}

/** One session with its children, or undefined when the database has no such id. */
export function readSession(database: Database, id: string, depth = 0): CrushSession | undefined {
  const row = database.prepare("SELECT * FROM sessions WHERE id = ?").get(id);
  if (row === undefined) return undefined;
  const where = `sessions[${JSON.stringify(id)}]`;
  const session = checkSessionRow(jsonRow(row, where), where);
  const messages = database
    .prepare("SELECT * FROM messages WHERE session_id = ? ORDER BY created_at ASC, rowid")
    .all(id)
    .map((message, index) => {
      const at = `${where}.messages[${index}]`;
      return checkMessageRow(jsonRow(message, at), at);
    });
  const result: CrushSession = { session, messages };
  if (depth < maxDepth) {
    const children = database
      .prepare("SELECT id FROM sessions WHERE parent_session_id = ? AND id != ? ORDER BY rowid")
      .all(id, id)
      .flatMap((child) => readSession(database, String(child.id), depth + 1) ?? []);
    if (children.length > 0) result.children = children;
  }
  return result;
}

/** Every session id of a written tree. */
export function sessionIds(session: CrushSession): string[] {
  return [String(session.session.id), ...(session.children ?? []).flatMap(sessionIds)];
}

function insert(
  database: Database,
  table: string,
  row: JsonObject,
  columns: ReadonlySet<string>,
): void {
  const keys = Object.keys(row).filter((key) => columns.has(key));
  database
    .prepare(
      `INSERT INTO ${table} (${keys.map((key) => `"${key}"`).join(", ")}) VALUES (${keys.map(() => "?").join(", ")})`,
    )
    .run(...keys.map((key) => row[key]));
}

function columnsOf(database: Database, table: string): Set<string> {
  return new Set(
    database
      .prepare(`SELECT name FROM pragma_table_info('${table}')`)
      .all()
      .map((row) => String(row.name)),
  );
}

/** The migrations a database records as applied, oldest first. */
export function appliedMigrations(database: Database): number[] {
  return database
    .prepare(
      "SELECT version_id FROM goose_db_version WHERE is_applied = 1 AND version_id > 0 ORDER BY id",
    )
    .all()
    .map((row) => Number(row.version_id));
}

/**
 * Writes a session tree into `file`: a new database gets the migrations'
 * schema (WAL, as Crush runs it); an existing one must be at the newest era
 * txcript knows (Crush migrates older ones when it starts). Messages are
 * inserted before their session row, so the insert trigger cannot stamp the
 * session with the time of writing; then the session row with its counts.
 * A session id the database already holds is a CONFLICT unless `overwrite`.
 */
export async function writeSession(
  file: string,
  session: CrushSession,
  options: { overwrite?: boolean } = {},
): Promise<void> {
  const fresh = !existsSync(file);
  if (!fresh) regularFile(file);
  else mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const Database = await binding();
  let database: Database;
  try {
    database = new Database(file, { timeout: 5000 });
  } catch (cause) {
    throw ioError(file, "open", cause);
  }
  try {
    if (fresh) {
      database.pragma("journal_mode = WAL");
      database.transaction(() => {
        for (const statement of crushSchemaStatements) database.exec(statement);
        const record = database.prepare(
          "INSERT INTO goose_db_version (version_id, is_applied) VALUES (?, 1)",
        );
        for (const version of gooseVersionRows) record.run(version);
      })();
    } else {
      let applied: number[];
      try {
        applied = appliedMigrations(database);
      } catch (cause) {
        throw ioError(file, "read", cause);
      }
      const known = new Set<number>(crushMigrations);
      if (
        applied.length !== crushMigrations.length ||
        applied.some((version) => !known.has(version))
      )
        throw new TxcriptError(
          "UNSUPPORTED",
          `the Crush database ${file} is at migrations ${applied.at(-1) ?? "none"}, not ${crushMigrations.at(-1)}`,
          {
            harness,
            location: { file },
            hint: "start Crush once in this project so it migrates the database, or save into a new one with --store",
          },
        );
    }
    const sessionColumns = columnsOf(database, "sessions");
    const messageColumns = columnsOf(database, "messages");
    const ids = sessionIds(session);
    // Messages go in before their session row: the foreign key is checked at commit.
    database.pragma("foreign_keys = ON");
    const readFiles = columnsOf(database, "read_files").size > 0;
    database.transaction(() => {
      database.pragma("defer_foreign_keys = ON");
      const clash = ids.filter(
        (id) => database.prepare("SELECT 1 FROM sessions WHERE id = ?").get(id) !== undefined,
      );
      if (clash.length > 0 && options.overwrite !== true)
        throw new TxcriptError("CONFLICT", `the Crush database already holds session ${clash[0]}`, {
          harness,
          location: { file },
          hint: "pass --force to replace it",
        });
      for (const id of clash) {
        database.prepare("DELETE FROM messages WHERE session_id = ?").run(id);
        database.prepare("DELETE FROM files WHERE session_id = ?").run(id);
        if (readFiles) database.prepare("DELETE FROM read_files WHERE session_id = ?").run(id);
        database.prepare("DELETE FROM sessions WHERE id = ?").run(id);
      }
      const write = (tree: CrushSession) => {
        for (const message of tree.messages) insert(database, "messages", message, messageColumns);
        insert(database, "sessions", tree.session, sessionColumns);
        for (const child of tree.children ?? []) write(child);
      };
      write(session);
    })();
  } catch (error) {
    if (TxcriptError.isInstance(error)) throw error;
    throw ioError(file, "write", error);
  } finally {
    database.close();
  }
}

/** Removes a session and its children (what `save` wrote) from `file`. */
export async function deleteSession(file: string, id: string): Promise<boolean> {
  regularFile(file);
  const Database = await binding();
  const database = new Database(file, { fileMustExist: true, timeout: 5000 });
  try {
    const tree = readSession(database, id);
    if (tree === undefined) return false;
    const readFiles = columnsOf(database, "read_files").size > 0;
    database.transaction(() => {
      for (const sessionId of sessionIds(tree)) {
        database.prepare("DELETE FROM messages WHERE session_id = ?").run(sessionId);
        database.prepare("DELETE FROM files WHERE session_id = ?").run(sessionId);
        if (readFiles)
          database.prepare("DELETE FROM read_files WHERE session_id = ?").run(sessionId);
        database.prepare("DELETE FROM sessions WHERE id = ?").run(sessionId);
      }
    })();
    return true;
  } finally {
    database.close();
  }
}
