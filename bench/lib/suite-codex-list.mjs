// Issue 14's listing bound for Codex: `txcript list --from codex` over 2,000
// rollouts of ~1 MB costs no more per file than over 2,000 of ~2 KB. The
// rollouts are written by this file's own small writer (never by the codec
// under test), from fixed seeds, into two CODEX_HOMEs under
// `<corpus>/codex-list/`, with a manifest so a second run reuses them. Each
// home also has a session_index.jsonl naming every fourth session, and each
// file's mtime is its last event's time, as Codex's appends leave it.
import { existsSync, promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { gnuTime, hasGnuTime, pairedRatio, summarize, timeCommand } from "./measure.mjs";
import { cliBin, repoRoot } from "./packages.mjs";
import { seeded } from "./random.mjs";
import { formatBytes, formatMs } from "./report.mjs";

const generatorVersion = 2;
const count = 2000;
const kinds = [
  { name: "1mb", label: "~1 MB", bytes: 1_000_000, seed: 61_000 },
  { name: "2kb", label: "~2 KB", bytes: 2_048, seed: 62_000 },
];
const group = "list";
const figureName = "txcript list --from codex per rollout: ~1 MB ÷ ~2 KB";
const cpuName = "txcript list --from codex per rollout, CPU time (user + sys): ~1 MB ÷ ~2 KB";
const target = "≤ 1×";

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

/** What went wrong with one listing's output, or undefined when it lists every sample right. */
function checkListing(stdout, home) {
  let listed;
  try {
    listed = JSON.parse(stdout);
  } catch {
    return "its output is not JSON";
  }
  if (listed.length !== home.count) return `listed ${listed.length} of ${home.count} rollouts`;
  const byId = new Map(listed.map((entry) => [entry.id, entry]));
  for (const sample of home.samples) {
    const entry = byId.get(sample.id);
    if (entry === undefined) return `session ${sample.id} is not listed`;
    if (entry.title !== sample.title)
      return `session ${sample.id}: title ${JSON.stringify(entry.title)}, wanted ${JSON.stringify(sample.title)}`;
    if (entry.updatedAt !== sample.updatedAt)
      return `session ${sample.id}: updatedAt ${entry.updatedAt}, wanted ${sample.updatedAt}`;
  }
  return undefined;
}

/**
 * Interleaved rounds of named commands after one warm-up round, each timed by
 * wall clock and, through GNU time when installed, by CPU time (user + sys,
 * 10 ms resolution), which a busy neighbour on a shared machine disturbs less.
 */
async function rounds(commands, count) {
  const wall = Object.fromEntries(Object.keys(commands).map((name) => [name, []]));
  const cpu = Object.fromEntries(Object.keys(commands).map((name) => [name, []]));
  const last = {};
  for (let round = -1; round < count; round++) {
    for (const [name, { command, args, options }] of Object.entries(commands)) {
      const result = hasGnuTime
        ? await timeCommand(gnuTime, ["-f", "txcript-cpu %U %S", command, ...args], options)
        : await timeCommand(command, args, options);
      const match = /txcript-cpu ([\d.]+) ([\d.]+)\s*$/.exec(result.stderr);
      if (match) result.stderr = result.stderr.slice(0, match.index);
      last[name] = result;
      if (round < 0) continue;
      wall[name].push(result.ms);
      if (match) cpu[name].push((Number(match[1]) + Number(match[2])) * 1000);
    }
  }
  return { wall, cpu: hasGnuTime ? cpu : undefined, last };
}

/** `txcript list --from codex --json` over 2,000 × ~1 MB and 2,000 × ~2 KB rollouts, interleaved. */
export async function codexList({ corpus, cli, log }) {
  if (!cli?.available)
    return [
      { group, name: figureName, skipped: "packages/cli/dist/txcript.js is not built", target },
    ];
  const manifest = await ensureCodexListCorpus(corpus, log);
  const listIn = (root) => ({
    command: process.execPath,
    args: [cliBin, "list", "--from", "codex", "--json"],
    options: {
      cwd: repoRoot,
      env: { ...process.env, HOME: manifest.home, CODEX_HOME: root, NO_COLOR: "1" },
    },
  });
  const big = manifest.homes["1mb"];
  const small = manifest.homes["2kb"];
  const loadBefore = os.loadavg()[0];
  log("codex list: txcript list --from codex over ~1 MB, ~2 KB and no rollouts, interleaved");
  const { wall, cpu, last } = await rounds(
    { big: listIn(big.root), small: listIn(small.root), empty: listIn(manifest.empty) },
    7,
  );
  const loadAfter = os.loadavg()[0];
  const failed = Object.entries(last).find(([, result]) => result.code !== 0);
  const wrong = failed
    ? `${failed[0]} exited ${failed[1].code}: ${failed[1].stderr.trim().split("\n")[0]?.slice(0, 160)}`
    : (checkListing(last.big.stdout, big) ?? checkListing(last.small.stdout, small));
  if (wrong !== undefined) return [{ group, name: figureName, skipped: wrong, target }];
  const medians = (times) => ({
    big: summarize(times.big).median,
    small: summarize(times.small).median,
    empty: summarize(times.empty).median,
  });
  // Per rollout beyond a run that lists nothing (start-up, module loading, output).
  const perRollout = ({ big: b, small: s, empty }) =>
    `${(((b - empty) * 1000) / count).toFixed(0)} µs vs ${(((s - empty) * 1000) / count).toFixed(0)} µs per rollout beyond the ${formatMs(empty)} of a run with no rollouts`;
  const wallMs = medians(wall);
  const ratio = pairedRatio(wall.big, wall.small);
  const pages = await residentShare(big);
  const setting = `${count} rollouts each (${formatBytes(big.bytes)} vs ${formatBytes(small.bytes)}), ${wall.big.length} interleaved rounds after a warm-up; ${pages}; load ${loadBefore.toFixed(2)} → ${loadAfter.toFixed(2)}`;
  const figures = [
    {
      group,
      name: figureName,
      ratio,
      target,
      met: ratio.median <= 1,
      context: `whole process, wall clock: ${formatMs(wallMs.big)} vs ${formatMs(wallMs.small)}, ${perRollout(wallMs)}; every rollout listed, titles and updatedAt right for ${big.samples.length} samples of each; ${setting}`,
    },
  ];
  if (cpu === undefined)
    figures.push({ group, name: cpuName, skipped: "/usr/bin/time is not installed" });
  else {
    const cpuMs = medians(cpu);
    figures.push({
      group,
      name: cpuName,
      ratio: pairedRatio(cpu.big, cpu.small),
      context: `whole process: ${formatMs(cpuMs.big)} vs ${formatMs(cpuMs.small)}, ${perRollout(cpuMs)} (GNU time, 10 ms resolution)`,
    });
  }
  return figures;
}

/** How much of the ~1 MB rollouts' pages are in the page cache after the runs (fincore), as words. */
async function residentShare(home) {
  const files = [];
  const walk = async (directory) => {
    for (const entry of await fs.readdir(directory, { withFileTypes: true })) {
      const full = path.join(directory, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.name.endsWith(".jsonl")) files.push(full);
    }
  };
  await walk(path.join(home.root, "sessions"));
  const sample = files.filter((_, index) => index % 50 === 0);
  const result = await timeCommand("fincore", ["--bytes", "--noheadings", "-o", "RES", ...sample]);
  if (result.code !== 0) return "page cache not inspected (no fincore)";
  const resident = result.stdout
    .trim()
    .split("\n")
    .reduce((sum, value) => sum + Number(value.trim()), 0);
  let size = 0;
  for (const file of sample) size += (await fs.stat(file)).size;
  return `pages warm: ${((100 * resident) / size).toFixed(0)}% of ${sample.length} sampled ~1 MB rollouts in the page cache after the runs (${(os.totalmem() / 2 ** 30).toFixed(0)} GiB RAM)`;
}
