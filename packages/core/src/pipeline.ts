// The one conversion pipeline: a session's native body (from its harness's
// load, which takes the input) → Common with every loss collected, each
// tagged with its leg and harness → a step between (redaction, a budget) →
// the target's text in slices. The CLI locates the input and writes the
// slices; everything between is here, once, for every command (`convert`,
// its directory batch, `export`, `view`, `continue`). `convert()` is the same
// pipeline over a text already in memory.
import { type ConversionOptions, RepeatFold, type Warning, WarningCollector } from "./codec.js";
import { TxcriptError } from "./errors.js";
import type { AnyHarness, CodecOptions } from "./harness.js";
import type { Transcript } from "./model.js";

/** A session to read: its harness, the name errors give it, and how to load its native body. */
export interface SessionSource {
  harness: AnyHarness;
  /** The name errors give the input (what the user typed, a stored session's path, `<stdin>`). */
  file: string;
  /** Start time for formats without timestamps. */
  startTime?: Date;
  /** The input's text, for a writer matching the input's dialect (read before the load takes it). */
  sourceText?: string;
  /** The native body, the load's own named losses reported through `onWarning`. */
  load(onWarning: (warning: Warning) => void): Promise<unknown>;
}

/** A warning reporter that tags each warning with its leg and harness. */
export function onLeg(
  leg: "read" | "write",
  harness: string,
  add: (warning: Warning) => void,
): (warning: Warning) => void {
  return (warning) => add({ ...warning, leg, harness });
}

/**
 * A leg's reporter into `collector`: each warning tagged with the leg and
 * harness, a kind's later occurrences counted (RepeatFold), so a writer
 * that reports a loss per message does not tag and key each one. Flush
 * before reading the collector.
 */
function legFold(leg: "read" | "write", harness: string, collector: WarningCollector): RepeatFold {
  return new RepeatFold((warning) => ({ ...warning, leg, harness }), collector);
}

/** Run `run`; a TxcriptError without a file that escapes it names `file`. */
export function withInputFile<T>(file: string, run: () => T): T {
  try {
    return run();
  } catch (error) {
    throw TxcriptError.isInstance(error) && error.location.file === undefined
      ? error.withLocation({ file })
      : error;
  }
}

/** `slices` as they are iterated; a TxcriptError without a file names `file` (a lazy writer's). */
export function* withInputFileEach<T>(file: string, slices: Iterable<T>): Generator<T> {
  try {
    yield* slices;
  } catch (error) {
    throw TxcriptError.isInstance(error) && error.location.file === undefined
      ? error.withLocation({ file })
      : error;
  }
}

/** The read leg: the source loaded and read into Common, its losses (the load's first) in `collector`. */
export async function readSession(
  source: SessionSource,
  collector: WarningCollector = new WarningCollector(),
): Promise<{ transcript: Transcript; warnings: Warning[] }> {
  const fold = legFold("read", source.harness.id, collector);
  const native = await source.load(fold.add);
  const read = source.harness.readOptions?.(
    source.startTime === undefined ? {} : { startTime: source.startTime },
  );
  const transcript = withInputFile(source.file, () =>
    source.harness.codec.toCommon(native, { ...read, onWarning: fold.add }),
  );
  // Before the collector is read, and before a write leg adds to it.
  fold.flush();
  return { transcript, warnings: collector.warnings };
}

export interface ConvertSessionOptions {
  dialect?: string | undefined;
  /**
   * With a target that streams its text (`serializeChunks`), hand the pieces
   * out as the slices are iterated (for a destination that shows nothing until
   * it is complete: an atomic file write); else every piece is made before the
   * first is handed out, since a failure midway would leave part of it behind.
   */
  lineByLine?: boolean;
  /** A step between reading and writing (redaction, a budget), given the source in Common. */
  transform?: ((transcript: Transcript) => Promise<Transcript>) | undefined;
}

export interface ConvertedSession {
  /** The target's text, in order; produced as it is iterated (iterate once). */
  slices: Iterable<string>;
  /** The losses of both legs; complete once `slices` has been iterated. */
  warnings(): Warning[];
}

/** Convert a session into `to`'s format: read leg, transform, write leg, in slices. */
export async function convertSession(
  source: SessionSource,
  to: AnyHarness,
  options: ConvertSessionOptions = {},
): Promise<ConvertedSession> {
  const collector = new WarningCollector();
  const writeFold = legFold("write", to.id, collector);
  // The writer's options may look at the input text (stream-json's dialect), so before loading.
  const write: ConversionOptions & CodecOptions = {
    ...to.writeOptions?.({
      from: source.harness.id,
      ...(source.sourceText === undefined ? {} : { sourceText: source.sourceText }),
      ...(options.dialect === undefined ? {} : { dialect: options.dialect }),
    }),
    onWarning: writeFold.add,
  };
  const warnings = () => {
    writeFold.flush();
    return collector.warnings;
  };
  const { transcript: read } = await readSession(source, collector);
  const transcript = options.transform ? await options.transform(read) : read;
  const slices = withInputFile(source.file, (): Iterable<string> => {
    if (to.serializeChunks !== undefined) {
      const chunks = to.serializeChunks(transcript, write);
      return options.lineByLine ? chunks : [...chunks];
    }
    // One string: made before the first slice is asked for, so the body is not kept.
    return [to.codec.serialize(to.codec.fromCommon(transcript, write))];
  });
  return { slices: withInputFileEach(source.file, slices), warnings };
}
