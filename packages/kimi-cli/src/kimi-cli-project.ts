// The Kimi CLI codec's normalization as code: what toCommon(fromCommon(c))
// equals for a context file read alone, written from docs/formats/kimi-cli.md
// ("What txcript writes", "Tools" and "Losses"): the meta line keeps the id
// (a UUID), start, cwd and title; messages 1 ms apart from the start; each
// message split into kosong messages (parts before calls; each tool result a
// tool message) and read back (tool messages in a row one user message of
// results, system messages as context, compaction's message as a marker,
// Raw calls through Kimi CLI's tool table).
import {
  type Block,
  fromCanonical,
  isJsonObject,
  type Json,
  type Message,
  stringifyJson,
  type Tool,
  type Transcript,
} from "@txcript/core";
import { kimiSessionId } from "./kimi-cli-paths.js";

/** Format page, "Records": the first text part of the message compaction writes. */
const compactionText =
  "<system>Previous context has been compacted. Here is the compaction output:</system>";
/** Format page, "Tool results": a failed call's result starts with this. */
const errorText = "<system>ERROR:";

/** One line of context.jsonl, as the format page describes what txcript writes. */
type Line =
  | { kind: "system-prompt"; text: string }
  | { kind: "message"; role: "user" | "assistant" | "system"; parts: Block[]; calls: Block[] }
  | { kind: "tool"; toolUseId: string; text: string };

/**
 * Format page, "Tools": Kimi CLI's tools with their canonical tool and the
 * argument each key is. A typed tool reads back as itself (written in Kimi
 * CLI's form only when that reads back as it); a Raw call is written as it is
 * and read back through this table.
 */
const dialect: Record<string, [string, Record<string, string>]> = {
  Shell: [
    "Bash",
    { command: "command", description: "description", run_in_background: "run_in_background" },
  ],
  ReadFile: ["Read", { path: "file_path", line_offset: "offset", n_lines: "limit" }],
  WriteFile: ["Write", { path: "file_path", content: "content" }],
  Glob: ["Glob", { pattern: "pattern", directory: "path" }],
  FetchURL: ["WebFetch", { url: "url" }],
  SearchWeb: ["WebSearch", { query: "query" }],
  Agent: ["Task", { description: "description", prompt: "prompt", subagent_type: "subagent_type" }],
};

/** An object's keys renamed by `names`, or undefined when a key has no new name. */
function rename(input: Json, names: Record<string, string>): Record<string, Json> | undefined {
  if (!isJsonObject(input)) return undefined;
  const out: Record<string, Json> = {};
  for (const [key, value] of Object.entries(input)) {
    if (!Object.hasOwn(names, key)) return undefined;
    out[names[key] as string] = value;
  }
  return out;
}

/** A call of Kimi CLI's as the reader sees it (format page, "Tools"). */
function readCall(name: string, input: Json): Tool {
  const raw: Tool = { name: "Raw", toolName: name, input };
  const keep = (tool: Tool) => (tool.name === "Raw" ? raw : tool);
  if (name === "StrReplaceFile") {
    if (!isJsonObject(input) || !Object.hasOwn(input, "edit")) return raw;
    const { edit, ...rest } = input;
    if (Object.keys(rest).some((key) => key !== "path")) return raw;
    const names = { old: "old_string", new: "new_string", replace_all: "replace_all" };
    const file = Object.hasOwn(rest, "path") ? { file_path: rest.path as Json } : {};
    if (Array.isArray(edit)) {
      const edits = edit.map((item) => rename(item, names));
      if (edits.some((item) => item === undefined)) return raw;
      return keep(fromCanonical("MultiEdit", { ...file, edits: edits as Json[] }));
    }
    const one = rename(edit as Json, names);
    return one === undefined ? raw : keep(fromCanonical("Edit", { ...file, ...one }));
  }
  const entry = Object.hasOwn(dialect, name) ? dialect[name] : undefined;
  if (entry === undefined) return fromCanonical(name, input);
  const renamed = rename(input, entry[1]);
  if (renamed === undefined) return raw;
  // A line_offset or n_lines below 1 (from the end of the file) is not Read's offset or limit.
  if (
    entry[0] === "Read" &&
    ["offset", "limit"].some(
      (key) => Object.hasOwn(renamed, key) && !((renamed[key] as number) >= 1),
    )
  )
    return raw;
  return keep(fromCanonical(entry[0], renamed));
}

function asPart(block: Block): Block {
  if (block.type === "compaction") return { type: "text", text: block.summary };
  if (block.type === "thinking")
    return {
      type: "thinking",
      text: block.text,
      ...(block.signature === undefined ? {} : { signature: block.signature }),
    };
  return block;
}

function resultText(block: Extract<Block, { type: "tool_result" }>): string {
  const text = typeof block.content === "string" ? block.content : stringifyJson(block.content);
  return block.isError && !text.startsWith(errorText) ? `${errorText} ${text}</system>` : text;
}

function linesOf(message: Message): Line[] {
  const [only] = message.content;
  if (
    message.role === "user" &&
    message.context === undefined &&
    message.content.length === 1 &&
    only?.type === "compaction"
  )
    return [
      {
        kind: "message",
        role: "user",
        parts: [
          { type: "text", text: compactionText },
          { type: "text", text: only.summary },
        ],
        calls: [],
      },
    ];
  if (
    message.context?.kind === "system" &&
    message.context.source === "_system_prompt" &&
    message.content.length === 1 &&
    only?.type === "text"
  )
    return [{ kind: "system-prompt", text: only.text }];
  const role = message.context === undefined ? message.role : "system";
  const lines: Line[] = [];
  let run: Block[] | undefined;
  for (const block of message.content) {
    if (block.type === "tool_result") {
      if (run !== undefined) lines.push(messageLine(role, run));
      run = undefined;
      lines.push({ kind: "tool", toolUseId: block.toolUseId, text: resultText(block) });
    } else {
      run ??= [];
      run.push(block);
    }
  }
  if (run !== undefined || lines.length === 0) lines.push(messageLine(role, run ?? []));
  return lines;
}

function messageLine(role: "user" | "assistant" | "system", blocks: Block[]): Line {
  return {
    kind: "message",
    role,
    parts: blocks.filter((block) => block.type !== "tool_use").map(asPart),
    calls: blocks.flatMap((block) =>
      block.type !== "tool_use"
        ? []
        : [
            block.tool.name === "Raw"
              ? { ...block, tool: readCall(block.tool.toolName, block.tool.input) }
              : block,
          ],
    ),
  };
}

const dataUrl = /^data:([^,]+?);base64,/;

/** An image as a data URL and read back (the media type up to the first ";base64,"). */
function imageBack(block: Extract<Block, { type: "image" }>): Block | undefined {
  const url = `data:${block.source.mediaType};base64,${block.source.data}`;
  const match = dataUrl.exec(url);
  if (match === null) return undefined;
  return {
    type: "image",
    source: { type: "base64", mediaType: match[1] as string, data: url.slice(match[0].length) },
  };
}

function readBack(lines: readonly Line[]): Omit<Message, "timestamp">[] {
  const messages: Omit<Message, "timestamp">[] = [];
  let results: Block[] | undefined;
  for (const line of lines) {
    if (line.kind === "tool") {
      const block: Block = {
        type: "tool_result",
        toolUseId: line.toolUseId,
        content: line.text,
        isError: line.text.startsWith(errorText),
      };
      if (results === undefined) {
        results = [block];
        messages.push({ role: "user", content: results });
      } else results.push(block);
      continue;
    }
    results = undefined;
    if (line.kind === "system-prompt") {
      messages.push({
        role: "user",
        content: [{ type: "text", text: line.text }],
        context: { kind: "system", source: "_system_prompt" },
      });
      continue;
    }
    const [first, ...rest] = line.parts;
    if (
      line.role === "user" &&
      line.calls.length === 0 &&
      first?.type === "text" &&
      first.text === compactionText &&
      rest.every((part) => part.type === "text")
    ) {
      const summary = rest.map((part) => (part.type === "text" ? part.text : "")).join("");
      messages.push({ role: "user", content: [{ type: "compaction", summary }] });
      continue;
    }
    const content = [
      ...line.parts.flatMap((part) => {
        if (part.type !== "image") return [part];
        const back = imageBack(part);
        return back === undefined ? [] : [back];
      }),
      ...line.calls,
    ];
    messages.push(
      line.role === "system"
        ? { role: "user", content, context: { kind: "system" } }
        : { role: line.role, content },
    );
  }
  return messages;
}

/** Format page, "Times": the last time a Common timestamp holds; later stamps stay there. */
const maximumTime = 253_402_300_799_999;

export function kimiCliProject(transcript: Transcript): Transcript {
  const { meta } = transcript;
  const messages = readBack(transcript.messages.flatMap(linesOf));
  // Format page, "What txcript writes": the first line keeps the id (as the store names the directory), start, cwd and title.
  const projected: Transcript["meta"] = { id: kimiSessionId(meta.id), timestamp: meta.timestamp };
  if (meta.cwd !== undefined) projected.cwd = meta.cwd;
  if (meta.title !== undefined) projected.title = meta.title;
  const start = Date.parse(meta.timestamp);
  return {
    meta: projected,
    messages: messages.map((message, index) => ({
      ...message,
      timestamp: new Date(Math.min(start + index, maximumTime)).toISOString(),
    })),
  };
}
