// `txcript mcp`: the read-only MCP server on stdin/stdout (see mcp-server.ts),
// over a bounded line transport that answers every bad line with its
// JSON-RPC error (mcp-transport.ts).
import type { Parsed } from "../args.js";
import type { Io } from "../io.js";
import { createServer } from "../mcp-server.js";
import { LineTransport } from "../mcp-transport.js";

declare const TXCRIPT_VERSION: string;

export async function mcpCommand(io: Io, _parsed: Parsed): Promise<number> {
  const version = typeof TXCRIPT_VERSION === "string" ? TXCRIPT_VERSION : "0.0.0-source";
  const server = createServer(io, version);
  const transport = new LineTransport(io.stdin, io.stdout);
  await server.connect(transport);
  // Serve until the client closes stdin.
  await new Promise<void>((resolve) => {
    io.stdin.once("end", resolve);
    io.stdin.once("close", resolve);
  });
  await server.close();
  return 0;
}
