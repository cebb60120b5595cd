// The conversation signature the cross-harness law compares: blocks in
// order, call → result pairing by position (ids may be rewritten), texts,
// tool names and inputs. Timestamps, usage and ids are left out on purpose.
import type { Json } from "./json.js";
import type { Transcript } from "./model.js";
import { toCanonical } from "./tool-inputs.js";

export type SignatureEntry =
  | { role: string; type: "text"; text: string }
  | { role: string; type: "thinking"; text: string }
  | { role: string; type: "tool_use"; call: number; name: string; input: Json }
  | { role: string; type: "tool_result"; call: number; content: Json; isError: boolean }
  | { role: string; type: "image"; mediaType: string; data: string }
  | { role: string; type: "compaction"; summary: string };

export function signature(transcript: Transcript): SignatureEntry[] {
  const calls = new Map<string, number>();
  const entries: SignatureEntry[] = [];
  for (const message of transcript.messages) {
    for (const block of message.content) {
      const role = message.role;
      switch (block.type) {
        case "text":
          entries.push({ role, type: "text", text: block.text });
          break;
        case "thinking":
          entries.push({ role, type: "thinking", text: block.text });
          break;
        case "tool_use": {
          const call = calls.size;
          calls.set(block.id, call);
          const { name, input } = toCanonical(block.tool);
          entries.push({ role, type: "tool_use", call, name, input });
          break;
        }
        case "tool_result":
          entries.push({
            role,
            type: "tool_result",
            call: calls.get(block.toolUseId) ?? -1,
            content: block.content,
            isError: block.isError,
          });
          break;
        case "image":
          entries.push({
            role,
            type: "image",
            mediaType: block.source.mediaType,
            data: block.source.data,
          });
          break;
        case "compaction":
          entries.push({ role, type: "compaction", summary: block.summary });
          break;
      }
    }
  }
  return entries;
}
