// Gemini CLI's own offline check of a saved session (`txcript continue
// --verify`): the recording is copied into a temporary GEMINI_CLI_HOME (with
// projects.json and its project directory's markers, at the same places),
// settings with retries off and API-key auth, a fake key and proxies at
// 127.0.0.1:9 where nothing listens. In the session's directory `gemini
// --list-sessions` must list its id, and `gemini -p continue --resume=<id>
// -o json --skip-trust` must fail on the connection (after loading it) with
// our session id in its report. Every run has a timeout.
import { promises as fs, mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import * as path from "node:path";
import type { ProgramCheck, SavedSession } from "@txcript/core";
import { nodeChildProcess } from "@txcript/core";

/** `$GEMINI_CLI_HOME/.gemini/settings.json` for an offline run: no retries, API-key auth, retention as asked. */
export function writeSettings(home: string, retention: boolean): void {
  mkdirSync(path.join(home, ".gemini"), { recursive: true });
  const settings = {
    general: {
      retryFetchErrors: false,
      maxAttempts: 1,
      sessionRetention: retention ? { enabled: true, maxAge: "30d" } : { enabled: false },
    },
    security: { auth: { selectedType: "gemini-api-key" } },
  };
  writeFileSync(path.join(home, ".gemini", "settings.json"), `${JSON.stringify(settings)}\n`);
}

export interface GeminiRun {
  status: number | null;
  stdout: string;
  stderr: string;
  output: string;
}

/** One bounded, offline run of `gemini` in `cwd`, with HOME and GEMINI_CLI_HOME at `home`. */
export function runGemini(
  bin: string,
  home: string,
  cwd: string,
  args: string[],
  tmpdir: string,
  timeoutMs = 90_000,
): GeminiRun {
  mkdirSync(tmpdir, { recursive: true });
  const result = nodeChildProcess().spawnSync(bin, args, {
    cwd,
    encoding: "utf8",
    timeout: timeoutMs,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: home,
      GEMINI_CLI_HOME: home,
      GEMINI_API_KEY: "txcript-fake-key",
      HTTPS_PROXY: "http://127.0.0.1:9",
      HTTP_PROXY: "http://127.0.0.1:9",
      https_proxy: "http://127.0.0.1:9",
      http_proxy: "http://127.0.0.1:9",
      TMPDIR: tmpdir,
      NO_COLOR: "1",
      TERM: "dumb",
    },
  });
  const stdout = result.stdout ?? "";
  const stderr = result.stderr ?? "";
  return { status: result.status, stdout, stderr, output: `${stdout}\n${stderr}` };
}

/** The `-o json` report Gemini prints on failure (on stderr), or undefined. */
export function jsonReport(
  run: GeminiRun,
): { session_id?: string; error?: { message?: string } } | undefined {
  for (const text of [run.stdout, run.stderr]) {
    const start = text.lastIndexOf('\n{\n  "session_id"');
    const from = start === -1 ? (text.startsWith('{\n  "session_id"') ? 0 : -1) : start + 1;
    if (from === -1) continue;
    try {
      return JSON.parse(text.slice(from));
    } catch {}
  }
  return undefined;
}

function lastLines(text: string): string {
  return text.trim().split("\n").slice(-2).join(" ").slice(0, 300);
}

/** A copy of the saved recording, projects.json and its project's marker files under `home/.gemini`. */
async function copyIntoHome(saved: SavedSession, storeRoot: string, home: string): Promise<void> {
  const gemini = path.join(home, ".gemini");
  const relative = path.relative(storeRoot, saved.path);
  if (relative.startsWith("..") || path.isAbsolute(relative))
    throw new Error(`${saved.path} is not inside the store ${storeRoot}`);
  const file = path.join(gemini, relative);
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.copyFile(saved.path, file);
  const projects = path.join(storeRoot, "projects.json");
  await fs.copyFile(projects, path.join(gemini, "projects.json")).catch(() => undefined);
  // tmp/<project>/chats/<file>: the project directory's own files (.project_root).
  const project = path.dirname(path.dirname(saved.path));
  for (const entry of await fs.readdir(project, { withFileTypes: true }).catch(() => []))
    if (entry.isFile())
      await fs.copyFile(
        path.join(project, entry.name),
        path.join(path.dirname(path.dirname(file)), entry.name),
      );
}

export const geminiCliProgramCheck: ProgramCheck = {
  program: "gemini",
  versionArgs: ["--version"],
  description:
    "`gemini --list-sessions` on a copy lists the session, and `gemini -p continue --resume=<id> -o json` (offline) loads it and fails on the connection with our id",
  async run(saved, { bin, storeRoot, cwd, timeoutMs }) {
    const root = await fs.mkdtemp(path.join(os.tmpdir(), "txcript-gemini-verify-"));
    try {
      const home = path.join(root, "home");
      await copyIntoHome(saved, storeRoot, home);
      writeSettings(home, false);
      const listed = runGemini(
        bin,
        home,
        cwd,
        ["--list-sessions"],
        path.join(root, "t1"),
        timeoutMs,
      );
      if (!listed.stdout.includes(`[${saved.id}]`))
        return { ok: false, detail: `not listed: ${lastLines(listed.output)}` };
      const resumed = runGemini(
        bin,
        home,
        cwd,
        ["-p", "continue", `--resume=${saved.id}`, "-o", "json", "--skip-trust"],
        path.join(root, "t2"),
        timeoutMs,
      );
      const report = jsonReport(resumed);
      if (
        resumed.status !== 1 ||
        report?.session_id !== saved.id ||
        !/fetch failed/.test(report?.error?.message ?? "")
      )
        return {
          ok: false,
          detail: `resume: exit ${resumed.status}: ${lastLines(resumed.output)}`,
        };
      return {
        ok: true,
        detail: "listed the session and resumed it (failing on the connection, as offline)",
      };
    } catch (error) {
      return { ok: false, detail: error instanceof Error ? error.message : String(error) };
    } finally {
      await fs.rm(root, { recursive: true, force: true });
    }
  },
};
