// CPU profiles for the browser benches (bench-web.mjs, bench-long-chat.mjs): Chromium's sampling
// profiler through CDP, and a summary of the functions with the most self time.

/** Starts sampling the page's main thread; answers a function that stops and answers the profile. */
export async function startProfile(context, page) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  return async () => (await cdp.send('Profiler.stop')).profile;
}

/** Prints the functions with the most self time in a CPU profile (idle apart). */
export function topSelf(profile, title, count = 15) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map();
  profile.samples.forEach((id, i) => {
    const { callFrame } = byId.get(id);
    const key = `${callFrame.functionName || '(anonymous)'} ${callFrame.url.split('/').pop()}:${callFrame.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  const busy = [...self].filter(([key]) => !key.startsWith('(idle)'));
  const total = busy.reduce((sum, [, ms]) => sum + ms, 0);
  console.log(`Self time ${title} (${total.toFixed(0)} ms busy):`);
  for (const [key, ms] of busy.sort((a, b) => b[1] - a[1]).slice(0, count)) console.log(`  ${ms.toFixed(1).padStart(8)} ms  ${key}`);
}
