// Bundles the `txcript` bin with esbuild: workspace packages (from their
// TypeScript source), zod and fast-check are inlined, so the published bin
// has one runtime dependency (better-sqlite3, a native addon, for search and
// the OpenCode store, loaded only by those) and starts fast. Code splitting keeps
// `--version` from loading anything but the entry chunk.
import { chmod, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

// The search fast path (src/search-fast.ts) must load no codec, schema or
// zod. esbuild's splitting keeps every module a barrel re-exports in the
// chunks of whoever imports the barrel, so the few modules on that path
// import their neighbours directly here: search-fast.ts takes
// @txcript/search's search-index.ts (not its index). (Their imports of
// @txcript/core, TxcriptError only, go to core's errors.ts through
// coreByFile below, as every import of core's index does.)
// test/search-fast.test.ts checks the chunk's imports.
const packages = fileURLToPath(new URL("..", import.meta.url));
const lightImports = {
  name: "light-imports",
  setup(build) {
    const redirect = [
      ["cli/src/search-fast.ts", "@txcript/search", "search/src/search-index.ts"],
      ["cli/src/search-keeper.ts", "@txcript/search", "search/src/search-index.ts"],
      ["cli/src/search-keeper-address.ts", "@txcript/search", "search/src/index-file.ts"],
    ];
    build.onResolve({ filter: /^@txcript\/search$/ }, (args) => {
      const importer = path.relative(packages, args.importer).split(path.sep).join("/");
      const match = redirect.find(([from, name]) => from === importer && name === args.path);
      return match === undefined ? undefined : { path: path.join(packages, match[2]) };
    });
  },
};

// zod re-exports every locale it ships (`z.locales`, ~370 KB of the 826 KB
// chunk of core and zod that every command loads); txcript reads none but
// the English one zod configures itself with. Each `locales/index.js` zod
// imports becomes that one: measured by test/search-fast.test.ts (no other
// locale in the bin) and docs/decisions/0008 (load time).
const englishZodLocale = {
  name: "english-zod-locale",
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/]/.test(args.importer)
        ? { path: path.join(args.resolveDir, "..", "locales", "en.js"), namespace: "zod-locales" }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "zod-locales" }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(args.path)};`,
      resolveDir: path.dirname(args.path),
      loader: "js",
    }));
  },
};

// Every command but --version detects its input with the harnesses' sniffs
// (@txcript/harnesses/sniffs), and each harness's codec uses its own sniff as
// `detect`: shared by two importers, each sniff became a chunk of its own,
// and the bin loaded 13 tiny modules before it knew the harness. The sniff
// list gets its own copies (a namespace of its own makes them other modules
// to esbuild), bundled into its chunk; a harness keeps the original. A
// sniff has no runtime import, so a copy is the same function
// (packages/harnesses sniffs.test.ts holds each sniff to its codec's detect).
const sniffCopies = {
  name: "sniff-copies",
  setup(build) {
    build.onResolve({ filter: /^@txcript\/[a-z-]+\/sniff$/ }, async (args) => {
      if (
        args.pluginData?.sniffCopy ||
        !/[\\/]harnesses[\\/]src[\\/]sniffs\.ts$/.test(args.importer)
      )
        return undefined;
      const resolved = await build.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: { sniffCopy: true },
      });
      if (resolved.errors.length > 0) return { errors: resolved.errors };
      return { path: resolved.path, namespace: "sniff-copy" };
    });
    build.onLoad({ filter: /.*/, namespace: "sniff-copy" }, async (args) => ({
      contents: await readFile(args.path, "utf8"),
      resolveDir: path.dirname(args.path),
      loader: "ts",
    }));
  },
};

// esbuild splits by file: a command's chunks hold every file its imports
// reach, and an import of core's index reaches every file the index
// re-exports, used or not. So `view` loaded core's Common schemas and zod
// (151 KB of the 345 KB it loaded) though reading a session runs no zod
// (tool calls are classified by tool-inputs.ts). Each
// `import { … } from "@txcript/core"` outside core is bundled as imports of
// the files that define those names (read from core's index), so a command
// reaches only the core files it uses. Same code, other chunks:
// test/start-up.test.ts checks that `view` of an Amp thread loads no zod,
// and the e2e suites run this bin (docs/decisions/0018).
const coreIndex = path.join(packages, "core", "src", "index.ts");
async function coreExports() {
  const text = await readFile(coreIndex, "utf8");
  const defined = new Map();
  for (const match of text.matchAll(/export\s+(?:type\s+)?\{([^}]*)\}\s*from\s*"(\.[^"]+)"/g)) {
    for (const item of match[1].split(",")) {
      const name = item.trim().replace(/^type\s+/, "");
      if (name === "") continue;
      if (/\s/.test(name)) throw new Error(`build.mjs: core's index renames an export (${name})`);
      defined.set(name, match[2]);
    }
  }
  if (/export\s+\*/.test(text)) throw new Error("build.mjs: core's index has an `export *`");
  return defined;
}
const coreByFile = {
  name: "core-by-file",
  setup(build) {
    let defined;
    build.onLoad({ filter: /[\\/]packages[\\/][a-z-]+[\\/]src[\\/].*\.ts$/ }, async (args) => {
      if (args.path.includes(`${path.sep}core${path.sep}src${path.sep}`)) return undefined;
      const text = await readFile(args.path, "utf8");
      if (!text.includes('"@txcript/core"')) return undefined;
      defined ??= await coreExports();
      // `import { … }` and `export { … }` from core's index; `type` ones are erased anyway.
      const statement = /(import|export)\s+(type\s+)?\{([^}]*)\}\s*from\s*"@txcript\/core";/g;
      const contents = text.replace(statement, (whole, keyword, typeOnly, list) => {
        // The same number of lines, so a stack trace's line numbers still hold.
        const lines = "\n".repeat(whole.split("\n").length - 1);
        if (typeOnly) return lines;
        const byFile = new Map();
        for (const item of list.split(",")) {
          const spec = item.trim();
          if (spec === "" || spec.startsWith("type ")) continue;
          const name = spec.split(/\s+as\s+/)[0];
          const file = defined.get(name);
          if (file === undefined)
            throw new Error(
              `build.mjs: ${args.path} imports ${name}, which core's index does not export`,
            );
          byFile.set(file, [...(byFile.get(file) ?? []), spec]);
        }
        const target = (file) =>
          JSON.stringify(path.join(packages, "core", "src", file.replace(/\.js$/, ".ts")));
        return [...byFile]
          .map(([file, specs]) => `${keyword} { ${specs.join(", ")} } from ${target(file)};`)
          .join(" ")
          .concat(lines);
      });
      return { contents, loader: "ts", resolveDir: path.dirname(args.path) };
    });
  },
};

// What the bin and the help-list probe are built with alike.
const shared = {
  bundle: true,
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
};

// The help's list of harnesses (help.ts helpHarnesses), from the built
// registry through help.ts's own describeHarness, so `txcript --help`
// loads no harness; test/docs.test.ts holds the help to docs/cli.md.
// (Bundled from source and run once here: build.mjs itself is plain node.)
async function helpHarnesses() {
  const probe = await build({
    stdin: {
      contents:
        'import { defaultRegistry } from "@txcript/harnesses"; import { describeHarness } from "./src/help.ts"; export const list = defaultRegistry.harnesses.map(describeHarness);',
      resolveDir: fileURLToPath(new URL(".", import.meta.url)),
      loader: "ts",
    },
    ...shared,
    write: false,
    define: { TXCRIPT_HELP_HARNESSES: "undefined" },
    logLevel: "warning",
  });
  const file = path.join(await mkdtemp(path.join(tmpdir(), "txcript-build-")), "help.mjs");
  await writeFile(file, probe.outputFiles[0].text);
  try {
    return (await import(pathToFileURL(file).href)).list;
  } finally {
    await rm(path.dirname(file), { recursive: true, force: true });
  }
}
const helpList = await helpHarnesses();

const { version } = JSON.parse(await readFile(new URL("./package.json", import.meta.url), "utf8"));
await rm(new URL("./dist", import.meta.url), { recursive: true, force: true });
const bin = await build({
  entryPoints: { txcript: "src/bin.ts" },
  outdir: "dist",
  ...shared,
  splitting: true,
  define: {
    TXCRIPT_VERSION: JSON.stringify(version),
    TXCRIPT_HELP_HARNESSES: JSON.stringify(JSON.stringify(helpList)),
  },
  chunkNames: "chunks/[name]-[hash]",
  // Whitespace and syntax only: names stay, so a --debug stack trace and a
  // CPU profile still name our functions. Start-up compiles every byte of
  // each chunk it loads (docs/decisions/0017).
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: "linked",
  logLevel: "warning",
  plugins: [lightImports, englishZodLocale, sniffCopies, coreByFile],
  // Which source files each chunk holds (minified chunks keep no `// file`
  // comments): the tests that check what a command loads read this file.
  // It is outside dist/, so it is not published.
  metafile: true,
});
await writeFile(new URL("./build-meta.json", import.meta.url), JSON.stringify(bin.metafile));
await chmod(new URL("./dist/txcript.js", import.meta.url), 0o755);
