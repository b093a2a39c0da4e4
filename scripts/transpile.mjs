// The quick build behind `npm start`: every project's TypeScript turned into the JavaScript that
// `tsc -b` would write (same dist layout, CommonJS, decorator metadata for Nest), by SWC, file by
// file, and only the files newer than their output. Types are not checked here: `npm test` (and
// `npm run build`) run the full `tsc -b`; this is what the Jest suites already run the sources with.
import { transformFile } from '@swc/core';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { root } from './lib.mjs';

/** The settings jest.config.js gives @swc/jest, plus real `import()` kept for ESM-only packages (jose). */
const SWC_OPTIONS = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
    target: 'es2023',
    keepClassNames: true,
  },
  module: { type: 'commonjs', ignoreDynamic: true },
  sourceMaps: true,
  swcrc: false,
  configFile: false,
};

/** What tsconfig.json's `exclude` leaves out of every project. */
const NOT_BUILT = /\.(spec|int-spec|e2e-spec)\.ts$|\.fake\.ts$|\.d\.ts$/;

/** The projects `tsc -b tsconfig.build.json` builds, in its order. */
function projects() {
  const config = JSON.parse(readFileSync(join(root, 'tsconfig.build.json'), 'utf8'));
  return config.references.map((reference) => join(root, reference.path));
}

function sourcesOf(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourcesOf(path);
    return entry.name.endsWith('.ts') && !NOT_BUILT.test(entry.name) ? [path] : [];
  });
}

/** Transpiles what changed; answers how many files were written. */
export async function transpileProjects() {
  const work = [];
  for (const project of projects()) {
    const src = join(project, 'src');
    for (const file of sourcesOf(src)) {
      const out = join(project, 'dist', relative(src, file)).replace(/\.ts$/, '.js');
      if (existsSync(out) && statSync(out).mtimeMs >= statSync(file).mtimeMs) continue;
      work.push({ file, out });
    }
  }
  // SWC does the work on its own threads: a few files at a time keep them all busy.
  const queue = [...work];
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const { file, out } = next;
      const { code, map } = await transformFile(file, { ...SWC_OPTIONS, filename: file, outputPath: out });
      mkdirSync(dirname(out), { recursive: true });
      const mapName = `${out.split('/').pop()}.map`;
      writeFileSync(out, `${code}\n//# sourceMappingURL=${mapName}\n`);
      if (map) writeFileSync(`${out}.map`, map);
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return work.length;
}
