#!/usr/bin/env node
// The last step of `npm run bench`: one table of every row the benches wrote to
// test-results/bench/*.json (format: scripts/bench-record.mjs), each against its goal, with the
// machine's core count and when and at which commit each bench ran. A bench that writes no file
// there (yet) is not in it: its own output above has its figures.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { BENCH_RESULTS } from './bench-record.mjs';

const files = existsSync(BENCH_RESULTS) ? readdirSync(BENCH_RESULTS).filter((name) => name.endsWith('.json')) : [];
const results = files.flatMap((name) => {
  try {
    return [JSON.parse(readFileSync(join(BENCH_RESULTS, name), 'utf8'))];
  } catch {
    console.log(`(${name} is not readable JSON: left out)`);
    return [];
  }
});
console.log(`\nPerformance summary, ${availableParallelism()} cores (${BENCH_RESULTS}):\n`);
const rows = results.flatMap((result) =>
  (result.rows ?? []).map((row) => ({
    bench: `${result.bench} (${String(result.at ?? '').slice(0, 16)}, ${result.commit ?? '?'}, ${result.cores ?? '?'} cores)`,
    measure: row.measure,
    value: row.value,
    goal: row.goal,
    met: row.met === true ? 'yes' : row.met === false ? 'NO' : '–',
  })),
);
if (rows.length === 0) console.log('No bench wrote its figures yet.');
for (const row of rows) {
  console.log(`- [${row.met}] ${row.measure}\n    ${row.value}\n    goal: ${row.goal}; ${row.bench}`);
}
const missed = rows.filter((row) => row.met === 'NO').length;
console.log(`\n${rows.length} rows, ${missed} missing their goal.`);
