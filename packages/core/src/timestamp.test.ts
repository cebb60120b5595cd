import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isCanonicalTimestamp, readTimestamp, timestampMillis } from "./timestamp.js";

describe("readTimestamp", () => {
  it("reads a zone-less date-time as UTC, whatever the machine's zone", () => {
    expect(readTimestamp("2026-03-01T10:20:30")).toBe("2026-03-01T10:20:30.000Z");
    expect(readTimestamp("2026-03-01 10:20:30.5")).toBe("2026-03-01T10:20:30.500Z");
  });
  it("honours explicit zones and epoch milliseconds", () => {
    expect(readTimestamp("2026-03-01T10:20:30+02:00")).toBe("2026-03-01T08:20:30.000Z");
    expect(readTimestamp(Date.UTC(2026, 0, 2, 3, 4, 5, 6))).toBe("2026-01-02T03:04:05.006Z");
  });
  it("refuses what is not a representable time", () => {
    for (const value of [
      "",
      "yesterday",
      null,
      true,
      8.64e15 + 1,
      Number.NaN,
      "+275760-09-13T00:00:00.001Z",
    ])
      expect(readTimestamp(value as never)).toBeUndefined();
    expect(timestampMillis({})).toBeNaN();
  });
  it("gives canonical strings back unchanged, and agrees with the plain conversion on any time", () => {
    fc.assert(
      fc.property(fc.integer({ min: -62_167_219_200_000, max: 253_402_300_799_999 }), (ms) => {
        const iso = new Date(ms).toISOString();
        expect(isCanonicalTimestamp(iso)).toBe(true);
        expect(readTimestamp(iso)).toBe(iso);
        expect(readTimestamp(ms)).toBe(iso);
      }),
    );
    expect(isCanonicalTimestamp("2026-02-30T00:00:00.000Z")).toBe(false);
    expect(isCanonicalTimestamp("2024-02-29T23:59:59.999Z")).toBe(true);
  });
});
