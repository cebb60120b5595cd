// The fuzz properties of issue 7, one describe per parser: arbitrary
// strings, arbitrary JSON, JSON in the format's own vocabulary, mutations of
// every fixture and real capture, and prototype-named keys round-tripping as
// data. CI budget 1,000 cases each; `pnpm fuzz` runs 100,000.

import { harnessDefinitions } from "@txcript/harnesses";
import { afterAll, describe, expect, it } from "vitest";
import { figures, fuzzRuns, runFuzzProperty } from "./fuzz-budget.js";
import { fuzzProperty, propertyNames } from "./fuzz-properties.js";
import { knownBugHits } from "./known-bugs.js";
import { parsers, realPresent, samplesOf } from "./parsers.js";

describe("the parsers under fuzz", () => {
  it("are every harness of the registry, in its order", () => {
    if (!realPresent) console.warn("fuzz: ../shared/real is absent: real captures are not mutated");
    console.log(`fuzz targets: ${parsers.map((parser) => parser.id).join(", ")}`);
    expect(parsers.map((parser) => parser.id)).toEqual(
      harnessDefinitions.map((harness) => harness.id),
    );
    expect(parsers.map((parser) => parser.id)).toContain("common");
  });
});

for (const parser of parsers) {
  describe(`${parser.id}: only TxcriptError escapes, with a location`, () => {
    it("has samples to mutate", () => {
      expect(samplesOf(parser.id).length).toBeGreaterThan(0);
    });
    for (const name of propertyNames) {
      const property = fuzzProperty(parser.id, name);
      const label = `${name} (${fuzzRuns()} cases)`;
      if (property === undefined) it.skip(`${label}: no byte-exact sample to start from`, () => {});
      else it(label, () => runFuzzProperty(`${parser.id}/${name}`, property));
    }
  });
}

afterAll(() => {
  for (const [bug, count] of knownBugHits())
    console.log(`fuzz met a known bug ${count} times (see regressions.test.ts): ${bug}`);
  const byParser = new Map<string, { runs: number; seconds: number }>();
  for (const figure of figures) {
    const parser = figure.property.split("/")[0] as string;
    const total = byParser.get(parser) ?? { runs: 0, seconds: 0 };
    total.runs += figure.runs;
    total.seconds += figure.seconds;
    byParser.set(parser, total);
  }
  for (const [parser, total] of byParser)
    console.log(
      `fuzz total ${parser}: ${total.runs} cases in ${total.seconds.toFixed(1)} s (${Math.round(total.runs / total.seconds)} cases/s)`,
    );
});
