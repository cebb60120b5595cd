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
import { type Input, loadInput } from "./input.js";
import { onLeg } from "./losses.js";
import { withFile, withFileEach } from "./report.js";

/** What a conversion reads (an Input): its text is taken, and cleared once loaded. */
export type ConversionSource = Input;

export interface Converted {
  /** The target's text, in order; produced as it is iterated (iterate once). */
  slices: Iterable<string>;
  /** The losses of both legs; complete once `slices` has been iterated. */
  warnings(): Warning[];
}

/** The source in Common through its harness's load; its native body is unreachable once this returns. */
async function readSource(
  source: ConversionSource,
  collector: WarningCollector,
): Promise<Transcript> {
  // The load takes the text: from here on only the native body holds the input.
  const native = await loadInput(source, collector.add, true);
  const read = source.harness.readOptions?.({ startTime: source.startTime });
  return withFile(source.file, () =>
    source.harness.codec.toCommon(native, {
      ...read,
      onWarning: onLeg("read", source.harness.id, collector.add),
    }),
  );
}

/**
 * Convert `source` into `to`'s format. Takes `source.text` (it is ""
 * afterwards), so the caller keeps no copy. With `lineByLine` and a target
 * that streams its text (`serializeChunks`), the pieces are printed as the
 * slices are iterated: for a destination that shows nothing until it is
 * complete (an atomic file write); elsewhere every piece is printed before
 * the first is handed out, since a failure midway would leave part of the
 * output behind.
 */
export interface ConvertSourceOptions {
  dialect?: string | undefined;
  lineByLine?: boolean;
  /** A step between reading and writing (redaction), given the source in Common. */
  transform?: ((transcript: Transcript) => Promise<Transcript>) | undefined;
}

export async function convertSource(
  source: ConversionSource,
  to: Harness,
  options: ConvertSourceOptions = {},
): Promise<Converted> {
  // The writer's errors (a document too deep to print, say) name the input they come from.
  const { file } = source;
  const converted = await convertUnlocated(source, to, options);
  return { ...converted, slices: withFileEach(file, converted.slices) };
}

async function convertUnlocated(
  source: ConversionSource,
  to: Harness,
  options: ConvertSourceOptions,
): Promise<Converted> {
  const collector = new WarningCollector();
  // The writer's options may look at the input text (stream-json's dialect), so before parsing.
  const write: ConversionOptions & Record<string, unknown> = {
    ...to.writeOptions?.({
      from: source.harness.id,
      sourceText: source.text,
      ...(options.dialect === undefined ? {} : { dialect: options.dialect }),
    }),
    onWarning: onLeg("write", to.id, collector.add),
  };
  const warnings = () => collector.warnings;
  const read = await readSource(source, collector);
  const transcript = options.transform ? await options.transform(read) : read;
  return withFile(source.file, () => {
    if (to.serializeChunks !== undefined) {
      const chunks = to.serializeChunks(transcript, write);
      return { slices: options.lineByLine ? chunks : [...chunks], warnings };
    }
    // One string: printed before the first slice is asked for, so the body is not kept.
    return { slices: [to.codec.serialize(to.codec.fromCommon(transcript, write))], warnings };
  });
}
