/*
 * The bounds of a project, in a module of their own without dependencies: the web client's first
 * load reads them without the contracts' schemas (zod stays out of its bundle).
 */

/** The bounds of a project, checked by the gateway and again by the chat service. */
export const PROJECT_LIMITS = {
  nameMaxChars: 100,
  instructionsMaxChars: 8_000,
  filesMax: 20,
  /** Projects one user may have. */
  perUserMax: 200,
} as const;
