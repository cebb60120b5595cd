// Which lines of a session file make up its conversations. Claude Code
// threads lines by parentUuid → uuid; edits and retries leave abandoned
// branches behind, 1.0.x keeps subagent (sidechain) lines inline, 2.x
// writes them to `subagents/agent-<id>.jsonl` (each such file is all
// sidechain lines), and compaction restarts the chain at a boundary whose
// logicalParentUuid points back — in 2.1.x sometimes at a uuid the file
// does not hold. This module picks lines; it does not read their content.
import { isJsonObject, type Json, type JsonObject, ownValue } from "@txcript/core";
import { objectAt, stringAt } from "./claude-code-schema.js";

export interface IndexedLine {
  /** Position among the file's lines (0-based). */
  index: number;
  value: JsonObject;
}

export interface Thread {
  /** The conversation's lines, in file order. */
  lines: IndexedLine[];
  /** User/assistant lines of this conversation left out because they sit on an abandoned branch. */
  branchCount: number;
}

export interface Sidechain {
  /** The 2.x `agentId` its lines carry, when they do. */
  agentId?: string;
  /** uuid of its first line. */
  rootUuid: string;
  thread: Thread;
}

export interface Conversations {
  /** The main conversation (for a file of sidechain lines only, those lines). */
  main: Thread;
  /** Inline sidechains (1.0.x, or txcript's own writing), in the order their first lines appear. */
  sidechains: Sidechain[];
  /** True when the file holds sidechain lines only: a 2.x subagent file read on its own. */
  subagentFile: boolean;
  /** Lines dropped because an earlier line has the same uuid. */
  duplicateCount: number;
  /** Every line after dropping repeated uuids, in file order (titles and meta read these). */
  unique: IndexedLine[];
}

function contentOf(value: JsonObject): Json | undefined {
  const message = objectAt(value, "message");
  return message === undefined ? undefined : ownValue(message, "content");
}

function isConversationType(type: string | undefined): boolean {
  return type === "user" || type === "assistant";
}

function messageIdOf(line: IndexedLine): string | undefined {
  const message = objectAt(line.value, "message");
  return message === undefined ? undefined : stringAt(message, "id");
}

/**
 * One conversation among `side` (its lines, in file order): the chain from
 * its last message or system line back to its root — crossing compaction
 * through logicalParentUuid; a parent or logical parent that names no line
 * of `side` continues with the line before it in the file — plus the lines
 * that complete it: the other parts of a split assistant message (same
 * message.id) and the user lines answering its tool calls.
 */
export function selectChain(
  side: readonly IndexedLine[],
  byUuid: ReadonlyMap<string, IndexedLine>,
): Thread {
  const sideSet = new Set(side);
  const position = new Map(side.map((line, index) => [line, index]));
  const before = (line: IndexedLine) => side[(position.get(line) ?? 0) - 1];
  const chain = new Set<IndexedLine>();
  // The leaf: the last message or system line (progress and attachment lines can dangle off a branch).
  let current: IndexedLine | undefined =
    side.findLast((line) =>
      ["user", "assistant", "system"].includes(stringAt(line.value, "type") ?? ""),
    ) ?? side.at(-1);
  while (current !== undefined && !chain.has(current)) {
    chain.add(current);
    const parentUuid = ownValue(current.value, "parentUuid");
    const logical = stringAt(current.value, "logicalParentUuid");
    const link = typeof parentUuid === "string" ? parentUuid : logical;
    let next: IndexedLine | undefined;
    if (link !== undefined) {
      next = byUuid.get(link);
      if (next === undefined || !sideSet.has(next)) next = before(current);
    }
    current = next;
  }

  const included = new Set(chain);
  const messageIds = new Set<string>();
  for (const line of chain) {
    const id = messageIdOf(line);
    if (stringAt(line.value, "type") === "assistant" && id !== undefined) messageIds.add(id);
  }
  for (const line of side) {
    const id = messageIdOf(line);
    if (stringAt(line.value, "type") === "assistant" && id !== undefined && messageIds.has(id))
      included.add(line);
  }
  const callIds = new Set<string>();
  for (const line of included) {
    const content = contentOf(line.value);
    if (stringAt(line.value, "type") !== "assistant" || !Array.isArray(content)) continue;
    for (const block of content)
      if (isJsonObject(block) && ownValue(block, "type") === "tool_use") {
        const id = ownValue(block, "id");
        if (typeof id === "string") callIds.add(id);
      }
  }
  for (const line of side) {
    const content = contentOf(line.value);
    if (included.has(line) || stringAt(line.value, "type") !== "user" || !Array.isArray(content))
      continue;
    const answers = content.some((block) => {
      const answered = isJsonObject(block) ? stringAt(block, "tool_use_id") : undefined;
      return answered !== undefined && callIds.has(answered);
    });
    if (answers) included.add(line);
  }

  let branchCount = 0;
  for (const line of side)
    if (!included.has(line) && isConversationType(stringAt(line.value, "type"))) branchCount += 1;
  return { lines: side.filter((line) => included.has(line)), branchCount };
}

/** The key that groups a sidechain line: its agentId, else the uuid of the root its parents lead to. */
function sidechainKeys(
  lines: readonly IndexedLine[],
  byUuid: ReadonlyMap<string, IndexedLine>,
): Map<IndexedLine, string> {
  const keys = new Map<IndexedLine, string>();
  const inSidechain = new Set(lines);
  const rootOf = (line: IndexedLine): string => {
    const path: IndexedLine[] = [];
    let current: IndexedLine = line;
    let key: string | undefined;
    for (;;) {
      const known = keys.get(current);
      if (known !== undefined) {
        key = known;
        break;
      }
      path.push(current);
      const parentUuid = stringAt(current.value, "parentUuid");
      const parent = parentUuid === undefined ? undefined : byUuid.get(parentUuid);
      if (parent === undefined || !inSidechain.has(parent) || path.includes(parent)) {
        key = `root:${stringAt(current.value, "uuid")}`;
        break;
      }
      current = parent;
    }
    for (const step of path) keys.set(step, key);
    return key;
  };
  for (const line of lines) {
    const agentId = stringAt(line.value, "agentId");
    if (agentId !== undefined && agentId !== "") keys.set(line, `agent:${agentId}`);
  }
  for (const line of lines) if (!keys.has(line)) rootOf(line);
  return keys;
}

/**
 * The inline sidechains among `sideLines` (the file's sidechain lines with a uuid, each uuid
 * once, in file order), grouped by agentId, else by the root their parents lead to. Of
 * `byUuid`, only the lines of `sideLines` count (a parent elsewhere ends a sidechain's chain):
 * the streaming reader passes a map of those lines alone.
 */
export function selectSidechains(
  sideLines: readonly IndexedLine[],
  byUuid: ReadonlyMap<string, IndexedLine>,
): Sidechain[] {
  const keys = sidechainKeys(sideLines, byUuid);
  const groups = new Map<string, IndexedLine[]>();
  for (const line of sideLines) {
    const key = keys.get(line) as string;
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [line]);
    else group.push(line);
  }
  const sidechains: Sidechain[] = [];
  for (const [key, lines] of groups) {
    const first = lines[0] as IndexedLine;
    const sidechain: Sidechain = {
      rootUuid: stringAt(first.value, "uuid") as string,
      thread: selectChain(lines, byUuid),
    };
    if (key.startsWith("agent:")) sidechain.agentId = key.slice("agent:".length);
    sidechains.push(sidechain);
  }
  return sidechains;
}

/** The file's conversations: the main thread and each inline sidechain. */
export function selectConversations(all: readonly IndexedLine[]): Conversations {
  const byUuid = new Map<string, IndexedLine>();
  const unique: IndexedLine[] = [];
  let duplicateCount = 0;
  for (const line of all) {
    const uuid = stringAt(line.value, "uuid");
    if (uuid !== undefined) {
      if (byUuid.has(uuid)) {
        duplicateCount += 1;
        continue;
      }
      byUuid.set(uuid, line);
    }
    unique.push(line);
  }
  const threaded = unique.filter((line) => stringAt(line.value, "uuid") !== undefined);
  const main = threaded.filter((line) => ownValue(line.value, "isSidechain") !== true);
  if (main.length === 0 && threaded.length > 0)
    return {
      main: selectChain(threaded, byUuid),
      sidechains: [],
      subagentFile: true,
      duplicateCount,
      unique,
    };
  const sideLines = threaded.filter((line) => ownValue(line.value, "isSidechain") === true);
  const sidechains = selectSidechains(sideLines, byUuid);
  return {
    main: selectChain(main, byUuid),
    sidechains,
    subagentFile: false,
    duplicateCount,
    unique,
  };
}
