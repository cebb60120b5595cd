// Gemini CLI's project registry, `<root>/projects.json`
// `{"projects": {"<absolute project root>": "<slug>"}}`, and the ownership
// markers `tmp/<slug>/.project_root` and `history/<slug>/.project_root`,
// with the rules of its ProjectRegistry (0.61.0). Registering a project
// adds one entry and keeps every other: the file is rewritten atomically
// under the same `projects.json.lock` directory lock Gemini CLI takes, and
// a registry this code cannot read is refused, never reset.
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { ioError, isJsonObject, parseJson, TxcriptError, writeFileAtomic } from "@txcript/core";
import { geminiProjectHash, geminiProjectSlug } from "./gemini-cli-paths.js";
import { harness } from "./gemini-cli-schema.js";

const markerName = ".project_root";
const slugPattern = /^[a-z0-9-]+$/;
const lockStaleMs = 10_000;
const lockWaitMs = 10_000;

/** Gemini CLI's key for a project root: resolved, lower-cased on Windows. */
export function normalizeProjectRoot(projectRoot: string): string {
  const resolved = path.resolve(projectRoot);
  return process.platform === "win32" ? resolved.toLowerCase() : resolved;
}

function registryFile(root: string): string {
  return path.join(root, "projects.json");
}

/** root → slug from projects.json; empty when the file is absent. Throws INVALID_DOCUMENT when unreadable. */
export async function readProjects(root: string): Promise<Map<string, string>> {
  const file = registryFile(root);
  let text: string;
  try {
    text = await fs.readFile(file, "utf8");
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === "ENOENT") return new Map();
    throw ioError(cause, file, "read", harness);
  }
  const value = parseJson(text, { harness, file });
  const projects =
    isJsonObject(value) && Object.hasOwn(value, "projects") ? value.projects : undefined;
  if (
    !isJsonObject(projects) ||
    !Object.values(projects).every((slug) => typeof slug === "string" && slugPattern.test(slug))
  ) {
    throw new TxcriptError(
      "INVALID_DOCUMENT",
      "projects.json is not a Gemini CLI project registry",
      {
        harness,
        location: { file, path: "$.projects" },
        hint: 'expected {"projects": {"<project root>": "<slug>"}}; it is left as it is',
      },
    );
  }
  return new Map(Object.entries(projects as Record<string, string>));
}

async function readMarker(file: string): Promise<string | undefined> {
  try {
    return (await fs.readFile(file, "utf8")).trim();
  } catch {
    return undefined;
  }
}

/** The project root that owns a `tmp/<name>` directory: its marker, projects.json, or a root whose hash is the name. */
export async function projectRootOf(
  root: string,
  name: string,
  projects: ReadonlyMap<string, string>,
): Promise<string | undefined> {
  const marker = await readMarker(path.join(root, "tmp", name, markerName));
  if (marker !== undefined && marker !== "") return marker;
  for (const [projectRoot, slug] of projects) if (slug === name) return projectRoot;
  if (/^[0-9a-f]{64}$/.test(name))
    for (const projectRoot of projects.keys())
      if (geminiProjectHash(projectRoot) === name) return projectRoot;
  return undefined;
}

async function withLock<T>(file: string, run: () => Promise<T>): Promise<T> {
  const lock = `${file}.lock`;
  const started = Date.now();
  for (;;) {
    try {
      await fs.mkdir(lock);
      break;
    } catch (cause) {
      if ((cause as NodeJS.ErrnoException).code !== "EEXIST")
        throw ioError(cause, lock, "write", harness);
      const stat = await fs.stat(lock).catch(() => undefined);
      if (stat !== undefined && Date.now() - stat.mtimeMs > lockStaleMs) {
        await fs.rmdir(lock).catch(() => undefined);
        continue;
      }
      if (Date.now() - started > lockWaitMs)
        throw new TxcriptError("CONFLICT", "projects.json stayed locked by another program", {
          harness,
          location: { file: lock },
          hint: "close the running Gemini CLI, or remove the lock directory if none runs",
        });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  try {
    return await run();
  } finally {
    await fs.rmdir(lock).catch(() => undefined);
  }
}

async function ownedBy(root: string, slug: string): Promise<string | undefined> {
  for (const base of ["tmp", "history"]) {
    const owner = await readMarker(path.join(root, base, slug, markerName));
    if (owner !== undefined) return normalizeProjectRoot(owner);
  }
  return undefined;
}

async function writeMarkers(root: string, slug: string, projectRoot: string): Promise<void> {
  for (const base of ["tmp", "history"]) {
    const directory = path.join(root, base, slug);
    const marker = path.join(directory, markerName);
    try {
      await fs.mkdir(directory, { recursive: true });
      await fs.writeFile(marker, projectRoot, { encoding: "utf8", flag: "wx" });
    } catch (cause) {
      if ((cause as NodeJS.ErrnoException).code === "EEXIST") continue;
      throw ioError(cause, marker, "write", harness);
    }
  }
}

/**
 * The slug of `projectRoot`, registering it when new: the projects.json
 * entry if its markers agree, else a `tmp/*` directory whose marker names
 * the root, else a fresh slug (basename, then `-1`, `-2`, ... past slugs
 * in use). Other entries of projects.json are kept as they are.
 */
export async function registerGeminiProject(root: string, projectRoot: string): Promise<string> {
  const normalized = normalizeProjectRoot(projectRoot);
  const file = registryFile(root);
  await fs.mkdir(root, { recursive: true }).catch((cause) => {
    throw ioError(cause, root, "write", harness);
  });
  return withLock(file, async () => {
    const projects = await readProjects(root);
    let slug = projects.get(normalized);
    if (slug !== undefined) {
      const owner = await ownedBy(root, slug);
      if (owner !== undefined && owner !== normalized) slug = undefined;
    }
    if (slug === undefined) {
      const entries = await fs.readdir(path.join(root, "tmp")).catch(() => [] as string[]);
      for (const name of entries.sort()) {
        const marker = await readMarker(path.join(root, "tmp", name, markerName));
        if (marker !== undefined && normalizeProjectRoot(marker) === normalized) {
          slug = name;
          break;
        }
      }
    }
    if (slug === undefined) {
      const base = geminiProjectSlug(normalized);
      const taken = new Set(projects.values());
      for (let counter = 0; ; counter += 1) {
        const candidate = counter === 0 ? base : `${base}-${counter}`;
        if (taken.has(candidate)) continue;
        const owner = await ownedBy(root, candidate);
        if (owner === undefined || owner === normalized) {
          slug = candidate;
          break;
        }
      }
    }
    await writeMarkers(root, slug, normalized);
    if (projects.get(normalized) !== slug) {
      projects.set(normalized, slug);
      const document = { projects: Object.fromEntries(projects) };
      await writeFileAtomic(file, JSON.stringify(document, null, 2), {
        overwrite: true,
        root,
        harness,
      });
    }
    return slug;
  });
}
