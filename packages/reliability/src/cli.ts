// Running the built `txcript` bin from these tests: a snapshot copy of
// packages/cli/dist (other engineers rebuild it while tests run), a temporary
// home per test with every store inside it, and helpers that prove what was
// and was not written. Build first with `pnpm build` at the root.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, promises as fs } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { repoRoot } from "./parsers.js";

const distDirectory = path.join(repoRoot, "packages/cli/dist");

let snapshot: Promise<string> | undefined;

/** The path of a private copy of the built bin (waits up to a minute for a rebuild in progress). */
export function builtBin(): Promise<string> {
  snapshot ??= (async () => {
    for (let attempt = 0; attempt < 60; attempt += 1) {
      if (existsSync(path.join(distDirectory, "txcript.js"))) {
        const copy = await fs.mkdtemp(path.join(tmpdir(), "txcript-bin-"));
        try {
          await fs.cp(distDirectory, copy, { recursive: true });
          if (existsSync(path.join(copy, "txcript.js"))) return path.join(copy, "txcript.js");
        } catch {
          // a rebuild removed files mid-copy: try again
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    throw new Error(
      `${distDirectory}/txcript.js is missing: run \`pnpm build\` at the repo root first`,
    );
  })();
  return snapshot;
}

export interface Home {
  root: string;
  work: string;
  ampThreads: string;
  claudeProjects: string;
  env: Record<string, string>;
}

export async function makeHome(): Promise<Home> {
  const root = await fs.mkdtemp(path.join(tmpdir(), "txcript-reliability-"));
  const home = path.join(root, "home");
  const dataHome = path.join(root, "data");
  const ampThreads = path.join(dataHome, "amp", "threads");
  const claudeConfig = path.join(home, ".claude");
  const work = path.join(root, "work");
  for (const directory of [home, ampThreads, path.join(claudeConfig, "projects"), work])
    await fs.mkdir(directory, { recursive: true });
  return {
    root,
    work,
    ampThreads,
    claudeProjects: path.join(claudeConfig, "projects"),
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: home,
      XDG_DATA_HOME: dataHome,
      AMP_THREADS_DIR: ampThreads,
      CLAUDE_CONFIG_DIR: claudeConfig,
    },
  };
}

export async function removeHome(home: Home): Promise<void> {
  await fs.rm(home.root, { recursive: true, force: true });
}

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Run the bin in the home's work directory with the home's environment only. */
export async function txcript(
  home: Home,
  args: string[],
  options: { stdin?: string; env?: Record<string, string>; timeoutMs?: number } = {},
): Promise<RunResult> {
  const bin = await builtBin();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], {
      cwd: home.work,
      env: { ...home.env, ...options.env },
      stdio: ["pipe", "pipe", "pipe"],
      timeout: options.timeoutMs ?? 120_000,
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
    child.on("error", reject);
    child.on("close", (code, signal) =>
      resolve({
        code,
        signal,
        stdout: Buffer.concat(stdout).toString("utf8"),
        stderr: Buffer.concat(stderr).toString("utf8"),
      }),
    );
    child.stdin.on("error", () => undefined);
    child.stdin.end(options.stdin ?? "");
  });
}

/** Every file under a directory (relative, sorted). */
export async function listFiles(directory: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (current: string) => {
    for (const entry of await fs.readdir(current, { withFileTypes: true }).catch(() => [])) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) await walk(full);
      else found.push(path.relative(directory, full));
    }
  };
  await walk(directory);
  return found.sort();
}

export async function sha256(file: string): Promise<string> {
  return createHash("sha256")
    .update(await fs.readFile(file))
    .digest("hex");
}
