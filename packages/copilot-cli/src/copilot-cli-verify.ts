// Copilot CLI's own offline check of a saved session (`txcript continue
// --verify`): the event log is copied into a temporary COPILOT_HOME, a model
// stub listens on 127.0.0.1 (OpenAI chat completions, a bounded number of
// requests, closed after the run or by its own timer), and `copilot
// --resume=<id> -p continue` runs in BYOK mode against it
// (COPILOT_PROVIDER_BASE_URL, COPILOT_OFFLINE=true, a fake key). The check
// passes when the program exits 0 and its model request carries the saved
// conversation: every prompt, tool call and tool result of the saved log
// after its last compaction, and that compaction's summary. Every run has a
// timeout.
import { promises as fs } from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import * as path from "node:path";
import {
  isJsonObject,
  nodeChildProcess,
  nodeHttp,
  type ProgramCheck,
  parseJson,
  type SavedSession,
} from "@txcript/core";
import { harness } from "./copilot-cli-schema.js";

export interface ChatStub {
  readonly baseUrl: string;
  /** Each chat completions request body, parsed. */
  readonly requests: Record<string, unknown>[];
  close(): Promise<void>;
}

/** One SSE or JSON chat completion answering "ok", as an OpenAI-compatible endpoint would. */
function completion(body: Record<string, unknown>): [string, string] {
  const model = typeof body.model === "string" ? body.model : "stub";
  const usage = { prompt_tokens: 10, completion_tokens: 1, total_tokens: 11 };
  if (body.stream !== true)
    return [
      "application/json",
      JSON.stringify({
        id: "chatcmpl-txcript",
        object: "chat.completion",
        created: 0,
        model,
        choices: [
          { index: 0, message: { role: "assistant", content: "ok" }, finish_reason: "stop" },
        ],
        usage,
      }),
    ];
  const chunk = (choice: object, extra: object = {}) =>
    `data: ${JSON.stringify({ id: "chatcmpl-txcript", object: "chat.completion.chunk", created: 0, model, choices: [choice], ...extra })}\n\n`;
  return [
    "text/event-stream",
    chunk({ index: 0, delta: { role: "assistant", content: "ok" }, finish_reason: null }) +
      chunk({ index: 0, delta: {}, finish_reason: "stop" }, { usage }) +
      "data: [DONE]\n\n",
  ];
}

/** A chat completions stub on 127.0.0.1 that serves at most `limit` requests and closes after `lifetimeMs`. */
export async function startChatStub(limit = 8, lifetimeMs = 180_000): Promise<ChatStub> {
  const requests: Record<string, unknown>[] = [];
  let served = 0;
  const server = nodeHttp().createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      served += 1;
      const pathname = (request.url ?? "").split("?")[0] ?? "";
      if (served > limit || !pathname.endsWith("/chat/completions")) {
        response.writeHead(served > limit ? 503 : 404, { "content-type": "application/json" });
        response.end('{"error":{"message":"txcript stub: not served"}}');
        return;
      }
      let body: Record<string, unknown> = {};
      try {
        const parsed = JSON.parse(Buffer.concat(chunks).toString("utf8"));
        if (isJsonObject(parsed)) body = parsed;
      } catch {}
      requests.push(body);
      const [type, text] = completion(body);
      response.writeHead(200, { "content-type": type, "cache-control": "no-cache" });
      response.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const close = () =>
    new Promise<void>((resolve) => {
      clearTimeout(timer);
      server.close(() => resolve());
      server.closeAllConnections();
    });
  const timer = setTimeout(() => void close(), lifetimeMs);
  timer.unref();
  const { port } = server.address() as AddressInfo;
  return { baseUrl: `http://127.0.0.1:${port}/v1`, requests, close };
}

export interface CopilotRun {
  status: number | null;
  output: string;
}

/**
 * One bounded, offline run of `copilot` in `cwd` with COPILOT_HOME at `copilotHome`, the model at
 * `baseUrl` and nothing else reachable. The program unpacks itself under XDG_CACHE_HOME on first
 * run (some 200 MB), so `cacheHome` is kept between runs.
 */
export function runCopilot(
  bin: string,
  options: { copilotHome: string; home: string; cacheHome: string; cwd: string; baseUrl: string },
  args: string[],
  timeoutMs = 90_000,
): Promise<CopilotRun> {
  return new Promise((resolve) => {
    const child = nodeChildProcess().spawn(bin, args, {
      cwd: options.cwd,
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: options.home,
        COPILOT_HOME: options.copilotHome,
        XDG_CACHE_HOME: options.cacheHome,
        XDG_CONFIG_HOME: path.join(options.home, ".config"),
        XDG_STATE_HOME: path.join(options.home, ".local", "state"),
        COPILOT_OFFLINE: "true",
        COPILOT_PROVIDER_BASE_URL: options.baseUrl,
        COPILOT_PROVIDER_API_KEY: "txcript-fake-key",
        COPILOT_MODEL: "txcript-stub-model",
        HTTPS_PROXY: "http://127.0.0.1:9",
        HTTP_PROXY: "http://127.0.0.1:9",
        NO_PROXY: "127.0.0.1",
        NO_COLOR: "1",
        TERM: "dumb",
      },
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("close", (status) => {
      clearTimeout(timer);
      resolve({ status, output });
    });
    child.on("error", (error) => {
      clearTimeout(timer);
      resolve({ status: null, output: `${output}\n${error.message}` });
    });
  });
}

/**
 * What resuming a saved event log must send the model: the prompts
 * (user.message contents), tool call ids and tool result ids of its main
 * conversation after its last compaction, and that compaction's summary
 * (Copilot CLI sends the summary in place of the history before it).
 */
export interface ExpectedRequest {
  prompts: string[];
  calls: string[];
  results: string[];
  summary?: string;
}

export function expectedInRequest(text: string): ExpectedRequest {
  let expected: ExpectedRequest = { prompts: [], calls: [], results: [] };
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    let value: unknown;
    try {
      value = parseJson(line, { harness });
    } catch {
      continue;
    }
    if (!isJsonObject(value) || value.agentId !== undefined) continue;
    const data = isJsonObject(value.data) ? value.data : {};
    if (value.type === "user.message" && typeof data.content === "string" && data.content !== "")
      expected.prompts.push(data.content);
    else if (value.type === "assistant.message" && Array.isArray(data.toolRequests)) {
      for (const request of data.toolRequests)
        if (isJsonObject(request) && typeof request.toolCallId === "string")
          expected.calls.push(request.toolCallId);
    } else if (value.type === "tool.execution_complete" && typeof data.toolCallId === "string")
      expected.results.push(data.toolCallId);
    else if (
      value.type === "session.compaction_complete" &&
      data.success === true &&
      typeof data.summaryContent === "string"
    )
      expected = { prompts: [], calls: [], results: [], summary: data.summaryContent };
  }
  return expected;
}

/** The tool call ids and tool result ids a chat completions request carries. */
export function sentCalls(body: Record<string, unknown>): {
  calls: Set<string>;
  results: Set<string>;
} {
  const calls = new Set<string>();
  const results = new Set<string>();
  for (const message of Array.isArray(body.messages) ? body.messages : []) {
    if (!isJsonObject(message)) continue;
    if (Array.isArray(message.tool_calls))
      for (const call of message.tool_calls)
        if (isJsonObject(call) && typeof call.id === "string") calls.add(call.id);
    if (message.role === "tool" && typeof message.tool_call_id === "string")
      results.add(message.tool_call_id);
  }
  return { calls, results };
}

/** What of `expected` a request did not carry, in words; undefined when it carried all of it. */
export function missingFromRequest(
  expected: ExpectedRequest,
  body: Record<string, unknown>,
): string | undefined {
  const sent = sentTexts(body).join("\n");
  const { calls, results } = sentCalls(body);
  const problems: string[] = [];
  const prompts = expected.prompts.filter((prompt) => !sent.includes(prompt));
  if (prompts.length > 0) problems.push(`${prompts.length} of ${expected.prompts.length} prompts`);
  if (expected.summary !== undefined && !sent.includes(expected.summary))
    problems.push("the compaction summary");
  const lostCalls = expected.calls.filter((id) => !calls.has(id));
  if (lostCalls.length > 0) problems.push(`tool calls ${lostCalls.slice(0, 3).join(", ")}`);
  const lostResults = expected.results.filter((id) => !results.has(id));
  if (lostResults.length > 0) problems.push(`results of ${lostResults.slice(0, 3).join(", ")}`);
  return problems.length === 0 ? undefined : `the model request lacks ${problems.join("; ")}`;
}

/** The text of every message a chat completions request sent, in order. */
export function sentTexts(body: Record<string, unknown>): string[] {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  return messages.map((message) => {
    const content = isJsonObject(message) ? message.content : undefined;
    if (typeof content === "string") return content;
    return JSON.stringify(content ?? "");
  });
}

function lastLines(text: string): string {
  return text.trim().split("\n").slice(-3).join(" ").slice(0, 400);
}

/** The shared unpack directory for the program (its own code, not session data). */
export function copilotCacheHome(): string {
  return path.join(os.tmpdir(), "txcript-copilot-cache");
}

export const copilotCliProgramCheck: ProgramCheck = {
  program: "copilot",
  versionArgs: ["--version"],
  description:
    "`copilot --resume=<id> -p continue` on a copy, offline against a model stub at 127.0.0.1, loads the session and sends its conversation",
  async run(saved: SavedSession, { bin, storeRoot, cwd, timeoutMs }) {
    const root = await fs.mkdtemp(path.join(os.tmpdir(), "txcript-copilot-verify-"));
    const stub = await startChatStub(8, timeoutMs + 10_000);
    try {
      const relative = path.relative(storeRoot, saved.path);
      if (relative.startsWith("..") || path.isAbsolute(relative))
        return { ok: false, detail: `${saved.path} is not inside the store ${storeRoot}` };
      const copilotHome = path.join(root, "copilot");
      const copy = path.join(copilotHome, relative);
      await fs.mkdir(path.dirname(copy), { recursive: true });
      await fs.copyFile(saved.path, copy);
      const expected = expectedInRequest(await fs.readFile(copy, "utf8"));
      const run = await runCopilot(
        bin,
        {
          copilotHome,
          home: path.join(root, "home"),
          cacheHome: copilotCacheHome(),
          cwd,
          baseUrl: stub.baseUrl,
        },
        [`--resume=${saved.id}`, "-p", "continue", "--allow-all-tools"],
        timeoutMs,
      );
      if (run.status !== 0)
        return { ok: false, detail: `resume: exit ${run.status}: ${lastLines(run.output)}` };
      const request = stub.requests[0];
      if (request === undefined) return { ok: false, detail: "resume: no model request was made" };
      const missing = missingFromRequest(expected, request);
      if (missing !== undefined) return { ok: false, detail: missing };
      return {
        ok: true,
        detail: `resumed the session and sent its ${expected.prompts.length} prompts, ${expected.calls.length} tool calls and ${expected.results.length} results in ${sentTexts(request).length} messages`,
      };
    } catch (error) {
      return { ok: false, detail: error instanceof Error ? error.message : String(error) };
    } finally {
      await stub.close();
      await fs.rm(root, { recursive: true, force: true });
    }
  },
};
