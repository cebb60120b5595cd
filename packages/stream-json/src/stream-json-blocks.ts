// Content blocks of user and assistant lines → Common blocks, in either
// dialect. Not the lines around them (stream-json-to-common.ts). Blocks the
// Common model has no kind for are dropped and reported by the caller.
import {
  type Block,
  isJsonObject,
  type Json,
  type JsonObject,
  jsonPath,
  ownValue,
  parseJson,
  TxcriptError,
} from "@txcript/core";
import { toolToCommon } from "./stream-json-dialect.js";
import { harness, type StreamJsonDialect } from "./stream-json-lines.js";

export interface BlockContext {
  dialect: StreamJsonDialect;
  /** The line the blocks are on, for errors. */
  line: number;
  /** Called with the line and JSON path of a block of a kind Common does not have. */
  onDropped: (line: number, path: string) => void;
}

/** A block the format requires and this one lacks: INVALID_DOCUMENT naming line and path. */
export function invalidLine(
  line: number,
  what: string,
  path: string,
  expected: string,
): TxcriptError {
  return new TxcriptError("INVALID_DOCUMENT", `line ${line} ${what}`, {
    harness,
    location: { line, path },
    hint: `expected ${expected}`,
  });
}

export function blocksToCommon(raw: Json[], context: BlockContext): Block[] {
  const blocks: Block[] = [];
  for (let index = 0; index < raw.length; index++) {
    const block = blockToCommon(raw[index] as Json, index, context);
    if (block !== undefined) blocks.push(block);
  }
  return blocks;
}

// The JSON path of a block (or one of its keys), built only for an error or a warning.
function blockPath(index: number, key?: string): string {
  return jsonPath(["message", "content", index, ...(key === undefined ? [] : [key])]);
}

/** A block's string field; undefined when optional and absent or null; else INVALID_DOCUMENT. */
function stringOf(
  item: JsonObject,
  key: string,
  index: number,
  line: number,
  optional = false,
): string | undefined {
  const value = ownValue(item, key);
  if (typeof value === "string") return value;
  if (optional && (value === undefined || value === null)) return undefined;
  throw invalidLine(line, `has a block without a string ${key}`, blockPath(index, key), "a string");
}

function idOf(item: JsonObject, key: string, index: number, line: number): string {
  const value = stringOf(item, key, index, line) as string;
  if (value === "")
    throw invalidLine(line, `has a block with an empty ${key}`, blockPath(index, key), "an id");
  return value;
}

function blockToCommon(item: Json, index: number, context: BlockContext): Block | undefined {
  const { line } = context;
  if (!isJsonObject(item))
    throw invalidLine(
      line,
      "has a block that is not an object",
      blockPath(index),
      "a content block",
    );
  switch (ownValue(item, "type")) {
    case "text":
      return { type: "text", text: stringOf(item, "text", index, line) as string };
    case "thinking": {
      const signature = stringOf(item, "signature", index, line, true);
      return {
        type: "thinking",
        text: stringOf(item, "thinking", index, line) as string,
        ...(signature ? { signature } : {}),
      };
    }
    case "redacted_thinking":
      return {
        type: "thinking",
        text: "",
        encrypted: stringOf(item, "data", index, line) as string,
      };
    case "tool_use": {
      const toolUseId = idOf(item, "id", index, line);
      // An absent input is {} (the API always sends one); an explicit null stays null.
      const input = ownValue(item, "input") ?? (Object.hasOwn(item, "input") ? null : {});
      return {
        type: "tool_use",
        id: toolUseId,
        tool: toolToCommon(context.dialect, stringOf(item, "name", index, line) as string, input),
      };
    }
    case "tool_result": {
      const toolUseId = idOf(item, "tool_use_id", index, line);
      const raw = ownValue(item, "content");
      let content: Json = raw === undefined || raw === null ? "" : raw;
      if (context.dialect === "amp" && typeof content === "string")
        content = ampResultContent(content);
      return {
        type: "tool_result",
        toolUseId,
        content,
        isError: ownValue(item, "is_error") === true,
      };
    }
    case "image": {
      const source = ownValue(item, "source");
      if (isJsonObject(source) && ownValue(source, "type") === "base64") {
        const mediaType = ownValue(source, "media_type");
        const data = ownValue(source, "data");
        if (typeof mediaType === "string" && mediaType !== "" && typeof data === "string")
          return { type: "image", source: { type: "base64", mediaType, data } };
      }
      break;
    }
  }
  context.onDropped(line, blockPath(index));
  return undefined;
}

/**
 * How deeply a structured Amp result may nest (arrays and objects, the
 * outermost counting 1) and still be read back as JSON.
 * Deeper results stay text: every later step (the writers' JSON.stringify,
 * recursive walks in the codecs) must be able to carry the value. A fixed
 * bound, so the answer does not depend on how much stack is left.
 */
export const ampResultMaxDepth = 1000;

/**
 * Whether a parsed result can be written again as the same JSON: every
 * number finite (JSON.parse reads 1e400 as Infinity, which JSON.stringify
 * writes as null) and nesting within ampResultMaxDepth. One walk, recursion
 * bounded by that depth.
 */
function carriesAsJson(value: Json, depth: number): boolean {
  if (typeof value === "number") return Number.isFinite(value);
  if (typeof value !== "object" || value === null) return true;
  if (depth > ampResultMaxDepth) return false;
  if (Array.isArray(value)) {
    for (const item of value) if (!carriesAsJson(item, depth + 1)) return false;
    return true;
  }
  for (const key of Object.keys(value))
    if (!carriesAsJson(value[key] as Json, depth + 1)) return false;
  return true;
}

/**
 * Amp's tool_result content is a string: plain text, or the JSON text of a
 * structured result. Object and array text is read back as that JSON (what
 * Amp's thread document holds for the same result); anything else stays text.
 * The text is parsed once; only JSON that survives being written again is
 * kept (carriesAsJson).
 */
export function ampResultContent(text: string): Json {
  // A printable ASCII first character is never white space, so only text
  // that starts otherwise needs trimStart (and its copy) to find the start.
  const first = text.charCodeAt(0);
  const start = first > 0x20 && first < 0x7f ? text[0] : text.trimStart()[0];
  if (start !== "{" && start !== "[") return text;
  let value: Json;
  try {
    value = parseJson(text, { harness });
  } catch {
    // Not JSON after all, or nested too deeply for the engine: it stays text.
    return text;
  }
  return carriesAsJson(value, 1) ? value : text;
}
