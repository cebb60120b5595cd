// Runs rows of the continue matrix (every pinned program of every target) and
// rewrites docs/compatibility.md's "what the target's model receives" section
// from the cells kept in packages/integration/continue-cells.json, so a few
// rows can be run again after a fix without running all of them:
//   packages/integration/node_modules/.bin/tsx packages/integration/scripts/continue-sweep.ts --real
//   packages/integration/node_modules/.bin/tsx packages/integration/scripts/continue-sweep.ts --ci
//   packages/integration/node_modules/.bin/tsx packages/integration/scripts/continue-sweep.ts <session substring> …
//   … --target qwen_code --target copilot_cli   (only those targets' columns run again)
// --real runs every real session, --ci the rows CI checks against the page
// (ciSessions), and substrings the sessions whose name holds one of them.
// A cell run again replaces the kept one; each cell keeps the commit it ran at.
// Build first (`pnpm build`).
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { targets } from "../src/continue-check.js";
import {
  allSessions,
  type ContinueCell,
  ciSessions,
  continueHeading,
  renderContinueSection,
  runContinueMatrix,
} from "../src/continue-matrix.js";
import { repoRoot } from "../src/workspace.js";

type KeptCell = ContinueCell & { commit: string };

const page = path.join(repoRoot, "docs/compatibility.md");
const store = path.join(repoRoot, "packages/integration/continue-cells.json");
const argv = process.argv.slice(2);
const only = argv.flatMap((arg, index) => (argv[index - 1] === "--target" ? [arg] : []));
const args = argv.filter((arg, index) => arg !== "--target" && argv[index - 1] !== "--target");
const unknown = only.filter((harness) => !targets.some((target) => target.harness === harness));
if (unknown.length > 0) {
  console.error(
    `unknown --target ${unknown.join(", ")}: one of ${targets.map((t) => t.harness).join(", ")}`,
  );
  process.exit(2);
}
const sessions = allSessions().filter((input) => {
  if (args.includes("--real") && input.name.startsWith("real/")) return true;
  if (args.includes("--ci") && ciSessions.includes(input.name)) return true;
  return args.some((arg) => !arg.startsWith("--") && input.name.includes(arg));
});
if (sessions.length === 0) {
  console.error("usage: continue-sweep.ts --real | --ci | <session substring> …");
  process.exit(2);
}
const commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: repoRoot })
  .toString()
  .trim();
const kept: KeptCell[] = existsSync(store) ? JSON.parse(readFileSync(store, "utf8")) : [];
const run = await runContinueMatrix({
  sessions,
  allVersions: true,
  ...(only.length === 0 ? {} : { only: targets.filter((target) => only.includes(target.harness)) }),
  onCell: (cell) =>
    console.log(
      `${cell.ok ? "pass" : "FAIL"} ${cell.session} → ${cell.target} (${cell.version}): ${cell.problems.length} problem(s)`,
    ),
});
const key = (cell: Pick<ContinueCell, "session" | "program">) =>
  `${cell.session}\u0000${cell.program}`;
const fresh = new Map(run.cells.map((cell) => [key(cell), { ...cell, commit }]));
const order = allSessions().map((input) => input.name);
const cells = [...kept.filter((cell) => !fresh.has(key(cell))), ...fresh.values()].sort(
  (a, b) => order.indexOf(a.session) - order.indexOf(b.session),
);
writeFileSync(store, `${JSON.stringify(cells, null, 2)}\n`);
const commits = [...new Set(cells.map((cell) => cell.commit))];
const section = renderContinueSection(
  { cells, skipped: run.skipped },
  `${new Date().toISOString().slice(0, 10)}, at commit${commits.length > 1 ? "s" : ""} ${commits.join(", ")} (each cell's in packages/integration/continue-cells.json)`,
);
const text = readFileSync(page, "utf8");
const [before, after = ""] = text.split(continueHeading);
const rest = after.includes("\n## ") ? after.slice(after.indexOf("\n## ") + 1) : "";
writeFileSync(page, `${before}${section}${rest === "" ? "" : `\n${rest}`}`);
const failed = run.cells.filter((cell) => !cell.ok).length;
console.log(`${run.cells.length - failed} of ${run.cells.length} cells run pass; page rewritten`);
