// The sessions the real-program checks write: every fixture of every
// harness (its .common.json), the real OpenCode exports read through our
// codec, and generated transcripts (a fixed seed), each named.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { commonCodec, type Transcript } from "@txcript/core";
import { transcriptArbitrary } from "@txcript/core/arbitraries";
import fc from "fast-check";
import { opencodeCodec } from "../opencode-codec.js";
import { realDir, realExports, repoRoot } from "../test-support.js";

export interface NamedTranscript {
  name: string;
  transcript: Transcript;
}

export function fixtureTranscripts(): NamedTranscript[] {
  const fixtures = path.join(repoRoot, "fixtures");
  const out: NamedTranscript[] = [];
  for (const harness of readdirSync(fixtures).sort()) {
    const directory = path.join(fixtures, harness);
    if (harness === "hostile" || !existsSync(directory)) continue;
    for (const name of readdirSync(directory).sort()) {
      if (!name.endsWith(".common.json")) continue;
      const text = readFileSync(path.join(directory, name), "utf8");
      out.push({
        name: `fixtures/${harness}/${name}`,
        transcript: commonCodec.toCommon(commonCodec.parse(text)),
      });
    }
  }
  return out;
}

export function realTranscripts(): NamedTranscript[] {
  return realExports.flatMap((name) => {
    const file = path.join(realDir, name);
    if (!existsSync(file)) return [];
    const text = readFileSync(file, "utf8");
    return [
      { name: `real/${name}`, transcript: opencodeCodec.toCommon(opencodeCodec.parse(text)) },
    ];
  });
}

export function generatedTranscripts(count: number, seed = 20261201): NamedTranscript[] {
  return fc
    .sample(transcriptArbitrary({ maxTurns: 3 }), { numRuns: count, seed })
    .map((transcript, index) => ({ name: `generated #${index}`, transcript }));
}
