// One content block as HTML: text (fenced code as code), thinking folded,
// a tool call with its result and its subagents nested under it, a tool
// result (folded, long output cut), an image as a data: URL, and a
// compaction boundary with its summary and kept history.
import type { Block, Json, Message, Subagent, ToolResultBlock } from "@txcript/core";
import { cutPre, firstLine, lineCount, prettyJson } from "./html-cut.js";
import { base64Bytes, escapeHtml, imageDataUrl } from "./html-escape.js";
import { number } from "./html-header.js";
import { toolBody, toolHead } from "./html-tools.js";

/** What a block needs from the page around it. */
export interface BlockContext {
  /** Results shown under their call: the first result of each call that comes before it, by tool_use id. */
  results: Map<string, ToolResultBlock>;
  /** Where each call's anchor is, by tool_use id (set as calls render). */
  callAnchors: Map<string, { anchor: string; label: string; name: string }>;
  /** Results already shown under their call (so their own message only points there). */
  shown: Set<ToolResultBlock>;
  subagentsOf: (toolUseId: string) => readonly Subagent[];
  renderSubagent: (subagent: Subagent, under: string) => string;
  renderHistory: (messages: readonly Message[], label: string) => string;
  /** Anchor of the message being rendered ("m12", "m12-a1-3"). */
  anchor: string;
  label: string;
  nextCall: () => string;
}

/** Text with ``` fences as code blocks; everything else as pre-wrapped text. */
export function textHtml(text: string): string {
  const parts: string[] = [];
  const lines = text.split("\n");
  let prose: string[] = [];
  let code: string[] | undefined;
  const flushProse = () => {
    if (prose.length > 0) parts.push(escapeHtml(prose.join("\n")));
    prose = [];
  };
  for (const line of lines) {
    if (/^\s*```/.test(line)) {
      if (code === undefined) {
        flushProse();
        code = [];
      } else {
        parts.push(`<pre><code>${escapeHtml(code.join("\n"))}</code></pre>`);
        code = undefined;
      }
    } else if (code !== undefined) code.push(line);
    else prose.push(line);
  }
  if (code !== undefined) prose.push("```", ...code);
  flushProse();
  return `<div class="text">${parts.join("")}</div>`;
}

function imageHtml(mediaType: string, data: string): string {
  const url = imageDataUrl(mediaType, data);
  const label = `image ${mediaType}, ${number(base64Bytes(data))} bytes`;
  if (url === undefined)
    return `<figure class="image"><figcaption>${escapeHtml(`[${label}: not shown, not a plain base64 raster image]`)}</figcaption></figure>`;
  return `<figure class="image"><img src="${escapeHtml(url)}" alt="${escapeHtml(label)}" loading="lazy"><figcaption>${escapeHtml(label)}</figcaption></figure>`;
}

function isRecord(value: Json): value is { [key: string]: Json } {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Content parts of a structured result (Anthropic-style text and image parts), when that is all it is. */
function partsHtml(content: Json): string | undefined {
  if (!Array.isArray(content) || content.length === 0) return undefined;
  const out: string[] = [];
  for (const part of content) {
    if (!isRecord(part)) return undefined;
    if (part.type === "text" && typeof part.text === "string")
      out.push(cutPre(part.text, "output"));
    else if (part.type === "image" && isRecord(part.source as Json)) {
      const source = part.source as { [key: string]: Json };
      const mediaType = source.mediaType ?? source.media_type;
      if (typeof mediaType !== "string" || typeof source.data !== "string") return undefined;
      out.push(imageHtml(mediaType, source.data));
    } else return undefined;
  }
  return out.join("");
}

function plural(count: number, word: string): string {
  return `${number(count)} ${word}${count === 1 ? "" : "s"}`;
}

/** The text a result's summary line counts and previews: its text parts when it is made of parts. */
function resultText(content: Json): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content) && partsHtml(content) !== undefined) {
    const texts = content.flatMap((part) =>
      isRecord(part) && part.type === "text" && typeof part.text === "string" ? [part.text] : [],
    );
    if (texts.length > 0) return texts.join("\n");
  }
  return prettyJson(content);
}

export function resultHtml(block: ToolResultBlock): string {
  const text = resultText(block.content);
  const empty = typeof block.content === "string" && block.content === "";
  const facts = [
    block.isError ? "error" : "result",
    empty ? "empty" : plural(lineCount(text), "line"),
  ];
  const preview = empty ? "" : ` — ${escapeHtml(firstLine(text, 100))}`;
  const body = empty
    ? ""
    : typeof block.content === "string"
      ? cutPre(block.content, "output")
      : (partsHtml(block.content) ?? cutPre(text, "output json"));
  return `<details class="result${block.isError ? " error" : ""}"><summary>${escapeHtml(facts.join(" · "))}${preview}</summary>${body}</details>`;
}

function toolUseHtml(block: Extract<Block, { type: "tool_use" }>, context: BlockContext): string {
  const anchor = context.nextCall();
  context.callAnchors.set(block.id, {
    anchor,
    label: context.label,
    name: block.tool.name === "Raw" ? block.tool.toolName : block.tool.name,
  });
  const result = context.results.get(block.id);
  let resultPart = "";
  if (result !== undefined && !context.shown.has(result)) {
    context.shown.add(result);
    resultPart = resultHtml(result);
  }
  const subagents = context
    .subagentsOf(block.id)
    .map((subagent) => context.renderSubagent(subagent, anchor))
    .join("");
  return `<div class="tool" id="${anchor}"><div class="call">${toolHead(block.tool)}</div>${toolBody(block.tool)}${resultPart}${subagents}</div>`;
}

function compactionHtml(
  block: Extract<Block, { type: "compaction" }>,
  context: BlockContext,
): string {
  const facts = [
    block.trigger,
    block.preTokens === undefined ? undefined : `${number(block.preTokens)} tokens before`,
  ].filter(Boolean);
  const history =
    block.history === undefined
      ? ""
      : `<details class="history"><summary>${escapeHtml(`what the model saw instead · ${block.history.length} messages`)}</summary>${context.renderHistory(block.history, context.anchor)}</details>`;
  return (
    `<div class="boundary">${escapeHtml(`── compacted here${facts.length > 0 ? ` (${facts.join(", ")})` : ""}: the model's context restarts from this summary ──`)}</div>` +
    `<details class="summary"><summary>summary · ${escapeHtml(firstLine(block.summary, 80))}</summary>${textHtml(block.summary)}</details>` +
    history
  );
}

export function blockHtml(block: Block, context: BlockContext): string {
  switch (block.type) {
    case "text":
      return block.text === "" ? "" : textHtml(block.text);
    case "thinking": {
      const body =
        block.text !== ""
          ? block.text
          : block.encrypted !== undefined
            ? "(encrypted reasoning)"
            : "(empty)";
      const words =
        block.text === ""
          ? ""
          : ` · ${number(block.text.split(/\s+/).filter(Boolean).length)} words`;
      return `<details class="thinking"><summary>thinking${words}</summary><div>${escapeHtml(body)}</div></details>`;
    }
    case "tool_use":
      return toolUseHtml(block, context);
    case "tool_result": {
      if (context.results.get(block.toolUseId) === block) {
        const call = context.callAnchors.get(block.toolUseId);
        if (call !== undefined)
          return `<div class="result-note">↳ ${block.isError ? "error" : "result"} of <a href="#${call.anchor}">${escapeHtml(call.name)}</a>, shown with the call in ${escapeHtml(call.label)}</div>`;
      }
      return resultHtml(block);
    }
    case "image":
      return imageHtml(block.source.mediaType, block.source.data);
    case "compaction":
      return compactionHtml(block, context);
  }
}
