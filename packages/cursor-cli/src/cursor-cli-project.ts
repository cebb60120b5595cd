// The Cursor CLI codec's normalization as code: what toCommon(fromCommon(c))
// equals, written from docs/formats/cursor-cli.md ("txcript's document" and
// "Losses"): every message at the session's time; no model, stop reason or
// usage; a context message becomes a system-kind message of its joined text;
// tool results leave their message as a user message of their own, and the
// blocks around them stay in order as messages of the original role; images
// and thinking extras dropped; a compaction marker becomes its summary text;
// tools read back through the canonical (name, input) pair; no subagents,
// git branch, CLI version or lineage; a cwd only when absolute.
import {
  type Block,
  fromCanonical,
  type Message,
  type Transcript,
  toCanonical,
} from "@txcript/core";

function projectBlock(block: Block): Block | undefined {
  switch (block.type) {
    case "thinking":
      return { type: "thinking", text: block.text };
    case "tool_use": {
      const { name, input } = toCanonical(block.tool);
      return { type: "tool_use", id: block.id, tool: fromCanonical(name, input) };
    }
    case "image":
      return undefined;
    case "compaction":
      return { type: "text", text: block.summary };
    default:
      return block;
  }
}

function projectMessage(message: Message, timestamp: string): Message[] {
  if (message.context !== undefined) {
    const text = message.content
      .flatMap((block) => (block.type === "text" ? [block.text] : []))
      .join("\n");
    return [
      { role: "user", content: [{ type: "text", text }], timestamp, context: { kind: "system" } },
    ];
  }
  const runs: Message[] = [];
  for (const block of message.content) {
    const projected = projectBlock(block);
    if (projected === undefined) continue;
    const role = projected.type === "tool_result" ? "user" : message.role;
    const results = projected.type === "tool_result";
    const last = runs.at(-1);
    const lastResults = last?.content[0]?.type === "tool_result";
    if (last !== undefined && last.role === role && lastResults === results)
      last.content.push(projected);
    else runs.push({ role, content: [projected], timestamp });
  }
  return runs.length === 0 ? [{ role: message.role, content: [], timestamp }] : runs;
}

export function cursorCliProject(transcript: Transcript): Transcript {
  const { meta } = transcript;
  const projected: Transcript["meta"] = { id: meta.id, timestamp: meta.timestamp };
  if (meta.cwd?.startsWith("/")) projected.cwd = meta.cwd;
  if (meta.title !== undefined) projected.title = meta.title;
  if (meta.model !== undefined) projected.model = meta.model;
  return {
    meta: projected,
    messages: transcript.messages.flatMap((message) => projectMessage(message, meta.timestamp)),
  };
}
