import type { ProjectDeleteChoice, ProjectFile } from '@app/contracts/chat';
import { DomainError, type PublicOf } from '@app/platform';
import type { ProjectRecord } from '../projects/project.entity';
import type { ProjectsRepository } from '../projects/projects.repository';
import { tick } from './builders';
import { type FakeChatRepository } from './chat-repository.fake';

/**
 * The project table in memory, for unit tests: ProjectsRepository's public face with its rules
 * (scoped by owner, the per-user bound, conversations deleted or moved out with a project), over
 * the conversations of a FakeChatRepository.
 */
export class FakeProjectsRepository implements PublicOf<ProjectsRepository> {
  readonly projects = new Map<string, Omit<ProjectRecord, 'conversationCount'>>();

  constructor(private readonly chats: FakeChatRepository) {}

  seed(project: Partial<ProjectRecord> & { id: string; userId: string }): void {
    this.projects.set(project.id, { name: 'Project', instructions: '', files: [], createdAt: tick(), updatedAt: tick(), ...project });
  }

  private record(project: Omit<ProjectRecord, 'conversationCount'>): ProjectRecord {
    const conversationCount = [...this.chats.conversations.values()].filter((c) => c.projectId === project.id).length;
    return { ...project, conversationCount };
  }

  async list(userId: string): Promise<ProjectRecord[]> {
    return [...this.projects.values()]
      .filter((p) => p.userId === userId)
      .sort((a, b) => a.name.toLowerCase().localeCompare(b.name.toLowerCase()))
      .map((p) => this.record(p));
  }

  async find(userId: string, id: string): Promise<ProjectRecord | null> {
    const project = this.projects.get(id);
    return project?.userId === userId ? this.record(project) : null;
  }

  async promptOf(userId: string, id: string) {
    const project = this.projects.get(id);
    return project?.userId === userId ? { name: project.name, instructions: project.instructions, files: project.files } : null;
  }

  async create(project: { id: string; userId: string; name: string; instructions: string; files: ProjectFile[] }, max: number) {
    if ([...this.projects.values()].filter((p) => p.userId === project.userId).length >= max)
      throw DomainError.conflict(`You have ${max} projects, the most there can be: delete one first.`);
    const created = { ...project, createdAt: tick(), updatedAt: tick() };
    this.projects.set(project.id, created);
    return this.record(created);
  }

  async update(userId: string, id: string, change: { name?: string; instructions?: string; files?: ProjectFile[] }) {
    const project = this.projects.get(id);
    if (project?.userId !== userId) return null;
    const updated = {
      ...project,
      name: change.name ?? project.name,
      instructions: change.instructions ?? project.instructions,
      files: change.files ?? project.files,
      updatedAt: tick(),
    };
    this.projects.set(id, updated);
    return this.record(updated);
  }

  async remove(userId: string, id: string, conversations: ProjectDeleteChoice): Promise<string[] | null> {
    const project = this.projects.get(id);
    if (project?.userId !== userId) return null;
    const inIt = [...this.chats.conversations.values()].filter((c) => c.projectId === id && c.userId === userId);
    for (const chat of inIt) {
      if (conversations === 'delete') this.chats.conversations.delete(chat.id);
      else chat.projectId = null;
    }
    this.projects.delete(id);
    return inIt.map((c) => c.id);
  }
}
