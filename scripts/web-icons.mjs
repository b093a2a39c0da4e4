#!/usr/bin/env node
// `node scripts/web-icons.mjs`: renders the installable app's icons (web/public/icons/*.png, committed)
// from their drawings (web/icons/*.svg) with sharp. Run it after changing a drawing.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { root } from './lib.mjs';

const drawings = join(root, 'web/icons');
const out = join(root, 'web/public/icons');
const ICONS = [
  { from: 'app-icon.svg', to: 'icon-192.png', size: 192 },
  { from: 'app-icon.svg', to: 'icon-512.png', size: 512 },
  { from: 'app-icon-maskable.svg', to: 'icon-maskable-512.png', size: 512 },
  // iOS rounds the corners itself and shows transparency as black: the full-bleed tile.
  { from: 'app-icon-maskable.svg', to: 'apple-touch-icon.png', size: 180 },
];

mkdirSync(out, { recursive: true });
for (const icon of ICONS) {
  await sharp(join(drawings, icon.from), { density: 72 * (icon.size / 512) * 4 })
    .resize(icon.size, icon.size)
    .png({ compressionLevel: 9, palette: true })
    .toFile(join(out, icon.to));
  console.log(`web/public/icons/${icon.to} (${icon.size} px)`);
}
