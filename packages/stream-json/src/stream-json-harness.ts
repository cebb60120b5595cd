// stream-json captures as a harness: read (also live from a pipe, and line
// by line: stream-json-stream.ts) and written in the Claude or Amp dialect
// (also from a stream of parts: stream-json-stream-write.ts); no store, so
// nothing to continue.
import type { HarnessDefinition } from "@txcript/core";
import { streamJsonCodec } from "./stream-json-codec.js";
import { detectStreamJsonDialect } from "./stream-json-dialect.js";
import type { StreamJsonCapture } from "./stream-json-lines.js";
import { streamJsonProject } from "./stream-json-project.js";
import { streamJsonReadStream } from "./stream-json-stream.js";
import { streamJsonWriteHeadLast, streamJsonWriteStream } from "./stream-json-stream-write.js";

/** Lines printed per piece of a streamed capture. */
const linesPerChunk = 1024;

/** A capture's text in pieces of whole lines, each through the codec's own serialize. */
export function* streamJsonChunks(capture: StreamJsonCapture): Generator<string> {
  const { lines } = capture;
  if (lines.length <= linesPerChunk) {
    yield streamJsonCodec.serialize(capture);
    return;
  }
  for (let start = 0; start < lines.length; start += linesPerChunk) {
    const end = Math.min(start + linesPerChunk, lines.length);
    // Every piece but the last ends in a newline; the last keeps the capture's own flag.
    yield streamJsonCodec.serialize({
      ...capture,
      lines: lines.slice(start, end),
      finalNewline: end === lines.length ? capture.finalNewline : true,
    });
  }
}

export const streamJsonHarness: HarnessDefinition<StreamJsonCapture> = {
  id: "stream_json",
  displayName: "stream-json capture of Amp or Claude Code",
  aliases: ["stream-json", "streamjson", "jsonl-stream"],
  codec: streamJsonCodec,
  extension: ".jsonl",
  project: streamJsonProject("claude"),
  variants: (["claude", "amp"] as const).map((dialect) => ({
    label: `stream_json (${dialect})`,
    project: streamJsonProject(dialect),
    writeOptions: { dialect },
  })),
  serializeChunks: (transcript, options) =>
    streamJsonChunks(streamJsonCodec.fromCommon(transcript, options)),
  readStream: streamJsonReadStream,
  writeStream: streamJsonWriteStream,
  writeStreamHeadLast: streamJsonWriteHeadLast,
  readOptions: ({ startTime }) => (startTime === undefined ? {} : { startTime }),
  writeOptions: ({ from, dialect, sourceText }) => ({
    dialect:
      dialect === "amp" || dialect === "claude"
        ? dialect
        : from === "amp"
          ? "amp"
          : from === "stream_json" && sourceText !== undefined
            ? detectStreamJsonDialect(sourceText)
            : "claude",
  }),
  continueRefusal: {
    reason: "it keeps no sessions on disk to resume",
    instead: "use `txcript convert <ref> --to stream_json` for a file in its format",
  },
};
