// Test support for the real-program checks: the transcripts to write (every
// fixture's Common document, the real captures, generated ones), a run of
// the pinned pi in RPC mode fully offline (temporary agent dir and HOME, a
// models.json pointing at 127.0.0.1:9, proxies there too, a timeout), and
// what pi's documented context building makes of a session file, computed
// from the file's JSON lines alone (not from this package's reader).
import { spawn } from "node:child_process";
import { existsSync, promises as fs, readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { commonCodec, type Transcript } from "@txcript/core";
import { transcriptArbitrary } from "@txcript/core/arbitraries";
import fc from "fast-check";

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");
export const realDirectory = path.resolve(repoRoot, "../shared/real");

export interface NamedTranscript {
  name: string;
  transcript: Transcript;
}

/** Every `fixtures/<harness>/<scenario>.common.json`, whichever harnesses have fixtures. */
export function fixtureTranscripts(): NamedTranscript[] {
  const out: NamedTranscript[] = [];
  const root = path.join(repoRoot, "fixtures");
  for (const harness of readdirSync(root).sort()) {
    const directory = path.join(root, harness);
    if (harness === "hostile" || !existsSync(directory)) continue;
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

/** Reproducible generated transcripts with at least one exchange. */
export function generatedTranscripts(count: number, seed = 15): NamedTranscript[] {
  return fc
    .sample(
      transcriptArbitrary().filter((transcript) => transcript.messages.length >= 2),
      { numRuns: count, seed },
    )
    .map((transcript, index) => ({ name: `generated #${index + 1}`, transcript }));
}

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
  };
  return new Promise((resolve, reject) => {
    const child = spawn(bin, ["--mode", "rpc", "--session", options.sessionArg], {
      cwd: options.cwd,
      env,
      stdio: ["pipe", "pipe", "pipe"],
      timeout: 60_000,
    });
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
