export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Asks `probe` every `everyMs` until it answers something truthy, and gives that answer back; fails
 * naming `what` once `ms` have passed without one.
 */
export async function until<T>(
  what: string,
  probe: () => Promise<T | undefined | null | false> | T | undefined | null | false,
  ms = 30_000,
  everyMs = 50,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Not within ${ms} ms: ${what}`);
    await sleep(everyMs);
  }
}
