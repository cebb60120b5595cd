// The pi session codec: session JSONL text ⇄ its lines (lossless) ⇄ the
// Common model. Reading walks the tree from the last entry to the root, for
// format versions 1 to 3; writing produces a version 3 session pi 0.73.1
// opens without rewriting it. Every loss is listed in `losses` and stated as
// code in piProject.
import type { Codec, ParseOptions } from "@txcript/core";
import { commonToPi, type PiWriteOptions } from "./common-to-pi.js";
import { piLosses } from "./pi-losses.js";
import { harness, type PiSession, parseSession, serializeSession } from "./pi-schema.js";
import { piSniff } from "./pi-sniff.js";
import { type PiReadOptions, piToCommon } from "./pi-to-common.js";

export const piCodec: Codec<PiSession, PiReadOptions, PiWriteOptions> = {
  id: harness,
  displayName: "pi session",
  losses: piLosses,
  detect: piSniff,
  parse(text, options: ParseOptions = {}) {
    return parseSession(text, options);
  },
  serialize(session) {
    return serializeSession(session);
  },
  toCommon(session, options) {
    return piToCommon(session, options);
  },
  fromCommon(transcript, options) {
    return commonToPi(transcript, options);
  },
};
