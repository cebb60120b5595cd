// The road users walk is the road the library is tested on: for every
// fixture, shared real session and generated session, `txcript export` of the
// file by path is the harness's own load of it into Common, and so is
// `txcript export <id>` once its files are placed in a temporary store. Each
// subagent tool call in the native files reaches the exported document,
// counted here by a reader of the native files written from the format docs
// (docs/formats/*.md), not by the codecs. The control reads the same files the
// old way (the session file's text, parsed alone) and shows the counting law
// failing there: the law can see lost subagents.
import { existsSync, promises as fs, readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import {
  type AnyHarness,
  type Block,
  commonCodec,
  loadSessionFile,
  type Subagent,
  type Transcript,
} from "@txcript/core";
import { defaultRegistry } from "@txcript/harnesses";
import { describe, expect, it } from "vitest";
import { fixturesRoot, type Home, realRoot, txcript, useHome } from "./e2e.js";

let home: Home;
useHome((made) => {
  home = made;
});

// ---------------------------------------------------------------------------
// The independent counter: tool calls in subagent files, from the format docs.

type Row = Record<string, unknown>;

function jsonLines(text: string): Row[] {
  const rows: Row[] = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    try {
      const value: unknown = JSON.parse(line);
      if (typeof value === "object" && value !== null && !Array.isArray(value))
        rows.push(value as Row);
    } catch {
      // a cut or foreign line holds no call we count
    }
  }
  return rows;
}

/**
 * Claude Code (docs/formats/claude-code.md): an assistant line's
 * `message.content` holds `tool_use` blocks with an `id`; a subagent's lines
 * are those of `<id>/subagents/agent-*.jsonl` and (1.0.x) the main file's
 * `isSidechain: true` lines.
 */
function claudeSubagentCalls(sessionFile: string): Set<string> {
  const ids = new Set<string>();
  const collect = (rows: Row[], all: boolean) => {
    for (const row of rows) {
      if (row.type !== "assistant" || (!all && row.isSidechain !== true)) continue;
      const content = (row.message as Row | undefined)?.content;
      if (!Array.isArray(content)) continue;
      for (const block of content as Row[])
        if (block.type === "tool_use" && typeof block.id === "string") ids.add(block.id);
    }
  };
  collect(jsonLines(readText(sessionFile)), false);
  const directory = path.join(
    path.dirname(sessionFile),
    path.basename(sessionFile, ".jsonl"),
    "subagents",
  );
  if (existsSync(directory))
    for (const name of readdirSync(directory))
      if (/^agent-.*\.jsonl$/.test(name))
        collect(jsonLines(readText(path.join(directory, name))), true);
  return ids;
}

function readText(file: string): string {
  return readFileSync(file, "utf8");
}

/** Every tool call id in a Common document's subagents, nested ones included. */
function commonSubagentCalls(document: Transcript): Set<string> {
  const ids = new Set<string>();
  const walk = (subagents: readonly Subagent[] | undefined) => {
    for (const subagent of subagents ?? []) {
      for (const message of subagent.messages)
        for (const block of message.content as Block[])
          if (block.type === "tool_use") ids.add(block.id);
      walk(subagent.subagents);
    }
  };
  walk(document.subagents);
  return ids;
}

/** The law: every subagent call the native files hold is in the document. */
function missingCalls(native: Set<string>, document: Transcript): string[] {
  const reached = commonSubagentCalls(document);
  return [...native].filter((id) => !reached.has(id));
}

// ---------------------------------------------------------------------------
// Sessions: where they come from, and how they sit in a store.

interface Case {
  label: string;
  harness: string;
  /** Files to place: path in the store root → source file (or text). */
  place: (storeRoot: string) => Promise<{ file: string; id: string }>;
  /** The subagent tool calls of the placed session, by the independent counter. */
  count?: (placed: string) => Set<string>;
  /** How many that counter must find (so the law cannot pass on none). */
  calls?: number;
}

const claude = "claude_code";

/** A Claude Code session file (and its subagent files) placed as `<root>/projects/-work/<id>.jsonl`. */
function claudeCase(
  label: string,
  main: string | (() => string),
  subagents: Record<string, string | (() => string)> = {},
  id?: string,
): Case {
  const text = (source: string | (() => string)) =>
    typeof source === "function" ? source() : readText(source);
  return {
    label,
    harness: claude,
    place: async (root) => {
      const mainText = text(main);
      const sessionId =
        id ?? jsonLines(mainText).find((row) => typeof row.sessionId === "string")?.sessionId;
      const name =
        typeof sessionId === "string" ? sessionId : "5e551011-0000-4000-8000-0000000000aa";
      const directory = path.join(root, ".claude", "projects", "-work");
      await fs.mkdir(directory, { recursive: true });
      const file = path.join(directory, `${name}.jsonl`);
      await fs.writeFile(file, mainText);
      for (const [agentId, source] of Object.entries(subagents)) {
        const side = path.join(directory, name, "subagents", `agent-${agentId}.jsonl`);
        await fs.mkdir(path.dirname(side), { recursive: true });
        await fs.writeFile(side, text(source));
      }
      return { file, id: name };
    },
    count: claudeSubagentCalls,
  };
}

/**
 * A generated Claude Code 2.x session (docs/formats/claude-code.md): `tasks`
 * Task calls, each answered with `toolUseResult.agentId`, and each subagent's
 * conversation in its own file with `calls[k]` Bash calls.
 */
function generatedClaude(seed: number, calls: number[]): Case {
  const sessionId = `5e551011-0000-4000-8000-${(0xc0 + seed).toString(16).padStart(12, "0")}`;
  let n = 0;
  const uuid = () => {
    n += 1;
    return `${seed.toString(16).padStart(8, "0")}-0000-4000-8000-${n.toString(16).padStart(12, "0")}`;
  };
  const time = () => new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString();
  const envelope = (parentUuid: string | null, extra: Row) => ({
    parentUuid,
    isSidechain: false,
    userType: "external",
    cwd: "/work",
    sessionId,
    version: "2.1.39",
    uuid: uuid(),
    timestamp: time(),
    ...extra,
  });
  const assistant = (parent: string | null, content: Row[], extra: Row = {}) =>
    envelope(parent, {
      type: "assistant",
      message: {
        id: `msg_${seed}_${n}`,
        type: "message",
        role: "assistant",
        model: "claude-sonnet-4-5-20250929",
        content,
        stop_reason: null,
        usage: { input_tokens: 1, output_tokens: 1 },
      },
      ...extra,
    });
  const user = (parent: string | null, content: unknown, extra: Row = {}) =>
    envelope(parent, { type: "user", message: { role: "user", content }, ...extra });
  const main: Row[] = [];
  const files: Record<string, string> = {};
  let last: string | null = null;
  const push = (rows: Row[], row: Row) => {
    rows.push(row);
    return row.uuid as string;
  };
  last = push(main, user(null, "Look around with helpers."));
  calls.forEach((count, task) => {
    const agentId = `a${seed.toString(16)}${task.toString(16).padStart(4, "0")}`;
    const taskId = `toolu_task_${seed}_${task}`;
    last = push(
      main,
      assistant(last, [
        {
          type: "tool_use",
          id: taskId,
          name: "Task",
          input: {
            description: `task ${task}`,
            prompt: `Do part ${task}.`,
            subagent_type: "Explore",
          },
        },
      ]),
    );
    const side: Row[] = [];
    const sidechain = { isSidechain: true, agentId };
    let sideLast: string | null = push(side, user(null, `Do part ${task}.`, sidechain));
    for (let call = 0; call < count; call += 1) {
      const callId = `toolu_sub_${seed}_${task}_${call}`;
      sideLast = push(
        side,
        assistant(
          sideLast,
          [{ type: "tool_use", id: callId, name: "Bash", input: { command: `ls ${call}` } }],
          sidechain,
        ),
      );
      sideLast = push(
        side,
        user(
          sideLast,
          [{ type: "tool_result", tool_use_id: callId, content: `file${call}` }],
          sidechain,
        ),
      );
    }
    push(side, assistant(sideLast, [{ type: "text", text: `part ${task} done` }], sidechain));
    files[agentId] = `${side.map((row) => JSON.stringify(row)).join("\n")}\n`;
    last = push(
      main,
      user(last, [{ type: "tool_result", tool_use_id: taskId, content: `part ${task} done` }], {
        toolUseResult: { status: "completed", agentId, content: [{ type: "text", text: "done" }] },
      }),
    );
  });
  // A last turn of its own, so a budget can keep it and cut the tasks before it.
  last = push(main, user(last, "Now sum it up."));
  push(main, assistant(last, [{ type: "text", text: "All parts done." }]));
  const mainText = `${main.map((row) => JSON.stringify(row)).join("\n")}\n`;
  return {
    ...claudeCase(
      `generated claude_code 2.x session ${seed} (${calls.join("+")} subagent calls)`,
      () => mainText,
      Object.fromEntries(Object.entries(files).map(([id, text]) => [id, () => text])),
      sessionId,
    ),
    calls: calls.reduce((sum, count) => sum + count, 0),
  };
}

/**
 * Codex (docs/formats/codex.md): a subagent is a rollout of its own whose
 * session_meta names the parent thread (`parent_thread_id`); its calls are
 * `response_item` payloads of type `function_call` / `custom_tool_call`, by `call_id`.
 */
function codexSubagentCalls(rolloutFile: string): Set<string> {
  const ids = new Set<string>();
  // <home>/sessions/YYYY/MM/DD/<rollout>
  const home = path.resolve(path.dirname(rolloutFile), "..", "..", "..", "..");
  const sessionId = (rows: Row[]) => {
    const payload = rows[0]?.payload as Row | undefined;
    return String(payload?.id ?? rows[0]?.id ?? "").toLowerCase();
  };
  const rollouts = new Map<string, Row[]>();
  const walk = (directory: string) => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      const full = path.join(directory, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith(".jsonl")) rollouts.set(full, jsonLines(readText(full)));
    }
  };
  walk(path.join(home, "sessions"));
  const parentOf = (rows: Row[]) => {
    const payload = (rows[0]?.payload ?? {}) as Row;
    const spawn = ((payload.source as Row | undefined)?.subagent as Row | undefined)
      ?.thread_spawn as Row | undefined;
    return String(payload.parent_thread_id ?? spawn?.parent_thread_id ?? "").toLowerCase();
  };
  const collect = (parent: string, depth: number) => {
    if (depth > 3) return;
    for (const rows of rollouts.values()) {
      if (parentOf(rows) !== parent) continue;
      for (const row of rows) {
        const payload = row.payload as Row | undefined;
        if (
          row.type === "response_item" &&
          (payload?.type === "function_call" || payload?.type === "custom_tool_call") &&
          typeof payload.call_id === "string"
        )
          ids.add(payload.call_id);
      }
      collect(sessionId(rows), depth + 1);
    }
  };
  collect(sessionId(rollouts.get(rolloutFile) ?? jsonLines(readText(rolloutFile))), 0);
  return ids;
}

/** A Codex rollout (and its subagents' rollouts) placed in `~/.codex/sessions/YYYY/MM/DD/`. */
function codexCase(label: string, main: () => string, children: (() => string)[] = []): Case {
  return {
    label,
    harness: "codex",
    place: async (root) => {
      const day = path.join(root, ".codex", "sessions", "2026", "06", "19");
      await fs.mkdir(day, { recursive: true });
      const write = async (text: string, index: number) => {
        const first = jsonLines(text.split("\n", 1)[0] ?? "")[0] ?? {};
        const id = String((first.payload as Row | undefined)?.id ?? first.id).toLowerCase();
        const file = path.join(day, `rollout-2026-06-19T10-0${index}-00-${id}.jsonl`);
        await fs.writeFile(file, text);
        return { file, id };
      };
      const placed = await write(main(), 0);
      for (const [index, child] of children.entries()) await write(child(), index + 1);
      return placed;
    },
    count: codexSubagentCalls,
  };
}

/** The real subagent rollout made the child of `parent` as agent `agent` (its session_meta rewritten). */
function codexChild(template: string, parent: string, agent: string): () => string {
  return () => {
    const [first, ...rest] = readText(template).split("\n");
    const meta = JSON.parse(first as string) as { payload: Row };
    const old = String(meta.payload.id);
    meta.payload.id = agent;
    meta.payload.parent_thread_id = parent;
    const spawn = ((meta.payload.source as Row).subagent as Row).thread_spawn as Row;
    spawn.parent_thread_id = parent;
    // Each agent's calls get ids of their own (the template's, suffixed with the agent's tail).
    return [JSON.stringify(meta), ...rest]
      .join("\n")
      .replaceAll(old, agent)
      .replace(/"call_id":"([^"]+)"/g, `"call_id":"$1-${agent.slice(-4)}"`);
  };
}

/**
 * Gemini CLI (docs/formats/gemini-cli.md): a subagent's recording lies in
 * `chats/<parent session id>/`; its calls are the `toolCalls` of its records, by `id`.
 */
function geminiSubagentCalls(recording: string): Set<string> {
  const ids = new Set<string>();
  const text = readText(recording);
  const first = jsonLines(text)[0] ?? (JSON.parse(text) as Row);
  const walk = (directory: string, depth: number) => {
    if (!existsSync(directory) || depth > 3) return;
    for (const name of readdirSync(directory).filter((entry) => entry.endsWith(".jsonl"))) {
      const rows = jsonLines(readText(path.join(directory, name)));
      for (const row of rows)
        for (const call of (row.toolCalls as Row[] | undefined) ?? [])
          if (typeof call.id === "string") ids.add(call.id);
      walk(path.join(path.dirname(directory), String(rows[0]?.sessionId)), depth + 1);
    }
  };
  walk(path.join(path.dirname(recording), String(first.sessionId)), 0);
  return ids;
}

/** The Gemini CLI store fixture placed as `~/.gemini`; the case is the recording of `id`. */
function geminiStoreCase(label: string, id: string, relative: string): Case {
  return {
    label,
    harness: "gemini_cli",
    place: async (root) => {
      const target = path.join(root, ".gemini");
      await fs.cp(path.join(fixturesRoot, "gemini-cli", "store"), target, {
        recursive: true,
        filter: (source) => !source.endsWith(".common.json"),
      });
      return { file: path.join(target, relative), id };
    },
    count: geminiSubagentCalls,
  };
}

/** A Gemini CLI recording placed in a project's chats (`~/.gemini/tmp/<project>/chats/`). */
function geminiCase(label: string, source: string): Case {
  return {
    label,
    harness: "gemini_cli",
    place: async (root) => {
      const chats = path.join(root, ".gemini", "tmp", "work", "chats");
      await fs.mkdir(chats, { recursive: true });
      const text = readText(source);
      const first = jsonLines(text)[0] ?? {};
      const id = String(first.sessionId ?? (JSON.parse(text) as Row).sessionId);
      const file = path.join(
        chats,
        `session-2026-01-01T00-00-${id.slice(0, 8)}${path.extname(source)}`,
      );
      await fs.writeFile(file, text);
      return { file, id };
    },
    count: geminiSubagentCalls,
  };
}

/** The Qwen Code 0.24.4 recording with a subagent transcript (fixtures/qwen-code/subagent) placed as `~/.qwen`. */
function qwenStoreCase(label: string, id: string): Case {
  return {
    label,
    harness: "qwen_code",
    place: async (root) => {
      const target = path.join(root, ".qwen");
      await fs.cp(path.join(fixturesRoot, "qwen-code", "subagent"), target, { recursive: true });
      return { file: path.join(target, "projects", "-tmp-qwork-p", "chats", `${id}.jsonl`), id };
    },
  };
}

function withCalls(calls: number, item: Case): Case {
  return { ...item, calls };
}

function filesIn(directory: string, pattern: RegExp): string[] {
  if (!existsSync(directory)) return [];
  return readdirSync(directory)
    .filter((name) => pattern.test(name))
    .sort()
    .map((name) => path.join(directory, name));
}

const claudeStore = path.join(fixturesRoot, "claude-code", "store", "-workspace");
const storeId = "5e551011-0000-4000-8000-000000000009";
const realClaude = path.join(realRoot, "claude-code");
const hasReal = existsSync(realRoot);
const realCodex = path.join(realRoot, "codex");
const realCodexMainId = "019edda8-7eca-7710-b78b-6ce7607beaa1";
const realCodexMain = path.join(realCodex, `rollout-2026-06-19T10-14-27-${realCodexMainId}.jsonl`);
const realCodexChild = path.join(
  realCodex,
  "rollout-2026-06-19T12-32-38-019ede26-ff03-7a82-bb34-cfab716a498a.jsonl",
);
if (!hasReal)
  console.warn(`SKIPPED: ${realRoot} is absent; the real sessions' road laws do not run`);

const cases: Case[] = [
  ...filesIn(path.join(fixturesRoot, "claude-code"), /\.jsonl$/).map((file) =>
    claudeCase(`fixture claude-code/${path.basename(file)}`, file),
  ),
  withCalls(
    1,
    claudeCase(
      "fixture claude-code/store (2.x with a subagent file)",
      path.join(claudeStore, `${storeId}.jsonl`),
      Object.fromEntries(
        filesIn(path.join(claudeStore, storeId, "subagents"), /^agent-.*\.jsonl$/).map((file) => [
          path.basename(file, ".jsonl").slice("agent-".length),
          file,
        ]),
      ),
      storeId,
    ),
  ),
  ...(hasReal
    ? [
        ...filesIn(realClaude, /^viewer-.*\.jsonl$/).map((file) =>
          claudeCase(`real claude-code/${path.basename(file)}`, file),
        ),
        claudeCase(
          "real claude-code fasthooks 2.0.76 main + subagent file",
          path.join(realClaude, "fasthooks-main-2.0.76.jsonl"),
          { af1ff21: path.join(realClaude, "fasthooks-sidechain-2.0.76.jsonl") },
        ),
      ]
    : []),
  ...filesIn(path.join(fixturesRoot, "codex"), /\.jsonl$/).map((file) =>
    codexCase(`fixture codex/${path.basename(file)}`, () => readText(file)),
  ),
  ...(hasReal
    ? [
        ...filesIn(realCodex, /^rollout-.*\.jsonl$/).map((file) =>
          codexCase(`real codex/${path.basename(file).slice(0, 40)}…`, () => readText(file)),
        ),
        // The real main thread's two spawn_agent calls, each answered by a real subagent rollout.
        withCalls(
          2,
          codexCase(
            "real codex spawn_agent thread with its two agents' rollouts (spliced)",
            () => readText(realCodexMain),
            [
              codexChild(realCodexChild, realCodexMainId, "019eddaa-3bb4-7da3-8f6f-2bb5e10f4e42"),
              codexChild(realCodexChild, realCodexMainId, "019eddaa-3c59-71a0-994c-3fe7d496a131"),
            ],
          ),
        ),
      ]
    : []),
  withCalls(
    1,
    geminiStoreCase(
      "fixture gemini-cli/store (a recording with a subagent recording)",
      "aa11bb22-3c4d-4e5f-8a6b-7c8d9e0f1a2b",
      "tmp/shop/chats/session-2026-05-11T09-00-aa11bb22.jsonl",
    ),
  ),
  ...filesIn(path.join(fixturesRoot, "gemini-cli"), /^(?!.*\.common\.json$).*\.jsonl?$/).map(
    (file) => geminiCase(`fixture gemini-cli/${path.basename(file)}`, file),
  ),
  ...(hasReal
    ? filesIn(path.join(realRoot, "gemini"), /\.jsonl?$/).map((file) =>
        geminiCase(`real gemini/${path.basename(file)}`, file),
      )
    : []),
  qwenStoreCase(
    "fixture qwen-code/subagent (a 0.24.4 session with its agent's transcript)",
    "65e85728-5d51-4b93-a94c-d5f2f77c9721",
  ),
  generatedClaude(1, [3]),
  generatedClaude(2, [0, 5, 2]),
  generatedClaude(3, [7, 1, 4, 2]),
];

// ---------------------------------------------------------------------------

function harnessOf(id: string): AnyHarness {
  return defaultRegistry.find(id);
}

/** The harness's own load of a file into the Common document `txcript export` prints. */
async function loadedDocument(harness: AnyHarness, file: string): Promise<string> {
  const native = await loadSessionFile(harness, file, { environment: home.env });
  const stat = await fs.stat(file);
  const transcript = harness.codec.toCommon(native, {
    ...harness.readOptions?.({ startTime: stat.mtime }),
  });
  return commonCodec.serialize(commonCodec.fromCommon(transcript));
}

/** The old road: the session file's text parsed alone, into Common. */
async function parsedAloneDocument(harness: AnyHarness, file: string): Promise<Transcript> {
  const text = await fs.readFile(file, "utf8");
  return harness.codec.toCommon(harness.codec.parse(text, { file }));
}

function parse(text: string): Transcript {
  return commonCodec.toCommon(commonCodec.parse(text));
}

async function exported(args: string[]): Promise<string> {
  const result = await txcript(home, ["export", ...args, "--quiet"]);
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
  return result.stdout;
}

describe("one road: txcript export reads a session as its harness loads it", () => {
  for (const item of cases)
    it(item.label, async () => {
      const harness = harnessOf(item.harness);
      const placed = await item.place(home.home);
      const expected = await loadedDocument(harness, placed.file);
      // By path, where the files sit in the store's layout.
      const byPath = await exported([placed.file]);
      expect(byPath.trimEnd()).toBe(expected.trimEnd());
      // By id, found by discovery in the store.
      const byId = await exported([placed.id, "--from", item.harness]);
      expect(byId).toBe(byPath);
      if (item.count !== undefined) {
        const native = item.count(placed.file);
        if (item.calls !== undefined) expect(native.size).toBe(item.calls);
        expect(missingCalls(native, parse(byPath))).toEqual([]);
        expect(missingCalls(native, parse(byId))).toEqual([]);
        expect(commonSubagentCalls(parse(byPath)).size).toBeGreaterThanOrEqual(native.size);
      }
    });

  it("the control: read alone (subagent gathering off), the counting law fails", async () => {
    let failed = 0;
    for (const item of cases.filter((entry) => entry.count !== undefined)) {
      const harness = harnessOf(item.harness);
      const placed = await item.place(home.home);
      const native = (item.count as NonNullable<Case["count"]>)(placed.file);
      const alone = await parsedAloneDocument(harness, placed.file);
      if (missingCalls(native, alone).length > 0) failed += 1;
    }
    // Every session whose subagents have calls in side files: the Claude Code store fixture and
    // three generated sessions, the Gemini CLI store fixture, and (with ../shared) the Codex thread.
    expect(failed).toBeGreaterThanOrEqual(hasReal ? 6 : 5);
  });

  it("a lone 2.x file names each subagent file it cannot find as a loss", async () => {
    const item = generatedClaude(4, [2, 1]);
    const placed = await item.place(home.home);
    const lone = path.join(home.work, "lone.jsonl");
    await fs.copyFile(placed.file, lone);
    const result = await txcript(home, ["export", lone, "--json", "-o", "out.json"]);
    expect(result.code).toBe(0);
    const losses = (JSON.parse(result.stdout) as { losses: { code: string; count: number }[] })
      .losses;
    const missing = losses.find((loss) => loss.code === "claude_code.subagent-file-missing");
    expect(missing?.count).toBe(2);
    // In the layout, nothing is missing.
    const inStore = await txcript(home, ["export", placed.file, "--json", "-o", "in.json"]);
    const stored = (JSON.parse(inStore.stdout) as { losses: { code: string }[] }).losses;
    expect(stored.map((loss) => loss.code)).not.toContain("claude_code.subagent-file-missing");
  });

  it("convert of a directory reads a session with its subagent files, not them on their own", async () => {
    const item = generatedClaude(6, [2, 3]);
    const placed = await item.place(home.home);
    const native = claudeSubagentCalls(placed.file);
    const projects = path.dirname(path.dirname(placed.file));
    const out = path.join(home.root, "converted");
    const result = await txcript(home, ["convert", projects, "--to", "common", "--out-dir", out]);
    expect(result.code, result.stderr).toBe(0);
    const written = (await fs.readdir(out, { recursive: true })).filter((name) =>
      String(name).endsWith(".json"),
    );
    expect(written.map(String)).toEqual([path.join("-work", `${placed.id}.common.json`)]);
    const document = parse(await fs.readFile(path.join(out, String(written[0])), "utf8"));
    expect(native.size).toBe(5);
    expect(missingCalls(native, document)).toEqual([]);
  });

  it("a long file with subagent files does not stream without them: whole path, or refused saying why", async () => {
    const item = generatedClaude(7, [3, 2]);
    const placed = await item.place(home.home);
    const native = claudeSubagentCalls(placed.file);
    // Every file is "long": the streaming path would take it, were it read alone.
    const env = { TXCRIPT_STREAM_MIN_BYTES: "1" };
    const converted = await txcript(
      home,
      ["convert", placed.file, "--to", "common", "-o", "out.common.json", "--quiet"],
      { env },
    );
    expect(converted.code, converted.stderr).toBe(0);
    const document = parse(await fs.readFile(path.join(home.work, "out.common.json"), "utf8"));
    expect(missingCalls(native, document)).toEqual([]);
    // The same text exported whole (never streamed) is what the converted file holds.
    expect(document).toEqual(parse(await exported([placed.file])));
    // Past the input limit it cannot take the whole path either: refused, saying why.
    const refused = await txcript(
      home,
      ["convert", placed.file, "--to", "common", "-o", "refused.common.json"],
      { env: { ...env, TXCRIPT_MAX_INPUT_BYTES: "100" } },
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("cannot stream");
    expect(refused.stderr).toContain("subagents");
    // The control: a lone copy (no subagent files beside it) streams, and its subagents are not there.
    const lone = path.join(home.work, "lone.jsonl");
    await fs.copyFile(placed.file, lone);
    const streamed = await txcript(
      home,
      ["convert", lone, "--to", "common", "-o", "lone.common.json", "--quiet"],
      { env: { ...env, TXCRIPT_MAX_INPUT_BYTES: "100" } },
    );
    expect(streamed.code, streamed.stderr).toBe(0);
    const alone = parse(await fs.readFile(path.join(home.work, "lone.common.json"), "utf8"));
    expect(missingCalls(native, alone).length).toBe(native.size);
  });

  it("a lone Gemini CLI recording names the subagent recording it cannot find, whole or line by line", async () => {
    const item = geminiStoreCase(
      "gemini store",
      "aa11bb22-3c4d-4e5f-8a6b-7c8d9e0f1a2b",
      "tmp/shop/chats/session-2026-05-11T09-00-aa11bb22.jsonl",
    );
    const placed = await item.place(home.home);
    const lone = path.join(home.work, "lone-gemini.jsonl");
    await fs.copyFile(placed.file, lone);
    const missing = async (file: string, out: string, env: Record<string, string> = {}) => {
      const result = await txcript(
        home,
        ["convert", file, "--to", "codex", "-o", out, "--json", "--quiet", "--force"],
        { env },
      );
      expect(result.code, result.stderr).toBe(0);
      return (
        JSON.parse(result.stdout) as { losses: { code: string; count: number }[] }
      ).losses.find((loss) => loss.code === "gemini_cli.subagent-missing")?.count;
    };
    expect(await missing(lone, "g-whole.jsonl")).toBe(1);
    // Past the input limit only the streaming path reads it.
    const long = { TXCRIPT_STREAM_MIN_BYTES: "1", TXCRIPT_MAX_INPUT_BYTES: "100" };
    expect(await missing(lone, "g-streamed.jsonl", long)).toBe(1);
    // The control: in the store's layout its subagent recording is there.
    expect(await missing(placed.file, "g-stored.jsonl")).toBeUndefined();
    // In the layout, with the subagent recording gone, the store's load names it.
    const chats = path.dirname(placed.file);
    await fs.rm(path.join(chats, "aa11bb22-3c4d-4e5f-8a6b-7c8d9e0f1a2b"), { recursive: true });
    expect(await missing(placed.file, "g-removed.jsonl")).toBe(1);
  });

  it("a lone 2.x file read line by line names each subagent file it cannot find, as its load does", async () => {
    const item = generatedClaude(8, [2, 1, 3]);
    const placed = await item.place(home.home);
    const lone = path.join(home.work, "lone-streamed.jsonl");
    await fs.copyFile(placed.file, lone);
    const lossesOf = async (env: Record<string, string>, out: string) => {
      const result = await txcript(
        home,
        ["convert", lone, "--to", "codex", "-o", out, "--json", "--quiet"],
        { env },
      );
      expect(result.code, result.stderr).toBe(0);
      return (JSON.parse(result.stdout) as { losses: { code: string; count: number }[] }).losses;
    };
    const missing = (losses: { code: string; count: number }[]) =>
      losses.find((loss) => loss.code === "claude_code.subagent-file-missing")?.count;
    // Past the input limit, only the streaming path can read it: three subagents named, none held.
    const streamed = await lossesOf(
      { TXCRIPT_STREAM_MIN_BYTES: "1", TXCRIPT_MAX_INPUT_BYTES: "100" },
      "streamed.jsonl",
    );
    const whole = await lossesOf({}, "whole.jsonl");
    expect(missing(whole)).toBe(3);
    expect(missing(streamed)).toBe(3);
    // The control: in the store's layout the subagent files are there (whole path), nothing missing.
    const inStore = await txcript(home, ["export", placed.file, "--json", "-o", "in-store.json"]);
    const stored = (JSON.parse(inStore.stdout) as { losses: { code: string; count: number }[] })
      .losses;
    expect(missing(stored)).toBeUndefined();
  });

  it("continue carries subagents: written where the target holds them, and in the archive", async () => {
    const item = generatedClaude(5, [4, 3]);
    const placed = await item.place(home.home);
    const native = claudeSubagentCalls(placed.file);
    expect(native.size).toBe(7);
    // Into Claude Code (another store): the subagent files are written beside the session.
    const store = path.join(home.root, "other-store");
    const into = await txcript(home, [
      "continue",
      placed.id,
      "--from",
      claude,
      "--with",
      claude,
      "--store",
      store,
      "--no-resume",
      "--json",
    ]);
    expect(into.code, into.stderr).toBe(0);
    const written = (JSON.parse(into.stdout) as { outputs: { path: string }[] }).outputs[0]
      ?.path as string;
    expect(claudeSubagentCalls(written)).toEqual(native);
    // Fitted into a small budget (into pi, which holds no subagents): the archive has them all.
    const fitted = await txcript(home, [
      "continue",
      placed.id,
      "--from",
      claude,
      "--with",
      "pi",
      "--budget",
      "150",
      "--no-resume",
      "--json",
    ]);
    expect(fitted.code, fitted.stderr).toBe(0);
    const archive = (
      JSON.parse(fitted.stdout) as { outputs: { harness: string; path: string }[] }
    ).outputs.find((output) => output.harness === "common")?.path as string;
    expect(archive).toBeDefined();
    const archived = parse(await fs.readFile(path.join(archive, "transcript.common.json"), "utf8"));
    expect(missingCalls(native, archived)).toEqual([]);
  });
});

// ---------------------------------------------------------------------------
// OpenCode sessions with no single file: the pre-1.2 storage tree.

type Entry = { info: Row; parts: Row[] };

/** An export document written out as a pre-1.2 storage tree (docs/formats/opencode.md). */
async function writeStorage(storage: string, document: { info: Row; messages: Entry[] }) {
  const info = document.info;
  const id = String(info.id);
  const project = path.join(storage, "session", String(info.projectID ?? "global"));
  await fs.mkdir(project, { recursive: true });
  await fs.writeFile(path.join(project, `${id}.json`), JSON.stringify(info));
  for (const message of document.messages) {
    const messageId = String(message.info.id);
    await fs.mkdir(path.join(storage, "message", id), { recursive: true });
    await fs.writeFile(
      path.join(storage, "message", id, `${messageId}.json`),
      JSON.stringify(message.info),
    );
    for (const part of message.parts) {
      await fs.mkdir(path.join(storage, "part", messageId), { recursive: true });
      await fs.writeFile(
        path.join(storage, "part", messageId, `${String(part.id)}.json`),
        JSON.stringify(part),
      );
    }
  }
}

/** The same document under other ids (a child session of `parent`). */
function renamed(document: { info: Row; messages: Entry[] }, suffix: string, parent: string) {
  const text = JSON.stringify(document).replace(
    /\b(ses|msg|prt)_([0-9A-Za-z]+)/g,
    `$1_$2${suffix}`,
  );
  const copy = JSON.parse(text) as { info: Row; messages: Entry[] };
  copy.info.parentID = parent;
  return copy;
}

describe("one road: OpenCode sessions kept in the pre-1.2 storage tree", () => {
  const storageOf = () => path.join(home.dataHome, "opencode", "storage");

  async function expectOpens(id: string) {
    const harness = harnessOf("opencode");
    const store = harness.store?.(home.env);
    const loaded = await store?.load(id);
    const expected = commonCodec.serialize(commonCodec.fromCommon(harness.codec.toCommon(loaded)));
    const list = await txcript(home, ["list", "--json"]);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain(id);
    const byId = await exported([id]);
    expect(byId.trimEnd()).toBe(expected.trimEnd());
    expect(parse(byId).messages.length).toBeGreaterThan(0);
    const view = await txcript(home, ["view", id]);
    expect(view.code, view.stderr).toBe(0);
    const continued = await txcript(home, ["continue", id, "--with", claude, "--no-resume"]);
    expect(continued.code, continued.stderr).toBe(0);
    return parse(byId);
  }

  it("a generated session with a child session: list, export (with the child), view, continue", async () => {
    const document = JSON.parse(
      readText(path.join(fixturesRoot, "opencode", "tool-calls.json")),
    ) as { info: Row; messages: Entry[] };
    const parent = String(document.info.id);
    await writeStorage(storageOf(), document);
    await writeStorage(storageOf(), renamed(document, "Kid", parent));
    const exportedDocument = await expectOpens(parent);
    expect(exportedDocument.subagents?.length).toBe(1);
  });

  it.skipIf(!hasReal)(
    "the real pre-1.2 storage session: list, export, view, continue",
    async () => {
      await fs.cp(path.join(realRoot, "opencode", "storage-pre-1.2-local-opencode"), storageOf(), {
        recursive: true,
      });
      await expectOpens("ses_6d9b4aaecffet33kjFOiHfRk8H");
    },
  );
});
