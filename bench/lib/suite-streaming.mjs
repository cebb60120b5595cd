// Issue 18 item 4: streaming JSONL. A generated 2 GB Claude Code session
// and a 1.2 GB Codex rollout (seeded, cached under <corpus>/streaming/ with
// a manifest; written by streaming-writers.mjs, not the codecs) are
// converted by the built CLI into both targets, and continued into a
// scratch store, each under GNU time: the figure is the peak RSS against
// "≤ 250 MB" (issue 18 set < 300 MB; issue 34 item 2 found margins of
// 1–14 MB too thin and asks ≤ 250 MB at any size). Then `txcript list` over a store holding the big file is timed
// against the same store holding a small session of the same harness: a
// listing that reads heads only costs about the same (target ≤ 1.5×).
// Issue 19 item 2 (a 1 GB file is indexed in bounded memory): the first
// `txcript search` over each store, which indexes the big file line by line,
// under GNU time against the same "≤ 250 MB".
import { cpSync, existsSync, promises as fs, linkSync, rmSync, statSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { hasGnuTime, peakRss, summarize, timeCommand } from "./measure.mjs";
import { cliBin as builtBin } from "./packages.mjs";

// The suite runs for minutes; a build elsewhere in the tree (which empties
// packages/cli/dist first) would pull the bin from under it. So it runs a
// copy of the built dist, beside the original (its dependencies resolve the same).
const cliCopy = path.join(path.dirname(path.dirname(builtBin)), ".bench-streaming-dist");
let cliBin = builtBin;

import { formatBytes } from "./report.mjs";
import { writeResults } from "./results.mjs";
import { writeClaudeSession, writeCodexRollout } from "./streaming-writers.mjs";

const group = "memory";
const target = "≤ 250 MB";
const limitBytes = 250 * 1e6;
const manifestVersion = 1;

const inputs = [
  {
    key: "claude",
    harness: "claude_code",
    title: "Claude Code session",
    bytes: 2 * 2 ** 30,
    quickBytes: 96 * 2 ** 20,
    seed: 1802,
    sessionId: "5e551800-0000-4000-8000-000000000018",
    write: writeClaudeSession,
  },
  {
    key: "codex",
    harness: "codex",
    title: "Codex rollout",
    bytes: 1.2 * 2 ** 30,
    quickBytes: 96 * 2 ** 20,
    seed: 1801,
    sessionId: "019d0000-1111-7222-8333-444455556666",
    write: writeCodexRollout,
  },
];

function skipped(name, reason, figureTarget = target) {
  return { group, name, skipped: reason, target: figureTarget };
}

/** The generated inputs, from the cache when its manifest matches. */
async function ensureInputs(directory, quick, log) {
  await fs.mkdir(directory, { recursive: true });
  const manifestFile = path.join(directory, `manifest${quick ? "-quick" : ""}.json`);
  const wanted = inputs.map((input) => ({
    key: input.key,
    bytes: quick ? input.quickBytes : input.bytes,
    seed: input.seed,
  }));
  const known = existsSync(manifestFile)
    ? JSON.parse(await fs.readFile(manifestFile, "utf8"))
    : undefined;
  const files = {};
  for (const [index, input] of inputs.entries()) {
    const file = path.join(directory, `${input.key}${quick ? "-quick" : ""}.jsonl`);
    const entry = known?.files?.[input.key];
    const fresh =
      known?.version === manifestVersion &&
      entry !== undefined &&
      JSON.stringify(entry.wanted) === JSON.stringify(wanted[index]) &&
      existsSync(file) &&
      statSync(file).size === entry.bytes;
    if (fresh) {
      files[input.key] = { file, ...entry };
      continue;
    }
    log(`streaming: generating a ${formatBytes(wanted[index].bytes)} ${input.title}`);
    const started = performance.now();
    const written = input.write(file, {
      target: wanted[index].bytes,
      seed: input.seed,
      sessionId: input.sessionId,
    });
    files[input.key] = {
      file,
      wanted: wanted[index],
      ...written,
      generatedInSeconds: Math.round((performance.now() - started) / 1000),
    };
  }
  const manifest = {
    version: manifestVersion,
    files: Object.fromEntries(
      Object.entries(files).map(([key, { file: _, ...entry }]) => [key, entry]),
    ),
  };
  await fs.writeFile(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
  return files;
}

function firstLine(text) {
  return (
    text
      .split("\n")
      .find((line) => line.trim() !== "" && !line.startsWith("\t"))
      ?.slice(0, 200) ?? ""
  );
}

/** A store home holding one session file (hard-linked: no copy of 2 GB). */
async function storeHome(root, input, file) {
  await fs.rm(root, { recursive: true, force: true });
  const claude = path.join(root, ".claude");
  const codex = path.join(root, ".codex");
  let target;
  if (input.harness === "codex")
    target = path.join(
      codex,
      "sessions/2026/03/01",
      `rollout-2026-03-01T08-00-00-${input.sessionId}.jsonl`,
    );
  else target = path.join(claude, "projects/-home-dev-project", `${input.sessionId}.jsonl`);
  await fs.mkdir(path.dirname(target), { recursive: true });
  await fs.mkdir(claude, { recursive: true });
  await fs.mkdir(codex, { recursive: true });
  linkSync(file, target);
  return {
    root,
    env: {
      ...process.env,
      HOME: root,
      CLAUDE_CONFIG_DIR: claude,
      CODEX_HOME: codex,
      XDG_DATA_HOME: path.join(root, "data"),
      AMP_THREADS_DIR: path.join(root, "amp", "threads"),
      AMP_DATA_DIR: path.join(root, "amp"),
      NO_COLOR: "1",
    },
  };
}

/** Peak RSS of one CLI run, as a figure. */
async function rssFigure(name, args, env, cwd, context) {
  context.log(`streaming: ${name}`);
  const result = await peakRss(process.execPath, [cliBin, ...args], { cwd, env });
  if (result.code !== 0 || result.bytes === undefined)
    return skipped(name, `exit ${result.code}: ${firstLine(result.stderr)}`);
  const megabytes = result.bytes / 1e6;
  return {
    group,
    name,
    value: { median: megabytes, min: megabytes, max: megabytes },
    unit: "MB",
    single: true,
    target,
    met: result.bytes <= limitBytes,
    context: `peak RSS ${formatBytes(result.bytes)} (GNU time -v, one run, ${(result.ms / 1000).toFixed(0)} s wall)`,
  };
}

export async function streaming(context) {
  const names = inputs.flatMap((input) => [
    `peak RSS, convert a ${input.key === "claude" ? "2 GB" : "1.2 GB"} ${input.title} to Codex`,
  ]);
  if (!existsSync(cliBin))
    return names.map((name) => skipped(name, "packages/cli/dist/txcript.js is not built"));
  if (!hasGnuTime) return names.map((name) => skipped(name, "/usr/bin/time is not installed"));
  rmSync(cliCopy, { recursive: true, force: true });
  cpSync(path.dirname(builtBin), cliCopy, { recursive: true });
  cliBin = path.join(cliCopy, path.basename(builtBin));
  try {
    return await measure(context);
  } finally {
    rmSync(cliCopy, { recursive: true, force: true });
    cliBin = builtBin;
  }
}

/** Whether a row runs: all of them, or (`rows`) those whose name has one of the given words. */
function wanted(context, name) {
  return context.rows === undefined || context.rows.some((word) => name.includes(word));
}

async function measure(context) {
  const { corpus, log, quick } = context;
  const directory = path.join(corpus, "streaming");
  const files = await ensureInputs(directory, quick, log);
  const scratch = path.join(directory, "scratch");
  const figures = [];
  for (const input of inputs) {
    const entry = files[input.key];
    const size = formatBytes(entry.bytes);
    const label = `${size} ${input.title}`;
    const home = await storeHome(path.join(scratch, "home"), input, entry.file);
    for (const to of ["codex", "claude_code"]) {
      const name = `peak RSS, convert a ${label} to ${to === "codex" ? "Codex" : "Claude Code"}`;
      if (!wanted(context, name)) continue;
      const output = path.join(scratch, `out-${input.key}-${to}.jsonl`);
      await fs.rm(output, { force: true });
      figures.push(
        await rssFigure(
          name,
          ["convert", entry.file, "--to", to, "-o", output],
          home.env,
          scratch,
          context,
        ),
      );
      await fs.rm(output, { force: true });
    }
    for (const to of ["codex", "claude_code"]) {
      if (to === input.harness) continue;
      const name = `peak RSS, continue a ${label} in ${to === "codex" ? "Codex" : "Claude Code"} (--no-resume)`;
      if (wanted(context, name))
        figures.push(
          await rssFigure(
            name,
            ["continue", entry.file, "--with", to, "--no-resume", "--quiet"],
            home.env,
            scratch,
            context,
          ),
        );
      // The whole history, fitted into a budget in passes (continue-stream.ts, core's BudgetFit).
      const fitted = `peak RSS, continue a ${label} in ${to === "codex" ? "Codex" : "Claude Code"} with --full --budget 150000 (--no-resume)`;
      if (!wanted(context, fitted)) continue;
      figures.push(
        await rssFigure(
          fitted,
          [
            "continue",
            entry.file,
            "--with",
            to,
            "--full",
            "--budget",
            "150000",
            "--no-resume",
            "--quiet",
            "--force",
          ],
          home.env,
          scratch,
          context,
        ),
      );
    }
    // A first search indexes the whole file (line by line: it is past TXCRIPT_STREAM_MIN_BYTES).
    const search = `peak RSS, first search over a store holding a ${label} (indexes it)`;
    if (wanted(context, search)) {
      const index = path.join(scratch, "search.sqlite");
      await fs.rm(index, { force: true });
      const figure = await rssFigure(
        search,
        ["search", "first", "--limit", "1", "--json"],
        { ...home.env, TXCRIPT_SEARCH_INDEX: index, TXCRIPT_SEARCH_KEEPER: "0" },
        scratch,
        context,
      );
      const bytes = (await fs.stat(index).catch(() => undefined))?.size;
      if (figure.context !== undefined && bytes !== undefined)
        figure.context += `; index ${formatBytes(bytes)}`;
      figures.push(figure);
      for (const suffix of ["", "-wal", "-shm"]) await fs.rm(`${index}${suffix}`, { force: true });
    }
    if (wanted(context, `list over a store holding the ${size} ${input.title}`))
      figures.push(await listFigure(input, entry, scratch, context));
    await fs.rm(home.root, { recursive: true, force: true });
  }
  await fs.rm(scratch, { recursive: true, force: true });
  return figures;
}

/** `list` over a store with the big session ÷ the same store with a small one: a head read is flat. */
async function listFigure(input, entry, scratch, context) {
  const name = `list over a store holding the ${formatBytes(entry.bytes)} ${input.title} ÷ holding a 1 MB one`;
  const small = path.join(scratch, `small-${input.key}.jsonl`);
  input.write(small, { target: 2 ** 20, seed: input.seed, sessionId: input.sessionId });
  const big = await storeHome(path.join(scratch, "list-big"), input, entry.file);
  const tiny = await storeHome(path.join(scratch, "list-small"), input, small);
  context.log(`streaming: ${name}`);
  const ratios = [];
  let failure;
  for (let round = 0; round < 6; round++) {
    const a = await timeCommand(process.execPath, [cliBin, "list", "--json"], { env: big.env });
    const b = await timeCommand(process.execPath, [cliBin, "list", "--json"], { env: tiny.env });
    if (a.code !== 0 || b.code !== 0) failure = firstLine(a.stderr || b.stderr);
    if (round > 0) ratios.push(a.ms / b.ms);
  }
  await fs.rm(big.root, { recursive: true, force: true });
  await fs.rm(tiny.root, { recursive: true, force: true });
  await fs.rm(small, { force: true });
  if (failure !== undefined) return skipped(name, `list failed: ${failure}`, "≤ 1.5×");
  const ratio = summarize(ratios);
  return {
    group,
    name,
    ratio: { median: ratio.median, min: ratio.min, max: ratio.max },
    target: "≤ 1.5×",
    met: ratio.median <= 1.5,
    context: `${ratios.length} interleaved rounds after a warm-up; the same listing, one session each`,
  };
}

// `node bench/lib/suite-streaming.mjs --rows WORD[,WORD]`: re-run only the
// rows whose name has one of the words (e.g. `--budget`), each as the suite
// runs it, and put their figures in place of the same rows in
// bench/results.json (the context says when, alone, at what load), then
// render bench/RESULTS.md again. The suite's other rows keep their run.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf("--rows");
  const rows = at === -1 ? [] : (process.argv[at + 1] ?? "").split(",").filter(Boolean);
  if (rows.length === 0) {
    process.stderr.write("usage: node bench/lib/suite-streaming.mjs --rows WORD[,WORD]\n");
    process.exit(2);
  }
  const benchDir = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
  const load = os.loadavg()[0];
  const log = (message) => process.stderr.write(`[streaming rows] ${message}\n`);
  const figures = await streaming({
    corpus: path.join(benchDir, ".corpus"),
    log,
    quick: false,
    rows,
  });
  const end = os.loadavg()[0];
  const date = new Date().toISOString();
  const file = path.join(benchDir, "results.json");
  const results = JSON.parse(await fs.readFile(file, "utf8"));
  const suite = results.suites.streaming;
  for (const figure of figures) {
    const context = `${figure.context ?? figure.skipped}; this row re-run alone ${date.slice(0, 16)}Z, load ${load.toFixed(2)}→${end.toFixed(2)}`;
    const next =
      figure.skipped === undefined ? { ...figure, context } : { ...figure, skipped: context };
    const index = suite.figures.findIndex((old) => old.name === figure.name);
    if (index === -1) suite.figures.push(next);
    else suite.figures[index] = next;
    log(`${figure.name}: ${figure.context ?? figure.skipped}`);
  }
  results.machine = { ...results.machine, date };
  await fs.writeFile(file, `${JSON.stringify(results, null, 1)}\n`);
  // The conversion chart's figures did not change: it keeps the date of the run that made them.
  const chart = path.join(benchDir, "conversion-chart.svg");
  const drawn = existsSync(chart) ? await fs.readFile(chart, "utf8") : undefined;
  await writeResults({ benchDir, results });
  if (drawn !== undefined) await fs.writeFile(chart, drawn);
  log(`wrote ${figures.length} rows into bench/results.json and bench/RESULTS.md`);
}
