// Gemini content parts (`@google/genai` Part: text, thought, functionCall,
// functionResponse, inlineData, ...) ⇄ Common blocks, shared by both message
// shapes. A functionResponse's `response` is `{output}` for a result and
// `{error}` for a failed call, as Gemini CLI writes them; any other response
// object is kept whole as structured output.
import {
  type Block,
  type ConversionOptions,
  isJsonObject,
  type Json,
  type JsonObject,
  ownValue,
  warn,
} from "@txcript/core";
import { geminiCliLoss } from "./gemini-cli-losses.js";
import { geminiToolToCanonical } from "./gemini-cli-tools.js";

/** Tool call ids seen so far, for results that carry no id of their own. */
export class CallTracker {
  #counter = 0;
  readonly #open: { id: string; name: string }[] = [];

  constructor(readonly prefix: string) {}

  call(id: string | undefined, name: string): string {
    const resolved = id !== undefined && id !== "" ? id : `${this.prefix}-call-${++this.#counter}`;
    this.#open.push({ id: resolved, name });
    return resolved;
  }

  result(id: string | undefined, name: string | undefined): string {
    if (id !== undefined && id !== "") {
      const at = this.#open.findIndex((entry) => entry.id === id);
      if (at !== -1) this.#open.splice(at, 1);
      return id;
    }
    const at = this.#open.findIndex((entry) => name === undefined || entry.name === name);
    if (at === -1) return `${this.prefix}-result-${++this.#counter}`;
    const [entry] = this.#open.splice(at, 1);
    return (entry as { id: string }).id;
  }
}

export interface PartContext {
  options: ConversionOptions | undefined;
  path: string;
  calls: CallTracker;
  /** agentId of a tool call → that call's id, for linking subagents. */
  agents?: Map<string, string>;
  /** A status other than success on the legacy tool call record these parts are the result of. */
  failedStatus?: boolean;
}

const textKeys = new Set(["text", "thought"]);

function extraKeys(part: JsonObject, allowed: ReadonlySet<string>): boolean {
  return Object.keys(part).some((key) => !allowed.has(key));
}

/** The result content and error flag a functionResponse `response` stands for. */
export function resultFromResponse(response: Json | undefined): {
  content: Json;
  isError: boolean;
} {
  if (isJsonObject(response)) {
    const keys = Object.keys(response);
    if (keys.length === 1 && keys[0] === "output")
      return { content: response.output as Json, isError: false };
    if (keys.length === 1 && keys[0] === "error")
      return { content: response.error as Json, isError: true };
  }
  return { content: response ?? null, isError: false };
}

export function responseFromResult(content: Json, isError: boolean): JsonObject {
  return Object.fromEntries([[isError ? "error" : "output", content]]);
}

/** One part as Common blocks (none for a part Common does not model). */
export function partToBlocks(part: Json, context: PartContext): Block[] {
  if (typeof part === "string") return [{ type: "text", text: part }];
  if (!isJsonObject(part)) {
    warn(
      context.options,
      geminiCliLoss.unknownPart,
      "a content part that is not an object was dropped",
      context.path,
    );
    return [];
  }
  const text = ownValue(part, "text");
  if (typeof text === "string") {
    if (extraKeys(part, textKeys))
      warn(
        context.options,
        geminiCliLoss.partFields,
        "a text part's extra fields were dropped",
        context.path,
      );
    return [
      ownValue(part, "thought") === true ? { type: "thinking", text } : { type: "text", text },
    ];
  }
  const call = ownValue(part, "functionCall");
  if (isJsonObject(call)) {
    const name = typeof call.name === "string" && Object.hasOwn(call, "name") ? call.name : "";
    const idValue = ownValue(call, "id");
    const id = context.calls.call(typeof idValue === "string" ? idValue : undefined, name);
    const args = Object.hasOwn(call, "args") ? (call.args as Json) : {};
    if (
      extraKeys(call, new Set(["id", "name", "args"])) ||
      extraKeys(part, new Set(["functionCall"]))
    )
      warn(
        context.options,
        geminiCliLoss.partFields,
        "a functionCall part's extra fields were dropped",
        context.path,
      );
    return [{ type: "tool_use", id, tool: geminiToolToCanonical(name, args) }];
  }
  const response = ownValue(part, "functionResponse");
  if (isJsonObject(response)) {
    const idValue = ownValue(response, "id");
    const nameValue = ownValue(response, "name");
    const toolUseId = context.calls.result(
      typeof idValue === "string" ? idValue : undefined,
      typeof nameValue === "string" ? nameValue : undefined,
    );
    const result = resultFromResponse(ownValue(response, "response"));
    if (context.failedStatus === true && !result.isError)
      warn(
        context.options,
        geminiCliLoss.cancelledTool,
        "a tool call that did not succeed became an error result",
        context.path,
      );
    if (
      extraKeys(response, new Set(["id", "name", "response"])) ||
      extraKeys(part, new Set(["functionResponse"]))
    )
      warn(
        context.options,
        geminiCliLoss.partFields,
        "a functionResponse part's extra fields were dropped",
        context.path,
      );
    return [
      {
        type: "tool_result",
        toolUseId,
        content: result.content,
        isError: result.isError || context.failedStatus === true,
      },
    ];
  }
  const inline = ownValue(part, "inlineData");
  if (isJsonObject(inline)) {
    const mediaType = ownValue(inline, "mimeType");
    const data = ownValue(inline, "data");
    if (typeof mediaType === "string" && mediaType !== "" && typeof data === "string") {
      if (
        extraKeys(inline, new Set(["mimeType", "data"])) ||
        extraKeys(part, new Set(["inlineData"]))
      )
        warn(
          context.options,
          geminiCliLoss.partFields,
          "an inlineData part's extra fields were dropped",
          context.path,
        );
      return [{ type: "image", source: { type: "base64", mediaType, data } }];
    }
  }
  warn(
    context.options,
    geminiCliLoss.unknownPart,
    "a content part Common does not model was dropped",
    context.path,
  );
  return [];
}

/** A record's `content` (PartListUnion: a string, one part, or an array of parts) as blocks. */
export function contentToBlocks(content: Json | undefined, context: PartContext): Block[] {
  if (content === undefined || content === null || content === "") return [];
  if (Array.isArray(content)) return content.flatMap((part) => partToBlocks(part, context));
  return partToBlocks(content, context);
}
