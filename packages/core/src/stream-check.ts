// The two paths a conversion can take, side by side, for the streaming law
// (each harness's *-stream.test.ts and the CLI's): the whole path,
// serialize(fromCommon(toCommon(parse(text)))), and the stream path through
// a harness's readStream and writeStream, each with its warnings, so a test
// can require them identical. Pure functions: no test framework here.
import type { Warning } from "./codec.js";
import { convert } from "./convert.js";
import type { AnyHarness, CodecOptions } from "./harness.js";
import { collectTranscript, type StreamPart, streamConvert, transcriptInput } from "./stream.js";
import { type LineSource, textLineSource } from "./stream-lines.js";

export interface PathResult {
  text: string;
  warnings: Warning[];
}

export interface PathOptions {
  read?: CodecOptions;
  write?: CodecOptions;
}

/** The whole path: parse, toCommon, fromCommon, serialize. */
export function convertWhole(
  text: string,
  from: AnyHarness,
  to: AnyHarness,
  options: PathOptions = {},
): PathResult {
  const result = convert(text, from.codec, to.codec, {
    ...(options.read === undefined ? {} : { read: options.read }),
    ...(options.write === undefined ? {} : { write: options.write }),
  });
  return { text: result.text, warnings: result.warnings };
}

/**
 * A mixed or stream path: `read` "stream" uses from.readStream (else the
 * whole read), `write` "stream" uses to.writeStream (else the whole write).
 * The text's lines come from `lines` (default: the text's own, and as blocks
 * of ~48 characters for a reader that takes blocks).
 */
export function convertStreamed(
  text: string,
  from: AnyHarness,
  to: AnyHarness,
  paths: { read: "stream" | "whole"; write: "stream" | "whole" },
  options: PathOptions & { lines?: LineSource } = {},
): PathResult {
  // Blocks of a few lines (for readers that take blocks), so values span blocks too.
  const lines = options.lines ?? textLineSource(text, 48);
  const reader =
    paths.read === "stream"
      ? from.readStream
      : (_lines: LineSource, read: CodecOptions) =>
          transcriptInput(from.codec.toCommon(from.codec.parse(text), read)).parts;
  if (reader === undefined) throw new Error(`${from.id} has no readStream`);
  const writer =
    paths.write === "stream"
      ? to.writeStream
      : (input: { parts: Iterable<StreamPart> }, write: CodecOptions) => [
          to.codec.serialize(to.codec.fromCommon(collectTranscript(input.parts), write)),
        ];
  if (writer === undefined) throw new Error(`${to.id} has no writeStream`);
  const result = streamConvert(lines, reader, writer, {
    ...(options.read === undefined ? {} : { read: options.read }),
    ...(options.write === undefined ? {} : { write: options.write }),
  });
  const out = [...result.chunks].join("");
  return { text: out, warnings: result.warnings() };
}
