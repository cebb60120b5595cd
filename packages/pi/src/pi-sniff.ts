// Whether a text is a pi session: the codec's `detect`, with no runtime
// import (types only), so @txcript/harnesses/sniffs (the CLI's detection)
// tells a session apart without loading the codec or a schema.
import type { JsonObject } from "@txcript/core";

function own(object: JsonObject, key: string): unknown {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

/** The header pi requires on line 1: `{type: "session", id: string}`. */
export function isHeader(value: JsonObject | undefined): value is JsonObject {
  return (
    value !== undefined && own(value, "type") === "session" && typeof own(value, "id") === "string"
  );
}

/** pi's own test: the first line (of at most 64 KiB) is {type: "session", id: string}. */
export function piSniff(text: string): boolean {
  const end = text.indexOf("\n");
  const first = text.slice(0, end === -1 ? Math.min(text.length, 65_536) : Math.min(end, 65_536));
  try {
    const value: unknown = JSON.parse(first);
    return (
      typeof value === "object" &&
      value !== null &&
      !Array.isArray(value) &&
      isHeader(value as JsonObject)
    );
  } catch {
    return false;
  }
}
