// Test support for the real-Codex checks (not shipped): the sessions they
// write (every fixture's Common document, the real captures, generated
// transcripts), the loopback Responses stub and `codex exec resume` (from
// the shipped codex-verify.ts), and a small `codex app-server` JSON-RPC
// client. Every child runs under a timeout.
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { commonCodec, type Transcript } from "@txcript/core";
import { transcriptArbitrary } from "@txcript/core/arbitraries";
import fc from "fast-check";
import { codexCodec } from "../codex-codec.js";
import { codexEnvironment } from "../codex-verify.js";

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

// The stub, the Codex environment and `codex exec resume` are the shipped
// offline check's (codex-verify.ts): one implementation for both.
export {
  codexEnvironment,
  execResume,
  type RunOutcome,
  runCodex,
  type StubRequest,
  startStub,
} from "../codex-verify.js";

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
