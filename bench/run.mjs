// `pnpm bench` (after `turbo run build`): generates the seeded corpora in
// bench/.corpus/, measures every suite's figures (ratios against a baseline
// taken in the same run, or values where an issue sets an absolute target),
// prints the table, and writes bench/results.json, bench/RESULTS.md and
// bench/conversion-chart.svg. `--only <suite,...>` measures those suites and
// keeps the others' last figures. Not a test: no assertion
// fails the run when a target is missed; the report says so instead.
import { existsSync, promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { sizes as allSizes, ensureCorpus } from "./lib/corpus.mjs";
import { cpuModel, timeCommand } from "./lib/measure.mjs";
import { cliBin, loadCodecs } from "./lib/packages.mjs";
import { formatBytes, textTable } from "./lib/report.mjs";
import { mergeResults, writeResults } from "./lib/results.mjs";
import { ensureSearchCorpus } from "./lib/search-corpus.mjs";
import { codexList } from "./lib/suite-codex-list.mjs";
import { redactRecall } from "./lib/suite-redact.mjs";
import { search } from "./lib/suite-search.mjs";
import { storeList } from "./lib/suite-store-list.mjs";
import { streaming } from "./lib/suite-streaming.mjs";
import { conversions, fuzz, listing, liveReader, peakMemory, startup } from "./lib/suites.mjs";

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const corpus = path.join(benchDir, ".corpus");
// `node bench/run.mjs --quick`: no 100 MB figures and a 200 MB pipe, for trying changes.
const quick = process.argv.includes("--quick");
const started = performance.now();
const loadAtStart = os.loadavg()[0];
const log = (message) =>
  process.stderr.write(
    `[bench ${((performance.now() - started) / 1000).toFixed(0).padStart(4)}s] ${message}\n`,
  );

// `node bench/run.mjs --search-corpus`: only (re)generate the search corpus of issue 19 under
// bench/.corpus/search/ and print its measured profile (with --quick: 300 files of the same shape).
if (process.argv.includes("--search-corpus")) {
  const { codecs, harnesses, missing } = await loadCodecs();
  for (const [what, reason] of Object.entries(missing)) log(`missing: ${what}: ${reason}`);
  const search = await ensureSearchCorpus(corpus, {
    harnesses,
    codecs,
    log,
    ...(quick ? { count: 300 } : {}),
  });
  const { measured } = search;
  log(
    `search corpus: ${measured.files} files, ${formatBytes(measured.bytes)}, median ${formatBytes(measured.median)}, p99 ${formatBytes(measured.p99)}, largest ${formatBytes(measured.largest)} in ${search.home} (generated in ${search.generatedInSeconds} s)`,
  );
  for (const [id, entry] of Object.entries(search.byHarness))
    log(`search corpus: ${id}: ${entry.files} files, ${formatBytes(entry.bytes)}`);
  for (const [id, reason] of Object.entries(search.leftOut))
    log(`search corpus: left out ${id}: ${reason}`);
  process.exit(0);
}

// The suites, in the order RESULTS.md lists them. `corpus`: it needs the Amp
// and stream-json corpora of lib/corpus.mjs (and the CLI probe over them).
const suites = [
  { name: "convert", corpus: true, run: conversions },
  { name: "list", corpus: true, run: listing },
  { name: "codex-list", run: codexList },
  { name: "store-list", run: storeList },
  { name: "start-up", corpus: true, run: startup },
  { name: "memory", corpus: true, full: true, run: peakMemory },
  { name: "streaming", run: streaming },
  { name: "live-reader", corpus: true, run: liveReader },
  { name: "fuzz", corpus: true, run: fuzz },
  { name: "search", run: search },
  { name: "redact", run: redactRecall },
];
// `--only a,b`: run these suites and merge their figures into bench/results.json.
const onlyAt = process.argv.indexOf("--only");
const only = onlyAt === -1 ? undefined : (process.argv[onlyAt + 1] ?? "").split(",");
const unknown = (only ?? []).filter((name) => !suites.some((suite) => suite.name === name));
if (only !== undefined && (only.length === 0 || unknown.length > 0)) {
  process.stderr.write(
    `bench: --only takes suite names separated by commas${unknown.length > 0 ? `; unknown: ${unknown.join(", ")}` : ""} (suites: ${suites.map((suite) => suite.name).join(", ")})\n`,
  );
  process.exit(2);
}
const selected = suites.filter(
  (suite) => (only === undefined || only.includes(suite.name)) && !(quick && suite.full),
);

const { codecs, harnesses, missing } = await loadCodecs();
for (const [what, reason] of Object.entries(missing)) log(`missing: ${what}: ${reason}`);
const manifest = selected.some((suite) => suite.corpus)
  ? await ensureCorpus(corpus, log)
  : undefined;

// The CLI runs in an isolated home: only the generated threads are visible.
const emptyHome = path.join(corpus, "home");
await fs.mkdir(path.join(emptyHome, ".claude"), { recursive: true });
const envFor = (root) => ({
  ...process.env,
  HOME: emptyHome,
  CLAUDE_CONFIG_DIR: path.join(emptyHome, ".claude"),
  XDG_DATA_HOME: root,
  AMP_THREADS_DIR: path.join(root, "amp", "threads"),
  AMP_DATA_DIR: path.join(root, "amp"),
  NO_COLOR: "1",
});
const cli = {
  available: existsSync(cliBin),
  env: envFor(path.join(corpus, "threads-2k")),
  envFor,
  harnesses: new Set(),
  listsAmp: false,
  listReason: "packages/cli/dist/txcript.js is not built",
};
if (cli.available && manifest !== undefined) {
  for (const [harness, file] of [
    ["amp", manifest.files.small.amp],
    ["stream_json", manifest.files.small.stream],
  ]) {
    const result = await timeCommand(process.execPath, [cliBin, "view", file, "--from", harness], {
      env: cli.env,
    });
    if (result.code === 0) cli.harnesses.add(harness);
  }
  // Writing needs no sniffing: a harness the CLI knows by name is one it can write.
  const claude = await timeCommand(
    process.execPath,
    [cliBin, "convert", manifest.files.small.stream, "--to", "claude_code"],
    { env: cli.env },
  );
  if (claude.code === 0) cli.harnesses.add("claude_code");
  const list = await timeCommand(process.execPath, [cliBin, "list", "--from", "amp", "--json"], {
    env: cli.env,
  });
  let listed = 0;
  try {
    listed = JSON.parse(list.stdout).length;
  } catch {}
  cli.listsAmp = list.code === 0 && listed === manifest.dirs["threads-2k"].count;
  cli.listReason = cli.listsAmp
    ? ""
    : `txcript list --from amp ${list.code === 0 ? `listed ${listed} of ${manifest.dirs["threads-2k"].count} threads` : `failed: ${(list.stderr.trim().split("\n")[0] ?? "").slice(0, 120)}`}`;
  log(
    `cli: reads ${[...cli.harnesses].join(", ") || "nothing"}; list --from amp: ${cli.listsAmp ? "yes" : cli.listReason}`,
  );
}

const sizes = quick ? allSizes.filter((size) => size.name !== "100mb") : allSizes;
const context = {
  manifest,
  codecs,
  harnesses,
  cli,
  corpus,
  log,
  sizes,
  quick,
  totalBytes: quick ? 2e8 : 1e9,
};
const runs = {};
let chart;
let profiles;
for (const suite of selected) {
  const suiteStarted = performance.now();
  const loadBefore = os.loadavg()[0];
  log(`suite ${suite.name}`);
  const result = await suite.run(context);
  // conversions also gives the chart and the profiles of its missed targets.
  const figures = Array.isArray(result) ? result : result.figures;
  if (!Array.isArray(result)) ({ chart, profiles } = result);
  runs[suite.name] = {
    figures,
    date: new Date().toISOString(),
    seconds: (performance.now() - suiteStarted) / 1000,
    load: [loadBefore, os.loadavg()[0]],
  };
}
const figures = selected.flatMap((suite) => runs[suite.name].figures);
const seconds = (performance.now() - started) / 1000;
const machine = {
  cores: os.cpus().length,
  cpu: cpuModel() ?? os.cpus()[0]?.model,
  memory: os.totalmem(),
  node: process.version,
  platform: `${os.type()} ${os.release()} ${os.arch()}`,
  date: new Date().toISOString(),
  // Other work on a shared machine shows here; the ratios are meant to survive it.
  load: [loadAtStart, os.loadavg()[0]],
};
process.stdout.write(`\n${textTable(figures)}\n\n`);
process.stdout.write(
  `machine: ${machine.cores} cores (${machine.cpu}), Node ${machine.node}, ${machine.date}; bench took ${seconds.toFixed(0)} s\n`,
);
if (quick)
  process.stdout.write("--quick: no 100 MB figures, a 200 MB pipe; RESULTS.md not written\n");
else {
  const results = await mergeResults(benchDir, {
    machine,
    suites: runs,
    order: suites.map((suite) => suite.name),
    chart,
    profiles,
    manifest:
      manifest === undefined
        ? undefined
        : {
            files: manifest.files,
            dirs: manifest.dirs,
            generatedInSeconds: manifest.generatedInSeconds,
          },
    // The CLI is probed over the Amp corpus only; without it the last probe stands.
    cli:
      manifest === undefined
        ? undefined
        : {
            available: cli.available,
            harnesses: [...cli.harnesses],
            listsAmp: cli.listsAmp,
            listReason: cli.listReason,
          },
    missing,
  });
  await writeResults({ benchDir, results });
  process.stdout.write(
    `wrote bench/results.json, bench/RESULTS.md and bench/conversion-chart.svg (${only === undefined ? "every suite" : `suites ${only.join(", ")}; the others' figures kept`})\n`,
  );
}
