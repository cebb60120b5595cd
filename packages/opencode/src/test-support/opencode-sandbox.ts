// Running the pinned OpenCode in tests, offline: a temporary HOME and XDG
// tree, a fake key, proxies on the dead port 9, a project opencode.json
// whose only provider is a loopback stub, and every child bounded by a
// timeout. The stub speaks OpenAI chat completions on 127.0.0.1 only,
// answers a bounded number of requests and closes itself after its lifetime.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { promises as fs, readFileSync } from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { programBin, programSkipReason } from "../../../../scripts/real-programs.mjs";

export const opencodeBin: string | undefined = programBin("opencode");
export const opencodeSkipReason: string | undefined = programSkipReason("opencode");

export interface Sandbox {
  root: string;
  env: NodeJS.ProcessEnv;
  /** A directory with the project opencode.json (provider `loop` → the stub). */
  project: string;
  database: string;
  dispose(): Promise<void>;
}

export async function sandbox(stubPort = 9): Promise<Sandbox> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), "txcript-opencode-"));
  const home = path.join(root, "home");
  const env: NodeJS.ProcessEnv = {
    // The pinned opencode first on PATH, as `opencode` (what afterSave and resumeCommand run).
    PATH: [opencodeBin === undefined ? undefined : path.dirname(opencodeBin), process.env.PATH]
      .filter(Boolean)
      .join(path.delimiter),
    HOME: home,
    XDG_DATA_HOME: path.join(home, "data"),
    XDG_CONFIG_HOME: path.join(home, "config"),
    XDG_CACHE_HOME: path.join(home, "cache"),
    XDG_STATE_HOME: path.join(home, "state"),
    OPENCODE_DISABLE_AUTOUPDATE: "1",
    OPENCODE_DISABLE_MODELS_FETCH: "1",
    OPENCODE_DISABLE_SHARE: "1",
    OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
    HTTP_PROXY: "http://127.0.0.1:9",
    HTTPS_PROXY: "http://127.0.0.1:9",
    NO_PROXY: "127.0.0.1,localhost",
    OPENAI_API_KEY: "fake",
    ANTHROPIC_API_KEY: "fake",
  };
  const project = path.join(root, "project");
  await fs.mkdir(project, { recursive: true });
  await fs.mkdir(home, { recursive: true });
  await fs.writeFile(path.join(project, "opencode.json"), projectConfig(stubPort));
  return {
    root,
    env,
    project,
    database: path.join(home, "data", "opencode", "opencode.db"),
    dispose: () => fs.rm(root, { recursive: true, force: true }),
  };
}

export function projectConfig(port: number): string {
  return `${JSON.stringify(
    {
      $schema: "https://opencode.ai/config.json",
      provider: {
        loop: {
          npm: "@ai-sdk/openai-compatible",
          name: "loop",
          options: { baseURL: `http://127.0.0.1:${port}/v1`, apiKey: "fake" },
          models: { stub: { name: "stub" } },
        },
      },
      model: "loop/stub",
    },
    null,
    2,
  )}\n`;
}

export interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/**
 * Run the pinned opencode with a hard timeout. Its stdout goes to a file,
 * not a pipe: OpenCode exits before a pipe drains, cutting a long
 * `export` short (measured: a 1.2 MB export ended at 589,542 bytes).
 */
export async function runOpencode(
  box: Sandbox,
  args: string[],
  cwd = box.project,
  timeoutMs = 90_000,
): Promise<Ran> {
  const bin = opencodeBin;
  if (bin === undefined) throw new Error(opencodeSkipReason);
  const started = Date.now();
  const output = path.join(
    box.root,
    `stdout-${process.pid}-${started}-${Math.random().toString(36).slice(2)}.txt`,
  );
  const handle = await fs.open(output, "w");
  const ran = await new Promise<Ran>((resolve) => {
    const child = spawn(bin, args, { cwd, env: box.env, stdio: ["ignore", handle.fd, "pipe"] });
    const stdout = "";
    let stderr = "";
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("close", (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr, ms: Date.now() - started });
    });
  });
  await handle.close();
  ran.stdout = await fs.readFile(output, "utf8");
  await fs.rm(output, { force: true });
  return ran;
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
