import { UNSAFE_TEXT_MESSAGE, describeZodError } from '@app/contracts';
import { HTTP_ROUTES } from '@app/contracts/gateway';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { checkRouteParams, RouteParamsInterceptor } from './route-params';

const failure = (run: () => void): string => {
  try {
    run();
  } catch (error) {
    if (error instanceof z.ZodError) return describeZodError(error);
    throw error;
  }
  return 'passed';
};

describe('path parameters checked against the route table', () => {
  const interceptor = new RouteParamsInterceptor();
  const route = (method: string, path: string) => interceptor.routeOf(method, path);

  it('finds the route Fastify matched (HEAD is GET)', () => {
    expect(route('GET', '/api/v1/chats/:chat_id')?.summary).toMatch(/conversation/);
    expect(route('HEAD', '/api/v1/chats/:chat_id')).toBe(route('GET', '/api/v1/chats/:chat_id'));
    expect(route('GET', '/api/docs/assets/:file')).toBeUndefined();
    expect(interceptor.routeOf('GET', undefined)).toBeUndefined();
  });

  it('refuses an id that is not a UUID, naming the parameter', () => {
    expect(failure(() => checkRouteParams(route('GET', '/api/v1/chats/:chat_id'), { chat_id: 'not-a-uuid' }))).toMatch(/^chat_id: /);
    expect(failure(() => checkRouteParams(route('POST', '/api/v1/messages/:message_id/stop'), { message_id: '1 OR 1=1' }))).toMatch(
      /^message_id: /,
    );
    expect(failure(() => checkRouteParams(route('GET', '/api/v1/chats/:chat_id'), { chat_id: randomUUID() }))).toBe('passed');
  });

  it('refuses NUL and unpaired surrogates in every parameter, in the table or not', () => {
    expect(failure(() => checkRouteParams(route('GET', '/api/v1/shared/:share_id'), { share_id: '\u0000' }))).toBe(
      `share_id: ${UNSAFE_TEXT_MESSAGE}`,
    );
    expect(failure(() => checkRouteParams(route('GET', '/api/v1/campaigns/:campaign_name'), { campaign_name: 'a\u0000b' }))).toBe(
      `campaign_name: ${UNSAFE_TEXT_MESSAGE}`,
    );
    expect(failure(() => checkRouteParams(undefined, { file: 'x\ud800' }))).toBe(`file: ${UNSAFE_TEXT_MESSAGE}`);
    expect(failure(() => checkRouteParams(undefined, { file: 'swagger-ui.css' }))).toBe('passed');
    expect(failure(() => checkRouteParams(route('GET', '/api/v1/chats'), {}))).toBe('passed');
    expect(route('GET', '/api/v1/chats')).toBe(route('GET', '/api/v1/chats/'));
  });

  it('every path parameter of the table has a schema (a new route cannot skip the check)', () => {
    for (const entry of HTTP_ROUTES) {
      const names = [...entry.path.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]);
      if (!names.length) continue;
      expect(entry.params).toBeDefined();
      expect(Object.keys(entry.params!.shape).sort()).toEqual(names.sort());
    }
  });
});
