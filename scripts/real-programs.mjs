// The real programs the interop tests check our output with: one table of
// pinned versions, each installed on demand into its own cache directory
// under node_modules/.cache (reused across runs, never a workspace
// dependency: several are hundreds of MB), and the path of its bin. Tests
// import `programBin` and skip with `programSkipReason` when the registry
// could not serve a version. The root vitest global setup installs them all
// once before the run, so parallel test files never race an install.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = fileURLToPath(new URL("..", import.meta.url));
const cacheRoot = path.join(repoRoot, "node_modules/.cache");

/**
 * name → npm package, pinned version, the bin inside node_modules/.bin, and the
 * environment variable that points a test at another build instead.
 * @type {Record<string, {package: string, version: string, bin: string, env: string, cache?: string}>}
 */
export const realPrograms = {
  claude: {
    package: "@anthropic-ai/claude-code",
    version: "2.1.332",
    bin: "claude",
    env: "TXCRIPT_CLAUDE_BIN",
    cache: "txcript-claude-code",
  },
  codex: { package: "@openai/codex", version: "0.171.0", bin: "codex", env: "TXCRIPT_CODEX_BIN" },
  "codex-legacy": {
    package: "@openai/codex",
    version: "0.142.5",
    bin: "codex",
    env: "TXCRIPT_CODEX_LEGACY_BIN",
  },
  pi: {
    package: "@mariozechner/pi-coding-agent",
    version: "0.73.1",
    bin: "pi",
    env: "TXCRIPT_PI_BIN",
  },
  opencode: {
    package: "opencode-ai",
    version: "1.18.33",
    bin: "opencode",
    env: "TXCRIPT_OPENCODE_BIN",
  },
  "mcp-inspector": {
    package: "@modelcontextprotocol/inspector",
    version: "0.17.2",
    bin: "mcp-inspector",
    env: "TXCRIPT_MCP_INSPECTOR_BIN",
  },
  gemini: {
    package: "@google/gemini-cli",
    version: "0.61.0",
    bin: "gemini",
    env: "TXCRIPT_GEMINI_BIN",
  },
  copilot: {
    package: "@github/copilot",
    version: "1.0.102",
    bin: "copilot",
    env: "TXCRIPT_COPILOT_BIN",
  },
  qwen: {
    package: "@qwen-code/qwen-code",
    version: "0.24.4",
    bin: "qwen",
    env: "TXCRIPT_QWEN_BIN",
  },
};

/** The cache directory one program's pinned version installs into. */
export function programCache(name) {
  const program = realPrograms[name];
  if (!program) throw new Error(`unknown real program ${name}`);
  return path.join(cacheRoot, program.cache ?? `txcript-${name}-${program.version}`);
}

function marker(name) {
  return path.join(programCache(name), "txcript-install.json");
}

/** The bin of a program's pinned version, or undefined when it is not installed. */
export function programBin(name) {
  const program = realPrograms[name];
  if (!program) throw new Error(`unknown real program ${name}`);
  const override = process.env[program.env];
  if (override) return override;
  const bin = path.join(programCache(name), "node_modules/.bin", program.bin);
  if (!existsSync(bin)) return undefined;
  try {
    const recorded = JSON.parse(readFileSync(marker(name), "utf8"));
    if (recorded.status !== 0) return undefined;
  } catch {
    return undefined;
  }
  return bin;
}

/** Why a program's tests skip (undefined when its bin is there). */
export function programSkipReason(name) {
  if (programBin(name)) return undefined;
  const program = realPrograms[name];
  let detail = "it was not installed";
  try {
    const recorded = JSON.parse(readFileSync(marker(name), "utf8"));
    detail = `npm install exited ${recorded.status}: ${recorded.error ?? "see the setup log"}`;
  } catch {}
  return `${program.package}@${program.version} is not available (${detail}); the registry could not serve it`;
}

/** Install one program's pinned version unless it is there; never throws. */
export function ensureProgram(name, log = console.log) {
  const program = realPrograms[name];
  if (process.env[program.env]) return;
  if (programBin(name)) return;
  const cache = programCache(name);
  mkdirSync(cache, { recursive: true });
  log(`installing ${program.package}@${program.version} into ${path.relative(repoRoot, cache)}…`);
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
      `${program.package}@${program.version}`,
    ],
    { encoding: "utf8", timeout: 900_000, stdio: ["ignore", "pipe", "pipe"] },
  );
  const status = install.status ?? -1;
  const error =
    status === 0 ? undefined : (install.stderr || String(install.error ?? "")).trim().slice(-400);
  writeFileSync(marker(name), `${JSON.stringify({ status, error })}\n`);
  if (status !== 0)
    log(`the ${program.package} install failed (status ${status}); its tests will skip: ${error}`);
}
