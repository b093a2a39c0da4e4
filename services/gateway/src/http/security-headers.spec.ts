import { contentSecurityPolicy, securityHeaders } from './security-headers';

describe('contentSecurityPolicy', () => {
  it('allows our own origin only when no sign-in provider is configured', () => {
    const policy = contentSecurityPolicy({ google: false, apple: false, firebase: false });
    expect(policy).toContain("script-src 'self';");
    expect(policy).toContain("connect-src 'self';");
    expect(policy).toContain("frame-src 'none'");
    expect(policy).toContain("frame-ancestors 'none'");
  });

  it("opens exactly what each configured provider's browser script needs", () => {
    const policy = contentSecurityPolicy({ google: true, apple: true, firebase: true });
    expect(policy).toMatch(/script-src 'self' https:\/\/accounts\.google\.com\/gsi\/client https:\/\/appleid\.cdn-apple\.com/);
    expect(policy).toContain('https://identitytoolkit.googleapis.com');
    expect(policy).toMatch(/frame-src https:\/\/accounts\.google\.com\/gsi\/ https:\/\/appleid\.apple\.com/);
    expect(policy).not.toContain('unsafe-eval');
  });
});

describe('securityHeaders', () => {
  it('lists the headers every answer carries, HSTS only over https', () => {
    const plain = Object.fromEntries(securityHeaders('policy', false));
    expect(plain).toEqual({
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'referrer-policy': 'no-referrer',
      'cross-origin-opener-policy': 'same-origin-allow-popups',
      'cross-origin-resource-policy': 'same-origin',
      'permissions-policy': 'camera=(), geolocation=(), microphone=(self)',
      'content-security-policy': 'policy',
    });
    expect(Object.fromEntries(securityHeaders('policy', true))['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  });
});
