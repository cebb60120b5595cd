// The request history a resume sends, as comparable entries: from the error
// report Gemini CLI writes (`context`: Gemini API contents), and what it
// should be for a transcript we wrote, by the format page's rules (thoughts
// are not sent back; user messages that render empty or as a /command are
// left out; our own normalization from geminiCliProject, not the writer).
import { isJsonObject, type Json, type Transcript } from "@txcript/core";
import { geminiCliProject } from "../gemini-cli-project.js";

function own(value: Json, key: string): Json | undefined {
  return isJsonObject(value) && Object.hasOwn(value, key) ? value[key] : undefined;
}

/** `role kind detail` for every part of the contents Gemini CLI sent (its own session context left out). */
export function historyEntries(contents: readonly unknown[]): string[] {
  const out: string[] = [];
  for (const content of contents as Json[]) {
    const role = String(own(content, "role"));
    const parts = own(content, "parts");
    for (const part of Array.isArray(parts) ? parts : []) {
      const text = own(part, "text");
      if (own(part, "thought") === true) continue;
      if (typeof text === "string") {
        if (!text.startsWith("<session_context>")) out.push(`${role} text ${text}`);
      } else if (own(part, "functionCall") !== undefined)
        out.push(`${role} call ${String(own(own(part, "functionCall") ?? {}, "id"))}`);
      else if (own(part, "functionResponse") !== undefined)
        out.push(`${role} response ${String(own(own(part, "functionResponse") ?? {}, "id"))}`);
      else if (own(part, "inlineData") !== undefined) out.push(`${role} image`);
      else out.push(`${role} other`);
    }
  }
  return out;
}

const ignored = ["/", "?", "<session_context>", "<hook_context>"];

/** The entries a resume of `transcript` (as written) should send before the new prompt. */
export function transcriptEntries(transcript: Transcript): string[] {
  const out: string[] = [];
  for (const message of geminiCliProject(transcript).messages) {
    const role = message.role === "user" ? "user" : "model";
    if (message.role === "user") {
      const rendered = message.content
        .map((block) => (block.type === "text" ? block.text : `[${block.type}]`))
        .join("")
        .trim();
      if (rendered === "" || ignored.some((prefix) => rendered.startsWith(prefix))) continue;
    }
    for (const block of message.content) {
      if (block.type === "text") out.push(`${role} text ${block.text}`);
      else if (block.type === "tool_use") out.push(`${role} call ${block.id}`);
      else if (block.type === "tool_result") out.push(`${role} response ${block.toolUseId}`);
      else if (block.type === "image") out.push(`${role} image`);
      else if (block.type === "thinking" && message.role === "user") out.push(`${role} thought`);
    }
  }
  return out;
}
