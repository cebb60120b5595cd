// `txcript fixtures`: reproducible native files from core's Common
// generators, for fuzz-testing any parser of these formats. The seed fixes
// the bytes; every file is checked against our own parser before it is kept.
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { TxcriptError, writeFileAtomic } from "@txcript/core";
import { transcriptArbitrary } from "@txcript/core/arbitraries";
import fc from "fast-check";
import { integerOption, type Parsed, requireOption } from "../args.js";
import { findHarness } from "../harnesses.js";
import type { Io } from "../io.js";
import { reportSettings } from "../losses.js";
import { note } from "../output.js";
import { printResult } from "../result.js";

/** The native texts for a seed, the same on every machine and run. */
export function fixtureTexts(harnessName: string, count: number, seed: number): string[] {
  const harness = findHarness(harnessName);
  const transcripts = fc.sample(transcriptArbitrary(), { seed, numRuns: count });
  const startTime = new Date(Date.UTC(2026, 0, 1));
  return transcripts.map((transcript) => {
    const text = harness.codec.serialize(
      // A fixed time of writing: the same seed gives the same bytes.
      harness.codec.fromCommon(transcript, harness.writeOptions?.({ now: startTime }) ?? {}),
    );
    // Every fixture must pass our own parser; a failure here is a codec bug.
    harness.codec.toCommon(harness.codec.parse(text), harness.readOptions?.({ startTime }) ?? {});
    return text;
  });
}

export async function fixturesCommand(io: Io, { values }: Parsed): Promise<number> {
  const harness = findHarness(requireOption(values, "harness", "fixtures"));
  requireOption(values, "count", "fixtures");
  requireOption(values, "seed", "fixtures");
  const count = integerOption(values, "count", "fixtures", 1) as number;
  const seed = integerOption(values, "seed", "fixtures", -(2 ** 31)) as number;
  if (seed > 2 ** 31 - 1) {
    throw new TxcriptError("USAGE", "--seed must fit in 32 bits", {
      hint: "use an integer from -2147483648 to 2147483647",
    });
  }
  const settings = reportSettings(values);
  const out = path.resolve(io.cwd, requireOption(values, "out-dir", "fixtures"));
  const texts = fixtureTexts(harness.id, count, seed);
  await fs.mkdir(out, { recursive: true });
  const width = String(count).length;
  const written: string[] = [];
  for (const [index, text] of texts.entries()) {
    const name = `${harness.id}-${seed}-${String(index + 1).padStart(width, "0")}${harness.extension}`;
    await writeFileAtomic(path.join(out, name), text, { overwrite: values.force === true });
    written.push(path.join(out, name));
  }
  await note(
    io,
    settings,
    `wrote ${count} ${harness.id} fixture${count === 1 ? "" : "s"} (seed ${seed}) to ${out}`,
  );
  if (settings.json)
    await printResult(io, {
      command: "fixtures",
      outputs: written.map((file) => ({ harness: harness.id, path: file })),
      losses: [],
    });
  return 0;
}
