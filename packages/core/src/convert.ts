// Conversion through Common: native text of one harness → Transcript →
// native text of another, with the losses that occurred on both legs.
import { type Codec, type ConversionOptions, type Warning, WarningCollector } from "./codec.js";
import { TxcriptError } from "./errors.js";
import type { Transcript } from "./model.js";

export interface ConvertOptions {
  /** The input's file name, for error locations. */
  file?: string;
  read?: ConversionOptions & Record<string, unknown>;
  write?: ConversionOptions & Record<string, unknown>;
}

export interface ConvertResult<Target> {
  text: string;
  native: Target;
  transcript: Transcript;
  warnings: Warning[];
}

// biome-ignore lint/suspicious/noExplicitAny: codecs of any native body compose here
type AnyCodec = Codec<any, any, any>;

export function toTranscript(
  text: string,
  from: AnyCodec,
  options: ConvertOptions = {},
): { transcript: Transcript; warnings: Warning[] } {
  const collector = new WarningCollector();
  const transcript = read(text, from, options, collector);
  return { transcript, warnings: collector.warnings };
}

export function convert<Target>(
  text: string,
  from: AnyCodec,
  to: Codec<Target, ConversionOptions, ConversionOptions>,
  options: ConvertOptions = {},
): ConvertResult<Target> {
  const collector = new WarningCollector();
  const transcript = read(text, from, options, collector);
  // A writer's failure (a document too deep to print, say) names the input it came from too.
  return withFile(options.file, () => {
    const native = to.fromCommon(transcript, {
      ...options.write,
      onWarning: chain(collector.add, options.write?.onWarning),
    });
    return { text: to.serialize(native), native, transcript, warnings: collector.warnings };
  });
}

/** The read leg: parse and toCommon, errors located in the input file. */
function read(
  text: string,
  from: AnyCodec,
  options: ConvertOptions,
  collector: WarningCollector,
): Transcript {
  return withFile(options.file, () =>
    from.toCommon(from.parse(text, options.file === undefined ? {} : { file: options.file }), {
      ...options.read,
      onWarning: chain(collector.add, options.read?.onWarning),
    }),
  );
}

function chain(
  first: (warning: Warning) => void,
  second: ((warning: Warning) => void) | undefined,
) {
  return second === undefined
    ? first
    : (warning: Warning) => {
        first(warning);
        second(warning);
      };
}

function withFile<T>(file: string | undefined, run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (file !== undefined && TxcriptError.isInstance(error) && error.location.file === undefined) {
      throw error.withLocation({ file });
    }
    throw error;
  }
}
