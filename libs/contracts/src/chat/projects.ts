import { z } from 'zod';
import { defineRpc } from '../common/contract';
import { PROJECT_LIMITS } from './project-limits';

export { PROJECT_LIMITS } from './project-limits';

// ---- Projects (issue 25, part 5): conversations grouped, with instructions and files of their own ----

const id = z.uuid({ message: 'must be an id (UUID)' });

/** A file of a project: one of its owner's uploads (POST /api/v1/files/), shown to the model in every conversation of the project. */
export const ProjectFileSchema = z.object({
  object_store_object_id: z.string(),
  mime_type: z.string(),
  filename: z.string(),
});
export type ProjectFile = z.infer<typeof ProjectFileSchema>;

export const ProjectSchema = z.object({
  project_id: z.string(),
  name: z.string(),
  /** Added to the prompt of every conversation of the project. */
  instructions: z.string(),
  files: z.array(ProjectFileSchema),
  /** How many conversations it holds (temporary chats are never in a project). */
  conversation_count: z.number().int().nonnegative(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Project = z.infer<typeof ProjectSchema>;

const projectName = z.string().trim().min(1, 'must not be empty').max(PROJECT_LIMITS.nameMaxChars);
const instructions = z.string().max(PROJECT_LIMITS.instructionsMaxChars);
/** A file given by its id (its type and name are the files service's, not the caller's word). */
const fileRef = z.object({ object_store_object_id: z.string().min(1).max(128) });
const files = z.array(fileRef).max(PROJECT_LIMITS.filesMax, `at most ${PROJECT_LIMITS.filesMax} files`);

export const CreateProjectBodySchema = z.object({ name: projectName, instructions: instructions.optional(), files: files.optional() });
export const UpdateProjectBodySchema = z
  .object({ name: projectName.optional(), instructions: instructions.optional(), files: files.optional() })
  .refine((b) => b.name !== undefined || b.instructions !== undefined || b.files !== undefined, 'give name, instructions or files');
export const ProjectParamsSchema = z.object({ project_id: id });

/** Deleting a project: `delete` its conversations with it, or `keep` them (moved out of it). Asked, never assumed. */
export const PROJECT_DELETE_CHOICES = ['delete', 'keep'] as const;
export type ProjectDeleteChoice = (typeof PROJECT_DELETE_CHOICES)[number];
export const DeleteProjectQuerySchema = z.object({
  conversations: z.enum(PROJECT_DELETE_CHOICES, { message: "must be 'delete' or 'keep'" }),
});
export const ProjectDeletedSchema = z.object({
  project_id: z.string(),
  conversations: z.enum(PROJECT_DELETE_CHOICES),
  /** The conversations deleted (`delete`) or moved out (`keep`). */
  chat_ids: z.array(z.string()),
});

/** The projects' calls, answered by the chat service (which owns conversations). */
export const PROJECT_RPC = {
  list: defineRpc({
    subject: 'chat.project.list',
    request: z.object({}).strict(),
    response: z.array(ProjectSchema),
    description: "The caller's projects, by name",
  }),
  get: defineRpc({
    subject: 'chat.project.get',
    request: z.object({ project_id: id }).strict(),
    response: ProjectSchema,
    description: 'One project of the caller',
  }),
  create: defineRpc({
    subject: 'chat.project.create',
    request: z.object({ name: projectName, instructions: instructions.optional(), files: files.optional() }).strict(),
    response: ProjectSchema,
    description: 'Start a project',
  }),
  update: defineRpc({
    subject: 'chat.project.update',
    request: z
      .object({ project_id: id, name: projectName.optional(), instructions: instructions.optional(), files: files.optional() })
      .strict(),
    response: ProjectSchema,
    description: 'Rename a project, or set its instructions or files (the whole list: files not in it are taken out)',
  }),
  remove: defineRpc({
    subject: 'chat.project.delete',
    request: z.object({ project_id: id, conversations: z.enum(PROJECT_DELETE_CHOICES) }).strict(),
    response: ProjectDeletedSchema,
    description: 'Delete a project, with its conversations or keeping them (moved out)',
  }),
} as const;
