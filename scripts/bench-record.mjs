// What each bench writes for the summary (scripts/bench-summary.mjs): one JSON file per bench in
// test-results/bench/<bench>.json, written when the bench ends, in this format (proposed for all):
//
//   { "bench": "web", "at": "2026-11-23T06:00:00.000Z", "cores": 2, "commit": "abc1234",
//     "rows": [ { "measure": "longest main-thread task while a 2,000-token reply streams",
//                 "value": "48 ms (runs 41, 48, 52)", "goal": "at most 50 ms", "met": true } ] }
//
// `measure` is the row of the performance issue's table, `value` what was measured (with its unit
// and, where useful, the spread or the figure it is a ratio of), `goal` the target as a sentence,
// `met` true, false, or null when the bench has no goal for the row.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { root } from './lib.mjs';

export const BENCH_RESULTS = join(root, 'test-results/bench');

function shortCommit() {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  } catch {
    return 'unknown';
  }
}

/** Prints one row as it is measured, against its goal, and keeps it for the file. */
export function benchRecorder(bench) {
  const rows = [];
  return {
    row(measure, value, goal, met) {
      rows.push({ measure, value, goal, met });
      const mark = met === true ? 'meets' : met === false ? 'MISSES' : 'no goal';
      console.log(`[${bench}, ${availableParallelism()} cores] ${measure}: ${value} (goal: ${goal}; ${mark})`);
    },
    save() {
      mkdirSync(BENCH_RESULTS, { recursive: true });
      const file = join(BENCH_RESULTS, `${bench}.json`);
      const body = { bench, at: new Date().toISOString(), cores: availableParallelism(), commit: shortCommit(), rows };
      writeFileSync(file, `${JSON.stringify(body, null, 2)}\n`);
      return file;
    },
  };
}
