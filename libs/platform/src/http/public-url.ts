/**
 * An absolute URL on the product's public origin: PUBLIC_URL (a trailing slash dropped) followed by
 * `path` (which starts with `/`). Without PUBLIC_URL, `fallbackOrigin` when given, else undefined.
 */
export function publicUrlFor(publicUrl: string, path: string): string;
export function publicUrlFor(publicUrl: string | undefined | null, path: string, fallbackOrigin: string): string;
export function publicUrlFor(publicUrl: string | undefined | null, path: string): string | undefined;
export function publicUrlFor(publicUrl: string | undefined | null, path: string, fallbackOrigin?: string): string | undefined {
  const origin = publicUrl ? publicUrl.replace(/\/$/, '') : fallbackOrigin;
  return origin === undefined ? undefined : `${origin}${path}`;
}
