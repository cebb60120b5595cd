// Reading the parts of a pi session that are not messages: the context
// txcript recorded in an extension message, the lineage custom entry, and
// the session name. Used by pi-to-common.ts.
import { contextKinds, type JsonObject, type Lineage, type MessageContext } from "@txcript/core";
import { isoTimestamp } from "./pi-content.js";
import { objectAt, stringAt } from "./pi-schema.js";

/** The context txcript recorded in an extension message's details, if that is all they hold. */
export function recordedContext(details: JsonObject | undefined): MessageContext | undefined {
  const mark = details === undefined ? undefined : objectAt(details, "txcript");
  const context = mark === undefined ? undefined : objectAt(mark, "context");
  if (details === undefined || Object.keys(details).length !== 1 || mark === undefined)
    return undefined;
  if (context === undefined || Object.keys(mark).length !== 1) return undefined;
  const kind = stringAt(context, "kind");
  const source = stringAt(context, "source");
  const keys = Object.keys(context).filter((key) => key !== "kind" && key !== "source");
  if (keys.length > 0 || !contextKinds.includes(kind as MessageContext["kind"])) return undefined;
  if (Object.hasOwn(context, "source") && (source === undefined || source === "")) return undefined;
  return { kind: kind as MessageContext["kind"], ...(source === undefined ? {} : { source }) };
}

export function readLineage(data: JsonObject | undefined): Lineage | undefined {
  if (data === undefined) return undefined;
  const keys = ["harness", "id", "txcriptVersion", "convertedAt"];
  if (Object.keys(data).length !== keys.length) return undefined;
  const values = keys.map((key) => stringAt(data, key));
  if (values.some((value) => value === undefined || value === "")) return undefined;
  const [harness, id, txcriptVersion, convertedAt] = values as string[];
  if (isoTimestamp(convertedAt) !== convertedAt) return undefined;
  return {
    harness: harness as string,
    id: id as string,
    txcriptVersion: txcriptVersion as string,
    convertedAt: convertedAt as string,
  };
}

/** The latest session_info name in the file, as pi shows it (a blank name clears it). */
export function readTitle(entries: readonly JsonObject[]): string | undefined {
  for (let index = entries.length - 1; index >= 0; index -= 1) {
    const entry = entries[index] as JsonObject;
    if (stringAt(entry, "type") !== "session_info") continue;
    const name = stringAt(entry, "name");
    return name !== undefined && name.trim() !== "" ? name : undefined;
  }
  return undefined;
}
