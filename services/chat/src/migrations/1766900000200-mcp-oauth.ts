import { sqlMigration } from '@app/platform';

/** MCP servers authorised with OAuth 2.1: what the flow keeps (client, tokens, PKCE verifier, state), sealed. */
export const McpOAuth1766900000200 = sqlMigration('McpOAuth1766900000200', {
  up: ["ALTER TABLE mcp_server ADD COLUMN auth text NOT NULL DEFAULT 'none', ADD COLUMN oauth_sealed text"],
  down: ['ALTER TABLE mcp_server DROP COLUMN oauth_sealed, DROP COLUMN auth'],
});
