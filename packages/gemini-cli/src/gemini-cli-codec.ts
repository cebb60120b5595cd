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
import { type GeminiCliReadOptions, geminiCliToCommon } from "./gemini-cli-to-common.js";

/** A cheap sniff: a metadata line or a whole document naming a sessionId and a projectHash. */
function looksLikeRecording(text: string): boolean {
  const head = text.slice(0, 4096);
  if (/^\s*\{\s*"sessionId"\s*:\s*"[^"]*"\s*,\s*"projectHash"\s*:/.test(head)) return true;
  return /^\{\n\s+"sessionId": "/.test(head) && head.includes('"projectHash"');
}

export const geminiCliCodec: Codec<GeminiCliSession, GeminiCliReadOptions, GeminiCliWriteOptions> =
  {
    id: harness,
    displayName: "Gemini CLI chat recording",
    losses: geminiCliLosses,
    detect(text) {
      return looksLikeRecording(text);
    },
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
