import type { AppLogger } from '@app/platform';
import { ReplyWrites } from '../replies/reply-writes';
import { FakeLogger } from './logger.fake';

/** The queue of reply writes (ReplyWrites) of a pool of four, final saves tried `attempts` times. */
export function aReplyWrites(logger: Pick<AppLogger, 'warn'> = new FakeLogger(), attempts = 3): ReplyWrites {
  return new ReplyWrites({ CHAT_REPLY_SAVE_ATTEMPTS: attempts }, { DB_POOL_MAX: 4 }, logger);
}
