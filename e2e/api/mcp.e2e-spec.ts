import { bootEmbedded, type EmbeddedStack } from '@app/embedded';
import {
  createTestEnvironment,
  FakeMcpServer,
  FakeOAuthMcpServer,
  FakeOpenAI,
  type ChatReplyInput,
  type TestEnvironment,
} from '@app/testing';
import { strFromU8, unzipSync } from 'fflate';
import { randomBytes } from 'node:crypto';
import { ApiClient, binary } from '../support/api-client';
import { postStream, type SseEvent } from '../support/sse';

const TOKEN = 'users-own-mcp-token';
const replyOf = (events: SseEvent[]) => events.find((e) => e.event === 'assistant_message')!.data;

/** A user's own MCP server end to end: added in settings, its tools listed and switched, called by the model. */
describe("the user's MCP servers", () => {
  let environment: TestEnvironment;
  let stack: EmbeddedStack;
  const model = new FakeOpenAI();
  const mcp = new FakeMcpServer(TOKEN);
  const protectedMcp = new FakeOAuthMcpServer();
  const plan: ChatReplyInput[] = [];
  model.setDefaultReply('chat.completions', (body) => (body.stream ? (plan.shift() ?? 'OK') : 'A title'));

  beforeAll(async () => {
    await Promise.all([model.start(), mcp.start(), protectedMcp.start()]);
    environment = await createTestEnvironment('mcp', 'in-process');
    stack = await bootEmbedded({
      ...environment.env,
      LLM_PROVIDER: 'openai-compatible',
      OPENAI_BASE_URL: model.baseURL,
      CHAT_MODEL: 'tool-model',
      TOOLS_PRIVATE_HOSTS: [new URL(mcp.url).host, new URL(protectedMcp.url).host].join(','),
      PUBLIC_URL: 'https://assistant.example',
      TOOLS_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      MCP_TIMEOUT_MS: '3000',
      // An operator's server, offered to everyone.
      MCP_SERVERS: JSON.stringify([{ name: 'Company', url: mcp.url, token: TOKEN }]),
      MCP_MAX_BYTES: '100000',
    });
  });
  afterAll(async () => {
    await stack?.close();
    await environment?.cleanup();
    await Promise.all([model.stop(), mcp.stop(), protectedMcp.stop()]);
  });

  it('adds a server with a token, lists its tools, lets the model call the ones switched on, exports the token sealed', async () => {
    const api = new ApiClient(stack.url);
    await api.guest();
    const added = await api.post('/api/v1/mcp/servers', { name: 'My tools', url: mcp.url, access_token: TOKEN }).expect(201);
    expect(added.body).toMatchObject({ name: 'My tools', auth: 'token', url: mcp.url });
    expect(JSON.stringify(added.body)).not.toContain(TOKEN);
    expect(added.body.tools.map((t: { model_name: string }) => t.model_name)).toContain('mcp_My_tools__echo');
    const id = added.body.server_id as string;
    // Switch "add" off: it is no longer offered.
    const patched = await api
      .auth(api.http.patch(`/api/v1/mcp/servers/${id}`))
      .send({ tools: { add: false } })
      .expect(200);
    expect(patched.body.tools.find((t: { name: string }) => t.name === 'add').enabled).toBe(false);

    plan.push([{ toolCall: { name: 'mcp_My_tools__echo', arguments: { text: 'hello' }, callId: 'm1' } }], 'It said hello.');
    const chatId = (await api.post('/api/v1/chats/', {}).expect(201)).body.chat_id;
    const { events } = await postStream(`${stack.url}/api/v1/chats/${chatId}/messages`, api.token!, { content: 'Use my echo tool' });
    expect(events.filter((e) => e.event === 'phase').map((e) => e.data)).toContainEqual({
      phase: 'tool',
      tool: 'mcp_My_tools__echo',
      label: 'Asking My tools',
    });
    expect(replyOf(events).metadata.tools).toEqual([
      expect.objectContaining({ name: 'mcp_My_tools__echo', status: 'ok', arguments: { text: 'hello' } }),
    ]);
    const requests = model.requests('chat.completions').filter((r) => r.stream);
    const offered = (requests.at(-2)!.body.tools as { function: { name: string } }[]).map((t) => t.function.name);
    expect(offered).toContain('mcp_My_tools__echo');
    expect(offered).not.toContain('mcp_My_tools__add');
    expect(offered).toContain('set_reminder'); // the built-in one, and the server's under its own name
    expect(offered).toContain('mcp_My_tools__set_reminder');
    expect(JSON.stringify(requests.at(-1)!.body.messages)).toContain('echo: hello');

    const zip = await binary(api.get('/api/v1/users/me/export')).expect(200);
    const exported = strFromU8(unzipSync(new Uint8Array(zip.body as Buffer))['chat.json']);
    expect(exported).toContain('"mcp_server"');
    expect(exported).toContain('sealed:A256GCM:');
    expect(exported).not.toContain(TOKEN);

    await api.delete(`/api/v1/mcp/servers/${id}`).expect(204);
    expect((await api.get('/api/v1/mcp/servers').expect(200)).body).toEqual([]);
  });

  it('authorises a server with OAuth 2.1 (metadata, dynamic registration, PKCE), then calls its tools with the token it got', async () => {
    const api = new ApiClient(stack.url);
    await api.guest();
    const started = await api.post('/api/v1/mcp/servers', { name: 'Protected', url: protectedMcp.url, oauth: true }).expect(201);
    expect(started.body).toMatchObject({ auth: 'oauth', status: 'needs_authorization', tools: [] });
    const authorize = new URL(started.body.authorization_url);
    expect(Object.fromEntries(authorize.searchParams)).toMatchObject({
      response_type: 'code',
      code_challenge_method: 'S256',
      redirect_uri: 'https://assistant.example/settings/mcp-callback',
    });
    // The user's browser authorises (the demo server consents at once) and comes back to the portal's callback page.
    const consent = await fetch(authorize, { redirect: 'manual' });
    const back = new URL(consent.headers.get('location')!);
    expect(back.origin + back.pathname).toBe('https://assistant.example/settings/mcp-callback');
    const code = back.searchParams.get('code')!;
    const state = back.searchParams.get('state')!;
    expect(state.startsWith(`${started.body.server_id}.`)).toBe(true);

    // A wrong state is refused; the right one finishes it.
    const id = started.body.server_id as string;
    expect((await api.post(`/api/v1/mcp/servers/${id}/oauth`, { code, state: `${id}.forged` }).expect(400)).body.detail).toMatch(
      /No authorisation/,
    );
    const finished = await api.post(`/api/v1/mcp/servers/${id}/oauth`, { code, state }).expect(200);
    expect(finished.body).toMatchObject({ status: 'ready', authorization_url: null });
    expect(finished.body.tools.map((t: { name: string }) => t.name)).toContain('echo');

    plan.push([{ toolCall: { name: 'mcp_Protected__echo', arguments: { text: 'authorised' }, callId: 'o1' } }], 'Done.');
    const chatId = (await api.post('/api/v1/chats/', {}).expect(201)).body.chat_id;
    const { events } = await postStream(`${stack.url}/api/v1/chats/${chatId}/messages`, api.token!, { content: 'Use the protected tool' });
    expect(replyOf(events).metadata.tools).toEqual([expect.objectContaining({ name: 'mcp_Protected__echo', status: 'ok' })]);
    expect(
      JSON.stringify(
        model
          .requests('chat.completions')
          .filter((r) => r.stream)
          .at(-1)!.body.messages,
      ),
    ).toContain('echo: authorised');

    // What the flow keeps stays sealed in the export.
    const zip = await binary(api.get('/api/v1/users/me/export')).expect(200);
    const exported = strFromU8(unzipSync(new Uint8Array(zip.body as Buffer))['chat.json']);
    expect(exported).not.toContain('access_token');
    expect(exported).not.toContain(code);
  });

  it("offers the operator's servers to every user, with the operator's token", async () => {
    const api = new ApiClient(stack.url);
    await api.guest();
    expect((await api.get('/api/v1/mcp/servers').expect(200)).body).toEqual([]);
    plan.push([{ toolCall: { name: 'mcp_Company__secret', arguments: {}, callId: 'c1' } }], 'Done.');
    const chatId = (await api.post('/api/v1/chats/', {}).expect(201)).body.chat_id;
    const { events } = await postStream(`${stack.url}/api/v1/chats/${chatId}/messages`, api.token!, { content: 'Use the company tool' });
    expect(replyOf(events).metadata.tools).toEqual([expect.objectContaining({ name: 'mcp_Company__secret', status: 'ok' })]);
    expect(
      JSON.stringify(
        model
          .requests('chat.completions')
          .filter((r) => r.stream)
          .at(-1)!.body.messages,
      ),
    ).toContain(`Bearer ${TOKEN}`);
  });

  it("gives the model a failing or vanished server's error, never failing the reply", async () => {
    const api = new ApiClient(stack.url);
    await api.guest();
    await api.post('/api/v1/mcp/servers', { name: 'Flaky', url: mcp.url, access_token: TOKEN }).expect(201);
    plan.push(
      [
        { toolCall: { name: 'mcp_Flaky__fail', arguments: {}, callId: 'f1' } },
        { toolCall: { name: 'mcp_Flaky__vanish', arguments: {}, callId: 'v1' } },
        { toolCall: { name: 'mcp_Flaky__huge', arguments: { bytes: 500000 }, callId: 'h1' } },
      ],
      'Those did not work.',
    );
    const chatId = (await api.post('/api/v1/chats/', {}).expect(201)).body.chat_id;
    const { events } = await postStream(`${stack.url}/api/v1/chats/${chatId}/messages`, api.token!, { content: 'Try them' });
    const reply = replyOf(events);
    expect(reply.content).toBe('Those did not work.');
    expect(reply.metadata.tools.map((t: { status: string }) => t.status)).toEqual(['error', 'error', 'error']);
    expect(reply.metadata.tools[0].summary).toBe('Flaky answered with an error: the database is on fire');
  });

  it('refuses a server it must not reach, one that cannot be listed, and bad input, with 4xx and a detail', async () => {
    const api = new ApiClient(stack.url);
    await api.guest();
    const refused = async (body: object, status: number) => {
      const res = await api.post('/api/v1/mcp/servers', body);
      expect({ status: res.status, detail: typeof res.body.detail }).toEqual({ status, detail: 'string' });
      return res.body.detail as string;
    };
    expect(await refused({ name: 'inside', url: 'http://169.254.169.254/mcp' }, 400)).toBe(
      'That server cannot be used: 169.254.169.254 is not a public address.',
    );
    expect(await refused({ name: 'file', url: 'file:///etc/passwd' }, 400)).toMatch(/Only http and https/);
    expect(await refused({ name: 'no token', url: mcp.url }, 400)).toMatch(/^The server's tools could not be listed/);
    expect(await refused({ name: 'broken', url: mcp.brokenUrl, access_token: TOKEN }, 400)).toMatch(
      /^The server's tools could not be listed/,
    );
    expect(await refused({ name: '', url: mcp.url }, 422)).toMatch(/name/);
    await api.post('/api/v1/mcp/servers', { name: 'Twice', url: mcp.url, access_token: TOKEN }).expect(201);
    expect(await refused({ name: 'twice', url: mcp.url, access_token: TOKEN }, 409)).toBe('You have an MCP server of that name already.');
  });
});
