// Anthropic Messages content blocks ⇄ Common blocks, for every harness that
// stores API messages (Claude Code session lines, Claude stream-json, Amp
// threads). The block kinds are the API's: text, thinking (with its
// signature), redacted_thinking, tool_use, tool_result and base64 image.
// Reading never throws: a block Common has no kind for, or one missing a
// field the API requires, is reported through `onDrop` and left out, so a
// lenient reader warns and a strict one throws from its own callback.
import type { Json, JsonObject } from "../json.js";
import { isJsonObject, ownValue, stringifyJson } from "../json.js";
import type { Block, ThinkingBlock } from "../model.js";
import { fromCanonical, toCanonical } from "../tool-inputs.js";
import type { Tool } from "../tools.js";

/** Why a block was left out: a kind Common does not model, or a block without a required field. */
export type AnthropicDropReason = "unsupported" | "malformed";

export interface AnthropicDrop {
  readonly reason: AnthropicDropReason;
  /** Position of the block in its content array (0 for string content). */
  readonly index: number;
  /** The block's `type` when it is a string. */
  readonly type?: string;
  /** The field that is missing or of the wrong kind (malformed blocks). */
  readonly key?: string;
  /** What that field should be, for an error hint ("a string", "a non-empty string"). */
  readonly expected?: string;
  /** A short English description ("a document block", "a tool_use without a string id"). */
  readonly what: string;
}

export interface AnthropicReadOptions {
  /** The Common tool for a tool_use's name and input (default: core's fromCanonical). */
  readonly tool?: (name: string, input: Json) => Tool;
  /** A tool_result's content as read (default: kept as it is). */
  readonly resultContent?: (content: Json) => Json;
  /** The provider thinking blocks are marked with; false for none (default "anthropic"). */
  readonly provider?: string | false;
  /** Told of every block left out. */
  readonly onDrop?: (drop: AnthropicDrop) => void;
}

function drop(options: AnthropicReadOptions | undefined, detail: AnthropicDrop): undefined {
  options?.onDrop?.(detail);
  return undefined;
}

function missing(
  options: AnthropicReadOptions | undefined,
  index: number,
  type: string,
  key: string,
  expected: string,
): undefined {
  return drop(options, {
    reason: "malformed",
    index,
    type,
    key,
    expected,
    what: `a ${type} block without ${expected === "a string" ? "a string" : "an"} ${key}`,
  });
}

function providerOf(options: AnthropicReadOptions | undefined): { provider?: string } {
  const provider = options?.provider ?? "anthropic";
  return provider === false ? {} : { provider };
}

/**
 * One content block → a Common block, or undefined (told to `onDrop`).
 * `text` and `thinking` need their string; a signature is kept as written.
 * A tool_use needs a non-empty id and a string name; an absent input is {}
 * (the API always sends one). A tool_result needs a non-empty tool_use_id;
 * absent or null content is "" and `is_error` is true only when it is true.
 * Images are read when inline base64; any other source is unsupported.
 */
export function anthropicBlockToCommon(
  block: Json,
  index: number,
  options?: AnthropicReadOptions,
): Block | undefined {
  if (!isJsonObject(block))
    return drop(options, {
      reason: "malformed",
      index,
      what: "a content block that is not an object",
    });
  const type = ownValue(block, "type");
  switch (type) {
    case "text": {
      const text = ownValue(block, "text");
      if (typeof text !== "string") return missing(options, index, type, "text", "a string");
      return { type: "text", text };
    }
    case "thinking": {
      const text = ownValue(block, "thinking");
      if (typeof text !== "string") return missing(options, index, type, "thinking", "a string");
      const signature = ownValue(block, "signature");
      return {
        type: "thinking",
        text,
        ...(typeof signature === "string" ? { signature } : {}),
        ...providerOf(options),
      };
    }
    case "redacted_thinking": {
      const data = ownValue(block, "data");
      if (typeof data !== "string") return missing(options, index, type, "data", "a string");
      return { type: "thinking", text: "", encrypted: data, ...providerOf(options) };
    }
    case "tool_use": {
      const id = ownValue(block, "id");
      if (typeof id !== "string" || id === "")
        return missing(options, index, type, "id", "a non-empty string");
      const name = ownValue(block, "name");
      if (typeof name !== "string") return missing(options, index, type, "name", "a string");
      const input = Object.hasOwn(block, "input") ? (ownValue(block, "input") as Json) : {};
      return { type: "tool_use", id, tool: (options?.tool ?? fromCanonical)(name, input) };
    }
    case "tool_result": {
      const toolUseId = ownValue(block, "tool_use_id");
      if (typeof toolUseId !== "string" || toolUseId === "")
        return missing(options, index, type, "tool_use_id", "a non-empty string");
      const raw = ownValue(block, "content");
      const content: Json = raw === undefined || raw === null ? "" : raw;
      return {
        type: "tool_result",
        toolUseId,
        content: options?.resultContent === undefined ? content : options.resultContent(content),
        isError: ownValue(block, "is_error") === true,
      };
    }
    case "image": {
      const source = ownValue(block, "source");
      if (isJsonObject(source) && ownValue(source, "type") === "base64") {
        const mediaType = ownValue(source, "media_type");
        const data = ownValue(source, "data");
        if (typeof mediaType === "string" && mediaType !== "" && typeof data === "string")
          return { type: "image", source: { type: "base64", mediaType, data } };
      }
      return drop(options, {
        reason: "unsupported",
        index,
        type,
        what: "an image that is not inline base64",
      });
    }
    default:
      return typeof type === "string"
        ? drop(options, { reason: "unsupported", index, type, what: `a ${type} block` })
        : drop(options, {
            reason: "malformed",
            index,
            key: "type",
            expected: "a string",
            what: "a block without a type",
          });
  }
}

/**
 * A message's `content` → Common blocks: a string (the API allows one) is
 * one text block, an array is read block by block, anything else (absent,
 * null) is no blocks.
 */
export function anthropicContentToCommon(
  content: Json | undefined,
  options?: AnthropicReadOptions,
): Block[] {
  if (typeof content === "string") return [{ type: "text", text: content }];
  if (!Array.isArray(content)) return [];
  const blocks: Block[] = [];
  for (let index = 0; index < content.length; index += 1) {
    const block = anthropicBlockToCommon(content[index] as Json, index, options);
    if (block !== undefined) blocks.push(block);
  }
  return blocks;
}

function hasKeys(object: JsonObject, keys: string): boolean {
  return Object.keys(object).sort().join(",") === keys;
}

/**
 * The tool_result content rule: what an Anthropic tool_result can carry as
 * it is — a string, or a non-empty array of plain text blocks
 * (`{type, text}`) and inline base64 images (`{type, source: {type,
 * media_type, data}}`), with no other keys. Anything else Common holds
 * (other JSON) must be flattened to text to be written.
 */
export function isAnthropicToolResultContent(content: Json): boolean {
  if (typeof content === "string") return true;
  if (!Array.isArray(content) || content.length === 0) return false;
  return content.every((item) => {
    if (!isJsonObject(item)) return false;
    const type = ownValue(item, "type");
    if (type === "text")
      return hasKeys(item, "text,type") && typeof ownValue(item, "text") === "string";
    const source = ownValue(item, "source");
    if (type !== "image" || !hasKeys(item, "source,type") || !isJsonObject(source)) return false;
    return (
      hasKeys(source, "data,media_type,type") &&
      ownValue(source, "type") === "base64" &&
      typeof ownValue(source, "media_type") === "string" &&
      typeof ownValue(source, "data") === "string"
    );
  });
}

/**
 * A Common tool_result content as Anthropic can hold it: itself when it
 * fits the rule, else its JSON text (`flattened` says so; the caller names
 * the loss). `harness` names the writer in a TOO_LARGE error.
 */
export function toolResultContentToAnthropic(
  content: Json,
  harness?: string,
): { content: Json; flattened: boolean } {
  if (isAnthropicToolResultContent(content)) return { content, flattened: false };
  return { content: stringifyJson(content, undefined, harness), flattened: true };
}

/**
 * What a Common thinking block can be sent back to Anthropic as: signed
 * thinking when it has a signature, redacted_thinking when it is encrypted
 * data with no text, else nothing (the API refuses unsigned thinking and
 * another provider's reasoning). Encrypted data beside a signature has no
 * place in a thinking block: `encryptedDropped` says it is left out.
 */
export function anthropicThinkingOf(
  block: ThinkingBlock,
): { block: JsonObject; encryptedDropped: boolean } | undefined {
  if (block.provider !== undefined && block.provider !== "anthropic") return undefined;
  if (block.signature !== undefined)
    return {
      block: { type: "thinking", thinking: block.text, signature: block.signature },
      encryptedDropped: block.encrypted !== undefined,
    };
  if (block.encrypted !== undefined && block.text === "")
    return { block: { type: "redacted_thinking", data: block.encrypted }, encryptedDropped: false };
  return undefined;
}

export interface AnthropicWriteOptions {
  /** The native name and input of a Common tool (default: core's toCanonical). */
  readonly tool?: (tool: Tool) => { name: string; input: Json };
}

/**
 * One Common block → an Anthropic content block, written as given: a
 * tool_result's content unchanged (pass it through
 * toolResultContentToAnthropic first), thinking as anthropicThinkingOf
 * writes it. Undefined for what Anthropic has no block for: a compaction
 * marker, and thinking anthropicThinkingOf refuses.
 */
export function commonBlockToAnthropic(
  block: Block,
  options?: AnthropicWriteOptions,
): JsonObject | undefined {
  switch (block.type) {
    case "text":
      return { type: "text", text: block.text };
    case "thinking":
      return anthropicThinkingOf(block)?.block;
    case "tool_use": {
      const { name, input } = (options?.tool ?? toCanonical)(block.tool);
      return { type: "tool_use", id: block.id, name, input };
    }
    case "tool_result":
      return {
        type: "tool_result",
        tool_use_id: block.toolUseId,
        content: block.content,
        is_error: block.isError,
      };
    case "image":
      return {
        type: "image",
        source: { type: "base64", media_type: block.source.mediaType, data: block.source.data },
      };
    case "compaction":
      return undefined;
  }
}
