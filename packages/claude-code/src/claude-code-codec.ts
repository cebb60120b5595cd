// The Claude Code session codec: session JSONL text ⇄ its lines (lossless)
// ⇄ the Common model. Reading picks the conversation thread and merges split
// messages; writing produces a session `claude --resume` loads. Every loss
// is listed in `losses` and stated as code in claudeCodeProject.
import type { Codec, ParseOptions } from "@txcript/core";
import { claudeCodeLosses } from "./claude-code-losses.js";
import {
  type ClaudeCodeSession,
  harness,
  parseSession,
  serializeSession,
} from "./claude-code-schema.js";
import { type ClaudeCodeReadOptions, claudeCodeToCommon } from "./claude-code-to-common.js";
import { type ClaudeCodeWriteOptions, commonToClaudeCode } from "./common-to-claude-code.js";

const bookkeepingTypes = new Set(["summary", "file-history-snapshot", "custom-title", "ai-title"]);

/** True when a parsed line looks like Claude Code's own (camelCase envelope, not stream-json). */
function isClaudeCodeLine(value: unknown): boolean {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const line = value as Record<string, unknown>;
  const type = Object.hasOwn(line, "type") ? line.type : undefined;
  if (typeof type !== "string") return false;
  if (bookkeepingTypes.has(type)) return true;
  return Object.hasOwn(line, "parentUuid") && Object.hasOwn(line, "sessionId");
}

export const claudeCodeCodec: Codec<
  ClaudeCodeSession,
  ClaudeCodeReadOptions,
  ClaudeCodeWriteOptions
> = {
  id: harness,
  displayName: "Claude Code session",
  losses: claudeCodeLosses,
  detect(text) {
    const head = text.slice(0, 65_536).split("\n").slice(0, 20);
    for (const line of head) {
      if (line.trim() === "") continue;
      try {
        if (isClaudeCodeLine(JSON.parse(line))) return true;
      } catch {
        // A cut or foreign line: keep looking.
      }
    }
    return false;
  },
  parse(text, options: ParseOptions = {}) {
    return parseSession(text, options);
  },
  serialize(session) {
    return serializeSession(session);
  },
  toCommon(session, options) {
    return claudeCodeToCommon(session, options);
  },
  fromCommon(transcript, options) {
    return commonToClaudeCode(transcript, options);
  },
};
