// The search figures of issue 19, over the generated search corpus
// (lib/search-corpus.mjs: ~3,000 sessions over every store that saves into
// a fresh home), each through the built CLI as a whole process:
// - the first index build: `txcript search --reindex <word>`, session bytes
//   the index read ÷ wall seconds (and ÷ CPU seconds, and peak RSS, from
//   GNU time when installed);
// - a query over the built index, nothing changed: median whole-process
//   time, and ÷ `node -e 0` in the same interleaved rounds; answered as a
//   user's is by default, without a search keeper (issue 33: it is opt-in);
//   and, in the same rounds, the same query answered by a keeper
//   (TXCRIPT_SEARCH_KEEPER=1; Linux; docs/decisions/0011), a row of its own;
// - a search after one session file changed (a line appended in place to a
//   median-sized session of a store dated by file time, then a second
//   search with nothing changed): changed ÷ unchanged, paired by round;
// - the planted phrases: each found in its harness and session, and
//   `txcript view <id>#<ordinal>` shows it.
// The changed file is restored (truncated back, its times reset) at the end,
// so the corpus stays reusable.
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { gnuTime, hasGnuTime, pairedRatio, summarize, timeCommand } from "./measure.mjs";
import { cliBin, repoRoot } from "./packages.mjs";
import { formatBytes, formatMs, formatRatio } from "./report.mjs";
import { ensureSearchCorpus, needles, searchEnvironment } from "./search-corpus.mjs";

const group = "search";
const node = process.execPath;
const names = {
  build: "first index build, session bytes ÷ wall time",
  query: "query over the built index, whole process (median)",
  kept: "query over the built index, answered by a search keeper (TXCRIPT_SEARCH_KEEPER=1), whole process (median)",
  incremental: "search after one file changed ÷ nothing changed",
  needles: "planted phrases found in their session, and view shows them",
};
const load = () => os.loadavg()[0].toFixed(1);

function skippedAll(reason) {
  return [
    { group, name: names.build, skipped: reason, target: "≥ 50 MB/s" },
    { group, name: names.query, skipped: reason, target: "≤ 50 ms" },
    { group, name: names.kept, skipped: reason, target: "≤ 50 ms" },
    { group, name: names.incremental, skipped: reason, target: "≤ 2×" },
    { group, name: names.needles, skipped: reason, target: "all" },
  ];
}

/** Wall, user+system seconds and peak RSS of one run, through GNU time when present. */
async function timed(args, options) {
  if (!hasGnuTime) return { ...(await timeCommand(node, args, options)) };
  const result = await timeCommand(gnuTime, ["-f", "%U %S %M", node, ...args], options);
  const last = result.stderr.trim().split("\n").at(-1) ?? "";
  const [user, system, rss] = last.split(" ").map(Number);
  return { ...result, cpuSeconds: user + system, rssBytes: rss * 1024 };
}

export async function search({ corpus, cli, codecs, harnesses, log, quick }) {
  if (!cli?.available) return skippedAll("packages/cli/dist/txcript.js is not built");
  if (codecs?.amp === undefined) return skippedAll("no Amp codec to write the corpus with");
  const manifest = await ensureSearchCorpus(corpus, {
    harnesses,
    codecs,
    log,
    ...(quick ? { count: 300 } : {}),
  });
  const home = manifest.home;
  const env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    NO_COLOR: "1",
    ...searchEnvironment(home),
    // The keeper's socket beside the corpus; it exits 30 s after the suite's last search. No
    // keeper unless asked (the default), as a user's search.
    XDG_RUNTIME_DIR: path.join(corpus, "run"),
    TXCRIPT_SEARCH_KEEPER: "0",
    TXCRIPT_SEARCH_KEEPER_IDLE: "30",
  };
  const options = { cwd: repoRoot, env };
  const sessionBytes = manifest.sessions.reduce((total, session) => total + session.bytes, 0);
  const figures = [];

  // First build: one run (two with --quick's small corpus), each from no index at all.
  const builds = [];
  for (let run = 0; run < (quick ? 2 : 1); run++) {
    log(
      `search: first index build over ${manifest.sessions.length} sessions, ${formatBytes(sessionBytes)} (load ${load()})`,
    );
    const loadBefore = load();
    const result = await timed(
      [cliBin, "search", "--reindex", "--json", needles[0].query],
      options,
    );
    if (result.code !== 0)
      return skippedAll(`txcript search --reindex failed: ${result.stderr.slice(-300)}`);
    builds.push({ ...result, load: `${loadBefore}–${load()}` });
  }
  const rates = builds.map((build) => sessionBytes / 1e6 / (build.ms / 1000));
  const rate = summarize(rates);
  const last = builds.at(-1);
  figures.push({
    group,
    name: names.build,
    value: rate,
    unit: "MB/s",
    target: "≥ 50 MB/s",
    met: rate.median >= 50,
    context: `${formatBytes(sessionBytes)} in ${manifest.sessions.length} files: ${(last.ms / 1000).toFixed(1)} s wall${last.cpuSeconds === undefined ? "" : `, ${last.cpuSeconds.toFixed(1)} s CPU (${(sessionBytes / 1e6 / last.cpuSeconds).toFixed(1)} MB/s of CPU), peak RSS ${formatBytes(last.rssBytes)}`}; load ${last.load}; ${builds.length} run${builds.length === 1 ? "" : "s"}`,
  });

  // Queries over the built index, nothing changed, interleaved with node -e 0 and the same query
  // answered by a keeper. A search with TXCRIPT_SEARCH_KEEPER=1 starts the keeper (where there is
  // one); the rounds begin once it answers.
  const rounds = quick ? 10 : 25;
  const query = { command: node, args: [cliBin, "search", needles[3].query], options };
  const withKeeper = {
    command: node,
    args: query.args,
    options: { ...options, env: { ...env, TXCRIPT_SEARCH_KEEPER: "1" } },
  };
  const keeperOnly = { ...options, env: { ...env, TXCRIPT_SEARCH_KEEPER: "only" } };
  await timeCommand(withKeeper.command, withKeeper.args, withKeeper.options);
  let kept = false;
  for (let attempt = 0; attempt < 50 && !kept; attempt++) {
    kept = (await timeCommand(query.command, query.args, keeperOnly)).code === 0;
    if (!kept) await new Promise((resolve) => setTimeout(resolve, 200));
  }
  log(
    `search: ${rounds} interleaved rounds of node -e 0, a query and one answered by a keeper (${kept ? "a keeper answers" : "no keeper answers"}; load ${load()})`,
  );
  const base = { command: node, args: ["-e", "0"], options };
  const times = { node: [], query: [], kept: [] };
  const loadBefore = load();
  for (let round = -2; round < rounds; round++) {
    const b = await timeCommand(base.command, base.args, base.options);
    const q = await timeCommand(query.command, query.args, query.options);
    const w = await timeCommand(withKeeper.command, withKeeper.args, withKeeper.options);
    if (q.code !== 0 || w.code !== 0)
      return skippedAll(`txcript search failed: ${(q.stderr + w.stderr).slice(-300)}`);
    if (round >= 0) {
      times.node.push(b.ms);
      times.query.push(q.ms);
      times.kept.push(w.ms);
    }
  }
  const queryTime = summarize(times.query);
  const keptTime = summarize(times.kept);
  const overNode = pairedRatio(times.query, times.node);
  const keptOverNode = pairedRatio(times.kept, times.node);
  const roundsContext = `(node -e 0 ${formatMs(summarize(times.node).median)}); ${rounds} rounds, load ${loadBefore}–${load()}`;
  figures.push({
    group,
    name: names.query,
    value: queryTime,
    unit: "ms",
    target: "≤ 50 ms",
    met: queryTime.median <= 50,
    context: `no search keeper (the default); with one (TXCRIPT_SEARCH_KEEPER=1) ${formatMs(keptTime.median)}, the next row; ÷ node -e 0 in the same rounds: ${formatRatio(overNode.median)} ${roundsContext}`,
  });
  figures.push(
    kept
      ? {
          group,
          name: names.kept,
          value: keptTime,
          unit: "ms",
          target: "≤ 50 ms",
          met: keptTime.median <= 50,
          context: `answered by the keeper a search with TXCRIPT_SEARCH_KEEPER=1 started; ÷ node -e 0 in the same rounds: ${formatRatio(keptOverNode.median)} ${roundsContext}`,
        }
      : {
          group,
          name: names.kept,
          skipped: "no search keeper on this system (Linux only); the rounds ran without one",
          target: "≤ 50 ms",
        },
  );

  // One file changed: a line of a median-sized session appended to it again, per round.
  const candidates = manifest.sessions
    .filter((session) => session.harness === "claude_code" || session.harness === "pi")
    .sort((a, b) => a.bytes - b.bytes);
  const changed = candidates[Math.floor(candidates.length / 2)];
  if (changed === undefined)
    figures.push({
      group,
      name: names.incremental,
      skipped: "no Claude Code or pi session in the corpus",
      target: "≤ 2×",
    });
  else {
    const file = path.join(home, changed.path);
    const original = await fs.stat(file);
    const text = await fs.readFile(file, "utf8");
    const lastLine = text.trimEnd().split("\n").at(-1) ?? "";
    const incremental = { changed: [], unchanged: [] };
    const loadBefore = load();
    log(
      `search: ${rounds} rounds of one ${changed.harness} file (${formatBytes(changed.bytes)}) changed, then nothing (load ${loadBefore})`,
    );
    try {
      for (let round = -1; round < rounds; round++) {
        await fs.appendFile(file, `${lastLine}\n`);
        const after = await timeCommand(query.command, query.args, query.options);
        const still = await timeCommand(query.command, query.args, query.options);
        if (after.code !== 0 || still.code !== 0)
          throw new Error(`${after.stderr}${still.stderr}`.slice(-300));
        if (round >= 0) {
          incremental.changed.push(after.ms);
          incremental.unchanged.push(still.ms);
        }
      }
      const ratio = pairedRatio(incremental.changed, incremental.unchanged);
      figures.push({
        group,
        name: names.incremental,
        ratio,
        target: "≤ 2×",
        met: ratio.median <= 2,
        context: `both without a keeper (the default): ${formatMs(summarize(incremental.changed).median)} vs ${formatMs(summarize(incremental.unchanged).median)}; a ${formatBytes(changed.bytes)} ${changed.harness} session, a line appended each round; ${rounds} rounds, load ${loadBefore}–${load()}`,
      });
    } catch (error) {
      figures.push({
        group,
        name: names.incremental,
        skipped: `failed: ${String(error.message).slice(0, 200)}`,
        target: "≤ 2×",
      });
    } finally {
      await fs.truncate(file, original.size);
      await fs.utimes(file, original.atime, original.mtime);
    }
  }

  // The planted phrases: a hit in the planted session, and view shows the phrase there.
  const found = [];
  const missed = [];
  for (const planted of manifest.planted) {
    const result = await timeCommand(
      node,
      [cliBin, "search", planted.query, "--json", "--limit", "50"],
      options,
    );
    let hits = [];
    try {
      hits = JSON.parse(result.stdout);
    } catch {}
    const hit = hits.find((entry) => entry.harness === planted.harness && entry.id === planted.id);
    const view =
      hit === undefined
        ? undefined
        : await timeCommand(
            node,
            [cliBin, "view", `${hit.id}#${hit.ordinal}`, "--from", hit.harness],
            options,
          );
    if (hit !== undefined && view?.code === 0 && view.stdout.includes(planted.phrase))
      found.push(`${planted.harness} #${hit.ordinal}`);
    else
      missed.push(
        `${planted.what} in ${planted.harness} ${planted.id}${hit === undefined ? " (no hit)" : " (view does not show it)"}`,
      );
  }
  figures.push({
    group,
    name: names.needles,
    ratio: { median: found.length / Math.max(1, manifest.planted.length) },
    target: "all (1.00×)",
    met: missed.length === 0 && found.length > 0,
    context: `${found.length} of ${manifest.planted.length}: ${found.join(", ")}${missed.length > 0 ? `; missed ${missed.join("; ")}` : ""}`,
  });
  return figures;
}
