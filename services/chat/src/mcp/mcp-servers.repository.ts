import { Injectable } from '@nestjs/common';
import { toSafeJson } from '@app/contracts';
import { DataSource } from 'typeorm';
import type { McpToolInfo } from './mcp-client';

export interface McpServerRecord {
  id: string;
  userId: string;
  name: string;
  url: string;
  tokenSealed: string | null;
  /** How it is authorised: nothing, an access token, or OAuth 2.1 (its flow's state sealed in `oauthSealed`). */
  auth: 'none' | 'token' | 'oauth';
  oauthSealed: string | null;
  tools: McpToolInfo[];
  disabledTools: string[];
  listedAt: Date | null;
  createdAt: Date;
}

interface Row {
  id: string;
  user_id: string;
  name: string;
  url: string;
  token_sealed: string | null;
  auth: 'none' | 'token' | 'oauth';
  oauth_sealed: string | null;
  tools: McpToolInfo[];
  disabled_tools: string[];
  listed_at: Date | null;
  created_at: Date;
}

const COLUMNS = 'id, user_id, name, url, token_sealed, auth, oauth_sealed, tools, disabled_tools, listed_at, created_at';
const recordOf = (r: Row): McpServerRecord => ({
  id: r.id,
  userId: r.user_id,
  name: r.name,
  url: r.url,
  tokenSealed: r.token_sealed,
  auth: r.auth,
  oauthSealed: r.oauth_sealed,
  tools: Array.isArray(r.tools) ? r.tools : [],
  disabledTools: r.disabled_tools ?? [],
  listedAt: r.listed_at,
  createdAt: r.created_at,
});

/** Users' MCP servers (chat schema); the only place their SQL lives. */
@Injectable()
export class McpServersRepository {
  constructor(private readonly dataSource: DataSource) {}

  async list(userId: string): Promise<McpServerRecord[]> {
    const rows: Row[] = await this.dataSource.query(`SELECT ${COLUMNS} FROM mcp_server WHERE user_id = $1 ORDER BY created_at`, [userId]);
    return rows.map(recordOf);
  }

  async find(userId: string, id: string): Promise<McpServerRecord | null> {
    const [row]: Row[] = await this.dataSource.query(`SELECT ${COLUMNS} FROM mcp_server WHERE id = $1 AND user_id = $2`, [id, userId]);
    return row ? recordOf(row) : null;
  }

  async count(userId: string): Promise<number> {
    const [row]: { n: number }[] = await this.dataSource.query('SELECT count(*)::int AS n FROM mcp_server WHERE user_id = $1', [userId]);
    return row.n;
  }

  /** Null when the user has a server of that name already. */
  async insert(server: Omit<McpServerRecord, 'createdAt' | 'disabledTools'>): Promise<McpServerRecord | null> {
    const rows: Row[] = await this.dataSource.query(
      `INSERT INTO mcp_server (id, user_id, name, url, token_sealed, auth, oauth_sealed, tools, listed_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9)
       ON CONFLICT (user_id, lower(name)) DO NOTHING RETURNING ${COLUMNS}`,
      [
        server.id,
        server.userId,
        server.name,
        server.url,
        server.tokenSealed,
        server.auth,
        server.oauthSealed,
        toSafeJson(server.tools),
        server.listedAt,
      ],
    );
    return rows[0] ? recordOf(rows[0]) : null;
  }

  async update(
    userId: string,
    id: string,
    change: {
      name?: string;
      tokenSealed?: string | null;
      oauthSealed?: string;
      tools?: McpToolInfo[];
      disabledTools?: string[];
      listedAt?: Date;
    },
  ): Promise<McpServerRecord | null> {
    const [rows]: [Row[], number] = await this.dataSource.query(
      `UPDATE mcp_server SET
         name = COALESCE($3, name),
         token_sealed = CASE WHEN $4::boolean THEN $5 ELSE token_sealed END,
         tools = COALESCE($6::jsonb, tools),
         disabled_tools = COALESCE($7::text[], disabled_tools),
         listed_at = COALESCE($8, listed_at),
         oauth_sealed = COALESCE($9, oauth_sealed),
         updated_at = now()
       WHERE id = $1 AND user_id = $2 RETURNING ${COLUMNS}`,
      [
        id,
        userId,
        change.name ?? null,
        change.tokenSealed !== undefined,
        change.tokenSealed ?? null,
        change.tools ? toSafeJson(change.tools) : null,
        change.disabledTools ?? null,
        change.listedAt ?? null,
        change.oauthSealed ?? null,
      ],
    );
    return rows[0] ? recordOf(rows[0]) : null;
  }

  async remove(userId: string, id: string): Promise<boolean> {
    const [, count]: [unknown, number] = await this.dataSource.query('DELETE FROM mcp_server WHERE id = $1 AND user_id = $2', [id, userId]);
    return count > 0;
  }
}
