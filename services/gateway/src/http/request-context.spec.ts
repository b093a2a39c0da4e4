import type { FastifyReply, FastifyRequest } from 'fastify';
import { callerOf, clientOf, echoRequestHeaders, readRequestState, type HttpRequestState } from './request-context';

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

describe('readRequestState: hostile and unusual headers', () => {
  it('accepts the characters of a safe id up to 128, and nothing else', () => {
    const safe = 'A-z_0.9:' + 'x'.repeat(120);
    expect(readRequestState(requestWith({ 'x-request-id': safe })).requestId).toBe(safe);
    for (const unsafe of ['', 'x'.repeat(129), 'a b', 'a/b', 'a\u0000b', '<script>', 'é']) {
      expect(readRequestState(requestWith({ 'x-request-id': unsafe })).requestId).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('makes a new request id each time one is missing', () => {
    expect(readRequestState(requestWith({})).requestId).not.toBe(readRequestState(requestWith({})).requestId);
  });

  it('takes the first of repeated headers', () => {
    const state = readRequestState({
      headers: { 'x-request-id': ['first', 'second'], 'x-user-label': ['Ada', 'Bob'] },
    } as unknown as FastifyRequest);
    expect([state.requestId, state.userLabel]).toEqual(['first', 'Ada']);
  });

  it('keeps a label with Latin-1 letters as it is, cut at 100 characters (not bytes)', () => {
    expect(readRequestState(requestWith({ 'x-user-label': 'Zoë Ångström' })).userLabel).toBe('Zoë Ångström');
    const cut = readRequestState(requestWith({ 'x-user-label': 'é'.repeat(101) })).userLabel!;
    expect([cut.length, cut]).toEqual([100, 'é'.repeat(100)]);
    expect(readRequestState(requestWith({ 'x-user-label': 'a'.repeat(100) })).userLabel).toHaveLength(100);
  });

  it('has no label or session id when none is sent, or an empty one', () => {
    expect(readRequestState(requestWith({ 'x-user-label': '', 'x-user-session-id': '' }))).toMatchObject({
      userLabel: null,
      sessionId: null,
    });
  });
});

describe('echoRequestHeaders, callerOf and clientOf', () => {
  const ADA = { user_id: 'u-ada', session_id: 's-token', is_anon: false };

  function reply() {
    const headers: Record<string, string> = {};
    const fake = {
      header: (name: string, value: string) => {
        headers[name] = value;
        return fake;
      },
      hasHeader: (name: string) => name in headers,
    };
    return { headers, fake: fake as unknown as FastifyReply };
  }

  const request = (state: Partial<HttpRequestState> | undefined, auth?: typeof ADA, extra: Record<string, unknown> = {}) =>
    ({
      state: state && { requestId: 'req-1', sessionId: null, userLabel: null, startedAt: 0, ...state },
      auth,
      headers: {},
      ip: '203.0.113.9',
      ...extra,
    }) as unknown as FastifyRequest;

  it("echoes the request id and the token's session id before the one the client sent", () => {
    const { headers, fake } = reply();
    echoRequestHeaders(request({ sessionId: 's-client' }, ADA), fake);
    expect(headers).toEqual({ 'x-request-id': 'req-1', 'x-user-session-id': 's-token' });
  });

  it("echoes the client's session id without a token, nothing without one, and never over one set already", () => {
    const client = reply();
    echoRequestHeaders(request({ sessionId: 's-client' }), client.fake);
    expect(client.headers['x-user-session-id']).toBe('s-client');
    const none = reply();
    echoRequestHeaders(request({}), none.fake);
    expect(none.headers).toEqual({ 'x-request-id': 'req-1' });
    const set = reply();
    set.fake.header('x-user-session-id', 's-new');
    echoRequestHeaders(request({ sessionId: 's-client' }, ADA), set.fake);
    expect(set.headers['x-user-session-id']).toBe('s-new');
  });

  it('does nothing before the request state exists', () => {
    const { headers, fake } = reply();
    echoRequestHeaders(request(undefined), fake);
    expect(headers).toEqual({});
  });

  it('hands services the verified caller, never anything from the body', () => {
    expect(callerOf(request({ sessionId: 's-client' }, ADA, { body: { user_id: 'u-mallory' } }))).toEqual({
      user_id: 'u-ada',
      is_anon: false,
      session_id: 's-token',
      request_id: 'req-1',
    });
    expect(callerOf(request({ sessionId: 's-client' }))).toEqual({
      user_id: null,
      is_anon: false,
      session_id: 's-client',
      request_id: 'req-1',
    });
  });

  it('records the address and the user agent cut to 512 characters', () => {
    expect(clientOf(request({}, undefined, { headers: { 'user-agent': 'u'.repeat(600) } }))).toEqual({
      ip: '203.0.113.9',
      user_agent: 'u'.repeat(512),
    });
    expect(clientOf(request({}))).toEqual({ ip: '203.0.113.9', user_agent: null });
  });
});
