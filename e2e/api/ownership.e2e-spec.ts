import { randomUUID } from 'node:crypto';
import { HTTP_ROUTES } from '@app/contracts/gateway';
import { claudeConversations, claudeExportZip, FakeMcpServer, FakeOAuthMcpServer, TRANSPORTS } from '@app/testing';
import { startTestStack, type TestStack } from '../support/test-stack';
import { ApiClient, eventually, phoneNumbers } from '../support/api-client';
import { parseSse } from '../support/sse';

/**
 * The ownership matrix (issue 11): every route with a resource id in its path, generated from the
 * gateway's route table, called by the resource's owner, by another registered user, by a guest and
 * with no token. The owner succeeds; everyone else gets 404 (401 without a token) and never the
 * owner's data, and their call changes nothing. A route with a path parameter this file has no case
 * for fails the suite: a new endpoint cannot be added without saying who may call it.
 *
 * Ids in queries and bodies (a conversation's memories, another user's message as a branch point,
 * another user's file attached to a message...) are checked the same way below the matrix.
 */

/** A well-formed body for the routes that take one (so that a made-up id meets the ownership check, not validation). */
const VALID_BODIES: Record<string, unknown> = {
  'PATCH /api/v1/chats/:chat_id': { conversation_title: 'x' },
  'POST /api/v1/chats/:chat_id/messages': { content: 'x' },
  'PUT /api/v1/messages/:message_id/feedback': { feedback: 'like' },
  'PUT /api/v1/user_memory/:user_memory_id': { text: 'x' },
  'PATCH /api/v1/reminders/:reminder_id': { text: 'x' },
  'PATCH /api/v1/mcp/servers/:server_id': { name: 'x' },
  'POST /api/v1/mcp/servers/:server_id/oauth': { code: 'x', state: 'x' },
  'PATCH /api/v1/projects/:project_id': { name: 'x' },
};
/** A well-formed query for the routes that need one (deleting a project asks what becomes of its conversations). */
const VALID_QUERIES: Record<string, string> = { 'DELETE /api/v1/projects/:project_id': '?conversations=delete' };

/** The users' MCP servers are reached at this local server (allowed by TOOLS_PRIVATE_HOSTS). */
const mcpServer = new FakeMcpServer();
const oauthServer = new FakeOAuthMcpServer();

type Actor = 'owner' | 'other' | 'guest' | 'anonymous';
const HOSTILE: readonly Exclude<Actor, 'owner'>[] = ['anonymous', 'guest', 'other'];

interface Answer {
  status: number;
  text: string;
  json: unknown;
}

interface Prepared {
  path: string;
  body?: unknown;
  /** Strings that belong to the owner and must never reach anyone else. */
  secrets: string[];
  /** After the hostile calls: the resource is as it was. */
  untouched(): Promise<void>;
  /** The owner's own call succeeded as it should (beyond the 2xx). */
  ownerSucceeded?(answer: Answer): Promise<void> | void;
}

/** How a route's resource is made for its owner, and what each caller must get. */
type Case =
  | { kind: 'owned'; prepare(): Promise<Prepared> }
  /** Anyone holding the link may read (a share): same answer for all, no private details, 404 once revoked. */
  | { kind: 'capability'; check(): Promise<void> }
  /** Not a user's resource (the parameter names public content). */
  | { kind: 'public'; reason: string };

/** Every `METHOD /path` with a `:param` the gateway serves, from its live route table and the contracts'. */
function parameterisedRoutes(gatewayRoutes: readonly string[]): string[] {
  const all = new Set([...gatewayRoutes, ...HTTP_ROUTES.map((r) => `${r.method} ${r.path}`)]);
  return [...all].filter((route) => route.includes('/:')).sort();
}

describe.each(TRANSPORTS)('ownership matrix over the %s transport', (transport) => {
  let booted: TestStack;
  let url: string;
  const clients = {} as Record<Exclude<Actor, 'anonymous'>, ApiClient> & { anonymous: ApiClient };
  const ids = {} as { owner: string; other: string; guest: string };
  const nextPhone = phoneNumbers(transport === 'nats' ? 7500 : 7600);
  let ownerPhone: string;
  let seq = 0;
  const marker = (what: string) => `OWNED-${what}-${++seq}-${randomUUID().slice(0, 8)}`;

  /** One call as an actor, with its bearer token (none for `anonymous`); the body as JSON. */
  async function call(actor: Actor, method: string, path: string, body?: unknown): Promise<Answer> {
    const token = clients[actor].token;
    const res = await fetch(`${url}${path}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let json: unknown = null;
    if ((res.headers.get('content-type') ?? '').includes('json')) json = JSON.parse(text);
    return { status: res.status, text, json };
  }

  const owner = (method: string, path: string, body?: unknown) => call('owner', method, path, body);
  const ok = async (method: string, path: string, body?: unknown) => {
    const answer = await owner(method, path, body);
    if (answer.status >= 300) throw new Error(`${method} ${path} as the owner answered ${answer.status}: ${answer.text}`);
    return answer;
  };

  // ---- The owner's resources ------------------------------------------------------------------

  async function chat() {
    const title = marker('title');
    const created = (await ok('POST', '/api/v1/chats/', { conversation_title: title })).json as { chat_id: string };
    return { chatId: created.chat_id, title };
  }

  /** A conversation with one exchange (whose user message states a fact of its own when asked: a memory comes of it). */
  async function exchange(statesAFact = false) {
    const { chatId, title } = await chat();
    const words = statesAFact
      ? `quokkafruit${++seq}${randomUUID()
          .slice(0, 6)
          .replace(/[^a-z]/g, 'q')}`
      : marker('words');
    const content = statesAFact ? `I am allergic to ${words}.` : `Tell me something about ${words}`;
    const answer = await ok('POST', `/api/v1/chats/${chatId}/messages`, { content });
    const events = parseSse(answer.text);
    const userMessageId = events.find((e) => e.event === 'user_message')!.data.message_id as string;
    const reply = events.find((e) => e.event === 'assistant_message')!.data as { message_id: string; content: string };
    return { chatId, title, words, content, userMessageId, replyId: reply.message_id, replyText: reply.content };
  }

  async function conversation(chatId: string) {
    return (await ok('GET', `/api/v1/chats/${chatId}`)).json as {
      conversation_title: string;
      last_active_message_id: string | null;
      messages: { message_id: string; feedback: string | null; content: string }[];
    };
  }

  async function memory() {
    const made = await exchange(true);
    const found = await eventually(async () => {
      const list = (await ok('GET', `/api/v1/user_memory/?source_chat_id=${made.chatId}`)).json as {
        user_memory_id: string;
        text: string;
      }[];
      return list[0];
    });
    return { ...made, memoryId: found.user_memory_id, memoryText: found.text };
  }

  async function memoryTexts() {
    return ((await ok('GET', '/api/v1/user_memory/')).json as { user_memory_id: string; text: string }[]).map(
      (m) => `${m.user_memory_id}:${m.text}`,
    );
  }

  async function file() {
    const name = `${marker('file')}.txt`;
    const res = await clients.owner
      .auth(clients.owner.http.post('/api/v1/files/'))
      .attach('file', Buffer.from(`notes ${name}`), { filename: name, contentType: 'text/plain' });
    if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${res.text}`);
    return { fileId: res.body.object_store_object_id as string, name };
  }

  async function share() {
    const made = await exchange();
    const created = (await ok('POST', `/api/v1/chats/${made.chatId}/share`)).json as { share_id: string };
    return { ...made, shareId: created.share_id };
  }

  /** A text group of the owner's (they are its only member), with an invite link. */
  async function group() {
    const name = marker('group');
    const created = (await ok('POST', '/api/v1/sms/groups', { name })).json as { channel_url: string };
    const invite = (await ok('POST', `/api/v1/sms/groups/${created.channel_url}/invites`)).json as { invite_id: string };
    return { channelUrl: created.channel_url, name, inviteId: invite.invite_id };
  }

  /** An export zip of the owner's uploaded to be imported (not yet imported), its conversation's title a secret. */
  async function importUpload() {
    const title = marker('imported');
    const [conversation] = claudeConversations(`-${randomUUID()}`);
    const filename = `${marker('export')}.zip`;
    const res = await clients.owner
      .auth(clients.owner.http.post('/api/v1/imports/uploads'))
      .attach('file', claudeExportZip([{ ...conversation, name: title }]), { filename, contentType: 'application/zip' });
    if (res.status !== 201) throw new Error(`import upload answered ${res.status}: ${res.text}`);
    return { objectId: res.body.object_store_object_id as string, title, filename };
  }

  /** A finished import of the owner's. */
  async function imported() {
    const made = await importUpload();
    const started = (await ok('POST', '/api/v1/imports/', { object_store_object_id: made.objectId })).json as { import_id: string };
    await eventually(async () => {
      const now = (await ok('GET', `/api/v1/imports/${started.import_id}`)).json as { status: string };
      return now.status === 'done' ? now : undefined;
    }, 30_000);
    return { ...made, importId: started.import_id };
  }

  /** A pending reminder of the owner's (in two hours: it stays pending through the case). */
  async function reminder() {
    const text = marker('reminder');
    const created = (await ok('POST', '/api/v1/reminders/', { text, when: 'in 2 hours' })).json as { reminder_id: string };
    return { reminderId: created.reminder_id, text };
  }

  /** An MCP server of the owner's (with a token, which must never reach anyone). */
  async function mcp() {
    const name = marker('mcp').slice(0, 40);
    const token = `token-${randomUUID()}`;
    const created = (await ok('POST', '/api/v1/mcp/servers', { name, url: mcpServer.url, access_token: token })).json as {
      server_id: string;
    };
    return { serverId: created.server_id, name, token };
  }
  /** A project of the owner's, with instructions, a file of theirs and a conversation in it. */
  async function project() {
    const name = marker('project').slice(0, 60);
    const instructions = marker('instructions');
    const upload = await file();
    const created = (await ok('POST', '/api/v1/projects/', { name, instructions, files: [{ object_store_object_id: upload.fileId }] }))
      .json as { project_id: string };
    const { chatId, title } = await chat();
    await ok('PATCH', `/api/v1/chats/${chatId}`, { project_id: created.project_id });
    return { projectId: created.project_id, name, instructions, fileName: upload.name, chatId, title };
  }
  const projectOf = async (id: string) =>
    ((await ok('GET', '/api/v1/projects/')).json as { project_id: string; name: string; conversation_count: number }[]).find(
      (p) => p.project_id === id,
    );
  const projectUntouched = (made: { projectId: string; name: string; chatId: string }) => async () => {
    expect(await projectOf(made.projectId)).toMatchObject({ name: made.name, conversation_count: 1 });
    expect(((await ok('GET', `/api/v1/chats/${made.chatId}`)).json as { project_id: string }).project_id).toBe(made.projectId);
  };

  const mcpNames = async () =>
    ((await ok('GET', '/api/v1/mcp/servers')).json as { server_id: string; name: string }[]).map((m) => `${m.server_id}:${m.name}`);

  const reminderOf = async (id: string) =>
    ((await ok('GET', '/api/v1/reminders/')).json as { reminder_id: string; text: string; status: string; seen: boolean }[]).find(
      (r) => r.reminder_id === id,
    );
  const reminderUntouched = (id: string, text: string) => async () =>
    expect(await reminderOf(id)).toMatchObject({ text, status: 'pending', seen: false });

  const groupUntouched = (channelUrl: string, name: string) => async () =>
    expect(((await ok('GET', `/api/v1/sms/groups/${channelUrl}`)).json as { name: string }).name).toBe(name);

  const chatUntouched = (chatId: string, title: string, messages: number) => async () => {
    const now = await conversation(chatId);
    expect(now.conversation_title).toBe(title);
    expect(now.messages).toHaveLength(messages);
  };

  // ---- The matrix's cases, one per parameterised route ----------------------------------------

  const CASES: Record<string, Case> = {
    'GET /api/v1/campaigns/:campaign_name': {
      kind: 'public',
      reason: 'a campaign page is public content configured by operators, not a user resource',
    },
    'GET /api/docs/assets/:file': { kind: 'public', reason: "the API documentation's static assets (Swagger UI), the same for everyone" },

    'GET /api/v1/chats/:chat_id': {
      kind: 'owned',
      prepare: async () => {
        const made = await exchange();
        return {
          path: `/api/v1/chats/${made.chatId}`,
          secrets: [made.title, made.words, made.replyText],
          untouched: chatUntouched(made.chatId, made.title, 2),
          ownerSucceeded: (answer) => expect((answer.json as { conversation_title: string }).conversation_title).toBe(made.title),
        };
      },
    },
    'PATCH /api/v1/chats/:chat_id': {
      kind: 'owned',
      prepare: async () => {
        const made = await exchange();
        return {
          path: `/api/v1/chats/${made.chatId}`,
          body: { conversation_title: 'Renamed by whoever calls' },
          secrets: [made.title, made.words],
          untouched: chatUntouched(made.chatId, made.title, 2),
          ownerSucceeded: async () => expect((await conversation(made.chatId)).conversation_title).toBe('Renamed by whoever calls'),
        };
      },
    },
    'DELETE /api/v1/chats/:chat_id': {
      kind: 'owned',
      prepare: async () => {
        const made = await exchange();
        return {
          path: `/api/v1/chats/${made.chatId}`,
          secrets: [made.title, made.words],
          untouched: chatUntouched(made.chatId, made.title, 2),
          ownerSucceeded: async () => expect((await owner('GET', `/api/v1/chats/${made.chatId}`)).status).toBe(404),
        };
      },
    },
    'GET /api/v1/chats/:chat_id/messages': {
      kind: 'owned',
      prepare: async () => {
        const made = await exchange();
        return {
          // A page before the owner's reply: the conversation and the cursor are both the owner's.
          path: `/api/v1/chats/${made.chatId}/messages?before=${made.replyId}&limit=5`,
          secrets: [made.title, made.words, made.replyText, made.userMessageId],
          untouched: chatUntouched(made.chatId, made.title, 2),
          ownerSucceeded: (answer) =>
            expect((answer.json as { messages: { content: string }[] }).messages.map((m) => m.content)).toEqual([made.content]),
        };
      },
    },
    'POST /api/v1/chats/:chat_id/messages': {
      kind: 'owned',
      prepare: async () => {
        const made = await exchange();
        return {
          path: `/api/v1/chats/${made.chatId}/messages`,
          body: { content: 'Written into the conversation by whoever calls' },
          secrets: [made.title, made.words, made.replyText],
          untouched: chatUntouched(made.chatId, made.title, 2),
          ownerSucceeded: async (answer) => {
            expect(parseSse(answer.text).map((e) => e.event)).toContain('assistant_message');
            expect((await conversation(made.chatId)).messages).toHaveLength(4);
          },
        };
      },
    },
    'POST /api/v1/messages/:message_id/regenerate': {
      kind: 'owned',
      prepare: async () => {
        const made = await exchange();
        return {
          path: `/api/v1/messages/${made.userMessageId}/regenerate`,
          secrets: [made.title, made.words, made.replyText],
          untouched: async () => {
            await chatUntouched(made.chatId, made.title, 2)();
            expect((await conversation(made.chatId)).last_active_message_id).toBe(made.replyId);
          },
          ownerSucceeded: async (answer) => {
            expect(parseSse(answer.text).map((e) => e.event)).toContain('assistant_message');
            expect((await conversation(made.chatId)).last_active_message_id).not.toBe(made.replyId);
          },
        };
      },
    },
    'POST /api/v1/messages/:message_id/stop': {
      kind: 'owned',
      prepare: async () => {
        const made = await exchange();
        return {
          path: `/api/v1/messages/${made.userMessageId}/stop`,
          secrets: [made.title, made.words],
          untouched: chatUntouched(made.chatId, made.title, 2),
        };
      },
    },
    'PUT /api/v1/messages/:message_id/feedback': {
      kind: 'owned',
      prepare: async () => {
        const made = await exchange();
        const feedbackOf = async () => (await conversation(made.chatId)).messages.find((m) => m.message_id === made.replyId)!.feedback;
        return {
          path: `/api/v1/messages/${made.replyId}/feedback`,
          body: { feedback: 'dislike', verbose_feedback: 'from whoever calls' },
          secrets: [made.title, made.words, made.replyText],
          untouched: async () => expect(await feedbackOf()).toBeNull(),
          ownerSucceeded: async () => expect(await feedbackOf()).toBe('dislike'),
        };
      },
    },
    'POST /api/v1/chats/:chat_id/share': {
      kind: 'owned',
      prepare: async () => {
        const made = await exchange();
        return {
          path: `/api/v1/chats/${made.chatId}/share`,
          secrets: [made.title, made.words],
          // Nobody else made a share of it: the owner's first share is a new one (201), made now.
          untouched: chatUntouched(made.chatId, made.title, 2),
          ownerSucceeded: async (answer) => {
            const created = answer.json as { share_id: string };
            expect((await call('anonymous', 'GET', `/api/v1/shared/${created.share_id}`)).status).toBe(200);
          },
        };
      },
    },
    'DELETE /api/v1/chats/:chat_id/share': {
      kind: 'owned',
      prepare: async () => {
        const made = await share();
        return {
          path: `/api/v1/chats/${made.chatId}/share`,
          secrets: [made.title, made.words, made.shareId],
          untouched: async () => expect((await call('anonymous', 'GET', `/api/v1/shared/${made.shareId}`)).status).toBe(200),
          ownerSucceeded: async () => expect((await call('anonymous', 'GET', `/api/v1/shared/${made.shareId}`)).status).toBe(404),
        };
      },
    },
    'GET /api/v1/sms/groups/:channel_url': {
      kind: 'owned',
      prepare: async () => {
        const made = await group();
        return {
          path: `/api/v1/sms/groups/${made.channelUrl}`,
          secrets: [made.name, ownerPhone.slice(-4)],
          untouched: groupUntouched(made.channelUrl, made.name),
        };
      },
    },
    'GET /api/v1/sms/groups/:channel_url/messages': {
      kind: 'owned',
      prepare: async () => {
        const made = await group();
        return {
          path: `/api/v1/sms/groups/${made.channelUrl}/messages?q=hello`,
          secrets: [made.name],
          untouched: groupUntouched(made.channelUrl, made.name),
        };
      },
    },
    'POST /api/v1/sms/groups/:channel_url/invites': {
      kind: 'owned',
      prepare: async () => {
        const made = await group();
        return {
          path: `/api/v1/sms/groups/${made.channelUrl}/invites`,
          secrets: [made.name, made.inviteId],
          untouched: groupUntouched(made.channelUrl, made.name),
        };
      },
    },
    'DELETE /api/v1/sms/groups/:channel_url/membership': {
      kind: 'owned',
      prepare: async () => {
        const made = await group();
        return {
          path: `/api/v1/sms/groups/${made.channelUrl}/membership`,
          secrets: [made.name],
          // Still the owner's group after the others' calls; gone once they leave it (the last member).
          untouched: groupUntouched(made.channelUrl, made.name),
          ownerSucceeded: async () => expect((await call('owner', 'GET', `/api/v1/sms/groups/${made.channelUrl}`)).status).toBe(404),
        };
      },
    },
    'DELETE /api/v1/sms/groups/:channel_url/invites/:invite_id': {
      kind: 'owned',
      prepare: async () => {
        const made = await group();
        return {
          path: `/api/v1/sms/groups/${made.channelUrl}/invites/${made.inviteId}`,
          secrets: [made.name],
          // Still a live link after the others' calls; gone once its owner revokes it.
          untouched: async () => expect((await call('anonymous', 'GET', `/api/v1/sms/group-invites/${made.inviteId}`)).status).toBe(200),
          ownerSucceeded: async () =>
            expect((await call('anonymous', 'GET', `/api/v1/sms/group-invites/${made.inviteId}`)).status).toBe(404),
        };
      },
    },
    'GET /api/v1/sms/group-invites/:invite_id': {
      kind: 'capability',
      check: async () => {
        const made = await group();
        for (const actor of ['owner', ...HOSTILE] as Actor[]) {
          const answer = await call(actor, 'GET', `/api/v1/sms/group-invites/${made.inviteId}`);
          expect({ actor, status: answer.status }).toEqual({ actor, status: 200 });
          expect(answer.json).toMatchObject({ group_name: made.name, member_count: 1 });
          // The link shows the group's name and size, never who is in it nor its address.
          for (const privateDetail of [ids.owner, ownerPhone, ownerPhone.slice(-4), made.channelUrl])
            expect(answer.text).not.toContain(privateDetail);
        }
        await ok('DELETE', `/api/v1/sms/groups/${made.channelUrl}/invites/${made.inviteId}`);
        for (const actor of ['owner', ...HOSTILE] as Actor[])
          expect({ actor, status: (await call(actor, 'GET', `/api/v1/sms/group-invites/${made.inviteId}`)).status }).toEqual({
            actor,
            status: 404,
          });
        // A group's own address is no invite.
        expect((await call('guest', 'GET', `/api/v1/sms/group-invites/${made.channelUrl}`)).status).toBe(404);
      },
    },
    'POST /api/v1/sms/group-invites/:invite_id/join': {
      kind: 'public',
      reason:
        'an invite link is a capability: anyone holding it may ask to join with a number, which is texted and joins only once it replies YES (sms-channel suite); a revoked or made-up link is 404',
    },
    'GET /api/v1/shared/:share_id': {
      kind: 'capability',
      check: async () => {
        const made = await share();
        for (const actor of ['owner', ...HOSTILE] as Actor[]) {
          const answer = await call(actor, 'GET', `/api/v1/shared/${made.shareId}`);
          expect({ actor, status: answer.status }).toEqual({ actor, status: 200 });
          expect((answer.json as { messages: { content: string }[] }).messages.map((m) => m.content)).toContain(made.content);
          // What the link shows is the conversation, never who owns it.
          for (const privateDetail of [ids.owner, ownerPhone, 'memory_ids', 'author_user_id":"'])
            expect(answer.text).not.toContain(privateDetail);
        }
        await ok('DELETE', `/api/v1/chats/${made.chatId}/share`);
        for (const actor of ['owner', ...HOSTILE] as Actor[]) {
          const answer = await call(actor, 'GET', `/api/v1/shared/${made.shareId}`);
          expect({ actor, status: answer.status }).toEqual({ actor, status: 404 });
          expect(answer.text).not.toContain(made.words);
        }
        // A share id of another kind of thing (a chat id, a message id) is no share.
        for (const guess of [made.chatId, made.userMessageId, randomUUID()])
          expect((await call('guest', 'GET', `/api/v1/shared/${guess}`)).status).toBe(404);
      },
    },
    'GET /api/v1/files/presigned/:object_store_object_id': {
      kind: 'owned',
      prepare: async () => {
        const made = await file();
        return {
          path: `/api/v1/files/presigned/${made.fileId}`,
          secrets: [made.name],
          untouched: async () => undefined,
          ownerSucceeded: (answer) => expect((answer.json as { filename: string }).filename).toBe(made.name),
        };
      },
    },
    'GET /api/v1/files/view/:object_store_object_id': {
      kind: 'owned',
      prepare: async () => {
        const made = await file();
        return {
          path: `/api/v1/files/view/${made.fileId}`,
          secrets: [made.name, `notes ${made.name}`],
          untouched: async () => undefined,
          ownerSucceeded: (answer) => expect(answer.text).toBe(`notes ${made.name}`),
        };
      },
    },
    'PUT /api/v1/user_memory/:user_memory_id': {
      kind: 'owned',
      prepare: async () => {
        const made = await memory();
        return {
          path: `/api/v1/user_memory/${made.memoryId}`,
          body: { text: 'Rewritten by whoever calls' },
          secrets: [made.memoryText, made.words],
          untouched: async () => expect(await memoryTexts()).toContain(`${made.memoryId}:${made.memoryText}`),
          ownerSucceeded: async () => expect(await memoryTexts()).toContain(`${made.memoryId}:Rewritten by whoever calls`),
        };
      },
    },
    'DELETE /api/v1/user_memory/:user_memory_id': {
      kind: 'owned',
      prepare: async () => {
        const made = await memory();
        return {
          path: `/api/v1/user_memory/${made.memoryId}`,
          secrets: [made.memoryText, made.words],
          untouched: async () => expect(await memoryTexts()).toContain(`${made.memoryId}:${made.memoryText}`),
          ownerSucceeded: async () => expect(await memoryTexts()).not.toContain(`${made.memoryId}:${made.memoryText}`),
        };
      },
    },
    'GET /api/v1/imports/:import_id': {
      kind: 'owned',
      prepare: async () => {
        const made = await imported();
        return {
          path: `/api/v1/imports/${made.importId}`,
          secrets: [made.filename, made.title],
          untouched: async () => undefined,
          ownerSucceeded: (answer) =>
            expect(answer.json).toMatchObject({ filename: made.filename, status: 'done', conversations_imported: 1 }),
        };
      },
    },
    'POST /api/v1/imports/:import_id/cancel': {
      kind: 'owned',
      prepare: async () => {
        // An import of the owner's under way: running, its worker's lease far from lapsing (no worker
        // of the stack takes it over, so it stays under way whatever the timing).
        const made = await importUpload();
        const importId = randomUUID();
        await booted.db.query(
          `INSERT INTO chat.import_job (id, user_id, object_id, filename, requested_source, status, attempts, lease_until)
           VALUES ($1, $2, $3, $4, 'auto', 'running', 1, now() + interval '1 hour')`,
          [importId, ids.owner, made.objectId, made.filename],
        );
        const status = async () => ((await ok('GET', `/api/v1/imports/${importId}`)).json as { status: string }).status;
        return {
          path: `/api/v1/imports/${importId}/cancel`,
          secrets: [made.filename],
          untouched: async () => expect(await status()).toBe('running'),
          ownerSucceeded: async (answer) => {
            expect(answer.json).toMatchObject({ import_id: importId, status: 'cancelled', filename: made.filename });
            expect(await status()).toBe('cancelled');
          },
        };
      },
    },
    'PATCH /api/v1/reminders/:reminder_id': {
      kind: 'owned',
      prepare: async () => {
        const made = await reminder();
        return {
          path: `/api/v1/reminders/${made.reminderId}`,
          body: { text: 'Rewritten by whoever calls' },
          secrets: [made.text],
          untouched: reminderUntouched(made.reminderId, made.text),
          ownerSucceeded: async () => expect(await reminderOf(made.reminderId)).toMatchObject({ text: 'Rewritten by whoever calls' }),
        };
      },
    },
    'DELETE /api/v1/reminders/:reminder_id': {
      kind: 'owned',
      prepare: async () => {
        const made = await reminder();
        return {
          path: `/api/v1/reminders/${made.reminderId}`,
          secrets: [made.text],
          untouched: reminderUntouched(made.reminderId, made.text),
          ownerSucceeded: async () => expect(await reminderOf(made.reminderId)).toMatchObject({ status: 'cancelled' }),
        };
      },
    },
    'POST /api/v1/reminders/:reminder_id/seen': {
      kind: 'owned',
      prepare: async () => {
        const made = await reminder();
        return {
          path: `/api/v1/reminders/${made.reminderId}/seen`,
          secrets: [made.text],
          untouched: reminderUntouched(made.reminderId, made.text),
          ownerSucceeded: async () => expect(await reminderOf(made.reminderId)).toMatchObject({ seen: true }),
        };
      },
    },
    'PATCH /api/v1/mcp/servers/:server_id': {
      kind: 'owned',
      prepare: async () => {
        const made = await mcp();
        return {
          path: `/api/v1/mcp/servers/${made.serverId}`,
          body: { name: 'Renamed by whoever calls' },
          secrets: [made.name, made.token],
          untouched: async () => expect(await mcpNames()).toContain(`${made.serverId}:${made.name}`),
          ownerSucceeded: async () => expect(await mcpNames()).toContain(`${made.serverId}:Renamed by whoever calls`),
        };
      },
    },
    'POST /api/v1/mcp/servers/:server_id/refresh': {
      kind: 'owned',
      prepare: async () => {
        const made = await mcp();
        return {
          path: `/api/v1/mcp/servers/${made.serverId}/refresh`,
          secrets: [made.name, made.token],
          untouched: async () => expect(await mcpNames()).toContain(`${made.serverId}:${made.name}`),
          ownerSucceeded: (answer) => expect(JSON.stringify(answer.json)).not.toContain(made.token),
        };
      },
    },
    'POST /api/v1/mcp/servers/:server_id/oauth': {
      kind: 'owned',
      prepare: async () => {
        // The owner starts an OAuth authorisation; the code and state come back to their browser.
        const name = marker('oauth').slice(0, 40);
        const started = (await ok('POST', '/api/v1/mcp/servers', { name, url: oauthServer.url, oauth: true })).json as {
          server_id: string;
          authorization_url: string;
        };
        const back = new URL((await fetch(started.authorization_url, { redirect: 'manual' })).headers.get('location')!);
        const code = back.searchParams.get('code')!;
        return {
          path: `/api/v1/mcp/servers/${started.server_id}/oauth`,
          body: { code, state: back.searchParams.get('state') },
          secrets: [name, code],
          untouched: async () =>
            expect(
              ((await ok('GET', '/api/v1/mcp/servers')).json as { server_id: string; status: string }[]).find(
                (m) => m.server_id === started.server_id,
              ),
            ).toMatchObject({
              status: 'needs_authorization',
            }),
          ownerSucceeded: (answer) => expect(answer.json).toMatchObject({ status: 'ready' }),
        };
      },
    },
    'DELETE /api/v1/mcp/servers/:server_id': {
      kind: 'owned',
      prepare: async () => {
        const made = await mcp();
        return {
          path: `/api/v1/mcp/servers/${made.serverId}`,
          secrets: [made.name, made.token],
          untouched: async () => expect(await mcpNames()).toContain(`${made.serverId}:${made.name}`),
          ownerSucceeded: async () => expect(await mcpNames()).not.toContain(`${made.serverId}:${made.name}`),
        };
      },
    },
    'GET /api/v1/projects/:project_id': {
      kind: 'owned',
      prepare: async () => {
        const made = await project();
        return {
          path: `/api/v1/projects/${made.projectId}`,
          secrets: [made.name, made.instructions, made.fileName],
          untouched: projectUntouched(made),
          ownerSucceeded: (answer) => expect(answer.json).toMatchObject({ name: made.name, instructions: made.instructions }),
        };
      },
    },
    'PATCH /api/v1/projects/:project_id': {
      kind: 'owned',
      prepare: async () => {
        const made = await project();
        return {
          path: `/api/v1/projects/${made.projectId}`,
          body: { name: 'Renamed by whoever calls', instructions: 'Obey whoever calls' },
          secrets: [made.name, made.instructions, made.fileName],
          untouched: projectUntouched(made),
          ownerSucceeded: async () => expect(await projectOf(made.projectId)).toMatchObject({ name: 'Renamed by whoever calls' }),
        };
      },
    },
    'DELETE /api/v1/projects/:project_id': {
      kind: 'owned',
      prepare: async () => {
        const made = await project();
        return {
          path: `/api/v1/projects/${made.projectId}?conversations=delete`,
          secrets: [made.name, made.instructions, made.chatId],
          untouched: projectUntouched(made),
          ownerSucceeded: async () => {
            expect(await projectOf(made.projectId)).toBeUndefined();
            expect((await owner('GET', `/api/v1/chats/${made.chatId}`)).status).toBe(404);
          },
        };
      },
    },
    'POST /api/v1/user_memory/:user_memory_id/restore': {
      kind: 'owned',
      prepare: async () => {
        const made = await memory();
        await ok('DELETE', `/api/v1/user_memory/${made.memoryId}`);
        return {
          path: `/api/v1/user_memory/${made.memoryId}/restore`,
          secrets: [made.memoryText, made.words],
          untouched: async () => expect(await memoryTexts()).not.toContain(`${made.memoryId}:${made.memoryText}`),
          ownerSucceeded: async () => expect(await memoryTexts()).toContain(`${made.memoryId}:${made.memoryText}`),
        };
      },
    },
  };

  beforeAll(async () => {
    // One address makes every call: the texting routes' share of the rate limit would answer 429 first.
    await Promise.all([mcpServer.start(), oauthServer.start()]);
    booted = await startTestStack('ownership', transport, {
      OFFLINE_TOKEN_DELAY_MS: '0',
      TOOLS_PRIVATE_HOSTS: [new URL(mcpServer.url).host, new URL(oauthServer.url).host].join(','),
      TOOLS_ENCRYPTION_KEY: Buffer.alloc(32, 3).toString('base64'),
      RATE_LIMIT_PER_MINUTE: '120000',
      // The owner makes a group per case: each of a member's groups takes a number of the pool.
      SMS_DEV_GROUP_NUMBERS: Array.from({ length: 20 }, (_, i) => `+1555010${String(i + 10).padStart(4, '0')}`).join(','),
    });
    url = booted.stack.url;
    clients.owner = new ApiClient(url);
    ownerPhone = nextPhone();
    await clients.owner.signInByPhone(ownerPhone);
    clients.other = new ApiClient(url);
    await clients.other.signInByPhone(nextPhone());
    clients.guest = new ApiClient(url);
    await clients.guest.guest();
    clients.anonymous = new ApiClient(url);
    for (const actor of ['owner', 'other', 'guest'] as const)
      ids[actor] = (await clients[actor].get('/api/v1/auth/me').expect(200)).body.user_id;
  });

  afterAll(async () => {
    await booted?.close();
    await Promise.all([mcpServer.stop(), oauthServer.stop()]);
  });

  it('has a case for every route with a path parameter, and no case for a route that is gone', () => {
    const routes = parameterisedRoutes(booted.stack.gateway.routes);
    expect(routes.length).toBeGreaterThan(10);
    const missing = routes.filter((route) => !CASES[route]);
    expect({ routesWithoutAnOwnershipCase: missing }).toEqual({ routesWithoutAnOwnershipCase: [] });
    expect(Object.keys(CASES).filter((route) => !routes.includes(route))).toEqual([]);
  });

  describe('routes with a resource id in their path', () => {
    // Every case the table declares; the test above fails for a route without one.
    it.each(Object.keys(CASES).sort())('%s', async (route) => {
      const spec = CASES[route];
      if (spec.kind === 'public') return expect(spec.reason).toEqual(expect.any(String));
      if (spec.kind === 'capability') return spec.check();
      const [method] = route.split(' ');
      const prepared = await spec.prepare();
      for (const actor of HOSTILE) {
        const answer = await call(actor, method, prepared.path, prepared.body);
        expect({ actor, status: answer.status }).toEqual({ actor, status: actor === 'anonymous' && answer.status === 401 ? 401 : 404 });
        expect(answer.json).toEqual({ detail: expect.any(String) });
        for (const secret of prepared.secrets) expect({ actor, leaked: answer.text.includes(secret) }).toEqual({ actor, leaked: false });
      }
      await prepared.untouched();
      const mine = await owner(method, prepared.path, prepared.body);
      expect({ status: mine.status, ok: mine.status >= 200 && mine.status < 300 }).toEqual({ status: mine.status, ok: true });
      await prepared.ownerSucceeded?.(mine);
    });

    it("answers a made-up id like someone else's: 404 for every caller", async () => {
      for (const route of Object.keys(CASES).filter((r) => CASES[r].kind === 'owned')) {
        const [method, path] = route.split(' ');
        const made = path.replace(/:[a-z_]+/g, randomUUID()) + (VALID_QUERIES[route] ?? '');
        for (const actor of ['owner', 'other', 'guest'] as Actor[]) {
          const answer = await call(actor, method, made, VALID_BODIES[route]);
          expect({ route, actor, status: answer.status }).toEqual({ route, actor, status: 404 });
        }
      }
    });
  });

  describe('ids in queries and bodies', () => {
    it("lists none of the owner's memories or messages for another user naming the owner's conversation", async () => {
      const made = await memory();
      for (const actor of ['other', 'guest'] as const) {
        const memories = await call(actor, 'GET', `/api/v1/user_memory/?source_chat_id=${made.chatId}`);
        expect({ actor, status: memories.status, body: memories.json }).toEqual({ actor, status: 200, body: [] });
        const messages = await call(actor, 'GET', `/api/v1/messages/all_user_messages?chat_ids=${made.chatId}`);
        expect({ actor, status: messages.status }).toEqual({ actor, status: 200 });
        expect(messages.text).not.toContain(made.words);
      }
      expect((await call('anonymous', 'GET', `/api/v1/user_memory/?source_chat_id=${made.chatId}`)).status).toBe(401);
    });

    it("lists none of the owner's MCP servers (nor their tokens) to anyone else", async () => {
      const made = await mcp();
      for (const actor of ['other', 'guest'] as const) {
        const listed = await call(actor, 'GET', '/api/v1/mcp/servers');
        expect(listed.status).toBe(200);
        expect(listed.text).not.toContain(made.name);
        expect(listed.text).not.toContain(made.token);
      }
      expect((await owner('GET', '/api/v1/mcp/servers')).text).not.toContain(made.token);
    });

    it("imports none of the owner's uploaded zips for anyone else, and lists none of the owner's imports to them", async () => {
      const made = await importUpload();
      for (const actor of ['other', 'guest'] as const) {
        const started = await call(actor, 'POST', '/api/v1/imports/', { object_store_object_id: made.objectId });
        expect({ actor, status: started.status }).toEqual({ actor, status: 404 });
        const listed = await call(actor, 'GET', '/api/v1/imports/');
        expect(listed.status).toBe(200);
        expect(listed.text).not.toContain(made.filename);
        expect((await call(actor, 'GET', '/api/v1/chats/')).text).not.toContain(made.title);
      }
      expect((await call('anonymous', 'POST', '/api/v1/imports/', { object_store_object_id: made.objectId })).status).toBe(401);
      expect((await call('anonymous', 'GET', '/api/v1/imports/')).status).toBe(401);
      // The owner's own import of it goes through (waited for: one import at a time per user).
      const mine = await owner('POST', '/api/v1/imports/', { object_store_object_id: made.objectId });
      expect(mine.status).toBe(202);
      const id = (mine.json as { import_id: string }).import_id;
      await eventually(
        async () => (((await ok('GET', `/api/v1/imports/${id}`)).json as { status: string }).status === 'done' ? true : undefined),
        30_000,
      );
    });

    it("lists none of the owner's reminders, and never their time zone, to anyone else", async () => {
      const made = await reminder();
      await ok('PUT', '/api/v1/reminders/settings', { time_zone: 'Pacific/Chatham' });
      for (const actor of ['other', 'guest'] as const) {
        const listed = await call(actor, 'GET', '/api/v1/reminders/');
        expect(listed.status).toBe(200);
        expect(listed.text).not.toContain(made.text);
        expect((await call(actor, 'GET', '/api/v1/reminders/settings')).text).not.toContain('Pacific/Chatham');
      }
      expect((await call('anonymous', 'GET', '/api/v1/reminders/')).status).toBe(401);
    });

    it("finds the owner's words, titles and replies for the owner alone in the conversation search", async () => {
      const made = await exchange();
      const searchFor = (actor: Actor, q: string) => call(actor, 'GET', `/api/v1/chats/search?q=${encodeURIComponent(q)}`);
      for (const q of [made.words, made.title]) {
        const mine = await searchFor('owner', q);
        expect({ q, status: mine.status, found: (mine.json as { results: { chat_id: string }[] }).results.map((r) => r.chat_id) }).toEqual({
          q,
          status: 200,
          found: [made.chatId],
        });
        for (const actor of ['other', 'guest'] as const) {
          const theirs = await searchFor(actor, q);
          expect({ actor, status: theirs.status, body: theirs.json }).toEqual({ actor, status: 200, body: { q, results: [] } });
        }
        expect((await searchFor('anonymous', q)).status).toBe(401);
      }
    });

    it("refuses the owner's message as another user's branch point or active message", async () => {
      const made = await exchange();
      const theirs = ((await call('other', 'POST', '/api/v1/chats/', {})).json as { chat_id: string }).chat_id;
      const branch = await call('other', 'POST', `/api/v1/chats/${theirs}/messages`, {
        content: 'hello',
        previous_message_id: made.replyId,
      });
      expect(branch.status).toBeGreaterThanOrEqual(400);
      expect(branch.status).toBeLessThan(500);
      expect(branch.text).not.toContain(made.words);
      const active = await call('other', 'PATCH', `/api/v1/chats/${theirs}`, { last_active_message_id: made.replyId });
      expect(active.status).toBeGreaterThanOrEqual(400);
      expect(active.status).toBeLessThan(500);
      const view = (await call('other', 'GET', `/api/v1/chats/${theirs}`)).text;
      expect(view).not.toContain(made.words);
      expect(view).not.toContain(made.replyText);
    });

    it("refuses the owner's file attached to another user's message, and shown through another user's share", async () => {
      const made = await file();
      const theirs = ((await call('other', 'POST', '/api/v1/chats/', {})).json as { chat_id: string }).chat_id;
      const attached = await call('other', 'POST', `/api/v1/chats/${theirs}/messages`, {
        content: 'look',
        files: [{ object_store_object_id: made.fileId, mime_type: 'text/plain' }],
      });
      expect(attached.status).toBeGreaterThanOrEqual(400);
      expect(attached.status).toBeLessThan(500);
      expect(attached.text).not.toContain(made.name);
      // Another user's own share does not open the owner's file.
      await call('other', 'POST', `/api/v1/chats/${theirs}/messages`, { content: 'hi' });
      const theirShare = ((await call('other', 'POST', `/api/v1/chats/${theirs}/share`)).json as { share_id: string }).share_id;
      for (const actor of ['other', 'guest'] as const) {
        const seen = await call(actor, 'GET', `/api/v1/files/presigned/${made.fileId}?share_id=${theirShare}`);
        expect({ actor, status: seen.status }).toEqual({ actor, status: 404 });
        expect(seen.text).not.toContain(made.name);
      }
    });

    it("refuses the owner's project to anyone else: listed, moved into, started in, and the owner's files in another's project", async () => {
      const made = await project();
      const upload = await file();
      for (const actor of ['other', 'guest'] as const) {
        const listed = await call(actor, 'GET', '/api/v1/projects/');
        expect({ actor, status: listed.status }).toEqual({ actor, status: 200 });
        expect(listed.text).not.toContain(made.name);
        const theirs = ((await call(actor, 'POST', '/api/v1/chats/', {})).json as { chat_id: string }).chat_id;
        const moved = await call(actor, 'PATCH', `/api/v1/chats/${theirs}`, { project_id: made.projectId });
        expect({ actor, status: moved.status, body: moved.json }).toEqual({ actor, status: 404, body: { detail: 'Project not found' } });
        const started = await call(actor, 'POST', '/api/v1/chats/', { project_id: made.projectId });
        expect({ actor, status: started.status }).toEqual({ actor, status: 404 });
        // The owner's conversation cannot be moved into the caller's own project either.
        const own = ((await call(actor, 'POST', '/api/v1/projects/', { name: 'Mine' })).json as { project_id: string }).project_id;
        const taken = await call(actor, 'PATCH', `/api/v1/chats/${made.chatId}`, { project_id: own });
        expect({ actor, status: taken.status }).toEqual({ actor, status: 404 });
        const filed = await call(actor, 'PATCH', `/api/v1/projects/${own}`, { files: [{ object_store_object_id: upload.fileId }] });
        expect({ actor, status: filed.status }).toEqual({ actor, status: 404 });
        expect(filed.text).not.toContain(upload.name);
        expect((await call(actor, 'GET', `/api/v1/projects/${own}`)).json).toMatchObject({ files: [], conversation_count: 0 });
      }
      await projectUntouched(made)();
      expect((await call('anonymous', 'GET', '/api/v1/projects/')).status).toBe(401);
    });

    it("does not open the owner's file with another user's file-view cookie", async () => {
      const made = await file();
      for (const actor of ['other', 'guest'] as const) {
        const res = await fetch(`${url}/api/v1/files/view/${made.fileId}`, { headers: { cookie: `access_token=${clients[actor].token}` } });
        const text = await res.text();
        expect({ actor, status: res.status }).toEqual({ actor, status: 404 });
        expect(text).not.toContain(made.name);
      }
      const mine = await fetch(`${url}/api/v1/files/view/${made.fileId}`, { headers: { cookie: `access_token=${clients.owner.token}` } });
      expect(await mine.text()).toBe(`notes ${made.name}`);
    });

    it("keeps a guest's conversation, memory and file the guest's alone", async () => {
      const guest = clients.guest;
      const title = marker('guest-title');
      const chatId = (await guest.post('/api/v1/chats/', { conversation_title: title }).expect(201)).body.chat_id as string;
      const upload = await guest
        .auth(guest.http.post('/api/v1/files/'))
        .attach('file', Buffer.from('guest notes'), { filename: `${title}.txt`, contentType: 'text/plain' })
        .expect(201);
      for (const actor of ['owner', 'other', 'anonymous'] as const) {
        for (const path of [
          `/api/v1/chats/${chatId}`,
          `/api/v1/files/presigned/${upload.body.object_store_object_id}`,
          `/api/v1/files/view/${upload.body.object_store_object_id}`,
        ]) {
          const answer = await call(actor, 'GET', path);
          expect({ actor, path, status: answer.status }).toEqual({
            actor,
            path,
            status: actor === 'anonymous' && answer.status === 401 ? 401 : 404,
          });
          expect(answer.text).not.toContain(title);
        }
        expect((await call(actor, 'DELETE', `/api/v1/chats/${chatId}`)).status).toBeGreaterThanOrEqual(401);
      }
      expect((await guest.get(`/api/v1/chats/${chatId}`).expect(200)).body.conversation_title).toBe(title);
    });

    it('does not let a file link signed for one file open another', async () => {
      const one = await file();
      const two = await file();
      const signed = (await ok('GET', `/api/v1/files/presigned/${one.fileId}`)).json as { presigned_url: string };
      const link = new URL(signed.presigned_url, url);
      expect((await call('anonymous', 'GET', `${link.pathname}${link.search}`)).status).toBe(200);
      const swapped = await call('anonymous', 'GET', `${link.pathname.replace(one.fileId, two.fileId)}${link.search}`);
      expect(swapped.status).toBe(404);
      expect(swapped.text).not.toContain(two.name);
    });
  });
});
