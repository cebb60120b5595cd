// Qwen Code 0.24.4 subagent transcripts (docs/formats/qwen-code.md,
// "Subagents"): each agent a session launches is kept in
// `projects/<project>/subagents/<session id>/agent-<agentId>.jsonl` beside
// its sidecar `agent-<agentId>.meta.json`, whose `toolUseId` names the
// parent's `agent` call and `parentAgentId` the agent that launched it (null
// for the main conversation). Names are sanitized as Qwen Code does: every
// character outside [A-Za-z0-9_-] becomes "_". This module finds them for a
// session file and reads them; the store writes them.
import { type Dirent, promises as fs } from "node:fs";
import * as path from "node:path";
import {
  type ConversionOptions,
  isJsonObject,
  type JsonObject,
  type LoadContext,
  loadText,
  type Message,
  parseJson,
  type Subagent,
  stringAt,
  TxcriptError,
  warn,
} from "@txcript/core";
import { qwenCodeLoss } from "./qwen-code-losses.js";
import { isQwenFileId } from "./qwen-code-paths.js";
import {
  harness,
  parseSession,
  type QwenCodeSession,
  type QwenCodeSubagentFile,
  recordOf,
} from "./qwen-code-schema.js";

/** Qwen Code's file-name form of an id (agent-transcript.ts sanitizeFilenameComponent). */
export function qwenFileNameComponent(value: string): string {
  return value.replace(/[^a-zA-Z0-9_-]/g, "_");
}

/** `agent-<agentId>.jsonl` and `agent-<agentId>.meta.json`, as Qwen Code names an agent's files. */
export function qwenAgentFileNames(agentId: string): { transcript: string; meta: string } {
  const base = `agent-${qwenFileNameComponent(agentId)}`;
  return { transcript: `${base}.jsonl`, meta: `${base}.meta.json` };
}

/** The most agents Qwen Code's own trace reads for one session; txcript reads as many. */
export const maxSubagentFiles = 2000;

/**
 * The directory holding the subagents of the session in `file`, when the
 * file sits in a project directory's `chats/` or `chats/archive/` (Qwen Code
 * archives a session by moving its file there, and leaves its agents in
 * place): `<project>/subagents/<id>/`; undefined elsewhere. The id is the
 * file's name, as `qwen --resume` names the session, else its first record's
 * session id.
 */
export function subagentDirectoryOf(
  file: string,
  session: QwenCodeSession,
): { directory: string; sessionId: string } | undefined {
  let chats = path.dirname(path.resolve(file));
  if (path.basename(chats) === "archive" && path.basename(path.dirname(chats)) === "chats")
    chats = path.dirname(chats);
  if (path.basename(chats) !== "chats") return undefined;
  const named = path.basename(file, ".jsonl");
  let sessionId: string | undefined = isQwenFileId(named) ? named : undefined;
  if (sessionId === undefined)
    for (const line of session.lines) {
      const record = line.value === undefined ? undefined : recordOf(line.value);
      if (record !== undefined) {
        sessionId = record.sessionId;
        break;
      }
    }
  if (sessionId === undefined || sessionId === "") return undefined;
  return {
    directory: path.join(path.dirname(chats), "subagents", qwenFileNameComponent(sessionId)),
    sessionId,
  };
}

function skip(context: Partial<LoadContext>, name: string, why: string): void {
  warn(
    context.onWarning === undefined ? undefined : { onWarning: context.onWarning },
    qwenCodeLoss.subagentFile,
    `subagent file ${name} was left out: ${why}`,
  );
}

/** A meta file's object, or why it is not one Qwen Code reads for this session. */
function readMeta(text: string, name: string, sessionId: string): JsonObject | string {
  let value: unknown;
  try {
    value = parseJson(text, { harness });
  } catch (error) {
    if (TxcriptError.isInstance(error)) return "it is not JSON";
    throw error;
  }
  if (!isJsonObject(value)) return "it is not a JSON object";
  const agentId = stringAt(value, "agentId");
  if (agentId === undefined || agentId === "") return "it names no agentId";
  if (qwenAgentFileNames(agentId).meta !== name)
    return `its agentId ${JSON.stringify(agentId)} does not name this file`;
  if (value.parentSessionId !== sessionId)
    return `its parentSessionId is not the session's id ${sessionId}`;
  return value;
}

/**
 * The subagent transcripts in `directory` of session `sessionId`: every
 * `agent-*.meta.json` that is a regular file naming this session and its own
 * file name, with its `agent-*.jsonl` beside it; anything else is left out
 * as a `qwen_code.subagent-file` loss.
 */
export async function readSubagentFiles(
  directory: string,
  sessionId: string,
  context: Partial<LoadContext> = {},
): Promise<QwenCodeSubagentFile[]> {
  let entries: Dirent[];
  try {
    // lstat semantics: a link in place of the directory is not followed.
    const stat = await fs.lstat(directory);
    if (!stat.isDirectory()) return [];
    entries = await fs.readdir(directory, { withFileTypes: true });
  } catch {
    return [];
  }
  const metas = entries
    .filter((entry) => entry.name.startsWith("agent-") && entry.name.endsWith(".meta.json"))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  if (metas.length > maxSubagentFiles)
    skip(
      context,
      `${metas.length - maxSubagentFiles} meta files`,
      `past the ${maxSubagentFiles} Qwen Code reads`,
    );
  const reading: Partial<LoadContext> = { ...context };
  delete reading.text;
  const out: QwenCodeSubagentFile[] = [];
  for (const entry of metas.slice(0, maxSubagentFiles)) {
    if (!entry.isFile()) {
      skip(context, entry.name, "it is not a regular file");
      continue;
    }
    try {
      const meta = readMeta(
        await loadText(path.join(directory, entry.name), { environment: {}, ...reading }, harness),
        entry.name,
        sessionId,
      );
      if (typeof meta === "string") {
        skip(context, entry.name, meta);
        continue;
      }
      const agentId = meta.agentId as string;
      const transcript = path.join(directory, qwenAgentFileNames(agentId).transcript);
      const stat = await fs.lstat(transcript).catch(() => undefined);
      if (stat === undefined || !stat.isFile()) {
        skip(context, entry.name, `its transcript ${path.basename(transcript)} is not beside it`);
        continue;
      }
      const text = await loadText(transcript, { environment: {}, ...reading }, harness);
      out.push({ agentId, meta, session: parseSession(text, { file: transcript }) });
    } catch (error) {
      if (!TxcriptError.isInstance(error)) throw error;
      skip(context, entry.name, error.message);
    }
  }
  return out;
}

/** The session in `file` with the subagent transcripts beside it (none when it is not in a `chats/` directory). */
export async function withSubagents(
  file: string,
  session: QwenCodeSession,
  context: Partial<LoadContext> = {},
): Promise<QwenCodeSession> {
  const place = subagentDirectoryOf(file, session);
  if (place === undefined) return session;
  const subagents = await readSubagentFiles(place.directory, place.sessionId, context);
  return subagents.length === 0 ? session : { ...session, subagents };
}

/** For `subagents/<id>/agent-*.jsonl` or `agent-*.meta.json`: the session file `chats/<id>.jsonl` it belongs to, when there is one. */
export async function sessionOfSubagentFile(file: string): Promise<string | undefined> {
  const resolved = path.resolve(file);
  const name = path.basename(resolved);
  if (!name.startsWith("agent-") || !(name.endsWith(".jsonl") || name.endsWith(".meta.json")))
    return undefined;
  const sessionDirectory = path.dirname(resolved);
  const subagents = path.dirname(sessionDirectory);
  if (path.basename(subagents) !== "subagents") return undefined;
  const main = path.join(
    path.dirname(subagents),
    "chats",
    `${path.basename(sessionDirectory)}.jsonl`,
  );
  const stat = await fs.lstat(main).catch(() => undefined);
  return stat?.isFile() ? main : undefined;
}

/** Meta keys whose content Common keeps (or restates: the nesting, the parent session). */
const keptMetaKeys = new Set([
  "agentId",
  "agentType",
  "subagentName",
  "description",
  "parentSessionId",
  "toolUseId",
  "parentAgentId",
  "depth",
  "model",
]);

/** The order Qwen Code's own trace lists agents in: createdAt, then agentId. */
function byCreation(a: QwenCodeSubagentFile, b: QwenCodeSubagentFile): number {
  const time = (file: QwenCodeSubagentFile) => {
    const value = stringAt(file.meta, "createdAt");
    const parsed = value === undefined ? Number.NaN : Date.parse(value);
    return Number.isFinite(parsed) ? parsed : Number.POSITIVE_INFINITY;
  };
  const [left, right] = [time(a), time(b)];
  if (left !== right) return left < right ? -1 : 1;
  return a.agentId < b.agentId ? -1 : a.agentId > b.agentId ? 1 : 0;
}

/**
 * The session's subagent transcripts as Common subagents: each linked by
 * its meta's `toolUseId` to the parent's `agent` call, nested under the
 * agent its `parentAgentId` names (an agent naming none that is present,
 * or one in a cycle, is top-level), siblings in creation order.
 */
export function subagentsToCommon(
  files: readonly QwenCodeSubagentFile[],
  read: (session: QwenCodeSubagentFile["session"]) => { messages: Message[] },
  options: ConversionOptions | undefined,
): Subagent[] {
  const sorted = [...files].sort(byCreation);
  const byId = new Map(sorted.map((file) => [file.agentId, file]));
  const parentOf = (file: QwenCodeSubagentFile): string | undefined => {
    const parent = file.meta.parentAgentId;
    if (typeof parent !== "string" || !byId.has(parent)) return undefined;
    // A cycle: walking up from the parent comes back to this agent.
    const seen = new Set([file.agentId]);
    let current: string | undefined = parent;
    while (current !== undefined) {
      if (seen.has(current)) return undefined;
      seen.add(current);
      const next: unknown = byId.get(current)?.meta.parentAgentId;
      current = typeof next === "string" && byId.has(next) ? next : undefined;
    }
    return parent;
  };
  const children = new Map<string | undefined, QwenCodeSubagentFile[]>();
  for (const file of sorted) {
    const parent = parentOf(file);
    const list = children.get(parent);
    if (list) list.push(file);
    else children.set(parent, [file]);
  }
  let extraMeta = 0;
  const build = (parent: string | undefined): Subagent[] =>
    (children.get(parent) ?? []).map((file) => {
      const subagent: Subagent = { id: file.agentId, messages: read(file.session).messages };
      const toolUseId = stringAt(file.meta, "toolUseId");
      const agentType = stringAt(file.meta, "agentType");
      const description = stringAt(file.meta, "description");
      const model = stringAt(file.meta, "model");
      if (toolUseId !== undefined && toolUseId !== "") subagent.toolUseId = toolUseId;
      if (agentType !== undefined && agentType !== "") subagent.agentType = agentType;
      if (description !== undefined && description !== "") subagent.title = description;
      if (model !== undefined) subagent.model = model;
      if (Object.keys(file.meta).some((key) => !keptMetaKeys.has(key))) extraMeta += 1;
      const nested = build(file.agentId);
      if (nested.length > 0) subagent.subagents = nested;
      return subagent;
    });
  const out = build(undefined);
  if (extraMeta > 0)
    warn(
      options,
      qwenCodeLoss.subagentMeta,
      "a subagent meta file's run state (status, times, CLI flags, …) was not kept",
      "$.subagents",
      extraMeta,
    );
  return out;
}
