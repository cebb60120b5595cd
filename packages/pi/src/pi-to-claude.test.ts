// pi sessions continue in Claude Code: each pi fixture and real pi session,
// read by this codec and written by @txcript/claude-code, is resumed by the
// pinned `claude` (`claude -p --resume <id> hi`) against a server on
// 127.0.0.1 that records the request and answers 400. Claude Code must find
// the session and send its tool calls with their results; an unknown id is
// the control ("No conversation found").
import { spawn } from "node:child_process";
import { existsSync, promises as fs, readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import * as os from "node:os";
import * as path from "node:path";
import type { Codec, Store, Transcript } from "@txcript/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { piCodec } from "./pi-codec.js";
import { realDirectory, repoRoot } from "./test-support/pi-rpc.js";

const programsModule = new URL("../../../scripts/real-programs.mjs", import.meta.url).href;
const programs = (await import(programsModule)) as {
  programBin(name: string): string | undefined;
  programSkipReason(name: string): string | undefined;
};

/** @txcript/claude-code's public API, imported by a name TypeScript does not follow (its source may be mid-change). */
async function claudeCode() {
  try {
    const module = (await import("@txcript/claude-code" as string)) as {
      claudeCodeCodec: Codec<unknown>;
      ClaudeCodeStore: new (options: { root: string }) => Store<unknown>;
    };
    return module;
  } catch (error) {
    return String(error).slice(0, 200);
  }
}
const claude = await claudeCode();
const skipReason =
  programs.programSkipReason("claude") ??
  (typeof claude === "string" ? `@txcript/claude-code does not load: ${claude}` : undefined);
const bin = programs.programBin("claude");

const sources: { name: string; file: string }[] = [];
for (const directory of [path.join(repoRoot, "fixtures/pi"), path.join(realDirectory, "pi")]) {
  if (!existsSync(directory)) {
    console.warn(`skipping pi sessions in ${directory}: absent`);
    continue;
  }
  for (const name of readdirSync(directory)
    .filter((entry) => entry.endsWith(".jsonl"))
    .sort())
    sources.push({ name: `${path.basename(directory)}/${name}`, file: path.join(directory, name) });
}

interface Resumed {
  output: string;
  requests: { messages?: { role: string; content: unknown }[] }[];
}

/** `claude -p --resume <id> hi` in `cwd`, against a recording server that refuses every request. */
async function resume(configDirectory: string, cwd: string, id: string): Promise<Resumed> {
  const requests: Resumed["requests"] = [];
  const server = createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (text: string) => {
      body += text;
    });
    request.on("end", () => {
      try {
        requests.push(JSON.parse(body));
      } catch {
        requests.push({});
      }
      response.writeHead(400, { "content-type": "application/json" });
      response.end(
        '{"type":"error","error":{"type":"invalid_request_error","message":"txcript capture"}}',
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 9;
  try {
    const output = await new Promise<string>((resolve) => {
      const child = spawn(bin as string, ["-p", "--resume", id, "hi"], {
        cwd,
        stdio: ["ignore", "pipe", "pipe"],
        timeout: 90_000,
        env: {
          PATH: process.env.PATH ?? "",
          HOME: configDirectory,
          CLAUDE_CONFIG_DIR: configDirectory,
          ANTHROPIC_API_KEY: "x",
          ANTHROPIC_BASE_URL: `http://127.0.0.1:${port}`,
          CLAUDE_CODE_MAX_RETRIES: "0",
          DISABLE_AUTOUPDATER: "1",
          CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
        },
      });
      let text = "";
      child.stdout.setEncoding("utf8");
      child.stderr.setEncoding("utf8");
      child.stdout.on("data", (chunk: string) => {
        text += chunk;
      });
      child.stderr.on("data", (chunk: string) => {
        text += chunk;
      });
      child.on("close", () => resolve(text));
      child.on("error", (error) => resolve(`${text}${String(error)}`));
    });
    return { output, requests };
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** Tool call ids after the last compaction (what a resumed harness still sends). */
function liveCallIds(transcript: Transcript): string[] {
  const last = transcript.messages.findLastIndex((message) =>
    message.content.some((block) => block.type === "compaction"),
  );
  return transcript.messages
    .slice(last + 1)
    .filter((message) => message.role === "assistant")
    .flatMap((message) =>
      message.content.flatMap((block) => (block.type === "tool_use" ? [block.id] : [])),
    );
}

let temporary: string;
beforeAll(async () => {
  temporary = await fs.mkdtemp(path.join(os.tmpdir(), "txcript-pi-claude-"));
});
afterAll(async () => {
  if (temporary !== undefined) await fs.rm(temporary, { recursive: true, force: true });
});

let ordinal = 0;
async function writeForClaude(transcript: Transcript) {
  const module = claude as Exclude<typeof claude, string>;
  const base = path.join(temporary, `run-${++ordinal}`);
  const config = path.join(base, "config");
  const cwd = path.join(base, "project");
  await fs.mkdir(cwd, { recursive: true });
  const store = new module.ClaudeCodeStore({ root: path.join(config, "projects") });
  const native = module.claudeCodeCodec.fromCommon({
    ...transcript,
    meta: { ...transcript.meta, cwd },
  });
  const saved = await store.save(native);
  return { config, cwd, id: saved.id };
}

describe.skipIf(skipReason !== undefined)(
  `Claude Code resumes pi sessions${skipReason ? ` (skipped: ${skipReason})` : ""}`,
  () => {
    it.each(sources.map((source) => [source.name, source.file]))("%s", async (_name, file) => {
      const transcript = piCodec.toCommon(piCodec.parse(readFileSync(file, "utf8")));
      const { config, cwd, id } = await writeForClaude(transcript);
      const run = await resume(config, cwd, id);
      expect(run.output).not.toContain("No conversation found");
      expect(run.requests.length, run.output).toBeGreaterThan(0);
      const sent = run.requests.find(
        (request) => Array.isArray(request.messages) && request.messages.length > 1,
      );
      expect(sent, run.output).toBeDefined();
      const text = JSON.stringify(sent?.messages);
      // Every call since the last compaction is sent, each with its result.
      for (const callId of liveCallIds(transcript)) {
        expect(text).toContain(`"tool_use","id":${JSON.stringify(callId)}`);
        expect(text).toContain(`"tool_use_id":${JSON.stringify(callId)}`);
      }
      expect(text).toContain('"hi"');
    });

    it("control: an unknown id is not found", async () => {
      const { config, cwd } = await writeForClaude(
        piCodec.toCommon(piCodec.parse(readFileSync(sources[0]?.file as string, "utf8"))),
      );
      const run = await resume(config, cwd, "00000000-0000-4000-8000-000000000000");
      expect(run.output).toContain("No conversation found");
      expect(run.requests).toHaveLength(0);
    });
  },
);
