// Regression tests for the bugs the suite found in the second wave of
// harnesses (Codex, pi, OpenCode, Gemini CLI) and in `continue`'s context
// budget, the day they joined the registry (2026-12-01). Each was `it.fails`
// until its fix landed; all are fixed now, so each is a plain test and none
// has an entry in known-bugs.ts (the fuzzers tolerate none of them).
import { promises as fs } from "node:fs";
import * as path from "node:path";
import type { Transcript } from "@txcript/core";
import { TxcriptError } from "@txcript/core";
import { describe, expect, it } from "vitest";
import { builtBin, makeHome, removeHome, txcript } from "./cli.js";
import { applyMutation } from "./mutations.js";
import { checkText, fuzzFile } from "./oracle.js";
import { fixturesRoot, type ParserUnderTest, parserById, samplesOf } from "./parsers.js";

/** The target, or a visible skip when the registry does not hold it (yet). */
function target(id: string): ParserUnderTest | undefined {
  return parserById(id);
}

/** The target's sample written by its own writer from a Common fixture. */
function writtenSample(id: string, fixture: string): string {
  const sample = samplesOf(id).find(
    (candidate) => candidate.name === `${fixture} written by ${id}`,
  );
  if (sample === undefined) throw new Error(`no sample ${fixture} written by ${id}`);
  return sample.text;
}

const deepAt = (pick: number, open: "[" | '{"a":') =>
  ({ kind: "deep-nesting", pick, depth: 100_000, open }) as const;

describe("opencode", () => {
  const parser = target("opencode");
  // Found by opencode/mutated-sample (seed 566279822) and hostile-values: a value
  // nested 100,000 deep in an export makes parse throw TOO_LARGE ("document is
  // nested too deeply or too large to write") with no location, where parse must
  // name the file it was given. Fixed in opencode-schema.ts: parse renders the
  // document it read, and a TOO_LARGE from that render is refused naming the file
  // ("document is nested too deeply to read").
  it.skipIf(parser === undefined)(
    "parse of an export nested 100,000 deep is refused naming the file",
    () => {
      if (parser === undefined) return;
      const sample = writtenSample("opencode", "fixtures/amp/export-thread.common.json");
      const unlocated: string[] = [];
      for (const pick of [1, 2, 3, 5, 8, 13, 21, 34, 55, 89])
        for (const open of ["[", '{"a":'] as const) {
          try {
            parser.codec.parse(applyMutation(sample, parser.layout, deepAt(pick, open)), {
              file: fuzzFile,
            });
          } catch (error) {
            if (!TxcriptError.isInstance(error) || error.location.file !== fuzzFile)
              unlocated.push(`${open} at ${pick}: ${String(error).slice(0, 120)}`);
          }
        }
      expect(unlocated).toEqual([]);
    },
  );
});

/** A two-message session of `parser`'s writer whose cache-read count is past 2^53, read back. */
function usagePast2To53(parser: ParserUnderTest): void {
  const transcript: Transcript = {
    meta: { id: "5e551011-0000-4000-8000-00000000c0de", timestamp: "2026-01-01T00:00:00.000Z" },
    messages: [
      {
        role: "user",
        timestamp: "2026-01-01T00:00:00.000Z",
        content: [{ type: "text", text: "hi" }],
      },
      {
        role: "assistant",
        timestamp: "2026-01-01T00:00:01.000Z",
        content: [{ type: "text", text: "hello" }],
        usage: {
          inputTokens: 31337,
          outputTokens: 7,
          cacheReadInputTokens: 24601,
          cacheCreationInputTokens: 0,
        },
      },
    ],
  };
  const written = parser.codec.serialize(parser.codec.fromCommon(transcript, {}));
  const text = written
    .replaceAll("24601", "9007199254740993")
    .replaceAll("31337", "9007199254740993");
  expect(text).not.toBe(written);
  checkText(parser, text, { tolerateKnownBugs: false });
}

describe("codex", () => {
  const parser = target("codex");
  // Found by codex/mutated-sample: a token count past 2^53 in a rollout's usage
  // reaches Common unchanged, and Common's integers stop at 2^53 − 1, so
  // toCommon returns an invalid transcript ("Too big: expected int to be
  // <=9007199254740991 at $.messages[0].usage.cacheReadInputTokens"). Fixed in
  // codex-usage.ts: such a count reads as 0 with the loss codex.usage-count.
  it.skipIf(parser === undefined)("a token count past 2^53 does not reach Common", () => {
    if (parser) usagePast2To53(parser);
  });
});

describe("opencode usage", () => {
  const parser = target("opencode");
  // Found by opencode/mutated-sample (863 cases): the same as Codex's, at
  // $.messages[3].usage.inputTokens. Fixed in opencode-usage.ts: such a count
  // reads as 0 with the loss opencode.usage-count.
  it.skipIf(parser === undefined)("a token count past 2^53 does not reach Common", () => {
    if (parser) usagePast2To53(parser);
  });
});

describe("gemini-cli", () => {
  const parser = target("gemini_cli");
  // Found by gemini_cli/mutated-sample: content nested 100,000 deep makes
  // toCommon throw RangeError (renderContent in gemini-cli-peek.ts recurses).
  // Fixed: renderContent (and the [Thought: …] text) walk iteratively.
  it.skipIf(parser === undefined)(
    "content nested 100,000 deep is read or refused with a TxcriptError",
    () => {
      if (parser === undefined) return;
      const sample = writtenSample("gemini_cli", "fixtures/amp/export-thread.common.json");
      const violations: string[] = [];
      for (const pick of [2083478045, 1, 2, 3, 5, 8, 13, 21, 34, 55]) {
        try {
          checkText(parser, applyMutation(sample, parser.layout, deepAt(pick, "[")), {
            tolerateKnownBugs: false,
          });
        } catch (error) {
          violations.push(String(error).slice(0, 200));
        }
      }
      expect(violations).toEqual([]);
    },
  );
});

describe("cli", () => {
  // Was a bug, fixed in core (budget.ts, 0365c17): `continue` fits the session to the
  // target's context budget first, and blockText JSON.stringified a tool input nested
  // 100,000 deep: RangeError, "internal error", exit 70, where view/export/convert
  // refuse it with TOO_LARGE and exit 1.
  it("continue of a tool input nested 100,000 deep is TOO_LARGE, not an internal error", async () => {
    await builtBin();
    const home = await makeHome();
    try {
      await fs.copyFile(
        path.join(fixturesRoot, "hostile", "amp-deep.json"),
        path.join(home.work, "amp-deep.json"),
      );
      const result = await txcript(home, [
        "continue",
        "amp-deep.json",
        "--with",
        "claude_code",
        "--no-resume",
        "--from",
        "amp",
      ]);
      expect(result.stderr).not.toMatch(/internal error/);
      expect(result.code, result.stderr).toBe(1);
      expect(result.stderr).toMatch(/amp-deep\.json: .*nested too deeply/);
    } finally {
      await removeHome(home);
    }
  });
});
