// Qwen Code's own offline check of a saved session (`txcript continue
// --verify`): the recording is copied into a temporary home at the same
// place under .qwen/projects/ (with its agents' transcripts, subagents/<id>/), a model stub is started on 127.0.0.1 (an
// OpenAI-compatible chat-completions endpoint that answers "ok", serves at
// most a few requests and closes itself), and in the session's directory
// `qwen --auth-type openai --resume=<id> <prompt>` runs with a fake key, the
// stub as its base URL and proxies at 127.0.0.1:9. The check passes when the
// request Qwen Code sends carries the saved history: every prompt's text,
// every tool call (by id) and every tool result (by id, and its text).
// Every run has a timeout; the saved file itself is never touched.
import { promises as fs } from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import * as path from "node:path";
import type { ProgramCheck, SavedSession } from "@txcript/core";
import { nodeChildProcess, nodeHttp } from "@txcript/core";
import { qwenCodeCodec } from "./qwen-code-codec.js";

/** A request the stub received: its path and JSON body. */
export interface StubRequest {
  url: string;
  body: Record<string, unknown> | undefined;
}

export interface ChatStub {
  readonly origin: string;
  readonly requests: StubRequest[];
  close(): Promise<void>;
}

/** An OpenAI chat-completions stub on 127.0.0.1 answering "ok" (SSE or JSON); at most `limit` requests, closed after `lifetimeMs`. */
export async function startChatStub(limit = 8, lifetimeMs = 120_000): Promise<ChatStub> {
  const requests: StubRequest[] = [];
  const server = nodeHttp().createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      let body: Record<string, unknown> | undefined;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>;
      } catch {}
      requests.push({ url: request.url ?? "", body });
      if (
        requests.length > limit ||
        !/\/chat\/completions$/.test((request.url ?? "").split("?")[0] ?? "")
      ) {
        response.writeHead(503, { "content-type": "application/json" });
        response.end("{}");
        return;
      }
      const base = { id: "chatcmpl-stub", created: 1_700_000_000, model: "stub-model" };
      const usage = { prompt_tokens: 10, completion_tokens: 1, total_tokens: 11 };
      if (body?.stream !== true) {
        response.writeHead(200, { "content-type": "application/json" });
        response.end(
          JSON.stringify({
            ...base,
            object: "chat.completion",
            choices: [
              { index: 0, message: { role: "assistant", content: "ok" }, finish_reason: "stop" },
            ],
            usage,
          }),
        );
        return;
      }
      const events = [
        {
          ...base,
          object: "chat.completion.chunk",
          choices: [{ index: 0, delta: { role: "assistant", content: "ok" }, finish_reason: null }],
        },
        {
          ...base,
          object: "chat.completion.chunk",
          choices: [{ index: 0, delta: {}, finish_reason: "stop" }],
          usage,
        },
      ];
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.end(
        `${events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join("")}data: [DONE]\n\n`,
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const timer = setTimeout(() => server.close(), lifetimeMs);
  timer.unref();
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        clearTimeout(timer);
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

export interface QwenRun {
  status: number | null;
  output: string;
}

/** One bounded, offline run of `qwen` in `cwd` with HOME at `home` and the model at `origin`. */
export function runQwen(
  bin: string,
  home: string,
  cwd: string,
  args: string[],
  origin: string,
  timeoutMs: number,
): Promise<QwenRun> {
  return new Promise((resolve) => {
    const child = nodeChildProcess().spawn(bin, args, {
      cwd,
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: home,
        TMPDIR: path.join(home, "tmp"),
        OPENAI_API_KEY: "txcript-fake-key",
        OPENAI_BASE_URL: `${origin}/v1`,
        OPENAI_MODEL: "stub-model",
        HTTPS_PROXY: "http://127.0.0.1:9",
        https_proxy: "http://127.0.0.1:9",
        NO_PROXY: "127.0.0.1,localhost",
        no_proxy: "127.0.0.1,localhost",
        QWEN_DISABLE_AUTO_TITLE: "1",
        QWEN_CODE_SUPPRESS_YOLO_WARNING: "1",
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
      resolve({ status: null, output: `${output}\n${String(error)}` });
    });
  });
}

/** What a saved session must bring into the request: its prompts' texts, and its tool calls' and results' ids. */
export function expectedHistory(text: string): {
  prompts: string[];
  calls: string[];
  results: string[];
  outputs: string[];
} {
  const transcript = qwenCodeCodec.toCommon(qwenCodeCodec.parse(text));
  // A chat_compression record replaces the history before it with its summary (docs/formats/qwen-code.md).
  const lone = (message: (typeof transcript.messages)[number]) =>
    message.content.length === 1 && message.content[0]?.type === "compaction";
  const last = transcript.messages.findLastIndex(lone);
  const sent = last < 0 ? transcript.messages : transcript.messages.slice(last);
  const prompts: string[] = [];
  const calls: string[] = [];
  const results: string[] = [];
  const outputs: string[] = [];
  for (const message of sent)
    for (const block of message.content) {
      if (block.type === "compaction" && block.summary.trim() !== "") prompts.push(block.summary);
      if (block.type === "text" && message.role === "user" && block.text.trim() !== "")
        prompts.push(block.text);
      if (block.type === "tool_use") calls.push(block.id);
      if (block.type === "tool_result") {
        results.push(block.toolUseId);
        if (typeof block.content === "string" && block.content.trim() !== "")
          outputs.push(block.content);
      }
    }
  return { prompts, calls, results, outputs };
}

/** What is missing from the chat request that carries `marker`: empty when the whole saved history is there. */
export function missingFromRequest(
  requests: readonly StubRequest[],
  marker: string,
  expected: ReturnType<typeof expectedHistory>,
): string[] {
  const request = requests.find((entry) => JSON.stringify(entry.body ?? {}).includes(marker));
  if (request === undefined) return [`no request carried the prompt ${JSON.stringify(marker)}`];
  const messages = Array.isArray(request.body?.messages)
    ? (request.body.messages as Record<string, unknown>[])
    : [];
  const missing: string[] = [];
  const userTexts = messages
    .filter((message) => message.role === "user")
    .map((message) => JSON.stringify(message.content ?? ""))
    .join("\n");
  for (const prompt of expected.prompts)
    if (!userTexts.includes(JSON.stringify(prompt).slice(1, -1)))
      missing.push(`prompt ${JSON.stringify(prompt.slice(0, 40))}`);
  const callIds = new Set(
    messages.flatMap((message) =>
      Array.isArray(message.tool_calls)
        ? (message.tool_calls as { id?: unknown }[]).map((call) => String(call.id))
        : [],
    ),
  );
  const resultIds = new Set(
    messages
      .filter((message) => message.role === "tool")
      .map((message) => String(message.tool_call_id)),
  );
  for (const id of expected.calls) if (!callIds.has(id)) missing.push(`tool call ${id}`);
  for (const id of expected.results) if (!resultIds.has(id)) missing.push(`tool result ${id}`);
  const toolTexts = messages
    .filter((message) => message.role === "tool")
    .map((message) => JSON.stringify(message.content ?? ""))
    .join("\n");
  for (const output of expected.outputs)
    if (!toolTexts.includes(JSON.stringify(output).slice(1, -1)))
      missing.push(`tool output ${JSON.stringify(output.slice(0, 40))}`);
  return missing;
}

function lastLines(text: string): string {
  return text.trim().split("\n").slice(-2).join(" ").slice(0, 300);
}

export const qwenCodeProgramCheck: ProgramCheck = {
  program: "qwen",
  versionArgs: ["--version"],
  description:
    "`qwen --resume=<id>` on a copy (offline, against a model stub on 127.0.0.1) sends the model the saved history: every prompt, tool call and tool result",
  async run(saved: SavedSession, { bin, storeRoot, cwd, timeoutMs }) {
    const root = await fs.mkdtemp(path.join(os.tmpdir(), "txcript-qwen-verify-"));
    const stub = await startChatStub(8, timeoutMs + 10_000);
    try {
      const home = path.join(root, "home");
      const relative = path.relative(storeRoot, saved.path);
      if (relative.startsWith("..") || path.isAbsolute(relative))
        throw new Error(`${saved.path} is not inside the store ${storeRoot}`);
      const copy = path.join(home, ".qwen", relative);
      await fs.mkdir(path.dirname(copy), { recursive: true });
      await fs.mkdir(path.join(home, "tmp"), { recursive: true });
      await fs.copyFile(saved.path, copy);
      // The session's agents (subagents/<id>/ beside chats/), regular files only.
      const agents = path.join(path.dirname(path.dirname(saved.path)), "subagents", saved.id);
      if ((await fs.lstat(agents).catch(() => undefined))?.isDirectory())
        await fs.cp(agents, path.join(path.dirname(path.dirname(copy)), "subagents", saved.id), {
          recursive: true,
          filter: async (source) => {
            const stat = await fs.lstat(source);
            return stat.isDirectory() || stat.isFile();
          },
        });
      const expected = expectedHistory(await fs.readFile(copy, "utf8"));
      const marker = `txcript-verify-${path.basename(root)}`;
      const run = await runQwen(
        bin,
        home,
        cwd,
        ["--auth-type", "openai", `--resume=${saved.id}`, marker],
        stub.origin,
        timeoutMs,
      );
      const missing = missingFromRequest(stub.requests, marker, expected);
      if (missing.length > 0)
        return {
          ok: false,
          detail: `exit ${run.status}: missing ${missing.slice(0, 3).join(", ")}: ${lastLines(run.output)}`,
        };
      return {
        ok: true,
        detail: `resumed the session: the model received ${expected.prompts.length} prompts, ${expected.calls.length} tool calls and ${expected.results.length} results`,
      };
    } catch (error) {
      return { ok: false, detail: error instanceof Error ? error.message : String(error) };
    } finally {
      await stub.close();
      await fs.rm(root, { recursive: true, force: true });
    }
  },
};
