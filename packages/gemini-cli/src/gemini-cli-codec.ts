// The Gemini CLI chat recording codec: recording text (either era) ⇄ its
// native body (lossless) ⇄ the Common model. Reading follows Gemini CLI's
// own loader; writing produces a current JSONL recording `gemini --resume`
// lists and loads. Every loss is listed in `losses` and stated as code in
// geminiCliProject.
import type { Codec, ParseOptions } from "@txcript/core";
import { commonToGeminiCli, type GeminiCliWriteOptions } from "./common-to-gemini-cli.js";
import { geminiCliLosses } from "./gemini-cli-losses.js";
import {
  type GeminiCliSession,
  harness,
  parseSession,
  serializeSession,
} from "./gemini-cli-schema.js";
import { geminiCliSniff } from "./gemini-cli-sniff.js";
import { type GeminiCliReadOptions, geminiCliToCommon } from "./gemini-cli-to-common.js";

export const geminiCliCodec: Codec<GeminiCliSession, GeminiCliReadOptions, GeminiCliWriteOptions> =
  {
    id: harness,
    displayName: "Gemini CLI chat recording",
    losses: geminiCliLosses,
    detect: geminiCliSniff,
    parse(text, options: ParseOptions = {}) {
      return parseSession(text, options);
    },
    serialize(session) {
      return serializeSession(session);
    },
    toCommon(session, options) {
      return geminiCliToCommon(session, options);
    },
    fromCommon(transcript, options) {
      return commonToGeminiCli(transcript, options);
    },
  };
