import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** The keys access tokens are signed with (ES256). Created on first use; rotated by retiring. */
@Entity({ name: 'signing_key' })
export class SigningKeyEntity {
  @PrimaryColumn('text')
  kid!: string;

  /** As stored: sealed (AES-256-GCM, see KeyEnvelope) when a key encryption key is configured, else the JWK. */
  @Column({ name: 'private_jwk', type: 'jsonb' })
  privateJwk!: Record<string, unknown>;

  @Column({ name: 'public_jwk', type: 'jsonb' })
  publicJwk!: Record<string, unknown>;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'retired_at', type: 'timestamptz', nullable: true })
  retiredAt!: Date | null;
}

/** Server-side secrets the service makes itself (the pepper of code hashes). */
@Entity({ name: 'auth_secret' })
export class AuthSecretEntity {
  @PrimaryColumn('text')
  name!: string;

  /** As stored: `sealed:A256GCM:...` when a key encryption key is configured, else the secret. */
  @Column('text')
  value!: string;
}
