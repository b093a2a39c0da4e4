import type { FastifyRequest } from 'fastify';
import { readRequestState } from './request-context';

const requestWith = (headers: Record<string, string>) => ({ headers }) as unknown as FastifyRequest;

describe('readRequestState', () => {
  it('cuts the user label to 100 characters', () => {
    expect(readRequestState(requestWith({ 'x-user-label': 'a'.repeat(150) })).userLabel).toHaveLength(100);
  });

  it('keeps a safe request id and session id, and replaces unsafe ones', () => {
    const kept = readRequestState(requestWith({ 'x-request-id': 'abc-123', 'x-user-session-id': 's.1' }));
    expect(kept).toMatchObject({ requestId: 'abc-123', sessionId: 's.1' });
    const replaced = readRequestState(requestWith({ 'x-request-id': 'a\nb', 'x-user-session-id': 'x'.repeat(200) }));
    expect(replaced.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(replaced.sessionId).toBeNull();
  });
});
