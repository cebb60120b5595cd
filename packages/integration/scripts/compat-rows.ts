// Runs some rows of the writer matrix on docs/compatibility.md again (every
// pinned program of every target, every fixture of the sources named) and
// puts their cells into the page's tables, leaving the other rows as they
// were: what a new harness needs without running all of `pnpm interop`.
//   packages/integration/node_modules/.bin/tsx packages/integration/scripts/compat-rows.ts --source copilot_cli --target qwen_code
// --source H: H's fixtures into every target; --target H: every source's
// fixtures into H. Both may repeat; with --both, only the cells of a named
// source into a named target. Build first (`pnpm build`).
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { harnessDefinitions } from "@txcript/harnesses";
import { type Cell, probes, runCell, sources, versionOf } from "../src/compatibility.js";
import { repoRoot } from "../src/workspace.js";

const page = path.join(repoRoot, "docs/compatibility.md");
const args = process.argv.slice(2);
const named = (flag: string) =>
  args.flatMap((arg, index) => (args[index - 1] === flag ? [arg] : []));
const wantedSources = new Set(named("--source"));
const wantedTargets = new Set(named("--target"));
if (wantedSources.size + wantedTargets.size === 0) {
  console.error("usage: compat-rows.ts [--source H]… [--target H]…");
  process.exit(2);
}

const cells: Cell[] = [];
const inputs = sources(Number.POSITIVE_INFINITY);
for (const { target, probe } of await probes()) {
  for (const program of probe.programs) {
    const version = versionOf(program, probe);
    for (const source of new Set(inputs.map((input) => input.source))) {
      const wanted = args.includes("--both")
        ? wantedSources.has(source) && wantedTargets.has(target)
        : wantedSources.has(source) || wantedTargets.has(target);
      if (!wanted) continue;
      const cell = await runCell(target, probe, program, source, inputs);
      console.log(`${target} × ${version} from ${source}: ${cell.passed}/${cell.total}`);
      cells.push(cell);
    }
  }
}

// Each section's table: its rows by source, the new cells replacing or adding theirs, in registry order.
const order = harnessDefinitions.map((harness) => harness.id);
let text = readFileSync(page, "utf8");
for (const target of new Set(cells.map((cell) => cell.target))) {
  const heading = `## into \`${target}\``;
  const start = text.indexOf(heading);
  if (start === -1) throw new Error(`${page} has no section ${heading}: run pnpm interop`);
  const end = text.indexOf("\n## ", start + heading.length);
  const section = text.slice(start, end === -1 ? undefined : end + 1);
  const lines = section.split("\n");
  const header = lines.findIndex((line) => line.startsWith("| source | "));
  const versions = (lines[header] as string)
    .slice("| source | ".length, -" |".length)
    .split(" | ")
    .map((cell) => cell.replaceAll("`", ""));
  let last = header + 2;
  const rows = new Map<string, string>();
  while (lines[last]?.startsWith("| `")) {
    const row = lines[last] as string;
    rows.set(/^\| `([^`]+)`/.exec(row)?.[1] as string, row);
    last += 1;
  }
  const mine = cells.filter((cell) => cell.target === target);
  for (const source of new Set(mine.map((cell) => cell.source))) {
    const row = versions.map((version) => {
      const cell = mine.find((item) => item.source === source && item.version === version);
      if (cell === undefined) return "—";
      return cell.passed === cell.total
        ? `pass (${cell.total})`
        : `**${cell.passed} of ${cell.total}**`;
    });
    rows.set(source, `| \`${source}\` | ${row.join(" | ")} |`);
  }
  const sorted = [...rows.entries()]
    .sort(([a], [b]) => order.indexOf(a) - order.indexOf(b))
    .map(([, row]) => row);
  // Failures of the rows run again replace theirs; the others' stay.
  const rest = lines.slice(last);
  const ran = new Set(mine.map((cell) => cell.source));
  const kept = rest.filter((line) => {
    const from = /^- [^,]+, from `([^`]+)`:/.exec(line)?.[1];
    return from === undefined || !ran.has(from);
  });
  const failures = mine.flatMap((cell) =>
    cell.failures.map((failure) => `- ${cell.version}, from \`${cell.source}\`: ${failure}`),
  );
  // A Failures block whose every entry was run again and passed goes with them.
  if (failures.length === 0 && !kept.some((line) => line.startsWith("- "))) {
    const at = kept.indexOf("Failures:");
    if (at !== -1) kept.splice(Math.max(0, at - 1), 3);
  }
  const hasHeading = kept.some((line) => line === "Failures:");
  const tail =
    failures.length === 0
      ? kept
      : hasHeading
        ? kept.flatMap((line) => (line === "Failures:" ? [line, "", ...failures] : [line]))
        : ["", "Failures:", "", ...failures, ...kept];
  const rebuilt = [...lines.slice(0, header + 2), ...sorted, ...tail].join("\n");
  text = text.slice(0, start) + rebuilt + (end === -1 ? "" : text.slice(end + 1));
}
writeFileSync(page, text);
console.log(`rewrote the rows of ${cells.length} cells in ${page}`);
