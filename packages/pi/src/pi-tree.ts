// Which entries of a session file make up its conversation, the way pi
// 0.73.1 builds a session's context: v1 files are one linear list (pi
// migrates them to a chain in file order); from v2 on the leaf is the last
// entry in file order and the conversation is its parentId path to the
// root. Entries off that path are abandoned branches. Picks entries only.
import { type JsonObject, ownValue } from "@txcript/core";
import type { PiSession } from "./pi-schema.js";
import { isHeader, stringAt, versionOf } from "./pi-schema.js";

/** Entry types whose content reaches the model (pi's buildSessionContext). */
export const conversationTypes = new Set([
  "message",
  "custom_message",
  "branch_summary",
  "compaction",
]);

export interface PiPath {
  /** Line 1 when it is a session header pi accepts. */
  header: JsonObject | undefined;
  version: number;
  /** Every entry after the header, in file order (pi's getEntries). */
  entries: JsonObject[];
  /** The conversation, root first. */
  path: JsonObject[];
  /** Conversation entries (messages, summaries, compactions) off the path. */
  abandonedCount: number;
}

/** The parentId an entry names, when it names one (a non-empty string). */
export function parentIdOf(entry: JsonObject): string | undefined {
  const parentId = ownValue(entry, "parentId");
  return typeof parentId === "string" && parentId !== "" ? parentId : undefined;
}

/** An index from entry key to its last entry (a Map by default; the streaming reader's is typed arrays). */
export interface KeyIndex<K> {
  set(key: K, index: number): void;
  get(key: K): number | undefined;
}

/**
 * The conversation of a v2+ file as entry indices, root first: from the last
 * entry, follow parentId until it names nothing. A repeated id names its last
 * entry, as pi's index (a Map filled in file order) does; a cycle (pi would
 * loop) ends the walk. `id` and `parent` give each entry's keys (pi-tree and
 * the streaming reader, which keeps only these, share the walk).
 */
export function treePath<K>(
  count: number,
  id: (index: number) => K | undefined,
  parent: (index: number) => K | undefined,
  byId: KeyIndex<K> = new Map<K, number>(),
): number[] {
  for (let index = 0; index < count; index += 1) {
    const key = id(index);
    if (key !== undefined) byId.set(key, index);
  }
  const reversed: number[] = [];
  const seen = new Uint8Array(count);
  let current: number | undefined = count > 0 ? count - 1 : undefined;
  while (current !== undefined && seen[current] === 0) {
    seen[current] = 1;
    reversed.push(current);
    const parentId = parent(current);
    current = parentId === undefined ? undefined : byId.get(parentId);
  }
  return reversed.reverse();
}

export function selectPath(session: PiSession): PiPath {
  const values: JsonObject[] = [];
  for (const line of session.lines) if (line.value !== undefined) values.push(line.value);
  const header = isHeader(values[0]) ? values[0] : undefined;
  const version = versionOf(header);
  // pi drops every `session` line from the entries, wherever it is.
  const entries = values.filter((value) => ownValue(value, "type") !== "session");
  if (version < 2) return { header, version, entries, path: entries, abandonedCount: 0 };

  const seen = new Set<JsonObject>();
  const path = treePath(
    entries.length,
    (index) => stringAt(entries[index] as JsonObject, "id"),
    (index) => parentIdOf(entries[index] as JsonObject),
  ).map((index) => {
    const entry = entries[index] as JsonObject;
    seen.add(entry);
    return entry;
  });
  let abandonedCount = 0;
  for (const entry of entries)
    if (!seen.has(entry) && conversationTypes.has(stringAt(entry, "type") ?? ""))
      abandonedCount += 1;
  return { header, version, entries, path, abandonedCount };
}
