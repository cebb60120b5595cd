// Common → OpenCode export document, in the shape `opencode import` decodes
// (ids, required fields and their order as OpenCode 1.18.33 prints them).
// A tool result is folded into its call's tool part; a compaction becomes a
// compaction part and the summary message after it; a context message
// becomes synthetic text parts. Every change to the transcript is a warning.
import { type Block, type JsonObject, type Message, type Transcript, warn } from "@txcript/core";
import {
  fillResult,
  OPENCODE_SCHEMA_VERSION,
  type OpencodeWriteOptions,
  type PendingCall,
  resultText,
  thinkingPart,
  toolPart,
  Writer,
  zeroTokens,
} from "./common-to-opencode-writer.js";
import { opencodeSessionId } from "./opencode-ids.js";
import { opencodeLossList as losses } from "./opencode-losses.js";
import type { OpencodeSession } from "./opencode-schema.js";

export {
  guessProvider,
  OPENCODE_SCHEMA_VERSION,
  type OpencodeWriteOptions,
} from "./common-to-opencode-writer.js";

function writeCompaction(
  writer: Writer,
  block: Extract<Block, { type: "compaction" }>,
  ms: number,
  at: number,
  path: string,
): void {
  const trigger = block.trigger;
  if (
    (trigger !== "auto" && trigger !== "manual") ||
    block.preTokens !== undefined ||
    block.history !== undefined
  )
    writer.warnOnce(
      losses.compactionDetails,
      "a compaction keeps only its summary and trigger",
      path,
    );
  const model = writer.userModel(at);
  writer.message("user", ms, at, { agent: writer.agent, model }, [
    { type: "compaction", auto: trigger === "auto" },
  ]);
  const cwd = writer.transcript.meta.cwd ?? "";
  writer.message(
    "assistant",
    ms,
    at,
    {
      modelID: model.modelID,
      providerID: model.providerID,
      mode: "compaction",
      agent: "compaction",
      summary: true,
      path: { cwd, root: cwd },
      cost: 0,
      tokens: zeroTokens(),
      finish: "stop",
    },
    [{ type: "text", text: block.summary }],
  );
}

function checkContext(message: Message, writer: Writer, path: string): boolean {
  if (message.context === undefined) return false;
  const contextual =
    message.role === "user" &&
    message.content.length > 0 &&
    message.content.every((block) => block.type === "text");
  if (!contextual) writer.warnOnce(losses.contextShape, "a context mark is dropped", path);
  else if (message.context.kind !== "injected" || message.context.source !== undefined)
    writer.warnOnce(losses.contextKind, "a context message reads back as injected", path);
  return contextual;
}

function writeMessage(writer: Writer, message: Message, at: number): void {
  const path = `$.messages[${at}]`;
  // OpenCode loads messages by creation time: a message earlier than the
  // one before it is written at that one's time, so the order survives.
  const own = Date.parse(message.timestamp);
  if (own < writer.lastMs)
    writer.warnOnce(
      losses.timeOrder,
      "a message earlier than the one before it is written at that time",
      path,
    );
  const ms = Math.max(writer.lastMs, own);
  writer.lastMs = ms;
  const { role, content } = message;
  if (
    role === "user" &&
    (message.model !== undefined || message.stopReason !== undefined || message.usage !== undefined)
  )
    writer.warnOnce(losses.userAttribution, "model fields on a user message are dropped", path);
  const synthetic = checkContext(message, writer, path);
  const marker = role === "user" && content.length === 1 && content[0]?.type === "compaction";
  if (!marker && content.some((block) => block.type === "compaction"))
    writer.warnOnce(
      losses.compactionPlacement,
      "a compaction block is split from its message",
      path,
    );
  const fields = (): JsonObject =>
    role === "user"
      ? { agent: writer.agent, model: writer.userModel(at) }
      : writer.assistantFields(message, path);
  let parts: JsonObject[] = [];
  let calls: PendingCall[] = [];
  const flush = (force: boolean) => {
    if (parts.length === 0 && !force) return;
    const own = fields();
    const body = role === "assistant" ? [{ type: "step-start" }, ...parts] : parts;
    if (role === "assistant" && message.usage !== undefined)
      body.push({
        type: "step-finish",
        reason: (own.finish as string | undefined) ?? "unknown",
        cost: own.cost as number,
        tokens: own.tokens as JsonObject,
      });
    writer.message(role, ms, at, own, body);
    writer.written.push({ at, calls });
    parts = [];
    calls = [];
  };
  content.forEach((block, index) => {
    const where = `${path}.content[${index}]`;
    switch (block.type) {
      case "text":
        parts.push(
          synthetic
            ? { type: "text", text: block.text, synthetic: true }
            : { type: "text", text: block.text },
        );
        return;
      case "thinking":
        parts.push(thinkingPart(block, ms, writer, where));
        return;
      case "image":
        if (!block.source.mediaType.startsWith("image/"))
          writer.warnOnce(
            losses.imageType,
            "an image that is not image/* reads back as a file",
            where,
          );
        parts.push({
          type: "file",
          mime: block.source.mediaType,
          url: `data:${block.source.mediaType};base64,${block.source.data}`,
        });
        return;
      case "tool_use": {
        const part = toolPart(block, writer, where);
        parts.push(part);
        const call = { part, at, startMs: ms };
        calls.push(call);
        writer.pending.set(block.id, call);
        return;
      }
      case "tool_result": {
        const call = writer.pending.get(block.toolUseId);
        if (call === undefined) {
          writer.warnOnce(
            losses.orphanResult,
            "a result without its call is written as text",
            where,
          );
          parts.push({ type: "text", text: resultText(block.content, writer, where) });
          return;
        }
        writer.pending.delete(block.toolUseId);
        fillResult(call, block, ms, writer, where);
        writer.answers.push({ call, at, block: index });
        return;
      }
      case "compaction":
        flush(false);
        writeCompaction(writer, block, ms, at, where);
        return;
    }
  });
  flush(content.length === 0);
}

/** Whether every answered call's results read back exactly where they are. */
function checkPlacement(writer: Writer): void {
  const byCall = new Map(writer.answers.map((answer) => [answer.call, answer]));
  const messages = writer.transcript.messages;
  for (const written of writer.written) {
    const answers = written.calls.flatMap((call) => {
      const answer = byCall.get(call);
      return answer === undefined ? [] : [answer];
    });
    if (answers.length === 0) continue;
    const next = messages[written.at + 1];
    const exact =
      next !== undefined &&
      next.role === "user" &&
      next.context === undefined &&
      next.content.length === answers.length &&
      answers.every((answer, index) => answer.at === written.at + 1 && answer.block === index);
    if (!exact)
      writer.warnOnce(
        losses.resultPlacement,
        "tool results move next to their calls",
        `$.messages[${written.at}]`,
      );
  }
}

function checkDuplicateIds(writer: Writer): void {
  const seen = new Set<string>();
  writer.transcript.messages.forEach((message, at) => {
    for (const block of message.content) {
      if (block.type !== "tool_use") continue;
      if (seen.has(block.id))
        writer.warnOnce(losses.duplicateCallId, "two calls share an id", `$.messages[${at}]`);
      seen.add(block.id);
    }
  });
}

/** A Common transcript as the export document `opencode import` takes. */
export function commonToOpencode(
  transcript: Transcript,
  options?: OpencodeWriteOptions,
): OpencodeSession {
  const { meta } = transcript;
  const createdMs = Date.parse(meta.timestamp);
  const sessionId = opencodeSessionId(meta.id, createdMs);
  if (sessionId !== meta.id)
    warn(options, losses.sessionId, "the session id is not in OpenCode's form", "$.meta.id");
  if (meta.gitBranch !== undefined)
    warn(options, losses.gitBranch, "the git branch is dropped", "$.meta.gitBranch");
  if (meta.lineage !== undefined)
    warn(options, losses.lineage, "the lineage is dropped", "$.meta.lineage");
  if ((transcript.subagents?.length ?? 0) > 0)
    warn(
      options,
      losses.subagents,
      "subagents are not written",
      "$.subagents",
      transcript.subagents?.length,
    );
  if (meta.title === undefined)
    warn(options, losses.defaultTitle, "the session gets a default title", "$.meta.title");
  if (meta.cliVersion === undefined)
    warn(options, losses.defaultVersion, "the session gets a default version", "$.meta.cliVersion");
  if (meta.model === "")
    warn(options, losses.emptyModel, "an empty model name reads back as none", "$.meta.model");
  const writer = new Writer(transcript, sessionId, options);
  checkDuplicateIds(writer);
  transcript.messages.forEach((message, at) => {
    writeMessage(writer, message, at);
  });
  checkPlacement(writer);
  const info: JsonObject = { id: sessionId, slug: `txcript-${sessionId.slice(-6).toLowerCase()}` };
  if (meta.cwd !== undefined) info.directory = meta.cwd;
  info.title = meta.title ?? `New session - ${meta.timestamp}`;
  if (meta.model) info.model = { id: meta.model, providerID: writer.provider(meta.model) };
  info.version = meta.cliVersion ?? OPENCODE_SCHEMA_VERSION;
  info.time = { created: createdMs, updated: Math.max(createdMs, writer.lastMs) };
  return { document: { info, messages: writer.entries }, finalNewline: true };
}
