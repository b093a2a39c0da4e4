import type { FastifyReply, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyInstance {
    contentSecurityPolicy?: string;
  }
}

/** Origins the sign-in providers' browser scripts load from and talk to, when they are configured. */
export interface ProviderOrigins {
  google: boolean;
  apple: boolean;
  firebase: boolean;
}

/** The page's Content-Security-Policy: our own origin, plus what each configured sign-in provider needs. */
export function contentSecurityPolicy(providers: ProviderOrigins): string {
  const script = ["'self'"];
  const connect = ["'self'"];
  const frame: string[] = [];
  const style = ["'self'", "'unsafe-inline'"];
  if (providers.google) {
    script.push('https://accounts.google.com/gsi/client');
    connect.push('https://accounts.google.com/gsi/');
    frame.push('https://accounts.google.com/gsi/');
    style.push('https://accounts.google.com/gsi/style');
  }
  if (providers.apple) {
    script.push('https://appleid.cdn-apple.com');
    frame.push('https://appleid.apple.com');
  }
  if (providers.firebase) {
    script.push('https://www.gstatic.com', 'https://apis.google.com');
    connect.push('https://identitytoolkit.googleapis.com', 'https://securetoken.googleapis.com');
    frame.push('https://*.firebaseapp.com');
  }
  return [
    "default-src 'self'",
    `script-src ${script.join(' ')}`,
    `style-src ${style.join(' ')}`,
    "img-src 'self' data: blob:",
    "media-src 'self' data: blob:",
    `connect-src ${connect.join(' ')}`,
    `frame-src ${frame.length ? frame.join(' ') : "'none'"}`,
    "font-src 'self' data:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export const DEFAULT_POLICY = contentSecurityPolicy({ google: false, apple: false, firebase: false });

/**
 * Headers every answer carries, as name/value pairs: for Fastify's replies and for the raw
 * answers written to a socket when Node's HTTP parser refuses a request (see answerClientError).
 * HSTS only where the request came over https.
 */
export function securityHeaders(policy: string, https: boolean): [string, string][] {
  const headers: [string, string][] = [
    ['x-content-type-options', 'nosniff'],
    ['x-frame-options', 'DENY'],
    ['referrer-policy', 'no-referrer'],
    ['cross-origin-opener-policy', 'same-origin-allow-popups'],
    ['cross-origin-resource-policy', 'same-origin'],
    ['permissions-policy', 'camera=(), geolocation=(), microphone=(self)'],
    ['content-security-policy', policy],
  ];
  if (https) headers.push(['strict-transport-security', 'max-age=31536000; includeSubDomains']);
  return headers;
}

/**
 * Sets the security headers on a reply; a Content-Security-Policy set by the route (file bodies) is
 * kept. `https` overrides what the request says (Fastify's answers before routing are made with a
 * request that does not apply trustProxy: see frameworkErrorHandler).
 */
export function applySecurityHeaders(request: FastifyRequest, reply: FastifyReply, https = request.protocol === 'https'): void {
  for (const [name, value] of securityHeaders(request.server.contentSecurityPolicy ?? DEFAULT_POLICY, https)) {
    if (name !== 'content-security-policy' || !reply.hasHeader(name)) reply.header(name, value);
  }
}
