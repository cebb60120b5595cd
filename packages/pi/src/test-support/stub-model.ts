// A stub OpenAI chat-completions server for the real-program test: it
// listens on 127.0.0.1 only, answers a fixed list of streamed replies (text,
// or one tool call) in order, records each request body, refuses anything
// past the list, and closes itself after the last reply or a deadline.
import { createServer, type Server } from "node:http";

export type StubReply =
  | { text: string }
  | { toolCall: { id: string; name: string; arguments: object } };

export interface StubModel {
  readonly baseUrl: string;
  readonly requests: Record<string, unknown>[];
  close(): Promise<void>;
}

function chunk(body: object): string {
  return `data: ${JSON.stringify({ id: "chatcmpl-stub", object: "chat.completion.chunk", created: 0, model: "fake-1", ...body })}\n\n`;
}

function stream(reply: StubReply, ordinal: number): string {
  const usage = {
    prompt_tokens: 100 + ordinal,
    completion_tokens: 10 + ordinal,
    total_tokens: 110 + 2 * ordinal,
  };
  if ("text" in reply)
    return (
      chunk({
        choices: [
          { index: 0, delta: { role: "assistant", content: reply.text }, finish_reason: null },
        ],
      }) +
      chunk({ choices: [{ index: 0, delta: {}, finish_reason: "stop" }], usage }) +
      "data: [DONE]\n\n"
    );
  const call = {
    index: 0,
    id: reply.toolCall.id,
    type: "function",
    function: { name: reply.toolCall.name, arguments: JSON.stringify(reply.toolCall.arguments) },
  };
  return (
    chunk({
      choices: [
        { index: 0, delta: { role: "assistant", tool_calls: [call] }, finish_reason: null },
      ],
    }) +
    chunk({ choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }], usage }) +
    "data: [DONE]\n\n"
  );
}

export async function startStubModel(
  replies: readonly StubReply[],
  deadlineMs = 60_000,
): Promise<StubModel> {
  const requests: Record<string, unknown>[] = [];
  let served = 0;
  const server: Server = createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (text: string) => {
      body += text;
    });
    request.on("end", () => {
      const reply = replies[served];
      if (reply === undefined) {
        response
          .writeHead(500, { "content-type": "application/json" })
          .end('{"error":{"message":"stub: no more replies"}}');
        return;
      }
      try {
        requests.push(JSON.parse(body) as Record<string, unknown>);
      } catch {
        requests.push({ unparsed: body });
      }
      served += 1;
      response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      response.end(stream(reply, served));
      if (served === replies.length) server.close();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const timer = setTimeout(() => server.close(), deadlineMs);
  timer.unref();
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        clearTimeout(timer);
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
