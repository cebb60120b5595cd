// The streaming law for Claude Code: reading a session line by line (three
// passes) and writing one message by message give the text and the
// warnings of the whole path, for generated sessions (and odd shapes), for
// sessions spliced from the fixtures' and real captures' lines (branches,
// duplicates, dangling parents, split messages out of order), for the
// fixtures and real captures, and for a file read in small slices.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import {
  type AnyHarness,
  commonHarness,
  convertStreamed,
  convertWhole,
  readFileLines,
  TxcriptError,
} from "@txcript/core";
import { oddShapesArbitrary, transcriptArbitrary } from "@txcript/core/arbitraries";
import { lawParameters } from "@txcript/core/testing";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { claudeCodeHarness } from "./claude-code-harness.js";
import { realDirectory, repoRoot } from "./test-support/interop.js";

const scratch = mkdtempSync(path.join(os.tmpdir(), "txcript-claude-stream-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const writeOptions = {};

/** Every path a Claude Code input can take to `to`, required equal to the whole path. */
function expectSamePaths(text: string, to: AnyHarness): void {
  const options = { write: to === claudeCodeHarness ? writeOptions : {} };
  let whole: ReturnType<typeof convertWhole> | TxcriptError;
  try {
    whole = convertWhole(text, claudeCodeHarness, to, options);
  } catch (error) {
    if (!TxcriptError.isInstance(error)) throw error;
    whole = error;
  }
  type Which = { read: "stream" | "whole"; write: "stream" | "whole" };
  const paths: Which[] = [
    { read: "stream", write: "whole" },
    ...(to.writeStream === undefined
      ? []
      : ([
          { read: "stream", write: "stream" },
          { read: "whole", write: "stream" },
        ] satisfies Which[])),
  ];
  for (const which of paths) {
    if (whole instanceof Error) {
      // A refused input is refused the same way.
      expect(() => convertStreamed(text, claudeCodeHarness, to, which, options)).toThrow(
        whole.message,
      );
      continue;
    }
    const streamed = convertStreamed(text, claudeCodeHarness, to, which, options);
    expect({ which, text: streamed.text }).toEqual({ which, text: whole.text });
    expect({ which, warnings: streamed.warnings }).toEqual({ which, warnings: whole.warnings });
  }
}

const targets: AnyHarness[] = [claudeCodeHarness, commonHarness];

function written(transcript: Parameters<typeof claudeCodeHarness.codec.fromCommon>[0]): string {
  return claudeCodeHarness.codec.serialize(
    claudeCodeHarness.codec.fromCommon(transcript, writeOptions),
  );
}

function jsonlFiles(directory: string): string[] {
  if (!existsSync(directory)) return [];
  return readdirSync(directory)
    .filter((name) => name.endsWith(".jsonl"))
    .sort()
    .map((name) => path.join(directory, name));
}

const fixtures = jsonlFiles(path.join(repoRoot, "fixtures/claude-code"));
const real = jsonlFiles(path.join(realDirectory, "claude-code"));

describe("claude code streaming law", () => {
  it("generated sessions: stream and whole paths give the same text and warnings", () => {
    fc.assert(
      fc.property(transcriptArbitrary(), (transcript) => {
        const text = written(transcript);
        for (const to of targets) expectSamePaths(text, to);
      }),
      lawParameters(),
    );
  });

  it("odd shapes: the same", () => {
    fc.assert(
      fc.property(oddShapesArbitrary(), (transcript) => {
        const text = written(transcript);
        for (const to of targets) expectSamePaths(text, to);
      }),
      lawParameters(),
    );
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

  it("a file read in small slices gives the same as its text", () => {
    const file = path.join(scratch, "rollout.jsonl");
    const text = readFileSync(fixtures[0] as string, "utf8");
    writeFileSync(file, text);
    const lines = () => readFileLines(file, { chunkBytes: 7 });
    const streamed = convertStreamed(
      text,
      claudeCodeHarness,
      claudeCodeHarness,
      { read: "stream", write: "stream" },
      { lines, write: writeOptions },
    );
    expect(streamed).toEqual(
      convertWhole(text, claudeCodeHarness, claudeCodeHarness, { write: writeOptions }),
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
