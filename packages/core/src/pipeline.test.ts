// The whole pipeline's warnings (convertSession, readSession): each leg's
// later occurrences of a kind are counted, not tagged and collected one by
// one (RepeatFold), and must come out as a WarningCollector of every
// occurrence tagged with its leg and harness and added alone, read leg
// first — as they did before the fold.
import { warningArbitrary } from "@txcript/core/arbitraries";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Warning, WarningCollector } from "./codec.js";
import type { AnyHarness } from "./harness.js";
import type { Transcript } from "./model.js";
import { convertSession, readSession, type SessionSource } from "./pipeline.js";
import { lawParameters } from "./testing/index.js";

const transcript: Transcript = {
  meta: { id: "s", timestamp: "2026-01-01T00:00:00.000Z" },
  messages: [],
};

/** A source whose load and read report `load` and `read`, and a target whose writer reports `write`. */
function harnesses(load: Warning[], read: Warning[], write: Warning[], chunked: boolean) {
  const report = (list: Warning[], onWarning?: (warning: Warning) => void) => {
    for (const warning of list) onWarning?.(structuredClone(warning));
  };
  const from = {
    id: "src",
    codec: {
      toCommon: (_native: unknown, options?: { onWarning?: (warning: Warning) => void }) => {
        report(read, options?.onWarning);
        return transcript;
      },
    },
  } as unknown as AnyHarness;
  const to = {
    id: "dst",
    codec: {
      fromCommon: (_t: Transcript, options?: { onWarning?: (warning: Warning) => void }) => {
        report(write, options?.onWarning);
        return "body";
      },
      serialize: (body: string) => body,
    },
    ...(chunked
      ? {
          serializeChunks: function* (
            _t: Transcript,
            options?: { onWarning?: (warning: Warning) => void },
          ) {
            yield "a";
            report(write, options?.onWarning);
            yield "b";
          },
        }
      : {}),
  } as unknown as AnyHarness;
  const source: SessionSource = {
    harness: from,
    file: "in.json",
    load: async (onWarning) => {
      report(load, onWarning);
      return {};
    },
  };
  return { source, to };
}

/** What a collector of every occurrence tagged and added alone gives. */
function eachAlone(read: Warning[], write: Warning[]): Warning[] {
  const collector = new WarningCollector();
  for (const warning of read) collector.add({ ...warning, leg: "read", harness: "src" });
  for (const warning of write) collector.add({ ...warning, leg: "write", harness: "dst" });
  return collector.warnings;
}

const lists = fc.tuple(
  fc.array(warningArbitrary, { maxLength: 8 }),
  fc.array(warningArbitrary, { maxLength: 40 }),
  fc.array(warningArbitrary, { maxLength: 40 }),
  fc.boolean(),
);

describe("the pipeline's warnings", () => {
  it("convertSession: both legs' warnings as a collector of each occurrence alone, read leg first", async () => {
    await fc.assert(
      fc.asyncProperty(lists, async ([load, read, write, chunked]) => {
        const { source, to } = harnesses(load, read, write, chunked);
        const converted = await convertSession(source, to, { lineByLine: true });
        expect([...converted.slices].join("")).toBe(chunked ? "ab" : "body");
        expect(converted.warnings()).toEqual(eachAlone([...load, ...read], write));
        // Asking again changes nothing.
        expect(converted.warnings()).toEqual(eachAlone([...load, ...read], write));
      }),
      lawParameters(300),
    );
  });

  it("readSession: the read leg's warnings, the load's first", async () => {
    await fc.assert(
      fc.asyncProperty(lists, async ([load, read]) => {
        const { source } = harnesses(load, read, [], false);
        const { warnings } = await readSession(source);
        expect(warnings).toEqual(eachAlone([...load, ...read], []));
      }),
      lawParameters(300),
    );
  });

  it("counts a repeated kind once, with the first occurrence's path (control: the counts are all there)", async () => {
    const line = (index: number): Warning => ({
      kind: "degraded",
      code: "h.a",
      message: "one",
      count: 1,
      path: `$.messages[${index}]`,
    });
    const write = Array.from({ length: 500 }, (_, index) => line(index));
    const { source, to } = harnesses([], [], write, true);
    const converted = await convertSession(source, to, { lineByLine: true });
    [...converted.slices];
    expect(converted.warnings()).toEqual([
      {
        kind: "degraded",
        code: "h.a",
        message: "one",
        count: 500,
        path: "$.messages[0]",
        leg: "write",
        harness: "dst",
      },
    ]);
  });
});
