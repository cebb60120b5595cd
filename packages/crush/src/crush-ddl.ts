// The schema Crush's migrations define (internal/db/migrations/*.sql), written
// from their facts for a database txcript creates: the newest era's tables,
// indexes and triggers, and goose's version table recording every migration
// as applied, so Crush's goose does not run them again on a fresh database
// (its ALTER TABLE ADD COLUMN steps would fail on columns already there).
// crush-ddl.test.ts holds this equal, column by column, to a database the
// published migrations produce and to a database Crush itself made.

/** Migration versions, oldest first (docs/formats/crush.md, Schema eras). */
export const crushMigrations = [
  20250424200609, 20250515105448, 20250624000000, 20250627000000, 20250810000000, 20250812000000,
  20260127000000,
] as const;

export const crushSchemaStatements: readonly string[] = [
  `CREATE TABLE IF NOT EXISTS sessions (
    id TEXT PRIMARY KEY,
    parent_session_id TEXT,
    title TEXT NOT NULL,
    message_count INTEGER NOT NULL DEFAULT 0 CHECK (message_count >= 0),
    prompt_tokens INTEGER NOT NULL DEFAULT 0 CHECK (prompt_tokens >= 0),
    completion_tokens INTEGER NOT NULL DEFAULT 0 CHECK (completion_tokens >= 0),
    cost REAL NOT NULL DEFAULT 0.0 CHECK (cost >= 0.0),
    updated_at INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    summary_message_id TEXT,
    todos TEXT
  )`,
  `CREATE TRIGGER IF NOT EXISTS update_sessions_updated_at AFTER UPDATE ON sessions
   BEGIN UPDATE sessions SET updated_at = strftime('%s', 'now') WHERE id = new.id; END`,
  `CREATE TABLE IF NOT EXISTS files (
    id TEXT PRIMARY KEY,
    session_id TEXT NOT NULL,
    path TEXT NOT NULL,
    content TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    FOREIGN KEY (session_id) REFERENCES sessions (id) ON DELETE CASCADE,
    UNIQUE(path, session_id, version)
  )`,
  "CREATE INDEX IF NOT EXISTS idx_files_session_id ON files (session_id)",
  "CREATE INDEX IF NOT EXISTS idx_files_path ON files (path)",
  `CREATE TRIGGER IF NOT EXISTS update_files_updated_at AFTER UPDATE ON files
   BEGIN UPDATE files SET updated_at = strftime('%s', 'now') WHERE id = new.id; END`,
  `CREATE TABLE IF NOT EXISTS messages (
    id TEXT PRIMARY KEY,
    session_id TEXT NOT NULL,
    role TEXT NOT NULL,
    parts TEXT NOT NULL default '[]',
    model TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    finished_at INTEGER,
    provider TEXT,
    is_summary_message INTEGER DEFAULT 0 NOT NULL,
    FOREIGN KEY (session_id) REFERENCES sessions (id) ON DELETE CASCADE
  )`,
  "CREATE INDEX IF NOT EXISTS idx_messages_session_id ON messages (session_id)",
  `CREATE TRIGGER IF NOT EXISTS update_messages_updated_at AFTER UPDATE ON messages
   BEGIN UPDATE messages SET updated_at = strftime('%s', 'now') WHERE id = new.id; END`,
  `CREATE TRIGGER IF NOT EXISTS update_session_message_count_on_insert AFTER INSERT ON messages
   BEGIN UPDATE sessions SET message_count = message_count + 1 WHERE id = new.session_id; END`,
  `CREATE TRIGGER IF NOT EXISTS update_session_message_count_on_delete AFTER DELETE ON messages
   BEGIN UPDATE sessions SET message_count = message_count - 1 WHERE id = old.session_id; END`,
  "CREATE INDEX IF NOT EXISTS idx_sessions_created_at ON sessions (created_at)",
  "CREATE INDEX IF NOT EXISTS idx_messages_created_at ON messages (created_at)",
  "CREATE INDEX IF NOT EXISTS idx_files_created_at ON files (created_at)",
  `CREATE TABLE IF NOT EXISTS read_files (
    session_id TEXT NOT NULL CHECK (session_id != ''),
    path TEXT NOT NULL CHECK (path != ''),
    read_at INTEGER NOT NULL,
    FOREIGN KEY (session_id) REFERENCES sessions (id) ON DELETE CASCADE,
    PRIMARY KEY (path, session_id)
  )`,
  "CREATE INDEX IF NOT EXISTS idx_read_files_session_id ON read_files (session_id)",
  "CREATE INDEX IF NOT EXISTS idx_read_files_path ON read_files (path)",
  // goose v3's SQLite version table, and version 0 it records first.
  `CREATE TABLE goose_db_version (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    version_id INTEGER NOT NULL,
    is_applied INTEGER NOT NULL,
    tstamp TIMESTAMP DEFAULT (datetime('now'))
  )`,
];

/** The rows goose records for a database at the newest era. */
export const gooseVersionRows: readonly number[] = [0, ...crushMigrations];
