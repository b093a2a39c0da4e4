import { aMessage } from '../testing/builders';
import { FakeChatRepository } from '../testing/chat-repository.fake';
import { FakeLogger } from '../testing/logger.fake';
import { ReplyRecovery } from './reply-recovery';

describe('ReplyRecovery', () => {
  const setup = () => {
    const repo = new FakeChatRepository();
    const logger = new FakeLogger();
    return { repo, logger, recovery: new ReplyRecovery(repo, logger, { CHAT_REPLY_LEASE_MS: 15_000 }) };
  };

  it('turns replies whose lease ran out into incomplete replies with what was saved, and leaves live ones alone', async () => {
    const { repo, logger, recovery } = setup();
    repo.seed(
      aMessage({
        id: 'abandoned',
        sender: 'assistant',
        status: 'streaming',
        content: 'Half',
        leaseExpiresAt: new Date(Date.now() - 1_000),
      }),
      aMessage({ id: 'alive', sender: 'assistant', status: 'streaming', content: 'Going', leaseExpiresAt: new Date(Date.now() + 60_000) }),
    );
    expect(await recovery.sweep()).toBe(1);
    expect(repo.messages.get('abandoned')).toMatchObject({ status: 'incomplete', content: 'Half', metadata: { incomplete: true } });
    expect(repo.messages.get('alive')!.status).toBe('streaming');
    expect(logger.said('warn')).toEqual(['Replies cut short by a stopped process were stored as incomplete']);
    expect(await recovery.sweep()).toBe(0);
    expect(logger.lines).toHaveLength(1);
  });

  it('survives a database that is away, and tries again at the next sweep', async () => {
    const { repo, logger, recovery } = setup();
    repo.fail('recoverAbandonedReplies');
    expect(await recovery.sweep()).toBe(0);
    expect(logger.said('warn')).toEqual(['Could not recover abandoned replies']);
    repo.heal('recoverAbandonedReplies');
    repo.seed(aMessage({ id: 'abandoned', status: 'streaming', leaseExpiresAt: new Date(Date.now() - 1) }));
    expect(await recovery.sweep()).toBe(1);
  });

  it('runs one sweep at a time', async () => {
    const { repo, recovery } = setup();
    let release!: () => void;
    const slow = new Promise<void>((resolve) => (release = resolve));
    const original = repo.recoverAbandonedReplies.bind(repo);
    let calls = 0;
    repo.recoverAbandonedReplies = async () => {
      calls++;
      await slow;
      return original();
    };
    const first = recovery.sweep();
    expect(await recovery.sweep()).toBe(0);
    release();
    await first;
    expect(calls).toBe(1);
  });
});
