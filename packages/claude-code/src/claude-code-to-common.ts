// Claude Code session → Common transcript. Picks the main thread and each
// subagent's (claude-code-thread), reads each as messages
// (claude-code-read), links subagents to the Task/Agent call that spawned
// them, takes the title from custom-title over summary over ai-title, and
// names every line it leaves out. Never throws on a parsed session.
import {
  type ConversionOptions,
  LossTally,
  lineageOf,
  type Meta,
  ownValue,
  readTimestamp,
  type Transcript,
} from "@txcript/core";
import { claudeCodeLoss } from "./claude-code-losses.js";
import { epoch, readConversation } from "./claude-code-read.js";
import type { ClaudeCodeSession } from "./claude-code-schema.js";
import { stringAt } from "./claude-code-schema.js";
import { readSubagents } from "./claude-code-subagents-read.js";
import { type IndexedLine, selectConversations } from "./claude-code-thread.js";
import { importNotice, lineageKey } from "./claude-code-written.js";

export interface ClaudeCodeReadOptions extends ConversionOptions {}

const titleTypes = new Set(["summary", "custom-title", "ai-title"]);

/** Line kinds that are Claude Code's own state, nothing the model saw or said. */
const bookkeeping = new Set([
  "file-history-snapshot",
  "progress",
  "queue-operation",
  "permission-mode",
  "last-prompt",
  "system/stop_hook_summary",
  "system/turn_duration",
  "system/informational",
]);

export function indexedLines(session: ClaudeCodeSession): IndexedLine[] {
  const all: IndexedLine[] = [];
  session.lines.forEach((line, index) => {
    if (line.value !== undefined) all.push({ index, value: line.value });
  });
  return all;
}

function readTitle(lines: readonly IndexedLine[], uuids: ReadonlySet<string>): string | undefined {
  let custom: string | undefined;
  let summary: string | undefined;
  let ai: string | undefined;
  for (const { value } of lines) {
    const type = stringAt(value, "type");
    if (type === "custom-title") custom = stringAt(value, "customTitle") ?? custom;
    else if (type === "ai-title") ai = stringAt(value, "aiTitle") ?? ai;
    else if (type === "summary") {
      // A summary names the leaf it summarizes; one naming a line of another file titles that session.
      const leaf = stringAt(value, "leafUuid");
      if (leaf !== undefined && uuids.has(leaf)) summary = stringAt(value, "summary") ?? summary;
    }
  }
  return custom ?? summary ?? ai;
}

function firstString(lines: readonly IndexedLine[], key: string): string | undefined {
  for (const { value } of lines) {
    const found = stringAt(value, key);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Names, by kind, every line that is neither conversation nor title nor txcript's own notice. */
export function tallyLeftOutLines(
  lines: readonly IndexedLine[],
  used: ReadonlySet<IndexedLine>,
  tally: LossTally,
): void {
  for (const line of lines) {
    const type = stringAt(line.value, "type") ?? "untyped";
    if (type === "user" || type === "assistant" || titleTypes.has(type)) continue;
    const subtype = stringAt(line.value, "subtype");
    if (
      type === "system" &&
      used.has(line) &&
      (subtype === "local_command" || subtype === "compact_boundary")
    )
      continue;
    if (
      type === "system" &&
      subtype === "informational" &&
      stringAt(line.value, "content") === importNotice
    )
      continue;
    const kind = type === "system" && subtype !== undefined ? `system/${subtype}` : type;
    tally.add(
      bookkeeping.has(kind) ? claudeCodeLoss.bookkeepingLines : claudeCodeLoss.lineDropped,
      `left out ${kind} lines`,
    );
  }
}

export function claudeCodeToCommon(
  session: ClaudeCodeSession,
  options?: ClaudeCodeReadOptions,
): Transcript {
  const all = indexedLines(session);
  const tally = new LossTally();
  const conversations = selectConversations(all);
  const used = new Set<IndexedLine>(conversations.main.lines);
  for (const sidechain of conversations.sidechains)
    for (const line of sidechain.thread.lines) used.add(line);
  tallyLeftOutLines(conversations.unique, used, tally);
  tally.add(
    claudeCodeLoss.duplicateLine,
    "dropped lines repeating a uuid",
    conversations.duplicateCount,
  );
  let branches = conversations.main.branchCount;
  for (const sidechain of conversations.sidechains) branches += sidechain.thread.branchCount;
  tally.add(claudeCodeLoss.branch, "left out lines of abandoned branches", branches);

  const messages = readConversation(conversations.main.lines, tally);
  const subagents = readSubagents(
    conversations.main.lines,
    conversations.sidechains,
    session.subagentFiles ?? [],
    tally,
  );

  const uuids = new Set<string>();
  for (const { value } of all) {
    const uuid = stringAt(value, "uuid");
    if (uuid !== undefined) uuids.add(uuid);
  }
  const sessionId = firstString(all, "sessionId");
  if (sessionId === undefined || sessionId === "")
    tally.add(claudeCodeLoss.missingSessionId, "the session names no sessionId");
  let timestamp: string | undefined;
  for (const { value } of all) {
    timestamp = readTimestamp(ownValue(value, "timestamp"));
    if (timestamp !== undefined) break;
  }
  const meta: Meta = {
    id: sessionId !== undefined && sessionId !== "" ? sessionId : "unknown-session",
    timestamp: timestamp ?? messages[0]?.timestamp ?? epoch,
  };
  const cwd = firstString(all, "cwd");
  if (cwd !== undefined) meta.cwd = cwd;
  const gitBranch = firstString(all, "gitBranch");
  if (gitBranch !== undefined && gitBranch !== "") meta.gitBranch = gitBranch;
  const title = readTitle(all, uuids);
  if (title !== undefined) meta.title = title;
  const version = firstString(all, "version");
  if (version !== undefined) meta.cliVersion = version;
  const model = messages.find(
    (message) => message.role === "assistant" && message.model !== undefined,
  )?.model;
  if (model !== undefined) meta.model = model;
  for (const { value } of all) {
    if (!Object.hasOwn(value, lineageKey)) continue;
    const lineage = lineageOf(ownValue(value, lineageKey));
    if (lineage !== undefined) meta.lineage = lineage;
    break;
  }
  tally.flush(options);
  return subagents.length === 0 ? { meta, messages } : { meta, messages, subagents };
}
