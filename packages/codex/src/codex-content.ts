// Content shapes shared by the writer: text and image runs as Codex message
// content items, tool outputs Codex holds as they are, and tool equality for
// the retyping warning. Pure functions over Common blocks and JSON.
import {
  type Block,
  type ImageBlock,
  isJsonObject,
  type Json,
  type JsonObject,
  jsonEqual,
  ownValue,
  type TextBlock,
  type Tool,
  type Transcript,
} from "@txcript/core";
import type { Side } from "./codex-items.js";

export type RunBlock = TextBlock | ImageBlock;

/** A Codex tool output as it is: a string, or a non-empty list of Codex content items. */
export function isCodexOutputItems(content: Json): boolean {
  return (
    Array.isArray(content) &&
    content.length > 0 &&
    content.every((item) => {
      if (!isJsonObject(item)) return false;
      const keys = Object.keys(item).sort().join(",");
      const type = ownValue(item, "type");
      if (type === "input_text")
        return keys === "text,type" && typeof ownValue(item, "text") === "string";
      return (
        type === "input_image" &&
        keys === "image_url,type" &&
        typeof ownValue(item, "image_url") === "string"
      );
    })
  );
}

export function sameTool(left: Tool, right: Tool): boolean {
  if (left.name !== right.name) return false;
  if (left.name === "Raw" && right.name === "Raw" && left.toolName !== right.toolName) return false;
  return jsonEqual(left.input, right.input);
}

export function isRunBlock(block: Block): block is RunBlock {
  return block.type === "text" || block.type === "image";
}

/** Text and image blocks as the content items of one Codex message. */
export function contentItems(blocks: readonly RunBlock[], role: Side): JsonObject[] {
  return blocks.map(
    (block): JsonObject =>
      block.type === "text"
        ? { type: role === "assistant" ? "output_text" : "input_text", text: block.text }
        : {
            type: "input_image",
            image_url: `data:${block.source.mediaType};base64,${block.source.data}`,
          },
  );
}

/**
 * The text of the transcript's first message when it is Codex's own base
 * instructions as txcript reads them (system context from
 * `base_instructions`, one text block, at the session's time, nothing else):
 * written back into `session_meta.base_instructions`, not as a message.
 */
export function baseInstructionsOf(transcript: Transcript): string | undefined {
  const first = transcript.messages[0];
  const block = first?.content[0];
  if (
    first === undefined ||
    first.context?.kind !== "system" ||
    first.context.source !== "base_instructions" ||
    first.role !== "user" ||
    first.content.length !== 1 ||
    block?.type !== "text" ||
    first.timestamp !== transcript.meta.timestamp ||
    first.model !== undefined ||
    first.usage !== undefined ||
    first.stopReason !== undefined
  )
    return undefined;
  return block.text;
}
