import { PRODUCT_CONSTANTS } from '../common/constants';

/** The prefix of the product's HTTP API (every route but the operations' /healthz and /readyz). */
export const API_PREFIX = '/api/v1';

/** The paths the gateway's cookies are scoped to: each goes only to the routes that read it. */
export const COOKIE_PATHS = {
  /** The access token, for the file views (images in the page). */
  fileView: PRODUCT_CONSTANTS.fileViewCookiePath,
  /** The CSRF token's double-submit cookie: the sign-in calls. */
  csrf: `${API_PREFIX}/auth`,
  /** The phone sign-in's nonce: the code callback only. */
  phoneLogin: `${API_PREFIX}/auth/callback`,
  /** The Google redirect flow's state: its start and its callback. */
  googleState: `${API_PREFIX}/auth/google`,
} as const;
