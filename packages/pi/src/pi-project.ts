// The pi normalization of a Common transcript, written from
// docs/formats/pi.md ("What txcript writes" and "Reading"), not from the
// writer: what a transcript reads back as after being written as a pi
// session. The law suite checks toCommon(parse(serialize(fromCommon(c))))
// against it. Each step below names the loss it states.
import {
  type Block,
  type CompactionBlock,
  fromCanonical,
  isJsonObject,
  type Json,
  type JsonObject,
  jsonEqual,
  type Message,
  type Meta,
  stringifyJson,
  type Tool,
  type Transcript,
  toCanonical,
  type Usage,
} from "@txcript/core";
import { piSessionId } from "./pi-paths.js";

// pi.raw-tool-typed: a Raw call named after a pi built-in tool whose
// arguments fit it exactly reads back as the canonical tool.
type Fit = (input: JsonObject) => Tool | undefined;

function onlyKeys(input: JsonObject, allowed: string[], required: string[]): boolean {
  const keys = Object.keys(input);
  return keys.every((key) => allowed.includes(key)) && required.every((key) => keys.includes(key));
}

function rename(input: JsonObject, names: Record<string, string>): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(input))
    Object.defineProperty(out, names[key] ?? key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return out;
}

const safeInteger = (value: Json | undefined) =>
  typeof value === "number" && Number.isSafeInteger(value);

const builtIns: Record<string, Fit> = {
  read: (input) =>
    onlyKeys(input, ["path", "offset", "limit"], ["path"]) &&
    typeof input.path === "string" &&
    (!Object.hasOwn(input, "offset") || safeInteger(input.offset)) &&
    (!Object.hasOwn(input, "limit") || safeInteger(input.limit))
      ? fromCanonical("Read", rename(input, { path: "file_path" }))
      : undefined,
  write: (input) =>
    onlyKeys(input, ["path", "content"], ["path", "content"]) &&
    typeof input.path === "string" &&
    typeof input.content === "string"
      ? fromCanonical("Write", rename(input, { path: "file_path" }))
      : undefined,
  edit: (input) => {
    if (
      onlyKeys(input, ["path", "oldText", "newText"], ["path", "oldText", "newText"]) &&
      typeof input.path === "string" &&
      typeof input.oldText === "string" &&
      typeof input.newText === "string"
    )
      return fromCanonical(
        "Edit",
        rename(input, { path: "file_path", oldText: "old_string", newText: "new_string" }),
      );
    if (!onlyKeys(input, ["path", "edits"], ["path", "edits"]) || typeof input.path !== "string")
      return undefined;
    const edits = input.edits;
    if (!Array.isArray(edits)) return undefined;
    const pairs: Json[] = [];
    for (const edit of edits) {
      if (!isJsonObject(edit) || !onlyKeys(edit, ["oldText", "newText"], ["oldText", "newText"]))
        return undefined;
      if (typeof edit.oldText !== "string" || typeof edit.newText !== "string") return undefined;
      pairs.push(rename(edit, { oldText: "old_string", newText: "new_string" }));
    }
    const multi = rename(input, { path: "file_path" });
    multi.edits = pairs;
    return fromCanonical("MultiEdit", multi);
  },
  bash: (input) =>
    onlyKeys(input, ["command"], ["command"]) && typeof input.command === "string"
      ? fromCanonical("Bash", input)
      : undefined,
};

function projectTool(tool: Tool): Tool {
  if (tool.name !== "Raw" || !Object.hasOwn(builtIns, tool.toolName) || !isJsonObject(tool.input))
    return tool;
  return (builtIns[tool.toolName] as Fit)(tool.input) ?? tool;
}

function isPiBlock(item: Json): boolean {
  if (!isJsonObject(item)) return false;
  const keys = Object.keys(item).sort().join(",");
  if (item.type === "text") return keys === "text,type" && typeof item.text === "string";
  return (
    item.type === "image" &&
    keys === "data,mimeType,type" &&
    typeof item.data === "string" &&
    typeof item.mimeType === "string"
  );
}

// pi.json-tool-output: results are lists of pi text/image blocks; a list of
// one text block reads back as its text, other JSON as its JSON text.
function projectResultContent(content: Json): Json {
  if (typeof content === "string") return content;
  if (Array.isArray(content) && content.every(isPiBlock)) {
    const only = content.length === 1 ? (content[0] as JsonObject) : undefined;
    return only !== undefined && only.type === "text" ? (only.text as string) : content;
  }
  return stringifyJson(content, undefined, "pi");
}

// pi.thinking-provider, pi.thinking-encrypted-dropped: thinking takes the
// message's provider (its first non-empty thinking provider) and keeps one of
// signature or encrypted data.
function projectThinking(block: Block & { type: "thinking" }, provider: string | undefined): Block {
  const from = provider === undefined ? {} : { provider };
  if (block.signature !== undefined)
    return { type: "thinking", text: block.text, signature: block.signature, ...from };
  if (block.encrypted !== undefined)
    return { type: "thinking", text: block.text, encrypted: block.encrypted, ...from };
  return { type: "thinking", text: block.text, ...from };
}

// pi.stop-reason: pi spells stop reasons stop/length/toolUse/error/aborted.
const fromPiSpelling: Record<string, string> = {
  stop: "end_turn",
  length: "max_tokens",
  toolUse: "tool_use",
};

function projectStopReason(message: Message): string {
  const reason = message.stopReason;
  if (reason === undefined)
    return message.content.some((block) => block.type === "tool_use") ? "tool_use" : "end_turn";
  return Object.hasOwn(fromPiSpelling, reason) ? (fromPiSpelling[reason] as string) : reason;
}

// pi.usage-filled, pi.reasoning-tokens: every assistant message has usage; a zero cost is no cost.
function projectUsage(usage: Usage | undefined): Usage {
  const out: Usage = {
    inputTokens: usage?.inputTokens ?? 0,
    outputTokens: usage?.outputTokens ?? 0,
    cacheReadInputTokens: usage?.cacheReadInputTokens ?? 0,
    cacheCreationInputTokens: usage?.cacheCreationInputTokens ?? 0,
  };
  if (usage?.costUsd !== undefined && usage.costUsd > 0) out.costUsd = usage.costUsd;
  return out;
}

// pi.compaction-history: summary, token count (0 when absent), and "extension" as the only trigger.
function projectCompaction(block: CompactionBlock): Block {
  return {
    type: "compaction",
    summary: block.summary,
    ...(block.trigger === "extension" ? { trigger: "extension" } : {}),
    preTokens: block.preTokens ?? 0,
  };
}

/** One entry as pi stores it, before reading groups them into messages. */
type Piece =
  | { kind: "message"; message: Message }
  | { kind: "result"; block: Block; timestamp: string }
  | { kind: "compaction"; block: Block; timestamp: string };

// pi.orphan-result: a result whose call is not an earlier assistant tool
// call reads back as the text `[tool result] <content>` (`[tool result
// (error)]` for an error; content not a string as its JSON text).
function orphanText(block: Block & { type: "tool_result" }): Block {
  const content =
    typeof block.content === "string"
      ? block.content
      : stringifyJson(block.content, undefined, "pi");
  return { type: "text", text: `[tool result${block.isError ? " (error)" : ""}] ${content}` };
}

// pi.user-tool-use, pi.user-thinking, pi.user-message-fields, pi.message-shape:
// a user message is runs of text and images (a tool call as its text, thinking
// dropped), each tool result and each compaction an entry of its own.
function userPieces(message: Message, calls: ReadonlySet<string>): Piece[] {
  const pieces: Piece[] = [];
  let run: Block[] | undefined;
  const add = (item: Block) => {
    run ??= [];
    run.push(item);
  };
  const flush = () => {
    if (run === undefined) return;
    const out: Message = { role: "user", content: run, timestamp: message.timestamp };
    if (message.context !== undefined) out.context = message.context;
    pieces.push({ kind: "message", message: out });
    run = undefined;
  };
  for (const block of message.content) {
    if (block.type === "text" || block.type === "image") add(block);
    else if (block.type === "tool_use") {
      const { name, input } = toCanonical(block.tool);
      add({
        type: "text",
        text: `[tool call ${name} ${stringifyJson(input, undefined, "pi")}]`,
      });
    } else if (block.type === "tool_result" && !calls.has(block.toolUseId)) add(orphanText(block));
    else if (block.type === "tool_result" || block.type === "compaction") {
      flush();
      pieces.push(
        block.type === "tool_result"
          ? { kind: "result", block, timestamp: message.timestamp }
          : { kind: "compaction", block, timestamp: message.timestamp },
      );
    }
  }
  if (run !== undefined || message.content.length === 0) {
    run ??= [];
    flush();
  }
  return pieces;
}

// pi.assistant-image, pi.assistant-context, pi.result-on-assistant, pi.empty-model:
// results and compactions follow the assistant entry; images and context go;
// a result without an earlier call (its own included) is a user message of its text.
function assistantPieces(message: Message, calls: Set<string>): Piece[] {
  let provider: string | undefined;
  for (const block of message.content)
    if (
      block.type === "thinking" &&
      provider === undefined &&
      block.provider !== undefined &&
      block.provider !== ""
    )
      provider = block.provider;
  const content: Block[] = [];
  const after: Piece[] = [];
  for (const block of message.content) {
    if (block.type === "text") content.push(block);
    else if (block.type === "thinking") content.push(projectThinking(block, provider));
    else if (block.type === "tool_use") {
      content.push({ type: "tool_use", id: block.id, tool: projectTool(block.tool) });
      calls.add(block.id);
    }
  }
  for (const block of message.content) {
    if (block.type === "tool_result" && !calls.has(block.toolUseId))
      after.push({
        kind: "message",
        message: { role: "user", content: [orphanText(block)], timestamp: message.timestamp },
      });
    else if (block.type === "tool_result")
      after.push({ kind: "result", block, timestamp: message.timestamp });
    else if (block.type === "compaction")
      after.push({ kind: "compaction", block, timestamp: message.timestamp });
  }
  const out: Message = { role: "assistant", content, timestamp: message.timestamp };
  if (message.model !== undefined && message.model !== "") out.model = message.model;
  out.stopReason = projectStopReason(message);
  out.usage = projectUsage(message.usage);
  return [{ kind: "message", message: out }, ...after];
}

function projectMeta(meta: Meta): Meta {
  // pi.foreign-session-id, pi.meta-fields, pi.blank-title, pi.empty-model.
  const out: Meta = { id: piSessionId(meta.id), timestamp: meta.timestamp };
  if (meta.cwd !== undefined) out.cwd = meta.cwd;
  if (meta.title !== undefined && meta.title.trim() !== "") out.title = meta.title;
  if (meta.model !== undefined && meta.model !== "") out.model = meta.model;
  if (meta.lineage !== undefined) out.lineage = meta.lineage;
  return out;
}

/**
 * pi.compaction-history: a compaction keeps a history only when it is
 * exactly the messages before it, it stands alone in its message, and the
 * first of those messages does not begin with a result joining earlier
 * results; it then reads back as copies of what those messages read back as.
 */
function historyKept(
  messages: readonly Message[],
  at: number,
  joins: readonly boolean[],
): number | undefined {
  const message = messages[at] as Message;
  const block = message.content[0];
  if (message.content.length !== 1 || block?.type !== "compaction") return undefined;
  const history = block.history;
  if (history === undefined || history.length === 0 || history.length > at) return undefined;
  const start = at - history.length;
  return !joins[start] && jsonEqual(history, messages.slice(start, at)) ? start : undefined;
}

// pi.message-order: a user message that answers none of the open calls of
// the last assistant message (and holds no compaction) waits until the last
// of them is answered, then follows that answer; an assistant message, a
// compaction or the end lets the waiting ones go where they stand.
function inPiOrder(messages: readonly Message[]): Message[] {
  const out: Message[] = [];
  let open = new Set<string>();
  let waiting: Message[] = [];
  const letGo = () => {
    out.push(...waiting);
    waiting = [];
    open = new Set();
  };
  for (const message of messages) {
    const results = message.content.flatMap((block) =>
      block.type === "tool_result" ? [block.toolUseId] : [],
    );
    if (message.role === "assistant") {
      letGo();
      out.push(message);
      for (const block of message.content) if (block.type === "tool_use") open.add(block.id);
      for (const id of results) open.delete(id);
      continue;
    }
    const answers = results.some((id) => open.has(id));
    if (open.size > 0 && !answers) {
      if (message.content.some((block) => block.type === "compaction")) letGo();
      else {
        waiting.push(message);
        continue;
      }
    }
    out.push(message);
    for (const id of results) open.delete(id);
    if (open.size === 0) letGo();
  }
  letGo();
  return out;
}

/** The transcript a pi session written by fromCommon reads back as (pi.subagents: none). */
export function piProject(transcript: Transcript): Transcript {
  const source = inPiOrder(transcript.messages);
  const messages: Message[] = [];
  /** Where each source message's first piece lands among the read-back messages (undefined: it has none). */
  const landing: (number | undefined)[] = [];
  const joins: boolean[] = [];
  let results: Message | undefined;
  /** The assistant tool calls so far: a result pairs only with one of these. */
  const calls = new Set<string>();
  for (const [index, message] of source.entries()) {
    const pieces =
      message.role === "user" ? userPieces(message, calls) : assistantPieces(message, calls);
    joins[index] = pieces[0]?.kind === "result" && results !== undefined;
    for (const [ordinal, piece] of pieces.entries()) {
      if (piece.kind === "result") {
        const block = piece.block as Block & { type: "tool_result" };
        const read: Block = { ...block, content: projectResultContent(block.content) };
        // Consecutive tool result entries read back as one message.
        if (results !== undefined) results.content.push(read);
        else {
          results = { role: "user", content: [read], timestamp: piece.timestamp };
          messages.push(results);
        }
        if (ordinal === 0) landing[index] = messages.length - 1;
        continue;
      }
      results = undefined;
      if (ordinal === 0) landing[index] = messages.length;
      if (piece.kind === "compaction") {
        const start = historyKept(source, index, joins);
        const from = start === undefined ? undefined : landing[start];
        const block = projectCompaction(piece.block as CompactionBlock);
        if (from !== undefined && from < messages.length)
          (block as CompactionBlock).history = structuredClone(messages.slice(from));
        messages.push({ role: "user", content: [block], timestamp: piece.timestamp });
      } else messages.push(piece.message);
    }
  }
  return { meta: projectMeta(transcript.meta), messages };
}
