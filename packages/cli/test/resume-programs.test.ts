// Issue 33, item 3, against the pinned real programs: each harness's resume
// command with the hostile id `--version` is run (offline: a temporary home,
// fake keys, proxies and base URLs at 127.0.0.1:9), and the program must take
// the id as a session id, not print its version. The control passes the id as
// its own word after the flag (the old form), and the program prints its
// version: the check can fail. pi is checked through its own parser
// (packages/pi/src/pi-resume-argv.test.ts), Gemini CLI also with --yolo
// (packages/gemini-cli/src/gemini-cli-resume-argv.test.ts).
import { spawnSync } from "node:child_process";
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { programBin, realPrograms } from "../../../scripts/real-programs.mjs";
import { findHarness, loadRegistry } from "../src/harnesses.js";

// The whole registry: the CLI loads it on demand (harnesses.ts).
await loadRegistry();

const programs = realPrograms as Record<string, { version: string }>;

/** Per program: the harness, what makes it answer without a terminal, and the old (hostile) form. */
const cases = [
  {
    program: "claude",
    harness: "claude_code",
    extra: ["-p", "hi"],
    old: ["--resume", "--version"],
  },
  { program: "codex", harness: "codex", extra: [], old: ["resume", "--version"] },
  { program: "opencode", harness: "opencode", extra: [], old: ["--session", "--version"] },
  {
    program: "gemini",
    harness: "gemini_cli",
    extra: ["-p", "hi", "--skip-trust"],
    old: ["--resume", "--version"],
  },
  {
    program: "qwen",
    harness: "qwen_code",
    extra: ["--auth-type", "openai", "hi"],
    old: ["--resume", "--version"],
  },
];

let root: string;
beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), "txcript-resume-programs-"));
});
afterAll(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

async function run(bin: string, args: string[], label: string): Promise<string> {
  const home = path.join(root, label);
  await fs.mkdir(path.join(home, ".codex"), { recursive: true });
  const loopback = "http://127.0.0.1:9";
  const result = spawnSync(bin, args, {
    cwd: home,
    encoding: "utf8",
    timeout: 90_000,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: home,
      CLAUDE_CONFIG_DIR: path.join(home, ".claude"),
      CODEX_HOME: path.join(home, ".codex"),
      GEMINI_CLI_HOME: home,
      XDG_DATA_HOME: path.join(home, ".local", "share"),
      XDG_CONFIG_HOME: path.join(home, ".config"),
      XDG_CACHE_HOME: path.join(home, ".cache"),
      ANTHROPIC_API_KEY: "txcript-fake-key",
      ANTHROPIC_BASE_URL: loopback,
      OPENAI_API_KEY: "txcript-fake-key",
      OPENAI_BASE_URL: loopback,
      GEMINI_API_KEY: "txcript-fake-key",
      HTTPS_PROXY: loopback,
      HTTP_PROXY: loopback,
      https_proxy: loopback,
      http_proxy: loopback,
      OPENCODE_DISABLE_AUTOUPDATE: "1",
      NO_COLOR: "1",
      TERM: "dumb",
    },
  });
  return `${result.stdout ?? ""}\n${result.stderr ?? ""}`;
}

for (const { program, harness, extra, old } of cases) {
  const bin = programBin(program) as string | undefined;
  const version = programs[program]?.version ?? "?";
  if (bin === undefined) console.warn(`SKIPPED ${program} resume argv check: not installed`);
  describe.skipIf(bin === undefined)(`${program} ${version}: the resume command's id`, () => {
    it("--version as the id is a session id, not an option", async () => {
      const argv = findHarness(harness).resumeCommand?.("--version") ?? [];
      expect(argv[0]).toBe(program === "gemini" ? "gemini" : program);
      const output = await run(bin as string, [...argv.slice(1), ...extra], `${program}-ours`);
      expect(output).not.toContain(version);
    }, 120_000);
    it("the control: the id as its own word after the flag prints the version", async () => {
      const output = await run(bin as string, [...old, ...extra], `${program}-control`);
      expect(output).toContain(version);
    }, 120_000);
  });
}
