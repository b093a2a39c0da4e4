import { SetMetadata } from '@nestjs/common';

export const PUBLIC_ROUTE = 'assistant:public';
export const CSRF_PROTECTED = 'assistant:csrf';

/** Anyone may call the route; a valid token, when sent, still identifies the caller (a guest signing in). */
export const Public = () => SetMetadata(PUBLIC_ROUTE, true);

/** The route acts on cookies the browser sends by itself: it needs the CSRF token (double submit). */
export const RequireCsrf = () => SetMetadata(CSRF_PROTECTED, true);
