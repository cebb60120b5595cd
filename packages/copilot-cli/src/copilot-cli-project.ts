// The Copilot CLI normalization of a Common transcript, written from
// docs/formats/copilot-cli.md ("What txcript writes" and "Reading"), not
// from the writer: what a transcript reads back as after being written as a
// Copilot CLI event log. The law suite checks
// toCommon(parse(serialize(fromCommon(c)))) against it; each step names
// the loss it states.
import {
  type Block,
  fromCanonical,
  isJsonObject,
  type Json,
  type Message,
  type Meta,
  stringifyJson,
  type Tool,
  type Transcript,
  type TypedToolName,
  typedToolNames,
} from "@txcript/core";
import { copilotCliVersion, copilotSessionId } from "./copilot-cli-paths.js";

// copilot_cli.compaction-fields: the triggers of CompactionTrigger in 1.0.102.
const knownTriggers = new Set([
  "threshold",
  "context_limit_retry",
  "manual",
  "memory_pressure",
  "model_switch",
]);

// The format page's "Tool dialect" table, written here from the page (not
// imported from the reader): Copilot CLI name → canonical name and
// [Copilot argument, canonical argument] pairs.
const dialect: Record<string, [TypedToolName, [string, string][]]> = {
  bash: [
    "Bash",
    [
      ["command", "command"],
      ["description", "description"],
    ],
  ],
  view: ["Read", [["path", "file_path"]]],
  create: [
    "Write",
    [
      ["path", "file_path"],
      ["file_text", "content"],
    ],
  ],
  edit: [
    "Edit",
    [
      ["path", "file_path"],
      ["old_str", "old_string"],
      ["new_str", "new_string"],
    ],
  ],
  grep: [
    "Grep",
    [
      "pattern",
      "glob",
      "type",
      "output_mode",
      "-i",
      "-n",
      "-A",
      "-B",
      "-C",
      "head_limit",
      "multiline",
    ].map((key): [string, string] => [key, key]),
  ],
  glob: ["Glob", [["pattern", "pattern"]]],
  task: [
    "Task",
    [
      ["description", "description"],
      ["prompt", "prompt"],
      ["agent_type", "subagent_type"],
    ],
  ],
};

// A call is written under its Copilot CLI name when it has one, else its
// canonical name, and read back through the dialect: a Raw call named after
// a canonical tool, or after a built-in whose arguments are all renamed and
// fit the canonical schema, reads back typed.
function projectTool(tool: Tool): Tool {
  if (tool.name !== "Raw") return tool;
  const { toolName, input } = tool;
  if ((typedToolNames as readonly string[]).includes(toolName))
    return fromCanonical(toolName, input);
  const entry = Object.hasOwn(dialect, toolName) ? dialect[toolName] : undefined;
  if (entry === undefined || !isJsonObject(input)) return tool;
  const [canonical, pairs] = entry;
  const renamed: [string, Json][] = [];
  for (const key of Object.keys(input)) {
    const pair = pairs.find(([copilot]) => copilot === key);
    if (pair === undefined) return tool;
    renamed.push([pair[1], input[key] as Json]);
  }
  const typed = fromCanonical(canonical, Object.fromEntries(renamed));
  return typed.name === "Raw" ? tool : typed;
}

// copilot_cli.empty-text, copilot_cli.text-joined.
function joined(blocks: readonly Block[]): string {
  return blocks
    .flatMap((block) => (block.type === "text" && block.text !== "" ? [block.text] : []))
    .join("\n\n");
}

// copilot_cli.assistant-image-dropped (context), copilot_cli.context-source-dropped,
// copilot_cli.block-order (images after text).
function runMessage(message: Message, blocks: readonly Block[]): Message {
  const text = joined(blocks);
  const content: Block[] = text === "" ? [] : [{ type: "text", text }];
  const out: Message = { role: "user", content, timestamp: message.timestamp };
  const context = message.context;
  if (context !== undefined && context.kind !== "injected") {
    out.context = { kind: context.kind };
    return out;
  }
  for (const block of blocks) if (block.type === "image") content.push(block);
  if (context !== undefined)
    out.context = { kind: "injected", source: context.source ?? "injected" };
  return out;
}

// copilot_cli.block-order, copilot_cli.thinking-signature-dropped, copilot_cli.usage-dropped,
// copilot_cli.stop-reason-dropped, copilot_cli.assistant-context-dropped.
function assistantMessage(message: Message): Message {
  const content: Block[] = [];
  const thinking = message.content.filter((block) => block.type === "thinking");
  if (thinking.length > 0)
    content.push({ type: "thinking", text: thinking.map((block) => block.text).join("\n\n") });
  const text = joined(message.content);
  if (text !== "") content.push({ type: "text", text });
  for (const block of message.content)
    if (block.type === "tool_use")
      content.push({ type: "tool_use", id: block.id, tool: projectTool(block.tool) });
  const out: Message = { role: "assistant", content, timestamp: message.timestamp };
  if (message.model !== undefined) out.model = message.model;
  return out;
}

// copilot_cli.json-result.
function resultBlock(block: Block & { type: "tool_result" }): Block {
  const content = typeof block.content === "string" ? block.content : stringifyJson(block.content);
  return { type: "tool_result", toolUseId: block.toolUseId, content, isError: block.isError };
}

// copilot_cli.compaction-fields: summary and context size; no history, only known triggers.
function compactionBlock(block: Block & { type: "compaction" }): Block {
  const out: Block = { type: "compaction", summary: block.summary };
  if (block.trigger !== undefined && knownTriggers.has(block.trigger)) out.trigger = block.trigger;
  if (block.preTokens !== undefined) out.preTokens = block.preTokens;
  return out;
}

type Piece =
  | { kind: "message"; message: Message }
  | { kind: "result"; block: Block; timestamp: string }
  | { kind: "compaction"; block: Block; timestamp: string };

// copilot_cli.result-split, copilot_cli.user-tool-use-dropped, copilot_cli.user-thinking-dropped:
// a user message is runs of its text and images, broken by each result and
// compaction; tool calls and thinking in it are not written; a message
// with nothing written is one empty run.
function userPieces(message: Message): Piece[] {
  const pieces: Piece[] = [];
  let run: Block[] | undefined;
  const runs: Block[][] = [];
  for (const block of message.content) {
    if (block.type === "text" || block.type === "image") {
      if (run === undefined) {
        run = [];
        runs.push(run);
        pieces.push({ kind: "message", message: message });
      }
      run.push(block);
    } else if (block.type === "tool_result" || block.type === "compaction") {
      run = undefined;
      pieces.push({
        kind: block.type === "tool_result" ? "result" : "compaction",
        block,
        timestamp: message.timestamp,
      });
    }
  }
  if (pieces.length === 0) return [{ kind: "message", message: runMessage(message, []) }];
  let next = 0;
  return pieces.map((piece) =>
    piece.kind === "message"
      ? { kind: "message", message: runMessage(message, runs[next++] as Block[]) }
      : piece,
  );
}

function assistantPieces(message: Message): Piece[] {
  const pieces: Piece[] = [{ kind: "message", message: assistantMessage(message) }];
  for (const block of message.content)
    if (block.type === "tool_result" || block.type === "compaction")
      pieces.push({
        kind: block.type === "tool_result" ? "result" : "compaction",
        block,
        timestamp: message.timestamp,
      });
  return pieces;
}

// copilot_cli.foreign-session-id, copilot_cli.lineage-dropped, copilot_cli.cli-version,
// copilot_cli.git-branch-dropped.
function projectMeta(meta: Meta): Meta {
  const out: Meta = { id: copilotSessionId(meta.id), timestamp: meta.timestamp };
  if (meta.cwd !== undefined) {
    out.cwd = meta.cwd;
    if (meta.gitBranch !== undefined) out.gitBranch = meta.gitBranch;
  }
  if (meta.title !== undefined) out.title = meta.title;
  out.cliVersion = copilotCliVersion;
  if (meta.model !== undefined) out.model = meta.model;
  return out;
}

// copilot_cli.orphan-result: a result whose call is not an earlier assistant
// tool call (its own message's included) reads back as a user message of
// its text.
function orphanMessage(block: Block & { type: "tool_result" }, timestamp: string): Message {
  const content = typeof block.content === "string" ? block.content : stringifyJson(block.content);
  const text = `${block.isError ? "[tool result (error)]" : "[tool result]"} ${content}`;
  return { role: "user", content: [{ type: "text", text }], timestamp };
}

/** The transcript a Copilot CLI event log written by fromCommon reads back as (copilot_cli.subagents-dropped: none). */
export function copilotCliProject(transcript: Transcript): Transcript {
  const messages: Message[] = [];
  let results: Message | undefined;
  const calls = new Set<string>();
  for (const message of transcript.messages) {
    if (message.role === "assistant")
      for (const block of message.content) if (block.type === "tool_use") calls.add(block.id);
    const pieces = message.role === "assistant" ? assistantPieces(message) : userPieces(message);
    for (const piece of pieces) {
      if (
        piece.kind === "result" &&
        !calls.has((piece.block as Block & { type: "tool_result" }).toolUseId)
      ) {
        results = undefined;
        messages.push(
          orphanMessage(piece.block as Block & { type: "tool_result" }, piece.timestamp),
        );
        continue;
      }
      if (piece.kind === "result") {
        const block = resultBlock(piece.block as Block & { type: "tool_result" });
        if (results !== undefined) results.content.push(block);
        else {
          results = { role: "user", content: [block], timestamp: piece.timestamp };
          messages.push(results);
        }
        continue;
      }
      results = undefined;
      messages.push(
        piece.kind === "compaction"
          ? {
              role: "user",
              content: [compactionBlock(piece.block as Block & { type: "compaction" })],
              timestamp: piece.timestamp,
            }
          : piece.message,
      );
    }
  }
  return { meta: projectMeta(transcript.meta), messages };
}
