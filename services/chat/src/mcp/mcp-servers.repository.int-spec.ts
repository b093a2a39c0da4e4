import { randomUUID } from 'node:crypto';
import { serviceDatabase, type ServiceDatabase } from '@app/testing';
import { chatMigrations } from '../migrations';
import { McpServersRepository, type McpServerRecord } from './mcp-servers.repository';

/**
 * Users' MCP servers against the real PostgreSQL: a name is unique per user whatever its case, a
 * change touches only what it names (a token is cleared only when asked), and every statement is
 * its owner's only.
 */
describe('McpServersRepository on PostgreSQL', () => {
  let db: ServiceDatabase;
  let servers: McpServersRepository;

  beforeAll(async () => {
    db = await serviceDatabase({ label: 'mcpservers', schema: 'chat', migrations: chatMigrations });
    servers = new McpServersRepository(db.source);
  });

  afterAll(() => db?.drop());

  const serverOf = (userId: string, name = 'Notes'): Omit<McpServerRecord, 'createdAt' | 'disabledTools'> => ({
    id: randomUUID(),
    userId,
    name,
    url: 'https://mcp.example/notes',
    tokenSealed: 'sealed-token',
    auth: 'token',
    oauthSealed: null,
    tools: [{ name: 'search', description: 'Search notes', inputSchema: { type: 'object' } }],
    listedAt: new Date(),
  });

  it('keeps one server of a name per user, whatever its case; another user may use the name', async () => {
    const userId = randomUUID();
    expect(await servers.insert(serverOf(userId))).not.toBeNull();
    expect(await servers.insert(serverOf(userId, 'NOTES'))).toBeNull();
    expect(await servers.insert(serverOf(randomUUID(), 'notes'))).not.toBeNull();
    expect(await servers.count(userId)).toBe(1);
  });

  it('changes only what a change names, and clears a token only when asked', async () => {
    const userId = randomUUID();
    const server = (await servers.insert(serverOf(userId)))!;

    const renamed = await servers.update(userId, server.id, { name: 'Work notes', disabledTools: ['search'] });
    expect(renamed).toMatchObject({ name: 'Work notes', tokenSealed: 'sealed-token', disabledTools: ['search'] });
    expect(renamed?.tools.map((t) => t.name)).toEqual(['search']);

    expect(await servers.update(userId, server.id, { tokenSealed: null })).toMatchObject({ tokenSealed: null, name: 'Work notes' });
  });

  it("neither reads, changes nor removes another user's server", async () => {
    const userId = randomUUID();
    const server = (await servers.insert(serverOf(userId)))!;
    const stranger = randomUUID();

    expect(await servers.find(stranger, server.id)).toBeNull();
    expect(await servers.list(stranger)).toEqual([]);
    expect(await servers.update(stranger, server.id, { name: 'Mine now' })).toBeNull();
    expect(await servers.remove(stranger, server.id)).toBe(false);

    expect((await servers.find(userId, server.id))?.name).toBe('Notes');
    expect(await servers.remove(userId, server.id)).toBe(true);
    expect(await servers.remove(userId, server.id)).toBe(false);
  });
});
