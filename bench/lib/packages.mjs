// Loads the built workspace packages (dist/, what `turbo run build` made) by
// path, so the bench measures exactly what ships. A package or export that
// has not landed yet is reported as missing, never fatal: the bench prints
// every figure it can and names the ones it could not take.
import { existsSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

async function load(name) {
  const entry = path.join(repoRoot, "packages", name, "dist", "index.js");
  if (!existsSync(entry)) return { missing: `packages/${name}/dist/index.js is not built` };
  try {
    return { module: await import(entry) };
  } catch (error) {
    return { missing: `packages/${name}/dist/index.js failed to load: ${error.message}` };
  }
}

/**
 * The codecs of every harness in the built registry (`defaultRegistry` of
 * packages/harnesses), keyed by harness id, and the conversion entry points,
 * each possibly missing with a reason. `harnesses` holds the definitions,
 * for their read and write options. A harness added to the registry is
 * benchmarked (fuzz throughput) without editing the bench.
 */
export async function loadCodecs() {
  const [core, registry, streamJson] = await Promise.all([
    load("core"),
    load("harnesses"),
    load("stream-json"),
  ]);
  const missing = {};
  const pick = (result, exportName, label) => {
    if (result.missing) {
      missing[label] = result.missing;
      return undefined;
    }
    const value = result.module[exportName];
    if (value === undefined) missing[label] = `${exportName} is not exported yet`;
    return value;
  };
  const defaultRegistry = pick(registry, "defaultRegistry", "registry");
  const harnesses = Object.fromEntries(
    (defaultRegistry?.harnesses ?? []).map((harness) => [harness.id, harness]),
  );
  const codecs = {
    convert: pick(core, "convert", "core"),
    ...Object.fromEntries(Object.values(harnesses).map((harness) => [harness.id, harness.codec])),
    readStreamJsonLines: pick(streamJson, "readStreamJsonLines", "readStreamJsonLines"),
  };
  return { codecs, harnesses, missing };
}

/** Read and write options as the CLI passes them: each harness's own readOptions/writeOptions. */
export function conversionOptions(harnesses, from, to, startTime) {
  const read = harnesses[from]?.readOptions?.({ startTime }) ?? {};
  const write = harnesses[to]?.writeOptions?.({ from }) ?? {};
  return { read, write };
}

export const cliBin = path.join(repoRoot, "packages", "cli", "dist", "txcript.js");
export const ccusageAmpBin = path.join(
  repoRoot,
  "packages",
  "amp",
  "node_modules",
  ".bin",
  "ccusage-amp",
);
