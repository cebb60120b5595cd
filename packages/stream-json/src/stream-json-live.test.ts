import { readFileSync } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { TxcriptError, type Warning } from "@txcript/core";
import { transcriptArbitrary } from "@txcript/core/arbitraries";
import { lawParameters } from "@txcript/core/testing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fixtureReadOptions, fixturesDirectory } from "./fixtures-support.js";
import {
  readStreamJsonLines,
  StreamJsonAccumulator,
  type StreamJsonLineRecord,
  streamJsonCodec,
} from "./index.js";

async function collect(
  source: AsyncIterable<string | Uint8Array>,
  onWarning?: (warning: Warning) => void,
): Promise<StreamJsonLineRecord[]> {
  const records: StreamJsonLineRecord[] = [];
  for await (const record of readStreamJsonLines(source, onWarning ? { onWarning } : {}))
    records.push(record);
  return records;
}

async function* chunks<T>(items: T[]): AsyncGenerator<T> {
  for (const item of items) yield item;
}

/** The lines parse() finds, as the live reader numbers them. */
function wholeLines(text: string): StreamJsonLineRecord[] {
  return streamJsonCodec
    .parse(text)
    .lines.flatMap((line, index) =>
      line.value === null || line.text === undefined
        ? []
        : [{ line: index + 1, text: line.text, value: line.value }],
    );
}

/** Cut `bytes` at the given points (sorted, deduplicated, inside the buffer). */
function split(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
  const pieces: Uint8Array[] = [];
  let start = 0;
  for (const point of [...points, bytes.length]) {
    pieces.push(bytes.subarray(start, point));
    start = point;
  }
  return pieces;
}

const capture = fc
  .tuple(transcriptArbitrary({ maxTurns: 3 }), fc.constantFrom("claude", "amp"), fc.boolean())
  .map(([transcript, dialect, blankLines]) => {
    const text = streamJsonCodec.serialize(streamJsonCodec.fromCommon(transcript, { dialect }));
    return blankLines ? text.replaceAll("\n", "\n\n") : text;
  });

describe("readStreamJsonLines(chunks) = parse(whole)", () => {
  it("yields the same lines for any split of the bytes, multi-byte characters included", async () => {
    await fc.assert(
      fc.asyncProperty(capture, fc.array(fc.nat(), { maxLength: 40 }), async (text, cuts) => {
        const bytes = new TextEncoder().encode(text);
        expect(await collect(chunks(split(bytes, cuts)))).toEqual(wholeLines(text));
      }),
      lawParameters(200),
    );
  });
  it("yields the same lines fed one byte at a time", async () => {
    await fc.assert(
      fc.asyncProperty(capture, async (text) => {
        const bytes = new TextEncoder().encode(text);
        const single = Array.from(bytes, (_, index) => bytes.subarray(index, index + 1));
        expect(await collect(chunks(single))).toEqual(wholeLines(text));
      }),
      lawParameters(25),
    );
  });
  it("yields the same lines from string chunks of a Node stream", async () => {
    const text = readFileSync(path.join(fixturesDirectory, "claude-replay-partial.jsonl"), "utf8");
    const stream = Readable.from(text.match(/[\s\S]{1,37}/g) ?? []);
    expect(await collect(stream)).toEqual(wholeLines(text));
  });
});

describe("readStreamJsonLines: live", () => {
  it("yields a line as soon as its newline arrives, before the stream ends", async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    async function* slow() {
      yield '{"type":"system","subtype":"init","session_id":"s"}\n{"type":"us';
      await gate;
      yield 'er","message":{"role":"user","content":"x"},"session_id":"s"}\n';
    }
    const reader = readStreamJsonLines(slow());
    const first = await reader.next();
    expect(first.value).toMatchObject({ line: 1, value: { subtype: "init" } });
    release();
    expect((await reader.next()).value).toMatchObject({ line: 2, value: { type: "user" } });
    expect((await reader.next()).done).toBe(true);
  });
  it("ends with a warning, not an error, on a final line cut off mid-write", async () => {
    const warnings: Warning[] = [];
    const records = await collect(
      chunks([
        '{"type":"system","subtype":"init","session_id":"s"}\n',
        '{"type":"assistant","mess',
      ]),
      (warning) => warnings.push(warning),
    );
    expect(records).toHaveLength(1);
    expect(warnings).toEqual([
      expect.objectContaining({
        code: "stream_json.truncated-line",
        kind: "degraded",
        path: "line 2",
      }),
    ]);
  });
  it("accepts a complete final line without a newline", async () => {
    const records = await collect(chunks(['{"a":1}\n{"b":', "2}"]));
    expect(records.map((record) => record.value)).toEqual([{ a: 1 }, { b: 2 }]);
  });
  it("throws INVALID_JSON naming the line and quoting it cut short", async () => {
    const long = `not json ${"y".repeat(500)}`;
    try {
      await collect(chunks([`{"a":1}\n\n${long}\n{"b":2}\n`]));
      expect.unreachable();
    } catch (error) {
      expect(TxcriptError.isInstance(error)).toBe(true);
      const txcript = error as TxcriptError;
      expect(txcript.code).toBe("INVALID_JSON");
      expect(txcript.location.line).toBe(3);
      expect(txcript.message).toMatch(/^line 3 is not JSON/);
      expect(txcript.hint).toContain('"not json yyy');
      expect(txcript.hint).not.toContain("y".repeat(200));
    }
  });
  it("feeds an accumulator to the same transcript the codec reads", async () => {
    const text = readFileSync(path.join(fixturesDirectory, "claude-tools.jsonl"), "utf8");
    const accumulator = new StreamJsonAccumulator(fixtureReadOptions);
    for await (const record of readStreamJsonLines(chunks([text.slice(0, 999), text.slice(999)])))
      accumulator.push(record);
    expect(accumulator.transcript()).toEqual(
      streamJsonCodec.toCommon(streamJsonCodec.parse(text), fixtureReadOptions),
    );
  });
  it("pulls the source no further than the line it yields (memory bounded by a line)", async () => {
    let pulled = 0;
    async function* endless() {
      for (;;) {
        pulled += 1;
        yield `{"type":"result","n":${pulled},"session_id":"s"}\n`;
      }
    }
    let seen = 0;
    for await (const record of readStreamJsonLines(endless())) {
      seen += 1;
      expect(record.value).toMatchObject({ n: seen });
      expect(pulled).toBe(seen);
      if (seen === 5000) break;
    }
    expect(seen).toBe(5000);
  });
});
