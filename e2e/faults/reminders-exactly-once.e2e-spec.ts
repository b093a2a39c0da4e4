import { randomUUID } from 'node:crypto';
import type { Caller } from '@app/contracts';
import { REMINDER_RPC } from '@app/contracts/chat';
import { NatsBus, RpcClient } from '@app/platform';
import { createTestEnvironment, type TestEnvironment } from '@app/testing';
import { Client } from 'pg';
import { OwnNatsServer, haveNatsServer } from '../support/nats-server';
import { ServiceProcess } from '../support/service-process';
import { until } from '../support/until';

const USERS = 10;
const PER_USER = 4;
const TOTAL = USERS * PER_USER;

/**
 * Fault: reminders fall due while everything that can fail does. Two chat replicas deliver them
 * (each claims due ones under a lease) to an sms process, on their own NATS server and database;
 * while they are due, one replica is killed (SIGKILL, mid-delivery: its claims are left leased) and
 * NATS stops for two seconds (the sms service cannot be asked), then both come back. Afterwards
 * every reminder is delivered and each one was texted exactly once: one queued text per reminder,
 * none lost, none twice; those that had to wait say how late they are.
 */
(haveNatsServer() ? describe : describe.skip)('reminders across a replica crash and a broker outage', () => {
  let nats: OwnNatsServer;
  let environment: TestEnvironment;
  let db: Client;
  let bus: NatsBus;
  const processes: ServiceProcess[] = [];

  beforeAll(async () => {
    nats = await OwnNatsServer.start();
    environment = await createTestEnvironment('reminderfault', 'nats');
    db = new Client({ connectionString: environment.database.url });
    await db.connect();
    bus = await NatsBus.connect({ url: nats.url, prefix: environment.prefix, name: 'reminder-fault-test' });
  }, 60_000);

  afterAll(async () => {
    await Promise.all(processes.splice(0).map((p) => p.kill()));
    await bus?.drain();
    await db?.end();
    await nats?.close();
    await environment?.cleanup();
  }, 60_000);

  it('delivers every reminder, each texted exactly once', async () => {
    const env = {
      ...environment.env,
      NATS_URL: nats.url,
      MIGRATE_ON_BOOT: 'true',
      REMINDER_POLL_MS: '100',
      REMINDER_LEASE_MS: '2000',
      REMINDER_LATE_AFTER_MS: '1000',
      RPC_TIMEOUT_MS: '2000',
    };
    const sms = await ServiceProcess.start('sms', env);
    processes.push(sms);
    const chatA = await ServiceProcess.start('chat', env);
    processes.push(chatA);
    const chatB = await ServiceProcess.start('chat', env);
    processes.push(chatB);

    // Users whose numbers the sms service knows (each texted it once, say).
    const users = Array.from({ length: USERS }, (_, i) => ({
      id: randomUUID(),
      phone: `+1415555${String(6000 + i).padStart(4, '0')}`,
    }));
    for (const user of users) await db.query('INSERT INTO sms.sms_number (phone_number, user_id) VALUES ($1, $2)', [user.phone, user.id]);

    const rpc = new RpcClient(bus, 10_000);
    const start = Date.now() + 2_000;
    const reminderIds: string[] = [];
    for (const [u, user] of users.entries()) {
      const caller: Caller = { user_id: user.id, is_anon: false, session_id: randomUUID(), request_id: randomUUID() };
      for (let k = 0; k < PER_USER; k++) {
        const when = new Date(start + (u * PER_USER + k) * 100).toISOString();
        reminderIds.push((await rpc.call(REMINDER_RPC.create, { text: `task ${u}-${k}`, when }, caller)).reminder_id);
      }
    }

    const delivered = async () =>
      (await db.query("SELECT count(*)::int AS n FROM chat.reminder WHERE status = 'delivered'")).rows[0].n as number;
    // A few are delivered, then a replica dies mid-round...
    await until('the first reminders delivered', async () => ((await delivered()) >= 4 ? true : undefined), 30_000);
    await chatA.kill('SIGKILL');
    // ... then the broker goes away while the rest fall due.
    await until('more delivered', async () => ((await delivered()) >= 10 ? true : undefined), 30_000);
    await nats.stop('SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    await nats.startAgain();
    processes.push(await ServiceProcess.start('chat', env));

    await until('every reminder delivered', async () => ((await delivered()) === TOTAL ? true : undefined), 60_000);
    // Rounds go on: nothing more may be texted.
    await new Promise((resolve) => setTimeout(resolve, 1_500));

    const texts = (await db.query("SELECT to_number, body FROM sms.outbound_message WHERE body LIKE 'Reminder: task %' ORDER BY body"))
      .rows as { to_number: string; body: string }[];
    const bodies = texts.map((t) => t.body.split('\n')[0]);
    expect(bodies).toHaveLength(TOTAL);
    expect(new Set(bodies).size).toBe(TOTAL);
    for (const user of users) expect(texts.filter((t) => t.to_number === user.phone)).toHaveLength(PER_USER);
    const rows = (await db.query('SELECT text_status, late_by_seconds FROM chat.reminder WHERE id = ANY($1::uuid[])', [reminderIds]))
      .rows as { text_status: string; late_by_seconds: number }[];
    expect(rows.every((r) => r.text_status === 'queued' || r.text_status === 'duplicate')).toBe(true);
    // The outage made some late, and their texts say so. A reminder retried after a lost answer
    // ('duplicate') was texted by its first attempt, whose words were written before the retry's
    // lateness was known: its text may say on time.
    const late = texts.filter((t) => t.body.includes('late: it could not be sent on time'));
    const lateQueued = rows.filter((r) => r.text_status === 'queued' && r.late_by_seconds >= 1).length;
    const lateRetried = rows.filter((r) => r.text_status === 'duplicate' && r.late_by_seconds >= 1).length;
    expect(late.length).toBeGreaterThanOrEqual(lateQueued);
    expect(late.length).toBeLessThanOrEqual(lateQueued + lateRetried);
    console.log(
      `reminders: ${TOTAL} delivered, ${texts.length} texts, ${rows.filter((r) => r.text_status === 'duplicate').length} retried after a lost answer, ${late.length} late (max ${Math.max(...rows.map((r) => r.late_by_seconds))} s)`,
    );
  }, 180_000);
});
