import type { Caller } from '@app/contracts';
import { PROJECT_LIMITS } from '@app/contracts/chat';
import { aConversation } from '../testing/builders';
import { FakeAttachments } from '../testing/attachments.fake';
import { FakeChatRepository } from '../testing/chat-repository.fake';
import { FakeProjectsRepository } from '../testing/projects.fake';
import { ProjectsService } from './projects.service';

const caller = (user_id: string): Caller => ({ user_id, is_anon: false, session_id: 's', request_id: 'r' }) as Caller;
const OWNER = caller('owner');
const STRANGER = caller('stranger');
const refused = (status: number, detail?: string) => expect.objectContaining({ status, ...(detail ? { detail } : {}) });

function setup() {
  const chats = new FakeChatRepository();
  const repo = new FakeProjectsRepository(chats);
  const attachments = new FakeAttachments();
  attachments.files.set('notes', 'text/plain');
  return { chats, repo, attachments, service: new ProjectsService(repo, attachments) };
}

describe('ProjectsService', () => {
  it('creates a project with its instructions and files as the files service describes them, once each', async () => {
    const { service } = setup();
    const project = await service.create(OWNER, {
      name: '  Thesis ',
      instructions: 'Be brief.',
      files: [{ object_store_object_id: 'notes' }, { object_store_object_id: 'notes' }],
    });
    expect(project).toMatchObject({
      name: 'Thesis',
      instructions: 'Be brief.',
      files: [{ object_store_object_id: 'notes', mime_type: 'text/plain', filename: 'notes.file' }],
      conversation_count: 0,
    });
    expect(await service.list(OWNER)).toEqual([project]);
    expect(await service.list(STRANGER)).toEqual([]);
  });

  it("refuses a file that is not one of the caller's uploads, and creates nothing", async () => {
    const { service } = setup();
    await expect(service.create(OWNER, { name: 'X', files: [{ object_store_object_id: 'theirs' }] })).rejects.toEqual(
      refused(404, 'File not found: theirs'),
    );
    expect(await service.list(OWNER)).toEqual([]);
  });

  it('refuses a project past the per-user bound', async () => {
    const { service, repo } = setup();
    for (let i = 0; i < PROJECT_LIMITS.perUserMax; i++) repo.seed({ id: `p${i}`, userId: 'owner' });
    await expect(service.create(OWNER, { name: 'One more' })).rejects.toEqual(refused(409));
    expect(await service.create(STRANGER, { name: 'Theirs' })).toMatchObject({ name: 'Theirs' });
  });

  it("answers someone else's project as not found, for every call, and changes nothing", async () => {
    const { service, repo } = setup();
    repo.seed({ id: 'p', userId: 'owner', name: 'Mine' });
    await expect(service.get(STRANGER, 'p')).rejects.toEqual(refused(404, 'Project not found'));
    await expect(service.update(STRANGER, { project_id: 'p', name: 'Theirs' })).rejects.toEqual(refused(404));
    await expect(service.remove(STRANGER, 'p', 'delete')).rejects.toEqual(refused(404));
    expect((await service.get(OWNER, 'p')).name).toBe('Mine');
  });

  it('deletes a project with its conversations, or keeps them moved out, as asked', async () => {
    const { service, repo, chats } = setup();
    repo.seed({ id: 'a', userId: 'owner' });
    repo.seed({ id: 'b', userId: 'owner' });
    chats.seed(aConversation({ id: 'a1', projectId: 'a' }), aConversation({ id: 'b1', projectId: 'b' }), aConversation({ id: 'free' }));
    expect((await service.get(OWNER, 'a')).conversation_count).toBe(1);
    expect(await service.remove(OWNER, 'a', 'delete')).toEqual({ project_id: 'a', conversations: 'delete', chat_ids: ['a1'] });
    expect(chats.conversations.has('a1')).toBe(false);
    expect(await service.remove(OWNER, 'b', 'keep')).toEqual({ project_id: 'b', conversations: 'keep', chat_ids: ['b1'] });
    expect(chats.conversations.get('b1')!.projectId).toBeNull();
    expect(chats.conversations.has('free')).toBe(true);
    expect(await service.list(OWNER)).toEqual([]);
  });
});
