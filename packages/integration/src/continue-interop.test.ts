// What the target's real program sends its model after `txcript continue`
// (continue-check.ts): the controls (a session broken after it was written
// must fail the check, in every target), and CI's representative cells of
// the matrix (continue-matrix.ts ciSessions into the newest program of every
// target), each of which must read on docs/compatibility.md as it ran: a
// failing cell stays counted there until the writer is fixed and the page
// regenerated (`pnpm interop`). Skips visibly without the built CLI, without
// ../shared, or when a pinned program could not be installed.
import { promises as fs, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { programBin, programSkipReason } from "../../../scripts/real-programs.mjs";
import {
  checkContinue,
  cliSkipReason,
  realSessions,
  realSkipReason,
  runChild,
  targets,
} from "./continue-check.js";
import { ciSessions, fixtureSessions, recorded, runContinueMatrix } from "./continue-matrix.js";
import { repoRoot } from "./workspace.js";

const page = path.join(repoRoot, "docs/compatibility.md");
const full = process.env.TXCRIPT_INTEROP === "full";
const cliSkip = cliSkipReason();
if (cliSkip !== undefined) console.warn(`SKIPPED continue checks: ${cliSkip}`);

/** A fixture every target takes whole: two calls, each answered. */
const controlSession = fixtureSessions().find(
  (input) => input.name === "fixtures/stream-json/claude-tools.jsonl",
);
const controlCall = "toolu_01A09q90qw90lq917835lq9";

describe.skipIf(cliSkip !== undefined || full)(
  "what the target's model receives (controls)",
  () => {
    for (const target of targets) {
      const program = target.programs[0] as string;
      const skip = programBin(program) === undefined ? programSkipReason(program) : undefined;
      if (skip !== undefined) console.warn(`SKIPPED ${target.harness} control: ${skip}`);
      it.skipIf(skip !== undefined)(
        `${target.harness}: passes on the fixture, fails once a call id in the written session is changed`,
        async () => {
          expect(controlSession, "fixtures/stream-json/claude-tools.jsonl").toBeDefined();
          const input = controlSession as NonNullable<typeof controlSession>;
          const whole = await checkContinue(input, target, program);
          expect(whole.problems).toEqual([]);
          expect(whole.detail).toMatch(/2 calls and 2 results/);
          const broken = await checkContinue(input, target, program, {
            async tamper({ path: file, env, box }) {
              const text = await fs.readFile(file, "utf8");
              expect(text).toContain(controlCall);
              // Only the first occurrence: the call, not its result.
              await fs.writeFile(file, text.replace(controlCall, "toolu_tampered"));
              if (target.harness === "opencode") {
                // OpenCode reads its database: import the broken file into a fresh one.
                await fs.rm(path.join(box.home, ".local/share/opencode"), {
                  recursive: true,
                  force: true,
                });
                const bin = programBin(program) as string;
                const imported = await runChild(bin, ["import", file], {
                  cwd: box.work,
                  env,
                  timeoutMs: 120_000,
                });
                expect(imported.status, imported.stderr).toBe(0);
              }
            },
          });
          expect(broken.ok).toBe(false);
          expect(broken.problems.join("\n")).toMatch(
            /toolu_01A09q90qw90lq917835lq9|toolu_tampered/,
          );
        },
        600_000,
      );
    }
  },
);

const realSkip = realSkipReason();
if (realSkip !== undefined) console.warn(`SKIPPED real sessions: ${realSkip}`);

describe.skipIf(cliSkip !== undefined || realSkip !== undefined || full)(
  "real sessions continued into every target (CI's cells of the matrix)",
  () => {
    it("each cell reads on docs/compatibility.md as it ran (pass, or counted as failing)", async () => {
      const sessions = realSessions().filter((input) => ciSessions.includes(input.name));
      expect(sessions.map((input) => input.name).sort()).toEqual([...ciSessions].sort());
      const run = await runContinueMatrix({
        sessions,
        allVersions: false,
        onCell: (cell) =>
          console.log(
            `${cell.ok ? "pass" : "FAIL"} ${cell.session} → ${cell.target} (${cell.version}), continue ${cell.continueMs} ms, program ${cell.programMs} ms: ${cell.detail}`,
          ),
      });
      for (const line of run.skipped) console.warn(`SKIPPED: ${line}`);
      const text = readFileSync(page, "utf8");
      const differ = run.cells.flatMap((cell) => {
        const onPage = recorded(text, cell.session, cell);
        const now = cell.ok ? "pass" : "fail";
        return onPage === now
          ? []
          : [
              `${cell.session} → ${cell.target} (${cell.version}): ${now} now, ${onPage ?? "absent"} on the page (run \`pnpm interop\`): ${cell.detail}`,
            ];
      });
      expect(differ).toEqual([]);
    }, 3_600_000);
  },
);
