// The corpus of the codex-list bench suite: 2,000 Codex rollouts of ~1 MB and
// 2,000 of ~2 KB in two CODEX_HOMEs under `<corpus>/codex-list/`, written by
// this file's own small writer in Codex's 0.1xx line format (session_meta,
// turn_context, the prompt as a response item and its user_message echo,
// reasoning, shell calls and outputs, answers, token counts), never by the
// codec under test, from fixed seeds. Each home has a session_index.jsonl
// naming every fourth session, and each file's mtime is its last event's
// time, as Codex's appends leave it. A manifest records the generator, so a
// second run reuses the files.
import { existsSync, promises as fs } from "node:fs";
import * as path from "node:path";
import { seeded } from "./random.mjs";

const generatorVersion = 2;
export const count = 2000;
const kinds = [
  { name: "1mb", label: "~1 MB", bytes: 1_000_000, seed: 61_000 },
  { name: "2kb", label: "~2 KB", bytes: 2_048, seed: 62_000 },
];
const vocabulary = (() => {
  const random = seeded(60_999);
  return Array.from({ length: 400 }, () => random.base62(random.int(2, 9)).toLowerCase());
})();

function words(random, n) {
  const out = [];
  for (let index = 0; index < n; index++) out.push(random.pick(vocabulary));
  return out.join(" ");
}

/** A Codex 0.1xx legacy-format line: `{timestamp, type, payload}`. */
function line(ms, type, payload) {
  return JSON.stringify({ timestamp: new Date(ms).toISOString(), type, payload });
}

function item(ms, payload) {
  return line(ms, "response_item", payload);
}

function message(ms, role, text) {
  const type = role === "assistant" ? "output_text" : "input_text";
  return item(ms, { type: "message", role, content: [{ type, text }] });
}

function tokenCount(ms, total, last) {
  const usage = (tokens) => ({
    input_tokens: tokens,
    cached_input_tokens: Math.floor(tokens * 0.8),
    output_tokens: Math.floor(tokens / 40),
    reasoning_output_tokens: Math.floor(tokens / 80),
    total_tokens: tokens + Math.floor(tokens / 40),
  });
  return line(ms, "event_msg", {
    type: "token_count",
    info: {
      total_token_usage: usage(total),
      last_token_usage: usage(last),
      model_context_window: 272_000,
    },
    rate_limits: null,
  });
}

function turnContext(ms, cwd) {
  return line(ms, "turn_context", {
    cwd,
    approval_policy: "on-request",
    sandbox_policy: { type: "workspace-write", network_access: false },
    model: "gpt-5-codex",
    effort: "medium",
    summary: "auto",
  });
}

/** One rollout of about `bytes`: its text, id, first prompt, start and last event time. */
function rollout(random, index, bytes) {
  const started = Date.UTC(2026, 0, 1) + index * 37 * 60_000 + random.int(0, 59_000);
  const ms = started + random.int(0, 999);
  const id = `${ms
    .toString(16)
    .padStart(12, "0")
    .replace(
      /^(.{8})/,
      "$1-",
    )}-7${random.hex(3)}-${random.pick(["8", "9", "a", "b"])}${random.hex(3)}-${random.hex(12)}`;
  const cwd = `/home/dev/project-${index % 23}`;
  const prompt = `Fix the ${words(random, 3)} in ${words(random, 2)} (session ${index})`;
  let time = ms;
  const next = (most) => {
    time += random.int(200, most);
    return time;
  };
  const lines = [
    line(time, "session_meta", {
      id,
      timestamp: new Date(time).toISOString(),
      cwd,
      originator: "codex_cli_rs",
      cli_version: "0.142.5",
      source: "cli",
      model_provider: "openai",
      git: {
        commit_hash: random.hex(40),
        branch: "main",
        repository_url: "https://example.invalid/app.git",
      },
    }),
    turnContext(next(50), cwd),
    message(next(50), "user", prompt),
    line(next(50), "event_msg", { type: "user_message", message: prompt, images: [] }),
  ];
  let size = lines.reduce((sum, text) => sum + text.length + 1, 0);
  let total = 0;
  const push = (text) => {
    lines.push(text);
    size += text.length + 1;
  };
  if (bytes < 10_000) {
    // One answer, padded so the file is about `bytes` long.
    const answer = words(random, Math.max(8, Math.floor((bytes - size - 880) / 6)));
    push(message(next(9_000), "assistant", answer));
    push(line(next(50), "event_msg", { type: "agent_message", message: answer }));
    push(tokenCount(next(50), 9_000, 9_000));
  } else {
    let call = 0;
    while (size < bytes) {
      if (random.chance(0.08)) {
        const ask = `Now ${words(random, random.int(6, 30))}`;
        push(turnContext(next(90_000), cwd));
        push(message(next(50), "user", ask));
        push(line(next(50), "event_msg", { type: "user_message", message: ask, images: [] }));
      }
      push(
        item(next(8_000), {
          type: "reasoning",
          summary: [{ type: "summary_text", text: `**${words(random, 4)}** ${words(random, 30)}` }],
          content: null,
          encrypted_content: `gAAAAA${random.base62(random.int(800, 2400))}`,
        }),
      );
      const callId = `call_${random.base62(24)}`;
      call += 1;
      push(
        item(next(3_000), {
          type: "function_call",
          name: "shell_command",
          arguments: JSON.stringify({ command: `rg -n ${words(random, 2)}`, workdir: cwd }),
          call_id: callId,
        }),
      );
      const output = Array.from(
        { length: random.int(3, 120) },
        () => `src/${words(random, 1)}.ts:${random.int(1, 900)}: ${words(random, 12)}`,
      ).join("\n");
      push(item(next(20_000), { type: "function_call_output", call_id: callId, output }));
      if (random.chance(0.35)) {
        const answer = words(random, random.int(20, 300));
        push(message(next(9_000), "assistant", answer));
        push(line(next(50), "event_msg", { type: "agent_message", message: answer }));
      }
      const last = 12_000 + call * 900;
      total += last;
      push(tokenCount(next(50), total, last));
    }
  }
  return { text: `${lines.join("\n")}\n`, id, prompt, started, last: time };
}

/** `sessions/YYYY/MM/DD/rollout-YYYY-MM-DDThh-mm-ss-<id>.jsonl` (UTC here; Codex uses local time). */
function relativePath(started, id) {
  const iso = new Date(started).toISOString();
  const [year, month, day] = iso.slice(0, 10).split("-");
  const stamp = iso.slice(0, 19).replaceAll(":", "-");
  return path.join("sessions", year, month, day, `rollout-${stamp}-${id}.jsonl`);
}

async function writeHome(root, kind, log) {
  await fs.rm(root, { recursive: true, force: true });
  const random = seeded(kind.seed);
  const index = [];
  const samples = [];
  let bytes = 0;
  for (let n = 0; n < count; n++) {
    const session = rollout(random, n, kind.bytes);
    const file = path.join(root, relativePath(session.started, session.id));
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, session.text);
    const when = new Date(session.last);
    await fs.utimes(file, when, when);
    bytes += session.text.length;
    const name = n % 4 === 0 ? `Named session ${n}` : undefined;
    if (name !== undefined)
      index.push(JSON.stringify({ id: session.id, thread_name: name, updated_at: when }));
    if (n % 97 === 0)
      samples.push({
        id: session.id,
        title: name ?? session.prompt,
        updatedAt: when.toISOString(),
      });
    if (n % 500 === 499) log(`codex list: ${kind.label}: ${n + 1} of ${count} rollouts`);
  }
  await fs.writeFile(path.join(root, "session_index.jsonl"), `${index.join("\n")}\n`);
  return { root, count, bytes, samples };
}

/** The two CODEX_HOMEs (and an empty one), generated once and reused while the generator is unchanged. */
export async function ensureCodexListCorpus(corpus, log) {
  const dir = path.join(corpus, "codex-list");
  const manifestFile = path.join(dir, "manifest.json");
  const wanted = { generatorVersion, count, kinds };
  if (existsSync(manifestFile)) {
    const manifest = JSON.parse(await fs.readFile(manifestFile, "utf8"));
    if (JSON.stringify(manifest.wanted) === JSON.stringify(wanted)) return manifest;
  }
  await fs.rm(dir, { recursive: true, force: true });
  const started = performance.now();
  const homes = {};
  for (const kind of kinds) {
    log(`codex list: writing ${count} rollouts of ${kind.label}`);
    homes[kind.name] = await writeHome(path.join(dir, kind.name), kind, log);
  }
  const home = path.join(dir, "home");
  await fs.mkdir(path.join(dir, "empty"), { recursive: true });
  await fs.mkdir(home, { recursive: true });
  const manifest = {
    wanted,
    homes,
    empty: path.join(dir, "empty"),
    home,
    generatedInSeconds: Math.round((performance.now() - started) / 1000),
  };
  await fs.writeFile(manifestFile, JSON.stringify(manifest, null, 2));
  return manifest;
}
