import { httpInstrumentationConfig } from './telemetry';

describe('tracing of HTTP calls', () => {
  it('never puts a sign-in code, a phone number or a link signature from a query string into a span', () => {
    const config = httpInstrumentationConfig();
    for (const name of ['code', 'phone_number', 'signature', 'login_state', 'to', 'access_token']) {
      expect(config.redactedQueryParamsServer).toContain(name);
      expect(config.redactedQueryParams).toContain(name);
    }
    // The instrumentation's own defaults are kept (a list given replaces them).
    expect(config.redactedQueryParamsServer).toEqual(expect.arrayContaining(['sig', 'X-Amz-Signature']));
  });

  it('leaves the probes out', () => {
    const { ignoreIncomingRequestHook } = httpInstrumentationConfig();
    expect(ignoreIncomingRequestHook({ url: '/healthz' })).toBe(true);
    expect(ignoreIncomingRequestHook({ url: '/api/v1/auth/callback/phone_number?code=123456' })).toBe(false);
  });
});
