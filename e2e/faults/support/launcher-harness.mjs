// Runs the launcher's supervisor (scripts/supervisor.mjs, as `npm run start:services` does) over
// small programs given as JSON [{name, script}], with short back-offs, until SIGTERM or SIGINT.
import { Supervisor, superviseUntilSignalled } from '../../../scripts/supervisor.mjs';

const programs = JSON.parse(process.argv[2]);
const log = (line) => process.stdout.write(`${line}\n`);
const supervisor = new Supervisor({ minBackoffMs: 100, maxBackoffMs: 400, resetAfterMs: 60_000, killAfterMs: 2_000, log });
for (const { name, script } of programs) supervisor.add(name, process.execPath, ['-e', script]);
superviseUntilSignalled(supervisor, log);
