/** Route access markers, shared with HTTP modules outside the gateway (test probes). */
export { CSRF_PROTECTED, Public, PUBLIC_ROUTE, RequireCsrf } from '@app/platform';
