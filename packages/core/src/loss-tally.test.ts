import { describe, expect, it } from "vitest";
import {
  type ConversionOptions,
  type Loss,
  LossTally,
  type Warning,
  WarningCollector,
} from "./index.js";

const dropped: Loss = { code: "toy.dropped", kind: "unsupported", description: "toy" };
const other: Loss = { code: "toy.other", kind: "bookkeeping", description: "toy" };

function collect(): { options: ConversionOptions; warnings: Warning[] } {
  const warnings: Warning[] = [];
  return { options: { onWarning: (warning) => warnings.push(warning) }, warnings };
}

describe("LossTally", () => {
  it("reports each (code, message) once, with the summed count and the first path", () => {
    const tally = new LossTally();
    tally.add(dropped, "a title was not carried", 1, "$[0].title");
    tally.add(dropped, "a title was not carried", 3, "$[7].title");
    tally.add(dropped, "a status was not carried", 1, "$[2].status");
    tally.add(other, "a title was not carried");
    const { options, warnings } = collect();
    tally.flush(options);
    expect(warnings).toEqual([
      {
        kind: "unsupported",
        code: "toy.dropped",
        message: "a title was not carried",
        count: 4,
        path: "$[0].title",
      },
      {
        kind: "unsupported",
        code: "toy.dropped",
        message: "a status was not carried",
        count: 1,
        path: "$[2].status",
      },
      { kind: "bookkeeping", code: "toy.other", message: "a title was not carried", count: 1 },
    ]);
  });

  it("builds a path given as a function only for the first occurrence, and ignores counts of 0", () => {
    const tally = new LossTally();
    let built = 0;
    const path = () => {
      built += 1;
      return `$[${built}]`;
    };
    tally.add(dropped, "gone", 0, path);
    for (let index = 0; index < 5; index += 1) tally.add(dropped, "gone", 1, path);
    const { options, warnings } = collect();
    tally.flush(options);
    expect(built).toBe(1);
    expect(warnings).toEqual([
      { kind: "unsupported", code: "toy.dropped", message: "gone", count: 5, path: "$[1]" },
    ]);
  });

  it("starts again after a flush", () => {
    const tally = new LossTally();
    tally.add(dropped, "gone");
    const first = collect();
    tally.flush(first.options);
    tally.flush(first.options);
    expect(first.warnings).toHaveLength(1);
  });

  it("reports kinds in the order they first occurred, codes interleaved", () => {
    const tally = new LossTally();
    tally.add(other, "b");
    tally.add(dropped, "a");
    tally.add(other, "c");
    tally.add(other, "b", 2);
    tally.add(dropped, "a");
    const { options, warnings } = collect();
    tally.flush(options);
    expect(warnings.map((warning) => [warning.code, warning.message, warning.count])).toEqual([
      ["toy.other", "b", 3],
      ["toy.dropped", "a", 2],
      ["toy.other", "c", 1],
    ]);
  });

  it("adds what it counted to another tally as if counted there, and keeps it for the next", () => {
    const counted = new LossTally();
    counted.add(other, "b", 2, "$[4]");
    counted.add(dropped, "a");
    const reference = new LossTally();
    reference.add(other, "b", 2, "$[4]");
    reference.add(dropped, "a");
    reference.add(other, "b", 1, "$[9]");
    reference.add(dropped, "z");
    const expected = collect();
    reference.flush(expected.options);
    for (let read = 0; read < 2; read += 1) {
      const tally = new LossTally();
      counted.addTo(tally);
      tally.add(other, "b", 1, "$[9]");
      tally.add(dropped, "z");
      const { options, warnings } = collect();
      tally.flush(options);
      expect(warnings).toEqual(expected.warnings);
    }
  });
});

describe("WarningCollector", () => {
  it("sums one code per leg, keeps each distinct sentence with its count and first path", () => {
    const collector = new WarningCollector();
    const base = { kind: "degraded" as const, code: "toy.x", leg: "read" as const };
    collector.add({ ...base, message: "one", count: 1, path: "$[0]" });
    collector.add({ ...base, message: "two", count: 2, path: "$[1]" });
    collector.add({ ...base, message: "one", count: 3, path: "$[9]" });
    collector.add({ ...base, leg: "write", message: "one", count: 1 });
    collector.add({
      ...base,
      message: "three",
      count: 2,
      cases: [
        { message: "one", count: 1 },
        { message: "three", count: 1 },
      ],
    });
    expect(collector.warnings).toEqual([
      {
        ...base,
        message: "one",
        count: 8,
        path: "$[0]",
        cases: [
          { message: "one", count: 5, path: "$[0]" },
          { message: "two", count: 2, path: "$[1]" },
          { message: "three", count: 1 },
        ],
      },
      { ...base, leg: "write", message: "one", count: 1 },
    ]);
  });
});
