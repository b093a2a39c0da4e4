import { API, HTTP_ROUTES, routeEntries } from '@app/contracts/gateway';
import { bodyMediaType, crossSiteRequest, declaredRouteOf, mediaTypeOf, routeRefusal } from './route-policy';

type Headers = Record<string, string>;
const request = (headers: Headers, host = 'assistant.example') => ({ headers, host });

describe('the rules each route declares', () => {
  it('finds the declaration of the route a request matched, with or without the trailing slash', () => {
    expect(declaredRouteOf({ method: 'POST', routeOptions: { url: '/api/v1/sms/group-invites/:invite_id/join' } } as never)).toBe(
      API.sms.join,
    );
    expect(declaredRouteOf({ method: 'POST', routeOptions: { url: '/api/v1/chats/' } } as never)).toBe(API.chat.create);
    expect(declaredRouteOf({ method: 'GET', routeOptions: { url: '/api/docs' } } as never)).toBeUndefined();
  });

  it.each([
    ['application/json', 'application/json'],
    ['Application/JSON; charset=utf-8', 'application/json'],
    ['multipart/form-data; boundary=x', 'multipart/form-data'],
    ['', undefined],
    [undefined, undefined],
  ])('reads the media type of %p as %p', (header, type) => {
    expect(mediaTypeOf(header)).toBe(type);
  });

  it("takes a route's declared media type: consumes, else JSON; none without a body", () => {
    expect(bodyMediaType(API.sms.twilioInbound)).toBe('application/x-www-form-urlencoded');
    expect(bodyMediaType(API.files.upload)).toBe('multipart/form-data');
    expect(bodyMediaType(API.sms.join)).toBe('application/json');
    expect(bodyMediaType(API.voice.transcribe)).toBeUndefined();
  });

  it.each<[string, Headers, string | undefined, boolean]>([
    ['no Origin, no Fetch Metadata (curl, a server)', {}, undefined, false],
    ['our own Origin', { origin: 'https://assistant.example' }, undefined, false],
    ['our own Origin over plain http behind a proxy', { origin: 'http://assistant.example' }, undefined, false],
    ['the public Origin (PUBLIC_URL) while the host is internal', { origin: 'https://chat.example' }, 'https://chat.example', false],
    ['Sec-Fetch-Site: same-origin', { 'sec-fetch-site': 'same-origin' }, undefined, false],
    ['Sec-Fetch-Site: none (typed in the address bar)', { 'sec-fetch-site': 'none' }, undefined, false],
    ['another Origin', { origin: 'https://evil.example' }, undefined, true],
    ['another port of our host', { origin: 'https://assistant.example:8443' }, undefined, true],
    ['a sub-domain of ours', { origin: 'https://x.assistant.example' }, undefined, true],
    ['an opaque Origin', { origin: 'null' }, undefined, true],
    ['a malformed Origin', { origin: 'not a url' }, undefined, true],
    ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }, undefined, true],
    ['Sec-Fetch-Site: same-site', { 'sec-fetch-site': 'same-site' }, undefined, true],
  ])('a request with %s is from another site: %p', (_label, headers, publicOrigin, expected) => {
    expect(crossSiteRequest(request(headers), publicOrigin)).toBe(expected);
  });

  it.each<[string, Headers, number | undefined]>([
    ['JSON', { 'content-type': 'application/json', 'content-length': '30' }, undefined],
    ['JSON with a charset', { 'content-type': 'application/json; charset=utf-8', 'content-length': '30' }, undefined],
    ['no body at all', {}, undefined],
    ['a form post', { 'content-type': 'application/x-www-form-urlencoded', 'content-length': '30' }, 415],
    ['an empty form post', { 'content-type': 'application/x-www-form-urlencoded', 'content-length': '0' }, 415],
    ['multipart', { 'content-type': 'multipart/form-data; boundary=x', 'content-length': '30' }, 415],
    ['text/plain', { 'content-type': 'text/plain', 'content-length': '30' }, 415],
    ['a body without a type', { 'content-length': '30' }, 415],
    ['chunks without a type', { 'transfer-encoding': 'chunked' }, 415],
    ['a form post from another site', { origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' }, 403],
    ['JSON from another site', { 'sec-fetch-site': 'cross-site', 'content-type': 'application/json' }, 403],
  ])('the group join (it texts) refuses %s with %p', (_label, headers, status) => {
    expect(routeRefusal(API.sms.join, request(headers), undefined)?.status).toBe(status);
  });

  it("Twilio's webhooks take form posts only, from anywhere (they text nobody themselves)", () => {
    const form = { 'content-type': 'application/x-www-form-urlencoded', 'content-length': '30' };
    expect(routeRefusal(API.sms.twilioInbound, request(form), undefined)).toBeUndefined();
    expect(routeRefusal(API.sms.twilioInbound, request({ ...form, origin: 'https://evil.example' }), undefined)).toBeUndefined();
    expect(
      routeRefusal(API.sms.twilioStatus, request({ 'content-type': 'application/json', 'content-length': '2' }), undefined)?.status,
    ).toBe(415);
  });

  it('every public route that makes the product send a text declares it (a new one must be listed here, and then is protected)', () => {
    const texting = routeEntries(API)
      .filter(([, route]) => route.sendsText)
      .map(([name]) => name);
    expect(texting.sort()).toEqual(['auth.sendPhoneCode', 'dev.phoneInbound', 'sms.join']);
    // Each takes JSON only, so a page of another site cannot post it without a CORS preflight either.
    for (const route of HTTP_ROUTES.filter((r) => r.sendsText)) expect(bodyMediaType(route)).toBe('application/json');
  });
});
