// The harnesses the CLI knows: the one registry (@txcript/harnesses) unless a
// caller hands `main` another (a test's toy harness, a plug-in). Commands
// look harnesses up here only; they never import a codec package directly.
//
// The default registry is not loaded up front. A command that reads one
// input (view, convert) names its harness with `harnessNamed` or finds it
// with `harnessOf`: each harness package's light sniff (@txcript/harnesses/
// sniffs, no codec or schema) picks the id, and only that harness is
// imported (@txcript/harnesses/lazy). A command that needs every harness
// (list, search, help, a directory) calls `loadRegistry` first; the sync
// lookups below read what is loaded.
import type { AnyHarness, Environment, OptionContext, Store } from "@txcript/core";
import { HarnessRegistry } from "@txcript/core/harness";
import { loadHarness } from "@txcript/harnesses/lazy";
import { harnessIdOf, harnessSniffs, sniffHarness } from "@txcript/harnesses/sniffs";

export type { Environment, OptionContext };
export type Harness = AnyHarness;

/** The registry given (tests, plug-ins), or the default one once loaded whole. */
let active: HarnessRegistry | undefined;
/** Harnesses of the default registry loaded one at a time, by id. */
const loaded = new Map<string, Harness>();

/** Use `registry` for the commands that follow (returns the one it replaced, if any was loaded). */
export function useRegistry(
  registry: HarnessRegistry | readonly AnyHarness[],
): HarnessRegistry | undefined {
  const previous = active;
  active = registry instanceof HarnessRegistry ? registry : new HarnessRegistry(registry);
  return previous;
}

/** The registry in use, loading the default one whole when none is yet. */
export async function loadRegistry(): Promise<HarnessRegistry> {
  active ??= (await import("@txcript/harnesses")).defaultRegistry;
  return active;
}

/** Whether a registry is in use (given, or the default one loaded whole). */
export function registryLoaded(): boolean {
  return active !== undefined;
}

/** The registry in use (loadRegistry must have run). */
export function registry(): HarnessRegistry {
  if (active === undefined)
    throw new Error("internal: the harness registry was asked for before it was loaded");
  return active;
}

/** Every harness, in detection order. */
export function harnessList(): readonly Harness[] {
  return registry().harnesses;
}

/** Ids, for help texts and error hints. */
export function harnessNames(): string {
  return registry().names();
}

/**
 * The harness named by an id or alias (case-insensitive, `-` and `_` alike),
 * among those loaded: the whole registry, or the one `harnessNamed` or
 * `harnessOf` loaded.
 */
export function findHarness(name: string): Harness {
  if (active !== undefined) return active.find(name);
  const id = harnessIdOf(name);
  const one = id === undefined ? undefined : loaded.get(id);
  if (one === undefined)
    throw new Error(`internal: harness ${JSON.stringify(name)} was asked for before it was loaded`);
  return one;
}

/** The harness named by an id or alias, loading that one harness only. */
export async function harnessNamed(name: string): Promise<Harness> {
  if (active !== undefined) return active.find(name);
  const id = harnessIdOf(name);
  // An unknown name: the registry's own error, with its "did you mean".
  if (id === undefined) return (await loadRegistry()).find(name);
  return loadOne(id);
}

/** The first harness (in detection order) whose sniff recognizes the text, loading that one only. */
export async function harnessOf(text: string, file?: string): Promise<Harness> {
  if (active !== undefined) return active.detect(text, file);
  const id = sniffHarness(text);
  // Nothing matched: the registry's own UNKNOWN_FORMAT error, with every name.
  if (id === undefined) return (await loadRegistry()).detect(text, file);
  return loadOne(id);
}

/** Whether harness `id`'s codec recognizes the text (its light sniff, unless a registry is loaded). */
export function recognizes(id: string, text: string): boolean {
  if (active !== undefined) return active.find(id).codec.detect(text);
  const entry = harnessSniffs.find((sniff) => sniff.id === id);
  if (entry === undefined) throw new Error(`internal: no harness ${JSON.stringify(id)}`);
  return entry.sniff(text);
}

async function loadOne(id: string): Promise<Harness> {
  let harness = loaded.get(id);
  if (harness === undefined) {
    harness = await (loadHarness(id) as Promise<Harness>);
    loaded.set(id, harness);
  }
  return harness;
}

/** The first harness whose codec recognizes the text (loadRegistry must have run). */
export function detectHarness(text: string, file?: string): Harness {
  return registry().detect(text, file);
}

/** The harnesses that keep sessions on disk, with their stores (loadRegistry must have run). */
export function stores(environment: Environment): { harness: Harness; store: Store<unknown> }[] {
  return registry().stores(environment);
}
