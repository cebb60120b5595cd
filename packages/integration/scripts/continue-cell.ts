// One or more cells of the continue matrix, for reproducing a failure:
//   packages/integration/node_modules/.bin/tsx packages/integration/scripts/continue-cell.ts <session> <target> [program]
// <session> is a substring of a session name as docs/compatibility.md shows
// it (`real/…` or `fixtures/…`); <target> a harness id (claude_code, codex,
// pi, gemini_cli, opencode); [program] a name in scripts/real-programs.mjs
// (default: the target's newest). Build first (`pnpm build`). Prints each
// cell's verdict and every problem; exits 1 when one fails.
import { checkContinue, targets } from "../src/continue-check.js";
import { allSessions } from "../src/continue-matrix.js";

const [name, harness, program] = process.argv.slice(2);
const target = targets.find((item) => item.harness === harness);
const sessions = allSessions().filter((input) => name !== undefined && input.name.includes(name));
if (target === undefined || sessions.length === 0) {
  console.error(
    `usage: continue-cell.ts <session substring> <${targets.map((item) => item.harness).join("|")}> [program]`,
  );
  process.exit(2);
}
let failed = false;
for (const input of sessions) {
  const result = await checkContinue(input, target, program ?? (target.programs[0] as string));
  failed ||= !result.ok;
  console.log(
    `${result.ok ? "pass" : "FAIL"} ${input.name} → ${target.harness}: continue exit ${result.continueStatus} (${result.continueMs} ms), program exit ${result.programStatus} (${result.programMs} ms)`,
  );
  console.log(`  ${result.command}`);
  for (const problem of result.problems) console.log(`  - ${problem}`);
}
process.exit(failed ? 1 : 0);
