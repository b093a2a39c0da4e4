import { API } from '@app/contracts/gateway';
import { beforeEach, describe, expect, it } from 'vitest';
import { json, mockFetch } from '../../../test/fetchMock';
import { signedIn } from '../../../test/session';
import { ApiError, call, routeRequest } from './http';

describe('calls of the declared routes', () => {
  beforeEach(() => {
    signedIn();
  });

  it('gets the declarations as method and path only: no schema reaches the browser', () => {
    expect(API.memory.update).toEqual({ method: 'PUT', path: '/api/v1/user_memory/:user_memory_id' });
    for (const group of Object.values(API)) {
      for (const route of Object.values(group)) expect(Object.keys(route).sort()).toEqual(['method', 'path']);
    }
  });

  it('builds the URL from the path (parameters encoded) and the query (absent values left out, empty text kept)', () => {
    expect(routeRequest(API.chat.get, { params: { chat_id: 'a/b c' } }).url).toBe('/api/v1/chats/a%2Fb%20c');
    expect(routeRequest(API.memory.list, { query: { user_preference_name: 'default', source_chat_id: '' } }).url).toBe(
      '/api/v1/user_memory/?user_preference_name=default&source_chat_id=',
    );
    expect(routeRequest(API.chat.messages, { query: { chat_ids: undefined } }).url).toBe('/api/v1/messages/all_user_messages');
    expect(() => routeRequest(API.chat.get, { params: {} as { chat_id: string } })).toThrow(/chat_id is missing/);
  });

  it('sends JSON on POST, PUT and PATCH ({} without a body), none on GET and DELETE, a FormData as it is', () => {
    const put = routeRequest(API.memory.update, { params: { user_memory_id: 'm' }, body: { text: 'x' } });
    expect(put.init).toEqual({ method: 'PUT', body: '{"text":"x"}', headers: { 'content-type': 'application/json' } });
    expect(routeRequest(API.memory.restore, { params: { user_memory_id: 'm' } }).init.body).toBe('{}');
    expect(routeRequest(API.memory.remove, { params: { user_memory_id: 'm' } }).init).toEqual({ method: 'DELETE', headers: {} });
    const form = new FormData();
    const upload = routeRequest(API.files.upload, {}, { body: form });
    expect(upload.init.body).toBe(form);
    expect(upload.init.headers).toEqual({});
    expect(routeRequest(API.auth.me, {}, { headers: { authorization: 'Bearer other' } }).init.headers).toEqual({
      authorization: 'Bearer other',
    });
  });

  it('answers the parsed body, or the API error with its detail, else API Error: {status}', async () => {
    mockFetch({
      'GET /api/v1/campaigns/spring': json(200, { name: 'spring' }),
      'GET /api/v1/campaigns/gone': json(404, { detail: 'No such campaign' }),
      'GET /api/v1/campaigns/broken': new Response('oops', { status: 502 }),
    });
    const campaign = (name: string) => call(API.account.campaign, { params: { campaign_name: name } }, { public: true });
    await expect(campaign('spring')).resolves.toEqual({ name: 'spring' });
    await expect(campaign('gone')).rejects.toEqual(new ApiError('No such campaign', 404));
    await expect(campaign('broken')).rejects.toThrow('API Error: 502');
  });
});
