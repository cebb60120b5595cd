// Warnings as codecs report them: few codes and messages, so repeats and
// second messages under one code are common, some with a path, some with
// cases of their own (a collector's output fed back in). For tests of what
// collects them (WarningCollector, RepeatFold, the pipeline).
import fc from "fast-check";
import type { Warning } from "../codec.js";

export const warningArbitrary: fc.Arbitrary<Warning> = fc
  .record({
    kind: fc.constantFrom("degraded", "unsupported", "bookkeeping" as const),
    code: fc.constantFrom("h.a", "h.b", "h.c"),
    message: fc.constantFrom("one", "two", "three"),
    count: fc.integer({ min: 1, max: 4 }),
    path: fc.option(fc.constantFrom("line 1", "line 2", "$.x"), { nil: undefined }),
    cases: fc.option(
      fc.array(
        fc.record({
          message: fc.constantFrom("one", "two", "four"),
          count: fc.integer({ min: 1, max: 3 }),
          path: fc.constantFrom("line 7", "line 8"),
        }),
        { minLength: 1, maxLength: 3 },
      ),
      { freq: 6, nil: undefined },
    ),
  })
  .map(({ path, cases, ...rest }) => ({
    ...rest,
    ...(path === undefined ? {} : { path }),
    ...(cases === undefined ? {} : { cases }),
  }));
