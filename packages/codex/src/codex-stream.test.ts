// The streaming law for Codex: reading a rollout line by line and writing
// one message by message give the text and the warnings of the whole path,
// for generated sessions (and odd shapes), for rollouts spliced from the
// real captures' lines, for the fixtures and the real captures, and for a
// file read in small slices.
import { readFileSync } from "node:fs";
import * as path from "node:path";
import { claudeCodeHarness } from "@txcript/claude-code";
import { type AnyHarness, commonHarness, convertStreamed } from "@txcript/core";
import {
  expectSameInSlices,
  expectSamePaths as expectSamePathsOf,
  itReadsGeneratedSessions,
  lawParameters,
  scratchDirectory,
  sessionFiles,
} from "@txcript/core/testing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { codexHarness } from "./codex-harness.js";
import { realDirectory, repoRoot } from "./test-support/codex-programs.js";

const scratch = scratchDirectory("txcript-codex-stream-");

const writeOptions = { reasoning: "openai-encrypted" };

/** Every path a Codex input can take to `to`, required equal to the whole path. */
function expectSamePaths(text: string, to: AnyHarness): void {
  expectSamePathsOf(text, codexHarness, to, { write: to === codexHarness ? writeOptions : {} });
}

const targets: AnyHarness[] = [codexHarness, claudeCodeHarness, commonHarness];

function written(transcript: Parameters<typeof codexHarness.codec.fromCommon>[0]): string {
  return codexHarness.codec.serialize(codexHarness.codec.fromCommon(transcript, writeOptions));
}

const fixtures = sessionFiles(path.join(repoRoot, "fixtures/codex"));
const real = sessionFiles(path.join(realDirectory, "codex"));

describe("codex streaming law", () => {
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
    "rollouts spliced from the real captures' lines (any order after a head): the same",
    () => {
      const heads: string[] = [];
      const bodies: string[] = [];
      for (const file of [...real, ...fixtures]) {
        const [head, ...rest] = readFileSync(file, "utf8").split("\n");
        heads.push(head as string);
        bodies.push(...rest.filter((line) => line.length < 20_000));
      }
      fc.assert(
        fc.property(
          fc.constantFrom(...heads),
          fc.array(fc.constantFrom(...bodies, "", "not json", "[1]", "{}"), { maxLength: 40 }),
          fc.boolean(),
          (head, body, finalNewline) => {
            const text = [head, ...body].join("\n") + (finalNewline ? "\n" : "");
            for (const to of targets) expectSamePaths(text, to);
          },
        ),
        lawParameters(Math.min(300, lawParameters().numRuns ?? 300)),
      );
    },
  );

  it("a first prompt past the writer's look-ahead (300 messages in) is found by a replay", () => {
    const timestamp = "2026-01-01T00:00:00.000Z";
    const messages = Array.from({ length: 300 }, (_, index) => ({
      role: "assistant" as const,
      content: [{ type: "text" as const, text: `step ${index}` }],
      timestamp,
    }));
    messages.push({
      role: "user" as const,
      content: [{ type: "text", text: "the prompt" }],
      timestamp,
    } as never);
    const text = written({ meta: { id: "s", timestamp }, messages });
    // Control: the early echo is the late prompt's.
    expect(text.split("\n")[1]).toContain("the prompt");
    for (const to of targets) expectSamePaths(text, to);
  });

  it("a file read in small slices gives the same as its text", () => {
    const text = readFileSync(fixtures[0] as string, "utf8");
    expectSameInSlices(
      text,
      codexHarness,
      codexHarness,
      { read: "stream", write: "stream" },
      { scratch, name: "rollout.jsonl", write: writeOptions },
    );
  });

  it("refuses what the whole path refuses, naming the line (and a control that reads)", () => {
    const bad = '{"type":"response_item","payload":{}}\n';
    expect(() =>
      convertStreamed(bad, codexHarness, codexHarness, { read: "stream", write: "stream" }),
    ).toThrow("a rollout must start with session metadata");
    expect(() =>
      convertStreamed("", codexHarness, codexHarness, { read: "stream", write: "stream" }),
    ).toThrow("the rollout is empty");
    const good = readFileSync(fixtures[0] as string, "utf8");
    expect(
      convertStreamed(good, codexHarness, codexHarness, { read: "stream", write: "stream" }).text,
    ).not.toBe("");
  });
});
