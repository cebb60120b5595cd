// A session's 2.x subagent files, `<session dir>/<id>/subagents/agent-<agentId>.jsonl`:
// loading a session file with them (the one load of a Claude Code session:
// the store's `load(id)` and the harness's `loadFile` alike), naming those
// its Task results refer to and that are not there, and splitting the
// sidechain lines the writer puts inline (each carrying its `agentId`) into
// such files on save.
import { promises as fs } from "node:fs";
import * as path from "node:path";
import {
  type ConversionOptions,
  deleteFilesIn,
  ioError,
  type LoadContext,
  loadText,
  ownValue,
  readTextFile,
  readTimestamp,
  warn,
} from "@txcript/core";
import { claudeCodeCodec } from "./claude-code-codec.js";
import { claudeCodeLoss } from "./claude-code-losses.js";
import {
  type ClaudeCodeLine,
  type ClaudeCodeSession,
  type ClaudeCodeSubagentFile,
  harness,
  objectAt,
  stringAt,
} from "./claude-code-schema.js";

const agentFile = /^agent-([A-Za-z0-9][A-Za-z0-9_-]{0,127})\.jsonl$/;
const safeAgentId = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

/** `<dir>/<id>/subagents` for the session file `<dir>/<id>.jsonl`. */
export function subagentDirectory(sessionFile: string): string {
  return path.join(path.dirname(sessionFile), path.basename(sessionFile, ".jsonl"), "subagents");
}

function firstTime(file: ClaudeCodeSubagentFile): number {
  for (const line of file.session.lines) {
    const time =
      line.value === undefined ? undefined : readTimestamp(ownValue(line.value, "timestamp"));
    if (time !== undefined) return Date.parse(time);
  }
  return Number.POSITIVE_INFINITY;
}

/** The subagent files in `directory` (none when it is absent), in the order their first lines were written. */
export async function readSubagentFiles(
  directory: string,
  readText: (file: string) => Promise<string> = (file) => readTextFile(file, { harness }),
): Promise<ClaudeCodeSubagentFile[]> {
  let names: string[];
  try {
    names = await fs.readdir(directory);
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return [];
    throw ioError(cause, directory, "list", harness);
  }
  const files: ClaudeCodeSubagentFile[] = [];
  for (const name of names.sort()) {
    const agentId = agentFile.exec(name)?.[1];
    if (agentId === undefined) continue;
    const file = path.join(directory, name);
    const stat = await fs.lstat(file).catch(() => undefined);
    if (!stat?.isFile()) continue;
    const session = claudeCodeCodec.parse(await readText(file), { file });
    files.push({ agentId, session });
  }
  return files
    .map((file, index) => ({ file, index, time: firstTime(file) }))
    .sort((a, b) => a.time - b.time || a.index - b.index)
    .map(({ file }) => file);
}

/** The session file `<dir>/<id>.jsonl` whose subagent file `<dir>/<id>/subagents/agent-*.jsonl` is `file`. */
export function sessionFileOfSubagent(file: string): string | undefined {
  if (!agentFile.test(path.basename(file))) return undefined;
  const subagents = path.dirname(file);
  if (path.basename(subagents) !== "subagents") return undefined;
  const session = path.dirname(subagents);
  return path.join(path.dirname(session), `${path.basename(session)}.jsonl`);
}

/** Whether `<session>/subagents/` exists beside the session file (then loading reads more than it). */
export async function hasSubagentDirectory(sessionFile: string): Promise<boolean> {
  return (await fs.lstat(subagentDirectory(sessionFile)).catch(() => undefined)) !== undefined;
}

/**
 * The agentIds a session's Task/Agent results name (`toolUseResult.agentId`
 * on a main-chain user line) whose conversation it does not hold: neither
 * inline sidechain lines carrying that agentId nor a subagent file of it.
 */
export function missingSubagents(session: ClaudeCodeSession): string[] {
  const named: string[] = [];
  const held = new Set((session.subagentFiles ?? []).map((file) => file.agentId));
  for (const line of session.lines) {
    // Only a line that mentions an agentId can name or hold one; the rest is not parsed again.
    if (!line.text.includes('"agentId"')) continue;
    const value = line.value;
    if (value === undefined) continue;
    const own = stringAt(value, "agentId");
    if (value.isSidechain === true && own !== undefined) {
      held.add(own);
      continue;
    }
    const agentId = stringAt(objectAt(value, "toolUseResult"), "agentId");
    if (agentId !== undefined && !named.includes(agentId)) named.push(agentId);
  }
  return named.filter((agentId) => !held.has(agentId));
}

/** Report each subagent the session names and does not hold (claude_code.subagent-file-missing). */
export function reportMissingSubagents(
  session: ClaudeCodeSession,
  file: string | undefined,
  options: ConversionOptions | undefined,
): void {
  for (const agentId of missingSubagents(session))
    warn(options, claudeCodeLoss.subagentFileMissing, missingSubagentMessage(agentId, file));
}

/** The warning's text for a subagent whose file is not beside `file`. */
export function missingSubagentMessage(agentId: string, file: unknown): string {
  const beside = typeof file === "string" ? path.basename(file) : "the session";
  return `subagent ${agentId} is named by a Task result but its file subagents/agent-${agentId}.jsonl is not beside ${beside}: its conversation is left out`;
}

/**
 * The read option `readsAlone` gives a file with no subagent directory beside it: read line by
 * line, it names each subagent its Task results name and it does not hold, as its load does.
 */
export const readsAloneKey = "claudeCodeLoneFile";

/**
 * The session whose file is `file`, with its 2.x subagent files from
 * `<id>/subagents/` beside it: what the store loads for a stored session,
 * and what a path in the `projects` layout reads. A file with no subagent
 * directory reads alone; each subagent its Task results name that is then
 * missing is a named loss (claude_code.subagent-file-missing).
 */
export async function loadClaudeCodeFile(
  file: string,
  context: Partial<LoadContext> = {},
): Promise<ClaudeCodeSession> {
  const reader = (name: string) => loadText(name, { environment: {}, ...context }, harness);
  const text = context.text ?? (await reader(file));
  const session = claudeCodeCodec.parse(text, { file });
  const subagentFiles = await readSubagentFiles(subagentDirectory(file), reader);
  const loaded = subagentFiles.length === 0 ? session : { ...session, subagentFiles };
  reportMissingSubagents(
    loaded,
    file,
    context.onWarning === undefined ? undefined : { onWarning: context.onWarning },
  );
  return loaded;
}

/**
 * The session file and its subagent files as saved: the files the session
 * came with, and each agentId's inline sidechain lines moved to a file of
 * their own (a 1.0.x sidechain, which has no agentId, stays inline).
 */
export function splitSubagentFiles(session: ClaudeCodeSession): {
  main: ClaudeCodeSession;
  files: ClaudeCodeSubagentFile[];
} {
  const files: ClaudeCodeSubagentFile[] = [...(session.subagentFiles ?? [])];
  const taken = new Set(files.map((file) => file.agentId));
  const moved = new Map<string, ClaudeCodeLine[]>();
  const main: ClaudeCodeLine[] = [];
  for (const line of session.lines) {
    // Only a sidechain line can move; the rest is not parsed again.
    if (!line.text.includes('"isSidechain":true')) {
      main.push(line);
      continue;
    }
    const value = line.value;
    const agentId = value === undefined ? undefined : stringAt(value, "agentId");
    if (
      value === undefined ||
      agentId === undefined ||
      value.isSidechain !== true ||
      !Object.hasOwn(value, "isSidechain") ||
      !safeAgentId.test(agentId) ||
      taken.has(agentId)
    ) {
      main.push(line);
      continue;
    }
    const lines = moved.get(agentId);
    if (lines === undefined) moved.set(agentId, [line]);
    else lines.push(line);
  }
  for (const [agentId, lines] of moved)
    files.push({ agentId, session: { lines, finalNewline: true } });
  return { main: { lines: main, finalNewline: session.finalNewline }, files };
}

/**
 * Removes the subagent files in `directory` (all, or those not in `keep`),
 * and the directories left empty.
 */
export async function deleteSubagentFiles(
  directory: string,
  keep: ReadonlySet<string> = new Set(),
): Promise<void> {
  await deleteFilesIn(directory, (name) => agentFile.test(name) && !keep.has(name), harness);
  await fs.rmdir(path.dirname(directory)).catch(() => undefined);
}
