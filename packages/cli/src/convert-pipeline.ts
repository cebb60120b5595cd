// One conversion in stages that let go of what they are done with: the input
// text once parsed, the source native body once read into Common, the
// transcript once the target body is built, and, for JSON-lines targets, the
// output is printed a slice of lines at a time instead of as one string. A
// big session then never holds all of its forms at once (see bench/NOTES.md).
import {
  type ConversionOptions,
  type Transcript,
  type Warning,
  WarningCollector,
} from "@txcript/core";
import type { Harness } from "./harnesses.js";
import { withFile, withFileEach } from "./report.js";

/** What a conversion reads: the text is taken, and cleared once parsed. */
export interface ConversionSource {
  text: string;
  harness: Harness;
  file: string;
  startTime: Date;
}

export interface Converted {
  /** The target's text, in order; produced as it is iterated (iterate once). */
  slices: Iterable<string>;
  /** The losses of both legs; complete once `slices` has been iterated. */
  warnings(): Warning[];
}

/** Parse the source, clearing its text: from here on only the native body holds the input. */
function parseSource(source: ConversionSource): unknown {
  const { text } = source;
  source.text = "";
  return source.harness.codec.parse(text, { file: source.file });
}

/** The source in Common; its native body is unreachable once this returns. */
function readSource(source: ConversionSource, collector: WarningCollector): Transcript {
  const read = source.harness.readOptions?.({ startTime: source.startTime });
  return source.harness.codec.toCommon(parseSource(source), { ...read, onWarning: collector.add });
}

/** Each line, then its newline: slices a writer gathers without joining them first. */
function* withNewlines(lines: Iterable<string>): Generator<string> {
  for (const line of lines) {
    yield line;
    yield "\n";
  }
}

/**
 * Convert `source` into `to`'s format. Takes `source.text` (it is ""
 * afterwards), so the caller keeps no copy. With `lineByLine` and a target
 * that prints one line at a time (`writeLines`), the lines are printed as
 * the slices are iterated and no target body is ever built: for a
 * destination that shows nothing until it is complete (an atomic file
 * write); a failure midway would otherwise leave part of the output behind.
 */
export function convertSource(
  source: ConversionSource,
  to: Harness,
  options: { dialect?: string | undefined; lineByLine?: boolean } = {},
): Converted {
  // The writer's errors (a document too deep to print, say) name the input they come from.
  const { file } = source;
  const converted = withFile(file, () => convertUnlocated(source, to, options));
  return { ...converted, slices: withFileEach(file, converted.slices) };
}

function convertUnlocated(
  source: ConversionSource,
  to: Harness,
  options: { dialect?: string | undefined; lineByLine?: boolean },
): Converted {
  const collector = new WarningCollector();
  // The writer's options may look at the input text (stream-json's dialect), so before parsing.
  const write: ConversionOptions & Record<string, unknown> = {
    ...to.writeOptions?.({
      from: source.harness.id,
      sourceText: source.text,
      ...(options.dialect === undefined ? {} : { dialect: options.dialect }),
    }),
    onWarning: collector.add,
  };
  const warnings = () => collector.warnings;
  if (options.lineByLine && to.writeLines !== undefined)
    return { slices: withNewlines(to.writeLines(readSource(source, collector), write)), warnings };
  return {
    slices: outputSlices(to, to.codec.fromCommon(readSource(source, collector), write)),
    warnings,
  };
}

/** The flag JSON-lines native bodies keep for the final newline, by harness id. */
const finalNewlineKey: Readonly<Record<string, string>> = {
  claude_code: "trailingNewline",
  stream_json: "finalNewline",
};

/** Lines printed per slice of a JSON-lines output. */
export const linesPerSlice = 1024;

/**
 * The target's text, in order, as slices that concatenate to
 * `to.codec.serialize(native)`: a JSON-lines body is printed `perSlice` lines
 * at a time (each slice through the codec's own serialize), any other whole.
 */
export function outputSlices(
  to: Harness,
  native: unknown,
  perSlice = linesPerSlice,
): Iterable<string> {
  const key = finalNewlineKey[to.id];
  const body = native as Record<string, unknown> | null;
  const lines = body?.lines;
  if (
    key === undefined ||
    body === null ||
    !Array.isArray(lines) ||
    typeof body[key] !== "boolean" ||
    lines.length <= perSlice
  ) {
    // One string: print it before the first slice is asked for, so the body is not kept.
    return [to.codec.serialize(native)];
  }
  return slicesOf(to, body, key, lines, perSlice);
}

function* slicesOf(
  to: Harness,
  body: Record<string, unknown>,
  key: string,
  lines: unknown[],
  perSlice: number,
): Generator<string> {
  for (let start = 0; start < lines.length; start += perSlice) {
    const end = Math.min(start + perSlice, lines.length);
    // Every slice but the last ends in a newline; the last keeps the body's own flag.
    const last = end === lines.length;
    yield to.codec.serialize({
      ...body,
      lines: lines.slice(start, end),
      [key]: last ? body[key] : true,
    });
  }
}
