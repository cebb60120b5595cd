// The streaming law for pi: reading a session line by line (piReadStream:
// pass one keeps ids and parents, the path is walked at the end, a last pass
// hands out the messages) gives the text and the warnings of the whole path,
// into every target (pi and Common written whole; Claude Code, Codex and
// Gemini CLI written message by message), and refuses what it refuses with
// the same error: for generated sessions (and odd shapes), for the same
// sessions with their parents rewired into branches, for odd entries of
// every type (v1 to v3, colliding ids, cycles, compactions keeping any
// entry), for sessions spliced from the fixtures' and real captures' lines,
// for the fixtures and captures, for bad, blank and empty inputs, and for a
// file read in small slices. It hands out each message before the lines
// after it are read, and controls show broken readers the law catches.
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { claudeCodeHarness } from "@txcript/claude-code";
import { codexHarness } from "@txcript/codex";
import {
  type AnyHarness,
  type CodecOptions,
  collectTranscript,
  commonHarness,
  convertWhole,
  type StreamReader,
  type Transcript,
  TxcriptError,
  textLines,
  transcriptParts,
} from "@txcript/core";
import { transcriptArbitrary } from "@txcript/core/arbitraries";
import {
  countingLines,
  expectSameInSlices,
  expectSamePaths as expectSamePathsOf,
  itReadsGeneratedSessions,
  lawParameters,
  sameRead as sameReadOf,
  scratchDirectory,
  sessionFiles,
  streamPaths,
} from "@txcript/core/testing";
import { geminiCliHarness } from "@txcript/gemini-cli";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { piHarness } from "./pi-harness.js";
import { piLoss } from "./pi-losses.js";
import { piReadStream } from "./pi-stream.js";
import { oddEntryArbitrary, oddSessionArbitrary } from "./test-support/pi-odd-sessions.js";
import { realDirectory, repoRoot } from "./test-support/pi-rpc.js";

const scratch = scratchDirectory("txcript-pi-stream-");

const now = new Date("2026-12-02T06:00:00.000Z");

function writeOptionsFor(to: AnyHarness): CodecOptions {
  if (to === geminiCliHarness) return { now } as CodecOptions;
  if (to === codexHarness) return { reasoning: "text-only" } as CodecOptions;
  return {};
}

/** Every path a pi input can take to `to`, required equal to the whole path (or refused alike). */
function expectSamePaths(text: string, to: AnyHarness): void {
  expectSamePathsOf(text, piHarness, to, {
    read: { file: "session.jsonl" } as CodecOptions,
    write: writeOptionsFor(to),
    paths: streamPaths(piHarness, to, (which) => which.read === "stream"),
  });
}

const targets: AnyHarness[] = [
  piHarness,
  commonHarness,
  claudeCodeHarness,
  codexHarness,
  geminiCliHarness,
];

function written(transcript: Transcript): string {
  return piHarness.codec.serialize(piHarness.codec.fromCommon(transcript));
}

const fixtures = sessionFiles(path.join(repoRoot, "fixtures/pi"));
const real = sessionFiles(path.join(realDirectory, "pi"));
if (real.length === 0) console.warn("SKIPPED real pi captures: ../shared/real/pi is absent");

/** The same session with some entries' parents rewired to an earlier entry (or none): branches. */
const branchedArbitrary = fc
  .tuple(
    transcriptArbitrary().map(written),
    fc.array(fc.tuple(fc.nat(), fc.nat(), fc.boolean()), { maxLength: 6 }),
  )
  .map(([text, rewirings]) => {
    const lines = text.slice(0, -1).split("\n");
    const values = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const entries = values.length - 1;
    if (entries < 2) return text;
    for (const [at, to, none] of rewirings) {
      const index = 2 + (at % (entries - 1));
      const parent = 1 + (to % (index - 1));
      (values[index] as Record<string, unknown>).parentId = none
        ? null
        : (values[parent] as Record<string, unknown>).id;
    }
    return `${values.map((value) => JSON.stringify(value)).join("\n")}\n`;
  });

/** Odd entries after a real header line, with blank and bad lines mixed in. */
const mixedArbitrary = fc
  .tuple(
    fc.constantFrom(
      '{"type":"session","version":3,"id":"s-3","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}',
      '{"type":"session","version":2,"id":"s-2","cwd":"/w"}',
      '{"type":"session","id":"s-1","timestamp":"2026-01-01T00:00:00.000Z"}',
      '{"type":"session","version":3,"id":"s-3","modelId":"m-header"}',
      "",
    ),
    fc.array(
      fc.oneof(
        { weight: 8, arbitrary: oddEntryArbitrary.map((entry) => JSON.stringify(entry)) },
        { weight: 1, arbitrary: fc.constantFrom("", "  ", "\r", '{"type":"session","id":"x"}') },
        { weight: 1, arbitrary: fc.constantFrom("not json", "[1]", "3", '{"type":') },
      ),
      { maxLength: 14 },
    ),
    fc.boolean(),
  )
  .map(([head, body, newline]) => [head, ...body].join("\n") + (newline ? "\n" : ""));

/** A long session as pi writes it: a chain of turns, each a prompt, a call, its result, an answer. */
function longSession(turns: number): string {
  const lines = [
    JSON.stringify({
      type: "session",
      version: 3,
      id: "019a0000-0000-7000-8000-000000000001",
      timestamp: "2026-01-01T00:00:00.000Z",
      cwd: "/w",
    }),
  ];
  let parent: string | null = null;
  let count = 0;
  const add = (message: unknown) => {
    count += 1;
    const id = `e${count}`;
    lines.push(
      JSON.stringify({
        type: "message",
        id,
        parentId: parent,
        timestamp: "2026-01-01T00:00:01.000Z",
        message,
      }),
    );
    parent = id;
  };
  for (let turn = 0; turn < turns; turn += 1) {
    add({ role: "user", content: [{ type: "text", text: `question ${turn}` }] });
    add({
      role: "assistant",
      content: [{ type: "toolCall", id: `c${turn}`, name: "bash", arguments: { command: "ls" } }],
      model: "m",
      stopReason: "toolUse",
    });
    add({ role: "toolResult", toolCallId: `c${turn}`, content: [{ type: "text", text: "a b" }] });
    add({ role: "assistant", content: [{ type: "text", text: `answer ${turn}` }], model: "m" });
  }
  return `${lines.join("\n")}\n`;
}

/** The law as a check: a reader gives the whole read's parts and warnings. */
function sameRead(text: string, reader: StreamReader = piReadStream): boolean {
  return sameReadOf(piHarness, reader, text);
}

// Broken readers the law must catch.
/** Reads every entry in file order (as pi reads a v1 file), the abandoned branches too. */
const fileOrder: StreamReader = function* (lines, options) {
  const text = [...lines()].join("\n");
  const session = piHarness.codec.parse(text);
  const flat = session.lines.map((line, index) =>
    index === 0 && line.value?.type === "session"
      ? { text: line.text, value: { ...line.value, version: 1 } }
      : line,
  );
  const whole = piHarness.codec.toCommon(session, {});
  const read = piHarness.codec.toCommon({ ...session, lines: flat }, options);
  yield { kind: "meta", meta: whole.meta, subagents: false };
  for (const message of read.messages) yield { kind: "message", message };
};
/** Hands out a tool results message as soon as it starts (before the results after it join it). */
const eagerResults: StreamReader = function* (lines, options) {
  for (const part of piReadStream(lines, options)) {
    if (part.kind !== "message" || part.message.content[0]?.type !== "tool_result") {
      yield part;
      continue;
    }
    const [first, ...rest] = part.message.content;
    yield { kind: "message", message: { ...part.message, content: [first as never] } };
    if (rest.length > 0) yield { kind: "message", message: { ...part.message, content: rest } };
  }
};
/** Leaves out the warnings for abandoned branches. */
const quietBranches: StreamReader = (lines, options) =>
  piReadStream(lines, {
    ...options,
    onWarning: (warning) => {
      if (warning.code !== piLoss.branch.code) options.onWarning?.(warning);
    },
  });

describe("pi streaming law", () => {
  itReadsGeneratedSessions(
    written,
    (text) => {
      for (const to of targets) expectSamePaths(text, to);
    },
    200,
  );

  it("generated sessions rewired into branches (abandoned entries, kept entries off the path): the same", () => {
    fc.assert(
      fc.property(branchedArbitrary, (text) => {
        for (const to of targets) expectSamePaths(text, to);
      }),
      lawParameters(200),
    );
  });

  it("odd entries of every type, v1 to v3, colliding ids and cycles: the same", () => {
    fc.assert(
      fc.property(oddSessionArbitrary, (text) => {
        for (const to of [piHarness, commonHarness, claudeCodeHarness]) expectSamePaths(text, to);
      }),
      lawParameters(),
    );
  });

  it("odd entries with blank, bad and extra header lines (refused alike): the same", () => {
    fc.assert(
      fc.property(mixedArbitrary, (text) => {
        for (const to of [piHarness, commonHarness]) expectSamePaths(text, to);
      }),
      lawParameters(),
    );
  });

  it("fixtures and real captures: the same", () => {
    expect(fixtures.map((file) => path.basename(file))).toEqual([
      "compaction.jsonl",
      "tree-branches.jsonl",
      "v1-linear.jsonl",
      "v2-hook-message.jsonl",
    ]);
    for (const file of [...fixtures, ...real]) {
      const text = readFileSync(file, "utf8");
      for (const to of targets) expectSamePaths(text, to);
    }
  });

  it.skipIf(real.length === 0)(
    `real captures (${real.length} in ../shared/real/pi): included above, with a branch or a compaction`,
    () => {
      const texts = real.map((file) => readFileSync(file, "utf8"));
      expect(texts.some((text) => text.includes('"type":"compaction"'))).toBe(true);
    },
  );

  it("sessions spliced from the fixtures' and captures' lines (any order): the same", () => {
    const heads: string[] = [];
    const bodies: string[] = [];
    for (const file of [...fixtures, ...real]) {
      const [head, ...rest] = readFileSync(file, "utf8").split("\n");
      heads.push(head as string);
      bodies.push(...rest.filter((line) => line !== "" && line.length < 20_000));
    }
    fc.assert(
      fc.property(
        fc.option(fc.constantFrom(...heads), { freq: 8 }),
        fc.array(fc.constantFrom(...bodies), { maxLength: 30 }),
        fc.boolean(),
        (head, body, newline) => {
          const text =
            [...(head === null ? [] : [head]), ...body].join("\n") + (newline ? "\n" : "");
          for (const to of [piHarness, commonHarness, claudeCodeHarness]) expectSamePaths(text, to);
        },
      ),
      lawParameters(200),
    );
  });

  it("empty, blank-only, header-only and refused inputs: the same (an error names the line)", () => {
    const header = '{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z"}';
    for (const text of ["", "\n", "  \n\n", header, `${header}\n`]) {
      for (const to of [piHarness, commonHarness]) expectSamePaths(text, to);
    }
    for (const bad of [`${header}\nnot json\n`, `${header}\n[1]\n`, "3"]) {
      expect(() => convertWhole(bad, piHarness, commonHarness)).toThrow(TxcriptError);
      for (const to of [piHarness, commonHarness]) expectSamePaths(bad, to);
    }
    const late = `${header}\n${'{"type":"label"}\n'.repeat(5)}{"type":\n`;
    expect(() => [...piReadStream(() => textLines(late), { file: "late.jsonl" })]).toThrow(
      expect.objectContaining({
        code: "INVALID_JSON",
        location: expect.objectContaining({ file: "late.jsonl", line: 7 }),
      }),
    );
  });

  it("a path out of file order (a parent after its child) and no header time: the same", () => {
    const entry = (id: string, parentId: string | null, message: unknown) =>
      JSON.stringify({ type: "message", id, parentId, message });
    const text = `${[
      '{"type":"session","version":3,"id":"s-4","cwd":"/w"}',
      entry("b", "a", { role: "assistant", content: [{ type: "text", text: "second" }] }),
      entry("x", null, { role: "user", content: "abandoned", timestamp: "2026-01-01T00:00:09Z" }),
      entry("a", null, { role: "user", content: "first", timestamp: "2026-01-01T00:00:05Z" }),
      entry("c", "b", { role: "user", content: "third" }),
    ].join("\n")}\n`;
    const transcript = collectTranscript(piReadStream(() => textLines(text), {}));
    expect(transcript.meta.timestamp).toBe("2026-01-01T00:00:05.000Z");
    expect(
      transcript.messages.map((message) => (message.content[0] as { text: string }).text),
    ).toEqual(["first", "second", "third"]);
    expect(sameRead(text)).toBe(true);
    for (const to of targets) expectSamePaths(text, to);
  });

  it("a file read in small slices gives the same as its text", () => {
    for (const source of [...fixtures, ...real]) {
      const text = readFileSync(source, "utf8");
      for (const to of [piHarness, claudeCodeHarness])
        expectSameInSlices(
          text,
          piHarness,
          to,
          { read: "stream", write: to.writeStream === undefined ? "whole" : "stream" },
          { scratch, name: path.basename(source), write: writeOptionsFor(to) as CodecOptions },
        );
    }
  });

  it("a session that changes between the passes is refused, not misread", () => {
    const text = readFileSync(fixtures[1] as string, "utf8");
    let reads = 0;
    const lines = () => {
      reads += 1;
      return textLines(reads === 1 ? text : text.replaceAll('"id":"', '"id":"x'));
    };
    expect(() => [...piReadStream(lines, {})]).toThrow("the session changed between the passes");
    // Control: the same lines every time read.
    expect([...piReadStream(() => textLines(text), {})].length).toBeGreaterThan(2);
  });
});

describe("pi streaming reader: memory", () => {
  const turns = 500;
  const text = longSession(turns);
  const lineCount = 1 + turns * 4;
  type Progress = { reads: number[]; seen: number[] };
  /** Lines read in the current pass when each message came out, and the lines each pass read. */
  const progress = (reader: StreamReader): Progress => {
    const counted = countingLines(() => textLines(text));
    const seen: number[] = [];
    for (const part of reader(counted.source, {}))
      if (part.kind === "message") seen.push(counted.pass());
    // Each turn reads as 4 messages: prompt, call, results, answer.
    expect(seen).toHaveLength(turns * 4);
    return { reads: counted.passes(), seen };
  };

  it("hands out each message before the lines after it are read (the text is not held)", () => {
    const { seen, reads } = progress(piReadStream);
    // Pass one reads every line; the meta pass stops at the first assistant message (its model).
    expect(reads).toEqual([lineCount, 3, lineCount]);
    // Message k (1-based) is out by line k + 2: its own line, the header, and one line
    // of look-ahead for the results message (it is final when the next message starts).
    for (const [index, line] of seen.entries()) expect(line).toBeLessThanOrEqual(index + 3);
    expect(seen[0]).toBe(2);
    expect(seen[turns * 2] as number).toBeLessThan(lineCount * 0.55);
  });

  it("holds the messages a later compaction copies until it is read, and only those", () => {
    // A compaction after 400 turns keeping the entries from turn 390 on.
    const lines = text.slice(0, -1).split("\n");
    const kept = JSON.parse(lines[1 + 390 * 4] as string) as { id: string };
    const last = JSON.parse(lines.at(-1) as string) as { id: string };
    const compaction = JSON.stringify({
      type: "compaction",
      id: "k1",
      parentId: last.id,
      timestamp: "2026-01-01T00:00:02.000Z",
      summary: "what came before",
      firstKeptEntryId: kept.id,
      tokensBefore: 1000,
    });
    const after = JSON.stringify({
      type: "message",
      id: "k2",
      parentId: "k1",
      timestamp: "2026-01-01T00:00:03.000Z",
      message: { role: "user", content: [{ type: "text", text: "go on" }] },
    });
    const compacted = `${[...lines, compaction, after].join("\n")}\n`;
    expect(sameRead(compacted)).toBe(true);
    const parts = [...piReadStream(() => textLines(compacted), {})];
    const summary = collectTranscript(parts).messages.at(-2);
    const block = summary?.content[0] as { type: string; history?: unknown[] };
    expect(block.type).toBe("compaction");
    expect(block.history).toHaveLength((turns - 390) * 4);
  });

  it("control: a reader that reads the whole text first has read every line by its first message", () => {
    const whole: StreamReader = function* (source, options) {
      const text = [...source()].join("\n");
      yield* transcriptParts(piHarness.codec.toCommon(piHarness.codec.parse(text), options));
    };
    expect(progress(whole).seen[0]).toBe(lineCount);
    // ...though it passes the law: why the memory test is needed.
    expect(sameRead(text, whole)).toBe(true);
  });
});

describe("pi streaming reader: controls the law catches", () => {
  const branched = fc.oneof(branchedArbitrary, oddSessionArbitrary);

  it("a reader that reads the entries in file order (abandoned branches in)", () => {
    const result = fc.check(
      fc.property(branched, (text) => sameRead(text, fileOrder)),
      lawParameters(),
    );
    expect(result.failed).toBe(true);
  });

  it("a reader that hands out a tool results message before its last result", () => {
    const result = fc.check(
      fc.property(
        fc.constant(longSession(3)),
        transcriptArbitrary().map(written),
        (long, text) => sameRead(long, eagerResults) && sameRead(text, eagerResults),
      ),
      lawParameters(),
    );
    // A message of one result each in longSession: caught by generated sessions with parallel calls.
    expect(result.failed).toBe(true);
  });

  it("a reader that leaves out the abandoned-branch warning", () => {
    const result = fc.check(
      fc.property(branched, (text) => sameRead(text, quietBranches)),
      lawParameters(),
    );
    expect(result.failed).toBe(true);
  });

  it("the real reader passes the same checks (so the controls fail for their fault)", () => {
    const result = fc.check(
      fc.property(
        branched,
        transcriptArbitrary().map(written),
        (tree, text) => sameRead(tree) && sameRead(text),
      ),
      lawParameters(),
    );
    expect(result.failed).toBe(false);
  });
});
