// The Codex rollout codec: rollout text ⇄ its lines (lossless) ⇄ the Common
// model. Reading takes every era; writing produces the legacy line format
// that Codex 0.118–0.171 resume. Every loss is listed in `losses` and stated
// as code in codexProject.
import type { Codec, ParseOptions } from "@txcript/core";
import { codexLosses } from "./codex-losses.js";
import { type CodexRollout, harness, parseRollout, serializeRollout } from "./codex-schema.js";
import { codexSniff } from "./codex-sniff.js";
import { type CodexReadOptions, codexToCommon } from "./codex-to-common.js";
import { type CodexWriteOptions, commonToCodex } from "./common-to-codex.js";

export const codexCodec: Codec<CodexRollout, CodexReadOptions, CodexWriteOptions> = {
  id: harness,
  displayName: "Codex rollout",
  losses: codexLosses,
  detect: codexSniff,
  parse(text, options: ParseOptions = {}) {
    return parseRollout(text, options);
  },
  serialize(rollout) {
    return serializeRollout(rollout);
  },
  toCommon(rollout, options) {
    return codexToCommon(rollout, options);
  },
  fromCommon(transcript, options) {
    return commonToCodex(transcript, options);
  },
};
