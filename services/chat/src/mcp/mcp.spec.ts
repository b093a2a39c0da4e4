import { FakeMcpServer } from '@app/testing';
import { GuardedFetch, OutboundRefused } from '../tools/outbound/guarded-fetch';
import { ToolFailure, type ChatTool, type ToolCallContext } from '../tools/chat-tool';
import { ToolSet } from '../tools/tool-registry';
import { callMcpTool, listMcpTools, McpServerError, withMcpServer } from './mcp-client';
import type { McpServerRecord } from './mcp-servers.repository';
import { compiledSchema, McpTool, modelToolName } from './mcp.tool';
import { TokenSeal } from './token-seal';

const TOKEN = 'mcp-secret-token';
const limits = (signal = AbortSignal.timeout(5_000)) => ({ signal, timeoutMs: 5_000 });

describe("a user's MCP server, through the official SDK and the outbound guard", () => {
  const mcp = new FakeMcpServer(TOKEN);
  let guard: GuardedFetch;
  let fetchLike: ReturnType<GuardedFetch['fetchLike']>;

  beforeAll(async () => {
    await mcp.start();
    guard = new GuardedFetch({ allowedPrivateHosts: [new URL(mcp.url).host] });
    fetchLike = guard.fetchLike(200_000);
  });
  afterAll(async () => {
    await guard.close();
    await mcp.stop();
  });

  const server = (overrides: Partial<McpServerRecord> = {}): McpServerRecord => ({
    id: 's1',
    userId: 'u1',
    name: 'Fake tools',
    url: mcp.url,
    tokenSealed: null,
    auth: 'token',
    oauthSealed: null,
    tools: [],
    disabledTools: [],
    listedAt: null,
    createdAt: new Date(),
    ...overrides,
  });
  const listed = () => withMcpServer({ url: mcp.url, token: TOKEN }, fetchLike, limits(), (client) => listMcpTools(client, limits()));
  /** One of the server's tools as the loop sees it, calling the server for real. */
  async function loopTool(name: string, callFetch = fetchLike): Promise<McpTool> {
    const tool = (await listed()).find((t) => t.name === name)!;
    return new McpTool(server(), tool, compiledSchema(tool.inputSchema)!, (_s, toolName, args, signal) =>
      withMcpServer({ url: mcp.url, token: TOKEN }, callFetch, { signal, timeoutMs: 5_000 }, (client) =>
        callMcpTool(client, toolName, args, { signal, timeoutMs: 5_000 }),
      ).catch((error: unknown) => {
        if (signal.aborted) throw error;
        throw new McpServerError(error instanceof Error ? error.message : String(error));
      }),
    );
  }
  const context = (signal = new AbortController().signal): ToolCallContext => ({
    caller: { user_id: 'u1', is_anon: false, session_id: 's', request_id: 'r' } as ToolCallContext['caller'],
    chatId: 'c',
    signal,
    cite: () => 0,
  });

  it('lists its tools with their JSON Schemas, sending the access token', async () => {
    const tools = await listed();
    expect(tools.map((t) => t.name)).toEqual(['echo', 'add', 'fail', 'slow', 'huge', 'set_reminder', 'vanish', 'secret']);
    expect(tools.find((t) => t.name === 'add')).toMatchObject({
      description: 'Adds two numbers',
      inputSchema: expect.objectContaining({ type: 'object', required: ['a', 'b'] }),
    });
    const secret = await loopTool('secret');
    expect((await secret.run({}, context())).output).toBe(`Bearer ${TOKEN}`);
  });

  it('is refused without its token', async () => {
    await expect(
      withMcpServer({ url: mcp.url, token: null }, fetchLike, limits(), (client) => listMcpTools(client, limits())),
    ).rejects.toThrow();
  });

  it('calls a tool with arguments checked against its schema by ajv', async () => {
    const add = await loopTool('add');
    expect(add.parameters.safeParse({ a: 1, b: 'two' }).success).toBe(false);
    expect(add.parameters.safeParse({ a: 1, b: 2 }).success).toBe(true);
    expect(await add.run({ a: 2, b: 3 }, context())).toEqual({ output: '5', summary: 'Fake tools: add' });
    expect(mcp.calls.at(-1)).toEqual({ tool: 'add', args: { a: 2, b: 3 } });
    expect(add.label()).toBe('Asking Fake tools');
    expect(add.name).toBe('mcp_Fake_tools__add');
  });

  it("gives a tool's own error back as a failure with its words", async () => {
    const fail = await loopTool('fail');
    await expect(fail.run({}, context())).rejects.toEqual(new ToolFailure('Fake tools answered with an error: the database is on fire'));
  });

  it('cancels a slow tool when the reply is stopped: the call ends at once and the server is told', async () => {
    const slow = await loopTool('slow');
    const stop = new AbortController();
    const running = slow.run({}, context(stop.signal));
    await new Promise((resolve) => setTimeout(resolve, 200));
    stop.abort(new Error('stopped'));
    await expect(running).rejects.toBeDefined();
    const deadline = Date.now() + 3_000;
    while (mcp.cancelled === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(mcp.cancelled).toBe(1);
  });

  it('fails clearly when the server disappears mid-call', async () => {
    const vanish = await loopTool('vanish');
    await expect(vanish.run({}, context())).rejects.toThrow(ToolFailure);
    await expect(vanish.run({}, context())).rejects.toThrow(/^Fake tools did not answer: /);
  });

  it('cuts off an answer larger than its limit', async () => {
    const huge = await loopTool('huge');
    await expect(huge.run({ bytes: 500_000 }, context())).rejects.toThrow(/did not answer: .*larger than 200000 bytes/);
    expect((await huge.run({ bytes: 1_000 }, context())).output).toHaveLength(1_000);
  });

  it('refuses a server that speaks malformed JSON-RPC', async () => {
    await expect(
      withMcpServer({ url: mcp.brokenUrl, token: TOKEN }, fetchLike, limits(), (client) => listMcpTools(client, limits())),
    ).rejects.toThrow();
  });

  it('never reaches a server at a private address it is not allowed', async () => {
    await expect(
      withMcpServer({ url: 'http://10.0.0.7/mcp', token: TOKEN }, fetchLike, limits(), (client) => listMcpTools(client, limits())),
    ).rejects.toThrow(OutboundRefused);
  });

  it('never lets a tool named like a built-in take its place', async () => {
    const hostile = await loopTool('set_reminder');
    expect(hostile.name).toBe('mcp_Fake_tools__set_reminder');
    const builtIn = { name: 'set_reminder' } as ChatTool;
    const set = new ToolSet([builtIn, hostile as ChatTool]);
    expect(set.get('set_reminder')).toBe(builtIn);
    expect(modelToolName('../../etc', 'a tool; rm -rf /')).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
  });

  it('offers no tool whose schema cannot be used', () => {
    expect(compiledSchema({ type: 'string' })).toBeNull();
    expect(compiledSchema({ type: 'object', properties: { a: { type: 'no-such-type' } } })).toBeNull();
    expect(compiledSchema('nonsense')).toBeNull();
    expect(compiledSchema({ type: 'object', properties: { a: { type: 'string' } } })).not.toBeNull();
  });

  it('keeps tokens sealed: another row cannot open them, and the sealed text holds no trace of them', () => {
    const seal = new TokenSeal(Buffer.alloc(32, 7));
    const sealed = seal.seal(TOKEN, 'row-1');
    expect(sealed).not.toContain(TOKEN);
    expect(seal.open(sealed, 'row-1')).toBe(TOKEN);
    expect(() => seal.open(sealed, 'row-2')).toThrow();
    expect(() => new TokenSeal(Buffer.alloc(32, 8)).open(sealed, 'row-1')).toThrow();
  });
});
