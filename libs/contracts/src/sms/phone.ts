/**
 * Phone numbers as people type them, read the same way everywhere: the browser's forms (sign-in,
 * group invites, the development phone) and the auth service (which then checks the number against
 * libphonenumber's metadata and the blocked regions).
 */

/** The number as the server reads it: spaces, dots, dashes and brackets dropped. */
export function stripPhoneFormatting(input: string): string {
  return input.trim().replace(/[\s().-]/g, '');
}

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
export function normalizePhone(input: string, { northAmerican = true }: { northAmerican?: boolean } = {}): PhoneCheck {
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
