// Codex's own offline check of a saved rollout (`txcript continue --verify`,
// and the compatibility probe): the rollout is copied into a temporary
// CODEX_HOME at the same place under sessions/, and `codex exec
// --skip-git-repo-check resume <id> hi` runs on the copy against a Responses
// API stub on 127.0.0.1 that records each request and refuses it. Codex
// found and opened the session when it prints `session id: <id>` and the
// turn it sends carries the thread id as its prompt cache key. Every child
// runs under a timeout with a fake key; the stub serves a bounded number of
// requests and closes itself.
import { promises as fs } from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import * as path from "node:path";
import type { ProgramCheck, ProgramCheckResult, SavedSession } from "@txcript/core";
import { nodeChildProcess, nodeHttp } from "@txcript/core";

/** One request Codex sent to the stub, with its JSON body when it had one. */
export interface StubRequest {
  method: string;
  url: string;
  body?: { input?: Record<string, unknown>[]; model?: string; prompt_cache_key?: string };
}

/**
 * A Responses API stub on 127.0.0.1: websocket upgrades get 426 (Codex then
 * posts over HTTP at once), posts are recorded and refused with 400, so a
 * resumed session fails fast after sending its history. It serves at most
 * `limit` requests and closes itself after `lifetimeMs`.
 */
export async function startStub(limit = 2000, lifetimeMs = 600_000) {
  const requests: StubRequest[] = [];
  const server = nodeHttp().createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const entry: StubRequest = { method: request.method ?? "", url: request.url ?? "" };
      if (chunks.length > 0)
        try {
          entry.body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
        } catch {
          entry.body = {};
        }
      requests.push(entry);
      if (request.headers.upgrade !== undefined) response.writeHead(426);
      else response.writeHead(400, { "content-type": "application/json" });
      response.end(
        JSON.stringify({ error: { message: "txcript stub", type: "invalid_request_error" } }),
      );
      if (requests.length >= limit) server.close();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const timer = setTimeout(() => server.close(), lifetimeMs);
  timer.unref();
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        clearTimeout(timer);
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The environment every Codex child gets: a temporary home, a fake key, nothing else of ours. */
export function codexEnvironment(home: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? "",
    HOME: home,
    CODEX_HOME: home,
    OPENAI_API_KEY: "sk-fake",
    RUST_LOG: "error",
  };
}

export interface RunOutcome {
  status: number | null;
  output: string;
}

/** Run `bin args` in `cwd` with the Codex environment, killed after `timeoutMs`. */
export function runCodex(
  bin: string,
  args: string[],
  home: string,
  cwd: string,
  timeoutMs = 30_000,
): Promise<RunOutcome> {
  return new Promise((resolve) => {
    const child = nodeChildProcess().spawn(bin, args, {
      cwd,
      env: codexEnvironment(home),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    const keep = (chunk: Buffer) => {
      if (output.length < 200_000) output += chunk.toString("utf8");
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("close", (status) => {
      clearTimeout(timer);
      resolve({ status, output });
    });
    child.on("error", (error) => {
      clearTimeout(timer);
      resolve({ status: null, output: `${output}${String(error)}` });
    });
  });
}

/** `codex exec --skip-git-repo-check resume <id> hi` against the stub. */
export function execResume(
  bin: string,
  home: string,
  cwd: string,
  id: string,
  stubUrl: string,
  timeoutMs = 30_000,
): Promise<RunOutcome> {
  return runCodex(
    bin,
    [
      "exec",
      "-c",
      `openai_base_url=${JSON.stringify(stubUrl)}`,
      "--skip-git-repo-check",
      "resume",
      id,
      "hi",
    ],
    home,
    cwd,
    timeoutMs,
  );
}

function lastLines(text: string): string {
  return text.trim().split("\n").slice(-2).join(" ").slice(0, 300);
}

/**
 * Run the resume check on a Codex home that already holds the session (a
 * copy: Codex appends the turn it tried to the rollout).
 */
export async function resumeCheck(
  bin: string,
  home: string,
  cwd: string,
  id: string,
  timeoutMs = 30_000,
): Promise<ProgramCheckResult> {
  const stub = await startStub(20, timeoutMs + 5_000);
  try {
    const outcome = await execResume(bin, home, cwd, id, stub.url, timeoutMs);
    const opened = outcome.output.includes(`session id: ${id}`);
    const sent = stub.requests.some(
      (entry) => entry.method === "POST" && entry.body?.prompt_cache_key === id,
    );
    return {
      ok: opened && sent,
      detail:
        opened && sent
          ? "opened the session and sent its turn to the stub"
          : `${opened ? "opened, but no request reached the stub" : "not opened"}: ${lastLines(outcome.output)}`,
    };
  } finally {
    await stub.close();
  }
}

/** A copy of the saved rollout (and its session_index entries) in a fresh Codex home under `root`. */
async function copyIntoHome(saved: SavedSession, storeRoot: string, root: string): Promise<string> {
  const home = path.join(root, "codex-home");
  const relative = path.relative(storeRoot, saved.path);
  const inside =
    !relative.startsWith("..") && !path.isAbsolute(relative)
      ? relative
      : path.join("sessions", path.basename(saved.path));
  await fs.mkdir(path.dirname(path.join(home, inside)), { recursive: true });
  await fs.cp(saved.path, path.join(home, inside), { preserveTimestamps: true });
  const index = await fs
    .readFile(path.join(storeRoot, "session_index.jsonl"), "utf8")
    .catch(() => "");
  const entries = index.split("\n").filter((line) => line.includes(saved.id));
  if (entries.length > 0)
    await fs.writeFile(path.join(home, "session_index.jsonl"), `${entries.join("\n")}\n`);
  return home;
}

export const codexProgramCheck: ProgramCheck = {
  program: "codex",
  versionArgs: ["--version"],
  description:
    "`codex exec --skip-git-repo-check resume <id> hi` on a copy (API at a 127.0.0.1 stub) prints `session id: <id>` and sends the turn",
  async run(saved, { bin, storeRoot, cwd, timeoutMs }) {
    const root = await fs.mkdtemp(path.join(os.tmpdir(), "txcript-codex-verify-"));
    try {
      const home = await copyIntoHome(saved, storeRoot, root);
      return await resumeCheck(bin, home, cwd, saved.id, timeoutMs);
    } catch (error) {
      return { ok: false, detail: error instanceof Error ? error.message : String(error) };
    } finally {
      await fs.rm(root, { recursive: true, force: true });
    }
  },
};
