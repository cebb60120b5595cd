// The native body of a pi session file: its lines, each kept as the exact
// text pi wrote beside the JSON object parsed from it, so
// serialize(parse(s)) === s byte for byte and unknown entry types, roles and
// keys pass through. This module parses and prints lines and reads the
// header; it does not walk the tree (pi-tree.ts) or map to Common.
import {
  type JsonObject,
  joinJsonLines,
  ownValue,
  parseJsonObjectLines,
  writtenJsonLine,
} from "@txcript/core";

export const harness = "pi";

/** The session format version this package writes (pi's CURRENT_SESSION_VERSION since 0.35.0). */
export const currentVersion = 3;

/** One line of a session file: the text as written, and its JSON object (absent for a blank line). */
export interface PiLine {
  readonly text: string;
  readonly value?: JsonObject;
}

/** A whole session file. `finalNewline` is whether the text ended with "\n". */
export interface PiSession {
  readonly lines: readonly PiLine[];
  readonly finalNewline: boolean;
}

/** A line fromCommon wrote: its text, parsed only when asked (and then kept). */
export function writtenLine(text: string): PiLine {
  return writtenJsonLine(text, harness);
}

/** Text → lines; pi skips blank lines, so they are kept verbatim and ignored. */
export function parseSession(text: string, options: { file?: string } = {}): PiSession {
  const file = options.file === undefined ? {} : { file: options.file };
  return parseJsonObjectLines(text, { harness, ...file });
}

export function serializeSession(session: PiSession): string {
  return joinJsonLines(session.lines, session.finalNewline);
}

/** A non-negative safe integer at `key`, else undefined. */
export function countAt(object: JsonObject, key: string): number | undefined {
  const value = ownValue(object, key);
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

export { isHeader } from "./pi-sniff.js";

/** The header's format version: a missing version is v1 (pi's own rule). */
export function versionOf(header: JsonObject | undefined): number {
  const version = header === undefined ? undefined : ownValue(header, "version");
  return typeof version === "number" && Number.isFinite(version) ? version : 1;
}

export { arrayAt, objectAt, stringAt } from "@txcript/core";
