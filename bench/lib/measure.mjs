// Timing helpers: summaries (median, min, max) and wall-clock timing of
// child processes. Baselines and subjects are interleaved run by run so a
// noisy neighbour slows both alike and the ratio stays meaningful.
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

export function summarize(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const median =
    sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  return { median, min: sorted[0], max: sorted[sorted.length - 1], runs: sorted.length };
}

/**
 * Ratio of interleaved runs: each round's subject ÷ the same round's
 * baseline, summarized (median, min, max). Pairing by round keeps a burst of
 * load on the shared machine from landing on one side only.
 */
export function pairedRatio(subject, baseline) {
  const ratios = subject.map((value, index) => value / baseline[index]);
  const { median, min, max } = summarize(ratios);
  return { median, min, max };
}

/** Runs a command to completion; resolves with wall time in ms, exit code and output. */
export function timeCommand(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"], ...options });
    const stdout = [];
    const stderr = [];
    child.stdout.on("data", (chunk) => stdout.push(chunk));
    child.stderr.on("data", (chunk) => stderr.push(chunk));
    child.on("error", reject);
    child.on("close", (code) => {
      resolve({
        ms: performance.now() - started,
        code,
        stdout: Buffer.concat(stdout).toString("utf8"),
        stderr: Buffer.concat(stderr).toString("utf8"),
      });
    });
  });
}

/** Several interleaved rounds of named commands; returns each one's times. */
export async function interleave(commands, rounds, { warmup = 1 } = {}) {
  const times = Object.fromEntries(Object.keys(commands).map((name) => [name, []]));
  const last = {};
  for (let round = -warmup; round < rounds; round++) {
    for (const [name, { command, args, options }] of Object.entries(commands)) {
      const result = await timeCommand(command, args, options);
      last[name] = result;
      if (round >= 0) times[name].push(result.ms);
    }
  }
  return { times, last };
}

export const gnuTime = "/usr/bin/time";
export const hasGnuTime = existsSync(gnuTime);

/** Peak resident set size (bytes) of a command, from GNU time's `-v` report. */
export async function peakRss(command, args, options = {}) {
  if (!hasGnuTime) return undefined;
  const result = await timeCommand(gnuTime, ["-v", command, ...args], options);
  const match = /Maximum resident set size \(kbytes\): (\d+)/.exec(result.stderr);
  return {
    bytes: match ? Number(match[1]) * 1024 : undefined,
    code: result.code,
    ms: result.ms,
    stderr: result.stderr,
    stdout: result.stdout,
  };
}

export function cpuModel() {
  const result = spawnSync("sh", ["-c", "grep -m1 'model name' /proc/cpuinfo | cut -d: -f2"], {
    encoding: "utf8",
  });
  return result.stdout.trim() || undefined;
}
