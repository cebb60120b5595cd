// The harnesses the CLI knows: the one registry (@txcript/harnesses) unless a
// caller hands `main` another (a test's toy harness, a plug-in). Commands
// look harnesses up here only; they never import a codec package directly.
import {
  type AnyHarness,
  type Environment,
  HarnessRegistry,
  type OptionContext,
  type Store,
} from "@txcript/core";
import { defaultRegistry } from "@txcript/harnesses";

export type { Environment, OptionContext };
export type Harness = AnyHarness;

let active: HarnessRegistry = defaultRegistry;

/** Use `registry` for the commands that follow (returns the one it replaced). */
export function useRegistry(registry: HarnessRegistry | readonly AnyHarness[]): HarnessRegistry {
  const previous = active;
  active = registry instanceof HarnessRegistry ? registry : new HarnessRegistry(registry);
  return previous;
}

/** The registry in use. */
export function registry(): HarnessRegistry {
  return active;
}

/** Every harness, in detection order. */
export function harnessList(): readonly Harness[] {
  return active.harnesses;
}

/** Ids, for help texts and error hints. */
export function harnessNames(): string {
  return active.names();
}

/** The harness named by an id or alias (case-insensitive, `-` and `_` alike). */
export function findHarness(name: string): Harness {
  return active.find(name);
}

/** The first harness whose codec recognizes the text. */
export function detectHarness(text: string, file?: string): Harness {
  return active.detect(text, file);
}

/** The harnesses that keep sessions on disk, with their stores. */
export function stores(environment: Environment): { harness: Harness; store: Store<unknown> }[] {
  return active.stores(environment);
}
