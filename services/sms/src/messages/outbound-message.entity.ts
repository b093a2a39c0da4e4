import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** One text the service sent, or tried to send: kept for the development inbox and for export (sign-in code texts for a day). */
@Entity({ name: 'outbound_message' })
export class OutboundMessageEntity {
  @PrimaryColumn('uuid')
  id!: string;

  @Column({ name: 'to_number', type: 'text' })
  toNumber!: string;

  /**
   * The account the number belongs to, once known: given by the sender, or linked on the user's
   * export. A sign-in code is texted before the account may exist, so the purge also goes by number.
   */
  @Column({ name: 'user_id', type: 'uuid', nullable: true })
  userId!: string | null;

  @Column({ type: 'text' })
  body!: string;

  /** login_code | notice | reply */
  @Column({ type: 'text' })
  purpose!: string;

  /** console | twilio */
  @Column({ type: 'text' })
  provider!: string;

  /** pending, then the provider's answer (delivered, queued, ...) or failed. */
  @Column({ type: 'text' })
  status!: string;

  /** Twilio's message SID. */
  @Column({ name: 'provider_message_id', type: 'text', nullable: true })
  providerMessageId!: string | null;

  /** Why sending failed, as the provider said it (never a credential). */
  @Column({ type: 'text', nullable: true })
  error!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
