// `txcript completion bash|zsh|fish`: a completion script for the shell,
// generated from the command specs and the registry, so it completes every
// command, each command's options, and harness names after --to, --from,
// --with and --harness.
import { TxcriptError } from "@txcript/core";
import type { Parsed } from "../args.js";
import { commandSpecs } from "../command-specs.js";
import { harnessList } from "../harnesses.js";
import { type Io, write } from "../io.js";

const harnessOptions = ["--to", "-t", "--from", "--with", "-w", "--harness"];

function words(): { commands: string[]; options: Map<string, string[]>; harnesses: string[] } {
  const options = new Map<string, string[]>();
  for (const spec of commandSpecs)
    options.set(
      spec.name,
      spec.options.flatMap((option) => [
        `--${option.name}`,
        ...(option.short ? [`-${option.short}`] : []),
      ]),
    );
  return {
    commands: commandSpecs.map((spec) => spec.name),
    options,
    harnesses: harnessList().flatMap((harness) => [harness.id, ...harness.aliases]),
  };
}

function bash(): string {
  const { commands, options, harnesses } = words();
  const cases = [...options]
    .map(([command, list]) => `    ${command}) opts="${list.join(" ")}" ;;`)
    .join("\n");
  return `# txcript bash completion: source it, or save it as
# ~/.local/share/bash-completion/completions/txcript
_txcript() {
  local cur prev command opts
  cur="\${COMP_WORDS[COMP_CWORD]}"
  prev="\${COMP_WORDS[COMP_CWORD-1]}"
  command="\${COMP_WORDS[1]}"
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=( $(compgen -W "${commands.join(" ")} --help --version" -- "$cur") )
    return
  fi
  case "$prev" in
    ${harnessOptions.join("|")}) COMPREPLY=( $(compgen -W "${harnesses.join(" ")}" -- "$cur") ); return ;;
  esac
  case "$command" in
${cases}
    *) opts="" ;;
  esac
  if [[ "$cur" == -* ]]; then
    COMPREPLY=( $(compgen -W "$opts" -- "$cur") )
  else
    COMPREPLY=( $(compgen -f -- "$cur") )
  fi
}
complete -F _txcript txcript
`;
}

function zsh(): string {
  return `#compdef txcript
# txcript zsh completion: save it as _txcript in a directory on $fpath.
autoload -U bashcompinit && bashcompinit
${bash()}`;
}

function fish(): string {
  const { commands, options, harnesses } = words();
  const lines = [
    "# txcript fish completion: save it as ~/.config/fish/completions/txcript.fish",
    "complete -c txcript -f",
    `complete -c txcript -n "__fish_use_subcommand" -a "${commands.join(" ")}"`,
  ];
  for (const [command, list] of options)
    for (const option of list.filter((item) => item.startsWith("--"))) {
      const name = option.slice(2);
      const takesHarness = harnessOptions.includes(option);
      lines.push(
        `complete -c txcript -n "__fish_seen_subcommand_from ${command}" -l ${name}${takesHarness ? ` -x -a "${harnesses.join(" ")}"` : ""}`,
      );
    }
  lines.push(`complete -c txcript -n "not __fish_use_subcommand" -F`);
  return `${lines.join("\n")}\n`;
}

export async function completionCommand(io: Io, { positionals }: Parsed): Promise<number> {
  const shell = positionals[0];
  const script =
    shell === "bash" ? bash() : shell === "zsh" ? zsh() : shell === "fish" ? fish() : undefined;
  if (script === undefined)
    throw new TxcriptError("USAGE", `no completion for ${JSON.stringify(shell)}`, {
      hint: "expected bash, zsh or fish",
    });
  await write(io.stdout, script);
  return 0;
}
