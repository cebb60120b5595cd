// The run count and seed every law's properties share (TXCRIPT_LAW_RUNS,
// TXCRIPT_FUZZ_RUNS, TXCRIPT_SEED).
import type fc from "fast-check";

/** Generated cases per property: TXCRIPT_LAW_RUNS, else 1000 (the CI budget). */
export function lawRuns(fallback = 1000): number {
  const fromEnvironment = Number(process.env.TXCRIPT_FUZZ_RUNS ?? process.env.TXCRIPT_LAW_RUNS);
  return Number.isFinite(fromEnvironment) && fromEnvironment > 0 ? fromEnvironment : fallback;
}

/** fast-check parameters shared by the laws: run count and a reproducible seed from TXCRIPT_SEED. */
export function lawParameters(numRuns = lawRuns()): fc.Parameters<unknown> {
  const seed = Number(process.env.TXCRIPT_SEED);
  return { numRuns, ...(Number.isInteger(seed) ? { seed } : {}) };
}
