// Reading one Cursor CLI chat store (`<chat>/store.db`), strictly read-only:
// better-sqlite3 with SQLITE_OPEN_READONLY and query_only (rows still only in
// the `-wal` file are seen; nothing is checkpointed or written). The `meta`
// row "0" is hex-encoded JSON; from its latestRootBlobId the blob tree is
// walked as the published parsers walk it: a JSON blob is a message, a
// binary blob is a protobuf node whose field 1 lists child blob ids.
// Bounded: a cycle, a tree too deep or too large, or a blob that is neither
// is a TxcriptError, never a hang.
import { createHash } from "node:crypto";
import {
  isJsonObject,
  type JsonObject,
  parseJson,
  type SqliteDatabase,
  sqliteBinding,
  TxcriptError,
} from "@txcript/core";
import { type CursorCliChat, type CursorCliMessage, harness } from "./cursor-cli-schema.js";
import { decodeWire } from "./cursor-cli-wire.js";

type ReadOnlyDatabase = SqliteDatabase;

/** better-sqlite3, imported the first time a chat store is opened. */
const binding = sqliteBinding(() => import("better-sqlite3"), harness);

/** Limits of one read: past any of them the read stops with TOO_LARGE. */
export const cursorCliLimits = {
  /** Bytes of one blob. */
  blobBytes: 64 * 1024 * 1024,
  /** Characters of the hex meta value. */
  metaChars: 4 * 1024 * 1024,
  /** Nodes above a message (the root is depth 0). */
  depth: 64,
  /** Blobs visited in one walk (a shared subtree counts each time it is reached). */
  visits: 200_000,
};

/** Meta keys read and never carried: the key that encrypts blobs (newer builds). */
const secretMetaKeys = new Set(["blobEncryptionKey"]);

const blobIdPattern = /^[0-9a-f]{64}$/;
const hexPattern = /^(?:[0-9a-fA-F]{2})*$/;

function documentError(message: string, file: string, hint?: string): TxcriptError {
  return new TxcriptError("INVALID_DOCUMENT", message, {
    harness,
    location: { file },
    hint:
      hint ??
      "expected a Cursor CLI chat store: tables meta (key '0': hex JSON) and blobs (id, data)",
  });
}

async function open(file: string): Promise<ReadOnlyDatabase> {
  const Database = await binding();
  let database: ReadOnlyDatabase | undefined;
  try {
    database = new Database(file, { readonly: true, fileMustExist: true, timeout: 5000 });
    database.pragma("query_only = ON");
    const tables = database
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('meta', 'blobs')")
      .all()
      .map((row) => row.name);
    if (!tables.includes("meta") || !tables.includes("blobs"))
      throw documentError(
        `${file} has no ${tables.includes("meta") ? "blobs" : "meta"} table`,
        file,
      );
    return database;
  } catch (cause) {
    database?.close();
    if (TxcriptError.isInstance(cause)) throw cause;
    throw new TxcriptError(
      "IO",
      `cannot read the Cursor CLI chat store ${file}: ${String(cause)}`,
      {
        harness,
        location: { file },
        cause,
        hint: "expected a chat's store.db (SQLite) from ~/.cursor/chats/<workspace hash>/<chat id>/",
      },
    );
  }
}

/** The decoded `meta` row "0". */
function readMeta(database: ReadOnlyDatabase, file: string): JsonObject {
  const row = database.prepare("SELECT value FROM meta WHERE key = '0'").get();
  const value = row?.value;
  if (typeof value !== "string")
    throw documentError(`${file} has no meta row "0" holding text`, file);
  if (value.length > cursorCliLimits.metaChars)
    throw new TxcriptError("TOO_LARGE", `the meta row of ${file} is ${value.length} characters`, {
      harness,
      location: { file },
    });
  if (!hexPattern.test(value)) throw documentError(`the meta row of ${file} is not hex`, file);
  const meta = parseJson(Buffer.from(value, "hex").toString("utf8"), {
    harness,
    file: `${file} (meta row "0", hex-decoded)`,
  });
  if (!isJsonObject(meta))
    throw documentError(`the meta row of ${file} is not a JSON object`, file);
  return meta;
}

interface Blob {
  data: Buffer;
}

function blobReader(database: ReadOnlyDatabase, file: string) {
  const sizeOf = database.prepare("SELECT length(CAST(data AS BLOB)) AS n FROM blobs WHERE id = ?");
  const dataOf = database.prepare("SELECT data FROM blobs WHERE id = ?");
  return (id: string): Blob | undefined => {
    const size = sizeOf.get(id);
    if (size === undefined) return undefined;
    if (typeof size.n === "number" && size.n > cursorCliLimits.blobBytes)
      throw new TxcriptError("TOO_LARGE", `blob ${id} of ${file} is ${size.n} bytes`, {
        harness,
        location: { file },
      });
    const data = dataOf.get(id)?.data;
    if (Buffer.isBuffer(data)) return { data };
    if (typeof data === "string") return { data: Buffer.from(data, "utf8") };
    if (data === null || data === undefined) return undefined;
    throw documentError(`blob ${id} of ${file} holds a ${typeof data}, not bytes`, file);
  };
}

function firstByte(data: Buffer): number | undefined {
  for (const byte of data)
    if (byte !== 0x20 && byte !== 0x0a && byte !== 0x0d && byte !== 0x09) return byte;
  return undefined;
}

/** A node's field-1 entries that are 32-byte ids, as hex. */
function childIds(node: ReturnType<typeof decodeWire>): string[] {
  return node.flatMap((field) =>
    field.field === 1 && field.wire === 2 && field.bytes.length === 32
      ? [Buffer.from(field.bytes).toString("hex")]
      : [],
  );
}

interface Walk {
  messages: CursorCliMessage[];
  missing: string[];
  mismatches: Set<string>;
  visits: number;
  /** Each blob read once: a shared subtree is walked again from here, not from the database. */
  seen: Map<string, { message: JsonObject } | { children: string[] } | undefined>;
}

function readNode(read: (id: string) => Blob | undefined, file: string, id: string, walk: Walk) {
  if (walk.seen.has(id)) return walk.seen.get(id);
  const blob = read(id);
  let entry: { message: JsonObject } | { children: string[] } | undefined;
  if (blob !== undefined) {
    if (createHash("sha256").update(blob.data).digest("hex") !== id) walk.mismatches.add(id);
    if (firstByte(blob.data) === 0x7b) {
      const message = parseJson(blob.data.toString("utf8"), {
        harness,
        file: `${file} (blob ${id})`,
      });
      if (!isJsonObject(message))
        throw documentError(`blob ${id} of ${file} is JSON but not an object`, file);
      entry = { message };
    } else entry = { children: childIds(decodeWire(blob.data, `blob ${id}`)) };
  }
  walk.seen.set(id, entry);
  return entry;
}

function walkNode(
  read: (id: string) => Blob | undefined,
  file: string,
  children: readonly string[],
  path: string[],
  walk: Walk,
): void {
  if (path.length > cursorCliLimits.depth)
    throw new TxcriptError(
      "TOO_LARGE",
      `the blob tree of ${file} is deeper than ${cursorCliLimits.depth} nodes`,
      {
        harness,
        location: { file },
      },
    );
  for (const id of children) {
    walk.visits += 1;
    if (walk.visits > cursorCliLimits.visits)
      throw new TxcriptError(
        "TOO_LARGE",
        `the blob tree of ${file} reaches more than ${cursorCliLimits.visits} blobs`,
        {
          harness,
          location: { file },
        },
      );
    if (path.includes(id))
      throw documentError(
        `the blob tree of ${file} is cyclic: ${[...path.slice(path.indexOf(id)), id].map((item) => item.slice(0, 12)).join(" → ")}`,
        file,
        "a content-addressed tree cannot refer back to itself; the store is damaged",
      );
    const entry = readNode(read, file, id, walk);
    if (entry === undefined) walk.missing.push(id);
    else if ("message" in entry) walk.messages.push({ blobId: id, message: entry.message });
    else walkNode(read, file, entry.children, [...path, id], walk);
  }
}

/** What discovery needs, without walking the tree: the meta row and the root's first fields. */
export interface CursorCliHead {
  meta: JsonObject;
  rootBlobId: string;
  workspaceUris: string[];
  messageCount: number;
}

function rootFields(read: (id: string) => Blob | undefined, file: string, rootBlobId: string) {
  const root = read(rootBlobId);
  if (root === undefined)
    throw documentError(
      `the root blob ${rootBlobId} named by the meta row of ${file} is not in its blobs table`,
      file,
    );
  if (firstByte(root.data) === 0x7b)
    throw documentError(`the root blob ${rootBlobId} of ${file} is JSON, not a tree node`, file);
  return { root, fields: decodeWire(root.data, `root blob ${rootBlobId}`) };
}

function rootBlobIdOf(meta: JsonObject, file: string): string {
  const value = Object.hasOwn(meta, "latestRootBlobId") ? meta.latestRootBlobId : undefined;
  if (value === undefined || value === null || value === "") return "";
  if (typeof value !== "string" || !blobIdPattern.test(value))
    throw documentError(
      `meta.latestRootBlobId of ${file} is not a 64-digit lowercase hex id`,
      file,
    );
  return value;
}

function workspaceUris(fields: ReturnType<typeof decodeWire>): string[] {
  return fields.flatMap((field) =>
    field.field === 9 && field.wire === 2 ? [Buffer.from(field.bytes).toString("utf8")] : [],
  );
}

/** The meta row and the root node's summary of one store (discovery reads only this). */
export async function readCursorCliHead(file: string): Promise<CursorCliHead> {
  const database = await open(file);
  try {
    const meta = readMeta(database, file);
    const rootBlobId = rootBlobIdOf(meta, file);
    if (rootBlobId === "") return { meta, rootBlobId, workspaceUris: [], messageCount: 0 };
    const { fields } = rootFields(blobReader(database, file), file, rootBlobId);
    return {
      meta,
      rootBlobId,
      workspaceUris: workspaceUris(fields),
      messageCount: childIds(fields).length,
    };
  } finally {
    database.close();
  }
}

/** The whole chat of one store.db; `agentId` is its directory's name when known. */
export async function readCursorCliDatabase(
  file: string,
  agentId?: string,
): Promise<CursorCliChat> {
  const database = await open(file);
  try {
    const decoded = readMeta(database, file);
    const meta: JsonObject = {};
    const redactedMetaKeys: string[] = [];
    for (const [key, value] of Object.entries(decoded)) {
      if (secretMetaKeys.has(key)) redactedMetaKeys.push(key);
      else meta[key] = value;
    }
    const id =
      agentId ??
      (typeof meta.agentId === "string" && meta.agentId !== "" ? meta.agentId : undefined);
    if (id === undefined) throw documentError(`the meta row of ${file} names no agentId`, file);
    const rootBlobId = rootBlobIdOf(decoded, file);
    const chat: CursorCliChat = {
      cursorCliChat: 1,
      agentId: id,
      meta,
      redactedMetaKeys,
      rootBlobId,
      workspaceUris: [],
      turnBlobIds: [],
      otherRootFields: [],
      messages: [],
      missingBlobIds: [],
      digestMismatches: [],
    };
    if (rootBlobId === "") return chat;
    const read = blobReader(database, file);
    const { root, fields } = rootFields(read, file, rootBlobId);
    const walk: Walk = {
      messages: [],
      missing: [],
      mismatches: new Set(),
      visits: 0,
      seen: new Map(),
    };
    if (createHash("sha256").update(root.data).digest("hex") !== rootBlobId)
      walk.mismatches.add(rootBlobId);
    walkNode(read, file, childIds(fields), [rootBlobId], walk);
    const others = new Set<number>();
    for (const field of fields) {
      if (field.field === 8 && field.wire === 2)
        chat.turnBlobIds.push(Buffer.from(field.bytes).toString("hex"));
      else if (
        !(field.field === 1 && field.wire === 2 && field.bytes.length === 32) &&
        field.field !== 9
      )
        others.add(field.field);
    }
    chat.workspaceUris = workspaceUris(fields);
    chat.otherRootFields = [...others].sort((a, b) => a - b);
    chat.messages = walk.messages;
    chat.missingBlobIds = walk.missing;
    chat.digestMismatches = [...walk.mismatches];
    return chat;
  } finally {
    database.close();
  }
}
