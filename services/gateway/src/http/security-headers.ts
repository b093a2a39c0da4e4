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

const DEFAULT_POLICY = contentSecurityPolicy({ google: false, apple: false, firebase: false });

/** Headers every answer carries. HSTS only where the request came over https. */
export function applySecurityHeaders(request: FastifyRequest, reply: FastifyReply): void {
  reply.header('x-content-type-options', 'nosniff');
  reply.header('x-frame-options', 'DENY');
  reply.header('referrer-policy', 'no-referrer');
  reply.header('cross-origin-opener-policy', 'same-origin-allow-popups');
  reply.header('cross-origin-resource-policy', 'same-origin');
  reply.header('permissions-policy', 'camera=(), geolocation=(), microphone=(self)');
  if (!reply.hasHeader('content-security-policy')) reply.header('content-security-policy', request.server.contentSecurityPolicy ?? DEFAULT_POLICY);
  if (request.protocol === 'https') reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
}
