import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** What the build recorded about itself (`dist/build-info.json`), overridden by GIT_COMMIT. */
export class BuildInfo {
  readonly commit: string;

  constructor(gitCommit: string | undefined, infoFile = join(__dirname, '..', 'build-info.json')) {
    this.commit = gitCommit ?? BuildInfo.readCommit(infoFile) ?? 'unknown';
  }

  private static readCommit(file: string): string | undefined {
    if (!existsSync(file)) return undefined;
    try {
      const info = JSON.parse(readFileSync(file, 'utf8')) as { commit?: unknown };
      return typeof info.commit === 'string' && info.commit ? info.commit : undefined;
    } catch {
      return undefined;
    }
  }
}
