// The process surface every command uses, gathered in one object so the
// entry point owns `process` and commands stay testable: streams, the
// environment, the working directory, and the colour decision.
import type { Readable, Writable } from "node:stream";

export interface Io {
  stdin: Readable;
  stdout: Writable & { isTTY?: boolean };
  stderr: Writable & { isTTY?: boolean };
  env: Record<string, string | undefined>;
  cwd: string;
}

/**
 * The process's own: its standard streams are made on first use, since
 * Node builds each on first access (a pipe's loads node:net, a terminal's
 * node:tty) and most commands never touch stdin, nor stdout when writing a
 * file. A closed stdout pipe surfaces through the pending write; its error
 * event is kept from crashing the process.
 */
export function processIo(): Io {
  return {
    get stdin() {
      return process.stdin;
    },
    get stdout() {
      const { stdout } = process;
      if (stdout.listenerCount("error") === 0) stdout.on("error", () => undefined);
      return stdout;
    },
    get stderr() {
      return process.stderr;
    },
    env: process.env,
    cwd: process.cwd(),
  };
}

/**
 * Colour on a terminal, never when NO_COLOR is set to anything non-empty,
 * and wherever FORCE_COLOR asks for it (any value but "0" or "false"; it
 * wins over NO_COLOR, as in Node and chalk).
 */
export function useColor(io: Io, stream: "stdout" | "stderr"): boolean {
  const force = io.env.FORCE_COLOR;
  if (force !== undefined) return force !== "0" && force !== "false";
  const noColor = io.env.NO_COLOR;
  if (noColor !== undefined && noColor !== "") return false;
  return io[stream].isTTY === true;
}

/** Write and wait until the stream accepted it (large outputs to a pipe). */
export function write(stream: Writable, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    stream.write(text, (error) => (error ? reject(error) : resolve()));
  });
}
