import { aReplyWrites } from '../testing/reply-writes.fake';
import { FakeChatRepository } from '../testing/chat-repository.fake';
import { FakeLogger } from '../testing/logger.fake';
import { ReplyLeases } from './reply-leases';

describe('ReplyLeases', () => {
  const config = { CHAT_REPLY_LEASE_MS: 15_000 };
  const setup = () => {
    const repo = new FakeChatRepository();
    const logger = new FakeLogger();
    return { repo, logger, leases: new ReplyLeases(repo, logger, config, aReplyWrites(logger)) };
  };

  it('renews every held lease in one statement, and stops naming a reply once released', async () => {
    const { repo, leases } = setup();
    leases.hold('r1');
    leases.hold('r2');
    await leases.renew();
    leases.release('r1');
    await leases.renew();
    leases.release('r2');
    await leases.renew();
    expect(repo.renewals).toEqual([['r1', 'r2'], ['r2']]);
  });

  it('splits many replies into statements of a bounded size', async () => {
    const { repo, leases } = setup();
    for (const id of ['a', 'b', 'c', 'd', 'e']) leases.hold(id);
    await leases.renew(2);
    expect(repo.renewals).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
  });

  it('renews on its own every third of the lease while it holds replies, and logs a failed renewal', async () => {
    jest.useFakeTimers();
    try {
      const { repo, logger, leases } = setup();
      leases.hold('r1');
      await jest.advanceTimersByTimeAsync(5_000);
      expect(repo.renewals).toEqual([['r1']]);
      repo.fail('renewLeases');
      await jest.advanceTimersByTimeAsync(5_000);
      expect(logger.said('error').length).toBeGreaterThan(0);
      leases.release('r1');
      await jest.advanceTimersByTimeAsync(15_000);
      expect(repo.renewals).toEqual([['r1']]);
    } finally {
      jest.useRealTimers();
    }
  });
});
