/** A number in E.164 shown for reading: "+1 415 555 0100" for North America, else digits in threes after the country code guess. */
export function formatPhone(e164: string): string {
  const nanp = /^\+1(\d{3})(\d{3})(\d{4})$/.exec(e164);
  if (nanp) return `+1 ${nanp[1]} ${nanp[2]} ${nanp[3]}`;
  return e164;
}

/** Area codes in use, so that a development number passes the server's number check (+1 555 is no area code). */
const DEV_AREA_CODES = ['201', '212', '305', '312', '415', '503', '617', '702', '720', '808'] as const;

/**
 * A random development number in the range kept for fiction, +1 {area} 555 01XX: valid for the
 * server's number check (libphonenumber), never a real person's.
 */
export function randomDevNumber(random: () => number = Math.random): string {
  const area = DEV_AREA_CODES[Math.floor(random() * DEV_AREA_CODES.length)];
  const line = String(Math.floor(random() * 100)).padStart(2, '0');
  return `+1${area}55501${line}`;
}
