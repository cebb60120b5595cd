// What discovery needs from a recording without a whole parse: the session
// id, kind, times, summary and first prompt, read from the head (and, for
// JSONL, the tail, where `$set` records update lastUpdated and summary) of
// the file. Also the "resumable content" rule Gemini CLI's cleanup and
// listing apply, so the store refuses to write a file Gemini would delete.
import { promises as fs } from "node:fs";
import {
  isJsonObject,
  type Json,
  type JsonObject,
  ownValue,
  parseJsonObject,
  readHead,
  readTail,
} from "@txcript/core";
import { replay } from "./gemini-cli-records.js";
import type { GeminiCliSession } from "./gemini-cli-schema.js";

export interface Peek {
  sessionId?: string;
  kind?: string;
  startTime?: string;
  lastUpdated?: string;
  summary?: string;
  prompt?: string;
  directory?: string;
}

export const headBytes = 65_536;
const wholeJsonBytes = 4 * 1024 * 1024;

/**
 * A part list as Gemini CLI renders it to decide whether a message counts
 * (partToString, verbose): nested lists flatten in order. Iterative, so a
 * list nested 100,000 deep costs heap, not stack.
 */
export function renderContent(content: Json | undefined): string {
  let rendered = "";
  const stack: (Json | undefined)[] = [content];
  while (stack.length > 0) {
    const next = stack.pop();
    if (Array.isArray(next)) {
      for (let index = next.length - 1; index >= 0; index -= 1) stack.push(next[index]);
    } else rendered += renderPart(next);
  }
  return rendered;
}

function renderPart(content: Json | undefined): string {
  if (content === undefined || content === null) return "";
  if (typeof content === "string") return content;
  if (!isJsonObject(content)) return "";
  const text = ownValue(content, "text");
  const thought = ownValue(content, "thought");
  if (thought !== undefined) return `[Thought: ${templateText(thought)}]`;
  if (ownValue(content, "functionCall") !== undefined) return "[Function Call]";
  if (ownValue(content, "functionResponse") !== undefined) return "[Function Response]";
  if (ownValue(content, "inlineData") !== undefined) return "[Media]";
  if (ownValue(content, "fileData") !== undefined) return "[File Data]";
  return typeof text === "string" ? text : "";
}

const comma: unique symbol = Symbol("comma");

/**
 * What a template literal prints for a JSON value (an array as its
 * elements joined by commas, null inside one as nothing, an object as
 * "[object Object]"), without recursing: a value nested 100,000 deep would
 * overflow String().
 */
function templateText(value: Json): string {
  if (!Array.isArray(value)) return String(value);
  const pieces: string[] = [];
  const stack: (Json | typeof comma)[] = [value];
  while (stack.length > 0) {
    const next = stack.pop() as Json | typeof comma;
    if (next === comma) pieces.push(",");
    else if (Array.isArray(next))
      for (let index = next.length - 1; index >= 0; index -= 1) {
        stack.push(next[index] as Json);
        if (index > 0) stack.push(comma);
      }
    else if (next !== null) pieces.push(String(next));
  }
  return pieces.join("");
}

const ignoredPrefixes = ["/", "?", "<session_context>", "<hook_context>"];
const injectedTags = ["session_context", "hook_context"] as const;

/** The tag of a user message Gemini CLI injected itself (`<session_context>…`), from its rendered text. */
export function injectedTag(rendered: string): (typeof injectedTags)[number] | undefined {
  const text = rendered.trim();
  return injectedTags.find((tag) => text.startsWith(`<${tag}>`));
}

/** Gemini CLI's isResumableMessageRecord. */
export function isResumableRecord(record: JsonObject): boolean {
  const text = renderContent(ownValue(record, "content")).trim();
  const type = ownValue(record, "type");
  if (type === "user")
    return text !== "" && !ignoredPrefixes.some((prefix) => text.startsWith(prefix));
  if (type === "gemini") {
    const calls = ownValue(record, "toolCalls");
    const thoughts = ownValue(record, "thoughts");
    return (
      text !== "" ||
      (Array.isArray(calls) && calls.length > 0) ||
      (Array.isArray(thoughts) && thoughts.length > 0)
    );
  }
  return false;
}

/** Whether Gemini CLI would keep (and list) this recording: some message is resumable. */
export function hasResumableContent(session: GeminiCliSession): boolean {
  return replay(session).messages.some(({ record }) => isResumableRecord(record));
}

function take(peek: Peek, value: JsonObject): void {
  for (const key of ["sessionId", "kind", "startTime", "lastUpdated", "summary"] as const) {
    const field = ownValue(value, key);
    if (typeof field === "string") peek[key] = field;
  }
  const directories = ownValue(value, "directories");
  if (Array.isArray(directories) && typeof directories[0] === "string")
    peek.directory = directories[0];
}

function promptOf(record: JsonObject): string | undefined {
  if (ownValue(record, "type") !== "user" || !isResumableRecord(record)) return undefined;
  const text = renderContent(ownValue(record, "content")).replace(/\s+/g, " ").trim();
  return text.length > 100 ? `${text.slice(0, 100)}…` : text;
}

function takePrompt(peek: Peek, record: JsonObject): void {
  if (peek.prompt !== undefined) return;
  const prompt = promptOf(record);
  if (prompt !== undefined) peek.prompt = prompt;
}

/**
 * Reads the records of `texts` into `peek`, leniently (a cut line is skipped).
 * Only a line that can still change the peek is parsed, which keeps a
 * listing's cost per session flat with its size: one holding `$set` or
 * `Id"` (as a `"sessionId"` key does; searched for by their rare first
 * characters, several times faster than whole words), one holding `user`
 * while no prompt is known, or one with a `\u` escape (which could spell
 * any of those). A JSON line of such a kind holds its key or type in plain
 * text or escaped, so no line that matters is skipped.
 */
function peekLines(lines: Iterable<string>, peek: Peek): void {
  for (const line of lines) {
    if (
      !line.includes("$set") &&
      !line.includes('Id"') &&
      (peek.prompt !== undefined || !line.includes("user")) &&
      !line.includes("\\u")
    )
      continue;
    const record = parseJsonObject(line);
    if (record === undefined) continue;
    const set = ownValue(record, "$set");
    if (isJsonObject(set as Json)) take(peek, set as JsonObject);
    else if (typeof ownValue(record, "id") === "string") takePrompt(peek, record);
    else if (typeof ownValue(record, "sessionId") === "string") take(peek, record);
  }
}

/**
 * What a JSONL recording's two ends say (core readFileEnds: a 64 KiB head
 * and tail, or the whole file up to 128 KiB): the listing's synchronous peek.
 */
export function peekJsonlEnds(head: readonly string[], tail: readonly string[]): Peek {
  const peek: Peek = {};
  peekLines([...head, ...tail], peek);
  return peek;
}

/** The head (and tail) of one recording, read leniently; undefined fields were not found. */
export async function peekRecording(file: string, size: number): Promise<Peek> {
  const peek: Peek = {};
  if (file.endsWith(".json")) {
    if (size > wholeJsonBytes) {
      const head = await readHead(file, headBytes);
      const id = /"sessionId"\s*:\s*"([^"\\]*)"/.exec(head);
      if (id?.[1] !== undefined) peek.sessionId = id[1];
      return peek;
    }
    try {
      const value = JSON.parse(await fs.readFile(file, "utf8")) as Json;
      if (!isJsonObject(value)) return peek;
      take(peek, value);
      const messages = ownValue(value, "messages");
      if (Array.isArray(messages))
        for (const message of messages) if (isJsonObject(message)) takePrompt(peek, message);
    } catch {
      // Unreadable: no session id, so discovery skips it.
    }
    return peek;
  }
  const head = await readHead(file, headBytes);
  const texts = size > headBytes ? [head, await readTail(file, size, headBytes)] : [head];
  peekLines(
    texts.flatMap((text) => text.split("\n")),
    peek,
  );
  return peek;
}
