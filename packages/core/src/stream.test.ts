import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { transcriptArbitrary } from "./arbitraries/index.js";
import { commonCodec } from "./common-codec.js";
import { commonHarness } from "./common-harness.js";
import { TxcriptError } from "./errors.js";
import type { Message, Meta } from "./model.js";
import {
  collectTranscript,
  orderedParts,
  type StreamPart,
  type StreamReader,
  type StreamWriter,
  scanOnce,
  splitMeta,
  streamConvert,
  streamMemoOf,
  streamMemoOption,
  transcriptParts,
} from "./stream.js";
import {
  fileLineSource,
  readFileLineBlocks,
  readFileLines,
  textLineBlocks,
  textLines,
} from "./stream-lines.js";
import { lawParameters, sameRead, wholeReader } from "./testing/index.js";

const directory = mkdtempSync(path.join(os.tmpdir(), "txcript-stream-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** The lines the whole-text codecs see, written from their own rule (split on \n, no piece after a final one). */
function wholeLines(text: string): string[] {
  if (text === "") return [];
  const body = text.endsWith("\n") ? text.slice(0, -1) : text;
  return body.split("\n");
}

const lineText = fc.array(
  fc.oneof(
    fc.constantFrom("\n", "\r\n", "\r", "é", "😀", "\u0000", "{}", "\uFEFF"),
    fc.string({ unit: "binary", maxLength: 12 }),
  ),
  { maxLength: 30 },
);

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return TxcriptError.isInstance(error) ? error.code : String(error);
  }
  return undefined;
}

let counter = 0;
function fileOf(text: string | Buffer): string {
  counter += 1;
  const file = path.join(directory, `f${counter}.jsonl`);
  writeFileSync(file, text);
  return file;
}

describe("line reading", () => {
  it("textLines and readFileLines give the lines of the whole text, at any slice size", () => {
    fc.assert(
      fc.property(lineText, fc.integer({ min: 1, max: 9 }), (pieces, chunkBytes) => {
        const text = pieces.join("");
        const expected = wholeLines(text);
        expect([...textLines(text)]).toEqual(expected);
        expect([...textLineBlocks(text, chunkBytes)].flatMap((block) => block.split("\n"))).toEqual(
          expected,
        );
        // The bytes as Node writes the text, decoded as the whole path decodes them.
        const file = fileOf(text);
        expect([...readFileLines(file, { chunkBytes })]).toEqual(
          wholeLines(Buffer.from(text, "utf8").toString("utf8")),
        );
      }),
      lawParameters(200),
    );
  });

  it("decodes invalid UTF-8 as fs.readFile does, a sequence cut by a slice included", () => {
    const bytes = Buffer.from([0x61, 0xe2, 0x82, 0x0a, 0xf0, 0x9f, 0x98, 0x80, 0xff, 0x0a, 0xc3]);
    const file = fileOf(bytes);
    for (const chunkBytes of [1, 2, 3, 5, 64])
      expect([...readFileLines(file, { chunkBytes })]).toEqual(wholeLines(bytes.toString("utf8")));
  });

  it("refuses a line past the bound with TOO_LARGE naming the file and line", () => {
    const file = fileOf(`{"a":1}\n${"x".repeat(100)}\n{}\n`);
    let caught: unknown;
    try {
      for (const _ of readFileLines(file, { maxLineBytes: 50, chunkBytes: 7, shown: "big.jsonl" }));
    } catch (error) {
      caught = error;
    }
    expect(TxcriptError.isInstance(caught)).toBe(true);
    const error = caught as TxcriptError;
    expect(error.code).toBe("TOO_LARGE");
    expect(error.location).toEqual({ file: "big.jsonl", line: 2 });
    // Control: the same file reads with a bound it fits in.
    expect([...readFileLines(file, { maxLineBytes: 100, chunkBytes: 7 })]).toHaveLength(3);
  });

  it("readFileLineBlocks gives readFileLines's lines in blocks of whole lines, at any slice size", () => {
    fc.assert(
      fc.property(lineText, fc.integer({ min: 1, max: 9 }), (pieces, chunkBytes) => {
        const file = fileOf(pieces.join(""));
        const lines = [...readFileLines(file, { chunkBytes })];
        const blocks = [...readFileLineBlocks(file, { chunkBytes })];
        expect(blocks.flatMap((block) => block.split("\n"))).toEqual(lines);
      }),
      lawParameters(200),
    );
    // One slice, many lines: one block (control: readFileLines gives each).
    const file = fileOf("a\nbb\n\nccc\n");
    expect([...readFileLineBlocks(file)]).toEqual(["a\nbb\n\nccc"]);
    expect([...readFileLines(file)]).toEqual(["a", "bb", "", "ccc"]);
    const source = fileLineSource(file);
    expect([...source()]).toEqual(["a", "bb", "", "ccc"]);
    expect([...(source.blocks?.() ?? [])]).toEqual(["a\nbb\n\nccc"]);
  });

  it("readFileLineBlocks decodes invalid UTF-8 as readFileLines does", () => {
    const bytes = Buffer.from([0x61, 0xe2, 0x82, 0x0a, 0xf0, 0x9f, 0x98, 0x80, 0xff, 0x0a, 0xc3]);
    const file = fileOf(bytes);
    for (const chunkBytes of [1, 2, 3, 5, 64])
      expect([...readFileLineBlocks(file, { chunkBytes })].join("\n")).toBe(
        [...readFileLines(file, { chunkBytes })].join("\n"),
      );
  });

  it("readFileLineBlocks refuses a line past the bound with readFileLines's TOO_LARGE and line", () => {
    const cases = [
      `{"a":1}\n${"x".repeat(100)}\n{}\n`,
      `${"y".repeat(60)}\n{}\n`,
      `{}\n{}\n{}\n${"z".repeat(51)}`,
    ];
    for (const text of cases)
      for (const chunkBytes of [7, 64, 4096]) {
        const file = fileOf(text);
        const failure = (read: () => unknown[]) => {
          try {
            read();
          } catch (error) {
            return error as TxcriptError;
          }
          throw new Error(
            `no refusal for ${JSON.stringify(text.slice(0, 12))}, slices of ${chunkBytes}`,
          );
        };
        const options = { maxLineBytes: 50, chunkBytes, shown: "big.jsonl" };
        const expected = failure(() => [...readFileLines(file, options)]);
        const error = failure(() => [...readFileLineBlocks(file, options)]);
        expect(error.code).toBe("TOO_LARGE");
        expect(error.message).toBe(expected.message);
        expect(error.location).toEqual(expected.location);
        // Control: the same file reads with a bound it fits in.
        expect([...readFileLineBlocks(file, { maxLineBytes: 100, chunkBytes })].join("\n")).toBe(
          [...readFileLines(file, { maxLineBytes: 100, chunkBytes })].join("\n"),
        );
      }
  });

  it("a missing file is NOT_FOUND, as readTextFile has it", () => {
    expect(codeOf(() => [...readFileLines(path.join(directory, "absent.jsonl"))])).toBe(
      "NOT_FOUND",
    );
  });
});

describe("parts", () => {
  it("collectTranscript(transcriptParts(t)) is t", () => {
    fc.assert(
      fc.property(transcriptArbitrary(), (transcript) => {
        expect(collectTranscript(transcriptParts(transcript))).toEqual(transcript);
      }),
      lawParameters(200),
    );
  });

  it("refuses parts out of order", () => {
    const meta: Meta = { id: "s", timestamp: "2026-01-01T00:00:00.000Z" };
    const message: Message = { role: "user", content: [], timestamp: meta.timestamp };
    const subagent = { id: "a", messages: [] };
    const cases: StreamPart[][] = [
      [],
      [{ kind: "message", message }],
      [
        { kind: "meta", meta, subagents: false },
        { kind: "meta", meta, subagents: false },
      ],
      [
        { kind: "meta", meta, subagents: true },
        { kind: "subagent", subagent },
        { kind: "message", message },
      ],
      [{ kind: "meta", meta, subagents: true }],
      [
        { kind: "meta", meta, subagents: false },
        { kind: "subagent", subagent },
      ],
    ];
    for (const parts of cases)
      expect(codeOf(() => [...orderedParts(parts)])).toBe("INVALID_DOCUMENT");
    // Control: in order, they pass.
    const good: StreamPart[] = [
      { kind: "meta", meta, subagents: true },
      { kind: "message", message },
      { kind: "subagent", subagent },
    ];
    expect([...orderedParts(good)]).toEqual(good);
  });

  it("refuses a user message with a tool call after a meta that said there is none", () => {
    const meta: Meta = { id: "s", timestamp: "2026-01-01T00:00:00.000Z" };
    const call: Message = {
      role: "user",
      content: [{ type: "tool_use", id: "c", tool: { name: "Command", input: { command: "/x" } } }],
      timestamp: meta.timestamp,
    };
    const said = (userToolCalls?: boolean): StreamPart[] => [
      {
        kind: "meta",
        meta,
        subagents: false,
        ...(userToolCalls === undefined ? {} : { userToolCalls }),
      },
      { kind: "message", message: call },
    ];
    expect(codeOf(() => [...orderedParts(said(false))])).toBe("INVALID_DOCUMENT");
    expect(splitMeta(said(false)).userToolCalls).toBe(false);
    // Controls: not vouched for, or said to have some, it passes; an assistant call always does.
    for (const parts of [said(), said(true)]) {
      expect([...orderedParts(parts)]).toEqual(parts);
      expect(splitMeta(parts).userToolCalls).toBe(true);
    }
    const assistant: StreamPart[] = [
      said(false)[0] as StreamPart,
      { kind: "message", message: { ...call, role: "assistant" } },
    ];
    expect([...orderedParts(assistant)]).toEqual(assistant);
  });
});

describe("streamConvert's StreamMemo", () => {
  it("gives the parts' read and every replay of one conversion the same memo, and each conversion its own", () => {
    const seen: unknown[] = [];
    const reader: StreamReader = function* (_lines, options) {
      seen.push(streamMemoOf(options));
      yield {
        kind: "meta",
        meta: { id: "s", timestamp: "2026-01-01T00:00:00.000Z" },
        subagents: false,
      };
    };
    const writer: StreamWriter = (input) => {
      const counts = [
        [...input.parts].length,
        [...input.replay()].length,
        [...input.replay()].length,
      ];
      return [counts.join(",")];
    };
    const convert = () => [...streamConvert(() => textLines(""), reader, writer).chunks].join("");
    expect(convert()).toBe("1,1,1");
    expect(convert()).toBe("1,1,1");
    expect(seen).toHaveLength(6);
    expect(seen[0]).toBeInstanceOf(Map);
    expect(seen.slice(0, 3).every((memo) => memo === seen[0])).toBe(true);
    expect(seen.slice(3).every((memo) => memo === seen[3])).toBe(true);
    expect(seen[3]).not.toBe(seen[0]);
    // Control: a reader called outside a conversion finds none.
    expect(streamMemoOf({})).toBeUndefined();
    expect(streamMemoOf({ [streamMemoOption]: "not a map" })).toBeUndefined();
  });
});

describe("scanOnce", () => {
  const reader = (scans: { count: number }): StreamReader =>
    function* (_lines, options) {
      const found = scanOnce(options, "test.scan", () => {
        scans.count += 1;
        return { meta: { id: "s", timestamp: "2026-01-01T00:00:00.000Z" }, shared: [1, 2] };
      });
      yield { kind: "meta", meta: found.meta, subagents: false };
      for (const n of found.shared) {
        const message: Message = {
          role: "user",
          content: [{ type: "text", text: `${n}` }],
          timestamp: "2026-01-01T00:00:00.000Z",
        };
        yield { kind: "message", message };
      }
    };
  // A writer that changes the meta part it was handed, reads it back on each replay, and keeps the first.
  const writer: StreamWriter = (input) => {
    const held: Meta[] = [];
    const titles: string[] = [];
    for (const read of [input.parts, input.replay(), input.replay()]) {
      const [first, ...rest] = [...read];
      if (first?.kind !== "meta") throw new Error("no meta part");
      held.push(first.meta);
      titles.push(`${first.meta.title ?? "-"}:${rest.length}`);
      (first.meta as { title?: string }).title = "changed";
    }
    return [titles.join(","), String(new Set(held).size)];
  };

  it("scans once per conversion; each read gets its own meta, a writer's change to one reaches no other", () => {
    const scans = { count: 0 };
    const text = [...streamConvert(() => textLines(""), reader(scans), writer).chunks].join("|");
    expect(text).toBe("-:2,-:2,-:2|3");
    expect(scans.count).toBe(1);
  });

  it("scans on every read without a memo (a reader called outside a conversion)", () => {
    const scans = { count: 0 };
    const read = reader(scans);
    const metas = [[...read(() => textLines(""), {})][0], [...read(() => textLines(""), {})][0]];
    expect(scans.count).toBe(2);
    expect(metas[0]).toEqual(metas[1]);
  });
});

describe("the reader law's check (testing's sameRead) and the meta part's userToolCalls", () => {
  const timestamp = "2026-01-01T00:00:00.000Z";
  const document = (messages: Message[]) =>
    commonCodec.serialize(commonCodec.fromCommon({ meta: { id: "s", timestamp }, messages }, {}));
  const plain = document([{ role: "user", content: [{ type: "text", text: "hi" }], timestamp }]);
  const withCall = document([
    {
      role: "user",
      content: [{ type: "tool_use", id: "t1", tool: { name: "Raw", toolName: "x", input: {} } }],
      timestamp,
    },
  ]);
  /** The whole read, its meta part saying `userToolCalls`. */
  const vouching = (userToolCalls: boolean): StreamReader =>
    function* (lines, options) {
      for (const part of wholeReader(commonHarness)(lines, options))
        yield part.kind === "meta" ? { ...part, userToolCalls } : part;
    };

  it("takes the hint as no part of the transcript where it holds, and a false one over a user tool call as a different read", () => {
    expect(sameRead(commonHarness, vouching(false), plain)).toBe(true);
    expect(sameRead(commonHarness, vouching(true), plain)).toBe(true);
    expect(sameRead(commonHarness, vouching(true), withCall)).toBe(true);
    expect(sameRead(commonHarness, vouching(false), withCall)).toBe(false);
  });
});
