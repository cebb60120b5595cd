// What the target's model receives after `txcript continue`: the road a user
// walks, checked at the far end. In a temporary HOME (every store there, fake
// keys, proxies at 127.0.0.1:9 where nothing listens), the built `txcript`
// bin continues a session into a target with `--no-resume --json`; then the
// target's pinned real program resumes the written session non-interactively
// with one prompt against the recording stub (model-stub.ts), and the first
// request that carries the prompt is checked against the conversation:
//
// - every user text, tool call id and tool result of the part meant to be
//   sent is there (into pi, a failed turn's calls are not: pi sends no
//   failed assistant turn, not even of its own sessions). "Meant to be sent" is the whole conversation (read with
//   `txcript convert --to common`, the source's reader only) minus what the
//   continued session's archive index (`.txcript/<id>/index.md`, the
//   documented list) says was left out; a cut tool output or long message is
//   checked by its head only;
// - the `[txcript] … left out` note is there when something was left out;
// - the request's calls and results pair up by the API's own rules
//   (sent-history.ts): no orphan result, no call without a result.
//
// Nothing here reads txcript's writers: the expectation comes from the
// source's Common and the archive index, the verdict from the request body.
import { spawn } from "node:child_process";
import { existsSync, promises as fs, readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { programBin, programSkipReason } from "../../../scripts/real-programs.mjs";
import { type ProviderApi, type RecordedRequest, startModelStub } from "./model-stub.js";
import { type SentHistory, sentHistory, textOf } from "./sent-history.js";
import { repoRoot } from "./workspace.js";

export const cliBin = path.join(repoRoot, "packages/cli/dist/txcript.js");
export const realRoot = path.resolve(repoRoot, "../shared/real");

/** The prompt every resumed program is given: the marker of the new turn. */
export const prompt = "TXCRIPT_NEXT_TURN please go on";
const leftOutNote = "[txcript] Parts of this conversation were left out";
/** A port nothing listens on: every proxy variable points there. */
const deadProxy = "http://127.0.0.1:9";

export interface Target {
  harness: string;
  /** The programs of scripts/real-programs.mjs that resume it (newest first). */
  programs: string[];
  api: ProviderApi;
  /**
   * The program sends no failed assistant turn (stop reason `aborted` or
   * `error`), not even of its own sessions: its calls are not expected.
   */
  dropsFailedTurns?: boolean;
}

export const targets: Target[] = [
  { harness: "claude_code", programs: ["claude"], api: "anthropic" },
  { harness: "codex", programs: ["codex", "codex-legacy"], api: "responses" },
  // pi-ai 0.73.1 dist/providers/transform-messages.js (`transformMessages`) skips an
  // assistant message whose stopReason is "error" or "aborted" before any provider
  // request: pi resuming its own session leaves that turn out (docs/formats/pi.md).
  { harness: "pi", programs: ["pi"], api: "chat", dropsFailedTurns: true },
  { harness: "gemini_cli", programs: ["gemini"], api: "gemini" },
  { harness: "opencode", programs: ["opencode"], api: "chat" },
  // Both take an OpenAI-compatible chat completions endpoint offline (BYOK).
  { harness: "copilot_cli", programs: ["copilot"], api: "chat" },
  { harness: "qwen_code", programs: ["qwen"], api: "chat" },
];

/** A session to continue: a file given to `txcript continue`, or an id in a store placed in HOME. */
export interface SessionInput {
  /** Where it is shown: `real/<path under shared/real>` or `fixtures/<…>`. */
  name: string;
  /** The source harness. */
  harness: string;
  /** The file to continue (absolute). */
  file?: string;
  /** Or: the session id, found in a store tree copied into the temporary HOME. */
  id?: string;
  /** The store tree to copy, and where it goes under HOME. */
  store?: { from: string; to: string };
  /** More arguments for `txcript continue` (`--full`). */
  args?: string[];
}

function listed(directory: string, harness: string, match: RegExp): SessionInput[] {
  const folder = path.join(realRoot, directory);
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((name) => match.test(name))
    .sort()
    .map((name) => ({
      name: `real/${directory === "." ? name : `${directory}/${name}`}`,
      harness,
      file: path.join(folder, name),
    }));
}

/**
 * Every real session in ../shared/real, by source harness (empty when
 * ../shared is absent). A Claude Code sidechain file is a subagent's part
 * of its main session, not a session of its own: it is left out. The
 * pre-1.2 OpenCode storage tree is placed where OpenCode keeps it
 * ($XDG_DATA_HOME/opencode/storage) and continued by its id.
 */
export function realSessions(): SessionInput[] {
  if (!existsSync(realRoot)) return [];
  const storage = path.join(realRoot, "opencode/storage-pre-1.2-local-opencode");
  const stored = existsSync(path.join(storage, "session/global"))
    ? readdirSync(path.join(storage, "session/global"))
        .filter((name) => name.endsWith(".json"))
        .map((name) => ({
          name: `real/opencode/storage-pre-1.2-local-opencode (${name.replace(/\.json$/, "")})`,
          harness: "opencode",
          id: name.replace(/\.json$/, ""),
          store: { from: storage, to: ".local/share/opencode/storage" },
        }))
    : [];
  const sessions: SessionInput[] = [
    ...listed(".", "amp", /^amp-export.*\.json$/),
    ...listed(".", "stream_json", /^amp-stream.*\.jsonl$/),
    ...listed("claude-code", "claude_code", /^(?!.*sidechain).*\.jsonl$/),
    ...listed("codex", "codex", /\.jsonl$/),
    ...listed("pi", "pi", /\.jsonl$/),
    ...listed("opencode", "opencode", /\.json$/),
    ...stored,
    ...listed("gemini", "gemini_cli", /\.jsonl?$/),
  ];
  // Each compacted one again with --full: the whole history is then meant to be sent.
  return sessions.flatMap((input) =>
    input.file !== undefined && compacted(input.file)
      ? [input, { ...input, name: `${input.name} --full`, args: ["--full"] }]
      : [input],
  );
}

/** Whether a session file records a compaction (each harness's marker, as its format doc names it). */
function compacted(file: string): boolean {
  const text = readFileSync(file, "utf8");
  return /"subtype":\s*"compact_boundary"|"type":\s*"compacted"|"type":\s*"compaction"|"isCompactSummary":\s*true/.test(
    text,
  );
}

/** Why the real-session checks cannot run (undefined when they can). */
export function realSkipReason(): string | undefined {
  return existsSync(realRoot)
    ? undefined
    : `${realRoot} is absent (the shared real sessions live beside the repository)`;
}

/** Why the continue checks cannot run at all: the CLI is not built. */
export function cliSkipReason(): string | undefined {
  return existsSync(cliBin)
    ? undefined
    : `${cliBin} is missing: build first (\`pnpm build\`; \`pnpm interop\` and \`pnpm test\` do)`;
}

export interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Run a child with a hard timeout; stdout and stderr kept (bounded). */
export function runChild(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number },
): Promise<Ran> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      if (stdout.length < 4_000_000) stdout += chunk.toString("utf8");
    });
    child.stderr.on("data", (chunk: Buffer) => {
      if (stderr.length < 200_000) stderr += chunk.toString("utf8");
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      resolve({
        status: null,
        stdout,
        stderr: `${stderr}${String(error)}`,
        ms: Date.now() - started,
      });
    });
    child.on("close", (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr, ms: Date.now() - started });
    });
  });
}

interface Box {
  root: string;
  home: string;
  work: string;
  env: NodeJS.ProcessEnv;
}

/** The temporary HOME every child of one check shares: stores, XDG tree, fake keys, dead proxies. */
async function makeBox(programDirectory: string | undefined): Promise<Box> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), "txcript-continue-check-"));
  const home = path.join(root, "home");
  const work = path.join(root, "work");
  await fs.mkdir(home, { recursive: true });
  await fs.mkdir(work, { recursive: true });
  const env: NodeJS.ProcessEnv = {
    // The program's directory first: `txcript continue --with opencode` imports with `opencode`.
    PATH: [programDirectory, process.env.PATH ?? "/usr/bin:/bin"]
      .filter(Boolean)
      .join(path.delimiter),
    HOME: home,
    XDG_DATA_HOME: path.join(home, ".local/share"),
    XDG_CONFIG_HOME: path.join(home, ".config"),
    XDG_CACHE_HOME: path.join(home, ".cache"),
    XDG_STATE_HOME: path.join(home, ".local/state"),
    TMPDIR: path.join(root, "tmp"),
    HTTP_PROXY: deadProxy,
    HTTPS_PROXY: deadProxy,
    http_proxy: deadProxy,
    https_proxy: deadProxy,
    ALL_PROXY: deadProxy,
    NO_PROXY: "127.0.0.1,localhost",
    no_proxy: "127.0.0.1,localhost",
    NO_COLOR: "1",
    TXCRIPT_SEARCH_KEEPER: "0",
  };
  await fs.mkdir(path.join(root, "tmp"), { recursive: true });
  return { root, home, work, env };
}

/** The program's command line and environment for resuming `id` against the stub at `origin`. */
async function resumeCommand(
  target: string,
  box: Box,
  id: string,
  origin: string,
): Promise<{ args: string[]; env: NodeJS.ProcessEnv }> {
  const { home, env } = box;
  if (target === "claude_code")
    return {
      args: ["-p", "--resume", id, prompt],
      env: {
        ...env,
        CLAUDE_CONFIG_DIR: path.join(home, ".claude"),
        ANTHROPIC_API_KEY: "txcript-fake-key",
        ANTHROPIC_BASE_URL: origin,
        CLAUDE_CODE_MAX_RETRIES: "0",
        DISABLE_AUTOUPDATER: "1",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      },
    };
  if (target === "codex")
    return {
      args: [
        "exec",
        "-c",
        `openai_base_url=${JSON.stringify(`${origin}/v1`)}`,
        "--skip-git-repo-check",
        "resume",
        id,
        prompt,
      ],
      env: {
        ...env,
        CODEX_HOME: path.join(home, ".codex"),
        OPENAI_API_KEY: "sk-fake",
        RUST_LOG: "error",
      },
    };
  if (target === "pi") {
    const agent = path.join(home, ".pi/agent");
    await fs.mkdir(agent, { recursive: true });
    const models = {
      providers: {
        loop: {
          baseUrl: `${origin}/v1`,
          api: "openai-completions",
          apiKey: "fake",
          // A window no real session's last turn fills. pi gives a models.json model
          // 128,000 tokens unless told, and before a prompt compacts when the last
          // assistant turn's usage is within 16,384 of it (pi-coding-agent 0.73.1,
          // core/model-registry.js and core/agent-session.js `_checkCompaction`): the
          // stub then answers the summary request with its canned text, which
          // replaces the session's own summary and is what the check would measure.
          models: [{ id: "fake-1", contextWindow: 10_000_000 }],
        },
      },
    };
    await fs.writeFile(path.join(agent, "models.json"), JSON.stringify(models));
    return {
      args: ["-p", "--session", id, "--model", "loop/fake-1", prompt],
      env: { ...env, PI_CODING_AGENT_DIR: agent, PI_OFFLINE: "1", PI_TELEMETRY: "0" },
    };
  }
  if (target === "gemini_cli") {
    const settings = {
      general: { retryFetchErrors: false, maxAttempts: 1, sessionRetention: { enabled: false } },
      security: { auth: { selectedType: "gemini-api-key" } },
    };
    await fs.mkdir(path.join(home, ".gemini"), { recursive: true });
    await fs.writeFile(path.join(home, ".gemini/settings.json"), JSON.stringify(settings));
    return {
      // A model named: no routing classifier request before the turn.
      args: ["-p", prompt, "-m", "gemini-2.5-flash", "--resume", id, "-o", "json", "--skip-trust"],
      env: {
        ...env,
        GEMINI_CLI_HOME: home,
        GEMINI_API_KEY: "txcript-fake-key",
        GOOGLE_GEMINI_BASE_URL: origin,
      },
    };
  }
  if (target === "opencode") {
    const config = {
      $schema: "https://opencode.ai/config.json",
      provider: {
        loop: {
          npm: "@ai-sdk/openai-compatible",
          name: "loop",
          options: { baseURL: `${origin}/v1`, apiKey: "fake" },
          models: { stub: { name: "stub" } },
        },
      },
      model: "loop/stub",
    };
    await fs.writeFile(path.join(box.work, "opencode.json"), JSON.stringify(config));
    return {
      args: ["run", "--session", id, "-m", "loop/stub", prompt],
      env: {
        ...env,
        OPENCODE_DISABLE_AUTOUPDATE: "1",
        OPENCODE_DISABLE_MODELS_FETCH: "1",
        OPENCODE_DISABLE_SHARE: "1",
        OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
        OPENAI_API_KEY: "fake",
        ANTHROPIC_API_KEY: "fake",
      },
    };
  }
  if (target === "copilot_cli")
    return {
      // As copilot-cli-verify.ts runs it: BYOK against the stub, nothing else reachable.
      args: [`--resume=${id}`, "-p", prompt, "--allow-all-tools"],
      env: {
        ...env,
        // The program unpacks itself (some 200 MB) under XDG_CACHE_HOME on first run: kept
        // between cells, as copilot-cli-verify.ts keeps it.
        XDG_CACHE_HOME: path.join(os.tmpdir(), "txcript-copilot-cache"),
        COPILOT_OFFLINE: "true",
        COPILOT_PROVIDER_BASE_URL: `${origin}/v1`,
        COPILOT_PROVIDER_API_KEY: "txcript-fake-key",
        COPILOT_MODEL: "txcript-stub-model",
        TERM: "dumb",
      },
    };
  if (target === "qwen_code")
    return {
      // As qwen-code-verify.ts runs it: the openai auth type with a fake key, the stub's base URL.
      args: ["--auth-type", "openai", `--resume=${id}`, prompt],
      env: {
        ...env,
        OPENAI_API_KEY: "txcript-fake-key",
        OPENAI_BASE_URL: `${origin}/v1`,
        OPENAI_MODEL: "stub-model",
        QWEN_DISABLE_AUTO_TITLE: "1",
        QWEN_CODE_SUPPRESS_YOLO_WARNING: "1",
        TERM: "dumb",
      },
    };
  throw new Error(`no resume command for ${target}`);
}

// ---- what was meant to be sent ----

interface CommonBlock {
  type: string;
  text?: string;
  summary?: string;
  id?: string;
  toolUseId?: string;
  content?: unknown;
  history?: CommonMessage[];
}
interface CommonMessage {
  role: string;
  content: CommonBlock[];
  context?: unknown;
  stopReason?: string;
}

/** Whitespace collapsed, so a program's own line handling does not matter. */
export function squash(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** A text's head for a containment check. */
function head(text: string, length: number): string {
  return squash(text).slice(0, length).trim();
}

/** The head of a result string that holds serialized JSON content, read by its strings. */
function unwrappedHead(content: unknown, length: number): string | undefined {
  if (typeof content !== "string" || !/^\s*[[{]/.test(content)) return undefined;
  try {
    const text = head(textOf(JSON.parse(content)), length);
    return text === "" ? undefined : text;
  } catch {
    return undefined;
  }
}

export interface Expected {
  userTexts: { ordinal: number; head: string }[];
  /**
   * Compaction summaries: sent in whatever role the target gives them. Where
   * the source recorded the history it sent instead (Codex
   * replacement_history), sending that history's user texts does as well.
   */
  summaries: { ordinal: number; head: string; history: string[] }[];
  calls: { ordinal: number; id: string }[];
  /** `unwrapped`: the head of a string result that is serialized JSON, by its strings (a writer may send it parsed). */
  results: { ordinal: number; id: string; head: string; unwrapped?: string | undefined }[];
  /** Something was left out: the note must be sent. */
  note: boolean;
}

/** Ordinals index.md names, and what it says of each. */
export function readIndex(text: string): { firstKept: number; cuts: Map<number, string> } {
  let firstKept = 1;
  const cuts = new Map<number, string>();
  for (const line of text.split("\n")) {
    const before = /^- messages #1-(\d+): before the last compaction/.exec(line);
    if (before) firstKept = Number(before[1]) + 1;
    const cut = /^- message #(\d+): (.*)$/.exec(line);
    if (cut) cuts.set(Number(cut[1]), cut[2] ?? "");
  }
  return { firstKept, cuts };
}

/** What the model should receive, from the whole conversation and the archive index (when there is one). */
export function expectedFrom(
  messages: CommonMessage[],
  index: string | undefined,
  /** `--full` was given: nothing is meant to be left out before a compaction, whatever the index says. */
  full = false,
  /** The target sends no failed assistant turn (Target.dropsFailedTurns): its calls are not meant to be sent. */
  dropsFailedTurns = false,
): Expected {
  const read =
    index === undefined ? { firstKept: 1, cuts: new Map<number, string>() } : readIndex(index);
  const firstKept = full ? 1 : read.firstKept;
  const cuts = read.cuts;
  const expected: Expected = {
    userTexts: [],
    summaries: [],
    calls: [],
    results: [],
    note: index !== undefined,
  };
  const modelCalls = new Set<string>();
  messages.forEach((message, position) => {
    const ordinal = position + 1;
    if (ordinal < firstKept) return;
    const cut = cuts.get(ordinal) ?? "";
    if (/whole turn left out|result of a call that was left out/.test(cut)) return;
    const headLength = /head and tail/.test(cut) ? 24 : 60;
    const failed =
      dropsFailedTurns &&
      message.role === "assistant" &&
      (message.stopReason === "aborted" || message.stopReason === "error");
    for (const block of message.content) {
      if (
        block.type === "compaction" &&
        typeof block.summary === "string" &&
        squash(block.summary) !== ""
      )
        expected.summaries.push({
          ordinal,
          head: head(block.summary, headLength),
          history: (block.history ?? []).flatMap((entry) =>
            entry.role === "user" && entry.context === undefined
              ? entry.content.flatMap((part) =>
                  part.type === "text" && typeof part.text === "string" && squash(part.text) !== ""
                    ? [head(part.text, 60)]
                    : [],
                )
              : [],
          ),
        });
      if (
        block.type === "text" &&
        message.role === "user" &&
        message.context === undefined &&
        typeof block.text === "string" &&
        squash(block.text) !== ""
      )
        expected.userTexts.push({ ordinal, head: head(block.text, headLength) });
      // A call in a user-role message is one the person ran (a slash command):
      // no provider API carries it as a call, so neither it nor its result
      // is required as one (the pairing rules still hold for what is sent).
      // Nor is a failed turn's call into a target that sends no failed turn.
      if (
        block.type === "tool_use" &&
        typeof block.id === "string" &&
        message.role === "assistant" &&
        !failed
      ) {
        expected.calls.push({ ordinal, id: block.id });
        modelCalls.add(block.id);
      }
      if (
        block.type === "tool_result" &&
        typeof block.toolUseId === "string" &&
        modelCalls.has(block.toolUseId)
      )
        expected.results.push({
          ordinal,
          id: block.toolUseId,
          head: typeof block.content === "string" ? head(block.content, headLength) : "",
          unwrapped: unwrappedHead(block.content, headLength),
        });
    }
  });
  return expected;
}

/** What the request lacks or breaks, against what was meant (empty when it carries everything). */
export function compare(sent: SentHistory, expected: Expected): string[] {
  const problems = [...sent.problems];
  const userText = squash(sent.userTexts.join("\n"));
  const allText = squash(sent.allTexts.join("\n"));
  if (!userText.includes(prompt)) problems.push("the new prompt is not in a user turn");
  for (const item of expected.userTexts)
    if (!userText.includes(item.head))
      problems.push(
        `user text of message #${item.ordinal} missing: ${JSON.stringify(item.head.slice(0, 60))}`,
      );
  for (const item of expected.summaries)
    if (
      !allText.includes(item.head) &&
      !(item.history.length > 0 && item.history.every((text) => allText.includes(text)))
    )
      problems.push(
        `compaction summary of message #${item.ordinal} missing: ${JSON.stringify(item.head.slice(0, 60))}`,
      );
  const callIds = new Set(sent.calls.map((call) => call.id));
  for (const call of expected.calls)
    if (!callIds.has(call.id))
      problems.push(`tool call ${call.id} (message #${call.ordinal}) missing`);
  for (const result of expected.results) {
    const found = sent.results.filter((item) => item.id === result.id);
    if (found.length === 0)
      problems.push(`result of ${result.id} (message #${result.ordinal}) missing`);
    else if (
      result.head !== "" &&
      !found.some(
        (item) =>
          squash(item.text).includes(result.head) ||
          (result.unwrapped !== undefined && squash(item.text).includes(result.unwrapped)),
      )
    )
      problems.push(
        `result of ${result.id} (message #${result.ordinal}) does not carry its text ${JSON.stringify(result.head.slice(0, 40))}`,
      );
  }
  if (expected.note && !allText.includes(leftOutNote))
    problems.push("the left-out note is not sent");
  return problems;
}

// ---- one check ----

export interface CheckOptions {
  /** Change the written session before the program resumes it (the controls). */
  tamper?: (written: {
    path: string;
    id: string;
    box: Box;
    env: NodeJS.ProcessEnv;
  }) => Promise<void>;
  timeoutMs?: number;
}

export interface CheckResult {
  ok: boolean;
  /** One line: what failed, or what was sent. */
  detail: string;
  /** Every problem found (empty when ok). */
  problems: string[];
  continueStatus: number | null;
  programStatus: number | null;
  /** Milliseconds of `txcript continue` and of the program's run. */
  continueMs: number;
  programMs: number;
  /** The command line of the continue, for the findings. */
  command: string;
}

function last(text: string): string {
  return squash(text.split("\n").slice(-4).join(" ")).slice(0, 300);
}

/** The recorded request that is the resumed turn: of the target's API, carrying the prompt, with the most history. */
export function resumedTurn(
  requests: RecordedRequest[],
  api: ProviderApi,
): RecordedRequest | undefined {
  let best: { request: RecordedRequest; entries: number } | undefined;
  for (const request of requests) {
    if (request.api !== api || request.body === undefined) continue;
    if (!JSON.stringify(request.body).includes(prompt)) continue;
    const entries = sentHistory(api, request.body).entries;
    if (best === undefined || entries > best.entries) best = { request, entries };
  }
  return best?.request;
}

/** Continue `input` into `target` with `program` and check what the program sends its model. */
export async function checkContinue(
  input: SessionInput,
  target: Target,
  program: string,
  options: CheckOptions = {},
): Promise<CheckResult> {
  const timeoutMs = options.timeoutMs ?? 180_000;
  const bin = programBin(program) as string | undefined;
  const base = { continueStatus: null, programStatus: null, continueMs: 0, programMs: 0 };
  const source = input.file ?? input.id ?? "";
  const extra = input.args ?? [];
  const command = `txcript continue ${source} --with ${target.harness} --no-resume --json${extra.map((arg) => ` ${arg}`).join("")}`;
  if (bin === undefined) {
    const detail = `${program} is not installed: ${programSkipReason(program)}`;
    return { ok: false, detail, problems: [detail], ...base, command };
  }
  const box = await makeBox(path.dirname(bin));
  try {
    if (input.store !== undefined) {
      const into = path.join(box.home, input.store.to);
      await fs.mkdir(path.dirname(into), { recursive: true });
      await fs.cp(input.store.from, into, { recursive: true });
    }
    const continued = await runChild(
      process.execPath,
      [cliBin, "continue", source, "--with", target.harness, "--no-resume", "--json", ...extra],
      { cwd: box.work, env: box.env, timeoutMs },
    );
    const result = { ...base, continueStatus: continued.status, continueMs: continued.ms, command };
    if (continued.status !== 0) {
      const detail = `txcript continue exited ${continued.status}: ${last(continued.stderr)}`;
      return { ok: false, detail, problems: [detail], ...result };
    }
    const written = JSON.parse(continued.stdout) as {
      outputs: { harness: string; path: string; sessionId?: string }[];
    };
    const session = written.outputs.find((output) => output.harness === target.harness);
    const archive = written.outputs.find((output) => output.harness === "common");
    if (session?.sessionId === undefined) {
      const detail = `txcript continue named no ${target.harness} session: ${continued.stdout.slice(0, 200)}`;
      return { ok: false, detail, problems: [detail], ...result };
    }
    // The whole conversation, read by the source's reader alone (a stored session by its
    // harness's store: the target now holds a session of the same id too).
    const common = path.join(box.root, "whole.common.json");
    const from = input.id === undefined ? [] : ["--from", input.harness];
    const converted = await runChild(
      process.execPath,
      [cliBin, "convert", source, ...from, "--to", "common", "-o", common, "-q"],
      { cwd: box.work, env: box.env, timeoutMs },
    );
    if (converted.status !== 0) {
      const detail = `txcript convert --to common exited ${converted.status}: ${last(converted.stderr)}`;
      return { ok: false, detail, problems: [detail], ...result };
    }
    const whole = JSON.parse(await fs.readFile(common, "utf8")) as { messages: CommonMessage[] };
    const index =
      archive === undefined
        ? undefined
        : await fs.readFile(path.join(archive.path, "index.md"), "utf8").catch(() => "");
    const expected = expectedFrom(
      whole.messages,
      index,
      extra.includes("--full"),
      target.dropsFailedTurns === true,
    );
    const stub = await startModelStub({ limit: 40, lifetimeMs: timeoutMs + 10_000 });
    try {
      const resume = await resumeCommand(target.harness, box, session.sessionId, stub.origin);
      await options.tamper?.({ path: session.path, id: session.sessionId, box, env: resume.env });
      const ran = await runChild(bin, resume.args, { cwd: box.work, env: resume.env, timeoutMs });
      const outcome = { ...result, programStatus: ran.status, programMs: ran.ms };
      const turn = resumedTurn(stub.requests, target.api);
      if (turn?.body === undefined) {
        const detail = `${program} exited ${ran.status} and sent no request with the prompt (${stub.requests.length} requests): ${last(`${ran.stdout}\n${ran.stderr}`)}`;
        return { ok: false, detail, problems: [detail], ...outcome };
      }
      const sent = sentHistory(target.api, turn.body);
      const problems = compare(sent, expected);
      if (ran.status !== 0)
        problems.push(`${program} exited ${ran.status}: ${last(`${ran.stdout}\n${ran.stderr}`)}`);
      return {
        ok: problems.length === 0,
        detail:
          problems.length === 0
            ? `sent ${sent.entries} entries: ${expected.userTexts.length} user texts, ${expected.calls.length} calls and ${expected.results.length} results as meant${expected.note ? ", and the left-out note" : ""}`
            : `${problems.length} problem${problems.length === 1 ? "" : "s"}: ${problems.slice(0, 3).join("; ")}`,
        problems,
        ...outcome,
      };
    } finally {
      await stub.close();
    }
  } catch (error) {
    const detail = `the check threw: ${error instanceof Error ? error.message : String(error)}`;
    return { ok: false, detail, problems: [detail], ...base, command };
  } finally {
    await fs.rm(box.root, { recursive: true, force: true, maxRetries: 3 });
  }
}
