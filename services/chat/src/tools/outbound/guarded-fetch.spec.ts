import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FakeWeb } from '@app/testing';
import { GuardedFetch, isPublicAddress, OutboundRefused, type Resolve } from './guarded-fetch';

/** A DNS that answers what the test says (and nothing else). */
const dns: Record<string, string[]> = {
  'intranet.example': ['10.0.0.5'],
  'metadata.example': ['169.254.169.254'],
  'two-faced.example': ['93.184.216.34', '127.0.0.1'],
  localhost: ['127.0.0.1', '::1'],
  'v6-inside.example': ['fd00::1'],
};
const resolve: Resolve = async (hostname) => {
  const found = dns[hostname];
  if (!found) throw new Error('ENOTFOUND');
  return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};

const limits = { timeoutMs: 2_000, maxBytes: 10_000 };

async function refusal(work: Promise<unknown>): Promise<string> {
  try {
    await work;
  } catch (error) {
    if (error instanceof OutboundRefused) return error.reason;
    throw error;
  }
  throw new Error('It was not refused');
}

describe('the outbound guard', () => {
  const web = new FakeWeb();
  let inside: Server;
  let insideUrl: string;
  let guard: GuardedFetch;
  let reached = 0;

  beforeAll(async () => {
    await web.start();
    // A server "inside" (on loopback, not allowed): it must never be reached.
    inside = createServer((_request, response) => {
      reached++;
      response.end('secret');
    });
    await new Promise<void>((done) => inside.listen(0, '127.0.0.1', done));
    insideUrl = `http://127.0.0.1:${(inside.address() as AddressInfo).port}`;
    web
      .page('/article', { title: 'An article', paragraphs: ['Hello.'] })
      .page('/to-inside', { title: 'x', redirectTo: `${insideUrl}/admin` })
      .page('/to-metadata', { title: 'x', redirectTo: 'http://169.254.169.254/latest/meta-data/' })
      .page('/to-file', { title: 'x', redirectTo: 'file:///etc/passwd' })
      .page('/loop', { title: 'x', redirectTo: '/loop' })
      .page('/huge', { title: 'x', body: 'x'.repeat(50_000) })
      .page('/slow', { title: 'x', delayMs: Infinity });
    // The fake web is on loopback too: the test allows it by name, as an operator would allow their own server.
    guard = new GuardedFetch({ allowedPrivateHosts: [new URL(web.url).host], resolve });
  });
  afterAll(async () => {
    await guard.close();
    await web.stop();
    await new Promise((done) => inside.close(done));
  });

  it('fetches an allowed page', async () => {
    const page = await guard.fetch(`${web.url}/article`, limits);
    expect(page.status).toBe(200);
    expect(page.body.toString()).toContain('Hello.');
  });

  it.each([
    ['file:///etc/passwd', 'Only http and https addresses can be fetched (not file:).'],
    ['ftp://example.com/x', 'Only http and https addresses can be fetched (not ftp:).'],
    ['data:text/plain,hi', 'Only http and https addresses can be fetched (not data:).'],
    ['gopher://example.com/', 'Only http and https addresses can be fetched (not gopher:).'],
    ['http://user:pass@example.com/', 'Addresses with credentials in them are not fetched.'],
    ['not a url', 'That is not a URL.'],
  ])('refuses %s', async (url, reason) => {
    expect(await refusal(guard.fetch(url, limits))).toBe(reason);
  });

  it.each([
    ['loopback', 'http://127.0.0.1:9/'],
    ['loopback, another port of an allowed host', 'INSIDE'],
    ['loopback IPv6', 'http://[::1]/'],
    ['IPv4 written as a number', 'http://2130706433/'],
    ['IPv4-mapped IPv6', 'http://[::ffff:127.0.0.1]/'],
    ['unspecified', 'http://0.0.0.0/'],
    ['link-local (cloud metadata)', 'http://169.254.169.254/latest/meta-data/'],
    ['link-local IPv6', 'http://[fe80::1]/'],
    ['private 10/8', 'http://10.1.2.3/'],
    ['private 172.16/12', 'http://172.16.0.1/'],
    ['private 192.168/16', 'http://192.168.1.1/'],
    ['unique-local IPv6', 'http://[fd00::1]/'],
    ['carrier-grade NAT', 'http://100.64.0.1/'],
  ])('refuses a %s address', async (_what, url) => {
    const reason = await refusal(guard.fetch(url === 'INSIDE' ? `${insideUrl}/admin` : url, limits));
    expect(reason).toMatch(/is not a public address\.$/);
    expect(reached).toBe(0);
  });

  it.each([
    ['a name that resolves to a private address', 'http://intranet.example/', 'intranet.example resolves to 10.0.0.5'],
    ['a name that resolves to the metadata address', 'http://metadata.example/', 'resolves to 169.254.169.254'],
    ['a name with one public and one loopback address', 'http://two-faced.example/', 'resolves to 127.0.0.1'],
    ['localhost', 'http://localhost:80/', 'localhost resolves to 127.0.0.1'],
    ['a name that resolves to a unique-local IPv6 address', 'http://v6-inside.example/', 'resolves to fd00::1'],
    ['a name that does not resolve', 'http://nowhere.example/', 'nowhere.example could not be resolved.'],
  ])('refuses %s (after DNS resolution)', async (_what, url, reason) => {
    expect(await refusal(guard.fetch(url, limits))).toContain(reason);
  });

  it.each([
    ['to a loopback server', '/to-inside', 'is not a public address.'],
    ['to the metadata address', '/to-metadata', '169.254.169.254 is not a public address.'],
    ['to a file', '/to-file', 'Only http and https addresses can be fetched (not file:).'],
    ['in a loop', '/loop', 'Too many redirects.'],
  ])('refuses a redirect %s', async (_what, path, reason) => {
    expect(await refusal(guard.fetch(`${web.url}${path}`, limits))).toContain(reason);
    expect(reached).toBe(0);
  });

  it('checks the address it connects to, not only the one it looked up first (a DNS answer that changes is caught)', async () => {
    let asked = 0;
    const rebinding = new GuardedFetch({
      allowedPrivateHosts: [],
      resolve: async () => [{ address: asked++ === 0 ? '93.184.216.34' : '127.0.0.1', family: 4 }],
    });
    try {
      expect(await refusal(rebinding.fetch('http://rebind.example/', limits))).toContain('resolves to 127.0.0.1');
      expect(asked).toBe(2);
    } finally {
      await rebinding.close();
    }
  });

  it('stops reading past the size limit, and gives up on a server that does not answer in time', async () => {
    expect(await refusal(guard.fetch(`${web.url}/huge`, limits))).toBe('The answer is larger than 10000 bytes.');
    expect(await refusal(guard.fetch(`${web.url}/slow`, { ...limits, timeoutMs: 300 }))).toBe('No answer within 0.3 s.');
  });

  it('calls public only what is public unicast', () => {
    expect(isPublicAddress('93.184.216.34')).toBe(true);
    expect(isPublicAddress('2606:4700::1111')).toBe(true);
    for (const address of ['127.0.0.1', '10.0.0.1', '169.254.1.1', '::1', 'fe80::1', 'fc00::1', '224.0.0.1', '255.255.255.255', 'nonsense'])
      expect({ address, public: isPublicAddress(address) }).toEqual({ address, public: false });
  });
});
