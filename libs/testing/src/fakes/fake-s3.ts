import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

/** The part of s3rver's API used here (the package ships no types). */
interface S3rverServer {
  run(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
}
type S3rverConstructor = new (options: Record<string, unknown>) => S3rverServer;

/**
 * A local S3-compatible server (s3rver, in this process, offline) for tests of the S3 object
 * store through the real AWS SDK: PutObject, GetObject, HeadObject, DeleteObject(s), buckets.
 * s3rver checks SigV4 signatures against its own credentials, given here.
 */
export class FakeS3 {
  readonly accessKeyId = 'S3RVER';
  readonly secretAccessKey = 'S3RVER';
  private server: S3rverServer | undefined;
  private directory: string | undefined;
  private endpoint: string | undefined;

  constructor(readonly bucket = 'assistant-files') {}

  /** `http://127.0.0.1:<port>`; only once started. */
  get url(): string {
    if (!this.endpoint) throw new Error('FakeS3 is not started');
    return this.endpoint;
  }

  /** The files service's variables that point it at this server. */
  get env(): Record<string, string> {
    return {
      S3_ENDPOINT: this.url,
      S3_BUCKET: this.bucket,
      S3_ACCESS_KEY_ID: this.accessKeyId,
      S3_SECRET_ACCESS_KEY: this.secretAccessKey,
    };
  }

  async start(options: { createBucket?: boolean } = {}): Promise<{ url: string }> {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- s3rver is CommonJS without types
    const S3rver = require('s3rver') as S3rverConstructor;
    this.directory = await mkdtemp(join(tmpdir(), 'fake-s3-'));
    this.server = new S3rver({
      address: '127.0.0.1',
      port: 0,
      silent: true,
      directory: this.directory,
      configureBuckets: options.createBucket === false ? [] : [{ name: this.bucket }],
    });
    const { port } = await this.server.run();
    this.endpoint = `http://127.0.0.1:${port}`;
    return { url: this.endpoint };
  }

  async stop(): Promise<void> {
    await this.server?.close();
    this.server = undefined;
    this.endpoint = undefined;
    if (this.directory) await rm(this.directory, { recursive: true, force: true });
    this.directory = undefined;
  }

  /** Keys stored in the bucket (read from s3rver's folder, so the check does not go through S3 itself). */
  async keys(prefix = ''): Promise<string[]> {
    if (!this.directory) return [];
    const root = join(this.directory, this.bucket);
    const found: string[] = [];
    const walk = async (dir: string): Promise<void> => {
      for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) await walk(path);
        else if (entry.name.endsWith('._S3rver_object')) found.push(relative(root, path).slice(0, -'._S3rver_object'.length));
      }
    };
    if (await stat(root).catch(() => null)) await walk(root);
    return found.filter((key) => key.startsWith(prefix)).sort();
  }
}
