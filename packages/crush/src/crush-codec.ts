// The Crush codec: a session's rows of Crush's SQLite database (txcript's
// JSON dump of them is the text form; crush-schema.ts) to and from the
// Common model. Losses are in crush-losses.ts and docs/formats/crush.md.
import type { Codec, ConversionOptions } from "@txcript/core";
import { commonToCrush } from "./common-to-crush.js";
import { crushLosses } from "./crush-losses.js";
import {
  type CrushSession,
  harness,
  parseCrushSession,
  serializeCrushSession,
} from "./crush-schema.js";
import { crushSniff } from "./crush-sniff.js";
import { crushToCommon } from "./crush-to-common.js";

export const crushCodec: Codec<CrushSession, ConversionOptions, ConversionOptions> = {
  id: harness,
  displayName: "Crush session",
  losses: crushLosses,
  detect: crushSniff,
  parse: parseCrushSession,
  serialize: serializeCrushSession,
  toCommon: crushToCommon,
  fromCommon: commonToCrush,
};
