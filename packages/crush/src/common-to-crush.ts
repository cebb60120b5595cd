// Common → Crush session rows, the way Crush's own queries write and read
// them (internal/db/sql/*.sql): one `messages` row per run of a Common
// message's blocks — tool results go into a `tool` message, a compaction
// into a summary message, everything else keeps the message's role — with
// `parts` JSON that Crush's Go unmarshalling accepts. Subagents become child
// sessions. The rules are docs/formats/crush.md's "Writing"; every loss is
// reported through `warn`.
import {
  type Block,
  type ConversionOptions,
  type Json,
  type JsonObject,
  type Message,
  type Subagent,
  stringifyJson,
  type Transcript,
  uuidV5,
  warn,
} from "@txcript/core";
import { crushLoss } from "./crush-losses.js";
import { isGoBase64 } from "./crush-parts.js";
import { type CrushSession, harness, maxDepth } from "./crush-schema.js";
import { canonicalToCrushTool } from "./crush-tools.js";

/** Namespace of the UUID v5 message ids the writer makes (`<session id>\0<index>`). */
export const crushMessageNamespace = "5b0f6a1e-6c1d-4a8e-9a53-3f0c2c7e8d41";

export function crushMessageId(sessionId: string, index: number): string {
  return uuidV5(`${sessionId}\u0000${index}`, crushMessageNamespace);
}

const stopReasons: Record<string, string> = { aborted: "canceled", refusal: "content_filter" };

/** A Common message's blocks cut into runs: tool results, one compaction, or the rest. */
export type Run =
  | { kind: "results"; blocks: Block[] }
  | { kind: "compaction"; blocks: Block[] }
  | { kind: "other"; blocks: Block[] };

export function runsOf(message: Message): Run[] {
  const runs: Run[] = [];
  for (const block of message.content) {
    const kind =
      block.type === "tool_result"
        ? "results"
        : block.type === "compaction"
          ? "compaction"
          : "other";
    const last = runs.at(-1);
    if (last !== undefined && last.kind === kind && kind !== "compaction") last.blocks.push(block);
    else runs.push({ kind, blocks: [block] });
  }
  if (runs.length === 0) runs.push({ kind: "other", blocks: [] });
  return runs;
}

function seconds(timestamp: string): number {
  return Math.floor(Date.parse(timestamp) / 1000);
}

interface Written {
  messages: JsonObject[];
  /** Tool call id → [Crush message id, Crush tool name], first occurrence. */
  calls: Map<string, [string, string]>;
  summaryId: string | null;
  last: number;
}

function part(type: string, data: JsonObject): JsonObject {
  return { type, data };
}

function blockPart(
  block: Block,
  calls: Map<string, [string, string]>,
  messageId: string,
  options: ConversionOptions | undefined,
  at: string,
): JsonObject | undefined {
  switch (block.type) {
    case "text":
      return part("text", { text: block.text });
    case "thinking":
      if (block.encrypted !== undefined || block.provider !== undefined)
        warn(
          options,
          crushLoss.thinkingFields,
          "a thinking block's encrypted content or provider was not kept",
          at,
        );
      return part("reasoning", { thinking: block.text, signature: block.signature ?? "" });
    case "image":
      if (!isGoBase64(block.source.data)) {
        warn(options, crushLoss.imageData, "an image that is not standard base64 was left out", at);
        return undefined;
      }
      return part("binary", {
        Path: "",
        MIMEType: block.source.mediaType,
        Data: block.source.data,
      });
    case "tool_use": {
      const call = canonicalToCrushTool(block.tool);
      if (!calls.has(block.id)) calls.set(block.id, [messageId, call.name]);
      return part("tool_call", {
        id: block.id,
        name: call.name,
        input: stringifyJson(call.input, undefined, harness),
        provider_executed: false,
        finished: true,
      });
    }
    case "tool_result": {
      if (typeof block.content !== "string")
        warn(options, crushLoss.resultJson, "structured tool output became its JSON text", at);
      return part("tool_result", {
        tool_call_id: block.toolUseId,
        name: calls.get(block.toolUseId)?.[1] ?? "",
        content:
          typeof block.content === "string"
            ? block.content
            : stringifyJson(block.content as Json, undefined, harness),
        data: "",
        mime_type: "",
        metadata: "",
        is_error: block.isError,
      });
    }
    case "compaction":
      return part("text", { text: block.summary });
  }
}

function writeMessages(
  sessionId: string,
  messages: readonly Message[],
  start: number,
  options: ConversionOptions | undefined,
  at: string,
): Written {
  const written: Written = {
    messages: [],
    calls: new Map(),
    summaryId: null,
    last: start,
  };
  let previous = Number.NEGATIVE_INFINITY;
  messages.forEach((message, messageIndex) => {
    const where = `${at}[${messageIndex}]`;
    if (message.context !== undefined) {
      warn(
        options,
        crushLoss.context,
        `a ${message.context.kind} context message was not written`,
        where,
      );
      return;
    }
    const exact = seconds(message.timestamp);
    if (exact * 1000 !== Date.parse(message.timestamp) || exact < previous)
      warn(
        options,
        crushLoss.timestampOrder,
        "a timestamp was kept to the second, or raised to the one before",
        where,
      );
    const second = Math.max(previous, exact);
    previous = second;
    written.last = second;
    // Common usage is per message, Crush's per session; a total read back would not be the same usage again.
    if (message.usage !== undefined)
      warn(options, crushLoss.usage, "a message's usage was not kept", where);
    const runs = runsOf(message);
    const lastOther =
      message.role === "assistant" ? runs.map((run) => run.kind).lastIndexOf("other") : -1;
    if (message.stopReason !== undefined && lastOther === -1)
      warn(
        options,
        crushLoss.stopReason,
        "a stop reason with no assistant message to carry it was not kept",
        where,
      );
    runs.forEach((run, runIndex) => {
      const id = crushMessageId(sessionId, written.messages.length);
      const parts: JsonObject[] = [];
      run.blocks.forEach((block, blockIndex) => {
        if (
          block.type === "compaction" &&
          (block.trigger !== undefined ||
            block.preTokens !== undefined ||
            block.history !== undefined)
        )
          warn(
            options,
            crushLoss.compactionFields,
            "a compaction's trigger, preTokens or history was not kept",
            where,
          );
        const written_ = blockPart(
          block,
          written.calls,
          id,
          options,
          `${where}.content[${blockIndex}]`,
        );
        if (written_ !== undefined) parts.push(written_);
      });
      const role =
        run.kind === "results" ? "tool" : run.kind === "compaction" ? "assistant" : message.role;
      let finishedAt: number | null = null;
      if (run.kind === "compaction") {
        parts.push(part("finish", { reason: "end_turn", time: second }));
        finishedAt = second;
        written.summaryId = id;
      } else if (role === "assistant") {
        if (runIndex === lastOther && message.stopReason !== undefined) {
          parts.push(
            part("finish", {
              reason: stopReasons[message.stopReason] ?? message.stopReason,
              time: second,
            }),
          );
          finishedAt = second;
        }
      } else parts.push(part("finish", { reason: "stop", time: 0 }));
      written.messages.push({
        id,
        session_id: sessionId,
        role,
        parts: stringifyJson(parts, undefined, harness),
        model: message.model ?? null,
        created_at: second,
        updated_at: second,
        finished_at: finishedAt,
        provider: null,
        is_summary_message: run.kind === "compaction" ? 1 : 0,
      });
    });
  });
  return written;
}

function sessionRow(
  id: string,
  parent: string | null,
  title: string,
  created: number,
  written: Written,
): JsonObject {
  return {
    id,
    parent_session_id: parent,
    title,
    message_count: written.messages.length,
    prompt_tokens: 0,
    completion_tokens: 0,
    cost: 0,
    updated_at: Math.max(created, written.last),
    created_at: created,
    summary_message_id: written.summaryId,
    todos: null,
  };
}

/** The id a subagent's child session is written under (docs/formats/crush.md, Subagents). */
export function childSessionId(
  subagent: Subagent,
  parentId: string,
  calls: ReadonlyMap<string, readonly [string, string]>,
  taken: ReadonlySet<string>,
): string {
  const call = subagent.toolUseId === undefined ? undefined : calls.get(subagent.toolUseId);
  const wanted = call === undefined ? subagent.id : `${call[0]}$$${subagent.toolUseId}`;
  if (!taken.has(wanted) && wanted !== `title-${parentId}`) return wanted;
  for (let n = 2; ; n += 1) {
    const candidate = `${wanted}#${n}`;
    if (!taken.has(candidate) && candidate !== `title-${parentId}`) return candidate;
  }
}

function writeChildren(
  parentId: string,
  subagents: readonly Subagent[],
  calls: ReadonlyMap<string, readonly [string, string]>,
  created: number,
  taken: Set<string>,
  depth: number,
  options: ConversionOptions | undefined,
  at: string,
): CrushSession[] {
  const children: CrushSession[] = [];
  subagents.forEach((subagent, index) => {
    const where = `${at}[${index}]`;
    if (depth > maxDepth) {
      warn(options, crushLoss.subagentFields, "a subagent nested too deep was left out", where);
      return;
    }
    if (subagent.agentType !== undefined || subagent.model !== undefined)
      warn(
        options,
        crushLoss.subagentFields,
        "a subagent's agentType or model was not kept",
        where,
      );
    if (subagent.toolUseId !== undefined && !calls.has(subagent.toolUseId))
      warn(
        options,
        crushLoss.subagentLink,
        "a subagent's link to a call its parent does not hold was not kept",
        where,
      );
    const id = childSessionId(subagent, parentId, calls, taken);
    taken.add(id);
    if (id !== subagent.id)
      warn(options, crushLoss.subagentId, "a subagent's id was rewritten", where);
    const written = writeMessages(id, subagent.messages, created, options, `${where}.messages`);
    const child: CrushSession = {
      session: sessionRow(id, parentId, subagent.title ?? "", created, written),
      messages: written.messages,
    };
    const nested = writeChildren(
      id,
      subagent.subagents ?? [],
      written.calls,
      created,
      taken,
      depth + 1,
      options,
      `${where}.subagents`,
    );
    if (nested.length > 0) child.children = nested;
    children.push(child);
  });
  return children;
}

export function commonToCrush(transcript: Transcript, options?: ConversionOptions): CrushSession {
  const meta = transcript.meta;
  const dropped = [meta.gitBranch, meta.cliVersion, meta.model, meta.lineage].filter(
    (value) => value !== undefined,
  );
  if (dropped.length > 0)
    warn(
      options,
      crushLoss.meta,
      "the session's gitBranch, cliVersion, model or lineage was not kept",
      "$.meta",
      dropped.length,
    );
  if (seconds(meta.timestamp) * 1000 !== Date.parse(meta.timestamp))
    warn(
      options,
      crushLoss.timestampOrder,
      "the session's start was kept to the second",
      "$.meta.timestamp",
    );
  const created = seconds(meta.timestamp);
  const written = writeMessages(meta.id, transcript.messages, created, options, "$.messages");
  const session: CrushSession = {
    ...(meta.cwd === undefined ? {} : { projectDirectory: meta.cwd }),
    session: sessionRow(meta.id, null, meta.title ?? "", created, written),
    messages: written.messages,
  };
  const children = writeChildren(
    meta.id,
    transcript.subagents ?? [],
    written.calls,
    created,
    new Set([meta.id]),
    1,
    options,
    "$.subagents",
  );
  if (children.length > 0) session.children = children;
  return session;
}
