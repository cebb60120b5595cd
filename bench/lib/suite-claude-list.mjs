// Issue 34, items 4 and 5 for Claude Code: `txcript list --from claude_code`
// costs no more per session over ~250 KB sessions than over ~2 KB ones, and
// side by side with the peer a Claude Code user would pick to list their
// sessions, ccusage (`ccusage session --json --offline`, the pinned
// devDependency of packages/cli), over the same store. The sessions are the
// bench's generated conversations (lib/conversation.mjs, seeded), written by
// the bench's Amp writer and converted through Common by the built Claude
// Code codec, saved by its store under a home of their own (with usage on
// every answer, which ccusage needs to count a session). Whole-process runs,
// interleaved after a warm-up; each listing is checked (every session) before
// a figure is reported.
import { existsSync, promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { generateConversation } from "./conversation.mjs";
import { interleave, pairedRatio, summarize } from "./measure.mjs";
import { cliBin, repoRoot } from "./packages.mjs";
import { formatBytes, formatMs } from "./report.mjs";
import { searchEnvironment } from "./search-corpus.mjs";
import { ampMessageSize, writeAmpThread } from "./writers.mjs";

const group = "list";
const generatorVersion = 1;
const count = 400;
const sizes = [
  { name: "250k", bytes: 250_000, seed: 71_000 },
  { name: "2k", bytes: 2_000, seed: 72_000 },
];
const names = {
  perSession: "txcript list --from claude_code per session: ~250 KB ÷ ~2 KB",
  peer: "txcript list --from claude_code ÷ ccusage session --json --offline, same store",
};
export const ccusageBin = path.join(repoRoot, "packages", "cli", "node_modules", ".bin", "ccusage");

/** The two homes (400 sessions each), made once per generator version and reused. */
async function ensureHomes(corpus, codecs, harnesses, log) {
  const root = path.join(corpus, "claude-list");
  const manifestFile = path.join(root, "manifest.json");
  if (existsSync(manifestFile)) {
    const manifest = JSON.parse(await fs.readFile(manifestFile, "utf8"));
    if (manifest.generatorVersion === generatorVersion) return manifest;
  }
  await fs.rm(root, { recursive: true, force: true });
  const claude = harnesses.claude_code;
  const homes = {};
  for (const size of sizes) {
    log(`claude list: generating ${count} Claude Code sessions of ~${formatBytes(size.bytes)}`);
    const home = path.join(root, size.name);
    const environment = searchEnvironment(home);
    const store = claude.store(environment);
    let bytes = 0;
    for (let index = 0; index < count; index += 1) {
      const conversation = generateConversation(size.seed + index, size.bytes, ampMessageSize);
      const transcript = codecs.amp.toCommon(codecs.amp.parse(writeAmpThread(conversation)), {});
      const native = claude.codec.fromCommon(
        { ...transcript, meta: { ...transcript.meta, cwd: path.join(home, "work", "project") } },
        claude.writeOptions?.({ from: "amp" }) ?? {},
      );
      const saved = await store.save(native);
      bytes += (await fs.stat(saved.path)).size;
    }
    homes[size.name] = { home, bytes, count };
  }
  const manifest = { generatorVersion, homes };
  await fs.writeFile(manifestFile, JSON.stringify(manifest, null, 2));
  return manifest;
}

function listed(stdout) {
  try {
    const entries = JSON.parse(stdout);
    return Array.isArray(entries) ? entries.length : -1;
  } catch {
    return -1;
  }
}

/** ccusage's sessions in its JSON answer (it may print other lines before it). */
function peerSessions(stdout) {
  try {
    const parsed = JSON.parse(stdout.slice(stdout.indexOf("{")));
    const sessions = parsed.session ?? parsed.sessions;
    return Array.isArray(sessions) ? sessions.length : -1;
  } catch {
    return -1;
  }
}

export async function claudeList({ corpus, cli, codecs, harnesses, log }) {
  const skippedAll = (reason) =>
    Object.values(names).map((name) => ({ group, name, skipped: reason }));
  if (!cli?.available) return skippedAll("packages/cli/dist/txcript.js is not built");
  if (harnesses.claude_code?.store === undefined || codecs.amp === undefined)
    return skippedAll("the built registry has no Claude Code store or Amp codec");
  const manifest = await ensureHomes(corpus, codecs, harnesses, log);
  const big = manifest.homes["250k"];
  const small = manifest.homes["2k"];
  const environment = (home) => ({
    ...process.env,
    ...searchEnvironment(home),
    CLAUDE_CONFIG_DIR: path.join(home, ".claude"),
    NO_COLOR: "1",
  });
  const listIn = (home) => ({
    command: process.execPath,
    args: [cliBin, "list", "--from", "claude_code", "--json"],
    options: { cwd: repoRoot, env: environment(home.home) },
  });
  const commands = { big: listIn(big), small: listIn(small) };
  const hasPeer = existsSync(ccusageBin);
  if (hasPeer)
    commands.peer = {
      command: ccusageBin,
      args: ["session", "--json", "--offline"],
      options: { cwd: repoRoot, env: environment(big.home) },
    };
  const loadBefore = os.loadavg()[0];
  log("claude list: txcript list over ~250 KB and ~2 KB sessions, and ccusage, interleaved");
  const { times, last } = await interleave(commands, 7);
  const loadAfter = os.loadavg()[0];
  const failed = Object.entries(last).find(([, result]) => result.code !== 0);
  if (failed)
    return skippedAll(
      `${failed[0]} exited ${failed[1].code}: ${failed[1].stderr.trim().split("\n")[0]?.slice(0, 160)}`,
    );
  for (const [name, home] of [
    ["big", big],
    ["small", small],
  ])
    if (listed(last[name].stdout) !== home.count)
      return skippedAll(`txcript list listed ${listed(last[name].stdout)} of ${home.count}`);
  const setting = `${count} sessions each (${formatBytes(big.bytes)} vs ${formatBytes(small.bytes)}), ${times.big.length} interleaved rounds after a warm-up; load ${loadBefore.toFixed(2)} → ${loadAfter.toFixed(2)}`;
  const bigMs = summarize(times.big).median;
  const smallMs = summarize(times.small).median;
  const perSession = pairedRatio(times.big, times.small);
  const figures = [
    {
      group,
      name: names.perSession,
      ratio: perSession,
      target: "≤ 1.5×",
      met: perSession.median <= 1.5,
      context: `whole process: ${formatMs(bigMs)} vs ${formatMs(smallMs)} (start-up included); every session listed; ${setting}`,
    },
  ];
  if (!hasPeer)
    figures.push({
      group,
      name: names.peer,
      skipped: "ccusage is not installed (packages/cli devDependency)",
    });
  else {
    const sessions = peerSessions(last.peer.stdout);
    figures.push({
      group,
      name: names.peer,
      ratio: pairedRatio(times.big, times.peer),
      context: `list ${formatMs(bigMs)} vs ccusage ${formatMs(summarize(times.peer).median)} over the ~250 KB store (ccusage reported ${sessions} sessions; it reads every line to sum usage and cost, which list does not); ${setting}`,
    });
  }
  return figures;
}
