import type { ProjectFile } from '@app/contracts/chat';
import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** A user's project: conversations grouped, with instructions and files the model gets in each of them. */
@Entity({ name: 'project' })
export class ProjectEntity {
  @PrimaryColumn('uuid')
  id!: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @Column({ type: 'text' })
  name!: string;

  /** Added to the prompt of every conversation of the project ('' for none). */
  @Column({ type: 'text', default: '' })
  instructions!: string;

  /** The user's uploads the model gets in every conversation of the project, as the files service described them. */
  @Column({ type: 'jsonb', default: () => "'[]'::jsonb" })
  files!: ProjectFile[];

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}

/** A project with how many conversations it holds (what lists and answers show). */
export interface ProjectRecord {
  id: string;
  userId: string;
  name: string;
  instructions: string;
  files: ProjectFile[];
  conversationCount: number;
  createdAt: Date;
  updatedAt: Date;
}
