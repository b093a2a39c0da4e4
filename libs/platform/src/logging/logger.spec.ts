import { AppLogger } from './logger';
import { runWithRequestContext } from './request-context';

describe('AppLogger', () => {
  const capture = (level: 'info' | 'debug' = 'info') => {
    const lines: string[] = [];
    return { lines, logger: new AppLogger({ service: 'chat', level, format: 'json', sink: (l) => lines.push(l) }) };
  };

  it('writes one JSON object per line with the service, the context and the request', () => {
    const { lines, logger } = capture();
    runWithRequestContext({ request_id: 'req-1', user_id: 'u-1' }, () => logger.log({ msg: 'saved', chat_id: 'c-1' }, 'Conversations'));
    expect(JSON.parse(lines[0])).toMatchObject({
      level: 'info',
      service: 'chat',
      context: 'Conversations',
      msg: 'saved',
      request_id: 'req-1',
      user_id: 'u-1',
      chat_id: 'c-1',
    });
  });

  it('keeps the stack of an error', () => {
    const { lines, logger } = capture();
    logger.error(new Error('boom'), 'Handlers');
    const line = JSON.parse(lines[0]);
    expect(line).toMatchObject({ level: 'error', msg: 'boom', context: 'Handlers' });
    expect(line.stack).toContain('Error: boom');
  });

  it('drops what is below its level, and Nest start-up chatter unless debugging', () => {
    const { lines, logger } = capture('info');
    logger.debug('details');
    logger.log('Mapped {/x, GET} route', 'RouterExplorer');
    expect(lines).toEqual([]);
    const verbose = capture('debug');
    verbose.logger.log('Mapped {/x, GET} route', 'RouterExplorer');
    expect(verbose.lines).toHaveLength(1);
  });
});
