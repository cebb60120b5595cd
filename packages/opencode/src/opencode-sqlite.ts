// Reading OpenCode's live SQLite database, strictly read-only: opened with
// SQLITE_OPEN_READONLY through better-sqlite3 (loaded on first use, so
// nothing else pays for the native module), never checkpointing or
// writing, and seeing rows still only in the `-wal` file (OpenCode runs in
// WAL mode and leaves recent sessions there). Rows are assembled into the
// export document `opencode export` prints.
import {
  isJsonObject,
  type Json,
  type JsonObject,
  parseJson,
  type SqliteDatabase,
  sqliteBinding,
  TxcriptError,
} from "@txcript/core";
import type { OpencodeDocument, OpencodeEntry } from "./opencode-schema.js";
import { harness } from "./opencode-schema.js";

/** An open database (the better-sqlite3 calls core's SqliteDatabase names). */
export type ReadOnlyDatabase = SqliteDatabase;

/** better-sqlite3, imported the first time a database is opened. */
const binding = sqliteBinding(() => import("better-sqlite3"), harness);

/** Open `file` read-only; a missing file or one that is not SQLite is a TxcriptError. */
export async function openReadOnly(file: string): Promise<ReadOnlyDatabase> {
  const Database = await binding();
  try {
    const database = new Database(file, { readonly: true, fileMustExist: true, timeout: 5000 });
    database.pragma("query_only = ON");
    database.prepare("SELECT count(*) AS n FROM session").get();
    return database;
  } catch (cause) {
    throw new TxcriptError("IO", `cannot read the OpenCode database ${file}: ${String(cause)}`, {
      harness,
      location: { file },
      cause,
      hint: "expected OpenCode's opencode.db (OpenCode ≥ 1.2); `opencode db path` prints its location",
    });
  }
}

export interface SessionRow {
  id: string;
  title: string;
  directory: string;
  parentId: string | undefined;
  projectId: string;
  timeUpdated: number;
  messageCount: number;
}

/** Every session of every project, newest first, with its message count. */
export function listSessions(database: ReadOnlyDatabase): SessionRow[] {
  const rows = database
    .prepare(
      `SELECT s.id, s.title, s.directory, s.parent_id, s.project_id, s.time_updated,
              (SELECT count(*) FROM message m WHERE m.session_id = s.id) AS messages
         FROM session s ORDER BY s.time_updated DESC, s.id`,
    )
    .all();
  return rows.map((row) => ({
    id: String(row.id),
    title: String(row.title ?? ""),
    directory: String(row.directory ?? ""),
    parentId: typeof row.parent_id === "string" ? row.parent_id : undefined,
    projectId: String(row.project_id ?? ""),
    timeUpdated: Number(row.time_updated ?? 0),
    messageCount: Number(row.messages ?? 0),
  }));
}

function jsonColumn(text: unknown, where: string): Json | undefined {
  if (typeof text !== "string") return undefined;
  return parseJson(text, { harness, file: where });
}

function dataObject(text: unknown, where: string): JsonObject {
  const value = jsonColumn(text, where);
  if (!isJsonObject(value))
    throw new TxcriptError("INVALID_DOCUMENT", `the data of ${where} is not a JSON object`, {
      harness,
    });
  return value;
}

/** The session row as the `info` object OpenCode's export prints. */
function sessionInfo(row: Record<string, unknown>): JsonObject {
  const info: JsonObject = { id: String(row.id), slug: String(row.slug ?? "") };
  info.projectID = String(row.project_id ?? "");
  if (typeof row.workspace_id === "string") info.workspaceID = row.workspace_id;
  info.directory = String(row.directory ?? "");
  if (typeof row.path === "string") info.path = row.path;
  if (typeof row.parent_id === "string") info.parentID = row.parent_id;
  info.title = String(row.title ?? "");
  if (typeof row.agent === "string") info.agent = row.agent;
  const model = jsonColumn(row.model, `session ${String(row.id)} model`);
  if (model !== undefined && model !== null) info.model = model;
  info.version = String(row.version ?? "");
  if (typeof row.summary_additions === "number") {
    const summary: JsonObject = {
      additions: row.summary_additions,
      deletions: Number(row.summary_deletions ?? 0),
      files: Number(row.summary_files ?? 0),
    };
    const diffs = jsonColumn(row.summary_diffs, `session ${String(row.id)} summary_diffs`);
    if (diffs !== undefined && diffs !== null) summary.diffs = diffs;
    info.summary = summary;
  }
  if (typeof row.share_url === "string") info.share = { url: row.share_url };
  info.cost = Number(row.cost ?? 0);
  info.tokens = {
    input: Number(row.tokens_input ?? 0),
    output: Number(row.tokens_output ?? 0),
    reasoning: Number(row.tokens_reasoning ?? 0),
    cache: { read: Number(row.tokens_cache_read ?? 0), write: Number(row.tokens_cache_write ?? 0) },
  };
  for (const key of ["revert", "permission"] as const) {
    const value = jsonColumn(row[key], `session ${String(row.id)} ${key}`);
    if (value !== undefined && value !== null) info[key] = value;
  }
  const time: JsonObject = { created: Number(row.time_created), updated: Number(row.time_updated) };
  if (typeof row.time_compacting === "number") time.compacting = row.time_compacting;
  if (typeof row.time_archived === "number") time.archived = row.time_archived;
  info.time = time;
  return info;
}

/** One session as its export document, or undefined when the id is not in the database. */
export function loadSessionDocument(
  database: ReadOnlyDatabase,
  id: string,
): OpencodeDocument | undefined {
  const row = database.prepare("SELECT * FROM session WHERE id = ?").get(id);
  if (row === undefined) return undefined;
  const messages = database
    .prepare("SELECT id, data FROM message WHERE session_id = ? ORDER BY time_created, id")
    .all(id);
  const parts = database
    .prepare("SELECT id, message_id, data FROM part WHERE session_id = ? ORDER BY message_id, id")
    .all(id);
  const byMessage = new Map<string, JsonObject[]>();
  for (const part of parts) {
    const messageId = String(part.message_id);
    const data = dataObject(part.data, `part ${String(part.id)}`);
    const list = byMessage.get(messageId) ?? [];
    list.push({ ...data, id: String(part.id), sessionID: id, messageID: messageId });
    byMessage.set(messageId, list);
  }
  const entries: OpencodeEntry[] = messages.map((message) => {
    const messageId = String(message.id);
    const data = dataObject(message.data, `message ${messageId}`);
    return {
      info: { ...data, id: messageId, sessionID: id },
      parts: byMessage.get(messageId) ?? [],
    };
  });
  return { info: sessionInfo(row), messages: entries };
}

/** Ids of the sessions whose parent is `id` (its subagents), oldest first. */
export function childSessionIds(database: ReadOnlyDatabase, id: string): string[] {
  return database
    .prepare("SELECT id FROM session WHERE parent_id = ? ORDER BY time_created, id")
    .all(id)
    .map((row) => String(row.id));
}

/** How many rows of one session a database holds (what a failed import left behind). */
export function sessionFootprint(
  database: ReadOnlyDatabase,
  id: string,
): { session: boolean; messages: number; parts: number } {
  const session =
    database.prepare("SELECT 1 AS found FROM session WHERE id = ?").get(id) !== undefined;
  const messages = Number(
    database.prepare("SELECT count(*) AS n FROM message WHERE session_id = ?").get(id)?.n ?? 0,
  );
  const parts = Number(
    database.prepare("SELECT count(*) AS n FROM part WHERE session_id = ?").get(id)?.n ?? 0,
  );
  return { session, messages, parts };
}
