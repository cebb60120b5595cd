// Writes bench/RESULTS.md and bench/conversion-chart.svg from one run: the
// machine, how each figure is taken, the table, the chart, the phase split
// of every conversion, and for each missed target the profile that explains
// it. bench/NOTES.md (hand-written: what was tried) is appended verbatim.
import { existsSync, promises as fs } from "node:fs";
import * as path from "node:path";
import {
  formatBytes,
  formatMeasure,
  formatMs,
  formatRatio,
  markdownTable,
  measureOf,
} from "./report.mjs";
import { conversionChart } from "./svg.mjs";

function phaseTable(chart) {
  const lines = [
    "| direction | input | floor | convert | parse | toCommon | fromCommon | serialize |",
    "|---|---|---|---|---|---|---|---|",
  ];
  for (const panel of chart) {
    for (const point of panel.points) {
      lines.push(
        `| ${panel.title} | ${formatBytes(point.bytes)} | ${formatMs(point.floor.median)} | ${formatMs(point.conversion.median)} (${formatRatio(point.conversion.median / point.floor.median)}) | ${["parse", "toCommon", "fromCommon", "serialize"].map((phase) => formatMs(point.phases[phase])).join(" | ")} |`,
      );
    }
  }
  return lines.join("\n");
}

function profileSection(profiles) {
  if (profiles.length === 0) return "No conversion missed its target, so no profile was taken.\n";
  return profiles
    .map((profile) => {
      const legs = Object.entries(profile.phases ?? {})
        .map(
          ([phase, ms]) =>
            `${phase} ${formatMs(ms)} (${formatRatio(ms / profile.floor)} of the floor)`,
        )
        .join(", ");
      const rows = profile.top.map((entry) => {
        const callers = entry.callers
          .map((caller) => `${(caller.share * 100).toFixed(0)}% \`${caller.caller}\``)
          .join("<br>");
        return `| ${(entry.share * 100).toFixed(1)}% | ${entry.ms.toFixed(0)} ms | \`${entry.where}\` | ${callers} |`;
      });
      // A streaming profile (one CLI run) has its own heading and no legs.
      if (profile.heading !== undefined)
        return [
          `### ${profile.heading}`,
          "",
          profile.about,
          "",
          "| share | self | function (file:line) | called from |",
          "|---|---|---|---|",
          ...rows,
          "",
        ].join("\n");
      return [
        `### ${profile.title}, 10 MB: ${formatRatio(profile.conversion / profile.floor)} the floor`,
        "",
        `Legs (median): ${legs}.`,
        "",
        "`node --cpu-prof` of six conversions in one process (module loading and the file read included; the warmed-up steady state dominates), self time and the callers it came through:",
        "",
        "| share | self | function (file:line) | called from |",
        "|---|---|---|---|",
        ...rows,
        "",
      ].join("\n");
    })
    .join("\n");
}

/** One line per group: how many targets were met, and the range of the missed ones. */
function summary(figures) {
  const groups = [...new Set(figures.map((figure) => figure.group))];
  const lines = [];
  for (const group of groups) {
    const targeted = figures.filter((figure) => figure.group === group && figure.met !== undefined);
    if (targeted.length === 0) continue;
    const missed = targeted.filter((figure) => !figure.met);
    const medians = missed.map((figure) => measureOf(figure).median);
    const sameTarget =
      new Set(missed.map((figure) => `${figure.target} ${figure.unit ?? "×"}`)).size === 1;
    const format = (value) => formatMeasure(value, missed[0]?.unit);
    const short = (figure) => figure.name.replace(/ ÷ .*$/, "");
    const range =
      missed.length === 0
        ? ""
        : sameTarget
          ? `; missed at ${format(Math.min(...medians))}–${format(Math.max(...medians))} against ${missed[0].target} (${missed.map(short).join("; ")})`
          : `; missed: ${missed.map((figure) => `${short(figure)} ${formatMeasure(measureOf(figure).median, figure.unit)} against ${figure.target}`).join("; ")}`;
    lines.push(
      `- **${group}:** ${targeted.length - missed.length} of ${targeted.length} targets met${range}.`,
    );
  }
  const missedCount = figures.filter((figure) => figure.met === false).length;
  const head =
    missedCount === 0
      ? "Every measured target is met."
      : `${missedCount} target${missedCount === 1 ? " is" : "s are"} missed; the profiles and notes below explain each.`;
  return `${head}\n\n${lines.join("\n")}`;
}

/** The suites' runs, one line each: when, how long, and the machine's load then. */
function runsList(suites) {
  return Object.entries(suites)
    .map(
      ([name, run]) =>
        `\`${name}\` ${run.date} (${run.seconds.toFixed(0)} s, load ${run.load.map((value) => value.toFixed(2)).join("→")})`,
    )
    .join("; ");
}

/**
 * bench/results.json keeps every suite's last figures, so `--only <suite>`
 * re-measures one suite and RESULTS.md is rendered from all of them. `run`
 * is this run's part; what it did not measure comes from the file.
 */
export async function mergeResults(benchDir, run) {
  const file = path.join(benchDir, "results.json");
  const previous = existsSync(file) ? JSON.parse(await fs.readFile(file, "utf8")) : {};
  const merged = {
    version: 1,
    machine: run.machine,
    suites: { ...(previous.suites ?? {}), ...run.suites },
    order: run.order,
    chart: run.chart ?? previous.chart ?? [],
    profiles: run.profiles ?? previous.profiles ?? [],
    manifest: run.manifest ?? previous.manifest,
    cli: run.cli ?? previous.cli,
    missing: { ...(previous.missing ?? {}), ...run.missing },
  };
  for (const name of Object.keys(merged.suites))
    if (!merged.order.includes(name)) delete merged.suites[name];
  await fs.writeFile(file, `${JSON.stringify(merged, null, 1)}\n`);
  return merged;
}

export async function writeResults({ benchDir, results }) {
  const { machine, manifest, missing, order } = results;
  const cli = results.cli;
  const chart = results.chart;
  const profiles = results.profiles;
  const figures = order.flatMap((name) => results.suites[name]?.figures ?? []);
  const notRun = order.filter((name) => results.suites[name] === undefined);
  const svg = conversionChart(
    chart.map((panel) => ({ title: panel.title, points: panel.points })),
    `${machine.cores} cores, Node ${machine.node}, ${machine.date.slice(0, 10)}`,
  );
  // Without the convert suite's figures the last chart stands.
  if (chart.length > 0) await fs.writeFile(path.join(benchDir, "conversion-chart.svg"), svg);
  const notMeasured = figures.filter((figure) => figure.skipped);
  const notesFile = path.join(benchDir, "NOTES.md");
  const notes = existsSync(notesFile) ? await fs.readFile(notesFile, "utf8") : "";
  const files = manifest?.files ?? {};
  const dirs = manifest?.dirs ?? {};
  const text = `# Benchmark results

Generated by \`pnpm bench\` (bench/run.mjs) from bench/results.json; do not
edit by hand — hand-written notes live in bench/NOTES.md and are appended
below. \`node bench/run.mjs --only <suite>\` re-measures one suite and renders
this page again with the others' last figures.

- **Machine:** ${machine.cores} cores (${machine.cpu}), ${formatBytes(machine.memory)} RAM, ${machine.platform}
- **Node:** ${machine.node}
- **Last rendered:** ${machine.date}
- **Suites, each as last run (date, seconds, 1-minute load average at start→end on ${machine.cores} cores; the machine is shared):** ${runsList(results.suites)}${notRun.length === 0 ? "" : `; never run: ${notRun.join(", ")}`}
- **Corpus generation:** ${manifest === undefined ? "not run" : `${manifest.generatedInSeconds} s when it was not cached`}
- **CLI:** ${cli === undefined ? "not probed (no suite over the Amp corpus has run)" : cli.available ? `reads ${cli.harnesses.join(", ")}; \`list --from amp\` ${cli.listsAmp ? "works" : `unavailable (${cli.listReason})`}` : "not built"}
${
  Object.keys(missing).length > 0
    ? `- **Not available in this run:** ${Object.entries(missing)
        .map(([what, reason]) => `${what} (${reason})`)
        .join("; ")}\n`
    : ""
}
Every figure is a ratio against a baseline measured in the same run (these
machines are shared and absolute times drift), except where an issue sets an
absolute target (MB/s, ms, MB of peak RSS): those are values, read with the
load of their suite's run above; the other absolute times are context only.
Subject and baseline run interleaved, round by round; a ratio is the median
of the per-round ratios, with their min and max in parentheses.

## Summary

${summary(figures)}
${notMeasured.length === 0 ? "" : `\n${notMeasured.length} figure${notMeasured.length === 1 ? " was" : "s were"} not measured: ${notMeasured.map((figure) => `${figure.name} — ${figure.skipped}`).join("; ")}.\n`}
## Figures

${markdownTable(figures)}

## Conversion time against size

![conversion time against input size, per direction, beside the floor](conversion-chart.svg)

Where the time goes (medians; convert = core \`convert()\` in one process,
the library path, which the CLI takes below its 64 MiB streaming threshold;
the legs are timed apart in separate runs, so they need not sum exactly):

${phaseTable(chart)}

## Profiles of missed conversion targets

${profileSection(profiles)}
## Corpora

Generated on demand by bench/lib/corpus.mjs into bench/.corpus/ (gitignored)
from fixed seeds, by the bench's own writers (not the codecs under test):
local-first Amp thread documents (pretty-printed, with a usageLedger) and the
\`amp -x --stream-json --stream-json-thinking\` capture of the same conversation.

| corpus | Amp thread | stream-json capture | messages |
|---|---|---|---|
${["1mb", "10mb", "100mb"]
  .filter((name) => files[name])
  .map(
    (name) =>
      `| ${name} | ${formatBytes(files[name].ampBytes)} | ${formatBytes(files[name].streamBytes)} | ${files[name].messages} |`,
  )
  .join("\n")}

| directory | threads | total |
|---|---|---|
${Object.entries(dirs)
  .map(
    ([name, dir]) =>
      `| ${name} | ${dir.count} | ${formatBytes(dir.bytes)} (mean ${formatBytes(dir.bytes / dir.count)}) |`,
  )
  .join("\n")}

## How each figure is taken

- **convert, whole process** (the target-bearing rows, as issue 34 words
  them): \`txcript convert <file> --from … --to … -o <file>\` against
  \`workers/floor-process.mjs\`, a node process that reads the same file,
  \`JSON.parse\`s it (per line for JSON lines) and writes \`JSON.stringify\`
  of it back; both start-ups included, interleaved round by round after a
  warm-up; 15 rounds at 1 MB, 7 at 10 MB, 5 at 100 MB. At 100 MB the CLI
  takes its streaming path, as it would for a user.
- **convert ÷ floor, in process** (context: the library path without
  start-up): a child process (\`--expose-gc\`) reads the file once,
  then alternates the floor — \`JSON.parse\` of the input (per line for
  stream-json) plus \`JSON.stringify\` of the already-parsed output in the
  output's own layout — and core \`convert(text, from, to)\` with the CLI's
  options; 15 runs at 1 MB, 7 at 10 MB, 5 at 100 MB, after one warm-up.
- **list**: \`txcript list --from amp --json\` (whole process) in an isolated
  HOME with the threads in \`$XDG_DATA_HOME/amp/threads\`; the baseline is a
  process that reads and \`JSON.parse\`s every file; the peer is
  \`ccusage-amp session --json\` (@ccusage/amp, \`AMP_DATA_DIR\`) on the same
  files. Seven interleaved rounds after a warm-up.
- **start-up**: 30 interleaved rounds of \`node -e 0\`, \`txcript --version\`
  and \`txcript view\` of a 2 KB thread.
- **peak RSS**: GNU \`/usr/bin/time -v\` around one \`txcript convert\` of the
  100 MB input (or the library conversion when the CLI lacks the harness);
  the floor's own peak is given for comparison.
- **live reader**: a source process writes ${formatBytes(1e9)} of stream-json lines
  (cycling the 10 MB capture) into a pipe; the reader samples its RSS every
  64 MB; flat means the peak over the second half of the stream is no
  higher than over the first. Baseline: node:readline + JSON.parse on the
  same pipe.
- **fuzz**: 8,000 seeded mutations of a small valid document plus 2,000
  fast-check strings and JSON values; cases per second of \`codec.parse\`,
  as a ratio to \`JSON.parse\` of the same cases; any exception other than a
  TxcriptError is counted.
- **redact**: the seeded planted-secret corpus of
  packages/redact/src/planted-secrets.ts (fake secrets of the secretlint and
  gitleaks kinds in every place a transcript holds text, and benign
  look-alike lines) through the built \`redactTranscript\`; recall is the
  share of secrets with no 10-character run of them left, false positives
  the share of benign lines changed. Counts, not times.
${notes === "" ? "" : `\n${notes.trim()}\n`}`;
  await fs.writeFile(path.join(benchDir, "RESULTS.md"), text);
}
