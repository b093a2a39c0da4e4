// A Jest reporter that makes sure the run ends once the results are in.
//
// On a 2-core machine Jest runs every suite in its own process (maxWorkers 1 means in band), so
// one socket, child process or server a suite forgot to close keeps Jest alive after the summary,
// and CI waits until its time limit. This reporter gives the process a grace period to exit on its
// own; if it is still running after that, it names what is keeping it alive (so the leak can be
// fixed at its source) and exits with Jest's own exit code. Jest's `--forceExit` would exit too,
// but silently, and at once, so a leak would never be seen.
'use strict';

const GRACE_MS = Number(process.env.JEST_EXIT_GRACE_MS ?? 10_000);

function describe(handle) {
  const name = handle?.constructor?.name ?? typeof handle;
  if (name === 'ChildProcess') return `child process ${handle.pid} (${handle.spawnfile} ${(handle.spawnargs ?? []).slice(1, 4).join(' ')})`;
  if (name === 'Socket' || name === 'TLSSocket') {
    if (handle === process.stdout || handle === process.stderr || handle === process.stdin) return null;
    return `socket ${handle.localAddress ?? '?'}:${handle.localPort ?? '?'} -> ${handle.remoteAddress ?? '?'}:${handle.remotePort ?? '?'}`;
  }
  if (name === 'Server') {
    const address = typeof handle.address === 'function' ? handle.address() : null;
    return `server listening on ${address && typeof address === 'object' ? `${address.address}:${address.port}` : String(address)}`;
  }
  return name;
}

class ExitGuard {
  onRunComplete() {
    const timer = setTimeout(() => {
      const handles = (process._getActiveHandles?.() ?? []).map(describe).filter(Boolean);
      const resources = process.getActiveResourcesInfo?.() ?? [];
      console.error(`\nJest was still running ${GRACE_MS / 1000} s after the last suite. What keeps it alive (a suite did not close it):`);
      for (const line of handles) console.error(`  - ${line}`);
      console.error(`  resources: ${resources.join(', ') || 'none'}`);
      console.error('Exiting with the tests’ own result.');
      process.exit(process.exitCode ?? 0);
    }, GRACE_MS);
    timer.unref();
  }
}

module.exports = ExitGuard;
