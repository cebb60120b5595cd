// The Codex normalization of a Common transcript, written from the format
// doc (docs/formats/codex.md): what writing it as a rollout and reading it
// back gives. Blocks go to the user side (prompts, results) or the assistant
// side (text, reasoning, calls); consecutive same-side blocks form one
// message; a model change or a usage record ends one. Not the writer: see
// common-to-codex.ts.
import {
  type Block,
  fromCanonical,
  isJsonObject,
  type Json,
  type JsonObject,
  type Message,
  type MessageContext,
  type Meta,
  ownValue,
  stringifyJson,
  type Tool,
  type Transcript,
  type Usage,
} from "@txcript/core";
import { injectedSource } from "./codex-items.js";
import { codexSessionId } from "./codex-paths.js";

type Side = "user" | "assistant";
type Unit =
  | { kind: "item"; side: Side; block: Block; timestamp: string; model: string | undefined }
  | { kind: "text"; side: Side; block: Block; timestamp: string; model: string | undefined }
  | { kind: "alone"; blocks: Block[]; timestamp: string; context?: MessageContext }
  | { kind: "turn" }
  | { kind: "usage"; usage: Usage };

interface State {
  inForce: string | undefined;
  /** The session's model as written; what the first response's model is when it has none. */
  meta: string | undefined;
  sawAssistant: boolean;
  /** The model in force at the first response: what the session's model reads back as. */
  first: string | undefined;
  /** The ids of the calls written so far (codex.orphan-result). */
  calls: Set<string>;
}

const cliVersionPlaceholder = "0.0.0-txcript";

function keysWithin(object: JsonObject, keys: readonly string[]): boolean {
  return Object.keys(object).every((key) => keys.includes(key));
}

function bashOf(command: string, workdir: Json | undefined, timeout: Json | undefined): Tool {
  const input: JsonObject = { command };
  if (workdir !== undefined) input.workdir = workdir;
  if (timeout !== undefined) input.timeout = timeout;
  return { name: "Bash", input: input as { command: string } };
}

/** A tool as it reads back: Codex's shell and search calls that fit become Bash and WebSearch. */
function projectTool(tool: Tool): Tool {
  if (tool.name !== "Raw" || !isJsonObject(tool.input)) return tool;
  const input = tool.input;
  const command = ownValue(input, "command");
  const workdir = ownValue(input, "workdir");
  const timeout = ownValue(input, "timeout_ms");
  const fitsShell =
    keysWithin(input, ["command", "workdir", "timeout_ms"]) &&
    (workdir === undefined || typeof workdir === "string") &&
    (timeout === undefined || Number.isInteger(timeout));
  if (tool.toolName === "shell_command" && typeof command === "string" && fitsShell)
    return bashOf(command, workdir, timeout);
  if (
    tool.toolName === "shell" &&
    fitsShell &&
    Array.isArray(command) &&
    command.length === 3 &&
    command[0] === "bash" &&
    command[1] === "-lc" &&
    typeof command[2] === "string"
  )
    return bashOf(command[2], workdir, timeout);
  const cmd = ownValue(input, "cmd");
  if (
    tool.toolName === "exec_command" &&
    typeof cmd === "string" &&
    keysWithin(input, ["cmd", "workdir"]) &&
    (workdir === undefined || typeof workdir === "string")
  )
    return bashOf(cmd, workdir, undefined);
  if (tool.toolName === "web_search") {
    const typed = fromCanonical("WebSearch", input);
    if (typed.name === "WebSearch") return typed;
  }
  return tool;
}

/** Tool output Codex holds as is: a string, or a non-empty list of input_text / input_image items. */
function projectOutput(content: Json): Json {
  if (typeof content === "string") return content;
  const items =
    Array.isArray(content) &&
    content.length > 0 &&
    content.every((item) => {
      if (!isJsonObject(item)) return false;
      const keys = Object.keys(item).sort().join(",");
      const type = ownValue(item, "type");
      return (
        (type === "input_text" &&
          keys === "text,type" &&
          typeof ownValue(item, "text") === "string") ||
        (type === "input_image" &&
          keys === "image_url,type" &&
          typeof ownValue(item, "image_url") === "string")
      );
    });
  return items ? content : JSON.stringify(content);
}

function projectUsage(usage: Usage): Usage {
  const out: Usage = {
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    cacheReadInputTokens: usage.cacheReadInputTokens,
    cacheCreationInputTokens: usage.cacheCreationInputTokens,
  };
  if (usage.reasoningOutputTokens !== undefined && usage.reasoningOutputTokens > 0)
    out.reasoningOutputTokens = usage.reasoningOutputTokens;
  return out;
}

// codex.orphan-result (docs/formats/codex.md): `[tool result] <output>`, or
// `[tool result (error)] <output>`; output that is not a string as its JSON text.
function orphanResultText(block: Block & { type: "tool_result" }): Block {
  const output =
    typeof block.content === "string"
      ? block.content
      : stringifyJson(block.content, undefined, "codex");
  return { type: "text", text: `[tool result${block.isError ? " (error)" : ""}] ${output}` };
}

/** The units one message's blocks become; `history` messages carry no model, usage or turn. */
function unitsOf(
  message: Message,
  units: Unit[],
  state: State,
  history: { timestamp: string } | undefined,
): void {
  const timestamp = history?.timestamp ?? message.timestamp;
  if (message.context !== undefined) {
    const own = message.content.filter((block) => block.type === "text" || block.type === "image");
    if (own.length > 0) {
      if (message.context.kind !== "injected")
        units.push({ kind: "alone", blocks: own, timestamp, context: { kind: "developer" } });
      else {
        const first = own[0];
        const source = injectedSource(first?.type === "text" ? first.text : undefined);
        if (source !== undefined)
          units.push({
            kind: "alone",
            blocks: own,
            timestamp,
            context: { kind: "injected", source },
          });
        else
          for (const block of own)
            units.push({ kind: "text", side: "user", block, timestamp, model: state.inForce });
      }
    }
    if (history !== undefined) return;
    const rest = message.content.filter((block) => block.type !== "text" && block.type !== "image");
    const { role, model } = message;
    const restMessage: Message = { role, content: rest, timestamp: message.timestamp };
    if (model !== undefined) restMessage.model = model;
    if (rest.length > 0) unitsOf(restMessage, units, state, undefined);
    return;
  }
  let assistantItems = 0;
  let run: Block[] = [];
  let runSide: Side | undefined;
  const enter = (side: Side) => {
    if (history === undefined && side === "assistant") {
      const own = message.role === "assistant" ? message.model : undefined;
      let wanted: string | undefined;
      if (!state.sawAssistant) {
        state.sawAssistant = true;
        wanted = own ?? state.meta;
        state.first = wanted;
      } else if (assistantItems === 0 && own !== undefined) wanted = own;
      if (wanted !== undefined && wanted !== state.inForce) {
        state.inForce = wanted;
        units.push({ kind: "turn" });
      }
    }
    if (side === "assistant") assistantItems += 1;
  };
  const push = (side: Side, block: Block) =>
    units.push({
      kind: "item",
      side,
      block,
      timestamp,
      model: history ? undefined : state.inForce,
    });
  const flush = () => {
    if (run.length === 0 || runSide === undefined) return;
    enter(runSide);
    for (const block of run)
      units.push({
        kind: "text",
        side: runSide,
        block,
        timestamp,
        model: history ? undefined : state.inForce,
      });
    run = [];
  };
  const compactions: Block[] = [];
  for (const block of message.content) {
    // codex.orphan-result: a result without an earlier call is user text.
    if (block.type === "tool_result" && !state.calls.has(block.toolUseId)) {
      if (runSide !== "user") flush();
      runSide = "user";
      run.push(orphanResultText(block));
      continue;
    }
    if (block.type === "text" || block.type === "image") {
      if (message.role === "assistant" && block.type === "image") continue;
      const side: Side = message.role === "assistant" ? "assistant" : "user";
      if (runSide !== side) flush();
      runSide = side;
      run.push(block);
      continue;
    }
    flush();
    runSide = undefined;
    if (block.type === "thinking") {
      const encrypted = block.provider === "openai" ? block.encrypted : undefined;
      if (block.text === "" && encrypted === undefined) continue;
      enter("assistant");
      const thinking: Block = { type: "thinking", text: block.text, provider: "openai" };
      if (encrypted !== undefined) thinking.encrypted = encrypted;
      push("assistant", thinking);
    } else if (block.type === "tool_use") {
      enter("assistant");
      push("assistant", { type: "tool_use", id: block.id, tool: projectTool(block.tool) });
      state.calls.add(block.id);
    } else if (block.type === "tool_result") {
      enter("user");
      push("user", {
        type: "tool_result",
        toolUseId: block.toolUseId,
        content: projectOutput(block.content),
        isError: false,
      });
    } else if (block.type === "compaction") compactions.push(block);
  }
  flush();
  if (history !== undefined) return;
  for (const block of compactions) {
    if (block.type !== "compaction") continue;
    const marker: Block = { type: "compaction", summary: block.summary };
    if (block.history !== undefined) marker.history = projectHistory(block.history, timestamp);
    units.push({ kind: "alone", blocks: [marker], timestamp });
  }
  if (message.role === "assistant" && message.usage !== undefined && assistantItems > 0)
    units.push({ kind: "usage", usage: projectUsage(message.usage) });
}

/**
 * Consecutive text units of one side are one message item; a user one whose
 * first text opens like Codex's injected context reads as that context.
 */
function runs(units: readonly Unit[]): Unit[] {
  const out: Unit[] = [];
  for (let index = 0; index < units.length; ) {
    const unit = units[index] as Unit;
    if (unit.kind !== "text") {
      out.push(unit);
      index += 1;
      continue;
    }
    let end = index;
    while (end < units.length) {
      const next = units[end] as Unit;
      if (next.kind !== "text" || next.side !== unit.side) break;
      end += 1;
    }
    const run = units.slice(index, end) as (Unit & { kind: "text" })[];
    const first = run[0]?.block;
    const source =
      unit.side === "user" && first?.type === "text" ? injectedSource(first.text) : undefined;
    if (source !== undefined)
      out.push({
        kind: "alone",
        blocks: run.map((part) => part.block),
        timestamp: unit.timestamp,
        context: { kind: "injected", source },
      });
    else for (const part of run) out.push({ ...part, kind: "item" });
    index = end;
  }
  return out;
}

function group(all: readonly Unit[]): Message[] {
  const units = runs(all);
  const messages: Message[] = [];
  let open: Message | undefined;
  for (const unit of units) {
    if (unit.kind === "alone") {
      const message: Message = { role: "user", content: unit.blocks, timestamp: unit.timestamp };
      if (unit.context !== undefined) message.context = unit.context;
      messages.push(message);
      open = undefined;
    } else if (unit.kind === "item" || unit.kind === "text") {
      if (open !== undefined && open.role === unit.side) open.content.push(unit.block);
      else {
        open = { role: unit.side, content: [unit.block], timestamp: unit.timestamp };
        if (unit.side === "assistant" && unit.model !== undefined) open.model = unit.model;
        messages.push(open);
      }
    } else if (unit.kind === "turn") open = undefined;
    else {
      const last = messages.findLast((message) => message.role === "assistant");
      if (last !== undefined && last.usage === undefined) last.usage = unit.usage;
      open = undefined;
    }
  }
  return messages;
}

function projectHistory(history: readonly Message[], timestamp: string): Message[] {
  const units: Unit[] = [];
  const state: State = {
    inForce: undefined,
    meta: undefined,
    sawAssistant: true,
    first: undefined,
    calls: new Set(),
  };
  for (const message of history) unitsOf(message, units, state, { timestamp });
  return group(units);
}

export function codexProject(transcript: Transcript): Transcript {
  const { meta } = transcript;
  const state: State = {
    inForce: undefined,
    meta: meta.model,
    sawAssistant: false,
    first: undefined,
    calls: new Set(),
  };
  const units: Unit[] = [];
  // Codex's own base instructions, first at the session's time, go back into session_meta as they were.
  const first = transcript.messages[0];
  const block = first?.content[0];
  const native =
    first !== undefined &&
    first.role === "user" &&
    first.context?.kind === "system" &&
    first.context.source === "base_instructions" &&
    first.content.length === 1 &&
    block?.type === "text" &&
    first.timestamp === meta.timestamp &&
    first.model === undefined &&
    first.usage === undefined &&
    first.stopReason === undefined;
  if (native)
    units.push({
      kind: "alone",
      blocks: [block],
      timestamp: meta.timestamp,
      context: { kind: "system", source: "base_instructions" },
    });
  for (const message of native ? transcript.messages.slice(1) : transcript.messages)
    unitsOf(message, units, state, undefined);
  const projected: Meta = {
    id: codexSessionId(meta.id, meta.timestamp),
    timestamp: meta.timestamp,
  };
  if (meta.cwd !== undefined && meta.cwd !== "") projected.cwd = meta.cwd;
  if (meta.gitBranch !== undefined && meta.gitBranch !== "") projected.gitBranch = meta.gitBranch;
  if (meta.cliVersion !== undefined && meta.cliVersion !== cliVersionPlaceholder)
    projected.cliVersion = meta.cliVersion;
  if (meta.lineage !== undefined) projected.lineage = meta.lineage;
  const model = state.sawAssistant ? state.first : meta.model;
  if (model !== undefined) projected.model = model;
  return { meta: projected, messages: group(units) };
}
