import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(__dirname, '../..');

/** Lints a snippet as if it were the given file, without writing it. */
function lint(fileName: string, source: string): string {
  const result = spawnSync(process.execPath, [join(root, 'node_modules/eslint/bin/eslint.js'), '--stdin', '--stdin-filename', fileName], {
    cwd: root,
    input: source,
    encoding: 'utf8',
  });
  return result.stdout + result.stderr;
}

/** The module boundaries of STYLE.md are errors, not advice: each forbidden import below fails the lint. */
describe('module boundaries', () => {
  beforeAll(() => {
    // The boundary rule reads the Nx project graph; without one it would silently skip.
    execFileSync(process.execPath, [join(root, 'node_modules/nx/dist/bin/nx.js'), 'show', 'projects'], {
      cwd: root,
      env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true' },
      stdio: 'ignore',
    });
  }, 60_000);

  it.each([
    [
      'a service importing another service',
      'services/chat/src/probe.ts',
      "import { authService } from '@app/service-auth';\nexport const x = authService;\n",
    ],
    [
      'a service importing the test helpers',
      'services/chat/src/probe.ts',
      "import { machine } from '@app/testing';\nexport const x = machine;\n",
    ],
    [
      'contracts importing a framework',
      'libs/contracts/src/probe.ts',
      "import { Injectable } from '@nestjs/common';\nexport const x = Injectable;\n",
    ],
    [
      'contracts importing the platform',
      'libs/contracts/src/probe.ts',
      "import { DomainError } from '@app/platform';\nexport const x = DomainError;\n",
    ],
    [
      'the web client importing the platform',
      'web/src/probe.ts',
      "import { DomainError } from '@app/platform';\nexport const x = DomainError;\n",
    ],
  ])('forbids %s', (_label, file, source) => {
    expect(lint(file, source)).toMatch(/enforce-module-boundaries/);
  });

  it('allows a service to use the contracts and the platform', () => {
    const output = lint(
      'services/chat/src/probe.ts',
      "import { SERVICE_NAMES } from '@app/contracts';\nimport { DomainError } from '@app/platform';\nexport const x = [SERVICE_NAMES, DomainError];\n",
    );
    expect(output).not.toMatch(/enforce-module-boundaries/);
  });

  it("allows a service's unit tests (not its code) to use the test helpers", () => {
    const source = "import { FakeOpenAI } from '@app/testing';\nexport const x = FakeOpenAI;\n";
    expect(lint('services/chat/src/llm/probe.spec.ts', source)).not.toMatch(/enforce-module-boundaries/);
    expect(lint('services/chat/src/llm/probe.ts', source)).toMatch(/enforce-module-boundaries/);
  });

  it("keeps the platform's fakes out of a service's code, not out of its tests", () => {
    const source = "import { FakeBroadcastBus } from '@app/platform/testing';\nexport const x = FakeBroadcastBus;\n";
    expect(lint('services/chat/src/replies/probe.spec.ts', source)).not.toMatch(/no-restricted-imports/);
    expect(lint('services/chat/src/replies/probe.ts', source)).toMatch(/no-restricted-imports/);
  });
});
