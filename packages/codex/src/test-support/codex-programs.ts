// Test support for the real-Codex checks (not shipped): the sessions they
// write (every fixture's Common document, the real captures, generated
// transcripts), a loopback stub of the Responses API that records what Codex
// sends and refuses it, `codex exec resume` against it, and a small
// `codex app-server` JSON-RPC client. Every child runs under a timeout.
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { commonCodec, type Transcript } from "@txcript/core";
import { transcriptArbitrary } from "@txcript/core/arbitraries";
import fc from "fast-check";
import { codexCodec } from "../codex-codec.js";

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");
export const realDirectory = path.resolve(repoRoot, "../shared/real");

export interface NamedTranscript {
  name: string;
  transcript: Transcript;
}

/** Every `<scenario>.common.json` under fixtures/<harness>/, for every harness there. */
export function fixtureTranscripts(): NamedTranscript[] {
  const out: NamedTranscript[] = [];
  const root = path.join(repoRoot, "fixtures");
  for (const harness of readdirSync(root).sort()) {
    const directory = path.join(root, harness);
    if (!existsSync(directory) || harness === "hostile") continue;
    let names: string[];
    try {
      names = readdirSync(directory).sort();
    } catch {
      continue;
    }
    for (const name of names) {
      if (!name.endsWith(".common.json")) continue;
      const text = readFileSync(path.join(directory, name), "utf8");
      out.push({
        name: `${harness}/${name}`,
        transcript: commonCodec.toCommon(commonCodec.parse(text)),
      });
    }
  }
  return out;
}

/** The real Codex rollouts, read through this codec (none when ../shared is absent). */
export function realCodexTranscripts(): NamedTranscript[] {
  const directory = path.join(realDirectory, "codex");
  if (!existsSync(directory)) return [];
  return readdirSync(directory)
    .filter((name) => name.endsWith(".jsonl"))
    .sort()
    .map((name) => ({
      name: `real/codex/${name}`,
      transcript: codexCodec.toCommon(
        codexCodec.parse(readFileSync(path.join(directory, name), "utf8")),
      ),
    }));
}

/** A codec of another harness, as far as these tests use it. */
interface ForeignCodec {
  parse(text: string): unknown;
  toCommon(native: unknown): Transcript;
}

/**
 * Another harness package, imported by a name the type checker does not
 * follow: its source is typed by its own package, and a change there in
 * progress must not fail this one's typecheck.
 */
function importUntyped(name: string): Promise<unknown> {
  return import(name);
}

/** The real Claude Code sessions and the Amp export, through their own codecs. */
export async function realForeignTranscripts(): Promise<NamedTranscript[]> {
  const out: NamedTranscript[] = [];
  const claudeDirectory = path.join(realDirectory, "claude-code");
  if (existsSync(claudeDirectory)) {
    const { claudeCodeCodec } = (await importUntyped("@txcript/claude-code")) as {
      claudeCodeCodec: ForeignCodec;
    };
    for (const name of readdirSync(claudeDirectory)
      .filter((entry) => entry.endsWith(".jsonl"))
      .sort())
      out.push({
        name: `real/claude-code/${name}`,
        transcript: claudeCodeCodec.toCommon(
          claudeCodeCodec.parse(readFileSync(path.join(claudeDirectory, name), "utf8")),
        ),
      });
  }
  const ampFile = path.join(realDirectory, "amp-export-convo.json");
  if (existsSync(ampFile)) {
    const { ampCodec } = (await importUntyped("@txcript/amp")) as { ampCodec: ForeignCodec };
    out.push({
      name: "real/amp-export-convo.json",
      transcript: ampCodec.toCommon(ampCodec.parse(readFileSync(ampFile, "utf8"))),
    });
  }
  return out;
}

/** Reproducible generated transcripts with at least one exchange. */
export function generatedTranscripts(count: number, seed = 14): NamedTranscript[] {
  return fc
    .sample(
      transcriptArbitrary().filter((transcript) => transcript.messages.length >= 2),
      { numRuns: count, seed },
    )
    .map((transcript, index) => ({ name: `generated #${index + 1}`, transcript }));
}

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
  const server = http.createServer((request, response) => {
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
    const child = spawn(bin, args, {
      cwd,
      env: codexEnvironment(home),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk) => {
      output += chunk;
    });
    child.stderr.on("data", (chunk) => {
      output += chunk;
    });
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
  );
}

type RpcMessage = { id?: number; result?: unknown; error?: { message?: string } };

/** A `codex app-server` over stdio JSON-RPC; every call has a timeout, `close` kills it. */
export class AppServer {
  readonly #child;
  readonly #pending = new Map<number, (message: RpcMessage) => void>();
  #next = 1;
  #buffer = "";
  stderr = "";

  constructor(bin: string, home: string, cwd: string) {
    this.#child = spawn(bin, ["app-server"], {
      cwd,
      env: codexEnvironment(home),
      stdio: ["pipe", "pipe", "pipe"],
    });
    this.#child.stdout.on("data", (chunk: Buffer) => {
      this.#buffer += chunk.toString("utf8");
      for (let end = this.#buffer.indexOf("\n"); end >= 0; end = this.#buffer.indexOf("\n")) {
        const line = this.#buffer.slice(0, end);
        this.#buffer = this.#buffer.slice(end + 1);
        let message: RpcMessage;
        try {
          message = JSON.parse(line) as RpcMessage;
        } catch {
          continue;
        }
        if (message.id !== undefined) this.#pending.get(message.id)?.(message);
      }
    });
    this.#child.stderr.on("data", (chunk: Buffer) => {
      if (this.stderr.length < 20_000) this.stderr += chunk.toString("utf8");
    });
  }

  call(method: string, params: unknown, timeoutMs = 20_000): Promise<RpcMessage> {
    const id = this.#next++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        resolve({ id, error: { message: `timeout after ${timeoutMs} ms` } });
      }, timeoutMs);
      this.#pending.set(id, (message) => {
        clearTimeout(timer);
        this.#pending.delete(id);
        resolve(message);
      });
      this.#child.stdin.write(`${JSON.stringify({ id, method, params })}\n`);
    });
  }

  async start(): Promise<RpcMessage> {
    const reply = await this.call("initialize", {
      clientInfo: { name: "txcript-test", version: "0.0.0" },
    });
    this.#child.stdin.write(`${JSON.stringify({ method: "initialized" })}\n`);
    return reply;
  }

  close(): void {
    this.#child.kill("SIGKILL");
  }
}
