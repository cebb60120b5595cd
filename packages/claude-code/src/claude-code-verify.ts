// Claude Code's own offline check of a saved session (`txcript continue
// --verify`, and the compatibility probe): the session file is copied into a
// temporary CLAUDE_CONFIG_DIR at the same place under projects/ (its side
// directory of subagents too), and
// `claude -p --resume=<id> hi` runs on the copy against a Messages API stub
// on 127.0.0.1 that records each request and answers 400. Claude Code found
// and loaded the session when it does not print "No conversation found" and
// the request it sends carries the history (with the session's last text)
// and the new prompt. A fake key, no retries, no auto-update or other
// traffic; the child is killed after the timeout and the stub closes with
// the check.
import { promises as fs } from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import * as path from "node:path";
import type { ProgramCheck, ProgramCheckResult, SavedSession } from "@txcript/core";
import { nodeChildProcess, nodeHttp } from "@txcript/core";
import { claudeCodeCodec } from "./claude-code-codec.js";

/** One request Claude Code sent to the Messages API stub. */
export interface CapturedRequest {
  url: string;
  body: { messages?: { role: string; content: unknown }[] };
}

/** The environment of every Claude Code child: the given config directory as home, a fake key. */
export function claudeEnvironment(configDirectory: string, baseUrl: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? "",
    HOME: configDirectory,
    CLAUDE_CONFIG_DIR: configDirectory,
    ANTHROPIC_API_KEY: "x",
    ANTHROPIC_BASE_URL: baseUrl,
    CLAUDE_CODE_MAX_RETRIES: "0",
    DISABLE_AUTOUPDATER: "1",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
  };
}

/**
 * `claude -p --resume=<id> hi` in `cwd` against config `configDirectory`
 * and a local stub that records each request (at most 20) and answers 400,
 * so the caller sees the history Claude Code sends.
 */
export async function resumeCaptured(
  bin: string,
  configDirectory: string,
  cwd: string,
  sessionId: string,
  timeoutMs = 60_000,
): Promise<{ status: number | null; output: string; requests: CapturedRequest[] }> {
  const requests: CapturedRequest[] = [];
  const server = nodeHttp().createServer((request, response) => {
    let data = "";
    request.on("data", (chunk) => {
      data += chunk;
    });
    request.on("end", () => {
      try {
        requests.push({ url: request.url ?? "", body: JSON.parse(data) });
      } catch {
        requests.push({ url: request.url ?? "", body: {} });
      }
      response.writeHead(400, { "content-type": "application/json" });
      response.end(
        JSON.stringify({
          type: "error",
          error: { type: "invalid_request_error", message: "txcript capture" },
        }),
      );
      if (requests.length >= 20) server.close();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  try {
    const { status, output } = await new Promise<{ status: number | null; output: string }>(
      (resolve) => {
        const child = nodeChildProcess().spawn(bin, ["-p", `--resume=${sessionId}`, "hi"], {
          cwd,
          stdio: ["ignore", "pipe", "pipe"],
          env: claudeEnvironment(configDirectory, `http://127.0.0.1:${port}`),
        });
        let text = "";
        const keep = (chunk: Buffer) => {
          if (text.length < 200_000) text += chunk.toString("utf8");
        };
        child.stdout.on("data", keep);
        child.stderr.on("data", keep);
        const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
        child.on("error", (error) => {
          clearTimeout(timer);
          resolve({ status: null, output: `${text}${String(error)}` });
        });
        child.on("close", (code) => {
          clearTimeout(timer);
          resolve({ status: code, output: text });
        });
      },
    );
    return { status, output, requests };
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

function lastLines(text: string): string {
  return text.trim().split("\n").slice(-2).join(" ").slice(0, 300);
}

/** Whether a captured request is a turn of the resumed conversation: history, then our prompt. */
function isResumedTurn(request: CapturedRequest, lastText: string | undefined): boolean {
  if (!request.url.startsWith("/v1/messages")) return false;
  const messages = request.body.messages ?? [];
  // The last user message (Claude Code may put system entries after it).
  const prompt = messages.findLast((message) => message.role === "user");
  const asked =
    prompt?.role === "user" &&
    (prompt.content === "hi" ||
      (Array.isArray(prompt.content) &&
        prompt.content.some((block) => (block as { type?: string; text?: string }).text === "hi")));
  // The history it sent holds the session's last text (when it has one).
  const carried =
    lastText === undefined ||
    JSON.stringify(messages).includes(JSON.stringify(lastText).slice(1, -1));
  return asked && messages.length >= 2 && carried;
}

/** The last text block of the saved session, read through this package's codec (undefined when none or unreadable). */
async function lastTextOf(file: string): Promise<string | undefined> {
  try {
    const transcript = claudeCodeCodec.toCommon(
      claudeCodeCodec.parse(await fs.readFile(file, "utf8")),
    );
    for (const message of [...transcript.messages].reverse())
      for (const block of [...message.content].reverse())
        if (block.type === "text" && block.text.trim() !== "" && !block.text.startsWith("<"))
          return block.text;
  } catch {
    return undefined;
  }
  return undefined;
}

/** The resume check on a config directory that already holds the session (a copy). */
export async function resumeCheck(
  bin: string,
  configDirectory: string,
  cwd: string,
  id: string,
  timeoutMs = 60_000,
  lastText?: string,
): Promise<ProgramCheckResult> {
  const outcome = await resumeCaptured(bin, configDirectory, cwd, id, timeoutMs);
  if (outcome.output.includes("No conversation found"))
    return { ok: false, detail: `not found: ${lastLines(outcome.output)}` };
  const turn = outcome.requests.find((request) => isResumedTurn(request, lastText));
  if (turn === undefined)
    return {
      ok: false,
      detail: `no turn with the history${lastText === undefined ? "" : " and the session's last text"} reached the stub (exit ${outcome.status}): ${lastLines(outcome.output)}`,
    };
  return {
    ok: true,
    detail: `loaded the session and sent ${turn.body.messages?.length ?? 0} messages to the stub`,
  };
}

export const claudeCodeProgramCheck: ProgramCheck = {
  program: "claude",
  versionArgs: ["--version"],
  description:
    "`claude -p --resume=<id> hi` on a copy (API at a 127.0.0.1 stub) loads the session and sends its history",
  async run(saved: SavedSession, { bin, storeRoot, cwd, timeoutMs }) {
    const root = await fs.mkdtemp(path.join(os.tmpdir(), "txcript-claude-verify-"));
    try {
      const config = path.join(root, "config");
      const relative = path.relative(storeRoot, saved.path);
      const inside =
        !relative.startsWith("..") && !path.isAbsolute(relative)
          ? relative
          : path.basename(saved.path);
      const copy = path.join(config, "projects", inside);
      await fs.mkdir(path.dirname(copy), { recursive: true });
      await fs.copyFile(saved.path, copy);
      // The session's side directory (subagents, tool results), when it has one.
      const side = path.join(path.dirname(saved.path), saved.id);
      if (
        await fs.stat(side).then(
          (stat) => stat.isDirectory(),
          () => false,
        )
      )
        await fs.cp(side, path.join(path.dirname(copy), saved.id), { recursive: true });
      return await resumeCheck(bin, config, cwd, saved.id, timeoutMs, await lastTextOf(copy));
    } catch (error) {
      return { ok: false, detail: error instanceof Error ? error.message : String(error) };
    } finally {
      await fs.rm(root, { recursive: true, force: true });
    }
  },
};
