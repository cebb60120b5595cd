// The Codex rollout codec: rollout text ⇄ its lines (lossless) ⇄ the Common
// model. Reading takes every era; writing produces the legacy line format
// that Codex 0.118–0.171 resume. Every loss is listed in `losses` and stated
// as code in codexProject.
import type { Codec, ParseOptions } from "@txcript/core";
import { codexLosses } from "./codex-losses.js";
import { type CodexRollout, harness, parseRollout, serializeRollout } from "./codex-schema.js";
import { type CodexReadOptions, codexToCommon } from "./codex-to-common.js";
import { type CodexWriteOptions, commonToCodex } from "./common-to-codex.js";

/**
 * The head of a rollout: a session_meta envelope, a 2025 bare header, or a
 * {session: {id, timestamp, instructions}, items} document — whose session
 * object names a timestamp or instructions before any nested object (another
 * harness's `{"session": {...}}` document, Crush's dump, names neither).
 */
const head =
  /^\s*\{\s*("timestamp"\s*:\s*"[^"]*"\s*,\s*("ordinal"\s*:\s*\d+\s*,\s*)?"type"\s*:\s*"session_meta"|"id"\s*:\s*"[^"]*"\s*,\s*"timestamp"|"session"\s*:\s*\{[^{}]*?"(timestamp|instructions)"\s*:)/;

export const codexCodec: Codec<CodexRollout, CodexReadOptions, CodexWriteOptions> = {
  id: harness,
  displayName: "Codex rollout",
  losses: codexLosses,
  detect(text) {
    return head.test(text.slice(0, 4096));
  },
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
