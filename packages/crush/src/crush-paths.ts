// Where Crush keeps a project's sessions: `<data directory>/crush.db`, the
// data directory being `.crush` in the project (Crush looks for the closest
// `.crush` upward within the project, else makes one in the working
// directory; `data_directory` in crush.json or `--data-dir` move it); its
// global data directory, whose projects.json lists every project Crush ran
// in with its data directory; and the command that resumes a session.
// Imports only node:os and node:path.
import * as os from "node:os";
import * as path from "node:path";

type Environment = Record<string, string | undefined>;

/**
 * Crush's global data directory (internal/config/load.go GlobalConfigData):
 * `$CRUSH_GLOBAL_DATA`, else `$XDG_DATA_HOME/crush`, else
 * `%LOCALAPPDATA%\crush` on Windows, else `~/.local/share/crush`.
 */
export function crushGlobalDataDir(env: Environment = process.env): string {
  if (env.CRUSH_GLOBAL_DATA) return path.resolve(env.CRUSH_GLOBAL_DATA);
  if (env.XDG_DATA_HOME) return path.resolve(path.join(env.XDG_DATA_HOME, "crush"));
  if (process.platform === "win32")
    return path.resolve(
      path.join(
        env.LOCALAPPDATA || path.join(env.USERPROFILE || os.homedir(), "AppData", "Local"),
        "crush",
      ),
    );
  return path.resolve(path.join(env.HOME || os.homedir(), ".local", "share", "crush"));
}

/** The registry of projects in a global data directory (internal/projects/projects.go). */
export const crushProjectsFile = "projects.json";

export const crushDataDirectoryName = ".crush";
export const crushDatabaseName = "crush.db";

/** The database of the project in `directory` when it keeps the default data directory. */
export function crushDatabaseIn(directory: string): string {
  return path.join(directory, crushDataDirectoryName, crushDatabaseName);
}

/** A store root given as a data directory or as the database file itself. */
export function crushDatabaseOf(root: string): string {
  return path.basename(root) === crushDatabaseName || path.extname(root) === ".db"
    ? root
    : path.join(root, crushDatabaseName);
}

/** The project directory of a database at `<project>/.crush/crush.db`, else undefined. */
export function crushProjectOf(database: string): string | undefined {
  const dataDirectory = path.dirname(path.resolve(database));
  return path.basename(dataDirectory) === crushDataDirectoryName
    ? path.dirname(dataDirectory)
    : undefined;
}

/**
 * The argv that opens a session in Crush, run in its project directory
 * (internal/cmd/root.go: `--session`/`-s`, "Continue a previous session by
 * ID"). `--session=<id>` keeps the id a value even when it begins with `-`.
 */
export function crushResumeCommand(id: string, bin = "crush"): string[] {
  return [bin, `--session=${id}`];
}
