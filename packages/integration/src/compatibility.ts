// The compatibility matrix: every writer against the real programs that read
// its output, on sessions from every source harness. Each target harness
// with a real program exports a `probe` from its test-support (it writes a
// transcript with its own writer and store into a temporary home and runs
// the program's offline check); the source sessions are each harness's
// fixtures, read into Common. Targets, sources and programs all come from
// the registry and scripts/real-programs.mjs: nothing here lists harnesses.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { commonCodec, type Transcript } from "@txcript/core";
import { harnessDefinitions, harnessDirectory } from "@txcript/harnesses";
import { programBin, programSkipReason, realPrograms } from "../../../scripts/real-programs.mjs";
import { repoRoot } from "./workspace.js";

export interface ProbeResult {
  ok: boolean;
  detail: string;
}

export interface Probe {
  programs: string[];
  check: string;
  /** Versions of programs the probe pins itself (dev dependencies), not in scripts/real-programs.mjs. */
  versions?: Record<string, string>;
  /** `source`: the harness the transcript was read from (a writer may keep more for its own). */
  run(transcript: Transcript, program: string, source?: string): Promise<ProbeResult>;
}

export interface Cell {
  target: string;
  source: string;
  program: string;
  version: string;
  passed: number;
  total: number;
  failures: string[];
}

/** The probes of every registered harness that has one. */
export async function probes(): Promise<{ target: string; probe: Probe }[]> {
  const found: { target: string; probe: Probe }[] = [];
  for (const harness of harnessDefinitions) {
    const file = path.join(
      repoRoot,
      "packages",
      harnessDirectory(harness.id),
      "src/test-support/probe.ts",
    );
    if (!existsSync(file)) continue;
    const module = (await import(file)) as { probe?: Probe };
    if (module.probe) found.push({ target: harness.id, probe: module.probe });
  }
  return found;
}

/** Each source harness's fixtures in Common (at most `perSource` each, in name order). */
export function sources(
  perSource: number,
): { source: string; name: string; transcript: Transcript }[] {
  const out: { source: string; name: string; transcript: Transcript }[] = [];
  for (const harness of harnessDefinitions) {
    const directory = path.join(repoRoot, "fixtures", harnessDirectory(harness.id));
    if (!existsSync(directory)) continue;
    const names = readdirSync(directory)
      .filter((name) => name.endsWith(".common.json"))
      .sort()
      .slice(0, perSource);
    for (const name of names) {
      const text = readFileSync(path.join(directory, name), "utf8");
      out.push({
        source: harness.id,
        name,
        transcript: commonCodec.toCommon(commonCodec.parse(text)),
      });
    }
  }
  return out;
}

/** The pinned version of a program: scripts/real-programs.mjs, or the probe's own pins. */
export function versionOf(program: string, probe?: Probe): string {
  const own = probe?.versions?.[program];
  if (own !== undefined) return own;
  const entry = (realPrograms as Record<string, { package: string; version: string }>)[program];
  if (!entry) throw new Error(`scripts/real-programs.mjs has no program ${program}`);
  return `${entry.package}@${entry.version}`;
}

function inTable(program: string): boolean {
  return program in (realPrograms as Record<string, unknown>);
}

/** The newest pinned program of a probe: the first it names (CI runs only that one). */
export function newest(probe: Probe): string {
  return probe.programs[0] as string;
}

export async function runMatrix(options: {
  perSource: number;
  allVersions: boolean;
  onCell?: (cell: Cell) => void;
}): Promise<{ cells: Cell[]; skipped: string[]; checks: Record<string, string> }> {
  const cells: Cell[] = [];
  const skipped: string[] = [];
  const checks: Record<string, string> = {};
  const inputs = sources(options.perSource);
  for (const { target, probe } of await probes()) {
    checks[target] = probe.check;
    const programs = options.allVersions ? probe.programs : [newest(probe)];
    for (const program of programs) {
      if (inTable(program) && programBin(program) === undefined) {
        skipped.push(`${target} × ${versionOf(program, probe)}: ${programSkipReason(program)}`);
        continue;
      }
      for (const source of new Set(inputs.map((input) => input.source))) {
        const cell = await runCell(target, probe, program, source, inputs);
        cells.push(cell);
        options.onCell?.(cell);
      }
    }
  }
  return { cells, skipped, checks };
}

/** One cell: every input of `source` written for `target` and checked with `program`. */
export async function runCell(
  target: string,
  probe: Probe,
  program: string,
  source: string,
  inputs: ReturnType<typeof sources>,
): Promise<Cell> {
  const cell: Cell = {
    target,
    source,
    program,
    version: versionOf(program, probe),
    passed: 0,
    total: 0,
    failures: [],
  };
  for (const input of inputs.filter((item) => item.source === source)) {
    const result = await probe
      .run(input.transcript, program, input.source)
      .catch((error: unknown) => ({
        ok: false,
        detail: `the probe threw: ${error instanceof Error ? error.message : String(error)}`,
      }));
    cell.total += 1;
    if (result.ok) cell.passed += 1;
    else cell.failures.push(`${input.name}: ${result.detail}`);
  }
  return cell;
}

/** Harnesses txcript writes whose own program cannot be installed here, and how their writers are checked instead. */
const unprobedTargets: readonly string[] = [
  "## Targets whose program cannot run here",
  "",
  "- `crush`: `@charmland/crush` only downloads Crush's binary from GitHub when it is installed, which",
  "  cannot be reached here, so no cell checks what txcript writes into Crush. The writer is checked",
  "  against Crush's published source instead: the schema against its migrations and a database Crush",
  "  made, the parts against its Go unmarshalling rules (docs/formats/crush.md). `crush` as a source is",
  "  in the tables below.",
  "",
];

/** Harnesses txcript reads whose program cannot check anything here, and why. */
export const uncheckedTargets: Record<string, string> = {
  cursor_cli:
    "read only. Cursor CLI (cursor-agent) is closed source and cannot be installed here (the npm package named cursor-agent is unrelated), so txcript writes nothing into its store and no cell checks it as a target; its fixtures are checked as a source above.",
  kimi_cli:
    "Kimi CLI is a Python program published on PyPI only, which this project's machines cannot reach, so no probe runs it. What txcript writes for it is held to Kimi CLI's published parsing rules (kosong's `Message` model and `Context.restore`, quoted in docs/formats/kimi-cli.md) by the package's own tests; its fixtures are checked as a source above.",
};

/** docs/compatibility.md from a full run. */
export function renderMatrix(
  run: Awaited<ReturnType<typeof runMatrix>>,
  when: string,
  /** The section of continue-matrix.ts (what the target's model receives), when it ran. */
  continued?: string,
): string {
  const lines = [
    "# Compatibility with the real programs",
    "",
    "<!-- generated by `pnpm interop` (packages/integration/src/compatibility.ts); do not edit by hand -->",
    "",
    `What txcript writes, checked with the real programs, offline, on ${when}: every target`,
    "harness's writer, on sessions from every source harness (each harness's fixtures,",
    "read into Common), against every pinned version of the program that reads it. A cell",
    "is `pass` when every session passed the check, else how many passed. CI runs the",
    "newest pinned version of each program on one session per source, and a test checks",
    "that those cells still read `pass` here and that this page lists exactly the",
    "pinned versions.",
    "",
  ];
  lines.push(...unprobedTargets);
  const targets = [...new Set(run.cells.map((cell) => cell.target))];
  for (const target of targets) {
    const cells = run.cells.filter((cell) => cell.target === target);
    const versions = [...new Set(cells.map((cell) => cell.version))];
    lines.push(`## into \`${target}\``, "", `Check: ${run.checks[target] ?? "(none)"}`, "");
    lines.push(`| source | ${versions.map((version) => `\`${version}\``).join(" | ")} |`);
    lines.push(`| --- | ${versions.map(() => "---").join(" | ")} |`);
    for (const source of [...new Set(cells.map((cell) => cell.source))]) {
      const row = versions.map((version) => {
        const cell = cells.find((item) => item.source === source && item.version === version);
        if (cell === undefined) return "—";
        return cell.passed === cell.total
          ? `pass (${cell.total})`
          : `**${cell.passed} of ${cell.total}**`;
      });
      lines.push(`| \`${source}\` | ${row.join(" | ")} |`);
    }
    const failures = cells.flatMap((cell) =>
      cell.failures.map((failure) => `- ${cell.version}, from \`${cell.source}\`: ${failure}`),
    );
    if (failures.length > 0) lines.push("", "Failures:", "", ...failures);
    lines.push("");
  }
  lines.push(
    "## Not checked",
    "",
    ...Object.entries(uncheckedTargets).map(([harness, why]) => `- \`${harness}\`: ${why}`),
    "",
  );
  if (continued !== undefined) lines.push(continued);
  if (run.skipped.length > 0)
    lines.push("## Not run", "", ...run.skipped.map((line) => `- ${line}`), "");
  return `${lines.join("\n")}`;
}
