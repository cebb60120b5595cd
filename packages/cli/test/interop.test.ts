// Real programs check what `txcript continue --with claude_code` writes,
// offline: Claude Code itself (`claude -p --resume <id> hi` must fail on the
// connection, never with "No conversation found") and ccusage (its token
// totals must equal the Common transcript's). Inputs: the real Amp export
// in ../shared/real (skipped visibly when absent) and a bundled Amp fixture.
import { spawnSync } from "node:child_process";
import { existsSync, promises as fs } from "node:fs";
import * as path from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  assertBuilt,
  fixturesRoot,
  type Home,
  makeHome,
  packageRoot,
  realRoot,
  removeHome,
  repoRoot,
  txcript,
} from "./e2e.js";

/**
 * The pinned Claude Code, installed once per machine into this cache by the
 * root vitest global setup (scripts/vitest-global-setup.mjs), which the
 * @txcript/claude-code interop tests share.
 */
const claudeCodeVersion = "2.1.332";
const sharedCache = path.join(repoRoot, "node_modules/.cache/txcript-claude-code");

/** The pinned `claude`: TXCRIPT_CLAUDE_BIN, or the shared cached install; else why not. */
function ensureClaude(): { bin: string } | { skip: string } {
  if (process.env.TXCRIPT_CLAUDE_BIN) return { bin: process.env.TXCRIPT_CLAUDE_BIN };
  const bin = path.join(sharedCache, "node_modules/.bin/claude");
  const probe = existsSync(bin)
    ? spawnSync(bin, ["--version"], { encoding: "utf8", timeout: 30_000 })
    : undefined;
  if (probe?.status === 0 && probe.stdout.includes(`${claudeCodeVersion} (Claude Code)`))
    return { bin };
  return {
    skip: `@anthropic-ai/claude-code@${claudeCodeVersion} is not installed in ${sharedCache} (the root test run's global setup installs it; its output says why it could not)`,
  };
}

function resumeOffline(bin: string, configDirectory: string, cwd: string, id: string) {
  const run = spawnSync(bin, ["-p", "--resume", id, "hi"], {
    cwd,
    encoding: "utf8",
    timeout: 90_000,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: configDirectory,
      CLAUDE_CONFIG_DIR: configDirectory,
      ANTHROPIC_API_KEY: "x",
      ANTHROPIC_BASE_URL: "http://127.0.0.1:9",
      CLAUDE_CODE_MAX_RETRIES: "0",
      DISABLE_AUTOUPDATER: "1",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    },
  });
  return { status: run.status, output: `${run.stdout ?? ""}${run.stderr ?? ""}${run.error ?? ""}` };
}

interface Totals {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheCreationTokens: number;
}

function commonTotals(document: {
  messages: { role: string; usage?: Record<string, number> }[];
}): Totals {
  const totals = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheCreationTokens: 0 };
  for (const message of document.messages) {
    if (message.role !== "assistant" || !message.usage) continue;
    totals.inputTokens += message.usage.inputTokens ?? 0;
    totals.outputTokens += message.usage.outputTokens ?? 0;
    totals.cacheReadTokens += message.usage.cacheReadInputTokens ?? 0;
    totals.cacheCreationTokens += message.usage.cacheCreationInputTokens ?? 0;
  }
  return totals;
}

let home: Home;
let claude: { bin: string } | { skip: string };
beforeAll(() => {
  assertBuilt();
  claude = ensureClaude();
  if ("skip" in claude) console.warn(`SKIPPED claude --resume checks: ${claude.skip}`);
}, 400_000);
beforeEach(async () => {
  home = await makeHome();
});
afterEach(async () => {
  await removeHome(home);
});

const realExport = path.join(realRoot, "amp-export-convo.json");
if (!existsSync(realExport))
  console.warn(`SKIPPED: ${realExport} is absent; the real-export interop checks do not run`);
const inputs = [
  ...(existsSync(realExport) ? [{ name: "the real Amp export", file: realExport }] : []),
  ...["legacy-thread.json"]
    .map((name) => path.join(fixturesRoot, "amp", name))
    .filter((file) => existsSync(file))
    .map((file) => ({ name: `fixtures/amp/${path.basename(file)}`, file })),
];

describe.each(inputs)("continue $name --with claude_code --no-resume", ({ file }) => {
  async function continueIt(): Promise<{ id: string; configCopy: string }> {
    const result = await txcript(home, ["continue", file, "--with", "claude_code", "--no-resume"]);
    expect(result.code, result.stderr).toBe(0);
    const id = result.stdout.trim().split(/[ =]/).at(-1) as string;
    // Claude Code appends to the session it resumes: probe a copy.
    const configCopy = path.join(home.root, "claude-copy");
    await fs.cp(home.claudeConfig, configCopy, { recursive: true });
    return { id, configCopy };
  }

  it("is found and loaded by Claude Code (fails only on the connection)", async (context) => {
    if ("skip" in claude) return context.skip(claude.skip);
    const { id, configCopy } = await continueIt();
    const resumed = resumeOffline(claude.bin, configCopy, home.work, id);
    expect(resumed.output).not.toMatch(/No conversation found/i);
    expect(resumed.status).not.toBe(0);
    expect(resumed.output).toMatch(/connection|ECONNREFUSED|fetch failed/i);
    // The control: an id that was never written is not found, so the probe can fail.
    const control = resumeOffline(
      claude.bin,
      configCopy,
      home.work,
      "00000000-0000-4000-8000-000000000000",
    );
    expect(control.output).toMatch(/No conversation found with session ID/);
  });

  it("has the Common transcript's token totals in ccusage", async () => {
    const { id } = await continueIt();
    const ccusage = spawnSync(
      path.join(packageRoot, "node_modules/.bin/ccusage"),
      ["claude", "session", "--json", "--offline"],
      {
        encoding: "utf8",
        timeout: 120_000,
        env: {
          PATH: process.env.PATH ?? "",
          HOME: home.home,
          CLAUDE_CONFIG_DIR: home.claudeConfig,
          LOG_LEVEL: "0",
        },
      },
    );
    expect(ccusage.status, ccusage.stderr).toBe(0);
    const report = JSON.parse(ccusage.stdout) as { sessions: (Totals & { sessionId: string })[] };
    const session = report.sessions.find((entry) => entry.sessionId === id);
    expect(session, ccusage.stdout).toBeDefined();
    const source = await txcript(home, ["export", file]);
    const expected = commonTotals(JSON.parse(source.stdout));
    expect(expected.outputTokens + expected.cacheReadTokens).toBeGreaterThan(0);
    expect({
      inputTokens: session?.inputTokens,
      outputTokens: session?.outputTokens,
      cacheReadTokens: session?.cacheReadTokens,
      cacheCreationTokens: session?.cacheCreationTokens,
    }).toEqual(expected);
  });
});
