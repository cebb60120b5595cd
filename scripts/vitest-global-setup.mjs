// Runs once before the whole test run (root vitest config): installs every
// pinned real program the interop tests check our output with (the table in
// scripts/real-programs.mjs) into its cache directory, so a fresh machine
// downloads each once instead of once per package and no two test files race
// an install. A failed install is not fatal here: the tests that need that
// program skip with the reason (`programSkipReason`).
import { ensureProgram, realPrograms } from "./real-programs.mjs";

export default function setup() {
  if (process.env.TXCRIPT_SKIP_REAL_PROGRAMS === "1") return;
  for (const name of Object.keys(realPrograms)) ensureProgram(name);
}
