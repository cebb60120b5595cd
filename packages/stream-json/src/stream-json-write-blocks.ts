// Common blocks → the content blocks of a capture's lines, in either
// dialect, through core's Anthropic Messages mapping (text, tool_use,
// tool_result with its content rule, images). Thinking is a capture's own:
// a capture records what was shown, so unsigned thinking is written (with
// `signature: ""` in the Claude dialect, which requires the key) where an
// API request could not send it. Every change is reported through `lost`.
import { ampToolToCommon } from "@txcript/amp";
import {
  type Block,
  type Json,
  type JsonObject,
  jsonEqual,
  type Message,
  stringifyJson,
} from "@txcript/core";
import { commonBlockToAnthropic, toolResultContentToAnthropic } from "@txcript/core/anthropic";
import { ampResultContent } from "./stream-json-blocks.js";
import { type DialectToolOptions, toolFromCommon } from "./stream-json-dialect.js";
import { harness, type StreamJsonDialect } from "./stream-json-lines.js";
import type { streamJsonLoss } from "./stream-json-losses.js";

export type Lost = (code: keyof typeof streamJsonLoss, message: string, path?: string) => void;

function blockPathIn(prefix: string, index: number, blockIndex: number): string {
  return `${prefix}.messages[${index}].content[${blockIndex}]`;
}

/** One block of message `index`, or undefined when the dialect has no place for it. */
export type BlockWriter = (
  item: Block,
  message: Message,
  index: number,
  blockIndex: number,
) => JsonObject | undefined;

/** The block writer of one capture; `tools` collects the tool names written (for init). */
export function blockWriter(
  dialect: StreamJsonDialect,
  options: DialectToolOptions,
  lost: Lost,
  tools: Set<string>,
  /** JSON path of the conversation: "$", or a subagent's. */
  prefix = "$",
): BlockWriter {
  const claude = dialect === "claude";
  const blockPath = (index: number, blockIndex: number) => blockPathIn(prefix, index, blockIndex);
  const spell = (tool: Parameters<typeof toolFromCommon>[1]) =>
    toolFromCommon(dialect, tool, options);
  return (item, message, index, blockIndex) => {
    switch (item.type) {
      case "text":
      case "image":
        if (item.type === "image" && (message.role === "assistant" || !claude)) {
          lost("image", "an image was not written", blockPath(index, blockIndex));
          return undefined;
        }
        return commonBlockToAnthropic(item);
      case "thinking": {
        if (item.provider !== undefined)
          lost(
            "thinkingDetails",
            "a thinking provider was not written",
            blockPath(index, blockIndex),
          );
        if (item.encrypted !== undefined && item.text === "" && item.signature === undefined)
          return { type: "redacted_thinking", data: item.encrypted };
        if (item.encrypted !== undefined)
          lost(
            "thinkingDetails",
            "encrypted thinking beside readable thinking was not written",
            blockPath(index, blockIndex),
          );
        if (item.signature === "")
          lost(
            "emptyStrings",
            "an empty signature reads back as none",
            blockPath(index, blockIndex),
          );
        const signature = claude ? (item.signature ?? "") : item.signature;
        return signature === undefined
          ? { type: "thinking", thinking: item.text }
          : { type: "thinking", thinking: item.text, signature };
      }
      case "tool_use": {
        const written = commonBlockToAnthropic(item, { tool: spell }) as JsonObject;
        const name = written.name as string;
        tools.add(name);
        if (!claude && !jsonEqual(ampToolToCommon(name, written.input as Json), item.tool))
          lost(
            "toolSpelling",
            `${item.tool.name === "Raw" ? item.tool.toolName : item.tool.name} reads back as another tool`,
            blockPath(index, blockIndex),
          );
        return written;
      }
      case "tool_result": {
        let content: Json;
        if (claude) {
          const written = toolResultContentToAnthropic(item.content, harness);
          if (written.flattened)
            lost(
              "structuredToolResult",
              "structured tool output was written as JSON text",
              blockPath(index, blockIndex),
            );
          content = written.content;
        } else if (typeof item.content === "string") {
          content = item.content;
          // Amp results are text; text that is a JSON object or array reads back as that JSON.
          if (typeof ampResultContent(content) !== "string")
            lost(
              "structuredToolResult",
              "text output that is JSON reads back as JSON",
              blockPath(index, blockIndex),
            );
        } else {
          lost(
            "structuredToolResult",
            "structured tool output was written as JSON text",
            blockPath(index, blockIndex),
          );
          content = stringifyJson(item.content, undefined, harness);
        }
        return commonBlockToAnthropic({ ...item, content });
      }
      case "compaction":
        // Written as a line of its own by the caller when it can be; never a content block.
        lost(
          "compaction",
          "a compaction marker inside a message was not written",
          blockPath(index, blockIndex),
        );
        return undefined;
    }
  };
}
