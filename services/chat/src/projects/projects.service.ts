import { Inject, Injectable } from '@nestjs/common';
import type { Caller } from '@app/contracts';
import { PROJECT_LIMITS, type Project, type ProjectDeleteChoice, type ProjectFile } from '@app/contracts/chat';
import { DomainError, type PublicOf } from '@app/platform';
import { randomUUID } from 'node:crypto';
import { ownerOf, PROJECT_NOT_FOUND } from '../conversations/conversations.service';
import { AttachmentsService } from '../replies/attachments.service';
import type { ProjectRecord } from './project.entity';
import { ProjectsRepository } from './projects.repository';

export function toProjectView(p: ProjectRecord): Project {
  return {
    project_id: p.id,
    name: p.name,
    instructions: p.instructions,
    files: p.files,
    conversation_count: p.conversationCount,
    created_at: p.createdAt.toISOString(),
    updated_at: p.updatedAt.toISOString(),
  };
}

/**
 * Projects: a user's conversations grouped, with instructions and files the model gets in each of
 * them. Someone else's project is "not found" (404), as their conversations are; so is a file that
 * is not one of the caller's uploads.
 */
@Injectable()
export class ProjectsService {
  constructor(
    @Inject(ProjectsRepository) private readonly repo: PublicOf<ProjectsRepository>,
    @Inject(AttachmentsService) private readonly attachments: Pick<AttachmentsService, 'describeOwn'>,
  ) {}

  async list(caller: Caller): Promise<Project[]> {
    return (await this.repo.list(ownerOf(caller))).map(toProjectView);
  }

  async get(caller: Caller, projectId: string): Promise<Project> {
    return toProjectView(await this.require(caller, projectId));
  }

  async create(caller: Caller, input: { name: string; instructions?: string; files?: { object_store_object_id: string }[] }) {
    const userId = ownerOf(caller);
    const files = await this.filesOf(caller, input.files ?? []);
    const project = await this.repo.create(
      { id: randomUUID(), userId, name: input.name.trim(), instructions: input.instructions ?? '', files },
      PROJECT_LIMITS.perUserMax,
    );
    return toProjectView(project);
  }

  async update(
    caller: Caller,
    input: { project_id: string; name?: string; instructions?: string; files?: { object_store_object_id: string }[] },
  ): Promise<Project> {
    const userId = ownerOf(caller);
    // Someone else's project is not found before their files are looked at.
    await this.require(caller, input.project_id);
    const files = input.files ? await this.filesOf(caller, input.files) : undefined;
    const updated = await this.repo.update(userId, input.project_id, { name: input.name?.trim(), instructions: input.instructions, files });
    if (!updated) throw DomainError.notFound(PROJECT_NOT_FOUND);
    return toProjectView(updated);
  }

  async remove(caller: Caller, projectId: string, conversations: ProjectDeleteChoice) {
    const chatIds = await this.repo.remove(ownerOf(caller), projectId, conversations);
    if (!chatIds) throw DomainError.notFound(PROJECT_NOT_FOUND);
    return { project_id: projectId, conversations, chat_ids: chatIds };
  }

  async require(caller: Caller, projectId: string): Promise<ProjectRecord> {
    const project = await this.repo.find(ownerOf(caller), projectId);
    if (!project) throw DomainError.notFound(PROJECT_NOT_FOUND);
    return project;
  }

  /** The caller's own uploads (404 for any other), once each, as the files service describes them. */
  private async filesOf(caller: Caller, refs: { object_store_object_id: string }[]): Promise<ProjectFile[]> {
    const unique = [...new Set(refs.map((f) => f.object_store_object_id))];
    if (unique.length > PROJECT_LIMITS.filesMax) throw DomainError.badRequest(`A project holds at most ${PROJECT_LIMITS.filesMax} files.`);
    return this.attachments.describeOwn(caller, unique);
  }
}
