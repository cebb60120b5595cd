// @txcript/stream-json: `--stream-json` captures of Amp and Claude Code ⇄
// the txcript Common model, a live line reader for pipes and stdin, an
// incremental transcript builder for live views, and `--stream-json-input`
// lines. Amp's tool dialect comes from @txcript/amp.

export type { StreamJsonWriteOptions } from "./common-to-stream-json.js";
export { streamJsonCodec } from "./stream-json-codec.js";
export { detectStreamJsonDialect } from "./stream-json-dialect.js";
export { streamJsonHarness } from "./stream-json-harness.js";
export { toStreamJsonInput } from "./stream-json-input.js";
export type { StreamJsonCapture, StreamJsonDialect, StreamJsonLine } from "./stream-json-lines.js";
export {
  type ReadStreamJsonLinesOptions,
  readStreamJsonLines,
  type StreamJsonLineRecord,
} from "./stream-json-live.js";
export { streamJsonLosses } from "./stream-json-losses.js";
export { streamJsonProject } from "./stream-json-project.js";
export {
  StreamJsonAccumulator,
  type StreamJsonReadOptions,
  type StreamJsonRecord,
} from "./stream-json-to-common.js";
