// Content blocks of user and assistant lines → Common blocks, in either
// dialect, through core's Anthropic Messages mapping (@txcript/core/anthropic,
// shared with @txcript/claude-code). Not the lines around them
// (stream-json-messages.ts). Blocks the Common model has no kind for are
// dropped and reported by the caller.
import {
  type Block,
  isJsonObject,
  type Json,
  jsonPath,
  ownValue,
  parseJson,
  TxcriptError,
} from "@txcript/core";
import {
  type AnthropicDrop,
  type AnthropicReadOptions,
  anthropicContentToCommon,
} from "@txcript/core/anthropic";
import { toolToCommon } from "./stream-json-dialect.js";
import { harness, type StreamJsonDialect } from "./stream-json-lines.js";

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

// The JSON path of a block (or one of its keys), built only for an error or a warning.
function blockPath(index: number, key?: string): string {
  return jsonPath(["message", "content", index, ...(key === undefined ? [] : [key])]);
}

function ampResult(content: Json): Json {
  return typeof content === "string" ? ampResultContent(content) : content;
}

/**
 * A line's content blocks through core's Anthropic mapping, spelled by the
 * dialect: tools through it, Amp's string results read back as JSON when
 * they are JSON objects or arrays, no thinking provider (a capture names
 * none), and an empty thinking signature — what the Claude dialect writes
 * for a thinking block without one — read as none. Strict: a block without
 * a field the API requires is INVALID_DOCUMENT (a capture is one program's
 * output, so such a line is not a capture); a kind Common does not model
 * (or a block without a type) is dropped and told to `onDropped`. One
 * reader per dialect and conversation: no closure per line.
 */
export class BlockReader {
  #raw: readonly Json[] = [];
  #line = 0;
  readonly #onDropped: (line: number, path: string) => void;
  readonly #options: AnthropicReadOptions;

  constructor(dialect: StreamJsonDialect, onDropped: (line: number, path: string) => void) {
    this.#onDropped = onDropped;
    this.#options = {
      tool: (name, input) => toolToCommon(dialect, name, input),
      ...(dialect === "amp" ? { resultContent: ampResult } : {}),
      provider: false,
      onDrop: this.#onDrop,
    };
  }

  read(raw: Json[], line: number): Block[] {
    this.#raw = raw;
    this.#line = line;
    const blocks = anthropicContentToCommon(raw, this.#options);
    for (const block of blocks)
      if (block.type === "thinking" && block.signature === "") delete block.signature;
    return blocks;
  }

  readonly #onDrop = (drop: AnthropicDrop): void => {
    const line = this.#line;
    if (drop.reason === "unsupported" || drop.key === "type") {
      this.#onDropped(line, blockPath(drop.index));
      return;
    }
    if (drop.key === undefined)
      throw invalidLine(
        line,
        "has a block that is not an object",
        blockPath(drop.index),
        "a content block",
      );
    const item = this.#raw[drop.index];
    const value = isJsonObject(item) ? ownValue(item, drop.key) : undefined;
    if (value === "" && drop.expected === "a non-empty string")
      throw invalidLine(
        line,
        `has a block with an empty ${drop.key}`,
        blockPath(drop.index, drop.key),
        "an id",
      );
    throw invalidLine(
      line,
      `has a block without a string ${drop.key}`,
      blockPath(drop.index, drop.key),
      "a string",
    );
  };
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
