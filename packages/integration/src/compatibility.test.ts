// The compatibility matrix as a test. `pnpm interop` (TXCRIPT_INTEROP=full)
// runs every writer against every pinned version of every real program on
// every fixture of every source harness and rewrites docs/compatibility.md.
// A normal run (CI) runs the newest pinned version of each program on one
// session per source harness: each must pass, and the page must list exactly
// the pinned versions and say `pass` for those cells.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { type Cell, newest, probes, renderMatrix, runMatrix, versionOf } from "./compatibility.js";
import { cliSkipReason } from "./continue-check.js";
import { allSessions, renderContinueSection, runContinueMatrix } from "./continue-matrix.js";
import { repoRoot } from "./workspace.js";

const page = path.join(repoRoot, "docs/compatibility.md");
const full = process.env.TXCRIPT_INTEROP === "full";

describe("docs/compatibility.md", () => {
  it("lists exactly the pinned versions of every program a probe checks", async () => {
    expect(existsSync(page), "run `pnpm interop` to generate it").toBe(true);
    const text = readFileSync(page, "utf8");
    const inTable = new Set(
      [...text.matchAll(/^\| source \| (.*) \|$/gm)].flatMap((match) =>
        (match[1] ?? "").split(" | ").map((cell) => cell.replaceAll("`", "")),
      ),
    );
    const pinned = new Set(
      (await probes()).flatMap(({ probe }) =>
        probe.programs.map((program) => versionOf(program, probe)),
      ),
    );
    expect(inTable).toEqual(pinned);
  });

  it(
    full
      ? "runs the whole matrix and rewrites the page"
      : "the newest version of each program opens what every source writes",
    async () => {
      const run = await runMatrix({
        perSource: full ? Number.POSITIVE_INFINITY : 1,
        allVersions: full,
        onCell: (cell: Cell) =>
          console.log(
            `${cell.target} × ${cell.version} from ${cell.source}: ${cell.passed}/${cell.total}`,
          ),
      });
      for (const line of run.skipped) console.warn(`SKIPPED: ${line}`);
      if (full) {
        // What each target's model receives, on every real session and fixture
        // (continue-matrix.ts); CI's cells of it run in continue-interop.test.ts.
        const cliSkip = cliSkipReason();
        if (cliSkip !== undefined) console.warn(`SKIPPED continue matrix: ${cliSkip}`);
        const continued =
          cliSkip === undefined
            ? await runContinueMatrix({
                sessions: allSessions(),
                allVersions: true,
                onCell: (cell) =>
                  console.log(
                    `${cell.ok ? "pass" : "FAIL"} ${cell.session} → ${cell.target} (${cell.version}): ${cell.detail}`,
                  ),
              })
            : undefined;
        writeFileSync(
          page,
          renderMatrix(
            run,
            new Date().toISOString().slice(0, 10),
            continued && renderContinueSection(continued, new Date().toISOString().slice(0, 10)),
          ),
        );
        return;
      }
      const failures = run.cells.flatMap((cell) =>
        cell.failures.map(
          (failure) => `${cell.target} × ${cell.version} from ${cell.source}: ${failure}`,
        ),
      );
      expect(failures).toEqual([]);
      const text = readFileSync(page, "utf8");
      for (const { target, probe } of await probes()) {
        const version = versionOf(newest(probe), probe);
        const section = text.split(`## into \`${target}\``)[1]?.split("\n## ")[0] ?? "";
        const header = /^\| source \| (.*) \|$/m.exec(section)?.[1]?.split(" | ") ?? [];
        const column = header.indexOf(`\`${version}\``);
        expect(column, `${target}: the page has a column for ${version}`).toBeGreaterThanOrEqual(0);
        for (const cell of run.cells.filter((item) => item.target === target)) {
          const row =
            new RegExp(`^\\| \`${cell.source}\` \\| (.*) \\|$`, "m")
              .exec(section)?.[1]
              ?.split(" | ") ?? [];
          expect(row[column], `${target} from ${cell.source} on ${version}`).toMatch(
            /^pass \(\d+\)$/,
          );
        }
      }
    },
    full ? 14_400_000 : 1_200_000,
  );
});

describe("redacted sessions", () => {
  it("still open in every real program after --redact took their secrets out", async () => {
    const { redactTranscript } = await import("@txcript/redact");
    const github = ["gh", "p_", "Z9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2"].join("");
    const at = "2026-11-01T10:00:00.000Z";
    const seeded = {
      meta: { id: "redacted-probe", timestamp: at },
      messages: [
        {
          role: "user" as const,
          timestamp: at,
          content: [{ type: "text" as const, text: `use the token ${github}` }],
        },
        {
          role: "assistant" as const,
          timestamp: "2026-11-01T10:00:01.000Z",
          content: [
            {
              type: "tool_use" as const,
              id: "call_r1",
              tool: { name: "Bash" as const, input: { command: `echo ${github}` } },
            },
          ],
        },
        {
          role: "user" as const,
          timestamp: "2026-11-01T10:00:02.000Z",
          content: [
            { type: "tool_result" as const, toolUseId: "call_r1", content: github, isError: false },
          ],
        },
        {
          role: "assistant" as const,
          timestamp: "2026-11-01T10:00:03.000Z",
          content: [{ type: "text" as const, text: "done" }],
        },
      ],
    };
    const { transcript, report } = await redactTranscript(seeded);
    expect(report.total).toBe(3);
    expect(JSON.stringify(transcript)).not.toContain(github);
    const failures: string[] = [];
    for (const { target, probe } of await probes()) {
      const result = await probe.run(transcript, newest(probe), "common");
      if (!result.ok) failures.push(`${target}: ${result.detail}`);
    }
    expect(failures).toEqual([]);
  }, 600_000);
});
