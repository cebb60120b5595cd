// The one load of a Kimi CLI session by its context file: the store's
// `load(id)` is locate(id) and this, and the harness's `loadFile` is this for
// any path. What the session directory holds beside context.jsonl comes with
// it: the id (the directory's name, or a legacy `<id>.jsonl` file's stem),
// the work dir kimi.json records for the work-dir hash, state.json's title,
// wire.jsonl's first time, and subagents/<agent id>/context.jsonl. Files are
// read only when they are regular files (lstat), with bounded sizes.
import { promises as fs } from "node:fs";
import * as path from "node:path";
import {
  isJsonObject,
  type Json,
  type LoadContext,
  loadText,
  ownValue,
  readHead,
  warn,
} from "@txcript/core";
import { kimiCliCodec } from "./kimi-cli-codec.js";
import { kimiCliLoss } from "./kimi-cli-losses.js";
import { isKimiSessionId, kimiWorkDirHash } from "./kimi-cli-paths.js";
import {
  harness,
  type KimiCliSession,
  type KimiCliSessionInfo,
  type KimiCliSubagentFile,
} from "./kimi-cli-schema.js";

/** kimi.json, state.json and meta.json are small; anything past this is not Kimi CLI's. */
export const smallFileBytes = 4_194_304;
const wireHeadBytes = 65_536;
/** Subagents within subagents: Kimi CLI keeps one level; more is cut here. */
const maxSubagentDepth = 4;

/** Where a context file sits in a store: the share directory, the work-dir hash and the session id; undefined for a lone file. */
export interface KimiPlace {
  root: string;
  workDirHash: string;
  id: string;
  /** The session directory (absent for a legacy `<id>.jsonl`). */
  sessionDirectory?: string;
}

export function placeOf(file: string): KimiPlace | undefined {
  const absolute = path.resolve(file);
  const name = path.basename(absolute);
  if (name === "context.jsonl") {
    const sessionDirectory = path.dirname(absolute);
    const hashDirectory = path.dirname(sessionDirectory);
    const sessions = path.dirname(hashDirectory);
    const id = path.basename(sessionDirectory);
    if (path.basename(sessions) !== "sessions" || !isKimiSessionId(id)) return undefined;
    return {
      root: path.dirname(sessions),
      workDirHash: path.basename(hashDirectory),
      id,
      sessionDirectory,
    };
  }
  if (name.endsWith(".jsonl")) {
    const id = name.slice(0, -".jsonl".length);
    const hashDirectory = path.dirname(absolute);
    const sessions = path.dirname(hashDirectory);
    if (path.basename(sessions) !== "sessions" || !isKimiSessionId(id)) return undefined;
    return { root: path.dirname(sessions), workDirHash: path.basename(hashDirectory), id };
  }
  return undefined;
}

/**
 * The id of a context file outside a store's layout, named as the layout
 * names sessions: the directory's name for `<dir>/context.jsonl`, else the
 * file's name without `.jsonl`. Two such files then read under two ids
 * (one default id for all would make one session replace another on import).
 */
export function looseFileId(file: string): string {
  const absolute = path.resolve(file);
  const name = path.basename(absolute);
  if (name === "context.jsonl") {
    const directory = path.basename(path.dirname(absolute));
    if (directory !== "") return directory;
  }
  const stem = name.endsWith(".jsonl") ? name.slice(0, -".jsonl".length) : name;
  return stem === "" ? name : stem;
}

/** A regular file's text when it is one and small enough; undefined otherwise (absent, a link, a FIFO, too large, unreadable). */
export async function readSmallFile(
  file: string,
  maxBytes = smallFileBytes,
): Promise<string | undefined> {
  try {
    const stat = await fs.lstat(file);
    if (!stat.isFile() || stat.size > maxBytes) return undefined;
    return await fs.readFile(file, "utf8");
  } catch {
    return undefined;
  }
}

function parseObject(text: string | undefined): Record<string, Json> | undefined {
  if (text === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return isJsonObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** kimi.json's work dirs: the session directory name (md5, or `<kaos>_<md5>`) → the work dir's path. */
export async function workDirsOf(root: string): Promise<Map<string, string>> {
  const metadata = parseObject(await readSmallFile(path.join(root, "kimi.json")));
  const found = new Map<string, string>();
  const entries = metadata === undefined ? undefined : ownValue(metadata, "work_dirs");
  if (!Array.isArray(entries)) return found;
  for (const entry of entries) {
    if (!isJsonObject(entry)) continue;
    const workDir = ownValue(entry, "path");
    const kaos = ownValue(entry, "kaos") ?? "local";
    if (typeof workDir !== "string" || typeof kaos !== "string") continue;
    const hash = kimiWorkDirHash(workDir);
    found.set(kaos === "local" ? hash : `${kaos}_${hash}`, workDir);
  }
  return found;
}

/** state.json's custom title, when it has one. */
export async function titleOf(sessionDirectory: string): Promise<string | undefined> {
  const state = parseObject(await readSmallFile(path.join(sessionDirectory, "state.json")));
  const title = state === undefined ? undefined : ownValue(state, "custom_title");
  return typeof title === "string" && title !== "" ? title : undefined;
}

/** The time of wire.jsonl's first record (seconds since the epoch), as a Common timestamp. */
export async function wireStartOf(sessionDirectory: string): Promise<string | undefined> {
  const file = path.join(sessionDirectory, "wire.jsonl");
  try {
    if (!(await fs.lstat(file)).isFile()) return undefined;
    const head = await readHead(file, wireHeadBytes);
    for (const line of head.split("\n")) {
      const record = parseObject(line);
      const seconds = record === undefined ? undefined : ownValue(record, "timestamp");
      if (typeof seconds === "number" && Number.isFinite(seconds)) {
        const time = Math.round(seconds * 1000);
        if (time >= 0 && time <= 253_402_300_799_999) return new Date(time).toISOString();
      }
    }
  } catch {}
  return undefined;
}

async function subagentFiles(
  sessionDirectory: string,
  context: LoadContext,
  depth: number,
): Promise<KimiCliSubagentFile[]> {
  if (depth > maxSubagentDepth) return [];
  const directory = path.join(sessionDirectory, "subagents");
  let entries: import("node:fs").Dirent[];
  try {
    entries = await fs.readdir(directory, { withFileTypes: true });
  } catch {
    return [];
  }
  const found: KimiCliSubagentFile[] = [];
  for (const entry of entries
    .filter((item) => item.isDirectory() && isKimiSessionId(item.name))
    .sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const instance = path.join(directory, entry.name);
    const file = path.join(instance, "context.jsonl");
    try {
      if (!(await fs.lstat(file)).isFile()) continue;
    } catch {
      continue;
    }
    const text = await loadText(file, context, harness);
    const session = kimiCliCodec.parse(text, { file });
    const start = await wireStartOf(instance);
    if (start !== undefined) session.info = { startTime: start };
    const nested = await subagentFiles(instance, context, depth + 1);
    if (nested.length > 0) session.subagents = nested;
    const meta = parseObject(await readSmallFile(path.join(instance, "meta.json")));
    const subagent: KimiCliSubagentFile = { id: entry.name, session };
    const type = meta === undefined ? undefined : ownValue(meta, "subagent_type");
    const description = meta === undefined ? undefined : ownValue(meta, "description");
    if (typeof type === "string") subagent.subagentType = type;
    if (typeof description === "string") subagent.description = description;
    found.push(subagent);
  }
  return found;
}

/** Earlier context files beside context.jsonl (context_1.jsonl, …), which the load does not read. */
async function rotatedFiles(sessionDirectory: string): Promise<string[]> {
  const names = await fs.readdir(sessionDirectory).catch(() => [] as string[]);
  return names.filter((name) => /^context_\d+\.jsonl$/.test(name)).sort();
}

/** The session context file whose subagent instance's context file is `file` (`<session>/subagents/<agent id>/context.jsonl`). */
export async function sessionOfSubagentFile(file: string): Promise<string | undefined> {
  const absolute = path.resolve(file);
  if (path.basename(absolute) !== "context.jsonl") return undefined;
  const subagents = path.dirname(path.dirname(absolute));
  if (path.basename(subagents) !== "subagents") return undefined;
  const parent = path.join(path.dirname(subagents), "context.jsonl");
  try {
    return (await fs.lstat(parent)).isFile() ? parent : undefined;
  } catch {
    return undefined;
  }
}

/** The session whose context file is `file`, with what its directory and store say of it. */
export async function loadKimiSession(file: string, context: LoadContext): Promise<KimiCliSession> {
  const text = context.text ?? (await loadText(file, context, harness));
  const session = kimiCliCodec.parse(text, { file });
  const place = placeOf(file);
  const sessionDirectory =
    place?.sessionDirectory ??
    (path.basename(file) === "context.jsonl" ? path.dirname(path.resolve(file)) : undefined);
  const info: KimiCliSessionInfo = {};
  if (place !== undefined) {
    info.id = place.id;
    const cwd = (await workDirsOf(place.root)).get(place.workDirHash);
    if (cwd !== undefined) info.cwd = cwd;
  } else info.fileId = looseFileId(file);
  if (sessionDirectory !== undefined) {
    const title = await titleOf(sessionDirectory);
    if (title !== undefined) info.title = title;
    const start = await wireStartOf(sessionDirectory);
    if (start !== undefined) info.startTime = start;
    const subagents = await subagentFiles(sessionDirectory, context, 1);
    if (subagents.length > 0) session.subagents = subagents;
    const rotated = await rotatedFiles(sessionDirectory);
    if (rotated.length > 0)
      warn(
        { ...(context.onWarning === undefined ? {} : { onWarning: context.onWarning }) },
        kimiCliLoss.rotatedContext,
        `earlier context files were not read: ${rotated.join(", ")}`,
        sessionDirectory,
        rotated.length,
      );
  }
  if (Object.keys(info).length > 0) session.info = info;
  return session;
}
