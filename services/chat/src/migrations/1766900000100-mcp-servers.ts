import { sqlMigration } from '@app/platform';

/**
 * Users' own MCP servers (issue 26): where each is, its access token sealed (AES-256-GCM, never in
 * clear), the tools it listed and those the user switched off.
 */
export const McpServers1766900000100 = sqlMigration('McpServers1766900000100', {
  up: [
    `CREATE TABLE mcp_server (
      id uuid PRIMARY KEY,
      user_id uuid NOT NULL,
      name text NOT NULL,
      url text NOT NULL,
      token_sealed text,
      tools jsonb NOT NULL DEFAULT '[]',
      disabled_tools text[] NOT NULL DEFAULT '{}',
      listed_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`,
    'CREATE UNIQUE INDEX mcp_server_user_name_idx ON mcp_server (user_id, lower(name))',
  ],
  down: ['DROP TABLE mcp_server'],
});
