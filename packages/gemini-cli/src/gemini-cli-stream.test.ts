// The streaming law for Gemini CLI: reading a recording line by line (two
// passes) gives the text and the warnings of the whole path, into every
// target (Gemini CLI and Common written whole; Claude Code and Codex
// written message by message), for generated sessions (and odd shapes), for
// recordings built of the records that rewrite earlier ones (same-id
// replacements, `$rewindTo`, `$set` and `$set.messages` checkpoints,
// metadata lines with messages, bad and blank lines), for recordings
// spliced from the fixtures' and real captures' lines, for the fixtures and
// captures of both eras, and for a file read in small slices.
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { claudeCodeHarness } from "@txcript/claude-code";
import { codexHarness } from "@txcript/codex";
import {
  type AnyHarness,
  type CodecOptions,
  collectTranscript,
  commonHarness,
  convertStreamed,
  TxcriptError,
  textLines,
  transcriptParts,
} from "@txcript/core";
import {
  countingLines,
  expectSameInSlices,
  expectSamePaths as expectSamePathsOf,
  itReadsGeneratedSessions,
  lawParameters,
  scratchDirectory,
  sessionFiles,
  streamPaths,
} from "@txcript/core/testing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { geminiCliHarness } from "./gemini-cli-harness.js";
import { geminiCliReadStream } from "./gemini-cli-stream.js";
import { realDirectory, repoRoot } from "./test-support/interop.js";

const scratch = scratchDirectory("txcript-gemini-stream-");

const now = new Date("2026-12-02T06:00:00.000Z");

function writeOptionsFor(to: AnyHarness) {
  if (to === geminiCliHarness) return { now };
  if (to === codexHarness) return { reasoning: "text-only" };
  return {};
}

/** Every path a Gemini CLI input can take to `to`, required equal to the whole path. */
function expectSamePaths(text: string, to: AnyHarness): void {
  expectSamePathsOf(text, geminiCliHarness, to, {
    write: writeOptionsFor(to) as CodecOptions,
    paths: streamPaths(geminiCliHarness, to, (which) => which.read === "stream"),
  });
}

const targets: AnyHarness[] = [geminiCliHarness, commonHarness, claudeCodeHarness, codexHarness];

function written(transcript: Parameters<typeof geminiCliHarness.codec.fromCommon>[0]): string {
  return geminiCliHarness.codec.serialize(geminiCliHarness.codec.fromCommon(transcript, { now }));
}

const fixtures = sessionFiles(path.join(repoRoot, "fixtures/gemini-cli"), /\.jsonl?$/);
const real = sessionFiles(path.join(realDirectory, "gemini"), /\.jsonl?$/);

/** The messages the stream reader hands out, read through `reader` (the real one by default). */
function streamedMessages(text: string, reader = geminiCliReadStream) {
  return collectTranscript(reader(() => textLines(text), {})).messages;
}

// Records that rewrite earlier ones, with ids from a small pool so they collide.
const ids = ["m1", "m2", "m3", "m4", "m5"];
const idArbitrary = fc.constantFrom(...ids);
const timestampArbitrary = fc.option(
  fc.constantFrom(
    "2026-05-10T14:00:01.000Z",
    "2026-05-10T14:00:09.500Z",
    "2026-05-11T08:30:00.000Z",
    "not a time",
  ),
  { nil: undefined },
);
const callId = fc.constantFrom("c1", "c2", "");
const partArbitrary = fc.oneof(
  fc.record({ text: fc.constantFrom("hello", "", "/init", "<session_context>x") }),
  fc.record({ text: fc.constantFrom("thinking it over"), thought: fc.constant(true) }),
  fc.record({
    functionCall: fc.record({
      id: callId,
      name: fc.constantFrom("run_shell_command", "read_file"),
      args: fc.constantFrom({ command: "ls" }, { file_path: "/a" }, {}),
    }),
  }),
  fc.record({
    functionResponse: fc.record({
      id: callId,
      name: fc.constantFrom("run_shell_command"),
      response: fc.constantFrom({ output: "ok" }, { error: "no" }, { other: 1 }),
    }),
  }),
  fc.record({ fileData: fc.constant({ fileUri: "gs://x" }) }),
  fc.constant(7),
);
const contentArbitrary = fc.oneof(
  fc.constantFrom("a plain prompt", ""),
  partArbitrary,
  fc.array(partArbitrary, { maxLength: 3 }),
);
const toolCallArbitrary = fc.record(
  {
    id: callId,
    name: fc.constantFrom("run_shell_command", "glob", "invoke_agent"),
    args: fc.constantFrom({ command: "pwd" }, { pattern: "*.ts" }),
    result: fc.oneof(
      fc.constantFrom("plain result", ""),
      fc.constant([
        { functionResponse: { id: "c1", name: "run_shell_command", response: { output: "x" } } },
      ]),
    ),
    status: fc.constantFrom("success", "error", "cancelled"),
    agentId: fc.constantFrom("agent-1"),
    displayName: fc.constantFrom("Shell"),
  },
  { requiredKeys: ["name"] },
);
const recordArbitrary = fc
  .record(
    {
      id: idArbitrary,
      timestamp: timestampArbitrary,
      type: fc.constantFrom("user", "gemini", "gemini", "info", "warning", "mystery"),
      content: contentArbitrary,
      displayContent: fc.constant("/shown"),
      thoughts: fc.array(
        fc.oneof(
          fc.record({ subject: fc.constantFrom("Plan", ""), description: fc.constant("d") }),
          fc.constant("odd"),
        ),
        { maxLength: 2 },
      ),
      toolCalls: fc.array(toolCallArbitrary, { maxLength: 2 }),
      model: fc.constantFrom("gemini-2.5-pro", ""),
      tokens: fc.constantFrom(
        { input: 10, output: 5, cached: 2, thoughts: 1, tool: 0, total: 16 },
        { input: -1 },
      ),
    },
    { requiredKeys: ["id", "type"] },
  )
  .map((record) => {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(record)) if (value !== undefined) out[key] = value;
    return out;
  });
const entryArbitrary = fc.oneof(
  { weight: 4, arbitrary: recordArbitrary },
  { weight: 1, arbitrary: fc.constantFrom(1, {}, { id: 3 }, "x") },
);
const metadataArbitrary = fc.record(
  {
    sessionId: fc.constantFrom(
      "5e551011-aaaa-4000-8000-000000000001",
      "5e551011-aaaa-4000-8000-000000000001",
      "other-id",
      "",
    ),
    projectHash: fc.constantFrom("9e1d2c3b", "9e1d2c3b", "9e1d2c3b", ""),
    startTime: fc.constantFrom("2026-05-10T14:00:00.000Z", "garbage"),
    lastUpdated: fc.constantFrom("2026-05-10T15:00:00.000Z"),
    kind: fc.constant("main"),
    summary: fc.constantFrom("A summary", "Another"),
    directories: fc.constantFrom(["/home/dev/shop"], [], [3]),
  },
  { requiredKeys: ["sessionId", "projectHash"] },
);
const lineArbitrary = fc.oneof(
  { weight: 8, arbitrary: recordArbitrary.map((record) => JSON.stringify(record)) },
  {
    weight: 2,
    arbitrary: fc
      .oneof(idArbitrary, fc.constant("unknown"))
      .map((id) => JSON.stringify({ $rewindTo: id })),
  },
  {
    weight: 2,
    arbitrary: fc
      .record(
        {
          lastUpdated: fc.constantFrom("2026-05-10T16:00:00.000Z"),
          summary: fc.constantFrom("Set later"),
          startTime: fc.constantFrom("2026-05-09T00:00:00.000Z", "bad"),
          sessionId: fc.constantFrom("set-id", "set-id", ""),
          directories: fc.constantFrom(["/elsewhere"]),
          memoryScratchpad: fc.constantFrom("notes"),
        },
        { requiredKeys: [] },
      )
      .map((set) => JSON.stringify({ $set: set })),
  },
  {
    weight: 1,
    arbitrary: fc
      .array(entryArbitrary, { maxLength: 4 })
      .map((messages) => JSON.stringify({ $set: { messages } })),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(metadataArbitrary, fc.option(fc.array(entryArbitrary, { maxLength: 3 })))
      .map(([metadata, messages]) =>
        JSON.stringify(messages === null ? metadata : { ...metadata, messages }),
      ),
  },
  { weight: 1, arbitrary: fc.constantFrom("", "  ", "not json", "[1]", '{"id":', "1e400") },
);
const oddRecordingArbitrary = fc
  .tuple(
    fc.option(metadataArbitrary, { freq: 6 }),
    fc.array(lineArbitrary, { maxLength: 14 }),
    fc.boolean(),
  )
  .map(
    ([head, body, finalNewline]) =>
      [...(head === null ? [] : [JSON.stringify(head)]), ...body].join("\n") +
      (finalNewline ? "\n" : ""),
  );

describe("gemini cli streaming law", () => {
  itReadsGeneratedSessions(
    written,
    (text) => {
      for (const to of targets) expectSamePaths(text, to);
    },
    300,
  );

  it("records that rewrite earlier ones (replacements, rewinds, checkpoints, $set): the same", () => {
    fc.assert(
      fc.property(oddRecordingArbitrary, (text) => {
        for (const to of targets) expectSamePaths(text, to);
      }),
      lawParameters(),
    );
  });

  it("fixtures and real captures of both eras: the same", () => {
    expect(fixtures.map((file) => path.basename(file))).toEqual([
      "jsonl-records.jsonl",
      "legacy-document.json",
    ]);
    for (const file of [...fixtures, ...real]) {
      const text = readFileSync(file, "utf8");
      for (const to of targets) expectSamePaths(text, to);
    }
  });

  it("recordings spliced from the fixtures' and captures' lines (any order): the same", () => {
    const heads: string[] = [];
    const bodies: string[] = [];
    for (const file of [...fixtures, ...real].filter((name) => name.endsWith(".jsonl"))) {
      const [head, ...rest] = readFileSync(file, "utf8").split("\n");
      heads.push(head as string);
      bodies.push(...rest.filter((line) => line.length < 20_000));
    }
    fc.assert(
      fc.property(
        fc.option(fc.constantFrom(...heads), { freq: 8 }),
        fc.array(fc.constantFrom(...bodies, "", "not json"), { maxLength: 30 }),
        fc.boolean(),
        (head, body, finalNewline) => {
          const text =
            [...(head === null ? [] : [head]), ...body].join("\n") + (finalNewline ? "\n" : "");
          for (const to of targets) expectSamePaths(text, to);
        },
      ),
      lawParameters(300),
    );
  });

  it("a message rewritten after later ones keeps its place, with its last record's content", () => {
    const at = (n: number) => `2026-05-10T14:00:0${n}.000Z`;
    const lines = [
      { sessionId: "s-1", projectHash: "h", startTime: at(0), lastUpdated: at(0), kind: "main" },
      { id: "a", timestamp: at(1), type: "user", content: "first" },
      { id: "b", timestamp: at(2), type: "gemini", content: "an early answer" },
      { id: "c", timestamp: at(3), type: "user", content: "third" },
      { id: "a", timestamp: at(1), type: "user", content: "first, rewritten" },
      { $set: { summary: "set at the end" } },
    ];
    const text = `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`;
    const texts = (messages: ReturnType<typeof streamedMessages>) =>
      messages.map((message) => (message.content[0] as { text: string }).text);
    // Control: the whole path puts the rewritten record first, and takes the late summary.
    const whole = geminiCliHarness.codec.toCommon(geminiCliHarness.codec.parse(text));
    expect(texts(whole.messages)).toEqual(["first, rewritten", "an early answer", "third"]);
    expect(whole.meta.title).toBe("set at the end");
    expect(texts(streamedMessages(text))).toEqual(texts(whole.messages));
    // Control: a reader that hands out each record as it comes gets another order.
    const naive = function* (lines: () => Iterable<string>) {
      const whole = geminiCliHarness.codec.toCommon(
        geminiCliHarness.codec.parse([...lines()].join("\n")),
      );
      yield { kind: "meta" as const, meta: whole.meta, subagents: false };
      for (const line of lines()) {
        const value = JSON.parse(line) as { type?: string; content?: string; timestamp: string };
        if (value.type === "user" || value.type === "gemini")
          yield {
            kind: "message" as const,
            message: {
              role: value.type === "user" ? ("user" as const) : ("assistant" as const),
              content: [{ type: "text" as const, text: value.content as string }],
              timestamp: value.timestamp,
            },
          };
      }
    };
    expect(texts(streamedMessages(text, naive))).not.toEqual(texts(whole.messages));
    for (const to of targets) expectSamePaths(text, to);
  });

  it("hands out each message as its lines are read, not after the whole file", () => {
    // As Gemini CLI writes: each gemini record twice (then with its calls), a $set after each.
    const lines: string[] = [
      JSON.stringify({ sessionId: "s-2", projectHash: "h", startTime: "2026-05-10T14:00:00.000Z" }),
    ];
    const timestamp = "2026-05-10T14:00:01.000Z";
    for (let turn = 0; turn < 500; turn += 1) {
      lines.push(JSON.stringify({ id: `u${turn}`, timestamp, type: "user", content: `q${turn}` }));
      lines.push(JSON.stringify({ $set: { lastUpdated: timestamp } }));
      const answer = { id: `g${turn}`, timestamp, type: "gemini", content: `a${turn}` };
      lines.push(JSON.stringify(answer));
      lines.push(JSON.stringify({ $set: { lastUpdated: timestamp } }));
      lines.push(JSON.stringify({ ...answer, toolCalls: [] }));
    }
    const text = `${lines.join("\n")}\n`;
    type Reader = typeof geminiCliReadStream;
    /** Lines read in the last pass when the message at each fraction of the conversation came out. */
    const progress = (reader: Reader): number[] => {
      const counted = countingLines(() => textLines(text));
      const seen: number[] = [];
      for (const part of reader(counted.source, {}))
        if (part.kind === "message") seen.push(counted.pass());
      expect(seen).toHaveLength(1000);
      return [seen[0] as number, seen[499] as number, seen[999] as number];
    };
    const [first, middle] = progress(geminiCliReadStream);
    expect(first).toBeLessThanOrEqual(2);
    expect(middle).toBeLessThan(lines.length * 0.55);
    // Control: a reader that reads the whole text first has read every line by its first message.
    const whole: Reader = function* (source) {
      const text = [...source()].join("\n");
      yield* transcriptParts(geminiCliHarness.codec.toCommon(geminiCliHarness.codec.parse(text)));
    };
    expect(progress(whole)[0]).toBe(lines.length);
    for (const to of [geminiCliHarness, claudeCodeHarness]) expectSamePaths(text, to);
  });

  it("a whole-document (≤ 0.38) recording is read whole, and refused past maxDocumentBytes", () => {
    const file = fixtures.find((name) => name.endsWith(".json")) as string;
    const text = readFileSync(file, "utf8");
    const options = { file: "legacy.json" };
    const parts = [...geminiCliReadStream(() => textLines(text), options)];
    expect(collectTranscript(parts)).toEqual(
      geminiCliHarness.codec.toCommon(geminiCliHarness.codec.parse(text)),
    );
    expect(() => [
      ...geminiCliReadStream(() => textLines(text), { ...options, maxDocumentBytes: 100 }),
    ]).toThrow("a whole-document Gemini CLI recording is read whole");
    // Control: a limit of exactly its size still reads it.
    const size = Buffer.byteLength(text.endsWith("\n") ? text.slice(0, -1) : text);
    expect(() => [
      ...geminiCliReadStream(() => textLines(text), { ...options, maxDocumentBytes: size }),
    ]).not.toThrow();
    expect(() => [
      ...geminiCliReadStream(() => textLines(text), { ...options, maxDocumentBytes: size - 1 }),
    ]).toThrow(TxcriptError);
  });

  it("a recording that changes between the passes is refused, not misread", () => {
    const text = readFileSync(fixtures[0] as string, "utf8");
    let reads = 0;
    const lines = () => {
      reads += 1;
      return textLines(reads === 1 ? text : text.replaceAll('"id":"m', '"id":"x'));
    };
    expect(() => [...geminiCliReadStream(lines, {})]).toThrow(
      "the recording changed between the two passes",
    );
    // Control: the same lines both times read.
    expect([...geminiCliReadStream(() => textLines(text), {})].length).toBeGreaterThan(2);
  });

  it("a file read in small slices gives the same as its text", () => {
    for (const source of [...fixtures, ...real]) {
      const text = readFileSync(source, "utf8");
      for (const to of [geminiCliHarness, claudeCodeHarness])
        expectSameInSlices(
          text,
          geminiCliHarness,
          to,
          { read: "stream", write: to.writeStream === undefined ? "whole" : "stream" },
          { scratch, name: path.basename(source), write: writeOptionsFor(to) as CodecOptions },
        );
    }
  });

  it("refuses what the whole path refuses (and a control that reads)", () => {
    for (const bad of ["", '{"id":"m1","type":"user"}\n', "[1]"])
      expect(() =>
        convertStreamed(bad, geminiCliHarness, commonHarness, { read: "stream", write: "whole" }),
      ).toThrow("Gemini CLI chat recording");
    const good = readFileSync(fixtures[0] as string, "utf8");
    expect(
      convertStreamed(good, geminiCliHarness, commonHarness, { read: "stream", write: "whole" })
        .text,
    ).not.toBe("");
  });
});
