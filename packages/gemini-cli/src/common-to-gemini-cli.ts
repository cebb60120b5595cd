// Common → a Gemini CLI recording in the current JSONL format: a metadata
// line, then one record per message with `content` in the modern part shape
// (text, thought, functionCall, functionResponse, inlineData parts in block
// order — the shape Gemini CLI's own `$set.messages` checkpoints use), model
// and tokens on gemini records. `lastUpdated` is the time of writing: Gemini
// CLI's startup cleanup deletes recordings last updated 30 days ago.
import {
  type Json,
  type JsonObject,
  type Message,
  type Meta,
  type Subagent,
  stringifyJson,
  type Transcript,
  toCanonical,
  uuidV5In,
  type WriteOptions,
  warn,
} from "@txcript/core";
import { geminiCliLoss } from "./gemini-cli-losses.js";
import { responseFromResult } from "./gemini-cli-parts.js";
import { geminiCliNamespace, geminiProjectHash, geminiSessionId } from "./gemini-cli-paths.js";
import { injectedTag, renderContent } from "./gemini-cli-peek.js";
import {
  type GeminiCliJsonlSession,
  type GeminiCliLine,
  type GeminiCliSubagentFile,
  harness,
} from "./gemini-cli-schema.js";
import { tokensFromUsage } from "./gemini-cli-tokens.js";
import { canonicalToGeminiTool, geminiToolToCanonical } from "./gemini-cli-tools.js";

/** `forStore`: the subagents' recordings are saved beside the session, not left out. */
export interface GeminiCliWriteOptions extends WriteOptions {
  /** The time of writing, for `lastUpdated` (default: now). */
  now?: Date;
  /** The project directory (default: meta.cwd); names the projectHash and the store's project. */
  cwd?: string;
}

const recordId = uuidV5In(geminiCliNamespace);

function line(value: JsonObject): GeminiCliLine {
  return { text: stringifyJson(value, undefined, harness), value };
}

/** The error response a call without its result gets (gemini_cli.missing-result). */
export const missingResultText =
  "[txcript: this tool call has no result in the source session; the call was not answered]";

/**
 * The part a user record starts with when its text starts with `/` or `?`:
 * Gemini CLI leaves such a record out of the history it sends on resume
 * (gemini_cli.command-like), and a zero-width space is no whitespace to its trim.
 */
export const commandShield = "\u200b";

/**
 * Gemini CLI's shell tool. A command of it that ran and failed is an
 * `{output}` response in Gemini CLI's own records (the failure in its
 * text); `{error}` is a call that could not run, and 0.61.0's output
 * masking gives a bulky `{error}` of this tool an empty preview
 * (gemini_cli.shell-error).
 */
const shellToolName = "run_shell_command";

/** A result written as text (gemini_cli.orphan-result). */
function resultText(block: Extract<Message["content"][number], { type: "tool_result" }>): string {
  const content =
    typeof block.content === "string"
      ? block.content
      : stringifyJson(block.content, undefined, harness);
  return `[tool result${block.isError ? " (error)" : ""}] ${content}`;
}

function parts(
  message: Message,
  names: Map<string, string>,
  /** The functionCalls of the last model turn not answered yet: id → Gemini tool name. */
  pending: Map<string, string>,
  options: GeminiCliWriteOptions | undefined,
  path: string,
): Json[] {
  const out: Json[] = [];
  for (const original of message.content) {
    // A compaction marker is the text of its summary: the model reads it (gemini_cli.compaction).
    const block: Exclude<Message["content"][number], { type: "compaction" }> =
      original.type === "compaction" ? { type: "text", text: original.summary } : original;
    switch (block.type) {
      case "text":
        // Gemini CLI drops a whole model turn that holds an empty text part from the history it sends.
        if (block.text === "" && message.role === "assistant")
          warn(
            options,
            geminiCliLoss.emptyText,
            "an empty text block on an assistant message was left out",
            path,
          );
        else out.push({ text: block.text });
        break;
      case "thinking":
        if (
          block.signature !== undefined ||
          block.encrypted !== undefined ||
          block.provider !== undefined
        )
          warn(
            options,
            geminiCliLoss.thinkingFields,
            "a thinking block's signature or provider was dropped",
            path,
          );
        out.push({ text: block.text, thought: true });
        break;
      case "tool_use": {
        if (message.role === "user") {
          // The API takes a functionCall in a model turn only: a user's call (a slash command) is its text.
          warn(
            options,
            geminiCliLoss.userToolUse,
            "a tool call on a user message became text",
            path,
          );
          const { name, input } = toCanonical(block.tool);
          out.push({ text: `[tool call ${name} ${stringifyJson(input, undefined, harness)}]` });
          break;
        }
        const call = canonicalToGeminiTool(block.tool);
        if (block.tool.name === "Raw" && geminiToolToCanonical(call.name, call.args).name !== "Raw")
          warn(
            options,
            geminiCliLoss.rawToolTyped,
            "a Raw tool reads back as the typed tool it spells",
            path,
          );
        names.set(block.id, call.name);
        pending.set(block.id, call.name);
        out.push({ functionCall: { id: block.id, name: call.name, args: call.args } });
        break;
      }
      case "tool_result":
        // A functionResponse must answer a call of the last model turn (and sit in a user turn): else its text.
        if (message.role !== "user" || !pending.has(block.toolUseId)) {
          warn(
            options,
            geminiCliLoss.orphanResult,
            "a tool result without its call in a model turn became text",
            path,
          );
          out.push({ text: resultText(block) });
          break;
        }
        {
          const name = pending.get(block.toolUseId) ?? "";
          const shellError = block.isError && name === shellToolName;
          if (shellError)
            warn(
              options,
              geminiCliLoss.shellError,
              "a failed shell command's result was written as its output",
              path,
            );
          out.push({
            functionResponse: {
              id: block.toolUseId,
              name,
              response: responseFromResult(block.content, block.isError && !shellError),
            },
          });
        }
        pending.delete(block.toolUseId);
        break;
      case "image":
        out.push({ inlineData: { mimeType: block.source.mediaType, data: block.source.data } });
        break;
    }
  }
  return out;
}

/** A message's record (undefined: none; every message has one). */
function messageRecord(
  message: Message,
  path: string,
  id: string,
  names: Map<string, string>,
  pending: Map<string, string>,
  options: GeminiCliWriteOptions | undefined,
): JsonObject | undefined {
  // What the record renders to decides whether it reads back as Gemini CLI's own injected context.
  const rendered = message.content
    .map((block) =>
      block.type === "text"
        ? block.text
        : block.type === "compaction"
          ? block.summary
          : `[${block.type}]`,
    )
    .join("");
  const tag = message.role === "user" ? injectedTag(rendered) : undefined;
  const context = message.context;
  if (
    tag === undefined
      ? context !== undefined
      : context?.kind !== "injected" || context.source !== tag
  )
    warn(options, geminiCliLoss.context, "a context mark was not kept as it was", path);
  if (message.stopReason !== undefined)
    warn(options, geminiCliLoss.stopReason, "a stop reason was dropped", path);
  const compactions = message.content.filter((block) => block.type === "compaction").length;
  if (compactions > 0)
    warn(
      options,
      geminiCliLoss.compaction,
      "a compaction marker was written as the text of its summary",
      path,
      compactions,
    );
  const record: JsonObject = {
    id,
    timestamp: message.timestamp,
    type: message.role === "user" ? "user" : "gemini",
    content: parts(message, names, pending, options, path),
  };
  if (message.role === "user") {
    const text = renderContent(record.content).trim();
    if (text.startsWith("/") || text.startsWith("?")) {
      warn(
        options,
        geminiCliLoss.commandLike,
        "a user text starting with / or ? got a zero-width space part before it",
        path,
      );
      record.content = [{ text: commandShield }, ...(record.content as Json[])];
    }
    if (message.model !== undefined || message.usage !== undefined)
      warn(
        options,
        geminiCliLoss.userMessageFields,
        "a user message's model or usage was dropped",
        path,
      );
    return record;
  }
  const usage = message.usage;
  if (usage !== undefined) {
    if (usage.cacheCreationInputTokens > 0)
      warn(
        options,
        geminiCliLoss.cacheCreation,
        "cache creation tokens were counted as input",
        path,
      );
    if (usage.costUsd !== undefined)
      warn(options, geminiCliLoss.cost, "a message's cost was dropped", path);
    const { tokens, clamped } = tokensFromUsage(usage);
    if (clamped)
      warn(
        options,
        geminiCliLoss.reasoningTokens,
        "reasoning tokens above the output count raised it",
        path,
      );
    record.tokens = tokens;
  }
  if (message.model === "")
    warn(options, geminiCliLoss.emptyModel, "an empty model name was dropped", path);
  else if (message.model !== undefined) record.model = message.model;
  return record;
}

/** What a session is written from: its meta, its messages as they come, then its subagents. */
export interface GeminiCliSessionSource {
  readonly meta: Meta;
  readonly messages: Iterable<Message>;
  /** Read once the messages are written (in a stream they follow the messages). */
  readonly subagents: Iterable<Subagent>;
}

/**
 * A session's lines, one record at a time, with every warning of the
 * write in order: the metadata line, a record per message, then each
 * subagent (written whole, as a recording of its own) to `onSubagent`.
 * The whole writer (commonToGeminiCli) and the stream writer
 * (geminiCliWriteStream) both are this.
 */
export function* geminiCliLinesOf(
  source: GeminiCliSessionSource,
  options: GeminiCliWriteOptions | undefined,
  kind: "main" | "subagent",
  onSubagent: (subagent: GeminiCliSubagentFile) => void,
): Generator<GeminiCliLine> {
  const { meta } = source;
  const sessionId = geminiSessionId(meta.id);
  if (sessionId !== meta.id)
    warn(
      options,
      geminiCliLoss.foreignSessionId,
      "a session id Gemini CLI cannot resume by was replaced by a UUID",
      "$.meta.id",
    );
  const cwd = projectRootOf(meta, options);
  const dropped = [meta.gitBranch, meta.cliVersion, meta.model, meta.lineage].filter(
    (value) => value !== undefined,
  ).length;
  if (dropped > 0)
    warn(
      options,
      geminiCliLoss.metaFields,
      "a session field the recording has no place for was dropped",
      "$.meta",
      dropped,
    );
  const metadata: JsonObject = {
    sessionId,
    projectHash: geminiProjectHash(cwd ?? ""),
    startTime: meta.timestamp,
    lastUpdated: (options?.now ?? new Date()).toISOString(),
    kind,
  };
  // Gemini CLI records the workspace directories here (the project root first) and never reads them back.
  if (cwd !== undefined) metadata.directories = [cwd];
  if (meta.title !== undefined) metadata.summary = meta.title;
  yield line(metadata);
  const names = new Map<string, string>();
  const pending = new Map<string, string>();
  let records = 0;
  let index = 0;
  // A user record after a model turn with calls still unanswered is held: the missing responses go on it.
  let held: JsonObject | undefined;
  let lastModel: Message | undefined;
  /** The held record (or a new user record) with an error response for each call still unanswered. */
  const answerPending = (): JsonObject | undefined => {
    if (pending.size === 0) return held;
    warn(
      options,
      geminiCliLoss.missingResult,
      "a tool call without its result got an error response",
      "$.messages",
      pending.size,
    );
    const shellCalls = [...pending.values()].filter((name) => name === shellToolName).length;
    if (shellCalls > 0)
      warn(
        options,
        geminiCliLoss.shellError,
        "a shell call without its result got an output response",
        "$.messages",
        shellCalls,
      );
    const responses: Json[] = [...pending].map(([id, name]) => ({
      functionResponse: {
        id,
        name,
        // A shell call's response is its output, this one too (gemini_cli.shell-error).
        response: responseFromResult(missingResultText, name !== shellToolName),
      },
    }));
    pending.clear();
    if (held !== undefined)
      return { ...held, content: [...(held.content as Json[]), ...responses] };
    const record: JsonObject = {
      id: recordId(`${sessionId}:${records}`),
      timestamp: lastModel?.timestamp ?? meta.timestamp,
      type: "user",
      content: responses,
    };
    records += 1;
    return record;
  };
  for (const message of source.messages) {
    if (message.role === "assistant") {
      const answered = answerPending();
      if (answered !== undefined) yield line(answered);
      held = undefined;
      lastModel = message;
    } else if (held !== undefined) {
      yield line(held);
      held = undefined;
    }
    // Record ids count written records, so a message left out does not renumber the rest on a second write.
    const record = messageRecord(
      message,
      `$.messages[${index}]`,
      recordId(`${sessionId}:${records}`),
      names,
      pending,
      options,
    );
    index += 1;
    if (record === undefined) continue;
    records += 1;
    if (message.role === "user" && pending.size > 0) held = record;
    else yield line(record);
  }
  const answered = answerPending();
  if (answered !== undefined) yield line(answered);
  for (const subagent of source.subagents) {
    // A store save writes the subagent's recording beside the session, but no call names it
    // (the writer sets no toolCalls[].agentId) and a recording has no agent type or model;
    // a file alone cannot hold it at all.
    warn(
      options,
      geminiCliLoss.subagents,
      options?.forStore === true
        ? "a subagent conversation was written as a recording of its own beside the session file, without the link to the tool call that spawned it, its agent type or its model"
        : "a subagent conversation was left out of this file: a store save (`txcript continue`) writes it as a recording of its own beside the session file",
      "$.subagents",
    );
    const session = writeSession(
      {
        meta: {
          id: subagent.id,
          timestamp: subagent.messages[0]?.timestamp ?? meta.timestamp,
          ...(subagent.title === undefined ? {} : { title: subagent.title }),
        },
        messages: subagent.messages,
        ...(subagent.subagents === undefined ? {} : { subagents: subagent.subagents }),
      },
      { ...options, ...(cwd === undefined ? {} : { cwd }) },
      "subagent",
    );
    onSubagent({ id: geminiSessionId(subagent.id), session });
  }
}

function projectRootOf(meta: Meta, options: GeminiCliWriteOptions | undefined): string | undefined {
  return options?.cwd ?? meta.cwd;
}

function writeSession(
  transcript: Transcript,
  options: GeminiCliWriteOptions | undefined,
  kind: "main" | "subagent",
): GeminiCliJsonlSession {
  const subagents: GeminiCliSubagentFile[] = [];
  const source = {
    meta: transcript.meta,
    messages: transcript.messages,
    subagents: transcript.subagents ?? [],
  };
  const lines = [
    ...geminiCliLinesOf(source, options, kind, (subagent) => subagents.push(subagent)),
  ];
  const cwd = projectRootOf(transcript.meta, options);
  return {
    format: "jsonl",
    lines,
    finalNewline: true,
    ...(subagents.length === 0 ? {} : { subagents }),
    ...(cwd === undefined ? {} : { projectRoot: cwd }),
  };
}

export function commonToGeminiCli(
  transcript: Transcript,
  options?: GeminiCliWriteOptions,
): GeminiCliJsonlSession {
  return writeSession(transcript, options, "main");
}
