// RepeatFold (stream.ts): a streaming leg's warnings with each kind's later
// occurrences counted, not tagged and collected one by one, must come out as
// a WarningCollector of every occurrence tagged and added alone.
import { warningArbitrary } from "@txcript/core/arbitraries";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RepeatFold, type Warning, WarningCollector } from "./codec.js";
import { lawParameters } from "./testing/index.js";

/** What the CLI's tag does: the leg and harness, the same for every warning of a leg. */
const tag = (warning: Warning): Warning => ({ ...warning, leg: "read", harness: "h" });

interface Fold {
  add(warning: Warning): void;
  warnings(): Warning[];
}

/** The collector of every occurrence tagged alone (what streamConvert did before the fold). */
function eachAlone(warnings: readonly Warning[]): Warning[] {
  const collector = new WarningCollector();
  for (const warning of warnings) collector.add(tag(warning));
  return collector.warnings;
}

function folded(make: () => Fold, warnings: readonly Warning[]): Warning[] {
  const fold = make();
  for (const warning of warnings) fold.add(warning);
  return fold.warnings();
}

/** Two folds that lose what the real one keeps: each is a control for the property. */
class CodeOnlyFold implements Fold {
  // Keyed by code alone: a second message under one code is counted into the first.
  readonly #first = new Map<string, { tagged: Warning; more: number }>();
  readonly #collector = new WarningCollector();
  add(warning: Warning): void {
    const known = this.#first.get(warning.code);
    if (known !== undefined && warning.cases === undefined) {
      known.more += warning.count;
      return;
    }
    const tagged = tag(warning);
    if (known === undefined) this.#first.set(warning.code, { tagged, more: 0 });
    this.#collector.add(tagged);
  }
  warnings(): Warning[] {
    for (const { tagged, more } of this.#first.values()) {
      const { path: _, ...rest } = tagged;
      if (more > 0) this.#collector.add({ ...rest, count: more });
    }
    return this.#collector.warnings;
  }
}

class NoFlushFold implements Fold {
  // Forgets the counted repeats when asked for the warnings.
  readonly #collector = new WarningCollector();
  readonly #seen = new Set<string>();
  add(warning: Warning): void {
    const key = `${warning.code}\u0000${warning.message}`;
    if (warning.cases === undefined && this.#seen.has(key)) return;
    this.#seen.add(key);
    this.#collector.add(tag(warning));
  }
  warnings(): Warning[] {
    return this.#collector.warnings;
  }
}

describe("RepeatFold", () => {
  it("gives a WarningCollector's warnings of every occurrence tagged alone", () => {
    fc.assert(
      fc.property(fc.array(warningArbitrary, { maxLength: 60 }), (warnings) => {
        expect(folded(() => new RepeatFold(tag), warnings)).toEqual(eachAlone(warnings));
      }),
      lawParameters(300),
    );
  });

  it("tags only the first occurrence of each code and message; asking twice changes nothing", () => {
    let tagged = 0;
    const fold = new RepeatFold((warning) => {
      tagged += 1;
      return tag(warning);
    });
    const line = (message: string, path: string): Warning => ({
      kind: "degraded",
      code: "h.a",
      message,
      count: 1,
      path,
    });
    for (let index = 0; index < 1000; index += 1) fold.add(line("one", `line ${index}`));
    fold.add(line("two", "line 1000"));
    fold.add(line("one", "line 1001"));
    expect(tagged).toBe(2);
    const expected: Warning[] = [
      {
        kind: "degraded",
        code: "h.a",
        message: "one",
        count: 1002,
        path: "line 0",
        leg: "read",
        harness: "h",
        cases: [
          { message: "one", count: 1001, path: "line 0" },
          { message: "two", count: 1, path: "line 1000" },
        ],
      },
    ];
    expect(fold.warnings()).toEqual(expected);
    expect(fold.warnings()).toEqual(expected);
  });

  it("controls: a fold keyed by code alone, or one that drops the repeats, fails the property", () => {
    const mixed: Warning[] = [
      { kind: "degraded", code: "h.a", message: "one", count: 1, path: "line 1" },
      { kind: "degraded", code: "h.a", message: "one", count: 1, path: "line 2" },
      { kind: "degraded", code: "h.a", message: "two", count: 1, path: "line 3" },
    ];
    expect(folded(() => new RepeatFold(tag), mixed)).toEqual(eachAlone(mixed));
    expect(folded(() => new CodeOnlyFold(), mixed)).not.toEqual(eachAlone(mixed));
    expect(folded(() => new NoFlushFold(), mixed)).not.toEqual(eachAlone(mixed));
  });
});
