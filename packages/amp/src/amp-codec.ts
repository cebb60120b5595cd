// ampCodec: Amp thread documents (local-first CLI files and `amp threads
// export` output) ⇄ Common. The native body keeps the whole document, so
// serialize(parse(s)) === s for anything Amp wrote. Known losses through
// Common (each a code in `losses`, see docs/formats/amp.md):
// - reading: run.progress/trackFiles/~debug; cancelled and rejected-by-user
//   runs collapse to error text; message/block bookkeeping; thread keys
//   (v, agentMode, ~debug, ...); info/parent roles; manual_bash_invocation
//   and other unmodeled blocks or content; image sourcePath; unfinished
//   assistant states; incomplete usage and cache counts; usage on prompts;
//   the digits of a number a double cannot hold (the body keeps the text).
// - writing: foreign ids → T-<uuidv5>; Meta.model; sparse timestamps;
//   user-message attribution; stateless assistants → end_turn; structured
//   error content → JSON text; tools Amp cannot spell → Raw; context marks,
//   compaction details, subagents and usage extras (Common v2) have no slot.
//   Lineage is carried under the top-level `txcriptLineage` key.
import type { Codec, ConversionOptions } from "@txcript/core";
import { ampLosses } from "./amp-losses.js";
import { type AmpThread, parseAmpThread, serializeAmpThread } from "./amp-schema.js";
import { ampSniff } from "./amp-sniff.js";
import { ampToCommon } from "./amp-to-common.js";
import { type AmpWriteOptions, commonToAmp } from "./common-to-amp.js";

export const ampCodec: Codec<AmpThread, ConversionOptions, AmpWriteOptions> = {
  id: "amp",
  displayName: "Amp thread",
  losses: ampLosses,
  detect: ampSniff,
  parse: parseAmpThread,
  serialize: serializeAmpThread,
  toCommon: ampToCommon,
  fromCommon: commonToAmp,
};
