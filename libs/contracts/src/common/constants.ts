/** Business constants of the product specification (section 9), shared by server and client. */
export const PRODUCT_CONSTANTS = {
  previewResolutionDefault: 256,
  partialImageSlots: 3,
  fileViewCookieMaxAgeSeconds: 7_776_000,
  fileViewCookiePath: '/api/v1/files/view',
  modelPhaseStepMs: 2_500,
  versionPollMs: 60_000,
  minimumAge: 18,
  userLabelMaxLength: 100,
  sidebarWidthPx: 300,
  sidebarBreakpointPx: 768,
  breakpointsPx: [482, 768, 1024, 1280],
  tts: {
    minChunkChars: 100,
    boundaryRetries: 30,
    boundaryRetryMs: 100,
    minGapMs: 50,
    peakNormalisation: 0.8,
    requestIdsKeptPerMessage: 3,
    pcmSampleRate: 24_000,
  },
} as const;

/** Header names of the HTTP surface. */
export const HEADERS = {
  requestId: 'x-request-id',
  userSessionId: 'x-user-session-id',
  userId: 'x-user-id',
  userLabel: 'x-user-label',
  csrfToken: 'x-csrf-token',
  /** The speech provider's request id, on a text-to-speech answer (offline: a generated one). */
  ttsRequestId: 'x-tts-request-id',
} as const;

/**
 * What the files service stores: decided by the bytes (magic numbers, valid UTF-8), never by the
 * client's claim. Here, without schemas, so that the web client's first load can offer the same list.
 */
export const ALLOWED_FILE_TYPES = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'application/pdf',
  'text/plain',
  'text/markdown',
  'text/csv',
] as const;
export type AllowedFileType = (typeof ALLOWED_FILE_TYPES)[number];
