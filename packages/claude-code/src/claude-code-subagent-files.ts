// A session's 2.x subagent files, `<session dir>/<id>/subagents/agent-<agentId>.jsonl`:
// reading them beside the session file, and splitting the sidechain lines
// the writer puts inline (each carrying its `agentId`) into such files on save.
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { ioError, ownValue, readTextFile, readTimestamp } from "@txcript/core";
import { claudeCodeCodec } from "./claude-code-codec.js";
import {
  type ClaudeCodeLine,
  type ClaudeCodeSession,
  type ClaudeCodeSubagentFile,
  harness,
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
export async function readSubagentFiles(directory: string): Promise<ClaudeCodeSubagentFile[]> {
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
    const session = claudeCodeCodec.parse(await readTextFile(file, { harness }), { file });
    files.push({ agentId, session });
  }
  return files
    .map((file, index) => ({ file, index, time: firstTime(file) }))
    .sort((a, b) => a.time - b.time || a.index - b.index)
    .map(({ file }) => file);
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
  let names: string[];
  try {
    names = await fs.readdir(directory);
  } catch {
    return;
  }
  for (const name of names) {
    if (!agentFile.test(name) || keep.has(name)) continue;
    const file = path.join(directory, name);
    await fs.unlink(file).catch((cause) => {
      throw ioError(cause, file, "delete", harness);
    });
  }
  await fs.rmdir(directory).catch(() => undefined);
  await fs.rmdir(path.dirname(directory)).catch(() => undefined);
}
