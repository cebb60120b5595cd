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

export const knownBugs: readonly KnownBug[] = [
  {
    id: "opencode: parse of an export nested 100,000 deep is refused naming the file",
    parsers: ["opencode"],
    matches: (violation) => /^opencode\.parse threw TOO_LARGE without the file/.test(violation),
  },
  {
    id: "codex: a token count past 2^53 does not reach Common",
    parsers: ["codex"],
    matches: (violation) =>
      /^codex\.toCommon returned an invalid Common transcript: .*Too big: expected int to be <=9007199254740991 at \$\.messages\[\d+\]\.usage\./.test(
        violation,
      ),
  },
  {
    id: "opencode usage: a token count past 2^53 does not reach Common",
    parsers: ["opencode"],
    matches: (violation) =>
      /^opencode\.toCommon returned an invalid Common transcript: .*Too big: expected int to be <=9007199254740991 at \$\.messages\[\d+\]\.usage\./.test(
        violation,
      ),
  },
  {
    id: "gemini-cli: content nested 100,000 deep is read or refused with a TxcriptError",
    parsers: ["gemini_cli"],
    matches: (violation) =>
      /^gemini_cli\.toCommon let a non-TxcriptError escape: RangeError: Maximum call stack size exceeded .*renderContent/.test(
        violation,
      ),
  },
];

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

export const knownStoreBugs: readonly KnownStoreBug[] = [
  {
    harness: "gemini_cli",
    test: "permission",
    id: "gemini_cli store: a session file its user cannot read is NOT_FOUND (no Gemini CLI session <id>), not IO permission denied",
  },
];

export function knownStoreBug(
  harness: string,
  test: KnownStoreBug["test"],
): KnownStoreBug | undefined {
  return knownStoreBugs.find((bug) => bug.harness === harness && bug.test === test);
}
