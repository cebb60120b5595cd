// pi's own offline check of a saved session (`txcript continue --verify`,
// and the compatibility probe): the session file is copied into a temporary
// agent directory (at the same place under sessions/) whose models.json
// points at 127.0.0.1:9, with proxies there too, and `pi --mode rpc
// --session <id>` runs on the copy with get_state and get_messages. pi
// opened it when it exits 0, names our session id, gives the messages pi's
// documented context building makes of the file, and leaves the copy
// byte-identical. Every run has a timeout.
import { promises as fs } from "node:fs";
import os from "node:os";
import * as path from "node:path";
import type { ProgramCheck, SavedSession } from "@txcript/core";
import { nodeChildProcess } from "@txcript/core";

/** A command for pi's stdin; `until` holds the next one back until pi printed an event of that type. */
export type RpcCommand = { type: string; until?: string; [key: string]: unknown };

export interface RpcRun {
  status: number | null;
  stdout: string;
  stderr: string;
  /** The responses pi printed, by command. */
  responses: Map<string, Record<string, unknown>>;
  /** Everything else pi printed (events), in order. */
  events: Record<string, unknown>[];
}

/** A temporary agent directory pi can run in offline: a models.json with one provider on 127.0.0.1:9. */
export async function offlineAgentDir(
  base: string,
  baseUrl = "http://127.0.0.1:9/v1",
): Promise<{ agentDir: string; home: string }> {
  const agentDir = path.join(base, "agent");
  const home = path.join(base, "home");
  await fs.mkdir(agentDir, { recursive: true });
  await fs.mkdir(home, { recursive: true });
  const models = {
    providers: {
      loop: {
        baseUrl,
        api: "openai-completions",
        apiKey: "fake",
        models: [{ id: "fake-1" }],
      },
    },
  };
  await fs.writeFile(path.join(agentDir, "models.json"), JSON.stringify(models));
  return { agentDir, home };
}

/** `pi --mode rpc --session <id>` in `cwd`, the commands on stdin, bounded by a timeout. */
export function runRpc(
  bin: string,
  options: {
    sessionArg: string;
    cwd: string;
    agentDir: string;
    home: string;
    commands: RpcCommand[];
    /** Sessions kept directly in this directory (PI_CODING_AGENT_SESSION_DIR). */
    sessionDir?: string;
    timeoutMs?: number;
  },
): Promise<RpcRun> {
  const unreachable = "http://127.0.0.1:9";
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: options.home,
    PI_CODING_AGENT_DIR: options.agentDir,
    PI_OFFLINE: "1",
    PI_TELEMETRY: "0",
    HTTP_PROXY: unreachable,
    HTTPS_PROXY: unreachable,
    http_proxy: unreachable,
    https_proxy: unreachable,
    NO_PROXY: "127.0.0.1,localhost",
    no_proxy: "127.0.0.1,localhost",
    NO_COLOR: "1",
    ...(options.sessionDir === undefined
      ? {}
      : { PI_CODING_AGENT_SESSION_DIR: options.sessionDir }),
  };
  return new Promise((resolve, reject) => {
    const child = nodeChildProcess().spawn(
      bin,
      ["--mode", "rpc", "--session", options.sessionArg],
      {
        cwd: options.cwd,
        env,
        stdio: ["pipe", "pipe", "pipe"],
        timeout: options.timeoutMs ?? 60_000,
      },
    );
    let stdout = "";
    let stderr = "";
    let pending = "";
    const responses = new Map<string, Record<string, unknown>>();
    const events: Record<string, unknown>[] = [];
    let next = 0;
    let waitingFor: string | undefined;
    // One command at a time, the next once pi answered the last (and printed the awaited event); stdin closes after.
    const send = () => {
      const command = options.commands[next++];
      if (command === undefined) {
        child.stdin.end();
        return;
      }
      const { until, ...sent } = command;
      waitingFor = until;
      child.stdin.write(`${JSON.stringify(sent)}\n`);
    };
    let answered = false;
    // A decoder per stream: a multi-byte character split across two chunks stays whole.
    child.stdout.setEncoding("utf8");
    child.stderr.setEncoding("utf8");
    child.stdout.on("data", (text: string) => {
      stdout += text;
      pending += text;
      let newline = pending.indexOf("\n");
      while (newline !== -1) {
        const line = pending.slice(0, newline);
        pending = pending.slice(newline + 1);
        newline = pending.indexOf("\n");
        let value: Record<string, unknown>;
        try {
          value = JSON.parse(line) as Record<string, unknown>;
        } catch {
          continue;
        }
        if (value.type === "response" && typeof value.command === "string") {
          responses.set(value.command, value);
          answered = true;
        } else {
          events.push(value);
          if (value.type === waitingFor) waitingFor = undefined;
        }
        if (answered && waitingFor === undefined) {
          answered = false;
          send();
        }
      }
    });
    child.stderr.on("data", (text: string) => {
      stderr += text;
    });
    child.stdin.on("error", () => {
      // pi exited before reading everything (an unknown session): its status says why.
    });
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stdout, stderr, responses, events }));
    send();
  });
}

type Entry = Record<string, unknown> & { id?: string; parentId?: string | null; type?: string };

/**
 * The messages pi's context holds for a session file, by the algorithm in
 * pi's docs/session-format.md ("Context Building"): the path from the last
 * entry to the root; with a compaction on it, its summary, the entries kept
 * from firstKeptEntryId up to it, then what follows; message entries as
 * they are, custom_message entries as role "custom", branch summaries as
 * role "branchSummary".
 */
export function documentedContext(text: string): Record<string, unknown>[] {
  const entries = text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Entry)
    .filter((entry) => entry.type !== "session");
  const byId = new Map(entries.map((entry) => [entry.id, entry]));
  const pathToLeaf: Entry[] = [];
  for (
    let entry = entries.at(-1);
    entry !== undefined;
    entry = entry.parentId ? byId.get(entry.parentId) : undefined
  )
    pathToLeaf.unshift(entry);
  const asMessage = (entry: Entry): Record<string, unknown> | undefined => {
    if (entry.type === "message") return entry.message as Record<string, unknown>;
    if (entry.type === "custom_message")
      return {
        role: "custom",
        customType: entry.customType,
        content: entry.content,
        display: entry.display,
        details: entry.details,
        timestamp: Date.parse(entry.timestamp as string),
      };
    if (entry.type === "branch_summary" && entry.summary)
      return {
        role: "branchSummary",
        summary: entry.summary,
        fromId: entry.fromId,
        timestamp: Date.parse(entry.timestamp as string),
      };
    return undefined;
  };
  const compactionAt = pathToLeaf.findLastIndex((entry) => entry.type === "compaction");
  const kept: Entry[] = [];
  const out: Record<string, unknown>[] = [];
  if (compactionAt >= 0) {
    const compaction = pathToLeaf[compactionAt] as Entry;
    out.push({
      role: "compactionSummary",
      summary: compaction.summary,
      tokensBefore: compaction.tokensBefore,
      timestamp: Date.parse(compaction.timestamp as string),
    });
    const first = pathToLeaf.findIndex((entry) => entry.id === compaction.firstKeptEntryId);
    if (first >= 0 && first < compactionAt) kept.push(...pathToLeaf.slice(first, compactionAt));
    kept.push(...pathToLeaf.slice(compactionAt + 1));
  } else kept.push(...pathToLeaf);
  for (const entry of kept) {
    const message = asMessage(entry);
    if (message !== undefined) out.push(message);
  }
  return out;
}

/** The check on an agent directory that already holds the session (a copy). */
export async function rpcCheck(
  bin: string,
  options: {
    id: string;
    file: string;
    cwd: string;
    agentDir: string;
    home: string;
    sessionDir?: string;
    timeoutMs?: number;
  },
): Promise<{ ok: boolean; detail: string }> {
  const before = await fs.readFile(options.file);
  const run = await runRpc(bin, {
    sessionArg: options.id,
    cwd: options.cwd,
    agentDir: options.agentDir,
    home: options.home,
    commands: [{ type: "get_state" }, { type: "get_messages" }],
    ...(options.sessionDir === undefined ? {} : { sessionDir: options.sessionDir }),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
  });
  const state = run.responses.get("get_state")?.data as { sessionId?: string } | undefined;
  const messages = (run.responses.get("get_messages")?.data as { messages?: unknown[] } | undefined)
    ?.messages;
  const same = (await fs.readFile(options.file)).equals(before);
  let expected: unknown;
  try {
    expected = documentedContext(before.toString("utf8"));
  } catch (error) {
    expected = `the file is not JSON lines: ${String(error)}`;
  }
  const problems = [
    run.status === 0 ? undefined : `exit ${run.status}: ${run.stderr.trim().slice(-200)}`,
    state?.sessionId === options.id ? undefined : `get_state names ${state?.sessionId}`,
    JSON.stringify(messages) === JSON.stringify(expected) ? undefined : "get_messages differs",
    same ? undefined : "pi rewrote the file",
  ].filter((problem): problem is string => problem !== undefined);
  return {
    ok: problems.length === 0,
    detail:
      problems.join("; ") ||
      `opened the session with ${messages?.length ?? 0} messages, as its file holds them`,
  };
}

export const piProgramCheck: ProgramCheck = {
  program: "pi",
  versionArgs: ["--version"],
  description:
    "`pi --mode rpc --session <id>` on a copy (offline) exits 0 with our session id and the messages its file holds",
  async run(saved: SavedSession, { bin, storeRoot, cwd, timeoutMs }) {
    const base = await fs.mkdtemp(path.join(os.tmpdir(), "txcript-pi-verify-"));
    try {
      const { agentDir, home } = await offlineAgentDir(base);
      const relative = path.relative(storeRoot, saved.path);
      const inside =
        !relative.startsWith("..") && !path.isAbsolute(relative)
          ? relative
          : path.basename(saved.path);
      const sessions = path.join(agentDir, "sessions");
      const file = path.join(sessions, inside);
      await fs.mkdir(path.dirname(file), { recursive: true });
      await fs.copyFile(saved.path, file);
      // A flat store (PI_CODING_AGENT_SESSION_DIR) keeps no per-directory folders.
      const flat = path.dirname(inside) === ".";
      return await rpcCheck(bin, {
        id: saved.id,
        file,
        cwd,
        agentDir,
        home,
        timeoutMs,
        ...(flat ? { sessionDir: sessions } : {}),
      });
    } catch (error) {
      return { ok: false, detail: error instanceof Error ? error.message : String(error) };
    } finally {
      await fs.rm(base, { recursive: true, force: true });
    }
  },
};
