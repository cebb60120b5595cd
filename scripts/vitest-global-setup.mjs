// Runs once before the whole test run (root vitest config):
// - fixes the property tests' seed: TXCRIPT_SEED when given, else (in CI)
//   one derived from the commit, printed so a red run replays exactly with
//   `TXCRIPT_SEED=<n> pnpm test`; a local run without either stays random;
// - installs every pinned real program the interop tests check our output
//   with (the table in scripts/real-programs.mjs) into its cache directory,
//   so a fresh machine downloads each once and no two test files race an
//   install. A failed install is not fatal: the tests that need that
//   program skip with the reason (`programSkipReason`);
// - installs Debian's Chromium for the session-page browser tests when it is
//   missing and this runs as root with apt (CI, a fresh machine); elsewhere
//   those tests skip with the reason.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { ensureProgram, realPrograms } from "./real-programs.mjs";

function commitSeed() {
  const head = spawnSync("git", ["rev-parse", "HEAD"], { encoding: "utf8" });
  if (head.status !== 0) return undefined;
  // The first 7 hex digits: a positive 28-bit integer, fast-check's seed range.
  return Number.parseInt(head.stdout.trim().slice(0, 7), 16);
}

export default function setup() {
  if (process.env.TXCRIPT_SEED === undefined && process.env.CI) {
    const seed = commitSeed();
    if (seed !== undefined) process.env.TXCRIPT_SEED = String(seed);
  }
  if (process.env.TXCRIPT_SEED !== undefined)
    console.log(
      `property tests run on seed ${process.env.TXCRIPT_SEED} (replay: TXCRIPT_SEED=${process.env.TXCRIPT_SEED} pnpm test)`,
    );
  if (process.env.TXCRIPT_SKIP_REAL_PROGRAMS === "1") return;
  for (const name of Object.keys(realPrograms)) ensureProgram(name);
  ensureChromium();
}

function ensureChromium() {
  if (
    existsSync("/usr/bin/chromium") ||
    process.getuid?.() !== 0 ||
    !existsSync("/usr/bin/apt-get")
  )
    return;
  console.log("installing Debian's chromium for the session-page browser tests…");
  const options = {
    stdio: ["ignore", "ignore", "inherit"],
    timeout: 900_000,
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
  };
  const update = spawnSync("apt-get", ["update", "-qq"], options);
  const install =
    update.status === 0
      ? spawnSync(
          "apt-get",
          ["install", "-y", "-qq", "--no-install-recommends", "chromium"],
          options,
        )
      : update;
  if (install.status !== 0)
    console.log(
      `the chromium install failed (status ${install.status}); the browser tests will skip`,
    );
}
