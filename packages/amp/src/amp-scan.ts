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

/** Index just past the JSON string starting at `start` (a quote). */
function stringEnd(text: string, start: number): number {
  for (let index = start + 1; index < text.length; index += 1) {
    const character = text[index];
    if (character === "\\") index += 1;
    else if (character === '"') return index + 1;
  }
  throw new Cut();
}

/** Index just past the value starting at `start`; `elements` counts a top-level array's items. */
function valueEnd(text: string, start: number, elements?: { count: number }): number {
  const first = text[start];
  if (first === '"') return stringEnd(text, start);
  if (first !== "{" && first !== "[") {
    const match = /^(?:-?[\d.eE+-]+|true|false|null)/.exec(text.slice(start, start + 400));
    if (!match || start + match[0].length >= text.length) throw new Cut();
    return start + match[0].length;
  }
  let depth = 0;
  let commas = 0;
  let empty = true;
  for (let index = start; index < text.length; index += 1) {
    const character = text[index] as string;
    if (depth === 1 && index > start && !/\s/.test(character) && character !== "]") empty = false;
    if (character === '"') index = stringEnd(text, index) - 1;
    else if (character === "{" || character === "[") depth += 1;
    else if (character === "}" || character === "]") {
      depth -= 1;
      if (depth === 0) {
        if (elements) elements.count = empty ? 0 : commas + 1;
        return index + 1;
      }
    } else if (character === "," && depth === 1) commas += 1;
  }
  throw new Cut();
}

function skipSpace(text: string, index: number): number {
  while (index < text.length && /\s/.test(text[index] ?? "")) index += 1;
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
  const head: ThreadHead = {};
  let index = 0;
  try {
    index = skipSpace(text, index);
    if (text[index] !== "{") return undefined;
    index += 1;
    for (;;) {
      index = skipSpace(text, index);
      if (text[index] === "}") break;
      if (text[index] === ",") index = skipSpace(text, index + 1);
      if (text[index] !== '"') return head;
      const keyEnd = stringEnd(text, index);
      const key = decode(text.slice(index, keyEnd));
      index = skipSpace(text, keyEnd);
      if (text[index] !== ":") return head;
      const start = skipSpace(text, index + 1);
      const elements = { count: 0 };
      const end = valueEnd(
        text,
        start,
        key === "messages" && text[start] === "[" ? elements : undefined,
      );
      const slice = text.slice(start, end);
      if (key === "messages") {
        if (text[start] === "[") head.messageCount = elements.count;
      } else if (key === "v" || key === "created") {
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
  }
  return head;
}

function cwdOf(env: Json | undefined): string | undefined {
  const initial = isJsonObject(env) ? ownValue(env, "initial") : undefined;
  const trees = isJsonObject(initial) ? ownValue(initial, "trees") : undefined;
  const tree = Array.isArray(trees) ? trees[0] : undefined;
  const uri = isJsonObject(tree) ? ownValue(tree, "uri") : undefined;
  return typeof uri === "string" ? pathFromFileUri(uri) : undefined;
}
