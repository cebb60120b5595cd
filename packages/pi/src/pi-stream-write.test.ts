// The streaming law for the pi writer: writing a transcript's parts
// (piWriteStream: one silent replay plans, then an entry at a time as the
// messages are read) gives the text and the warnings of the whole write,
// serialize(fromCommon(t)), for generated transcripts (subagents, odd
// shapes, a cwd given), for compactions that keep from an earlier entry,
// for every harness's fixture Common documents, and for the fixtures of
// pi, Claude Code, Codex and Gemini CLI and the real pi sessions read whole
// or line by line. It writes each entry before it has read the messages
// after it; a replay that differs from the stream is refused. Controls:
// broken writers the law catches.
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { claudeCodeHarness } from "@txcript/claude-code";
import { codexHarness } from "@txcript/codex";
import {
  type AnyHarness,
  type CodecOptions,
  type Message,
  type Transcript,
  TxcriptError,
  transcriptParts,
} from "@txcript/core";
import {
  collectingWriter,
  countingInput,
  describeWriterControls,
  droppingSubagents,
  expectOrderRefused,
  expectSamePaths,
  fixtureCommonDocuments,
  ignoringOptions,
  itWritesGeneratedSessions,
  longTranscript,
  noFinalNewline,
  sameWrite,
  sessionFiles,
  streamWrite,
  wholeWrite,
} from "@txcript/core/testing";
import { geminiCliHarness } from "@txcript/gemini-cli";
import { describe, expect, it } from "vitest";
import { piHarness } from "./pi-harness.js";
import { piLoss } from "./pi-losses.js";
import { piWriteStream } from "./pi-stream-write.js";
import { realDirectory, repoRoot } from "./test-support/pi-rpc.js";

function expectSameWrite(transcript: Transcript, options: CodecOptions = {}): void {
  expect(streamWrite(piWriteStream, transcript, options)).toEqual(
    wholeWrite(piHarness, transcript, options),
  );
}

const commonFixtures = fixtureCommonDocuments(repoRoot);

const sources: { harness: AnyHarness; directory: string; pattern: RegExp }[] = [
  { harness: piHarness, directory: path.join(repoRoot, "fixtures/pi"), pattern: /\.jsonl$/ },
  { harness: piHarness, directory: path.join(realDirectory, "pi"), pattern: /\.jsonl$/ },
  {
    harness: claudeCodeHarness,
    directory: path.join(repoRoot, "fixtures/claude-code"),
    pattern: /\.jsonl$/,
  },
  { harness: codexHarness, directory: path.join(repoRoot, "fixtures/codex"), pattern: /\.jsonl$/ },
  {
    harness: geminiCliHarness,
    directory: path.join(repoRoot, "fixtures/gemini-cli"),
    pattern: /\.jsonl?$/,
  },
];
const inputs = sources.flatMap(({ harness, directory, pattern }) =>
  sessionFiles(directory, pattern).map((file) => ({ harness, file })),
);
const real = sessionFiles(path.join(realDirectory, "pi"));
if (real.length === 0) console.warn("SKIPPED real pi sessions: ../shared/real/pi is absent");

/** `transcript` with a last message compacting its last `kept` messages (as Codex records them). */
function compacted(
  transcript: Transcript,
  kept: number,
  history = transcript.messages,
): Transcript {
  const compaction: Message = {
    role: "user",
    content: [
      {
        type: "compaction",
        summary: "what came before",
        trigger: "auto",
        preTokens: 1000,
        history: history.slice(history.length - kept),
      },
    ],
    timestamp: transcript.meta.timestamp,
  };
  return { ...transcript, messages: [...transcript.messages, compaction] };
}

/** The compaction entry's firstKeptEntryId and the entry it names, as written. */
function keptOf(text: string): { kept: string; entry: Record<string, unknown> | undefined } {
  const entries = text
    .slice(0, -1)
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  const compaction = entries.find((entry) => entry.type === "compaction") as {
    firstKeptEntryId: string;
  };
  return {
    kept: compaction.firstKeptEntryId,
    entry: entries.find((entry) => entry.id === compaction.firstKeptEntryId),
  };
}

describe("pi streaming writer: the law", () => {
  itWritesGeneratedSessions(expectSameWrite, {
    cwd: true,
    commonDocuments: { files: commonFixtures, atLeast: 10 },
  });

  it("a compaction whose history is the messages before it keeps from the first of them (held until then): the same", () => {
    const long = longTranscript(300);
    for (const kept of [1, 2, 7, 300]) {
      const transcript = compacted(long, kept);
      expectSameWrite(transcript);
      // The entry kept from is the first of the copied messages, not the compaction itself.
      const { entry } = keptOf(streamWrite(piWriteStream, transcript).text);
      expect(entry?.type).toBe("message");
      const message = (entry as { message: { content: { text: string }[] } }).message;
      expect(message.content[0]?.text).toBe(`message ${300 - kept}`);
    }
    // Control: a history that differs from the messages before it keeps nothing earlier.
    const other = compacted(long, 7, longTranscript(301).messages.slice(1));
    expectSameWrite(other);
    const { kept, entry } = keptOf(streamWrite(piWriteStream, other).text);
    expect(entry?.type).toBe("compaction");
    expect(entry?.id).toBe(kept);
  });

  it("an empty subagent list is no subagents, on both paths", () => {
    const transcript = { ...longTranscript(2), subagents: [] };
    expectSameWrite(transcript);
    const codes = wholeWrite(piHarness, transcript).warnings.map((warning) => warning.code);
    expect(codes).not.toContain(piLoss.subagents.code);
    // Control: one subagent is warned of.
    const one = { ...transcript, subagents: [{ id: "sub", messages: longTranscript(1).messages }] };
    expect(wholeWrite(piHarness, one).warnings.map((warning) => warning.code)).toContain(
      piLoss.subagents.code,
    );
  });

  it("fixtures of pi, Claude Code, Codex and Gemini CLI and real pi sessions into pi, read whole and streamed: the same", () => {
    expect(inputs.length).toBeGreaterThan(real.length + 10);
    for (const { harness, file } of inputs)
      expectSamePaths(readFileSync(file, "utf8"), harness, piHarness, {
        read: { file: path.basename(file) } as CodecOptions,
        paths: [
          { read: "whole", write: "stream" },
          { read: "stream", write: "stream" },
        ],
      });
  });

  it.skipIf(real.length === 0)(
    `real pi sessions (${real.length} in ../shared/real/pi): included above, one with a compaction`,
    () => {
      expect(inputs.filter(({ file }) => file.startsWith(realDirectory))).toHaveLength(real.length);
      expect(real.some((file) => readFileSync(file, "utf8").includes('"type":"compaction"'))).toBe(
        true,
      );
    },
  );

  it("an input whose parts are out of order is refused as the whole path refuses it", () => {
    expectOrderRefused(piWriteStream);
  });

  it("a replay that differs from the stream (the input changed) is refused, not written wrong", () => {
    const first = longTranscript(4);
    const thinking: Transcript = {
      ...first,
      messages: [
        ...first.messages,
        {
          role: "assistant",
          content: [{ type: "thinking", text: "hm" }],
          timestamp: first.meta.timestamp,
        },
      ],
    };
    for (const [stream, replay] of [
      [thinking, first],
      [first, thinking],
      [first, compacted(first, 2)],
    ] as const) {
      const input = { parts: transcriptParts(stream), replay: () => transcriptParts(replay) };
      let error: unknown;
      try {
        for (const _ of piWriteStream(input, {}));
      } catch (caught) {
        error = caught;
      }
      expect(TxcriptError.isInstance(error)).toBe(true);
      expect((error as TxcriptError).code).toBe("MISMATCH");
      expect((error as Error).message).toMatch(/changed between the two passes/);
    }
    // Control: the same replay as the stream writes.
    const same = { parts: transcriptParts(thinking), replay: () => transcriptParts(thinking) };
    expect([...piWriteStream(same, {})].join("")).toBe(wholeWrite(piHarness, thinking).text);
  });
});

describe("pi streaming writer: memory", () => {
  it("after one replay, writes each message's entry having read only the messages up to it", () => {
    const { input, read, replays } = countingInput(longTranscript(2000));
    const iterator = piWriteStream(input, {})[Symbol.iterator]();
    // The header, the model and the thinking level.
    for (let line = 0; line < 3; line += 1) iterator.next();
    expect(read()).toBe(0);
    for (let entry = 1; entry <= 100; entry += 1) {
      iterator.next();
      expect(read()).toBeLessThanOrEqual(entry);
    }
    expect(replays()).toBe(1);
  });

  it("a compaction copying the last messages does not hold back the entries before them", () => {
    const transcript = compacted(longTranscript(2000), 7);
    const { input, read } = countingInput(transcript);
    const pieces: string[] = [];
    const iterator = piWriteStream(input, {})[Symbol.iterator]();
    for (let line = 0; line < 3; line += 1) iterator.next();
    for (let entry = 1; entry <= 2001; entry += 1) {
      const next = iterator.next();
      pieces.push(next.value as string);
      expect(read()).toBeLessThanOrEqual(entry);
    }
    // The compaction entry keeps from the first copied message's entry, written long before.
    expect(pieces.at(-1)).toContain('"type":"compaction"');
    const kept = (JSON.parse(pieces.at(-1) as string) as { firstKeptEntryId: string })
      .firstKeptEntryId;
    expect(JSON.parse(pieces[1993] as string)).toMatchObject({ id: kept });
  });

  it("control: a writer that holds the whole transcript first fails it", () => {
    const { input, read } = countingInput(longTranscript(2000));
    collectingWriter(piHarness)(input, {})[Symbol.iterator]().next();
    expect(read()).toBe(2000);
    // ...though it passes the text law: why the memory test is needed.
    expect(sameWrite(piHarness, collectingWriter(piHarness), longTranscript(10))).toBe(true);
  });
});

const cwd = { cwd: "/somewhere/else" } as CodecOptions;
describeWriterControls({
  label: "pi streaming writer",
  real: piWriteStream,
  controls: [
    ["drops the subagents (a warning missing)", droppingSubagents(piWriteStream)],
    ["drops the final newline", noFinalNewline(piWriteStream)],
    ["ignores the write options (the cwd given)", ignoringOptions(piWriteStream)],
  ],
  // With and without a cwd given.
  same: (transcript, writer) =>
    sameWrite(piHarness, writer, transcript) && sameWrite(piHarness, writer, transcript, cwd),
});
