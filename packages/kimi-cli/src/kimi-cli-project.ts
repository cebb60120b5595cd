// The Kimi CLI codec's normalization as code: what toCommon(fromCommon(c))
// equals for a context file read alone, written from docs/formats/kimi-cli.md
// ("What txcript writes" and "Losses"): no session id, start time or other
// meta in the file; messages 1 ms apart from 1970-01-01; each message split
// into kosong messages (parts before calls; each tool result a tool message)
// and read back (tool messages in a row one user message of results, system
// messages as context, compaction's message as a marker).
import { type Block, type Message, stringifyJson, type Transcript } from "@txcript/core";
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
    calls: blocks.filter((block) => block.type === "tool_use"),
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
