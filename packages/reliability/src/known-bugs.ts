// Bugs the fuzzers found in other packages that are not fixed yet. Each has a
// regression test in regressions.test.ts or regressions-second-wave.test.ts
// (marked it.fails until the fix
// lands); the fuzz properties tolerate exactly these violations, counted and
// printed, so they keep hunting for new bugs instead of re-finding old ones.
import type { ParserId } from "./parsers.js";

export interface KnownBug {
  /** The regression test's name in regressions.test.ts. */
  id: string;
  parsers: readonly ParserId[];
  /** Matches the oracle's violation message (and the input) of this bug only. */
  matches: (violation: string, text: string) => boolean;
}

// The second wave's four (OpenCode's deep parse and usage past 2^53, Codex's
// usage past 2^53, Gemini CLI's deep content) are fixed: their regression
// tests in regressions-second-wave.test.ts are plain tests now.
export const knownBugs: readonly KnownBug[] = [];

const hits = new Map<string, number>();

export function findKnownBug(
  parser: ParserId,
  violation: string,
  text: string,
): KnownBug | undefined {
  const bug = knownBugs.find(
    (candidate) => candidate.parsers.includes(parser) && candidate.matches(violation, text),
  );
  if (bug) hits.set(bug.id, (hits.get(bug.id) ?? 0) + 1);
  return bug;
}

/** How often each known bug was met in this process. */
export function knownBugHits(): ReadonlyMap<string, number> {
  return hits;
}

/** A store-fault test a store fails today: it runs as it.fails until the fix lands. */
export interface KnownStoreBug {
  harness: string;
  test: "permission";
  /** What is wrong, as the store's owner would fix it. */
  id: string;
}

export const knownStoreBugs: readonly KnownStoreBug[] = [];

export function knownStoreBug(
  harness: string,
  test: KnownStoreBug["test"],
): KnownStoreBug | undefined {
  return knownStoreBugs.find((bug) => bug.harness === harness && bug.test === test);
}
