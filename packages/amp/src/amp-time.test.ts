import { lawParameters } from "@txcript/core/testing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isCanonicalIsoTime, isoTime } from "./amp-time.js";

/** The plain conversion the fast path must agree with: parse, range-check, print. */
function reference(value: unknown): string | undefined {
  const ms =
    typeof value === "number" ? value : typeof value === "string" ? Date.parse(value) : NaN;
  if (!Number.isFinite(ms)) return undefined;
  const date = new Date(ms);
  if (Number.isNaN(date.getTime())) return undefined;
  const iso = date.toISOString();
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(iso) ? iso : undefined;
}

const inRange = fc.date({
  min: new Date("0000-01-01T00:00:00.000Z"),
  max: new Date("9999-12-31T23:59:59.999Z"),
  noInvalidDate: true,
});

/** An ISO string with one character replaced: near misses of the canonical form. */
const nearMiss = fc
  .tuple(inRange, fc.nat(23), fc.constantFrom(..."0123456789-:.TZtz +"))
  .map(([date, at, character]) => {
    const iso = date.toISOString();
    return `${iso.slice(0, at)}${character}${iso.slice(at + 1)}`;
  });

/** The canonical shape with every field drawn past its range: invalid days, hour 24, ... */
const fieldsAtEdges = fc
  .tuple(
    fc.oneof(fc.integer({ min: 0, max: 9999 }), fc.constantFrom(0, 1900, 2000, 2023, 2024)),
    fc.integer({ min: 0, max: 13 }),
    fc.integer({ min: 0, max: 32 }),
    fc.integer({ min: 0, max: 25 }),
    fc.integer({ min: 0, max: 61 }),
    fc.integer({ min: 0, max: 61 }),
    fc.integer({ min: 0, max: 999 }),
  )
  .map(([year, month, day, hour, minute, second, ms]) => {
    const pad = (value: number, width: number) => String(value).padStart(width, "0");
    return `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}T${pad(hour, 2)}:${pad(minute, 2)}:${pad(second, 2)}.${pad(ms, 3)}Z`;
  });

describe("isoTime", () => {
  it("agrees with parse-and-print on canonical strings, near misses and numbers", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          inRange.map((date) => date.toISOString()),
          nearMiss,
          fieldsAtEdges,
          fc.double(),
          fc.integer(),
          fc.string(),
        ),
        (value) => {
          expect(isoTime(value)).toBe(reference(value));
        },
      ),
      lawParameters(2000),
    );
  });

  it("takes the fast path only for strings toISOString prints", () => {
    for (const text of [
      "2024-02-29T10:00:00.000Z",
      "2000-02-29T10:00:00.000Z",
      "0000-02-29T10:00:00.000Z",
      "0000-01-01T00:00:00.000Z",
      "9999-12-31T23:59:59.999Z",
    ])
      expect([isCanonicalIsoTime(text), new Date(Date.parse(text)).toISOString()]).toEqual([
        true,
        text,
      ]);
    for (const text of [
      "2023-02-29T10:00:00.000Z",
      "1900-02-29T10:00:00.000Z",
      "2026-04-31T10:00:00.000Z",
      "2026-01-01T24:00:00.000Z",
      "2026-01-01T23:60:00.000Z",
      "2026-13-01T00:00:00.000Z",
      "2026-00-10T00:00:00.000Z",
      "2026-01-00T00:00:00.000Z",
      "2026-01-01T00:00:00.000+00:00",
      "2026-01-01T00:00:00Z",
      "+012026-01-01T00:00:00.000Z",
    ]) {
      expect(isCanonicalIsoTime(text)).toBe(false);
      expect(isoTime(text)).toBe(reference(text));
    }
  });
});
