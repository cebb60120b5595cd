// Writing Common as a Copilot CLI event log that `copilot --resume=<id>`
// loads (docs/formats/copilot-cli.md, "What txcript writes"): session.start,
// a title, then per message user.message / system.message /
// assistant.message events, each tool result a tool.execution_complete and
// each compaction a session.compaction_complete, chained by id and
// parentId. Every loss is warned as it happens.
import {
  type Block,
  type ConversionOptions,
  type ImageBlock,
  type JsonObject,
  type Message,
  stringifyJson,
  type Transcript,
  uuidV5In,
  warn,
  writtenJsonLine,
} from "@txcript/core";
import { copilotCliLoss } from "./copilot-cli-losses.js";
import { copilotCliNamespace, copilotCliVersion, copilotSessionId } from "./copilot-cli-paths.js";
import { type CopilotCliSession, harness } from "./copilot-cli-schema.js";
import { canonicalToCopilotTool } from "./copilot-cli-tools.js";

export type CopilotCliWriteOptions = ConversionOptions;

/** The compaction triggers Copilot CLI 1.0.102 knows (CompactionTrigger). */
export const copilotCompactionTriggers: readonly string[] = [
  "threshold",
  "context_limit_retry",
  "manual",
  "memory_pressure",
  "model_switch",
];

interface Event {
  type: string;
  data: JsonObject;
  timestamp: string;
}

type Piece =
  | { kind: "run"; blocks: Block[] }
  | { kind: "result"; block: Block & { type: "tool_result" } }
  | { kind: "compaction"; block: Block & { type: "compaction" } };

function joinTexts(
  blocks: readonly Block[],
  options: CopilotCliWriteOptions | undefined,
  path: string,
): string {
  const texts: string[] = [];
  for (const block of blocks) {
    if (block.type !== "text") continue;
    if (block.text === "")
      warn(options, copilotCliLoss.emptyText, "an empty text block was not written", path);
    else texts.push(block.text);
  }
  if (texts.length > 1)
    warn(options, copilotCliLoss.joinedText, "text blocks were joined into one", path);
  return texts.join("\n\n");
}

function resultEvent(
  block: Block & { type: "tool_result" },
  timestamp: string,
  options: CopilotCliWriteOptions | undefined,
  path: string,
): Event {
  let content: string;
  if (typeof block.content === "string") content = block.content;
  else {
    warn(
      options,
      copilotCliLoss.jsonResult,
      "a structured tool result was written as JSON text",
      path,
    );
    content = stringifyJson(block.content, undefined, harness);
  }
  const data: JsonObject = block.isError
    ? { toolCallId: block.toolUseId, success: false, error: { message: content } }
    : { toolCallId: block.toolUseId, success: true, result: { content } };
  return { type: "tool.execution_complete", data, timestamp };
}

function compactionEvent(
  block: Block & { type: "compaction" },
  timestamp: string,
  options: CopilotCliWriteOptions | undefined,
  path: string,
): Event {
  const data: JsonObject = { success: true, summaryContent: block.summary };
  if (block.trigger !== undefined) {
    if (copilotCompactionTriggers.includes(block.trigger)) data.trigger = block.trigger;
    else
      warn(
        options,
        copilotCliLoss.compaction,
        "a compaction trigger Copilot CLI does not know was not written",
        path,
      );
  }
  if (block.preTokens !== undefined) data.preCompactionTokens = block.preTokens;
  if (block.history !== undefined)
    warn(options, copilotCliLoss.compaction, "a compaction's history was not written", path);
  return { type: "session.compaction_complete", data, timestamp };
}

/** A user message's pieces: runs of text and images, each result and compaction alone. */
function userPieces(
  message: Message,
  options: CopilotCliWriteOptions | undefined,
  path: string,
): Piece[] {
  const pieces: Piece[] = [];
  let run: Block[] | undefined;
  for (const block of message.content) {
    if (block.type === "text" || block.type === "image") {
      run ??= [];
      run.push(block);
      if (run.length === 1) pieces.push({ kind: "run", blocks: run });
    } else if (block.type === "tool_result" || block.type === "compaction") {
      run = undefined;
      pieces.push(
        block.type === "tool_result" ? { kind: "result", block } : { kind: "compaction", block },
      );
    } else if (block.type === "tool_use")
      warn(
        options,
        copilotCliLoss.userToolUse,
        "a tool call in a user message was not written",
        path,
      );
    else
      warn(
        options,
        copilotCliLoss.userThinking,
        "thinking in a user message was not written",
        path,
      );
  }
  if (pieces.length === 0) pieces.push({ kind: "run", blocks: [] });
  return pieces;
}

function runEvent(
  message: Message,
  blocks: readonly Block[],
  options: CopilotCliWriteOptions | undefined,
  path: string,
): Event {
  const content = joinTexts(blocks, options, path);
  const images = blocks.filter((block): block is ImageBlock => block.type === "image");
  const context = message.context;
  if (context !== undefined && context.kind !== "injected") {
    if (context.source !== undefined)
      warn(
        options,
        copilotCliLoss.contextSource,
        "the source of system or developer context was not written",
        path,
      );
    if (images.length > 0)
      warn(
        options,
        copilotCliLoss.assistantImage,
        "an image in system or developer context was not written",
        path,
        images.length,
      );
    return {
      type: "system.message",
      data: { role: context.kind, content },
      timestamp: message.timestamp,
    };
  }
  const firstImage = blocks.findIndex((block) => block.type === "image");
  if (
    firstImage !== -1 &&
    blocks.slice(firstImage).some((block) => block.type === "text" && block.text !== "")
  )
    warn(options, copilotCliLoss.blockOrder, "images were written after the message's text", path);
  const data: JsonObject = { content };
  if (images.length > 0)
    data.attachments = images.map((image) => ({
      type: "blob",
      data: image.source.data,
      mimeType: image.source.mediaType,
    }));
  if (context !== undefined) {
    if (context.source === undefined)
      warn(
        options,
        copilotCliLoss.contextSource,
        'injected context without a source was written as source "injected"',
        path,
      );
    data.source = context.source ?? "injected";
  }
  return { type: "user.message", data, timestamp: message.timestamp };
}

const rank: Partial<Record<Block["type"], number>> = { thinking: 0, text: 1, tool_use: 2 };

function assistantEvent(
  message: Message,
  options: CopilotCliWriteOptions | undefined,
  path: string,
): Event {
  const blocks = message.content;
  const ranks = blocks
    .filter((block) => block.type !== "text" || block.text !== "")
    .map((block) => rank[block.type])
    .filter((value) => value !== undefined);
  if (ranks.some((value, index) => index > 0 && value < (ranks[index - 1] as number)))
    warn(
      options,
      copilotCliLoss.blockOrder,
      "reasoning, text and tool calls were written in that order",
      path,
    );
  const thinking = blocks.filter((block) => block.type === "thinking");
  if (thinking.length > 1)
    warn(options, copilotCliLoss.joinedText, "thinking blocks were joined into one", path);
  if (
    thinking.some(
      (block) =>
        block.signature !== undefined ||
        block.encrypted !== undefined ||
        block.provider !== undefined,
    )
  )
    warn(
      options,
      copilotCliLoss.thinkingSignature,
      "a thinking signature, encrypted reasoning or provider was not written",
      path,
    );
  const images = blocks.filter((block) => block.type === "image").length;
  if (images > 0)
    warn(
      options,
      copilotCliLoss.assistantImage,
      "an image in an assistant message was not written",
      path,
      images,
    );
  if (message.context !== undefined)
    warn(
      options,
      copilotCliLoss.assistantContext,
      "a context label on an assistant message was not written",
      path,
    );
  if (message.usage !== undefined)
    warn(options, copilotCliLoss.usage, "token usage was not written", path);
  if (message.stopReason !== undefined)
    warn(options, copilotCliLoss.stopReason, "a stop reason was not written", path);
  const data: JsonObject = {
    messageId: uuidV5In(copilotCliNamespace)(`${path}:${message.timestamp}`),
    content: joinTexts(blocks, options, path),
    toolRequests: blocks.flatMap((block) => {
      if (block.type !== "tool_use") return [];
      const { name, args } = canonicalToCopilotTool(block.tool);
      return [{ toolCallId: block.id, name, arguments: args, type: "function" }];
    }),
  };
  if (thinking.length > 0) data.reasoningText = thinking.map((block) => block.text).join("\n\n");
  if (message.model !== undefined) data.model = message.model;
  return { type: "assistant.message", data, timestamp: message.timestamp };
}

function orphanEvent(
  block: Block & { type: "tool_result" },
  timestamp: string,
  options: CopilotCliWriteOptions | undefined,
  path: string,
): Event {
  warn(
    options,
    copilotCliLoss.orphanResult,
    "a tool result without an earlier call was written as a user message",
    path,
  );
  const content =
    typeof block.content === "string"
      ? block.content
      : stringifyJson(block.content, undefined, harness);
  const label = block.isError ? "[tool result (error)]" : "[tool result]";
  return { type: "user.message", data: { content: `${label} ${content}` }, timestamp };
}

function messageEvents(
  message: Message,
  options: CopilotCliWriteOptions | undefined,
  path: string,
  afterResult: boolean,
  calls: Set<string>,
): Event[] {
  const events: Event[] = [];
  let pieces: Piece[];
  if (message.role === "assistant") {
    events.push(assistantEvent(message, options, path));
    for (const block of message.content) if (block.type === "tool_use") calls.add(block.id);
    pieces = message.content.flatMap((block): Piece[] =>
      block.type === "tool_result"
        ? [{ kind: "result", block }]
        : block.type === "compaction"
          ? [{ kind: "compaction", block }]
          : [],
    );
    if (pieces.length > 0)
      warn(
        options,
        copilotCliLoss.resultSplit,
        "results or compactions in an assistant message were written after it",
        path,
      );
  } else {
    pieces = userPieces(message, options, path);
    const first = pieces[0] as Piece;
    if (pieces.length > 1 || (first.kind !== "run" && message.context !== undefined))
      warn(
        options,
        copilotCliLoss.resultSplit,
        "a message mixing results or compactions with other content was split",
        path,
      );
    if (first.kind === "result" && afterResult && calls.has(first.block.toolUseId))
      warn(
        options,
        copilotCliLoss.resultSplit,
        "results following earlier results read back with them",
        path,
      );
  }
  for (const piece of pieces) {
    if (piece.kind === "result" && !calls.has(piece.block.toolUseId))
      events.push(orphanEvent(piece.block, message.timestamp, options, path));
    else if (piece.kind === "run") events.push(runEvent(message, piece.blocks, options, path));
    else if (piece.kind === "result")
      events.push(resultEvent(piece.block, message.timestamp, options, path));
    else events.push(compactionEvent(piece.block, message.timestamp, options, path));
  }
  return events;
}

/** The lines of the event log written for `transcript`, each without its newline. */
export function* copilotCliLines(
  transcript: Transcript,
  options?: CopilotCliWriteOptions,
): Generator<string> {
  const { meta } = transcript;
  const sessionId = copilotSessionId(meta.id);
  if (sessionId !== meta.id)
    warn(
      options,
      copilotCliLoss.foreignSessionId,
      `the session id was written as ${sessionId}`,
      "$.meta.id",
    );
  if (meta.lineage !== undefined)
    warn(
      options,
      copilotCliLoss.lineage,
      "the session's lineage was not written",
      "$.meta.lineage",
    );
  if (meta.cliVersion !== copilotCliVersion)
    warn(
      options,
      copilotCliLoss.cliVersion,
      `the CLI version was written as ${copilotCliVersion}`,
      "$.meta.cliVersion",
    );
  if (meta.gitBranch !== undefined && meta.cwd === undefined)
    warn(
      options,
      copilotCliLoss.gitBranch,
      "a git branch without a working directory was not written",
      "$.meta.gitBranch",
    );
  if (transcript.subagents !== undefined && transcript.subagents.length > 0)
    warn(
      options,
      copilotCliLoss.subagents,
      "subagents were not written",
      "$.subagents",
      transcript.subagents.length,
    );
  const eventId = uuidV5In(copilotCliNamespace);
  let parentId: string | null = null;
  let index = 0;
  const line = (event: Event): string => {
    const id = eventId(`${sessionId}/${index}`);
    index += 1;
    const text = stringifyJson(
      { type: event.type, data: event.data, id, timestamp: event.timestamp, parentId },
      undefined,
      harness,
    );
    parentId = id;
    return text;
  };
  const start: JsonObject = {
    sessionId,
    version: 1,
    producer: "copilot-agent",
    copilotVersion: copilotCliVersion,
    startTime: meta.timestamp,
  };
  if (meta.model !== undefined) start.selectedModel = meta.model;
  if (meta.cwd !== undefined)
    start.context =
      meta.gitBranch === undefined ? { cwd: meta.cwd } : { cwd: meta.cwd, branch: meta.gitBranch };
  yield line({ type: "session.start", data: start, timestamp: meta.timestamp });
  if (meta.title !== undefined)
    yield line({
      type: "session.title_changed",
      data: { title: meta.title },
      timestamp: meta.timestamp,
    });
  let afterResult = false;
  const calls = new Set<string>();
  for (const [position, message] of transcript.messages.entries()) {
    const events = messageEvents(message, options, `$.messages[${position}]`, afterResult, calls);
    for (const event of events) yield line(event);
    afterResult = events.at(-1)?.type === "tool.execution_complete";
  }
}

export function commonToCopilotCli(
  transcript: Transcript,
  options?: CopilotCliWriteOptions,
): CopilotCliSession {
  const lines = [...copilotCliLines(transcript, options)].map((text) =>
    writtenJsonLine(text, harness),
  );
  return { lines, finalNewline: true };
}
