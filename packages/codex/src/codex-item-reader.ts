// Response items as Common blocks, fed into a MessageGrouper: the item
// reader codex-to-common.ts uses for the conversation and for a
// compaction's replacement history (message, reasoning, the tool calls and
// their outputs), pairing calls with outputs as it goes.
import {
  arrayAt,
  type Block,
  type ConversionOptions,
  isJsonObject,
  type Json,
  type JsonObject,
  ownValue,
  stringAt,
  type Tool,
  warn,
} from "@txcript/core";
import { imageFromDataUrl, injectedSource, MessageGrouper, type Side } from "./codex-items.js";
import { codexLoss } from "./codex-losses.js";
import { codexToolToCommon, namespacedName } from "./codex-tools.js";

function textsOf(items: Json[] | undefined, types: readonly string[]): string[] {
  const texts: string[] = [];
  for (const item of items ?? []) {
    if (!isJsonObject(item)) continue;
    const type = stringAt(item, "type");
    const text = stringAt(item, "text");
    if (type !== undefined && types.includes(type) && text !== undefined) texts.push(text);
  }
  return texts;
}

/** A function_call's arguments: the JSON they spell, or the string itself when it is not JSON. */
function argumentsOf(value: Json | undefined): Json {
  if (typeof value !== "string") return value ?? null;
  try {
    return JSON.parse(value) as Json;
  } catch {
    return value;
  }
}

export interface Pending {
  calls: Map<string, string>;
  outputs: Set<string>;
}

/** Reads items into a grouper; shared by the conversation and a compaction's history. */
export class ItemReader {
  readonly grouper = new MessageGrouper();
  model: string | undefined;
  /** Whether an assistant-side item was read, and the model in force at the first. */
  sawAssistant = false;
  modelAtFirst: string | undefined;
  #searches = 0;

  constructor(
    private readonly options: ConversionOptions | undefined,
    private readonly pending: Pending | undefined,
  ) {}

  #add(side: Side, block: Block, timestamp: string): void {
    if (side === "assistant" && !this.sawAssistant) {
      this.sawAssistant = true;
      this.modelAtFirst = this.model;
    }
    this.grouper.add(side, block, timestamp, this.model);
  }

  #contentBlocks(items: Json[] | undefined, path: string): Block[] {
    const blocks: Block[] = [];
    for (const item of items ?? []) {
      if (!isJsonObject(item)) continue;
      const type = stringAt(item, "type");
      const text = stringAt(item, "text") ?? stringAt(item, "refusal");
      if (
        (type === "input_text" || type === "output_text" || type === "refusal") &&
        text !== undefined
      )
        blocks.push({ type: "text", text });
      else if (type === "input_image") {
        const url = stringAt(item, "image_url");
        const image = url === undefined ? undefined : imageFromDataUrl(url);
        if (image !== undefined) blocks.push(image);
        else warn(this.options, codexLoss.imageUrl, "an image not given inline was dropped", path);
      } else
        warn(
          this.options,
          codexLoss.unmodeledItem,
          `a ${type ?? "untyped"} content item was left out`,
          path,
        );
    }
    return blocks;
  }

  #call(side: Side, id: string, tool: Tool, timestamp: string) {
    this.pending?.calls.set(id, tool.name === "Raw" ? tool.toolName : tool.name);
    this.#add(side, { type: "tool_use", id, tool }, timestamp);
  }

  #output(id: string, content: Json, timestamp: string): void {
    this.pending?.outputs.add(id);
    this.#add("user", { type: "tool_result", toolUseId: id, content, isError: false }, timestamp);
  }

  item(payload: JsonObject, timestamp: string, path: string): void {
    const type = stringAt(payload, "type");
    if (type === "message") {
      const role = stringAt(payload, "role");
      const blocks = this.#contentBlocks(arrayAt(payload, "content"), path);
      if (role === "developer" || role === "system") {
        this.grouper.alone(blocks, timestamp, { kind: role === "system" ? "system" : "developer" });
        return;
      }
      if (role === "user") {
        const first = blocks[0];
        const source = injectedSource(first?.type === "text" ? first.text : undefined);
        if (source !== undefined) {
          this.grouper.alone(blocks, timestamp, { kind: "injected", source });
          return;
        }
      }
      const side: Side = role === "assistant" ? "assistant" : "user";
      for (const block of blocks) {
        if (side === "assistant" && block.type === "image") {
          warn(this.options, codexLoss.assistantImage, "an assistant image was dropped", path);
          continue;
        }
        this.#add(side, block, timestamp);
      }
      return;
    }
    if (type === "reasoning") {
      const summary = textsOf(arrayAt(payload, "summary"), ["summary_text"]);
      const content = textsOf(arrayAt(payload, "content"), ["reasoning_text", "text"]);
      if (summary.length > 0 && content.length > 0)
        warn(
          this.options,
          codexLoss.reasoningContent,
          "raw reasoning text beside a summary was dropped",
          path,
        );
      const text = (summary.length > 0 ? summary : content).join("\n\n");
      const encrypted = stringAt(payload, "encrypted_content");
      const block: Block = { type: "thinking", text, provider: "openai" };
      if (encrypted !== undefined) block.encrypted = encrypted;
      this.#add("assistant", block, timestamp);
      return;
    }
    if (type === "function_call" || type === "custom_tool_call") {
      const name = namespacedName(stringAt(payload, "namespace"), stringAt(payload, "name") ?? "");
      const input =
        type === "function_call"
          ? argumentsOf(ownValue(payload, "arguments"))
          : (ownValue(payload, "input") ?? null);
      const id = stringAt(payload, "call_id") || stringAt(payload, "id") || `call-${path}`;
      this.#call("assistant", id, codexToolToCommon(name, input), timestamp);
      return;
    }
    if (type === "local_shell_call") {
      const action = ownValue(payload, "action") ?? null;
      const command = isJsonObject(action) ? ownValue(action, "command") : undefined;
      const id = stringAt(payload, "call_id") || stringAt(payload, "id") || `call-${path}`;
      const exact =
        isJsonObject(action) &&
        Object.keys(action).every((key) => key === "type" || key === "command") &&
        Array.isArray(command) &&
        command.length === 3 &&
        command[0] === "bash" &&
        command[1] === "-lc" &&
        typeof command[2] === "string";
      const tool = exact
        ? codexToolToCommon("shell", { command })
        : codexToolToCommon("local_shell", action);
      this.#call("assistant", id, tool, timestamp);
      return;
    }
    if (type === "web_search_call") {
      const action = ownValue(payload, "action") ?? null;
      this.#searches += 1;
      const id = stringAt(payload, "id") || `web_search-${this.#searches}`;
      const query = isJsonObject(action) ? ownValue(action, "query") : undefined;
      const plain =
        isJsonObject(action) &&
        Object.keys(action).every((key) => key === "type" || key === "query") &&
        typeof query === "string";
      const tool = plain
        ? codexToolToCommon("web_search", { query })
        : codexToolToCommon("web_search", action);
      // A hosted search has no output item: it is not an unanswered call.
      this.#add("assistant", { type: "tool_use", id, tool }, timestamp);
      return;
    }
    if (type === "tool_search_call") {
      const id = stringAt(payload, "call_id") || `call-${path}`;
      this.#call(
        "assistant",
        id,
        codexToolToCommon("tool_search", ownValue(payload, "arguments") ?? null),
        timestamp,
      );
      return;
    }
    if (type === "function_call_output" || type === "custom_tool_call_output") {
      const id = stringAt(payload, "call_id") ?? "";
      const output = ownValue(payload, "output");
      this.#output(id || `output-${path}`, output ?? "", timestamp);
      return;
    }
    if (type === "tool_search_output") {
      const id = stringAt(payload, "call_id") ?? "";
      this.#output(id || `output-${path}`, ownValue(payload, "tools") ?? null, timestamp);
      return;
    }
    warn(
      this.options,
      codexLoss.unmodeledItem,
      `a ${type ?? "untyped"} response item was left out`,
      path,
    );
  }
}
