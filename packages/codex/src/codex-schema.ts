// The native body of a Codex rollout: its lines, each kept as the exact text
// Codex wrote beside the JSON value parsed from it (a line that is not JSON
// is kept as text, as Codex itself skips it), so serialize(parse(s)) === s
// byte for byte. The older whole-document `{session, items}` rollouts are
// kept as their text and value. Mapping to Common is codex-to-common.ts.
import {
  isJsonObject,
  type Json,
  type JsonObject,
  joinJsonLines,
  ownValue,
  parseJson,
  quote,
  splitJsonLines,
  TxcriptError,
  writtenJsonLine,
} from "@txcript/core";

export const harness = "codex";

/** One line: the text as written, its JSON object (absent for a blank or non-JSON line). */
export interface CodexLine {
  readonly text: string;
  readonly value?: JsonObject;
  /** True when the line holds text that is not a JSON object (Codex skips such lines). */
  readonly invalid?: boolean;
}

/** A JSON-lines rollout (every era from the 2025 bare header on). */
export interface CodexLinesRollout {
  readonly kind: "lines";
  readonly lines: readonly CodexLine[];
  readonly finalNewline: boolean;
  /**
   * A thread name for the store's `session_index.jsonl`, when fromCommon had
   * a title: not part of the rollout text (Codex keeps names outside it).
   */
  readonly title?: string;
  /**
   * Rollouts of the subagents this session spawned (their session_meta names
   * it as parent), when the store found them: not part of this file's text.
   */
  readonly subagents?: readonly CodexLinesRollout[];
}

/** A pre-2025 `.json` rollout: one document `{session: {...}, items: [...]}`. */
export interface CodexDocumentRollout {
  readonly kind: "document";
  readonly text: string;
  readonly value: JsonObject;
}

export type CodexRollout = CodexLinesRollout | CodexDocumentRollout;

/** The envelope line types of 0.1x–0.171 rollouts (`{timestamp, type, payload}`). */
export function isEnvelope(value: JsonObject): boolean {
  return typeof ownValue(value, "type") === "string" && isJsonObject(ownValue(value, "payload"));
}

/** The pre-envelope header `{id, timestamp, instructions?, git?}` (no `type`). */
export function isBareHeader(value: JsonObject): boolean {
  return (
    ownValue(value, "type") === undefined &&
    ownValue(value, "record_type") === undefined &&
    typeof ownValue(value, "id") === "string" &&
    typeof ownValue(value, "timestamp") === "string"
  );
}

function isSessionMetaLine(value: JsonObject): boolean {
  return ownValue(value, "type") === "session_meta" && isJsonObject(ownValue(value, "payload"));
}

function isDocumentRollout(value: Json): value is JsonObject {
  return (
    isJsonObject(value) &&
    isJsonObject(ownValue(value, "session")) &&
    Array.isArray(ownValue(value, "items"))
  );
}

/**
 * A line fromCommon wrote: its text, and the value parsed from that text only
 * when asked, so a long written session is held once, as text.
 */
export function writtenLine(text: string): CodexLine {
  return writtenJsonLine(text, harness);
}

function parseDocument(text: string, file: { file?: string }): CodexDocumentRollout | undefined {
  // A one-line JSONL rollout is also one JSON object: only `{session, items}` is a document.
  if (!looksLikeDocument(text.trimStart())) return undefined;
  let value: Json;
  try {
    value = JSON.parse(text) as Json;
  } catch {
    return undefined;
  }
  if (!isDocumentRollout(value)) return undefined;
  // Parse again through core for its error mapping (depth) — JSON.parse succeeded above.
  return { kind: "document", text, value: parseJson(text, { harness, ...file }) as JsonObject };
}

/** A document rollout's text starts so (after leading whitespace); a JSON-lines rollout never does. */
export function looksLikeDocument(start: string): boolean {
  return start.startsWith("{") && /^\{\s*"(session|items)"\s*:/.test(start);
}

/**
 * Reads a JSON-lines rollout one line at a time, as parseRollout does (the
 * streaming reader uses it too): the first JSON object must be a
 * `session_meta` line or a pre-envelope header, as Codex requires; later
 * lines that are not JSON objects are kept verbatim and skipped on reading.
 */
export class RolloutLineParser {
  #sawHead = false;
  #number = 0;
  readonly #file: { file?: string };

  constructor(options: { file?: string } = {}) {
    this.#file = options.file === undefined ? {} : { file: options.file };
  }

  line(lineText: string): CodexLine {
    this.#number += 1;
    const number = this.#number;
    const file = this.#file;
    if (lineText.trim() === "") return { text: lineText };
    if (!this.#sawHead) {
      const value = parseJson(lineText, { harness, ...file, line: number });
      if (!isJsonObject(value) || !(isSessionMetaLine(value) || isBareHeader(value))) {
        throw new TxcriptError("INVALID_DOCUMENT", "a rollout must start with session metadata", {
          harness,
          location: { ...file, line: number },
          hint: `expected {"timestamp":…,"type":"session_meta","payload":{…}}, got ${quote(lineText, 80)}`,
        });
      }
      this.#sawHead = true;
      return { text: lineText, value };
    }
    let value: Json | undefined;
    try {
      value = JSON.parse(lineText) as Json;
    } catch {
      value = undefined;
    }
    // Through core again only when JSON.parse succeeded, so depth errors stay TxcriptError.
    if (value !== undefined) value = parseJson(lineText, { harness, ...file, line: number });
    return isJsonObject(value) ? { text: lineText, value } : { text: lineText, invalid: true };
  }

  /** After the last line: a rollout without session metadata is refused. */
  end(): void {
    if (this.#sawHead) return;
    throw new TxcriptError("INVALID_DOCUMENT", "the rollout is empty", {
      harness,
      ...(this.#file.file === undefined ? {} : { location: { file: this.#file.file } }),
      hint: "a rollout starts with a session_meta line",
    });
  }
}

/** Split rollout text into lines (see RolloutLineParser); a `{session, items}` text is a document. */
export function parseRollout(text: string, options: { file?: string } = {}): CodexRollout {
  const file = options.file === undefined ? {} : { file: options.file };
  const document = parseDocument(text, file);
  if (document) return document;
  const parser = new RolloutLineParser(options);
  const { lines, finalNewline } = splitJsonLines(text, (lineText) => parser.line(lineText));
  parser.end();
  return { kind: "lines", lines, finalNewline };
}

export function serializeRollout(rollout: CodexRollout): string {
  if (rollout.kind === "document") return rollout.text;
  return joinJsonLines(rollout.lines, rollout.finalNewline);
}
