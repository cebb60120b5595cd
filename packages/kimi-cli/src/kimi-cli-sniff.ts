// Whether a text is a Kimi CLI context file: the codec's `detect`, and the
// reading of one line as Kimi CLI's Context.restore reads it (recordOf),
// with no runtime import (types only), so @txcript/harnesses/sniffs (the
// CLI's detection) tells a context file apart without loading the codec or
// a schema. kimi-cli-schema.ts re-exports what it reads lines with.
import type { Json, JsonObject } from "@txcript/core";

function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A context line as Kimi CLI's Context.restore reads it. */
export type KimiRecord =
  | { kind: "system-prompt"; content: string }
  | { kind: "usage"; tokenCount: number }
  | { kind: "checkpoint"; id: number; txcript?: TxcriptMeta }
  | { kind: "message"; value: JsonObject }
  /** A line restore skips (it logs a warning): what fails is said in `why`. */
  | { kind: "skipped"; why: string };

/**
 * What txcript records of a session it wrote, on the first `_checkpoint`
 * line under the key `txcript` (Context.restore reads only a checkpoint's
 * role and id, so Kimi CLI ignores it): the session id, start time, work dir
 * and title, which context.jsonl has no place for.
 */
export interface TxcriptMeta {
  sessionId?: string;
  timestamp?: string;
  cwd?: string;
  title?: string;
}

/** The key of txcript's meta on a `_checkpoint` line. */
export const txcriptKey = "txcript";

function own(object: JsonObject, key: string): Json | undefined {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

const roles = new Set(["system", "user", "assistant", "tool"]);

function optionalString(value: Json | undefined): boolean {
  return value === undefined || value === null || typeof value === "string";
}

/** Why kosong's ContentPart validation rejects `part`, or undefined when it accepts it. */
export function partProblem(part: Json): string | undefined {
  if (!isJsonObject(part)) return "a content part is not an object";
  const type = own(part, "type");
  if (typeof type !== "string") return "a content part has no string type";
  const url = (key: string): string | undefined => {
    const payload = own(part, key);
    if (!isJsonObject(payload)) return `a ${type} part has no ${key} object`;
    if (typeof own(payload, "url") !== "string")
      return `a ${type} part's ${key}.url is not a string`;
    if (!optionalString(own(payload, "id"))) return `a ${type} part's ${key}.id is not a string`;
    return undefined;
  };
  switch (type) {
    case "text":
      return typeof own(part, "text") === "string" ? undefined : "a text part has no string text";
    case "think":
      if (typeof own(part, "think") !== "string") return "a think part has no string think";
      return optionalString(own(part, "encrypted"))
        ? undefined
        : "a think part's encrypted is not a string";
    case "image_url":
      return url("image_url");
    case "audio_url":
      return url("audio_url");
    case "video_url":
      return url("video_url");
    default:
      return `a content part of unknown type ${JSON.stringify(type)}`;
  }
}

function toolCallProblem(call: Json): string | undefined {
  if (!isJsonObject(call)) return "a tool call is not an object";
  const type = own(call, "type");
  if (type !== undefined && type !== "function") return "a tool call's type is not function";
  if (typeof own(call, "id") !== "string") return "a tool call has no string id";
  const body = own(call, "function");
  if (!isJsonObject(body)) return "a tool call has no function object";
  if (typeof own(body, "name") !== "string") return "a tool call's function has no string name";
  const args = own(body, "arguments");
  if (!(args === null || typeof args === "string"))
    return "a tool call's function.arguments is missing or not a string";
  const extras = own(call, "extras");
  if (!(extras === undefined || extras === null || isJsonObject(extras)))
    return "a tool call's extras is not an object";
  return undefined;
}

/** Why kosong's Message model rejects `value`, or undefined when it accepts it (extra keys are ignored). */
export function messageProblem(value: JsonObject): string | undefined {
  const role = own(value, "role");
  if (typeof role !== "string" || !roles.has(role))
    return `role ${JSON.stringify(role)} is not a message role`;
  if (!Object.hasOwn(value, "content")) return "a message has no content";
  const content = own(value, "content");
  if (Array.isArray(content)) {
    for (const part of content) {
      const problem = partProblem(part);
      if (problem !== undefined) return problem;
    }
  } else if (!(content === null || typeof content === "string"))
    return "a message's content is not a string, a list or null";
  const calls = own(value, "tool_calls");
  if (Array.isArray(calls)) {
    for (const call of calls) {
      const problem = toolCallProblem(call);
      if (problem !== undefined) return problem;
    }
  } else if (!(calls === undefined || calls === null))
    return "a message's tool_calls is not a list";
  if (!optionalString(own(value, "tool_call_id")))
    return "a message's tool_call_id is not a string";
  if (!optionalString(own(value, "name"))) return "a message's name is not a string";
  const partial = own(value, "partial");
  if (!(partial === undefined || partial === null || typeof partial === "boolean"))
    return "a message's partial is not a boolean";
  return undefined;
}

/** A line as Kimi CLI's Context.restore reads it (soul/context.py _apply_context_record). */
export function recordOf(value: JsonObject): KimiRecord {
  const role = own(value, "role");
  if (typeof role !== "string") return { kind: "skipped", why: "the line has no string role" };
  if (role === "_system_prompt") {
    const content = own(value, "content");
    return typeof content === "string"
      ? { kind: "system-prompt", content }
      : { kind: "skipped", why: "a _system_prompt line's content is not a string" };
  }
  if (role === "_usage") {
    const count = own(value, "token_count");
    return typeof count === "number" && Number.isInteger(count)
      ? { kind: "usage", tokenCount: count }
      : { kind: "skipped", why: "a _usage line's token_count is not an integer" };
  }
  if (role === "_checkpoint") {
    const id = own(value, "id");
    if (typeof id !== "number" || !Number.isInteger(id))
      return { kind: "skipped", why: "a _checkpoint line's id is not an integer" };
    const marked = own(value, txcriptKey);
    if (!isJsonObject(marked)) return { kind: "checkpoint", id };
    const meta: TxcriptMeta = {};
    for (const [field, key] of [
      ["sessionId", "session_id"],
      ["timestamp", "timestamp"],
      ["cwd", "cwd"],
      ["title", "title"],
    ] as const) {
      const text = own(marked, key);
      if (typeof text === "string") meta[field] = text;
    }
    return { kind: "checkpoint", id, txcript: meta };
  }
  const problem = messageProblem(value);
  return problem === undefined ? { kind: "message", value } : { kind: "skipped", why: problem };
}

/**
 * A line as Kimi CLI writes one: a bookkeeping record (`_system_prompt`,
 * `_usage`, `_checkpoint`) or a kosong message (a role, and content as a
 * string or a list of typed parts, never Claude Code's `message` wrapper or
 * another harness's `type`/`uuid` fields).
 */
export function looksLikeLine(value: unknown): boolean {
  if (!isJsonObject(value)) return false;
  if (
    Object.hasOwn(value, "type") ||
    Object.hasOwn(value, "uuid") ||
    Object.hasOwn(value, "message")
  )
    return false;
  const record = recordOf(value);
  if (record.kind === "skipped") return false;
  if (record.kind !== "message") return true;
  const content = own(value, "content");
  // A bare {role, content: "…"} is also an OpenAI-style chat line: a list must hold kosong part types.
  if (Array.isArray(content))
    return (
      content.length > 0 ||
      Object.hasOwn(value, "tool_calls") ||
      Object.hasOwn(value, "tool_call_id")
    );
  return (
    typeof content === "string" &&
    (Object.keys(value).length === 2 || Object.hasOwn(value, "tool_call_id"))
  );
}

/** At most this much of a line is read to tell whether it is Kimi CLI's. */
const detectBytes = 1_048_576;

/** Kimi CLI's detection: the first non-blank line (its first MiB) is a Kimi CLI record. */
export function kimiCliSniff(text: string): boolean {
  // The first non-blank line is a Kimi CLI record: a bookkeeping line (_system_prompt, _checkpoint, _usage) or a kosong message.
  let start = 0;
  while (start < text.length && start < detectBytes) {
    const end = text.indexOf("\n", start);
    const stop =
      end === -1 ? Math.min(text.length, start + detectBytes) : Math.min(end, start + detectBytes);
    const line = text.slice(start, stop);
    if (line.trim() !== "") {
      try {
        return looksLikeLine(JSON.parse(line));
      } catch {
        return false;
      }
    }
    if (end === -1) return false;
    start = end + 1;
  }
  return false;
}
