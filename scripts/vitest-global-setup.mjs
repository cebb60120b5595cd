// Runs once before the whole test run (root vitest config): installs the
// pinned Claude Code that the @txcript/claude-code and @txcript/cli interop
// tests resume sessions with, into the one cache directory both read, so a
// fresh machine downloads it once instead of once per package. It is ~384 MB,
// so it is not a workspace dependency. A failed install is not fatal here:
// the interop tests then skip with the reason.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const claudeCodeVersion = "2.1.332";
const repoRoot = fileURLToPath(new URL("..", import.meta.url));
const cache = path.join(repoRoot, "node_modules/.cache/txcript-claude-code");

export default function setup() {
  if (process.env.TXCRIPT_CLAUDE_BIN) return;
  const bin = path.join(cache, "node_modules/.bin/claude");
  const installed =
    existsSync(bin) &&
    spawnSync(bin, ["--version"], { encoding: "utf8", timeout: 30_000 }).stdout?.includes(
      claudeCodeVersion,
    );
  if (installed) return;
  console.log(
    `installing @anthropic-ai/claude-code@${claudeCodeVersion} into ${path.relative(repoRoot, cache)} for the interop tests…`,
  );
  const install = spawnSync(
    "npm",
    [
      "install",
      "--no-audit",
      "--no-fund",
      "--no-save",
      "--loglevel=error",
      "--prefix",
      cache,
      `@anthropic-ai/claude-code@${claudeCodeVersion}`,
    ],
    { encoding: "utf8", timeout: 600_000, stdio: ["ignore", "inherit", "inherit"] },
  );
  if (install.status !== 0)
    console.log(
      `the Claude Code install failed (status ${install.status}); its interop tests will skip with the reason`,
    );
}
