// The streaming law for Claude Code: reading a session line by line (three
// passes) and writing one message by message give the text and the
// warnings of the whole path, for generated sessions (and odd shapes), for
// sessions spliced from the fixtures' and real captures' lines (branches,
// duplicates, dangling parents, split messages out of order), for the
// fixtures and real captures, and for a file read in small slices.
import { readFileSync } from "node:fs";
import * as path from "node:path";
import {
  type AnyHarness,
  commonHarness,
  convertStreamed,
  type StreamPart,
  type StreamReader,
  type StreamWriter,
  streamConvert,
  streamMemoOption,
  type Transcript,
  textLines,
  type Warning,
} from "@txcript/core";
import {
  countingLines,
  expectSameInSlices,
  expectSamePaths as expectSamePathsOf,
  itReadsGeneratedSessions,
  lawParameters,
  longTranscript,
  scratchDirectory,
  sessionFiles,
} from "@txcript/core/testing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { claudeCodeHarness } from "./claude-code-harness.js";
import { claudeCodeReadStream } from "./claude-code-stream-read.js";
import { realDirectory, repoRoot } from "./test-support/interop.js";

const scratch = scratchDirectory("txcript-claude-stream-");

const writeOptions = {};

/** Every path a Claude Code input can take to `to`, required equal to the whole path. */
function expectSamePaths(text: string, to: AnyHarness): void {
  expectSamePathsOf(text, claudeCodeHarness, to, {
    write: to === claudeCodeHarness ? writeOptions : {},
  });
}

const targets: AnyHarness[] = [claudeCodeHarness, commonHarness];

function written(transcript: Parameters<typeof claudeCodeHarness.codec.fromCommon>[0]): string {
  return claudeCodeHarness.codec.serialize(
    claudeCodeHarness.codec.fromCommon(transcript, writeOptions),
  );
}

const fixtures = sessionFiles(path.join(repoRoot, "fixtures/claude-code"));
const real = sessionFiles(path.join(realDirectory, "claude-code"));

describe("claude code streaming law", () => {
  itReadsGeneratedSessions(written, (text) => {
    for (const to of targets) expectSamePaths(text, to);
  });

  it("fixtures and real captures: the same", () => {
    expect(fixtures.length).toBeGreaterThan(3);
    for (const file of [...fixtures, ...real]) {
      const text = readFileSync(file, "utf8");
      for (const to of targets) expectSamePaths(text, to);
    }
  });

  it.skipIf(real.length === 0)(
    "sessions spliced from the captures' and fixtures' lines (any order): the same",
    () => {
      const bodies: string[] = [];
      for (const file of [...real, ...fixtures])
        bodies.push(
          ...readFileSync(file, "utf8")
            .split("\n")
            .filter((line) => line.length < 20_000 && line.trim() !== ""),
        );
      fc.assert(
        fc.property(
          fc.array(fc.constantFrom(...bodies, "", " "), { maxLength: 40 }),
          fc.boolean(),
          (body, finalNewline) => {
            const text = body.join("\n") + (finalNewline ? "\n" : "");
            for (const to of targets) expectSamePaths(text, to);
          },
        ),
        lawParameters(Math.min(300, lawParameters().numRuns ?? 300)),
      );
    },
  );

  it("lines off the chain the whole path keeps: a result on a side branch, a split part, a duplicate", () => {
    const base = {
      sessionId: "5e551011-0000-4000-8000-0000000000aa",
      cwd: "/w",
      version: "2.1.30",
    };
    const at = (n: number) => `2026-04-01T07:00:0${n}.000Z`;
    const lines = [
      {
        ...base,
        type: "user",
        parentUuid: null,
        uuid: "u-a",
        timestamp: at(0),
        message: { role: "user", content: "go" },
      },
      {
        ...base,
        type: "assistant",
        parentUuid: "u-a",
        uuid: "u-b",
        timestamp: at(1),
        message: {
          id: "m1",
          role: "assistant",
          model: "claude-x",
          content: [{ type: "tool_use", id: "t1", name: "Bash", input: { command: "ls" } }],
        },
      },
      {
        ...base,
        type: "user",
        parentUuid: "u-b",
        uuid: "u-c",
        timestamp: at(2),
        message: {
          role: "user",
          content: [{ type: "tool_result", tool_use_id: "t1", content: "a b" }],
        },
      },
      {
        ...base,
        type: "assistant",
        parentUuid: "u-x",
        uuid: "u-e",
        timestamp: at(3),
        message: {
          id: "m1",
          role: "assistant",
          model: "claude-x",
          content: [{ type: "text", text: "part" }],
        },
      },
      {
        ...base,
        type: "user",
        parentUuid: "u-a",
        uuid: "u-a",
        timestamp: at(4),
        message: { role: "user", content: "again" },
      },
      {
        ...base,
        type: "assistant",
        parentUuid: "u-b",
        uuid: "u-d",
        timestamp: at(5),
        message: {
          id: "m2",
          role: "assistant",
          model: "claude-x",
          content: [{ type: "text", text: "done" }],
        },
      },
    ];
    const text = `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`;
    // Control: the whole path reads the side-branch result and the split part.
    const whole = claudeCodeHarness.codec.toCommon(claudeCodeHarness.codec.parse(text));
    const blocks = whole.messages.flatMap((message) => message.content.map((block) => block.type));
    expect(blocks).toContain("tool_result");
    expect(blocks.filter((type) => type === "text")).toHaveLength(3);
    for (const to of targets) expectSamePaths(text, to);
  });

  it("a file read in small slices gives the same as its text", () => {
    const text = readFileSync(fixtures[0] as string, "utf8");
    expectSameInSlices(
      text,
      claudeCodeHarness,
      claudeCodeHarness,
      { read: "stream", write: "stream" },
      { scratch, name: "rollout.jsonl", write: writeOptions },
    );
  });

  it("refuses what the whole path refuses, naming the line (and a control that reads)", () => {
    const bad = '{"type":"user"}\n[1]\n';
    expect(() =>
      convertStreamed(bad, claudeCodeHarness, claudeCodeHarness, {
        read: "stream",
        write: "stream",
      }),
    ).toThrow("a session line must be a JSON object");
    const good = readFileSync(fixtures[0] as string, "utf8");
    expect(
      convertStreamed(good, claudeCodeHarness, claudeCodeHarness, {
        read: "stream",
        write: "stream",
      }).text,
    ).not.toBe("");
  });
});

/** A Claude Code 1.0.x line of one session (main, not a sidechain, unless `fields` says so), the nth at second n. */
function sessionLine(sessionId: string): (fields: Record<string, unknown>, n: number) => string {
  const base = { sessionId, cwd: "/w", version: "1.0.98", userType: "external" };
  const at = (n: number) => `2026-04-01T07:00:${String(n).padStart(2, "0")}.000Z`;
  return (fields, n) =>
    JSON.stringify({ ...base, isSidechain: false, timestamp: at(n), ...fields });
}

describe("claude code streaming read of inline subagents (sidechain lines)", () => {
  /** A long session with one Task call whose subagent txcript writes inline, as 1.0.x did. */
  function withSubagent(length: number): Transcript {
    const long = longTranscript(length);
    const at = long.meta.timestamp;
    return {
      ...long,
      messages: [
        ...long.messages.slice(0, 2),
        {
          role: "assistant",
          timestamp: at,
          // A model early on: the meta's pass stops there instead of reading to the end.
          model: "claude-x",
          content: [
            {
              type: "tool_use",
              id: "toolu_task1",
              tool: {
                name: "Task",
                input: { description: "look around", prompt: "list the files" },
              },
            },
          ],
        },
        {
          role: "user",
          timestamp: at,
          content: [
            { type: "tool_result", toolUseId: "toolu_task1", content: "two files", isError: false },
          ],
        },
        ...long.messages.slice(2),
      ],
      subagents: [
        {
          id: "agent-1",
          toolUseId: "toolu_task1",
          title: "look around",
          messages: [
            { role: "user", timestamp: at, content: [{ type: "text", text: "list the files" }] },
            { role: "assistant", timestamp: at, content: [{ type: "text", text: "two files" }] },
          ],
        },
      ],
    };
  }

  it("hands out the main conversation's messages before the file is read again whole, and the subagents after them", () => {
    const text = written(withSubagent(200));
    expect(text).toContain('"isSidechain":true');
    const all = text.split("\n").filter((line) => line !== "");
    const counted = countingLines(() => all);
    const seen: { kind: StreamPart["kind"]; read: number }[] = [];
    for (const part of claudeCodeHarness.readStream?.(counted.source, {}) ?? [])
      seen.push({ kind: part.kind, read: counted.total() });
    const kinds = seen.map((entry) => entry.kind);
    expect(kinds[0]).toBe("meta");
    expect(kinds.at(-1)).toBe("subagent");
    expect(kinds.lastIndexOf("message")).toBeLessThan(kinds.indexOf("subagent"));
    const first = seen.find((entry) => entry.kind === "message") as { read: number };
    // Pass one reads every line; the first message follows a few lines into the last pass
    // (a whole read after pass one would have read every line a second time by then).
    expect(first.read).toBeLessThan(all.length + all.length / 4);
    for (const to of targets) expectSamePaths(text, to);
  });

  it("reads a session whose lines name no model twice, not three times; a late model stops the meta's pass there", () => {
    const long = longTranscript(200);
    const withoutModels: Transcript = {
      ...long,
      messages: long.messages.map(({ model: _, ...message }) => message),
    };
    const plain = written(withoutModels)
      .split("\n")
      .filter((line) => line !== "");
    expect(plain.join("\n")).not.toContain('"model"');
    const counted = countingLines(() => plain);
    const parts = [...(claudeCodeHarness.readStream?.(counted.source, {}) ?? [])];
    const meta = parts.find((part) => part.kind === "meta");
    expect(meta?.kind === "meta" && meta.meta.model).toBe(undefined);
    // Pass one and the last pass; no pass in between looking for a model.
    expect(counted.passes()).toEqual([plain.length, plain.length]);
    for (const to of targets) expectSamePaths(plain.join("\n"), to);

    // One assistant line near the end names a model, an earlier one the "<synthetic>" no-model.
    const lastAssistant = plain.findLastIndex((line) => line.includes('"type":"assistant"'));
    const firstAssistant = plain.findIndex((line) => line.includes('"type":"assistant"'));
    const named = plain.map((line, index) =>
      index === lastAssistant
        ? line.replace('"message":{', '"message":{"model":"claude-late",')
        : index === firstAssistant
          ? line.replace('"message":{', '"message":{"model":"<synthetic>",')
          : line,
    );
    expect(named[lastAssistant]).toContain("claude-late");
    const again = countingLines(() => named);
    const read = [...(claudeCodeHarness.readStream?.(again.source, {}) ?? [])];
    const found = read.find((part) => part.kind === "meta");
    expect(found?.kind === "meta" && found.meta.model).toBe("claude-late");
    const passes = again.passes();
    expect(passes).toHaveLength(3);
    expect(passes[1]).toBeLessThanOrEqual(lastAssistant + 2);
    expect(passes[1]).toBeGreaterThan(lastAssistant);
    for (const to of targets) expectSamePaths(named.join("\n"), to);
  });

  it("a subagent's abandoned branch, and a subagent linked by its prompt: the same as the whole path", () => {
    const line = sessionLine("5e551011-0000-4000-8000-0000000000bb");
    const lines = [
      line(
        { type: "user", parentUuid: null, uuid: "m-1", message: { role: "user", content: "go" } },
        0,
      ),
      line(
        {
          type: "assistant",
          parentUuid: "m-1",
          uuid: "m-2",
          message: {
            id: "msg-1",
            role: "assistant",
            model: "claude-x",
            content: [
              {
                type: "tool_use",
                id: "toolu_1",
                name: "Task",
                input: { description: "scan", prompt: "scan the tree" },
              },
            ],
          },
        },
        1,
      ),
      line(
        {
          type: "user",
          isSidechain: true,
          parentUuid: null,
          uuid: "s-1",
          message: { role: "user", content: "scan the tree" },
        },
        2,
      ),
      line(
        {
          type: "assistant",
          isSidechain: true,
          parentUuid: "s-1",
          uuid: "s-2",
          message: {
            id: "msg-s1",
            role: "assistant",
            model: "claude-x",
            content: [{ type: "text", text: "first try" }],
          },
        },
        3,
      ),
      line(
        {
          type: "assistant",
          isSidechain: true,
          parentUuid: "s-1",
          uuid: "s-3",
          message: {
            id: "msg-s2",
            role: "assistant",
            model: "claude-x",
            content: [{ type: "text", text: "retried" }],
          },
        },
        4,
      ),
      line(
        {
          type: "user",
          parentUuid: "m-2",
          uuid: "m-3",
          message: {
            role: "user",
            content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "done" }],
          },
        },
        5,
      ),
      line(
        {
          type: "assistant",
          parentUuid: "m-3",
          uuid: "m-4",
          message: {
            id: "msg-2",
            role: "assistant",
            model: "claude-x",
            content: [{ type: "text", text: "ok" }],
          },
        },
        6,
      ),
    ];
    const text = `${lines.join("\n")}\n`;
    // Control: the whole path links the subagent to the call and names the branch it left out.
    const warnings: Warning[] = [];
    const whole = claudeCodeHarness.codec.toCommon(claudeCodeHarness.codec.parse(text), {
      onWarning: (warning: Warning) => warnings.push(warning),
    });
    expect(whole.subagents?.map((subagent) => subagent.toolUseId)).toEqual(["toolu_1"]);
    expect(whole.subagents?.[0]?.messages.map((message) => message.content[0])).toEqual([
      { type: "text", text: "scan the tree" },
      { type: "text", text: "retried" },
    ]);
    expect(warnings.map((warning) => warning.code)).toContain("claude_code.branch");
    for (const to of targets) expectSamePaths(text, to);
  });
});

describe("claude code streaming: a replay reuses pass one", () => {
  const line = sessionLine("5e551011-0000-4000-8000-0000000000cc");
  const assistant = (id: string, content: unknown[]) => ({
    id,
    role: "assistant",
    model: "claude-x",
    content,
  });
  const main = (uuid: string, parentUuid: string | null, type: string, message: unknown) => ({
    type,
    uuid,
    parentUuid,
    message,
  });
  const side = (uuid: string, parentUuid: string | null, type: string, message: unknown) => ({
    ...main(uuid, parentUuid, type, message),
    isSidechain: true,
  });
  const result = (id: string, content: string) => ({
    role: "user",
    content: [{ type: "tool_result", tool_use_id: id, content }],
  });
  const task = { description: "scan", prompt: "scan the tree" };
  /**
   * A session with a left-out bookkeeping line, a Task call whose subagent is inline (with an
   * abandoned branch of its own) and whose result carries a toolUseResult, an assistant message
   * split over two lines (the same message.id), an abandoned branch of the main conversation, a
   * line repeating a uuid, and a compaction with its summary.
   */
  const session = [
    line(main("m-1", null, "user", { role: "user", content: "go" }), 0),
    line({ type: "progress", data: {} }, 1),
    line(
      main(
        "m-2",
        "m-1",
        "assistant",
        assistant("msg-1", [{ type: "tool_use", id: "toolu_1", name: "Task", input: task }]),
      ),
      2,
    ),
    line(side("s-1", null, "user", { role: "user", content: "scan the tree" }), 3),
    line(side("s-2", "s-1", "assistant", assistant("msg-s1", [{ type: "text", text: "a" }])), 4),
    line(side("s-3", "s-1", "assistant", assistant("msg-s2", [{ type: "text", text: "b" }])), 5),
    line({ ...main("m-3", "m-2", "user", result("toolu_1", "done")), toolUseResult: { x: 1 } }, 6),
    line(main("m-4", "m-3", "assistant", assistant("msg-2", [{ type: "text", text: "ok" }])), 7),
    line(main("m-b", "m-4", "user", { role: "user", content: "a path not taken" }), 8),
    line(
      main(
        "m-5",
        "m-4",
        "assistant",
        assistant("msg-2", [
          { type: "tool_use", id: "t2", name: "Bash", input: { command: "ls" } },
        ]),
      ),
      9,
    ),
    line(main("m-6", "m-5", "user", result("t2", "a b")), 10),
    line(main("m-6", "m-5", "user", result("t2", "a b")), 11),
    line(
      {
        type: "system",
        subtype: "compact_boundary",
        uuid: "m-7",
        parentUuid: null,
        logicalParentUuid: "m-6",
        content: "Conversation compacted",
        compactMetadata: { trigger: "auto", preTokens: 100 },
      },
      12,
    ),
    line(
      {
        ...main("m-8", "m-7", "user", { role: "user", content: "what happened so far" }),
        isCompactSummary: true,
      },
      13,
    ),
    line(main("m-9", "m-8", "user", { role: "user", content: "more" }), 14),
    line(main("m-10", "m-9", "assistant", assistant("msg-3", [{ type: "text", text: "bye" }])), 15),
  ];
  const text = `${session.join("\n")}\n`;

  /** Writers that read the parts and one replay, in either order, and print both (parts first). */
  const partsFirst: StreamWriter = (input) => {
    const parts = JSON.stringify([...input.parts]);
    return [parts, "\n", JSON.stringify([...input.replay()])];
  };
  // As stream_json's writer reads: the replay whole first, then the parts.
  const replayFirst: StreamWriter = (input) => {
    const replayed = JSON.stringify([...input.replay()]);
    return [JSON.stringify([...input.parts]), "\n", replayed];
  };
  /** The same reader with the conversion's memo taken out of its options. */
  const unkept: StreamReader = (lines, options) => {
    const { [streamMemoOption]: _, ...rest } = options;
    return claudeCodeReadStream(lines, rest);
  };

  function run(read: StreamReader, write: StreamWriter) {
    const counted = countingLines(() => textLines(text));
    const conversion = streamConvert(counted.source, read, write);
    const out = [...conversion.chunks].join("");
    return { text: out, passes: counted.passes(), warnings: conversion.warnings() };
  }

  it("reads pass one and the model's pass once for the parts and a replay, giving the same parts and warnings", () => {
    const lineCount = session.length;
    // The model's pass stops at the first assistant line of the conversation (the third line).
    const head = 3;
    const alone = [...claudeCodeReadStream(() => textLines(text), {})];
    expect(alone.map((part) => part.kind)).toEqual([
      "meta",
      ...Array<string>(8).fill("message"),
      "subagent",
    ]);
    for (const write of [partsFirst, replayFirst]) {
      const reused = run(claudeCodeReadStream, write);
      const [parts, replayed] = reused.text.split("\n");
      expect(replayed).toBe(parts);
      expect(parts).toBe(JSON.stringify(alone));
      // Pass one, the model's pass, the last pass of the first read; the replay's last pass only
      // (before the memo, 6: the replay read pass one and the model's pass again).
      expect(reused.passes).toEqual([lineCount, head, lineCount, lineCount]);
      // Control: without the conversion's memo each read makes all three passes, to the same text.
      const control = run(unkept, write);
      expect(control.passes).toEqual([lineCount, head, lineCount, lineCount, head, lineCount]);
      expect(control.text).toBe(reused.text);
      // The warnings of the conversion (the read leg's, pass one's counts among them) are the same.
      expect(reused.warnings).toEqual(control.warnings);
      // Pass one's counts first, then the last pass's, as the whole path has them.
      expect(reused.warnings.map((warning) => warning.code)).toEqual([
        "claude_code.bookkeeping-lines",
        "claude_code.duplicate-line",
        "claude_code.branch",
        "claude_code.tool-use-result",
      ]);
    }
    for (const to of targets) expectSamePaths(text, to);
  });
});
