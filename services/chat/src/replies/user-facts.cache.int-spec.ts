import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Module, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppLogger, BUS, NatsBus, RUNTIME_ENV, SERVICE_CONFIG } from '@app/platform';
import { FakeMcpServer, machine, serviceDatabase, uniqueName, type ServiceDatabase } from '@app/testing';
import { DataSource } from 'typeorm';
import { chatEnvSchema } from '../config';
import { McpServersRepository } from '../mcp/mcp-servers.repository';
import { McpServersService } from '../mcp/mcp-servers.service';
import { chatMigrations } from '../migrations';
import { RemindersRepository } from '../reminders/reminders.repository';
import { RemindersService } from '../reminders/reminders.service';
import { aCaller } from '../testing/builders';
import { FakeLogger } from '../testing/logger.fake';
import { OutboundHttp } from '../tools/outbound/outbound-http';
import { ChatUserData } from './chat-user-data';
import { UserFactsCache } from './user-facts.cache';

/**
 * What a reply's start keeps about a user (UserFactsCache), across two chat processes: two Nest
 * applications on the real NATS and PostgreSQL. What one changes, the other forgets at once; what
 * changes behind both of them (a row written by hand) is not seen, which is what shows they keep it.
 */
describe('the user facts of two chat replicas, on NATS and PostgreSQL', () => {
  const mcp = new FakeMcpServer();
  let db: ServiceDatabase;
  let dataDir: string;
  const prefix = uniqueName('userfacts');
  const replicas: { app: INestApplicationContext; bus: NatsBus }[] = [];

  async function replica() {
    const bus = await NatsBus.connect({ url: machine.natsUrl, prefix, name: 'user-facts-test' });
    const config = chatEnvSchema.parse({ TOOLS_PRIVATE_HOSTS: new URL(mcp.url).host });
    @Module({
      providers: [
        UserFactsCache,
        ChatUserData,
        RemindersRepository,
        RemindersService,
        McpServersRepository,
        McpServersService,
        OutboundHttp,
        { provide: DataSource, useValue: db.source },
        { provide: BUS, useValue: bus },
        { provide: AppLogger, useValue: new FakeLogger() },
        { provide: SERVICE_CONFIG, useValue: config },
        { provide: RUNTIME_ENV, useValue: { NODE_ENV: 'test', DATA_DIR: dataDir } },
      ],
    })
    class ReplicaModule {}
    const app = await NestFactory.createApplicationContext(ReplicaModule, { logger: false });
    await app.init();
    replicas.push({ app, bus });
    return {
      reminders: app.get(RemindersService),
      servers: app.get(McpServersService),
      userData: app.get(ChatUserData),
    };
  }

  beforeAll(async () => {
    await mcp.start();
    dataDir = mkdtempSync(join(tmpdir(), 'user-facts-'));
    db = await serviceDatabase({ label: 'userfacts', schema: 'chat', migrations: chatMigrations });
  });

  afterAll(async () => {
    for (const { app, bus } of replicas.splice(0)) {
      await app.close();
      await bus.drain();
    }
    await db?.drop();
    await mcp.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** Waits until `check` passes (an announcement travels through NATS), failing after a few seconds. */
  async function eventually(check: () => Promise<void>): Promise<void> {
    const until = Date.now() + 5_000;
    for (;;) {
      try {
        return await check();
      } catch (error) {
        if (Date.now() > until) throw error;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
  }

  const toolNames = async (servers: McpServersService, userId: string) =>
    (await servers.enabledTools(userId)).map(({ server, tool }) => `${server.name}/${tool.name}`);

  it('a time zone set through one replica is the very next one the other reads', async () => {
    const [a, b] = [await replica(), await replica()];
    const userId = randomUUID();
    expect((await b.reminders.settingsOf(userId)).time_zone).toBeNull();
    // Kept: a row written behind the replicas' backs is not seen.
    await db.source.query('INSERT INTO reminder_setting (user_id, time_zone) VALUES ($1, $2)', [userId, 'Asia/Tokyo']);
    expect((await b.reminders.settingsOf(userId)).time_zone).toBeNull();

    await a.reminders.updateSettings(aCaller(userId), { time_zone: 'Europe/Paris' });
    await eventually(async () => expect((await b.reminders.settingsOf(userId)).time_zone).toBe('Europe/Paris'));
    expect((await a.reminders.settingsOf(userId)).time_zone).toBe('Europe/Paris');
  });

  it('an MCP server added through one replica is offered by the other, which knew the user had none; a removed one is not', async () => {
    const [a, b] = [await replica(), await replica()];
    const userId = randomUUID();
    expect(await toolNames(b.servers, userId)).toEqual([]);
    // Kept: a server inserted behind the replicas' backs is not seen ("this user has none").
    await db.source.query(
      `INSERT INTO mcp_server (id, user_id, name, url, auth, tools) VALUES ($1, $2, 'Hidden', $3, 'none', '[{"name":"peek","inputSchema":{"type":"object"}}]'::jsonb)`,
      [randomUUID(), userId, mcp.url],
    );
    expect(await toolNames(b.servers, userId)).toEqual([]);

    const added = await a.servers.add(aCaller(userId), { name: 'Fake tools', url: mcp.url });
    await eventually(async () => expect(await toolNames(b.servers, userId)).toEqual(expect.arrayContaining(['Hidden/peek'])));
    expect((await toolNames(b.servers, userId)).filter((name) => name.startsWith('Fake tools/')).length).toBeGreaterThan(0);

    // Once a user has servers, their records are read each time: a removal is seen at once everywhere.
    await a.servers.remove(aCaller(userId), added.server_id);
    expect((await toolNames(b.servers, userId)).some((name) => name.startsWith('Fake tools/'))).toBe(false);
  });

  it("a guest's servers moved to the account it signed in to are offered there at once (the merge's hook)", async () => {
    const [a, b] = [await replica(), await replica()];
    const [guest, account] = [randomUUID(), randomUUID()];
    expect(await toolNames(b.servers, account)).toEqual([]);
    await a.servers.add(aCaller(guest), { name: 'Guest tools', url: mcp.url });
    // What the platform's merge does to the table, then its hook, on the one replica that handles the event.
    await db.source.query('UPDATE mcp_server SET user_id = $1 WHERE user_id = $2', [account, guest]);
    await a.userData.afterMerge(guest, account);
    await eventually(async () => expect((await toolNames(b.servers, account)).length).toBeGreaterThan(0));
  });
});
