import { Injectable } from '@nestjs/common';
import type { ProjectDeleteChoice, ProjectFile } from '@app/contracts/chat';
import { DomainError, lockLivingUser } from '@app/platform';
import { DataSource } from 'typeorm';
import type { ProjectRecord } from './project.entity';

interface ProjectRow {
  id: string;
  user_id: string;
  name: string;
  instructions: string;
  files: ProjectFile[];
  conversation_count: number;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = `p.id, p.user_id, p.name, p.instructions, p.files, p.created_at, p.updated_at,
  (SELECT count(*) FROM conversation c WHERE c.project_id = p.id)::int AS conversation_count`;

function recordOf(row: ProjectRow): ProjectRecord {
  return {
    id: row.id,
    userId: row.user_id,
    name: row.name,
    instructions: row.instructions,
    files: row.files,
    conversationCount: row.conversation_count,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The only place that touches the project table. Every statement is scoped by the owner. */
@Injectable()
export class ProjectsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async list(userId: string): Promise<ProjectRecord[]> {
    const rows: ProjectRow[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM project p WHERE p.user_id = $1 ORDER BY lower(p.name), p.created_at`,
      [userId],
    );
    return rows.map(recordOf);
  }

  async find(userId: string, id: string): Promise<ProjectRecord | null> {
    const rows: ProjectRow[] = await this.dataSource.query(`SELECT ${COLUMNS} FROM project p WHERE p.id = $1 AND p.user_id = $2`, [
      id,
      userId,
    ]);
    return rows[0] ? recordOf(rows[0]) : null;
  }

  /** What a reply in one of the project's conversations needs of it (one small read on the reply's path). */
  async promptOf(userId: string, id: string): Promise<Pick<ProjectRecord, 'name' | 'instructions' | 'files'> | null> {
    const rows: Pick<ProjectRow, 'name' | 'instructions' | 'files'>[] = await this.dataSource.query(
      'SELECT name, instructions, files FROM project WHERE id = $1 AND user_id = $2',
      [id, userId],
    );
    return rows[0] ?? null;
  }

  /**
   * A new project, refused when the user has `max` already (counted under a lock of the user's
   * projects, so parallel creations cannot pass it) or their account was deleted meanwhile.
   */
  async create(
    project: { id: string; userId: string; name: string; instructions: string; files: ProjectFile[] },
    max: number,
  ): Promise<ProjectRecord> {
    return this.dataSource.transaction(async (manager) => {
      await lockLivingUser(manager, project.userId);
      await manager.query("SELECT pg_advisory_xact_lock(hashtext('project:' || $1::text))", [project.userId]);
      const [{ n }]: { n: number }[] = await manager.query('SELECT count(*)::int AS n FROM project WHERE user_id = $1', [project.userId]);
      if (n >= max) throw DomainError.conflict(`You have ${max} projects, the most there can be: delete one first.`);
      const [row]: ProjectRow[] = await manager.query(
        `INSERT INTO project (id, user_id, name, instructions, files) VALUES ($1, $2, $3, $4, $5::jsonb)
         RETURNING id, user_id, name, instructions, files, created_at, updated_at, 0 AS conversation_count`,
        [project.id, project.userId, project.name, project.instructions, JSON.stringify(project.files)],
      );
      return recordOf(row);
    });
  }

  /** Changes what is given (null: kept); null when the project is not the user's. */
  async update(
    userId: string,
    id: string,
    change: { name?: string; instructions?: string; files?: ProjectFile[] },
  ): Promise<ProjectRecord | null> {
    const [rows]: [ProjectRow[], number] = await this.dataSource.query(
      `UPDATE project p SET
         name = COALESCE($3, p.name),
         instructions = COALESCE($4, p.instructions),
         files = COALESCE($5::jsonb, p.files),
         updated_at = now()
       WHERE p.id = $1 AND p.user_id = $2
       RETURNING ${COLUMNS}`,
      [id, userId, change.name ?? null, change.instructions ?? null, change.files ? JSON.stringify(change.files) : null],
    );
    return rows[0] ? recordOf(rows[0]) : null;
  }

  /**
   * Deletes a project and, as chosen, its conversations (their messages and shares with them) or
   * none (they move out of it), in one transaction. The ids of those conversations; null when the
   * project is not the user's.
   */
  async remove(userId: string, id: string, conversations: ProjectDeleteChoice): Promise<string[] | null> {
    return this.dataSource.transaction(async (manager) => {
      const found: { id: string }[] = await manager.query('SELECT id FROM project WHERE id = $1 AND user_id = $2 FOR UPDATE', [id, userId]);
      if (!found.length) return null;
      const [chats]: [{ id: string }[], number] = await manager.query(
        conversations === 'delete'
          ? 'DELETE FROM conversation WHERE project_id = $1 AND user_id = $2 RETURNING id'
          : 'UPDATE conversation SET project_id = NULL, updated_at = now() WHERE project_id = $1 AND user_id = $2 RETURNING id',
        [id, userId],
      );
      await manager.query('DELETE FROM project WHERE id = $1 AND user_id = $2', [id, userId]);
      return chats.map((c) => c.id);
    });
  }
}
