// The search corpus of issue 19: a home directory holding about 3,000
// sessions spread over every store of the registry, sized like a heavy
// user's (median 105 KB, p99 5.4 MB, the largest 87 MB, about 1.3 GB in
// all), with known phrases planted in a few of them so a search bench can
// check its hits. Each conversation comes from the bench's own generator
// (lib/conversation.mjs) and the bench's Amp writer; a harness other than
// Amp gets it converted through Common by its own writer and saved by its
// own store, which puts the file where that harness keeps sessions under
// the home (`searchEnvironment`). A store that cannot save into a fresh home
// (OpenCode's lives in a database its program writes) is left out with the
// reason. A manifest records the generator version; a second run reuses
// the files, a changed generator rebuilds them.
import { existsSync, promises as fs } from "node:fs";
import * as path from "node:path";
import { generateConversation } from "./conversation.mjs";
import { ampMessageSize, writeAmpThread } from "./writers.mjs";

const generatorVersion = 2;

/** The profile of issue 19: a realistic corpus of one person's sessions. */
export const searchProfile = {
  files: 3000,
  medianBytes: 105_000,
  p99Bytes: 5_400_000,
  largestBytes: 87_000_000,
  seed: 90_000,
};

/**
 * Phrases planted in the first prompt of a few sessions (the search bench looks them up), one
 * per store in turn, at sizes spread over the profile.
 */
export const needles = [
  { phrase: "the flaky upload test", query: "flaky upload test", what: "a literal phrase" },
  { phrase: "Café crème brûlée migration", query: "cafe creme brulee", what: "accents" },
  { phrase: "QUOTA-EXCEEDED on the staging bucket", query: "quota exceeded", what: "case and -" },
  { phrase: "zygomorphic tokenizer regression", query: "zygomorphic", what: "one rare word" },
  { phrase: "ultraviolet checksum drift", query: "ultraviolet checksum", what: "two words" },
];

// Acklam's rational approximation of the standard normal quantile (|error| < 1.2e-9).
function normalQuantile(p) {
  const a = [-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269];
  const a4 = -30.66479806614716;
  const a5 = 2.506628274631;
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972];
  const b4 = -13.28068155288572;
  const c = [-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734];
  const c4 = 4.374664141464968;
  const c5 = 2.938163982698783;
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const low = 0.02425;
  if (p < low || p > 1 - low) {
    const q = Math.sqrt(-2 * Math.log(p < low ? p : 1 - p));
    const x =
      (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c4) * q + c5) /
      ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
    return p < low ? x : -x;
  }
  const q = p - 0.5;
  const r = q * q;
  return (
    ((((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a4) * r + a5) * q) /
    (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b4) * r + 1)
  );
}

/**
 * Target sizes: the quantiles of a log-normal through the profile's median
 * and p99 (one file per quantile, so the shape is exact, not sampled), the
 * largest replaced by the profile's largest file; `count` scales the number
 * of files (a quick run) keeping the shape.
 */
export function profileSizes(profile = searchProfile, count = profile.files) {
  const mu = Math.log(profile.medianBytes);
  const sigma = Math.log(profile.p99Bytes / profile.medianBytes) / normalQuantile(0.99);
  const sizes = Array.from({ length: count }, (_, index) =>
    Math.round(Math.exp(mu + sigma * normalQuantile((index + 0.5) / count))),
  );
  sizes[count - 1] = Math.max(sizes[count - 1], profile.largestBytes);
  return sizes;
}

/** The environment every store (and the CLI) sees for the corpus: everything under `home`. */
export function searchEnvironment(home) {
  return {
    HOME: home,
    XDG_DATA_HOME: path.join(home, ".local", "share"),
    XDG_CONFIG_HOME: path.join(home, ".config"),
    XDG_STATE_HOME: path.join(home, ".local", "state"),
    XDG_CACHE_HOME: path.join(home, ".cache"),
  };
}

function quantile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

/** Count, total, median, p99 and largest of a list of byte sizes. */
export function describeSizes(sizes) {
  const sorted = [...sizes].sort((a, b) => a - b);
  return {
    files: sorted.length,
    bytes: sorted.reduce((total, size) => total + size, 0),
    median: quantile(sorted, 0.5),
    p99: quantile(sorted, 0.99),
    largest: sorted[sorted.length - 1] ?? 0,
  };
}

/**
 * Which stores of the registry take sessions in a fresh home, and why the
 * others do not: each saves one small session first, which must land in a
 * file inside the home that its discover lists (then it is removed again).
 */
export async function usableStores(harnesses, codecs, environment, home) {
  const usable = [];
  const left = {};
  if (codecs.amp === undefined) return { usable, left: { all: "no Amp codec to read with" } };
  const probe = codecs.amp.parse(writeAmpThread(generateConversation(1, 2048, ampMessageSize)));
  for (const harness of Object.values(harnesses)) {
    if (harness.store === undefined) continue;
    let saved;
    try {
      const store = harness.store(environment);
      const native =
        harness.id === "amp"
          ? probe
          : harness.codec.fromCommon(
              codecs.amp.toCommon(probe, {}),
              harness.writeOptions?.({ from: "amp" }) ?? {},
            );
      saved = await store.save(native);
      const inside = path.relative(home, saved.path);
      if (inside.startsWith("..") || path.isAbsolute(inside)) {
        left[harness.id] = `its store saves outside the home (${saved.path})`;
      } else {
        const ids = [];
        for await (const entry of store.discover()) ids.push(entry.id);
        if (ids.includes(saved.id)) usable.push({ harness, store });
        else left[harness.id] = "its discover does not list what its save wrote";
      }
    } catch (error) {
      left[harness.id] = `its store refused a session: ${String(error?.message).slice(0, 160)}`;
    } finally {
      if (saved !== undefined) await fs.rm(saved.path, { force: true });
    }
  }
  return { usable, left };
}

/** Whether every session file of a manifest is still there with its size. */
async function intact(home, sessions) {
  for (const session of sessions) {
    const stat = await fs.stat(path.join(home, session.path)).catch(() => undefined);
    if (stat?.size !== session.bytes) return false;
  }
  return true;
}

/**
 * Write the corpus under `<corpus>/search/home` (reused when the manifest
 * matches). `count` makes a smaller corpus of the same shape.
 */
export async function ensureSearchCorpus(corpus, { harnesses, codecs, log, count }) {
  const root = path.join(corpus, "search");
  const home = path.join(root, "home");
  const manifestFile = path.join(root, "manifest.json");
  const files = count ?? searchProfile.files;
  const wanted = {
    generatorVersion,
    profile: searchProfile,
    files,
    needles,
    harnesses: Object.values(harnesses)
      .filter((harness) => harness.store !== undefined)
      .map((harness) => harness.id),
  };
  if (existsSync(manifestFile)) {
    const manifest = JSON.parse(await fs.readFile(manifestFile, "utf8"));
    // Reused only whole: a session file gone or changed (a bench run touched it) rebuilds it.
    if (
      JSON.stringify(manifest.wanted) === JSON.stringify(wanted) &&
      (await intact(manifest.home, manifest.sessions))
    )
      return manifest;
  }
  await fs.rm(root, { recursive: true, force: true });
  await fs.mkdir(home, { recursive: true });
  const environment = searchEnvironment(home);
  const started = performance.now();
  const { usable, left } = await usableStores(harnesses, codecs, environment, home);
  const sizes = profileSizes(searchProfile, files);
  // Spread the sizes over the stores, so each gets small and large ones.
  const sessions = [];
  const refused = {};
  const planted = [];
  // Needle i goes to store i (mod the stores), near quantile (2i + 1) / 2n of the sizes.
  const stores = Math.max(1, usable.length);
  const needleAt = new Map(
    needles.map((needle, index) => {
      const near = Math.floor(((index * 2 + 1) * files) / (needles.length * 2));
      return [near - (near % stores) + (index % stores), needle];
    }),
  );
  let lastLog = performance.now();
  for (const [index, target] of sizes.entries()) {
    if (usable.length === 0) break;
    const { harness, store } = usable[index % usable.length];
    const conversation = generateConversation(searchProfile.seed + index, target, ampMessageSize);
    const needle = needleAt.get(index);
    const prompt = conversation.messages.find((message) => message.role === "user");
    if (needle && prompt) prompt.text = `${needle.phrase}: ${prompt.text}`;
    const ampText = writeAmpThread(conversation);
    try {
      const native =
        harness.id === "amp"
          ? codecs.amp.parse(ampText)
          : harness.codec.fromCommon(
              codecs.amp.toCommon(codecs.amp.parse(ampText), {}),
              harness.writeOptions?.({ from: "amp" }) ?? {},
            );
      const saved = await store.save(native);
      const { size } = await fs.stat(saved.path);
      sessions.push({
        harness: harness.id,
        id: saved.id,
        path: path.relative(home, saved.path),
        bytes: size,
      });
      if (needle) planted.push({ ...needle, harness: harness.id, id: saved.id, message: 1 });
    } catch (error) {
      refused[harness.id] = (refused[harness.id] ?? 0) + 1;
      if (refused[harness.id] === 1)
        log(
          `search corpus: ${harness.id} refused a session: ${String(error?.message).slice(0, 160)}`,
        );
    }
    if (performance.now() - lastLog > 10_000) {
      log(`search corpus: ${index + 1} of ${files} sessions`);
      lastLog = performance.now();
    }
  }
  const byHarness = {};
  for (const session of sessions) {
    byHarness[session.harness] ??= { files: 0, bytes: 0 };
    const entry = byHarness[session.harness];
    entry.files += 1;
    entry.bytes += session.bytes;
  }
  const manifest = {
    wanted,
    home,
    environment,
    measured: describeSizes(sessions.map((session) => session.bytes)),
    byHarness,
    leftOut: left,
    refused,
    planted,
    sessions,
    generatedInSeconds: Math.round((performance.now() - started) / 100) / 10,
  };
  await fs.writeFile(manifestFile, JSON.stringify(manifest, null, 2));
  return manifest;
}
