// The stream-json codec: `--stream-json` captures of Amp and Claude Code
// (`--output-format stream-json`) ⇄ Common. Its documented normalization is
// streamJsonProject (stream-json-project.ts). No I/O here.
import { type Codec, warn } from "@txcript/core";
import { commonToStreamJson, type StreamJsonWriteOptions } from "./common-to-stream-json.js";
import {
  parseCapture,
  type StreamJsonCapture,
  type StreamJsonLine,
  serializeCapture,
} from "./stream-json-lines.js";
import { streamJsonLoss, streamJsonLosses } from "./stream-json-losses.js";
import { streamJsonSniff } from "./stream-json-sniff.js";
import {
  finalTranscript,
  StreamJsonAccumulator,
  type StreamJsonReadOptions,
} from "./stream-json-to-common.js";

export const streamJsonCodec: Codec<
  StreamJsonCapture,
  StreamJsonReadOptions,
  StreamJsonWriteOptions
> = {
  id: "stream_json",
  displayName: "stream-json capture (Amp, Claude Code)",
  losses: streamJsonLosses,
  detect: streamJsonSniff,
  parse: parseCapture,
  serialize: serializeCapture,
  toCommon(capture, options = {}) {
    const accumulator = new StreamJsonAccumulator(options);
    const { lines } = capture;
    for (let index = 0; index < lines.length; index++) {
      const line = lines[index] as StreamJsonLine;
      if (line.value !== null) accumulator.push({ value: line.value, line: index + 1 });
      else if (line.truncated)
        warn(
          options,
          streamJsonLoss.truncatedLine,
          "a cut-off final line was skipped",
          `line ${index + 1}`,
        );
    }
    return finalTranscript(accumulator);
  },
  fromCommon: commonToStreamJson,
};
