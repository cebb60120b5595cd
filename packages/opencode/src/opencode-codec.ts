// opencodeCodec: OpenCode's export document (what `opencode export <id>`
// prints and `opencode import <file>` takes) ⇄ Common. The native body
// keeps the whole document, so serialize(parse(s)) === s for anything
// OpenCode printed. Known losses through Common are the codes in
// opencode-losses.ts (see docs/formats/opencode.md):
// - reading: providerIDs, session/message/part bookkeeping, tool-state
//   details and pending statuses, error details, unmodeled parts.
// - writing: foreign session ids, default title/version, git branch,
//   lineage, subagents, user-message attribution, result placement, spellings.
import type { Codec, ConversionOptions } from "@txcript/core";
import { commonToOpencode, type OpencodeWriteOptions } from "./common-to-opencode.js";
import { opencodeLosses } from "./opencode-losses.js";
import {
  type OpencodeSession,
  parseOpencodeExport,
  serializeOpencodeExport,
} from "./opencode-schema.js";
import { opencodeSniff } from "./opencode-sniff.js";
import { opencodeToCommon } from "./opencode-to-common.js";

export const opencodeCodec: Codec<OpencodeSession, ConversionOptions, OpencodeWriteOptions> = {
  id: "opencode",
  displayName: "OpenCode session",
  losses: opencodeLosses,
  detect: opencodeSniff,
  parse: parseOpencodeExport,
  serialize: serializeOpencodeExport,
  toCommon: opencodeToCommon,
  fromCommon: commonToOpencode,
};
