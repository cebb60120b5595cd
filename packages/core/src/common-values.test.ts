// common-values.ts checks the lineage and a message's context without zod
// (docs/decisions/0018); these hold each check to model.ts's zod schema:
// the same verdict and the same value on generated values near a fit.
import { jsonArbitrary } from "@txcript/core/arbitraries";
import { lawParameters, lawRuns } from "@txcript/core/testing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { contextKinds, lineageOf, messageContextOf } from "./common-values.js";
import type { Json } from "./json.js";
import { Lineage, MessageContext } from "./model.js";

const timestamp = fc
  .date({ min: new Date(0), max: new Date(Date.UTC(9999, 11, 31)), noInvalidDate: true })
  .map((date) => date.toISOString());
const nearMiss: fc.Arbitrary<Json> = fc.oneof(
  fc.constantFrom(
    "",
    "2024-05-01T10:00:00Z",
    "2024-05-01T10:00:00.000+00:00",
    "2024-05-01 10:00:00.000Z",
    " 2024-05-01T10:00:00.000Z",
    "2024-05-01T10:00:00.000Z\n",
    "system ",
    "tool",
  ),
  fc.string(),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  jsonArbitrary,
);

/** A fitting object, then maybe one change: a key dropped, a key added, a value replaced. */
function near(fitting: fc.Arbitrary<Record<string, Json>>): fc.Arbitrary<Json> {
  return fitting.chain((object) => {
    const keys = Object.keys(object);
    return fc.oneof(
      fc.constant(object as Json),
      fc.constantFrom(...keys).map((key) => {
        const { [key]: _dropped, ...rest } = object;
        return rest as Json;
      }),
      fc
        .tuple(fc.constantFrom("extra", "__proto__", ...keys), nearMiss)
        .map(([key, value]) => JSON.parse(JSON.stringify({ ...object, [key]: value })) as Json),
      fc.constantFrom(null, [], "text", 1),
    );
  });
}

const nonEmpty = fc.string({ minLength: 1 });
const lineage = near(
  fc.record({
    harness: fc.oneof(nonEmpty, fc.constantFrom("amp", "claude_code")),
    id: nonEmpty,
    txcriptVersion: fc.oneof(nonEmpty, fc.constant("0.1.0")),
    convertedAt: timestamp,
  }),
);
const context = near(
  fc.record(
    {
      kind: fc.constantFrom(...contextKinds),
      source: fc.oneof(nonEmpty, fc.constant("AGENTS.md")),
    },
    { requiredKeys: ["kind"] },
  ),
);

/** What zod's parse gives: the value when it fits, else undefined. */
function zodOf<T>(result: { success: boolean; data?: T }): T | undefined {
  return result.success ? result.data : undefined;
}

describe("lineageOf and messageContextOf give what the zod schemas give", () => {
  for (const [name, arbitrary, ours, schema] of [
    ["lineageOf", lineage, lineageOf, Lineage],
    ["messageContextOf", context, messageContextOf, MessageContext],
  ] as const) {
    it(`${name}: ${schema === Lineage ? "Lineage" : "MessageContext"}.safeParse's verdict and value, key order included`, () => {
      fc.assert(
        fc.property(arbitrary, (value) => {
          const mine = ours(value);
          const theirs = zodOf<unknown>(schema.safeParse(value));
          expect(mine).toStrictEqual(theirs);
          expect(JSON.stringify(mine)).toBe(JSON.stringify(theirs));
        }),
        lawParameters(lawRuns(2000)),
      );
    });
  }

  it("the generated values reach both verdicts (control: the properties are not vacuous)", () => {
    for (const [arbitrary, schema] of [
      [lineage, Lineage],
      [context, MessageContext],
    ] as const) {
      const verdicts = new Set(
        fc.sample(arbitrary, { numRuns: 2000, seed: 11 }).map((v) => schema.safeParse(v).success),
      );
      expect([...verdicts].sort()).toEqual([false, true]);
    }
  });

  it("keeps what it accepts, and refuses an empty harness, a timestamp without milliseconds and an unknown kind", () => {
    const written = {
      harness: "amp",
      id: "T-1",
      txcriptVersion: "0.1.0",
      convertedAt: "2026-01-02T03:04:05.006Z",
    };
    expect(lineageOf(written)).toEqual(written);
    expect(lineageOf({ ...written, harness: "" })).toBeUndefined();
    expect(lineageOf({ ...written, convertedAt: "2026-01-02T03:04:05Z" })).toBeUndefined();
    expect(messageContextOf({ kind: "injected", source: "AGENTS.md" })).toEqual({
      kind: "injected",
      source: "AGENTS.md",
    });
    expect(messageContextOf({ kind: "tool" })).toBeUndefined();
    expect(messageContextOf({ kind: "system", source: "" })).toBeUndefined();
  });
});
