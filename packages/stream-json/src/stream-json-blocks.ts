// Content blocks of user and assistant lines → Common blocks, in either
// dialect. Not the lines around them (stream-json-to-common.ts). Blocks the
// Common model has no kind for are dropped and reported by the caller.
import {
  type Block,
  isJsonObject,
  type Json,
  jsonEqual,
  jsonPath,
  ownValue,
  parseJson,
  stringifyJson,
  TxcriptError,
} from "@txcript/core";
import { toolToCommon } from "./stream-json-dialect.js";
import { harness, type StreamJsonDialect } from "./stream-json-lines.js";

export interface BlockContext {
  dialect: StreamJsonDialect;
  /** The line the blocks are on, for errors. */
  line: number;
  /** Called with the JSON path of a block of a kind Common does not have. */
  onDropped: (path: string) => void;
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
  raw.forEach((item, index) => {
    const block = blockToCommon(item, index, context);
    if (block !== undefined) blocks.push(block);
  });
  return blocks;
}

function blockToCommon(item: Json, index: number, context: BlockContext): Block | undefined {
  const { line } = context;
  const path = (key?: string) =>
    jsonPath(["message", "content", index, ...(key === undefined ? [] : [key])]);
  if (!isJsonObject(item))
    throw invalidLine(line, "has a block that is not an object", path(), "a content block");
  const string = (key: string, optional = false): string | undefined => {
    const value = ownValue(item, key);
    if (typeof value === "string") return value;
    if (optional && (value === undefined || value === null)) return undefined;
    throw invalidLine(line, `has a block without a string ${key}`, path(key), "a string");
  };
  const id = (key: string): string => {
    const value = string(key) as string;
    if (value === "")
      throw invalidLine(line, `has a block with an empty ${key}`, path(key), "an id");
    return value;
  };
  switch (ownValue(item, "type")) {
    case "text":
      return { type: "text", text: string("text") as string };
    case "thinking": {
      const signature = string("signature", true);
      return {
        type: "thinking",
        text: string("thinking") as string,
        ...(signature ? { signature } : {}),
      };
    }
    case "redacted_thinking":
      return { type: "thinking", text: "", encrypted: string("data") as string };
    case "tool_use": {
      const toolUseId = id("id");
      // An absent input is {} (the API always sends one); an explicit null stays null.
      const input = ownValue(item, "input") ?? (Object.hasOwn(item, "input") ? null : {});
      return {
        type: "tool_use",
        id: toolUseId,
        tool: toolToCommon(context.dialect, string("name") as string, input),
      };
    }
    case "tool_result": {
      const toolUseId = id("tool_use_id");
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
  context.onDropped(path());
  return undefined;
}

/**
 * Amp's tool_result content is a string: plain text, or the JSON text of a
 * structured result. Object and array text is read back as that JSON (what
 * Amp's thread document holds for the same result); anything else stays text.
 */
export function ampResultContent(text: string): Json {
  const start = text.trimStart()[0];
  if (start !== "{" && start !== "[") return text;
  try {
    const value = parseJson(text, { harness });
    // Only JSON that survives being written again (no 1e400 → Infinity).
    return jsonEqual(parseJson(stringifyJson(value)), value) ? value : text;
  } catch {
    // Not JSON after all, or nested too deeply to carry as JSON: it stays text.
    return text;
  }
}
