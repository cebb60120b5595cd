// The "what the model receives" part of the compatibility matrix: sessions
// (every real session in ../shared/real, and each harness's native fixtures)
// continued with the built `txcript continue` into every target, each
// resumed by the target's pinned real program against the recording stub
// (continue-check.ts). A cell passes when the program's first request carries
// everything meant to be sent, pairs every call with its result, and both
// commands exit 0; a failing cell is counted and listed, never left out.
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { harnessDefinitions, harnessDirectory } from "@txcript/harnesses";
import { programBin, programSkipReason, realPrograms } from "../../../scripts/real-programs.mjs";
import {
  type CheckResult,
  checkContinue,
  realSessions,
  type SessionInput,
  type Target,
  targets,
} from "./continue-check.js";
import { repoRoot } from "./workspace.js";

export interface ContinueCell {
  session: string;
  source: string;
  target: string;
  program: string;
  version: string;
  ok: boolean;
  detail: string;
  problems: string[];
  command: string;
  continueMs: number;
  programMs: number;
}

export function programVersion(program: string): string {
  const entry = (realPrograms as Record<string, { package: string; version: string }>)[program];
  if (!entry) throw new Error(`scripts/real-programs.mjs has no program ${program}`);
  return `${entry.package}@${entry.version}`;
}

/** Each harness's native fixtures (the file beside each `<name>.common.json`). */
export function fixtureSessions(): SessionInput[] {
  const out: SessionInput[] = [];
  for (const harness of harnessDefinitions) {
    const directory = path.join(repoRoot, "fixtures", harnessDirectory(harness.id));
    if (!existsSync(directory)) continue;
    const names = readdirSync(directory);
    for (const name of names.filter((item) => item.endsWith(".common.json")).sort()) {
      const stem = name.slice(0, -".common.json".length);
      const native = names.find((item) => item === `${stem}.jsonl` || item === `${stem}.json`);
      if (native === undefined) continue;
      out.push({
        name: `fixtures/${harnessDirectory(harness.id)}/${native}`,
        harness: harness.id,
        file: path.join(directory, native),
      });
    }
  }
  return out;
}

/**
 * The sessions CI continues into every target (the newest program of each):
 * the Amp export (Amp → Codex), a compacted Claude Code session with a slash
 * command (the left-out note, a call the person ran), and pi's native-named
 * session. `pnpm interop` runs every real session and fixture.
 */
export const ciSessions = [
  "real/amp-export-convo.json",
  "real/claude-code/fasthooks-main-2.0.76.jsonl",
  "real/pi/2026-03-18T00-14-13-969Z_a5cd40eb-3081-4252-b0a0-00079cf37752.jsonl",
];

export async function runContinueMatrix(options: {
  sessions: SessionInput[];
  allVersions: boolean;
  onCell?: (cell: ContinueCell) => void;
  only?: Target[];
}): Promise<{ cells: ContinueCell[]; skipped: string[] }> {
  const cells: ContinueCell[] = [];
  const skipped: string[] = [];
  for (const target of options.only ?? targets) {
    const programs = options.allVersions ? target.programs : target.programs.slice(0, 1);
    for (const program of programs) {
      if (programBin(program) === undefined) {
        skipped.push(
          `${target.harness} × ${programVersion(program)}: ${programSkipReason(program)}`,
        );
        continue;
      }
      for (const input of options.sessions) {
        const result: CheckResult = await checkContinue(input, target, program);
        const cell: ContinueCell = {
          session: input.name,
          source: input.harness,
          target: target.harness,
          program,
          version: programVersion(program),
          ok: result.ok,
          detail: result.detail,
          problems: result.problems,
          command: result.command,
          continueMs: result.continueMs,
          programMs: result.programMs,
        };
        cells.push(cell);
        options.onCell?.(cell);
      }
    }
  }
  return { cells, skipped };
}

/** The column of a cell: target and program version. */
function column(cell: Pick<ContinueCell, "target" | "version">): string {
  return `${cell.target} (${cell.version.replace(/^.*@(?=[^@]+$)/, "")})`;
}

export const continueHeading = "## What the target's model receives after `txcript continue`";

/** The page section for a continue run (rows: sessions; columns: target × program version). */
export function renderContinueSection(
  run: { cells: ContinueCell[]; skipped: string[] },
  when: string,
): string {
  const columns = [...new Set(run.cells.map(column))];
  const sessions = [...new Set(run.cells.map((cell) => cell.session))];
  const passed = run.cells.filter((cell) => cell.ok).length;
  const lines = [
    continueHeading,
    "",
    `Run on ${when}. Each session is continued with the built \`txcript continue <session> --with <target>`,
    "--no-resume --json` in a temporary HOME (fake keys, every proxy at 127.0.0.1:9), then the",
    "target's pinned program resumes it with one prompt against a recording model stub on",
    "127.0.0.1 (Anthropic Messages for `claude`, OpenAI Responses for `codex`, chat completions",
    "for `pi`, `opencode`, `copilot` and `qwen`, the Gemini API for `gemini`;",
    "packages/integration/src/model-stub.ts).",
    "A cell is `pass` when both commands exit 0 and the program's first request carries every",
    "user text, compaction summary, tool call id and result of the part meant to be sent (the",
    "whole conversation as `txcript convert --to common` reads it, minus what the archive's",
    "index.md says was left out), the `[txcript] … left out` note when something was, and no",
    "orphan result or call without a result by the API's own rules",
    "(packages/integration/src/sent-history.ts). Otherwise `**fail**`, with the problems below.",
    "Into `pi`, the tool calls of a failed turn (stop reason `aborted` or `error`) are not",
    "expected: pi sends no failed assistant turn, not even of its own sessions (pi-ai 0.73.1",
    "`transformMessages`; docs/formats/pi.md). A tool output Gemini CLI masked (its",
    "ToolOutputMaskingService: a preview and a file path in place of an older bulky output)",
    "carries its text when the preview's head, decoded from its JSON escapes, holds it.",
    "`real/…` rows are the shared real sessions (../shared/real), `fixtures/…` each harness's",
    "fixtures. CI runs the sessions marked † into the newest program of every target.",
    "Every program runs offline: `claude` with ANTHROPIC_BASE_URL, `codex exec` with",
    "`-c openai_base_url=…`, `pi -p` with a models.json provider (its model's context window",
    "declared at 10,000,000 tokens: at pi's default of 128,000, a session whose last turn used",
    "more than 111,616 is compacted by pi before the prompt, its summary then the stub's canned",
    "answer), `opencode run` with a project",
    "opencode.json provider, `gemini -p` with GOOGLE_GEMINI_BASE_URL (API-key auth takes a",
    "127.0.0.1 base URL in 0.61.0) and `-m gemini-2.5-flash` (with no model named, Gemini CLI",
    "first asks a routing classifier, whose JSON answer the stub does not give), `copilot",
    "--resume=<id> -p` in BYOK mode (COPILOT_OFFLINE, COPILOT_PROVIDER_BASE_URL) and `qwen",
    "--auth-type openai --resume=<id>` with OPENAI_BASE_URL.",
    "",
    `**${passed} of ${run.cells.length} cells pass.**`,
    "",
    `| session | ${columns.map((name) => `\`${name}\``).join(" | ")} |`,
    `| --- | ${columns.map(() => "---").join(" | ")} |`,
  ];
  for (const session of sessions) {
    const row = columns.map((name) => {
      const cell = run.cells.find((item) => item.session === session && column(item) === name);
      if (cell === undefined) return "—";
      return cell.ok ? "pass" : `**fail** (${cell.problems.length})`;
    });
    const mark = ciSessions.includes(session) ? " †" : "";
    lines.push(`| \`${session}\`${mark} | ${row.join(" | ")} |`);
  }
  const failures = run.cells.filter((cell) => !cell.ok);
  if (failures.length > 0) {
    lines.push(
      "",
      "Failures (the first problems of each; `$TMP` is the check's temporary directory). One cell",
      "reruns with `packages/integration/node_modules/.bin/tsx packages/integration/scripts/continue-cell.ts",
      "<session> <target> [program]` after `pnpm build`.",
      "",
    );
    for (const cell of failures)
      lines.push(
        `- \`${cell.session}\` → ${column(cell)}: ${cell.problems
          .slice(0, 3)
          .map((problem) =>
            problem
              .replace(/\/\S*txcript-continue-check-\w+/g, "$TMP")
              .replaceAll("|", "\\|")
              .replaceAll("\n", " ")
              .slice(0, 240),
          )
          .join("; ")}${cell.problems.length > 3 ? `; and ${cell.problems.length - 3} more` : ""}`,
      );
  }
  if (run.skipped.length > 0)
    lines.push("", "Not run:", "", ...run.skipped.map((line) => `- ${line}`));
  lines.push("");
  return lines.join("\n");
}

/** What the page records for a cell: "pass", "fail", or undefined when it has no such cell. */
export function recorded(
  page: string,
  session: string,
  cell: Pick<ContinueCell, "target" | "version">,
): string | undefined {
  const section = page.split(continueHeading)[1]?.split("\n## ")[0] ?? "";
  const header = /^\| session \| (.*) \|$/m.exec(section)?.[1]?.split(" | ") ?? [];
  const index = header.indexOf(`\`${column(cell)}\``);
  if (index < 0) return undefined;
  const escaped = session.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const row = new RegExp(`^\\| \`${escaped}\`(?: †)? \\| (.*) \\|$`, "m")
    .exec(section)?.[1]
    ?.split(" | ");
  const value = row?.[index];
  if (value === undefined || value === "—") return undefined;
  return value === "pass" ? "pass" : "fail";
}

/** Every session of the full run: the real ones, then the fixtures. */
export function allSessions(): SessionInput[] {
  return [...realSessions(), ...fixtureSessions()];
}
