// Replays every failing seed `pnpm fuzz` saved in fuzz-seeds.json: the exact
// counterexample runs again in every normal test run, so a bug the long
// budget found stays found. An empty file means the long runs found nothing new.

import { harnessDefinitions } from "@txcript/harnesses";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { savedSeeds } from "./fuzz-budget.js";
import { fuzzProperty, type PropertyName, propertyNames } from "./fuzz-properties.js";
import type { ParserId } from "./parsers.js";

describe("saved fuzz seeds replay", () => {
  const seeds = savedSeeds();
  it("are well-formed", () => {
    for (const seed of seeds) {
      const [parser, property] = seed.property.split("/");
      expect(propertyNames).toContain(property);
      expect(harnessDefinitions.map((harness) => harness.id)).toContain(parser);
    }
  });
  for (const seed of seeds) {
    it(`${seed.property} seed ${seed.seed} (${seed.message.slice(0, 80)})`, () => {
      const [parser, property] = seed.property.split("/") as [ParserId, PropertyName];
      const replayed = fuzzProperty(parser, property);
      expect(replayed, `${seed.property} is no longer defined`).toBeDefined();
      if (replayed) fc.assert(replayed, { seed: seed.seed, path: seed.path, endOnFailure: true });
    });
  }
});
