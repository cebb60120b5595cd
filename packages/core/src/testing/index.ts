// The reusable law suite every codec passes (DESIGN.md): native
// losslessness, the Common fixpoint through a documented `project`,
// idempotence, totality, and cross-harness signature preservation. Codecs
// state their losses in `project`; the generator is never narrowed.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { oddShapesArbitrary, transcriptArbitrary } from "../arbitraries/index.js";
import type { Codec, ConversionOptions, Warning } from "../codec.js";
import { TxcriptError } from "../errors.js";
import type { AnyHarness } from "../harness.js";
import type { Transcript } from "../model.js";
import { signature } from "../signature.js";

import { lawParameters, lawRuns } from "./parameters.js";

export { type SignatureEntry, signature } from "../signature.js";
export {
  describePublicExports,
  type LazyImport,
  lazyImportProblems,
  type PublicExportsOptions,
  publicExportProblems,
} from "./exports.js";
export { lawParameters, lawRuns } from "./parameters.js";
export {
  collectingWriter,
  countingInput,
  countingLines,
  describeWriterControls,
  droppingSubagents,
  expectOrderRefused,
  expectReplayReusesPassOne,
  expectSameInSlices,
  expectSamePaths,
  fixtureCommonDocuments,
  headFirst,
  ignoringOptions,
  itReadsGeneratedSessions,
  itWritesGeneratedSessions,
  longTranscript,
  noFinalNewline,
  type ReadResult,
  type ReplayRun,
  readParts,
  replayRuns,
  type StreamPath,
  sameRead,
  sameWrite,
  scratchDirectory,
  sessionFiles,
  streamPaths,
  streamWrite,
  type Written,
  wholeOrRefusal,
  wholeReader,
  wholeWrite,
} from "./stream.js";

// biome-ignore lint/suspicious/noExplicitAny: the suite takes codecs of any native body
export type AnyCodec = Codec<any, any, any>;

export interface NativeSample {
  name: string;
  text: string;
}

export interface CodecLawsOptions {
  codec: AnyCodec;
  /** The codec's documented normalization: what toCommon(fromCommon(c)) must equal. */
  project: (transcript: Transcript) => Transcript;
  /** Texts the harness itself wrote (fixtures, real captures) for law 1. */
  samples?: () => NativeSample[];
  /** Options for toCommon (a fixed startTime for formats without timestamps, say). */
  readOptions?: ConversionOptions & Record<string, unknown>;
  writeOptions?: ConversionOptions & Record<string, unknown>;
  /** Override the Common generator's size (never its kinds). */
  arbitrary?: fc.Arbitrary<Transcript>;
  numRuns?: number;
  /** A name for the describe blocks, when one codec runs the suite twice (two dialects). */
  label?: string;
  /**
   * For the "no warning ⇒ no loss" law: a normalization that only changes
   * how the same content is spelled (never drops or adds content), applied to
   * both sides before comparing. Default: none, the transcripts must be equal.
   */
  equivalent?: (transcript: Transcript) => Transcript;
  /** Also run laws 2, 3 and the no-silent-loss law on odd shapes (default true). */
  oddShapes?: boolean;
}

/** fromCommon with its warnings collected. */
export function writeCollecting(
  codec: AnyCodec,
  transcript: Transcript,
  writeOptions: (ConversionOptions & Record<string, unknown>) | undefined,
): { text: string; warnings: Warning[] } {
  const warnings: Warning[] = [];
  const text = codec.serialize(
    codec.fromCommon(transcript, {
      ...writeOptions,
      onWarning: (warning: Warning) => {
        warnings.push(warning);
        writeOptions?.onWarning?.(warning);
      },
    }),
  );
  return { text, warnings };
}

function expectDocumentedCodes(codec: AnyCodec, warnings: readonly Warning[]): void {
  const documented = new Set(codec.losses.map((loss) => loss.code));
  for (const warning of warnings)
    expect(documented.has(warning.code), `${warning.code} is listed in ${codec.id}'s losses`).toBe(
      true,
    );
}

/** Native → Common → native → Common, all through text, as a user's file would go. */
export function throughText(
  codec: AnyCodec,
  transcript: Transcript,
  options: Pick<CodecLawsOptions, "readOptions" | "writeOptions"> = {},
): { text: string; transcript: Transcript } {
  const text = codec.serialize(codec.fromCommon(transcript, options.writeOptions));
  return { text, transcript: codec.toCommon(codec.parse(text), options.readOptions) };
}

function expectOnlyTxcriptErrors(run: () => unknown): void {
  try {
    run();
  } catch (error) {
    if (!TxcriptError.isInstance(error))
      throw new Error(`parse threw a non-TxcriptError: ${String(error)}`, { cause: error });
    expect(error.code).toBeTypeOf("string");
  }
}

/** The TxcriptError `run` throws; anything else thrown is rethrown, and no throw fails the test. */
export function txcriptErrorOf(run: () => unknown): TxcriptError {
  try {
    run();
  } catch (error) {
    if (TxcriptError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected a TxcriptError, but nothing was thrown");
}

const prototypeKeys = Object.getOwnPropertyNames(Object.prototype).sort();

/** Registers the five laws for one codec as vitest describe blocks. */
export function describeCodecLaws(options: CodecLawsOptions): void {
  const { codec, project } = options;
  const arbitrary = options.arbitrary ?? transcriptArbitrary();
  const parameters = lawParameters(options.numRuns ?? lawRuns());
  const name = options.label ?? codec.id;

  describe(`${name}: serialize(parse(s)) = s`, () => {
    const samples = options.samples?.() ?? [];
    for (const sample of samples) {
      it(`is byte-exact for ${sample.name}`, () => {
        expect(codec.serialize(codec.parse(sample.text))).toBe(sample.text);
      });
    }
    it("is byte-exact for every document fromCommon writes", () => {
      fc.assert(
        fc.property(arbitrary, (transcript) => {
          const text = codec.serialize(codec.fromCommon(transcript, options.writeOptions));
          expect(codec.serialize(codec.parse(text))).toBe(text);
        }),
        parameters,
      );
    });
  });

  const shapes: [string, fc.Arbitrary<Transcript>][] = [["generated transcripts", arbitrary]];
  if (options.oddShapes !== false && options.arbitrary === undefined)
    shapes.push(["odd shapes", oddShapesArbitrary()]);

  describe(`${name}: toCommon(fromCommon(c)) = project(c)`, () => {
    for (const [shape, generator] of shapes)
      it(`holds for ${shape}, through text`, () => {
        fc.assert(
          fc.property(generator, (transcript) => {
            expect(throughText(codec, transcript, options).transcript).toEqual(project(transcript));
          }),
          parameters,
        );
      });
    it("project is itself idempotent", () => {
      fc.assert(
        fc.property(arbitrary, (transcript) => {
          expect(project(project(transcript))).toEqual(project(transcript));
        }),
        parameters,
      );
    });
  });

  describe(`${name}: no warning ⇒ no loss`, () => {
    const same = options.equivalent ?? ((transcript: Transcript) => transcript);
    for (const [shape, generator] of shapes)
      it(`a write that warns of nothing reads back equal, and every code is documented (${shape})`, () => {
        fc.assert(
          fc.property(generator, (transcript) => {
            const { text, warnings } = writeCollecting(codec, transcript, options.writeOptions);
            expectDocumentedCodes(codec, warnings);
            if (warnings.length > 0) return;
            const back = codec.toCommon(codec.parse(text), options.readOptions);
            expect(same(back)).toEqual(same(transcript));
          }),
          parameters,
        );
      });
  });

  describe(`${name}: fromCommon(toCommon(fromCommon(c))) = fromCommon(c)`, () => {
    it("serializes to the same text the second time", () => {
      fc.assert(
        fc.property(arbitrary, (transcript) => {
          const first = codec.serialize(codec.fromCommon(transcript, options.writeOptions));
          const again = codec.serialize(
            codec.fromCommon(
              codec.toCommon(codec.parse(first), options.readOptions),
              options.writeOptions,
            ),
          );
          expect(again).toBe(first);
        }),
        parameters,
      );
    });
  });

  describe(`${name}: parse is total`, () => {
    it("returns or throws TxcriptError for any string", () => {
      fc.assert(
        fc.property(
          fc.oneof(
            fc.string(),
            fc.string({ unit: "binary" }),
            fc.json(),
            fc.jsonValue().map((value) => JSON.stringify(value)),
          ),
          (text) => {
            expectOnlyTxcriptErrors(() => {
              const native = codec.parse(text);
              codec.toCommon(native, options.readOptions);
            });
          },
        ),
        parameters,
      );
      expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeKeys);
    });
    it("returns or throws TxcriptError for cut and spliced documents it wrote", () => {
      fc.assert(
        fc.property(arbitrary, fc.nat(), fc.nat(), (transcript, cutAt, spliceAt) => {
          const text = codec.serialize(codec.fromCommon(transcript, options.writeOptions));
          const cut = text.slice(0, cutAt % (text.length + 1));
          const spliced =
            text.slice(0, spliceAt % (text.length + 1)) +
            '{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}}}';
          for (const candidate of [cut, spliced]) {
            expectOnlyTxcriptErrors(() =>
              codec.toCommon(codec.parse(candidate), options.readOptions),
            );
          }
          expect(({} as Record<string, unknown>).polluted).toBeUndefined();
        }),
        parameters,
      );
    });
  });
}

export interface HarnessUnderTest {
  codec: AnyCodec;
  project: (transcript: Transcript) => Transcript;
  readOptions?: ConversionOptions & Record<string, unknown>;
  writeOptions?: ConversionOptions & Record<string, unknown>;
  label?: string;
}

/** Each harness of a registry as the cross-harness law sees it: once per dialect. */
export function harnessesUnderTest(harnesses: readonly AnyHarness[]): HarnessUnderTest[] {
  return harnesses.flatMap((harness): HarnessUnderTest[] =>
    harness.variants === undefined
      ? [
          {
            codec: harness.codec,
            project: harness.project,
            label: harness.id,
            // The codec's own defaults: the law's `project` states what they keep.
            ...(harness.readOptions ? { readOptions: harness.readOptions({}) } : {}),
          },
        ]
      : harness.variants.map((variant) => ({
          codec: harness.codec,
          project: variant.project,
          writeOptions: variant.writeOptions,
          label: variant.label,
        })),
  );
}

/**
 * Law 5: for every ordered pair A → B, converting A's text to B keeps the
 * conversation's signature within what both model: sig(B(A(c))) = sig(projectB(projectA(c))).
 */
export function describeCrossHarnessLaws(
  harnesses: HarnessUnderTest[],
  options: {
    numRuns?: number;
    arbitrary?: fc.Arbitrary<Transcript>;
    /** Only the ordered pairs this accepts (default: every pair). */
    pairs?: (from: HarnessUnderTest, to: HarnessUnderTest) => boolean;
  } = {},
): void {
  const arbitrary = options.arbitrary ?? transcriptArbitrary();
  const parameters = lawParameters(options.numRuns ?? lawRuns());
  for (const from of harnesses) {
    for (const to of harnesses) {
      if (from === to) continue;
      if (options.pairs !== undefined && !options.pairs(from, to)) continue;
      describe(`cross-harness: ${from.label ?? from.codec.id} → ${to.label ?? to.codec.id}`, () => {
        it("keeps the conversation signature", () => {
          fc.assert(
            fc.property(arbitrary, (transcript) => {
              const viaFrom = throughText(from.codec, transcript, from).transcript;
              const viaTo = throughText(to.codec, viaFrom, to).transcript;
              expect(signature(viaTo)).toEqual(signature(to.project(from.project(transcript))));
            }),
            parameters,
          );
        });
      });
    }
  }
}
