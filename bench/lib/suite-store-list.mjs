// Issue 34, items 4 and 5: `txcript list --from <harness>` costs no more per
// session over ~250 KB sessions than over ~2 KB ones, for every harness whose
// store saves into a fresh home, and side by side with the peer a Claude
// Code user would pick to list their sessions, ccusage (`ccusage session
// --json --offline`, the pinned devDependency of packages/cli), over the same
// store. The sessions are the bench's generated conversations
// (lib/conversation.mjs, seeded), written by the bench's Amp writer and
// converted through Common by each harness's built codec, saved by its own
// store under a home of their own (with usage on every answer, which ccusage
// needs to count a session). Whole-process runs, interleaved after a
// warm-up; each listing is checked (every session listed) before a figure is
// reported. Stores that cannot save into a fresh home are named with the
// reason (lib/search-corpus.mjs `usableStores`), but OpenCode: its save
// stages an export for `opencode import`, so its sessions are put into a
// database as OpenCode keeps them (lib/opencode-database.mjs).
import { existsSync, promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { generateConversation } from "./conversation.mjs";
import { interleave, pairedRatio, summarize } from "./measure.mjs";
import { opencodeDatabase } from "./opencode-database.mjs";
import { cliBin, repoRoot } from "./packages.mjs";
import { formatBytes, formatMs } from "./report.mjs";
import { searchEnvironment, usableStores } from "./search-corpus.mjs";
import { ampMessageSize, writeAmpThread } from "./writers.mjs";

const group = "list";
const generatorVersion = 2;
const count = 200;
const sizes = [
  { name: "250k", bytes: 250_000, seed: 71_000 },
  { name: "2k", bytes: 2_000, seed: 72_000 },
];
const perSessionName = (id) => `txcript list --from ${id} per session: ~250 KB ÷ ~2 KB`;
const peerName = "txcript list --from claude_code ÷ ccusage session --json --offline, same store";
export const ccusageBin = path.join(repoRoot, "packages", "cli", "node_modules", ".bin", "ccusage");

/** Generated conversation `index` of `size` in `harness`'s native form, its cwd under `home`. */
function nativeSession(codecs, harness, size, index, home) {
  const conversation = generateConversation(size.seed + index, size.bytes, ampMessageSize);
  const ampText = writeAmpThread(conversation);
  if (harness.id === "amp") return codecs.amp.parse(ampText);
  const transcript = codecs.amp.toCommon(codecs.amp.parse(ampText), {});
  return harness.codec.fromCommon(
    { ...transcript, meta: { ...transcript.meta, cwd: path.join(home, "work", "project") } },
    harness.writeOptions?.({ from: "amp" }) ?? {},
  );
}

/** Each usable store's two homes (`count` sessions each), made once per generator version and reused. */
async function ensureHomes(corpus, codecs, harnesses, log) {
  const root = path.join(corpus, "store-list");
  const manifestFile = path.join(root, "manifest.json");
  const wanted = {
    generatorVersion,
    count,
    harnesses: Object.values(harnesses)
      .filter((harness) => harness.store !== undefined)
      .map((harness) => harness.id)
      .sort(),
  };
  if (existsSync(manifestFile)) {
    const manifest = JSON.parse(await fs.readFile(manifestFile, "utf8"));
    if (JSON.stringify(manifest.wanted) === JSON.stringify(wanted)) return manifest;
  }
  await fs.rm(root, { recursive: true, force: true });
  const probeHome = path.join(root, "probe");
  await fs.mkdir(probeHome, { recursive: true });
  const { usable, left } = await usableStores(
    harnesses,
    codecs,
    searchEnvironment(probeHome),
    probeHome,
  );
  const homes = {};
  for (const { harness } of usable) {
    homes[harness.id] = {};
    for (const size of sizes) {
      log(`store list: ${count} ${harness.id} sessions of ~${formatBytes(size.bytes)}`);
      const home = path.join(root, harness.id, size.name);
      const store = harness.store(searchEnvironment(home));
      let bytes = 0;
      for (let index = 0; index < count; index += 1) {
        const native = nativeSession(codecs, harness, size, index, home);
        const saved = await store.save(native);
        bytes += (await fs.stat(saved.path)).size;
      }
      homes[harness.id][size.name] = { home, bytes, count };
    }
  }
  // OpenCode's save stages an export for `opencode import`; its sessions go into a database
  // as OpenCode keeps them instead (lib/opencode-database.mjs).
  const opencode = harnesses.opencode;
  if (opencode !== undefined && left.opencode !== undefined) {
    homes.opencode = {};
    for (const size of sizes) {
      log(`store list: ${count} opencode sessions of ~${formatBytes(size.bytes)} into a database`);
      const home = path.join(root, "opencode", size.name);
      const database = await opencodeDatabase(searchEnvironment(home).XDG_DATA_HOME);
      let bytes = 0;
      for (let index = 0; index < count; index += 1) {
        bytes += database.add(nativeSession(codecs, opencode, size, index, home).document);
      }
      database.close();
      homes.opencode[size.name] = { home, bytes, count };
    }
    delete left.opencode;
  }
  const manifest = { wanted, homes, left };
  await fs.writeFile(manifestFile, JSON.stringify(manifest, null, 2));
  return manifest;
}

function listedCount(stdout) {
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

export async function storeList({ corpus, cli, codecs, harnesses, log }) {
  if (!cli?.available)
    return [
      { group, name: perSessionName("H"), skipped: "packages/cli/dist/txcript.js is not built" },
    ];
  if (codecs.amp === undefined)
    return [{ group, name: perSessionName("H"), skipped: "the built registry has no Amp codec" }];
  const manifest = await ensureHomes(corpus, codecs, harnesses, log);
  const environment = (home) => ({ ...process.env, ...searchEnvironment(home), NO_COLOR: "1" });
  const figures = [];
  for (const [id, reason] of Object.entries(manifest.left))
    figures.push({ group, name: perSessionName(id), skipped: reason, target: "≤ 1.5×" });
  for (const [id, homes] of Object.entries(manifest.homes)) {
    const big = homes["250k"];
    const small = homes["2k"];
    const listIn = (home) => ({
      command: process.execPath,
      args: [cliBin, "list", "--from", id, "--json"],
      options: { cwd: repoRoot, env: environment(home.home) },
    });
    const commands = { big: listIn(big), small: listIn(small) };
    const peer = id === "claude_code" && existsSync(ccusageBin);
    if (peer)
      commands.peer = {
        command: ccusageBin,
        args: ["session", "--json", "--offline"],
        options: { cwd: repoRoot, env: environment(big.home) },
      };
    const loadBefore = os.loadavg()[0];
    log(`store list: txcript list --from ${id} over ~250 KB and ~2 KB sessions, interleaved`);
    const { times, last } = await interleave(commands, 7);
    const loadAfter = os.loadavg()[0];
    const failed = Object.entries(last).find(([, result]) => result.code !== 0);
    const wrong = failed
      ? `${failed[0]} exited ${failed[1].code}: ${failed[1].stderr.trim().split("\n")[0]?.slice(0, 160)}`
      : [big, small]
          .map((home, at) => [listedCount(last[at === 0 ? "big" : "small"].stdout), home.count])
          .filter(([listed, expected]) => listed !== expected)
          .map(([listed, expected]) => `txcript list listed ${listed} of ${expected}`)[0];
    if (wrong !== undefined) {
      figures.push({ group, name: perSessionName(id), skipped: wrong, target: "≤ 1.5×" });
      continue;
    }
    const setting = `${count} sessions each (${formatBytes(big.bytes)} vs ${formatBytes(small.bytes)}), ${times.big.length} interleaved rounds after a warm-up; load ${loadBefore.toFixed(2)} → ${loadAfter.toFixed(2)}`;
    const bigMs = summarize(times.big).median;
    const ratio = pairedRatio(times.big, times.small);
    figures.push({
      group,
      name: perSessionName(id),
      ratio,
      target: "≤ 1.5×",
      met: ratio.median <= 1.5,
      context: `whole process: ${formatMs(bigMs)} vs ${formatMs(summarize(times.small).median)} (start-up included); every session listed; ${setting}`,
    });
    if (id === "claude_code" && !peer)
      figures.push({
        group,
        name: peerName,
        skipped: "ccusage is not installed (packages/cli devDependency)",
      });
    else if (peer)
      figures.push({
        group,
        name: peerName,
        ratio: pairedRatio(times.big, times.peer),
        context: `list ${formatMs(bigMs)} vs ccusage ${formatMs(summarize(times.peer).median)} over the ~250 KB store (ccusage reported ${peerSessions(last.peer.stdout)} sessions; it reads every line to sum usage and cost, which list does not); ${setting}`,
      });
  }
  return figures;
}
