import { randomUUID } from 'node:crypto';
import { forgetUser, Outbox, type Bus } from '@app/platform';
import { serviceDatabase, type ServiceDatabase } from '@app/testing';
import { ChatRepository } from '../conversations/chat.repository';
import { ConversationEntity } from '../conversations/conversation.entity';
import { MessageEntity } from '../conversations/message.entity';
import { chatMigrations } from '../migrations';
import { ShareEntity } from '../conversations/share.entity';
import { ProjectEntity } from './project.entity';
import { ProjectsRepository } from './projects.repository';

const log = { warn: () => undefined, error: () => undefined };
const FILE = { object_store_object_id: randomUUID(), mime_type: 'text/plain', filename: 'notes.txt' };

/**
 * Projects' SQL against the real PostgreSQL: the per-user ceiling holds against parallel
 * creations, a deletion takes its conversations or moves them out in one transaction, a
 * conversation cannot land in a project deleted at that instant, and every statement is the
 * owner's only.
 */
describe('ProjectsRepository on PostgreSQL', () => {
  let db: ServiceDatabase;
  let projects: ProjectsRepository;
  let chats: ChatRepository;

  beforeAll(async () => {
    db = await serviceDatabase({
      label: 'projects',
      schema: 'chat',
      entities: [ProjectEntity, ConversationEntity, MessageEntity, ShareEntity],
      migrations: chatMigrations,
    });
    projects = new ProjectsRepository(db.source);
    chats = new ChatRepository(db.source, new Outbox(db.source, {} as Bus, log));
  });

  afterAll(() => db?.drop());

  const projectOf = (userId: string, name = 'Garden', max = 200) =>
    projects.create({ id: randomUUID(), userId, name, instructions: 'Answer as a gardener.', files: [FILE] }, max);

  async function conversationIn(userId: string, projectId: string | null) {
    const conversation = chats.newConversation({ id: randomUUID(), userId, title: null, projectId });
    return chats.createConversation(conversation);
  }

  it('holds the ceiling of projects a user may have against parallel creations', async () => {
    const userId = randomUUID();
    const results = await Promise.allSettled(Array.from({ length: 6 }, (_, i) => projectOf(userId, `P${i}`, 3)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    expect(results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason.status)).toEqual([409, 409, 409]);
    expect(await projects.list(userId)).toHaveLength(3);
  });

  it('creates nothing for a deleted account', async () => {
    const userId = randomUUID();
    await db.source.transaction((manager) => forgetUser(manager, userId));
    await expect(projectOf(userId)).rejects.toMatchObject({ status: 401 });
    expect(await projects.list(userId)).toEqual([]);
  });

  it('lists by name whatever its case, with each project’s count of conversations, and keeps what a change leaves out', async () => {
    const userId = randomUUID();
    const garden = await projectOf(userId, 'garden');
    await projectOf(userId, 'Attic');
    await conversationIn(userId, garden.id);
    await conversationIn(userId, garden.id);

    expect((await projects.list(userId)).map((p) => [p.name, p.conversationCount])).toEqual([
      ['Attic', 0],
      ['garden', 2],
    ]);
    expect(await projects.update(userId, garden.id, { name: 'Garden' })).toMatchObject({
      name: 'Garden',
      instructions: 'Answer as a gardener.',
      files: [FILE],
      conversationCount: 2,
    });
    expect(await projects.promptOf(userId, garden.id)).toEqual({ name: 'Garden', instructions: 'Answer as a gardener.', files: [FILE] });
  });

  it('deletes a project with its conversations, or moves them out, as chosen', async () => {
    const userId = randomUUID();
    const kept = await projectOf(userId, 'Kept');
    const keptChat = await conversationIn(userId, kept.id);
    const dropped = await projectOf(userId, 'Dropped');
    const droppedChat = await conversationIn(userId, dropped.id);
    const outside = await conversationIn(userId, null);

    expect(await projects.remove(userId, kept.id, 'keep')).toEqual([keptChat.id]);
    expect((await chats.findConversation(userId, keptChat.id))?.projectId).toBeNull();

    expect(await projects.remove(userId, dropped.id, 'delete')).toEqual([droppedChat.id]);
    expect(await chats.findConversation(userId, droppedChat.id)).toBeNull();
    expect(await chats.findConversation(userId, outside.id)).not.toBeNull();
    expect(await projects.list(userId)).toEqual([]);
  });

  it('refuses a conversation into a project deleted at that instant (not found), and leaves it where it was', async () => {
    const userId = randomUUID();
    const project = await projectOf(userId);
    const conversation = await conversationIn(userId, null);
    await projects.remove(userId, project.id, 'keep');

    conversation.projectId = project.id;
    await expect(chats.saveConversation(conversation)).rejects.toMatchObject({ status: 404 });
    expect((await chats.findConversation(userId, conversation.id))?.projectId).toBeNull();
    await expect(conversationIn(userId, project.id)).rejects.toMatchObject({ status: 404 });
  });

  it("neither reads, changes nor deletes another user's project", async () => {
    const userId = randomUUID();
    const project = await projectOf(userId);
    const stranger = randomUUID();

    expect(await projects.find(stranger, project.id)).toBeNull();
    expect(await projects.promptOf(stranger, project.id)).toBeNull();
    expect(await projects.update(stranger, project.id, { instructions: 'Leak everything.' })).toBeNull();
    expect(await projects.remove(stranger, project.id, 'delete')).toBeNull();
    expect((await projects.find(userId, project.id))?.instructions).toBe('Answer as a gardener.');
  });
});
