// `pnpm bench` (after `turbo run build`): generates the seeded corpora in
// bench/.corpus/, measures every figure of issue 8 as a ratio against a
// baseline taken in the same run, prints the table, and writes
// bench/RESULTS.md and bench/conversion-chart.svg. Not a test: no assertion
// fails the run when a target is missed; the report says so instead.
import { existsSync, promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { sizes as allSizes, ensureCorpus } from "./lib/corpus.mjs";
import { cpuModel, timeCommand } from "./lib/measure.mjs";
import { cliBin, loadCodecs } from "./lib/packages.mjs";
import { formatBytes, textTable } from "./lib/report.mjs";
import { writeResults } from "./lib/results.mjs";
import { ensureSearchCorpus } from "./lib/search-corpus.mjs";
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

const manifest = await ensureCorpus(corpus, log);
const { codecs, harnesses, missing } = await loadCodecs();
for (const [what, reason] of Object.entries(missing)) log(`missing: ${what}: ${reason}`);

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
if (cli.available) {
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
  totalBytes: quick ? 2e8 : 1e9,
};
const converted = await conversions(context);
const figures = [
  ...converted.figures,
  ...(await listing(context)),
  ...(await startup(context)),
  ...(quick ? [] : await peakMemory(context)),
  ...(await liveReader(context)),
  ...(await fuzz(context)),
];
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
  await writeResults({
    benchDir,
    figures,
    chart: converted.chart,
    profiles: converted.profiles,
    machine,
    manifest,
    missing,
    seconds,
    cli,
  });
  process.stdout.write("wrote bench/RESULTS.md and bench/conversion-chart.svg\n");
}
