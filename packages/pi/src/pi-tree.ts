// Which entries of a session file make up its conversation, the way pi
// 0.73.1 builds a session's context: v1 files are one linear list (pi
// migrates them to a chain in file order); from v2 on the leaf is the last
// entry in file order and the conversation is its parentId path to the
// root. Entries off that path are abandoned branches. Picks entries only.
import { type JsonObject, ownValue } from "@txcript/core";
import type { PiSession } from "./pi-schema.js";
import { isHeader, stringAt, versionOf } from "./pi-schema.js";

/** Entry types whose content reaches the model (pi's buildSessionContext). */
const conversationTypes = new Set(["message", "custom_message", "branch_summary", "compaction"]);

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

export function selectPath(session: PiSession): PiPath {
  const values: JsonObject[] = [];
  for (const line of session.lines) if (line.value !== undefined) values.push(line.value);
  const header = isHeader(values[0]) ? values[0] : undefined;
  const version = versionOf(header);
  // pi drops every `session` line from the entries, wherever it is.
  const entries = values.filter((value) => ownValue(value, "type") !== "session");
  if (version < 2) return { header, version, entries, path: entries, abandonedCount: 0 };

  // A repeated id names its last entry, as pi's index (a Map filled in file order) does.
  const byId = new Map<string, JsonObject>();
  for (const entry of entries) {
    const id = stringAt(entry, "id");
    if (id !== undefined) byId.set(id, entry);
  }
  const reversed: JsonObject[] = [];
  const seen = new Set<JsonObject>();
  let current: JsonObject | undefined = entries.at(-1);
  // pi follows parentId until it names nothing; a cycle (pi would loop) ends the walk here.
  while (current !== undefined && !seen.has(current)) {
    seen.add(current);
    reversed.push(current);
    const parentId = ownValue(current, "parentId");
    current = typeof parentId === "string" && parentId !== "" ? byId.get(parentId) : undefined;
  }
  const path = reversed.reverse();
  let abandonedCount = 0;
  for (const entry of entries)
    if (!seen.has(entry) && conversationTypes.has(stringAt(entry, "type") ?? ""))
      abandonedCount += 1;
  return { header, version, entries, path, abandonedCount };
}
