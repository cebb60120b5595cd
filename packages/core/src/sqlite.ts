// The one lazy better-sqlite3 binding loader of the harnesses that read
// SQLite (OpenCode, Cursor CLI, Crush). Core has no better-sqlite3
// dependency: a package hands in its own `() => import("better-sqlite3")`,
// so the native module stays that package's dependency, is loaded on first
// use only (and once), and bundlers still see a literal import to follow.
// The types are the few better-sqlite3 calls those packages make
// (docs/decisions/0015-shared-sqlite-loader.md).
import { TxcriptError } from "./errors.js";

/** A prepared statement: the better-sqlite3 calls used. */
export interface SqliteStatement {
  all(...parameters: unknown[]): Record<string, unknown>[];
  get(...parameters: unknown[]): Record<string, unknown> | undefined;
  run(...parameters: unknown[]): unknown;
}

/** An open database: the better-sqlite3 calls used. */
export interface SqliteDatabase {
  prepare(sql: string): SqliteStatement;
  pragma(sql: string, options?: { simple: boolean }): unknown;
  exec(sql: string): unknown;
  transaction<T>(run: () => T): () => T;
  close(): void;
}

export interface SqliteOpenOptions {
  readonly?: boolean;
  fileMustExist?: boolean;
  timeout?: number;
}

/** better-sqlite3's Database constructor. */
export type SqliteConstructor = new (file: string, options?: SqliteOpenOptions) => SqliteDatabase;

/**
 * A loader of the Database constructor from `load` (a package's
 * `() => import("better-sqlite3")`): it imports on the first call only, and
 * every call shares that import. A module whose default export (or itself)
 * is no constructor is a TxcriptError naming `harness`.
 */
export function sqliteBinding(
  load: () => Promise<unknown>,
  harness: string,
): () => Promise<SqliteConstructor> {
  let loaded: Promise<SqliteConstructor> | undefined;
  return () => {
    loaded ??= load().then((module) => {
      const candidate =
        typeof module === "object" && module !== null && "default" in module
          ? (module as { default: unknown }).default
          : module;
      if (typeof candidate !== "function")
        throw new TxcriptError("IO", "better-sqlite3 did not load as a Database constructor", {
          harness,
          hint: "reinstall the package so that its better-sqlite3 dependency is present",
        });
      return candidate as SqliteConstructor;
    });
    return loaded;
  };
}
