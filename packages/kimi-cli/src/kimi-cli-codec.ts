// The Kimi CLI context-file codec: JSONL text ⇄ its lines (lossless) ⇄ the
// Common model. Every loss is listed in `losses` and stated as code in
// kimiCliProject.
import type { Codec, ParseOptions } from "@txcript/core";
import { commonToKimiCli, type KimiCliWriteOptions } from "./common-to-kimi-cli.js";
import { kimiCliLosses } from "./kimi-cli-losses.js";
import { harness, type KimiCliSession, parseSession, serializeSession } from "./kimi-cli-schema.js";
import { kimiCliSniff } from "./kimi-cli-sniff.js";
import { type KimiCliReadOptions, kimiCliToCommon } from "./kimi-cli-to-common.js";

export const kimiCliCodec: Codec<KimiCliSession, KimiCliReadOptions, KimiCliWriteOptions> = {
  id: harness,
  displayName: "Kimi CLI context file",
  losses: kimiCliLosses,
  detect: kimiCliSniff,
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
