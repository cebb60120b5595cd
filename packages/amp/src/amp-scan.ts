// A shallow scan of the start of a thread file for discovery: walks the
// top-level object, decodes small scalar keys (v, id, created, title) and
// the env object, and skips every other value by bracket matching, counting
// the messages array's elements when it ends inside the text. Never builds
// the messages themselves, so listing a 50 MB thread costs one head read.
import { isJsonObject, type Json, ownValue, parseJson } from "@txcript/core";
import { pathFromFileUri } from "./amp-uri.js";

export interface ThreadHead {
  /** Amp's revision counter: its presence is the format sniff. */
  v?: number;
  id?: string;
  created?: number;
  title?: string;
  cwd?: string;
  /** Known only when the messages array ends inside the scanned text. */
  messageCount?: number;
}

class Cut extends Error {}

const quoteCode = 0x22;
const backslashCode = 0x5c;

/**
 * Whether `code` is whitespace to `/\s/`, which this scan has always
 * skipped (a superset of JSON's four): the common cases by comparison, the
 * rare non-ASCII ones through the regex itself so the two cannot disagree.
 */
function isSpace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  return code >= 0xa0 && /\s/.test(String.fromCharCode(code));
}

/**
 * Index just past the JSON string starting at `start` (a quote): the next
 * quote not escaped by an odd run of backslashes. Found with indexOf, so the
 * cost is one native search per string, not a JavaScript step per character.
 */
function stringEnd(text: string, start: number): number {
  let from = start + 1;
  for (;;) {
    const quote = text.indexOf('"', from);
    if (quote === -1) throw new Cut();
    let before = quote - 1;
    while (before > start && text.charCodeAt(before) === backslashCode) before -= 1;
    if ((quote - 1 - before) % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}

/** Index just past the value starting at `start`; `elements` counts a top-level array's items. */
function valueEnd(text: string, start: number, elements?: { count: number }): number {
  const first = text.charCodeAt(start);
  if (first === quoteCode) return stringEnd(text, start);
  if (first !== 0x7b && first !== 0x5b) {
    const match = /^(?:-?[\d.eE+-]+|true|false|null)/.exec(text.slice(start, start + 400));
    if (!match || start + match[0].length >= text.length) throw new Cut();
    return start + match[0].length;
  }
  // Empty when the first character after the bracket that is not space is
  // `]`; otherwise one more element than depth-1 commas.
  let empty = true;
  let next = start + 1;
  while (next < text.length && isSpace(text.charCodeAt(next))) next += 1;
  if (next < text.length && text.charCodeAt(next) !== 0x5d) empty = false;
  let depth = 0;
  let commas = 0;
  const length = text.length;
  for (let index = start; index < length; index += 1) {
    switch (text.charCodeAt(index)) {
      case quoteCode:
        index = stringEnd(text, index) - 1;
        break;
      case 0x7b: // {
      case 0x5b: // [
        depth += 1;
        break;
      case 0x7d: // }
      case 0x5d: // ]
        depth -= 1;
        if (depth === 0) {
          if (elements) elements.count = empty ? 0 : commas + 1;
          return index + 1;
        }
        break;
      case 0x2c: // ,
        if (depth === 1) commas += 1;
        break;
    }
  }
  throw new Cut();
}

function skipSpace(text: string, index: number): number {
  while (index < text.length && isSpace(text.charCodeAt(index))) index += 1;
  if (index >= text.length) throw new Cut();
  return index;
}

function decode(slice: string): Json | undefined {
  try {
    return parseJson(slice);
  } catch {
    return undefined;
  }
}

/** Facts from the start of a thread file; undefined when it is not a JSON object at all. */
export function scanThreadHead(text: string): ThreadHead | undefined {
  return scanThreadStart(text).head;
}

/**
 * scanThreadHead, and whether a longer head could tell more about the keys
 * before `messages`: `settled` is false only when the text ran out before
 * the scan reached `messages` (or the end of the object). Discovery reads
 * more of a file only then, never to count messages. `countMessages: false`
 * stops at `messages`, for a caller that knows the text is not the whole file.
 */
export function scanThreadStart(
  text: string,
  options: { countMessages?: boolean } = {},
): { head: ThreadHead | undefined; settled: boolean } {
  const countMessages = options.countMessages ?? true;
  const head: ThreadHead = {};
  let index = 0;
  let reachedMessages = false;
  try {
    index = skipSpace(text, index);
    if (text[index] !== "{") return { head: undefined, settled: true };
    index += 1;
    for (;;) {
      index = skipSpace(text, index);
      if (text[index] === "}") break;
      if (text[index] === ",") index = skipSpace(text, index + 1);
      if (text[index] !== '"') return { head, settled: true };
      const keyEnd = stringEnd(text, index);
      // A key without escapes is its own text (only compared with plain names below).
      const raw = text.slice(index + 1, keyEnd - 1);
      const key = raw.includes("\\") ? decode(text.slice(index, keyEnd)) : raw;
      index = skipSpace(text, keyEnd);
      if (text[index] !== ":") return { head, settled: true };
      if (key === "messages") {
        reachedMessages = true;
        // The caller knows the array cannot end in this text: stop here.
        if (!countMessages) return { head, settled: true };
      }
      const start = skipSpace(text, index + 1);
      const elements = { count: 0 };
      const end = valueEnd(
        text,
        start,
        key === "messages" && text[start] === "[" ? elements : undefined,
      );
      if (key === "messages") {
        if (text[start] === "[") head.messageCount = elements.count;
        index = end;
        continue;
      }
      const slice = text.slice(start, end);
      if (key === "v" || key === "created") {
        const value = decode(slice);
        if (typeof value === "number") head[key] = value;
      } else if (key === "id" || key === "title") {
        const value = decode(slice);
        if (typeof value === "string") head[key] = value;
      } else if (key === "env") {
        const cwd = cwdOf(decode(slice));
        if (cwd !== undefined) head.cwd = cwd;
      }
      index = end;
    }
  } catch (error) {
    if (!(error instanceof Cut)) throw error;
    return { head, settled: reachedMessages };
  }
  return { head, settled: true };
}

function cwdOf(env: Json | undefined): string | undefined {
  const initial = isJsonObject(env) ? ownValue(env, "initial") : undefined;
  const trees = isJsonObject(initial) ? ownValue(initial, "trees") : undefined;
  const tree = Array.isArray(trees) ? trees[0] : undefined;
  const uri = isJsonObject(tree) ? ownValue(tree, "uri") : undefined;
  return typeof uri === "string" ? pathFromFileUri(uri) : undefined;
}
