// Types of scripts/real-programs.mjs, for the TypeScript tests that import it.
export interface RealProgram {
  package: string;
  version: string;
  bin: string;
  env: string;
  cache?: string;
}
export const realPrograms: Record<string, RealProgram>;
export function programCache(name: string): string;
export function programBin(name: string): string | undefined;
export function programSkipReason(name: string): string | undefined;
export function ensureProgram(name: string, log?: (line: string) => void): void;
