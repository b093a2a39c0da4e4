/** Injection tokens for what has no class of its own. */
export const KEY_VALUE_STORE = Symbol('KEY_VALUE_STORE');
export const SERVICE_CONFIG = Symbol('SERVICE_CONFIG');
export const RUNTIME_ENV = Symbol('RUNTIME_ENV');
