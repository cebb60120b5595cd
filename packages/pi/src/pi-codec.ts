// The pi session codec: session JSONL text ⇄ its lines (lossless) ⇄ the
// Common model. Reading walks the tree from the last entry to the root, for
// format versions 1 to 3; writing produces a version 3 session pi 0.73.1
// opens without rewriting it. Every loss is listed in `losses` and stated as
// code in piProject.
import type { Codec, ParseOptions } from "@txcript/core";
import { commonToPi, type PiWriteOptions } from "./common-to-pi.js";
import { piLosses } from "./pi-losses.js";
import { harness, isHeader, type PiSession, parseSession, serializeSession } from "./pi-schema.js";
import { type PiReadOptions, piToCommon } from "./pi-to-common.js";

export const piCodec: Codec<PiSession, PiReadOptions, PiWriteOptions> = {
  id: harness,
  displayName: "pi session",
  losses: piLosses,
  detect(text) {
    // pi's own test: the first line is {type: "session", id: string}.
    const end = text.indexOf("\n");
    const first = text.slice(0, end === -1 ? Math.min(text.length, 65_536) : Math.min(end, 65_536));
    try {
      const value: unknown = JSON.parse(first);
      return (
        typeof value === "object" &&
        value !== null &&
        !Array.isArray(value) &&
        isHeader(value as never)
      );
    } catch {
      return false;
    }
  },
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
