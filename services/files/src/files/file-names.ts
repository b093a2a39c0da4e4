const MAX_NAME_CHARS = 200;
const MAX_EXTENSION_CHARS = 16;

/** Controls (C0, DEL, C1), bidirectional overrides and isolates, zero-width and byte-order marks. */
// eslint-disable-next-line no-control-regex -- removing control characters is the point
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff\ufff9-\ufffb]/g;
/** Characters no file system or Content-Disposition header should see in a name. */
const RESERVED = /[<>:"/\\|?*]/g;
const WINDOWS_DEVICE = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\.|$)/i;

/**
 * A file name safe to store, show and send back in a header: the last path segment only (no
 * `../../etc/passwd`), no controls or NULs, no right-to-left override disguising `exe` as `txt`,
 * no reserved characters, no leading dots, at most 200 characters with the extension kept.
 */
export function sanitiseFilename(raw: string | null | undefined, fallback = 'file'): string {
  let name = (raw ?? '').normalize('NFC');
  name = name.split(/[/\\]/).pop() ?? '';
  name = name.replace(/\t/g, ' ').replace(INVISIBLE, '').replace(RESERVED, '_').replace(/\s+/g, ' ');
  name = name.replace(/^[\s.]+/, '').replace(/[\s.]+$/, '');
  if (WINDOWS_DEVICE.test(name)) name = `_${name}`;
  const chars = [...name];
  if (chars.length > MAX_NAME_CHARS) {
    const dot = name.lastIndexOf('.');
    const extension = dot > 0 ? [...name.slice(dot)] : [];
    if (extension.length > 1 && extension.length <= MAX_EXTENSION_CHARS + 1) {
      const stem = [...name.slice(0, dot)].slice(0, MAX_NAME_CHARS - extension.length);
      name = (stem.join('').replace(/[\s.]+$/, '') || fallback) + extension.join('');
    } else {
      name = chars
        .slice(0, MAX_NAME_CHARS)
        .join('')
        .replace(/[\s.]+$/, '');
    }
  }
  return name || fallback;
}
