// Bundles the `txcript` bin with esbuild: workspace packages (from their
// TypeScript source), zod and fast-check are inlined, so the published bin
// has one runtime dependency (better-sqlite3, a native addon, for search and
// the OpenCode store, loaded only by those) and starts fast. Code splitting keeps
// `--version` from loading anything but the entry chunk; Rollup then merges
// esbuild's chunks into a few files per command (mergeChunks, below).
import { chmod, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
import { rollup } from "rollup";

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

// Bundled CommonJS dependencies (secretlint's) call require() for Node's
// built-ins: every chunk gets one.
const requireBanner =
  'import { createRequire as __txcriptRequire } from "node:module"; const require = __txcriptRequire(import.meta.url);';

// What the bin and the help-list probe are built with alike.
const shared = {
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20",
  conditions: ["@txcript/source"],
  // A native addon: installed with the bin (a dependency), never bundled.
  external: ["better-sqlite3"],
  banner: { js: requireBanner },
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
const stage = await mkdtemp(path.join(tmpdir(), "txcript-bin-"));
try {
  const bin = await build({
    entryPoints: { txcript: "src/bin.ts" },
    outdir: stage,
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
    metafile: true,
  });
  await rm(new URL("./dist", import.meta.url), { recursive: true, force: true });
  const meta = await mergeChunks(stage, bin.metafile);
  // Which source files each file of dist/ holds (minified chunks keep no
  // `// file` comments): the tests that check what a command loads read
  // this file. It is outside dist/, so it is not published.
  await writeFile(new URL("./build-meta.json", import.meta.url), JSON.stringify(meta));
  await chmod(new URL("./dist/txcript.js", import.meta.url), 0o755);
} finally {
  await rm(stage, { recursive: true, force: true });
}

// esbuild makes a chunk for each set of entry points (the bin and every
// dynamic import) that reach a file. It cannot know that a command's or a
// harness's chunk only ever loads after the dispatcher did, so `view` of a
// 2 KB Amp thread loaded 34 files, most of them one small file of core or
// of this package; on Node 20 each ES module costs its own resolve, read,
// compile and link. Rollup then re-chunks esbuild's output along the plan
// below: `view` of an Amp thread loads 6 files and a convert between two
// harnesses 7 (test/start-up.test.ts). Rollup moves esbuild's code, never
// rewrites or drops it (treeshake off); docs/decisions/0019.
// A file esbuild wrote, as its metafile names it.
function staged(id) {
  return path.relative(process.cwd(), id).split(path.sep).join("/");
}

/**
 * Which Rollup chunk each esbuild chunk goes to (the first rule that names
 * a chunk holds). "Light" is a chunk that neither holds nor imports a
 * harness's code (its sniff, and its store root with what that imports,
 * aside), zod, core's schemas or a package from node_modules.
 * - `io`: what the bin loads beside the dispatcher (io.ts), and what of
 *   `search`'s own path the dispatcher, `convert` or a harness imports
 *   (the store roots).
 * - `search-fast`: the rest of what `search` loads without the dispatcher
 *   (the keeper's address, the index reader): no codec
 *   (test/search-fast.test.ts).
 * - `main`: the dispatcher and the `view` command, and the light chunks
 *   they import. Every command but the fast search loads it.
 * - one per harness, named after it: its index and the chunks the index
 *   imports that hold its code, and no other package's but a dependency's
 *   from node_modules (Codex's zstd decoder).
 * - `convert`: the light chunks the `convert` command imports, and
 *   `codecs`: the light chunks two harnesses or more import.
 * - a chunk of its own: whatever a chunk above imports and no rule placed
 *   (Rollup would otherwise move a manual chunk's dependencies into it).
 * Every other chunk (zod, the other commands, the MCP server, the
 * redactor) is Rollup's to place.
 */
function chunkPlan(esbuildMeta) {
  const outputs = esbuildMeta.outputs;
  const byEntry = (entryPoint) => {
    const found = Object.keys(outputs).find((file) => outputs[file].entryPoint === entryPoint);
    if (found === undefined) throw new Error(`build.mjs: no chunk for ${entryPoint}`);
    return found;
  };
  const staticImports = (file) =>
    outputs[file].imports
      .filter((imported) => imported.kind === "import-statement" && imported.path in outputs)
      .map((imported) => imported.path);
  const closure = (starts) => {
    const seen = new Set(starts);
    for (const file of seen) for (const imported of staticImports(file)) seen.add(imported);
    return seen;
  };
  const sources = (file) =>
    Object.keys(outputs[file].inputs).filter(
      (source) => outputs[file].inputs[source].bytesInOutput > 0,
    );
  const harnessOf = (source) =>
    /^\.\.\/([a-z-]+)\/src\//.exec(source)?.[1] ??
    /^sniff-copy:.*\/packages\/([a-z-]+)\/src\//.exec(source)?.[1];
  const notHarnesses = new Set(["core", "harnesses", "search", "html", "redact"]);
  // A harness's store roots and what they import (Crush's paths): node:os and node:path.
  const storeRoots = new Set(
    Object.keys(esbuildMeta.inputs).filter((source) => source.endsWith("-store-root.ts")),
  );
  for (const source of storeRoots)
    for (const imported of esbuildMeta.inputs[source].imports)
      if (imported.path in esbuildMeta.inputs) storeRoots.add(imported.path);
  const lightSource = (source) =>
    (source.startsWith("src/") ||
      source.startsWith("sniff-copy:") ||
      notHarnesses.has(harnessOf(source)) ||
      storeRoots.has(source)) &&
    !/\/core\/src\/(model|tools|common-codec|json-schema)\.ts$/.test(source);
  const light = (file) =>
    [...closure([file])].every((member) => sources(member).every(lightSource));

  const plan = new Map();
  const place = (files, name) => {
    for (const file of files) if (!plan.has(file)) plan.set(file, name(file));
  };
  const dispatcher = closure(["src/main.ts", "src/commands/view.ts"].map(byEntry));
  const converter = closure([byEntry("src/commands/convert.ts")]);
  const beforeMain = closure([byEntry("src/io.ts")]);
  const fast = closure(["src/search-fast.ts", "src/search-keeper-address.ts"].map(byEntry));
  const harnessIndexes = Object.keys(outputs).filter((file) => {
    const entry = outputs[file].entryPoint;
    return (
      entry !== undefined &&
      /^\.\.\/[a-z-]+\/src\/index\.ts$/.test(entry) &&
      !notHarnesses.has(harnessOf(entry))
    );
  });
  // What the dispatcher, convert or a harness imports of the fast path goes beside io.ts.
  const importedFromOutside = new Set(
    [...closure([...dispatcher, ...converter, ...harnessIndexes])]
      .filter((file) => !fast.has(file))
      .flatMap(staticImports)
      .filter((file) => fast.has(file)),
  );
  place(beforeMain, () => "io");
  place(
    [...fast].filter((file) => importedFromOutside.has(file)),
    () => "io",
  );
  place(fast, () => "search-fast");
  const importers = new Map();
  for (const index of harnessIndexes)
    for (const file of closure([index])) importers.set(file, (importers.get(file) ?? 0) + 1);
  place([...dispatcher].filter(light), () => "main");
  for (const index of harnessIndexes) {
    const harness = harnessOf(outputs[index].entryPoint);
    place(
      [
        index,
        ...[...closure([index])].filter(
          (file) =>
            sources(file).some((source) => harnessOf(source) === harness) &&
            sources(file).every(
              (source) =>
                harnessOf(source) === harness ||
                (harnessOf(source) === undefined && !source.startsWith("src/")),
            ),
        ),
      ],
      () => harness,
    );
  }
  place([...converter].filter(light), () => "convert");
  place(
    Object.keys(outputs).filter(
      (file) =>
        (importers.get(file) ?? 0) >= 2 && outputs[file].entryPoint === undefined && light(file),
    ),
    () => "codecs",
  );
  for (const file of [...plan.keys()])
    place(closure([file]), (imported) => path.basename(imported, ".js"));
  return plan;
}

async function mergeChunks(stage, esbuildMeta) {
  /** esbuild's name of a chunk without its hash (`main`, `view`, `chunk`), then Rollup's. */
  const fileName = (chunk) => `chunks/${chunk.name.replace(/-[A-Z0-9]{8}$/, "")}-[hash].js`;
  /** A dynamic import in the bin's entry, as esbuild writes it. */
  const entryImport = /import\("(\.\/chunks\/[^"]+)"\)/g;
  const files = await readdir(stage, { recursive: true });
  const other = files.filter((file) => !file.endsWith(".js") && file !== "chunks");
  // A linked legal comment would name a file Rollup renames.
  if (other.length > 0)
    throw new Error(`build.mjs: esbuild wrote files Rollup would not carry: ${other.join(", ")}`);
  // The bin's entry stays esbuild's, outside Rollup's graph: it awaits its
  // imports at the top level, so a chunk merged into it would import it
  // back and wait for it forever. What it imports are Rollup's entries.
  const entryText = await readFile(path.join(stage, "txcript.js"), "utf8");
  const imported = [...new Set([...entryText.matchAll(entryImport)].map((match) => match[1]))];
  if (/^import[^(]/m.test(entryText.replace(/^#!.*\n/, "").slice(requireBanner.length)))
    throw new Error("build.mjs: the bin's entry imports a chunk statically");
  const plan = chunkPlan(esbuildMeta);
  const bundle = await rollup({
    input: imported.map((file) => path.join(stage, file)),
    preserveEntrySignatures: "allow-extension",
    external: (id) => !id.startsWith(".") && !path.isAbsolute(id),
    treeshake: false,
    plugins: [
      {
        name: "unbanner",
        // The banner is added back to each merged chunk: as a statement of
        // its own, it would keep every chunk it opens from merging.
        transform(code, id) {
          if (!code.startsWith(requireBanner))
            throw new Error(`build.mjs: ${id} does not open with the require banner`);
          return { code: code.slice(requireBanner.length), map: null };
        },
      },
    ],
    onwarn(warning, warn) {
      // esbuild's chunks import each other both ways; Rollup keeps their order.
      if (warning.code !== "CIRCULAR_DEPENDENCY") warn(warning);
    },
  });
  const { output } = await bundle.write({
    dir: fileURLToPath(new URL("./dist", import.meta.url)),
    format: "es",
    entryFileNames: fileName,
    chunkFileNames: fileName,
    hashCharacters: "base36",
    banner: requireBanner,
    manualChunks: (id) => plan.get(staged(id)),
  });
  await bundle.close();
  // An entry is its chunk's facade, or one of the modules of a chunk it shares.
  const chunkOf = (id) =>
    output.find((chunk) => chunk.type === "chunk" && chunk.facadeModuleId === id) ??
    output.find((chunk) => chunk.type === "chunk" && id in chunk.modules);
  const renamed = new Map(
    imported.map((file) => [file, chunkOf(path.join(stage, file))?.fileName]),
  );
  const entry = entryText.replace(entryImport, (_, file) => {
    const to = renamed.get(file);
    if (to === undefined) throw new Error(`build.mjs: Rollup wrote no entry for ${file}`);
    return `import(${JSON.stringify(`./${to}`)})`;
  });
  await writeFile(new URL("./dist/txcript.js", import.meta.url), entry);
  const outputs = {
    "dist/txcript.js": {
      ...esbuildMeta.outputs[staged(path.join(stage, "txcript.js"))],
      bytes: Buffer.byteLength(entry),
    },
  };
  for (const chunk of output) {
    if (chunk.type !== "chunk") continue;
    const inputs = {};
    for (const id of Object.keys(chunk.modules)) {
      const from = esbuildMeta.outputs[staged(id)];
      if (from === undefined) throw new Error(`build.mjs: ${id} is not in esbuild's metafile`);
      for (const [source, input] of Object.entries(from.inputs)) {
        const sum = inputs[source]?.bytesInOutput ?? 0;
        inputs[source] = { bytesInOutput: sum + input.bytesInOutput };
      }
    }
    const file = `dist/${chunk.fileName}`;
    outputs[file] = { bytes: (await stat(file)).size, inputs };
  }
  return { inputs: esbuildMeta.inputs, outputs };
}
