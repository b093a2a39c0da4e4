/** A phone number checked and put in E.164 form, or why it cannot be. */
export type PhoneCheck = { ok: true; e164: string } | { ok: false; message: string };

export const PHONE_EXAMPLE = '+1 415 555 0100';

/**
 * Reads a number as people type it ("(415) 555-0100", "+44 7700 900123", "0044 7700 900123",
 * "1-415-555-0100") and answers it in E.164 (`+` then 8 to 15 digits, no leading 0). Without a
 * country code only North American numbers are understood (10 digits, or 11 starting with 1), and
 * only when `northAmerican` is on (the assistant's own number is a +1 number); otherwise the message
 * asks for the country code.
 */
export function normalisePhone(input: string, { northAmerican = true }: { northAmerican?: boolean } = {}): PhoneCheck {
  const text = input.trim();
  if (!text) return { ok: false, message: 'Enter your mobile number.' };
  if (/[^\d\s+().\-/]/.test(text)) return { ok: false, message: `Use digits only, like ${PHONE_EXAMPLE}.` };
  if (text.lastIndexOf('+') > 0) return { ok: false, message: `Put the + only at the start, like ${PHONE_EXAMPLE}.` };
  let digits = text.replace(/\D/g, '');
  let international = text.startsWith('+');
  if (!international && digits.startsWith('00')) {
    digits = digits.slice(2);
    international = true;
  }
  if (!international) {
    if (northAmerican && digits.length === 10 && /^[2-9]/.test(digits)) digits = `1${digits}`;
    else if (!(northAmerican && digits.length === 11 && digits.startsWith('1'))) {
      return { ok: false, message: `Include your country code, like ${PHONE_EXAMPLE}.` };
    }
  }
  if (digits.startsWith('0')) return { ok: false, message: `A country code never starts with 0. Try it like ${PHONE_EXAMPLE}.` };
  if (digits.length < 8) return { ok: false, message: `That number is too short. Include the country code, like ${PHONE_EXAMPLE}.` };
  if (digits.length > 15) return { ok: false, message: 'That number is too long: a phone number has at most 15 digits.' };
  return { ok: true, e164: `+${digits}` };
}

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
