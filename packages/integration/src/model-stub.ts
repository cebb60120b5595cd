// A recording model stub for the real programs: one HTTP server on
// 127.0.0.1 (port 0) that speaks just enough of each provider API for a
// program to send its first turn and get a minimal valid answer — the
// Anthropic Messages API (SSE or JSON), the OpenAI Responses API (SSE or
// JSON), OpenAI chat completions (SSE or JSON) and the Gemini API
// (generateContent, streamGenerateContent with alt=sse, countTokens). Each
// request is recorded with its JSON body. It serves at most `limit` requests
// (later ones get 503) and closes itself after `lifetimeMs`, whatever the
// caller does. The answer is the text "ok" and nothing else: no tool call,
// so a program's turn ends after one request.
import * as http from "node:http";
import type { AddressInfo } from "node:net";

/** Which provider API a request was addressed to (by its path). */
export type ProviderApi = "anthropic" | "responses" | "chat" | "gemini" | "other";

export interface RecordedRequest {
  api: ProviderApi;
  method: string;
  url: string;
  /** The parsed JSON body; undefined when there was none or it was not JSON. */
  body: Record<string, unknown> | undefined;
}

export interface ModelStub {
  /** `http://127.0.0.1:<port>`: append `/v1` for OpenAI and Anthropic clients as they expect. */
  readonly origin: string;
  readonly port: number;
  readonly requests: RecordedRequest[];
  close(): Promise<void>;
}

/** The API a request path belongs to, from the paths each provider documents. */
export function apiOf(url: string): ProviderApi {
  const pathname = url.split("?")[0] ?? "";
  if (/\/messages(\/count_tokens)?$/.test(pathname)) return "anthropic";
  if (/\/responses(\/compact)?$/.test(pathname)) return "responses";
  if (/\/chat\/completions$/.test(pathname)) return "chat";
  if (/\/models\/[^/]+:(stream)?[gG]enerateContent$|:countTokens$/.test(pathname)) return "gemini";
  return "other";
}

const answer = "ok";

function sse(events: [string | undefined, object][]): string {
  return events
    .map(([event, data]) => `${event ? `event: ${event}\n` : ""}data: ${JSON.stringify(data)}\n\n`)
    .join("");
}

function anthropic(body: Record<string, unknown>): [string, string] {
  const model = typeof body.model === "string" ? body.model : "stub";
  const usage = { input_tokens: 10, output_tokens: 1 };
  const message = {
    id: "msg_stub",
    type: "message",
    role: "assistant",
    model,
    content: [{ type: "text", text: answer }],
    stop_reason: "end_turn",
    stop_sequence: null,
    usage,
  };
  if (body.stream !== true) return ["application/json", JSON.stringify(message)];
  return [
    "text/event-stream",
    sse([
      [
        "message_start",
        { type: "message_start", message: { ...message, content: [], stop_reason: null } },
      ],
      [
        "content_block_start",
        { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
      ],
      [
        "content_block_delta",
        { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: answer } },
      ],
      ["content_block_stop", { type: "content_block_stop", index: 0 }],
      [
        "message_delta",
        {
          type: "message_delta",
          delta: { stop_reason: "end_turn", stop_sequence: null },
          usage: { output_tokens: 1 },
        },
      ],
      ["message_stop", { type: "message_stop" }],
    ]),
  ];
}

function responses(body: Record<string, unknown>): [string, string] {
  const model = typeof body.model === "string" ? body.model : "stub";
  const item = {
    type: "message",
    id: "msg_stub",
    role: "assistant",
    status: "completed",
    content: [{ type: "output_text", text: answer, annotations: [] }],
  };
  const response = {
    id: "resp_stub",
    object: "response",
    created_at: 1,
    status: "completed",
    model,
    output: [item],
    usage: {
      input_tokens: 10,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 1,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 11,
    },
  };
  if (body.stream !== true) return ["application/json", JSON.stringify(response)];
  return [
    "text/event-stream",
    sse([
      [
        "response.created",
        {
          type: "response.created",
          sequence_number: 0,
          response: { ...response, status: "in_progress", output: [] },
        },
      ],
      [
        "response.output_item.added",
        {
          type: "response.output_item.added",
          sequence_number: 1,
          output_index: 0,
          item: { ...item, status: "in_progress", content: [] },
        },
      ],
      [
        "response.output_text.delta",
        {
          type: "response.output_text.delta",
          sequence_number: 2,
          item_id: item.id,
          output_index: 0,
          content_index: 0,
          delta: answer,
        },
      ],
      [
        "response.output_item.done",
        { type: "response.output_item.done", sequence_number: 3, output_index: 0, item },
      ],
      ["response.completed", { type: "response.completed", sequence_number: 4, response }],
    ]),
  ];
}

function chat(body: Record<string, unknown>): [string, string] {
  const model = typeof body.model === "string" ? body.model : "stub";
  const usage = { prompt_tokens: 10, completion_tokens: 1, total_tokens: 11 };
  const base = { id: "chatcmpl-stub", created: 1, model };
  if (body.stream !== true)
    return [
      "application/json",
      JSON.stringify({
        ...base,
        object: "chat.completion",
        choices: [
          { index: 0, message: { role: "assistant", content: answer }, finish_reason: "stop" },
        ],
        usage,
      }),
    ];
  const chunk = (choice: object, extra: object = {}) => ({
    ...base,
    object: "chat.completion.chunk",
    choices: [{ index: 0, ...choice }],
    ...extra,
  });
  return [
    "text/event-stream",
    `${sse([
      [undefined, chunk({ delta: { role: "assistant", content: answer }, finish_reason: null })],
      [undefined, chunk({ delta: {}, finish_reason: "stop" }, { usage })],
    ])}data: [DONE]\n\n`,
  ];
}

function gemini(url: string): [string, string] {
  if (/:countTokens/.test(url)) return ["application/json", JSON.stringify({ totalTokens: 10 })];
  const chunk = {
    candidates: [
      { content: { role: "model", parts: [{ text: answer }] }, finishReason: "STOP", index: 0 },
    ],
    usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 1, totalTokenCount: 11 },
    modelVersion: "stub",
  };
  if (/:streamGenerateContent/.test(url)) return ["text/event-stream", sse([[undefined, chunk]])];
  return ["application/json", JSON.stringify(chunk)];
}

/** The minimal valid answer to a request, as [content type, body]; undefined for an unknown path. */
export function answerTo(
  api: ProviderApi,
  url: string,
  body: Record<string, unknown>,
): [string, string] | undefined {
  if (api === "anthropic")
    return /count_tokens/.test(url)
      ? ["application/json", JSON.stringify({ input_tokens: 10 })]
      : anthropic(body);
  if (api === "responses") return responses(body);
  if (api === "chat") return chat(body);
  if (api === "gemini") return gemini(url);
  return undefined;
}

/**
 * Start the stub. Websocket upgrades are refused with 426 (Codex then posts
 * over HTTP); unknown paths get 404; requests past `limit` get 503.
 */
export async function startModelStub(
  options: { limit?: number; lifetimeMs?: number } = {},
): Promise<ModelStub> {
  const limit = options.limit ?? 40;
  const lifetimeMs = options.lifetimeMs ?? 300_000;
  const requests: RecordedRequest[] = [];
  let served = 0;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      served += 1;
      const url = request.url ?? "";
      const api = apiOf(url);
      let body: Record<string, unknown> | undefined;
      try {
        const text = Buffer.concat(chunks).toString("utf8");
        if (text !== "") body = JSON.parse(text) as Record<string, unknown>;
      } catch {
        body = undefined;
      }
      if (served > limit) {
        response.writeHead(503, { "content-type": "application/json" });
        response.end('{"error":{"message":"txcript stub: request limit reached"}}');
        return;
      }
      requests.push({ api, method: request.method ?? "", url, body });
      if (request.headers.upgrade !== undefined) {
        response.writeHead(426);
        response.end();
        return;
      }
      const reply = answerTo(api, url, body ?? {});
      if (reply === undefined) {
        response.writeHead(404, { "content-type": "application/json" });
        response.end('{"error":{"message":"txcript stub: unknown path"}}');
        return;
      }
      response.writeHead(200, { "content-type": reply[0], "cache-control": "no-cache" });
      response.end(reply[1]);
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
  return { origin: `http://127.0.0.1:${port}`, port, requests, close };
}
