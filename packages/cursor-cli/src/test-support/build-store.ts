// Tests' builder of Cursor CLI chat stores, in the shape the published
// parsers document (fixtures/cursor-cli/README.md): tables blobs and meta,
// meta row "0" the hex of a JSON object, blobs keyed by the SHA-256 of their
// bytes unless a test gives an id (a damaged store).
import { createHash } from "node:crypto";
import { mkdirSync } from "node:fs";
import * as path from "node:path";
import Database from "better-sqlite3";
import { encodeBytesField } from "../cursor-cli-wire.js";

export const sha256 = (bytes: Uint8Array | string): string =>
  createHash("sha256").update(bytes).digest("hex");
export const md5 = (text: string): string => createHash("md5").update(text).digest("hex");

/** JSON bytes of a message. */
export const json = (value: unknown): Buffer => Buffer.from(JSON.stringify(value), "utf8");

/** A tree node listing `children` (hex ids) in field 1, then any extra bytes. */
export function node(children: readonly string[], ...extra: Uint8Array[]): Buffer {
  return Buffer.concat([
    ...children.map((id) => encodeBytesField(1, Buffer.from(id, "hex"))),
    ...extra,
  ]);
}

export interface StoreSpec {
  /** Blobs under their own digest, or `[id, bytes]` under a given id. */
  blobs?: (Uint8Array | [string, Uint8Array | string])[];
  /** The meta object (hex-encoded into row "0"), or the raw row value, or null for no row. */
  meta?: Record<string, unknown> | string | null;
  /** Skip creating one of the tables. */
  without?: "blobs" | "meta";
  /** Leave the database in WAL mode with this writer open (the caller closes it). */
  keepOpen?: boolean;
}

/** Write `<directory>/store.db`; returns its path (and the open writer when keepOpen). */
export function buildStore(
  directory: string,
  spec: StoreSpec,
): { file: string; writer?: Database.Database } {
  mkdirSync(directory, { recursive: true });
  const file = path.join(directory, "store.db");
  const database = new Database(file);
  database.pragma(spec.keepOpen ? "journal_mode = WAL" : "journal_mode = DELETE");
  if (spec.without !== "blobs")
    database.exec("CREATE TABLE blobs (id TEXT PRIMARY KEY, data BLOB)");
  if (spec.without !== "meta")
    database.exec("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)");
  if (spec.without !== "blobs") {
    const insert = database.prepare("INSERT OR REPLACE INTO blobs (id, data) VALUES (?, ?)");
    for (const blob of spec.blobs ?? []) {
      if (Array.isArray(blob)) insert.run(blob[0], blob[1]);
      else insert.run(sha256(blob), blob);
    }
  }
  if (spec.without !== "meta" && spec.meta !== null && spec.meta !== undefined)
    database
      .prepare("INSERT INTO meta (key, value) VALUES ('0', ?)")
      .run(
        typeof spec.meta === "string"
          ? spec.meta
          : Buffer.from(JSON.stringify(spec.meta), "utf8").toString("hex"),
      );
  if (spec.keepOpen) {
    database.pragma("wal_autocheckpoint = 0");
    return { file, writer: database };
  }
  database.close();
  return { file };
}

/** A well-formed chat of `messages` at `<root>/<md5(cwd)>/<id>/store.db`. */
export function buildChat(
  root: string,
  id: string,
  cwd: string,
  messages: unknown[],
  meta: Record<string, unknown> = {},
) {
  const blobs = messages.map(json);
  const root_ = node(
    blobs.map((blob) => sha256(blob)),
    encodeBytesField(9, Buffer.from(`file://${cwd}`)),
  );
  return buildStore(path.join(root, md5(cwd), id), {
    blobs: [...blobs, root_],
    meta: {
      agentId: id,
      name: `chat ${id}`,
      createdAt: 1781256145540,
      latestRootBlobId: sha256(root_),
      ...meta,
    },
  });
}
