import { isLoopbackRequest } from './dev-only.guard';

const request = (remoteAddress: string | undefined, headers: Record<string, string> = {}) =>
  ({ raw: { socket: { remoteAddress } }, headers: { host: '127.0.0.1:8080', ...headers } }) as unknown as Parameters<
    typeof isLoopbackRequest
  >[0];

describe('isLoopbackRequest (the development SMS inbox)', () => {
  it('takes a request whose socket is this machine, under a loopback name', () => {
    for (const address of ['127.0.0.1', '127.0.0.53', '::1', '::ffff:127.0.0.1']) expect(isLoopbackRequest(request(address))).toBe(true);
    for (const host of ['localhost', 'localhost:5173', 'app.localhost:8080', '[::1]:8080', '127.0.0.1'])
      expect(isLoopbackRequest(request('127.0.0.1', { host }))).toBe(true);
  });

  it('refuses any other socket, whatever the headers claim', () => {
    for (const address of ['192.0.2.2', '10.0.0.1', '::ffff:192.0.2.2', '2001:db8::1', '1127.0.0.1', '', undefined]) {
      expect(isLoopbackRequest(request(address, { 'x-forwarded-for': '127.0.0.1' }))).toBe(false);
      expect(isLoopbackRequest(request(address))).toBe(false);
    }
  });

  it('refuses a request that went through a proxy, even one on this machine', () => {
    for (const name of ['x-forwarded-for', 'forwarded', 'x-real-ip', 'x-forwarded-host'])
      expect(isLoopbackRequest(request('127.0.0.1', { [name]: '127.0.0.1' }))).toBe(false);
  });

  it('refuses a page of another site whose name was rebound to 127.0.0.1', () => {
    for (const host of ['attacker.example', 'attacker.example:8080', 'localhost.attacker.example', '127.0.0.1.nip.io'])
      expect(isLoopbackRequest(request('127.0.0.1', { host }))).toBe(false);
    expect(isLoopbackRequest({ raw: { socket: { remoteAddress: '127.0.0.1' } }, headers: {} } as never)).toBe(false);
  });
});
