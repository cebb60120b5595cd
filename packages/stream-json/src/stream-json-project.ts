// streamJsonProject: what toCommon(fromCommon(t, {dialect})) equals,
// written from docs/formats/stream-json.md ("Writing", "Two dialects",
// "Common v2", "Losses") and not from the writer: it calls none of the
// writer's functions, so the law suite checks the codec against the
// documented rules. Amp's tools follow @txcript/amp's own documented
// projection (ampToolProject). Each rule names its loss code.
import { ampToolProject } from "@txcript/amp";
import {
  type Block,
  type Json,
  type Message,
  type Meta,
  type Subagent,
  stringifyJson,
  type Transcript,
  type Usage,
} from "@txcript/core";
import type { StreamJsonDialect } from "./stream-json-lines.js";

/** stream_json.stop-reason: what each dialect spells (Claude: BetaStopReason, plus its aborted/error flags). */
const spelled: Record<StreamJsonDialect, ReadonlySet<string>> = {
  claude: new Set([
    "end_turn",
    "max_tokens",
    "stop_sequence",
    "tool_use",
    "pause_turn",
    "refusal",
    "model_context_window_exceeded",
    "compaction",
    "aborted",
    "error",
  ]),
  amp: new Set(["end_turn", "max_tokens", "stop_sequence", "tool_use", "pause_turn", "refusal"]),
};

function isPlainObject(value: unknown): value is Record<string, Json> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function keysAre(value: Record<string, Json>, keys: string[]): boolean {
  const own = Object.keys(value).sort();
  return own.length === keys.length && own.every((key, index) => key === keys[index]);
}

/** The Claude tool_result content rule: a string, or a non-empty array of plain text and base64 image blocks. */
function claudeCarries(content: Json): boolean {
  if (typeof content === "string") return true;
  if (!Array.isArray(content) || content.length === 0) return false;
  return content.every((item) => {
    if (!isPlainObject(item)) return false;
    if (item.type === "text")
      return keysAre(item, ["text", "type"]) && typeof item.text === "string";
    if (item.type !== "image" || !keysAre(item, ["source", "type"])) return false;
    const source = item.source;
    return (
      isPlainObject(source) &&
      keysAre(source, ["data", "media_type", "type"]) &&
      source.type === "base64" &&
      typeof source.media_type === "string" &&
      typeof source.data === "string"
    );
  });
}

/** Nesting within 1,000 levels (the outermost counting 1) and every number finite. */
function survives(value: Json, depth: number): boolean {
  if (typeof value === "number") return Number.isFinite(value);
  if (typeof value !== "object" || value === null) return true;
  if (depth > 1000) return false;
  const items = Array.isArray(value) ? value : Object.values(value);
  return items.every((item) => survives(item as Json, depth + 1));
}

/** How the Amp dialect reads a result's text: a JSON object or array comes back as that JSON. */
function ampReads(text: string): Json {
  const start = text.trimStart()[0];
  if (start !== "{" && start !== "[") return text;
  let value: Json;
  try {
    value = JSON.parse(text) as Json;
  } catch {
    return text;
  }
  return survives(value, 1) ? value : text;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === "" ? undefined : value;
}

function projectBlock(item: Block, role: Message["role"], claude: boolean): Block | undefined {
  switch (item.type) {
    case "text":
      return item;
    case "image":
      // stream_json.image
      return role === "assistant" || !claude ? undefined : item;
    case "thinking": {
      // stream_json.thinking-details, stream_json.empty-strings
      if (item.encrypted !== undefined && item.text === "" && item.signature === undefined)
        return { type: "thinking", text: "", encrypted: item.encrypted };
      const signature = nonEmpty(item.signature);
      return signature === undefined
        ? { type: "thinking", text: item.text }
        : { type: "thinking", text: item.text, signature };
    }
    case "tool_use":
      // stream_json.tool-spelling (Amp): the Amp tool dialect's own projection.
      return claude ? item : { type: "tool_use", id: item.id, tool: ampToolProject(item.tool) };
    case "tool_result": {
      // stream_json.structured-tool-result
      const text = typeof item.content === "string" ? item.content : stringifyJson(item.content);
      const content = claude ? (claudeCarries(item.content) ? item.content : text) : ampReads(text);
      return { ...item, content };
    }
    case "compaction":
      // stream_json.compaction: only a marker alone in a user message has a line.
      return undefined;
  }
}

/** A compaction marker's line: Claude's compact_boundary (trigger manual/auto, pre_tokens), Amp none. */
function projectMarker(message: Message, claude: boolean): Message | undefined {
  const [first] = message.content;
  if (message.role !== "user" || message.content.length !== 1 || first?.type !== "compaction")
    return undefined;
  if (!claude) return { role: "user", content: [], timestamp: message.timestamp };
  const trigger = first.trigger === "manual" || first.trigger === "auto" ? first.trigger : "auto";
  return {
    role: "user",
    content: [{ type: "compaction", summary: "", trigger, preTokens: first.preTokens ?? 0 }],
    timestamp: message.timestamp,
  };
}

/** stream_json.usage-extras: the four counts only; Claude reads all zeros as none (empty-strings). */
function projectUsage(usage: Usage, claude: boolean): Usage | undefined {
  const counts: Usage = {
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    cacheReadInputTokens: usage.cacheReadInputTokens,
    cacheCreationInputTokens: usage.cacheCreationInputTokens,
  };
  const zero =
    counts.inputTokens === 0 &&
    counts.outputTokens === 0 &&
    counts.cacheReadInputTokens === 0 &&
    counts.cacheCreationInputTokens === 0;
  return claude && zero ? undefined : counts;
}

/** The tool_use ids of some messages. */
function callsIn(messages: readonly Message[]): Set<string> {
  return new Set(
    messages.flatMap((message) =>
      message.content.flatMap((block) => (block.type === "tool_use" ? [block.id] : [])),
    ),
  );
}

/**
 * stream_json.subagents (Claude): what the subagent lines read back as.
 * Written depth-first in Common order, each with parent_tool_use_id = its
 * call's id: only linked subagents with messages, the first of each call;
 * read back with id = toolUseId = that call id, and nested under the first
 * other subagent whose messages hold its call unless the call is in the
 * main conversation (a cycle: its first member is top-level). Title, agent
 * type and model have no place.
 */
function projectSubagents(
  subagents: readonly Subagent[],
  main: readonly Message[],
  project: (message: Message) => Message,
): Subagent[] {
  const flat: { key: string; messages: Message[] }[] = [];
  const walk = (list: readonly Subagent[]) => {
    for (const subagent of list) {
      const key = subagent.toolUseId;
      if (key !== undefined && subagent.messages.length > 0 && !flat.some((e) => e.key === key))
        flat.push({ key, messages: subagent.messages.map(project) });
      walk(subagent.subagents ?? []);
    }
  };
  walk(subagents);
  const mainCalls = callsIn(main);
  const parents = flat.map((entry, index) => {
    if (mainCalls.has(entry.key)) return -1;
    return flat.findIndex((other, at) => at !== index && callsIn(other.messages).has(entry.key));
  });
  for (let index = 0; index < flat.length; index += 1) {
    const seen = [index];
    for (let up = parents[index] as number; up !== -1; up = parents[up] as number) {
      if (seen.includes(up)) {
        parents[index] = -1;
        break;
      }
      seen.push(up);
    }
  }
  const build = (parent: number): Subagent[] =>
    flat.flatMap((entry, index) => {
      if (parents[index] !== parent) return [];
      const subagent: Subagent = { id: entry.key, toolUseId: entry.key, messages: entry.messages };
      const children = build(index);
      if (children.length > 0) subagent.subagents = children;
      return [subagent];
    });
  return build(-1);
}

/**
 * What `toCommon(fromCommon(t, {dialect}))` gives for `t` (any tool era:
 * both read back as the same tools). Both dialects: no title or git
 * branch; "" means absent; no assistant images; no thinking
 * provider; encrypted thinking only on its own; user lines carry no model,
 * stop reason, usage or context mark; usage is the four counts; lineage is
 * kept (init's `txcript_lineage`). Claude: stop reasons outside
 * BetaStopReason (but aborted and error) dropped; all-zero usage dropped;
 * tool output other than text and image block arrays becomes its JSON
 * text; a compaction marker keeps only its trigger and token count;
 * subagents as their lines read back (projectSubagents). Amp: no subagents, no model or CLI
 * version anywhere; no user images; stop reasons outside the
 * manual's list dropped; tools through Amp's dialect; tool output is text,
 * objects and arrays read back as JSON; no compaction markers.
 */
export function streamJsonProject(
  dialect: StreamJsonDialect,
): (transcript: Transcript) => Transcript {
  const claude = dialect === "claude";
  const projectMessage = (message: Message): Message => {
    const projected: Message = {
      role: message.role,
      content: message.content.flatMap((item) => projectBlock(item, message.role, claude) ?? []),
      timestamp: message.timestamp,
    };
    // stream_json.user-attribution, stream_json.context
    if (message.role === "user") return projected;
    // stream_json.message-model (Amp), stream_json.empty-strings (Claude)
    const model = claude ? nonEmpty(message.model) : undefined;
    if (model !== undefined) projected.model = model;
    // stream_json.stop-reason
    const reason = message.stopReason;
    if (reason !== undefined && spelled[dialect].has(reason)) projected.stopReason = reason;
    const usage = message.usage === undefined ? undefined : projectUsage(message.usage, claude);
    if (usage !== undefined) projected.usage = usage;
    return projected;
  };
  return (transcript) => {
    const messages = transcript.messages.map(
      (message) => projectMarker(message, claude) ?? projectMessage(message),
    );
    // stream_json.meta-fields, stream_json.empty-strings
    const { meta } = transcript;
    const projected: Meta = { id: meta.id, timestamp: meta.timestamp };
    const cwd = nonEmpty(meta.cwd);
    if (cwd !== undefined) projected.cwd = cwd;
    if (claude) {
      const version = nonEmpty(meta.cliVersion);
      if (version !== undefined) projected.cliVersion = version;
      const model = nonEmpty(meta.model);
      if (model !== undefined) projected.model = model;
    }
    if (meta.lineage !== undefined) projected.lineage = meta.lineage;
    // stream_json.subagents: the Amp dialect writes none.
    const subagents =
      claude && transcript.subagents !== undefined
        ? projectSubagents(transcript.subagents, messages, projectMessage)
        : [];
    return subagents.length > 0
      ? { meta: projected, messages, subagents }
      : { meta: projected, messages };
  };
}
