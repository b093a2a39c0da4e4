import { z } from 'zod';

import {
  CreateProjectBodySchema,
  DeleteProjectQuerySchema,
  PROJECT_RPC,
  ProjectDeletedSchema,
  ProjectParamsSchema,
  ProjectSchema,
  UpdateProjectBodySchema,
} from '../../chat/projects';
import { defineRoute } from '../route';

const PROJECT_NOT_FOUND = 'No such project of the caller';

/** Projects (issue 25, part 5): conversations grouped, with instructions and files the model gets in each of them. */
export const projectRoutes = {
  list: defineRoute({
    method: 'GET',
    path: '/api/v1/projects/',
    summary: "The caller's projects, by name",
    tag: 'projects',
    auth: 'bearer',
    response: z.array(ProjectSchema),
    rpc: PROJECT_RPC.list,
  }),
  create: defineRoute({
    method: 'POST',
    path: '/api/v1/projects/',
    summary:
      "Start a project: a name, instructions added to the prompt of its conversations, and files (ids of the caller's uploads) the model gets in them",
    tag: 'projects',
    auth: 'bearer',
    body: CreateProjectBodySchema,
    response: ProjectSchema,
    status: 201,
    errors: { 404: "A file that is not one of the caller's uploads", 409: 'Too many projects (200)' },
    rpc: PROJECT_RPC.create,
  }),
  get: defineRoute({
    method: 'GET',
    path: '/api/v1/projects/:project_id',
    summary: 'A project',
    tag: 'projects',
    auth: 'bearer',
    params: ProjectParamsSchema,
    response: ProjectSchema,
    errors: { 404: PROJECT_NOT_FOUND },
    rpc: PROJECT_RPC.get,
  }),
  update: defineRoute({
    method: 'PATCH',
    path: '/api/v1/projects/:project_id',
    summary: 'Rename a project, or set its instructions or its files (the whole list)',
    tag: 'projects',
    auth: 'bearer',
    params: ProjectParamsSchema,
    body: UpdateProjectBodySchema,
    response: ProjectSchema,
    errors: { 404: `${PROJECT_NOT_FOUND}, or a file that is not one of the caller's uploads` },
    rpc: PROJECT_RPC.update,
  }),
  remove: defineRoute({
    method: 'DELETE',
    path: '/api/v1/projects/:project_id',
    summary: 'Delete a project: `conversations=delete` deletes its conversations with it, `conversations=keep` moves them out of it',
    tag: 'projects',
    auth: 'bearer',
    params: ProjectParamsSchema,
    query: DeleteProjectQuerySchema,
    response: ProjectDeletedSchema,
    errors: { 404: PROJECT_NOT_FOUND },
    rpc: PROJECT_RPC.remove,
  }),
} as const;
