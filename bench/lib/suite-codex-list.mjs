// Issue 14's listing bound for Codex: `txcript list --from codex` over 2,000
// rollouts of ~1 MB costs no more per file than over 2,000 of ~2 KB (the
// corpus: lib/codex-list-corpus.mjs). Whole-process runs, interleaved, timed
// by wall clock and CPU time, with the file system calls of one run each
// counted by strace; the listings are checked (every rollout, and the title
// and updatedAt of a sample) before any figure is reported.
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { count, ensureCodexListCorpus } from "./codex-list-corpus.mjs";
import { gnuTime, hasGnuTime, pairedRatio, summarize, timeCommand } from "./measure.mjs";
import { cliBin, repoRoot } from "./packages.mjs";
import { formatBytes, formatMs } from "./report.mjs";

const group = "list";
const figureName = "txcript list --from codex per rollout: ~1 MB ÷ ~2 KB";
const cpuName = "txcript list --from codex per rollout, CPU time (user + sys): ~1 MB ÷ ~2 KB";
const callsName = "txcript list --from codex, file system calls: ~1 MB ÷ ~2 KB";
/** The calls that touch files; futex and epoll counts follow the thread pool's timing, not the work. */
const fileCalls = [
  "openat",
  "statx",
  "fstat",
  "newfstatat",
  "read",
  "pread64",
  "close",
  "getdents64",
];
const target = "≤ 1×";

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
 * Interleaved rounds of named commands after one warm-up round (the order
 * reversed every other round), each timed by
 * wall clock and, through GNU time when installed, by CPU time (user + sys,
 * 10 ms resolution), which a busy neighbour on a shared machine disturbs less.
 */
async function rounds(commands, count) {
  const wall = Object.fromEntries(Object.keys(commands).map((name) => [name, []]));
  const cpu = Object.fromEntries(Object.keys(commands).map((name) => [name, []]));
  const last = {};
  for (let round = -1; round < count; round++) {
    // Every other round in the opposite order, so no side always runs first.
    const order = Object.entries(commands);
    if (round % 2 !== 0) order.reverse();
    for (const [name, { command, args, options }] of order) {
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
  figures.push(await systemCalls(listIn, big, small, manifest));
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

/** One run of each listing under `strace -f -c`: the file system calls each made, counted. */
async function systemCalls(listIn, big, small, manifest) {
  const counts = {};
  for (const [name, root] of [
    ["big", big.root],
    ["small", small.root],
  ]) {
    const { command, args, options } = listIn(root);
    const out = path.join(path.dirname(manifest.home), `strace-${name}.txt`);
    const result = await timeCommand(
      "strace",
      ["-f", "-c", "-o", out, "-e", `trace=${fileCalls.join(",")}`, command, ...args],
      options,
    ).catch((error) => ({ code: -1, stderr: String(error?.message) }));
    if (result.code !== 0)
      return {
        group,
        name: callsName,
        skipped: `strace failed or is not installed: ${result.stderr.trim().split("\n")[0]?.slice(0, 120)}`,
      };
    counts[name] = {};
    for (const row of (await fs.readFile(out, "utf8")).split("\n")) {
      const cells = row.trim().split(/\s+/);
      const call = cells.at(-1);
      if (fileCalls.includes(call)) counts[name][call] = Number(cells[3]);
    }
  }
  const total = (side) => Object.values(side).reduce((sum, value) => sum + value, 0);
  const ratio = total(counts.big) / total(counts.small);
  const listed = fileCalls
    .filter((call) => counts.big[call] !== undefined || counts.small[call] !== undefined)
    .map((call) => `${call} ${counts.big[call] ?? 0} vs ${counts.small[call] ?? 0}`)
    .join(", ");
  return {
    group,
    name: callsName,
    ratio: { median: ratio },
    single: true,
    context: `${total(counts.big)} vs ${total(counts.small)} calls for ${count} rollouts each, counted by strace -f -c over one run: ${listed} (reads of the CLI's own modules included)`,
  };
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
