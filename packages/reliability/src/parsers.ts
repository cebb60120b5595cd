// The parsers under test, one per harness of the registry
// (`harnessDefinitions` of @txcript/harnesses): a harness added there is
// fuzzed, written to by every other parser's output and stored under fault
// without editing this package. `parsersOf` builds the same targets from
// any list of harnesses (a test adds a toy one).
import type { AnyHarness, Codec, CodecOptions } from "@txcript/core";
import { harnessDefinitions } from "@txcript/harnesses";
import { type Sample, samplesFor } from "./samples.js";

// biome-ignore lint/suspicious/noExplicitAny: parsers of any native body are fuzzed alike
export type AnyCodec = Codec<any, any, any>;

export { fixturesRoot, packageRoot, realRoot, repoRoot } from "./paths.js";
export { realPresent, type Sample, samplesFor } from "./samples.js";

/** A harness id of the registry (`common`, `amp`, `claude_code`, ...). */
export type ParserId = string;
/** How a parser's text splits into JSON units: one document, or one value per line. */
export type Layout = "json" | "jsonl";

/** One way a harness writes: its default options, or one of its dialects. */
export interface WriterUnderTest {
  label: string;
  codec: AnyCodec;
  options: CodecOptions;
}

export interface ParserUnderTest {
  id: ParserId;
  harness: AnyHarness;
  codec: AnyCodec;
  layout: Layout;
  readOptions: CodecOptions;
  /** Every dialect it writes (one entry for a harness without variants). */
  writers: WriterUnderTest[];
}

/** The fixed start time of formats whose lines carry no timestamps. */
export const startTime = new Date("2026-01-01T00:00:00.000Z");

/** JSON lines when one session file is JSON lines (the harness's extension says so). */
export function layoutOf(harness: AnyHarness): Layout {
  return harness.extension.endsWith(".jsonl") ? "jsonl" : "json";
}

function writersOf(harness: AnyHarness): WriterUnderTest[] {
  if (harness.variants && harness.variants.length > 0)
    return harness.variants.map((variant) => ({
      label: variant.label,
      codec: harness.codec,
      options: variant.writeOptions,
    }));
  return [
    {
      label: harness.id,
      codec: harness.codec,
      options: harness.writeOptions?.({ from: "common" }) ?? {},
    },
  ];
}

/** The fuzz targets of a list of harnesses, in its order. */
export function parsersOf(harnesses: readonly AnyHarness[]): ParserUnderTest[] {
  return harnesses.map((harness) => ({
    id: harness.id,
    harness,
    codec: harness.codec,
    layout: layoutOf(harness),
    readOptions: { startTime, ...harness.readOptions?.({ startTime }) },
    writers: writersOf(harness),
  }));
}

/** Every harness of the registry. */
export const parsers: ParserUnderTest[] = parsersOf(harnessDefinitions);

export function parserById(
  id: ParserId,
  targets: readonly ParserUnderTest[] = parsers,
): ParserUnderTest | undefined {
  return targets.find((parser) => parser.id === id);
}

/** The samples of a target by id (of the registry's targets unless told). */
export function samplesOf(id: ParserId, targets: readonly ParserUnderTest[] = parsers): Sample[] {
  const target = parserById(id, targets);
  return target === undefined ? [] : samplesFor(target, targets);
}
