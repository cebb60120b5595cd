// @txcript/redact: secrets out of a transcript before it leaves the machine.
// secretlint's recommended rules find fixed-format credentials; position
// checks find random values standing where credentials stand. Each is
// replaced by `[redacted: <kind>]` and counted in a JSON-serializable report.

export { secretlintRuleIds } from "./redact-rules.js";
export { type PartsRedaction, planPartsRedaction } from "./redact-stream.js";
export { summarizeReport } from "./redact-summary.js";
export type {
  RedactionField,
  RedactionLocation,
  RedactionReport,
  RedactOptions,
  RedactResult,
} from "./redact-transcript.js";
export { redactionMarker, redactTranscript } from "./redact-transcript.js";
