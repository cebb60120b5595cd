// geminiCliProject: what a transcript becomes after a trip through a Gemini
// CLI recording (toCommon(parse(serialize(fromCommon(c))))), written from
// docs/formats/gemini-cli.md and not from the writer's code: the tool table
// below is restated from the format page, so a writer bug cannot hide in it.
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
  toCanonical,
  typedToolNames,
  type Usage,
  uuidV5,
} from "@txcript/core";
import { geminiCliNamespace } from "./gemini-cli-paths.js";
import { canonicalToGeminiTool } from "./gemini-cli-tools.js";

/** Gemini tool name → [canonical name, [[gemini key, canonical key], ...]] (format page, "Tools"). */
const geminiTools: Record<string, [string, [string, string][]][]> = {
  read_file: [
    ["Read", [["file_path", "file_path"]]],
    ["Read", [["absolute_path", "file_path"]]],
  ],
  write_file: [
    [
      "Write",
      [
        ["file_path", "file_path"],
        ["content", "content"],
      ],
    ],
  ],
  replace: [
    [
      "Edit",
      [
        ["file_path", "file_path"],
        ["old_string", "old_string"],
        ["new_string", "new_string"],
        ["allow_multiple", "replace_all"],
      ],
    ],
  ],
  run_shell_command: [
    [
      "Bash",
      [
        ["command", "command"],
        ["description", "description"],
        ["dir_path", "workdir"],
        ["is_background", "run_in_background"],
      ],
    ],
    [
      "Bash",
      [
        ["command", "command"],
        ["description", "description"],
        ["directory", "workdir"],
      ],
    ],
  ],
  glob: [
    [
      "Glob",
      [
        ["pattern", "pattern"],
        ["dir_path", "path"],
      ],
    ],
    [
      "Glob",
      [
        ["pattern", "pattern"],
        ["path", "path"],
      ],
    ],
  ],
  grep_search: [
    [
      "Grep",
      [
        ["pattern", "pattern"],
        ["dir_path", "path"],
        ["include_pattern", "glob"],
      ],
    ],
  ],
  search_file_content: [
    [
      "Grep",
      [
        ["pattern", "pattern"],
        ["path", "path"],
        ["include", "glob"],
      ],
    ],
  ],
  list_directory: [
    [
      "LS",
      [
        ["dir_path", "path"],
        ["ignore", "ignore"],
      ],
    ],
    [
      "LS",
      [
        ["path", "path"],
        ["ignore", "ignore"],
      ],
    ],
  ],
  google_web_search: [["WebSearch", [["query", "query"]]]],
  write_todos: [["TodoWrite", [["todos", "todos"]]]],
};

function renamed(
  input: { [key: string]: Json },
  pairs: [string, string][],
): { [key: string]: Json } | undefined {
  const keys = Object.keys(input);
  if (!keys.every((key) => pairs.some(([from]) => from === key))) return undefined;
  const targets = keys.map((key) => pairs.find(([from]) => from === key)?.[1] as string);
  if (new Set(targets).size !== targets.length) return undefined;
  return Object.fromEntries(keys.map((key, index) => [targets[index], input[key] as Json]));
}

function todoItems(input: { [key: string]: Json }): { [key: string]: Json } | undefined {
  const todos = Object.hasOwn(input, "todos") ? input.todos : undefined;
  if (!Array.isArray(todos)) return input;
  const items: Json[] = [];
  for (const item of todos) {
    if (!isJsonObject(item)) return undefined;
    const next = renamed(item, [
      ["description", "content"],
      ["status", "status"],
    ]);
    if (next === undefined) return undefined;
    items.push(next);
  }
  return Object.fromEntries(
    Object.keys(input).map((key) => [key, key === "todos" ? items : (input[key] as Json)]),
  );
}

/** A Raw tool reads back typed when its name is a canonical one, or a Gemini one whose input fits. */
function projectTool(tool: Tool): Tool {
  if (tool.name !== "Raw") return tool;
  const { toolName, input } = tool;
  if ((typedToolNames as readonly string[]).includes(toolName))
    return fromCanonical(toolName, input);
  if (!isJsonObject(input) || !Object.hasOwn(geminiTools, toolName)) return tool;
  for (const [canonical, pairs] of geminiTools[toolName] ?? []) {
    let next = renamed(input, pairs);
    if (next !== undefined && canonical === "TodoWrite") next = todoItems(next);
    if (next === undefined) continue;
    const typed = fromCanonical(canonical, next);
    if (typed.name !== "Raw") return typed;
  }
  return tool;
}

function projectBlock(block: Block): Block {
  switch (block.type) {
    case "thinking":
      return { type: "thinking", text: block.text };
    case "tool_use":
      return { type: "tool_use", id: block.id, tool: projectTool(block.tool) };
    default:
      return block;
  }
}

/** Cache creation folds into input; thoughts are counted apart from output and added back; no cost. */
function projectUsage(usage: Usage): Usage {
  const reasoning = usage.reasoningOutputTokens;
  const out: Usage = {
    inputTokens: usage.inputTokens + usage.cacheCreationInputTokens,
    outputTokens:
      reasoning === undefined ? usage.outputTokens : Math.max(usage.outputTokens, reasoning),
    cacheReadInputTokens: usage.cacheReadInputTokens,
    cacheCreationInputTokens: 0,
  };
  if (reasoning !== undefined) out.reasoningOutputTokens = reasoning;
  return out;
}

// gemini_cli.compaction: a compaction marker reads back as a text block of its summary.
function summaryText(block: Block): Block {
  return block.type === "compaction" ? { type: "text", text: block.summary } : block;
}

/**
 * gemini_cli.user-tool-use, gemini_cli.orphan-result and
 * gemini_cli.missing-result: a call on a user message reads back as the text
 * `[tool call <canonical name> <input JSON>]`; a result reads back as a result
 * only on a user message answering a call of the last assistant message not
 * answered yet, else as `[tool result] <content>` (`[tool result (error)]`;
 * content not a string as its JSON text); calls of an assistant message still
 * unanswered when the next assistant message (or the end) comes get an error
 * result `[txcript: … not answered]`, on the last user message after it, or
 * a new user message at that assistant message's time.
 */
function paired(messages: readonly Message[]): Message[] {
  const out: Message[] = [];
  const pending: string[] = [];
  /** Calls of the shell tool (run_shell_command): no result of one reads back as failed (gemini_cli.shell-error). */
  const shell = new Set<string>();
  let lastUser = -1;
  let lastAssistant: Message | undefined;
  const answerPending = () => {
    if (pending.length === 0) return;
    const results: Block[] = pending.map((id) => ({
      type: "tool_result",
      toolUseId: id,
      content:
        "[txcript: this tool call has no result in the source session; the call was not answered]",
      isError: !shell.has(id),
    }));
    pending.length = 0;
    const held = out[lastUser];
    if (held !== undefined) out[lastUser] = { ...held, content: [...held.content, ...results] };
    else
      out.push({
        role: "user",
        content: results,
        timestamp: lastAssistant?.timestamp ?? "",
      });
  };
  for (const message of messages) {
    if (message.role === "assistant") {
      answerPending();
      lastUser = -1;
      lastAssistant = message;
    }
    const content = message.content.map((block): Block => {
      if (block.type === "tool_use" && message.role === "user") {
        const { name, input } = toCanonical(block.tool);
        return {
          type: "text",
          text: `[tool call ${name} ${stringifyJson(input, undefined, "gemini_cli")}]`,
        };
      }
      if (block.type === "tool_use") {
        if (!pending.includes(block.id)) pending.push(block.id);
        // The last call of an id names the tool its result answers.
        if (canonicalToGeminiTool(block.tool).name === "run_shell_command") shell.add(block.id);
        else shell.delete(block.id);
      }
      if (block.type === "tool_result") {
        const at = message.role === "user" ? pending.indexOf(block.toolUseId) : -1;
        if (at >= 0) {
          pending.splice(at, 1);
          return block.isError && shell.has(block.toolUseId) ? { ...block, isError: false } : block;
        }
        const text =
          typeof block.content === "string"
            ? block.content
            : stringifyJson(block.content, undefined, "gemini_cli");
        return { type: "text", text: `[tool result${block.isError ? " (error)" : ""}] ${text}` };
      }
      return block;
    });
    if (message.role === "user") lastUser = out.length;
    out.push({ ...message, content });
  }
  answerPending();
  return out;
}

function projectMessage(message: Message): Message {
  const out: Message = {
    role: message.role,
    content: message.content
      .map(summaryText)
      .filter(
        (block) => !(message.role === "assistant" && block.type === "text" && block.text === ""),
      )
      .map(projectBlock),
    timestamp: message.timestamp,
  };
  if (message.role === "user") {
    const rendered = message.content
      .map(summaryText)
      .map((block) => (block.type === "text" ? block.text : `[${block.type}]`))
      .join("")
      .trim();
    const tag = ["session_context", "hook_context"].find((name) =>
      rendered.startsWith(`<${name}>`),
    );
    if (tag !== undefined) out.context = { kind: "injected", source: tag };
    // gemini_cli.command-like: a zero-width space text block goes before a `/` or `?` start.
    if (rendered.startsWith("/") || rendered.startsWith("?"))
      out.content = [{ type: "text", text: "\u200b" }, ...out.content];
  }
  if (message.role === "assistant") {
    if (message.model !== undefined && message.model !== "") out.model = message.model;
    if (message.usage !== undefined) out.usage = projectUsage(message.usage);
  }
  return out;
}

/** The session id rule of the format page: usable ids stay, others become a UUID v5 of themselves. */
function projectId(id: string): string {
  const usable = /^[A-Za-z0-9_-]+$/.test(id) && !/^[0-9]+$/.test(id) && id !== "latest";
  return usable ? id : uuidV5(`session:${id}`, geminiCliNamespace);
}

export function geminiCliProject(transcript: Transcript): Transcript {
  const meta: Meta = { id: projectId(transcript.meta.id), timestamp: transcript.meta.timestamp };
  if (transcript.meta.cwd !== undefined) meta.cwd = transcript.meta.cwd;
  if (transcript.meta.title !== undefined) meta.title = transcript.meta.title;
  return { meta, messages: paired(transcript.messages).map(projectMessage) };
}
