// Slash-command markup as Claude Code writes it into user (and, in newer
// versions, `system`/`local_command`) lines: `<command-name>`,
// `<command-message>` and `<command-args>` for the command, and
// `<local-command-stdout>` / `<local-command-stderr>` for its output. Reads
// and writes the markup only; what it maps to is the readers' business.

export interface ParsedCommand {
  command: string;
  args?: string;
}

const namePattern = /<command-name>([\s\S]*?)<\/command-name>/;
const argsPattern = /<command-args>([\s\S]*?)<\/command-args>/;
const outputPattern = /^<local-command-(stdout|stderr)>([\s\S]*)<\/local-command-\1>$/;

/** The command in a string content, when it carries `<command-name>` markup. */
export function parseCommand(content: string): ParsedCommand | undefined {
  const name = namePattern.exec(content);
  if (name === null) return undefined;
  const args = argsPattern.exec(content)?.[1];
  return args === undefined || args === ""
    ? { command: name[1] as string }
    : { command: name[1] as string, args };
}

/** The output of a local command, when the whole content is one stdout/stderr element. */
export function parseCommandOutput(
  content: string,
): { text: string; isError: boolean } | undefined {
  const match = outputPattern.exec(content);
  if (match === null) return undefined;
  return { text: match[2] as string, isError: match[1] === "stderr" };
}

/** The markup Claude Code 2.x writes for a typed slash command. */
export function commandMarkup(command: string, args: string | undefined): string {
  const label = command.startsWith("/") ? command.slice(1) : command;
  return `<command-name>${command}</command-name>\n<command-message>${label}</command-message>\n<command-args>${args ?? ""}</command-args>`;
}

export function commandOutputMarkup(text: string, isError: boolean): string {
  const tag = isError ? "local-command-stderr" : "local-command-stdout";
  return `<${tag}>${text}</${tag}>`;
}
