import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'invite_link' })
export class InviteEntity {
  @PrimaryColumn('text')
  id!: string;

  @Column({ name: 'created_by', type: 'uuid' })
  createdBy!: string;

  @Column({ name: 'group_id', type: 'text', nullable: true })
  groupId!: string | null;

  @Column({ name: 'max_uses', type: 'int' })
  maxUses!: number;

  @Column({ type: 'int', default: 0 })
  uses!: number;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}

@Entity({ name: 'invite_redemption' })
export class InviteRedemptionEntity {
  @PrimaryColumn({ name: 'invite_id', type: 'text' })
  inviteId!: string;

  @PrimaryColumn({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @CreateDateColumn({ name: 'redeemed_at', type: 'timestamptz' })
  redeemedAt!: Date;
}
