// The Kimi CLI context-file codec: JSONL text ⇄ its lines (lossless) ⇄ the
// Common model. Every loss is listed in `losses` and stated as code in
// kimiCliProject.
import type { Codec, ParseOptions } from "@txcript/core";
import { commonToKimiCli, type KimiCliWriteOptions } from "./common-to-kimi-cli.js";
import { kimiCliLosses } from "./kimi-cli-losses.js";
import {
  harness,
  type KimiCliSession,
  looksLikeLine,
  parseSession,
  serializeSession,
} from "./kimi-cli-schema.js";
import { type KimiCliReadOptions, kimiCliToCommon } from "./kimi-cli-to-common.js";

const detectBytes = 1_048_576;

export const kimiCliCodec: Codec<KimiCliSession, KimiCliReadOptions, KimiCliWriteOptions> = {
  id: harness,
  displayName: "Kimi CLI context file",
  losses: kimiCliLosses,
  detect(text) {
    // The first non-blank line is a Kimi CLI record: a bookkeeping line (_system_prompt, _checkpoint, _usage) or a kosong message.
    let start = 0;
    while (start < text.length && start < detectBytes) {
      const end = text.indexOf("\n", start);
      const stop =
        end === -1
          ? Math.min(text.length, start + detectBytes)
          : Math.min(end, start + detectBytes);
      const line = text.slice(start, stop);
      if (line.trim() !== "") {
        try {
          return looksLikeLine(JSON.parse(line));
        } catch {
          return false;
        }
      }
      if (end === -1) return false;
      start = end + 1;
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
    return kimiCliToCommon(session, options);
  },
  fromCommon(transcript, options) {
    return commonToKimiCli(transcript, options);
  },
};
