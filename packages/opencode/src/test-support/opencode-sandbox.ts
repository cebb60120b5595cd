// Running the pinned OpenCode in tests, offline: a temporary HOME and XDG
// tree, a fake key, proxies on the dead port 9, a project opencode.json
// whose only provider is a loopback stub, and every child bounded by a
// timeout. The stub speaks OpenAI chat completions on 127.0.0.1 only,
// answers a bounded number of requests and closes itself after its lifetime.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { programBin, programSkipReason } from "../../../../scripts/real-programs.mjs";
import {
  type OpencodeSandbox,
  opencodeSandbox,
  type Ran,
  runOpencodeIn,
} from "../opencode-verify.js";

export const opencodeBin: string | undefined = programBin("opencode");
export const opencodeSkipReason: string | undefined = programSkipReason("opencode");

// The sandbox and the bounded run are the shipped check's (opencode-verify.ts).
export {
  type OpencodeSandbox as Sandbox,
  projectConfig,
  type Ran,
} from "../opencode-verify.js";

/** A sandbox for the pinned opencode. */
export function sandbox(stubPort = 9): Promise<OpencodeSandbox> {
  return opencodeSandbox(opencodeBin, stubPort);
}

/** Run the pinned opencode in a sandbox with a hard timeout. */
export function runOpencode(
  box: OpencodeSandbox,
  args: string[],
  cwd = box.project,
  timeoutMs = 90_000,
): Promise<Ran> {
  if (opencodeBin === undefined) throw new Error(opencodeSkipReason);
  return runOpencodeIn(opencodeBin, box, args, cwd, timeoutMs);
}

export interface Stub {
  port: number;
  /** Parsed JSON bodies of the chat/completions requests received. */
  requests: { url: string; body: unknown }[];
  /** Hold every answer until the returned function is called (OpenCode stays mid-turn, its database open). */
  hold(): () => void;
  close(): Promise<void>;
}

/** An OpenAI-compatible stub on 127.0.0.1 answering "STUB_OK"; it stops after `max` requests or `lifetimeMs`. */
export async function startStub(max = 4, lifetimeMs = 120_000): Promise<Stub> {
  const requests: Stub["requests"] = [];
  let gate: Promise<void> = Promise.resolve();
  const server = http.createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8").on("data", (chunk: string) => {
      body += chunk;
    });
    request.on("end", async () => {
      let parsed: unknown = {};
      try {
        parsed = JSON.parse(body || "{}");
      } catch {}
      requests.push({ url: request.url ?? "", body: parsed });
      await gate;
      if (!(request.url ?? "").includes("chat/completions")) {
        response.writeHead(404).end("{}");
      } else if ((parsed as { stream?: boolean }).stream) {
        response.writeHead(200, { "content-type": "text/event-stream" });
        const chunk = (delta: object, finish: string | null, usage?: object) =>
          response.write(
            `data: ${JSON.stringify({ id: "stub", object: "chat.completion.chunk", created: 1, model: "stub", choices: [{ index: 0, delta, finish_reason: finish }], ...(usage ? { usage } : {}) })}\n\n`,
          );
        chunk({ role: "assistant", content: "STUB_OK" }, null);
        chunk({}, "stop", { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 });
        response.end("data: [DONE]\n\n");
      } else {
        response.writeHead(200, { "content-type": "application/json" }).end(
          JSON.stringify({
            id: "stub",
            object: "chat.completion",
            created: 1,
            model: "stub",
            choices: [
              {
                index: 0,
                message: { role: "assistant", content: "STUB_OK" },
                finish_reason: "stop",
              },
            ],
            usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 },
          }),
        );
      }
      if (requests.length >= max) server.close();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const timer = setTimeout(() => server.close(), lifetimeMs);
  timer.unref();
  return {
    port: (server.address() as AddressInfo).port,
    requests,
    hold() {
      let release = () => {};
      gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      const held = setTimeout(release, lifetimeMs);
      held.unref();
      return () => {
        clearTimeout(held);
        release();
      };
    },
    close: () =>
      new Promise<void>((resolve) => {
        clearTimeout(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** SHA-256 of a file, or "absent". */
export function checksum(file: string): string {
  try {
    return createHash("sha256").update(readFileSync(file)).digest("hex");
  } catch {
    return "absent";
  }
}
