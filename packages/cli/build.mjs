// Bundles the `txcript` bin with esbuild: workspace packages (from their
// TypeScript source), zod and fast-check are inlined, so the published bin
// has one runtime dependency (better-sqlite3, a native addon, for search and
// the OpenCode store, loaded only by those) and starts fast. Code splitting keeps
// `--version` from loading anything but the entry chunk.
import { chmod, readFile, rm } from "node:fs/promises";
import { build } from "esbuild";

const { version } = JSON.parse(await readFile(new URL("./package.json", import.meta.url), "utf8"));
await rm(new URL("./dist", import.meta.url), { recursive: true, force: true });
await build({
  entryPoints: { txcript: "src/bin.ts" },
  outdir: "dist",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  conditions: ["@txcript/source"],
  // A native addon: installed with the bin (a dependency), never bundled.
  external: ["better-sqlite3"],
  // Bundled CommonJS dependencies (secretlint's) call require() for Node's
  // built-ins: give every chunk one.
  banner: {
    js: 'import { createRequire as __txcriptRequire } from "node:module"; const require = __txcriptRequire(import.meta.url);',
  },
  define: { TXCRIPT_VERSION: JSON.stringify(version) },
  chunkNames: "chunks/[name]-[hash]",
  legalComments: "linked",
  logLevel: "warning",
});
await chmod(new URL("./dist/txcript.js", import.meta.url), 0o755);
