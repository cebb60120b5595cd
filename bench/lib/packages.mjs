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

/** The codecs and conversion entry points, each possibly missing with a reason. */
export async function loadCodecs() {
  const [core, amp, streamJson, claudeCode] = await Promise.all([
    load("core"),
    load("amp"),
    load("stream-json"),
    load("claude-code"),
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
  const codecs = {
    convert: pick(core, "convert", "core"),
    common: pick(core, "commonCodec", "common"),
    amp: pick(amp, "ampCodec", "amp"),
    stream_json: pick(streamJson, "streamJsonCodec", "stream_json"),
    claude_code: pick(claudeCode, "claudeCodeCodec", "claude_code"),
    readStreamJsonLines: pick(streamJson, "readStreamJsonLines", "readStreamJsonLines"),
  };
  return { codecs, missing };
}

/** Read and write options as the CLI passes them (packages/cli/src/harnesses.ts). */
export function conversionOptions(from, to, startTime) {
  const read = from === "stream_json" ? { startTime } : {};
  const write = to === "stream_json" ? { dialect: from === "amp" ? "amp" : "claude" } : {};
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
