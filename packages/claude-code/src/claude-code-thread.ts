// Which lines of a session file make up its conversation. Claude Code
// threads lines by parentUuid → uuid; edits and retries leave abandoned
// branches behind, 1.0.x keeps subagent (sidechain) lines inline, and
// compaction restarts the chain at a boundary whose logicalParentUuid points
// back. This module picks lines; it does not read their content.
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
  /** User/assistant lines left out because they are sidechain (subagent) lines. */
  sidechainCount: number;
  /** User/assistant lines left out because they sit on an abandoned branch. */
  branchCount: number;
  /** Lines dropped because an earlier line has the same uuid. */
  duplicateCount: number;
  /** uuids of compact boundaries the chain crossed through logicalParentUuid. */
  crossedBoundaries: Set<string>;
}

function contentOf(value: JsonObject): Json | undefined {
  const message = objectAt(value, "message");
  return message === undefined ? undefined : ownValue(message, "content");
}

function isConversationType(type: string | undefined): boolean {
  return type === "user" || type === "assistant";
}

/**
 * The thread: the chain from the file's last main-thread line back to its
 * root (crossing compaction through logicalParentUuid; a parent that names
 * no line continues with the line before it in the file), plus the lines
 * that complete it — the other parts of a split assistant message (same
 * message.id) and the user lines answering its tool calls. A file holding
 * only sidechain lines (a 2.x subagent file) is its own thread.
 */
export function selectThread(all: readonly IndexedLine[]): Thread {
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
  const side = main.length > 0 ? main : threaded;
  const sideSet = new Set(side);
  const position = new Map(side.map((line, index) => [line, index]));

  const chain = new Set<IndexedLine>();
  const crossedBoundaries = new Set<string>();
  // The leaf: the last message or system line (progress and attachment lines can dangle off a branch).
  let current: IndexedLine | undefined =
    side.findLast((line) =>
      ["user", "assistant", "system"].includes(stringAt(line.value, "type") ?? ""),
    ) ?? side.at(-1);
  while (current !== undefined && !chain.has(current)) {
    chain.add(current);
    const parentUuid = ownValue(current.value, "parentUuid");
    const logical = stringAt(current.value, "logicalParentUuid");
    let next: IndexedLine | undefined;
    if (typeof parentUuid === "string") {
      next = byUuid.get(parentUuid);
      if (next === undefined || !sideSet.has(next)) next = side[(position.get(current) ?? 0) - 1];
    } else if (logical !== undefined) {
      next = byUuid.get(logical);
      if (next !== undefined && sideSet.has(next))
        crossedBoundaries.add(stringAt(current.value, "uuid") as string);
      else next = undefined;
    }
    current = next;
  }

  // Complete the chain: split parts of its assistant messages, then answers to its calls.
  const messageIds = new Set<string>();
  const callIds = new Set<string>();
  for (const line of chain) {
    const message = objectAt(line.value, "message");
    const id = message === undefined ? undefined : stringAt(message, "id");
    if (stringAt(line.value, "type") === "assistant" && id !== undefined) messageIds.add(id);
  }
  const included = new Set(chain);
  for (const line of side) {
    const message = objectAt(line.value, "message");
    const id = message === undefined ? undefined : stringAt(message, "id");
    if (stringAt(line.value, "type") === "assistant" && id !== undefined && messageIds.has(id))
      included.add(line);
  }
  for (const line of included) {
    const content = contentOf(line.value);
    if (stringAt(line.value, "type") !== "assistant" || !Array.isArray(content)) continue;
    for (const block of content)
      if (
        isJsonObject(block) &&
        ownValue(block, "type") === "tool_use" &&
        typeof ownValue(block, "id") === "string"
      )
        callIds.add(ownValue(block, "id") as string);
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

  let sidechainCount = 0;
  let branchCount = 0;
  for (const line of threaded) {
    if (included.has(line) || !isConversationType(stringAt(line.value, "type"))) continue;
    if (sideSet.has(line)) branchCount += 1;
    else sidechainCount += 1;
  }
  const lines = unique.filter((line) => included.has(line));
  return { lines, sidechainCount, branchCount, duplicateCount, crossedBoundaries };
}
