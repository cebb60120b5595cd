// What of a session the index searches: per message (by its 1-based
// ordinal, as `txcript view` numbers them), the texts, reasoning, tool names
// with their inputs, tool outputs and compaction summaries. Subagent
// messages are indexed under the ordinal of the message whose call spawned
// them. Images and encrypted reasoning have no text to search.
import {
  type Block,
  type Json,
  type Message,
  type StreamPart,
  type Subagent,
  type Transcript,
  toCanonical,
  transcriptParts,
} from "@txcript/core";

export interface IndexedMessage {
  ordinal: number;
  role: string;
  text: string;
}

/** The strings inside a JSON value (keys left out: they are the tool's spelling, not content). */
function strings(value: Json, out: string[]): void {
  if (typeof value === "string") out.push(value);
  else if (typeof value === "number" || typeof value === "boolean") out.push(String(value));
  else if (Array.isArray(value)) for (const item of value) strings(item, out);
  else if (value !== null) for (const item of Object.values(value)) strings(item, out);
}

export function blockSearchText(block: Block): string {
  switch (block.type) {
    case "text":
      return block.text;
    case "thinking":
      return block.text;
    case "tool_use": {
      const { name, input } = toCanonical(block.tool);
      const parts = [name];
      strings(input, parts);
      return parts.join(" ");
    }
    case "tool_result": {
      const parts: string[] = [];
      strings(block.content, parts);
      return parts.join("\n");
    }
    case "image":
      return "";
    case "compaction":
      return block.summary;
  }
}

function messageText(message: Message): string {
  return message.content
    .map(blockSearchText)
    .filter((text) => text !== "")
    .join("\n");
}

function subagentTexts(subagent: Subagent, ordinal: number, out: IndexedMessage[]): void {
  for (const message of subagent.messages) {
    const text = messageText(message);
    if (text !== "") out.push({ ordinal, role: `subagent ${message.role}`, text });
  }
  for (const nested of subagent.subagents ?? []) subagentTexts(nested, ordinal, out);
}

/**
 * The indexed messages of a transcript's parts, part by part (a session read line by line:
 * refresh.ts): what each part adds, in order. Holds only the ordinal of each tool call seen,
 * when the meta says subagents follow (a subagent is filed under its spawning call's message),
 * never the messages.
 */
export class PartTexts {
  #ordinal = 0;
  /** Whether subagent parts follow (the meta says): only then are the calls' ordinals kept. */
  #subagents = true;
  readonly #callOrdinal = new Map<string, number>();

  add(part: StreamPart): IndexedMessage[] {
    const out: IndexedMessage[] = [];
    if (part.kind === "meta") this.#subagents = part.subagents;
    else if (part.kind === "message") {
      this.#ordinal += 1;
      const text = messageText(part.message);
      if (text !== "") out.push({ ordinal: this.#ordinal, role: part.message.role, text });
      if (this.#subagents)
        for (const block of part.message.content)
          if (block.type === "tool_use") this.#callOrdinal.set(block.id, this.#ordinal);
    } else if (part.kind === "subagent")
      subagentTexts(part.subagent, this.#callOrdinal.get(part.subagent.toolUseId ?? "") ?? 1, out);
    return out;
  }
}

/** Every message's searchable text, in order; empty messages left out. */
export function sessionTexts(transcript: Transcript): IndexedMessage[] {
  const texts = new PartTexts();
  const out: IndexedMessage[] = [];
  for (const part of transcriptParts(transcript)) out.push(...texts.add(part));
  return out;
}
