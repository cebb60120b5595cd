// The Qwen Code chat-recording codec: JSONL text ⇄ its lines (lossless) ⇄ the
// Common model. Every loss is listed in `losses` and stated as code in
// qwenCodeProject.
import type { Codec, ParseOptions } from "@txcript/core";
import { commonToQwenCode, type QwenCodeWriteOptions } from "./common-to-qwen-code.js";
import { qwenCodeLosses } from "./qwen-code-losses.js";
import {
  harness,
  parseSession,
  type QwenCodeSession,
  serializeSession,
} from "./qwen-code-schema.js";
import { qwenCodeSniff } from "./qwen-code-sniff.js";
import { type QwenCodeReadOptions, qwenCodeToCommon } from "./qwen-code-to-common.js";

export const qwenCodeCodec: Codec<QwenCodeSession, QwenCodeReadOptions, QwenCodeWriteOptions> = {
  id: harness,
  displayName: "Qwen Code chat recording",
  losses: qwenCodeLosses,
  detect: qwenCodeSniff,
  parse(text, options: ParseOptions = {}) {
    return parseSession(text, options);
  },
  serialize(session) {
    return serializeSession(session);
  },
  toCommon(session, options) {
    return qwenCodeToCommon(session, options);
  },
  fromCommon(transcript, options) {
    return commonToQwenCode(transcript, options);
  },
};
