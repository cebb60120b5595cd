// The lazy loaders (lazy.ts) against the registry: one per store of the
// default registry, each giving that very harness definition.
import { describe, expect, it } from "vitest";
import { defaultRegistry } from "./index.js";
import { loadStoreHarness, storeHarnessLoaders } from "./lazy.js";
import { storeRootHarnesses } from "./roots.js";

describe("the lazy store harnesses", () => {
  it("load, for every store of the registry, the registry's own harness", async () => {
    const withStores = defaultRegistry.harnesses.filter((harness) => harness.store !== undefined);
    expect(Object.keys(storeHarnessLoaders)).toEqual(withStores.map((harness) => harness.id));
    expect([...storeRootHarnesses]).toEqual(withStores.map((harness) => harness.id));
    for (const harness of withStores) expect(await loadStoreHarness(harness.id)).toBe(harness);
  });

  it("have no loader for a harness without a store", () => {
    for (const harness of defaultRegistry.harnesses.filter((entry) => entry.store === undefined))
      expect(loadStoreHarness(harness.id)).toBeUndefined();
    expect(loadStoreHarness("no-such-harness")).toBeUndefined();
  });
});
