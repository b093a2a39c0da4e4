/** A run of digits long enough to be a one-time code (sign-in codes are 6 digits). */
const CODE_LIKE = /\d{4,}/g;

/**
 * Hides one-time codes in a text, keeping the first two digits so a person can still tell two texts
 * apart: `123456 is your code` becomes `12•••• is your code`. Used wherever a text could be written
 * down in production (the log, the stored copy of a sign-in code text).
 */
export function maskCodes(text: string): string {
  return text.replace(CODE_LIKE, (digits) => `${digits.slice(0, 2)}${'•'.repeat(digits.length - 2)}`);
}
