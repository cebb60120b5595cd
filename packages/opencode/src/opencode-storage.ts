// The JSON storage tree OpenCode kept sessions in before 1.2 (and that 1.2
// migrates once into SQLite): `storage/session/<projectID>/<ses>.json`,
// `storage/message/<ses>/<msg>.json` and `storage/part/<msg>/<prt>.json`,
// each file one object with its own id. Read into the same export document
// the database gives; messages ordered by creation time, parts by id.
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { isJsonObject, type JsonObject, ownValue, parseJson, readTextFile } from "@txcript/core";
import { harness, type OpencodeDocument, type OpencodeEntry } from "./opencode-schema.js";

const idPattern = /^(ses|msg|prt)_[0-9A-Za-z]+$/;

export interface StoredSessionFile {
  id: string;
  file: string;
  info: JsonObject;
}

async function listDir(directory: string): Promise<string[]> {
  try {
    return (await fs.readdir(directory)).sort();
  } catch {
    return [];
  }
}

async function readObject(file: string): Promise<JsonObject> {
  const value = parseJson(await readTextFile(file, { harness }), { harness, file });
  if (!isJsonObject(value)) throw new Error(`${file} is not a JSON object`);
  return value;
}

/** Every session file of every project; unreadable files go to `onSkip`. */
export async function listStoredSessions(
  storage: string,
  onSkip?: (file: string, reason: string) => void,
): Promise<StoredSessionFile[]> {
  const found: StoredSessionFile[] = [];
  const sessionRoot = path.join(storage, "session");
  for (const project of await listDir(sessionRoot)) {
    for (const name of await listDir(path.join(sessionRoot, project))) {
      if (!name.endsWith(".json")) continue;
      const file = path.join(sessionRoot, project, name);
      try {
        const info = await readObject(file);
        const id = ownValue(info, "id");
        if (typeof id !== "string" || !idPattern.test(id)) throw new Error("no session id");
        found.push({ id, file, info });
      } catch (error) {
        onSkip?.(file, String(error instanceof Error ? error.message : error));
      }
    }
  }
  return found;
}

/** How many message files a stored session has. */
export async function storedMessageCount(storage: string, id: string): Promise<number> {
  return (await listDir(path.join(storage, "message", id))).filter((name) => name.endsWith(".json"))
    .length;
}

function createdOf(info: JsonObject): number {
  const time = ownValue(info, "time");
  const created = isJsonObject(time) ? ownValue(time, "created") : undefined;
  return typeof created === "number" ? created : 0;
}

/** One stored session as its export document. */
export async function loadStoredSession(
  storage: string,
  session: StoredSessionFile,
): Promise<OpencodeDocument> {
  if (!idPattern.test(session.id)) throw new Error(`unsafe session id ${session.id}`);
  const messageDir = path.join(storage, "message", session.id);
  const infos: JsonObject[] = [];
  for (const name of await listDir(messageDir))
    if (name.endsWith(".json") && idPattern.test(name.slice(0, -5)))
      infos.push(await readObject(path.join(messageDir, name)));
  infos.sort(
    (a, b) =>
      createdOf(a) - createdOf(b) ||
      String(ownValue(a, "id")).localeCompare(String(ownValue(b, "id"))),
  );
  const messages: OpencodeEntry[] = [];
  for (const info of infos) {
    const id = ownValue(info, "id");
    const parts: JsonObject[] = [];
    if (typeof id === "string" && idPattern.test(id)) {
      const partDir = path.join(storage, "part", id);
      for (const name of await listDir(partDir))
        if (name.endsWith(".json") && idPattern.test(name.slice(0, -5)))
          parts.push(await readObject(path.join(partDir, name)));
    }
    messages.push({ info, parts });
  }
  return { info: session.info, messages };
}
