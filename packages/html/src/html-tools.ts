// Tool calls as a person reads them: the tool's name and its key input on
// one line (a Read's path and range, a Grep's pattern), and below it what
// matters (a Bash command as a command, an Edit as a diff, a Write's content
// folded). Tools the typed set does not model show their input as JSON.
import { type Json, type Tool, toolName } from "@txcript/core";
import { cutPre, firstLine, lineCount, prettyJson } from "./html-cut.js";
import { type DiffLine, diffLines } from "./html-diff.js";
import { escapeHtml } from "./html-escape.js";

const key = (text: string) => `<span class="key">${escapeHtml(text)}</span>`;
const caption = (text: string) => `<span class="caption">${escapeHtml(text)}</span>`;

function diffHtml(before: string, after: string): string {
  const lines = diffLines(before, after).map((line: DiffLine) =>
    line.kind === "gap"
      ? `<span class="gap">⋯ ${line.count} unchanged line${line.count === 1 ? "" : "s"}</span>`
      : `<span class="${line.kind}">${escapeHtml(line.text)}</span>`,
  );
  return `<pre class="diff">${lines.join("")}</pre>`;
}

function folded(label: string, text: string): string {
  return `<details class="content"><summary>${escapeHtml(label)}</summary>${cutPre(text)}</details>`;
}

/** The one-line head of a call: name and key input, as HTML. */
export function toolHead(tool: Tool): string {
  const name = `<span class="name">${escapeHtml(toolName(tool))}</span>`;
  switch (tool.name) {
    case "Bash":
      return name + (tool.input.description ? ` ${caption(tool.input.description)}` : "");
    case "Read": {
      const { offset, limit } = tool.input;
      const range =
        offset === undefined && limit === undefined
          ? ""
          : limit === undefined
            ? ` from line ${offset}`
            : ` lines ${offset ?? 1}–${(offset ?? 1) + limit - 1}`;
      return `${name} ${key(tool.input.file_path)}${range ? ` ${caption(range.trim())}` : ""}`;
    }
    case "Write":
    case "Edit":
    case "MultiEdit":
      return `${name} ${key(tool.input.file_path)}`;
    case "Glob":
    case "Grep":
      return `${name} ${key(tool.input.pattern)}${tool.input.path ? ` ${caption(`in ${tool.input.path}`)}` : ""}`;
    case "LS":
      return `${name} ${key(tool.input.path)}`;
    case "WebFetch":
      return `${name} ${key(tool.input.url)}`;
    case "WebSearch":
      return `${name} ${key(tool.input.query)}`;
    case "Task":
      return `${name} ${caption(tool.input.description)}${tool.input.subagent_type ? ` ${caption(`(${tool.input.subagent_type})`)}` : ""}`;
    case "TodoWrite":
      return `${name} ${caption(`${tool.input.todos.length} items`)}`;
    case "TodoRead":
      return name;
    case "Command":
      return `${name} ${key(`/${tool.input.command.replace(/^\//, "")}${tool.input.args ? ` ${tool.input.args}` : ""}`)}`;
    case "Raw": {
      const shape = rawShape(tool.input);
      return shape.path === undefined ? name : `${name} ${key(shape.path)}`;
    }
  }
}

/** What a tool outside the typed set most likely carries, by the usual key names of other harnesses. */
interface RawShape {
  path?: string;
  command?: string;
  patch?: string;
}

const pathKeys = ["file_path", "filePath", "path", "file", "filename"];
const commandKeys = ["command", "cmd", "script"];
const patchKeys = ["patch", "input", "diff"];

function rawShape(input: Json): RawShape {
  const shape: RawShape = {};
  if (typeof input === "string") {
    if (looksLikePatch(input)) shape.patch = input;
    return shape;
  }
  if (input === null || typeof input !== "object" || Array.isArray(input)) return shape;
  for (const name of pathKeys) {
    const value = input[name];
    if (typeof value === "string" && value !== "") {
      shape.path = value;
      break;
    }
  }
  for (const name of commandKeys) {
    const value = input[name];
    if (typeof value === "string") shape.command = value;
    else if (
      Array.isArray(value) &&
      value.length > 0 &&
      value.every((part) => typeof part === "string")
    )
      // ["bash", "-lc", "script"] reads best as the script itself.
      shape.command =
        value.length === 3 && /^-\w*c$/.test(value[1] as string)
          ? (value[2] as string)
          : value.join(" ");
    if (shape.command !== undefined) break;
  }
  for (const name of patchKeys) {
    const value = input[name];
    if (typeof value === "string" && looksLikePatch(value)) {
      shape.patch = value;
      break;
    }
  }
  return shape;
}

function looksLikePatch(text: string): boolean {
  return /^\*\*\* Begin Patch|^diff --git |^--- .*\n\+\+\+ |^@@ /m.test(text);
}

/** A patch's lines coloured by their first character. */
function patchHtml(patch: string): string {
  const lines = patch.split("\n").map((line) => {
    const kind = /^\+(?!\+\+ )/.test(line) ? "add" : /^-(?!-- )/.test(line) ? "del" : "same";
    const text = kind === "same" ? line : line.slice(1);
    return `<span class="${kind}">${escapeHtml(text)}</span>`;
  });
  return `<pre class="diff patch">${lines.join("")}</pre>`;
}

function rawBody(input: Json): string {
  const shape = rawShape(input);
  const parts: string[] = [];
  if (shape.command !== undefined) parts.push(cutPre(shape.command, "command"));
  if (shape.patch !== undefined) parts.push(patchHtml(shape.patch));
  const shown = shape.command !== undefined || shape.patch !== undefined;
  const json = prettyJson(input);
  // The whole input stays available: folded when the command or patch already says the gist.
  parts.push(
    shown
      ? `<details class="input"><summary>input</summary>${cutPre(json, "json")}</details>`
      : cutPre(json, "json"),
  );
  return parts.join("");
}

/** What the call carries beyond its head, as HTML (may be empty). */
export function toolBody(tool: Tool): string {
  switch (tool.name) {
    case "Bash": {
      const extra = [
        tool.input.workdir && `in ${tool.input.workdir}`,
        tool.input.run_in_background && "in the background",
        tool.input.timeout !== undefined && `timeout ${tool.input.timeout} ms`,
      ].filter(Boolean);
      return (
        cutPre(tool.input.command, "command") +
        (extra.length > 0 ? `<div class="caption">${escapeHtml(extra.join(" · "))}</div>` : "")
      );
    }
    case "Edit":
      return (
        (tool.input.replace_all ? `<div class="caption">every occurrence</div>` : "") +
        diffHtml(tool.input.old_string, tool.input.new_string)
      );
    case "MultiEdit":
      return tool.input.edits
        .map(
          (edit, index) =>
            `<div class="caption">edit ${index + 1} of ${tool.input.edits.length}${edit.replace_all ? " · every occurrence" : ""}</div>` +
            diffHtml(edit.old_string, edit.new_string),
        )
        .join("");
    case "Write":
      return folded(`content · ${lineCount(tool.input.content)} lines`, tool.input.content);
    case "Grep": {
      const { pattern: _pattern, path: _path, ...rest } = tool.input;
      return Object.keys(rest).length > 0
        ? `<div class="caption mono">${escapeHtml(JSON.stringify(rest))}</div>`
        : "";
    }
    case "WebFetch":
      return tool.input.prompt ? `<div class="text">${escapeHtml(tool.input.prompt)}</div>` : "";
    case "Task":
      return folded(`prompt · ${firstLine(tool.input.prompt, 80)}`, tool.input.prompt);
    case "TodoWrite":
      return `<ul class="todos">${tool.input.todos
        .map(
          (todo) =>
            `<li class="${escapeHtml(todo.status)}">${escapeHtml(`[${todo.status}] ${todo.content}`)}</li>`,
        )
        .join("")}</ul>`;
    case "Raw":
      return rawBody(tool.input);
    default:
      return "";
  }
}
