// The real programs Amp's interop checks run — the era-matched Amp CLI and
// @ccusage/amp, both pinned dev dependencies of this package — and how:
// offline, in a scratch home, each child bounded by a timeout. Shared by
// src/amp-interop.test.ts and the compatibility probe (probe.ts), so the
// two check the same thing. Not part of the package entry.
import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import type { Transcript, Usage } from "@txcript/core";

const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

function binOf(name: string, bin: string): string | undefined {
  const manifest = path.join(packageDir, "node_modules", name, "package.json");
  if (!existsSync(manifest)) return undefined;
  const { bin: bins } = JSON.parse(readFileSync(manifest, "utf8")) as {
    bin: string | Record<string, string>;
  };
  const relative = typeof bins === "string" ? bins : bins[bin];
  return relative === undefined ? undefined : path.join(path.dirname(manifest), relative);
}

/** `@sourcegraph/amp@0.0.1768018268-gcd18ba`'s `amp`, when installed. */
export const ampBin = binOf("@sourcegraph/amp", "amp");
/** `@ccusage/amp@18.0.11`'s `ccusage-amp`, when installed. */
export const ccusageBin = binOf("@ccusage/amp", "ccusage-amp");

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a program's JS entry with this Node, 60 s at most. */
export function run(bin: string, args: string[], env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [bin, ...args],
      { env, timeout: 60_000, maxBuffer: 64 << 20 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : -1;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** A scratch home for the programs: nothing inherited but PATH. */
export function scratchEnvironment(scratch: string, extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: path.join(scratch, "home"),
    XDG_CONFIG_HOME: path.join(scratch, "config"),
    XDG_CACHE_HOME: path.join(scratch, "cache"),
    NO_COLOR: "1",
    ...extra,
  };
}

/** The environment `amp threads markdown` runs offline in: a dead local URL, a fake key. */
export function ampOffline(scratch: string): NodeJS.ProcessEnv {
  return scratchEnvironment(scratch, {
    XDG_DATA_HOME: path.join(scratch, "data"),
    AMP_API_KEY: "offline",
    AMP_URL: "http://127.0.0.1:9",
  });
}

/** Why `amp threads markdown` output does not show `transcript` (thread `id`), or undefined when it does. */
export function markdownProblem(
  result: Run,
  id: string,
  transcript: Transcript,
): string | undefined {
  if (result.code !== 0)
    return `exit ${result.code}: ${(result.stderr || result.stdout).slice(0, 300)}`;
  if (!result.stdout.includes(`threadId: ${id}`)) return "no thread header";
  const shown = headingsFlat(result.stdout);
  for (const message of transcript.messages)
    for (const block of message.content)
      if (
        block.type === "text" &&
        block.text.trim() !== "" &&
        !shown.includes(headingsFlat(block.text))
      )
        return `missing ${message.role} text ${JSON.stringify(block.text.slice(0, 60))}`;
  return undefined;
}

/**
 * `amp threads markdown` nests each message under a heading of its own and
 * moves the message's own headings one level down (`# Tone` is shown as
 * `## Tone`; seen on the Copilot CLI system prompt): a text is compared with
 * every heading marker at a line start made one `#`.
 */
function headingsFlat(text: string): string {
  return text.replace(/^#{1,6} /gm, "# ");
}

/** The token totals ccusage-amp reports per thread, for a transcript's assistant usage. */
export function usageTotals(usages: readonly Usage[]) {
  return {
    inputTokens: usages.reduce((total, usage) => total + usage.inputTokens, 0),
    outputTokens: usages.reduce((total, usage) => total + usage.outputTokens, 0),
    cacheCreationTokens: usages.reduce((total, usage) => total + usage.cacheCreationInputTokens, 0),
    cacheReadTokens: usages.reduce((total, usage) => total + usage.cacheReadInputTokens, 0),
  };
}

export type UsageTotals = ReturnType<typeof usageTotals>;

/** ccusage-amp's `session --json` report: its sessions by thread id. */
export function ccusageSessions(result: Run): Map<string, UsageTotals> {
  // Its pricing-fetch failure (no network) is logged on stdout before the JSON.
  const json = result.stdout.slice(result.stdout.search(/^\{/m));
  const report = JSON.parse(json) as { sessions: ({ threadId: string } & UsageTotals)[] };
  return new Map(
    report.sessions.map((session) => [
      session.threadId,
      {
        inputTokens: session.inputTokens,
        outputTokens: session.outputTokens,
        cacheCreationTokens: session.cacheCreationTokens,
        cacheReadTokens: session.cacheReadTokens,
      },
    ]),
  );
}

/** A transcript's assistant usage, the part of it ccusage-amp counts. */
export function assistantUsages(transcript: Transcript): Usage[] {
  return transcript.messages.flatMap((message) =>
    message.role === "assistant" && message.usage !== undefined ? [message.usage] : [],
  );
}
