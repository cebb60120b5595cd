// The compact text projection of a transcript: numbered messages (ordinals
// 1-based over the whole transcript), one-line tool calls and results,
// thinking marked as such, and no base64 payloads. For `txcript view` and
// for pasting a session into another model as context.
import type { Block, Message, Subagent, Transcript } from "./model.js";
import { toCanonical } from "./tool-inputs.js";

export interface MessageRange {
  /** First ordinal shown (1-based, inclusive). */
  from?: number;
  /** Last ordinal shown (inclusive). */
  to?: number;
}

export interface ToTextOptions {
  range?: MessageRange;
  /** ANSI colour for headers and tool lines (the CLI decides: TTY and no NO_COLOR). */
  color?: boolean;
  /** Cut tool inputs and results longer than this (characters). Default 400. */
  maxToolChars?: number;
}

const ansi = {
  bold: "\u001b[1m",
  dim: "\u001b[2m",
  cyan: "\u001b[36m",
  yellow: "\u001b[33m",
  red: "\u001b[31m",
  reset: "\u001b[0m",
};

/** Resolve a range against a message count: clamps to 1..count. */
export function resolveRange(
  range: MessageRange | undefined,
  count: number,
): { from: number; to: number } {
  const from = Math.max(1, range?.from ?? 1);
  const to = Math.min(count, range?.to ?? count);
  return { from, to };
}

export function toText(transcript: Transcript, options: ToTextOptions = {}): string {
  const paint = (code: keyof typeof ansi, text: string) =>
    options.color ? `${ansi[code]}${text}${ansi.reset}` : text;
  const max = options.maxToolChars ?? 400;
  const { meta } = transcript;
  const lines: string[] = [];
  const header = [meta.title ? `${meta.title}` : undefined, meta.id, meta.timestamp]
    .filter(Boolean)
    .join(" · ");
  lines.push(paint("bold", header));
  const details = [
    meta.cwd && `cwd ${meta.cwd}`,
    meta.gitBranch && `branch ${meta.gitBranch}`,
    meta.model && `model ${meta.model}`,
  ]
    .filter(Boolean)
    .join(" · ");
  if (details) lines.push(paint("dim", details));
  const { from, to } = resolveRange(options.range, transcript.messages.length);
  const subagents = subagentsByCall(transcript.subagents);
  for (let ordinal = from; ordinal <= to; ordinal += 1) {
    const message = transcript.messages[ordinal - 1] as Message;
    lines.push("");
    lines.push(paint("bold", messageHeader(`#${ordinal}`, message)));
    lines.push(...contentLines(message, max, paint, subagents, ""));
  }
  // Subagents whose spawning call is unknown (or outside the range shown when unlinked).
  if (from === 1 && to === transcript.messages.length)
    for (const subagent of subagents.get(undefined) ?? [])
      lines.push("", ...subagentLines(subagent, max, paint, ""));
  return `${lines.join("\n")}\n`;
}

type Paint = (code: keyof typeof ansi, text: string) => string;

function subagentsByCall(
  subagents: readonly Subagent[] | undefined,
): Map<string | undefined, Subagent[]> {
  const byCall = new Map<string | undefined, Subagent[]>();
  for (const subagent of subagents ?? []) {
    const list = byCall.get(subagent.toolUseId) ?? [];
    list.push(subagent);
    byCall.set(subagent.toolUseId, list);
  }
  return byCall;
}

function contentLines(
  message: Message,
  max: number,
  paint: Paint,
  subagents: Map<string | undefined, Subagent[]>,
  prefix: string,
): string[] {
  const lines: string[] = [];
  for (const block of message.content) {
    lines.push(...blockLines(block, max, paint).map((line) => prefix + line));
    if (block.type === "tool_use")
      for (const subagent of subagents.get(block.id) ?? [])
        lines.push(...subagentLines(subagent, max, paint, `${prefix}    `));
  }
  return lines;
}

/** A subagent's conversation, indented under the call that spawned it (ordinals `#<call>.<n>`). */
function subagentLines(subagent: Subagent, max: number, paint: Paint, prefix: string): string[] {
  const title = [subagent.agentType, subagent.title].filter(Boolean).join(": ");
  const lines = [prefix + paint("cyan", `┌ subagent ${subagent.id}${title ? ` (${title})` : ""}`)];
  const nested = subagentsByCall(subagent.subagents);
  subagent.messages.forEach((message, index) => {
    lines.push(prefix + paint("bold", `│ ${messageHeader(`.${index + 1}`, message)}`));
    lines.push(...contentLines(message, max, paint, nested, `${prefix}│ `));
  });
  for (const orphan of nested.get(undefined) ?? [])
    lines.push(...subagentLines(orphan, max, paint, `${prefix}│ `));
  lines.push(prefix + paint("cyan", "└"));
  return lines;
}

function messageHeader(label: string, message: Message): string {
  const parts = [label, message.role, message.timestamp];
  if (message.context)
    parts.push(
      `[${message.context.kind}${message.context.source ? `: ${message.context.source}` : ""}]`,
    );
  if (message.model) parts.push(message.model);
  if (message.stopReason && message.stopReason !== "end_turn" && message.stopReason !== "tool_use")
    parts.push(`[${message.stopReason}]`);
  return parts.join(" ");
}

function base64Bytes(data: string): number {
  const padding = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

/** JSON for a preview, never throwing: hostile depth shows as a note instead. */
function preview(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "undefined";
  } catch {
    return "(nested too deeply to show)";
  }
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length - max} more characters)` : text;
}

function indent(text: string, prefix = "  "): string[] {
  return text.split("\n").map((line) => `${prefix}${line}`);
}

function blockLines(block: Block, max: number, paint: Paint): string[] {
  switch (block.type) {
    case "text":
      return block.text === "" ? [] : indent(block.text);
    case "thinking": {
      const body =
        block.text !== "" ? block.text : block.encrypted !== undefined ? "(encrypted)" : "(empty)";
      return indent(body, "  ┆ ").map((line, index) =>
        paint("dim", index === 0 ? line.replace("  ┆ ", "  ┆ thinking: ") : line),
      );
    }
    case "tool_use": {
      const { name, input } = toCanonical(block.tool);
      return [
        paint("cyan", `  → ${name} ${cut(preview(input), max)}`) + paint("dim", ` [${block.id}]`),
      ];
    }
    case "tool_result": {
      const body = typeof block.content === "string" ? block.content : preview(block.content);
      const label = block.isError ? paint("red", "  ← error") : paint("yellow", "  ←");
      const [first = "", ...rest] = cut(body, max).split("\n");
      return [
        `${label} ${first}${paint("dim", ` [${block.toolUseId}]`)}`,
        ...rest.map((line) => `    ${line}`),
      ];
    }
    case "image":
      return [
        paint(
          "dim",
          `  [image ${block.source.mediaType}, ${base64Bytes(block.source.data)} bytes]`,
        ),
      ];
    case "compaction": {
      const facts = [
        block.trigger,
        block.preTokens === undefined ? undefined : `${block.preTokens} tokens before`,
        block.history === undefined ? undefined : `${block.history.length} messages kept`,
      ].filter(Boolean);
      return [
        paint("yellow", `  ═══ compacted${facts.length > 0 ? ` (${facts.join(", ")})` : ""} ═══`),
        ...indent(cut(block.summary, max * 2), "  ").map((line) => paint("dim", line)),
      ];
    }
  }
}
