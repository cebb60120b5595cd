// How many cases a fuzz property runs, and the runner that times it, prints
// cases per second, and (under the long budget) saves a failing seed to
// fuzz-seeds.json so that the normal test run replays it from then on.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { promises as fs, readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import type { PropertyCase } from "./fuzz-properties.js";

/** The CI budget: at least 1,000 cases per property. */
export const ciRuns = 1000;
/** The long budget of `pnpm fuzz`. */
export const longRuns = 100_000;

/** TXCRIPT_FUZZ_RUNS when set (pnpm fuzz sets 100,000), else the CI budget. */
export function fuzzRuns(): number {
  const fromEnvironment = Number(process.env.TXCRIPT_FUZZ_RUNS);
  return Number.isInteger(fromEnvironment) && fromEnvironment > 0 ? fromEnvironment : ciRuns;
}

/**
 * True under `pnpm fuzz` (TXCRIPT_FUZZ_RUNS at the long budget or more): only
 * then is a failing seed saved, so a short run while iterating (say, against
 * a package someone is halfway through changing) leaves fuzz-seeds.json alone.
 */
export function isLongBudget(): boolean {
  return fuzzRuns() >= longRuns;
}

export interface SavedSeed {
  /** `<parser>/<property>`. */
  property: string;
  seed: number;
  path: string;
  /** When and what failed, for the reader of the file. */
  found: string;
  message: string;
}

export const seedsFile = path.join(path.dirname(fileURLToPath(import.meta.url)), "fuzz-seeds.json");

export function savedSeeds(): SavedSeed[] {
  return JSON.parse(readFileSync(seedsFile, "utf8")) as SavedSeed[];
}

async function saveSeed(seed: SavedSeed): Promise<void> {
  const seeds = savedSeeds();
  if (seeds.some((known) => known.property === seed.property && known.seed === seed.seed)) return;
  seeds.push(seed);
  await fs.writeFile(seedsFile, `${JSON.stringify(seeds, null, 2)}\n`);
}

let commit: string | null | undefined;
function headCommit(): string | null {
  if (commit !== undefined) return commit;
  try {
    commit =
      process.env.GITHUB_SHA ??
      execFileSync("git", ["rev-parse", "HEAD"], {
        cwd: path.dirname(seedsFile),
        encoding: "utf8",
      }).trim();
  } catch {
    commit = null;
  }
  return commit;
}

/**
 * The seed of one property's run: TXCRIPT_SEED when set; under the long
 * budget a random one (`pnpm fuzz` hunts); otherwise one derived from the
 * commit and the property's name, so a red CI run replays exactly. Printed
 * with every result.
 */
export function seedFor(name: string): { seed: number; from: string } {
  const fromEnvironment = Number(process.env.TXCRIPT_SEED);
  if (process.env.TXCRIPT_SEED !== undefined && Number.isInteger(fromEnvironment))
    return { seed: fromEnvironment, from: "TXCRIPT_SEED" };
  const head = isLongBudget() ? null : headCommit();
  if (head === null) return { seed: Math.floor(Math.random() * 0x7fffffff), from: "random" };
  const digest = createHash("sha256").update(`${head}\u0000${name}`).digest();
  return { seed: digest.readUInt32BE(0) >>> 1, from: `commit ${head.slice(0, 12)}` };
}

export interface RunFigure {
  property: string;
  runs: number;
  seconds: number;
  perSecond: number;
}

export const figures: RunFigure[] = [];

/** Run a property, print its rate, save a failing seed under the long budget, and fail with fast-check's report. */
export async function runFuzzProperty(
  name: string,
  property: fc.IProperty<[PropertyCase]>,
  numRuns = fuzzRuns(),
): Promise<void> {
  const { seed, from } = seedFor(name);
  const started = performance.now();
  const details = fc.check(property, { numRuns, seed });
  const seconds = (performance.now() - started) / 1000;
  const figure = {
    property: name,
    runs: details.numRuns,
    seconds,
    perSecond: details.numRuns / seconds,
  };
  figures.push(figure);
  console.log(
    `fuzz ${name}: ${figure.runs} cases in ${seconds.toFixed(1)} s (${Math.round(figure.perSecond)} cases/s), seed ${seed} (${from}; replay with TXCRIPT_SEED=${seed})`,
  );
  if (!details.failed) return;
  const failure = details.counterexample?.[0];
  const cause =
    details.errorInstance instanceof Error
      ? details.errorInstance.message
      : String(details.errorInstance);
  const message = [
    `${name} failed after ${details.numRuns} cases: ${cause}`,
    `replay: { seed: ${details.seed}, path: ${JSON.stringify(details.counterexamplePath)} }`,
    `case: ${failure?.description.slice(0, 600) ?? "?"}`,
    `text: ${JSON.stringify((failure?.text ?? "").slice(0, 600))}${(failure?.text.length ?? 0) > 600 ? "…" : ""}`,
  ].join("\n");
  if (isLongBudget() && details.counterexamplePath !== null) {
    await saveSeed({
      property: name,
      seed: details.seed,
      path: details.counterexamplePath,
      found: new Date().toISOString(),
      message: cause.slice(0, 500),
    });
  }
  throw new Error(message);
}
