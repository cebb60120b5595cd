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
import { claudeCodeSniff } from "./claude-code-sniff.js";
import { type ClaudeCodeReadOptions, claudeCodeToCommon } from "./claude-code-to-common.js";
import { type ClaudeCodeWriteOptions, commonToClaudeCode } from "./common-to-claude-code.js";

export const claudeCodeCodec: Codec<
  ClaudeCodeSession,
  ClaudeCodeReadOptions,
  ClaudeCodeWriteOptions
> = {
  id: harness,
  displayName: "Claude Code session",
  losses: claudeCodeLosses,
  detect: claudeCodeSniff,
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
