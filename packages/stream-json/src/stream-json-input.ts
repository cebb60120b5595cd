// The `--stream-json-input` lines that replay a conversation's prompts
// [manual]: not a capture (common-to-stream-json.ts), only what a person
// typed or attached.
import { type JsonObject, stringifyJson, type Transcript } from "@txcript/core";
import { harness } from "./stream-json-lines.js";

/**
 * The `--stream-json-input` lines that replay a conversation's prompts: one
 * line per user message that has text or images (tool results are the
 * harness's own business), each `{"type":"user","message":{...}}`.
 */
export function toStreamJsonInput(transcript: Transcript): string {
  const lines: string[] = [];
  for (const message of transcript.messages) {
    if (message.role !== "user") continue;
    const content: JsonObject[] = [];
    for (const item of message.content) {
      if (item.type === "text") content.push({ type: "text", text: item.text });
      else if (item.type === "image")
        content.push({
          type: "image",
          source: { type: "base64", media_type: item.source.mediaType, data: item.source.data },
        });
    }
    if (content.length === 0) continue;
    const line: JsonObject = { type: "user", message: { role: "user", content } };
    lines.push(`${stringifyJson(line, undefined, harness)}\n`);
  }
  return lines.join("");
}
