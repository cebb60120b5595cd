// The one load of a Gemini CLI recording by its file: the store's `load(id)`
// is locate(id) and GeminiCliStore.loadFile, and the harness's `loadFile` is
// this for any path. Subagent recordings lie in `chats/<session id>/` beside
// the recording, so they come with it wherever it is; a recording in a
// store's layout (`<root>/tmp/<project>/chats/session-….json(l)`) also gets
// its project root from that store.
import { promises as fs } from "node:fs";
import * as path from "node:path";
import {
  type JsonObject,
  type LoadContext,
  loadText,
  ownValue,
  readHead,
  stringAt,
  warn,
} from "@txcript/core";
import { geminiCliCodec } from "./gemini-cli-codec.js";
import { geminiCliLoss } from "./gemini-cli-losses.js";
import { isGeminiSessionId } from "./gemini-cli-paths.js";
import { replay } from "./gemini-cli-records.js";
import { type GeminiCliSession, type GeminiCliSubagentFile, harness } from "./gemini-cli-schema.js";

/** The `.gemini` root a recording sits in (`<root>/tmp/<project>/chats/<file>`); undefined for a lone file. */
export function geminiRootOf(file: string): string | undefined {
  const chats = path.dirname(path.resolve(file));
  const project = path.dirname(chats);
  const tmp = path.dirname(project);
  if (path.basename(chats) !== "chats" || path.basename(tmp) !== "tmp") return undefined;
  return path.dirname(tmp);
}

/** One recording's text (the context's, when given) through the codec's parse. */
export async function readRecording(
  file: string,
  context: Partial<LoadContext> = {},
): Promise<GeminiCliSession> {
  const text = context.text ?? (await loadText(file, { environment: {}, ...context }, harness));
  return geminiCliCodec.parse(text, { file });
}

/** The directory of a recording's subagent recordings: `chats/<session id>/` beside it. */
export function subagentDirectoryOf(file: string, session: GeminiCliSession): string | undefined {
  const id = replay(session).metadata.sessionId;
  return typeof id === "string" && isGeminiSessionId(id)
    ? path.join(path.dirname(file), id)
    : undefined;
}

/** The subagent recordings of the recording in `file`, each with its own (cycles cut). */
export async function subagentRecordings(
  file: string,
  session: GeminiCliSession,
  context: Partial<LoadContext> = {},
): Promise<GeminiCliSubagentFile[]> {
  const id = replay(session).metadata.sessionId;
  if (typeof id !== "string") return [];
  return subagentsIn(path.dirname(file), id, new Set([id]), context);
}

async function subagentsIn(
  chats: string,
  parentId: string,
  seen: Set<string>,
  context: Partial<LoadContext>,
): Promise<GeminiCliSubagentFile[]> {
  if (!isGeminiSessionId(parentId)) return [];
  const names = await fs.readdir(path.join(chats, parentId)).catch(() => [] as string[]);
  const out: GeminiCliSubagentFile[] = [];
  for (const name of names.filter((entry) => entry.endsWith(".jsonl")).sort()) {
    let session: GeminiCliSession;
    try {
      const { text: _, ...rest } = context;
      session = await readRecording(path.join(chats, parentId, name), rest);
    } catch {
      continue;
    }
    const recorded = replay(session).metadata.sessionId;
    const id =
      typeof recorded === "string" && recorded !== "" ? recorded : name.slice(0, -".jsonl".length);
    if (seen.has(id)) continue;
    seen.add(id);
    const nested = await subagentsIn(chats, id, seen, context);
    out.push({ id, session: nested.length === 0 ? session : { ...session, subagents: nested } });
  }
  return out;
}

/**
 * The read options under which the recording in `file` reads alone line by
 * line as its load reads it (its project root as the cwd, in a store's
 * layout); undefined when it has subagent recordings beside it.
 */
export async function geminiReadsAlone(
  file: string,
  projectRoot: () => Promise<string | undefined>,
): Promise<Record<string, unknown> | undefined> {
  const head = await readHead(file, 65_536).catch(() => undefined);
  const id = head === undefined ? undefined : /"sessionId"\s*:\s*"([^"]+)"/.exec(head)?.[1];
  if (id !== undefined && isGeminiSessionId(id)) {
    const directory = path.join(path.dirname(file), id);
    if ((await fs.lstat(directory).catch(() => undefined)) !== undefined) return undefined;
  }
  if (geminiRootOf(file) === undefined) return { [geminiLoneFileKey]: true };
  const cwd = await projectRoot();
  return { [geminiLoneFileKey]: true, ...(cwd === undefined ? {} : { cwd }) };
}

/** The recording `chats/session-…-<first 8 of id>.json(l)` whose subagent recording `chats/<id>/…` is `file`. */
export async function recordingOfSubagent(file: string): Promise<string | undefined> {
  const parent = path.basename(path.dirname(file));
  if (!isGeminiSessionId(parent) || !file.endsWith(".jsonl")) return undefined;
  const chats = path.dirname(path.dirname(file));
  const names = await fs.readdir(chats).catch(() => [] as string[]);
  const name = names
    .sort()
    .find(
      (entry) =>
        entry.startsWith("session-") &&
        /\.jsonl?$/.test(entry) &&
        entry.includes(parent.slice(0, 8)),
    );
  return name === undefined ? undefined : path.join(chats, name);
}

/** The read option geminiReadsAlone gives a recording with no subagent directory beside it. */
export const geminiLoneFileKey = "geminiLoneFile";

/** The subagents a kept message record's tool calls name (`toolCalls[].agentId` of a gemini record). */
export function agentIdsOf(record: JsonObject): string[] {
  if (ownValue(record, "type") !== "gemini") return [];
  const calls = ownValue(record, "toolCalls");
  if (!Array.isArray(calls)) return [];
  const out: string[] = [];
  for (const call of calls) {
    if (call === null || typeof call !== "object" || Array.isArray(call)) continue;
    const agentId = stringAt(call as JsonObject, "agentId");
    if (agentId !== undefined && agentId !== "") out.push(agentId);
  }
  return out;
}

/** Names each subagent in `named` that `held` lacks as gemini_cli.subagent-missing. */
export function warnMissingSubagents(
  named: Iterable<string>,
  held: ReadonlySet<string>,
  file: unknown,
  options: { onWarning?: LoadContext["onWarning"] } | undefined,
): void {
  const where = typeof file === "string" ? path.basename(file) : "the recording";
  const reported = new Set<string>();
  for (const agentId of named) {
    if (held.has(agentId) || reported.has(agentId)) continue;
    reported.add(agentId);
    warn(
      options?.onWarning === undefined ? undefined : { onWarning: options.onWarning },
      geminiCliLoss.subagentMissing,
      `subagent ${agentId} is named by a tool call but no recording of it is in chats/<session id>/ beside ${where}: its conversation is left out`,
    );
  }
}

/** What a load names of the subagents the recording's calls name and `subagents` does not hold. */
export function reportMissingSubagents(
  session: GeminiCliSession,
  subagents: readonly GeminiCliSubagentFile[],
  file: string,
  context: Partial<LoadContext>,
): void {
  if (context.onWarning === undefined) return;
  const named = replay(session).messages.flatMap(({ record }) => agentIdsOf(record));
  warnMissingSubagents(named, new Set(subagents.map((subagent) => subagent.id)), file, context);
}
