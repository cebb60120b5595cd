// Every resume command passes the session id so that the program it starts
// cannot read it as an option (issue 33, item 3): `--flag=<id>`, or after
// `--`, or (pi) after a flag whose parser takes the next word verbatim. The
// forms were checked against each pinned program's parser: see
// docs/security.md ("What txcript starts") and the real-program checks in
// packages/gemini-cli/src/gemini-cli-resume-argv.test.ts and
// packages/pi/src/pi-resume-argv.test.ts.
import { lawParameters } from "@txcript/core/testing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { harnessList, loadRegistry } from "./harnesses.js";

// The whole registry: the CLI loads it on demand (harnesses.ts).
await loadRegistry();

/** Flags whose parser takes the following word as their value whatever it begins with (checked per program). */
const verbatimValueFlags: Record<string, string> = { pi: "--session" };

/** Where `id` is in `argv` as a value, never an option; undefined when it is not. */
function idAsValue(harness: string, argv: readonly string[], id: string): string | undefined {
  const afterDashes = argv.indexOf("--");
  for (const [index, word] of argv.entries()) {
    if (index === 0) continue;
    if (
      word.endsWith(`=${id}`) &&
      word.startsWith("--") &&
      word.indexOf("=") === word.length - id.length - 1
    )
      return "flag=value";
    if (word === id && afterDashes !== -1 && index > afterDashes) return "after --";
    if (word === id && argv[index - 1] === verbatimValueFlags[harness]) return "verbatim flag";
  }
  return undefined;
}

const resumable = harnessList().filter((harness) => harness.resumeCommand !== undefined);

describe("resume commands never pass an id as an option", () => {
  it("covers every harness that continues", () => {
    expect(resumable.map((harness) => harness.id).sort()).toEqual(
      [
        "claude_code",
        "codex",
        "copilot_cli",
        "crush",
        "gemini_cli",
        "kimi_cli",
        "opencode",
        "pi",
        "qwen_code",
      ].sort(),
    );
  });
  for (const harness of resumable) {
    it(`${harness.id}: hostile ids (--yolo, -p, --help) stay values`, () => {
      for (const id of ["--yolo", "-p", "--help", "--dangerously-skip-permissions", "-"]) {
        const argv = harness.resumeCommand?.(id) ?? [];
        expect(idAsValue(harness.id, argv, id), argv.join(" ")).toBeDefined();
        // No word is the bare id outside those positions.
        const bare = argv.filter((word) => word === id).length;
        expect(bare, argv.join(" ")).toBe(idAsValue(harness.id, argv, id) === "flag=value" ? 0 : 1);
      }
    });
    it(`${harness.id}: any id is carried whole`, () => {
      fc.assert(
        fc.property(fc.string({ minLength: 1 }), (id) => {
          const argv = harness.resumeCommand?.(id) ?? [];
          expect(idAsValue(harness.id, argv, id)).toBeDefined();
        }),
        lawParameters(200),
      );
    });
  }
});
