// Qwen Code → Common. Like Qwen Code's own resume (transcript-records.ts
// prepareTranscriptRecords): skip lines that are not records, take the last
// conversation record as the leaf, aggregate records sharing a uuid, and
// walk parentUuid back to the root. Each user, tool_result and assistant
// record on that chain is one message; a chat_compression record is a
// compaction marker; the last custom_title names the session.
import {
  arrayAt,
  type Block,
  type ConversionOptions,
  isJsonObject,
  type Json,
  type JsonObject,
  type Message,
  numberAt,
  objectAt,
  readTimestamp,
  stringAt,
  type Transcript,
  type Usage,
  warn,
} from "@txcript/core";
import { qwenCodeLoss } from "./qwen-code-losses.js";
import {
  isConversationRecord,
  type QwenCodeSession,
  type QwenRecord,
  recordOf,
} from "./qwen-code-schema.js";
import { subagentsToCommon } from "./qwen-code-subagents.js";
import { qwenToolToCanonical } from "./qwen-code-tools.js";

export type QwenCodeReadOptions = ConversionOptions;

const epoch = "1970-01-01T00:00:00.000Z";
/** The meta of a file with no record: nothing names the session. */
export const emptySessionMeta = { id: "qwen-code-empty", timestamp: epoch } as const;

/** A record's time as a Common timestamp (core's one reader of harness times), or undefined. */
function validTimestamp(value: string | undefined): string | undefined {
  return value === undefined ? undefined : readTimestamp(value);
}

/** The active chain: records from the root to the last conversation record, fragments merged. */
export function activeChain(records: readonly QwenRecord[]): {
  chain: JsonObject[];
  offChain: number;
} {
  let leaf: string | undefined;
  for (let index = records.length - 1; index >= 0; index -= 1) {
    const record = records[index] as QwenRecord;
    if (isConversationRecord(record)) {
      leaf = record.uuid;
      break;
    }
  }
  const fragments = new Map<string, QwenRecord[]>();
  for (const record of records) {
    if (!isConversationRecord(record)) continue;
    const known = fragments.get(record.uuid);
    if (known) known.push(record);
    else fragments.set(record.uuid, [record]);
  }
  const uuids: string[] = [];
  const seen = new Set<string>();
  let current = leaf;
  while (current !== undefined && !seen.has(current)) {
    const first = fragments.get(current)?.[0];
    if (first === undefined) break;
    seen.add(current);
    uuids.push(current);
    current = first.parentUuid ?? undefined;
  }
  uuids.reverse();
  const chain = uuids.map((uuid) => merge(fragments.get(uuid) as QwenRecord[]));
  const onChain = records.filter((record) => seen.has(record.uuid)).length;
  return { chain, offChain: records.filter(isConversationRecord).length - onChain };
}

/** Records sharing a uuid are one record: parts concatenated, the first usage/model/result kept as Qwen Code does. */
function merge(fragments: readonly QwenRecord[]): JsonObject {
  const first = fragments[0] as QwenRecord;
  if (fragments.length === 1) return first.value;
  const merged: JsonObject = { ...first.value };
  let parts: Json[] | undefined = arrayAt(objectAt(first.value, "message"), "parts");
  let role = stringAt(objectAt(first.value, "message"), "role");
  for (const fragment of fragments.slice(1)) {
    const message = objectAt(fragment.value, "message");
    if (message !== undefined) {
      parts = [...(parts ?? []), ...(arrayAt(message, "parts") ?? [])];
      role ??= stringAt(message, "role");
    }
    const usage = objectAt(fragment.value, "usageMetadata");
    if (usage !== undefined) merged.usageMetadata = usage;
    if (merged.model === undefined && typeof fragment.value.model === "string")
      merged.model = fragment.value.model;
  }
  if (parts !== undefined) merged.message = { ...(role === undefined ? {} : { role }), parts };
  return merged;
}

const usageCounts = [
  "promptTokenCount",
  "cachedContentTokenCount",
  "candidatesTokenCount",
  "thoughtsTokenCount",
] as const;

function usageOf(
  metadata: JsonObject | undefined,
  options: ConversionOptions | undefined,
  where: string,
): Usage | undefined {
  if (metadata === undefined) return undefined;
  const outOfRange = usageCounts.filter((key) => {
    const value = numberAt(metadata, key);
    return value !== undefined && !(Number.isSafeInteger(value) && value >= 0);
  });
  if (outOfRange.length > 0)
    warn(
      options,
      qwenCodeLoss.usageRange,
      `a token count that is not a whole number from 0 to 2^53 − 1 read as 0 (${outOfRange.join(", ")})`,
      where,
    );
  const prompt = numberAt(metadata, "promptTokenCount") ?? 0;
  const cached = numberAt(metadata, "cachedContentTokenCount") ?? 0;
  const candidates = numberAt(metadata, "candidatesTokenCount") ?? 0;
  const thoughts = numberAt(metadata, "thoughtsTokenCount") ?? 0;
  // Common's counts are safe integers: a count past 2^53 − 1 (never a real one) reads as 0.
  const whole = (value: number) => (Number.isSafeInteger(value) && value > 0 ? value : 0);
  const usage: Usage = {
    inputTokens: whole(prompt - cached),
    outputTokens: whole(whole(candidates) + whole(thoughts)),
    cacheReadInputTokens: whole(cached),
    cacheCreationInputTokens: 0,
  };
  if (whole(thoughts) > 0) usage.reasoningOutputTokens = whole(thoughts);
  return usage;
}

function partToBlock(
  part: Json,
  options: ConversionOptions | undefined,
  where: string,
): Block | undefined {
  if (!isJsonObject(part)) {
    warn(options, qwenCodeLoss.part, "a message part that is not an object was dropped", where);
    return undefined;
  }
  const call = objectAt(part, "functionCall");
  if (call !== undefined) {
    const name = stringAt(call, "name") ?? "";
    const id = stringAt(call, "id");
    const args = Object.hasOwn(call, "args") ? (call.args as Json) : {};
    return {
      type: "tool_use",
      id: id === undefined || id === "" ? `qwen_call_${where}` : id,
      tool: qwenToolToCanonical(name, args),
    };
  }
  const response = objectAt(part, "functionResponse");
  if (response !== undefined) {
    const id = stringAt(response, "id") ?? "";
    const body = Object.hasOwn(response, "response") ? (response.response as Json) : null;
    let content: Json = body;
    let isError = false;
    if (isJsonObject(body)) {
      const keys = Object.keys(body);
      if (keys.length === 1 && keys[0] === "output") content = body.output as Json;
      else if (keys.length === 1 && keys[0] === "error") {
        content = body.error as Json;
        isError = true;
      } else if (Object.hasOwn(body, "error") && !Object.hasOwn(body, "output")) isError = true;
    }
    return {
      type: "tool_result",
      toolUseId: id === "" ? `qwen_call_${where}` : id,
      content,
      isError,
    };
  }
  const inline = objectAt(part, "inlineData");
  if (inline !== undefined) {
    return {
      type: "image",
      source: {
        type: "base64",
        mediaType: stringAt(inline, "mimeType") ?? "application/octet-stream",
        data: stringAt(inline, "data") ?? "",
      },
    };
  }
  const text = stringAt(part, "text");
  if (text !== undefined) {
    if (part.thought === true) {
      const signature = stringAt(part, "thoughtSignature");
      return { type: "thinking", text, ...(signature === undefined ? {} : { signature }) };
    }
    return { type: "text", text };
  }
  warn(options, qwenCodeLoss.part, `a ${Object.keys(part)[0] ?? "empty"} part was dropped`, where);
  return undefined;
}

function blocksOf(
  parts: readonly Json[],
  options: ConversionOptions | undefined,
  where: string,
): Block[] {
  const blocks: Block[] = [];
  parts.forEach((part, index) => {
    const block = partToBlock(part, options, `${where}.parts[${index}]`);
    if (block !== undefined) blocks.push(block);
  });
  return blocks;
}

/** The summary a chat_compression record sent the model: the text of its compressed history's first user turn. */
function compactionSummary(payload: JsonObject | undefined): string | undefined {
  const history = arrayAt(payload, "compressedHistory");
  if (history === undefined) return undefined;
  const first = history[0];
  if (!isJsonObject(first)) return "";
  return (arrayAt(first, "parts") ?? [])
    .map((part) => (isJsonObject(part) ? (stringAt(part, "text") ?? "") : ""))
    .join("");
}

export function qwenCodeToCommon(
  session: QwenCodeSession,
  options?: QwenCodeReadOptions,
): Transcript {
  const transcript = conversationToCommon(session, options);
  if (session.subagents === undefined || session.subagents.length === 0) return transcript;
  const subagents = subagentsToCommon(
    session.subagents,
    (child) => conversationToCommon(child, options),
    options,
  );
  return { ...transcript, subagents };
}

/** One recording's conversation (the session's, or a subagent transcript's). */
function conversationToCommon(
  session: Pick<QwenCodeSession, "lines">,
  options?: QwenCodeReadOptions,
): Transcript {
  const records: QwenRecord[] = [];
  let skipped = 0;
  for (const line of session.lines) {
    if (line.value === undefined) continue;
    const record = recordOf(line.value);
    if (record === undefined) skipped += 1;
    else records.push(record);
  }
  if (skipped > 0)
    warn(
      options,
      qwenCodeLoss.skippedLine,
      "a line Qwen Code does not read as a record was skipped",
      undefined,
      skipped,
    );
  const first = records[0];
  if (first === undefined) {
    warn(options, qwenCodeLoss.noRecords, "the text holds no Qwen Code record: nothing to read");
    return { meta: { ...emptySessionMeta }, messages: [] };
  }

  const meta: Transcript["meta"] = {
    id: first.sessionId,
    timestamp: validTimestamp(stringAt(first.value, "timestamp")) ?? epoch,
  };
  const cwd = stringAt(first.value, "cwd");
  const gitBranch = stringAt(first.value, "gitBranch");
  const version = stringAt(first.value, "version");
  if (cwd !== undefined) meta.cwd = cwd;
  if (gitBranch !== undefined) meta.gitBranch = gitBranch;
  if (version !== undefined) meta.cliVersion = version;

  const { chain, offChain } = activeChain(records);
  if (offChain > 0)
    warn(
      options,
      qwenCodeLoss.branch,
      "a record off the active chain was left out",
      undefined,
      offChain,
    );

  const messages: Message[] = [];
  let clock = meta.timestamp;
  let systemRecords = 0;
  let bookkeeping = 0;
  chain.forEach((record, index) => {
    const where = `$[${index}]`;
    const type = stringAt(record, "type");
    const timestamp = validTimestamp(stringAt(record, "timestamp")) ?? clock;
    clock = timestamp;
    const extras = (message: Message): Message => {
      const model = stringAt(record, "model");
      const usage = usageOf(objectAt(record, "usageMetadata"), options, `${where}.usageMetadata`);
      if (model !== undefined) message.model = model;
      if (usage !== undefined) message.usage = usage;
      return message;
    };
    if (type === "system") {
      const subtype = stringAt(record, "subtype");
      const payload = objectAt(record, "systemPayload");
      if (subtype === "custom_title") {
        const title = stringAt(payload, "customTitle");
        if (title !== undefined) meta.title = title;
        return;
      }
      const summary = subtype === "chat_compression" ? compactionSummary(payload) : undefined;
      if (summary !== undefined) {
        messages.push(
          extras({ role: "user", content: [{ type: "compaction", summary }], timestamp }),
        );
        return;
      }
      systemRecords += 1;
      return;
    }
    const message = objectAt(record, "message");
    if (message === undefined) {
      systemRecords += 1;
      return;
    }
    if (Object.hasOwn(record, "toolCallResult") || Object.hasOwn(record, "goalContext"))
      bookkeeping += 1;
    const content = blocksOf(arrayAt(message, "parts") ?? [], options, `${where}.message`);
    messages.push(
      extras({ role: type === "assistant" ? "assistant" : "user", content, timestamp }),
    );
  });
  if (systemRecords > 0)
    warn(
      options,
      qwenCodeLoss.systemRecord,
      "a system record was not kept",
      undefined,
      systemRecords,
    );
  if (bookkeeping > 0)
    warn(
      options,
      qwenCodeLoss.recordFields,
      "a record's tool-call display data was not kept",
      undefined,
      bookkeeping,
    );
  return { meta, messages };
}
